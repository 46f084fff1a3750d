"""The test suite's time: the README's test command, run once, wall clock and
CPU; writes its section of RESULTS.md.

    python -m benchmarks.suite

Target: the whole suite in under 5 minutes on two cores.  The run is the
README's own command (pytest with its two xdist workers), so it measures what
a contributor waits for; the load average before and after says how much of the
wall clock was other people's work, and the CPU seconds (the suite's processes
and their children) do not depend on it.

The run has Python's bytecode cache on, as Python has by default: a shell
that sets ``PYTHONDONTWRITEBYTECODE`` makes every process compile the
project's modules again (each xdist worker as it collects, about 6 CPU s more
each; each command a test runs in a process of its own, 1-2 s), which is that
shell's cost, not the suite's.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

from benchmarks.engine import targets_table, write_section

BEGIN, END = "<!-- benchmarks.suite: begin -->", "<!-- benchmarks.suite: end -->"
TARGET_S = 300.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure() -> dict:
    load_before = os.getloadavg()[0]
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]
    # What went wrong, kept with the figure: the failing tests and any line
    # that says why the run stopped early.
    wrong = [line for line in done.stdout.splitlines() if line.startswith(("FAILED ", "ERROR ", "!!!", "Interrupted"))][:20]
    return {
        "wrong": wrong,
        "seconds": seconds,
        "cpu": (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "exit": done.returncode,
        "tail": tail,
        "bytecode_unset": "PYTHONDONTWRITEBYTECODE" in os.environ,
    }


def render(m: dict) -> str:
    rows = [("`python -m pytest -q` (the README's test command) under 300 s on two cores", f"{m['seconds']:.0f} s", m["seconds"] < TARGET_S and m["exit"] == 0)]
    lines = [*targets_table("Test suite (`python -m benchmarks.suite`)", rows), ""]
    lines.append(
        f"Exit {m['exit']}: {m['tail']}. CPU {m['cpu']:.0f} s (the suite's processes and their children, "
        f"{m['cpu'] / max(m['seconds'], 1e-9):.2f} cores busy on average); load average (1 minute) "
        f"{m['load_before']:.1f} before, {m['load_after']:.1f} after. Python's bytecode cache on"
        + (" (PYTHONDONTWRITEBYTECODE, set in this shell, unset for the run)." if m["bytecode_unset"] else ".")
    )
    if m.get("wrong"):
        lines += ["", "```", *m["wrong"], "```"]
    return "\n".join([BEGIN, *lines, END])


if __name__ == "__main__":
    write_section("benchmarks.suite", __doc__, measure, render, BEGIN, END)
