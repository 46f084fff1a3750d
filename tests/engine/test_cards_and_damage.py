"""Rule tests for the WoW TCG reference engine, one rule section at a time:
winning and losing (102), "can't" against the rules (103), card types (303,
304, 307), attachments and control (400, 401), tokens (403), damage, healing
and packets (404, 406, 407), dual wield (405), pre-priority checks (409.6),
resources (410) and uniqueness (412).

Every worked example of the seed rulebook (seed 000, the Chinese translation
of the comprehensive rules) that the engine's card pool can express has its
own test; each docstring names the rule and, for an example, the seed line
it is built from. Games are set up mid-turn with `arrange` and driven only
through the public protocol (`legal_actions`, `apply_action`, `concede`).
"""

from __future__ import annotations

import pytest

from engine.wowtcg import Action, IllegalAction
from engine.wowtcg.arrange import arrange
from engine.wowtcg.cards import load_pool

from tests.engine.wowtcg_steps import act, everyone_passes, labels

POOL = load_pool()


# --- driving the engine -------------------------------------------------------

def setup(heroes, **kw):
    return arrange(heroes, pool=POOL, **kw)


def fight(st, proposal: str, strikes: tuple[str, ...] = ()) -> None:
    """Propose a combat, let it reach the defend window, strike with each
    weapon named (each strike resolving before the next), then conclude."""
    act(st, proposal)
    everyone_passes(st)  # the proposal resolves (601.3): the attack window opens
    everyone_passes(st)  # the attack window closes: protect point, defend window (602)
    for weapon in strikes:
        act(st, f"P{st.priority + 1} strikes with {weapon}")
        everyone_passes(st)  # the strike resolves (303.2a)
    everyone_passes(st)  # the defend window closes: the combat concludes (603)


def destroy_lines(st) -> list[str]:
    return [h for h in st.history if h.startswith("pre-priority checks destroy")]


def batches(st) -> list[set[str]]:
    """What each pre-priority batch destroyed, one set per batch, in order."""
    prefix, suffix = "pre-priority checks destroy ", " (409.6)"
    return [set(h[len(prefix):-len(suffix)].split(", ")) for h in destroy_lines(st)]


def ids(st, name: str) -> list[int]:
    return [o.id for o in st.objs if o.card.name == name]


# --- 102: winning and losing --------------------------------------------------

def test_102_1a_drawing_from_an_empty_deck_loses_at_the_next_check():
    """102.1a, 409.6c: a player who must draw more cards than his deck holds
    loses at the next pre-priority check; an empty deck alone is no loss
    until he has to draw."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], decks={1: []}, step="end_phase")
    everyone_passes(st)  # P1's end phase closes; P2's turn begins with his ready step
    assert st.turn_player == 1 and st.step == "ready_step"
    assert st.players[1].in_game and st.players[1].result is None
    everyone_passes(st)  # the ready step closes; P2 must draw from an empty deck
    assert st.players[1].result == "lost"
    assert st.players[0].result == "won"
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert any("P2 leaves the game" in h for h in st.history)


def test_102_1a_both_heroes_destroyed_in_one_batch_is_a_draw():
    """102.1a: when every player still in the game loses at the same time,
    the game is a draw. Chain Lightning deals P2's hero 3 and its caster's
    own hero 2, both lethal; one batch destroys both heroes, the next finds
    both players without a hero."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        hands={0: ["Chain Lightning"]}, resources={0: 5},
    )
    st.find("Bragvi Stormstein").damage = 26  # 28 health
    st.find("Maelen Frostweave").damage = 24  # 27 health
    act(st, "P1 plays Chain Lightning on P2's Maelen Frostweave")
    everyone_passes(st)
    act(st, "P1 deals 2 to P1's Bragvi Stormstein")
    act(st, "P1 deals no more")
    assert batches(st) == [{"P1's Bragvi Stormstein", "P2's Maelen Frostweave"}]
    assert [p.result for p in st.players] == ["drew", "drew"]
    assert st.is_terminal() and st.returns() == [0.0, 0.0]


def test_102_1b_a_player_may_concede_and_the_last_player_left_wins():
    """102.1b, 102.1: a player may concede at any time, even without
    priority; he leaves the game and his only opponent wins."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"])
    assert st.priority == 0
    st.concede(1)
    assert st.players[1].result == "lost"
    assert st.players[0].result == "won"
    assert st.is_terminal()
    assert st.legal_actions() == []


def test_102_2_a_conceding_player_leaves_and_takes_his_cards_out_of_the_game():
    """102.1b, 102.2: with three players the game goes on after one concedes;
    every card he owns is removed from the game, and the priority he held
    moves on clockwise."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave", "Gorrak Bloodfist"],
        play={1: ["Ashen Recruit"]}, hands={1: ["Flash Heal"]},
    )
    recruit, heal = st.find("Ashen Recruit", 1), st.find("Flash Heal", 1, zone="hand")
    act(st, "P1 passes")
    assert st.priority == 1
    st.concede(1)
    assert st.players[1].result == "lost" and not st.players[1].in_game
    assert not st.is_terminal()
    assert recruit.zone == "removed" and heal.zone == "removed"
    assert st.priority == 2


def test_102_2_control_returns_when_the_controlling_player_leaves():
    """102.2, 401.3b: P2 controls P1's ally through Mind Control and concedes
    in a three-player game; the Mind Control (his) leaves the game and the
    ally (P1's) stays in play under P1's control."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave", "Gorrak Bloodfist"],
        play={0: ["Stonehide Defender"], 1: [{"name": "Mind Control", "on": [0, "Stonehide Defender"]}]},
    )
    ally, mc = st.find("Stonehide Defender"), st.find("Mind Control")
    assert ally.controller == 1
    st.concede(1)
    assert mc.zone == "removed"
    assert ally.zone == "play" and ally.controller == 0


def test_102_2_the_leaving_players_links_are_interrupted():
    """102.2: links the leaving player controls are interrupted: P2's Arcane
    Missiles on the chain is gone and deals nothing."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave", "Gorrak Bloodfist"],
        hands={1: ["Arcane Missiles"]}, resources={1: 2},
    )
    act(st, "P1 passes")
    act(st, "P2 plays Arcane Missiles on P3's Gorrak Bloodfist")
    assert len(st.chain) == 1
    st.concede(1)
    assert not st.chain
    assert st.find("Arcane Missiles", zone="removed")
    everyone_passes(st)
    assert st.find("Gorrak Bloodfist").damage == 0


# --- 103: "can't" and the batches of 409.6 -----------------------------------

def _valthak_table(players: int):
    heroes = ["Bragvi Stormstein", "Maelen Frostweave", "Gorrak Bloodfist"][:players]
    st = setup(
        heroes, turn_player=1,
        play={0: ["Valthak Spiritdrinker"], 1: ["Greataxe of the Vale"]},
        resources={1: 3},
    )
    st.find("Bragvi Stormstein").damage = 28  # lethal already, but Valthak holds it
    st.find("Maelen Frostweave").damage = 25  # 27 health: Valthak's 3 is lethal
    assert st.find("Bragvi Stormstein").zone == "play"
    return st


