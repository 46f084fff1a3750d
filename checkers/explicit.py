"""Explicit-state search: every reachable concrete state, in a networkx graph.

Breadth-first order means the first violation found is one of minimal length,
which is what the bounded model checker finds too (the tests hold them to it).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator, Sequence

import networkx as nx
import numpy as np

from model import limits
from model.backend import CONCRETE
from model.machine import Edge, Machine, ModelError
from checkers.results import HOLDS_TO_DEPTH, VACUOUS, VIOLATED, Result, Transcript
from properties import Deadlock, Eventually, Invariant, Property, StepProperty


@dataclass
class Exploration:
    """The reachable states of a machine and the transitions between them.

    ``graph`` (built on demand from ``moves``) is a ``networkx.MultiDiGraph``
    whose nodes are state numbers (``nodes[i]`` is the concrete state numbered
    ``i``, numbered in breadth-first order) and whose edge keys are edge names.  Numbers rather
    than the states themselves as nodes halve the search time: a state's hash
    is recomputed on every lookup, an int's is not.
    """

    machine: Machine
    #: Every transition as (source number, target number, edge name), by
    #: source in breadth-first order, then in the machine's edge order.
    moves: list[tuple[int, int, str]]
    nodes: list[Any]
    depth: list[int]
    parent: list[tuple[int, Edge] | None]
    seconds: float
    complete: bool  # every reachable state was expanded
    expanded: int  # states up to this depth were expanded (all of them when complete)
    stopped: str = ""  # why the search stopped short, in words ("" when complete)

    @property
    def states(self) -> int:
        return len(self.nodes)

    @property
    def transitions(self) -> int:
        return len(self.moves)

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The states and transitions as a graph, built on demand: most checks
        read ``nodes`` and ``moves`` alone, and building it is a tenth of a search."""
        graph = nx.MultiDiGraph(game=self.machine.game)
        graph.add_nodes_from(range(len(self.nodes)))
        graph.add_edges_from(self.moves)
        return graph

    @property
    def levels(self) -> int:
        """The length of the longest shortest path from an initial state."""
        return self.depth[-1] if self.depth else 0

    @cached_property
    def step_pre(self) -> np.ndarray:
        """Each transition's source number, as ``checkers/vector.py`` keeps them."""
        return np.fromiter((u for u, _, _ in self.moves), np.int64, len(self.moves))

    @cached_property
    def step_post(self) -> np.ndarray:
        """Each transition's target number."""
        return np.fromiter((v for _, v, _ in self.moves), np.int64, len(self.moves))

    @cached_property
    def out_degree(self) -> np.ndarray:
        """How many transitions each state is the source of."""
        return np.bincount(self.step_pre, minlength=self.states)

    def path_to(self, node: int) -> tuple[Any, list[tuple[Edge, Any]]]:
        """The initial state and a shortest path from it to state number ``node``."""
        path: list[tuple[Edge, Any]] = []
        step = self.parent[node]
        while step is not None:
            pre, edge = step
            path.append((edge, self.nodes[node]))
            node, step = pre, self.parent[pre]
        path.reverse()
        return self.nodes[node], path

    def state(self, node: int) -> Any:
        """The concrete state numbered ``node``."""
        return self.nodes[node]

    def steps(self) -> Iterator[tuple[int, Edge, int]]:
        """Every transition as numbers and edge, in breadth-first order of its source."""
        edge = self.machine.edge
        for pre, post, name in self.moves:
            yield pre, edge(name), post


#: Enough for every default instance; a larger one stops at a level boundary.
DEFAULT_MAX_STATES = 2_000_000


#: What the search holds for each state and each transition, in bytes: the
#: cost model the memory budget is checked against (measured with tracemalloc
#: on the three games' default instances, rounded up: WoW 1,620 bytes a state
#: at its peak, 146,144 states and 176,504 transitions).  A count, not the
#: process's size, so that where a search stops depends on the input alone.
BYTES_PER_STATE = 1_300
BYTES_PER_TRANSITION = 350


def footprint(states: int, transitions: int) -> int:
    """The memory a search of this many states and transitions holds, by the cost model."""
    return states * BYTES_PER_STATE + transitions * BYTES_PER_TRANSITION


