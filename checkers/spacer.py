"""Unbounded proofs of safety properties with Z3's Spacer (constrained Horn clauses).

The machine becomes a set of constrained Horn clauses whose least solution is
exactly the set of reachable states:

- one relation ``Reach_<location>`` per control location, over every data
  variable (tuple variables flattened slot by slot);
- ``init(s) => Reach_<initial>(s)``;
- one clause per edge ``e`` from location ``a`` to ``b``:
  ``Reach_a(pre) and guard_e(pre) and post = update_e(pre) => Reach_b(post)``;
- the query ``Err``, derived from every way to violate the property:
  ``Reach_l(s) and not holds(s)`` for an invariant (with its premise),
  ``Reach_a(pre) and guard_e(pre) and not holds(pre, update_e(pre))`` for each
  edge ``e`` a step property applies to, and ``Reach_l(s) and not terminal(s)
  and no edge enabled in s`` for deadlock.

Spacer (Komuravelli, Gurfinkel and Chaki, CAV 2014) answers the query with
either a derivation of ``Err`` (a run that violates the property) or an
interpretation of every ``Reach_l`` that satisfies all the clauses and
excludes ``Err``: an inductive invariant.

Why one relation per location, not a single ``Reach`` with the location as an
argument: the invariants these rules need are case splits on the location
("outside windows nobody holds priority"), which Spacer's lemmas, convex
cubes of linear arithmetic, express badly over one relation.  Split per
location each case is a conjunction.  Measured on the WoW any-length model
with 10-20 s per property: one relation timed out on 8 of 30 even at the
smallest bounds tried (priority_exclusive among them); per location Spacer
answers 27 of 30 at default bounds, most in about a second.  Per-edge clauses
(rather than one disjunctive transition) keep each Spacer query small.

The clauses carry no domain constraints: Spacer computes exact reachability
over unbounded integers, so a proof does not even assume the declared
domains.  (Whether the model keeps to its domains is explicit search's and
BMC's to check.)

Each query is answered by a process of its own (``spacer_process``), from
the query's text alone: Spacer's work on a query, and so whether it fits
the resource limit, was seen to depend on what the process had done before.

Honesty: Spacer is a large piece of software and its answer is not taken on
trust.  ``proved`` (and ``vacuous``) is returned only after ``check_inductive``
has re-checked the invariant Spacer found with separate plain Z3 solver
queries: it holds initially, every edge preserves it, and it implies the
property.  The invariant re-checked is the one printed in the result, in the
model's own variable names.  A derivation of ``Err`` is reported only as a
transcript replayed on the concrete backend (the edges Spacer's derivation
uses, taken from an initial state) that ends in a concrete violation.  A
timeout, Spacer's ``unknown``, a failed re-check or a replay that does not
reproduce the violation is ``unknown``, with the reason in the note.

Liveness (``Eventually``) is not a safety property and raises ``TypeError``.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import z3

from model import limits
from model.backend import CONCRETE
from model.backend import SYMBOLIC as SYM
from model.machine import Edge, Machine
from checkers.results import PROVED, UNKNOWN, VACUOUS, VIOLATED, Result, Transcript
from properties import Deadlock, Eventually, Invariant, Property, StepProperty

DEFAULT_TIMEOUT_MS = limits.GUARD_MS
#: Conflicts each solver call of ctx-solver-simplify may spend making a found
#: invariant more readable: counted work, so the printed invariant is the
#: same on any machine.
TIDY_CONFLICTS = 1_000
#: Wall-clock guards only, past the counted work: tidying a location's
#: invariant, and eliminating its existentials (the ``qe`` tactics count no
#: work of their own, so the clock is all there is; a guard of 2 s fired on a
#: machine busy with other work and changed the size the note gives).  A
#: guard that fires is said in the proof's note, since the invariant's form
#: may then differ from run to run.
SIMPLIFY_TIMEOUT_MS = 30_000
QE_TIMEOUT_MS = 15_000
#: The tag of the symbolic state over which invariants are written.
INVARIANT_TAG = "inv"

#: Spacer's parameters.  Tried on the WoW any-length model and no better than
#: the defaults: spacer.use_bg_invs, spacer.global, spacer.use_inc_clause=False,
#: xform.inline_linear/inline_eager=False; xform.elim_term_ite makes Spacer
#: fail ("Uninterpreted k!263").  What helped was the encoding (per location).
SPACER_PARAMS: dict[str, Any] = {"engine": "spacer"}


# --------------------------------------------------------------------------
# What a violation looks like


@dataclass(frozen=True)
class _Bad:
    """One way to reach ``Err``: a state satisfying ``condition(s)`` (``edge``
    None), or a step along ``edge`` with ``condition(pre, post)``."""

    edge: Edge | None
    condition: Callable[..., Any]


def _violations(machine: Machine, prop: Property) -> list[_Bad]:
    m = machine
    if isinstance(prop, Invariant):
        if prop.premise is None:
            return [_Bad(None, lambda s: z3.Not(prop.holds(m, s, SYM)))]
        return [_Bad(None, lambda s: z3.And(prop.premise(m, s, SYM), z3.Not(prop.holds(m, s, SYM))))]
    if isinstance(prop, StepProperty):
        return [
            _Bad(e, lambda pre, post: z3.Not(prop.holds(m, pre, post, SYM)))
            for e in m.edges
            if prop.applies(e)
        ]
    if isinstance(prop, Deadlock):
        return [_Bad(None, lambda s: z3.And(z3.Not(m.terminal_constraint(s)), z3.Not(m.enabled_constraint(s))))]
    if isinstance(prop, Eventually):
        raise TypeError(
            f"Spacer proves safety properties here (invariants, step properties, deadlock); "
            f"{prop.name} is a liveness property (Eventually): use explicit search or BMC"
        )
    raise TypeError(f"Spacer cannot check {type(prop).__name__}")


def _premise(machine: Machine, prop: Property) -> list[_Bad] | None:
    """The ways to meet the property's premise (None: it has none)."""
    m = machine
    if isinstance(prop, Invariant) and prop.premise is not None:
        return [_Bad(None, lambda s: prop.premise(m, s, SYM))]
    if isinstance(prop, StepProperty):
        return [_Bad(e, lambda pre, post: z3.BoolVal(True)) for e in m.edges if prop.applies(e)]
    return None


