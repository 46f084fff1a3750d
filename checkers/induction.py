"""Unbounded proofs of safety properties by k-induction over the Z3 encoding.

An invariant, a step property or freedom from deadlock is proved for games of
any length, not only up to a depth, by k-induction with simple-path
strengthening (Sheeran, Singh and Stålmarck, FMCAD 2000):

- the base case is bounded model checking (``checkers/bmc.py``) to ``max_k``
  steps: no run of up to ``max_k`` steps from an initial state violates the
  property.  A violation there is reported with BMC's shortest counterexample,
  replayed on the concrete backend;
- the inductive step at ``k`` asks Z3 for a path of ``k`` steps
  ``s0 -> ... -> sk`` through any states (their variables unbounded), pairwise
  distinct, on which the property holds at ``s0 .. s(k-1)`` and fails at
  ``sk``.  A step property is an invariant of the steps ``(pre, edge, post)``:
  it holds on steps ``1 .. k-1`` and fails on step ``k``, and only
  ``s0 .. s(k-1)`` must be distinct, since a violating step may return to a
  state seen before it.

Why that proves it: the states of a shortest violating run are pairwise
distinct (a repeated state could be cut out), and the property holds before
its last state (or step).  A run longer than ``k`` steps ends in a path the
inductive step would have found; a shorter one is the base case's.  So an
inductive step with no solution, with its base case complete, leaves no
violation of any length.

Properties already proved may be passed as lemmas: they hold on every
reachable state and step, so the inductive step assumes them on its whole
path, and a property inductive only relative to them is proved too.
``check_all`` proves in rounds, each proof a lemma for the others, until a
round proves nothing new.

Honesty: the verdict is ``proved`` only from an inductive step Z3 found
unsatisfiable with a complete base case; the note gives the ``k``, whether the
simple-path constraint was needed and the lemmas the proof rests on (those in
the solver's unsat core).  A property with a premise (an invariant's
``premise``, the edges a step property applies to) whose premise the base case
never met is ``vacuous`` if its premise is proved unreachable the same way;
otherwise a proof says the premise was not seen.  Without a proof the verdict
is the base case's own (``holds-to-depth`` at ``max_k``, or ``vacuous`` if the
premise was not met within it), with the reason in the note: "not k-inductive
up to k=N", or the solver giving up (each inductive query has ``timeout_ms``).
An incomplete base case gives ``unknown``.

The inductive step ranges over every valuation of the variables, not only
those inside their declared domains: a proof then rests on nothing but the
edges, as Spacer's does.  (Bounding them would let Z3 bit-blast, but a proof
would assume that reachable states keep to the domains, which the base case
checks only to ``max_k``; measured on the any-length WoW model, the unbounded
step proves all but two of the same properties in the same time.)

Unbounded variables let the inductive step start from states no game
reaches (a chain of -1 links), so every query also assumes the *inductive
domain bounds*: those of the declared bounds (``lo <= x``, ``x <= hi`` for
each variable and slot) that the initial states meet and every edge keeps,
found by Houdini's fixed point (Flanagan and Leino, FME 2001): drop each bound
some edge can break from a state meeting all the others, until none is
dropped.  What is left is inductive on its own, so it holds in every
reachable state and is a lemma like any proved property.  On the WoW
any-length model the upper bounds of hand counts and of damage fall out
(a draw or a blow from a state at the bound would pass it); the rest stay.

No inductive invariant is written into the result: a k-inductive property
with ``k > 1`` is proved without one.
"""

from __future__ import annotations

import itertools
import time
import weakref
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Sequence

import z3

from model import limits
from checkers import bmc
from model.backend import SYMBOLIC as SYM
from model.machine import Machine
from checkers.results import HOLDS_TO_DEPTH, PROVED, UNKNOWN, VACUOUS, VIOLATED, Result
from properties import Deadlock, Invariant, Property, StepProperty

DEFAULT_MAX_K = 8
DEFAULT_TIMEOUT_MS = limits.GUARD_MS


@dataclass(frozen=True)
class _Claim:
    """What the inductive step asks about: a condition on each state of the
    path, or on each step of it (``on_steps``)."""

    name: str
    on_steps: bool
    holds: Callable[["_Path", int], Any]  # at state i, or on step i (from s(i-1) to si)

    @property
    def first(self) -> int:
        """The least k with something to ask: a step property needs a step."""
        return 1 if self.on_steps else 0


