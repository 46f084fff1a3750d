"""A rulebook as an extended finite state machine held in a networkx graph.

Control locations (``ready_step``, ``action_phase``, ...) are the nodes of a
``networkx.MultiDiGraph``; each edge between two locations is a transition with
a name, the rule numbers that justify it, a guard and an update over typed,
finite data variables.  A state is a ``namedtuple`` with one field per variable
(plus ``location``); the same tuple type carries plain values for explicit
search and Z3 terms for bounded model checking.
"""

from __future__ import annotations

import itertools
from functools import cached_property
from collections import namedtuple
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import networkx as nx
import z3

from model.backend import CONCRETE, SYMBOLIC, Backend
from model.registry import Registry
from model.rulings import RuleBook


class ModelError(Exception):
    """The model itself is ill-formed: a bug in the encoding, not in the rules."""


# --------------------------------------------------------------------------
# Variables


@dataclass(frozen=True)
class Domain:
    """A finite set of values: a bounded integer range, booleans, or an enum."""

    lo: int
    hi: int
    is_bool: bool = False
    labels: tuple[str, ...] | None = None

    def values(self) -> range | tuple[bool, bool]:
        return (False, True) if self.is_bool else range(self.lo, self.hi + 1)

    def constrain(self, term: Any, slack: int = 0) -> Any:
        if self.is_bool:
            return z3.BoolVal(True)
        return z3.And(term >= self.lo - slack, term <= self.hi + slack)


def IntRange(lo: int, hi: int) -> Domain:
    if hi < lo:
        raise ModelError(f"empty integer range {lo}..{hi}")
    return Domain(lo, hi)


BOOL = Domain(0, 1, is_bool=True)


def Enum(*labels: str) -> Domain:
    return Domain(0, len(labels) - 1, labels=tuple(labels))


@dataclass(frozen=True)
class Var:
    """A typed data variable; with ``length`` it is a fixed-size tuple (per
    player, or the slots of a bounded stack).

    ``initial`` lists the values allowed in an initial state (for a tuple, the
    values allowed in each slot); ``start`` instead gives a tuple its one
    initial value, slot by slot (each unit's starting zone).
    """

    name: str
    domain: Domain
    initial: tuple[Any, ...]
    length: int | None = None
    doc: str = ""
    start: tuple[Any, ...] | None = None

    def initial_values(self) -> Iterator[Any]:
        if self.start is not None:
            yield tuple(self.start)
        elif self.length is None:
            yield from self.initial
        else:
            yield from itertools.product(self.initial, repeat=self.length)

    @cached_property
    def _allowed(self) -> frozenset[Any]:
        return frozenset(self.domain.values())

    def within(self, value: Any) -> bool:
        # Set membership: explicit search calls this on every new state.
        allowed = self._allowed
        if self.length is None:
            return value in allowed
        return isinstance(value, tuple) and len(value) == self.length and all(v in allowed for v in value)


@dataclass(frozen=True)
class Stack:
    """A bounded stack of records, bottom first.

    It is a length variable ``<name>_len`` and one tuple variable
    ``<name>_<field>`` per field.  Free slots hold each field's empty value,
    so two equal stacks are always equal states.
    """

    name: str
    depth: int
    fields: tuple[tuple[str, Domain, int], ...]  # (field, domain, empty value)
    doc: str = ""

    def variables(self) -> list[Var]:
        return [
            Var(f"{self.name}_len", IntRange(0, self.depth), (0,), doc=f"entries on the {self.name}"),
            *(
                Var(f"{self.name}_{f}", domain, (empty,), length=self.depth, doc=f"{f} of each {self.name} entry, bottom first")
                for f, domain, empty in self.fields
            ),
        ]

    def size(self, s: Any) -> Any:
        return getattr(s, f"{self.name}_len")

    def slots(self, s: Any, field: str) -> tuple:
        return getattr(s, f"{self.name}_{field}")

    def is_full(self, s: Any) -> Any:
        return self.size(s) >= self.depth

    def push(self, s: Any, b: Any, **record: Any) -> dict[str, Any]:
        if set(record) != {f for f, _, _ in self.fields}:
            raise ModelError(f"a push onto {self.name} must give {[f for f, _, _ in self.fields]}, got {sorted(record)}")
        top = self.size(s)
        return {
            f"{self.name}_len": top + 1,
            **{f"{self.name}_{f}": b.store(self.slots(s, f), top, record[f]) for f, _, _ in self.fields},
        }

    def pop(self, s: Any, b: Any) -> dict[str, Any]:
        top = self.size(s) - 1
        return {
            f"{self.name}_len": top,
            **{f"{self.name}_{f}": b.store(self.slots(s, f), top, empty) for f, _, empty in self.fields},
        }

    def top(self, s: Any, b: Any, field: str, default: Any = -1) -> Any:
        return b.select(self.slots(s, field), self.size(s) - 1, default)

    def kept(self, pre: Any, post: Any, b: Any, count: Any) -> Any:
        """The bottom ``count`` entries are the same in ``pre`` and ``post``."""
        return b.And(
            *(
                b.Implies(i < count, b.And(*(self.slots(post, f)[i] == self.slots(pre, f)[i] for f, _, _ in self.fields)))
                for i in range(self.depth)
            )
        )

    def entries(self, s: Any) -> list[dict[str, Any]]:
        """The entries of a concrete state, bottom first."""
        return [{f: self.slots(s, f)[i] for f, _, _ in self.fields} for i in range(self.size(s))]


