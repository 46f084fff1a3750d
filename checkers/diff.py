"""Rules diff: the shortest game on which two readings of the rules part.

Two machines of one game (the seed's reading and a variant, or two variants)
share their variables, so a state of one is a state of the other.  The search
walks both in lockstep from their common initial states, breadth first: at
each pair it takes every action (edge name) either machine allows, and stops
at the first step where

- one reading allows an action the other forbids, or
- the same action leads the two to states a judge reads differently
  (``Machine.aspects``: monitors such as ``passed`` are not part of the game).

Breadth-first order makes that game one of the shortest.  When the search
runs out of pairs, the two readings agree on every game within the bounds;
when it stops at ``max_pairs`` first, they agree on every game it covered.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

from model.machine import Edge, Machine, ModelError
from checkers.results import Transcript

#: Parts (what differs) of a divergence.
ONLY_IN_FIRST = "only the first reading allows it"
ONLY_IN_SECOND = "only the second reading allows it"
DIFFERENT_STATES = "the same action leads to different states"

DEFAULT_MAX_PAIRS = 2_000_000


@dataclass(frozen=True)
class Divergence:
    """Where two readings part: the common game up to the step, then the step."""

    action: str  # the edge name of the step where they part
    how: str  # ONLY_IN_FIRST, ONLY_IN_SECOND or DIFFERENT_STATES
    first: Transcript  # the game as the first reading plays it (the step included, if it allows it)
    second: Transcript
    #: The aspects that differ after the step (both readings took it), or the actions one allowed.
    differences: dict[str, tuple[str, str]]

    @property
    def length(self) -> int:
        """Steps up to and including the one where the readings part."""
        return max(len(self.first), len(self.second))


@dataclass(frozen=True)
class Comparison:
    first: str  # the readings' names
    second: str
    divergence: Divergence | None
    pairs: int  # pairs of states explored
    depth: int  # every game of up to this many steps was compared
    complete: bool  # the search ran out of pairs: the readings agree within the bounds
    seconds: float

    @property
    def verdict(self) -> str:
        if self.divergence is not None:
            return f"they part after {self.divergence.length} steps"
        if self.complete:
            return "they agree on every game within the bounds"
        return f"they agree on every game of up to {self.depth} steps (search stopped at {self.pairs} pairs)"


def compare(
    first: Machine, second: Machine, names: tuple[str, str] = ("first", "second"), max_pairs: int = DEFAULT_MAX_PAIRS
) -> Comparison:
    started = time.perf_counter()
    if first.State._fields != second.State._fields:
        raise ModelError(f"{names[0]} and {names[1]} have different variables: they are not readings of one model")
    starts_a = list(dict.fromkeys(first.initial_states()))
    starts_b = set(second.initial_states())
    # Both readings start from the same set-up; a variant never changes that.
    if set(starts_a) != starts_b:
        raise ModelError(f"{names[0]} and {names[1]} start from different states")

    # A state of one reading is met again and again, from every pair it is
    # part of: its judge's reading is made once.
    read_a, read_b = functools.lru_cache(maxsize=None)(first.aspects), functools.lru_cache(maxsize=None)(second.aspects)
    nodes: list[tuple[Any, Any]] = [(s, s) for s in starts_a]
    parent: list[tuple[int, Edge, Edge] | None] = [None] * len(nodes)
    depth = [0] * len(nodes)
    seen = {pair: i for i, pair in enumerate(nodes)}
    i = 0
    complete = True
    while i < len(nodes):
        if len(nodes) > max_pairs and depth[i] > depth[i - 1]:
            complete = False
            break
        a, b = nodes[i]
        steps_a = {e.name: (e, post) for e, post in first.successors(a)}
        steps_b = {e.name: (e, post) for e, post in second.successors(b)}
        for name in list(steps_a) + [n for n in steps_b if n not in steps_a]:
            in_a, in_b = steps_a.get(name), steps_b.get(name)
            if in_a is None or in_b is None:
                how = ONLY_IN_SECOND if in_a is None else ONLY_IN_FIRST
                found = _divergence(first, second, nodes, parent, i, name, how, in_a, in_b)
                return Comparison(*names, found, len(nodes), depth[i], False, time.perf_counter() - started)
            (ea, pa), (eb, pb) = in_a, in_b
            if read_a(pa) != read_b(pb):
                found = _divergence(first, second, nodes, parent, i, name, DIFFERENT_STATES, in_a, in_b)
                return Comparison(*names, found, len(nodes), depth[i], False, time.perf_counter() - started)
            if (pa, pb) not in seen:
                seen[(pa, pb)] = len(nodes)
                nodes.append((pa, pb))
                parent.append((i, ea, eb))
                depth.append(depth[i] + 1)
        i += 1
    reached = depth[i - 1] if complete else depth[i] - 1
    return Comparison(names[0], names[1], None, len(nodes), reached, complete, time.perf_counter() - started)


def _divergence(
    first: Machine,
    second: Machine,
    nodes: list[tuple[Any, Any]],
    parent: list[tuple[int, Edge, Edge] | None],
    at: int,
    action: str,
    how: str,
    in_a: tuple[Edge, Any] | None,
    in_b: tuple[Edge, Any] | None,
) -> Divergence:
    """The two games from the start to pair ``at``, then the step ``action``."""
    path_a: list[tuple[Edge, Any]] = []
    path_b: list[tuple[Edge, Any]] = []
    node = at
    while parent[node] is not None:
        pre, ea, eb = parent[node]  # type: ignore[misc]
        path_a.append((ea, nodes[node][0]))
        path_b.append((eb, nodes[node][1]))
        node = pre
    path_a.reverse()
    path_b.reverse()
    start_a, start_b = nodes[node]
    if in_a is not None:
        path_a.append(in_a)
    if in_b is not None:
        path_b.append(in_b)
    if how == DIFFERENT_STATES:
        after_a, after_b = first.aspects(in_a[1]), second.aspects(in_b[1])  # type: ignore[index]
        differences = {k: (after_a.get(k, "-"), after_b.get(k, "-")) for k in {**after_a, **after_b} if after_a.get(k) != after_b.get(k)}
        note = f"after {action} the readings differ in {', '.join(differences)}"
    else:
        differences = {action: ("allowed", "not allowed") if how == ONLY_IN_FIRST else ("not allowed", "allowed")}
        note = f"{action}: {how}"
    return Divergence(
        action,
        how,
        Transcript.from_path(first, start_a, path_a, note),
        Transcript.from_path(second, start_b, path_b, note),
        differences,
    )
