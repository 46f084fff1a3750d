"""Liveness (``Eventually``): explicit search and BMC find the same lassos and dead ends."""

from __future__ import annotations

import pytest

from checkers import bmc, explicit
from model.machine import Machine, no_change
from checkers.results import HOLDS_TO_DEPTH, VACUOUS, VIOLATED, Result
from properties import Eventually
from tests.conftest import END_STEP_CHAIN_RESOLVES, WINDOWS, closes


def both(
    machine: Machine, prop: Eventually, depth: int, by_solver: Result | None = None, exploration: explicit.Exploration | None = None
) -> tuple[Result, Result]:
    """The verdicts of explicit search and BMC, which must agree on verdict and, for a violation, on length.
    ``by_solver``/``exploration``: BMC's result to ``depth`` or the machine's exploration, when already computed."""
    by_search = explicit.check(exploration if exploration is not None else explicit.explore(machine), prop)
    if by_solver is None:
        by_solver = bmc.check_all(machine, [prop], depth=depth)[0]
    assert by_solver.property == prop.name and by_solver.method == "bmc"
    assert by_search.verdict == by_solver.verdict, (by_search.note, by_solver.note)
    if by_search.verdict == VIOLATED:
        assert by_search.depth == by_solver.depth, "explicit search and BMC disagree on the shortest counterexample"
        assert len(by_search.counterexample) == len(by_solver.counterexample) == by_search.depth
    return by_search, by_solver


def endless_passing(m: Machine) -> Machine:
    """A pass in the action phase hands priority on but is neither counted nor remembered."""
    return m.replace_edge(
        "pass_priority@action_phase", update=lambda s, b: {"priority_holder": b.If(s.priority_holder == 0, 1, 0)}
    )


def test_every_window_eventually_closes_by_both_methods(small_exploration, bmc_small_to_12):  # noqa: ANN001
    # True because hands and the chain are finite: a play spends a card, a
    # resolution shortens the chain, and passes in succession are bounded.
    properties = [closes(w) for w in WINDOWS]
    for result in (explicit.check(small_exploration, p) for p in properties):
        assert result.verdict == HOLDS_TO_DEPTH, result.note
        assert result.depth == small_exploration.levels
        assert "every run from a premise state reaches the goal" in result.note
    # bmc.check_all(small_machine, properties, depth=12), run together with test_checkers' turn properties (tests/conftest.py)
    for result in (bmc_small_to_12[p.name] for p in properties):
        if result.property == "draw_step_closes":
            # 501.2b: the first turn has no draw step, and the second turn's
            # is more than 12 steps away.
            assert result.verdict == VACUOUS, result.note
            continue
        assert result.verdict == HOLDS_TO_DEPTH, result.note
        assert result.depth == 12
        assert "not ruled out" in result.note  # a bounded check does not claim the goal is always met


def test_bmc_past_the_longest_run_says_every_run_was_followed(bmc_past_the_longest_run):  # noqa: ANN001
    # bmc.check_all(machine, [closes("action_phase")], depth=120), run together with test_checkers' catalogue (tests/conftest.py)
    machine, results = bmc_past_the_longest_run
    _, by_solver = both(machine, closes("action_phase"), depth=120, by_solver=results["action_phase_closes"])
    assert by_solver.depth < 120
    assert by_solver.note.startswith("no run is longer than")
    assert "none from a premise state stops short of the goal" in by_solver.note


#: Once P2 holds priority in the action phase, the window eventually closes.
P2_WINDOW_CLOSES = Eventually(
    "p2_window_closes",
    ("409.4b",),
    "once P2 holds priority in the action phase, the window eventually closes",
    premise=lambda m, s, b: b.And(m.at(s, "action_phase", b=b), s.priority_holder == 1),
    goal=lambda m, s, b: b.Not(m.at(s, "action_phase", b=b)),
)


@pytest.fixture(scope="module")
def passing_forever(small_machine: Machine) -> tuple[Machine, explicit.Exploration, dict[str, Result]]:
    """``endless_passing(small_machine)``, explored once and unrolled to 12
    once for both questions the tests below ask of it (BMC decides each
    property on its own: the verdicts, depths and runs of separate runs)."""
    machine = endless_passing(small_machine)
    asked = [closes("action_phase"), P2_WINDOW_CLOSES]
    return machine, explicit.explore(machine), {r.property: r for r in bmc.check_all(machine, asked, depth=12)}


def test_passing_forever_is_a_lasso_for_both(passing_forever):  # noqa: ANN001
    machine, exploration, by_solver = passing_forever
    prop = closes("action_phase")
    for result in both(machine, prop, depth=12, by_solver=by_solver[prop.name], exploration=exploration):
        assert result.verdict == VIOLATED
        # the action phase opens after 4 steps (no draw step on the first
        # turn, 501.2b); two passes bring back the same state
        assert result.depth == 6
        transcript = result.counterexample
        assert transcript.loop_start == 4
        assert [s.edge for s in transcript.steps[4:]] == ["pass_priority@action_phase"] * 2
        assert "\n  loops back to the state after step 4\nend: location: action_phase;" in transcript.text()
        assert transcript.to_json()["loop_start"] == 4