def test_103_2_valthak_holds_a_lethally_damaged_hero_until_he_leaves_play():
    """103.2, Valthak (seed line 114): while Valthak is in play his
    controller's hero with lethal damage is not destroyed; once Valthak is
    destroyed, the next batch destroys the hero and the batch after that
    finds P1 without a hero, so P2 wins."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], play={0: ["Valthak Spiritdrinker"]})
    hero = st.find("Bragvi Stormstein")
    hero.damage = 30
    act(st, "P1 passes")
    act(st, "P2 passes")  # the action phase closes: checks run before the end phase's priority
    assert hero.zone == "play" and st.players[0].in_game
    assert st.step == "end_phase"
    st2 = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Valthak Spiritdrinker"]}, hands={0: ["Lightning Bolt"]}, resources={0: 3},
    )
    st2.find("Bragvi Stormstein").damage = 30
    act(st2, "P1 plays Lightning Bolt on P1's Valthak Spiritdrinker")
    everyone_passes(st2)
    assert batches(st2) == [{"P1's Valthak Spiritdrinker"}, {"P1's Bragvi Stormstein"}]
    assert [p.result for p in st2.players] == ["lost", "won"]


def test_103_4_valthak_keeps_his_heroes_alive_in_the_batch_he_dies_so_the_attacker_loses_first():
    """103.4 example (seed line 112; Valthak, lines 113-114): P1 controls
    Valthak and a hero with lethal damage. P2's hero attacks Valthak and
    strikes; both deal each other lethal damage. The first batch destroys
    Valthak and P2's hero but not P1's hero, so P2 loses first and, with
    two players, P1 wins."""
    st = _valthak_table(2)
    fight(st, "P2 proposes Maelen Frostweave attacks P1's Valthak Spiritdrinker", ("Greataxe of the Vale",))
    assert batches(st)[0] == {"P1's Valthak Spiritdrinker", "P2's Maelen Frostweave"}
    assert st.players[1].result == "lost"
    assert st.players[0].result == "won"


def test_103_4_with_a_third_player_valthaks_controller_loses_one_batch_later():
    """103.4 example, last sentence (seed line 112): with another player in
    the game, P1's hero is destroyed in the batch after Valthak's, so P2
    leaves the game before P1 does and P3 wins."""
    st = _valthak_table(3)
    fight(st, "P2 proposes Maelen Frostweave attacks P1's Valthak Spiritdrinker", ("Greataxe of the Vale",))
    assert batches(st)[:2] == [{"P1's Valthak Spiritdrinker", "P2's Maelen Frostweave"}, {"P1's Bragvi Stormstein"}]
    leaves = [h for h in st.history if "leaves the game" in h]
    assert leaves == ["P2 leaves the game (102.1a, 102.2)", "P1 leaves the game (102.1a, 102.2)"]
    assert [p.result for p in st.players] == ["lost", "lost", "won"]


# --- 303: weapons and strikes -------------------------------------------------

def test_303_2c_a_hero_without_dual_wield_strikes_with_one_weapon_per_combat():
    """303.2c: a player strikes with only one weapon in each combat. After
    striking with Deathbringer, his Hunting Longbow is not offered, and
    forcing that strike is an IllegalAction naming 303.2c."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Deathbringer", "Hunting Longbow"]}, resources={0: 5},
    )
    act(st, "P1 proposes Bragvi Stormstein attacks P2's Maelen Frostweave")
    everyone_passes(st)
    everyone_passes(st)
    assert st.step == "defend_window"
    assert "P1 strikes with Hunting Longbow" in labels(st)
    act(st, "P1 strikes with Deathbringer")
    assert "P1 strikes with Hunting Longbow" not in labels(st)
    bow = st.find("Hunting Longbow", 0)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("strike", 0, bow.id))
    assert err.value.rule == "303.2c"


def test_405_3_dual_wield_never_mixes_a_melee_and_a_ranged_strike():
    """405.3: dual wield allows two melee strikes in one combat, not a melee
    and a ranged one; that second strike is still barred by 303.2c."""
    st = setup(
        ["Kerra Nightblade", "Maelen Frostweave"],
        play={0: ["Deathbringer", "Hunting Longbow"]}, resources={0: 5},
    )
    act(st, "P1 proposes Kerra Nightblade attacks P2's Maelen Frostweave")
    everyone_passes(st)
    everyone_passes(st)
    act(st, "P1 strikes with Deathbringer")
    assert "P1 strikes with Hunting Longbow" not in labels(st)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("strike", 0, st.find("Hunting Longbow", 0).id))
    assert err.value.rule == "303.2c"


# --- 304: armor ---------------------------------------------------------------

def test_304_2_armor_is_exhausted_one_piece_at_a_time_and_reduces_the_packet():
    """304.2: before a preventable packet reaches his hero, its controller may
    exhaust one armor with DEF 1 or more to prevent that much; if damage is
    left he may exhaust another. Lightning Bolt's 4 minus Chain Hauberk's 2
    minus Observer's Shield's 2 leaves nothing."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={1: ["Chain Hauberk", "Observer's Shield"]},
        hands={0: ["Lightning Bolt"]}, resources={0: 3},
    )
    act(st, "P1 plays Lightning Bolt on P2's Maelen Frostweave")
    everyone_passes(st)
    assert st.decision.kind == "prevent" and st.decision.rule == "304.2"
    assert set(labels(st)) == {
        "P2 exhausts Chain Hauberk (DEF 2) against 4 damage",
        "P2 exhausts Observer's Shield (DEF 2) against 4 damage",
        "P2 takes 4 damage",
    }
    act(st, "P2 exhausts Chain Hauberk (DEF 2) against 4 damage")
    assert st.find("Chain Hauberk", 1).exhausted
    assert labels(st) == ["P2 exhausts Observer's Shield (DEF 2) against 2 damage", "P2 takes 2 damage"]
    act(st, "P2 exhausts Observer's Shield (DEF 2) against 2 damage")
    assert st.decision is None and st.priority == 0
    assert st.find("Maelen Frostweave").damage == 0


def test_304_2_declining_armor_takes_the_rest_of_the_packet():
    """304.2, 407.2a: prevention reduces the packet's amount; what is left is
    dealt when the player exhausts no more armor."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={1: ["Chain Hauberk", "Observer's Shield"]},
        hands={0: ["Lightning Bolt"]}, resources={0: 3},
    )
    act(st, "P1 plays Lightning Bolt on P2's Maelen Frostweave")
    everyone_passes(st)
    act(st, "P2 exhausts Chain Hauberk (DEF 2) against 4 damage")
    act(st, "P2 takes 2 damage")
    assert st.find("Maelen Frostweave").damage == 2
    assert not st.find("Observer's Shield", 1).exhausted


def test_407_2a_a_packet_prevented_below_one_disappears():
    """304.2, 407.2a: Arcane Missiles' 2 against Chain Hauberk's DEF 2: the
    packet falls below 1 and disappears, with no second armor question even
    though another armor is ready."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={1: ["Chain Hauberk", "Observer's Shield"]},
        hands={0: ["Arcane Missiles"]}, resources={0: 2},
    )
    act(st, "P1 plays Arcane Missiles on P2's Maelen Frostweave")
    everyone_passes(st)
    act(st, "P2 exhausts Chain Hauberk (DEF 2) against 2 damage")
    assert st.decision is None and st.priority == 0
    assert st.find("Maelen Frostweave").damage == 0
    assert not st.find("Observer's Shield", 1).exhausted


def test_304_2_armor_with_def_0_cannot_be_exhausted_to_prevent():
    """304.2: only armor with DEF 1 or more may be exhausted to prevent;
    Hide of the Wild (DEF 0) raises no armor question."""
    st = setup(
        ["Bragvi Stormstein", "Boris Brightbeard"],
        play={1: ["Hide of the Wild"]}, hands={0: ["Arcane Missiles"]}, resources={0: 2},
    )
    act(st, "P1 plays Arcane Missiles on P2's Boris Brightbeard")
    everyone_passes(st)
    assert st.decision is None
    assert st.find("Boris Brightbeard").damage == 2


def test_304_2_armor_protects_heroes_only():
    """304.2: armor prevents damage to its controller's hero; a packet to an
    ally asks nothing."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={1: ["Chain Hauberk", "Stonehide Defender"]},
        hands={0: ["Arcane Missiles"]}, resources={0: 2},
    )
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    everyone_passes(st)
    assert st.decision is None
    assert st.find("Stonehide Defender", 1).damage == 2
    assert not st.find("Chain Hauberk", 1).exhausted


