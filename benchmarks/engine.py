"""Measure random play of the WoW TCG reference engine; update RESULTS.md.

    python -m benchmarks.engine                 # 1,000 games, about a minute
    python -m benchmarks.engine --games 50      # a quicker look
    python -m benchmarks.engine --baseline HEAD~3   # and the engine of another commit, in the same run

Full 2-player games from `WowTcgGame(players=2).new_initial_state(seed)`
(random heroes, random legal 40-card sealed decks from the pool), seeds
0 to games-1, each played to the end by `random.Random(seed).choice` over
`legal_actions()` (the loop of tests/engine/test_random_play.py, without its
referee). The target is 200 full games per second or better, in CPU seconds
of the process (`time.process_time`): the machine may be busy with other work.

With `--baseline REV`, the WoW engine as it was at git revision REV is
imported beside the current one (its `engine/wowtcg` taken from git into a
temporary package) and both play the same seeds in the same process, taking
turns by chunks of 50 games, so that a change of the machine's load falls on
both alike. Each game's history, final state and step count are compared: a
change made for speed must play the same games.

For a profile that does not slow small functions as cProfile does, sample the
run: `py-spy record -o profile.svg -- python -m benchmarks.engine --games 300`
(the `profile` extra installs py-spy and pyinstrument).

The run writes its own section of benchmarks/RESULTS.md, between HTML comment
markers, and leaves the rest of the file as it is; rerunning replaces the
section. `python -m benchmarks.run` rewrites the whole file without it, so run
this after that one.
"""

from __future__ import annotations

import argparse
import atexit
import cProfile
import importlib
import io
import os
import platform
import pstats
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from benchmarks.run import _commit, _cpu_model
from engine.wowtcg import WowTcgGame

GAMES = 1000
PROFILE_GAMES = 100  # seeds 0-99 again, under cProfile
STEP_CAP = 20_000  # far above any random 2-player game seen (under 1,500 steps)
TARGET_GAMES_PER_S = 200.0
TOP = 5
CHUNK = 50  # games each engine plays in turn when a baseline is measured beside it
BEGIN = "<!-- benchmarks.engine: begin -->"
END = "<!-- benchmarks.engine: end -->"
ENGINE_DIR = str(Path(__file__).resolve().parent.parent / "engine")


@dataclass
class Run:
    games: int = 0
    steps: int = 0
    turns: int = 0
    setup_s: float = 0.0  # new_initial_state: decks built and validated, hands not yet drawn
    play_s: float = 0.0  # the playout loop
    wins: dict[int, int] = field(default_factory=dict)  # seat -> games won
    draws: int = 0
    capped: int = 0
    decked: int = 0  # the loser had to draw from an empty deck (409.6c)
    hero_gone: int = 0  # the loser's hero left play (102.1a)
    longest: int = 0

    @property
    def seconds(self) -> float:
        return self.setup_s + self.play_s

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.play_s


def play(game: WowTcgGame, seed: int, run: Run):
    """Play one game and count it in `run`; the final state, for comparison
    (outside the timing)."""
    t0 = time.process_time()
    st = game.new_initial_state(seed)
    t1 = time.process_time()
    rng = random.Random(seed)
    steps = 0
    # The methods bound once: the loop itself should cost as little as it can.
    over, offered, apply, choice = st.is_terminal, st.legal_actions, st.apply_action, rng.choice
    while not over() and steps < STEP_CAP:
        apply(choice(offered()))
        steps += 1
    t2 = time.process_time()
    run.games += 1
    run.steps += steps
    run.turns += st.turn_number
    run.setup_s += t1 - t0
    run.play_s += t2 - t1
    run.longest = max(run.longest, steps)
    if not st.is_terminal():
        run.capped += 1
        return st
    winners = [p.index for p in st.players if p.result == "won"]
    if winners:
        run.wins[winners[0]] = run.wins.get(winners[0], 0) + 1
        loser = next(p for p in st.players if p.result == "lost")
        if loser.drew_from_empty:
            run.decked += 1
        else:
            run.hero_gone += 1
    else:
        run.draws += 1
    return st


