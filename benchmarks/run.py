"""Measure explicit exploration and bounded model checking; write RESULTS.md.

    python -m benchmarks.run            # full run, about a quarter of an hour
    python -m benchmarks.run --quick    # reduced smoke test, under 30 s

The full run also measures the BMC depth that covers two full turns with one
combat each, and cross-checks it by explicit search (benchmarks/combat_depth.py).

Every measurement runs in a fresh process: a long-lived interpreter that has
already built large graphs explores markedly slower (allocator and garbage
collector state), which would make later rows depend on earlier ones.  The
child process also gives each run a hard time limit.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import queue
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
from model import wowtcg
from checkers import bmc, explicit
from properties.wowtcg import CATALOGUE, TURN_PROPERTIES

DEFAULTS = {b.name: b.default for b in wowtcg.BOUNDS}
#: The turn, priority and chain model alone: no allies on the board, no combat explored.
TURN_ONLY = {"allies": 0, "combats": 0}
#: The default bounds of the previous results (commit 67f0eb2, before combat).
PREVIOUS_DEFAULTS = {"chain_depth": 3, "turns": 3, "hand": 1}
#: Rows whose bounds have a name of their own.
NAMED = {
    tuple(DEFAULTS.items()): "default",
    tuple({**DEFAULTS, **TURN_ONLY, **PREVIOUS_DEFAULTS}.items()): "previous defaults, turn-only",
}
PROPERTY_SETS = {"catalogue": CATALOGUE, "turn": TURN_PROPERTIES}

EXPLICIT_CAP_S = 60.0  # longest untraced exploration we run (or predict) per row
REPEATS = 3  # untraced runs per row, fastest kept: single runs vary by a third on this VM
TRACED_TIMEOUT_S = 4 * EXPLICIT_CAP_S  # tracemalloc slows exploration roughly threefold
BMC_TIMEOUT_S = 180.0  # three times the target: enough to see how far off a miss is
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
    # is too different in kind (114 states without combat) to extrapolate from,
    # so the next row is run against the cap instead of predicted.
    ("Turns", [{"turns": t} for t in (2, 3)]),
    ("Chain depth", [{"chain_depth": c} for c in (1, 2, 3)]),
    ("Cards of each kind in the starting hand", [{"hand": h} for h in (0, 1, 2)]),
    ("Allies per party", [{"allies": a} for a in (0, 1, 2)]),
    ("Combats per turn", [{"combats": c} for c in (1, 2)]),
    # At turns=1 (only P1's turn): each added player adds a party to attack
    # and a seat to pass priority through.
    ("Players (turns=1)", [{"players": p, "turns": 1} for p in (2, 3, 4)]),
    # The model before combat, as far as bounds can give it back; the last
    # row is the previous default instance.
    (
        "Turn-only model (allies=0, combats=0)",
        [{**TURN_ONLY, "turns": t} for t in (2, 3, 4)] + [{**TURN_ONLY, **PREVIOUS_DEFAULTS}],
    ),
)
QUICK_SERIES = (("Turn-only model (allies=0, combats=0)", [{**TURN_ONLY, "turns": t} for t in (1, 2)]),)

#: Figures of the previous results (benchmarks/RESULTS.md at commit 74f0106,
#: measured at 67f0eb2), the model before combat, for the comparison section.
PREVIOUS = {
    "commit": "67f0eb2",
    "bounds": "players=2, chain_depth=3, turns=3, hand=1, deck=1, hand_limit=2",
    "states": 18_276,
    "transitions": 24_751,
    "levels": 53,
    "rate": 37_247,
    "peak_mib": 27.2,
    "edges": 32,  # edges of the machine at those bounds
    "slots": 26,  # scalar slots of a state (location included)
    "bmc_priority_s": 15.76,  # 12 priority properties to depth 30
    "bmc_all_s": 20.86,  # all 13 properties to depth 30
}


# --- running a measurement in a child process -------------------------------------


def _child(out: Any, fn: Callable[..., None], args: tuple) -> None:
    fn(out.put, *args)
    out.put(None)  # the end marker: the run finished


def _in_child(fn: Callable[..., None], args: tuple, timeout: float) -> tuple[list[Any], bool]:
    """Run ``fn(report, *args)`` in a fresh interpreter; return what it reported
    and whether it finished within ``timeout`` seconds (it is killed if not)."""
    ctx = multiprocessing.get_context("spawn")  # fresh heap, no state inherited from earlier runs
    out = ctx.Queue()
    proc = ctx.Process(target=_child, args=(out, fn, args), daemon=True)
    proc.start()
    deadline = time.monotonic() + timeout
    messages: list[Any] = []
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = out.get(timeout=min(left, 1.0))
            except queue.Empty:
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


def _explore_child(report: Callable[[Any], None], bounds: dict[str, int], traced: bool) -> None:
    machine = wowtcg.build(**bounds)
    if traced:
        tracemalloc.start()  # after building, so the peak is the exploration's own
    ex = explicit.explore(machine)
    peak = tracemalloc.get_traced_memory()[1] if traced else None
    report(dict(states=ex.states, transitions=ex.transitions, levels=ex.levels, seconds=ex.seconds, peak=peak))


def _projection_child(report: Callable[[Any], None], bounds: dict[str, int], dropped: tuple[str, ...]) -> None:
    """States, and how many remain distinct when the variables ``dropped`` are ignored."""
    machine = wowtcg.build(**bounds)
    ex = explicit.explore(machine)
    kept = [i for i, name in enumerate(machine.State._fields) if name not in dropped]
    report(dict(states=ex.states, projected=len({tuple(s[i] for i in kept) for s in ex.nodes})))


def _bmc_child(report: Callable[[Any], None], which: str, bounds: dict[str, int], max_depth: int) -> None:
    props = PROPERTY_SETS[which]
    machine = wowtcg.build(**bounds)
    started = time.perf_counter()  # before the checker exists, so solver setup counts
    checker = bmc.BMC(machine)
    results = checker.check(props, max_depth, on_depth=lambda k: report((k, time.perf_counter() - started)))
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


def measure_explicit(bounds: dict[str, int]) -> ExplicitRow:
    row = ExplicitRow()
    seconds: list[float] = []
    # Repeat only while the repeats fit in the cap, so large rows run once.
    while len(seconds) < REPEATS and (not seconds or sum(seconds) + seconds[0] <= EXPLICIT_CAP_S):
        messages, finished = _in_child(_explore_child, (bounds, False), EXPLICIT_CAP_S)
        if not finished:
            row.note = f"stopped: not finished within {EXPLICIT_CAP_S:.0f} s"
            return row
        run = messages[-1]
        row.states, row.transitions, row.levels = run["states"], run["transitions"], run["levels"]
        seconds.append(run["seconds"])
    row.seconds = min(seconds)
    if len(seconds) < REPEATS:
        row.note = f"fastest of {len(seconds)} run{'s' * (len(seconds) > 1)}"
    messages, finished = _in_child(_explore_child, (bounds, True), TRACED_TIMEOUT_S)
    if finished:
        row.peak_mib = messages[-1]["peak"] / 2**20
    else:
        row.note = "; ".join(filter(None, (row.note, f"traced run stopped after {TRACED_TIMEOUT_S:.0f} s")))
    return row


def measure_series(configs: list[dict[str, int]], done: dict[tuple, ExplicitRow]) -> list[tuple[str, ExplicitRow]]:
    """Measure a series smallest first, each row labelled by the bounds it
    sets, reusing rows already measured and skipping rows that would take
    longer than the cap."""
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
    messages, run.finished = _in_child(_bmc_child, (which, bounds, max_depth), timeout)
    for message in messages:
        if isinstance(message, tuple):
            run.seconds_at[message[0]] = message[1]
        else:
            run.verdicts = message
    state = f"depth {run.reached} in {run.seconds:.2f} s" if run.seconds_at else "no depth finished"
    _progress(f"bmc {label}: {state}{'' if run.finished else f' (stopped after {timeout:.0f} s)'}")
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
    messages, run.finished = _in_child(combat_depth.bmc_search, (run.bounds, max_depth), GOAL_TIMEOUT_S)
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
    messages, finished = _in_child(combat_depth.explicit_search, (run.bounds,), 2 * EXPLICIT_CAP_S)
    if finished:
        run.explicit = messages[-1]
        _progress(f"two turns with a combat each: explicit search depth {run.explicit['k']}")
    else:
        run.explicit_note = f"explicit search stopped after {2 * EXPLICIT_CAP_S:.0f} s"
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
    return f"{row.states:,} states in {row.seconds:.2f} s, {row.rate:,.0f} states/s"


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
        return f"{seconds:.2f} s", "met" if seconds < BMC_TARGET_S else "not met"
    if run.finished:
        seconds = run.seconds or 0.0
        return f"{seconds:.2f} s (every run ends by depth {run.reached})", "met" if seconds < BMC_TARGET_S else "not met"
    return f"stopped after {run.timeout:.0f} s at depth {run.reached}", "not met"


def _rate_target(default: ExplicitRow | None) -> tuple[str, str]:
    if default is None:
        return "not measured (--quick)", "not measured"
    if default.rate is None:
        return default.note, "not met"
    return f"{default.rate:,.0f} states/s", "met" if default.rate > RATE_TARGET else "not met"


def _verdict_summary(run: BMCRun) -> str:
    verdicts: dict[str, int] = {}
    for verdict in run.verdicts:
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    return ", ".join(f"{n} {v}" for v, n in verdicts.items()) or "no verdicts (stopped)"


def _changes_section(
    default: ExplicitRow | None,
    previous_turn_only: ExplicitRow | None,
    projection: dict[str, int] | None,
    catalogue: BMCRun | None,
    turn: BMCRun | None,
    goal: GoalRun | None,
) -> list[str]:
    """What moved since the previous results, the model before combat, and why."""
    machine = wowtcg.build(**DEFAULTS)
    edges, slots = len(machine.edges), sum(v.length or 1 for v in machine.variables) + 1
    p = PREVIOUS
    lines = [
        "## Changes since the previous results",
        "",
        f"The previous results (commit {p['commit']}) measured the model before combat: turn, priority and "
        f"chain only, at its default bounds then ({p['bounds']}).",
        "",
        f"- **The model grew combat (600-603).** A state has {slots} scalar slots instead of {p['slots']} "
        "(each character's presence, readiness, newness and damage, weapons, armor, resources in play, "
        f"combat roles); the machine has {edges} edges instead of {p['edges']}; the catalogue checks "
        f"{len(CATALOGUE)} properties instead of 13.",
    ]
    changed = ", ".join(
        f"{k} {v}→{DEFAULTS[k]}" for k, v in {"chain_depth": 3, "turns": 3, "hand": 1}.items() if DEFAULTS[k] != v
    )
    if default is not None and default.states is not None:
        lines.append(
            f"- **The default bounds shrank** ({changed}; new: allies={DEFAULTS['allies']}, "
            f"resources={DEFAULTS['resources']}, combats={DEFAULTS['combats']}) so that explicit search stays "
            f"complete: {default.states:,} states, {default.transitions:,} transitions, {default.levels} BFS levels "
            f"(before: {p['states']:,}, {p['transitions']:,}, {p['levels']}). Exploration runs at "
            f"{default.rate:,.0f} states/s against {p['rate']:,} before: each state is wider to hash and store, "
            f"and more edges are tried from each; peak heap {_num(default.peak_mib, '.1f')} MiB against {p['peak_mib']}."
        )
    if previous_turn_only is not None and previous_turn_only.states is not None and projection is not None:
        same = projection["projected"] == p["states"]
        lines.append(
            ("- **The turn-only model is the old model plus one counter.** " if same else "- **The turn-only model.** ")
            + f"At the previous default bounds with "
            f"allies=0, combats=0 explicit search finds {previous_turn_only.states:,} states; with `resources` "
            f"(resources in play, which a resolved resource now increments) ignored, {projection['projected']:,} "
            + (f"remain: the previous count exactly." if same else f"remain, against {p['states']:,} before.")
        )
    bmc_parts = []
    if catalogue is not None and BMC_DEPTH in catalogue.seconds_at:
        bmc_parts.append(
            f"all {catalogue.properties} properties at the new default bounds reach depth {BMC_DEPTH} in "
            f"{catalogue.seconds_at[BMC_DEPTH]:.2f} s"
        )
    if turn is not None and BMC_DEPTH in turn.seconds_at:
        bmc_parts.append(
            f"the same {turn.properties} properties on the previous default instance (allies=0, combats=0) in "
            f"{turn.seconds_at[BMC_DEPTH]:.2f} s"
        )
    if bmc_parts:
        lines.append(
            f"- **BMC.** Before: the 12 priority properties reached depth {BMC_DEPTH} in {p['bmc_priority_s']} s "
            f"and all 13 in {p['bmc_all_s']} s (at chain_depth=3, turns=3, hand=1). Now " + "; ".join(bmc_parts) + "."
        )
    if goal is not None and goal.k is not None:
        lines.append(
            f"- **New: the depth of two turns with a combat each** is {goal.k} steps (below), "
            + (
                f"past the depth {BMC_DEPTH} that `chainproof verify` unrolls by default: no run of {BMC_DEPTH} "
                "steps or fewer completes two turns with a combat in each."
                if goal.k > BMC_DEPTH
                else f"within the depth {BMC_DEPTH} that `chainproof verify` unrolls by default."
            )
        )
    lines.append("")
    return lines


def _goal_section(goal: GoalRun, catalogue: BMCRun | None) -> list[str]:
    lines = [
        "## Two turns with one combat each",
        "",
        f"Bounds: {_bounds_text(goal.bounds)}. The goal: a run from an initial state that completes two turns "
        f"(it reaches `ready_step_start` of turn 3; `turn_limit` is one step later) with exactly one combat "
        "concluded in each (steps along edges tagged `concludes_combat`, counted by the turn they leave). "
        "The model's own `combats` counts proposals and resets at each turn's end, so both searches count "
        "conclusions on the run itself (`benchmarks/combat_depth.py`):",
        "",
        "- BMC: one incremental Z3 solver (`checkers.bmc.BMC`, `QF_FD`) unrolled one step at a time; at each depth "
        "one query asks for a run ending at the goal, the conclusions of each turn counted by a pseudo-Boolean "
        "constraint over the step selectors. Seconds run from creating the checker to the first satisfiable "
        "answer, every unsatisfiable depth before it included. The run found is replayed on the concrete backend.",
        "- Explicit search: the reachable-state graph of the same instance, then a breadth-first search of its "
        "product with a monitor (conclusions in turn 1, in turn 2, each capped at 2). The BFS depth in the "
        "product is the length of a shortest run that reaches a turn-3 start *with* those counts.",
        "",
    ]
    deepest = max(goal.seconds_at, default=-1)
    if goal.k is not None:
        lines.append(f"- **BMC: depth k = {goal.k}, reached in {goal.seconds:.2f} s** (depths 0 to {goal.k - 1} unsatisfiable).")
    elif goal.gave_up:
        lines.append(f"- BMC: the solver gave up at depth {deepest}; no run found up to depth {deepest - 1}.")
    elif goal.finished:
        lines.append(f"- BMC: no such run up to depth {goal.max_depth}.")
    else:
        lines.append(f"- BMC: stopped after {GOAL_TIMEOUT_S:.0f} s; no such run up to depth {deepest}.")
    if catalogue is not None and goal.k is not None:
        if goal.k in catalogue.seconds_at:
            lines.append(
                f"- The whole catalogue ({catalogue.properties} properties, the run in the table below) reaches "
                f"depth {goal.k} in {catalogue.seconds_at[goal.k]:.2f} s, against "
                f"{_num(catalogue.seconds_at.get(BMC_DEPTH), '.2f')} s for depth {BMC_DEPTH}."
            )
        else:
            lines.append(
                f"- The whole catalogue ({catalogue.properties} properties) did not reach depth {goal.k}: "
                f"stopped at depth {catalogue.reached} after {catalogue.timeout:.0f} s."
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
            f"{ex['explore_seconds']:.2f} s, the monitored BFS {ex['product_seconds']:.2f} s "
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
    series: list[tuple[str, list[tuple[str, ExplicitRow]]]],
    default: ExplicitRow | None,
    runs: list[BMCRun],
    goal: GoalRun | None = None,
    projection: dict[str, int] | None = None,
    explored: dict[tuple, ExplicitRow] | None = None,
) -> str:
    catalogue = next((r for r in runs if r.label == "catalogue"), None)
    turn = next((r for r in runs if r.label == "turn-only"), None)
    turn_previous = next((r for r in runs if r.label == "turn-only, previous defaults"), None)
    rate_value, rate_met = _rate_target(default)
    command = "python -m benchmarks.run" + (" --quick" if quick else "")
    rows = {label: row for _, rows in series for label, row in rows}
    previous_turn_only = rows.get(_label({**TURN_ONLY, **PREVIOUS_DEFAULTS}) + " (previous defaults, turn-only)")
    lines = [
        "# Benchmarks",
        "",
        "Speed targets are measured here, never asserted in tests.",
        "",
        "## Reproduce",
        "",
        "From the repository root, after `pip install -e '.[test]'`:",
        "",
        "```",
        "python -m benchmarks.run            # full run, about a quarter of an hour",
        "python -m benchmarks.run --quick    # reduced smoke test, under 30 s",
        "```",
        "",
        f"This file was written by `{command}`.",
        "",
        "## Machine",
        "",
        f"- Date: {datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Platform: {platform.platform()}",
        f"- CPU: {_cpu_model()}, {os.cpu_count()} logical CPUs",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- z3: {z3.get_version_string()}",
        f"- networkx: {networkx.__version__}",
        f"- chainproof commit: {_commit()}",
        "",
    ]
    if not quick:
        lines += _changes_section(default, previous_turn_only, projection, catalogue, turn_previous, goal)
    cat_value, cat_met = _bmc_target(catalogue, quick)
    turn_value, turn_met = _bmc_target(turn, quick)
    previous_value, previous_met = _bmc_target(turn_previous, quick)
    lines += [
        "## Targets",
        "",
        "| Target | Measured | Result |",
        "|---|---|---|",
        f"| BMC to depth {BMC_DEPTH} on the whole catalogue ({len(CATALOGUE)} properties, default bounds) "
        f"in under {BMC_TARGET_S:.0f} s | {cat_value} | {cat_met} |",
        f"| BMC to depth {BMC_DEPTH} on the {len(TURN_PROPERTIES)} turn properties "
        f"(allies=0, combats=0) in under {BMC_TARGET_S:.0f} s | {turn_value} | {turn_met} |",
        f"| The same at the previous default bounds (allies=0, combats=0, "
        f"{_bounds_text(PREVIOUS_DEFAULTS)}) in under {BMC_TARGET_S:.0f} s | {previous_value} | {previous_met} |",
        f"| Explicit exploration above {RATE_TARGET:,} states/s (default bounds) | {rate_value} | {rate_met} |",
        "",
    ]
    if goal is not None:
        lines += _goal_section(goal, catalogue)
    lines += [
        "## Explicit exploration",
        "",
        f"Default bounds: {_bounds_text(DEFAULTS)}. Each row changes only the bounds named.",
        "",
        "- Every run is in a fresh process, so the heap left by one run does not slow the next.",
        "- *Seconds* is `Exploration.seconds`: the breadth-first search alone, not building the machine; "
        f"the fastest of {REPEATS} runs unless the note says otherwise (repeats stop when they would pass the cap). "
        "*Levels* is the number of BFS levels (the longest shortest path from the initial state).",
        "- *Peak MiB* is the peak Python-heap allocation during the exploration, measured with "
        "`tracemalloc`. Tracing slows the search about threefold, so it is a separate run; "
        "*states/s* comes from the untraced run.",
        f"- A run is capped at {EXPLICIT_CAP_S:.0f} s. A row predicted by geometric extrapolation from "
        "the two rows before it to take longer is skipped, with the estimate given; a row after a stopped "
        "or skipped one in its series is skipped too.",
        "",
    ]
    for title, series_rows in series:
        lines += [
            f"### {title}",
            "",
            "| Bounds | States | Transitions | Levels | Seconds | States/s | Peak MiB | Note |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for label, r in series_rows:
            lines.append(
                f"| {label} | {_num(r.states, ',')} | {_num(r.transitions, ',')} | {_num(r.levels, 'd')} "
                f"| {_num(r.seconds, '.2f')} | {_num(r.rate, ',.0f')} | {_num(r.peak_mib, '.1f')} | {r.note} |"
            )
        lines.append("")
    lines += [
        "## Bounded model checking",
        "",
        "Cumulative seconds from creating the checker to the end of each depth "
        "(Z3 `QF_FD`, all properties of a run asked together at each depth).",
        "",
    ]
    for run in runs:
        row = (explored or {}).get(tuple(run.bounds.items()))
        size = f" ({row.states:,} reachable states, {row.levels} BFS levels)" if row is not None and row.states else ""
        lines.append(
            f"- {run.label}: {run.properties} properties at {_bounds_text(run.bounds)}{size}, "
            f"to depth {run.max_depth}: {_verdict_summary(run)}"
            + ("." if run.finished else f" (stopped after {run.timeout:.0f} s at depth {run.reached}).")
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
    return "\n".join(lines) + "\n"


#: Written by ``python -m benchmarks.scaling``: its sweep tables are repeated here.
SCALING = Path(__file__).with_name("SCALING.md")


def scaling_section() -> list[str]:
    """The sweep tables of SCALING.md and its plot, as a section of RESULTS.md (none if it is missing)."""
    if not SCALING.exists():
        return []
    text = SCALING.read_text(encoding="utf-8")
    start, end = text.find("## Sweep: "), text.find("## Spacer, property by property")
    if start < 0:
        return []
    tables = text[start : end if end > start else len(text)].strip().replace("## Sweep: ", "### Sweep: ")
    return [
        "",
        "## Scaling with the bounds",
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
    parser.add_argument("--quick", action="store_true", help="a reduced set, for a smoke test (under 30 s)")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).with_name("RESULTS.md"), help="where to write the results (default: benchmarks/RESULTS.md)"
    )
    args = parser.parse_args(argv)

    done: dict[tuple, ExplicitRow] = {}
    goal: GoalRun | None = None
    projection: dict[str, int] | None = None
    if args.quick:
        default = None
        series = [(title, measure_series(configs, done)) for title, configs in QUICK_SERIES]
        runs = [measure_bmc("turn-only", "turn", TURN_ONLY, BMC_QUICK_DEPTH)]
    else:
        default = measure_series([{}], done)[0][1]
        series = [(title, measure_series(configs, done)) for title, configs in FULL_SERIES]
        # The previous default instance, turn-only, with the one new counter ignored.
        bounds = {**DEFAULTS, **TURN_ONLY, **PREVIOUS_DEFAULTS}
        messages, finished = _in_child(_projection_child, (bounds, ("resources",)), EXPLICIT_CAP_S)
        projection = messages[-1] if finished else None
        goal = measure_goal(GOAL_MAX_DEPTH)
        # The catalogue run goes on past depth 30 to the two-turn depth, to say what covering it costs.
        depth = max(BMC_DEPTH, goal.k or 0)
        timeout = BMC_TIMEOUT_S if depth == BMC_DEPTH else CATALOGUE_TO_GOAL_TIMEOUT_S
        runs = [
            measure_bmc("catalogue", "catalogue", {}, depth, timeout),
            measure_bmc("turn-only", "turn", TURN_ONLY, BMC_DEPTH),
            # The same 12 properties on the instance of the previous results (plus the resources counter).
            measure_bmc("turn-only, previous defaults", "turn", {**TURN_ONLY, **PREVIOUS_DEFAULTS}, BMC_DEPTH),
        ]

    args.output.write_text(render(args.quick, series, default, runs, goal, projection, done))
    if default is not None:
        print(f"explicit, default bounds: {_row_text(default)} (target > {RATE_TARGET:,}/s: {_rate_target(default)[1]})")
    for run in runs:
        value, met = _bmc_target(run, args.quick)
        print(f"BMC, {run.label} ({run.properties} properties) to depth {BMC_DEPTH}: {value} ({met})")
    if goal is not None:
        print(f"two turns with a combat each: BMC depth {goal.k}, {_num(goal.seconds, '.2f')} s")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
