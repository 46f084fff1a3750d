"""Edge families a game's model reaches at its default bounds, with their
rules: what ``chainproof conform`` must exercise.

Exploring a model to find them takes from seconds to tens of seconds, more
than a short conformance run itself, so each game keeps them as data
(``agreement/<game>/reachable.yaml``) and a test explores the model and
compares.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import yaml

import numpy as np

from checkers import vector
from model.machine import Machine


def kept_file(game: str) -> Path:
    """Where a game keeps its reachable edge families."""
    return Path(__file__).with_name(game) / "reachable.yaml"


def load(path: Path) -> dict[str, tuple[str, ...]]:
    """The edge families kept in ``path``, with their rules."""
    data = yaml.safe_load(path.read_text())
    return {name: tuple(rules) for name, rules in data["families"].items()}


def explore(m: Machine, family: Callable[[str], str]) -> dict[str, tuple[str, ...]]:
    """The edge families (by ``family``) of every edge an exploration of ``m``
    takes, exploration bounds left out, with the rules of the first edge of
    each (in the order breadth-first search first takes them)."""
    taken = vector.explore(m).step_edge
    edges, first = np.unique(taken, return_index=True)
    out: dict[str, tuple[str, ...]] = {}
    for i in edges[np.argsort(first)].tolist():
        e = m.edges[i]
        if not e.has("bound"):
            out.setdefault(family(e.name), e.rules)
    return dict(sorted(out.items()))