def _claim(machine: Machine, p: Property) -> _Claim:
    """A safety property as a condition on a path's states or steps."""
    m = machine
    if isinstance(p, Invariant):
        if p.premise is None:
            return _Claim(p.name, False, lambda path, i: p.holds(m, path.states[i], SYM))
        return _Claim(
            p.name,
            False,
            lambda path, i: z3.Implies(p.premise(m, path.states[i], SYM), p.holds(m, path.states[i], SYM)),
        )
    if isinstance(p, StepProperty):
        matching = [i for i, e in enumerate(m.edges) if p.applies(e)]
        return _Claim(
            p.name,
            True,
            lambda path, i: z3.Implies(
                path.taken(i, matching), p.holds(m, path.states[i - 1], path.states[i], SYM)
            ),
        )
    if isinstance(p, Deadlock):
        return _Claim(
            p.name,
            False,
            lambda path, i: z3.Or(m.terminal_constraint(path.states[i]), m.enabled_constraint(path.states[i])),
        )
    raise TypeError(
        f"k-induction proves safety properties (invariants, step properties, deadlock); "
        f"{p.name} is a {type(p).__name__}"
    )


def _premise_unreachable(machine: Machine, p: Property) -> _Claim | None:
    """The claim that the property's premise is never met (None: it has none)."""
    m = machine
    if isinstance(p, Invariant) and p.premise is not None:
        return _Claim(f"{p.name} (premise)", False, lambda path, i: z3.Not(p.premise(m, path.states[i], SYM)))
    if isinstance(p, StepProperty):
        matching = [i for i, e in enumerate(m.edges) if p.applies(e)]
        return _Claim(f"{p.name} (premise)", True, lambda path, i: z3.Not(path.taken(i, matching)))
    return None


class _Path:
    """The inductive step's path ``s0 -> s1 -> ...``, one solver for every claim.

    The path only grows, and what a query needs beyond it (a claim holding or
    failing somewhere, two states being distinct, a lemma) is asserted behind a
    literal that the query assumes, so later queries reuse the unrolling and
    the unsat core names the lemmas and constraints a proof used.
    """

    def __init__(self, machine: Machine, lemmas: Sequence[_Claim]) -> None:
        self.machine = machine
        # No domain constraints (module docstring): integers are unbounded, so not QF_FD.
        self.solver = z3.Solver()
        self.states = [machine.symbolic_state("k0")]
        self.selectors: list[Any] = []
        # stepped[j]: the path takes its j-th step (None for s0).  Each query
        # assumes the steps of its own length only: a step asserted outright
        # would give every earlier state a successor, hiding a violation at a
        # terminal state from the shorter queries asked after a longer one.
        self.stepped: list[Any] = [None]
        # distinct[j]: state j differs from every earlier state (None for s0).
        self.distinct: list[Any] = [None]
        self.lemmas: dict[str, tuple[_Claim, Any]] = {}
        self._literals: dict[tuple[str, int, bool], Any] = {}
        for lemma in lemmas:
            self.assume(lemma)

    def taken(self, i: int, edges: Sequence[int]) -> Any:
        """Step ``i`` goes along one of the numbered edges."""
        return z3.Or(*(self.selectors[i - 1] == e for e in edges)) if edges else z3.BoolVal(False)

    def _extend(self, k: int) -> None:
        m = self.machine
        while len(self.states) <= k:
            j = len(self.states)
            post = m.symbolic_state(f"k{j}")
            selector = z3.Int(f"edge@k{j - 1}")
            stepped = z3.Bool(f"stepped@k{j}")
            self.solver.add(selector >= 0, selector < len(m.edges))
            self.solver.add(z3.Implies(stepped, m.transition(self.states[-1], post, selector)))
            literal = z3.Bool(f"distinct@k{j}")
            self.solver.add(z3.Implies(literal, z3.And(*(_differ(post, s) for s in self.states))))
            self.states.append(post)
            self.selectors.append(selector)
            self.stepped.append(stepped)
            self.distinct.append(literal)
            for claim, flag in self.lemmas.values():
                self._hold(claim, flag, j)

    def _hold(self, claim: _Claim, flag: Any, i: int) -> None:
        if i >= claim.first:
            guard = flag if i == 0 else z3.And(flag, self.stepped[i])
            self.solver.add(z3.Implies(guard, claim.holds(self, i)))

    def assume(self, lemma: _Claim) -> None:
        """From now on every query assumes the lemma on every state or step of its path."""
        flag = z3.Bool(f"lemma:{lemma.name}")
        self.lemmas[lemma.name] = (lemma, flag)
        for i in range(len(self.states)):
            self._hold(lemma, flag, i)

    def _literal(self, claim: _Claim, i: int, holds: bool) -> Any:
        key = (claim.name, i, holds)
        if key not in self._literals:
            literal = z3.Bool(f"{claim.name}:{'holds' if holds else 'fails'}@k{i}")
            condition = claim.holds(self, i)
            self.solver.add(z3.Implies(literal, condition if holds else z3.Not(condition)))
            self._literals[key] = literal
        return self._literals[key]

    def step(self, claim: _Claim, k: int, simple: bool, timeout_ms: int) -> tuple[z3.CheckSatResult, "_Support"]:
        """Ask the inductive step at ``k``; with ``unsat``, what the proof used."""
        self._extend(k)
        assumptions = [self._literal(claim, i, True) for i in range(claim.first, k)]
        assumptions.append(self._literal(claim, k, False))
        # A violating step may return to an earlier state: only its pre-states must differ.
        last_distinct = k - 1 if claim.on_steps else k
        distinct = self.distinct[1 : last_distinct + 1] if simple else []
        flags = {flag: name for name, (_, flag) in self.lemmas.items()}
        limits.limit(self.solver, timeout_ms)
        answer = self.solver.check(*assumptions, *self.stepped[1 : k + 1], *distinct, *flags)
        if answer != z3.unsat:
            return answer, _Support((), False)
        core = {str(c) for c in self.solver.unsat_core()}
        return answer, _Support(
            tuple(name for flag, name in flags.items() if str(flag) in core),
            any(str(d) in core for d in distinct),
        )

    def reason_unknown(self) -> str:
        return self.solver.reason_unknown().splitlines()[0]


