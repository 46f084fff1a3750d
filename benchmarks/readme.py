"""The README's figures, from the commands that give them: rewrites each marked
span of README.md instead of leaving the numbers to be typed.

    python -m benchmarks.readme              # verify (twice: JSON, then the WoW console) and scenarios, a few minutes
    python -m benchmarks.readme --output F   # rewrite F's spans instead

A span is ``<!-- figures:NAME -->...<!-- /figures:NAME -->``, inline or over
lines; ``SPANS`` names every one and how it is written.  Counts come from
``chainproof verify --json`` (its own default run) and ``chainproof scenarios
--json`` at default bounds, each run in a process of its own as a user runs
it, save the states of WoW's instance at the search defaults, which the other
commands build at (one search here); the seconds are that run's, on this
machine, so they vary with its load.
``tests/test_readme_figures.py`` holds the README's counts to the rules
registry, the property catalogues and the shipped scenario files.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
#: The WoW rows the README's console example keeps, one of each method.
CONSOLE_ROWS = ("priority_exclusive", "first_player_skips_first_draw", "every_combat_concludes", "deadlock")
SPAN = re.compile(r"<!-- figures:(?P<name>[a-z-]+) -->(?P<text>.*?)<!-- /figures:(?P=name) -->", re.S)


def run_json(*args: str) -> dict:
    """One ``chainproof`` command with ``--json``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", "from chainproof.cli import main; main()", *args, "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"chainproof {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def run_console(*args: str) -> str:
    """One ``chainproof`` command's plain-text output, as a pipe shows it."""
    done = subprocess.run(
        [sys.executable, "-c", "from chainproof.cli import main; main()", *args],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    return done.stdout


def per_game(verify: dict) -> dict[str, dict]:
    """Per game: results, how many are proved, the safety properties and those proved."""
    out: dict[str, dict] = {}
    for r in verify["results"]:
        g = out.setdefault(r["game"], {"results": 0, "proved": 0, "safety": 0, "safety_proved": 0, "methods": Counter()})
        g["results"] += 1
        g["proved"] += r["verdict"] == "proved"
        if r["kind"] != "liveness":
            g["safety"] += 1
            if r["verdict"] == "proved":
                g["safety_proved"] += 1
                g["methods"][r["method"].split(" ")[0]] += 1
    for name, g in out.items():
        g["seconds"] = verify["summary"]["games"][name]["seconds"]
    return out


def all_or_count(n: int, of: int) -> str:
    return f"all {of}" if n == of else f"{n} of its {of}"


def verify_summary(verify: dict, _scenarios: dict) -> str:
    g = per_game(verify)
    wow, rift, hota = g["wowtcg"], g["riftbound"], g["hota"]
    return (
        f"For WoW the default run checks {wow['results']} properties\n"
        "with a portfolio of methods (explicit search, k-induction, Spacer, BMC) and\n"
        f"proves {all_or_count(wow['safety_proved'], wow['safety'])} safety properties for games of any length, "
        f"in about {wow['seconds']:.0f} s on two\n"
        f"cores; with Riftbound's {rift['results']} ({rift['proved']} proved) and Heroes of Ancients' {hota['results']} "
        f"({hota['proved']} proved\nfor decks of any size) the whole run takes about "
        f"{verify['summary']['seconds']:.0f} s."
    )


def portfolio_methods(verify: dict, _scenarios: dict) -> str:
    wow = per_game(verify)["wowtcg"]
    by = ", ".join(f"{n} by {method_name(m)}" for m, n in wow["methods"].most_common())
    return (
        f"At default bounds {all_or_count(wow['safety_proved'], wow['safety'])} safety properties are\n"
        f"`proved` in about {wow['seconds']:.0f} s on two cores: {by}."
    )


def method_name(method: str) -> str:
    return {"spacer": "Spacer", "explicit": "exhaustive search"}.get(method, method)


def verify_console(_verify: dict, _scenarios: dict) -> str:
    """``chainproof verify --game wowtcg`` as a pipe prints it, a row of each method kept."""
    lines = run_console("verify", "--game", "wowtcg").rstrip("\n").splitlines()
    header, rows = lines[0], lines[1:]
    kept = [header]
    for row in rows:
        if row.split()[1:2] and row.split()[1] in CONSOLE_ROWS:
            kept += [row, "..."]
    tail = [line for line in rows if line and not line.startswith("wowtcg  ")]
    return "\n".join(["", "```console", "$ chainproof verify --game wowtcg", *kept[:-1], "", *tail, "```", ""])


def scenario_counts(_verify: dict, scenarios: dict) -> str:
    total, followed = Counter(), Counter()
    for r in scenarios["results"]:
        total[r["game"]] += 1
        followed[r["game"]] += r["model"].startswith("agrees")
    agree = "agrees on every one" if all(
        r["model"].startswith(("agrees", "not covered", "covered")) for r in scenarios["results"]
    ) else "disagrees on some"
    return (
        f"of the {sum(total.values())} shipped scenarios (WoW {total['wowtcg']}, Riftbound {total['riftbound']},\n"
        f"HotA {total['hota']}) the model follows {sum(followed.values())} step by step "
        f"({followed['wowtcg']}, {followed['riftbound']} and {followed['hota']}), and {agree}"
    )


def wow_default_states(_verify: dict, _scenarios: dict) -> str:
    """WoW's instance at the search defaults (not verify's: ``Game.verify_bounds``)."""
    from chainproof.games import get_game
    from checkers import vector

    return f"{vector.explore(get_game('wowtcg').machine({})).states:,} states"


def verify_default_states(verify: dict, _scenarios: dict) -> str:
    """The bounded instances of verify's own default run, WoW's and Riftbound's."""
    games = verify["summary"]["games"]
    return f"{games['wowtcg']['states']:,} states for WoW and {games['riftbound']['states']:,} for Riftbound"


def hota_default_states(verify: dict, _scenarios: dict) -> str:
    hota = verify["summary"]["games"]["hota"]
    seconds = hota["exploration_seconds"]
    # Under a second, whole seconds would round it to "about 0 s".
    return f"{hota['states']:,} states in about {seconds:.1f} s" if seconds < 1 else f"{hota['states']:,} states in about {seconds:.0f} s"


RESULTS = ROOT / "benchmarks" / "RESULTS.md"
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
TARGET_HEADERS = ("| target | measured | |", "| Target | Measured | Result |")


def benchmark_targets(results: str) -> str:
    """Every target of benchmarks/RESULTS.md with what its command last
    measured and when, one table: the README quotes the file, never types it."""
    # A section without a date of its own was written with the one before it
    # (benchmarks.run writes its machine and date first, then its targets).
    rows, section, date, dated, in_table = [], "", "", False, False
    for line in results.splitlines():
        if line.startswith("## "):
            section, dated, in_table = line[3:].strip(), False, False
            continue
        found = DATE.search(line)
        if found and not dated:
            date, dated = found[0], True
        if line.strip() in TARGET_HEADERS:
            in_table = True
        elif in_table and line.startswith(("| ---", "|---")):
            continue
        elif in_table and line.startswith("|"):
            target, measured, met = (c.strip() for c in line.strip().strip("|").split("|"))
            rows.append(f"| {section} | {date} | {target} | {measured} | {met} |")
        else:
            in_table = False
    return "\n".join(["", "| section of RESULTS.md | measured on | target | measured | |", "| --- | --- | --- | --- | --- |", *rows, ""])


def spin_ratio(results: str) -> str:
    """Spin against our two searches on WoW's instances, from the Spin section's table."""
    lines = results.split("<!-- benchmarks.spin: begin -->", 1)[1].split("<!-- benchmarks.spin: end -->", 1)[0].splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| instance |"))
    names = [c.strip() for c in lines[header].strip("|").split("|")]
    said = []
    for line in lines[header + 2:]:
        if not line.startswith("| WoW"):
            break
        row = dict(zip(names, (c.strip() for c in line.strip("|").split("|"))))
        # Explicit search is not run where it could not hold the states ("—").
        versus = [f"{row[col]} {name}" for col, name in (("Spin ÷ explicit", "explicit search"), ("Spin ÷ vector", "the vectorized search"))
                  if row[col] not in ("", "—")]
        said.append(f"on {row['instance']} ({row['states']} states) Spin searches {row['Spin states/s']} states/s, {' and '.join(versus)}")
    return "; ".join(said)


#: Every span of the README and how it is written from the two runs.
SPANS: dict[str, Callable[[dict, dict], str]] = {
    "verify-summary": verify_summary,
    "verify-console": verify_console,
    "portfolio-methods": portfolio_methods,
    "scenario-counts": scenario_counts,
    "wow-default-states": wow_default_states,
    "verify-default-states": verify_default_states,
    "hota-default-states": hota_default_states,
    "benchmark-targets": lambda _v, _s: benchmark_targets(RESULTS.read_text(encoding="utf-8")),
    "spin-ratio": lambda _v, _s: spin_ratio(RESULTS.read_text(encoding="utf-8")),
}
#: The spans written from benchmarks/RESULTS.md alone (``--results-only``).
FROM_RESULTS = ("benchmark-targets", "spin-ratio")


def rewrite(text: str, spans: dict[str, str]) -> str:
    """``text`` with each marked span's content replaced; a span with no writer is refused."""
    unknown = sorted({m["name"] for m in SPAN.finditer(text)} - set(spans))
    if unknown:
        raise SystemExit(f"README spans with no writer in benchmarks/readme.py: {', '.join(unknown)}")
    return SPAN.sub(lambda m: f"<!-- figures:{m['name']} -->{spans[m['name']]}<!-- /figures:{m['name']} -->", text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.readme", description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "README.md", help="the file whose spans are rewritten")
    parser.add_argument("--results-only", action="store_true",
                        help="rewrite only the spans quoted from benchmarks/RESULTS.md, without running verify or scenarios")
    args = parser.parse_args(argv)
    text = args.output.read_text(encoding="utf-8")
    if args.results_only:
        # The figures of verify and scenarios stay as the last full run wrote them.
        spans = {m["name"]: m["text"] for m in SPAN.finditer(text)}
        spans.update({name: SPANS[name]({}, {}) for name in FROM_RESULTS})
    else:
        verify = run_json("verify")
        scenarios = run_json("scenarios")
        spans = {name: write(verify, scenarios) for name, write in SPANS.items()}
    missing = sorted(set(spans) - {m["name"] for m in SPAN.finditer(text)})
    if missing:
        raise SystemExit(f"{args.output} has no span for: {', '.join(missing)}")
    args.output.write_text(rewrite(text, spans), encoding="utf-8")
    for name, value in spans.items():
        print(f"{name}: {' '.join(value.split())[:160]}")


if __name__ == "__main__":
    main()
