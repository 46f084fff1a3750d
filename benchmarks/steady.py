"""Steadiness: hostile files refused by every command that reads one, and the
default run's verdicts unchanged on a busy machine; writes its section of RESULTS.md.

    python -m benchmarks.steady

1. Every file of the hostile corpus (tests/data/hostile/: an alias bomb,
   nesting past the limit, a self-referring anchor, bytes that are not UTF-8,
   text that is not YAML) is given to every command that reads a file of its
   kind, each in a process of its own as a user runs it.  Counted: the runs
   that exit 2 with one line that names the file, and any that print a
   traceback or an internal error.
2. ``chainproof verify --json`` on every built-in game at default bounds, once
   on a quiet machine and once with two busy-loop processes beside it (one
   per core here): the verdicts, depths, methods, notes and counterexamples
   must be the same, since solver work is bounded by resource units
   (``--rlimit``) and the wall clock is only an outer guard.  Seconds and the
   per-method attempts' timings are left out of the comparison.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.engine import targets_table, write_section

BEGIN, END = "<!-- benchmarks.steady: begin -->", "<!-- benchmarks.steady: end -->"
ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile"
#: Each command that reads a file, as the argument list around the file (and
#: a scratch folder for anything the command would write).
READERS = {
    "lint --known": lambda f, _tmp: ["lint", "--game", "hota", "--known", f],
    "scenarios --path": lambda f, _tmp: ["scenarios", "--path", f],
    "check-trace": lambda f, _tmp: ["check-trace", f],
    "campaign": lambda f, tmp: ["campaign", f, "--db", str(tmp / "campaign.db")],
    "report --verify": lambda f, tmp: ["report", str(tmp / "report.html"), "--verify", f],
}
#: Timing fields: the only ones a busy machine may change.
TIMINGS = ("seconds", "attempts")


def chainproof(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from chainproof.cli import main; main()", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False,
    )


def hostile_runs() -> list[dict]:
    runs = []
    for path in sorted(HOSTILE.iterdir()):
        for command, argv in READERS.items():
            with tempfile.TemporaryDirectory() as scratch:
                done = chainproof(*argv(str(path), Path(scratch)), timeout=120)
            # Paths as the repository names them: the table is the project's, not this machine's.
            output = (done.stdout + done.stderr).replace(f"{ROOT}/", "")
            lines = [line for line in output.splitlines() if line.strip()]
            naming = [line for line in lines if path.name in line]
            runs.append({
                "file": path.name,
                "command": command,
                "exit": done.returncode,
                "lines": len(lines),
                "names_file": path.name in output,
                "crashed": "Traceback" in output or "internal error" in output,
                "first": " ".join((naming or lines or [""])[0].split())[:160],
            })
    return runs


def _spin() -> None:
    while True:
        pass


def _verdicts() -> tuple[list[dict], float]:
    started = time.perf_counter()
    done = chainproof("verify", "--json")
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"verify exited {done.returncode}: {done.stderr.strip()[-400:]}")
    results = json.loads(done.stdout)["results"]
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in results], seconds


def measure() -> dict:
    runs = hostile_runs()
    quiet, quiet_s = _verdicts()
    busy = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(2)]
    for p in busy:
        p.start()
    try:
        loaded, loaded_s = _verdicts()
    finally:
        for p in busy:
            p.terminate()
    differing = [a["game"] + " " + a["property"] for a, b in zip(quiet, loaded) if a != b]
    if len(quiet) != len(loaded):
        differing.append(f"{len(quiet)} results quiet, {len(loaded)} busy")
    return {"runs": runs, "results": len(quiet), "differing": differing, "quiet_s": quiet_s, "loaded_s": loaded_s}


def render(m: dict) -> str:
    runs = m["runs"]
    clean = [r for r in runs if r["exit"] == 2 and r["lines"] == 1 and r["names_file"] and not r["crashed"]]
    refused = [r for r in runs if r["exit"] == 2 and not r["crashed"]]
    rows = [
        (f"every hostile file refused with exit 2 by every command that reads one ({len(runs)} runs)",
         f"{len(refused)} of {len(runs)} exit 2 with no traceback; {len(clean)} in one line naming the file",
         len(refused) == len(runs)),
        ("`chainproof verify --json` the same with two busy cores beside it",
         f"{m['results'] - len(m['differing'])} of {m['results']} results the same", not m["differing"]),
    ]
    lines = [*targets_table("Steadiness (`python -m benchmarks.steady`)", rows), ""]
    lines += [
        f"`verify` of every game took {m['quiet_s']:.0f} s quiet and {m['loaded_s']:.0f} s beside two busy loops "
        "(wall clock; only the seconds differ)." if not m["differing"] else
        "Results that differed under load: " + ", ".join(m["differing"]) + ".",
        "",
        "| file | command | exit | lines | what it said (the line naming the file) |",
        "| --- | --- | ---: | ---: | --- |",
        *(f"| {r['file']} | `{r['command']}` | {r['exit']} | {r['lines']} | {r['first'].replace('|', '/')} |" for r in runs),
    ]
    return "\n".join([BEGIN, *lines, END])


if __name__ == "__main__":
    write_section("benchmarks.steady", __doc__, measure, render, BEGIN, END)
