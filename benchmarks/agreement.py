"""Throughput of the agreement harness: engine steps checked against each
game's model per second, by `chainproof conform`'s own run (soundness,
completeness, one offered action tried on a copy and one forbidden action
asked about per step, steering), and the edge coverage it reaches.

    python -m benchmarks.agreement [--examples 60] [--games wowtcg riftbound hota]
    python -m benchmarks.agreement --baseline HEAD~3   # and the tree of another commit, in the same run

writes its own section of benchmarks/RESULTS.md between its markers.  With
``--baseline REV`` the whole tree of git revision REV (harness, models and
engines) is measured beside this one, game by game, each run in a process of
its own (the revision's, then this tree's), so that both meet the same load.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from agreement.games import GAMES, builtin_adapter, checker_for
from agreement.harness import conform
from benchmarks.engine import update

BEGIN = "<!-- benchmarks.agreement: begin -->"
END = "<!-- benchmarks.agreement: end -->"
RESULTS = Path(__file__).with_name("RESULTS.md")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Measured:
    """One game's run: steps checked, CPU seconds, families exercised of those reachable."""

    steps: int
    cpu: float
    covered: int
    reachable: int
    ok: bool

    @property
    def per_cpu(self) -> float:
        return self.steps / self.cpu


def measure(game: str, examples: int) -> Measured:
    """`conform` at seed 0 on the game's built-in engine, in this process."""
    cpu_started = time.process_time()
    report = conform(builtin_adapter(game), checker_for(game), examples=examples, seed=0)
    cpu = time.process_time() - cpu_started
    return Measured(report.steps, cpu, len(set(report.reachable) & set(report.edges)), len(report.reachable), report.ok)


def measure_apart(tree: Path, game: str, examples: int) -> Measured:
    """``measure`` in a process of its own, importing the project from ``tree``."""
    code = ("import json, sys; from dataclasses import asdict; from benchmarks.agreement import measure; "
            "print(json.dumps(asdict(measure(sys.argv[1], int(sys.argv[2])))))")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", code, game, str(examples)], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return Measured(**json.loads(out.stdout.strip().splitlines()[-1]))


def checkout(rev: str) -> tuple[Path, str]:
    """The tree of git revision ``rev`` (of the repository here, as the commit
    named in the section) in a temporary folder, and the revision's short name."""
    sha = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], capture_output=True, text=True, check=True).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="chainproof-baseline-"))
    archive = subprocess.run(["git", "archive", "--format=tar", sha], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    if not (folder / "benchmarks" / "agreement.py").read_text().count("def measure("):
        # An older tree without ``measure``: this module's, over that tree's harness.
        shutil.copy(Path(__file__), folder / "benchmarks" / "agreement.py")
    return folder, sha


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=60)
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--baseline", metavar="REV", help="also measure the tree of this git revision, game by game, in the same run")
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "unknown"
    rows, notes = [], []
    load = os.getloadavg()[0]
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
    against: list[str] = []
    if args.baseline:
        tree, sha = checkout(args.baseline)
        try:
            against = [
                "",
                f"### Against commit {sha} (`--baseline`)",
                "",
                f"The tree of commit {sha} and this one, game by game, each run in a process of its own (commit {sha}'s first), "
                "the same command; CPU seconds of the process's run.",
                "",
                f"| game | {sha}: steps | CPU s | steps per CPU s | families | this tree: steps | CPU s | steps per CPU s | families | speed-up |",
                "|---|---|---|---|---|---|---|---|---|---|",
            ]
            for game in args.games:
                before, after = measure_apart(tree, game, args.examples), measure_apart(ROOT, game, args.examples)
                against.append(
                    f"| {game} | {before.steps} | {before.cpu:.1f} | {before.per_cpu:.0f} | {before.covered}/{before.reachable} "
                    f"| {after.steps} | {after.cpu:.1f} | {after.per_cpu:.0f} | {after.covered}/{after.reachable} | {after.per_cpu / before.per_cpu:.2f}x |"
                )
        finally:
            shutil.rmtree(tree, ignore_errors=True)
    lines = [
        BEGIN,
        "## Agreement harness throughput (`python -m benchmarks.agreement`)",
        "",
        f"Run on {datetime.date.today()} at commit {commit}, Python {platform.python_version()}: "
        f"`chainproof conform --game GAME --examples {args.examples} --seed 0` on each built-in engine, one after another; "
        f"load average {load:.1f} on {os.cpu_count()} CPUs as it began (CPU seconds too grow on a busy machine).",
        "",
        "| game | games ended | steps checked | seconds | steps/s | CPU seconds | steps per CPU second | edge families exercised (of those reachable at default bounds) | agree |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        *notes[:-1],
        *against,
        END,
        "",
    ]
    update(RESULTS, "\n".join(lines), BEGIN, END)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
