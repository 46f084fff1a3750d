"""The command line: JSON and plain output, exit codes, bad input, coverage and graph.

Every run uses small bounds and a shallow ``--depth`` so the whole file stays fast;
the default (full) run is never invoked here.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner, Result

from chainproof import games, report
from chainproof.cli import main
from model import wowtcg
from properties import Invariant, StepProperty
from properties.wowtcg import CATALOGUE, TURN_PROPERTIES
from scenarios import runner as scenario_runner

#: The SVG namespace as ElementTree writes it in tag names.
SVG = "{http://www.w3.org/2000/svg}"
#: Small bounds, as flags (the same instance as tests/conftest.py SMALL).
SMALL = ["--game", "wowtcg", "--players", "2", "--chain-depth", "2", "--turns", "2", "--hand", "1", "--deck", "1", "--hand-limit", "2", "--allies", "0", "--combats", "0"]
#: Combat with one ally per party, no cards in hand: every property of the catalogue applies (explicit search).
#: No resources: every property still holds to depth (none vacuous) in 31,210
#: states instead of 82,882 with one resource each (tests/test_checkers.py checks
#: the catalogue on the whole board with one resource).
COMBAT = ["--game", "wowtcg", "--players", "2", "--chain-depth", "1", "--turns", "2", "--hand", "0", "--deck", "1", "--allies", "1", "--resources", "0", "--combats", "1"]
#: Tinier still, for runs that only look at which properties were selected.
TINY = ["--game", "wowtcg", "--players", "2", "--chain-depth", "1", "--turns", "1", "--hand", "1", "--deck", "1", "--hand-limit", "2", "--allies", "0", "--combats", "0"]
BMC_DEPTH = 8
CATALOGUE_NAMES = [p.name for p in CATALOGUE]
VERDICTS = {"proved", "holds-to-depth", "violated", "vacuous", "unknown"}
RESULT_KEYS = {"game", "property", "rules", "kind", "verdict", "depth", "method", "seconds", "counterexample"}


def invoke(*args: str) -> Result:
    # Unset the variables that make Rich treat a pipe as a terminal, so output is plain.
    runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None})
    return runner.invoke(main, list(args))


def parse_json(result: Result) -> dict:
    """stdout must be exactly one JSON object (json.loads rejects trailing data)."""
    text = result.stdout.strip()
    assert text.startswith("{") and text.endswith("}"), result.output
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


# -- verify --json ---------------------------------------------------------------


@pytest.fixture(scope="module")
def both_run() -> Result:
    return invoke("verify", "--game", "wowtcg", *SMALL, "--depth", str(BMC_DEPTH), "--method", "both", "--json")


def test_verify_json_is_one_object_with_results_and_summary(both_run: Result) -> None:
    assert both_run.exit_code == 1, both_run.output  # the combat properties are vacuous without combat
    assert "Traceback" not in both_run.output
    assert both_run.stderr == ""  # no progress bar or log noise when printing JSON
    data = parse_json(both_run)
    assert set(data) == {"results", "summary"}
    assert isinstance(data["results"], list) and data["results"]


def test_verify_json_result_fields_and_verdicts(both_run: Result) -> None:
    results = parse_json(both_run)["results"]
    for r in results:
        assert RESULT_KEYS <= set(r), r
        assert r["game"] == "wowtcg"
        assert r["verdict"] in VERDICTS
        assert r["method"] in ("explicit", "bmc")
        assert isinstance(r["rules"], list) and r["rules"]
        assert isinstance(r["depth"], int) and r["depth"] >= 0
        assert isinstance(r["seconds"], (int, float)) and r["seconds"] >= 0
    by_name = {p.name: p for p in CATALOGUE}
    for r in results:
        p = by_name[r["property"]]
        assert r["rules"] == list(p.rules)
        assert r["kind"] == p.kind


def test_verify_without_combat_turn_properties_hold_and_combat_ones_are_vacuous(both_run: Result) -> None:
    data = parse_json(both_run)
    results = data["results"]
    turn = {p.name for p in TURN_PROPERTIES} | {"deadlock"}
    assert {r["verdict"] for r in results if r["property"] in turn} == {"holds-to-depth"}
    assert {r["verdict"] for r in results} == {"holds-to-depth", "vacuous"}
    assert "proposal_rechecked" in {r["property"] for r in results if r["verdict"] == "vacuous"}
    assert all(r["counterexample"] is None for r in results)
    summary = data["summary"]
    assert summary["passing"] is False  # a vacuous verdict is a finding, not a pass
    assert summary["total"] == len(results)
    assert summary["verdicts"]["holds-to-depth"] + summary["verdicts"]["vacuous"] == len(results)
    assert sum(summary["verdicts"].values()) == len(results)
    assert set(summary["verdicts"]) == VERDICTS


def test_verify_both_methods_cover_the_catalogue(both_run: Result) -> None:
    results = parse_json(both_run)["results"]
    assert {r["method"] for r in results} == {"explicit", "bmc"}
    for method in ("explicit", "bmc"):
        names = [r["property"] for r in results if r["method"] == method]
        assert names == CATALOGUE_NAMES, method
    assert len(results) == 2 * len(CATALOGUE_NAMES)
    assert all(r["depth"] == BMC_DEPTH for r in results if r["method"] == "bmc")


def test_verify_json_reports_the_bounds_given(both_run: Result) -> None:
    data = parse_json(both_run)
    expected = {
        "players": 2, "chain_depth": 2, "turns": 2, "hand": 1, "deck": 1, "hand_limit": 2,
        "allies": 0, "resources": 1, "combats": 0,
    }
    for r in data["results"]:
        assert r["bounds"] == expected
    stats = data["summary"]["games"]["wowtcg"]
    assert stats["states"] > 0 and stats["transitions"] > 0


@pytest.mark.parametrize("method", ["explicit", "bmc"])
def test_verify_single_method(method: str) -> None:
    result = invoke("verify", *TINY, "--depth", "4", "--method", method, "--property", "priority_*", "--json")
    assert result.exit_code == 0, result.output
    results = parse_json(result)["results"]
    assert results and {r["method"] for r in results} == {method}


@pytest.mark.parametrize("pattern", ["priority_*", "*_priority", "*first*"])
def test_verify_property_glob_selects_only_matching(pattern: str) -> None:
    expected = [n for n in CATALOGUE_NAMES if fnmatch.fnmatchcase(n, pattern)]
    assert expected and len(expected) < len(CATALOGUE_NAMES)
    result = invoke("verify", *TINY, "--method", "explicit", "--property", pattern, "--json")
    assert result.exit_code == 0, result.output
    names = [r["property"] for r in parse_json(result)["results"]]
    assert names == expected


# -- bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["verify", "--game", "nosuch"], ["nosuch", "wowtcg"]),
        (["verify", "--property", "zz_no_such_*", "--method", "explicit"], ["zz_no_such_*", "priority_exclusive"]),
        (["verify", "--players", "9"], ["players", "9", "2..4"]),
        (["verify", "--players", "1", "--json"], ["players", "2..4"]),
        (["verify", "--chain-depth", "99"], ["chain-depth", "99"]),
        (["verify", "--depth", "0"], ["depth", "0", "1..200"]),
        (["verify", "--depth", "201"], ["depth", "1..200"]),
        (["verify", "--timeout", "0"], ["timeout"]),
        (["coverage", "--game", "nosuch"], ["nosuch"]),
        (["graph", "--game", "nosuch"], ["nosuch"]),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], fragments: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("chainproof: error:")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_non_finite_timeout_is_bad_input(value: str) -> None:
    result = invoke("verify", *TINY, "--method", "explicit", "--property", "priority_*", "--timeout", value)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("chainproof: error:")


# -- plain output ----------------------------------------------------------------


def test_verify_plain_output_is_a_text_table() -> None:
    result = invoke("verify", *COMBAT, "--method", "explicit")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    out = result.stdout
    assert "\x1b" not in out  # no ANSI escapes when piped
    assert not any(ch in out for ch in "┏━┃│└┘")  # not a Rich box table
    lines = out.splitlines()
    header = lines[0].split()
    assert "property" in header and "verdict" in header
    assert header == ["game", "property", "verdict", "method", "depth", "seconds", "rules"]
    rows = [line.split() for line in lines[1 : 1 + len(CATALOGUE_NAMES)]]
    assert [row[1] for row in rows] == CATALOGUE_NAMES
    row = next(row for row in rows if row[1] == "priority_exclusive")
    assert row[0] == "wowtcg" and "explicit" in row and "holds-to-depth" in row
    assert f"{len(CATALOGUE_NAMES)} results: {len(CATALOGUE_NAMES)} holds-to-depth" in out
    assert "reachable states" in out
    # Everything but the rule list, which comes last, fits 100 columns.
    assert lines[0].index("rules") < 100


# -- coverage --------------------------------------------------------------------


def test_coverage_json() -> None:
    result = invoke("coverage", "--json")
    assert result.exit_code == 0, result.output
    data = parse_json(result)
    assert [t["game"] for t in data["games"]] == ["wowtcg", "riftbound", "hota"]
    # Every rule Riftbound and HotA mark encoded or assumed is cited by its model or properties.
    assert data["games"][1]["uncited"] == []
    assert data["games"][2]["uncited"] == []
    t = data["games"][0]
    assert t["rules"] > 0
    assert t["encoded"] + t["not-modelled"] + t["assumed"] + t["abstracted"] + t["variant"] == t["rules"]
    assert t["abstracted"] >= 3
    assert len(t["entries"]) == t["rules"]
    assert sum(s["rules"] for s in t["sections"]) == t["rules"]
    for s in t["sections"]:
        assert s["encoded"] + s["not-modelled"] + s["assumed"] + s["abstracted"] + s["variant"] == s["rules"]
    assert t["uncited"] == []
    entry = next(e for e in t["entries"] if e["id"] == "409.4a")
    assert entry["status"] == "encoded"
    assert entry["cited"] is True


def test_coverage_plain() -> None:
    result = invoke("coverage", "--game", "wowtcg")
    assert result.exit_code == 0, result.output
    assert "409.4a" in result.stdout
    assert "nothing cites" not in result.stdout
    # Piped, the table is plain text with whole headers, within 100 columns.
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("section"))
    assert header.split() == ["section", "rules", "encoded", "not-modelled", "assumed", "abstracted", "variant", "engine", "scenario"]
    table = lines[lines.index(header) : lines.index(next(line for line in lines if line.startswith("all "))) + 1]
    assert all(len(line) <= 100 for line in table) and not any(ch in result.stdout for ch in "┏━┃")


def test_coverage_counts_the_rules_a_shipped_scenario_names() -> None:
    result = invoke("coverage", "--game", "riftbound", "--json")
    assert result.exit_code == 0, result.output
    (table,) = parse_json(result)["games"]
    named = scenario_runner.rules_named("riftbound")
    entries = {e["id"]: e for e in table["entries"]}
    assert {rid for rid, e in entries.items() if e["scenario"]} == named & set(entries)
    # A rule the model does not encode counts once a scenario names it: the
    # engine's cap on a game's length, which the model needs none of.
    assert entries["assumed:turn-cap"]["status"] == "not-modelled"
    assert entries["assumed:turn-cap"]["scenario"] is True
    assert table["scenario"] == len(named & set(entries)) == sum(s["scenario"] for s in table["sections"])


def test_coverage_refuses_to_guess_past_a_malformed_shipped_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    def malformed(game: str) -> set[str]:
        raise scenario_runner.ScenarioFileError("scenarios/hota/rules/x.yaml", 3, "unknown rule id 'nosuch'")

    monkeypatch.setattr(scenario_runner, "rules_named", malformed)
    result = invoke("coverage", "--game", "hota")
    assert result.exit_code == 2
    assert "x.yaml:3: unknown rule id 'nosuch'" in result.output and "Traceback" not in result.output


# -- graph -----------------------------------------------------------------------


def test_graph_is_dot_with_every_location_and_rule_labels() -> None:
    result = invoke("graph")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("digraph")
    assert out.rstrip().endswith("}")
    machine = wowtcg.build()
    assert machine.locations
    for name in machine.locations:
        assert f'"{name}"' in out, name
    edge_lines = [line for line in out.splitlines() if "->" in line]
    # one arrow per pair of joined locations, naming every edge between them
    assert len(edge_lines) == len({(e.source, e.target) for e in machine.edges})
    for e in machine.edges:
        family = report.edge_family(e.name)
        line = next(line for line in edge_lines if f'"{e.source}" -> "{e.target}"' in line)
        segments = line.split('label="')[1].split('", fontsize')[0].split("\\l")
        (segment,) = [s for s in segments if s.startswith(family + "  ")]
        assert all(f" {rule}" in segment[len(family) :] for rule in e.rules), (e.name, segment)


def test_graph_svg_is_xml_naming_every_location_and_edge_with_its_rules() -> None:
    result = invoke("graph", "--format", "svg")
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(result.stdout)
    assert root.tag == f"{SVG}svg"
    # Graphviz turns the second of two spaces into a no-break space; compare words.
    texts = {" ".join("".join(t.itertext()).split()) for t in root.iter(f"{SVG}text")}
    machine = wowtcg.build()
    for name in machine.locations:
        assert name in texts, name
    for (source, target), families in report.edge_families(machine).items():
        for family, rules in families.items():
            assert " ".join([family, *rules]) in texts, family


def test_graph_rejects_an_unknown_format() -> None:
    result = invoke("graph", "--format", "png")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "'png' is not one of 'dot', 'svg'" in result.stderr


@pytest.mark.parametrize("fmt", ["dot", "svg"])
def test_graph_output_writes_what_stdout_would_show(fmt: str, tmp_path: Path) -> None:
    target = tmp_path / f"turn.{fmt}"
    result = invoke("graph", "--format", fmt, "--output", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert target.read_text() == invoke("graph", "--format", fmt).stdout


def _one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("chainproof: error:"), result.stderr
    return lines[0]


def test_graph_output_to_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    line = _one_error_line(invoke("graph", "--output", str(tmp_path / "missing" / "turn.dot")))
    assert "cannot write" in line and "missing" in line


def test_graph_svg_without_the_renderer_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chainproof.report.RENDERER", "graphviz-pure-not-installed")
    line = _one_error_line(invoke("graph", "--format", "svg"))
    assert "graphviz-pure-not-installed is not installed" in line


def test_graph_svg_the_renderer_rejects_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chainproof.report.dot", lambda machine: "digraph {")
    line = _one_error_line(invoke("graph", "--format", "svg"))
    assert "graphviz-pure exited with status 1" in line and "syntax error" in line


# -- a violated property ---------------------------------------------------------

always_nobody_has_priority = Invariant(
    "always_nobody_has_priority",
    ("409.1",),
    "false on purpose: nobody ever holds priority",
    holds=lambda m, s, b: s.priority_holder == m.bounds["players"],
)


@pytest.fixture
def false_property(monkeypatch: pytest.MonkeyPatch) -> None:
    real = games.get_game("wowtcg")
    game = dataclasses.replace(real, properties=(*real.properties, always_nobody_has_priority))
    monkeypatch.setitem(games._LOADERS, "wowtcg", lambda: game)


def _check_transcript(cx: dict) -> None:
    assert cx is not None
    assert cx["steps"], cx
    for i, step in enumerate(cx["steps"], start=1):
        assert {"action", "player", "rules"} <= set(step), step
        assert step["step"] == i
        assert step["player"] == "game" or step["player"] in ("P1", "P2")
    assert cx["violation"]
    assert "location" in cx["initial"]


def test_violated_property_json(false_property: None) -> None:
    result = invoke(
        "verify", *SMALL, "--depth", "6", "--method", "both", "--property", "always_*", "--json"
    )
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    data = parse_json(result)
    results = data["results"]
    assert [r["property"] for r in results] == ["always_nobody_has_priority"] * 2
    assert {r["method"] for r in results} == {"explicit", "bmc"}
    for r in results:
        assert r["verdict"] == "violated", r
        _check_transcript(r["counterexample"])
        assert r["depth"] == len(r["counterexample"]["steps"])
        # the last step must be the one that hands someone priority
        assert "priority" in json.dumps(r["counterexample"]["steps"][-1]["changes"])
    assert data["summary"]["passing"] is False
    assert data["summary"]["verdicts"]["violated"] == 2


def test_violated_property_plain(false_property: None) -> None:
    result = invoke("verify", *SMALL, "--depth", "6", "--method", "explicit", "--property", "always_*")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    out = result.stdout
    assert "violated" in out
    assert "always_nobody_has_priority (explicit): violated in" in out
    assert "start: location:" in out
    assert "1 results: 1 violated" in out


def test_violation_among_passing_properties_still_exits_1(false_property: None) -> None:
    result = invoke("verify", *COMBAT, "--method", "explicit", "--json")
    assert result.exit_code == 1, result.output
    verdicts = {r["property"]: r["verdict"] for r in parse_json(result)["results"]}
    assert verdicts.pop("always_nobody_has_priority") == "violated"
    assert set(verdicts) == set(CATALOGUE_NAMES)
    assert set(verdicts.values()) == {"holds-to-depth"}


@pytest.fixture
def broken_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a link resolves in the action phase, priority goes to the non-turn player (breaks 409.4a)."""
    real = games.get_game("wowtcg")
    name = "resolve_top_link@action_phase"

    def build(**bounds: int):  # noqa: ANN202
        machine = real.build(**bounds)
        update = machine.edge(name).update
        return machine.replace_edge(
            name,
            update=lambda s, b: {**update(s, b), "priority_holder": b.If(s.turn_player == 0, 1, 0)},
        )

    game = dataclasses.replace(real, build=build)
    monkeypatch.setitem(games._LOADERS, "wowtcg", lambda: game)


