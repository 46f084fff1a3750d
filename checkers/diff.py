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

``compare`` expands a whole level of pairs at once, each reading's states
over arrays (``checkers/vector.py``); ``compare_state_by_state`` walks one
pair at a time over plain values.  Both meet pairs and actions in the same
order, so they find the same game and count the same pairs: the second is
the reference the tests hold the first to.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from checkers import vector
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


def _common_starts(first: Machine, second: Machine, names: tuple[str, str]) -> list[Any]:
    if first.State._fields != second.State._fields:
        raise ModelError(f"{names[0]} and {names[1]} have different variables: they are not readings of one model")
    starts = list(dict.fromkeys(first.initial_states()))
    # Both readings start from the same set-up; a variant never changes that.
    if set(starts) != set(second.initial_states()):
        raise ModelError(f"{names[0]} and {names[1]} start from different states")
    return starts


def compare(
    first: Machine,
    second: Machine,
    names: tuple[str, str] = ("first", "second"),
    max_pairs: int = DEFAULT_MAX_PAIRS,
    one_judge: bool = False,
) -> Comparison:
    """The lockstep search a level of pairs at a time.

    A pair is the two readings' keys side by side.  Each level, each reading
    takes every step its edges allow from its side of every pair at once;
    steps are matched by action name within a pair, and each pair met for
    the first time is read by both judges (``Machine.aspects``).

    ``one_judge``: the caller knows both machines read a state alike (two
    source readings of one table differ in their rulings alone, which no
    judge reads), so a pair of two equal states is not read: most pairs are,
    and reading is most of the cost."""
    started = time.perf_counter()
    starts = _common_starts(first, second, names)
    layouts = vector.Layout(first), vector.Layout(second)
    expanders = vector.Expander(first, layouts[0]), vector.Expander(second, layouts[1])
    split = layouts[0].words
    one_judge = one_judge and layouts[0].digits == layouts[1].digits
    # Actions are matched by name: a number per name, the same in both readings.
    action: dict[str, int] = {}
    action_of = [
        np.array([action.setdefault(e.name, len(action)) for e in m.edges], np.int64) for m in (first, second)
    ]
    read_a, read_b = functools.lru_cache(maxsize=None)(first.aspects), functools.lru_cache(maxsize=None)(second.aspects)
    pairs = vector.Visited(split + layouts[1].words)
    pairs.add(np.array([layouts[0].pack(s) + layouts[1].pack(s) for s in starts], np.uint64).reshape(len(starts), -1))
    # Per pair: its parent pair and the edge each reading took (-1: a start).
    parent = [np.full(pairs.count, -1, np.int64)]
    edges = [np.full((pairs.count, 2), -1, np.int64)]
    level_start, depth = 0, 0
    while level_start < pairs.count:
        if depth and pairs.count > max_pairs:
            return Comparison(*names, None, pairs.count, depth - 1, False, time.perf_counter() - started)
        frontier = pairs.keys[level_start : pairs.count]
        n = len(frontier)
        a_keys, a_row, a_edge, a_degree = expanders[0].successors(np.ascontiguousarray(frontier[:, :split]), 0)
        b_keys, b_row, b_edge, _ = expanders[1].successors(np.ascontiguousarray(frontier[:, split:]), 0)
        a_code = a_row.astype(np.int64) * len(action) + action_of[0][a_edge]
        b_code = b_row.astype(np.int64) * len(action) + action_of[1][b_edge]
        # Each step of the first reading, and the second's step of the same action from the same pair.
        b_order = np.argsort(b_code, kind="stable")
        twin = b_order[np.minimum(np.searchsorted(b_code[b_order], a_code), len(b_code) - 1)] if len(b_code) else np.zeros(len(a_code), np.int64)
        matched = b_code[twin] == a_code if len(b_code) else np.zeros(len(a_code), bool)
        # Where the pair search meets each event: its pair, then its place among
        # the pair's actions (the first reading's in order, then the second's own).
        events: list[tuple[int, int, int, str]] = []  # (pair row, place, step, how)
        for i in np.flatnonzero(~matched)[:1]:
            events.append((int(a_row[i]), _place(a_row, i), int(i), ONLY_IN_FIRST))
        only_b = np.flatnonzero(~np.isin(b_code, a_code))
        if only_b.size:
            row = int(b_row[only_b[0]])
            events.append((row, int(a_degree[row]), int(only_b[0]), ONLY_IN_SECOND))
        both = np.flatnonzero(matched)
        count = pairs.count
        # Numbered as the state-by-state search numbers them: in the order met.
        taken, _ = pairs.add(np.concatenate([a_keys[both], b_keys[twin[both]]], axis=1))
        # A pair met again reads as it read the first time: only new pairs are read.
        if one_judge:
            taken_a, taken_b = a_keys[both[taken]], b_keys[twin[both[taken]]]
            read = taken[np.any(taken_a != taken_b, axis=1)]
        else:
            read = taken
        for k in read:
            i = int(both[k])
            if events and (int(a_row[i]), _place(a_row, i)) > min(events)[:2]:
                break
            if read_a(layouts[0].concrete(a_keys[i])) != read_b(layouts[1].concrete(b_keys[twin[i]])):
                events.append((int(a_row[i]), _place(a_row, i), i, DIFFERENT_STATES))
                break
        if events:
            row, _, step, how = min(events)
            # The pairs the state-by-state search had numbered by then: those
            # first met by the steps before this one (all of its pair's own, for
            # an action only the second reading has).
            limit = int(np.searchsorted(a_row, row, side="right")) if how == ONLY_IN_SECOND else step
            found = _vector_divergence(first, second, layouts, pairs, parent, edges, level_start + row, how, step,
                                       (a_edge, a_keys), (b_edge, b_keys), twin, matched)
            numbered = count + int(np.count_nonzero(both[taken] < limit))
            return Comparison(*names, found, numbered, depth, False, time.perf_counter() - started)
        parent.append(level_start + a_row[both][taken].astype(np.int64))
        edges.append(np.stack([a_edge[both][taken].astype(np.int64), b_edge[twin[both]][taken].astype(np.int64)], axis=1))
        level_start += n
        depth += 1
    return Comparison(names[0], names[1], None, pairs.count, depth - 1, True, time.perf_counter() - started)


