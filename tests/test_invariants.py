"""Kept invariants (checkers/invariants.py): Spacer's proofs, stored and
re-checked by plain Z3 queries instead of searched for again."""

from __future__ import annotations

import json
from functools import cache

import pytest
import z3
from click.testing import CliRunner

from chainproof.cli import main
from chainproof.games import GAME_NAMES, get_game
from checkers import invariants, portfolio, spacer
from checkers.results import PROVED, UNKNOWN
from tests.test_mutants import long_range_ignored

GAME = get_game("wowtcg")
PROPERTIES = {p.name: p for p in GAME.properties}


@cache
def any_length():
    return GAME.any_length_machine({})


def _kept(game: str, given=None):
    machine = get_game(game).any_length_machine(given or {})
    return machine, invariants.load(game).get(invariants.bounds_key(machine), {})


def _certified_models():
    """Each game's any-length model at the search defaults, and at verify's
    defaults where they build another one (WoW's cards in hand are variables
    of its model): certify keeps invariants for both."""
    for g in GAME_NAMES:
        if invariants.path_for(g).exists():
            yield pytest.param(g, None, id=f"{g}-search-defaults")
            game = get_game(g)
            search, verify = (invariants.bounds_key(game.any_length_machine(b)) for b in ({}, game.verify_given({})))
            if verify != search:
                yield pytest.param(g, "verify", id=f"{g}-verify-defaults")


@pytest.mark.parametrize("game, defaults", list(_certified_models()))
def test_every_kept_invariant_rechecks_on_the_model_as_it_is(game, defaults):
    """What ``chainproof certify`` wrote still proves each property: if a
    model change breaks one, verify falls back to Spacer (slower), and this
    test says to run certify again."""
    machine, kept = _kept(game, get_game(game).verify_given({}) if defaults else None)
    assert kept, f"{invariants.path_for(game)} keeps nothing for the bounds {invariants.bounds_key(machine)}"
    props = {p.name: p for p in get_game(game).properties}
    for name, k in kept.items():
        r = invariants.recheck(machine, props[name], k, [props[x] for x in k.lemmas], 60_000)
        assert r.verdict == PROVED and r.unbounded, (name, r.note)
        assert f"kept in checkers/invariants/{game}.json" in r.note and k.found in r.note


def test_the_text_reads_back_as_the_same_formula():
    m = any_length()
    over = spacer.invariant_state(m)
    formula = z3.And(over.passes <= 2, z3.Implies(over.chain_len > 0, over.priority_holder != 3), over.in_play[1])
    text = spacer.invariant_text(m, formula, over, "found by hand")
    assert text.startswith("; found by hand\n") and "chain_len" in text and "in_play[1]" in text
    back = spacer.parse_invariant(m, text)
    solver = z3.Solver()
    solver.add(back != formula)
    assert solver.check() == z3.unsat


def test_a_kept_invariant_cannot_prove_a_broken_rule():
    """On a model where defenders hit a long-range attacker back after all,
    the invariant kept for the faithful model fails its re-check, and the
    portfolio does not report the property proved."""
    machine, kept = _kept("wowtcg")
    name = "long_range_attacker_takes_no_combat_damage"
    k = kept[name]
    prop = PROPERTIES[name]
    lemmas = [PROPERTIES[x] for x in k.lemmas]
    assert invariants.recheck(machine, prop, k, lemmas, 60_000).verdict == PROVED
    broken = long_range_ignored(machine)
    r = invariants.recheck(broken, prop, k, lemmas, 60_000)
    assert r.verdict == UNKNOWN and not r.unbounded
    assert r.note.startswith("the kept invariant no longer re-checks: ") and "'combat_damage" in r.note


def test_an_invariant_naming_a_variable_the_model_lacks_is_not_used():
    machine, kept = _kept("wowtcg")
    name = "lethal_damage_destroys_before_priority"
    k = kept[name]
    renamed = invariants.Kept(k.property, k.lemmas, k.vacuous, k.smt2.replace("chain_len", "chain_length"))
    r = invariants.recheck(machine, PROPERTIES[name], renamed, [PROPERTIES[x] for x in k.lemmas], 60_000)
    assert r.verdict == UNKNOWN and r.note.startswith("the kept invariant names what the model no longer has")


def test_a_kept_invariant_is_used_only_where_its_lemmas_were_proved_too():
    machine, kept = _kept("wowtcg")
    k = kept["combat_damage_equals_atk"]
    assert k.lemmas
    assert invariants.find(machine, k.property, list(k.lemmas)) == k
    assert invariants.find(machine, k.property, list(k.lemmas)[1:]) is None


def test_the_portfolio_rechecks_kept_invariants_unless_told_to_search_afresh(monkeypatch):
    """With a kept invariant the Spacer job re-checks it and says so; with
    ``kept_invariants=False`` it never reads the file."""
    machine = any_length()
    read: list[str] = []
    real = invariants.load

    def counting(game, path=None):
        read.append(game)
        return real(game, path)

    monkeypatch.setattr(invariants, "load", counting)
    # Of the kept invariants, the one Spacer finds again the quickest (some 2 s, half of the next).
    name = "long_range_attacker_takes_no_combat_damage"
    k = invariants.load("wowtcg")[invariants.bounds_key(machine)][name]
    # The job numbered 0, as a portfolio run shares it with its workers.
    portfolio._SHARED[0] = portfolio.Job(machine, machine, GAME.properties, portfolio.Budget(workers=1))
    try:
        r = portfolio._spacer_job(0, name, list(k.lemmas))
        assert r.verdict == PROVED and "kept in checkers/invariants/wowtcg.json" in r.note
        read.clear()
        portfolio._SHARED[0] = portfolio.Job(machine, machine, GAME.properties, portfolio.Budget(workers=1, kept_invariants=False))
        fresh = portfolio._spacer_job(0, name, list(k.lemmas))
        assert not read and fresh.verdict == PROVED and fresh.note.startswith("proved by Spacer in ")
    finally:
        portfolio._forget()


def test_a_malformed_file_is_refused_with_its_name(tmp_path, monkeypatch):
    bad = tmp_path / "wowtcg.json"
    bad.write_text(json.dumps({"format": 1, "game": "wowtcg", "models": {"x": {"p": {"lemmas": 3}}}}))
    with pytest.raises(invariants.KeptInvariantError, match="wowtcg.json: not a kept-invariants file"):
        invariants.load("wowtcg", bad)
    monkeypatch.setattr(invariants, "DIRECTORY", tmp_path)
    result = CliRunner().invoke(main, ["verify", "--game", "wowtcg", "--property", "combat_damage_equals_atk"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith("chainproof: error: ")
    assert "wowtcg.json: not a kept-invariants file" in result.output and "Traceback" not in result.output
