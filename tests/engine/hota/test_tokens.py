"""Tokens and objects (107-109): ownership, leaving, vanishing, no return."""

from __future__ import annotations

import pytest

from engine.hota import Action, IllegalAction

from .helpers import act, labels, passes, start


def test_a_spirit_is_owned_and_controlled_by_its_creator():
    """107.1, 107.2, 109.2a, 109.5a, 109.5c: "Spirit" is both its name and its type."""
    st = start(table={"P2": ["Spirit Caller"]})
    act(st, "P1 passes", "P2 activates Spirit Caller")
    assert st.snapshot()["tokens"] == [0, 1]
    assert st.tokens[0].owner == st.tokens[0].controller == 1
    assert "P2 creates a Spirit token (Spirit Caller)" in st.history


def test_a_returned_token_triggers_its_leaving_then_vanishes_at_the_check():
    """109.5f: Banishing Gale sends an opponent's Spirit to its owner's hand; Echo
    Chamber triggers before the token vanishes, and gives its controller a new one."""
    st = start(table={"P1": ["Banishing Gale", "Echo Chamber"], "P2": ["Spirit Caller"]})
    act(st, "P1 passes", "P2 activates Spirit Caller")
    assert labels(st) == ["P1 passes", "P1 activates Banishing Gale targeting P2's Spirit"]
    act(st, "P1 activates Banishing Gale targeting P2's Spirit")
    tail = st.history[-5:]
    assert tail == ["P1 activates Banishing Gale targeting P2's Spirit",
                    "P2's Spirit goes to hand (P1's Banishing Gale)",
                    "P1's Echo Chamber triggers (P2's Spirit leaves the battlefield)",
                    "P2's Spirit vanishes (109.5f)",
                    "P2 creates a Spirit token (Echo Chamber)"]
    s = st.snapshot()
    assert s["tokens"] == [0, 1] and s["tokens_elsewhere"] == [0, 0] and s["hand"] == [7, 7]


def test_a_token_that_left_the_battlefield_never_returns():
    """109.5g, 101.3: Rewind Portal's return is skipped; the token stays in exile
    and vanishes at the next check."""
    st = start(table={"P1": ["Spirit Caller", "Rewind Portal"]})
    assert "P1 activates Rewind Portal targeting P1's Spirit" not in labels(st)  # no legal target yet
    act(st, "P1 activates Spirit Caller", "P1 activates Rewind Portal targeting P1's Spirit")
    assert "P1's Spirit can't return to the battlefield (109.5g): it stays in exile (101.3)" in st.history
    assert st.history[-1] == "P1's Spirit vanishes (109.5f)"
    assert st.snapshot()["tokens"] == [0, 0]


def test_rewind_portal_targets_only_a_token_you_control():
    """108.4."""
    st = start(table={"P1": ["Rewind Portal"], "P2": ["Spirit Caller"]})
    act(st, "P1 passes", "P2 activates Spirit Caller")
    assert labels(st) == ["P1 passes"]
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 0, "Rewind Portal", 1, "Spirit"))
    assert info.value.rule == "108.4"


def test_banishing_gale_needs_a_token_on_the_battlefield():
    st = start(table={"P1": ["Banishing Gale"]})
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 0, "Banishing Gale", 1, "Spirit"))
    assert info.value.rule == "108.2"


def test_warding_sigil_stops_spirits_from_being_created_at_all():
    """109.5d."""
    st = start(table={"P1": ["Spirit Caller"], "P2": ["Warding Sigil", "Culling Field"]})
    act(st, "P1 activates Spirit Caller")
    s = st.snapshot()
    assert s["tokens"] == [0, 0] and s["waiting_triggers"] == []
    assert st.history[-1] == "no Spirit is created for P1 (Spirit Caller; 109.5d: P2's Warding Sigil)"


def test_a_silenced_warding_sigil_lets_spirits_in():
    st = start(table={"P1": ["Spirit Caller", "Silencing Rune"], "P2": ["Warding Sigil"]})
    act(st, "P1 activates Silencing Rune targeting P2's Warding Sigil", "P1 activates Spirit Caller")
    assert st.snapshot()["tokens"] == [1, 0]


def test_culling_field_destroys_an_entering_token_and_a_second_one_finds_it_gone():
    """101.3: destroying a token that has already left does nothing."""
    st = start(players=3, table={"P2": ["Culling Field"], "P3": ["Spirit Caller", "Culling Field"]})
    act(st, "P1 passes", "P2 passes", "P3 activates Spirit Caller")
    assert st.snapshot()["tokens"] == [0, 0, 0]
    # triggers of one event wait in turn order from the active player (P1): P2's first
    assert st.history[-5:-2] == ["P2's Culling Field triggers (P3's Spirit enters the battlefield)",
                                 "P3's Culling Field triggers (P3's Spirit enters the battlefield)",
                                 "P3's Spirit goes to discard (P2's Culling Field destroys it)"]
    assert st.history[-1] == "P3's Culling Field: that Spirit has already left the battlefield, nothing to destroy (101.3)"


def test_whispering_echo_asks_the_tokens_controller_who_gets_the_spirit():
    """assumed:trigger-order, 109.2a: "that token's controller may create a Spirit"."""
    st = start(table={"P1": ["Banishing Gale", "Whispering Echo"], "P2": ["Spirit Caller"]})
    act(st, "P1 passes", "P2 activates Spirit Caller",
        "P1 activates Banishing Gale targeting P2's Spirit")
    s = st.snapshot()
    assert s["step"] == "optional_trigger" and st.current_player() == 1 and s["priority"] == -1
    assert s["waiting_triggers"] == [{"card": "Whispering Echo", "controller": 0, "token_controller": 1}]
    assert s["tokens_elsewhere"] == [0, 0]  # the check ran before the trigger resolves
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("optional", 0, "Whispering Echo", choice="create"))
    assert info.value.rule == "assumed:trigger-order"
    act(st, "P2 creates a Spirit (Whispering Echo)")
    s = st.snapshot()
    assert s["tokens"] == [0, 1] and s["step"] == "priority" and s["priority"] == 0


def test_a_trigger_whose_controller_concedes_while_deciding_is_gone():
    st = start(players=3, table={"P1": ["Spirit Caller", "Whispering Echo"], "P2": ["Culling Field"]})
    act(st, "P1 activates Spirit Caller")
    assert st.snapshot()["step"] == "optional_trigger"
    st.concede(0)
    s = st.snapshot()
    assert s["waiting_triggers"] == [] and s["active"] == 1 and s["step"] == "priority"


def test_tokens_stay_until_they_leave_and_a_new_turn_changes_nothing():
    st = start(table={"P1": ["Spirit Caller"]})
    act(st, "P1 activates Spirit Caller")
    passes(st, 2)
    act(st, "P2 passes", "P1 activates Spirit Caller")
    assert st.snapshot()["tokens"] == [2, 0]