# --- 307, 410: quests and resources -------------------------------------------

def test_307_1_a_quest_cannot_be_played_only_placed_as_a_resource():
    """307.1, 408.2: quests are never played; they are placed as resources."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Scout the Barrens"]}, resources={0: 5})
    quest = st.find("Scout the Barrens", 0, zone="hand")
    legal = labels(st)
    assert "P1 places Scout the Barrens as a resource" in legal
    assert "P1 places Scout the Barrens face up as a resource" in legal
    assert not any("plays Scout the Barrens" in lab for lab in legal)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("play", 0, quest.id))
    assert err.value.rule == "307.1"


def test_410_1_one_resource_per_turn():
    """410.1: a player places at most one resource in each turn."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Ashen Recruit", "Hamstring"]})
    act(st, "P1 places Ashen Recruit as a resource")
    everyone_passes(st)
    recruit = st.objs[ids(st, "Ashen Recruit")[-1]]
    assert recruit.zone == "play" and recruit.resource
    assert "P1 places Hamstring as a resource" not in labels(st)
    hamstring = st.find("Hamstring", 0, zone="hand")
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("resource", 0, hamstring.id))
    assert err.value.rule == "410.1"


def test_410_1a_resources_are_placed_only_in_ones_own_action_phase():
    """410.1a: a player places a resource only in his own non-combat action
    phase; P2 holding priority in P1's turn may not."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], hands={1: ["Ashen Recruit"]})
    act(st, "P1 passes")
    assert st.priority == 1
    assert "P2 places Ashen Recruit as a resource" not in labels(st)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("resource", 1, st.find("Ashen Recruit", 1, zone="hand").id))
    assert err.value.rule == "410.1a"


def test_410_1b_only_a_quest_may_be_placed_face_up():
    """410.1b: only quests may be placed face up; any other card is a blank
    face-down resource."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Ashen Recruit", "Scout the Barrens"]})
    recruit = st.find("Ashen Recruit", 0, zone="hand")
    assert "P1 places Ashen Recruit face up as a resource" not in labels(st)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("resource", 0, recruit.id, option=True))
    assert err.value.rule == "410.1b"
    act(st, "P1 places Scout the Barrens face up as a resource")
    everyone_passes(st)
    quest = st.find("Scout the Barrens", 0)
    assert quest.resource and quest.face_up and quest.name == "Scout the Barrens"


def test_410_1b_a_card_placed_face_down_is_blank():
    """410.1b: a face-down resource has no name."""
    st = setup(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Ashen Recruit"]})
    act(st, "P1 places Ashen Recruit as a resource")
    everyone_passes(st)
    o = st.find("Ashen Recruit", 0)
    assert o.resource and not o.face_up and o.name == "face-down resource"


# --- 400, 401: attachments and control ----------------------------------------

def _roots_table(extra_allies: dict):
    play = {
        0: [{"name": "Ashen Recruit", "exhausted": True}, "Inventor's Focal Sword"] + extra_allies.get(0, []),
        1: [{"name": "Entangling Roots", "on": [0, "Ashen Recruit"]}] + extra_allies.get(1, []),
    }
    return setup(["Bragvi Stormstein", "Maelen Frostweave"], play=play, resources={0: 2})


def test_400_4_focal_sword_moves_entangling_roots_to_another_ally_never_a_hero():
    """400.4a-d example (seed line 188; Roots 189-191, the Sword 192-193):
    P2's Entangling Roots holds P1's ally; P1 uses Inventor's Focal Sword on
    the Roots. As it resolves the Roots must go to another ally (any side,
    untargeted), never a hero; it does not exhaust its new host, and P2
    still controls it."""
    st = _roots_table({0: ["Stonehide Defender"], 1: ["Ashen Recruit"]})
    roots = st.find("Entangling Roots", 1)
    old_host = st.find("Ashen Recruit", 0)
    act(st, "P1 uses Inventor's Focal Sword's power on P2's Entangling Roots")
    everyone_passes(st)
    assert st.decision.kind == "reattach"
    assert sorted(labels(st)) == [
        "P1 moves Entangling Roots to P1's Stonehide Defender",
        "P1 moves Entangling Roots to P2's Ashen Recruit",
    ]
    act(st, "P1 moves Entangling Roots to P1's Stonehide Defender")
    defender = st.find("Stonehide Defender", 0)
    assert roots.attached_to == defender.id
    assert roots.controller == 1
    assert not defender.exhausted
    assert old_host.exhausted  # moving the Roots away readies nothing


def test_400_4a_entangling_roots_stays_put_without_another_ally():
    """400.4a example (seed line 188): with no other ally in play the Roots
    stays where it is; the heroes are not candidates."""
    st = _roots_table({})
    roots = st.find("Entangling Roots", 1)
    host = st.find("Ashen Recruit", 0)
    act(st, "P1 uses Inventor's Focal Sword's power on P2's Entangling Roots")
    everyone_passes(st)
    assert st.decision is None and st.priority == 0
    assert roots.attached_to == host.id and roots.zone == "play"
    assert st.find("Inventor's Focal Sword", 0).exhausted


def test_400_3_attachments_go_to_the_graveyard_when_their_host_leaves_play():
    """400.3, 404.1: Fireball attaches to an ally and its 4 damage is lethal;
    when the ally is destroyed the Fireball goes to its owner's graveyard,
    and the ally's damage is gone with it."""
    st = setup(
        ["Maelen Frostweave", "Bragvi Stormstein"],
        play={1: ["Stonehide Defender"]}, hands={0: ["Fireball"]}, resources={0: 4},
    )
    ally = st.find("Stonehide Defender", 1)
    act(st, "P1 plays Fireball on P2's Stonehide Defender")
    everyone_passes(st)
    fireball = st.find("Fireball", zone="graveyard")
    assert fireball.id in st.players[0].graveyard and fireball.attached_to is None
    assert ally.zone == "graveyard" and ally.damage == 0


def test_400_entangling_roots_keeps_its_ally_exhausted_through_the_ready_step():
    """Entangling Roots (seed lines 189-191): the ally it holds does not ready
    in its controller's ready step; his other cards do."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"], turn_player=1, step="end_phase",
        play={
            0: [{"name": "Ashen Recruit", "exhausted": True}, {"name": "Stonehide Defender", "exhausted": True}],
            1: [{"name": "Entangling Roots", "on": [0, "Ashen Recruit"]}],
        },
    )
    everyone_passes(st)  # P2's turn ends; P1's ready step
    assert st.turn_player == 0 and st.step == "ready_step"
    assert st.find("Ashen Recruit", 0).exhausted
    assert not st.find("Stonehide Defender", 0).exhausted


def test_400_1a_entangling_roots_exhausts_the_ally_it_is_played_on():
    """400.1a, Entangling Roots (seed line 190): it attaches to its target and
    exhausts it."""
    st = setup(
        ["Bragvi Stormstein", "Elaria Moonwhisper"], turn_player=1,
        play={0: ["Stonehide Defender"]}, hands={1: ["Entangling Roots"]}, resources={1: 2},
    )
    act(st, "P2 plays Entangling Roots on P1's Stonehide Defender")
    everyone_passes(st)
    roots, ally = st.find("Entangling Roots", 1), st.find("Stonehide Defender", 0)
    assert roots.attached_to == ally.id and ally.exhausted


def _kryton_table(resources: int):
    """On P2's turn: P2's Kryton Barleybeard, P2's Mind Control holding P1's
    ally, and another Mind Control in P2's hand."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"], turn_player=1,
        play={0: ["Stonehide Defender"],
              1: ["Kryton Barleybeard", {"name": "Mind Control", "on": [0, "Stonehide Defender"]}]},
        hands={1: ["Mind Control"]}, resources={1: resources},
    )
    return st, st.find("Kryton Barleybeard"), st.find("Mind Control"), st.find("Mind Control", zone="hand")


