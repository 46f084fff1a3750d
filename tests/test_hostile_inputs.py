"""Hostile files (tests/data/hostile/) given to every command that reads a
file: each is refused with one line that names the file, and exit 2; no
traceback, no "internal error", no run that goes on regardless."""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from chainproof import common
from chainproof.cli import main
from checkers import portfolio
from model import limits, safe_yaml, sources
from model.sources import SOURCES
from model.registry import RegistryError, read_yaml
from scenarios import runner as scenario_runner

HOSTILE = Path(__file__).parent / "data" / "hostile"
YAML_FILES = sorted(HOSTILE.glob("*.yaml"))

#: What each file breaks, as the refusal says it.
REASONS = {
    "alias_bomb.yaml": "expand to more than",
    "deep.yaml": "nest more than",
    "not_utf8.yaml": "not UTF-8",
    "not_yaml.yaml": "not valid YAML",
    "recursive.yaml": "refers to the value it is part of",
    "long_number.yaml": "a number with more than 1,000 digits",
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


@pytest.mark.parametrize("command", ["verify", "lint"])
def test_a_resource_limit_past_what_z3_counts_is_refused(command):
    # Z3 would wrap 2**32 + 5 round to 5 units and then blame the limit.
    result = invoke(command, "--game", "hota", "--rlimit", str(2**32 + 5))
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"chainproof: error: --rlimit {2**32 + 5} is more than Z3 can count: allowed 1..{2**32 - 1}"


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "--game", "hota", "--junit"],
        ["scenarios", "--game", "hota", "--junit"],
        ["conform", "--game", "hota", "--junit"],
        ["lint", "--game", "hota", "--sarif"],
        ["lint", "--game", "hota", "--markdown"],
        ["lint", "--game", "hota", "--scenarios"],
        ["diff", "hota", "seed", "seed", "--scenario"],
    ],
    ids=lambda a: f"{a[0]} {a[-1]}",
)
def test_an_output_in_a_missing_folder_is_refused_before_any_work(tmp_path, args):
    target = tmp_path / "missing" / "out"
    result = invoke(*args, str(target))
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"chainproof: error: {args[-1]} {target}: cannot write there: the folder {target.parent} does not exist"
    assert not target.parent.exists()


def test_an_output_that_is_a_file_where_a_folder_is_wanted_is_refused(tmp_path):
    taken = tmp_path / "docs"
    taken.write_text("", encoding="utf-8")
    result = invoke("lint", "--game", "hota", "--markdown", str(taken))
    # click refuses a file where its option wants a folder: usage error, exit 2.
    assert result.exit_code == 2 and "is a file" in result.output


def test_a_reader_that_leaves_the_pipe_ends_the_run_quietly():
    def run() -> int:
        raise BrokenPipeError
    with pytest.raises(SystemExit) as stopped:
        common.guarded(run)
    assert stopped.value.code == 141


def on_broken_pipe() -> int:
    # What Rich's Console does when the reader has gone: stdout pointed nowhere, then exit 1.
    raise SystemExit(1)


def test_a_reader_leaving_rich_output_gets_the_same_code_as_plain_output():
    with pytest.raises(SystemExit) as stopped:
        common.guarded(on_broken_pipe)
    assert stopped.value.code == 141

    def finding() -> int:
        raise SystemExit(1)
    with pytest.raises(SystemExit) as stopped:
        common.guarded(finding)
    assert stopped.value.code == 1


def test_piped_scenarios_print_one_line_each_with_the_status_before_the_name():
    folder = Path(__file__).parent / "data" / "scenarios" / "wowtcg"
    result = invoke("scenarios", "--path", str(folder / "bad-yaml.yaml"), "--path", str(folder / "no-such-action.yaml"))
    assert result.exit_code == 2, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "game    status  scenario  rules"
    rows = {Path(line.split()[2]).name: line.split()[:2] for line in lines[1:3]}
    assert rows == {"bad-yaml.yaml": ["wowtcg", "error"], "no-such-action.yaml": ["wowtcg", "error"]}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (b"\xff\xfe 100. Rules\n", "not UTF-8 text (byte 0), so not the rule text 004"),
        (b"100. Rules\n101. Cut short\n", "3 lines where the rule text 004 has 236: not the text the rules cite"),
        (b"", "1 line where the rule text 004 has 236"),
    ],
    ids=["not-utf8", "truncated", "empty"],
)
def test_lint_refuses_a_rule_text_that_is_not_the_one_cited_before_it_searches(tmp_path, monkeypatch, text, says):
    (tmp_path / "seeds").mkdir()
    hota_text = tmp_path / "seeds" / SOURCES["004"].file
    hota_text.write_bytes(text)
    monkeypatch.setenv("CHAINPROOF_TEXTS", str(tmp_path))
    sources.lines_of.cache_clear()
    try:
        result = invoke("lint", "--game", "hota")
    finally:
        sources.lines_of.cache_clear()
    line = refused_in_one_line(result, hota_text)
    assert line.startswith(f"chainproof: error: {hota_text}: ") and says in line


