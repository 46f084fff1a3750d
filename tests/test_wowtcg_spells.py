"""Abilities that deal damage as they resolve (404.4), the pre-priority checks
that follow them (409.6b, 102.1a), and Mocking Blow's "this turn" modifiers
(600.2, 601.2c-d): the board's spells (model/wowtcg/board.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from agreement.wowtcg.builtin import ability, spell
from agreement.wowtcg.observation import ObservationError, check_state
from checkers import explicit
from engine.wowtcg.cards import load_pool
from model import wowtcg
from model.backend import CONCRETE
from model.wowtcg.board import FROST_NOVA, MOCKING_BLOW, Spell, default_board
from scenarios import runner

ARCANE_MISSILES = Spell("Arcane Missiles", 2)
#: One turn played out (P2 decks at the next draw), one card of each kind in every hand.
SMALL = {"players": 2, "allies": 1, "hand": 1, "turns": 2, "chain_depth": 1, "deck": 0, "combats": 0}


def _machine(*spells: Spell, **bounds: int):
    bounds = {**SMALL, **bounds}
    board = replace(default_board(bounds["players"], bounds["allies"]), spells=spells)
    return wowtcg.build(board=board, **bounds)


@pytest.fixture(scope="module")
def explored_spells() -> explicit.Exploration:
    return explicit.explore(_machine(ARCANE_MISSILES, MOCKING_BLOW, FROST_NOVA))


def test_the_default_board_has_no_spell_and_no_taunt():
    """The default instance (the one perft pins) is built without them."""
    machine = wowtcg.build()
    assert not machine.table.board.spells
    assert not any(e.has("deals_damage") for e in machine.edges)
    assert "taunted_by" not in machine.State._fields


def test_no_character_keeps_lethal_damage_past_a_spell(explored_spells):
    """409.6b: the checks after a resolution destroy every character with lethal
    damage before anyone gets priority; a spell destroys allies and ends games."""
    x = explored_spells
    t = x.machine.table
    destroyed = ended = 0
    for source, target, name in x.moves:
        if "[deal " not in name:
            continue
        before, after = x.nodes[source], x.nodes[target]
        assert all(not after.in_play[c] or after.damage[c] < t.health[c] for c in range(t.count)), name
        destroyed += any(before.in_play[c] and not after.in_play[c] for c in range(t.count) if not t.is_hero[c])
        ended += x.machine.location_of(after) == "game_over"
    assert destroyed and ended


def test_frost_nova_deals_a_packet_to_each_opposing_character(explored_spells):
    """404.4: one packet per character, to the opposing party only."""
    x = explored_spells
    t = x.machine.table
    seen = 0
    for source, target, name in x.moves:
        if not name.startswith("resolve_instant[deal 1 to each opposing character][P1]@") or "armor" in name:
            continue
        before, after = x.nodes[source], x.nodes[target]
        if x.machine.location_of(after) == "game_over":
            continue
        for c in range(t.count):
            if t.owner[c] == 0:
                assert after.damage[c] == before.damage[c]
            elif after.in_play[c]:
                assert after.damage[c] == before.damage[c] + 1
            elif before.in_play[c]:
                # 409.6b, 404.1: destroyed by the packet, it left play and its damage with it.
                assert before.damage[c] + 1 >= t.health[c] and after.damage[c] == 0
        seen += 1
    assert seen


def test_armor_prevents_a_spells_damage_to_its_hero():
    """304.2: the hero's controller may exhaust a ready armor against any preventable packet."""
    machine = _machine(ARCANE_MISSILES)
    x = explicit.explore(machine)
    t = machine.table
    hero = t.hero(1)
    armored = [(x.nodes[a], x.nodes[b]) for a, b, name in x.moves if name.startswith("resolve_instant[deal 2][P2 hero][armor of P2]@")]
    assert armored
    for before, after in armored:
        assert not before.armor_exhausted[1] and after.armor_exhausted[1]
        if machine.location_of(after) != "game_over":
            assert after.damage[hero] == before.damage[hero] + 2 - t.armor_def[1]


def _p2_action_phase(machine, **changes):
    """P2's action phase on turn 2, P2 holding priority on an empty chain."""
    s = next(machine.initial_states())
    where = {"location": machine.location_index["action_phase"], "turn_player": 1, "priority_holder": 1, "turn_number": 2, "first_turn": False}
    return s._replace(**{**where, **changes})


