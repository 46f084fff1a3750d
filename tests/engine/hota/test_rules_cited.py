"""The engine cites only rule ids the rulebook's sections 100-109 have, or
assumed rules its README lists; every refusal names one; and it imports nothing
from model/, properties/ or agreement/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "engine" / "hota"

SEED_RULES = {
    "100.2a",
    "101.1", "101.2", "101.2a", "101.3", "101.4", "101.4a", "101.4b", "101.4c", "101.4d",
    "102.1",
    "103.1", "103.2", "103.3", "103.4", "103.5", "103.5a",
    "104.1", "104.2", "104.2a", "104.2b", "104.3", "104.3a", "104.3b", "104.3c", "104.3d", "104.3e", "104.3f",
    "104.4", "104.4a", "104.4b", "104.4c", "104.5",
    "105.1", "105.2", "105.3",
    "106.1", "106.1a", "106.2", "106.2a", "106.3", "106.3a", "106.4",
    "107.1", "107.2", "107.3",
    "108.1", "108.2", "108.2a", "108.2b", "108.2c", "108.3", "108.4",
    "109.1", "109.2", "109.2a", "109.3", "109.4", "109.4a", "109.4b", "109.5", "109.5a", "109.5b", "109.5c",
    "109.5d", "109.5e", "109.5f", "109.5g",
}
NUMBERED = re.compile(r"(?<![\w.])(1\d\d\.\d+[a-z]?)(?![\w])")
ASSUMED = re.compile(r"assumed:[a-z][a-z-]*[a-z]")


def sources() -> list[Path]:
    return sorted(ENGINE.glob("*.py")) + [ENGINE / "cards.yaml"]


def cited(pattern: re.Pattern) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sources():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for m in pattern.finditer(line):
                out.setdefault(m.group(0) if pattern is ASSUMED else m.group(1), []).append(f"{path.name}:{n}")
    return out


def listed_assumptions() -> set[str]:
    return set(ASSUMED.findall((ENGINE / "README.md").read_text()))


def test_every_numbered_rule_cited_is_one_of_the_seeds():
    found = cited(NUMBERED)
    assert len(found) > 30
    unknown = {rid: where for rid, where in found.items() if rid not in SEED_RULES}
    assert not unknown, unknown


def test_every_assumed_rule_cited_is_listed_in_the_readme_and_every_listed_one_is_used():
    found = set(cited(ASSUMED))
    listed = listed_assumptions()
    assert found - listed == set(), found - listed
    assert listed - found == set(), listed - found
    assert {"assumed:draw-step", "assumed:priority", "assumed:turn-end", "assumed:priority-check",
            "assumed:trigger-order", "assumed:once-per-turn", "assumed:no-costs", "assumed:resolve-at-once",
            "assumed:leaver-objects", "assumed:seat-order"} <= found


def test_the_rules_of_the_sections_that_govern_play_are_all_cited():
    found = set(cited(NUMBERED))
    needed = {"100.2a", "101.1", "101.2", "101.2a", "101.3", "101.4", "101.4a", "101.4b", "101.4c", "101.4d",
              "102.1", "103.1", "103.2", "103.3", "103.4", "103.5", "103.5a", "104.1", "104.2a", "104.2b",
              "104.3a", "104.3b", "104.3c", "104.3d", "104.3e", "104.4a", "104.4b", "104.4c", "104.5",
              "107.1", "107.2", "108.4", "109.2", "109.2a", "109.5a", "109.5c", "109.5d", "109.5f", "109.5g"}
    assert needed - found == set()


def test_every_refusal_names_a_known_rule():
    """The first item of every problem the state returns is a rule id."""
    tree = ast.parse((ENGINE / "state.py").read_text())
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and node.value.elts:
            first = node.value.elts[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                ids.add(first.value)
    assert {"assumed:priority", "assumed:once-per-turn", "101.2a", "101.4d", "103.4", "104.1"} <= ids
    assert all(i in SEED_RULES or i in listed_assumptions() for i in ids), ids


def test_the_engine_imports_no_model_properties_or_agreement():
    """No import of them, and no string in the code (docstrings aside) that
    could reach them by path or by a dynamic import."""
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {id(n.value) for n in ast.walk(tree)
                      if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                assert name.split(".")[0] not in ("model", "properties", "agreement", "chainproof"), (path, name)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert not re.search(r"\b(model|properties|agreement)\b[/.]", node.value), (path, node.value)
            if isinstance(node, ast.Name):
                assert node.id not in ("importlib", "__import__"), path