def _violated_concretely(machine: Machine, prop: Property, pre: Any, edge: Edge | None, post: Any) -> bool:
    """Does the end of a replayed run violate the property (the step ``pre -edge-> post``, or state ``post``)?"""
    m = machine
    if isinstance(prop, Invariant):
        return (prop.premise is None or bool(prop.premise(m, post, CONCRETE))) and not prop.holds(m, post, CONCRETE)
    if isinstance(prop, StepProperty):
        return edge is not None and prop.applies(edge) and not prop.holds(m, pre, post, CONCRETE)
    return not m.is_terminal(post) and next(iter(m.successors(post)), None) is None


# --------------------------------------------------------------------------
# States as flat lists of terms


def _terms(s: Any) -> list[Any]:
    """The data fields of a state, tuples flattened, without the location."""
    out: list[Any] = []
    for value in list(s)[1:]:
        out.extend(value if isinstance(value, tuple) else (value,))
    return out


def _rebuild(machine: Machine, location: Any, terms: Sequence[Any]) -> Any:
    """A state from a location and the flat list of data terms."""
    fields: list[Any] = [location]
    it = iter(terms)
    for v in machine.variables:
        fields.append(next(it) if v.length is None else tuple(next(it) for _ in range(v.length)))
    return machine.State(*fields)


def _at(machine: Machine, s: Any, location: int) -> Any:
    """``s`` with its location fixed to a number, so location tests simplify away."""
    return s._replace(location=z3.IntVal(location))


def _post(machine: Machine, pre: Any, edge: Edge) -> Any:
    """The successor of ``pre`` along ``edge``, as terms over ``pre``."""
    return pre._replace(location=z3.IntVal(machine.location_index[edge.target]), **edge.update(pre, SYM))


def _step(machine: Machine, pre: Any, post: Any, edge: Edge) -> Any:
    """``post`` is the successor of ``pre`` along ``edge``, guard included."""
    after = _post(machine, pre, edge)
    return z3.And(
        pre.location == machine.location_index[edge.source],
        edge.guard(pre, SYM),
        *(a == b for a, b in zip([post.location, *_terms(post)], [after.location, *_terms(after)])),
    )


_STEPS: "weakref.WeakKeyDictionary[Machine, dict[str, Any]]" = weakref.WeakKeyDictionary()


def _steps(machine: Machine, pre: Any, post: Any) -> dict[str, Any]:
    """``_step`` for every edge between the re-check's two states, built once per machine."""
    if machine not in _STEPS:
        _STEPS[machine] = {e.name: _step(machine, pre, post, e) for e in machine.edges}
    return _STEPS[machine]


def named_state(machine: Machine) -> Any:
    """A state whose fields are Z3 constants named as the model names them:
    ``passes``, ``chain_kind[1]``; what a printed invariant is written over."""
    fields: list[Any] = [z3.Int("location")]
    for v in machine.variables:
        make = z3.Bool if v.domain.is_bool else z3.Int
        fields.append(make(v.name) if v.length is None else tuple(make(f"{v.name}[{i}]") for i in range(v.length)))
    return machine.State(*fields)


def invariant_state(machine: Machine) -> Any:
    """The symbolic state (``var@inv``) over which ``check_inductive`` reads an invariant."""
    return machine.symbolic_state(INVARIANT_TAG)


def invariant_text(machine: Machine, invariant: Any, over: Any, found: str) -> str:
    """An invariant over ``over`` as SMT-LIB over the model's variable names
    (``named_state``), after a comment line saying how it was found: what
    ``parse_invariant`` reads back, in a later run or another process."""
    named = named_state(machine)
    plain = z3.substitute(invariant, *zip([over.location, *_terms(over)], [named.location, *_terms(named)]))
    return f"; {found}\n{plain.sexpr()}"


def parse_invariant(machine: Machine, text: str) -> Any:
    """``invariant_text`` read back as a formula over ``invariant_state(machine)``;
    raises ``z3.Z3Exception`` where it names what the model does not have."""
    named, over = named_state(machine), invariant_state(machine)
    fields = [named.location, *_terms(named)]
    (formula,) = z3.parse_smt2_string(f"(assert {text.partition(chr(10))[2]})", decls={str(f): f for f in fields})
    return z3.substitute(formula, *zip(fields, [over.location, *_terms(over)]))


# --------------------------------------------------------------------------
# The Horn clauses


