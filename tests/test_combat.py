"""Combat (600-603): readings that differ, outcomes the rules allow, and the board."""

from __future__ import annotations

import networkx as nx
import pytest

from model import bmc, explicit, wowtcg
from model.results import HOLDS_TO_DEPTH, VIOLATED
from model.wowtcg.board import Character
from properties.wowtcg import deadlock

#: P1's turn with no resources, so a taxed attacker can never be paid for, and
#: three combats explored, so the hero and the guard can both attack first.
UNPAID = {"players": 2, "chain_depth": 1, "turns": 1, "hand": 0, "deck": 0, "resources": 0, "combats": 3}


def test_must_attack_without_600_3_deadlocks_where_the_rules_do_not():
    """600.2 alone would forbid passing while the prowler could legally attack, yet
    its controller can't pay the 600.3 cost: nothing is left to do.  600.3's clause
    (such a character need not attack) is what keeps the rules free of deadlock."""
    faithful = wowtcg.build(**UNPAID)
    assert explicit.check(explicit.explore(faithful), deadlock).verdict == HOLDS_TO_DEPTH

    variant = wowtcg.build(variant="600.2-without-600.3", **UNPAID)
    found = explicit.check(explicit.explore(variant), deadlock)
    assert found.verdict == VIOLATED
    end = found.counterexample.final
    assert end["location"] == "action_phase" and end["priority"] == "P1" and end["chain"] == "[]"
    assert "prowler" in end["P1 party"] and "prowler (exhausted)" not in end["P1 party"]
    assert end["P1 gear"].startswith("resources 0/0 ready")
    # the deadlock appears as the action phase's window opens after the second combat
    assert found.counterexample.steps[-1].edge == "open_action_window"

    by_solver = bmc.check_all(variant, [deadlock], depth=found.depth)[0]
    assert by_solver.verdict == VIOLATED
    assert by_solver.depth == found.depth


def test_an_unknown_variant_is_rejected_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown variant 'nope'; variants: 600.2-without-600.3"):
        wowtcg.build(variant="nope")


def test_heroes_that_destroy_each_other_draw_the_game():
    """102.1a: when every remaining player loses in the same batch, nobody wins."""
    machine = wowtcg.build(players=2, chain_depth=1, turns=2, hand=0, deck=1, allies=0, combats=1)
    exploration = explicit.explore(machine)
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
