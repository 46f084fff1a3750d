"""The model's concrete steps as the harness reads them, kept.

At each engine step the harness expands the same model states several times:
steering searches breadth-first from the choice point, the step's check
follows the automatic edges from it, and the next step's search starts where
this one's passed through.  Guards and updates are pure functions of a state,
so each state's enabled edges and successors are computed once and kept for
the states read most recently (a game's searches revisit only the last few
steps' states).

A state's steps are ``Machine.steps_from``'s, taken without its generator
and ``_replace``: expanding new states is most of a checked step's time, and
about a tenth of that went into the generator's resumptions and the
successor's assembly (``tests/test_agreement_speed.py`` holds them equal).
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Any

from model.backend import CONCRETE
from model.machine import Edge, Machine

#: How many states' steps are kept (a step's searches read some hundreds).
KEPT = 1 << 12

#: Per machine: each location's leaving edges, in the machine's order, in runs
#: of edges that share a prefilter (None: none), each run as its prefilter and
#: its edges as (edge, target index, guard, update); and each variable's place
#: in a state.  Made once per machine.
_plans: "weakref.WeakKeyDictionary[Machine, tuple[dict[int, tuple[Any, ...]], dict[str, int]]]" = weakref.WeakKeyDictionary()


def _plan(m: Machine) -> tuple[dict[int, tuple[Any, ...]], dict[str, int]]:
    found = _plans.get(m)
    if found is None:
        leaving = {}
        for loc, out in m.out_index.items():
            runs: list[tuple[Any, list[tuple[Any, ...]]]] = []
            for e, target in out:
                # Equal, not the same: a bound method shared as a prefilter is a new object each time it is read.
                if not runs or runs[-1][0] != e.prefilter:
                    runs.append((e.prefilter, []))
                runs[-1][1].append((e, target, e.guard, e.update))
            leaving[loc] = tuple((prefilter, tuple(edges)) for prefilter, edges in runs)
        found = _plans[m] = (leaving, {name: i for i, name in enumerate(m.State._fields)})
    return found


@lru_cache(maxsize=KEPT)
def successors(m: Machine, s: Any) -> tuple[tuple[Edge, Any], ...]:
    """Each edge of ``m`` enabled in ``s``, with its successor, in the machine's
    order: ``Machine.successors``, prefilters asked once for the edges that
    share one, and a run of such edges passed over at once where it fails."""
    leaving, place = _plan(m)
    make = m.State._make
    out = []
    asked: dict[Any, bool] = {}
    for prefilter, edges in leaving[s.location]:
        if prefilter is not None:
            holds = asked.get(prefilter)
            if holds is None:
                holds = asked[prefilter] = bool(prefilter(s, CONCRETE))
            if not holds:
                continue
        for e, target, guard, update in edges:
            if guard(s, CONCRETE):
                values = list(s)
                values[0] = target
                for name, value in update(s, CONCRETE).items():
                    values[place[name]] = value
                out.append((e, make(values)))
    return tuple(out)