def explore(machine: Machine, max_states: int = DEFAULT_MAX_STATES, max_memory: int = limits.DEFAULT_MAX_MEMORY) -> Exploration:
    """Breadth-first search of every reachable state.

    Past ``max_states``, or past ``max_memory`` bytes by the cost model
    (``footprint``), the search finishes the level it is in and stops; the
    result then covers exactly the runs of up to ``expanded`` steps.
    """
    started = time.perf_counter()
    nodes: list[Any] = []
    number: dict[Any, int] = {}
    depth: list[int] = []
    parent: list[tuple[int, Edge] | None] = []
    for s in machine.initial_states():
        if machine.out_of_bounds(s):
            raise ModelError(f"an initial state is outside the declared domains: {machine.describe(s)}")
        if s not in number:
            number[s] = len(nodes)
            nodes.append(s)
            depth.append(0)
            parent.append(None)
    transitions: list[tuple[int, int, str]] = []
    steps_from = machine.steps_from
    i = 0
    complete = True
    # The list of states is the breadth-first queue: new states are appended
    # behind the one being expanded.
    stopped = ""
    while i < len(nodes):
        if depth[i] > depth[i - 1]:  # a level boundary
            if len(nodes) > max_states:
                stopped = f"past {max_states:,} states (--max-states)"
            elif footprint(len(nodes), len(transitions)) > max_memory:
                stopped = f"at the memory budget of {limits.show_memory(max_memory)} (--max-memory)"
            if stopped:
                complete = False
                break
        pre = nodes[i]
        level = depth[i] + 1
        for edge, post, changes in steps_from(pre):
            j = number.get(post)
            if j is None:
                # Only what the update set can have left its domain: the rest
                # was checked when the predecessor was first reached.
                bad = machine.out_of_bounds(post, changes)
                if bad:
                    raise ModelError(
                        f"edge {edge.name!r} takes {', '.join(bad)} out of its declared domain; "
                        f"from {machine.describe(pre)}"
                    )
                j = number[post] = len(nodes)
                nodes.append(post)
                depth.append(level)
                parent.append((i, edge))
            transitions.append((i, j, edge.name))
        i += 1
    expanded = depth[i - 1] if i else -1
    return Exploration(machine, transitions, nodes, depth, parent, time.perf_counter() - started, complete, expanded, stopped)


def check(exploration: Exploration, prop: Property) -> Result:
    started = time.perf_counter()
    m = exploration.machine
    nodes = exploration.nodes
    violation: tuple[Any, list[tuple[Edge, Any]]] | None = None
    loop_start: int | None = None
    premise_met = True
    if isinstance(prop, Invariant):
        premise_met = prop.premise is None
        for i, s in enumerate(nodes):
            if prop.premise is not None:
                if not prop.premise(m, s, CONCRETE):
                    continue
                premise_met = True
            if not prop.holds(m, s, CONCRETE):
                violation = exploration.path_to(i)
                break
    elif isinstance(prop, StepProperty):
        premise_met = False
        for pre, edge, post in exploration.steps():
            if not prop.applies(edge):
                continue
            premise_met = True
            if not prop.holds(m, nodes[pre], nodes[post], CONCRETE):
                start, path = exploration.path_to(pre)
                violation = (start, path + [(edge, nodes[post])])
                break
    elif isinstance(prop, Deadlock):
        leaves = bytearray(len(nodes))
        for pre, _, _ in exploration.moves:
            leaves[pre] = 1
        for i, s in enumerate(nodes):
            if exploration.depth[i] > exploration.expanded:
                break  # not expanded: whether it has successors is unknown
            if not leaves[i] and not m.is_terminal(s):
                violation = exploration.path_to(i)
                break
    elif isinstance(prop, Eventually):
        premise = [bool(prop.premise(m, s, CONCRETE)) for s in nodes]
        missed = [not prop.goal(m, s, CONCRETE) for s in nodes] if any(premise) else []
        premise_met, violation, loop_start = _unmet(exploration, premise, missed)
    else:
        raise TypeError(f"explicit search cannot check {type(prop).__name__}")
    # The shared exploration is timed once, by the caller.
    return result_of(exploration, prop, violation, loop_start, premise_met, time.perf_counter() - started)