def test_a_lasso_loops_back_no_earlier_than_its_premise_state(passing_forever):  # noqa: ANN001
    """The premise holds only halfway round the cycle: the loop must close after it."""
    machine, exploration, by_solver = passing_forever
    for result in both(machine, P2_WINDOW_CLOSES, depth=12, by_solver=by_solver[P2_WINDOW_CLOSES.name], exploration=exploration):
        assert result.verdict == VIOLATED
        # P2 first holds priority after step 5; the run returns to that state two passes later
        assert result.depth == 7
        assert result.counterexample.loop_start == 5


def test_a_loop_on_the_initial_state_loops_back_to_the_start(small_machine):  # noqa: ANN001
    machine = small_machine.replace_edge("ready_cards", target="ready_step_start", update=no_change)
    prop = Eventually(
        "turn_gets_ready",
        ("501.1a",),
        "a deliberately broken model: the ready step's window opens",
        premise=lambda m, s, b: m.at(s, "ready_step_start", b=b),
        goal=lambda m, s, b: m.at(s, "ready_step", b=b),
    )
    for result in both(machine, prop, depth=4):
        assert result.verdict == VIOLATED and result.depth == 1
        assert result.counterexample.loop_start == 0
        assert "\n  loops back to the start\n" in result.counterexample.text()


def test_a_window_that_cannot_close_is_a_dead_end_for_both(small_machine):  # noqa: ANN001
    machine = small_machine.without_edge("close_window@action_phase")
    for result in both(machine, closes("action_phase"), depth=12):
        assert result.verdict == VIOLATED
        # stuck once P2, without an instant left to play, cannot pass the last pass
        assert result.depth == 9
        transcript = result.counterexample
        assert transcript.loop_start is None and transcript.to_json()["loop_start"] is None
        assert "loops back" not in transcript.text()
        assert transcript.steps[-1].edge == "pass_priority@action_phase"
        assert transcript.final["location"] == "action_phase"
        assert transcript.final["P2 hand"].startswith("0 instant")


def test_a_terminal_location_outside_the_goal_is_a_dead_end(small_machine, small_exploration):  # noqa: ANN001
    prop = Eventually(
        "draw_step_opens",
        ("501.2a",),
        "a deliberately false claim: once a turn reaches its draw, the draw step's window opens",
        premise=lambda m, s, b: m.at(s, "draw_step_start", b=b),
        goal=lambda m, s, b: m.at(s, "draw_step", b=b),
    )
    for result in both(small_machine, prop, depth=16, exploration=small_exploration):
        assert result.verdict == VIOLATED
        # the first turn with its discard to the hand limit (12 steps), then P2
        # readies and draws from an empty deck
        assert result.depth == 14
        assert result.counterexample.steps[-1].edge == "decked_game_over"
        assert result.counterexample.final["location"] == "game_over"
        assert result.counterexample.loop_start is None
        assert "P2: - -> out of the game" in result.counterexample.text()


def test_an_unreachable_premise_is_vacuous_for_both(small_exploration, bmc_small_to_10):  # noqa: ANN001
    by_search = explicit.check(small_exploration, END_STEP_CHAIN_RESOLVES)
    # bmc.check_all(small_machine, [END_STEP_CHAIN_RESOLVES], depth=10), asked with two others (tests/conftest.py)
    by_solver = bmc_small_to_10[END_STEP_CHAIN_RESOLVES.name]
    assert by_search.verdict == by_solver.verdict == VACUOUS
    assert by_search.note.startswith("premise never reached")


def test_a_stopped_search_claims_no_dead_end_at_its_frontier(small_machine):  # noqa: ANN001
    partial = explicit.explore(small_machine, max_states=3000)
    assert not partial.complete
    # the frontier holds open windows whose successors were never computed
    frontier = [s for s, d in zip(partial.nodes, partial.depth) if d > partial.expanded]
    assert any(small_machine.location_of(s) == "action_phase" for s in frontier)
    result = explicit.check(partial, closes("action_phase"))
    assert result.verdict == HOLDS_TO_DEPTH
    assert result.depth == partial.expanded
    assert "search stopped" in result.note and "not ruled out" in result.note


def test_a_stopped_search_still_finds_a_shallow_lasso(small_machine):  # noqa: ANN001
    partial = explicit.explore(endless_passing(small_machine), max_states=200)
    # the search stops with depth 7 expanded, past the lasso of six steps
    assert not partial.complete and partial.expanded == 7
    result = explicit.check(partial, closes("action_phase"))
    assert result.verdict == VIOLATED and result.depth == 6
    assert result.counterexample.loop_start == 4
