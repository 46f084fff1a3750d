"""The Riftbound engine's flow: the Q&A outcomes, pending combats, the
showdown, late roles, resolution, control and conquest, multiplayer limits,
setups and refusals."""

from __future__ import annotations

import pytest

from engine.riftbound import Action, EngineSetupError, IllegalAction, RiftboundGame
from .helpers import act, everyone_passes, labels, table, u, unit

def fight(attackers: list[dict], defenders: list[dict], **setup):
    """P1 contests bf1, which P2 controls; the combat is pending."""
    setup.setdefault("battlefields", [{"controller": 1, "contested_by": 0}, {}])
    return table(attackers + defenders, **setup)


# --- Q&A -------------------------------------------------------------------------------------

def test_equal_might_destroys_everyone_and_nobody_scores():
    """qa.equal-might, assumed:control-needs-units."""
    st = fight([unit("Hill Raider", 0, "bf1")], [unit("Hill Raider", 1, "bf1")])
    assert st.to_dict()["step"] == "cleanup" and st.to_dict()["to_choose"] == [0]
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    assert st.to_dict()["step"] == "damage"
    assert labels(st) == ["P1 assigns Hill Raider 3"]
    act(st, "P1 assigns Hill Raider 3")
    assert st.to_dict()["combat"]["assigned"] == {"P2:Hill Raider": 3}
    assert u(st, "P2:Hill Raider")["damage"] == 0  # damage.assign-not-deal
    act(st, "P2 assigns Hill Raider 3")
    d = st.to_dict()
    assert [x["zone"] for x in d["units"]] == ["trash", "trash"]
    assert d["battlefields"][0] == {"controller": None, "contested_by": None}
    assert d["points"] == [0, 0] and d["step"] == "action" and d["combat"] is None


def test_both_survive_with_kayn_the_attacker_goes_home_and_the_defender_keeps_control():
    """qa.both-survive, resolution.recall, damage.undamageable: Kayn moved twice."""
    st = fight([unit("Kayn", 0, "bf1", moved=2)], [unit("Quarry Brute", 1, "bf1")])
    assert u(st, "P1:Kayn")["immune"] is True
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    act(st, "P1 assigns Quarry Brute 4", "P2 assigns Kayn 5")
    d = st.to_dict()
    assert u(st, "P1:Kayn")["zone"] == "base" and u(st, "P1:Kayn")["damage"] == 0
    assert u(st, "P2:Quarry Brute")["zone"] == "battlefield" and u(st, "P2:Quarry Brute")["damage"] == 0
    assert d["battlefields"][0] == {"controller": 1, "contested_by": None}
    assert d["points"] == [0, 0]
    assert all(x["role"] is None for x in d["units"])


def test_both_survive_with_a_stun_the_stunned_unit_deals_nothing():
    """qa.both-survive, damage.totals: a stunned unit adds no might."""
    st = fight([unit("Iron Colossus", 0, "bf1")], [unit("Hill Raider", 1, "bf1")], spells=[0, 1])
    act(st, "P1 starts combat at bf1", "P1 passes", "P2 stuns P1's Iron Colossus", "P1 passes", "P2 passes")
    assert labels(st) == ["P1 assigns Hill Raider 0"]
    act(st, "P1 assigns Hill Raider 0", "P2 assigns Iron Colossus 3")
    assert u(st, "P1:Iron Colossus")["zone"] == "base"
    assert u(st, "P1:Iron Colossus")["stunned"] is True  # assumed:stun-lasts-turn
    assert st.to_dict()["battlefields"][0]["controller"] == 1


def test_damage_is_cleared_after_combat_and_at_the_end_of_the_turn():
    """qa.damage-cleared, resolution.clear-damage: everywhere, not only at the battlefield."""
    st = fight([unit("Quarry Brute", 0, "bf1"), unit("Border Scout", 0, "base", damage=1)],
               [unit("Bulwark Sentry", 1, "bf1"), unit("Iron Colossus", 1, "bf2")],
               battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 1}])
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    act(st, "P1 assigns Bulwark Sentry 5", "P2 assigns Quarry Brute 3")
    assert [x["damage"] for x in st.to_dict()["units"]] == [0, 0, 0, 0]
    st2 = table([unit("Border Scout", 0, "base", damage=1)])
    act(st2, "P1 ends the turn")
    assert u(st2, "P1:Border Scout")["damage"] == 0 and st2.to_dict()["turn"] == 2
    assert st2.to_dict()["turn_player"] == 1