class _Clauses:
    """The reachability clauses of one machine, built once and sent with each
    property's error clauses to a Fixedpoint of its own (a fresh one per
    query, in a fresh process: Spacer keeps no useful state across queries,
    a fresh one cannot be confused by another property's error clauses, and
    a fresh process makes the work the same whatever ran before)."""

    def __init__(self, machine: Machine, lemmas: Sequence[Invariant] = ()) -> None:
        m = self.machine = machine
        self.lemmas = tuple(lemmas)
        self.pre = m.symbolic_state("pre")
        self.post = m.symbolic_state("post")
        self.pre_vars = _terms(self.pre)
        self.post_vars = _terms(self.post)
        sorts = [t.sort() for t in self.pre_vars]
        self.reach = [z3.Function(f"Reach_{name}", *sorts, z3.BoolSort()) for name in m.location_names]
        self.names = {r.name() for r in self.reach}
        self.rules: list[tuple[Any, list[Any], str]] = []
        start = m.location_index[m.initial_location]
        self.rules.append((self.reach[start](*self.pre_vars), [m.initial_constraint(_at(m, self.pre, start))], "init"))
        for e in m.edges:
            a, b = m.location_index[e.source], m.location_index[e.target]
            pre = _at(m, self.pre, a)
            after = _terms(_post(m, pre, e))
            body = [self.reach[a](*self.pre_vars), e.guard(pre, SYM), *_assumed(m, self.lemmas, pre)]
            body.extend(q == t for q, t in zip(self.post_vars, after))
            self.rules.append((self.reach[b](*self.post_vars), body, _edge_rule(e)))

    def error_rules(self, bads: Sequence[_Bad]) -> Iterator[tuple[list[Any], str]]:
        """The bodies of the clauses deriving ``Err`` (and their names)."""
        m = self.machine
        for bad in bads:
            if bad.edge is None:
                for i in range(len(m.location_names)):
                    s = _at(m, self.pre, i)
                    condition = bad.condition(s)
                    # Simplified only to skip locations it rules out: the
                    # simplified form orders terms by this process's term
                    # ids, and the query's text must not depend on them.
                    if not z3.is_false(z3.simplify(condition)):
                        yield [self.reach[i](*self.pre_vars), condition, *_assumed(m, self.lemmas, s)], f"err@{m.location_names[i]}"
            else:
                e = bad.edge
                pre = _at(m, self.pre, m.location_index[e.source])
                condition = bad.condition(pre, _post(m, pre, e))
                body = [self.reach[m.location_index[e.source]](*self.pre_vars), e.guard(pre, SYM), condition]
                yield [*body, *_assumed(m, self.lemmas, pre)], _edge_rule(e, "err")

    def request(self, bads: Sequence[_Bad], timeout_ms: int, params: dict[str, Any]) -> dict[str, Any]:
        """One query as ``spacer_process`` reads it: each rule as an
        implication over the free state variables, in order and with its
        name; the relations and the variables; Spacer's parameters with the
        resource limit and the timeout."""
        err = z3.Bool("Err")
        rules = [(z3.Implies(z3.And(*body), head), name) for head, body, name in self.rules]
        rules += [(z3.Implies(z3.And(*body), err), name) for body, name in self.error_rules(bads)]
        text = z3.Solver()
        text.add(*(rule for rule, _ in rules))
        return {
            "rules": text.sexpr(),
            "names": [name for _, name in rules],
            "relations": [r.name() for r in self.reach],
            "variables": [str(t) for t in [*self.pre_vars, *self.post_vars]],
            "slots": ["Bool" if z3.is_bool(t) else "Int" for t in self.pre_vars],
            "params": {**SPACER_PARAMS, **params, "rlimit": limits.rlimit(), "timeout": timeout_ms},
        }

    def invariant(self, reply: "_Reply", over: Any, cut: list[str] | None = None) -> Any:
        """Spacer's interpretation of the ``Reach_l`` as one formula over the state ``over``.

        Read from ``get_answer()``: one ``ForAll(args, Reach_l(args) == body)``
        per relation.  A relation it leaves out is taken as true, the weakest
        reading; the re-check judges the result either way.  ``cut``
        collects what a wall-clock guard stopped.
        """
        terms = _terms(over)
        found: dict[str, Any] = {}
        decls = {r.name(): r for r in self.reach}
        decls["Err"] = z3.Bool("Err").decl()
        answer = z3.parse_smt2_string(f"(assert {reply.answer})", decls=decls)[0]
        for part in answer.children() if z3.is_and(answer) else [answer]:
            if z3.is_quantifier(part):
                fresh = [z3.Const(f"spacer!{i}", part.var_sort(i)) for i in range(part.num_vars())]
                # De Bruijn: Var(0) is the last bound variable.
                part = z3.substitute_vars(part.body(), *reversed(fresh))
            head, body = part, z3.BoolVal(True)
            if z3.is_not(part):
                head, body = part.arg(0), z3.BoolVal(False)
            elif z3.is_eq(part) and z3.is_app(part.arg(0)) and part.arg(0).num_args() == len(terms):
                head, body = part.arg(0), part.arg(1)
            if not z3.is_app(head) or head.decl().name() not in self.names:
                continue
            # The head's arguments are the bound variables, or values Spacer fixed.
            pairs, fixed = [], []
            for arg, term in zip(head.children(), terms):
                if z3.is_const(arg) and arg.decl().name().startswith("spacer!"):
                    pairs.append((arg, term))
                else:
                    fixed.append(term == arg)
            found[head.decl().name()] = _without_quantifiers(
                z3.And(*fixed, z3.substitute(body, *pairs)) if pairs else z3.And(*fixed, body), cut
            )
        cases = [
            z3.And(over.location == i, found.get(rel.name(), z3.BoolVal(True))) for i, rel in enumerate(self.reach)
        ]
        return z3.Or(*cases)


def _without_quantifiers(formula: Any, cut: list[str] | None = None) -> Any:
    """The formula with Spacer's existentials eliminated (an equivalent one, so
    that what is re-checked and printed reads in the model's names only); as
    it was if elimination fails or takes too long (said in ``cut``)."""
    if not _has_quantifier(formula):
        return formula
    # Part by part: smaller problems, and a part that blows up spoils only itself.
    if z3.is_or(formula):
        return z3.Or(*(_without_quantifiers(c, cut) for c in formula.children()))
    if z3.is_and(formula):
        return z3.And(*(_without_quantifiers(c, cut) for c in formula.children()))
    found = []
    for tactic in ("qe-light", "qe"):
        started = time.perf_counter()
        try:
            result = z3.TryFor(z3.Then(tactic, "simplify"), QE_TIMEOUT_MS)(formula).as_expr()
        except z3.Z3Exception:
            result = formula
        if not _has_quantifier(result):
            found.append(result)
        elif cut is not None and time.perf_counter() - started >= QE_TIMEOUT_MS / 1000:
            # A cancelled tactic may return its goal unchanged rather than fail: the clock tells.
            cut.append(f"eliminating existentials ({QE_TIMEOUT_MS / 1000:g} s)")
    # Elimination can multiply a formula out: the smallest result, if it stays near the original's size.
    best = min(found, key=_size, default=None)
    return best if best is not None and _size(best) <= 2 * _size(formula) else formula