def game_record(st) -> tuple:
    """What two engines must agree on for one seed: every line of the history
    (each action taken and each rules event), the final state, the results."""
    return tuple(st.history), str(st), tuple(st.returns())


def measure(games: int) -> Run:
    game = WowTcgGame(players=2)  # the pool is read once per process (default_pool), outside the timing
    run = Run()
    for seed in range(games):
        play(game, seed, run)
        if (seed + 1) % 50 == 0:
            _progress(f"{seed + 1} games, {run.games_per_s:.1f} games/s")
    return run


class BaselineError(Exception):
    """The baseline revision can't be read: named, for one line and exit 2."""


def baseline_game(rev: str) -> tuple[type, str]:
    """`WowTcgGame` of the engine at git revision `rev` and the revision's
    short name. Its `engine/wowtcg` is taken from git into a temporary
    package of its own name (the engine imports only itself, relatively), so
    both engines live in one process; the card pool comes with it."""
    root = Path(ENGINE_DIR).parent
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=root, capture_output=True,
                             text=True, check=True).stdout.strip()
        archive = subprocess.run(["git", "archive", "--format=tar", sha, "engine/wowtcg"], cwd=root,
                                 capture_output=True, check=True).stdout
    except OSError as e:
        raise BaselineError(f"--baseline {rev}: git can't be run ({e})") from None
    except subprocess.CalledProcessError as e:
        detail = (e.stderr.decode() if isinstance(e.stderr, bytes) else e.stderr or "").strip().splitlines()
        raise BaselineError(f"--baseline {rev}: not a revision with engine/wowtcg ({detail[-1] if detail else 'git failed'})") from None
    folder = Path(tempfile.mkdtemp(prefix="chainproof-baseline-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    package = f"engine_at_{sha}"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        # Only regular files and folders under `folder` (the filter is Python 3.11.4's).
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    (folder / "engine").rename(folder / package)
    (folder / package / "__init__.py").write_text("")
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"{package}.wowtcg").WowTcgGame, sha


@dataclass
class Comparison:
    rev: str
    baseline: Run
    current: Run
    differing: list[int]  # seeds whose games differ

    @property
    def speedup(self) -> float:
        return self.baseline.seconds / self.current.seconds


def compare(games: int, rev: str) -> Comparison:
    """Both engines on seeds 0 to games-1 in one process, by turns of
    `CHUNK` games: the baseline's chunk, then the current engine's."""
    Baseline, sha = baseline_game(rev)
    old, new = Baseline(players=2), WowTcgGame(players=2)
    before, after, differing = Run(), Run(), []
    for start in range(0, games, CHUNK):
        seeds = range(start, min(start + CHUNK, games))
        theirs = [game_record(play(old, seed, before)) for seed in seeds]
        ours = [game_record(play(new, seed, after)) for seed in seeds]
        differing += [seed for seed, a, b in zip(seeds, theirs, ours) if a != b]
        _progress(f"{seeds[-1] + 1} games: {sha} {before.games_per_s:.1f} games/s, now {after.games_per_s:.1f}")
    return Comparison(sha, before, after, differing)


def profile(games: int) -> tuple[list[tuple[str, int, float, float]], list[tuple[str, int, float, float]], float]:
    """The engine's functions with the most cumulative and the most own time,
    over `games` games under cProfile: (name, calls, own s, cumulative s)."""
    game = WowTcgGame(players=2)
    run = Run()
    profiler = cProfile.Profile(time.process_time)  # CPU seconds, like the run itself
    t0 = time.process_time()
    profiler.enable()
    for seed in range(games):
        play(game, seed, run)
    profiler.disable()
    total = time.process_time() - t0
    stats = pstats.Stats(profiler, stream=io.StringIO())
    rows = []
    for (filename, line, name), (_, calls, own, cumulative, _) in stats.stats.items():
        if filename.startswith(ENGINE_DIR):
            where = f"{os.path.relpath(filename, Path(ENGINE_DIR).parent)}:{line}"
            rows.append((f"`{name}` ({where})", calls, own, cumulative))
    by_cumulative = sorted(rows, key=lambda r: -r[3])[:TOP]
    by_own = sorted(rows, key=lambda r: -r[2])[:TOP]
    return by_cumulative, by_own, total


#: The parts of a run that `shares` times apart from the kinds of step.
SETTING_UP = "setting up (random decks, shuffles)"
OFFERING = "offering the actions (`legal_actions()`)"
DRIVER = "the playout loop itself (`rng.choice`) and this measuring (the clock, `step_kind`)"


def step_kind(st, action) -> str:
    """What applying `action` to `st` sets off, read before it is applied: a
    decision's answer, a priority action other than a pass, a pass that only
    hands priority to the next player (409.1), or the last pass of a round:
    the top link resolves (409.4a), or the window closes and play moves on to
    what follows it (409.4b: the next step, the protect point, the combat's
    conclusion, the next turn)."""
    if st.decision is not None:
        return "answering a decision (mulligan, armor, protector, target, ...)"
    if action.kind != "pass":
        return "a priority action other than a pass (play, resource, propose, strike, ...)"
    if st.passes + 1 < st.in_game_count():
        return "a pass that hands priority on (409.1)"
    if st.chain:
        return "the last pass of a round: the top link resolves (409.4a)"
    return f"the last pass of a round: the {st.step.replace('_', ' ')} closes (409.4b)"


def _clock_cost(clock: Callable[[], float], reads: int = 20_000) -> float:
    """What one interval between two readings of `clock` holds of the
    readings themselves: subtracted from every interval timed."""
    spent = 0.0
    for _ in range(reads):
        t0 = clock()
        spent += clock() - t0
    return spent / reads


def shares(games: int) -> tuple[dict[str, tuple[int, float]], float]:
    """CPU seconds of seeds 0 to games-1 by kind of step (`step_kind`), with
    offering the actions, setting up and the loop itself apart: kind ->
    (times, seconds), and the seconds of the whole run. Every step is timed
    on its own; the clock's own cost is taken out of each interval and
    counted with the loop."""
    game = WowTcgGame(players=2)
    clock = time.process_time
    cost = _clock_cost(clock)
    spent: dict[str, list] = {}

    def count(kind: str, seconds: float) -> None:
        entry = spent.setdefault(kind, [0, 0.0])
        entry[0] += 1
        entry[1] += max(seconds - cost, 0.0)

    started = clock()
    for seed in range(games):
        t0 = clock()
        st = game.new_initial_state(seed)
        count(SETTING_UP, clock() - t0)
        rng = random.Random(seed)
        steps = 0
        while not st.is_terminal() and steps < STEP_CAP:
            t0 = clock()
            actions = st.legal_actions()
            t1 = clock()
            action = rng.choice(actions)
            kind = step_kind(st, action)
            t2 = clock()
            st.apply_action(action)
            t3 = clock()
            count(OFFERING, t1 - t0)
            count(kind, t3 - t2)
            steps += 1
    total = clock() - started
    spent[DRIVER] = [spent[OFFERING][0], total - sum(seconds for _, seconds in spent.values())]
    return {kind: (n, seconds) for kind, (n, seconds) in spent.items()}, total


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def render(run: Run, by_cumulative, by_own, profiled_s: float, profile_games: int, against: Comparison | None = None,
           split: tuple[dict[str, tuple[int, float]], float] | None = None) -> str:
    met = "met" if run.games_per_s >= TARGET_GAMES_PER_S else "not met"
    p1, p2 = run.wins.get(0, 0), run.wins.get(1, 0)
    lines = [
        BEGIN,
        "## Reference engine: random play",
        "",
        "Written by `python -m benchmarks.engine` (it replaces only this section; "
        "`python -m benchmarks.run` rewrites the file without it, so run this one after).",
        "",
        f"- Date: {datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Machine: {platform.platform()}; {_cpu_model()}, {os.cpu_count()} logical CPUs; "
        f"{platform.python_implementation()} {platform.python_version()}",
        f"- chainproof commit: {_commit()}",
        "",
        f"{run.games} full 2-player games, seeds 0-{run.games - 1}: `WowTcgGame(players=2).new_initial_state(seed)` "
        "(random heroes, random legal 40-card sealed decks from the pool), then "
        "`random.Random(seed).choice(legal_actions())` until `is_terminal()`, one process, one core. "
        "Seconds are the process's CPU seconds (`time.process_time`), so that other work on the machine does not count. "
        "*Games/s* counts the whole game, setting up included; *steps/s* counts the playout loop alone "
        "(one step is one `apply_action`, a priority action or a decision). "
        f"Setting up took {run.setup_s:.2f} s of the {run.seconds:.2f} s.",
        "",
        "| Target | Measured | Result |",
        "|---|---|---|",
        f"| {TARGET_GAMES_PER_S:.0f} full 2-player random games per second | {run.games_per_s:,.1f} games/s | {met} |",
        "",
        "| Games | Seconds | Games/s | Steps | Steps/s | Mean steps/game | Longest | Mean turns/game "
        "| P1 won | P2 won | Draws | Step cap hit |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {run.games} | {run.seconds:.2f} | {run.games_per_s:,.1f} | {run.steps:,} | {run.steps_per_s:,.0f} "
        f"| {run.steps / run.games:,.1f} | {run.longest:,} | {run.turns / run.games:.1f} "
        f"| {p1} | {p2} | {run.draws} | {run.capped} |",
        "",
        f"How the won games ended: the loser drew from an empty deck (409.6c) in {run.decked}, "
        f"his hero left play (102.1a) in {run.hero_gone}.",
        "",
        *_comparison_lines(against),
        *_share_lines(split, profile_games),
        f"### Profile ({profile_games} games under cProfile, {profiled_s:.2f} s)",
        "",
        "A pointer for optimisation: the engine's functions (`engine/`) with the most cumulative time "
        "(the function and everything it calls) and the most own time. Seconds are under the profiler, "
        "which slows the run.",
        "",
        "| By cumulative time | Calls | Own s | Cumulative s |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {name} | {calls:,} | {own:.2f} | {cum:.2f} |" for name, calls, own, cum in by_cumulative]
    lines += ["", "| By own time | Calls | Own s | Cumulative s |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {calls:,} | {own:.2f} | {cum:.2f} |" for name, calls, own, cum in by_own]
    lines.append(END)
    return "\n".join(lines) + "\n"


def _share_lines(split: tuple[dict[str, tuple[int, float]], float] | None, games: int) -> list[str]:
    if split is None:
        return []
    spent, total = split
    rows = sorted(spent.items(), key=lambda item: -item[1][1])
    return [
        f"### Where the time goes ({games} games, seeds 0-{games - 1}, each step timed, {total:.2f} s)",
        "",
        "CPU seconds by kind of step, the kind read before the step is applied (`step_kind`); the clock's own "
        "cost is taken out of every interval and counted with the loop, with the reading of each step's kind. "
        "A step is one `apply_action`; offering the actions is counted once a step.",
        "",
        "| Kind of step | Times | Seconds | Share | µs each |",
        "|---|---:|---:|---:|---:|",
        *(f"| {kind} | {n:,} | {seconds:.2f} | {seconds / total:.1%} | {seconds / n * 1e6:,.1f} |" for kind, (n, seconds) in rows if n),
        "",
    ]


def _comparison_lines(against: Comparison | None) -> list[str]:
    if against is None:
        return []
    b, c = against.baseline, against.current
    same = ("yes: every seed plays the same game (history, final state, results)" if not against.differing
            else f"**no**: {len(against.differing)} seeds play other games (first: {', '.join(map(str, against.differing[:10]))})")
    return [
        f"### Against commit {against.rev} (`--baseline`)",
        "",
        f"The engine of commit {against.rev} and this one, in one process, seeds 0-{c.games - 1}, "
        f"taking turns by chunks of {CHUNK} games (CPU seconds of the process).",
        "",
        "| Engine | Seconds | Games/s | Steps/s |",
        "|---|---:|---:|---:|",
        f"| commit {against.rev} | {b.seconds:.2f} | {b.games_per_s:,.1f} | {b.steps_per_s:,.0f} |",
        f"| this one | {c.seconds:.2f} | {c.games_per_s:,.1f} | {c.steps_per_s:,.0f} |",
        "",
        f"Speed-up {against.speedup:.2f}x. The same games: {same}.",
        "",
    ]


def update(path: Path, section: str, begin: str = BEGIN, end: str = END) -> None:
    """Replace the section between the markers, or append it at the end."""
    text = path.read_text() if path.exists() else ""
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1].lstrip("\n")
        text = head + section + (("\n" + tail) if tail else "")
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section
    path.write_text(text)