def test_mocking_blow_taunts_its_target_until_the_turn_ends():
    """P1's Mocking Blow resolves on P2's ally in P2's turn: the ally must attack
    P1's hero this turn (600.2, 601.2c), so P2 may not pass his action phase
    while it could; the next turn starts with no taunt (503.2a)."""
    machine = _machine(MOCKING_BLOW, turns=3, combats=1)
    t = machine.table
    skirmisher = t.party(1)[1]
    # Every player passed but P1, who passes last: the top link (P1's instant) resolves.
    chain = dict(chain_len=1, chain_controller=(0,), chain_kind=(1,))
    resolving = _p2_action_phase(machine, priority_holder=0, passes=1, **chain)
    after = {e.name: post for e, post in machine.successors(resolving)}
    taunted = after["resolve_instant[deal 1 and taunt][P2 skirmisher]@action_phase"]
    assert taunted.taunted_by[skirmisher] == 0 and taunted.damage[skirmisher] == 1 and taunted.priority_holder == 1
    assert "pass_priority@action_phase" not in {e.name for e, _ in machine.successors(taunted)}
    assert "propose_combat[P2 skirmisher -> P1 hero]" in {e.name for e, _ in machine.successors(taunted)}
    free = taunted._replace(taunted_by=(t.nobody,) * t.count)
    assert "pass_priority@action_phase" in {e.name for e, _ in machine.successors(free)}
    # An exhausted ally can't attack, so it binds nobody.
    tired = taunted._replace(exhausted=tuple(c == skirmisher for c in range(t.count)))
    assert "pass_priority@action_phase" in {e.name for e, _ in machine.successors(tired)}
    empty = (0,) * t.n  # nothing to discard (503.2a)
    ending = taunted._replace(
        location=machine.location_index["end_step"], priority_holder=t.nobody, hand_instant=empty, hand_non_instant=empty, hand_quest=empty
    )
    (next_turn,) = [post for e, post in machine.successors(ending) if e.name == "end_turn"]
    assert set(next_turn.taunted_by) == {t.nobody}


def test_601_2d_two_only_modifiers_allow_either_target():
    """P2's ally that can attack only P1's guard (printed) and, this turn, only
    P1's hero (Mocking Blow): either may be proposed, a third may not (601.2d)."""
    machine = _machine(MOCKING_BLOW, allies=2, turns=3)
    t = machine.table
    taunted, guard, prowler, hero = t.party(1)[2], t.party(0)[1], t.party(0)[2], t.hero(0)
    assert t.characters[taunted].name == "taunted" and t.attacks_only[taunted] == guard
    s = _p2_action_phase(machine, taunted_by=tuple(0 if c == taunted else t.nobody for c in range(t.count)))
    answer = {d: machine.rulings.answer("may_propose", s, CONCRETE, taunted, d) for d in (hero, guard, prowler)}
    assert answer == {hero: True, guard: True, prowler: False}
    # Without the taunt only the printed modifier narrows it (601.2c).
    untaunted = s._replace(taunted_by=(t.nobody,) * t.count)
    assert machine.rulings.answer("may_propose", untaunted, CONCRETE, taunted, hero) is False
    assert machine.rulings.answer("may_propose", untaunted, CONCRETE, taunted, guard) is True


def test_the_pool_s_spells_are_those_whose_whole_effect_the_model_has():
    pool = load_pool()
    found = {card.name: spell(card) for card in pool.cards.values()}
    spells = {name: sp for name, sp in found.items() if sp is not None}
    assert set(spells) == {"Arcane Missiles", "Lightning Bolt", "Frost Nova", "Mocking Blow", "Chain Lightning"}
    assert spells["Frost Nova"]["each_opposing"] and not spells["Lightning Bolt"]["instant"]
    assert spells["Mocking Blow"] == {"name": "Mocking Blow", "amount": 1, "each_opposing": False, "instant": True, "taunts": True}
    # A chain of packets is a spell with further packets (306.3a example).
    assert spells["Chain Lightning"] == {"name": "Chain Lightning", "amount": 3, "each_opposing": False, "instant": False, "further": [2, 1]}
    # An attachment that goes on dealing damage is not a spell.
    assert found["Fireball"] is None