def test_broken_edge_is_caught(broken_resolution: None) -> None:
    result = invoke("verify", *SMALL, "--method", "explicit", "--property", "turn_player_first", "--json")
    assert result.exit_code == 1, result.output
    (r,) = parse_json(result)["results"]
    assert r["verdict"] == "violated"
    _check_transcript(r["counterexample"])
    assert r["counterexample"]["steps"][-1]["action"] == "resolve_top_link@action_phase"
    assert "409.4a" in r["counterexample"]["steps"][-1]["rules"]


def test_an_internal_error_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_explore(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("graph store exploded")

    monkeypatch.setattr("chainproof.cli.vector.explore", broken_explore)
    result = invoke("verify", *TINY, "--method", "explicit")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "chainproof: error: internal error: RuntimeError: graph store exploded "
        "(run 'chainproof --debug ...' for the traceback)"
    )
    assert "Traceback" not in result.output
    debug = CliRunner().invoke(main, ["--debug", "verify", *TINY, "--method", "explicit"])
    assert isinstance(debug.exception, RuntimeError)


def test_the_graph_in_the_docs_is_current() -> None:
    """docs/wowtcg-turn.dot (drawn into the README's SVG) is what `chainproof graph` prints now."""
    committed = (Path(__file__).parent.parent / "docs" / "wowtcg-turn.dot").read_text()
    assert invoke("graph").stdout == committed, "regenerate: chainproof graph -o docs/wowtcg-turn.dot"