# --- resolution, control, conquest -------------------------------------------------------------

def test_winning_attacker_conquers_once_per_turn():
    """resolution.control, resolution.conquer."""
    st = fight([unit("Quarry Brute", 0, "bf1")], [unit("Hill Raider", 1, "bf1")], points=[2, 0])
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    act(st, "P1 assigns Hill Raider 5", "P2 assigns Quarry Brute 3")
    d = st.to_dict()
    assert d["battlefields"][0] == {"controller": 0, "contested_by": None}
    assert d["points"] == [3, 0] and d["scored"] == [[True, False], [False, False]]


def test_no_second_conquest_of_a_battlefield_in_one_turn():
    """resolution.conquer, assumed:uncontested-control: scored there already this turn."""
    st = table([unit("Border Scout", 0)], scored=[[True, False], [False, False]], points=[1, 0])
    act(st, "P1 moves Border Scout to bf1")
    d = st.to_dict()
    assert d["battlefields"][0]["controller"] == 0 and d["points"] == [1, 0]
    act(st, "P1 ends the turn")
    assert st.to_dict()["scored"] == [[False, False], [False, False]]
    # assumed:hold: back on P1's turn, holding bf1 scores there once more.
    act(st, "P2 ends the turn")
    d = st.to_dict()
    assert d["scored"] == [[True, False], [False, False]] and d["points"] == [2, 0]


def test_the_defender_can_be_the_one_who_takes_control():
    """resolution.any-player: nobody controlled it; the defender survives and conquers."""
    st = table([unit("Lantern Page", 0, "bf1"), unit("Quarry Brute", 1, "bf1")],
               battlefields=[{"controller": None, "contested_by": 0}, {}])
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    act(st, "P1 assigns Quarry Brute 1", "P2 assigns Lantern Page 5")
    d = st.to_dict()
    assert d["battlefields"][0]["controller"] == 1 and d["points"] == [0, 1]


def test_an_empty_contested_battlefield_stops_being_contested_and_a_lone_unit_takes_it():
    """assumed:uncontested-control, assumed:contested."""
    st = table([unit("Border Scout", 0)], battlefields=[{"controller": 1}, {}])
    act(st, "P1 moves Border Scout to bf1")
    d = st.to_dict()
    assert d["battlefields"][0] == {"controller": 0, "contested_by": None} and d["points"] == [1, 0]


def test_victory_ends_the_game_at_the_cleanup():
    """assumed:victory."""
    st = table([unit("Border Scout", 0)], points=[7, 0])
    act(st, "P1 moves Border Scout to bf2")
    assert st.is_terminal() and st.returns() == [1.0, -1.0] and st.to_dict()["winner"] == 0
    assert st.current_player() == -4 and st.legal_actions() == []
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("end_turn", 1))
    assert err.value.rule == "assumed:victory"


# --- pending combats ---------------------------------------------------------------------------

def two_pending(spells=(0, 0)):
    return table([unit("Hill Raider", 0, "bf1"), unit("Quarry Brute", 0, "bf2"),
                  unit("Border Scout", 1, "bf1"), unit("Lantern Page", 1, "bf2")],
                 battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 1, "contested_by": 0}],
                 spells=list(spells))


def test_the_turn_player_chooses_which_pending_combat_is_first():
    """combat.pending, combat.pending.order: a choice, the other one waits."""
    st = two_pending()
    assert labels(st) == ["P1 starts combat at bf1", "P1 starts combat at bf2"]
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("end_turn", 0))
    assert err.value.rule == "assumed:turn-end"
    act(st, "P1 starts combat at bf2")
    assert st.to_dict()["to_choose"] == [] and st.to_dict()["combat"]["battlefield"] == 1
    everyone_passes(st)
    act(st, "P1 assigns Lantern Page 5", "P2 assigns Quarry Brute 1")
    assert st.to_dict()["step"] == "cleanup" and labels(st) == ["P1 starts combat at bf1"]


