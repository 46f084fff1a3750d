"""Throughput of the agreement harness: engine steps checked against each
game's model per second, by `chainproof conform`'s own run (soundness,
completeness, one offered action tried on a copy and one forbidden action
asked about per step, steering), and the edge coverage it reaches.

    python -m benchmarks.agreement [--examples 60] [--games wowtcg riftbound hota]
    python -m benchmarks.agreement --baseline HEAD~3   # and the tree of another commit, in the same run
    python -m benchmarks.agreement --split             # and where each game's CPU goes

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
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

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
    return Measured(**_apart(tree, "measure", game, examples))


def _apart(tree: Path, function: str, game: str, examples: int) -> dict[str, Any]:
    """``function(game, examples)`` of this module, in a process of its own importing the project from ``tree``."""
    code = (f"import json, sys; from dataclasses import asdict; from benchmarks.agreement import {function}; "
            f"print(json.dumps(asdict({function}(sys.argv[1], int(sys.argv[2])))))")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", code, game, str(examples)], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@dataclass
class Split:
    """Where one game's CPU seconds went, in a run with those places timed
    (the timing adds its own cost, in ``rest``)."""

    cpu: float
    steering_steps: float  # the model's steps from states steering's searches reach (guards, updates)
    other_steps: float  # the model's steps from the states the step checks and forbidden actions read
    builds: float  # building the models of the boards
    engine: float  # the adapter's calls: the engine, and its observations written
    rest: float  # the harness (observations read into model states, checks, searches' own work), Hypothesis


class _Clock:
    """CPU seconds by place, each call's own: a place timed inside another counts only for itself."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()
        self._inner: list[float] = []  # per open call, the seconds of the timed calls inside it
        self.steering = False

    def timed(self, place: str | Callable[[], str], run: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            self._inner.append(0.0)
            started = time.process_time()
            try:
                return run(*args, **kwargs)
            finally:
                took = time.process_time() - started
                self.spent[place() if callable(place) else place] += took - self._inner.pop()
                if self._inner:
                    self._inner[-1] += took
        return call

    @contextmanager
    def searching(self) -> Iterator[None]:
        self.steering = True
        try:
            yield
        finally:
            self.steering = False


def split(game: str, examples: int) -> Split:
    """``measure``'s run with the model's steps, the builds of models and the
    adapter's calls timed: each replaced, for the run, by a timed copy."""
    # Here, not at the top: ``checkout`` may lend this module to an older tree without them.
    from agreement import adapter, model_steps, table_checker
    from agreement.hota import checker as hota_checker
    from agreement.riftbound import checker as riftbound_checker
    from agreement.wowtcg import abstraction

    clock = _Clock()
    checker = checker_for(game)
    steps = lru_cache(maxsize=model_steps.KEPT)(
        clock.timed(lambda: "steering_steps" if clock.steering else "other_steps", model_steps.successors.__wrapped__))
    steer = type(checker).steer

    def steering(self: Any, *args: Any, **kwargs: Any) -> Any:
        with clock.searching():
            return steer(self, *args, **kwargs)

    replaced: list[tuple[Any, str, Any]] = [
        *((module, "successors", steps) for module in (model_steps, table_checker, abstraction)),
        *((module, "build", clock.timed("builds", module.build)) for module in (abstraction, riftbound_checker, hota_checker)),
        (adapter.Guarded, "call", clock.timed("engine", adapter.Guarded.call)),
        (type(checker), "steer", steering),
    ]
    # What each place held of its own (a class may inherit the method it is given).
    kept = [(owner, name, vars(owner).get(name)) for owner, name, _ in replaced]
    for owner, name, timed_copy in replaced:
        setattr(owner, name, timed_copy)
    try:
        cpu_started = time.process_time()
        conform(builtin_adapter(game), checker, examples=examples, seed=0)
        cpu = time.process_time() - cpu_started
    finally:
        for owner, name, original in kept:
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
    parts = {place: clock.spent[place] for place in ("steering_steps", "other_steps", "builds", "engine")}
    return Split(cpu, **parts, rest=cpu - sum(parts.values()))


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
    parser.add_argument("--split", action="store_true", help="also run each game again with the model's steps, builds and the adapter's calls timed, and say where the CPU went")
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
    where: list[str] = []
    if args.split:
        where = [
            "",
            "### Where the CPU goes (`--split`)",
            "",
            "Each game run again, in a process of its own, with these places timed, each call counted once (its own seconds, "
            "less those of timed calls inside it): the model's steps from a state (its guards and updates, `agreement/model_steps.py`) "
            "from the states steering's searches reach and from those the step checks and forbidden actions read; the builds of "
            "the models of the boards; the adapter's calls (the engine, and its observations written). The rest is the harness's "
            "own work (observations read into model states, the checks, the searches' bookkeeping, observations validated) and "
            "Hypothesis, with the timing's own cost.",
            "",
            "| game | CPU s | model steps, steering | model steps, checks | model builds | adapter (engine) | rest |",
            "|---|---|---|---|---|---|---|",
        ]
        for game in args.games:
            part = Split(**_apart(ROOT, "split", game, args.examples))
            shares = [part.steering_steps, part.other_steps, part.builds, part.engine, part.rest]
            where.append(f"| {game} | {part.cpu:.1f} | " + " | ".join(f"{x:.1f} ({x / part.cpu:.0%})" for x in shares) + " |")
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
        *where,
        *against,
        END,
        "",
    ]
    update(RESULTS, "\n".join(lines), BEGIN, END)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