def result_of(
    exploration: Any,
    prop: Property,
    violation: tuple[Any, list[tuple[Edge, Any]]] | None,
    loop_start: int | None,
    premise_met: bool,
    seconds: float,
) -> Result:
    """The verdict of a search (this one or ``checkers/vector.py``'s) on ``prop``:
    the violation found, or how far the search vouches that it holds."""
    m = exploration.machine
    common = dict(game=m.game, property=prop.name, rules=prop.rules, kind=prop.kind, method="explicit", bounds=m.bounds)
    if violation is not None:
        start, path = violation
        transcript = Transcript.from_path(m, start, path, f"{prop.name}: {prop.statement}", loop_start)
        return Result(verdict=VIOLATED, depth=len(path), seconds=seconds, counterexample=transcript, **common)
    if exploration.complete:
        depth, note = exploration.levels, f"all {exploration.states} reachable states within the bounds"
    else:
        depth = exploration.expanded
        note = f"search stopped {exploration.stopped} after {exploration.states} states: every run of up to {depth} steps covered"
        if exploration.stopped.startswith("at the memory budget"):
            now = ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in m.bounds.items())
            note += f"; for more, lower a bound ({now}) or raise --max-memory"
    if not premise_met:
        return Result(verdict=VACUOUS, depth=depth, seconds=seconds, note=f"premise never reached ({note})", **common)
    if isinstance(prop, Eventually):
        note += (
            "; every run from a premise state reaches the goal"
            if exploration.complete
            else "; none from a premise state loops or stops short of the goal within them, "
            "but one still open after them is not ruled out"
        )
    return Result(verdict=HOLDS_TO_DEPTH, depth=depth, seconds=seconds, note=note, **common)


#: The node ahead of every premise state in the graph of owed goals, so that one
#: shortest-path search measures every run from the initial states.
_BEFORE_PREMISE = -1


def _goal_may_be_missed_forever(exploration: Any, premise: np.ndarray, missed: np.ndarray) -> bool:
    """Does some run, once a premise state is reached, stay off the goal until
    it is stuck (an expanded state with no successor) or closes a cycle?
    Decided over the transition arrays: the states reachable from a premise
    state that misses the goal through states that miss it (breadth-first,
    a level of them at a time), then, among them, whether a cycle remains
    once every state that no state left leads to is taken away, level by
    level (Kahn's order).  Each breadth-first round reads only the
    transitions leaving the states it takes (``_leaving``, over every
    state's run of transitions), and so does each round of the peeling,
    keeping the targets that owe the goal.  No transition's source is
    stored: a state's transitions are one run.  Only where the answer is yes does ``_unmet`` build its
    weighted graph, to find the shortest such run: a liveness property that
    holds (the usual case) builds no graph of every state."""
    post, degree = exploration.step_post, exploration.out_degree
    # (Transitions are kept in order of their source: a state's are one run.)
    start = np.zeros(exploration.states + 1, np.int32 if len(post) < 2**31 else np.int64)
    np.cumsum(degree, out=start[1:])
    owed = premise & missed
    frontier = np.flatnonzero(owed)
    while frontier.size:
        reached = _leaving(start, post, frontier)
        frontier, _ = _distinct(reached[missed[reached] & ~owed[reached]])
        owed[frontier] = True
    stuck = owed & (degree == 0)
    if stuck.any() and (np.asarray(exploration.depth)[stuck] <= exploration.expanded).any():
        return True
    # How many transitions between owed states (one that leaves an owed
    # state and misses the goal reaches another) enter each state, counted
    # over the targets picked by a mask over every transition (a pass in
    # order: owed states are often half of them).  The peeling then walks
    # the whole exploration's runs of transitions, keeping the owed targets:
    # no graph of the owed states is built, nor are they numbered apart.
    targets = post[np.repeat(owed, degree)]
    entering = np.bincount(targets[owed[targets]], minlength=exploration.states)
    del targets
    left = int(np.count_nonzero(owed))
    ready = np.flatnonzero(owed & (entering == 0))
    while ready.size:
        left -= ready.size
        reached = _leaving(start, post, ready)
        reached, times = _distinct(reached[owed[reached]])
        entering[reached] -= times
        ready = reached[entering[reached] == 0]
    return left > 0  # what no peeling takes lies on a cycle or after one


