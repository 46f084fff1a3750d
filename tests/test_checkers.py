"""Explicit search and bounded model checking decide the same questions alike."""

from __future__ import annotations

import pytest

from model import wowtcg
from checkers import bmc, explicit, vector
from checkers.results import HOLDS_TO_DEPTH, VACUOUS, VIOLATED
from properties import Invariant
from properties.wowtcg import CATALOGUE, COMBAT_PROPERTIES, TURN_PROPERTIES, deadlock
from tests.conftest import COMBAT, NEVER_APPLIES, NO_CHAIN_IN_END_STEP


def test_every_turn_property_holds_by_both_methods(small_exploration, bmc_small_to_12):  # noqa: ANN001
    chosen = (*TURN_PROPERTIES, deadlock)
    by_search = {r.property: r for r in (explicit.check(small_exploration, p) for p in chosen)}
    # bmc.check_all(small_machine, chosen, depth=12), run together with test_liveness's windows (tests/conftest.py)
    by_solver = bmc_small_to_12
    for p in chosen:
        assert by_search[p.name].verdict == by_solver[p.name].verdict == HOLDS_TO_DEPTH, p.name
        assert by_solver[p.name].depth == 12


def test_without_combat_every_combat_property_is_vacuous(small_exploration):  # noqa: ANN001
    """A property about combat checks nothing on an instance with no combat, and says so."""
    verdicts = {p.name: explicit.check(small_exploration, p).verdict for p in COMBAT_PROPERTIES}
    # What holds without combat: invariants over every state, the action phase's
    # passes (nothing must attack), and a game ended by decking.
    outside_combat = {
        "must_attack_if_able",
        "one_weapon_per_combat",
        "lethal_damage_destroys_before_priority",
        "destroyed_hero_loses",
        "game_ends_with_one_winner_or_a_draw",
    }
    assert {name for name, v in verdicts.items() if v == HOLDS_TO_DEPTH} == outside_combat
    assert {name for name, v in verdicts.items() if v == VACUOUS} == set(verdicts) - outside_combat


def test_every_property_holds_with_combat_by_both_methods():
    """Explicit search covers every reachable state (over arrays: the
    vectorized search, which tests/test_vector.py holds to ``explicit.check``'s
    verdicts on every property); BMC to a shallower depth finds no violation either."""
    machine = wowtcg.build(**COMBAT)
    exploration = vector.explore(machine)
    assert exploration.complete
    for p in CATALOGUE:
        assert vector.check(exploration, p).verdict == HOLDS_TO_DEPTH, p.name
    by_solver = bmc.check_all(machine, CATALOGUE, depth=14)
    assert all(r.verdict in (HOLDS_TO_DEPTH, VACUOUS) for r in by_solver), [(r.property, r.verdict) for r in by_solver]
    # a proposal resolves at depth 9 at the earliest: BMC at 14 has checked it
    assert {r.property: r.verdict for r in by_solver}["proposal_rechecked"] == HOLDS_TO_DEPTH


def test_bmc_stops_when_no_run_is_longer(bmc_past_the_longest_run):  # noqa: ANN001
    """On a tiny instance BMC unrolls past the longest run and says so; both methods still agree."""
    # bmc.check_all(machine, CATALOGUE, depth=120), run together with test_liveness's property (tests/conftest.py)
    machine, by_solver = bmc_past_the_longest_run
    exploration = explicit.explore(machine)
    results = [by_solver[p.name] for p in CATALOGUE]
    longest = max(r.depth for r in results)
    assert longest < 120
    assert all("no run is longer than" in r.note for r in results)
    assert longest >= exploration.levels  # the longest run is at least the deepest shortest path
    assert [r.verdict for r in results] == [explicit.check(exploration, p).verdict for p in CATALOGUE]


def test_a_step_property_that_never_applies_is_vacuous_for_both(small_exploration, bmc_small_to_10):  # noqa: ANN001
    # With two players a decked player always ends the game, so the multiplayer
    # edge never fires and a property about it checks nothing.
    assert explicit.check(small_exploration, NEVER_APPLIES).verdict == VACUOUS
    # bmc.check_all(small_machine, [NEVER_APPLIES], depth=10), asked with two others (tests/conftest.py)
    assert bmc_small_to_10[NEVER_APPLIES.name].verdict == VACUOUS


def test_an_invariant_whose_premise_is_unreachable_is_vacuous_for_both(small_exploration, bmc_small_to_10):  # noqa: ANN001
    assert explicit.check(small_exploration, NO_CHAIN_IN_END_STEP).verdict == VACUOUS
    assert bmc_small_to_10[NO_CHAIN_IN_END_STEP.name].verdict == VACUOUS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_false_invariant_gets_the_same_shortest_counterexample(players):  # noqa: ANN001
    """Priority reaches the last seat only after the others pass: both methods find that length."""
    machine = wowtcg.build(players=players, chain_depth=1, turns=1, hand=0, deck=0, hand_limit=0, allies=0, combats=0)
    last = players - 1
    prop = Invariant(
        "last_seat_never_has_priority",
        ("409.1",),
        "a deliberately false claim: the last seat never gets priority",
        holds=lambda m, s, b: s.priority_holder != last,
    )
    by_search = explicit.check(explicit.explore(machine), prop)
    by_solver = bmc.check_all(machine, [prop], depth=10)[0]
    assert by_search.verdict == by_solver.verdict == VIOLATED
    # ready_cards opens the window, then players-1 passes reach the last seat
    assert by_search.depth == by_solver.depth == players
    assert [s.edge for s in by_solver.counterexample.steps] == ["ready_cards"] + ["pass_priority@ready_step"] * last


def test_a_stopped_search_claims_only_the_levels_it_expanded(small_machine, small_exploration):  # noqa: ANN001
    partial = explicit.explore(small_machine, max_states=3000)
    assert not partial.complete and small_exploration.complete
    assert partial.states > 3000
    # it stopped at a level boundary: every state up to the expanded depth is there
    full_upto = sum(1 for d in small_exploration.depth if d <= partial.expanded + 1)
    assert partial.states == full_upto
    for prop in (*TURN_PROPERTIES, deadlock):
        result = explicit.check(partial, prop)
        assert result.verdict == HOLDS_TO_DEPTH, prop.name
        assert result.depth == partial.expanded
        assert "search stopped" in result.note


def test_a_stopped_search_still_finds_a_shallow_violation(small_machine):  # noqa: ANN001
    prop = Invariant(
        "nobody_ever_passes",
        ("409.1",),
        "a deliberately false claim: nobody ever passes",
        holds=lambda m, s, b: s.passes == 0,
    )
    result = explicit.check(explicit.explore(small_machine, max_states=600), prop)
    assert result.verdict == VIOLATED and result.depth == 2