@dataclass(frozen=True)
class _Support:
    """What an inductive step's proof rests on, from the unsat core."""

    lemmas: tuple[str, ...]
    simple_path: bool

    def text(self) -> str:
        parts = ["with the simple-path constraint" if self.simple_path else "without needing the simple-path constraint"]
        parts.append(f"assuming lemmas {', '.join(self.lemmas)}" if self.lemmas else "without lemmas")
        return ", ".join(parts)


@dataclass(frozen=True)
class _Proof:
    k: int
    support: _Support


def _differ(a: Any, b: Any) -> Any:
    """Two symbolic states differ in some field (some slot of a tuple included)."""
    def terms(s: Any) -> Iterator[Any]:
        for value in s:
            yield from value if isinstance(value, tuple) else (value,)
    return z3.Or(*(x != y for x, y in zip(terms(a), terms(b))))


class _Prover:
    """The inductive steps of one run, on one shared path.

    A query the solver gives up on may leave the incremental solver unsound
    (as bmc.py warns), so the path is then rebuilt for the queries after it.
    """

    def __init__(self, machine: Machine, lemmas: Sequence[_Claim], max_k: int, timeout_ms: int, simple: bool) -> None:
        self.machine = machine
        self.max_k = max_k
        self.timeout_ms = timeout_ms
        self.simple = simple
        self.path = _Path(machine, lemmas)

    def assume(self, lemma: _Claim) -> None:
        self.path.assume(lemma)

    def prove(self, claim: _Claim) -> tuple[_Proof | None, str]:
        """The least k at which the claim's inductive step has no solution, or why none was found."""
        for k in range(claim.first, self.max_k + 1):
            answer, support = self.path.step(claim, k, self.simple, self.timeout_ms)
            if answer == z3.unsat:
                return _Proof(k, support), ""
            if answer == z3.unknown:
                why = f"the solver gave up on the inductive step at k={k}: {limits.why_unknown(self.path.reason_unknown(), self.timeout_ms)}"
                self.path = _Path(self.machine, [c for c, _ in self.path.lemmas.values()])
                return None, why
        return None, f"not k-inductive up to k={self.max_k}"


def check(
    machine: Machine,
    prop: Property,
    max_k: int = DEFAULT_MAX_K,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    lemmas: Sequence[Property] = (),
    simple_path: bool = True,
) -> Result:
    """Prove one safety property by k-induction, assuming the given lemmas.

    The lemmas must be properties already proved on this machine (invariants,
    step properties or deadlock): the proof is only as sound as they are.
    ``simple_path=False`` leaves out the all-states-distinct constraint (to
    see what it adds).
    """
    return _prove_all(machine, [prop], lemmas, max_k, timeout_ms, simple_path)[0]


def check_all(
    machine: Machine,
    properties: Sequence[Property],
    max_k: int = DEFAULT_MAX_K,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    simple_path: bool = True,
) -> list[Result]:
    """Prove the properties in rounds, each one proved a lemma for the rest,
    until a round proves nothing new; results in the order given."""
    return _prove_all(machine, properties, (), max_k, timeout_ms, simple_path)