def _size(e: Any) -> int:
    """Nodes in a formula, quantifier bodies included, counted as a tree (a
    subterm shared n times counts n times).  Each shared subterm is walked
    once: Spacer's invariants share most of theirs, and walking the tree
    through Z3's Python API cost seconds a proof."""
    sizes: dict[int, int] = {}

    def size(x: Any) -> int:
        key = x.get_id()
        if key not in sizes:
            sizes[key] = 1 + (size(x.body()) if z3.is_quantifier(x) else sum(size(c) for c in x.children()))
        return sizes[key]

    return size(e)


def _has_quantifier(e: Any) -> bool:
    seen: set[int] = set()
    todo = [e]
    while todo:
        x = todo.pop()
        if z3.is_quantifier(x):
            return True
        if x.get_id() not in seen:  # a shared subterm is looked into once
            seen.add(x.get_id())
            todo += x.children()
    return False


def _edge_rule(e: Edge, prefix: str = "edge") -> str:
    return f"{prefix}:{e.name}"


def _assumed(m: Machine, lemmas: Sequence[Invariant], s: Any) -> list[Any]:
    """The lemmas in state ``s``: invariants already proved for every
    reachable state (by k-induction, in the portfolio), so a clause may
    assume them of its pre-state without losing a reachable state.  Spacer
    then need not find them itself: on WoW's combat_damage_equals_atk the
    proved invariants cut its work from 180.7 to 69.2 million units."""
    out = []
    for lemma in lemmas:
        if not isinstance(lemma, Invariant):
            raise TypeError(f"a lemma for Spacer is a proved invariant; {lemma.name} is a {type(lemma).__name__}")
        holds = lemma.holds(m, s, SYM)
        out.append(holds if lemma.premise is None else z3.Implies(lemma.premise(m, s, SYM), holds))
    return out


# --------------------------------------------------------------------------
# Re-checking an invariant without Spacer


@dataclass(frozen=True)
class InductiveCheck:
    """The outcome of re-checking an invariant; false with the first obligation that failed."""

    ok: bool
    failed: str = ""

    def __bool__(self) -> bool:
        return self.ok


def check_inductive(
    machine: Machine,
    prop: Property,
    invariant: Any,
    over: Any = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    premise_unreachable: bool = False,
    lemmas: Sequence[Invariant] = (),
) -> InductiveCheck:
    """Re-check with plain Z3 solver queries (no Spacer) that ``invariant``, a
    formula over the state ``over`` (default ``invariant_state(machine)``), is
    an inductive invariant that proves the property:

    1. every initial state satisfies it;
    2. every edge, taken from a state satisfying it, leads to one that does;
    3. it implies the property: no state satisfying it violates an invariant
       or deadlocks, and no step from one along an edge a step property
       applies to violates it.

    With ``premise_unreachable`` the third obligation is instead that no state
    satisfying it meets the property's premise (the proof of ``vacuous``).

    With ``lemmas`` (invariants proved for every reachable state) the second
    and third obligations are asked of states that also satisfy them; the
    invariant and the lemmas together then hold in every reachable state.
    """
    m = machine
    over = invariant_state(m) if over is None else over
    pre, post = m.symbolic_state("chk0"), m.symbolic_state("chk1")
    fields = [over.location, *_terms(over)]

    def inv(s: Any) -> Any:
        return z3.substitute(invariant, *zip(fields, [s.location, *_terms(s)]))

    # One solver, each obligation inside push/pop: the clauses of the
    # invariant are shared by every query.
    solver = limits.limit(z3.Solver(), timeout_ms)

    def obligation(name: str, *constraints: Any) -> InductiveCheck | None:
        solver.push()
        try:
            solver.add(*constraints)
            answer = solver.check()
        finally:
            solver.pop()
        if answer == z3.unknown:
            return InductiveCheck(False, f"{name}: the solver gave up: {limits.why_unknown(solver.reason_unknown(), timeout_ms)}")
        return None if answer == z3.unsat else InductiveCheck(False, name)

    failed = obligation("not implied by the initial states", m.initial_constraint(pre), z3.Not(inv(pre)))
    if failed is not None:
        return failed
    solver.add(inv(pre), *_assumed(m, lemmas, pre))  # every remaining obligation starts from a state satisfying them
    steps = _steps(m, pre, post)
    # The few obligations of the goal before the one per edge: asked whether
    # an invariant rules out a premise it does not, this answers fast.
    failed = _goal(m, prop, premise_unreachable, steps, pre, post, obligation)
    if failed is not None:
        return failed
    leaves = z3.Not(inv(post))
    for e in m.edges:
        failed = obligation(f"not preserved by edge {e.name!r}", steps[e.name], leaves)
        if failed is not None:
            return failed
    return InductiveCheck(True)


def _goal(
    m: Machine,
    prop: Property,
    premise_unreachable: bool,
    steps: dict[str, Any],
    pre: Any,
    post: Any,
    obligation: Callable[..., InductiveCheck | None],
) -> InductiveCheck | None:
    """The third obligation of ``check_inductive``: the first part that fails, or None."""
    bads = _premise(m, prop) if premise_unreachable else _violations(m, prop)
    what = "does not rule out the premise" if premise_unreachable else "does not imply the property"
    for bad in bads or ():
        if bad.edge is None:
            failed = obligation(what, bad.condition(pre))
        else:
            failed = obligation(
                f"{what} on edge {bad.edge.name!r}",
                steps[bad.edge.name],
                bad.condition(pre, post),
            )
        if failed is not None:
            return failed
    return None


