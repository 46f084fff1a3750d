"""Throughput of the agreement harness: engine steps checked against each
game's model per second, by `chainproof conform`'s own run (soundness,
completeness, one offered action tried on a copy and one forbidden action
asked about per step, steering), and the edge coverage it reaches.

    python -m benchmarks.agreement [--examples 60] [--games wowtcg riftbound hota]

writes its own section of benchmarks/RESULTS.md between its markers.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import subprocess
import time
from pathlib import Path

from agreement.games import GAMES, builtin_adapter, checker_for
from agreement.harness import conform
from benchmarks.engine import update

BEGIN = "<!-- benchmarks.agreement: begin -->"
END = "<!-- benchmarks.agreement: end -->"
RESULTS = Path(__file__).with_name("RESULTS.md")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=60)
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "unknown"
    rows, notes = [], []
    for game in args.games:
        started, cpu_started = time.perf_counter(), time.process_time()
        report = conform(builtin_adapter(game), checker_for(game), examples=args.examples, seed=0)
        seconds = time.perf_counter() - started
        # CPU seconds too: on a shared machine the wall clock counts other people's work.
        cpu = time.process_time() - cpu_started
        covered = len(set(report.reachable) & set(report.edges))
        rows.append(
            f"| {game} | {report.games_finished} | {report.steps} | {seconds:.1f} | {report.steps / seconds:.0f} | {cpu:.1f} | {report.steps / cpu:.0f} "
            f"| {covered}/{len(report.reachable)} | {'yes' if report.ok else 'NO'} |"
        )
        notes += [
            f"{game}: not exercised: " + (", ".join(f"`{m}`" for m in report.missed) or "none") + ".",
            "",
            f"{game}: games stopped before the rules ended them: {len(report.capped)}" + "".join(f"\n- {c}" for c in report.capped),
            "",
        ]
    lines = [
        BEGIN,
        "## Agreement harness throughput (`python -m benchmarks.agreement`)",
        "",
        f"Run on {datetime.date.today()} at commit {commit}, Python {platform.python_version()}: "
        f"`chainproof conform --game GAME --examples {args.examples} --seed 0` on each built-in engine, one after another.",
        "",
        "| game | games ended | steps checked | seconds | steps/s | CPU seconds | steps per CPU second | edge families exercised (of those reachable at default bounds) | agree |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        *notes[:-1],
        END,
        "",
    ]
    update(RESULTS, "\n".join(lines), BEGIN, END)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
