"""Time verify's default run, as the README's first command and CI run it;
write the section of RESULTS.md.

    python -m benchmarks.default_run

``chainproof verify`` with no options checks every game at verify's own
default bounds (``Game.verify_bounds``: WoW with a card of each kind in every
opening hand, Riftbound over three turns), in a process of its own.  Targets
(two cores): the whole run in under 60 s by the wall clock; WoW's bounded
instance searched to the end; the search's arrays under the 2 GiB memory
guard.  The games share one pool of workers (``portfolio.verify_games``), so
a game's seconds run from the start of the run to its last verdict; the
bounded job's own seconds (its search and checks) are given beside them.
CPU seconds are the run's and its workers'; the peak resident set is
the largest one process reached (``getrusage``'s ``ru_maxrss``).  The load
average before the run is given, since other work on the machine stretches
the wall clock.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.engine import targets_table, write_section
from model import limits

BEGIN, END = "<!-- benchmarks.default_run: begin -->", "<!-- benchmarks.default_run: end -->"
ROOT = Path(__file__).resolve().parent.parent
WALL_S = 60.0


def measure() -> dict:
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "from chainproof.cli import main; main()", "verify", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"chainproof verify exited {done.returncode}: {done.stderr.strip()}")
    summary = json.loads(done.stdout)["summary"]
    return {
        "load": load,
        "wall_s": wall,
        "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "rss_bytes": after.ru_maxrss * 1024,
        "verdicts": summary["verdicts"],
        "games": summary["games"],
    }


def render(r: dict) -> str:
    games = r["games"]
    wow = games["wowtcg"]
    verdicts = ", ".join(f"{n} {v}" for v, n in r["verdicts"].items() if n)
    rows = [
        (f"`chainproof verify`, every game at verify's defaults, in under {WALL_S:.0f} s on two cores",
         f"{r['wall_s']:.1f} s ({r['cpu_s']:.1f} CPU s; load average {r['load']:.1f} before the run): {verdicts}",
         r["wall_s"] < WALL_S),
        ("WoW's instance with a card of each kind in hand searched to the end",
         f"{wow['states']:,} states, {wow['transitions']:,} transitions" + ("" if wow["complete"] else f", stopped {wow['stopped']}"),
         wow["complete"]),
        (f"its arrays under the {limits.show_memory(limits.DEFAULT_MAX_MEMORY)} memory guard",
         f"{wow['peak_bytes'] / 2**30:.2f} GiB at the peak ({wow['peak_bytes'] / wow['states']:.0f} bytes a state); "
         f"the largest process {r['rss_bytes'] / 2**30:.2f} GiB resident",
         wow["peak_bytes"] < limits.DEFAULT_MAX_MEMORY),
    ]
    others = {name: g for name, g in games.items() if name != "wowtcg"}
    per_game = [
        "",
        f"The games share one pool of workers: WoW's bounded search and its checks hold one worker for "
        f"{wow['bounded_seconds']:.1f} s ({wow['exploration_seconds']:.1f} s searching, "
        f"{wow['bounded_seconds'] - wow['exploration_seconds']:.1f} s checking), the run's critical path, while the other "
        f"worker runs the rest (the other games' verdicts were all in {max(g['seconds'] for g in others.values()):.1f} s "
        "after the start).",
        "",
        "| game | states | transitions | bounded search and its checks (s) | verdicts in, from the start (s) |",
        "| --- | --- | --- | --- | --- |",
        *(f"| {name} | {g['states']:,} | {g['transitions']:,} | {g['bounded_seconds']:.1f} | {g['seconds']:.1f} |"
          for name, g in games.items()),
    ]
    lines = [BEGIN, *targets_table("verify's default run (`python -m benchmarks.default_run`)", rows), *per_game, END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.default_run", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
