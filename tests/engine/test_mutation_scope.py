"""The mutation benchmark's scope (benchmarks/mutation.toml) names functions the
engine still has: a renamed function would silently leave mutation testing."""

from __future__ import annotations

import ast
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_function_the_mutation_scope_names_exists() -> None:
    config = tomllib.loads((ROOT / "benchmarks" / "mutation.toml").read_text(encoding="utf-8"))
    for module, patterns in config["mutate"]["functions"].items():
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        missing = [p for p in patterns if not any(fnmatch(name, p) for name in defined)]
        assert not missing, f"{module}: benchmarks/mutation.toml names {missing}, which {module} does not define"