def test_413_2_kryton_returns_mind_control_to_its_owners_hand_and_control_goes_back():
    """413.2, 413.3, 401.3b; Kryton Barleybeard (000 413.3 example, card line
    in CR7.4 709.2d): destroying him pays for his power, which puts a Mind
    Control in play into its owner's hand; the ally it held goes back to the
    player who put it into play. Kryton's power can't be used without its 2
    resources (402.1), and a Mind Control in hand is no target (413.3)."""
    st, kryton, mc, _ = _kryton_table(resources=1)
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("power", 1, kryton.id, (mc.id,), option=0))
    assert err.value.rule == "402.1" and kryton.zone == "play"
    st, kryton, mc, in_hand = _kryton_table(resources=2)
    ally = st.find("Stonehide Defender")
    assert ally.controller == 1 and ally.owner == 0
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("power", 1, kryton.id, (in_hand.id,), option=0))
    assert err.value.rule == "CR7.4 707.1d" and kryton.zone == "play"
    st.apply_action(Action("power", 1, kryton.id, (mc.id,), option=0))
    assert kryton.zone == "graveyard" and st.ready_resources(1) == 0  # both costs paid at once
    everyone_passes(st)
    assert mc.zone == "hand" and mc.id in st.players[1].hand and mc.attached_to is None
    assert ally.controller == 0 and ally.zone == "play"


def test_401_3_mind_control_takes_the_ally_until_its_controller_plays_a_card():
    """401.3, 401.3b, Mind Control (seed lines 195-196): the Mind Control's
    controller controls the ally it is attached to; when he plays another
    card, Mind Control is destroyed and control goes back to the player who
    put the ally into play."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"], turn_player=1,
        play={0: ["Stonehide Defender"]}, hands={1: ["Mind Control", "Arcane Missiles"]}, resources={1: 7},
    )
    act(st, "P2 plays Mind Control (X=3) on P1's Stonehide Defender")
    everyone_passes(st)
    ally, mc = st.find("Stonehide Defender"), st.find("Mind Control")
    assert ally.controller == 1 and mc.controller == 1 and mc.attached_to == ally.id
    assert ally.owner == 0
    # 401.3, 302.2: it is new to P2's party, so it can't attack this turn.
    assert not any(lab.startswith("P2 proposes Stonehide Defender") for lab in labels(st))
    act(st, "P2 plays Arcane Missiles on P1's Bragvi Stormstein")
    assert st.chain[-1].kind == "trigger"  # Mind Control's "when you play a card"
    everyone_passes(st)
    assert mc.zone == "graveyard" and st.players[1].graveyard[-1] == mc.id
    assert ally.controller == 0
    everyone_passes(st)
    assert st.find("Bragvi Stormstein").damage == 2


def test_408_2_placing_a_resource_is_not_playing_a_card_for_mind_control():
    """408.2, Mind Control (seed line 196): only playing a card destroys it;
    its controller placing a resource does not, nor does the other player
    playing a card."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"], turn_player=1,
        play={0: ["Stonehide Defender"], 1: [{"name": "Mind Control", "on": [0, "Stonehide Defender"]}]},
        hands={0: ["Arcane Missiles"], 1: ["Ashen Recruit"]}, resources={0: 2},
    )
    mc, ally = st.find("Mind Control"), st.find("Stonehide Defender")
    act(st, "P2 places Ashen Recruit as a resource")
    assert not any(link.kind == "trigger" for link in st.chain)
    everyone_passes(st)
    act(st, "P2 passes")
    act(st, "P1 plays Arcane Missiles on P2's Maelen Frostweave")
    assert not any(link.kind == "trigger" for link in st.chain)
    everyone_passes(st)
    assert mc.zone == "play" and ally.controller == 1


def test_400_4d_mind_control_moved_by_focal_sword_to_a_cost_zero_ally_keeps_its_controller():
    """400.4d example (seed line 194; Mind Control 195-196): P1 uses
    Inventor's Focal Sword on P2's Mind Control. In play Mind Control's X is
    0, so it may move only to a cost-0 ally (here a Wisp token); P2 still
    controls the Mind Control and now the Wisp, P1 gets his ally back, and
    when P2 plays a card the Mind Control is destroyed."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={
            0: ["High Priestess Tyrande Whisperwind", {"name": "Darnassian Sentinel", "damage": 1},
                "Stonehide Defender", "Inventor's Focal Sword"],
            1: [{"name": "Mind Control", "on": [0, "Stonehide Defender"]}],
        },
        hands={1: ["Arcane Missiles"]}, resources={0: 2, 1: 2},
    )
    # The Sentinel died in the opening checks; Tyrande's trigger waits on the chain.
    everyone_passes(st)
    wisp = st.find("Wisp", 0)
    ally, mc = st.find("Stonehide Defender"), st.find("Mind Control")
    assert ally.controller == 1
    act(st, "P1 uses Inventor's Focal Sword's power on P2's Mind Control")
    everyone_passes(st)
    assert labels(st) == ["P1 moves Mind Control to P1's Wisp"]  # only the cost-0 ally
    act(st, "P1 moves Mind Control to P1's Wisp")
    assert mc.attached_to == wisp.id and mc.controller == 1
    assert wisp.controller == 1 and ally.controller == 0
    act(st, "P1 passes")
    act(st, "P2 plays Arcane Missiles on P1's Bragvi Stormstein")
    everyone_passes(st)  # Mind Control's trigger resolves
    assert mc.zone == "graveyard"
    assert wisp.controller == 0


def test_400_4a_mind_control_stays_without_a_cost_zero_ally():
    """400.4a, 400.4d example (seed line 194): with no cost-0 ally in play the
    Mind Control stays where it is."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={
            0: ["Stonehide Defender", "Ashen Recruit", "Inventor's Focal Sword"],
            1: [{"name": "Mind Control", "on": [0, "Stonehide Defender"]}, "Ashen Recruit"],
        },
        resources={0: 2},
    )
    mc, ally = st.find("Mind Control"), st.find("Stonehide Defender")
    act(st, "P1 uses Inventor's Focal Sword's power on P2's Mind Control")
    everyone_passes(st)
    assert st.decision is None and st.priority == 0
    assert mc.attached_to == ally.id and ally.controller == 1


def test_409_6d_an_attachment_on_a_host_that_does_not_fit_falls_off_without_being_destroyed():
    """409.6d, 400.3 (example at seed line 369 uses a totem, which the pool
    lacks; a hero stands in as a host that is not an ally): before anyone
    gets priority, Mind Control and Entangling Roots on a hero are detached
    to their owner's graveyard; that is not a destruction, and control of
    the hero stays with its player."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={1: [{"name": "Mind Control", "on": "Bragvi Stormstein"},
                  {"name": "Entangling Roots", "on": "Bragvi Stormstein"}]},
    )
    mc, roots, hero = st.find("Mind Control", zone="graveyard"), st.find("Entangling Roots", zone="graveyard"), st.find("Bragvi Stormstein")
    assert mc.id in st.players[1].graveyard and roots.id in st.players[1].graveyard
    assert mc.attached_to is None and roots.attached_to is None
    assert hero.controller == 0
    assert destroy_lines(st) == []
    assert st.priority == 0


# --- 402: costs -----------------------------------------------------------------

def test_402_4b_a_cost_of_2_exhausts_two_resources():
    """402.4a-b example (seed line 219): a card costing 2, or a power costing
    (2), is paid by exhausting two resources."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Inventor's Focal Sword", "Ashen Recruit", "Stonehide Defender"]},
        hands={0: ["Entangling Roots"]}, resources={0: 5},
    )
    act(st, "P1 plays Entangling Roots on P1's Ashen Recruit")
    assert st.ready_resources(0) == 3
    everyone_passes(st)
    act(st, "P1 uses Inventor's Focal Sword's power on P1's Entangling Roots")
    assert st.ready_resources(0) == 1
    assert st.find("Inventor's Focal Sword", 0).exhausted


