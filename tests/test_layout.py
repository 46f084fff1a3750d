"""The packages' imports run one way (DESIGN.md): the rules (model/) know no
checker, property, harness or file format; the reference engines know no
model; checkers know no harness, scenario format or command line; the
harness knows no scenario format.  And package ``__init__.py`` files
define nothing: code lives in named modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

#: Each package and the top-level packages it must never import.
FORBIDDEN = {
    "model": {"properties", "checkers", "agreement", "scenarios", "chainproof", "engine", "benchmarks"},
    "properties": {"checkers", "agreement", "scenarios", "chainproof", "engine", "benchmarks"},
    "engine": {"model", "properties", "checkers", "agreement", "scenarios", "chainproof", "benchmarks"},
    "checkers": {"agreement", "scenarios", "chainproof", "engine", "benchmarks"},
    "agreement": {"scenarios", "chainproof", "benchmarks"},
    "scenarios": {"chainproof", "benchmarks"},
}


def imported_packages(path: Path) -> set[tuple[str, int]]:
    """The top-level package of every absolute import in the file, with its line."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out |= {(alias.name.split(".")[0], node.lineno) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add((node.module.split(".")[0], node.lineno))
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_run_one_way(package: str) -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name, line in sorted(imported_packages(path))
        if name in FORBIDDEN[package]
    ]
    assert not wrong, wrong


def test_the_check_sees_an_import_that_breaks_the_arrows(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import numpy\n\ndef f():\n    from checkers.explicit import explore\n", encoding="utf-8")
    assert ("checkers", 4) in imported_packages(module)


def test_package_init_files_define_nothing() -> None:
    """Imports, ``__all__`` and constants (a game's rules registry): no function,
    class or statement a reader would have to look for in an ``__init__.py``."""
    heavy = [
        f"{init.relative_to(ROOT)}:{node.lineno}"
        for package in FORBIDDEN
        for init in sorted((ROOT / package).rglob("__init__.py"))
        for node in ast.parse(init.read_text(encoding="utf-8")).body
        if not isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign))
        and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
    ]
    assert not heavy, heavy