# --------------------------------------------------------------------------
# Printing an invariant for a rules designer


def readable(machine: Machine, invariant: Any, over: Any = None, cut: list[str] | None = None) -> tuple[str, int]:
    """The invariant in the model's own names, one location group per line,
    and its size in atoms (comparisons and boolean variables); ``cut``
    collects where a wall-clock guard stopped the tidying."""
    m = machine
    over = invariant_state(m) if over is None else over
    named = named_state(m)
    pairs = list(zip(_terms(over), _terms(named)))
    labels = {t.get_id(): v.domain.labels for v, t in _slots(m, named) if v.domain.labels}
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    atoms = 0
    for i, name in enumerate(m.location_names):
        case = z3.simplify(z3.substitute(z3.And(over.location == i, invariant), *pairs, (over.location, z3.IntVal(i))))
        case = _tidy(case, cut)
        if z3.is_false(case):
            continue  # a location no reachable state is at
        atoms += _count_atoms(case)
        text = _render(case, labels)
        if text not in groups:
            groups[text] = []
            order.append(text)
        groups[text].append(name)
    if not order:
        return "false", 0
    if order == ["true"] and len(groups["true"]) == len(m.location_names):
        return "true", 0
    lines = []
    for text in order:
        names = groups[text]
        where = f"location = {names[0]}" if len(names) == 1 else f"location in {{{', '.join(names)}}}"
        lines.append(where if text == "true" else f"{where} and {_wrap(text)}")
    return "\n or ".join(lines), atoms


def _slots(m: Machine, s: Any) -> Iterator[tuple[Any, Any]]:
    for v in m.variables:
        value = getattr(s, v.name)
        for t in value if isinstance(value, tuple) else (value,):
            yield v, t


def _tidy(formula: Any, cut: list[str] | None = None) -> Any:
    """Make a formula shorter if Z3 can within the counted work allowed; it stays equivalent."""
    started = time.perf_counter()
    try:
        goal = z3.Goal()
        goal.add(formula)
        simplify = z3.With(z3.Tactic("ctx-solver-simplify"), max_conflicts=TIDY_CONFLICTS)
        result = z3.TryFor(z3.Then("simplify", simplify, "simplify"), SIMPLIFY_TIMEOUT_MS)(goal)
        if len(result) == 1 and time.perf_counter() - started < SIMPLIFY_TIMEOUT_MS / 1000:
            return z3.simplify(result[0].as_expr())
    except z3.Z3Exception:
        pass
    if cut is not None and time.perf_counter() - started >= SIMPLIFY_TIMEOUT_MS / 1000:
        cut.append(f"tidying ({SIMPLIFY_TIMEOUT_MS / 1000:g} s)")
    return formula


def _count_atoms(e: Any) -> int:
    """Comparisons and boolean variables under the connectives, counted as a
    tree (as ``_size`` counts, each shared subterm walked once)."""
    counts: dict[int, int] = {}

    def count(x: Any) -> int:
        key = x.get_id()
        if key not in counts:
            if z3.is_and(x) or z3.is_or(x) or z3.is_not(x) or z3.is_implies(x):
                counts[key] = sum(count(c) for c in x.children())
            else:
                counts[key] = 0 if z3.is_true(x) or z3.is_false(x) else 1
        return counts[key]

    return count(e)


_OPS = {
    z3.Z3_OP_LE: "<=", z3.Z3_OP_GE: ">=", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "=", z3.Z3_OP_DISTINCT: "!=",
}


def _wrap(text: str) -> str:
    return f"({text})" if " or " in text or " and " in text else text


def _render(e: Any, labels: dict[int, tuple[str, ...]]) -> str:
    """A formula as text: and/or/not, comparisons, sums written with minus signs.

    Within a conjunction the bounds on one term are merged (``priority_holder
    = 2`` rather than ``not priority_holder >= 3 and not priority_holder <=
    1``), and conjuncts and disjuncts are sorted, so that equal cases print
    alike and group together.
    """
    if z3.is_true(e):
        return "true"
    if z3.is_false(e):
        return "false"
    if z3.is_and(e):
        return " and ".join(_wrap_or(part) for part in _conjuncts(e.children(), labels))
    if z3.is_or(e):
        return " or ".join(sorted(_render(c, labels) for c in e.children()))
    bound = _bound(e)
    if bound is not None:
        return _bounds_text(bound[0], bound[1], bound[2], labels)
    if z3.is_not(e):
        inner = e.arg(0)
        if z3.is_eq(inner) and not z3.is_bool(inner.arg(0)):
            return _comparison(inner.arg(0), "!=", inner.arg(1), labels)
        return f"not {_wrap(_render(inner, labels))}"
    if z3.is_implies(e):
        return f"{_wrap(_render(e.arg(0), labels))} implies {_wrap(_render(e.arg(1), labels))}"
    if z3.is_app(e) and e.decl().kind() in _OPS and e.num_args() == 2:
        if z3.is_bool(e.arg(0)):
            word = "iff" if e.decl().kind() == z3.Z3_OP_EQ else "xor"
            return f"{_wrap(_render(e.arg(0), labels))} {word} {_wrap(_render(e.arg(1), labels))}"
        return _comparison(e.arg(0), _OPS[e.decl().kind()], e.arg(1), labels)
    if z3.is_app_of(e, z3.Z3_OP_ITE):
        return f"(if {_render(e.arg(0), labels)} then {_render(e.arg(1), labels)} else {_render(e.arg(2), labels)})"
    return _term(e)