# --- 403: tokens --------------------------------------------------------------

def test_403_2_tyrande_destroyed_leaves_a_wisp_token():
    """403.2 example (seed line 227; Tyrande 228-234): when Tyrande, a Night
    Elf of her controller's, is destroyed, her power puts a Wisp ally token
    into play: named Wisp, 0 ATK, 1 health, cost 0."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["High Priestess Tyrande Whisperwind"]}, hands={0: ["Lightning Bolt"]}, resources={0: 3},
    )
    act(st, "P1 plays Lightning Bolt on P1's High Priestess Tyrande Whisperwind")
    everyone_passes(st)
    assert st.find("High Priestess Tyrande Whisperwind", zone="graveyard")
    assert st.chain and st.chain[-1].kind == "trigger"
    everyone_passes(st)
    wisp = st.find("Wisp", 0)
    assert wisp.token and wisp.card.type == "ally"
    assert (wisp.card.atk, wisp.card.health, wisp.card.cost) == (0, 1, 0)
    assert wisp.card.damage_type == "melee"  # 403.2: no type given, so melee


def test_403_2_tyrande_makes_a_wisp_for_another_night_elf_but_not_for_others():
    """403.2, Tyrande (seed line 234): another Night Elf ally of hers dying
    makes a Wisp; a non-Night Elf ally dying makes none."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["High Priestess Tyrande Whisperwind", "Darnassian Sentinel", "Ashen Recruit"]},
        hands={0: ["Arcane Missiles", "Arcane Missiles"]}, resources={0: 4},
    )
    act(st, "P1 plays Arcane Missiles on P1's Ashen Recruit")
    everyone_passes(st)
    assert st.find("Ashen Recruit", zone="graveyard")
    assert not st.chain
    act(st, "P1 plays Arcane Missiles on P1's Darnassian Sentinel")
    everyone_passes(st)
    assert st.chain[-1].kind == "trigger"
    everyone_passes(st)
    assert [o.zone for o in st.objs if o.card.name == "Wisp"] == ["play"]


def test_409_6e_a_token_that_leaves_play_vanishes():
    """403.2a, 409.6e: a destroyed token goes nowhere: it vanishes in the
    pre-priority checks and is in no graveyard."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["High Priestess Tyrande Whisperwind", {"name": "Darnassian Sentinel", "damage": 1}]},
        hands={0: ["Arcane Missiles"]}, resources={0: 2},
    )
    everyone_passes(st)  # Tyrande's trigger for the Sentinel: a Wisp
    wisp = st.find("Wisp", 0)
    act(st, "P1 plays Arcane Missiles on P1's Wisp")
    everyone_passes(st)
    assert wisp.zone == "gone"
    assert wisp.id not in st.players[0].graveyard
    assert any("destroy P1's Wisp" in h for h in st.history)


# --- 404, 407: damage and packets ---------------------------------------------

def test_404_3_barnathrum_puts_extra_damage_on_allies():
    """404.3 example (seed line 240; Barnathrum 241-242): Barnathrum's power
    doubles the damage on characters; the extra damage is put on, not dealt.
    Allies of both sides double."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Barnathrum, Lord of Pain", {"name": "Stonehide Defender", "damage": 1}],
              1: [{"name": "Sarmoth", "damage": 2}, "Ashen Recruit"]},
        resources={0: 1},
    )
    act(st, "P1 uses Barnathrum, Lord of Pain's power")
    everyone_passes(st)
    assert st.find("Stonehide Defender", 0).damage == 2
    assert st.find("Sarmoth", 1).damage == 4
    assert st.find("Ashen Recruit", 1).damage == 0
    assert st.find("Barnathrum, Lord of Pain", 0).exhausted


def test_404_3_barnathrum_doubles_a_heros_damage_and_armor_cannot_prevent_it():
    """404.3 example (seed line 240: the extra damage is put on each
    character; card text line 242: it doubles the damage on each character,
    heroes included). Damage put on a character is not dealt, so the hero's
    armor gets no chance to prevent it."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Barnathrum, Lord of Pain"], 1: ["Chain Hauberk"]},
        resources={0: 1},
    )
    st.find("Maelen Frostweave").damage = 5
    act(st, "P1 uses Barnathrum, Lord of Pain's power")
    everyone_passes(st)
    assert st.decision is None
    assert not st.find("Chain Hauberk", 1).exhausted
    assert st.find("Maelen Frostweave").damage == 10


def test_404_2_409_6b_chain_lightning_kills_three_ironforge_guards_in_three_batches():
    """409.6b example (seed line 362; Chain Lightning 363-364, Ironforge
    Guards 365-366): P1's three Guards have 3 health each. Chain Lightning
    deals them 3, 2 and 1. The first batch destroys only the one with 3
    damage; the other two then have 2 health, so the second batch destroys
    the one with 2; the third batch the last."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Ironforge Guards"] * 3}, hands={0: ["Chain Lightning"]}, resources={0: 5},
    )
    spell = st.find("Chain Lightning", 0, zone="hand")
    first = act(st, "P1 plays Chain Lightning on P1's Ironforge Guards").targets[0]
    everyone_passes(st)
    second = act(st, "P1 deals 2 to P1's Ironforge Guards").option
    third = act(st, "P1 deals 1 to P1's Ironforge Guards").option
    assert len({first, second, third}) == 3
    assert destroy_lines(st) == ["pre-priority checks destroy P1's Ironforge Guards (409.6)"] * 3
    assert st.players[0].graveyard == [spell.id, first, second, third]
    assert st.priority == 0


def test_409_6b_ironforge_guards_gain_health_from_each_other():
    """Ironforge Guards (seed line 366): +1 health for each other Guards of
    its party, so 2 damage on one of three is not lethal."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Ironforge Guards"] * 3}, hands={0: ["Arcane Missiles"]}, resources={0: 2},
    )
    target = act(st, "P1 plays Arcane Missiles on P1's Ironforge Guards").targets[0]
    everyone_passes(st)
    assert st.objs[target].zone == "play" and st.objs[target].damage == 2
    assert destroy_lines(st) == []


def test_404_4_frost_nova_makes_one_packet_per_opposing_character():
    """404.4 example (seed line 244), 407.2c example (line 297): with one
    opponent holding a hero and two allies, Frost Nova creates three packets
    of 1 frost damage. The hero's packet alone meets the armor question, for
    1 damage; P1's own characters are untouched."""
    st = setup(
        ["Maelen Frostweave", "Bragvi Stormstein"],
        play={0: ["Ashen Recruit"], 1: ["Chain Hauberk", "Stonehide Defender", "Ashen Recruit"]},
        hands={0: ["Frost Nova"]}, resources={0: 4},
    )
    act(st, "P1 plays Frost Nova")
    everyone_passes(st)
    assert st.decision.kind == "prevent"
    assert labels(st) == ["P2 exhausts Chain Hauberk (DEF 2) against 1 damage", "P2 takes 1 damage"]
    act(st, "P2 exhausts Chain Hauberk (DEF 2) against 1 damage")
    assert st.decision is None
    assert st.find("Bragvi Stormstein").damage == 0
    assert st.find("Stonehide Defender", 1).damage == 1
    assert st.find("Ashen Recruit", 1).damage == 1
    assert st.find("Ashen Recruit", 0).damage == 0
    assert st.find("Maelen Frostweave").damage == 0


