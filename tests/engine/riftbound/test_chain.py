"""The chain of the Riftbound engine: the initial chain (showdown.initial-chain),
players acting on a chain (showdown.actions, assumed:chain-reactions), its
resolution from the top (assumed:chain-order), and the closed showdown
(showdown.closed) while a chain is on the table."""

from __future__ import annotations

import pytest

from engine.riftbound import Action, EngineSetupError, IllegalAction, RiftboundGame
from .helpers import act, everyone_passes, labels, table, u, unit

CONTESTED = [{"controller": 1, "contested_by": 0}, {}]


def refused(st, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        st.apply_action(action)
    return caught.value


def test_without_reactions_the_initial_chain_resolves_at_once_and_the_showdown_is_open():
    st = table([unit("Drum Herald", 0, "bf1"), unit("Hill Raider", 1, "bf1")], battlefields=CONTESTED, spells=[1, 1])
    act(st, "P1 starts combat at bf1")
    d = st.to_dict()
    assert d["step"] == "showdown" and d["chain"] == [] and d["combat"]["closed"] is False
    assert u(st, "P1:Drum Herald")["buffed"] and d["combat"]["focus"] == 0
    assert "resolves" not in " ".join(st.history)  # nobody was asked: no link is reported on its own


def test_a_reaction_on_the_initial_chain_resolves_before_the_trigger_under_it():
    st = table([unit("Drum Herald", 0, "bf1"), unit("Hill Raider", 1, "bf1")], battlefields=CONTESTED,
               reactions=[0, 1])
    act(st, "P1 starts combat at bf1")
    d = st.to_dict()
    assert d["step"] == "chain" and d["combat"]["closed"] is True and st.current_player() == 1
    assert d["chain"] == [{"kind": "trigger", "player": 0, "unit": "P1:Drum Herald", "battlefield": 0}]
    # P2 holds no spell of the showdown's budget, only a reaction: that is what pays here.
    act(st, "P2 recalls P1's Drum Herald")
    assert st.to_dict()["reactions"] == [0, 0] and st.to_dict()["step"] == "showdown"
    assert st.history[-4:] == [
        "P2's recall of P1's Drum Herald resolves",
        "P1's Drum Herald's trigger resolves",
        "P1's Drum Herald rallies: +1 might (3)",
        "the initial chain has resolved; P1 keeps the focus",
    ]
    assert u(st, "P1:Drum Herald")["zone"] == "base" and st.to_dict()["combat"]["closed"] is False


def test_a_trigger_whose_unit_has_left_play_does_nothing():
    st = table([unit("Drum Herald", 0, "bf1"), unit("Hill Raider", 1, "bf1"), unit("Grave Reaper", 1, "hand")],
               battlefields=CONTESTED, reactions=[0, 1])
    act(st, "P1 starts combat at bf1", "P2 plays Grave Reaper to bf1")
    assert u(st, "P1:Drum Herald")["zone"] == "trash"
    assert "P1's Drum Herald's trigger does nothing: it has left play" in st.history
    # No attacker is left: the showdown goes on, open, with the focus P1's.
    assert st.to_dict()["step"] == "showdown" and st.current_player() == 0


def test_a_showdown_spell_goes_on_the_chain_where_a_reaction_can_answer_it():
    st = table([unit("Hill Raider", 0, "bf1"), unit("Quarry Brute", 1, "bf1")], battlefields=CONTESTED,
               spells=[1, 0], reactions=[0, 1])
    act(st, "P1 starts combat at bf1")
    assert st.to_dict()["combat"]["closed"] is False
    act(st, "P1 stuns P2's Quarry Brute")
    d = st.to_dict()
    # The spell's cost and the focus move at once (assumed:showdown-focus); its effect waits.
    assert d["step"] == "chain" and d["spells"] == [0, 0] and d["combat"]["focus"] == 1
    assert not u(st, "P2:Quarry Brute")["stunned"] and labels(st)[0] == "P2 passes"
    act(st, "P2 recalls P2's Quarry Brute")
    assert "P1's stun of P2's Quarry Brute does nothing: P2's Quarry Brute is not at the combat's battlefield" \
        in st.history
    d = st.to_dict()
    assert d["step"] == "showdown" and d["chain"] == [] and d["combat"]["focus"] == 1
    assert u(st, "P2:Quarry Brute")["zone"] == "base" and not u(st, "P2:Quarry Brute")["stunned"]


def test_passing_on_the_chain_lets_the_top_link_resolve():
    st = table([unit("Hill Raider", 0, "bf1"), unit("Quarry Brute", 1, "bf1")], battlefields=CONTESTED,
               spells=[1, 0], reactions=[0, 1])
    act(st, "P1 starts combat at bf1", "P1 stuns P2's Quarry Brute", "P2 passes")
    assert u(st, "P2:Quarry Brute")["stunned"] and st.to_dict()["reactions"] == [0, 1]
    assert st.to_dict()["step"] == "showdown" and st.current_player() == 1


def test_on_a_chain_only_the_player_asked_acts_and_only_with_a_reaction():
    st = table([unit("Drum Herald", 0, "bf1"), unit("Hill Raider", 1, "bf1")], battlefields=CONTESTED,
               spells=[2, 2], reactions=[1, 1])
    act(st, "P1 starts combat at bf1")
    assert st.current_player() == 1  # the player after the one who put the top link on
    problem = refused(st, Action("pass", 0))
    assert problem.rule == "assumed:chain-reactions" and "P2 acts on the chain now" in problem.reason
    problem = refused(st, Action("recall", 0, "P2:Hill Raider"))
    assert problem.rule == "assumed:chain-reactions"
    act(st, "P2 passes")
    assert st.current_player() == 0  # last, the player who put the top link on
    act(st, "P1 recalls P1's Drum Herald")
    # P1's reactions are spent, P2 has one: P2 is asked about the recall on top.
    assert st.current_player() == 1 and st.to_dict()["reactions"] == [0, 1]
    act(st, "P2 passes")
    assert st.current_player() == 1 and st.to_dict()["chain"][-1]["kind"] == "trigger"  # asked again, for the trigger
    act(st, "P2 passes")
    assert st.to_dict()["step"] == "showdown" and st.to_dict()["spells"] == [2, 2]


def test_with_no_reaction_left_a_player_with_spells_is_not_asked():
    st = table([unit("Drum Herald", 0, "bf1"), unit("Hill Raider", 1, "bf1")], battlefields=CONTESTED,
               spells=[0, 3], reactions=[1, 0])
    act(st, "P1 starts combat at bf1")
    # P2 has spells but no reaction; P1, who put the trigger on, is asked.
    assert st.to_dict()["step"] == "chain" and st.current_player() == 0
    problem = refused(st, Action("stun", 1, "P1:Drum Herald"))
    assert problem.rule == "assumed:chain-reactions"


def test_three_players_are_asked_in_turn_order_from_the_one_after_the_top_link():
    st = table([unit("Drum Herald", 0, "bf1"), unit("Hill Raider", 1, "bf1"), unit("Border Scout", 2, "bf2")],
               players=3, battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 2}], reactions=[1, 1, 1])
    act(st, "P1 starts combat at bf1")
    asked = []
    while st.to_dict()["step"] == "chain":
        asked.append(st.current_player())
        act(st, f"P{st.current_player() + 1} passes")
    assert asked == [1, 2, 0]


