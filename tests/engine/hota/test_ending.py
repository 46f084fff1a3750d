"""Ending the game (104): wins, losses, draws, leaving."""

from __future__ import annotations

import pytest

from engine.hota import Action, IllegalAction, TERMINAL
from engine.hota.state import LOOP_CAP

from .helpers import act, labels, passes, start


# --- 104.1, 104.2b, 104.3e -----------------------------------------------------------------------

def test_the_game_ends_at_once_when_a_player_wins():
    """104.1, 104.2b."""
    st = start(players=3, table={"P2": ["Pact of Victory"]})
    act(st, "P1 passes", "P2 activates Pact of Victory")
    assert st.is_terminal() and st.current_player() == TERMINAL and st.legal_actions() == []
    assert st.outcome() == ["lost", "won", "lost"] and st.returns() == [-1.0, 1.0, -1.0]
    s = st.snapshot()
    assert s["step"] == "game_over" and s["priority"] == -1
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("pass", 0))
    assert info.value.rule == "104.1"


def test_twin_fates_on_oneself_loses():
    """104.3e: winning and losing at the same time is a loss."""
    st = start(table={"P1": ["Twin Fates"]})
    act(st, "P1 activates Twin Fates targeting P1")
    assert st.outcome() == ["lost", "won"]
    assert "P1 would win and lose at the same time: P1 loses (104.3e)" in st.history


def test_twin_fates_on_oneself_under_aegis_wins():
    """101.2: the loss can't happen, so only the win does."""
    st = start(table={"P1": ["Twin Fates", "Aegis of Immortality"]})
    act(st, "P1 activates Twin Fates targeting P1")
    assert st.outcome() == ["won", "lost"]


def test_twin_fates_on_oneself_under_aegis_against_a_gatekeeper_does_nothing():
    st = start(table={"P1": ["Twin Fates", "Aegis of Immortality"], "P2": ["Gatekeeper"]})
    act(st, "P1 activates Twin Fates targeting P1")
    assert st.outcome() == ["playing", "playing"]


def test_twin_fates_on_oneself_against_a_gatekeeper_is_only_a_loss():
    st = start(players=3, table={"P1": ["Twin Fates"], "P2": ["Gatekeeper"]})
    act(st, "P1 activates Twin Fates targeting P1")
    assert st.outcome() == ["lost", "playing", "playing"]
    assert st.snapshot()["active"] == 1  # assumed:active-player-leaves


def test_twin_fates_on_an_opponent():
    st = start(players=3, table={"P1": ["Twin Fates"]})
    act(st, "P1 activates Twin Fates targeting P3")
    assert st.outcome() == ["won", "lost", "lost"]


def test_twin_fates_against_a_gatekeeper_still_makes_the_target_lose():
    st = start(players=3, table={"P1": ["Twin Fates"], "P3": ["Gatekeeper"]})
    act(st, "P1 activates Twin Fates targeting P2")
    assert st.outcome() == ["playing", "lost", "playing"]


# --- 104.3b, 104.3c, 104.4a ----------------------------------------------------------------------

def test_lethal_damage_loses_at_the_check_after_the_resolution():
    """104.3b."""
    st = start(table={"P1": ["Ember Bolt"]}, starting_life=10)
    act(st, "P1 activates Ember Bolt targeting P2")
    assert st.outcome() == ["won", "lost"]
    assert st.history[-3:] == ["P2 loses (104.3b: 10 damage)", "P2 leaves the game (104.5)",
                               "P1 wins the game (104.2a: every opponent has left the game)"]


def test_simultaneous_lethal_damage_is_a_draw():
    """104.4a: every player still in the game loses at the same check. The
    markers are arranged: every ability here damages one player at a time."""
    st = start(players=3)
    st.concede(2)
    st.damage = [30, 31, 0]
    act(st, "P1 passes")  # the check before P2 receives priority
    assert st.outcome() == ["drew", "drew", "lost"] and st.returns() == [0.0, 0.0, -1.0]
    assert st.history[-1] == "the game is a draw (104.4a: every player still in the game lost at once)"


def test_drawing_from_an_empty_library_loses_at_the_next_check():
    """104.3c, assumed:draw-step: nine-card decks run out on P2's third turn."""
    st = start()
    passes(st, 10)
    assert st.outcome() == ["won", "lost"]
    assert "P2 draws 0 of 1: the library is empty (104.3c)" in st.history
    assert "P2 loses (104.3c: drew from an empty library)" in st.history


# --- 104.4b: loops ------------------------------------------------------------------------------

LOOP = {"P1": ["Spirit Caller", "Echo Chamber"], "P2": ["Culling Field"]}


def test_a_loop_of_mandatory_actions_is_a_draw():
    """104.4b: Echo Chamber and Culling Field with a token repeat for ever."""
    st = start(table=LOOP)
    act(st, "P1 activates Spirit Caller")
    assert st.outcome() == ["drew", "drew"]
    assert st.history[-1] == "the game is a draw (104.4b: a loop of mandatory actions)"
    assert "P1's Spirit vanishes (109.5f)" in st.history