def test_404_4_two_fireballs_each_deal_their_own_packet_at_the_start_of_the_turn():
    """404.4 example (seed line 245; Fireball 246-248): P1 has two Fireballs
    attached to P2's hero. At the start of P1's turn both trigger, and each
    resolves into its own packet of 1 fire damage: two armor questions of 1,
    not one of 2."""
    st = setup(
        ["Maelen Frostweave", "Bragvi Stormstein"], turn_player=1, step="end_phase",
        play={0: [{"name": "Fireball", "on": [1, "Bragvi Stormstein"]}] * 2, 1: ["Chain Hauberk"]},
    )
    everyone_passes(st)  # P2's turn ends; P1's begins: both Fireballs trigger
    assert st.turn_player == 0
    assert st.decision.kind == "order_trigger"
    act(st, "P1 adds Fireball's effect next")
    assert [link.kind for link in st.chain] == ["trigger", "trigger"]
    everyone_passes(st)
    assert labels(st) == ["P2 exhausts Chain Hauberk (DEF 2) against 1 damage", "P2 takes 1 damage"]
    act(st, "P2 takes 1 damage")
    assert st.find("Bragvi Stormstein").damage == 1
    everyone_passes(st)
    assert labels(st) == ["P2 exhausts Chain Hauberk (DEF 2) against 1 damage", "P2 takes 1 damage"]
    act(st, "P2 takes 1 damage")
    assert st.find("Bragvi Stormstein").damage == 2


def test_404_4_vexra_deals_one_packet_counting_the_target_controllers_hand():
    """404.4 example (seed line 249; Vexra 250-251): when Vexra is destroyed
    her controller targets a hero as the trigger goes on the chain; on
    resolution the cards in that hero's controller's hand are counted and
    one packet of that many arcane damage is made: five cards, one 5."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Vexra Darkfall"], 1: ["Chain Hauberk"]},
        hands={0: ["Arcane Missiles"], 1: ["Ashen Recruit"] * 5}, resources={0: 2},
    )
    act(st, "P1 plays Arcane Missiles on P1's Vexra Darkfall")
    everyone_passes(st)
    assert st.decision.kind == "trigger_target"
    act(st, "P1 targets P2's Maelen Frostweave with Vexra Darkfall's effect")
    everyone_passes(st)
    assert labels(st) == ["P2 exhausts Chain Hauberk (DEF 2) against 5 damage", "P2 takes 5 damage"]
    act(st, "P2 takes 5 damage")
    assert st.find("Maelen Frostweave").damage == 5


def test_404_4_vexra_counts_the_hand_as_her_effect_resolves():
    """404.4 example (seed line 249): the hand is counted when the effect
    resolves, not when it triggers: P2 plays one of his five cards in
    response, so the packet is 4."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Vexra Darkfall"]},
        hands={0: ["Arcane Missiles"], 1: ["Hamstring"] + ["Ashen Recruit"] * 4}, resources={0: 2, 1: 1},
    )
    act(st, "P1 plays Arcane Missiles on P1's Vexra Darkfall")
    everyone_passes(st)
    act(st, "P1 targets P2's Maelen Frostweave with Vexra Darkfall's effect")
    act(st, "P1 passes")
    act(st, "P2 plays Hamstring on P1's Bragvi Stormstein")
    everyone_passes(st)  # Hamstring resolves
    assert len(st.players[1].hand) == 4
    everyone_passes(st)  # Vexra's effect resolves
    assert st.find("Maelen Frostweave").damage == 4


# --- 405: dual wield ----------------------------------------------------------

def test_405_1_dual_wield_carries_two_one_handed_melee_weapons():
    """405.1 example (seed line 255; cards 262-267): a dual-wield hero holding
    Deathbringer plays Sword of Zeal without a uniqueness conflict."""
    st = setup(
        ["Kerra Nightblade", "Maelen Frostweave"],
        play={0: ["Deathbringer"]}, hands={0: ["Sword of Zeal"]}, resources={0: 4},
    )
    act(st, "P1 plays Sword of Zeal")
    everyone_passes(st)
    assert st.decision is None and st.priority == 0
    assert st.find("Sword of Zeal", 0).zone == "play" and st.find("Deathbringer", 0).zone == "play"


def test_405_1_two_weapons_and_an_off_hand_force_a_uniqueness_repair():
    """405.1 example (seed line 255): after the two weapons, playing
    Observer's Shield makes a uniqueness conflict; P1 must have one of the
    three destroyed (412) and chooses which."""
    st = setup(
        ["Kerra Nightblade", "Maelen Frostweave"],
        play={0: ["Deathbringer"]}, hands={0: ["Sword of Zeal", "Observer's Shield"]}, resources={0: 6},
    )
    act(st, "P1 plays Sword of Zeal")
    everyone_passes(st)
    act(st, "P1 plays Observer's Shield")
    everyone_passes(st)
    assert st.find("Observer's Shield", 0).exhausted  # it enters play exhausted (seed line 265)
    assert st.decision.kind == "uniqueness" and st.decision.rule == "412"
    assert sorted(labels(st)) == [
        "P1 keeps the others and destroys P1's Deathbringer",
        "P1 keeps the others and destroys P1's Observer's Shield",
        "P1 keeps the others and destroys P1's Sword of Zeal",
    ]
    act(st, "P1 keeps the others and destroys P1's Deathbringer")
    assert st.find("Deathbringer", zone="graveyard")
    assert st.find("Sword of Zeal", 0).zone == "play" and st.find("Observer's Shield", 0).zone == "play"
    assert st.decision is None and st.priority == 0


@pytest.mark.parametrize("hero, in_play, played, cost, clashing", [
    # 405.1 (412.3b's exception is only for dual wield): two melee weapons
    ("Bragvi Stormstein", "Deathbringer", "Sword of Zeal", 4, ["Deathbringer", "Sword of Zeal"]),
    # 412: a two-handed weapon and an off-hand card can't be carried together
    ("Bragvi Stormstein", "Greataxe of the Vale", "Observer's Shield", 2, ["Greataxe of the Vale", "Observer's Shield"]),
    # 405.1: dual wield covers two one-handed melee weapons, not a two-handed one
    ("Kerra Nightblade", "Greataxe of the Vale", "Deathbringer", 3, ["Deathbringer", "Greataxe of the Vale"]),
])
def test_412_equipment_that_cannot_be_carried_together_forces_a_repair(hero, in_play, played, cost, clashing):
    """405.1, 412: playing the second card asks its controller which of the
    clashing cards the game destroys, and offers exactly those."""
    st = setup([hero, "Maelen Frostweave"], play={0: [in_play]}, hands={0: [played]}, resources={0: cost})
    act(st, f"P1 plays {played}")
    everyone_passes(st)
    assert st.decision is not None and st.decision.kind == "uniqueness"
    assert sorted(labels(st)) == [f"P1 keeps the others and destroys P1's {name}" for name in clashing]


def test_405_2_ranged_dual_wield_carries_two_ranged_weapons():
    """405.2: a hero with ranged dual wield may hold two ranged weapons; a
    hero without it may not."""
    st = setup(
        ["Nethrak the Bound", "Maelen Frostweave"],
        play={0: ["Hunting Longbow"]}, hands={0: ["Hunting Longbow"]}, resources={0: 2},
    )
    act(st, "P1 plays Hunting Longbow")
    everyone_passes(st)
    assert st.decision is None
    assert [o.zone for o in st.objs if o.card.name == "Hunting Longbow"] == ["play", "play"]
    st = setup(
        ["Kerra Nightblade", "Maelen Frostweave"],
        play={0: ["Hunting Longbow"]}, hands={0: ["Hunting Longbow"]}, resources={0: 2},
    )
    act(st, "P1 plays Hunting Longbow")
    everyone_passes(st)
    assert st.decision.kind == "uniqueness"


