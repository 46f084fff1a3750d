"""The rules registry covers the reference engine: every rule number cited in
``engine/wowtcg/*.py`` is registered, and ``chainproof coverage`` says which rules the
engine cites."""

from __future__ import annotations

import json

from click.testing import CliRunner

from chainproof import report
from chainproof.cli import main
from model import wowtcg


def test_the_engine_source_is_found() -> None:
    names = {p.name for p in report.engine_source("wowtcg")}
    assert {"state.py", "combat.py", "checks.py"} <= names, names
    assert report.engine_source("nosuch") == []


def test_citations_are_read_as_the_engine_writes_them() -> None:
    text = (
        "# 409.6b: lethal damage; CR7.4 709.2a rechecks targets; combat (600-603)\n"
        "# the 000 404.4 example (Vexra); it counts towards 100.4.\n"
        "# not rules: v1.2.3, 4090, x409, CR7.4 alone, 12.5\n"
    )
    found = [(m.group(1) or "") + m.group(2) for m in report.ENGINE_CITATION.finditer(text)]
    found = [f for f in found if f not in report.SEED_FILES]
    assert found == ["409.6b", "CR7.4 709.2a", "600", "603", "404.4", "100.4"]


def test_every_rule_the_engine_cites_is_in_the_registry() -> None:
    cited = report.engine_citations("wowtcg")
    assert cited, "no rule citations found in engine/wowtcg/*.py"
    missing = {rule: where for rule, where in cited.items() if rule not in wowtcg.REGISTRY}
    assert not missing, (
        f"engine/wowtcg cites {len(missing)} rule numbers that {wowtcg.REGISTRY.path} lacks "
        "(add them to the registry, or fix the citation: CR7.4 numbers need their 'CR7.4 ' prefix):\n"
        + "\n".join(f"  {rule}  at {', '.join(where)}" for rule, where in missing.items())
    )


def test_coverage_json_says_which_rules_the_engine_cites() -> None:
    result = CliRunner().invoke(main, ["coverage", "--game", "wowtcg", "--json"])
    assert result.exit_code == 0, result.output
    (table,) = json.loads(result.output)["games"]
    entries = {e["id"]: e for e in table["entries"]}
    cited = set(report.engine_citations("wowtcg"))

    assert entries["409.6b"]["engine"] is True
    not_cited = [rid for rid in entries if rid not in cited]
    assert not_cited, "the engine cites every registered rule; pick another negative example"
    assert entries[not_cited[0]]["engine"] is False

    assert {rid for rid, e in entries.items() if e["engine"]} == cited & set(entries)
    assert table["engine"] == len(cited & set(entries))
    assert sum(s["engine"] for s in table["sections"]) == table["engine"]
    assert table["engine_unregistered"] == sorted(cited - set(entries))


def test_coverage_plain_marks_engine_rules() -> None:
    result = CliRunner().invoke(main, ["coverage", "--game", "wowtcg"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if " 409.6b " in line)
    # Encoded, cited by the engine, named by a scenario (seed-000/409.6b-...).
    assert line.startswith(" + es 409.6b"), line


def test_every_rule_the_hota_engine_cites_is_in_the_registry() -> None:
    from model import hota

    cited = report.engine_citations("hota")
    assert "109.5g" in cited and "assumed:priority-check" in cited
    missing = {rule: where for rule, where in cited.items() if rule not in hota.REGISTRY}
    assert not missing, missing
