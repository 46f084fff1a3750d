"""The portfolio's verdict policy: the strongest honest verdict wins, a proof
for games of any length beats a bounded verdict, and a counterexample found
only on the any-length model is reported beside the bounded verdict, never as
one."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from chainproof.games import get_game
from checkers import explicit, portfolio
from model.backend import CONCRETE
from model.machine import Edge, IntRange, Location, Machine, Var
from checkers.results import HOLDS_TO_DEPTH, PROVED, VACUOUS, VIOLATED
from properties import Eventually, Invariant
from tests.conftest import explored

GAME = get_game("wowtcg")
PROPERTIES = {p.name: p for p in GAME.properties}
SAFETY = [p for p in GAME.properties if not isinstance(p, Eventually)]
#: Heroes only, one card in hand, one link on the chain.
TINY = {"players": 2, "chain_depth": 1, "turns": 2, "hand": 1, "deck": 1, "hand_limit": 1, "allies": 0, "resources": 1, "combats": 0}


def machines(bounds: dict, mutate=lambda m: m) -> tuple[Machine, Machine]:  # noqa: ANN001
    return mutate(GAME.machine(bounds)), mutate(GAME.any_length_machine(bounds))


# -- a machine small enough to explore to the end --------------------------------


def passing_round() -> Machine:
    """Two players pass priority to each other for ever (409.1): nothing bounds
    how long it goes on, and it has two states."""
    return Machine(
        "passing",
        [Var("priority_holder", IntRange(0, 1), (0,)), Var("passes", IntRange(0, 1), (0,))],
        [Location("window", ("409.1",), "a priority window")],
        "window",
        [
            Edge(
                "pass_priority",
                "window",
                "window",
                ("409.1",),
                update=lambda s, b: {"priority_holder": 1 - s.priority_holder, "passes": 1 - s.passes},
            )
        ],
        GAME.registry,
        {},
        lambda m, s: {"priority": f"P{s.priority_holder + 1}"},
    )


holder_is_a_player = Invariant(
    "holder_is_a_player", ("409.1",), "someone holds priority", holds=lambda m, s, b: s.priority_holder <= 1
)
passes_follow_the_holder = Invariant(
    "passes_follow_the_holder",
    ("409.1",),
    "the first player holds priority exactly after an even number of passes",
    holds=lambda m, s, b: (s.priority_holder == 0) == (s.passes == 0),
)
holder_never_changes = Invariant(
    "holder_never_changes", ("409.1",), "(false) nobody ever passes", holds=lambda m, s, b: s.priority_holder == 0
)


def test_a_model_explored_to_the_end_proves_for_every_length() -> None:
    m = passing_round()
    run = portfolio.verify(m, m, [holder_is_a_player, passes_follow_the_holder])
    for r in run.results:
        assert r.verdict == PROVED and r.method == portfolio.EXHAUSTIVE, r
        assert "games of any length" in r.note and "all 2 reachable states" in r.note


def test_a_violation_found_exhaustively_is_the_bounded_one() -> None:
    m = passing_round()
    (r,) = portfolio.verify(m, m, [holder_never_changes]).results
    assert r.verdict == VIOLATED and r.method == "explicit" and len(r.counterexample) == 1


def test_without_an_any_length_model_the_bounded_verdict_stands() -> None:
    m = passing_round()
    (r,) = portfolio.verify(m, None, [holder_is_a_player]).results
    assert r.verdict == HOLDS_TO_DEPTH and r.method == "explicit"
    assert [a.model for a in r.attempts] == [portfolio.BOUNDED]


# -- the WoW model ----------------------------------------------------------------


@cache
def tiny_run() -> dict:
    bounded, any_length = machines(TINY)
    run = portfolio.verify(bounded, any_length, GAME.properties)
    return {r.property: r for r in run.results}


def test_on_a_small_instance_every_safety_property_is_decided_for_every_length() -> None:
    results = tiny_run()
    for p in SAFETY:
        r = results[p.name]
        assert r.verdict in (PROVED, VACUOUS), (p.name, r.verdict, r.note)
        assert r.method in ("k-induction (any length)", "spacer (any length)"), p.name


def test_what_is_proved_for_every_length_holds_in_longer_bounded_games() -> None:
    proved = [p for p in SAFETY if tiny_run()[p.name].verdict == PROVED]
    # GAME.machine(bounds) is wowtcg.build(**bounds); test_perft pins the counts of these
    # bounds, and the exploration is shared for the session (tests/conftest.py).
    exploration = explored(**GAME.resolve({**TINY, "turns": 4, "deck": 2}))
    assert exploration.complete
    for p in proved:
        # Without combat in the bounded instance the combat properties check nothing there.
        assert explicit.check(exploration, p).verdict in (HOLDS_TO_DEPTH, VACUOUS), p.name


def test_liveness_keeps_its_bounded_verdict() -> None:
    """Where the any-length model is not searched whole (WoW's), nothing decides liveness beyond the bounds."""
    results = tiny_run()
    for p in GAME.properties:
        if isinstance(p, Eventually):
            assert results[p.name].verdict in (HOLDS_TO_DEPTH, VACUOUS)
            assert results[p.name].method == "explicit"
            assert all(a.model == portfolio.BOUNDED for a in results[p.name].attempts)
            assert "not decided for games of any length: the any-length model was not searched whole" in results[p.name].note


def test_every_attempt_is_kept_with_its_model() -> None:
    r = tiny_run()["priority_exclusive"]
    models = [a.model for a in r.attempts]
    assert models[0] == portfolio.BOUNDED and portfolio.ANY_LENGTH in models
    assert r.attempts[0].method == "explicit"
    assert "k-induction" in [a.method for a in r.attempts]
    assert r.to_json()["attempts"][0]["model"] == "bounded"


def other_player_after_resolution(m: Machine) -> Machine:
    """Break 409.4a: after a resolution the non-turn player gets priority."""
    edge = "resolve_top_link@action_phase"
    original = m.edge(edge).update
    return m.replace_edge(edge, update=lambda s, b: {**original(s, b), "priority_holder": 1 - s.turn_player})


def test_a_violation_within_the_bounds_wins_with_the_shortest_transcript() -> None:
    bounded, any_length = machines(TINY, other_player_after_resolution)
    run = portfolio.verify(bounded, any_length, [PROPERTIES["turn_player_first"]])
    r = run.results[0]
    alone = explicit.check(explicit.explore(bounded), PROPERTIES["turn_player_first"])
    assert r.verdict == VIOLATED and r.method == "explicit"
    assert r.counterexample is not None and len(r.counterexample) == len(alone.counterexample)
    assert r.counterexample.steps[-1].edge == "resolve_top_link@action_phase"


def drawing_loses(m: Machine) -> Machine:
    """Break 409.6c: every draw, from any deck, puts the drawing player out of the game."""
    for e in m.edges:
        if e.has("draws"):
            original = e.update
            m = m.replace_edge(
                e.name,
                update=lambda s, b, original=original: {
                    **original(s, b),
                    "in_game": tuple(b.If(s.turn_player == p, False, s.in_game[p]) for p in range(len(s.in_game))),
                },
            )
    return m


def test_a_violation_beyond_the_bounds_is_shown_but_not_claimed() -> None:
    # One turn: the first player skips his draw (501.2b), so nobody draws within the bounds.
    bounds = {**TINY, "turns": 1}
    bounded, any_length = machines(bounds, drawing_loses)
    prop = PROPERTIES["decked_player_loses"]
    r = portfolio.verify(bounded, any_length, [prop]).results[0]
    assert r.verdict != VIOLATED
    assert r.verdict in (HOLDS_TO_DEPTH, VACUOUS)
    assert r.counterexample is not None
    assert any(step.edge.startswith("draw") for step in r.counterexample.steps)
    assert "any-length model has a run" in r.note


def test_at_the_resource_cap_every_cost_is_paid_without_exhausting() -> None:
    """abstracted:resource-cap over-approximates: a player at the cap pays
    anything and keeps all of it ready, so the model has every payment of the
    game (and more)."""
    m = GAME.any_length_machine({})
    t = m.table
    start = next(m.initial_states())
    at_cap = start._replace(resources=(t.resource_cap, 0), resources_exhausted=(1, 0))
    assert t.ready_resources(at_cap, CONCRETE, 0) == t.resource_cap >= t.largest_cost
    assert t.pay(at_cap, CONCRETE, 0, t.largest_cost)["resources_exhausted"] == (1, 0)
    # Below the cap a payment exhausts as the rules say (402.4a).
    below = start._replace(resources=(t.resource_cap - 1, 0))
    assert t.pay(below, CONCRETE, 0, 1)["resources_exhausted"] == (1, 0)
    assert t.ready_resources(below, CONCRETE, 0) == t.resource_cap - 1
    assert t.gain_resource(at_cap, CONCRETE, 0)["resources"] == (t.resource_cap, 0)


def test_the_default_bounds_prove_every_safety_property_for_every_length() -> None:
    run = portfolio.verify(GAME.machine({}), GAME.any_length_machine({}), GAME.properties)
    by_name = {r.property: r for r in run.results}
    for p in SAFETY:
        assert by_name[p.name].verdict == PROVED and by_name[p.name].unbounded, (p.name, by_name[p.name].note)
        assert by_name[p.name].method in ("k-induction (any length)", "spacer (any length)"), p.name
    # Deadlock freedom is 1-inductive given the playable-state invariants (two
    # players remain, heroes in play, the chain well formed, ...) as lemmas.
    deadlock = by_name["deadlock"]
    assert deadlock.method == "k-induction (any length)" and "two_players_until_game_over" in deadlock.note
    assert by_name["every_combat_concludes"].verdict == HOLDS_TO_DEPTH


def test_liveness_is_proved_where_the_any_length_model_is_searched_whole() -> None:
    """Riftbound's any-length model fits the exhaustive search: its liveness
    property (every pending combat settles) is proved for games of any length,
    the only method here that decides liveness beyond the bounds."""
    game = get_game("riftbound")
    live = [p for p in game.properties if isinstance(p, Eventually)]
    assert live
    run = portfolio.verify(game.machine({}), game.any_length_machine({}), live, game.budget(portfolio.Budget(workers=1)))
    for r in run.results:
        assert (r.verdict, r.unbounded, r.method) == (PROVED, True, portfolio.EXHAUSTIVE), (r.property, r.note)
        assert "exhaustive search: all" in r.note


# -- several games in one pool ------------------------------------------------------


def _without_seconds(run: portfolio.Run) -> tuple[list, dict]:
    """A run's results and stats, less what the clock says."""

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if not k.endswith("seconds")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip([r.to_json() for r in run.results]), strip(run.stats)


def test_games_sharing_one_pool_get_the_verdicts_each_gets_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify_games`` runs several games' jobs in one pool of workers, each
    job's machines found by its number: Riftbound on an instance whose
    any-length model is searched whole, beside the passing round (409.1),
    whose any-length verdicts come from k-induction, one a violation.  Each
    gets what it gets alone, and the same again with the jobs run in this
    process, one after another; and with the liveness properties checked in
    a process of their own, as they are on large instances."""
    rift = get_game("riftbound")
    small = {"battlefields": 1, "turns": 1, "spells": 0, "victory_points": 1}
    toy = passing_round()
    jobs = [
        portfolio.Job(rift.machine(small), rift.any_length_machine(small), rift.properties, rift.budget(portfolio.Budget())),
        # One state short of the whole search: the any-length verdicts fall to k-induction.
        portfolio.Job(toy, toy, [holder_is_a_player, passes_follow_the_holder, holder_never_changes], portfolio.Budget(any_length_states=1)),
    ]
    alone = [_without_seconds(portfolio.verify_games([job])[0]) for job in jobs]
    assert [_without_seconds(run) for run in portfolio.verify_games(jobs)] == alone
    in_process = [replace(job, budget=replace(job.budget, workers=1)) for job in jobs]
    assert [_without_seconds(run) for run in portfolio.verify_games(in_process)] == alone
    monkeypatch.setattr(portfolio, "SPLIT_CHECKS_FROM", 0)
    assert [_without_seconds(run) for run in portfolio.verify_games(jobs)] == alone
    # What each game's methods concluded, so that the comparison is not of two empty runs.
    (rift_results, rift_stats), (toy_results, toy_stats) = alone
    assert {r["method"] for r in rift_results} == {portfolio.EXHAUSTIVE} and rift_stats["complete"]
    assert [r["verdict"] for r in toy_results] == [PROVED, PROVED, VIOLATED]
    assert toy_stats["lemmas"] == ["holder_is_a_player", "passes_follow_the_holder"]