def _conjuncts(children: Sequence[Any], labels: dict[int, tuple[str, ...]]) -> list[str]:
    bounds: dict[int, tuple[Any, int | None, int | None]] = {}
    others: list[str] = []
    for c in children:
        bound = _bound(c)
        if bound is None:
            others.append(_render(c, labels))
            continue
        term, lo, hi = bound
        _, lo0, hi0 = bounds.get(term.get_id(), (term, None, None))
        lo = lo0 if lo is None else lo if lo0 is None else max(lo, lo0)
        hi = hi0 if hi is None else hi if hi0 is None else min(hi, hi0)
        bounds[term.get_id()] = (term, lo, hi)
    parts = [_bounds_text(t, lo, hi, labels) for t, lo, hi in bounds.values()]
    return sorted(parts + others)


def _bound(e: Any) -> tuple[Any, int | None, int | None] | None:
    """``(x, lo, hi)`` if ``e`` says ``lo <= x <= hi`` (either side open) of an integer term ``x``."""
    negated = z3.is_not(e)
    atom = e.arg(0) if negated else e
    if not (z3.is_app(atom) and atom.num_args() == 2 and z3.is_int_value(atom.arg(1))):
        return None
    x, k = atom.arg(0), atom.arg(1).as_long()
    if z3.is_int_value(x) or not z3.is_int(x):
        return None
    kind = atom.decl().kind()
    if negated:
        kind = {z3.Z3_OP_GE: z3.Z3_OP_LT, z3.Z3_OP_LE: z3.Z3_OP_GT, z3.Z3_OP_GT: z3.Z3_OP_LE, z3.Z3_OP_LT: z3.Z3_OP_GE}.get(kind)
    return {
        z3.Z3_OP_GE: (x, k, None),
        z3.Z3_OP_GT: (x, k + 1, None),
        z3.Z3_OP_LE: (x, None, k),
        z3.Z3_OP_LT: (x, None, k - 1),
        z3.Z3_OP_EQ: None if negated else (x, k, k),
    }.get(kind)


def _bounds_text(term: Any, lo: int | None, hi: int | None, labels: dict[int, tuple[str, ...]]) -> str:
    if lo is not None and hi is not None:
        if lo > hi:
            return "false"
        if lo == hi:
            return _comparison(term, "=", z3.IntVal(lo), labels)
        return f"{lo} <= {_term(term)} <= {hi}"
    if lo is not None:
        return f"{_term(term)} >= {lo}"
    return f"{_term(term)} <= {hi}"


def _wrap_or(text: str) -> str:
    return f"({text})" if " or " in text else text


def _comparison(lhs: Any, op: str, rhs: Any, labels: dict[int, tuple[str, ...]]) -> str:
    # An enum slot compared with a number reads as its label: chain_kind[1] = proposal.
    if op in ("=", "!=") and z3.is_int_value(rhs) and lhs.get_id() in labels:
        names = labels[lhs.get_id()]
        if 0 <= rhs.as_long() < len(names):
            return f"{_term(lhs)} {op} {names[rhs.as_long()]}"
    return f"{_term(lhs)} {op} {_term(rhs)}"


def _term(e: Any) -> str:
    if z3.is_int_value(e):
        return str(e.as_long())
    if z3.is_add(e):
        parts = []
        for i, c in enumerate(e.children()):
            negated = _negated(c)
            if negated is not None:
                parts.append(f"- {_term(negated)}" if i else f"-{_term(negated)}")
            else:
                parts.append(f"+ {_term(c)}" if i else _term(c))
        return " ".join(parts)
    if z3.is_mul(e):
        return "*".join(_term(c) if not z3.is_add(c) else f"({_term(c)})" for c in e.children())
    if z3.is_app_of(e, z3.Z3_OP_UMINUS):
        return f"-{_term(e.arg(0))}"
    if z3.is_app_of(e, z3.Z3_OP_SUB):
        return " - ".join(_term(c) for c in e.children())
    if z3.is_app_of(e, z3.Z3_OP_ITE):
        return f"(if {_render(e.arg(0), {})} then {_term(e.arg(1))} else {_term(e.arg(2))})"
    return str(e)


def _negated(e: Any) -> Any:
    """``x`` if ``e`` is ``-1*x`` (or ``-k*x``: then ``k*x``), else None."""
    if z3.is_mul(e) and e.num_args() == 2 and z3.is_int_value(e.arg(0)) and e.arg(0).as_long() < 0:
        k = -e.arg(0).as_long()
        return e.arg(1) if k == 1 else z3.IntVal(k) * e.arg(1)
    if z3.is_int_value(e) and e.as_long() < 0:
        return z3.IntVal(-e.as_long())
    return None


# --------------------------------------------------------------------------
# Counterexamples


def _replay(machine: Machine, prop: Property, names: Sequence[str]) -> Transcript | None:
    """The run that takes the named edges in order from some initial state and
    ends in a violation, as a transcript; None if no initial state gives one.

    The edge names are all a derivation needs: a run is determined by its
    initial state and its edges.
    """
    m = machine
    try:
        edges = [m.edge(name) for name in names]
    except KeyError:
        return None
    for start in m.initial_states():
        state, path, ok = start, [], True
        for e in edges:
            if m.location_of(state) != e.source or not e.guard(state, CONCRETE):
                ok = False
                break
            post = m.apply(state, e)
            path.append((e, post))
            state = post
        if not ok:
            continue
        pre = path[-2][1] if len(path) > 1 else start
        last = path[-1][0] if path else None
        if _violated_concretely(m, prop, pre, last, state):
            return Transcript.from_path(m, start, path, f"{prop.name}: {prop.statement}")
    return None


def _trace_edges(names: Sequence[str] | None) -> list[str] | None:
    """The edges of Spacer's derivation of ``Err`` (the rule names along its
    trace), in the order a run takes them."""
    if names is None:
        return None
    # The names come from the query back to the facts, ';'-separated in one symbol.
    flat = [part for n in names for part in n.split(";") if part]
    flat.reverse()
    edges = []
    for name in flat:
        kind, _, edge = name.partition(":")
        if kind in ("edge", "err") and edge:
            edges.append(edge)
    return edges


