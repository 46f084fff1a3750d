"""Explicit-state search: every reachable concrete state, in a networkx graph.

Breadth-first order means the first violation found is one of minimal length,
which is what the bounded model checker finds too (the tests hold them to it).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import networkx as nx

from model.backend import CONCRETE
from model.machine import Edge, Machine, ModelError
from model.results import HOLDS_TO_DEPTH, VACUOUS, VIOLATED, Result, Transcript
from properties import Deadlock, Invariant, Property, StepProperty


@dataclass
class Exploration:
    machine: Machine
    graph: nx.MultiDiGraph  # nodes: concrete states; edge keys: edge names
    initial: list[Any]
    depth: dict[Any, int]
    parent: dict[Any, tuple[Any, Edge]]
    seconds: float

    @property
    def states(self) -> int:
        return self.graph.number_of_nodes()

    @property
    def transitions(self) -> int:
        return self.graph.number_of_edges()

    @property
    def levels(self) -> int:
        """The length of the longest shortest path from an initial state."""
        return max(self.depth.values(), default=0)

    def path_to(self, state: Any) -> tuple[Any, list[tuple[Edge, Any]]]:
        path: list[tuple[Edge, Any]] = []
        while state in self.parent:
            pre, edge = self.parent[state]
            path.append((edge, state))
            state = pre
        path.reverse()
        return state, path

    def steps(self) -> Iterator[tuple[Any, Edge, Any]]:
        """Every transition, in breadth-first order of its source state."""
        edge = self.machine.edge
        for pre, post, name in self.graph.out_edges(keys=True):
            yield pre, edge(name), post


def explore(machine: Machine) -> Exploration:
    started = time.perf_counter()
    graph = nx.MultiDiGraph()
    depth: dict[Any, int] = {}
    parent: dict[Any, tuple[Any, Edge]] = {}
    initial = list(machine.initial_states())
    queue: deque[Any] = deque()
    for s in initial:
        if machine.out_of_bounds(s):
            raise ModelError(f"an initial state is outside the declared domains: {machine.describe(s)}")
        if s not in depth:
            depth[s] = 0
            graph.add_node(s)
            queue.append(s)
    steps_from = machine.steps_from
    add_edge = graph.add_edge
    while queue:
        pre = queue.popleft()
        level = depth[pre] + 1
        for edge, post, changes in steps_from(pre):
            if post not in depth:
                # Only what the update set can have left its domain: the rest
                # was checked when the predecessor was first reached.
                bad = machine.out_of_bounds(post, changes)
                if bad:
                    raise ModelError(
                        f"edge {edge.name!r} takes {', '.join(bad)} out of its declared domain; "
                        f"from {machine.describe(pre)}"
                    )
                depth[post] = level
                parent[post] = (pre, edge)
                queue.append(post)
            add_edge(pre, post, key=edge.name)
    return Exploration(machine, graph, initial, depth, parent, time.perf_counter() - started)


def check(exploration: Exploration, prop: Property) -> Result:
    started = time.perf_counter()
    m = exploration.machine
    violation: tuple[Any, list[tuple[Edge, Any]]] | None = None
    premise_met = True
    if isinstance(prop, Invariant):
        premise_met = prop.premise is None
        for s in exploration.graph.nodes:
            if prop.premise is not None:
                if not prop.premise(m, s, CONCRETE):
                    continue
                premise_met = True
            if not prop.holds(m, s, CONCRETE):
                violation = exploration.path_to(s)
                break
    elif isinstance(prop, StepProperty):
        premise_met = False
        for pre, edge, post in exploration.steps():
            if not prop.applies(edge):
                continue
            premise_met = True
            if not prop.holds(m, pre, post, CONCRETE):
                start, path = exploration.path_to(pre)
                violation = (start, path + [(edge, post)])
                break
    elif isinstance(prop, Deadlock):
        graph = exploration.graph
        for s in graph.nodes:
            if graph.out_degree(s) == 0 and not m.is_terminal(s):
                violation = exploration.path_to(s)
                break
    else:
        raise TypeError(f"explicit search cannot check {type(prop).__name__}")
    seconds = time.perf_counter() - started  # the shared exploration is timed once, by the caller
    common = dict(game=m.game, property=prop.name, rules=prop.rules, kind=prop.kind, method="explicit", bounds=m.bounds)
    if violation is not None:
        start, path = violation
        transcript = Transcript.from_path(m, start, path, f"{prop.name}: {prop.statement}")
        return Result(verdict=VIOLATED, depth=len(path), seconds=seconds, counterexample=transcript, **common)
    note = f"all {exploration.states} reachable states within the bounds"
    if not premise_met:
        return Result(verdict=VACUOUS, depth=exploration.levels, seconds=seconds, note=f"premise never reached in {note}", **common)
    return Result(verdict=HOLDS_TO_DEPTH, depth=exploration.levels, seconds=seconds, note=note, **common)


def check_all(machine: Machine, properties: Sequence[Property]) -> list[Result]:
    exploration = explore(machine)
    return [check(exploration, p) for p in properties]
