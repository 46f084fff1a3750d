"""The README's figures are written by ``python -m benchmarks.readme``, never
typed: each marked span has a writer, and the counts in them are the ones the
property catalogues and the shipped scenario files give today.  (Verdicts and
seconds come from the runs the command makes; the portfolio's and the
scenarios' own tests hold the verdicts.)"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from benchmarks import readme
from checkers import vector
from chainproof.games import get_game
from scenarios import runner

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "README.md").read_text(encoding="utf-8")


def span(name: str) -> str:
    found = [m["text"] for m in readme.SPAN.finditer(TEXT) if m["name"] == name]
    assert len(found) == 1, f"README.md has {len(found)} spans named {name!r}"
    return " ".join(found[0].split())


def test_every_span_has_a_writer_and_every_writer_a_span():
    assert sorted(m["name"] for m in readme.SPAN.finditer(TEXT)) == sorted(readme.SPANS)


def test_a_span_the_command_cannot_write_is_refused():
    with pytest.raises(SystemExit, match="no writer .*: typed"):
        readme.rewrite("a <!-- figures:typed -->12<!-- /figures:typed --> b", {})


def test_rewriting_replaces_only_the_spans_text():
    text = "keep <!-- figures:a -->old<!-- /figures:a --> and\n<!-- figures:b -->\nx\n<!-- /figures:b -->\n"
    assert readme.rewrite(text, {"a": "new", "b": "\ny\n"}) == (
        "keep <!-- figures:a -->new<!-- /figures:a --> and\n<!-- figures:b -->\ny\n<!-- /figures:b -->\n"
    )


def counts(game: str) -> tuple[int, int]:
    """A game's properties, and how many of them are safety (not liveness)."""
    props = get_game(game).properties
    return len(props), sum(p.kind != "liveness" for p in props)


def test_the_verify_figures_count_the_catalogues():
    said = re.fullmatch(
        r"For WoW the default run checks (\d+) properties .*? proves (?:all (\d+)|(\d+) of its (\d+)) safety properties "
        r"for games of any length, in about \d+ s on two cores; with Riftbound's (\d+) \((\d+) proved\) and "
        r"Heroes of Ancients' (\d+) \(.*\) the whole run takes about \d+ s\.",
        span("verify-summary"),
    )
    assert said, span("verify-summary")
    wow, wow_all, wow_n, wow_of, rift, rift_proved, hota = said.groups()
    assert (int(wow), int(wow_all or wow_of)) == counts("wowtcg")
    assert int(rift) == counts("riftbound")[0] and int(rift_proved) <= counts("riftbound")[0]
    assert int(hota) == counts("hota")[0]
    methods = re.fullmatch(r"At default bounds (?:all (\d+)|\d+ of its (\d+)) safety properties are `proved` in about \d+ s "
                           r"on two cores: (.*)\.", span("portfolio-methods"))
    assert methods, span("portfolio-methods")
    assert int(methods[1] or methods[2]) == counts("wowtcg")[1]
    by_method = [int(n) for n in re.findall(r"(\d+) by ", methods[3])]
    assert sum(by_method) == int(wow_all or wow_n)


def test_the_console_example_is_a_run_of_the_wow_catalogue():
    block = next(m["text"] for m in readme.SPAN.finditer(TEXT) if m["name"] == "verify-console")
    names = {p.name for p in get_game("wowtcg").properties}
    shown = [line.split()[1] for line in block.splitlines() if line.startswith("wowtcg  ")]
    assert shown == list(readme.CONSOLE_ROWS) and set(shown) <= names
    total = re.search(r"^(\d+) results: ", block, re.M)
    assert total and int(total[1]) == counts("wowtcg")[0]


def test_the_scenario_figures_count_the_shipped_cases():
    per_game = Counter()
    for path in runner.discover(None, None):
        cases, adapter = runner.load_cases(path)
        per_game[adapter.name] += len(cases)
    said = re.fullmatch(r"of the (\d+) shipped scenarios \(WoW (\d+), Riftbound (\d+), HotA (\d+)\) the model follows "
                        r"(\d+) step by step \((\d+), (\d+) and (\d+)\), and agrees on every one", span("scenario-counts"))
    assert said, span("scenario-counts")
    total, wow, rift, hota, followed, *each = (int(x) for x in said.groups())
    assert (wow, rift, hota) == (per_game["wowtcg"], per_game["riftbound"], per_game["hota"])
    assert total == sum(per_game.values()) and followed == sum(each)
    assert all(f <= n for f, n in zip(each, (wow, rift, hota)))


def test_the_default_instances_state_counts_are_the_searches():
    wow = get_game("wowtcg")
    assert span("wow-default-states") == f"{vector.explore(wow.machine({})).states:,} states"
    pinned = next(row for row in yaml.safe_load((ROOT / "tests" / "data" / "perft_hota.yaml").read_text(encoding="utf-8")) if row["bounds"]["table"] == "default")
    assert span("hota-default-states").startswith(f"{pinned['states']:,} states in about ")


def test_verifys_default_instances_are_named_with_their_states():
    """verify's own default run (``Game.verify_bounds``): Riftbound's instance
    is searched here; WoW's, forty million states, is too large for a test
    and is only held to be larger than the search defaults'."""
    said = re.fullmatch(r"([\d,]+) states for WoW and ([\d,]+) for Riftbound", span("verify-default-states"))
    assert said, span("verify-default-states")
    wow, rift = (int(n.replace(",", "")) for n in said.groups())
    game = get_game("riftbound")
    assert rift == vector.explore(game.machine(game.verify_given({}))).states
    assert wow > int(span("wow-default-states").split()[0].replace(",", ""))


def test_the_benchmark_figures_are_those_of_results_md():
    results = readme.RESULTS.read_text(encoding="utf-8")
    spans = {m["name"]: m["text"] for m in readme.SPAN.finditer(TEXT)}
    assert spans["benchmark-targets"] == readme.benchmark_targets(results), "rerun python -m benchmarks.readme"
    assert spans["spin-ratio"] == readme.spin_ratio(results), "rerun python -m benchmarks.readme"


def test_the_targets_table_keeps_every_row_and_its_date():
    results = "\n".join([
        "## Machine", "- Date: 2026-01-02 10:00 UTC", "## Speed (`python -m benchmarks.x`)", "",
        "| target | measured | |", "| --- | --- | --- |", "| fast | 3 s | met |", "| faster | 9 s | not met |", "",
        "## Other", "Measured 2026-02-03 on x86_64.", "| Target | Measured | Result |", "|---|---|---|", "| small | 1 KiB | met |",
    ])
    assert readme.benchmark_targets(results).strip().splitlines()[2:] == [
        "| Speed (`python -m benchmarks.x`) | 2026-01-02 | fast | 3 s | met |",
        "| Speed (`python -m benchmarks.x`) | 2026-01-02 | faster | 9 s | not met |",
        "| Other | 2026-02-03 | small | 1 KiB | met |",
    ]
