"""Combat (600-603): readings that differ, outcomes the rules allow, and the board."""

from __future__ import annotations

import networkx as nx
import pytest

from model import wowtcg
from checkers import bmc, explicit
from checkers.results import HOLDS_TO_DEPTH
from model.wowtcg.board import Character
from properties.wowtcg import deadlock
from tests.conftest import explored

#: P1's turn with no resources, so a taxed attacker can never be paid for, and
#: three combats explored, so the hero and the guard can both attack first.
UNPAID = {"players": 2, "chain_depth": 1, "turns": 1, "hand": 0, "deck": 0, "resources": 0, "combats": 3}
#: The same with one resource: the prowler's tax can be paid.
PAID = {**UNPAID, "resources": 1}


def _first_action_phase(machine):
    exploration = explicit.explore(machine)
    first = next(i for i, s in enumerate(exploration.nodes) if machine.location_of(s) == "action_phase")
    return exploration.nodes[first]


def test_without_600_3s_clause_the_taxed_prowler_binds_its_controller_when_he_can_pay():
    """600.2 alone forbids passing while the prowler could attack, and paying its
    600.3 tax makes the attack possible: P1 may not pass.  With the clause
    (the seed's reading) the prowler need not attack."""
    seed = wowtcg.build(**PAID)
    variant = wowtcg.build(variant="600.2-without-600.3", **PAID)
    state = _first_action_phase(seed)
    assert "pass_priority@action_phase" in {e.name for e, _ in seed.successors(state)}
    assert "pass_priority@action_phase" not in {e.name for e, _ in variant.successors(state)}
    # Proposing the prowler, paying its tax, is still offered under both.
    proposals = {e.name for e, _ in variant.successors(state) if e.name.startswith("propose_combat[P1 prowler")}
    assert proposals and proposals <= {e.name for e, _ in seed.successors(state)}


def test_without_600_3s_clause_the_rulings_clash_and_the_core_names_both_rules():
    """The clash lint reports (chainproof lint): the Z3 unsat core over the
    rule-labelled rulings names 600.2 and 600.3, and only them."""
    variant = wowtcg.build(variant="600.2-without-600.3", **PAID)
    state = _first_action_phase(variant)
    (clash,) = variant.rulings.clash_in(state)
    assert clash.question == "bound_to_attack"
    assert variant.table.name(clash.arguments[0]) == "P1 prowler"
    assert set(clash.core) == {"600.2", "600.3:attack-tax"}
    assert set(clash.rules) == {"600.2", "600.3"}
    # The seed's book has the clause: the same state, no clash.
    assert wowtcg.build(**PAID).rulings.clash_in(state) == []


def test_an_unaffordable_tax_leaves_the_prowler_unable_so_no_deadlock_either_way():
    """Reading: 'able' includes paying the tax (402.1), so with no resources the
    prowler binds nobody under either reading, and neither deadlocks."""
    for variant in (None, "600.2-without-600.3"):
        machine = wowtcg.build(variant=variant, **UNPAID)
        assert explicit.check(explicit.explore(machine), deadlock).verdict == HOLDS_TO_DEPTH
        assert bmc.check_all(machine, [deadlock], depth=8)[0].verdict == HOLDS_TO_DEPTH


def test_an_unknown_variant_is_rejected_with_the_known_ones():
    with pytest.raises(ValueError) as refused:
        wowtcg.build(variant="nope")
    assert str(refused.value) == f"unknown variant 'nope'; variants: {', '.join(wowtcg.VARIANTS)}"


def test_heroes_that_destroy_each_other_draw_the_game():
    """102.1a: when every remaining player loses in the same batch, nobody wins."""
    # Explored once per session (tests/conftest.py); test_perft pins its counts.
    exploration = explored(players=2, chain_depth=1, turns=2, hand=0, deck=1, allies=0, combats=1)
    machine = exploration.machine
    draws = [i for i, s in enumerate(exploration.nodes) if machine.location_of(s) == "game_over" and not any(s.in_game)]
    assert draws
    start, path = exploration.path_to(draws[0])
    edges = [edge.name for edge, _ in path]
    # combat damage, one batch destroys both heroes, the next makes both players lose, then the game ends
    assert edges[-4:] == ["combat_damage", "pre_priority_batch", "pre_priority_batch", "game_ends"]
    after_damage = path[-4][1]
    assert all(after_damage.damage[machine.table.hero(p)] >= 2 for p in range(2))


def test_a_protection_turns_a_sabotage_into_a_combat_with_damage():
    """602.2c: P1's guard sabotages P2's item, P2's taunted protects, and combat damage follows."""
    machine = wowtcg.build(players=2, chain_depth=1, turns=1, hand=0, deck=0)
    exploration = explicit.explore(machine)
    nodes = exploration.nodes
    protected = [
        post
        for pre, edge, post in exploration.steps()
        if edge.has("protects") and nodes[pre].sabotage and machine.table.name(nodes[pre].defender) == "P2 item"
    ]
    assert protected
    # from such a protection, the combat goes on to deal damage to the protector
    after = set().union(*(nx.descendants(exploration.graph, post) for post in protected))
    damaged = {
        machine.table.name(nodes[pre].defender)
        for pre, edge, post in exploration.steps()
        if edge.has("deals_combat_damage") and pre in after and nodes[pre].protected
    }
    assert "P2 taunted" in damaged


def test_a_character_with_an_unknown_keyword_is_rejected():
    with pytest.raises(ValueError, match=r"brute: unknown keyword\(s\) \['trample'\]"):
        Character("brute", atk=2, health=2, keywords=frozenset({"trample"}))
