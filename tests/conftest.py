"""Shared fixtures: small WoW machines, explored once per session; the perft check every game's counts use."""

from __future__ import annotations

import gc
from collections import Counter
from functools import cache
from typing import Any, Callable, Mapping

import pytest
from hypothesis import strategies as st

from chainproof.source_lint import SourceFinding, lint_sources
from model import wowtcg
from checkers import bmc, explicit, vector
from model.machine import Machine
from checkers.results import Result
from properties import Eventually, Invariant, StepProperty
from properties.wowtcg import CATALOGUE, TURN_PROPERTIES, deadlock

#: The turn and priority model without combat (no allies, no combats), at small
#: bounds that keep every reachable state and edge but explore in well under a second.
SMALL = {"players": 2, "chain_depth": 2, "turns": 2, "hand": 1, "deck": 1, "hand_limit": 2, "allies": 0, "combats": 0}
#: Combat with the whole default board, one turn each, no cards in hand (P2 draws one).
COMBAT = {"players": 2, "chain_depth": 1, "turns": 2, "hand": 0, "deck": 1, "hand_limit": 2, "allies": 2, "combats": 1}
#: One turn, heroes only, no cards: no run is longer than 10 steps, so BMC to 120
#: unrolls past the longest (with a card in hand runs reach 23 steps, and the
#: unrolling costs five times as much).
ONE_TURN = {"players": 2, "chain_depth": 1, "turns": 1, "hand": 0, "deck": 0, "hand_limit": 1, "allies": 0, "combats": 0}


#: The modules that cost the most CPU, most first, a RUN_TOGETHER group
#: (below) at the place of its members' sum (CPU seconds of each module in
#: one run of the whole suite, in the comments).  xdist hands a module (or a
#: group) to a worker whole, in collection order (``--dist loadscope
#: --no-loadscope-reorder``, pyproject.toml), so these start first and the
#: many small modules fill in behind them, rather than one long module picked
#: up last and run alone at the end.
HEAVIEST_FIRST = (
    "tests/test_lint.py",  # 86: lint of every game, in a process of its own
    "tests/test_portfolio.py",  # 40, with test_vector 21 and test_perft 12
    "tests/test_vector.py",
    "tests/test_perft.py",
    "tests/test_mutants.py",  # 32, with test_induction 27
    "tests/test_induction.py",
    "tests/test_liveness.py",  # 25, with test_checkers 21
    "tests/test_checkers.py",
    "tests/test_spacer.py",  # 39
    "tests/test_promela.py",  # 22
    "tests/test_campaign.py",  # 20
    "tests/test_hota_model.py",  # 17
    "tests/test_cli.py",  # 17
    "tests/test_riftbound_model.py",  # 16
    "tests/engine/test_random_play.py",  # 16
    "tests/test_hota_any_length.py",  # 14
    "tests/test_backends.py",  # 14
    "tests/engine/test_clone.py",  # 12
    "tests/agreement/test_harness.py",  # 12
    "tests/test_steady.py",  # 12
    "tests/test_riftbound_damage.py",  # 11
    "tests/engine/hota/test_random_play.py",  # 11
    "tests/test_random_play.py",  # 10
    "tests/test_invariants.py",  # 10
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {module: i for i, module in enumerate(HEAVIEST_FIRST)}
    # A stable sort: every other module keeps its place, and every test its place in its module.
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


#: The collector's thresholds while the tests run: a young collection every
#: 100,000 allocations rather than 700.  The solvers' terms and the searches'
#: states are freed by reference counting as they go; what the collector
#: finds is rare, and looking for it often cost some 3% of the suite's CPU.
GC_THRESHOLDS = (100_000, 50, 100)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the modules, their parameters, every test item)
    lives to the end of the session: frozen out of the collector's way, each
    full collection scans only what the tests make."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: Modules that reuse what another computes, through a cache that lives as
