"""``chainproof conform``, ``check-trace`` and the pytest plugin, end to end."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from agreement.wowtcg.builtin import BuiltinWowAdapter
from agreement.wowtcg.checker import WowChecker
from chainproof.cli import main

pytest_plugins = ["pytester"]


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def record_trace(seed: int = 1, steps: int = 150) -> list[dict]:
    """A game of the built-in engine written in the trace format."""
    adapter, rng = BuiltinWowAdapter(), random.Random(seed)
    state = adapter.new_game(adapter.random_setup(rng, 2))
    lines: list[dict] = [{"game": "wowtcg"}]
    for _ in range(steps):
        actions = adapter.legal_actions(state)
        lines.append({"state": adapter.observe(state), "offered": [adapter.observe_action(state, a) for a in actions]})
        if state.is_terminal():
            return lines
        a = rng.choice(actions)
        lines.append({"action": adapter.observe_action(state, a), "label": str(a)})
        adapter.apply_action(state, a)
    lines.append({"state": adapter.observe(state)})
    return lines


def write(tmp_path, lines, name="trace.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_conform_json_reports_agreement_and_coverage():
    result = invoke("conform", "--examples", "3", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["status"] == "agree" and doc["steps"] > 0 and doc["findings"] == []
    assert doc["coverage"]["edges"]["ready_cards"] >= 3
    assert doc["coverage"]["reachable_edges"] == len(WowChecker.reachable_families())
    assert doc["coverage"]["rules"]["409.1"] > 0  # priority passed clockwise


def test_conform_without_shrinking_reports_the_failing_game_as_played(monkeypatch):
    from engine.wowtcg.state import GameState

    def counterclockwise(self, player):  # 409.1 broken
        n = len(self.players)
        return next((q for q in ((player - k) % n for k in range(1, n)) if self.players[q].in_game), player)

    monkeypatch.setattr(GameState, "next_clockwise", counterclockwise)
    result = invoke("conform", "--examples", "6", "--no-shrink", "--json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert doc["status"] == "disagree" and doc["transcript_shrunk"] is False
    assert any("409.1" in f["rules"] for f in doc["findings"]) and "script:" in doc["transcript"]
    text = invoke("conform", "--examples", "6", "--no-shrink")
    assert text.exit_code == 1 and "not shrunk" in text.output


def test_conform_names_the_adapter_method_and_step():
    result = invoke("conform", "--examples", "2", "--engine", "tests.agreement.bad_adapters:GarbageObservation")
    assert result.exit_code == 2
    assert "adapter.observe returned a malformed observation at step" in result.output
    assert "state.players[0].hand" in result.output and "Traceback" not in result.output
    result = invoke("conform", "--examples", "2", "--engine", "tests.agreement.bad_adapters:RaisingApply")
    assert result.exit_code == 2 and "adapter.apply_action raised RuntimeError: engine crashed (at step" in result.output


def test_conform_rejects_an_engine_that_cannot_be_loaded():
    for spec, words in [
        ("no_such_module:make", "cannot import no_such_module"),
        ("tests.agreement.bad_adapters:failing_factory", "failing_factory() raised RuntimeError: no engine today"),
        ("tests.agreement.bad_adapters", "expected package.module:factory"),
        ("collections:OrderedDict", "the adapter lacks"),
    ]:
        result = invoke("conform", "--engine", spec)
        assert result.exit_code == 2 and words in result.output, (spec, result.output)


def test_check_trace_accepts_a_true_log(tmp_path):
    path = write(tmp_path, record_trace())
    result = invoke("check-trace", str(path), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["status"] == "agree" and doc["steps"] > 20 and doc["completeness_checked"]


def test_check_trace_reports_the_first_step_the_rules_do_not_allow(tmp_path):
    lines = record_trace()
    # Tamper: after the first pass of the game, priority goes back to the passer (409.1 says clockwise).
    k = next(i for i, x in enumerate(lines) if "action" in x and x["action"]["kind"] == "pass")
    lines[k + 1]["state"]["priority"] = lines[k]["action"]["player"]
    path = write(tmp_path, lines)
    result = invoke("check-trace", str(path))
    assert result.exit_code == 1, result.output
    assert f"{path}:{k + 1}:" in result.output and "409.1" in result.output and "priority_holder" in result.output


def test_check_trace_names_file_and_line_of_a_malformed_log(tmp_path):
    lines = record_trace(steps=5)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(lines[0]) + "\n" + json.dumps(lines[1]) + "\n{not json\n")
    result = invoke("check-trace", str(path))
    assert result.exit_code == 2 and f"{path}:3: not JSON" in result.output
    lines[1]["state"]["step"] = "lunch_break"
    result = invoke("check-trace", str(write(tmp_path, lines, "step.jsonl")))
    assert result.exit_code == 2 and "step.jsonl:2: state.step: expected one of" in result.output


def test_check_trace_refuses_a_misspelt_field_instead_of_dropping_its_check(tmp_path):
    lines = record_trace(steps=5)
    lines[1]["offerd"] = lines[1].pop("offered")
    result = invoke("check-trace", str(write(tmp_path, lines, "typo.jsonl")))
    assert result.exit_code == 2, result.output
    assert "typo.jsonl:2: unknown field 'offerd'; a line of this kind has offered, state" in result.output
    lines[1]["offered"] = lines[1].pop("offerd")
    lines[2]["label"] = 7
    result = invoke("check-trace", str(write(tmp_path, lines, "label.jsonl")))
    assert result.exit_code == 2 and "label.jsonl:3: label: expected a string, got int" in result.output


def test_pytest_plugin_runs_the_agreement_check(pytester):
    pytester.makepyfile("def test_nothing_else():\n    assert 1 + 1 == 2\n")
    ok = pytester.runpytest_subprocess("--chainproof-engine=agreement.wowtcg.builtin:BuiltinWowAdapter", "--chainproof-examples=2", "-p", "no:cacheprovider")
    ok.assert_outcomes(passed=2)
    bad = pytester.runpytest_subprocess("--chainproof-engine=no_such_module:make", "-p", "no:cacheprovider")
    bad.assert_outcomes(passed=1, failed=1)
    bad.stdout.fnmatch_lines(["*adapter error*cannot import no_such_module*"])


def test_conform_refuses_a_game_the_engine_does_not_play():
    result = invoke("conform", "--game", "hota", "--engine", "agreement.wowtcg.builtin:BuiltinWowAdapter")
    assert result.exit_code == 2
    assert "plays wowtcg, and --game asked for hota" in result.output


def test_the_pytest_plugin_refuses_to_check_no_games(pytester):
    result = pytester.runpytest_subprocess("--chainproof-engine=agreement.wowtcg.builtin:BuiltinWowAdapter", "--chainproof-examples=0", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--chainproof-examples 0: play at least 1 game*"])
