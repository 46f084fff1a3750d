"""Time ``chainproof lint`` and each rule variant's diff; write the section of RESULTS.md.

    python -m benchmarks.lint

Targets: a whole lint of the built-in rulebooks at default bounds in under
120 s on two cores (it runs the portfolio on the contradiction queries twice,
the seed's and one variant's, and one diff per variant); each variant's diff
against the seed in under 5 s; explicit search at default bounds no more than
a quarter slower than before the rulings (commit a5b22c6, measured idle on the
same machine in the same session, best of three: 6.3 s; recorded here, not
re-run).  Lint and the diffs run once, the exploration three times (the
fastest kept), in this process; timings vary by a third on a shared machine.
"""

from __future__ import annotations

import time

from benchmarks.engine import targets_table, write_section
from chainproof import linting
from chainproof.games import get_game
from model import wowtcg
from checkers import explicit, portfolio
from model.variants import SEED

BEGIN, END = "<!-- benchmarks.lint: begin -->", "<!-- benchmarks.lint: end -->"
LINT_TARGET_S = 120.0
DIFF_TARGET_S = 5.0
#: Explicit search of the default instance before the rulings, seconds (see the docstring).
BEFORE_RULINGS_S = 6.3


def measure() -> dict:
    game = get_game("wowtcg")
    started = time.perf_counter()
    found = linting.run([game], {}, portfolio.Budget(), {}, 2_000_000, lambda *a: None)
    lint_s = time.perf_counter() - started
    diffs = []
    for name in game.variants:
        t = time.perf_counter()
        c = linting.diff_variants(game, SEED, name, {}, 2_000_000)
        diffs.append((name, c.divergence.length if c.divergence else None, c.pairs, time.perf_counter() - t))
    machine = wowtcg.build()
    explore_s = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        exploration = explicit.explore(machine)
        explore_s = min(explore_s, time.perf_counter() - t)
    return {"lint_s": lint_s, "findings": len(found.findings), "diffs": diffs, "explore_s": explore_s, "states": exploration.states}


def render(r: dict) -> str:
    slowest = max(s for *_, s in r["diffs"])
    rows = [
        (f"`chainproof lint` at default bounds under {LINT_TARGET_S:.0f} s",
         f"{r['lint_s']:.1f} s ({r['findings']} findings)", r["lint_s"] < LINT_TARGET_S),
        (f"each variant's diff against the seed under {DIFF_TARGET_S:.0f} s", f"slowest {slowest:.2f} s",
         slowest < DIFF_TARGET_S),
        (f"explicit search at default bounds at most 25% slower than before the rulings ({BEFORE_RULINGS_S} s)",
         f"{r['explore_s']:.1f} s for {r['states']:,} states", r["explore_s"] <= 1.25 * BEFORE_RULINGS_S),
    ]
    lines = [
        BEGIN,
        *targets_table("Lint and rules diff (`python -m benchmarks.lint`)", rows),
        "",
        "| variant | parts after (steps) | pairs of states | seconds |",
        "| --- | --- | --- | --- |",
        *(f"| `{name}` | {steps} | {pairs:,} | {s:.2f} |" for name, steps, pairs, s in r["diffs"]),
        END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.lint", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
