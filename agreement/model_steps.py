"""The model's concrete steps as the harness reads them, kept.

At each engine step the harness expands the same model states several times:
steering searches breadth-first from the choice point, the step's check
follows the automatic edges from it, and the next step's search starts where
this one's passed through.  Guards and updates are pure functions of a state,
so each state's enabled edges and successors are computed once and kept for
the states read most recently (a game's searches revisit only the last few
steps' states).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from model.machine import Edge, Machine

#: How many states' steps are kept (a step's searches read some hundreds).
KEPT = 1 << 12


@lru_cache(maxsize=KEPT)
def successors(m: Machine, s: Any) -> tuple[tuple[Edge, Any], ...]:
    """Each edge of ``m`` enabled in ``s``, with its successor, in the machine's order."""
    return tuple(m.successors(s))