def _place(rows: np.ndarray, i: int) -> int:
    """Step ``i``'s rank among the steps from its own pair (steps come grouped by pair, in order)."""
    return i - int(np.searchsorted(rows, rows[i]))


def _vector_divergence(
    first: Machine,
    second: Machine,
    layouts: tuple[vector.Layout, vector.Layout],
    pairs: vector.Visited,
    parent: list[np.ndarray],
    edges: list[np.ndarray],
    at: int,
    how: str,
    step: int,
    a_steps: tuple[np.ndarray, np.ndarray],
    b_steps: tuple[np.ndarray, np.ndarray],
    twin: np.ndarray,
    matched: np.ndarray,
) -> Divergence:
    """The divergence found at pair number ``at``, as the state-by-state search reports it."""
    parents, taken = np.concatenate(parent), np.concatenate(edges)
    split = layouts[0].words
    chain = []
    node = at
    while parents[node] >= 0:
        chain.append(node)
        node = int(parents[node])
    nodes = [(layouts[0].concrete(pairs.keys[node][:split]), layouts[1].concrete(pairs.keys[node][split:]))]
    path = [None]
    for number in reversed(chain):
        key = pairs.keys[number]
        nodes.append((layouts[0].concrete(key[:split]), layouts[1].concrete(key[split:])))
        path.append((len(nodes) - 2, first.edges[taken[number, 0]], second.edges[taken[number, 1]]))
    (a_edge, a_keys), (b_edge, b_keys) = a_steps, b_steps
    if how == ONLY_IN_SECOND:
        in_a, in_b = None, (second.edges[b_edge[step]], layouts[1].concrete(b_keys[step]))
        name = in_b[0].name
    else:
        in_a = (first.edges[a_edge[step]], layouts[0].concrete(a_keys[step]))
        j = twin[step]
        in_b = (second.edges[b_edge[j]], layouts[1].concrete(b_keys[j])) if matched[step] else None
        name = in_a[0].name
    return _divergence(first, second, nodes, path, len(nodes) - 1, name, how, in_a, in_b)


def compare_state_by_state(
    first: Machine, second: Machine, names: tuple[str, str] = ("first", "second"), max_pairs: int = DEFAULT_MAX_PAIRS
) -> Comparison:
    """The lockstep search one pair at a time, over plain values."""
    started = time.perf_counter()
    starts_a = _common_starts(first, second, names)

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
