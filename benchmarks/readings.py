"""Questions, rulings and sources per game, what comparing the sources finds,
how long it takes, and the share of the documented disagreements the tool
reproduces; writes the section of RESULTS.md.

    python -m benchmarks.readings

Target: the source comparison of each game (``chainproof/source_lint.py``, and
setup questions over their domains; rules diffs included) under 60 s at default
bounds on two cores.  Each game is measured once, in this process; timings vary
by a third on a shared machine.
"""

from __future__ import annotations

import time
from collections import Counter

from benchmarks.engine import targets_table, write_section
from chainproof import linting, text_lint
from chainproof.games import GAME_NAMES, get_game
from checkers import portfolio
from model.setup import setup_questions

BEGIN, END = "<!-- benchmarks.readings: begin -->", "<!-- benchmarks.readings: end -->"
TARGET_S = 60.0


def measure() -> dict:
    out = {}
    for name in GAME_NAMES:
        game = get_game(name)
        book = game.machine({}).rulings
        per_source: Counter[str] = Counter()
        rulings = 0
        for q in book.declared.values() if book else ():
            for r in q.rulings:
                rulings += 1
                per_source.update(list(r.texts) or ["assumed"])
        lint = linting.Lint()
        started = time.perf_counter()
        linting.lint_readings(game, {}, portfolio.Budget(), 2_000_000, lint)
        seconds = time.perf_counter() - started
        keys = [f.key for f in lint.findings]
        # The disagreements written up on the game's findings page, each with
        # the findings that reproduce it or why none does.
        documented = linting.load_known(linting.default_known_file(name)).documented
        # Found by this comparison at default bounds, or by lint's other
        # queries (a hand-written variant, the conflict without 600.3's
        # clause, a dead rule, the damage rules' exclusions, the checks that
        # read the rule texts themselves), which the lint benchmark times.
        by_sources = [d.id for d in documented if d.shown_in(keys)]
        shown = [
            d.id for d in documented
            if d.id in by_sources
            or any(p.startswith("variant:") and p.removeprefix("variant:") in game.variants for p in d.shown_by)
            or any(p.startswith(("conflict:", "dead-rule:", "exclusion:", *(f"{k}:" for k in text_lint.KINDS))) for p in d.shown_by)
        ]
        out[name] = {
            "questions": len(book.declared) if book else 0,
            # Of those, asked of every setup of a domain (deck building, the mulligan), not of states.
            "setup": len(setup_questions(book)),
            "rulings": rulings,
            "per_source": dict(per_source),
            "kinds": dict(Counter(f.kind for f in lint.findings)),
            "seconds": seconds,
            "documented": len(documented),
            "shown": shown,
            "by_sources": by_sources,
        }
    return out


def render(m: dict) -> str:
    rows = [(f"source comparison of {g} under {TARGET_S:.0f} s", f"{v['seconds']:.1f} s", v["seconds"] < TARGET_S) for g, v in m.items()]
    lines = [*targets_table("Questions, sources and what comparing them finds (`python -m benchmarks.readings`)", rows), ""]
    lines += ["| game | questions (of setups) | rulings (versions) | rulings per source | findings by kind | documented disagreements reproduced | of those, by comparing sources |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for g, v in m.items():
        sources = ", ".join(f"{s} {n}" for s, n in sorted(v["per_source"].items()))
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(v["kinds"].items())) or "none"
        lines.append(
            f"| {g} | {v['questions']} ({v['setup']}) | {v['rulings']} | {sources} | {kinds} | {len(v['shown'])} of {v['documented']} "
            f"({' '.join(v['shown'])}) | {len(v['by_sources'])} ({' '.join(v['by_sources'])}) |"
        )
    lines += ["", "A disagreement counts as reproduced when a lint finding (a source reading's, or a hand-written variant's) shows it; "
              "the others' reasons are on each game's findings page (`docs/findings-GAME.md`, from the known-findings file's `documented` entries)."]
    return "\n".join([BEGIN, *lines, END])


if __name__ == "__main__":
    write_section("benchmarks.readings", __doc__, measure, render, BEGIN, END)