def test_a_single_pending_combat_is_still_a_choice():
    st = fight([unit("Hill Raider", 0, "bf1")], [unit("Border Scout", 1, "bf1")])
    assert st.current_player() == 0 and labels(st) == ["P1 starts combat at bf1"]


def test_a_pending_combat_that_stops_being_pending_is_dropped():
    """combat.pending.dropped: P1 recalls his own unit from bf1 during the combat at bf2."""
    st = two_pending(spells=(1, 0))
    act(st, "P1 starts combat at bf2", "P1 recalls P1's Hill Raider", "P2 passes", "P1 passes")
    act(st, "P1 assigns Lantern Page 5", "P2 assigns Quarry Brute 1")
    d = st.to_dict()
    assert d["step"] == "action" and d["to_choose"] == []
    assert "P1 starts combat at bf1" not in labels(st)
    # bf1 was contested by P1 and now holds P2's unit only: P2 already controls it, no point
    assert d["battlefields"][0] == {"controller": 1, "contested_by": None} and d["points"] == [1, 0]
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("start_combat", 0, battlefield=0))
    assert err.value.rule == "combat.start"


# --- the showdown ------------------------------------------------------------------------------

def test_roles_focus_and_passing():
    """showdown.attacker, showdown.defender, showdown.unit-roles, showdown.focus, assumed:showdown-focus."""
    st = fight([unit("Hill Raider", 0, "bf1")], [unit("Border Scout", 1, "bf1"), unit("Lantern Page", 1, "bf2")],
               battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 1}])
    act(st, "P1 starts combat at bf1")
    d = st.to_dict()
    assert d["step"] == "showdown" and d["combat"]["attacker"] == 0 and d["combat"]["defender"] == 1
    assert d["combat"]["focus"] == 0 and d["combat"]["passes"] == 0
    assert [x["role"] for x in d["units"]] == ["attacker", "defender", None]
    act(st, "P1 passes")
    assert st.to_dict()["combat"]["focus"] == 1 and st.to_dict()["combat"]["passes"] == 1
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("pass", 0))
    assert err.value.rule == "assumed:showdown-focus"


def test_a_spell_resets_the_passes_and_spends_the_budget():
    st = fight([unit("Hill Raider", 0, "bf1")], [unit("Border Scout", 1, "bf1")], spells=[1, 0])
    act(st, "P1 starts combat at bf1", "P1 passes")
    assert not any(x.startswith("P2 stuns") for x in labels(st))  # no budget
    act(st, "P2 passes")
    assert st.to_dict()["step"] == "damage"
    st = fight([unit("Hill Raider", 0, "bf1")], [unit("Border Scout", 1, "bf1")], spells=[1, 0])
    act(st, "P1 starts combat at bf1", "P1 stuns P2's Border Scout")
    d = st.to_dict()
    assert d["spells"] == [0, 0] and d["combat"]["passes"] == 0 and d["combat"]["focus"] == 1
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("stun", 1, "P1:Hill Raider"))
    assert err.value.rule == "assumed:showdown-spells"


def test_initial_chain_order_attacker_first_defender_on_top():
    """showdown.initial-chain, showdown.closed, showdown.focus-kept."""
    st = fight([unit("Drum Herald", 0, "bf1"), unit("Banner Captain", 0, "bf1"), unit("Hill Raider", 0, "bf1")],
               [unit("Drum Herald", 1, "bf1")])
    act(st, "P1 starts combat at bf1")
    assert "initial chain, bottom first: P1's Drum Herald, P1's Banner Captain, P2's Drum Herald" in st.history
    rallies = [h for h in st.history if "rallies" in h]
    assert rallies == ["P2's Drum Herald rallies: +1 might (3)", "P1's Banner Captain rallies: +1 might (5)",
                       "P1's Drum Herald rallies: +1 might (3)"]
    d = st.to_dict()
    assert [x["might"] for x in d["units"]] == [3, 5, 3, 3] and [x["buffed"] for x in d["units"]] == [True, True, False, True]
    assert d["combat"]["focus"] == 0 and d["step"] == "showdown"
    everyone_passes(st)
    assert st.combat is not None and st._total(0) == 11 and st._total(1) == 3
    act(st, "P1 assigns Drum Herald 11", "P2 assigns Drum Herald 3, Banner Captain 0, Hill Raider 0")
    assert all(not x["buffed"] for x in st.to_dict()["units"])  # resolution.clear-roles