def _distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values, ascending, and how often each occurs: by sorting
    (``np.unique`` takes a hash table, several times slower on these arrays)."""
    values = np.sort(values)
    first = np.ones(len(values), bool)
    first[1:] = values[1:] != values[:-1]
    starts = np.flatnonzero(first)
    return values[starts], np.diff(np.append(starts, len(values)))


def _leaving(start: np.ndarray, dst: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The targets of the transitions that leave ``nodes``: state ``i``'s
    run of them is ``dst[start[i] : start[i + 1]]``."""
    first = start[nodes].astype(np.int64)
    count = start[nodes + 1] - first
    # Each transition's place: its run's first place, plus its rank in the run.
    return dst[np.repeat(first - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))]


def _unmet(
    exploration: Any, premise: Sequence[bool], missed: Sequence[bool]
) -> tuple[bool, tuple[Any, list[tuple[Edge, Any]]] | None, int | None]:
    """Whether a premise state is reached; a shortest run that never meets the goal
    after one; and the step after which that run loops (None: it is stuck).
    ``premise`` and ``missed`` say of each state number whether the premise
    holds there and whether the goal is missed (this search's exploration or
    ``checkers/vector.py``'s, with its ``graph``).

    Such a run reaches a premise state by a shortest path, then stays off the
    goal until it closes a cycle or reaches a state with no successor.  Only
    expanded states count as stuck: the successors of the others are unknown.
    """
    if not any(premise):
        return False, None, None
    if not _goal_may_be_missed_forever(exploration, np.asarray(premise, bool), np.asarray(missed, bool)):
        return True, None, None
    return (True, *_shortest_run_missing_the_goal(exploration, premise, missed))


def _shortest_run_missing_the_goal(
    exploration: Any, premise: Sequence[bool], missed: Sequence[bool]
) -> tuple[tuple[Any, list[tuple[Edge, Any]]] | None, int | None]:
    """``_unmet``'s run and the step after which it loops, searched over the
    exploration's graph: None when there is no such run."""
    m, graph, depth = exploration.machine, exploration.graph, exploration.depth
    # The states a run can be in with the goal still owed.  Entering a premise
    # state costs its depth, every further step one.
    owed = nx.DiGraph()
    owed.add_node(_BEFORE_PREMISE)
    owed.add_weighted_edges_from((_BEFORE_PREMISE, i, int(depth[i])) for i, p in enumerate(premise) if p and missed[i])
    owed.add_edges_from((u, v) for u, v in graph.edges() if missed[u] and missed[v])
    before, distance = nx.dijkstra_predecessor_and_distance(owed, _BEFORE_PREMISE)
    del distance[_BEFORE_PREMISE]

    # The shortest violation: its length, the state it ends in (for a lasso,
    # where its cycle starts and ends) and for a lasso that cycle.
    stuck = (v for v in distance if depth[v] <= exploration.expanded and graph.out_degree(v) == 0)
    end = min(stuck, key=distance.__getitem__, default=None)
    length = math.inf if end is None else distance[end]
    cycle: list[int] | None = None
    reached = owed.subgraph(distance)
    for component in nx.strongly_connected_components(reached):
        some = next(iter(component))
        if len(component) == 1 and not reached.has_edge(some, some):
            continue  # on no cycle
        cyclic = reached.subgraph(component)
        for j in sorted(component, key=distance.__getitem__):
            if distance[j] + 1 >= length:
                break  # no cycle through this state or a farther one is shorter
            back = nx.single_source_shortest_path_length(cyclic, j)
            closing = min(cyclic.predecessors(j), key=back.__getitem__)
            if distance[j] + back[closing] + 1 < length:
                end, length = j, distance[j] + back[closing] + 1
                cycle = nx.shortest_path(cyclic, j, closing) + [j]
    if end is None:
        return None, None

    route = [end]
    while before[route[-1]][0] != _BEFORE_PREMISE:
        route.append(before[route[-1]][0])
    route.reverse()
    start, path = exploration.path_to(route[0])
    visits = route + (cycle[1:] if cycle else [])
    for u, v in zip(visits, visits[1:]):
        path.append((m.edge(next(iter(graph[u][v]))), exploration.state(v)))
    return (start, path), (distance[end] if cycle else None)


def check_all(machine: Machine, properties: Sequence[Property]) -> list[Result]:
    exploration = explore(machine)
    return [check(exploration, p) for p in properties]