def test_lint_refuses_a_texts_folder_without_seeds_rather_than_skip_its_text_checks(tmp_path, monkeypatch):
    monkeypatch.setenv("CHAINPROOF_TEXTS", str(tmp_path))
    result = invoke("lint", "--game", "hota")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        f"chainproof: error: CHAINPROOF_TEXTS={tmp_path}: no folder seeds/ there; it names the folder that holds seeds/ and reference/"
    )


def test_piped_conform_prints_one_line_per_edge_without_box_drawing():
    result = invoke("conform", "--game", "hota", "--examples", "1", "--seed", "3", "--no-shrink")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("hota: model edges exercised by the engine") and lines[1].split() == ["edge", "times", "rules"]
    assert not any(ch in result.stdout for ch in "┏┃━│")
    edge_rows = lines[2:lines.index(next(line for line in lines if line.startswith("edges reachable")))]
    assert edge_rows and all(row.split()[1].isdigit() for row in edge_rows)


#: Traces that are not traces, and what check-trace says of each (after the file and line).
TRACE_REASONS = {
    "trace_offered_not_actions.jsonl": ":2: offered[0]: action: expected an object",
    "trace_offered_not_a_list.jsonl": ":2: offered: expected a list of actions, got dict",
    "trace_deep.jsonl": ":2: not a trace line: its JSON nests too deeply",
    "trace_long_number.jsonl": ":2: not a trace line: a number with too many digits",
}


@pytest.mark.parametrize("name", sorted(TRACE_REASONS))
def test_check_trace_refuses_a_hostile_trace_naming_its_line(name):
    path = HOSTILE / name
    line = refused_in_one_line(invoke("check-trace", str(path)), path)
    assert f"{path.name}{TRACE_REASONS[name]}" in line


@pytest.mark.parametrize(
    ("name", "says"),
    [("report_deep.json", "its JSON nests too deeply"), ("report_long_number.json", "a number with too many digits")],
)
def test_report_refuses_hostile_json_in_one_line(tmp_path, name, says):
    path = HOSTILE / name
    line = refused_in_one_line(invoke("report", str(tmp_path / "page.html"), "--lint", str(path)), path)
    assert says in line


def _stopped_by_ctrl_c(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_is_one_line_exit_130_and_json_that_says_it_was_cut_short(monkeypatch, as_json):
    monkeypatch.setattr(scenario_runner, "run_all", _stopped_by_ctrl_c)
    result = invoke("scenarios", "--game", "hota", *(["--json"] if as_json else []))
    assert result.exit_code == 130, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("chainproof: interrupted after ") and line.endswith(" s: no result")
    if as_json:
        assert json.loads(result.stdout) == {"interrupted": True, "partial": True, "after_seconds": json.loads(result.stdout)["after_seconds"]}
    else:
        assert result.stdout == ""


def _sigint_action() -> object:
    return signal.getsignal(signal.SIGINT)


def test_a_portfolio_worker_ends_silently_on_ctrl_c():
    # The command's own process reports the interrupt once; a worker must not add a traceback.
    with portfolio._workers(2) as pool:
        assert pool.submit(_sigint_action).result() == signal.SIG_DFL


def test_a_query_cancelled_by_a_recorded_ctrl_c_is_an_interrupt_not_a_verdict(monkeypatch):
    # Z3's own SIGINT handler is off under ctrl_c_stops_z3, which records the signal.
    monkeypatch.setattr(limits, "_CTRL_C", threading.Event())
    limits._CTRL_C.set()
    with pytest.raises(KeyboardInterrupt):
        limits.why_unknown("canceled", 600_000)
    # Where Z3's handler is on, Z3 names the query it stopped.
    limits._CTRL_C.clear()
    with pytest.raises(KeyboardInterrupt):
        limits.why_unknown("interrupted from keyboard", 600_000)


def test_verify_with_bmc_stopped_by_ctrl_c_prints_no_verdicts(monkeypatch):
    import z3

    monkeypatch.setattr(limits, "_CTRL_C", threading.Event())

    def cancelled_by_ctrl_c(self, *assumptions):
        limits._CTRL_C.set()  # what the watcher records when SIGINT arrives during a check
        return z3.unknown

    monkeypatch.setattr(z3.Solver, "check", cancelled_by_ctrl_c)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "canceled")
    result = invoke("verify", "--game", "hota", "--method", "bmc", "--depth", "2", "--property", "nobody_wins_and_loses", "--json")
    assert result.exit_code == 130, result.output
    assert json.loads(result.stdout)["interrupted"] is True