def test_405_3_dual_wield_strikes_twice_and_both_weapons_trigger_on_one_packet():
    """405.3 example (seed line 270): a dual-wield hero attacks an ally and
    strikes with Deathbringer and Sword of Zeal; its 4 combat damage is one
    packet dealt with both weapons, so both powers trigger: Deathbringer
    deals 4 shadow to the ally's hero, and the targeted player may ready 4
    resources."""
    st = setup(
        ["Kerra Nightblade", "Maelen Frostweave"],
        play={0: ["Deathbringer", "Sword of Zeal"], 1: ["Sarmoth"]}, resources={0: 4},
    )
    act(st, "P1 proposes Kerra Nightblade attacks P2's Sarmoth")
    everyone_passes(st)
    everyone_passes(st)
    act(st, "P1 strikes with Deathbringer")
    everyone_passes(st)
    assert "P1 strikes with Sword of Zeal" in labels(st)
    act(st, "P1 strikes with Sword of Zeal")
    everyone_passes(st)
    assert st.ready_resources(0) == 0
    everyone_passes(st)  # combat concludes: Kerra deals 4 to Sarmoth, Sarmoth 1 to Kerra
    assert st.find("Sarmoth", 1).damage == 4
    assert st.find("Kerra Nightblade").damage == 1
    assert st.decision.kind == "order_trigger"
    assert sorted(labels(st)) == ["P1 adds Deathbringer's effect next", "P1 adds Sword of Zeal's effect next"]
    act(st, "P1 adds Deathbringer's effect next")
    assert st.decision.kind == "trigger_target"
    act(st, "P1 targets P1 with Sword of Zeal's effect")
    assert [st.objs[link.source].name for link in st.chain] == ["Deathbringer", "Sword of Zeal"]
    everyone_passes(st)  # Sword of Zeal's effect
    act(st, "P1 readies 4 resources")
    assert st.ready_resources(0) == 4
    everyone_passes(st)  # Deathbringer's effect
    assert st.find("Maelen Frostweave").damage == 4
    assert not st.chain


# --- 406: healing --------------------------------------------------------------

def test_406_1_flash_heal_in_response_saves_the_ally_from_lightning_bolt():
    """406.1 example (seed line 273): P1's ally has 5 health and 1 damage;
    P2 targets it with Lightning Bolt; P1 responds with Flash Heal. The heal
    resolves first and removes the 1 damage (the rest is wasted); then the
    Bolt puts 4 on it and it survives."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"], turn_player=1,
        play={0: [{"name": "Sarmoth", "damage": 1}]},
        hands={0: ["Flash Heal"], 1: ["Lightning Bolt"]}, resources={0: 1, 1: 3},
    )
    act(st, "P2 plays Lightning Bolt on P1's Sarmoth")
    act(st, "P2 passes")
    act(st, "P1 plays Flash Heal on P1's Sarmoth")
    everyone_passes(st)
    sarmoth = st.find("Sarmoth", 0)
    assert sarmoth.damage == 0
    everyone_passes(st)
    assert sarmoth.zone == "play" and sarmoth.damage == 4


def test_406_3_flash_heal_on_an_undamaged_ally_does_nothing_and_the_bolt_kills_it():
    """406.3 example (seed line 288): the ally has 4 health and
    no damage; Flash Heal in response creates no packet, then the Bolt's 4
    damage is lethal and the ally is destroyed before the next priority."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"], turn_player=1,
        play={0: ["Stonehide Defender", "Hide of the Wild"]},
        hands={0: ["Flash Heal"], 1: ["Lightning Bolt"]}, resources={0: 1, 1: 3},
    )
    ally = st.find("Stonehide Defender", 0)
    act(st, "P2 plays Lightning Bolt on P1's Stonehide Defender")
    act(st, "P2 passes")
    act(st, "P1 plays Flash Heal on P1's Stonehide Defender")
    everyone_passes(st)
    assert ally.damage == 0
    assert st.find("Flash Heal", 0, zone="graveyard")
    everyone_passes(st)
    assert ally.zone == "graveyard"
    assert destroy_lines(st) == ["pre-priority checks destroy P1's Stonehide Defender (409.6)"]


def test_406_2_hide_of_the_wild_adds_one_to_shelter_the_flocks_heal():
    """406.2 example (seed line 275; Boris 276-277, Hide of the Wild 278-279,
    Shelter the Flock 280 and 286): Shelter the Flock makes a heal-11 packet for
    P1's hero; Hide of the Wild replaces it with a heal-12 one."""
    st = setup(
        ["Boris Brightbeard", "Maelen Frostweave"],
        play={0: ["Hide of the Wild"]}, hands={0: ["Shelter the Flock"]}, resources={0: 4},
    )
    boris = st.find("Boris Brightbeard")
    boris.damage = 20
    act(st, "P1 plays Shelter the Flock")
    everyone_passes(st)
    assert boris.damage == 8


def test_406_2_boris_flipped_for_zero_heals_nothing_even_with_hide_of_the_wild():
    """406.2 example (seed line 275), 407.2a: later that turn P1 pays 0 to
    flip Boris; a packet of less than 1 is never created, so Hide of the
    Wild has nothing to replace and no damage is healed."""
    st = setup(
        ["Boris Brightbeard", "Maelen Frostweave"],
        play={0: ["Hide of the Wild"]}, hands={0: ["Shelter the Flock"]}, resources={0: 4},
    )
    boris = st.find("Boris Brightbeard")
    boris.damage = 20
    act(st, "P1 plays Shelter the Flock")
    everyone_passes(st)
    assert st.ready_resources(0) == 0
    assert labels(st).count("P1 uses Boris Brightbeard's power (X=0) on P1's Boris Brightbeard") == 1
    act(st, "P1 uses Boris Brightbeard's power (X=0) on P1's Boris Brightbeard")
    assert boris.flipped
    everyone_passes(st)
    assert boris.damage == 8


def test_406_1_boris_heals_x_plus_one_with_hide_and_excess_is_wasted():
    """406.1, 406.2: Boris for X=2 with Hide of the Wild heals 3; on a hero
    with only 2 damage the extra point is wasted (damage 0, not -1)."""
    st = setup(["Boris Brightbeard", "Maelen Frostweave"], play={0: ["Hide of the Wild"]}, resources={0: 2})
    boris = st.find("Boris Brightbeard")
    boris.damage = 2
    act(st, "P1 uses Boris Brightbeard's power (X=2) on P1's Boris Brightbeard")
    everyone_passes(st)
    assert boris.damage == 0


def test_406_2_boris_flips_only_on_his_controllers_turn_and_only_once():
    """Boris (seed line 277): the flip is used only on your turn; a flipped
    hero can't flip again."""
    st = setup(["Boris Brightbeard", "Maelen Frostweave"], turn_player=1, resources={0: 1})
    st.find("Boris Brightbeard").damage = 3
    act(st, "P2 passes")
    assert not any("Boris Brightbeard's power" in lab for lab in labels(st))
    st2 = setup(["Boris Brightbeard", "Maelen Frostweave"], resources={0: 1})
    st2.find("Boris Brightbeard").damage = 3
    act(st2, "P1 uses Boris Brightbeard's power (X=1) on P1's Boris Brightbeard")
    everyone_passes(st2)
    assert st2.find("Boris Brightbeard").damage == 2
    assert not any("Boris Brightbeard's power" in lab for lab in labels(st2))


# --- 407.3: packet properties ---------------------------------------------------