def timed(run: Callable[[], Any], clock: Callable[[], float] = time.process_time) -> tuple[Any, float]:
    """``run()`` and the seconds it took: CPU seconds of this process unless
    another clock is given (the wall clock, for work done by other processes)."""
    started = clock()
    value = run()
    return value, clock() - started


def targets_table(title: str, rows: list[tuple[str, str, bool]]) -> list[str]:
    """The head of a section (title, when and where measured) and its table of
    targets: each row the target, what was measured, and whether it was met."""
    return [
        f"## {title}",
        "",
        f"Measured {datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} with {os.cpu_count()} CPUs.",
        "",
        "| target | measured | |",
        "| --- | --- | --- |",
        *(f"| {target} | {measured} | {'met' if ok else 'not met'} |" for target, measured, ok in rows),
    ]


def write_section(prog: str, doc: str, measure: Callable[[], dict], render: Callable[[dict], str], begin: str, end: str, argv: list[str] | None = None) -> None:
    """A benchmark module's command: measure once, write its section of RESULTS.md (or ``--output``), print it."""
    parser = argparse.ArgumentParser(prog=f"python -m {prog}", description=doc.splitlines()[0])
    parser.add_argument("--output", type=Path, default=Path(__file__).with_name("RESULTS.md"), help="the file whose section is updated")
    args = parser.parse_args(argv)
    section = render(measure())
    update(args.output, section, begin, end)
    print(section)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games to time (default {GAMES})")
    parser.add_argument("--profile-games", type=int, default=PROFILE_GAMES, help=f"games to profile (default {PROFILE_GAMES})")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).with_name("RESULTS.md"), help="the file whose section is updated (default: benchmarks/RESULTS.md)"
    )
    parser.add_argument("--baseline", metavar="REV",
                        help="also play the same seeds with the WoW engine of this git revision, in the same run, "
                             "and compare speed and games")
    args = parser.parse_args(argv)

    against = None
    if args.baseline is not None:
        try:
            against = compare(args.games, args.baseline)
        except BaselineError as e:
            print(f"error: {e}", file=sys.stderr)
            raise SystemExit(2) from None
        run = against.current
    else:
        run = measure(args.games)
    by_cumulative, by_own, profiled_s = profile(args.profile_games)
    split = shares(args.profile_games)
    update(args.output, render(run, by_cumulative, by_own, profiled_s, args.profile_games, against, split))

    met = "met" if run.games_per_s >= TARGET_GAMES_PER_S else "not met"
    p1, p2 = run.wins.get(0, 0), run.wins.get(1, 0)
    print(f"{'games':>6} {'seconds':>8} {'games/s':>8} {'steps':>8} {'steps/s':>8} {'steps/game':>10} {'turns/game':>10} "
          f"{'P1 won':>6} {'P2 won':>6} {'draws':>5} {'capped':>6}")
    print(f"{run.games:>6} {run.seconds:>8.2f} {run.games_per_s:>8.1f} {run.steps:>8} {run.steps_per_s:>8.0f} "
          f"{run.steps / run.games:>10.1f} {run.turns / run.games:>10.1f} {p1:>6} {p2:>6} {run.draws:>5} {run.capped:>6}")
    print(f"target {TARGET_GAMES_PER_S:.0f} games/s: {met}")
    if against is not None:
        print(f"commit {against.rev}: {against.baseline.games_per_s:.1f} games/s; speed-up {against.speedup:.2f}x; "
              f"games that differ: {len(against.differing)}")
    print(f"profile ({args.profile_games} games, {profiled_s:.2f} s), top {TOP} engine functions by cumulative time:")
    for name, calls, own, cum in by_cumulative:
        print(f"  {cum:8.2f} s cumulative {own:8.2f} s own {calls:>10,} calls  {name.replace('`', '')}")


if __name__ == "__main__":
    main()
