"""verify's own default run: the bounds it checks when none are given, which
are larger than the search defaults every other command builds at
(``Game.verify_bounds``).  Nothing here runs a search: the portfolio is
replaced by a stand-in that records what it was asked to check."""

from __future__ import annotations

import dataclasses

import pytest
from click.testing import CliRunner

from chainproof import cli
from chainproof.games import GAME_NAMES, get_game
from checkers import invariants, portfolio


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list:
    """What each game's portfolio run was given: (bounded, any_length, budget)."""
    calls: list = []

    def record(jobs, advance=None):
        calls.extend((job.bounded, job.any_length, job.budget) for job in jobs)
        searched = {"complete": True, "stopped": None, "states": 0, "transitions": 0, "exploration_seconds": 0.0}
        return [portfolio.Run([], {**searched, "seconds": 0.0}) for _ in jobs]

    monkeypatch.setattr(portfolio, "verify_games", record)
    return calls


def _run(*args: str) -> None:
    result = CliRunner().invoke(cli.main, ["verify", *args])
    assert result.exit_code == 0, result.output


def test_the_default_run_checks_verifys_bounds(asked: list) -> None:
    _run()
    by_game = {bounded.game: (bounded, any_length, budget) for bounded, any_length, budget in asked}
    assert set(by_game) == set(GAME_NAMES)
    for name, (bounded, any_length, budget) in by_game.items():
        game = get_game(name)
        # (A machine names the bounds its model uses.)
        assert bounded.bounds.items() <= game.resolve(game.verify_bounds).items()
        # The any-length model drops only the bounds on a game's length.
        ranges = {k: v for k, v in bounded.bounds.items() if k not in game.length_bounds}
        assert ranges.items() <= any_length.bounds.items()
        assert budget.max_states == cli.VERIFY_MAX_STATES
    # A card of each kind in every opening hand; Riftbound over three turns.
    assert by_game["wowtcg"][0].bounds["hand"] == 1 and get_game("wowtcg").resolve({})["hand"] == 0
    assert by_game["riftbound"][0].bounds["turns"] == 3 and get_game("riftbound").resolve({})["turns"] == 2
    assert by_game["hota"][0].bounds.items() <= get_game("hota").resolve({}).items()


def test_a_bound_given_replaces_verifys(asked: list) -> None:
    _run("--hand", "0", "--turns", "2", "--game", "wowtcg", "--game", "riftbound")
    by_game = {bounded.game: bounded.bounds for bounded, _, _ in asked}
    assert by_game["wowtcg"].items() <= get_game("wowtcg").resolve({}).items()
    assert by_game["riftbound"].items() <= get_game("riftbound").resolve({}).items()


def test_a_variants_bound_replaces_verifys() -> None:
    """The order: the user's bounds, the variant's, verify's, the search defaults."""
    game = dataclasses.replace(get_game("wowtcg"), verify_bounds={"hand": 2, "turns": 3})
    variant = "basic-chain-priority"  # in hand: one card of each kind
    assert game.variant(variant).bounds == {"hand": 1}
    assert game.resolve(game.verify_given({}, variant), variant) == {**game.resolve({}), "hand": 1, "turns": 3}
    assert game.resolve(game.verify_given({"hand": 0, "turns": None}, variant), variant)["hand"] == 0


def test_verifys_help_names_its_own_defaults() -> None:
    text = " ".join(CliRunner().invoke(cli.main, ["verify", "--help"]).output.split())
    for name in GAME_NAMES:
        for bound, value in get_game(name).verify_bounds.items():
            assert f"--{bound.replace('_', '-')} {value}" in text, (name, bound)


def test_certify_keeps_invariants_for_each_any_length_model_verify_and_the_others_build() -> None:
    """verify's WoW any-length model holds cards in hand, unlike the other
    commands': a kept invariant names its model, so certify proves at both,
    and the kept file holds the same proofs for each."""
    game = get_game("wowtcg")
    chosen = cli._certified_bounds(game)
    assert list(chosen.values()) == [{}, game.verify_given({})]
    kept = invariants.load("wowtcg")
    keys = [invariants.bounds_key(game.any_length_machine(given)) for given in chosen.values()]
    assert all(kept.get(key) for key in keys), (keys, list(kept))
    assert set(kept[keys[0]]) == set(kept[keys[1]])
    # Riftbound's verify bounds change only how long a game is: one any-length model.
    assert list(cli._certified_bounds(get_game("riftbound")).values()) == [{}]


def test_games_declare_only_bounds_they_have() -> None:
    for name in GAME_NAMES:
        game = get_game(name)
        assert set(game.verify_bounds) <= {spec.name for spec in game.bounds}, name
        game.resolve(game.verify_bounds)  # each within its range, or BadInput
