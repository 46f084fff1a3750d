"""Time ``chainproof lint`` of each game, where WoW's time goes, and each rule variant's diff; write the section of RESULTS.md.

    python -m benchmarks.lint

Targets: each game's lint at default bounds in under 60 s of process CPU
(issue 20; the portfolio's worker processes counted); each variant's diff
against the seed in under 5 s; explicit search at default bounds no more
than a quarter slower than before the rulings (commit a5b22c6, measured idle
on the same machine in the same session, best of three: 6.3 s; recorded
here, not re-run).

Process CPU, not wall time: on a shared machine the wall time of one lint
varies several-fold with the load, its CPU time by a few per cent.  Each
game is linted once, in this process (its forked workers' CPU added as they
end); WoW's lint is split into its phases by timing the functions that make
them, and the work lint does on each board one change away (``Boards``:
searching it, the rules diffs of the clashes found, and the Z3 queries that
decide which boards to search) is summed by kind.  The exploration runs
three times, the fastest kept.
"""

from __future__ import annotations

import resource
import time
from contextlib import contextmanager
from typing import Any, Iterator

from benchmarks.engine import targets_table, write_section
from chainproof import linting, source_lint
from chainproof.games import get_game
from checkers import explicit, portfolio
from model import wowtcg
from model.variants import SEED

BEGIN, END = "<!-- benchmarks.lint: begin -->", "<!-- benchmarks.lint: end -->"
LINT_TARGET_S = 60.0
DIFF_TARGET_S = 5.0
#: Explicit search of the default instance before the rulings, seconds (see the docstring).
BEFORE_RULINGS_S = 6.3
GAMES = ("wowtcg", "riftbound", "hota")

#: WoW's lint by phase: (label, module, function); a later phase runs inside an
#: earlier one (the boards inside the source comparison), which the table says.
PHASES = (
    ("the portfolio on the contradiction queries, dead edges, unending games", linting, "lint_game"),
    ("hand-written variants against the seed", linting, "lint_variants"),
    ("every question asked of every source (the default board, then the boards one change away)", linting, "lint_readings"),
    ("of which: dead rulings woken one change away", linting, "wake_dead_rulings"),
    ("of which: quiet clashes looked for one change away", linting, "wake_quiet_clashes"),
)
#: The work on the boards one change away, by kind (the rules diffs: the default board's too).
BOARD_WORK = (
    ("searching a board (`Boards.searched`: each board searched once, then kept)", linting.Boards, "searched"),
    ("the rules diff of each source clash found, on the default board or one change away", source_lint, "compare"),
    ("Z3: can a dead ruling apply on the board (`board_rules_out`)", linting, "board_rules_out"),
    ("Z3: can a quiet clash hold on the board (`clash_possible`)", linting, "clash_possible"),
)


def cpu() -> float:
    """Process CPU so far, user and system, this process's and its ended children's."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@contextmanager
def timed(spots: tuple[tuple[str, Any, str], ...]) -> Iterator[dict[str, list[float]]]:
    """Each function of ``spots`` wrapped to add its CPU time and count its
    calls (outermost calls only), put back as it was on leaving."""
    spent: dict[str, list[float]] = {label: [0.0, 0] for label, _, _ in spots}
    saved = []
    for label, owner, name in spots:
        original = getattr(owner, name)
        saved.append((owner, name, original))

        # Bound as defaults: one wrapper per function, with its own count of calls in progress.
        def wrapper(*args: Any, _f: Any = original, _label: str = label, _depth: list[int] = [0], **kwargs: Any) -> Any:
            _depth[0] += 1
            started = cpu()
            try:
                return _f(*args, **kwargs)
            finally:
                _depth[0] -= 1
                if not _depth[0]:
                    spent[_label][0] += cpu() - started
                    spent[_label][1] += 1

        setattr(owner, name, wrapper)
    try:
        yield spent
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def lint_cpu(name: str) -> tuple[float, int]:
    """One game's lint at default bounds: CPU seconds and findings."""
    started = cpu()
    found = linting.run([get_game(name)], {}, portfolio.Budget(), {}, 2_000_000, lambda *a: None)
    return cpu() - started, len(found.findings)


def measure() -> dict:
    games = {}
    with timed(PHASES + BOARD_WORK) as spent:
        games["wowtcg"] = lint_cpu("wowtcg")
    for name in GAMES[1:]:
        games[name] = lint_cpu(name)
    game = get_game("wowtcg")
    diffs = []
    for variant in game.variants:
        t = time.process_time()
        c = linting.diff_variants(game, SEED, variant, {}, 2_000_000)
        diffs.append((variant, c.divergence.length if c.divergence else None, c.pairs, time.process_time() - t))
    machine = wowtcg.build()
    explore_s = float("inf")
    for _ in range(3):
        t = time.process_time()
        exploration = explicit.explore(machine)
        explore_s = min(explore_s, time.process_time() - t)
    boards = len(game.nearby_boards(game.resolve({}))) if game.nearby_boards else 0
    return {"games": games, "spent": spent, "boards": boards, "diffs": diffs, "explore_s": explore_s, "states": exploration.states}


def render(r: dict) -> str:
    slowest = max(s for *_, s in r["diffs"])
    rows = [
        *((f"`chainproof lint --game {name}` at default bounds under {LINT_TARGET_S:.0f} CPU s",
           f"{s:.1f} CPU s ({n} findings)", s < LINT_TARGET_S) for name, (s, n) in r["games"].items()),
        (f"each variant's diff against the seed under {DIFF_TARGET_S:.0f} s", f"slowest {slowest:.2f} CPU s",
         slowest < DIFF_TARGET_S),
        (f"explicit search at default bounds at most 25% slower than before the rulings ({BEFORE_RULINGS_S} s)",
         f"{r['explore_s']:.1f} CPU s for {r['states']:,} states", r["explore_s"] <= 1.25 * BEFORE_RULINGS_S),
    ]
    total = r["games"]["wowtcg"][0]
    spent = r["spent"]
    lines = [
        BEGIN,
        *targets_table("Lint and rules diff (`python -m benchmarks.lint`)", rows),
        "",
        f"Where WoW's lint spends its {total:.1f} CPU s ({r['boards']} boards one change away):",
        "",
        "| phase | CPU s | share |",
        "| --- | --- | --- |",
        *(f"| {label} | {spent[label][0]:.1f} | {spent[label][0] / total:.0%} |" for label, _, _ in PHASES),
        "",
        "| work on the boards one change away | calls | CPU s |",
        "| --- | --- | --- |",
        *(f"| {label} | {spent[label][1]:,} | {spent[label][0]:.1f} |" for label, _, _ in BOARD_WORK),
        "",
        "| variant | parts after (steps) | pairs of states | CPU s |",
        "| --- | --- | --- | --- |",
        *(f"| `{name}` | {steps} | {pairs:,} | {s:.2f} |" for name, steps, pairs, s in r["diffs"]),
        END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.lint", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
