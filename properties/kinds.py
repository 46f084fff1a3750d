"""What must hold of a rulebook's model, stated once for every checker.

A property has a name, the rule numbers it checks, a one-line statement and a
kind:

- ``Invariant``: every reachable state satisfies ``holds`` (optionally only
  those satisfying ``premise``; if no reachable state does, the verdict is
  *vacuous*);
- ``StepProperty``: every step along an edge that ``applies`` to satisfies
  ``holds(pre, post)``; if no such step is ever taken, the verdict is vacuous;
- ``Deadlock``: no reachable state that is not terminal lacks an enabled edge;
- ``Eventually``: every run from a reachable state satisfying ``premise``
  reaches a state satisfying ``goal`` (the premise state itself may be it).
  A cycle of non-goal states or a non-goal state with no enabled edge, after a
  premise state and without the goal in between, violates it; terminal
  locations are such dead ends unless the goal includes them.  If no
  reachable state satisfies the premise, the verdict is vacuous.

``holds``, ``premise`` and ``goal`` take the machine, the state(s) and a
backend, so the same definition is checked by explicit search and by Z3.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from model.backend import Backend
from model.machine import Edge, Machine


@dataclass(frozen=True)
class Property:
    name: str
    rules: tuple[str, ...]
    statement: str

    kind = "property"


@dataclass(frozen=True)
class Invariant(Property):
    holds: Callable[[Machine, Any, Backend], Any]
    premise: Callable[[Machine, Any, Backend], Any] | None = None

    kind = "invariant"


@dataclass(frozen=True)
class StepProperty(Property):
    applies: Callable[[Edge], bool]
    holds: Callable[[Machine, Any, Any, Backend], Any]

    kind = "step"


@dataclass(frozen=True)
class Deadlock(Property):
    kind = "deadlock"


@dataclass(frozen=True)
class Eventually(Property):
    premise: Callable[[Machine, Any, Backend], Any]  # a state from which the obligation starts
    goal: Callable[[Machine, Any, Backend], Any]  # a state that discharges it

    kind = "liveness"


def validate(machine: Machine, properties: Sequence[Property]) -> None:
    """Every property cites rules the registry knows (the build fails otherwise)."""
    seen: set[str] = set()
    for p in properties:
        if p.name in seen:
            raise ValueError(f"two properties are named {p.name!r}")
        seen.add(p.name)
        if not p.rules:
            raise ValueError(f"property {p.name!r} cites no rule")
        machine.registry.require(p.rules, f"property {p.name!r}")


def select(properties: Sequence[Property], pattern: str | None) -> list[Property]:
    if pattern is None:
        return list(properties)
    return [p for p in properties if fnmatch.fnmatchcase(p.name, pattern)]