def test_the_graph_picture_in_the_docs_is_current() -> None:
    """docs/wowtcg-turn.svg is what `chainproof graph --format svg` draws now (the pinned renderer is deterministic)."""
    committed = (Path(__file__).parent.parent / "docs" / "wowtcg-turn.svg").read_text()
    assert invoke("graph", "--format", "svg").stdout == committed, (
        "regenerate: chainproof graph --format svg -o docs/wowtcg-turn.svg"
    )


def test_a_vacuous_property_is_not_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    never = StepProperty(
        "multiplayer_leaving",
        ("102.2",),
        "vacuous with two players: the multiplayer leaving edge never fires",
        applies=lambda e: e.name == "decked_turn_passes",
        holds=lambda m, pre, post, b: True,
    )
    real = games.get_game("wowtcg")
    monkeypatch.setitem(games._LOADERS, "wowtcg", lambda: dataclasses.replace(real, properties=(never,)))
    # BMC to 10 steps rather than its default 30: the edge cannot fire at any
    # depth with two players, and the unrolling to 30 cost three times as much.
    result = invoke("verify", *TINY, "--method", "both", "--depth", "10", "--json")
    assert result.exit_code == 1
    verdicts = {r["method"]: r["verdict"] for r in json.loads(result.stdout)["results"]}
    assert verdicts == {"explicit": "vacuous", "bmc": "vacuous"}
    # The portfolio proves it vacuous for games of any length: still not a pass.
    result = invoke("verify", *TINY, "--json")
    assert result.exit_code == 1
    (r,) = json.loads(result.stdout)["results"]
    assert r["verdict"] == "vacuous" and r["method"].endswith("(any length)")
    assert "premise proved unreachable" in r["note"]


