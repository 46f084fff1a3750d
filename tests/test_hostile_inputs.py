"""Hostile files (tests/data/hostile/) given to every command that reads a
file: each is refused with one line that names the file, and exit 2; no
traceback, no "internal error", no run that goes on regardless."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chainproof.cli import main
from model import safe_yaml
from model.registry import RegistryError, read_yaml

HOSTILE = Path(__file__).parent / "data" / "hostile"
YAML_FILES = sorted(HOSTILE.glob("*.yaml"))

#: What each file breaks, as the refusal says it.
REASONS = {
    "alias_bomb.yaml": "expand to more than",
    "deep.yaml": "nest more than",
    "not_utf8.yaml": "not UTF-8",
    "not_yaml.yaml": "not valid YAML",
    "recursive.yaml": "refers to the value it is part of",
}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def refused_in_one_line(result, path: Path) -> str:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert str(path.name) in lines[0] and "internal error" not in lines[0] and "Traceback" not in result.output
    return lines[0]


def test_the_corpus_covers_every_reason():
    assert {p.name for p in YAML_FILES} == set(REASONS)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_lint_refuses_a_hostile_known_findings_file(path):
    line = refused_in_one_line(invoke("lint", "--game", "hota", "--known", str(path)), path)
    assert REASONS[path.name] in line


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_scenarios_reports_a_hostile_scenario_file_as_an_error_and_exits_2(path):
    result = invoke("scenarios", "--path", str(path), "--json")
    assert result.exit_code == 2, result.output
    assert REASONS[path.name] in result.stdout and "Traceback" not in result.output


def test_scenarios_refuses_a_file_of_another_game_instead_of_dropping_it(tmp_path):
    shipped = next((Path(__file__).parent.parent / "scenarios" / "hota").rglob("*.yaml"))
    copy = tmp_path / shipped.name
    # Outside the game folders, the file names its game itself.
    copy.write_text("game: hota\n" + shipped.read_text(encoding="utf-8"), encoding="utf-8")
    result = invoke("scenarios", "--game", "wowtcg", "--path", str(tmp_path), "--json")
    assert result.exit_code == 2, result.output
    assert "the scenario is for hota, and --game asked for wowtcg" in result.stdout


def test_check_trace_refuses_a_trace_that_is_not_utf8():
    path = HOSTILE / "trace_not_utf8.jsonl"
    line = refused_in_one_line(invoke("check-trace", str(path)), path)
    assert f"{path.name}:2: not UTF-8" in line


def test_a_large_file_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "large.yaml"
    path.write_text("x: " + "a" * (safe_yaml.MAX_BYTES + 1), encoding="utf-8")
    with pytest.raises(RegistryError, match=r"large\.yaml: the file is larger than 4 MiB"):
        read_yaml(path, RegistryError, "rules registry")


def test_anchors_and_aliases_within_the_limits_still_load():
    assert safe_yaml.load("base: &b {atk: 1}\nother: *b\n") == {"base": {"atk": 1}, "other": {"atk": 1}}
