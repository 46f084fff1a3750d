"""--junit FILE: JUnit XML for verify, scenarios, lint and conform, each
property, ruling, finding or engine run a test case that fails exactly where
the command's exit code counts it against the run."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from xml.etree import ElementTree as ET

from click.testing import CliRunner

from agreement.findings import Finding as EngineFinding
from chainproof import junit
from chainproof.cli import main
from chainproof.linting import Finding

DATA = Path(__file__).parent / "data" / "scenarios" / "wowtcg"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def cases(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    return {c.get("name"): c for c in root.iter("testcase")}


def test_verify_writes_one_case_per_property_and_fails_the_violated_one(tmp_path: Path):
    out = tmp_path / "verify.xml"
    result = invoke("verify", "--game", "wowtcg", "--variant", "basic-chain-priority", "--property", "turn_player_first",
                    "--method", "bmc", "--depth", "8", "--junit", str(out))
    assert result.exit_code == 1, result.output
    (case,) = cases(out).values()
    failure = case.find("failure")
    assert case.get("name") == "turn_player_first" and case.get("classname") == "chainproof.verify.wowtcg"
    assert failure is not None and failure.get("message").startswith("violated (bmc, depth 7)")
    # The counterexample, step by step, is the failure's text.
    assert "pass_priority" in failure.text and "7." in failure.text
    root = ET.parse(out).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("1", "1", "0")


def test_verify_keeps_what_a_passing_property_established(tmp_path: Path):
    out = tmp_path / "verify.xml"
    # Riftbound's any-length model is searched whole in 49,242 states (HotA's
    # takes a million): the same verdict and note, for half the time.
    assert invoke("verify", "--game", "riftbound", "--turns", "2", "--property", "roles_consistent", "--junit", str(out)).exit_code == 0
    (case,) = cases(out).values()
    assert case.find("failure") is None
    assert case.find("system-out").text.startswith("proved (explicit (any length), depth")
    assert "exhaustive search: all" in case.find("system-out").text


def test_scenarios_fail_a_wrong_ruling_and_error_a_malformed_file(tmp_path: Path):
    out = tmp_path / "scenarios.xml"
    result = invoke("scenarios", "--path", str(DATA / "passes.yaml"), "--path", str(DATA / "wrong-ruling.yaml"),
                    "--path", str(DATA / "unknown-card.yaml"), "--junit", str(out))
    assert result.exit_code == 2, result.output
    by_name = {Path(name).name: c for name, c in cases(out).items()}
    assert by_name["passes.yaml"].find("failure") is None
    assert "ruling differs" in by_name["wrong-ruling.yaml"].find("failure").get("message")
    assert "unknown card 'Ashen Recruitt'" in by_name["unknown-card.yaml"].find("error").text
    suite = ET.parse(out).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")


def test_a_known_finding_passes_with_its_note_and_a_new_one_fails():
    known = Finding("wowtcg", "source-clash", "source-clash:x:001", ("409.4a",), "they differ", known=True, note="B2: read")
    new = Finding("wowtcg", "gap", "gap:y", ("601.1",), "no text answers")
    root = junit.document(junit.lint_cases([known, new]))
    by_name = {c.get("name"): c for c in root.iter("testcase")}
    assert by_name["source-clash:x:001"].find("failure") is None
    assert "known (B2: read)" in by_name["source-clash:x:001"].find("system-out").text
    assert by_name["gap:y"].find("failure").get("message") == "new gap [601.1]: no text answers"
    assert root.get("failures") == "1"


def test_conform_is_one_case_that_fails_on_a_disagreement(tmp_path: Path):
    out = tmp_path / "conform.xml"
    assert invoke("conform", "--game", "hota", "--examples", "3", "--junit", str(out)).exit_code == 0
    (case,) = cases(out).values()
    assert case.find("failure") is None and "3 games" in case.find("system-out").text
    broken = SimpleNamespace(game="hota", ok=False, examples=3, steps=9, transcript="script: [P1 passes]", capped=[],
                             findings=[EngineFinding("unsound", ("104.2",), "the engine let P1 win twice")])
    (failed,) = junit.conform_cases(broken)
    assert failed.outcome == junit.FAILED and "unsound (104.2): the engine let P1 win twice" in failed.message
    assert failed.detail == "script: [P1 passes]"


def test_an_unwritable_report_is_one_line_and_exit_2(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    # Explicit search alone: the report is written after any method's verdicts, and the portfolio's proof costs seconds more.
    result = invoke("verify", "--game", "hota", "--property", "nobody_wins_and_loses", "--method", "explicit",
                    "--junit", str(blocker / "out.xml"))
    assert result.exit_code == 2 and "cannot write" in result.output and result.output.count("\n") == 1


def test_junit_with_explain_is_refused():
    result = invoke("verify", "--explain", "priority_exclusive", "--junit", "x.xml")
    assert result.exit_code == 2 and "--junit would be ignored" in result.output