def _search(machine: Machine, prop: Property, depth: int, max_states: int = 200_000) -> Transcript | None:
    """A shortest violating run of at most ``depth`` steps, by breadth-first
    search on the concrete machine (the fallback when Spacer's derivation
    does not replay)."""
    m = machine
    parent: dict[Any, tuple[Any, Edge] | None] = {}
    frontier = []
    for s in m.initial_states():
        if s not in parent:
            parent[s] = None
            frontier.append(s)

    def path_to(s: Any) -> tuple[Any, list[tuple[Edge, Any]]]:
        path = []
        while parent[s] is not None:
            pre, e = parent[s]
            path.append((e, s))
            s = pre
        return s, path[::-1]

    for s in frontier:
        if _violated_concretely(m, prop, s, None, s) and not isinstance(prop, StepProperty):
            start, path = path_to(s)
            return Transcript.from_path(m, start, path, f"{prop.name}: {prop.statement}")
    for _ in range(depth):
        nxt = []
        for pre in frontier:
            for e, post in m.successors(pre):
                if _violated_concretely(m, prop, pre, e, post):
                    start, path = path_to(pre)
                    return Transcript.from_path(m, start, path + [(e, post)], f"{prop.name}: {prop.statement}")
                if post not in parent:
                    parent[post] = (pre, e)
                    nxt.append(post)
        frontier = nxt
        if len(parent) > max_states:
            return None
    return None


# --------------------------------------------------------------------------
# Checking


@dataclass(frozen=True)
class _Reply:
    """What ``spacer_process`` answered: see its docstring."""

    status: str
    reason: str = ""
    answer: str = ""
    trace: list[str] | None = None
    levels: int = 0
    rlimit: int = 0


@dataclass
class _Answer:
    """One Spacer query's outcome."""

    verdict: str  # PROVED (Err underivable), VIOLATED (derivable) or UNKNOWN
    reply: _Reply
    seconds: float
    why: str = ""


#: How long past the query's own timeout the process is given before it is
#: stopped (starting Python and Z3, reading the clauses, writing the answer).
PROCESS_GRACE_S = 60