def test_the_pool_s_abilities_are_the_non_instant_heals_charge_resurrection_and_mind_control():
    """Non-instant abilities that deal no damage: those that only heal (406.2),
    Charge's exhaust and draw, Resurrection's ally from the graveyard, and
    Mind Control's change of control; an instant heal (Flash Heal) and an
    attachment that exhausts (Entangling Roots) are not among them."""
    found = {card.name: ability(card) for card in load_pool().cards.values()}
    abilities = {name: ab["effect"] for name, ab in found.items() if ab is not None}
    assert abilities == {"Soothing Touch": "heal", "Shelter the Flock": "heal", "Charge": "exhaust and draw", "Resurrection": "ally from the graveyard",
                         "Mind Control": "take control of an ally"}


def test_a_malformed_spell_is_named_by_its_path():
    from agreement.wowtcg.builtin import BuiltinWowAdapter

    adapter = BuiltinWowAdapter()
    import random

    obs = adapter.observe(adapter.new_game(adapter.random_setup(random.Random(0), 2)))
    check_state(obs)
    with pytest.raises(ObservationError, match=r"state\.spells\[0\]\.amount"):
        check_state({**obs, "spells": [{"name": "Arcane Missiles", "amount": 0, "each_opposing": False, "instant": True}]})
    with pytest.raises(ObservationError, match=r"state\.spells\[0\]\.further"):
        check_state({**obs, "spells": [{"name": "Chain Lightning", "amount": 3, "each_opposing": False, "instant": False, "further": [0]}]})
    with pytest.raises(ObservationError, match=r"state\.abilities\[0\]\.effect"):
        check_state({**obs, "abilities": [{"name": "Charge", "effect": "draw"}]})
    with pytest.raises(ObservationError, match=r"state\.players\[0\]\.hero\.taunted_by"):
        bad = {**obs, "players": [{**obs["players"][0], "hero": {**obs["players"][0]["hero"], "taunted_by": 7}}, *obs["players"][1:]]}
        check_state(bad)


def test_mocking_blow_s_damage_type_parts_the_texts_where_a_long_range_character_attacks():
    """T4: 000 prints Mocking Blow's damage as combat damage (000:457), 002en and
    CR7.4 as melee.  P2's long-range ally attacks P1's hero, and P1's Mocking
    Blow resolves in the defend window: by the model's reading (002en) it
    destroys the attacker; by 000's, the defending hero can deal no combat
    damage while a long-range character attacks (603.1a), so it deals none,
    though the taunt still holds."""
    board = replace(default_board(2, 2), spells=(MOCKING_BLOW,))
    seed = wowtcg.build(board=board, turns=3)
    by_000 = wowtcg.build(board=board, turns=3, reading="000@spell_deals_combat_damage")
    assert seed.rulings.fixed("spell_deals_combat_damage", "Mocking Blow") is False
    assert by_000.rulings.fixed("spell_deals_combat_damage", "Mocking Blow") is True
    t = seed.table
    attacker = t.party(1)[2]
    assert t.characters[attacker].has("long_range") and t.health[attacker] == 1
    s = next(seed.initial_states())._replace(
        location=seed.location_index["defend_window"], turn_player=1, turn_number=2, first_turn=False,
        attacker=attacker, defender=t.hero(0), exhausted=tuple(c == attacker for c in range(t.count)),
        priority_holder=0, passes=1, chain_len=1, chain_controller=(0, t.n), chain_kind=(1, 0),
    )
    melee = {e.name: post for e, post in seed.successors(s)}["resolve_instant[deal 1 and taunt][P2 taunted]@defend_window"]
    assert not melee.in_play[attacker] and melee.attacker == t.none
    combat = {e.name: post for e, post in by_000.successors(s)}["resolve_instant[deal 1 and taunt][P2 taunted]@defend_window"]
    assert combat.in_play[attacker] and combat.damage[attacker] == 0 and combat.attacker == attacker
    assert combat.taunted_by[attacker] == 0
    # Out of combat the two readings deal the same packet.
    calm = s._replace(location=seed.location_index["action_phase"], attacker=t.none, defender=t.none, exhausted=(False,) * t.count)
    (melee,) = [post for e, post in seed.successors(calm) if e.name == "resolve_instant[deal 1 and taunt][P2 hero]@action_phase"]
    (combat,) = [post for e, post in by_000.successors(calm) if e.name == "resolve_instant[deal 1 and taunt][P2 hero]@action_phase"]
    assert melee.damage == combat.damage and melee.damage[t.hero(1)] == 1