def test_the_same_loop_with_two_culling_fields():
    """The second Culling Field finds the token gone (101.3); still a loop."""
    st = start(players=3, table={"P1": ["Spirit Caller", "Echo Chamber"], "P2": ["Culling Field"],
                                 "P3": ["Culling Field"]})
    act(st, "P1 activates Spirit Caller")
    assert st.outcome() == ["drew", "drew", "drew"]
    assert any("nothing to destroy (101.3)" in line for line in st.history)


def test_a_series_of_mandatory_actions_that_grows_without_end_is_a_draw_too():
    """104.4b (reading): two Echo Chambers double every leaving, so the state
    never repeats; the series still cannot stop."""
    st = start(table={"P1": ["Spirit Caller", "Echo Chamber", "Culling Field"], "P2": ["Echo Chamber"]})
    act(st, "P1 activates Spirit Caller")
    assert st.outcome() == ["drew", "drew"]
    # Ended by counting resolutions, not by time: the series stops at the cap.
    assert st.history[-1] == "the game is a draw (104.4b: a loop of mandatory actions)"
    assert sum("triggers (" in line for line in st.history) <= 3 * (LOOP_CAP + 1)


def test_a_loop_with_an_optional_action_is_no_draw():
    """104.4b: with Whispering Echo every round waits for a decision."""
    st = start(table={"P1": ["Spirit Caller", "Whispering Echo"], "P2": ["Culling Field"]})
    act(st, "P1 activates Spirit Caller")
    for _ in range(25):
        s = st.snapshot()
        assert s["step"] == "optional_trigger" and s["waiting_triggers"] == [
            {"card": "Whispering Echo", "controller": 0, "token_controller": 0}]
        assert labels(st) == ["P1 creates a Spirit (Whispering Echo)", "P1 declines (Whispering Echo)"]
        act(st, "P1 creates a Spirit (Whispering Echo)")
    assert st.outcome() == ["playing", "playing"]
    act(st, "P1 declines (Whispering Echo)")
    s = st.snapshot()
    assert s["step"] == "priority" and s["priority"] == 0 and s["tokens"] == [0, 0]


def test_warding_sigil_breaks_the_loop():
    """109.5d: no Spirit is created at all, so nothing enters or leaves."""
    st = start(table={**LOOP, "P2": ["Culling Field", "Warding Sigil"]})
    act(st, "P1 activates Spirit Caller")
    assert st.outcome() == ["playing", "playing"] and st.snapshot()["tokens"] == [0, 0]


# --- 104.4c, 104.5 ------------------------------------------------------------------------------

def test_truce_banner_is_a_draw_for_the_players_still_in_the_game():
    """104.4c; a player who left earlier has still lost."""
    st = start(players=3, table={"P1": ["Truce Banner"]})
    st.concede(1)
    act(st, "P1 activates Truce Banner")
    assert st.outcome() == ["drew", "lost", "drew"] and st.returns() == [0.0, -1.0, 0.0]


def test_a_player_who_leaves_takes_their_entities_and_tokens():
    """104.5, assumed:leaver-objects; their tokens leaving trigger nothing."""
    st = start(players=3, table={"P2": ["Spirit Caller", "Ember Bolt"], "P3": ["Echo Chamber"]})
    act(st, "P1 passes", "P2 activates Spirit Caller")
    assert st.snapshot()["tokens"] == [0, 1, 0]
    st.concede(1)
    s = st.snapshot()
    assert s["tokens"] == [0, 0, 0] and s["tokens_elsewhere"] == [0, 0, 0]
    assert [e["card"] for e in s["entities"]] == ["Echo Chamber"] and s["waiting_triggers"] == []


def test_when_the_active_player_leaves_the_next_player_begins_a_turn():
    """assumed:active-player-leaves."""
    st = start(players=3)
    st.concede(0)
    s = st.snapshot()
    assert s["active"] == 1 and s["priority"] == 1 and s["hand"] == [8, 8, 7]


def test_when_the_priority_holder_leaves_priority_passes_on():
    st = start(players=4)
    act(st, "P1 passes")
    st.concede(1)
    assert st.snapshot()["priority"] == 2 and st.snapshot()["passes"] == 1


def test_when_the_last_player_to_pass_leaves_the_turn_ends():
    """assumed:priority: every player still in the game has passed in succession."""
    st = start(players=3)
    act(st, "P1 passes", "P2 passes")
    st.concede(2)
    s = st.snapshot()
    assert s["active"] == 1 and s["priority"] == 1 and s["passes"] == 0


def test_conceding_during_the_mulligans_and_before_the_first_player_is_picked():
    from .helpers import deal, new
    st = new(players=3)
    st.apply_action(st.chance_outcomes()[0][0])
    st.concede(0)
    assert [str(a) for a, _ in st.chance_outcomes()] == ["P2 goes first", "P3 goes first"]
    st = deal(new(players=3), first=0)
    act(st, "P1 declares mulligan 0", "P2 declares mulligan 0")
    st.concede(2)
    s = st.snapshot()
    assert s["mulligan_done"] and s["active"] == 0 and s["step"] == "priority"
    st = deal(new(players=3), first=0)
    st.concede(0)  # the first player leaves: the next one declares and begins
    act(st, "P2 declares mulligan 0", "P3 declares mulligan 0")
    s = st.snapshot()
    assert s["active"] == 1 and not s["first_turn"]
