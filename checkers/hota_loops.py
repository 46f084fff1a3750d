"""104.4b: loops of mandatory actions, found in the state graph and ruled out by proof.

A *mandatory* step is one nobody chooses (an edge without an actor: the
check, a mandatory trigger, a chance step); an *optional* one is a player's
decision. 104.4b makes a loop of mandatory actions that cannot stop a draw,
and says a loop with an optional action in it is not one.

Three checks, on any table:

- ``raw_loops``: the rules *without* 104.4b (``build(loop_rule=False)``),
  explored whole; the cycles of its mandatory steps (networkx strongly
  connected components) are the loops the rule speaks of. Every state on
  them where a trigger waits must be one where the model's 104.4b draw fires
  (the detection misses no loop), and every state where it fires must lead, by mandatory steps
  alone, only into such a loop (it calls no draw where play could go on).
- ``full_loops``: the model with 104.4b has no cycle of mandatory steps, and
  the cycles it has (an optional trigger, taken again and again) pass
  through a player's decision and never end in a draw.
- ``prove_mandatory_steps_end``: a Z3 proof, over every state of the
  variables' domains (reachable or not), that each mandatory step strictly
  lowers a ranking function bounded below; so no run of mandatory steps
  repeats, and every loop the model can enter contains an optional action,
  or ended in the 104.4b draw before it began. Without 104.4b the same query
  gives the step that does not go down: the loop.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
import z3

from checkers.results import HOLDS_TO_DEPTH, PROVED, UNKNOWN, VIOLATED
from checkers.vector import explore
from model import limits
from model.backend import CONCRETE, SYMBOLIC, Backend
from model.hota import BOUNDS
from model.hota.game import LOOP_DRAW, NO_TRIGGER, NOBODY, NOT_YET, build, in_game
from model.hota.table import Table, default_table
from model.machine import Machine
from properties.contradictions import Contradiction, RuleQuery


def is_mandatory(edge: Any) -> bool:
    return edge.actor is None


@dataclass
class LoopReport:
    """What the state graphs of one table say about its loops."""

    states: int
    #: Each loop of the rules without 104.4b: its states, as pasteable snapshots.
    raw_loops: list[list[str]] = field(default_factory=list)
    #: States on a raw loop, with a trigger waiting, where the model's draw does not fire (should be none).
    missed: list[str] = field(default_factory=list)
    #: States where the draw fires though a decision or the end can still come (should be none).
    false_draws: list[str] = field(default_factory=list)
    #: Mandatory cycles left in the model with 104.4b (should be none).
    full_mandatory_cycles: int = 0
    #: Cycles of the model with 104.4b that pass through a player's decision.
    optional_cycles: int = 0
    #: Optional cycles from whose states the draw fires (should be none).
    optional_cycles_drawn: int = 0

    @property
    def holds(self) -> bool:
        return not (self.missed or self.false_draws or self.full_mandatory_cycles or self.optional_cycles_drawn)


def _cyclic_components(graph: nx.MultiDiGraph) -> list[set[int]]:
    """The strongly connected components that hold a cycle."""
    return [c for c in nx.strongly_connected_components(graph)
            if len(c) > 1 or any(graph.has_edge(n, n) for n in c)]


def _mandatory_subgraph(exploration: Any) -> nx.MultiDiGraph:
    machine = exploration.machine
    g = nx.MultiDiGraph()
    g.add_nodes_from(exploration.graph.nodes)
    g.add_edges_from((u, v, k) for u, v, k in exploration.graph.edges(keys=True) if is_mandatory(machine.edge(k)))
    return g


def _draw_fires(exploration: Any, draw: Any) -> set[int]:
    """The states where the 104.4b draw is enabled."""
    if draw is None:
        return set()
    at_source = np.flatnonzero(exploration.locations() == exploration.machine.location_index[draw.source])
    return {int(n) for n in at_source if draw.guard(exploration.state(int(n)), CONCRETE)}


def loop_report(table: Table, mulligan: int = 1) -> LoopReport:
    """Both state graphs, explored over arrays (``checkers/vector.py``: the same
    states and transitions as explicit search, in the same numbering)."""
    full = build(table=table, mulligan=mulligan)
    draw = next((e for e in full.edges if e.has(LOOP_DRAW)), None)

    # The rules without 104.4b.
    raw = explore(build(table=table, mulligan=mulligan, loop_rule=False))

    def describe(n: int) -> str:
        return raw.machine.describe(raw.state(n))

    mandatory = _mandatory_subgraph(raw)
    loops = _cyclic_components(mandatory)
    on_loop = set().union(*loops) if loops else set()
    report = LoopReport(raw.states)
    report.raw_loops = [[describe(n) for n in sorted(c)] for c in loops]
    fires = _draw_fires(raw, draw)
    # The draw is asked where a trigger waits: every such state on a loop must fire it.
    asked = {n for n in on_loop if draw is not None and raw.machine.location_of(raw.state(n)) == draw.source}
    report.missed = [describe(n) for n in sorted(asked - fires)]
    if loops and draw is None:
        report.missed = [describe(min(c)) for c in loops]
    # The states where play can stop or a player decides (a concession aside):
    # the end, or a state with an optional step, read off the transitions.
    m_raw = raw.machine
    optional = np.array([not is_mandatory(e) and not e.has("concedes") for e in m_raw.edges], bool)
    terminal = np.array([m_raw.locations[name].terminal is not None for name in m_raw.location_names], bool)
    stops = set(np.flatnonzero(terminal[raw.locations()]).tolist()) | set(np.unique(raw.step_pre[optional[raw.step_edge]]).tolist())
    for n in sorted(fires):
        reach = nx.descendants(mandatory, n) | {n}
        # By mandatory steps alone it must stay among states that are not a
        # player's decision or the end, and come to a loop.
        if reach & stops or not (reach & on_loop):
            report.false_draws.append(describe(n))

    # The model with 104.4b.
    explored = explore(full)
    report.full_mandatory_cycles = len(_cyclic_components(_mandatory_subgraph(explored)))
    cyclic = _cyclic_components(explored.graph)
    report.optional_cycles = len(cyclic)
    drawn = _draw_fires(explored, draw)
    report.optional_cycles_drawn = sum(1 for c in cyclic if c & drawn)
    return report


# -- the Z3 proof ---------------------------------------------------------------------

#: How far each location is from a player's decision, by mandatory steps:
#: the start runs down to the first draw step, the draw step to the check,
#: the check to a trigger, priority or the end, a trigger back to the check.
LOCATION_RANK = {
    "shuffle": 9, "first_player": 8, "opening_hands": 7, "mulligan": 6, "council": 4,
    "draw_step": 3, "check": 2, "triggers": 1, "priority": 0, "game_over": 0,
}


def rank(m: Machine, s: Any, b: Backend = SYMBOLIC) -> Any:
    """A number that every mandatory step lowers.

    A thousand times the players still in the game, plus a hundred times the
    weight of the waiting trigger, plus ten times the location's rank, plus,
    in the council, the card choices not yet made (an empty hand's choice is
    skipped by a mandatory step), plus fifteen while the active player has
    left (the turn then passes on by a mandatory step from the check to the
    next player's draw step, assumed:active-player-leaves, which is ranked
    above the check).  At
    three seats or more a check may take a player out while the others play
    on, and the tokens that leave with him (104.5, assumed:leaver-objects)
    may wake an echo: the trigger's weight then grows, and only the players'
    count goes down. A waiting Culling Field weighs
    one, and one more if Echo Chamber works (its echo will follow); a waiting
    Echo Chamber one, and one more if Culling Field works and the echo's
    Spirit will enter (no Warding Sigil works, 109.5d); Whispering Echo
    nothing (its controller decides). With both loop pieces working the
    weights would have to exceed each other: that is the loop 104.4b ends.
    """
    t = m.table

    def works(card: str) -> Any:
        return b.Or(*(b.Not(s.silenced[e]) for e in t.holding(card)))

    culling, chamber = works("Culling Field"), works("Echo Chamber")
    spirits_enter = b.Not(works("Warding Sigil"))
    # The echo's codes follow the Culling Field's, one per seat (``Table.echo_waits``).
    waiting_culling = b.And(s.waiting != NO_TRIGGER, s.waiting < t.echo_waits)
    waiting_echo = b.And(s.waiting >= t.echo_waits, bool(t.holding("Echo Chamber")))
    weight = (b.If(waiting_culling, 1 + b.If(chamber, 1, 0), 0)
              + b.If(waiting_echo, 1 + b.If(b.And(culling, spirits_enter), 1, 0), 0))
    location = 0
    for name, r in LOCATION_RANK.items():
        location = b.If(s.location == m.location_index[name], r, location)
    unpicked = b.If(m.at(s, "council", b=b), b.count([s.picked[p] == NOT_YET for p in range(t.players)]), 0)
    playing = b.count([in_game(s, p, b) for p in range(t.players)])
    turn_passes = b.If(b.And(s.active != NOBODY, b.Not(in_game(s, s.active, b))), 15, 0)
    return 1000 * playing + 100 * weight + 10 * location + unpicked + turn_passes


@dataclass(frozen=True)
class RankProof:
    verdict: str  # proved, violated or unknown
    #: The mandatory step that does not lower the rank, and a state it does so from.
    edge: str | None = None
    state: str | None = None
    seconds: float = 0.0


def prove_mandatory_steps_end(m: Machine, timeout_ms: int = limits.GUARD_MS) -> RankProof:
    """Every mandatory edge, from every state of the domains where it is
    enabled, strictly lowers ``rank``, which is never negative."""
    started = time.perf_counter()
    solver = limits.limit(z3.Solver(), timeout_ms)
    pre = m.symbolic_state("pre")
    solver.add(m.domain_constraint(pre))
    for e in m.edges:
        if not is_mandatory(e):
            continue
        post = pre._replace(location=m.location_index[e.target], **e.update(pre, SYMBOLIC))
        solver.push()
        solver.add(pre.location == m.location_index[e.source], e.guard(pre, SYMBOLIC))
        solver.add(z3.Or(rank(m, post) >= rank(m, pre), rank(m, pre) < 0))
        answer = solver.check()
        if answer == z3.sat:
            model = solver.model()
            state = m.State(*(_value(model, x) for x in pre))
            solver.pop()
            return RankProof(VIOLATED, e.name, m.describe(state), time.perf_counter() - started)
        solver.pop()
        if answer == z3.unknown:
            return RankProof(UNKNOWN, e.name, None, time.perf_counter() - started)
    return RankProof(PROVED, seconds=time.perf_counter() - started)


def _value(model: z3.ModelRef, term: Any) -> Any:
    if isinstance(term, tuple):
        return tuple(_value(model, x) for x in term)
    v = model.eval(term, model_completion=True)
    return z3.is_true(v) if z3.is_bool(v) else v.as_long()


# -- lint's queries ------------------------------------------------------------------

# 104.4b, by proof and by the state graph: queries over the default table
# that lint asks beside the model's properties.
def loop_queries(timeout_ms: int) -> list[RuleQuery]:
    deck = next(spec.default for spec in BOUNDS if spec.name == "deck")
    proof = prove_mandatory_steps_end(build(deck=deck), timeout_ms)
    found: tuple[Contradiction, ...] = ()
    if proof.verdict == VIOLATED:
        found = (Contradiction(
            f"mandatory-cycle:{proof.edge}", ("104.4b",),
            f"the mandatory step {proof.edge} need not bring play closer to a decision, from {proof.state}",
        ),)
    queries = [RuleQuery("104.4b: every mandatory step lowers a ranking (no loop of mandatory actions survives)",
                         proof.verdict, "z3", "loop", found)]
    report = loop_report(default_table(deck))
    problems = (
        [Contradiction("loop-missed", ("104.4b",), f"a loop of mandatory actions goes on without a draw at {s}")
         for s in report.missed[:1]]
        + [Contradiction("false-draw", ("104.4b",), f"the game is called a draw though play can go on, at {s}")
           for s in report.false_draws[:1]]
        + ([Contradiction("mandatory-cycle", ("104.4b",), "the model with 104.4b still has a cycle of mandatory steps")]
           if report.full_mandatory_cycles else [])
        + ([Contradiction("optional-loop-drawn", ("104.4b",), "a loop through a player's decision ends in a draw")]
           if report.optional_cycles_drawn else [])
    )
    queries.append(RuleQuery(
        f"104.4b: each of the {len(report.raw_loops)} loops of mandatory actions in the rules without it "
        f"ends in the draw, and no loop with a decision does ({report.states} states)",
        VIOLATED if problems else HOLDS_TO_DEPTH, "explicit", "loop", tuple(problems),
    ))
    return queries
