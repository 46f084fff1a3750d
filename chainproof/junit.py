"""JUnit XML, the report CI systems read: one test suite per command and
game, one test case per property (``verify``), ruling (``scenarios``),
finding (``lint``) or engine run (``conform``).

A case fails exactly where the command's exit code counts it against the
run: a property that does not pass (violated, vacuous, unknown), a ruling
that differs, a finding not in the known-findings file, an engine that
disagrees with the model.  Errors (a malformed scenario file) are errors.
What a passing case established (a bounded verdict, a known finding's note)
is kept in its ``system-out``, so that nothing is claimed more strongly than
the run did.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence
from xml.etree import ElementTree as ET

from chainproof.games import BadInput

PASSED, FAILED, ERROR = "passed", "failed", "error"


@dataclass(frozen=True)
class Case:
    suite: str  # "verify wowtcg"
    name: str  # the property, scenario file, finding key or engine run
    outcome: str  # PASSED, FAILED or ERROR
    message: str = ""  # one line: why it failed, or what it established
    detail: str = ""  # the transcript, or the full detail
    seconds: float = 0.0


def document(cases: Sequence[Case]) -> ET.Element:
    """``<testsuites>``, one ``<testsuite>`` per suite in order of first appearance."""
    root = ET.Element("testsuites", name="chainproof")
    suites: dict[str, list[Case]] = {}
    for case in cases:
        suites.setdefault(case.suite, []).append(case)
    for name, members in suites.items():
        suite = ET.SubElement(
            root, "testsuite", name=name, tests=str(len(members)),
            failures=str(sum(c.outcome == FAILED for c in members)), errors=str(sum(c.outcome == ERROR for c in members)),
            skipped="0", time=f"{sum(c.seconds for c in members):.3f}",
        )
        for case in members:
            element = ET.SubElement(suite, "testcase", classname=f"chainproof.{name.replace(' ', '.')}", name=case.name,
                                    time=f"{case.seconds:.3f}")
            if case.outcome == PASSED:
                text = "\n".join(x for x in (case.message, case.detail) if x)
                if text:
                    ET.SubElement(element, "system-out").text = text
                continue
            tag = "failure" if case.outcome == FAILED else "error"
            ET.SubElement(element, tag, message=case.message, type=case.outcome).text = case.detail or case.message
    for tag in ("tests", "failures", "errors"):
        root.set(tag, str(sum(int(s.get(tag, "0")) for s in root)))
    return root


def write(path: Path, cases: Sequence[Case]) -> None:
    """Write the cases to ``path`` as JUnit XML; an unwritable path is bad input (exit 2)."""
    tree = ET.ElementTree(document(cases))
    ET.indent(tree)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tree.write(path, encoding="utf-8", xml_declaration=True)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None


def _transcript(t: Any) -> str:
    return "\n".join(t.lines()) if t is not None else ""


def verify_cases(results: Iterable[Any]) -> list[Case]:
    """One case per property: it passes where ``verify`` counts it passing."""
    return [
        Case(f"verify {r.game}", r.property, PASSED if r.passing else FAILED,
             f"{r.verdict} ({r.method}, depth {r.depth}): {r.note}" if r.note else f"{r.verdict} ({r.method}, depth {r.depth})",
             _transcript(r.counterexample), r.seconds)
        for r in results
    ]


def scenario_cases(results: Iterable[Any]) -> list[Case]:
    """One case per scenario (per case of a file of several)."""
    outcome = {"pass": PASSED, "fail": FAILED, "error": ERROR}
    return [
        Case(f"scenarios {r.game}", r.scenario, outcome[r.status],
             r.detail.splitlines()[0] if r.status != "pass" else f"model: {r.model}" if r.model else "",
             r.detail if r.status != "pass" else "")
        for r in results
    ]


def lint_cases(findings: Iterable[Any]) -> list[Case]:
    """One case per finding: a known one passes (its note says why it stands), a new one fails."""
    return [
        Case(f"lint {f.game}", f.key, PASSED if f.known else FAILED,
             f"{f.kind}: known ({f.note})" if f.known else f"new {f.kind} [{' '.join(f.rules)}]: {f.summary}",
             _transcript(f.transcript))
        for f in findings
    ]


def conform_cases(report: Any) -> list[Case]:
    """One case for the engine's run against the model, then one passing case
    per game stopped before the rules ended it: not a disagreement, but a CI
    report should show that its end went unchecked."""
    said = f"{report.examples} games, {report.steps} steps"
    capped = [Case(f"conform {report.game}", f"game {game.game} stopped before it ended", PASSED, str(game)) for game in report.capped]
    if report.ok:
        return [Case(f"conform {report.game}", "engine agrees with the model", PASSED, said), *capped]
    findings = "; ".join(str(f) for f in report.findings)
    return [Case(f"conform {report.game}", "engine agrees with the model", FAILED, f"{said}: {findings}", report.transcript or ""), *capped]
