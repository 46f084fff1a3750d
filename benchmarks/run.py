"""Measure explicit exploration and bounded model checking; write RESULTS.md.

    python -m benchmarks.run            # full run, a few minutes
    python -m benchmarks.run --quick    # reduced smoke test, under 30 s

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

from model import bmc, explicit, wowtcg
from properties.wowtcg import CATALOGUE

DEFAULTS = {b.name: b.default for b in wowtcg.BOUNDS}

EXPLICIT_CAP_S = 60.0  # longest untraced exploration we run (or predict) per row
REPEATS = 3  # untraced runs per row, fastest kept: single runs vary by a third on this VM
TRACED_TIMEOUT_S = 4 * EXPLICIT_CAP_S  # tracemalloc slows exploration roughly threefold
BMC_TIMEOUT_S = 180.0  # three times the target: enough to see how far off a miss is
BMC_DEPTH, BMC_QUICK_DEPTH = 30, 15
BMC_BOUNDS = {"players": 2, "chain_depth": 3}  # the rest at their defaults
BMC_TARGET_S = 60.0
RATE_TARGET = 50_000  # states per second, explicit exploration at default bounds

# Each series grows one bound; rows are run smallest first so that a row
# predicted (from the two before it) to exceed the cap can be skipped.
FULL_SERIES = (
    ("Turn bound", [{"turns": t} for t in (2, 3, 4, 5)]),
    ("Chain depth", [{"chain_depth": c} for c in (2, 3, 4, 5)]),
    # At turns=1, the smallest bound: each added player multiplies the state
    # space, so turns=players+1 is far beyond the cap from 3 players on.
    ("Players (turns=1)", [{"players": p, "turns": 1} for p in (2, 3, 4)]),
)
QUICK_SERIES = (("Chain depth", [{"chain_depth": c} for c in (2, 3)]),)


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


def _bmc_child(report: Callable[[Any], None], include_deadlock: bool, max_depth: int) -> None:
    props = [p for p in CATALOGUE if include_deadlock or p.name != "deadlock"]
    machine = wowtcg.build(**BMC_BOUNDS)
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
        label = _label(changes) + (" (default)" if changes and bounds == DEFAULTS else "")
        key = tuple(bounds.items())
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
    max_depth: int
    seconds_at: dict[int, float] = field(default_factory=dict)  # cumulative seconds after each depth
    verdicts: list[str] = field(default_factory=list)
    finished: bool = False

    @property
    def reached(self) -> int:
        return max(self.seconds_at, default=-1)

    @property
    def seconds(self) -> float | None:
        return self.seconds_at[self.reached] if self.seconds_at else None


def measure_bmc(label: str, include_deadlock: bool, max_depth: int) -> BMCRun:
    count = sum(include_deadlock or p.name != "deadlock" for p in CATALOGUE)
    run = BMCRun(label, count, max_depth)
    messages, run.finished = _in_child(_bmc_child, (include_deadlock, max_depth), BMC_TIMEOUT_S)
    for message in messages:
        if isinstance(message, tuple):
            run.seconds_at[message[0]] = message[1]
        else:
            run.verdicts = message
    state = f"depth {run.reached} in {run.seconds:.2f} s" if run.seconds_at else "no depth finished"
    _progress(f"bmc {label}: {state}{'' if run.finished else f' (stopped after {BMC_TIMEOUT_S:.0f} s)'}")
    return run


# --- report -------------------------------------------------------------------------------


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _label(changes: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in changes.items()) or "default bounds"


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
    return head.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def _bmc_target(run: BMCRun | None) -> tuple[str, str]:
    """The measured value and verdict of the BMC target for the priority run."""
    if run is None or run.max_depth < BMC_DEPTH:
        return f"not measured (--quick stops at depth {BMC_QUICK_DEPTH})", "not measured"
    if not run.finished:
        return f"stopped after {BMC_TIMEOUT_S:.0f} s at depth {run.reached}", "not met"
    exhausted = f" (every run ends by depth {run.reached})" if run.reached < BMC_DEPTH else ""
    return f"{run.seconds:.2f} s{exhausted}", "met" if run.seconds < BMC_TARGET_S else "not met"


def render(quick: bool, series: list[tuple[str, list[tuple[str, ExplicitRow]]]], default: ExplicitRow, runs: list[BMCRun]) -> str:
    priority = runs[0]
    bmc_value, bmc_met = _bmc_target(priority)
    rate = default.rate
    rate_met = "met" if rate is not None and rate > RATE_TARGET else "not met"
    command = "python -m benchmarks.run" + (" --quick" if quick else "")
    defaults = ", ".join(f"{k}={v}" for k, v in DEFAULTS.items())
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
        "python -m benchmarks.run            # full run, a few minutes",
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
        "## Targets",
        "",
        "| Target | Measured | Result |",
        "|---|---|---|",
        f"| BMC to depth {BMC_DEPTH} on all {priority.properties} priority properties "
        f"(2 players, chain depth 3) in under {BMC_TARGET_S:.0f} s | {bmc_value} | {bmc_met} |",
        f"| Explicit exploration above {RATE_TARGET:,} states/s (default bounds) "
        f"| {_num(rate, ',.0f')} states/s | {rate_met} |",
        "",
        "## Explicit exploration",
        "",
        f"Default bounds: {defaults}. Each row changes only the bounds named.",
        "",
        "- Every run is in a fresh process, so the heap left by one run does not slow the next.",
        "- *Seconds* is `Exploration.seconds`: the breadth-first search alone, not building the machine; "
        f"the fastest of {REPEATS} runs unless the note says otherwise (repeats stop when they would pass the cap). "
        "*Levels* is the number of BFS levels (the longest shortest path from the initial state).",
        "- *Peak MiB* is the peak Python-heap allocation during the exploration, measured with "
        "`tracemalloc`. Tracing slows the search about threefold, so it is a separate run; "
        "*states/s* comes from the untraced run.",
        f"- A run is capped at {EXPLICIT_CAP_S:.0f} s. A row predicted by geometric extrapolation from "
        "the two rows before it to take longer is skipped, with the estimate given.",
        "",
    ]
    for title, rows in series:
        lines += [
            f"### {title}",
            "",
            "| Bounds | States | Transitions | Levels | Seconds | States/s | Peak MiB | Note |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for label, r in rows:
            lines.append(
                f"| {label} | {_num(r.states, ',')} | {_num(r.transitions, ',')} | {_num(r.levels, 'd')} "
                f"| {_num(r.seconds, '.2f')} | {_num(r.rate, ',.0f')} | {_num(r.peak_mib, '.1f')} | {r.note} |"
            )
        lines.append("")
    lines += [
        "## Bounded model checking",
        "",
        f"Bounds: {', '.join(f'{k}={v}' for k, v in {**DEFAULTS, **BMC_BOUNDS}.items())}. "
        "Cumulative seconds from creating the checker to the end of each depth "
        "(Z3 `QF_FD`, all properties asked together at each depth).",
        "",
    ]
    for run in runs:
        verdicts: dict[str, int] = {}
        for verdict in run.verdicts:
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
        summary = ", ".join(f"{n} {v}" for v, n in verdicts.items()) or "no verdicts (stopped)"
        lines.append(f"- {run.label} ({run.properties} properties): {summary}.")
    if {**DEFAULTS, **BMC_BOUNDS} == DEFAULTS and default.levels is not None:
        # A depth below the BFS level count leaves states unvisited: worth saying beside the timing.
        reach = "covers" if priority.reached >= default.levels else "does not reach"
        lines.append(
            f"- Explicit search finds {default.levels} BFS levels at these bounds, so depth "
            f"{priority.reached} {reach} every reachable state."
        )
    lines += [
        f"- Target (priority properties to depth {BMC_DEPTH} in under {BMC_TARGET_S:.0f} s): {bmc_met}.",
        "",
        "| Depth | " + " | ".join(f"{r.label} (s)" for r in runs) + " |",
        "|---:|" + "---:|" * len(runs),
    ]
    for k in range(max(r.max_depth for r in runs) + 1):
        lines.append(f"| {k} | " + " | ".join(_num(r.seconds_at.get(k), ".2f") for r in runs) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a reduced set, for a smoke test (under 30 s)")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).with_name("RESULTS.md"), help="where to write the results (default: benchmarks/RESULTS.md)"
    )
    args = parser.parse_args(argv)

    done: dict[tuple, ExplicitRow] = {}
    default = measure_series([{}], done)[0][1]
    series = [(title, measure_series(configs, done)) for title, configs in (QUICK_SERIES if args.quick else FULL_SERIES)]
    if args.quick:
        runs = [measure_bmc("priority", False, BMC_QUICK_DEPTH)]
    else:
        runs = [measure_bmc("priority", False, BMC_DEPTH), measure_bmc("full catalogue", True, BMC_DEPTH)]

    args.output.write_text(render(args.quick, series, default, runs))
    rate_met = "met" if (default.rate or 0) > RATE_TARGET else "not met"
    print(f"explicit, default bounds: {_row_text(default)} (target > {RATE_TARGET:,}/s: {rate_met})")
    for run in runs:
        print(f"BMC, {run.label} ({run.properties} properties) to depth {run.reached}: {_num(run.seconds, '.2f')} s")
    print(f"BMC target (< {BMC_TARGET_S:.0f} s to depth {BMC_DEPTH}): {_bmc_target(runs[0])[1]}")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
