"""Time the Riftbound model, its damage-assignment queries and the agreement
harness; write the section of RESULTS.md.

    python -m benchmarks.riftbound

Targets (two cores): explicit search of the default instance (the
vectorized search that verify and lint run) at 3,000 states a second or
more; the existence proof of a legal assignment at 5 units and might 6 in
under 10 s, and the search for exclusive requirements up to 5 units in under
30 s; `chainproof verify --game riftbound` in under 90 s; the agreement
harness at 20 or more engine steps a second at two players.  Each runs once;
all but verify in this process, timed in CPU seconds, so that other work on
the machine does not count; verify by the wall clock, since its workers are
other processes.
"""

from __future__ import annotations

import time

from agreement.harness import conform
from agreement.riftbound.builtin import BuiltinRiftboundAdapter
from agreement.riftbound.checker import RiftboundChecker
from benchmarks.engine import targets_table, timed, write_section
from chainproof.games import get_game
from model import riftbound
from checkers import portfolio, vector
from model.riftbound import damage

BEGIN, END = "<!-- benchmarks.riftbound: begin -->", "<!-- benchmarks.riftbound: end -->"
STATES_PER_S = 3_000
EXISTENCE_S, EXCLUSIVE_S, VERIFY_S = 10.0, 30.0, 90.0
STEPS_PER_S = 20


def measure() -> dict:
    exploration, explore_s = timed(lambda: vector.explore(riftbound.build()))
    existence, existence_s = timed(lambda: damage.prove_assignment_exists(5, 6))
    exclusions, exclusive_s = timed(lambda: damage.exclusive_requirements(5))
    game = get_game("riftbound")
    found, verify_s = timed(
        lambda: portfolio.verify(game.machine({}), game.any_length_machine({}), game.properties, game.budget(portfolio.Budget()), lambda *a: None),
        time.perf_counter,
    )
    report, conform_s = timed(lambda: conform(BuiltinRiftboundAdapter(), RiftboundChecker(), examples=20, players=(2,), shrink=False))
    return {
        "states": exploration.states,
        "explore_s": explore_s,
        "existence": existence.verdict,
        "existence_s": existence_s,
        "exclusive": len(exclusions),
        "minimal": sum(x.minimal for x in exclusions),
        "exclusive_s": exclusive_s,
        "proved": sum(r.verdict == "proved" for r in found.results),
        "results": len(found.results),
        "verify_s": verify_s,
        "steps": report.steps,
        "conform_s": conform_s,
    }


def render(r: dict) -> str:
    rate = r["states"] / r["explore_s"]
    steps = r["steps"] / r["conform_s"]
    rows = [
        (f"explicit search at default bounds, at least {STATES_PER_S:,} states/s",
         f"{r['states']:,} states in {r['explore_s']:.2f} CPU s ({rate:,.0f}/s)", rate >= STATES_PER_S),
        (f"a legal assignment exists (5 units, might 6) in under {EXISTENCE_S:.0f} s",
         f"{r['existence']} in {r['existence_s']:.1f} CPU s", r["existence_s"] < EXISTENCE_S),
        (f"exclusive requirements up to 5 units in under {EXCLUSIVE_S:.0f} s",
         f"{r['exclusive']} patterns, {r['minimal']} minimal, in {r['exclusive_s']:.1f} CPU s", r["exclusive_s"] < EXCLUSIVE_S),
        (f"`verify --game riftbound` portfolio in under {VERIFY_S:.0f} s",
         f"{r['proved']} of {r['results']} proved in {r['verify_s']:.1f} s", r["verify_s"] < VERIFY_S),
        (f"agreement harness, 20 games at two players, at least {STEPS_PER_S} steps/s",
         f"{r['steps']:,} steps in {r['conform_s']:.1f} CPU s ({steps:,.0f}/s)", steps >= STEPS_PER_S),
    ]
    lines = [BEGIN, *targets_table("Riftbound (`python -m benchmarks.riftbound`)", rows), END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.riftbound", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
