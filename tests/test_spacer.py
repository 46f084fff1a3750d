"""Spacer's unbounded verdicts against exhaustive search of a finite any-length
model, its invariants against an independent re-check, and its counterexamples
against the broken models of test_mutants."""

from __future__ import annotations

from functools import cache

import pytest
import z3

from chainproof.games import get_game
from model import wowtcg
from checkers import explicit, spacer
from model.machine import Machine
from checkers.results import HOLDS_TO_DEPTH, PROVED, VACUOUS, VIOLATED
from model.wowtcg.board import Board, Character, Party, Weapon
from properties import Eventually
from tests.test_mutants import MUTANTS, PROPERTIES

GAME = get_game("wowtcg")
BY_NAME = {p.name: p for p in GAME.properties}


def _party(weapon: Weapon) -> Party:
    return Party(hero=Character("hero", atk=0, health=1), allies=(), weapons=(weapon,), armor_def=0)


#: Heroes of 1 health with one weapon each, no allies, no cards: the any-length
#: model is finite and small (6752 states), so explicit search is complete.
TINY_BOARD = Board((_party(Weapon("axe", 1, 0)), _party(Weapon("bow", 1, 0, melee=False))))
TINY = {"players": 2, "chain_depth": 1, "hand": 0, "hand_limit": 0, "allies": 0, "resources": 0}

#: Those that k-induction cannot prove, a step and a state invariant that are
#: easy, and one that is vacuous here (no allies, so nobody protects).  All of
#: them would take the whole time budget.
CROSS_CHECKED = (
    "priority_exclusive",
    "window_closes_on_empty_chain",
    "decked_player_loses",
    "destroyed_hero_loses",
    "lethal_damage_destroys_before_priority",
    "turn_player_first",
    "one_protector_per_combat",
    "first_player_skips_first_draw",
)


@cache
def tiny() -> Machine:
    return wowtcg.build(**TINY, board=TINY_BOARD, any_length=True)


@cache
def tiny_exploration() -> explicit.Exploration:
    return explicit.explore(tiny())


@cache
def tiny_result(name: str):  # noqa: ANN201
    return spacer.check(tiny(), BY_NAME[name])


@pytest.mark.parametrize("name", CROSS_CHECKED)
def test_spacer_agrees_with_complete_explicit_search(name: str) -> None:
    exploration = tiny_exploration()
    assert exploration.complete
    expected = explicit.check(exploration, BY_NAME[name]).verdict
    got = tiny_result(name)
    assert got.method == "spacer"
    if expected == HOLDS_TO_DEPTH:
        assert got.verdict == PROVED and got.unbounded, got.note
    elif expected == VACUOUS:
        assert got.verdict == VACUOUS and got.unbounded, got.note
    else:
        assert got.verdict == VIOLATED, got.note


def test_proofs_carry_a_readable_invariant() -> None:
    result = tiny_result("priority_exclusive")
    assert result.verdict == PROVED
    # The model's own names, location numbers as location names, no solver variables.
    assert "priority_holder" in result.invariant
    assert "location = " in result.invariant or "location in {" in result.invariant
    assert "end_step" in result.invariant
    assert "@" not in result.invariant and "Var(" not in result.invariant
    assert "re-checked" in result.note


def test_found_invariants_pass_the_independent_recheck() -> None:
    m = tiny()
    for name in ("priority_exclusive", "destroyed_hero_loses"):
        invariant = spacer.find_invariant(m, BY_NAME[name])
        assert invariant is not None
        assert spacer.check_inductive(m, BY_NAME[name], invariant)


def test_wrong_invariants_fail_the_recheck() -> None:
    m = tiny()
    prop = BY_NAME["priority_exclusive"]
    s = spacer.invariant_state(m)
    start = m.location_index[m.initial_location]
    # Excludes the initial states.
    assert not spacer.check_inductive(m, prop, z3.BoolVal(False))
    # True initially and strong enough for the property, but left by the first step.
    only_start = spacer.check_inductive(
        m, prop, z3.And(s.location == start, s.priority_holder == m.bounds["players"])
    )
    assert not only_start and "preserved" in only_start.failed
    # Inductive (it holds everywhere) but says nothing about priority.
    everything = spacer.check_inductive(m, prop, z3.BoolVal(True))
    assert not everything and "property" in everything.failed


def test_a_lemma_is_assumed_by_the_recheck_so_only_proved_ones_may_be_given() -> None:
    m = tiny()
    prop = BY_NAME["priority_exclusive"]
    # 'true' proves nothing alone; assuming the property itself it proves it:
    # a lemma is trusted, which is why the portfolio gives only proved ones.
    assert not spacer.check_inductive(m, prop, z3.BoolVal(True))
    assert spacer.check_inductive(m, prop, z3.BoolVal(True), lemmas=[prop])
    with pytest.raises(ValueError, match="cannot be a lemma of its own proof"):
        spacer.check(m, prop, lemmas=[prop])
    with pytest.raises(TypeError, match="a lemma for Spacer is a proved invariant"):
        spacer.check(m, BY_NAME["destroyed_hero_loses"], lemmas=[BY_NAME["first_player_skips_first_draw"]])
    # Clauses shared by several queries carry their own lemmas: asking for others is refused, not ignored.
    shared = spacer._Clauses(m)
    with pytest.raises(ValueError, match="shared clauses assume"):
        spacer.check(m, BY_NAME["destroyed_hero_loses"], _clauses=shared, lemmas=[prop])


def test_a_proof_with_lemmas_is_rechecked_with_them_and_names_them() -> None:
    m = tiny()
    lemmas = [BY_NAME["priority_exclusive"], BY_NAME["destroyed_hero_loses"]]
    result = spacer.check(m, BY_NAME["lethal_damage_destroys_before_priority"], lemmas=lemmas)
    assert result.verdict == PROVED, result.note
    assert "assuming the proved priority_exclusive, destroyed_hero_loses" in result.note


FAST_MUTANTS = MUTANTS[:10]  # the turn and chain mutants; the combat ones take Spacer 3 s to a timeout each


@pytest.mark.parametrize("mutant", FAST_MUTANTS, ids=lambda m: m.name)
def test_spacer_refutes_each_mutant_with_a_replayed_run(mutant) -> None:  # noqa: ANN001
    prop = PROPERTIES[mutant.caught_by]
    machine = mutant.mutate(wowtcg.build(**mutant.bounds))
    result = spacer.check(machine, prop)
    assert result.verdict == VIOLATED, result.note
    transcript = result.counterexample
    assert transcript is not None and len(transcript) == result.depth
    if mutant.broken_edge:
        assert transcript.steps[-1].edge.startswith(mutant.broken_edge), transcript.text()
    assert prop.name in transcript.text()


def test_liveness_is_refused() -> None:
    liveness = next(p for p in GAME.properties if isinstance(p, Eventually))
    with pytest.raises(TypeError, match="liveness"):
        spacer.check(tiny(), liveness)
    with pytest.raises(TypeError, match="liveness"):
        spacer.check_all(tiny(), [BY_NAME["turn_player_first"], liveness])