def inductive_domain_bounds(machine: Machine, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> tuple[list[Any], list[Any]]:
    """The declared domain bounds that hold initially and that every edge
    keeps from any state meeting all of them (Houdini), over the symbolic
    state ``machine.symbolic_state("bound")``; and the bounds dropped."""
    m = machine
    pre, post = m.symbolic_state("bound"), m.symbolic_state("bound'")
    selector = z3.Int("edge@bound")

    def bounds(s: Any) -> list[Any]:
        out = []
        for v in m.variables:
            if v.domain.is_bool:
                continue
            for term in getattr(s, v.name) if v.length is not None else (getattr(s, v.name),):
                out += [term >= v.domain.lo, term <= v.domain.hi]
        return [s.location >= 0, s.location < len(m.location_names), *out]

    kept = list(zip(bounds(pre), bounds(post)))
    dropped: list[Any] = []
    solver = limits.limit(z3.Solver(), timeout_ms)
    solver.add(m.transition(pre, post, selector))
    while True:
        answer = solver.check(*(a for a, _ in kept), z3.Or(*(z3.Not(b) for _, b in kept)))
        if answer == z3.unsat:
            return [a for a, _ in kept], dropped
        if answer == z3.unknown:  # keep nothing rather than something unproved
            return [], [a for a, _ in kept] + dropped
        model = solver.model()
        broken = [(a, b) for a, b in kept if z3.is_false(model.eval(b, model_completion=True))]
        dropped += [a for a, _ in broken]
        kept = [pair for pair in kept if pair not in broken]


#: The inductive domain bounds kept per machine, by solver limits: lint asks
#: induction of one any-length model more than once (its dead edges, then its
#: dead rulings), and the search for them is the same each time.
_DOMAIN_BOUNDS: "weakref.WeakKeyDictionary[Machine, dict[tuple[int, int], list[Any]]]" = weakref.WeakKeyDictionary()


def _domain_lemma(machine: Machine, timeout_ms: int) -> _Claim:
    """The inductive domain bounds as a lemma on every state of a path."""
    kept_for = _DOMAIN_BOUNDS.setdefault(machine, {})
    limits_now = (limits.rlimit(), timeout_ms)
    if limits_now not in kept_for:
        kept_for[limits_now], _ = inductive_domain_bounds(machine, timeout_ms)
    kept = kept_for[limits_now]
    over = _flat(machine.symbolic_state("bound"))
    bounds = z3.And(*kept)
    return _Claim("domain bounds", False, lambda path, i: z3.substitute(bounds, *zip(over, _flat(path.states[i]))))


def _flat(s: Any) -> list[Any]:
    return list(itertools.chain.from_iterable(x if isinstance(x, tuple) else (x,) for x in s))


def _prove_all(
    machine: Machine,
    properties: Sequence[Property],
    lemmas: Sequence[Property],
    max_k: int,
    timeout_ms: int,
    simple: bool,
) -> list[Result]:
    started = time.perf_counter()
    claims = {p.name: _claim(machine, p) for p in properties}
    prover = _Prover(machine, [_domain_lemma(machine, timeout_ms), *(_claim(machine, p) for p in lemmas)], max_k, timeout_ms, simple)
    results: dict[str, Result] = {}

    def decide(base: Result, **fields: Any) -> None:
        results[base.property] = replace(base, method="k-induction", seconds=time.perf_counter() - started, **fields)

    open_: dict[str, Result] = {}
    for base in bmc.check_all(machine, properties, depth=max_k, timeout_ms=timeout_ms):
        if base.verdict == VIOLATED:
            decide(base, note="base case: a shortest violating run, by bounded model checking")
        elif base.verdict == UNKNOWN:
            decide(base, note=f"base case incomplete: {base.note}")
        else:
            open_[base.property] = base

    proofs: dict[str, _Proof] = {}
    why_not: dict[str, str] = {}
    progress = True
    while progress:
        progress = False
        for name in open_:
            if name in proofs:
                continue
            proof, why_not[name] = prover.prove(claims[name])
            if proof is not None:
                proofs[name] = proof
                prover.assume(claims[name])
                progress = True

    by_name = {p.name: p for p in properties}
    for name, base in open_.items():
        proof = proofs.get(name)
        seen = base.verdict == HOLDS_TO_DEPTH  # the base case met the premise (or there is none)
        unreachable = _premise_unreachable(machine, by_name[name])
        if not seen and unreachable is not None:
            never, _ = prover.prove(unreachable)
            if never is not None:
                decide(
                    base,
                    verdict=VACUOUS,
                    unbounded=True,
                    depth=never.k,
                    note=f"premise proved unreachable: k-inductive at k={never.k}, {never.support.text()}",
                )
                continue
        if proof is not None:
            note = f"k-inductive at k={proof.k}, {proof.support.text()}"
            if not seen:
                note += f"; its premise was not met in runs up to {base.depth} steps and is not proved unreachable"
            decide(base, verdict=PROVED, depth=proof.k, note=note, unbounded=True)
        else:
            decide(base, note=f"{why_not[name]}; base case: {base.note}")
    return [results[p.name] for p in properties]