def test_initial_chain_with_three_players_puts_the_attacker_first_and_the_defender_last():
    """showdown.initial-chain: P3 attacks P2 on P1's turn."""
    st = table([unit("Drum Herald", 2, "bf1"), unit("Banner Captain", 1, "bf1"), unit("Border Scout", 0)],
               players=3, battlefields=[{"controller": 1, "contested_by": 2}, {}])
    act(st, "P1 starts combat at bf1")
    assert "initial chain, bottom first: P3's Drum Herald, P2's Banner Captain" in st.history
    assert st.to_dict()["combat"]["focus"] == 2


def test_late_roles_are_taken_at_the_cleanup_after_the_spell():
    """showdown.late-roles: moved in or played there during the combat."""
    st = fight([unit("Hill Raider", 0, "bf1"), unit("Kayn", 0, "base", moved=1)],
               [unit("Border Scout", 1, "bf1"), unit("Lantern Page", 1, "hand")], spells=[1, 1])
    act(st, "P1 starts combat at bf1", "P1 moves Kayn into the combat")
    kayn = u(st, "P1:Kayn")
    assert kayn["role"] == "attacker" and kayn["battlefield"] == 0 and kayn["immune"] is True  # moved twice
    act(st, "P2 plays Lantern Page to bf1")
    assert u(st, "P2:Lantern Page")["role"] == "defender"
    everyone_passes(st)
    assert st._total(0) == 7 and st._total(1) == 3


def test_no_damage_step_when_one_side_is_gone():
    """damage.both-present: P2 recalls the only attacker; P2 keeps bf1 and nobody scores."""
    st = fight([unit("Hill Raider", 0, "bf1")], [unit("Border Scout", 1, "bf1")], spells=[0, 1])
    act(st, "P1 starts combat at bf1", "P1 passes", "P2 recalls P1's Hill Raider", "P1 passes", "P2 passes")
    d = st.to_dict()
    assert d["step"] == "action" and d["combat"] is None
    assert d["battlefields"][0] == {"controller": 1, "contested_by": None} and d["points"] == [0, 0]


# --- multiplayer -------------------------------------------------------------------------------

def three_player_combat():
    """P1 attacks P2 at bf1; P3 watches, with spells and a unit in hand and at base."""
    return table([unit("Hill Raider", 0, "bf1"), unit("Border Scout", 1, "bf1"), unit("Quarry Brute", 2),
                  unit("Lantern Page", 2, "hand"), unit("Drum Herald", 2, "hand"), unit("Stone Warden", 0, "bf2"),
                  unit("Iron Colossus", 1, "bf2")],
                 players=3, battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 0, "contested_by": 1}],
                 spells=[0, 0, 3])


def test_three_players_the_outsider_cannot_move_into_the_combat():
    """combat.multiplayer.no-destination, combat.third-player-invalid, combat.two-players."""
    st = three_player_combat()
    act(st, "P1 starts combat at bf1", "P1 passes", "P2 passes")
    assert st.current_player() == 2
    assert "P3 moves Quarry Brute into the combat" not in labels(st)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("move_to_combat", 2, "P3:Quarry Brute"))
    assert err.value.rule == "combat.multiplayer.no-destination"
    assert "combat.third-player-invalid" in err.value.rules