# --------------------------------------------------------------------------
# Edges


Guard = Callable[[Any, Backend], Any]
Update = Callable[[Any, Backend], Mapping[str, Any]]
Actor = Callable[[Any, Backend], Any]


def always(state: Any, b: Backend) -> Any:
    return True


def no_change(state: Any, b: Backend) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Edge:
    """A transition between two control locations, justified by rule numbers.

    ``actor`` gives the player who takes the action (None: the game itself
    does it, as with turn-based actions that use no priority).  ``tags`` say
    what kind of step it is, so properties can select steps by meaning
    (``adds_link``, ``passes``, ``resolves``, ``opens_window``...).  Two say
    why an edge may never be taken: ``bound`` marks an exploration bound,
    not a rule; ``reading`` an edge only some source's reading enables, its
    guard asking the rulings (a proposal against one's own character, which
    000's 601.2b allows and the model's reading does not).

    ``prefilter``, when given, is a part of the guard that the guard implies
    and that runs over arrays where the whole guard cannot: a search over
    whole frontiers asks the guard, state by state, only where it holds.
    Concrete stepping asks it first too, once per state for all the edges
    that share it (the same function): a family of edges with one cheap
    precondition, such as every combat proposal, is passed over at once.
    """

    name: str
    source: str
    target: str
    rules: tuple[str, ...]
    guard: Guard = always
    update: Update = no_change
    actor: Actor | None = None
    tags: frozenset[str] = frozenset()
    doc: str = ""
    prefilter: Guard | None = None

    def has(self, tag: str) -> bool:
        return tag in self.tags


# --------------------------------------------------------------------------
# The machine


#: The terminal reason of the location where a game has ended, in a win or a
#: draw (every game's model names it so): not a bound, so lint can tell a game
#: that ends from one that merely stops being explored.
GAME_OVER = "game over"


@dataclass
class Location:
    name: str
    rules: tuple[str, ...]
    doc: str
    terminal: str | None = None  # why no edge leaves it: "game over", a bound...