# -- rule variants -------------------------------------------------------------------


def test_a_rule_variant_is_checked_and_named_in_the_output() -> None:
    """The basic rules give the next response to whoever added the new top link,
    so 409.4a's 'turn player after every resolution' fails under that reading."""
    bounds = ["--turns", "1", "--hand", "1", "--deck", "0", "--chain-depth", "2", "--allies", "0"]
    args = ["verify", *bounds, "--property", "turn_player_first", "--method", "explicit"]
    seed = invoke(*args, "--json")
    assert seed.exit_code == 0, seed.output
    assert parse_json(seed)["summary"]["variant"] is None
    variant = invoke(*args, "--variant", "basic-chain-priority", "--json")
    assert variant.exit_code == 1, variant.output
    data = parse_json(variant)
    assert data["summary"]["variant"] == "basic-chain-priority"
    (r,) = data["results"]
    assert r["verdict"] == "violated"
    assert r["counterexample"]["steps"][-1]["action"].startswith("resolve_top_link@")
    plain = invoke(*args, "--variant", "basic-chain-priority")
    assert "rule variant: basic-chain-priority" in plain.stdout


def test_an_unknown_variant_is_bad_input_naming_the_known_ones() -> None:
    result = invoke("verify", "--variant", "nope", "--method", "explicit")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().startswith("chainproof: error: no game has the variant 'nope'; variants: 600.2-without-600.3, ")