def test_407_3c_annihilators_combat_damage_cannot_be_prevented():
    """407.3c example (seed line 312; Annihilator 313-314): combat damage the
    hero deals with Annihilator can't be prevented, so P2 is not offered his
    armor and takes all 3."""
    st = setup(
        ["Gorrak Bloodfist", "Maelen Frostweave"],
        play={0: ["Annihilator"], 1: ["Chain Hauberk"]}, resources={0: 2},
    )
    fight(st, "P1 proposes Gorrak Bloodfist attacks P2's Maelen Frostweave", ("Annihilator",))
    assert st.decision is None
    assert st.find("Maelen Frostweave").damage == 3
    assert not st.find("Chain Hauberk", 1).exhausted


def test_407_3c_other_weapons_combat_damage_meets_armor():
    """407.3c: packets are preventable unless something says otherwise: the
    same attack with Deathbringer lets P2 exhaust armor."""
    st = setup(
        ["Gorrak Bloodfist", "Maelen Frostweave"],
        play={0: ["Deathbringer"], 1: ["Chain Hauberk"]}, resources={0: 2},
    )
    act(st, "P1 proposes Gorrak Bloodfist attacks P2's Maelen Frostweave")
    everyone_passes(st)
    everyone_passes(st)
    act(st, "P1 strikes with Deathbringer")
    everyone_passes(st)
    everyone_passes(st)
    assert st.decision.kind == "prevent"
    act(st, "P2 exhausts Chain Hauberk (DEF 2) against 2 damage")
    assert st.find("Maelen Frostweave").damage == 0


def test_407_2a_thrash_blade_does_not_trigger_when_armor_prevents_all_its_damage():
    """407.2a, 407.3d (Thrash Blade, seed line 325): when armor prevents all
    the combat damage the packet disappears, nothing is dealt with Thrash
    Blade, and neither the blade nor the hero readies."""
    st = setup(
        ["Gorrak Bloodfist", "Maelen Frostweave"],
        play={0: ["Thrash Blade"], 1: ["Observer's Shield"]}, resources={0: 4},
    )
    hero, blade = st.find("Gorrak Bloodfist"), st.find("Thrash Blade", 0)
    fight(st, "P1 proposes Gorrak Bloodfist attacks P2's Maelen Frostweave", ("Thrash Blade",))
    act(st, "P2 exhausts Observer's Shield (DEF 2) against 2 damage")
    assert st.find("Maelen Frostweave").damage == 0
    # Fully prevented: nothing was dealt, so nothing triggers.
    assert not st.chain and hero.exhausted and blade.exhausted


def test_407_3d_thrash_blade_triggers_on_reduced_damage_then_not_again_that_turn():
    """407.3d example (seed line 323; Thrash Blade 324-325): P2's armor
    prevents part of the combat damage; the 1 left is still dealt with
    Thrash Blade, so the blade and the hero ready. Attacking again the same
    turn deals damage with the blade again, but it readies nothing."""
    st = setup(
        ["Gorrak Bloodfist", "Maelen Frostweave"],
        play={0: ["Thrash Blade"], 1: ["Leather Jerkin"]}, resources={0: 4},
    )
    hero, blade = st.find("Gorrak Bloodfist"), st.find("Thrash Blade", 0)
    fight(st, "P1 proposes Gorrak Bloodfist attacks P2's Maelen Frostweave", ("Thrash Blade",))
    act(st, "P2 exhausts Leather Jerkin (DEF 1) against 2 damage")
    assert st.find("Maelen Frostweave").damage == 1
    assert hero.exhausted and blade.exhausted
    assert [st.objs[link.source].name for link in st.chain] == ["Thrash Blade"]
    everyone_passes(st)
    assert not hero.exhausted and not blade.exhausted
    fight(st, "P1 proposes Gorrak Bloodfist attacks P2's Maelen Frostweave", ("Thrash Blade",))
    assert st.find("Maelen Frostweave").damage == 3
    assert not st.chain
    assert hero.exhausted and blade.exhausted


def test_407_3d_blade_flurry_triggers_once_for_two_warhammers():
    """407.3d example (seed line 326; Blade Flurry 327-328, Viking Warhammer
    329): a dual-wield hero strikes with two Viking Warhammers and deals 2
    combat damage to an ally in one packet dealt with both weapons; Blade
    Flurry triggers once, and may deal 2 melee damage to another target."""
    st = setup(
        ["Kerra Nightblade", "Maelen Frostweave"],
        play={0: ["Blade Flurry", "Viking Warhammer", "Viking Warhammer"], 1: ["Stonehide Defender", "Ashen Recruit"]},
        resources={0: 2},
    )
    fight(st, "P1 proposes Kerra Nightblade attacks P2's Stonehide Defender", ("Viking Warhammer", "Viking Warhammer"))
    assert st.find("Stonehide Defender", 1).damage == 2
    assert st.decision.kind == "trigger_target"
    act(st, "P1 targets P2's Ashen Recruit with Blade Flurry's effect")
    assert st.decision is None
    assert [st.objs[link.source].name for link in st.chain] == ["Blade Flurry"]
    assert not st.waiting
    everyone_passes(st)
    act(st, "P1 does it")
    assert st.find("Ashen Recruit", zone="graveyard")
    assert not st.chain


# --- 412: uniqueness -------------------------------------------------------------

def test_412_a_second_unique_saurfang_forces_a_repair():
    """412: two unique cards with the same name under one player conflict;
    he chooses which one the game destroys."""
    st = setup(
        ["Gorrak Bloodfist", "Maelen Frostweave"],
        play={0: ["High Overlord Saurfang"]}, hands={0: ["High Overlord Saurfang"]}, resources={0: 8},
    )
    old = st.find("High Overlord Saurfang", 0)
    act(st, "P1 plays High Overlord Saurfang")
    everyone_passes(st)
    assert st.decision.kind == "uniqueness" and st.decision.rule == "412"
    assert labels(st) == ["P1 keeps the others and destroys P1's High Overlord Saurfang"] * 2
    st.apply_action(next(a for a in st.legal_actions() if a.subject == old.id))
    assert old.zone == "graveyard"
    assert [o.zone for o in st.objs if o.card.name == "High Overlord Saurfang"].count("play") == 1
    assert st.decision is None and st.priority == 0


def test_412_unique_cards_under_different_players_do_not_conflict():
    """412: uniqueness is counted per controller."""
    st = setup(
        ["Gorrak Bloodfist", "Maelen Frostweave"],
        play={0: ["High Overlord Saurfang"], 1: ["High Overlord Saurfang"]},
    )
    assert st.decision is None and st.priority == 0


def test_412_pet_1_allows_one_sarmoth():
    """412 (Sarmoth is "Pet (1)", seed line 458): a second Pet under the
    same player conflicts."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Sarmoth"]}, hands={0: ["Sarmoth"]}, resources={0: 3},
    )
    act(st, "P1 plays Sarmoth")
    everyone_passes(st)
    assert st.decision.kind == "uniqueness"
    assert labels(st) == ["P1 keeps the others and destroys P1's Sarmoth"] * 2
    act(st, "P1 keeps the others and destroys P1's Sarmoth")
    assert [o.zone for o in st.objs if o.card.name == "Sarmoth"].count("play") == 1


def test_412_unlimited_ironforge_guards_never_conflict():
    """412, Ironforge Guards are Unlimited (seed line 365): any number of
    them under one player is no conflict."""
    st = setup(
        ["Bragvi Stormstein", "Maelen Frostweave"],
        play={0: ["Ironforge Guards"] * 4}, hands={0: ["Ironforge Guards"]}, resources={0: 2},
    )
    assert st.decision is None
    act(st, "P1 plays Ironforge Guards")
    everyone_passes(st)
    assert st.decision is None and st.priority == 0
    assert [o.zone for o in st.objs if o.card.name == "Ironforge Guards"] == ["play"] * 5
