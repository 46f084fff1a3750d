"""Time the Heroes of Ancients model, its loop checks and the agreement
harness; write the section of RESULTS.md.

    python -m benchmarks.hota

Targets (two cores): explicit search of the default table (the vectorized
search that verify and lint run) at 3,000 states a second or more; the Z3
ranking proof that mandatory steps end (104.4b) in under 5 s; the
state-graph loop analysis of the default table in under 30 s; `chainproof
verify --game hota` (the bounded table and the any-length model, on the
portfolio's two workers) in under 30 s; the agreement harness at 20 or more
engine steps a second. Each runs once; all but verify in this process, timed
in CPU seconds, so that other work on the machine does not count; verify by
the wall clock, since its workers are other processes.
"""

from __future__ import annotations

import time

from agreement.harness import conform
from agreement.hota.builtin import BuiltinHotaAdapter
from agreement.hota.checker import HotaChecker
from benchmarks.engine import targets_table, timed, write_section
from chainproof.games import get_game
from checkers import portfolio, vector
from model.hota import build
from checkers.hota_loops import loop_report, prove_mandatory_steps_end
from model.hota.table import default_table

BEGIN, END = "<!-- benchmarks.hota: begin -->", "<!-- benchmarks.hota: end -->"
STATES_PER_S = 3_000
RANK_S, LOOPS_S, VERIFY_S = 5.0, 30.0, 30.0
STEPS_PER_S = 20


def measure() -> dict:
    exploration, explore_s = timed(lambda: vector.explore(build()))
    proof, rank_s = timed(lambda: prove_mandatory_steps_end(build()))
    loops, loops_s = timed(lambda: loop_report(default_table(7)))
    game = get_game("hota")
    found, verify_s = timed(
        lambda: portfolio.verify(game.machine({}), game.any_length_machine({}), game.properties,
                                 game.budget(portfolio.Budget()), lambda *a: None),
        time.perf_counter,
    )
    report, conform_s = timed(lambda: conform(BuiltinHotaAdapter(), HotaChecker(), examples=20, shrink=False))
    return {
        "states": exploration.states,
        "explore_s": explore_s,
        "rank": proof.verdict,
        "rank_s": rank_s,
        "loops": len(loops.raw_loops),
        "loops_ok": loops.holds,
        "loops_s": loops_s,
        "proved": sum(r.verdict == "proved" and r.unbounded for r in found.results),
        "results": len(found.results),
        "verify_s": verify_s,
        "steps": report.steps,
        "conform_ok": report.ok,
        "conform_s": conform_s,
    }


def render(r: dict) -> str:
    rate = r["states"] / r["explore_s"]
    steps = r["steps"] / r["conform_s"]
    rows = [
        (f"explicit search of the default table, at least {STATES_PER_S:,} states/s",
         f"{r['states']:,} states in {r['explore_s']:.2f} CPU s ({rate:,.0f}/s)", rate >= STATES_PER_S),
        (f"Z3: every mandatory step lowers the ranking, under {RANK_S:.0f} s",
         f"{r['rank']} in {r['rank_s']:.1f} CPU s", r["rank_s"] < RANK_S),
        (f"state-graph loop analysis of the default table, under {LOOPS_S:.0f} s",
         f"{r['loops']} loops without 104.4b, each a draw with it: {r['loops_ok']}, in {r['loops_s']:.1f} CPU s",
         r["loops_s"] < LOOPS_S),
        (f"`verify --game hota` portfolio in under {VERIFY_S:.0f} s",
         f"{r['proved']} of {r['results']} proved for decks of any size, in {r['verify_s']:.1f} s", r["verify_s"] < VERIFY_S),
        (f"agreement harness, 20 games, at least {STEPS_PER_S} steps/s",
         f"{r['steps']:,} steps in {r['conform_s']:.1f} CPU s ({steps:,.0f}/s), agreeing: {r['conform_ok']}",
         steps >= STEPS_PER_S),
    ]
    lines = [BEGIN, *targets_table("Heroes of Ancients (`python -m benchmarks.hota`)", rows), END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.hota", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