# -- verify --explain ----------------------------------------------------------------


#: --explain on a board without allies: the proof and its invariant read the
#: same (locations, priority), at half the Spacer work of the default board.
EXPLAIN_BOUNDS = ("--hand", "0", "--allies", "0")


def test_explain_prints_an_invariant_in_the_models_names_that_was_rechecked() -> None:
    result = invoke("verify", "--explain", "destroyed_hero_loses", *EXPLAIN_BOUNDS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "destroyed_hero_loses [102.1a 102.2 409.5]: proved by spacer" in out
    assert "re-checked by plain Z3 queries" in out
    invariant = out.split("inductive invariant (holds initially, every edge keeps it, and it implies the property):\n")[1]
    assert "location = " in invariant and "priority_holder" in invariant
    assert "@inv" not in invariant  # the model's names, not the solver's


def test_explain_json_carries_the_invariant() -> None:
    result = invoke("verify", "--explain", "destroyed_hero_loses", *EXPLAIN_BOUNDS, "--json")
    data = parse_json(result)
    assert data["verdict"] == "proved" and data["method"] == "spacer"
    assert data["invariant"] and "location = " in data["invariant"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--explain", "no_such_property"], "no property named 'no_such_property'"),
        (["--explain", "every_combat_concludes"], "liveness property has no inductive invariant"),
        (["--explain", "priority_exclusive", "--timeout", "0"], "--timeout 0.0 is out of range"),
    ],
)
def test_explain_refuses_what_it_cannot_explain(args: list, needle: str) -> None:
    result = invoke("verify", *args)
    assert result.exit_code == 2 and needle in result.stderr and "Traceback" not in result.output


def test_explain_refuses_options_it_would_ignore() -> None:
    result = invoke("verify", "--explain", "destroyed_hero_loses", "--method", "bmc", "--property", "turn_*")
    assert result.exit_code == 2
    assert "--method, --property would be ignored" in result.output