def test_a_setup_checks_the_reaction_budgets():
    game = RiftboundGame(players=2)
    with pytest.raises(EngineSetupError) as bad:
        game.new_initial_state({"units": [], "reactions": [0, -1]})
    assert bad.value.field == "reactions[1]"
    with pytest.raises(EngineSetupError) as bad:
        game.new_initial_state({"units": [], "reactions": [1]})
    assert bad.value.field == "reactions"


# --- a chain outside a showdown (assumed:action-spells) ----------------------------------------

def test_a_chain_in_the_action_phase_holds_a_pending_combat_back_until_it_is_empty():
    """003:7, combat.start: a combat begins at a cleanup only when the chain
    holds no effect. P2's reaction lands at bf2, where P1's Raider stands, while
    P1's play still waits under it: bf2 is pending, nothing is offered yet."""
    st = table([unit("Hill Raider", 0, "bf2"), unit("Border Scout", 0, "hand"),
                unit("Quarry Brute", 1, "bf1"), unit("Lantern Page", 1, "hand")],
               battlefields=[{"controller": 1}, {"controller": 0}], reactions=[1, 1], action_spells=[1, 0])
    act(st, "P1 plays Border Scout to bf1", "P2 plays Lantern Page to bf2", "P1 passes")
    d = st.to_dict()
    assert (d["step"], st.current_player(), d["combat"]) == ("chain", 0, None)
    assert d["pending_combats"] == [1] and d["to_choose"] == [] and len(d["chain"]) == 1
    act(st, "P1 passes")
    assert st.to_dict()["to_choose"] == [0, 1] and st.to_dict()["action_spells"] == [0, 0]


def test_outside_a_showdown_only_the_turn_players_recall_and_play_within_budget():
    st = table([unit("Hill Raider", 0, "bf1"), unit("Quarry Brute", 1, "bf2"), unit("Border Scout", 0, "hand")],
               battlefields=[{"controller": 0}, {"controller": 1}], action_spells=[1, 1])
    assert not any(a.kind in ("stun", "move_to_combat") for a in st.legal_actions())
    for action in (Action("stun", 0, "P2:Quarry Brute"), Action("recall", 1, "P1:Hill Raider")):
        assert refused(st, action).rule == "assumed:action-spells"
    act(st, "P1 recalls P2's Quarry Brute")
    assert st.to_dict()["step"] == "action" and u(st, "P2:Quarry Brute")["zone"] == "base"
    assert refused(st, Action("play", 0, "P1:Border Scout", 0)).rule == "assumed:action-spells"  # budget spent
