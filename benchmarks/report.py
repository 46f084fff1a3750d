"""Time ``chainproof report`` and weigh its page; write the section of RESULTS.md.

    python -m benchmarks.report

The inputs are the built-in rulebooks' own runs at their defaults, each
command run once as itself with ``--json``: ``verify`` and ``lint`` of every
game, every shipped scenario, and ``conform`` on each game's built-in engine
(minutes in all).  The page is then built from them three times in this
process, the fastest kept.  Targets (two cores): the page built in under
10 s, and under 2 MiB, so that it travels as a CI artifact or a mail
attachment.  Timings vary by a third on a shared machine.
"""

from __future__ import annotations

import gzip
import re
import time

from benchmarks.engine import targets_table, write_section
from chainproof import html_report

BEGIN, END = "<!-- benchmarks.report: begin -->", "<!-- benchmarks.report: end -->"
BUILD_TARGET_S = 10.0
SIZE_TARGET_BYTES = 2 * 1024 * 1024
BUILDS = 3

#: Each input: the command and its arguments (``--json`` is added), as ``report --run`` runs every command on every game.
RUNS = tuple((command, *args) for command in html_report.COMMANDS for args in html_report.run_arguments(command, ()))


def measure() -> dict:
    inputs = html_report.Inputs()
    runs = []
    for command, *args in RUNS:
        started = time.perf_counter()
        data = html_report.run_command(command, *args)
        runs.append((" ".join([command, *args]), time.perf_counter() - started))
        inputs.add(command, data, f"chainproof {' '.join([command, *args])} --json")
    build_s = float("inf")
    for _ in range(BUILDS):
        started = time.perf_counter()
        html = html_report.render(inputs)
        build_s = min(build_s, time.perf_counter() - started)
    page = html.encode("utf-8")
    # Each part of the page: from its heading to the next.
    starts = [(0, "head: style and navigation"), *((m.start(), m.group(1)) for m in re.finditer(r'<h2 id="([^"]+)"', html))]
    parts = [(name, len(html[start:end].encode("utf-8"))) for (start, name), (end, _) in zip(starts, [*starts[1:], (len(html), "")])]
    return {
        "runs": runs,
        "build_s": build_s,
        "bytes": len(page),
        "gzip_bytes": len(gzip.compress(page)),
        "parts": parts,
        "counts": {
            "results": len(inputs.verify),
            "counterexamples": sum(1 for r in inputs.verify if r["counterexample"]),
            "findings": len(inputs.lint),
            "scenarios": len(inputs.scenarios),
            "rule texts": html.count('<dt id="rule-'),
        },
    }


def _kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB"


def render(r: dict) -> str:
    counts = ", ".join(f"{n} {what}" for what, n in r["counts"].items())
    rows = [
        (f"the page built from every default run in under {BUILD_TARGET_S:.0f} s", f"{r['build_s']:.1f} s ({counts})",
         r["build_s"] < BUILD_TARGET_S),
        (f"the page under {_kib(SIZE_TARGET_BYTES)}", f"{_kib(r['bytes'])} ({_kib(r['gzip_bytes'])} gzipped)",
         r["bytes"] < SIZE_TARGET_BYTES),
    ]
    lines = [
        BEGIN,
        *targets_table("HTML report (`python -m benchmarks.report`)", rows),
        "",
        "| input (`chainproof ... --json`) | seconds |",
        "| --- | --- |",
        *(f"| `{command}` | {s:.1f} |" for command, s in r["runs"]),
        "",
        "| part of the page | size |",
        "| --- | --- |",
        *(f"| {name} | {_kib(size)} |" for name, size in r["parts"]),
        END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.report", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