def _ask(clauses: _Clauses, bads: Sequence[_Bad], timeout_ms: int, params: dict[str, Any]) -> _Answer:
    """Spacer's answer to one query, from a process of its own (see
    ``spacer_process`` for why): the same query text gets the same answer
    whatever this process did before."""
    started = time.perf_counter()
    request = json.dumps(clauses.request(bads, timeout_ms, params))
    guard_s = timeout_ms / 1000 + PROCESS_GRACE_S
    try:
        done = subprocess.run(
            [sys.executable, str(_PROCESS)],
            input=request,
            capture_output=True,
            text=True,
            timeout=guard_s,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    except subprocess.TimeoutExpired:
        why = f"Spacer stopped: its process passed the wall-clock guard of {guard_s:g} s (an outer guard: a busy machine reaches it sooner; raise --timeout)"
        return _Answer(UNKNOWN, _Reply("unknown"), time.perf_counter() - started, why)
    seconds = time.perf_counter() - started
    try:
        reply = _Reply(**json.loads(done.stdout))
    except (ValueError, TypeError):
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        why = f"Spacer's process ended with exit status {done.returncode} and no answer: {last}"
        return _Answer(UNKNOWN, _Reply("unknown"), seconds, why)
    if reply.status == "unsat":
        return _Answer(PROVED, reply, seconds)
    if reply.status == "sat":
        return _Answer(VIOLATED, reply, seconds)
    return _Answer(UNKNOWN, reply, seconds, f"Spacer stopped: {limits.why_unknown(reply.reason, timeout_ms)}")


_PROCESS = Path(__file__).with_name("spacer_process.py")


def check(
    machine: Machine,
    prop: Property,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    params: dict[str, Any] | None = None,
    _clauses: _Clauses | None = None,
    print_invariant: bool = True,
    lemmas: Sequence[Invariant] = (),
) -> Result:
    """Prove or refute one safety property with Spacer; ``params`` are extra
    Fixedpoint parameters (``spacer.*``, ``xform.*``).  Without
    ``print_invariant`` a proof's invariant is re-checked but not written out
    (tidying it for a reader can take longer than the proof).  ``lemmas`` are
    invariants already proved for games of any length (``_assumed``); a proof
    that assumes them says so."""
    started = time.perf_counter()
    m = machine
    bads = _violations(m, prop)  # raises TypeError for liveness before any work
    if any(lemma.name == prop.name for lemma in lemmas):
        raise ValueError(f"{prop.name} cannot be a lemma of its own proof: a lemma is assumed, not proved")
    if _clauses is not None and tuple(lemmas) != _clauses.lemmas:
        # Clauses built once carry their lemmas in every edge's body: other
        # lemmas asked of them would be silently dropped (or kept).
        raise ValueError(
            f"{prop.name}: the shared clauses assume {[x.name for x in _clauses.lemmas]}, "
            f"not the lemmas asked {[x.name for x in lemmas]}: build them with those lemmas"
        )
    clauses = _clauses or _Clauses(m, lemmas)
    params = params or {}

    def result(verdict: str, depth: int = 0, **fields: Any) -> Result:
        return Result(
            game=m.game,
            property=prop.name,
            rules=prop.rules,
            kind=prop.kind,
            verdict=verdict,
            depth=depth,
            method="spacer",
            seconds=time.perf_counter() - started,
            bounds=m.bounds,
            **fields,
        )

    answer = _ask(clauses, bads, timeout_ms, params)
    if answer.verdict == UNKNOWN:
        return result(UNKNOWN, note=answer.why)
    if answer.verdict == VIOLATED:
        return _refuted(m, prop, clauses, answer, result)

    # Err is underivable.  A property whose premise is never met is vacuous,
    # not proved; three ways to settle the premise, cheapest first.
    premise = _premise(m, prop)
    if premise is None:
        return _proof(m, prop, clauses, answer, result, print_invariant)
    # 1. The invariant just found may already exclude it.
    if check_inductive(m, prop, clauses.invariant(answer.reply, invariant_state(m)), premise_unreachable=True, lemmas=clauses.lemmas):
        return _proof(m, prop, clauses, answer, result, print_invariant, vacuous=True)
    # 2. Random runs on the concrete machine may meet it: a concrete witness.
    witness = _meet_premise(m, prop)
    if witness is not None:
        return _proof(m, prop, clauses, answer, result, print_invariant, extra=f"; premise met by a random run of {witness} steps")
    # 3. Spacer itself, on the query "the premise is met".
    met = _ask(clauses, premise, timeout_ms, params)
    if met.verdict == PROVED:
        return _proof(m, prop, clauses, met, result, print_invariant, vacuous=True)
    if met.verdict == UNKNOWN:
        return _proof(m, prop, clauses, answer, result, print_invariant, extra=f"; whether its premise is reachable is not known ({met.why})")
    return _proof(m, prop, clauses, answer, result, print_invariant, extra="; Spacer shows its premise reachable")


#: Random runs tried to meet a premise before asking Spacer, and their length.
PREMISE_WALKS = 300
PREMISE_WALK_STEPS = 120


def _meet_premise(machine: Machine, prop: Property) -> int | None:
    """The length of a random run (fixed seed) that meets the premise, or None."""
    import random

    m = machine
    rng = random.Random(0)
    starts = list(itertools.islice(m.initial_states(), 64))
    for _ in range(PREMISE_WALKS):
        state = rng.choice(starts)
        if isinstance(prop, Invariant) and prop.premise(m, state, CONCRETE):
            return 0
        for n in range(1, PREMISE_WALK_STEPS + 1):
            options = list(m.successors(state))
            if not options:
                break
            edge, post = rng.choice(options)
            if isinstance(prop, StepProperty) and prop.applies(edge):
                return n
            if isinstance(prop, Invariant) and prop.premise(m, post, CONCRETE):
                return n
            state = post
    return None


def _proof(
    m: Machine,
    prop: Property,
    clauses: _Clauses,
    answer: _Answer,
    result: Callable[..., Result],
    print_invariant: bool,
    vacuous: bool = False,
    extra: str = "",
) -> Result:
    """A Spacer proof, reported only once its invariant passes the re-check."""
    over = invariant_state(m)
    cut: list[str] = []
    invariant = clauses.invariant(answer.reply, over, cut)
    levels = answer.reply.levels
    checked = check_inductive(m, prop, invariant, over, premise_unreachable=vacuous, lemmas=clauses.lemmas)
    if not checked:
        return result(UNKNOWN, levels, note=f"Spacer answered unsat but its invariant failed the re-check: {checked.failed}")
    text, atoms = readable(m, invariant, over, cut) if print_invariant else ("", _count_atoms(invariant))
    what = "premise proved unreachable" if vacuous else "proved"
    assuming = f" assuming the proved {', '.join(p.name for p in clauses.lemmas)}" if clauses.lemmas else ""
    note = (
        f"{what} by Spacer in {answer.reply.rlimit:,} resource units ({levels} levels); inductive invariant of {atoms} atoms "
        f"re-checked by plain Z3 queries: initial, preserved by all {len(m.edges)} edges{assuming}, "
        f"{'excludes the premise' if vacuous else 'implies the property'}{extra}"
    )
    if cut:
        # The proof stands; only its printed form may differ on another run.
        note += f"; printed as Spacer gave it where the wall-clock guard stopped {', '.join(dict.fromkeys(cut))}"
    found = f"found by Spacer in {answer.reply.rlimit:,} resource units ({levels} levels)"
    return result(
        VACUOUS if vacuous else PROVED, levels, note=note, invariant=text, unbounded=True,
        certificate=invariant_text(m, invariant, over, found),
    )


def _refuted(m: Machine, prop: Property, clauses: _Clauses, answer: _Answer, result: Callable[..., Result]) -> Result:
    """A Spacer refutation, reported only with a run that violates the property on the concrete backend."""
    edges = _trace_edges(answer.reply.trace)
    transcript = _replay(m, prop, edges) if edges is not None else None
    if transcript is not None:
        note = f"Spacer derived a violation in {answer.reply.rlimit:,} resource units; the run is its derivation's edges, replayed on the concrete backend"
        return result(VIOLATED, len(transcript), counterexample=transcript, note=note)
    depth = len(edges) if edges else answer.reply.levels + 1
    transcript = _search(m, prop, depth)
    if transcript is not None:
        note = (
            f"Spacer derived a violation in {answer.reply.rlimit:,} resource units; its derivation did not replay, so the run "
            f"shown was found by breadth-first search of the concrete machine up to {depth} steps"
        )
        return result(VIOLATED, len(transcript), counterexample=transcript, note=note)
    return result(UNKNOWN, note=f"Spacer derived a violation but no run of up to {depth} steps reproduces it on the concrete backend")


def find_invariant(machine: Machine, prop: Property, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Any:
    """The inductive invariant Spacer finds for the property, as a formula over
    ``invariant_state(machine)``, not yet re-checked; None if Spacer finds a
    violation or gives up."""
    clauses = _Clauses(machine)
    answer = _ask(clauses, _violations(machine, prop), timeout_ms, {})
    return clauses.invariant(answer.reply, invariant_state(machine)) if answer.verdict == PROVED else None


def check_all(
    machine: Machine,
    properties: Sequence[Property],
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    params: dict[str, Any] | None = None,
) -> list[Result]:
    """Each property with its own Spacer query, the clauses built once; results in the order given."""
    for p in properties:
        _violations(machine, p)  # refuse liveness before spending time on the rest
    clauses = _Clauses(machine)
    return [check(machine, p, timeout_ms, params, clauses) for p in properties]