def test_three_players_a_unit_played_to_someone_elses_combat_goes_to_base():
    """combat.multiplayer.play-to-base, combat.multiplayer.no-play: running and pending combats."""
    st = three_player_combat()
    act(st, "P1 starts combat at bf1", "P1 passes", "P2 passes", "P3 plays Lantern Page to bf1")
    assert u(st, "P3:Lantern Page")["zone"] == "base"
    act(st, "P1 passes", "P2 passes", "P3 plays Drum Herald to bf2")  # bf2's combat is pending
    assert u(st, "P3:Drum Herald")["zone"] == "base"
    assert st.to_dict()["battlefields"][1] == {"controller": 0, "contested_by": 1}


def test_three_players_playing_next_to_one_player_makes_a_pending_combat():
    st = table([unit("Hill Raider", 0, "bf1"), unit("Border Scout", 1, "bf1"), unit("Lantern Page", 2, "hand"),
                unit("Stone Warden", 0, "bf2")],
               players=3, battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 0}], spells=[0, 0, 1])
    act(st, "P1 starts combat at bf1", "P1 passes", "P2 passes", "P3 plays Lantern Page to bf2")
    assert u(st, "P3:Lantern Page")["battlefield"] == 1
    assert st.to_dict()["battlefields"][1] == {"controller": 0, "contested_by": 2}
    everyone_passes(st)
    act(st, "P1 assigns Border Scout 3", "P2 assigns Hill Raider 2")
    assert st.to_dict()["to_choose"] == [1] and labels(st) == ["P1 starts combat at bf2"]
    act(st, "P1 starts combat at bf2")
    assert st.to_dict()["combat"]["attacker"] == 2 and st.to_dict()["combat"]["defender"] == 0
    assert st.to_dict()["combat"]["focus"] == 2


# --- refusals and setups -------------------------------------------------------------------------

def test_refusals_name_their_rule():
    st = table([unit("Border Scout", 0), unit("Hill Raider", 1), unit("Lantern Page", 0, "bf1")],
               battlefields=[{"controller": 0}, {}])
    cases = [
        (Action("move", 1, "P2:Hill Raider", 0), "assumed:standard-move"),  # not his turn
        (Action("move", 0, "P1:Lantern Page", 1), "assumed:standard-move"),  # not at base
        (Action("move", 0, "P1:Border Scout", 5), "assumed:standard-move"),  # no such battlefield
        (Action("pass", 0), "assumed:showdown-focus"),
        (Action("recall", 0, "P1:Lantern Page"), "assumed:action-spells"),  # no spell outside a showdown
        (Action("start_combat", 0, battlefield=0), "combat.start"),
        (Action("assign", 0, assignment=()), "damage.assign"),
        (Action("dance", 0), "assumed:showdown-focus"),
    ]
    for action, rule in cases:
        with pytest.raises(IllegalAction) as err:
            st.apply_action(action)
        assert err.value.rule == rule, (action, err.value)
        assert st.action_label(action) in str(err.value)
    act(st, "P1 moves Border Scout to bf2", "P1 ends the turn", "P2 ends the turn")
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("move", 0, "P1:Border Scout", 0))
    assert err.value.rule == "assumed:standard-move"  # at a battlefield now


def test_a_moved_unit_cannot_move_again_this_turn():
    st = table([unit("Border Scout", 0, moved=True)])
    with pytest.raises(IllegalAction, match="already moved"):
        st.apply_action(Action("move", 0, "P1:Border Scout", 0))
    act(st, "P1 ends the turn", "P2 ends the turn", "P1 moves Border Scout to bf1")