ENDLESS = Path("/dev/zero")


@pytest.mark.skipif(not ENDLESS.exists(), reason="no /dev/zero here")
@pytest.mark.parametrize(
    "args",
    [
        ["lint", "--game", "hota", "--known"],
        ["check-trace"],
        ["campaign"],
        ["report", "page.html", "--verify"],
    ],
    ids=lambda a: a[0],
)
def test_a_device_that_never_ends_is_refused_not_read(args):
    # Read whole, /dev/zero would grow memory until the process died.
    line = refused_in_one_line(invoke(*args, str(ENDLESS)), ENDLESS)
    assert "not a regular file (a device or a pipe)" in line


@pytest.mark.skipif(not ENDLESS.exists(), reason="no /dev/zero here")
def test_scenarios_reports_a_device_as_an_error_without_reading_it():
    result = invoke("scenarios", "--path", str(ENDLESS), "--json")
    assert result.exit_code == 2, result.output
    assert "not a regular file" in json.loads(result.stdout)["results"][0]["detail"]


def test_piped_diff_puts_each_step_and_each_readings_changes_on_lines_of_their_own():
    result = invoke("diff", "wowtcg", "seed", "basic-chain-priority")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    # Not a table padded to 200 columns: no trailing blanks, and the rows read in order.
    assert not any(line != line.rstrip() for line in lines)
    at = lines.index("  1  game  ready_cards")
    assert lines[at + 1].startswith("       seed: location: ready_step_start -> ready_step")
    assert lines[at + 2] == "       basic-chain-priority: (the same)"


def test_a_scenario_file_named_twice_runs_once():
    path = Path(__file__).parent / "data" / "scenarios" / "wowtcg" / "bad-yaml.yaml"
    also = path.parent.parent / "wowtcg" / ".." / "wowtcg" / path.name
    result = invoke("scenarios", "--path", str(path), "--path", str(also), "--path", str(path), "--json")
    assert json.loads(result.stdout)["summary"]["error"] == 1, result.output


def test_ctrl_c_inside_a_finalizer_is_sent_again_instead_of_lost(monkeypatch):
    sent = []

    class Timer:
        def __init__(self, delay, send, args):
            sent.append((send, args))

        def start(self):
            pass

    class Term:
        def __del__(self):
            frames.append(sys._getframe())

    frames: list = []
    Term()  # freed at once: its __del__ runs
    monkeypatch.setattr(common.threading, "Timer", Timer)
    common._ctrl_c(signal.SIGINT, frames[0])  # a KeyboardInterrupt here would be printed and lost
    assert sent == [(signal.raise_signal, (signal.SIGINT,))]
    with pytest.raises(KeyboardInterrupt):
        common._ctrl_c(signal.SIGINT, sys._getframe())
    assert len(sent) == 1


def test_certify_that_proves_less_than_it_was_asked_leaves_the_kept_invariants_alone(monkeypatch):
    """A low --rlimit (or a proof the model no longer has) is a shortfall to
    report, not an empty set of invariants written over the kept ones."""
    from checkers import invariants
    from checkers.results import Attempt, Result

    asked = [Result("wowtcg", name, (), "invariant", "unknown", 0, "portfolio", 0.0,
                    attempts=[Attempt("spacer", "any-length", "unknown", 0.0, "the resource limit was reached")])
             for name in ("priority_exclusive", "turn_player_first")]
    monkeypatch.setattr(portfolio, "verify", lambda *a, **k: portfolio.Run(asked, {}, {}))
    written = []
    monkeypatch.setattr(invariants, "save", lambda *a, **k: written.append(a))
    result = invoke("certify", "--game", "wowtcg", "--rlimit", "1")
    assert result.exit_code == 1, result.output
    assert written == []
    assert "wowtcg: Spacer proved 0 of the 2 properties it was asked about, not priority_exclusive, turn_player_first;" in result.output
    assert "checkers/invariants/wowtcg.json is left as it was" in result.output