def test_frost_nova_s_text_parts_the_texts_where_its_caster_s_opponent_would_attack():
    """V7: CR7.4 prints Frost Nova with "a character dealt damage this way can't
    attack this turn" (921-923); 000 quotes the card as damage only (000:244),
    and the model follows 000.  P2's Frost Nova resolves in P1's action phase:
    by CR7.4 P1's hero, dealt 1, can't be proposed as an attacker (103.2) and
    his guard, destroyed, holds nothing; by the model's reading he attacks.
    Where armor prevents the whole packet the hero was dealt no damage, and
    attacks under either reading."""
    board = replace(default_board(2, 2), spells=(FROST_NOVA,))
    seed = wowtcg.build(board=board)
    by_cr74 = wowtcg.build(board=board, reading="CR7.4@spell_stops_attacks")
    assert seed.rulings.fixed("spell_stops_attacks", "Frost Nova") is False
    assert by_cr74.rulings.fixed("spell_stops_attacks", "Frost Nova") is True
    assert seed.State._fields == by_cr74.State._fields and "cant_attack" in seed.State._fields
    t = seed.table
    hero = t.hero(0)
    s = next(seed.initial_states())._replace(
        location=seed.location_index["action_phase"], first_turn=False, priority_holder=0, passes=1,
        chain_len=1, chain_controller=(1, t.n), chain_kind=(1, 0),
    )
    resolve = "resolve_instant[deal 1 to each opposing character][P2]{}@action_phase"

    def after(machine, name):
        (post,) = [post for e, post in machine.successors(s) if e.name == name]
        return post, {e.name for e, _ in machine.successors(post)}

    post, moves = after(seed, resolve.format(""))
    assert post.damage[hero] == 1 and not any(post.cant_attack)
    assert "propose_combat[P1 hero -> P2 hero]" in moves
    post, moves = after(by_cr74, resolve.format(""))
    assert post.damage[hero] == 1 and post.cant_attack[hero]
    assert not by_cr74.rulings.answer("may_attack", post, CONCRETE, hero)
    assert not any(m.startswith("propose_combat[P1 hero") for m in moves)
    # The next turn's "this turn" is over.
    assert not any(t.next_turn(post, CONCRETE)["cant_attack"])
    post, moves = after(by_cr74, resolve.format("[armor of P1]"))
    assert post.damage[hero] == 0 and not post.cant_attack[hero]
    assert "propose_combat[P1 hero -> P2 hero]" in moves


def test_barnathrum_s_power_doubles_a_hero_s_damage_by_000_and_only_allies_by_7_4():
    """V6: 000 prints Barnathrum's power as doubling the damage on each
    character (000:239-241), CR7.4 on each ally (903-907).  With P1's hero and
    P2's skirmisher at 1 damage each, P2's use of it ends the game by 000 (P1's
    hero has lethal damage, 102.1a); by CR7.4 only the skirmisher is doubled,
    to lethal.  The damage is put on, so no armor is offered (404.3)."""
    from model.wowtcg.board import BARNATHRUM

    board = replace(default_board(2, 2), spells=(BARNATHRUM,))
    seed = wowtcg.build(board=board)
    by_cr74 = wowtcg.build(board=board, reading="CR7.4@doubling_reaches_heroes")
    t = seed.table
    hero, skirmisher = t.hero(0), t.party(1)[1]
    damage = tuple(1 if c in (hero, skirmisher) else 0 for c in range(t.count))
    s = next(seed.initial_states())._replace(
        location=seed.location_index["draw_step"], turn_player=1, first_turn=False, priority_holder=0, passes=1,
        chain_len=1, chain_controller=(1, t.n), chain_kind=(1, 0), damage=damage,
    )
    assert not any("armor" in e.name for e, _ in seed.successors(s))
    (ended,) = [post for e, post in seed.successors(s) if e.name == "resolve_instant[double the damage]@draw_step->game_over"]
    assert not ended.in_game[0] and seed.location_of(ended) == "game_over"
    (post,) = [post for e, post in by_cr74.successors(s) if e.name.startswith("resolve_instant[double the damage]")]
    assert by_cr74.location_of(post) == "draw_step" and post.damage[hero] == 1
    assert not post.in_play[skirmisher] and post.in_play[t.party(1)[2]]