def test_an_illegal_assignment_names_the_damage_rule():
    st = fight([unit("Quarry Brute", 0, "bf1")],
               [unit("Hill Raider", 1, "bf1", name="A"), unit("Hill Raider", 1, "bf1", name="B"),
                unit("Hill Raider", 1, "bf1", name="C"), unit("Hill Raider", 1, "bf1", name="D")])
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    assert len(st.legal_actions()) == 12
    bad = Action("assign", 0, assignment=(("P2:A", 2), ("P2:B", 1), ("P2:C", 1), ("P2:D", 1)))
    with pytest.raises(IllegalAction) as err:
        st.apply_action(bad)
    assert err.value.rule == "damage.lethal-first"
    short = Action("assign", 0, assignment=(("P2:A", 3), ("P2:B", 1), ("P2:C", 0), ("P2:D", 0)))
    with pytest.raises(IllegalAction) as err:
        st.apply_action(short)
    assert err.value.rule == "damage.assign"
    # The pairs are the order damage is handed out: B short of lethal before A gets any.
    short_first = Action("assign", 0, assignment=(("P2:B", 2), ("P2:A", 3), ("P2:C", 0), ("P2:D", 0)))
    assert short_first not in st.legal_actions()
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(short_first)
    assert err.value.rule == "damage.lethal-first" and "in this order" in err.value.reason
    # The units given nothing are never reached: where they are written does not matter.
    reordered = Action("assign", 0, assignment=(("P2:D", 0), ("P2:C", 0), ("P2:A", 3), ("P2:B", 2)))
    assert reordered not in st.legal_actions()
    st.apply_action(reordered)
    assert st.to_dict()["combat"]["assigned"] == {"P2:A": 3, "P2:B": 2, "P2:C": 0, "P2:D": 0}


@pytest.mark.parametrize("setup, field", [
    ({"units": [{"card": "Nobody", "owner": 0}]}, "units[0].card"),
    ({"units": [{"card": "Kayn", "owner": 2}]}, "units[0].owner"),
    ({"units": [{"card": "Kayn", "owner": 0, "zone": "deck"}]}, "units[0].zone"),
    ({"units": [{"card": "Kayn", "owner": 0, "zone": "battlefield"}]}, "units[0].battlefield"),
    ({"units": [{"card": "Kayn", "owner": 0, "grant": ["flying"]}]}, "units[0].grant"),
    ({"units": [{"card": "Kayn", "owner": 0, "colour": "red"}]}, "units[0].colour"),
    ({"units": [{"card": "Kayn", "owner": 0, "zone": "battlefield", "battlefield": 0}]}, "battlefields[0].contested_by"),
    ({"battlefields": [{"contested_by": 1}, {}]}, "battlefields[0].contested_by"),
    ({"battlefields": [{}]}, "battlefields"),
    ({"points": [8, 0]}, "points[0]"),
    ({"spells": [1]}, "spells"),
    ({"turn_player": 2}, "turn_player"),
    ({"scored": [[True], [False]]}, "scored[0]"),
    ({"weather": "rain"}, "weather"),
])
def test_bad_setups_name_the_field(setup, field):
    with pytest.raises(EngineSetupError) as err:
        RiftboundGame().new_initial_state(setup)
    assert err.value.field == field, str(err.value)
    assert str(err.value).startswith(f"setup {field}:")


def test_game_sizes_are_checked():
    with pytest.raises(EngineSetupError, match="players"):
        RiftboundGame(players=4)
    with pytest.raises(EngineSetupError, match="battlefields"):
        RiftboundGame(battlefields=0)


def test_observation_shape_and_clone():
    st = fight([unit("Caitlyn", 0, "bf1", grant=["tank"])], [unit("Mist Phantom", 1, "bf1")])
    d = st.to_dict()
    assert set(d) == {"players", "turn", "turn_player", "step", "battlefields", "units", "combat", "to_choose",
                      "pending_combats", "points", "scored", "spells", "reactions", "action_spells", "chain", "winner"}
    # A fight set up on bf1 waits there as a pending combat until it starts (combat.pending).
    assert d["pending_combats"] == [0]
    assert set(d["units"][0]) == {"id", "card", "owner", "might", "tank", "last", "immune", "rallying",
                                  "indestructible", "zone",
                                  "battlefield", "damage", "role", "stunned", "moved", "moves", "buffed"}
    assert d["units"][0]["tank"] and d["units"][0]["last"] and d["units"][1]["immune"]
    twin = st.clone()
    act(twin, "P1 starts combat at bf1")
    assert st.to_dict() == d and twin.to_dict()["combat"] is not None and twin.to_dict()["pending_combats"] == []
    assert "bf1: controlled by P2, contested by P1" in str(st)


