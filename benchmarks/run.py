"""Measure WoW's explicit search and bounded model checking; write their section of RESULTS.md.

    python -m benchmarks.run            # full run, about a quarter of an hour
    python -m benchmarks.run --quick    # reduced smoke test, under 30 s (printed, not written)

Explicit search is measured with the search ``chainproof verify --method
explicit``, the portfolio and lint run (the vectorized one,
checkers/vector.py); the state-by-state search (checkers/explicit.py), which
the tests hold it to, is measured beside it at the default bounds.  The full
run also measures the BMC depth that covers two full turns with one combat
each, and cross-checks it by explicit search (benchmarks/combat_depth.py).

The section between ``<!-- benchmarks.run: begin -->`` and ``<!--
benchmarks.run: end -->`` is replaced; the rest of the file, the other
benchmarks' sections, is left as it is.

Every measurement runs in a fresh process: a long-lived interpreter that has
already built large graphs explores markedly slower (allocator and garbage
collector state), which would make later rows depend on earlier ones.  The
child process also gives each run a hard time limit.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import queue
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import networkx
import z3

from benchmarks import combat_depth
from chainproof.cli import VERIFY_MAX_STATES
from model import wowtcg
from checkers import bmc, explicit, vector
from properties.wowtcg import CATALOGUE, TURN_PROPERTIES

DEFAULTS = {b.name: b.default for b in wowtcg.BOUNDS}
#: The turn, priority and chain model alone: no allies on the board, no combat explored.
TURN_ONLY = {"allies": 0, "combats": 0}
#: The default bounds before combat (commit 67f0eb2), the turn-only targets' other instance.
BEFORE_COMBAT = {"chain_depth": 3, "turns": 3, "hand": 1}
#: Rows whose bounds have a name of their own.
NAMED = {
    tuple(DEFAULTS.items()): "default",
    tuple({**DEFAULTS, **TURN_ONLY, **BEFORE_COMBAT}.items()): "defaults before combat, turn-only",
}
PROPERTY_SETS = {"catalogue": CATALOGUE, "turn": TURN_PROPERTIES}

BEGIN, END = "<!-- benchmarks.run: begin -->", "<!-- benchmarks.run: end -->"

#: The two explicit searches: the one verify, the portfolio and lint run, and
#: the tests' reference, with how each is named in the results and its limits:
#: verify's own (``--max-states``, ``--max-memory``), and the reference's defaults.
SEARCHES = {
    "vector": ("vectorized (`checkers/vector.py`), what `verify --method explicit` runs", vector.explore, {"max_states": VERIFY_MAX_STATES}),
    "reference": ("state by state (`checkers/explicit.py`), the tests' reference", explicit.explore, {}),
}

# Every limit below is on the CPU seconds of the measurement's process: the
# machine is shared, and waiting for a core is not the measurement's time.
EXPLICIT_CAP_S = 120.0  # longest untraced exploration we run (or predict) per row
REPEATS = 3  # untraced runs per row, fastest kept: single runs vary by a third on this VM
TRACED_TIMEOUT_S = 4 * EXPLICIT_CAP_S  # tracemalloc slows the reference search roughly threefold
BMC_TIMEOUT_S = 180.0  # three times the target: enough to see how far off a miss is
#: A process that waits for a core this many times longer than its CPU limit is stopped all the same.
WALL_BACKSTOP = 6
BMC_DEPTH, BMC_QUICK_DEPTH = 30, 15
BMC_TARGET_S = 60.0
RATE_TARGET = 50_000  # states per second, explicit exploration at default bounds
# The two-turn search (benchmarks/combat_depth.py): how deep it may unroll, and
# how long it and the catalogue run that continues to its depth may take.
GOAL_MAX_DEPTH = 80
GOAL_TIMEOUT_S = 600.0
CATALOGUE_TO_GOAL_TIMEOUT_S = 600.0

# Each series starts from the default bounds and changes one dimension; rows
# are run smallest first so that a row predicted (from the two before it) to
# exceed the cap can be skipped.
FULL_SERIES = (
    # Turns and combats start at the defaults: a turn-1 or combat-free instance
    # is too different in kind (106 states without combat) to extrapolate from,
    # so the next row is run against the cap instead of predicted.
    ("Turns", [{"turns": t} for t in (2, 3, 4, 5)]),
    ("Chain depth", [{"chain_depth": c} for c in (1, 2, 3)]),
    ("Cards of each kind in the starting hand", [{"hand": h} for h in (0, 1, 2)]),
    ("Allies per party", [{"allies": a} for a in (0, 1, 2)]),
    ("Combats per turn", [{"combats": c} for c in (1, 2, 3)]),
    # At turns=1 (only P1's turn): each added player adds a party to attack
    # and a seat to pass priority through.
    ("Players (turns=1)", [{"players": p, "turns": 1} for p in (2, 3, 4)]),
    # The model before combat, as far as bounds can give it back; the last
    # row is the default instance before combat.
    (
        "Turn-only model (allies=0, combats=0)",
        [{**TURN_ONLY, "turns": t} for t in (2, 3, 4)] + [{**TURN_ONLY, **BEFORE_COMBAT}],
    ),
)
QUICK_SERIES = (("Turn-only model (allies=0, combats=0)", [{**TURN_ONLY, "turns": t} for t in (1, 2)]),)

#: Figures of the previous results (benchmarks/RESULTS.md as of commit
#: 7f29b8e, measured 2026-11-23 at fc6c112), for the comparison section.  Its
#: explicit rows measured the state-by-state search, on the wall clock.
PREVIOUS = {
    "commit": "fc6c112",
    "date": "2026-11-23",
    "states": 146_144,
    "transitions": 176_504,
    "levels": 58,
    "rate": 18_083,  # states/s of the state-by-state search, default bounds
    "edges": 87,  # edges of the machine at the default bounds
    "properties": 30,
    "bmc_catalogue_s": 44.35,  # the catalogue to depth 30
    "bmc_turn_s": 4.08,  # the 12 turn properties, allies=0, combats=0 (every run ended by depth 26)
    "bmc_before_combat_s": 25.16,  # the same at the defaults before combat
    "goal_k": 42,  # two turns with a combat each
    "goal_s": 43.73,
}
#: What changed in the model between the previous results and these, in words
#: (the git log of model/wowtcg since the commit above).
MODEL_CHANGES = (
    "the first player skips the whole draw step of his first turn, its priority window too (501.2b), "
    "and the rulings and powers added since give the machine more edges"
)


# --- running a measurement in a child process -------------------------------------


def _child(out: Any, fn: Callable[..., None], args: tuple, cpu_limit: float | None) -> None:
    if cpu_limit is not None:
        # SIGXCPU at the limit (which ends the process); SIGKILL shortly after, should it be caught.
        seconds = math.ceil(cpu_limit)
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 10))
    fn(out.put, *args)
    out.put(None)  # the end marker: the run finished


def _in_child(fn: Callable[..., None], args: tuple, timeout: float, cpu_limit: float | None = None) -> tuple[list[Any], bool]:
    """Run ``fn(report, *args)`` in a fresh interpreter; return what it reported
    and whether it finished within ``timeout`` seconds of wall clock and, if
    given, ``cpu_limit`` CPU seconds (it is stopped if not)."""
    ctx = multiprocessing.get_context("spawn")  # fresh heap, no state inherited from earlier runs
    out = ctx.Queue()
    proc = ctx.Process(target=_child, args=(out, fn, args, cpu_limit), daemon=True)
    proc.start()
    deadline = time.monotonic() + timeout
    messages: list[Any] = []
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = out.get(timeout=min(left, 1.0))
            except queue.Empty:
                if cpu_limit is not None and proc.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
                    return messages + _left_in(out), False  # stopped at its CPU limit
                if proc.exitcode not in (None, 0):
                    raise RuntimeError(f"benchmark process {fn.__name__}{args} failed with exit code {proc.exitcode}")
                continue
            if message is None:
                return messages, True
            messages.append(message)
        return messages, False
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()


def _left_in(out: Any) -> list[Any]:
    """What a stopped process reported and was not read yet."""
    left = []
    while True:
        try:
            left.append(out.get(timeout=0.5))
        except queue.Empty:
            return [m for m in left if m is not None]


def _cpu_limited(fn: Callable[..., None], args: tuple, cpu_limit: float) -> tuple[list[Any], bool]:
    return _in_child(fn, args, WALL_BACKSTOP * cpu_limit, cpu_limit)


def _explore_child(report: Callable[[Any], None], bounds: dict[str, int], traced: bool, search: str) -> None:
    machine = wowtcg.build(**bounds)
    _, explore, limits = SEARCHES[search]
    if traced:
        tracemalloc.start()  # after building, so the peak is the exploration's own (NumPy's arrays included)
    started = time.process_time()  # CPU seconds: the machine is shared, and waiting for a core is not the search's time
    ex = explore(machine, **limits)
    seconds = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1] if traced else None
    report(dict(states=ex.states, transitions=ex.transitions, levels=ex.levels, seconds=seconds, peak=peak, stopped=ex.stopped))


def _bmc_child(report: Callable[[Any], None], which: str, bounds: dict[str, int], max_depth: int) -> None:
    props = PROPERTY_SETS[which]
    machine = wowtcg.build(**bounds)
    started = time.process_time()  # before the checker exists, so solver setup counts
    checker = bmc.BMC(machine)
    results = checker.check(props, max_depth, on_depth=lambda k: report((k, time.process_time() - started)))
    report([r.verdict for r in results])


# --- explicit exploration ------------------------------------------------------------


@dataclass
class ExplicitRow:
    states: int | None = None
    transitions: int | None = None
    levels: int | None = None
    seconds: float | None = None
    peak_mib: float | None = None
    note: str = ""

    @property
    def rate(self) -> float | None:
        return self.states / self.seconds if self.states and self.seconds else None


def measure_explicit(bounds: dict[str, int], search: str = "vector") -> ExplicitRow:
    row = ExplicitRow()
    seconds: list[float] = []
    # Repeat only while the repeats fit in the cap, so large rows run once.
    while len(seconds) < REPEATS and (not seconds or sum(seconds) + seconds[0] <= EXPLICIT_CAP_S):
        messages, finished = _cpu_limited(_explore_child, (bounds, False, search), EXPLICIT_CAP_S)
        if not finished and not seconds:
            row.note = f"stopped: not finished within {EXPLICIT_CAP_S:.0f} CPU s"
            return row
        if not finished:
            break  # a repeat that runs slower than the cap: the runs that finished stand
        run = messages[-1]
        row.states, row.transitions, row.levels = run["states"], run["transitions"], run["levels"]
        seconds.append(run["seconds"])
    row.seconds = min(seconds)
    notes = [f"search stopped {run['stopped']}: the states reached so far"] if run["stopped"] else []
    if len(seconds) < REPEATS:
        notes.append(f"fastest of {len(seconds)} run{'s' * (len(seconds) > 1)}")
    messages, finished = _cpu_limited(_explore_child, (bounds, True, search), TRACED_TIMEOUT_S)
    if finished:
        row.peak_mib = messages[-1]["peak"] / 2**20
    else:
        notes.append(f"traced run stopped after {TRACED_TIMEOUT_S:.0f} CPU s")
    row.note = "; ".join(notes)
    return row


def measure_series(configs: list[dict[str, int]], done: dict[tuple, ExplicitRow]) -> list[tuple[str, ExplicitRow]]:
    """Measure a series with the vectorized search, smallest first, each row
    labelled by the bounds it sets, reusing rows already measured and
    skipping rows that would take longer than the cap."""
    rows: list[tuple[str, ExplicitRow]] = []
    for changes in configs:
        bounds = {**DEFAULTS, **changes}
        key = tuple(bounds.items())
        label = _label(changes) + (f" ({NAMED[key]})" if changes and key in NAMED else "")
        if key not in done:
            done[key] = _predicted_skip([r for _, r in rows]) or measure_explicit(bounds)
            _progress(f"explicit {label}: {_row_text(done[key])}")
        rows.append((label, done[key]))
    return rows


def _predicted_skip(rows: list[ExplicitRow]) -> ExplicitRow | None:
    measured = [r for r in rows if r.states is not None]
    if len(rows) > len(measured):
        return ExplicitRow(note="skipped: a smaller instance was stopped or skipped")
    if len(measured) < 2:
        return None
    # A rough geometric extrapolation from the last two rows; the rate only
    # falls as the graph grows, so the predicted time errs on the short side.
    before, last = measured[-2:]
    states = last.states * last.states / before.states
    seconds = states / last.rate
    if seconds <= EXPLICIT_CAP_S:
        return None
    return ExplicitRow(note=f"skipped: extrapolated ≈{states:,.0f} states, ≈{seconds:,.0f} s")


# --- bounded model checking -------------------------------------------------------------


@dataclass
class BMCRun:
    label: str
    properties: int
    bounds: dict[str, int]
    max_depth: int
    timeout: float
    seconds_at: dict[int, float] = field(default_factory=dict)  # cumulative seconds after each depth
    verdicts: list[str] = field(default_factory=list)
    finished: bool = False

    @property
    def reached(self) -> int:
        return max(self.seconds_at, default=-1)

    @property
    def seconds(self) -> float | None:
        return self.seconds_at[self.reached] if self.seconds_at else None


def measure_bmc(label: str, which: str, changes: dict[str, int], max_depth: int, timeout: float = BMC_TIMEOUT_S) -> BMCRun:
    bounds = {**DEFAULTS, **changes}
    run = BMCRun(label, len(PROPERTY_SETS[which]), bounds, max_depth, timeout)
    messages, run.finished = _cpu_limited(_bmc_child, (which, bounds, max_depth), timeout)
    for message in messages:
        if isinstance(message, tuple):
            run.seconds_at[message[0]] = message[1]
        else:
            run.verdicts = message
    state = f"depth {run.reached} in {run.seconds:.2f} s" if run.seconds_at else "no depth finished"
    _progress(f"bmc {label}: {state}{'' if run.finished else f' (stopped after {timeout:.0f} CPU s)'}")
    return run


# --- two turns with one combat each ----------------------------------------------------


@dataclass
class GoalRun:
    """The two-turn search by BMC, and its cross-check by explicit search."""

    bounds: dict[str, int]
    max_depth: int
    seconds_at: dict[int, float] = field(default_factory=dict)  # cumulative seconds after each depth's query
    k: int | None = None
    seconds: float | None = None
    lines: list[str] = field(default_factory=list)
    finished: bool = False
    gave_up: bool = False  # the solver answered unknown
    explicit: dict[str, Any] | None = None
    explicit_note: str = ""


def measure_goal(max_depth: int) -> GoalRun:
    run = GoalRun(dict(DEFAULTS), max_depth)
    messages, run.finished = _cpu_limited(combat_depth.bmc_search, (run.bounds, max_depth), GOAL_TIMEOUT_S)
    for message in messages:
        if isinstance(message, tuple):
            k, seconds, answer = message
            run.seconds_at[k] = seconds
            run.gave_up = answer == "unknown"
        else:
            run.k, run.seconds, run.lines = message["k"], message["seconds"], message["lines"]
    if run.k is not None:
        _progress(f"two turns with a combat each: BMC depth {run.k} in {run.seconds:.2f} s")
    else:
        _progress(f"two turns with a combat each: not found by BMC up to depth {max(run.seconds_at, default=-1)}")
    # The cross-check: explicit search of the same instance with a monitor.
    messages, finished = _cpu_limited(combat_depth.explicit_search, (run.bounds,), 2 * EXPLICIT_CAP_S)
    if finished:
        run.explicit = messages[-1]
        _progress(f"two turns with a combat each: explicit search depth {run.explicit['k']}")
    else:
        run.explicit_note = f"explicit search stopped after {2 * EXPLICIT_CAP_S:.0f} CPU s"
        _progress(f"two turns with a combat each: {run.explicit_note}")
    return run


# --- report -------------------------------------------------------------------------------


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _label(changes: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in changes.items()) or "default bounds"


def _bounds_text(bounds: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in bounds.items())


def _row_text(row: ExplicitRow) -> str:
    if row.states is None:
        return row.note
    # A search of a few dozen states may take less than the clock can tell: no rate then.
    return f"{row.states:,} states in {row.seconds:.2f} s, {_num(row.rate, ',.0f')} states/s"


def _num(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    # Say where the uncommitted changes are: in the model they would change what was measured.
    paths = sorted({line[3:].split("/", 1)[0] for line in dirty.stdout.splitlines() if line.strip()})
    return head.stdout.strip() + (f" (with uncommitted changes in {', '.join(paths)})" if paths else "")


def _bmc_target(run: BMCRun | None, quick: bool) -> tuple[str, str]:
    """The measured value and verdict of the target for one BMC run: depth 30 in under 60 s."""
    if run is None:
        return ("not measured (--quick)" if quick else "not measured"), "not measured"
    if run.max_depth < BMC_DEPTH:
        return f"not measured (--quick stops at depth {run.max_depth})", "not measured"
    if BMC_DEPTH in run.seconds_at:
        seconds = run.seconds_at[BMC_DEPTH]
        return f"{seconds:.2f} CPU s", "met" if seconds < BMC_TARGET_S else "not met"
    if run.finished:
        seconds = run.seconds or 0.0
        return f"{seconds:.2f} CPU s (every run ends by depth {run.reached})", "met" if seconds < BMC_TARGET_S else "not met"
    return f"stopped after {run.timeout:.0f} CPU s at depth {run.reached}", "not met"


def _rate_target(row: ExplicitRow | None, quick: bool) -> tuple[str, str]:
    """The measured value and verdict of the rate target, for one search at the default bounds."""
    if row is None or quick:
        return "not measured (--quick)", "not measured"
    if row.rate is None:
        return row.note, "not met"
    return f"{row.rate:,.0f} states/s", "met" if row.rate > RATE_TARGET else "not met"


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "unknown"


def _verdict_summary(run: BMCRun) -> str:
    verdicts: dict[str, int] = {}
    for verdict in run.verdicts:
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    return ", ".join(f"{n} {v}" for v, n in verdicts.items()) or "no verdicts (stopped)"


def _changes_section(
    default: ExplicitRow | None,
    reference: ExplicitRow | None,
    catalogue: BMCRun | None,
    turn: BMCRun | None,
    before_combat: BMCRun | None,
    goal: GoalRun | None,
) -> list[str]:
    """What moved since the previous results, and why."""
    machine = wowtcg.build(**DEFAULTS)
    p = PREVIOUS
    lines = [
        "### Changes since the previous results",
        "",
        f"The previous results were measured on {p['date']} at commit {p['commit']}.",
        "",
        "- **This section alone is rewritten.** `benchmarks.run` used to write the whole file, so every other "
        "benchmark had to be run again after it; it now replaces only the text between its markers.",
    ]
    if default is not None and default.states is not None:
        lines.append(
            "- **Explicit search is measured with the search verify runs.** Since issue 21 `chainproof verify "
            "--method explicit`, the portfolio and lint search with the vectorized search (`checkers/vector.py`); "
            "the previous results measured the state-by-state search (`checkers/explicit.py`), now the reference "
            f"the tests hold it to. At the default bounds the vectorized search explores {default.rate:,.0f} "
            f"states/s, the state-by-state one {_num(reference.rate if reference else None, ',.0f')} "
            f"(against {p['rate']:,} then)."
        )
        lines.append(
            "- **Seconds are CPU seconds** of the measuring process, BMC's included, where they were the wall "
            "clock: the machine is shared, and waiting for a core is not the measurement's time."
        )
        lines.append(
            f"- **The model.** Since then {MODEL_CHANGES}: {len(machine.edges)} edges at the default bounds "
            f"instead of {p['edges']}. The default instance has {default.states:,} states, "
            f"{default.transitions:,} transitions and {default.levels} BFS levels (before: {p['states']:,}, "
            f"{p['transitions']:,}, {p['levels']})."
        )
    bmc_parts = []
    for run, was, what in (
        (catalogue, p["bmc_catalogue_s"], f"The whole catalogue ({len(CATALOGUE)} properties, {p['properties']} then)"),
        (turn, p["bmc_turn_s"], f"the {len(TURN_PROPERTIES)} turn properties (allies=0, combats=0)"),
        (before_combat, p["bmc_before_combat_s"], "the same at the defaults before combat"),
    ):
        if run is not None:
            value, _ = _bmc_target(run, False)
            bmc_parts.append(f"{what}: {value} against {was} s of wall clock")
    if bmc_parts:
        lines.append(f"- **BMC to depth {BMC_DEPTH}.** " + "; ".join(bmc_parts) + ".")
    if goal is not None and goal.k is not None:
        lines.append(
            f"- **Two turns with a combat each** take {goal.k} steps, found by BMC in {goal.seconds:.2f} CPU s "
            f"(before: {p['goal_k']} steps in {p['goal_s']} s); "
            + (
                f"still past the depth {BMC_DEPTH} that `chainproof verify` unrolls by default."
                if goal.k > BMC_DEPTH
                else f"within the depth {BMC_DEPTH} that `chainproof verify` unrolls by default."
            )
        )
    lines.append("")
    return lines


def _goal_section(goal: GoalRun, catalogue: BMCRun | None) -> list[str]:
    lines = [
        "### Two turns with one combat each",
        "",
        f"Bounds: {_bounds_text(goal.bounds)}. The goal: a run from an initial state that completes two turns "
        f"(it reaches `ready_step_start` of turn 3; `turn_limit` is one step later) with exactly one combat "
        "concluded in each (steps along edges tagged `concludes_combat`, counted by the turn they leave). "
        "The model's own `combats` counts proposals and resets at each turn's end, so both searches count "
        "conclusions on the run itself (`benchmarks/combat_depth.py`):",
        "",
        "- BMC: one incremental Z3 solver (`checkers.bmc.BMC`, `QF_FD`) unrolled one step at a time; at each depth "
        "one query asks for a run ending at the goal, the conclusions of each turn counted by a pseudo-Boolean "
        "constraint over the step selectors. CPU seconds run from creating the checker to the first satisfiable "
        "answer, every unsatisfiable depth before it included. The run found is replayed on the concrete backend.",
        "- Explicit search: the reachable-state graph of the same instance (from the state-by-state search, "
        "which keeps the graph), then a breadth-first search of its "
        "product with a monitor (conclusions in turn 1, in turn 2, each capped at 2). The BFS depth in the "
        "product is the length of a shortest run that reaches a turn-3 start *with* those counts.",
        "",
    ]
    deepest = max(goal.seconds_at, default=-1)
    if goal.k is not None:
        lines.append(f"- **BMC: depth k = {goal.k}, reached in {goal.seconds:.2f} CPU s** (depths 0 to {goal.k - 1} unsatisfiable).")
    elif goal.gave_up:
        lines.append(f"- BMC: the solver gave up at depth {deepest}; no run found up to depth {deepest - 1}.")
    elif goal.finished:
        lines.append(f"- BMC: no such run up to depth {goal.max_depth}.")
    else:
        lines.append(f"- BMC: stopped after {GOAL_TIMEOUT_S:.0f} CPU s; no such run up to depth {deepest}.")
    if catalogue is not None and goal.k is not None:
        if goal.k in catalogue.seconds_at:
            lines.append(
                f"- The whole catalogue ({catalogue.properties} properties, the run in the table below) reaches "
                f"depth {goal.k} in {catalogue.seconds_at[goal.k]:.2f} CPU s, against "
                f"{_num(catalogue.seconds_at.get(BMC_DEPTH), '.2f')} s for depth {BMC_DEPTH}."
            )
        else:
            lines.append(
                f"- The whole catalogue ({catalogue.properties} properties) did not reach depth {goal.k}: "
                f"stopped at depth {catalogue.reached} after {catalogue.timeout:.0f} CPU s."
            )
    ex = goal.explicit
    if ex is not None:
        agree = (
            "the same as BMC"
            if ex["k"] == goal.k
            else ("BMC found none" if goal.k is None else f"**BMC said {goal.k}: they disagree**")
        )
        scope = "" if ex["complete"] else " (the exploration was cut short: a lower bound only)"
        lines.append(
            f"- Explicit search: depth **{ex['k']}**, {agree}{scope}. Exploring the {ex['states']:,} states took "
            f"{ex['explore_seconds']:.2f} CPU s, the monitored BFS {ex['product_seconds']:.2f} s "
            f"({ex['product_states']:,} (state, monitor) pairs reached)."
        )
        plain = ex["plain"]
        if plain is not None:
            lines.append(
                f"- Without the monitor the first turn-3 start is at BFS depth {plain['depth']}, on a run that "
                f"concludes {plain['concluded']} combat{'s' * (plain['concluded'] != 1)} "
                f"({plain['proposals']} proposed, {plain['interrupted']} interrupted): the plain BFS depth of the "
                "goal location says nothing about combat."
            )
    elif goal.explicit_note:
        lines.append(f"- Explicit search: {goal.explicit_note}; no cross-check.")
    shown = goal.lines or (ex["lines"] if ex else [])
    if shown:
        source = "BMC" if goal.lines else "explicit search"
        lines += [
            "",
            f"One shortest such game (found by {source}):",
            "",
            "```text",
            *shown,
            "```",
        ]
    lines.append("")
    return lines


def render(
    quick: bool,
    compared: dict[str, ExplicitRow],
    series: list[tuple[str, list[tuple[str, ExplicitRow]]]],
    runs: list[BMCRun],
    goal: GoalRun | None = None,
    explored: dict[tuple, ExplicitRow] | None = None,
) -> str:
    """The section of RESULTS.md, its markers included.  ``compared`` holds both
    searches at the default bounds (at the smallest turn-only instance with --quick)."""
    catalogue = next((r for r in runs if r.label == "catalogue"), None)
    turn = next((r for r in runs if r.label == "turn-only"), None)
    before_combat = next((r for r in runs if r.label == "turn-only, defaults before combat"), None)
    default, reference = (None, None) if quick else (compared["vector"], compared["reference"])
    command = "python -m benchmarks.run" + (" --quick" if quick else "")
    lines = [
        BEGIN,
        "## WoW's explicit search and bounded model checking (`python -m benchmarks.run`)",
        "",
        "Written by `python -m benchmarks.run` (about a quarter of an hour; `--quick`, a smoke test under 30 s, "
        f"prints its section instead). This text was written by `{command}`; the machine and date below are those "
        "of this section alone: each other section says when its own command ran.",
        "",
        "### Machine",
        "",
        f"- Date: {datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Platform: {platform.platform()}",
        f"- CPU: {_cpu_model()}, {os.cpu_count()} logical CPUs; load average {_load()} at the end (others may share the cores)",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- z3: {z3.get_version_string()}",
        f"- networkx: {networkx.__version__}",
        f"- chainproof commit: {_commit()}",
        "",
    ]
    if not quick:
        lines += _changes_section(default, reference, catalogue, turn, before_combat, goal)
    cat_value, cat_met = _bmc_target(catalogue, quick)
    turn_value, turn_met = _bmc_target(turn, quick)
    before_value, before_met = _bmc_target(before_combat, quick)
    lines += [
        "### Targets",
        "",
        "| Target | Measured | Result |",
        "|---|---|---|",
        f"| BMC to depth {BMC_DEPTH} on the whole catalogue ({len(CATALOGUE)} properties, default bounds) "
        f"in under {BMC_TARGET_S:.0f} CPU s | {cat_value} | {cat_met} |",
        f"| BMC to depth {BMC_DEPTH} on the {len(TURN_PROPERTIES)} turn properties "
        f"(allies=0, combats=0) in under {BMC_TARGET_S:.0f} CPU s | {turn_value} | {turn_met} |",
        f"| The same at the default bounds before combat (allies=0, combats=0, "
        f"{_bounds_text(BEFORE_COMBAT)}) in under {BMC_TARGET_S:.0f} CPU s | {before_value} | {before_met} |",
        *(
            f"| Explicit exploration above {RATE_TARGET:,} states/s (default bounds), {SEARCHES[search][0]} "
            f"| {value} | {met} |"
            for search, (value, met) in ((s, _rate_target(None if quick else compared[s], quick)) for s in SEARCHES)
        ),
        "",
    ]
    if goal is not None:
        lines += _goal_section(goal, catalogue)
    where = "the smallest turn-only instance (--quick)" if quick else "the default bounds"
    lines += [
        "### Explicit exploration",
        "",
        "`chainproof verify --method explicit`, the portfolio and lint search with the vectorized search "
        "(`checkers/vector.py`), under verify's state limit; the state-by-state search (`checkers/explicit.py`) "
        "stays as the reference the tests hold it to, and is measured beside it at "
        f"{where} only. Default bounds: {_bounds_text(DEFAULTS)}. Each row of the series changes only the bounds named.",
        "",
        "- Every run is in a fresh process, so the heap left by one run does not slow the next.",
        "- *Seconds* are the CPU seconds of that process for the search alone, not building the machine; "
        f"the fastest of {REPEATS} runs unless the note says otherwise (repeats stop when they would pass the cap). "
        "*Levels* is the number of BFS levels (the longest shortest path from the initial state).",
        "- *Peak MiB* is the peak Python-heap allocation during the exploration (NumPy's arrays included), "
        "measured with `tracemalloc` in a separate run, since tracing slows the search; *states/s* comes from the "
        "untraced runs.",
        f"- A run is stopped after {EXPLICIT_CAP_S:.0f} CPU seconds (or {WALL_BACKSTOP} times as long on the wall clock). A row predicted by geometric extrapolation from "
        "the two rows before it to take longer is skipped, with the estimate given; a row after a stopped "
        "or skipped one in its series is skipped too.",
        "",
        f"#### Both searches at {where}",
        "",
        *_explicit_table([(SEARCHES[s][0], row) for s, row in compared.items()], "Search"),
    ]
    same = {(r.states, r.transitions, r.levels) for r in compared.values()}
    lines += [
        "Both find the same states, transitions and levels." if len(same) == 1
        else "**The two searches disagree on the states, transitions or levels.**",
        "",
    ]
    for title, series_rows in series:
        lines += [f"#### {title}", "", *_explicit_table(series_rows, "Bounds")]
    lines += [
        "### Bounded model checking",
        "",
        "Cumulative CPU seconds from creating the checker to the end of each depth "
        "(Z3 `QF_FD`, all properties of a run asked together at each depth).",
        "",
    ]
    for run in runs:
        row = (explored or {}).get(tuple(run.bounds.items()))
        size = f" ({row.states:,} reachable states, {row.levels} BFS levels)" if row is not None and row.states else ""
        lines.append(
            f"- {run.label}: {run.properties} properties at {_bounds_text(run.bounds)}{size}, "
            f"to depth {run.max_depth}: {_verdict_summary(run)}"
            + ("." if run.finished else f" (stopped after {run.timeout:.0f} CPU s at depth {run.reached}).")
        )
    if goal is not None:
        lines.append(
            "- two-turn goal: the query of the section above, one per depth at the default bounds, "
            "until the first satisfiable depth."
        )
    if catalogue is not None and default is not None and default.levels is not None:
        # A depth below the BFS level count leaves states unvisited: worth saying beside the timing.
        reach = "covers" if catalogue.reached >= default.levels else "does not reach"
        lines.append(
            f"- Explicit search finds {default.levels} BFS levels at the default bounds, so depth "
            f"{catalogue.reached} {reach} every reachable state."
        )
    columns = [(f"{r.label} (s)", r.seconds_at) for r in runs]
    if goal is not None:
        columns.append(("two-turn goal (s)", goal.seconds_at))
    deepest = max((max(c, default=-1) for _, c in columns), default=-1)
    lines += [
        "",
        "| Depth | " + " | ".join(name for name, _ in columns) + " |",
        "|---:|" + "---:|" * len(columns),
    ]
    for k in range(deepest + 1):
        lines.append(f"| {k} | " + " | ".join(_num(c.get(k), ".2f") for _, c in columns) + " |")
    lines += scaling_section()
    return "\n".join(lines) + "\n" + END + "\n"


def _explicit_table(rows: list[tuple[str, ExplicitRow]], first: str) -> list[str]:
    lines = [
        f"| {first} | States | Transitions | Levels | Seconds | States/s | Peak MiB | Note |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for label, r in rows:
        lines.append(
            f"| {label} | {_num(r.states, ',')} | {_num(r.transitions, ',')} | {_num(r.levels, 'd')} "
            f"| {_num(r.seconds, '.2f')} | {_num(r.rate, ',.0f')} | {_num(r.peak_mib, '.1f')} | {r.note} |"
        )
    return lines + [""]


#: Written by ``python -m benchmarks.scaling``: its sweep tables are repeated here.
SCALING = Path(__file__).with_name("SCALING.md")


def scaling_section() -> list[str]:
    """The sweep tables of SCALING.md and its plot, as a part of this section (none if it is missing)."""
    if not SCALING.exists():
        return []
    text = SCALING.read_text(encoding="utf-8")
    start, end = text.find("## Sweep: "), text.find("## Spacer, property by property")
    if start < 0:
        return []
    tables = text[start : end if end > start else len(text)].strip().replace("## Sweep: ", "#### Sweep: ")
    return [
        "",
        "### Scaling with the bounds",
        "",
        "From `python -m benchmarks.scaling` (run it before `benchmarks.run`, which copies its tables here): "
        "explicit search, BMC, Spacer and k-induction as turns, chain depth and players grow. "
        "[SCALING.md](SCALING.md) says how each was measured, what the numbers show, and Spacer property by property.",
        "",
        "![seconds per method as each bound grows](scaling.png)",
        "",
        tables,
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a reduced set, for a smoke test (under 30 s); printed unless --output is given")
    parser.add_argument(
        "--output", type=Path, help="the file whose section is replaced (default: benchmarks/RESULTS.md; with --quick, none)"
    )
    args = parser.parse_args(argv)
    output = args.output or (None if args.quick else Path(__file__).with_name("RESULTS.md"))

    done: dict[tuple, ExplicitRow] = {}
    goal: GoalRun | None = None
    if args.quick:
        compared_bounds = {**DEFAULTS, **TURN_ONLY, "turns": 1}
        series = [(title, measure_series(configs, done)) for title, configs in QUICK_SERIES]
        runs = [measure_bmc("turn-only", "turn", TURN_ONLY, BMC_QUICK_DEPTH)]
    else:
        compared_bounds = dict(DEFAULTS)
        series = [(title, measure_series(configs, done)) for title, configs in FULL_SERIES]
        goal = measure_goal(GOAL_MAX_DEPTH)
        # The catalogue run goes on past depth 30 to the two-turn depth, to say what covering it costs.
        depth = max(BMC_DEPTH, goal.k or 0)
        timeout = BMC_TIMEOUT_S if depth == BMC_DEPTH else CATALOGUE_TO_GOAL_TIMEOUT_S
        runs = [
            measure_bmc("catalogue", "catalogue", {}, depth, timeout),
            measure_bmc("turn-only", "turn", TURN_ONLY, BMC_DEPTH),
            # The same 12 properties on the default instance before combat (plus the resources counter).
            measure_bmc("turn-only, defaults before combat", "turn", {**TURN_ONLY, **BEFORE_COMBAT}, BMC_DEPTH),
        ]
    # The vectorized search's row is the series' own where they share bounds.
    key = tuple(compared_bounds.items())
    compared = {"vector": done.get(key) or measure_explicit(compared_bounds), "reference": measure_explicit(compared_bounds, "reference")}
    _progress(f"explicit, state by state, {_label(compared_bounds)}: {_row_text(compared['reference'])}")

    section = render(args.quick, compared, series, runs, goal, done)
    if output is None:
        print(section)
    else:
        from benchmarks.engine import update  # here: benchmarks.engine imports this module

        update(output, section, BEGIN, END)
    for search, row in compared.items():
        print(f"explicit ({search}), {_label(compared_bounds)}: {_row_text(row)} (target > {RATE_TARGET:,}/s: {_rate_target(row, args.quick)[1]})")
    for run in runs:
        value, met = _bmc_target(run, args.quick)
        print(f"BMC, {run.label} ({run.properties} properties) to depth {BMC_DEPTH}: {value} ({met})")
    if goal is not None:
        print(f"two turns with a combat each: BMC depth {goal.k}, {_num(goal.seconds, '.2f')} s")
    if output is not None:
        print(f"wrote its section of {output}")


if __name__ == "__main__":
    main()
