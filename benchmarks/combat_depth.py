"""How deep must bounded model checking go to cover two full turns with a combat in each?

The goal is a run from an initial state that completes two turns (the third
turn's ``ready_step_start`` is reached; with ``turns=2`` the search stops at
``turn_limit`` one step later) with exactly one combat concluded in each of
the two turns.  The model forgets how many combats concluded: ``combats``
counts proposals, not conclusions, and resets as a turn ends.  So both
searches watch the steps themselves: a step concludes a combat when its edge is
tagged ``concludes_combat``, and it belongs to the turn numbered in the state
it leaves.

- BMC: one Z3 solver unrolled one step at a time with ``checkers.bmc.BMC``; at each
  depth ``k`` one query asks for a run of ``k`` steps ending at the goal, with a
  pseudo-Boolean count of the concluding steps of each turn.  The first
  satisfiable depth is the smallest ``k``; the seconds run from creating the
  checker to that answer, so every unsatisfiable depth before it counts.
- Explicit search: the reachable-state graph, then a breadth-first search of
  its product with the monitor ``(conclusions in turn 1, in turn 2)``, each
  capped at 2 ("more than one").  Breadth-first depth in the product is the
  length of a shortest run that reaches the goal state *with* those counts; the
  plain BFS depth of the first turn-3 state is shorter, since the shortest
  way to end two turns need not conclude a combat.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Callable

import z3

from model import wowtcg
from checkers import bmc, explicit
from checkers.results import Transcript

#: Two players, two turns, one combat per turn: the default bounds.
TURNS = 2
GOAL_TEXT = "goal: two turns completed, exactly one combat concluded in each"


def _concluding(machine: Any) -> list[int]:
    return [i for i, e in enumerate(machine.edges) if e.has("concludes_combat")]


def goal_query(checker: bmc.BMC, k: int) -> Any:
    """The run of ``k`` steps ends at the start of turn 3 with one conclusion in each of turns 1 and 2."""
    m = checker.machine
    concluding = _concluding(m)
    end = checker.states[k]
    parts = [end.location == m.location_index["ready_step_start"], end.turn_number == TURNS + 1]
    steps = [z3.Or(*(checker.selectors[i] == e for e in concluding)) for i in range(k)]
    for turn in range(1, TURNS + 1):
        in_turn = [z3.And(steps[i], checker.states[i].turn_number == turn) for i in range(k)]
        parts.append(z3.PbEq([(c, 1) for c in in_turn], 1) if in_turn else z3.BoolVal(False))
    return z3.And(*parts)


def bmc_search(report: Callable[[Any], None], bounds: dict[str, int], max_depth: int, timeout_ms: int = 600_000) -> None:
    """Report ``(k, cumulative seconds, answer)`` per depth, then a dict with the
    first satisfiable depth, its seconds and the transcript of the run found."""
    if bounds["turns"] != TURNS:
        raise ValueError(f"the two-turn goal needs turns={TURNS}")
    machine = wowtcg.build(**bounds)
    # CPU seconds: the machine is shared.  From before the checker exists, so solver setup counts.
    started = time.process_time()
    checker = bmc.BMC(machine, timeout_ms)
    for k in range(max_depth + 1):
        if k > 0:
            checker._unroll()
        answer, model = checker._ask(goal_query(checker, k))
        report((k, time.process_time() - started, str(answer)))
        if answer == z3.unknown:
            return
        if answer == z3.sat:
            # _transcript replays every step on the concrete backend and fails if Z3 disagrees.
            transcript = checker._transcript(model, k, GOAL_TEXT)
            report({"k": k, "seconds": time.process_time() - started, "lines": _goal_lines(transcript)})
            return


def _goal_lines(transcript: Any) -> list[str]:
    # The last line of a transcript reads "violated: ..."; this one is a goal reached.
    return transcript.lines()[:-1] + [f"reached: {transcript.violation}"]


def explicit_search(report: Callable[[Any], None], bounds: dict[str, int]) -> None:
    """Report the shortest goal run found by BFS over (state, monitor), with its timings."""
    if bounds["turns"] != TURNS:
        raise ValueError(f"the two-turn goal needs turns={TURNS}")
    machine = wowtcg.build(**bounds)
    started = time.process_time()  # CPU seconds: the machine is shared
    ex = explicit.explore(machine)
    explored = time.process_time()
    nodes, succ = ex.nodes, ex.graph.succ
    start_loc, goal_turn = machine.location_index["ready_step_start"], TURNS + 1
    concludes = {e.name for e in machine.edges if e.has("concludes_combat")}

    def at_goal(i: int) -> bool:
        return nodes[i].location == start_loc and nodes[i].turn_number == goal_turn

    # Without the monitor: the shortest run to any turn-3 start, and what combat it holds.
    first = min((i for i in range(len(nodes)) if at_goal(i)), key=ex.depth.__getitem__, default=None)
    plain: dict[str, int] | None = None
    if first is not None:
        _, plain_path = ex.path_to(first)
        plain = dict(
            depth=ex.depth[first],
            proposals=sum(e.has("proposes") for e, _ in plain_path),
            interrupted=sum(e.has("interrupts") for e, _ in plain_path),
            concluded=sum(e.has("concludes_combat") for e, _ in plain_path),
        )

    initial = [i for i in range(len(nodes)) if ex.depth[i] == 0]
    parent: dict[tuple[int, int, int], tuple[tuple[int, int, int], str] | None] = {}
    frontier: deque[tuple[int, int, int]] = deque()
    for i in initial:
        parent[(i, 0, 0)] = None
        frontier.append((i, 0, 0))
    found = None
    while frontier:
        node = frontier.popleft()
        u, c1, c2 = node
        if c1 == 1 and c2 == 1 and at_goal(u):
            found = node
            break
        turn = nodes[u].turn_number
        for v, keys in succ[u].items():
            for name in keys:
                n1, n2 = c1, c2
                if name in concludes:
                    if turn == 1:
                        n1 = min(c1 + 1, 2)
                    elif turn == 2:
                        n2 = min(c2 + 1, 2)
                nxt = (v, n1, n2)
                if nxt not in parent:
                    parent[nxt] = (node, name)
                    frontier.append(nxt)
    result: dict[str, Any] = dict(
        states=ex.states,
        complete=ex.complete,
        explore_seconds=explored - started,
        product_states=len(parent),  # (state, monitor) pairs reached when the goal was found
        product_seconds=time.process_time() - explored,
        plain=plain,
        k=None,
        lines=[],
    )
    if found is not None:
        path: list[tuple[Any, Any]] = []
        node = found
        while parent[node] is not None:
            pre, name = parent[node]
            path.append((machine.edge(name), nodes[node[0]]))
            node = pre
        path.reverse()
        transcript = Transcript.from_path(machine, nodes[node[0]], path, GOAL_TEXT)
        result.update(k=len(path), lines=_goal_lines(transcript))
    report(result)