#: long as the worker process: each group goes to one xdist worker whole, so
#: the work is done once, not once on each worker.
RUN_TOGETHER = (
    # test_induction asks test_mutants' ``caught`` for its mutants.
    ("tests/test_mutants.py", "tests/test_induction.py"),
    # ``bmc_past_the_longest_run``, ``bmc_small_to_12`` and ``bmc_small_to_10`` serve both.
    ("tests/test_checkers.py", "tests/test_liveness.py"),
    # ``explored`` (here) serves test_perft and test_portfolio; test_perft
    # reads test_vector's searches over arrays.
    ("tests/test_portfolio.py", "tests/test_vector.py", "tests/test_perft.py"),
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadscope`` with each RUN_TOGETHER group as one scope: handed
    to a worker whole, where the group's first module comes in the order."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    group = {module: modules[0] for modules in RUN_TOGETHER for module in modules}

    class Together(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return group.get(scope.split("::")[0], scope)

    return Together(config, log)


#: Explorations of the seed's model on the default board, by bounds, shared by
#: every test file for the whole session: the same instance is explored once.
_EXPLORED: dict[tuple[tuple[str, int], ...], explicit.Exploration] = {}


def explored(**bounds: int) -> explicit.Exploration:
    """The complete exploration of ``wowtcg.build(**bounds)``, computed on first
    use and then shared (explicit search is deterministic, so every caller sees
    what its own call would have computed).  Keyed by the machine's resolved
    bounds, so bounds left at their defaults and bounds given explicitly meet."""
    machine = wowtcg.build(**bounds)
    key = tuple(sorted(machine.bounds.items()))
    if key not in _EXPLORED:
        _EXPLORED[key] = explicit.explore(machine)
    return _EXPLORED[key]


@pytest.fixture(scope="session")
def small_exploration() -> explicit.Exploration:
    return explored(**SMALL)


@pytest.fixture(scope="session")
def small_machine(small_exploration: explicit.Exploration) -> Machine:
    return small_exploration.machine


def states_of(machine: Machine) -> st.SearchStrategy:
    """Any state whose variables lie in their declared domains (reachable or not)."""

    def values(var):  # noqa: ANN001
        one = st.booleans() if var.domain.is_bool else st.integers(var.domain.lo, var.domain.hi)
        return one if var.length is None else st.tuples(*([one] * var.length))

    return st.builds(
        machine.State,
        st.integers(0, len(machine.location_names) - 1),
        *(values(v) for v in machine.variables),
    )


def perft_case_id(case: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in case["bounds"].items())


def assert_counts_pinned(exploration: explicit.Exploration, case: dict[str, Any]) -> None:
    """Reachable states, transitions, BFS levels and terminal states by location
    are those kept as data for these bounds (our perft)."""
    machine = exploration.machine
    terminal = Counter(machine.location_of(s) for s in exploration.nodes if machine.is_terminal(s))
    assert (exploration.states, exploration.transitions, exploration.levels) == (
        case["states"],
        case["transitions"],
        case["levels"],
    )
    assert dict(terminal) == case["terminal"]


def closes(window: str) -> Eventually:
    """Every priority window of ``window`` eventually closes (409.4b)."""
    # Leaving the window discharges it, and so does the end of the game or of
    # the exploration: both are other locations.
    return Eventually(
        f"{window}_closes",
        ("409.4b",),
        f"every priority window of the {window} eventually closes",
        premise=lambda m, s, b: m.at(s, window, b=b),
        goal=lambda m, s, b: b.Not(m.at(s, window, b=b)),
    )


@pytest.fixture(scope="session")
def bmc_past_the_longest_run() -> tuple[Machine, dict[str, Result]]:
    """BMC to depth 120 on ONE_TURN of the whole catalogue and of
    ``closes("action_phase")``, in one unrolling: test_checkers reads the
    catalogue's results, test_liveness the liveness property's.  BMC decides
    each property on its own at every depth (one query asks whether any open
    one is violated, then which), so checking them together changes no verdict,
    depth or note; it only unrolls the machine once instead of twice."""
    machine = wowtcg.build(**ONE_TURN)
    results = bmc.check_all(machine, [*CATALOGUE, closes("action_phase")], depth=120)
    return machine, {r.property: r for r in results}


#: The windows of a turn, each of which eventually closes (test_liveness).
WINDOWS = ("ready_step", "draw_step", "action_phase", "end_phase")


@pytest.fixture(scope="session")
def bmc_small_to_12(small_machine: Machine) -> dict[str, Result]:
    """BMC to depth 12 on SMALL of the turn properties and deadlock (read by
    test_checkers) and of every window closing (test_liveness), in one
    unrolling: as for ``bmc_past_the_longest_run``, each property's verdict,
    depth and note are what a run of its own gives."""
    asked = [*TURN_PROPERTIES, deadlock, *(closes(w) for w in WINDOWS)]
    return {r.property: r for r in bmc.check_all(small_machine, asked, depth=12)}


#: Questions whose premise no play on SMALL meets (each test says why).
#: With two players a decked player always ends the game, so the
#: multiplayer edge never fires (test_checkers).
NEVER_APPLIES = StepProperty(
    "multiplayer_leaving_keeps_someone",
    ("102.2",),
    "after a player leaves a multiplayer game, someone is still in it",
    applies=lambda e: e.name == "decked_turn_passes",
    holds=lambda m, pre, post, b: b.count(post.in_game) > 0,
)
#: The end step never holds a link (test_checkers, as an invariant).
NO_CHAIN_IN_END_STEP = Invariant(
    "chain_in_end_step",
    ("503.2a",),
    "the end step never holds links (premise: a link in the end step)",
    holds=lambda m, s, b: s.chain_len == 0,
    premise=lambda m, s, b: b.And(m.at(s, "end_step", b=b), s.chain_len > 0),
)
#: ... and so a link in it never has to leave (test_liveness, as liveness).
END_STEP_CHAIN_RESOLVES = Eventually(
    "end_step_chain_resolves",
    ("503.2a",),
    "a link in the end step eventually leaves the chain (premise: a link in the end step)",
    premise=lambda m, s, b: b.And(m.at(s, "end_step", b=b), s.chain_len > 0),
    goal=lambda m, s, b: s.chain_len == 0,
)


@pytest.fixture(scope="session")
def bmc_small_to_10(small_machine: Machine) -> dict[str, Result]:
    """BMC to depth 10 on SMALL of the three questions above, in one unrolling
    (each verdict as a run of its own gives)."""
    asked = [NEVER_APPLIES, NO_CHAIN_IN_END_STEP, END_STEP_CHAIN_RESOLVES]
    return {r.property: r for r in bmc.check_all(small_machine, asked, depth=10)}


def reachable_states(exploration: vector.VectorExploration) -> list[Any]:
    """Every state a vectorized search found, as plain values, in its numbering
    (explicit search's, which tests/test_vector.py holds it to)."""
    return [exploration.state(i) for i in range(exploration.states)]


def wowtcg_reading(bounds: Mapping[str, int]) -> Callable[[str | None, Mapping[str, int]], Machine]:
    """How lint's source comparison builds a reading of WoW (``lint_sources``'s
    ``build``): at ``bounds``, widened by what the question needs to show."""

    def build(spec: str | None, shows_with: Mapping[str, int]) -> Machine:
        return wowtcg.build(**{**bounds, **shows_with}, reading=spec)

    return build


def source_findings(question: str, bounds: Mapping[str, int], model_bounds: Mapping[str, int] | None = None) -> dict[str, SourceFinding]:
    """Lint's comparison of the sources on one WoW question, by finding key:
    each reading at ``bounds``, against the model built at ``model_bounds``
    (the same, unless given).  Computed once per process."""
    return _source_findings(question, tuple(bounds.items()), tuple((bounds if model_bounds is None else model_bounds).items()))


@cache
def _source_findings(question: str, bounds: tuple[tuple[str, int], ...], model_bounds: tuple[tuple[str, int], ...]) -> dict[str, SourceFinding]:
    found = lint_sources(wowtcg.build(**dict(model_bounds)), wowtcg_reading(dict(bounds)), 2_000_000, 2_000_000, questions=(question,))
    return {f.key: f for f in found.findings}


@pytest.fixture
def whole_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every source's rules start on line 1, so a few lines make a text (the text lint tests)."""
    from dataclasses import replace

    from model import sources

    for x, s in sources.SOURCES.items():
        monkeypatch.setitem(sources.SOURCES, x, replace(s, rules_from=1))