class Machine:
    """An extended finite state machine for one rulebook at fixed bounds."""

    def __init__(
        self,
        game: str,
        variables: Sequence[Var],
        locations: Sequence[Location],
        initial_location: str,
        edges: Sequence[Edge],
        registry: Registry,
        bounds: Mapping[str, int],
        describe: Callable[["Machine", Any], dict[str, str]],
        stacks: Sequence[Stack] = (),
        table: Any = None,
        rulings: RuleBook | None = None,
    ) -> None:
        self.game = game
        #: The questions the guards ask, as rulings with explicit precedence (for lint).
        self.rulings = rulings
        #: The rule variant this machine encodes (``model/variants.py``); None: the seed's reading.
        self.variant: str | None = None
        #: The game's fixed facts (seats, the cards on the board) that properties read.
        self.table = table
        self.registry = registry
        self.bounds = dict(bounds)
        self.stacks = {st.name: st for st in stacks}
        self.variables = tuple(variables) + tuple(v for st in stacks for v in st.variables())
        self.var = {v.name: v for v in self.variables}
        self.locations = {loc.name: loc for loc in locations}
        self.location_names = tuple(self.locations)
        self.location_index = {name: i for i, name in enumerate(self.location_names)}
        if initial_location not in self.locations:
            raise ModelError(f"initial location {initial_location!r} is not a location")
        self.initial_location = initial_location
        self._describe = describe
        names = ["location", *(v.name for v in self.variables)]
        if len(set(names)) != len(names):
            raise ModelError(f"duplicate variable names in {names}")
        self.State = namedtuple("State", names)  # type: ignore[misc]
        self.edges: tuple[Edge, ...] = ()
        self.graph = nx.MultiDiGraph(game=game)
        for loc in locations:
            self.graph.add_node(loc.name, rules=loc.rules, doc=loc.doc, terminal=loc.terminal)
        self._add_edges(edges)

    # -- construction --------------------------------------------------------

    def _add_edges(self, edges: Iterable[Edge]) -> None:
        edges = tuple(edges)
        seen: set[str] = set()
        for e in edges:
            if e.name in seen:
                raise ModelError(f"two edges are named {e.name!r}")
            seen.add(e.name)
            for end in (e.source, e.target):
                if end not in self.locations:
                    raise ModelError(f"edge {e.name!r} joins unknown location {end!r}")
            if self.locations[e.source].terminal:
                raise ModelError(f"edge {e.name!r} leaves terminal location {e.source!r}")
            if not e.rules and not e.has("bound"):
                # Only an exploration bound (not a rule) may cite nothing.
                raise ModelError(f"edge {e.name!r} cites no rule")
            self.registry.require(e.rules, f"edge {e.name!r}")
        for loc in self.locations.values():
            self.registry.require(loc.rules, f"location {loc.name!r}")
        for q in self.rulings.declared.values() if self.rulings else ():
            for loc in q.asked_at:
                if loc not in self.locations:
                    raise ModelError(f"question {q.name!r} is asked at {loc!r}, which is not a location")
            for r in q.rulings:
                self.registry.require(r.rules, f"ruling {r.id!r} of {q.name!r}")
        for p in self.rulings.principles.values() if self.rulings else ():
            self.registry.require(p.rules, f"principle {p.id!r}")
        self.edges = edges
        self.edge_index = {e.name: i for i, e in enumerate(edges)}
        #: Relations built once over placeholders (see ``_instantiate``).
        self._templates: dict[str, tuple[list[Any], Any]] = {}
        self.graph.remove_edges_from(list(self.graph.edges(keys=True)))
        for e in edges:
            self.graph.add_edge(e.source, e.target, key=e.name, edge=e, rules=e.rules)
        #: Location index -> each edge leaving it with its target's index, in
        #: the machine's order (the order every search tries them in).
        self.out_index = {
            self.location_index[name]: tuple((e, self.location_index[e.target]) for e in edges if e.source == name)
            for name in self.locations
        }

    def with_edges(self, edges: Iterable[Edge]) -> "Machine":
        """A copy of this machine with another set of edges (for variants)."""
        clone = object.__new__(Machine)
        clone.__dict__.update(self.__dict__)
        clone.graph = self.graph.copy()
        clone._add_edges(edges)
        return clone

    def replace_edge(self, name: str, **changes: Any) -> "Machine":
        """A variant of this machine with one edge's guard, update or target replaced.

        A new guard drops the edge's prefilter unless one is given with it: the
        prefilter was implied by the old guard, and a mutant's weaker guard
        (a link resolving one pass early) need not imply it.
        """
        if name not in self.edge_index:
            raise ModelError(f"no edge named {name!r}; edges are {', '.join(self.edge_index)}")
        if "guard" in changes:
            changes.setdefault("prefilter", None)
        return self.with_edges(replace(e, **changes) if e.name == name else e for e in self.edges)

    def without_edge(self, name: str) -> "Machine":
        if name not in self.edge_index:
            raise ModelError(f"no edge named {name!r}")
        return self.with_edges(e for e in self.edges if e.name != name)

    # -- queries ---------------------------------------------------------------

    def edge(self, name: str) -> Edge:
        return self.edges[self.edge_index[name]]

    @property
    def terminal_locations(self) -> tuple[str, ...]:
        return tuple(name for name, loc in self.locations.items() if loc.terminal)

    def is_terminal(self, state: Any) -> bool:
        return self.locations[self.location_names[state.location]].terminal is not None

    def location_of(self, state: Any) -> str:
        return self.location_names[state.location]

    def at(self, state: Any, *names: str, b: Backend = CONCRETE) -> Any:
        """Is the state at one of the named locations?"""
        return b.Or(*(state.location == self.location_index[n] for n in names))

    def initial_states(self) -> Iterator[Any]:
        start = self.location_index[self.initial_location]
        for combo in itertools.product(*(list(v.initial_values()) for v in self.variables)):
            yield self.State(start, *combo)

    def initial_constraint(self, s: Any) -> Any:
        parts = [s.location == self.location_index[self.initial_location]]
        for v in self.variables:
            slots = getattr(s, v.name) if v.length is not None else (getattr(s, v.name),)
            if v.start is not None:
                parts.extend(term == value for term, value in zip(slots, v.start))
                continue
            for term in slots:
                parts.append(z3.Or(*(term == value for value in v.initial)))
        return z3.And(*parts)

    def domain_constraint(self, s: Any, slack: int = 0) -> Any:
        """Every variable of ``s`` lies in its domain, widened by ``slack`` on each side."""
        parts = [s.location >= 0, s.location < len(self.location_names)]
        for v in self.variables:
            slots = getattr(s, v.name) if v.length is not None else (getattr(s, v.name),)
            parts.extend(v.domain.constrain(t, slack) for t in slots)
        return z3.And(*parts)

    def symbolic_state(self, tag: str) -> Any:
        """A state whose fields are fresh Z3 constants named ``var@tag``."""
        fields: list[Any] = [z3.Int(f"location@{tag}")]
        for v in self.variables:
            make = z3.Bool if v.domain.is_bool else z3.Int
            if v.length is None:
                fields.append(make(f"{v.name}@{tag}"))
            else:
                fields.append(tuple(make(f"{v.name}[{i}]@{tag}") for i in range(v.length)))
        return self.State(*fields)

    def constant_state(self, state: Any) -> Any:
        """A concrete state lifted into Z3 values (for backend agreement checks)."""
        def lift(value: Any) -> Any:
            if isinstance(value, tuple):
                return tuple(lift(x) for x in value)
            return z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)
        return self.State(*(lift(x) for x in state))

    # -- stepping (concrete) ---------------------------------------------------

    def successors(self, state: Any) -> Iterator[tuple[Edge, Any]]:
        for e, post, _ in self.steps_from(state):
            yield e, post

    def steps_from(self, state: Any) -> Iterator[tuple[Edge, Any, Mapping[str, Any]]]:
        """Each enabled edge, the successor, and the variables its update set.
        Edges that share a prefilter (one function) are asked it once, and
        none of their guards is asked where it fails."""
        asked: dict[Guard, bool] = {}
        for e, target in self.out_index[state.location]:
            if e.prefilter is not None:
                holds = asked.get(e.prefilter)
                if holds is None:
                    holds = asked[e.prefilter] = bool(e.prefilter(state, CONCRETE))
                if not holds:
                    continue
            if e.guard(state, CONCRETE):
                changes = e.update(state, CONCRETE)
                yield e, state._replace(location=target, **changes), changes

    def edges_leaving(self, state: Any) -> tuple[Edge, ...]:
        """The edges out of the state's location, enabled or not."""
        return tuple(e for e, _ in self.out_index[state.location])

    def apply(self, state: Any, edge: Edge) -> Any:
        if edge.source != self.location_of(state) or not edge.guard(state, CONCRETE):
            raise ModelError(f"edge {edge.name!r} is not enabled in {self.describe(state)}")
        return state._replace(location=self.location_index[edge.target], **edge.update(state, CONCRETE))

    def actor(self, edge: Edge, state: Any) -> int | None:
        return None if edge.actor is None else edge.actor(state, CONCRETE)

    def out_of_bounds(self, state: Any, names: Iterable[str] | None = None) -> list[str]:
        """Variables (all, or those named) whose value lies outside their declared domain."""
        chosen = self.variables if names is None else (self.var[n] for n in names)
        return [v.name for v in chosen if not v.within(getattr(state, v.name))]

    # -- stepping (symbolic) -----------------------------------------------------

    def transition(self, pre: Any, post: Any, selector: Any) -> Any:
        """The Z3 transition relation: ``selector`` names the edge taken."""
        return self._instantiate("transition", self._build_transition, pre, post, selector)

    def _instantiate(self, name: str, build: Callable[..., Any], *terms: Any) -> Any:
        """``build(*terms)``, built once per machine over placeholder constants
        and then substituted with each call's own states: walking every guard
        and update in Python is what costs (up to a second for Riftbound), and
        BMC and induction ask for one relation per step they unroll."""
        if name not in self._templates:
            placeholders = tuple(
                self.symbolic_state(f"{name}#{i}") if isinstance(term, tuple) else z3.Int(f"{name}#{i}")
                for i, term in enumerate(terms)
            )
            self._templates[name] = (self.flatten(placeholders), build(*placeholders))
        constants, template = self._templates[name]
        return z3.substitute(template, *zip(constants, self.flatten(terms)))

    @staticmethod
    def flatten(terms: Any) -> list[Any]:
        """The Z3 terms of states and selectors, in field order, slots spread out."""
        out: list[Any] = []
        for term in terms:
            if isinstance(term, tuple):
                out.extend(Machine.flatten(term))
            else:
                out.append(term)
        return out

    def _build_transition(self, pre: Any, post: Any, selector: Any) -> Any:
        cases = [z3.And(selector >= 0, selector < len(self.edges))]
        for i, e in enumerate(self.edges):
            updates = e.update(pre, SYMBOLIC)
            unknown = set(updates) - set(self.var)
            if unknown:
                raise ModelError(f"edge {e.name!r} updates unknown variables {sorted(unknown)}")
            frame = [post.location == self.location_index[e.target]]
            for v in self.variables:
                new = updates.get(v.name, getattr(pre, v.name))
                if v.length is None:
                    frame.append(getattr(post, v.name) == new)
                else:
                    frame.extend(p == n for p, n in zip(getattr(post, v.name), new))
            cases.append(
                z3.Implies(
                    selector == i,
                    z3.And(pre.location == self.location_index[e.source], e.guard(pre, SYMBOLIC), *frame),
                )
            )
        return z3.And(*cases)

    def enabled_constraint(self, s: Any) -> Any:
        """Some edge is enabled in ``s``."""
        return self._instantiate("enabled", self._build_enabled, s)

    def _build_enabled(self, s: Any) -> Any:
        return z3.Or(
            *(
                z3.And(s.location == self.location_index[e.source], e.guard(s, SYMBOLIC))
                for e in self.edges
            )
        )

    def terminal_constraint(self, s: Any) -> Any:
        terminal = [self.location_index[n] for n, loc in self.locations.items() if loc.terminal]
        return z3.Or(*(s.location == i for i in terminal)) if terminal else z3.BoolVal(False)

    # -- reading -----------------------------------------------------------------

    def describe(self, state: Any) -> str:
        """A one-line, pasteable snapshot of a concrete state."""
        aspects = self.aspects(state)
        return "; ".join(f"{k}: {v}" for k, v in aspects.items())

    def aspects(self, state: Any) -> dict[str, str]:
        """The state as a judge reads it: named aspects with readable values."""
        return {"location": self.location_of(state), **self._describe(self, state)}

    def cited_rules(self) -> set[str]:
        return (
            {r for e in self.edges for r in e.rules}
            | {r for loc in self.locations.values() for r in loc.rules}
            | (self.rulings.cited_rules() if self.rulings else set())
        )


@dataclass(frozen=True)
class BoundSpec:
    """A bound a user may set, with its allowed range and meaning."""

    name: str
    default: int
    lo: int
    hi: int
    doc: str

    def check(self, value: int) -> int:
        if not self.lo <= value <= self.hi:
            raise BoundError(f"--{self.name.replace('_', '-')} {value} is out of range: allowed {self.lo}..{self.hi} ({self.doc})")
        return value


class BoundError(ValueError):
    """A bound outside what the model supports."""


def resolve_bounds(specs: Sequence[BoundSpec], given: Mapping[str, int | None]) -> dict[str, int]:
    unknown = {k for k, v in given.items() if v is not None} - {s.name for s in specs}
    if unknown:
        raise BoundError(f"unknown bound(s) {sorted(unknown)}; bounds are {[s.name for s in specs]}")
    return {s.name: s.check(given[s.name]) if given.get(s.name) is not None else s.default for s in specs}