def test_only_a_board_that_some_text_lets_stop_attacks_tracks_who_can_t():
    """The default board and one with Mocking Blow alone build no ``cant_attack``."""
    assert "cant_attack" not in wowtcg.build().State._fields
    board = replace(default_board(2, 2), spells=(MOCKING_BLOW, ARCANE_MISSILES))
    assert "cant_attack" not in wowtcg.build(board=board).State._fields


SCENARIOS = Path(__file__).parent.parent / "scenarios" / "wowtcg"


@pytest.mark.parametrize(
    ("scenario", "verdict"),
    [
        # Arcane Missiles destroys the proposed attacker; the proposal is interrupted (601.2f, 601.3).
        ("rules/601.2f-601.3-proposed-attacker-leaves-play.yaml", "agrees over 7 steps and 0 refusals"),
        # Frost Nova: a packet to each opposing character (404.4).
        ("seed-000/404.4-frost-nova-makes-a-packet-per-character.yaml", "agrees over 3 steps and 0 refusals"),
        # Mocking Blow binds the turn player (600.2); the pass it forbids is refused by the model too.
        ("rules/600.2-must-attack-if-able.yaml [a ready ally binds until it has attacked]", "agrees over 11 steps and 1 refusals"),
        # Sarmoth and Mocking Blow: two "can attack only" modifiers at once (601.2d).
        ("seed-000/601.2d-mocking-blow-and-sarmoth.yaml", "agrees over 4 steps and 2 refusals"),
        # Sarmoth alone: opposing characters can attack only it if able (601.2c).
        ("rules/601.2c-sarmoth-draws-every-attack.yaml", "agrees over 8 steps and 2 refusals"),
        # Annihilator: the struck hero's packet can't be prevented, so no armor is offered (407.3c).
        ("seed-000/407.3c-annihilator-combat-damage-cannot-be-prevented.yaml", "agrees over 10 steps and 0 refusals"),
        # Nethrak the Bound strikes with two bows: ranged dual wield pairs ranged weapons (405.2, CR7.4 406.6).
        ("rules/405.3-ranged-dual-wield-strikes-with-two-bows.yaml", "agrees over 14 steps and 1 refusals"),
        # A second Sarmoth: the engine asks which to keep (412), which the model does not have.
        ("seed-001/unique-limited-label-keeps-one.yaml",
         "not covered (P1 chooses which card to keep: the model has no limit of copies in play (412)) after 2 agreeing steps"),
    ],
)
def test_the_model_follows_scenarios_with_spells_and_sarmoth(scenario: str, verdict: str) -> None:
    path, _, case = scenario.partition(" [")
    (result,) = [r for r in runner.run_cases(SCENARIOS / path) if not case or r.scenario.endswith(f"[{case}")]
    assert result.status == "pass", result.detail
    assert result.model == verdict


def test_sarmoth_gives_each_opposing_character_its_only_target():
    """601.2c: the view puts Sarmoth's modifier on every character of the other parties, none of its own."""
    from agreement.wowtcg import abstraction as ab
    from agreement.wowtcg.builtin import BuiltinWowAdapter, Setup

    adapter = BuiltinWowAdapter()
    setup = Setup(("Bragvi Stormstein", "Maelen Frostweave"), (0, 0), (("Ashen Recruit",), ("Sarmoth", "Hill Archer")), ((), ()), ((), ()), (1, 1), 0)
    obs = adapter.observe(adapter.new_game(setup))
    binding = ab.Binding(2)
    binding.seat(obs)
    v = ab.view(binding, [obs])
    t = v.table
    sarmoth = next(c for c in range(t.count) if t.characters[c].name.startswith("Sarmoth#"))
    assert t.owner[sarmoth] == 1
    held = [c for c in range(t.count) if not t.characters[c].name.startswith("free slot")]
    assert {t.characters[c].name.split("#")[0] for c in held} == {"Bragvi Stormstein", "Maelen Frostweave", "Ashen Recruit", "Sarmoth", "Hill Archer"}
    for c in held:
        assert t.attacks_only[c] == (sarmoth if t.owner[c] == 0 else t.none), t.characters[c].name