def test_three_players_an_attacker_is_found_when_the_contesting_player_has_left():
    """Reading (state._do_start_combat): P1 contests bf2 by playing there, P2 recalls
    that unit and plays his own; bf2 then holds P2's and P3's units but is contested
    by P1. The attacker is the one of the two who does not control bf2: P2."""
    st = table([unit("Hill Raider", 0, "bf1"), unit("Border Scout", 1, "bf1"), unit("Stone Warden", 2, "bf2"),
                unit("Lantern Page", 0, "hand"), unit("Quarry Brute", 1, "hand")],
               players=3, battlefields=[{"controller": 1, "contested_by": 0}, {"controller": 2}], spells=[1, 2, 0])
    act(st, "P1 starts combat at bf1", "P1 plays Lantern Page to bf2")
    assert st.to_dict()["battlefields"][1] == {"controller": 2, "contested_by": 0}
    act(st, "P2 recalls P1's Lantern Page", "P3 passes", "P1 passes", "P2 plays Quarry Brute to bf2")
    assert u(st, "P2:Quarry Brute")["battlefield"] == 1
    assert st.to_dict()["battlefields"][1] == {"controller": 2, "contested_by": 0}
    everyone_passes(st)
    act(st, "P1 assigns Border Scout 3", "P2 assigns Hill Raider 2")
    assert labels(st) == ["P1 starts combat at bf2"]
    act(st, "P1 starts combat at bf2")
    d = st.to_dict()
    assert (d["combat"]["attacker"], d["combat"]["defender"]) == (1, 2)
    assert d["battlefields"][1] == {"controller": 2, "contested_by": 1}


def test_a_might_an_effect_set_is_the_current_might_until_the_unit_leaves_play():
    """damage.step, damage.lethal: the set might counts for totals and lethal
    amounts; the rallying buff adds to it; in the trash nothing of it is left."""
    st = fight([unit("Quarry Brute", 0, "bf1")],
               [unit("Hill Raider", 1, "bf1", might=1), unit("Drum Herald", 1, "bf1", might=4)])
    assert u(st, "P2:Hill Raider")["might"] == 1
    act(st, "P1 starts combat at bf1")
    assert u(st, "P2:Drum Herald")["might"] == 5  # set to 4, rallied +1
    everyone_passes(st)
    assert sorted(labels(st)) == ["P1 assigns Drum Herald 5, Hill Raider 0", "P1 assigns Hill Raider 1, Drum Herald 4"]
    act(st, "P1 assigns Hill Raider 1, Drum Herald 4")
    assert labels(st) == ["P2 assigns Quarry Brute 6"]  # 1 + 5
    act(st, "P2 assigns Quarry Brute 6")
    raider = st.unit("P2:Hill Raider")
    assert raider.zone == "trash" and st.might(raider) == 3


def test_a_set_might_is_checked_in_the_setup():
    with pytest.raises(EngineSetupError) as err:
        table([unit("Hill Raider", 0, "hand", might=2)])
    assert err.value.field == "units[0].might"
    with pytest.raises(EngineSetupError) as err:
        table([unit("Hill Raider", 0, might=7)])
    assert err.value.field == "units[0].might"


def test_a_unit_that_cannot_be_destroyed_keeps_lethal_damage_until_the_cleanup():
    """qa.both-survive: lethal damage does not destroy it; it is still a unit
    that can be damaged, so the assignment rules bind it (damage.no-overkill)."""
    st = fight([unit("Iron Colossus", 0, "bf1")],
               [unit("Hill Raider", 1, "bf1", grant=["indestructible"]), unit("Lantern Page", 1, "bf1")])
    act(st, "P1 starts combat at bf1")
    everyone_passes(st)
    assert "P1 assigns Hill Raider 6" not in labels(st)
    act(st, "P1 assigns Hill Raider 5, Lantern Page 1", "P2 assigns Iron Colossus 4")
    assert "combat damage dealt: 5 to P2's Hill Raider, 1 to P2's Lantern Page, 4 to P1's Iron Colossus" in st.history
    assert not any("Hill Raider is destroyed" in line for line in st.history)
    assert u(st, "P2:Hill Raider")["zone"] == "battlefield" and u(st, "P2:Hill Raider")["damage"] == 0
    assert u(st, "P1:Iron Colossus")["zone"] == "base"  # recalled: a defender is still there
