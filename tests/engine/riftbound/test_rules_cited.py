"""The engine cites the seed's rule ids (model/riftbound/rules.yaml, read as
data): every id it cites exists, every refusal names one, and every rule the
registry marks encoded or assumed is cited somewhere in the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "engine" / "riftbound"
RULES = {r["id"]: r for r in yaml.safe_load((ROOT / "model" / "riftbound" / "rules.yaml").read_text())["rules"]}
CITATION = re.compile(r"(?<![\w.])((?:combat|showdown|damage|resolution|qa)(?:\.[a-z][a-z0-9-]*)+|assumed:[a-z][a-z-]*)")


def cited() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for m in CITATION.finditer(line):
                rid = m.group(1).rstrip(".-")
                if rid.endswith(".py"):
                    continue  # a file name (damage.py)
                out.setdefault(rid, []).append(f"{path.name}:{n}")
    return out


def test_every_cited_rule_id_is_registered():
    found = cited()
    assert len(found) > 30
    unknown = {rid: where for rid, where in found.items() if rid not in RULES}
    assert not unknown, unknown


def test_every_rule_the_engine_implements_is_cited():
    implemented = {rid for rid, r in RULES.items() if r["status"] in ("encoded", "assumed")}
    assert implemented - set(cited()) == set()


def test_refusals_name_registered_rules():
    """Every rule id written in a refusal of state.py (the first item of each
    problem tuple) is registered."""
    tree = ast.parse((ENGINE / "state.py").read_text())
    ids = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
           and CITATION.fullmatch(node.value)}
    assert {"assumed:standard-move", "damage.assign", "combat.multiplayer.no-destination"} <= ids
    assert ids <= set(RULES), ids - set(RULES)


def test_the_engine_imports_no_model():
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                assert name.split(".")[0] not in ("model", "properties", "agreement", "chainproof"), (path, name)