def test_armor_cannot_prevent_a_packet_dealt_with_an_unpreventable_weapon():
    """407.3c, 407.3d: P1's hero struck with an Annihilator-like weapon, so its
    packet to P2's hero can't be prevented and 304.2's armor is not offered;
    without the strike it is."""
    board = default_board(2, 0)
    first = board.parties[0]
    board = replace(board, parties=(replace(first, weapons=(replace(first.weapons[0], unpreventable=True), first.weapons[1])), board.parties[1]))
    machine = wowtcg.build(board=board, allies=0, turns=1)
    t = machine.table
    s = next(machine.initial_states())._replace(
        location=machine.location_index["combat_conclusion"], attacker=t.hero(0), defender=t.hero(1), priority_holder=t.nobody,
    )
    struck = s._replace(struck=tuple(i == t.weapon(0, 0) for i in range(len(s.struck))))
    other = s._replace(struck=tuple(i == t.weapon(0, 1) for i in range(len(s.struck))))
    assert "combat_damage[defender's armor]" not in {e.name for e, _ in machine.successors(struck)}
    assert "combat_damage[defender's armor]" in {e.name for e, _ in machine.successors(other)}


def test_a_hero_that_can_t_be_destroyed_keeps_lethal_damage_and_is_healed_by_000_not_by_001():
    """B1: where P2's skirmisher says "your hero can't be destroyed" (Valthak
    Spiritdrinker, 103.4 example), P2's hero with lethal damage survives the
    checks by 000 and CR7.4 (103.2) until the skirmisher leaves play; the basic
    rules have its player lose (001:88).  Flash Heal then removes its damage by
    406.1; the basic rules heal only non-lethal damage (001:244)."""
    from model.wowtcg.board import nearby_boards

    (board,) = [b for key, _, b in nearby_boards(2, 2) if key == "P2-keeps-hero+flash-heal"]
    seed = wowtcg.build(board=board, hand=1)
    t = seed.table
    hero, keeper = t.hero(1), t.party(1)[1]
    lethal = tuple(t.health[hero] if c == hero else 0 for c in range(t.count))
    checks = next(seed.initial_states())._replace(location=seed.location_index["pre_priority_checks"], damage=lethal)
    assert [e.name for e, _ in seed.successors(checks)] == ["open_action_window"]
    keeper_gone = checks._replace(in_play=tuple(c != keeper for c in range(t.count)))
    (batch,) = [post for e, post in seed.successors(keeper_gone) if e.name == "pre_priority_batch"]
    assert not batch.in_play[hero]
    basic = wowtcg.build(board=board, hand=1, reading="001@hero_cant_be_destroyed")
    assert [e.name for e, _ in basic.successors(checks)] == ["pre_priority_batch"]
    # P1's instant on the chain resolves as Flash Heal on P2's hero.
    resolving = checks._replace(
        location=seed.location_index["action_phase"], priority_holder=1, passes=1, chain_len=1, chain_controller=(0, t.n), chain_kind=(1, 0),
    )
    name = "resolve_instant[heal 1][P2 hero]@action_phase"
    (healed,) = [post for e, post in seed.successors(resolving) if e.name == name]
    assert healed.damage[hero] == t.health[hero] - 1 and healed.chain_len == 0
    too_late = wowtcg.build(board=board, hand=1, reading="001@heals_lethal_damage")
    (kept,) = [post for e, post in too_late.successors(resolving) if e.name == name]
    assert kept.damage[hero] == t.health[hero] and kept.chain_len == 0


def test_a_card_that_keeps_its_hero_is_refused_where_one_step_could_destroy_it():
    """The checks after a spell's damage are one step (windows.py), so a
    keeper is modelled only where no spell deals damage and it never defends."""
    from model.wowtcg.board import nearby_boards

    (board,) = [b for key, _, b in nearby_boards(2, 2) if key == "P2-keeps-hero+flash-heal"]
    with pytest.raises(ValueError, match="spells deal no damage"):
        wowtcg.build(board=replace(board, spells=(FROST_NOVA,)))
    second = board.parties[1]
    protecting = replace(second.allies[0], keywords=second.allies[0].keywords | {"protector"})
    with pytest.raises(ValueError, match="never defends"):
        wowtcg.build(board=replace(board, parties=(board.parties[0], replace(second, allies=(protecting, *second.allies[1:])))))
