"""Bounded model checking with Z3, incremental by depth.

One solver holds the initial constraint and the transition relation unrolled
one step at a time.  At each depth one query (inside push/pop) asks whether
any open property is violated there, so the first depth at which a violation
is satisfiable is the length of a shortest counterexample.  Every counterexample is replayed on the concrete
backend before it is reported, so the two backends are checked against each
other on every violation found.

A liveness property (``Eventually``) is violated at depth ``k`` when, from a
premise state on, no state up to ``k`` meets the goal and state ``k`` either
repeats one of them (a lasso: the run can go round forever) or has no enabled
edge (a dead end).  Finding none up to ``k`` is weaker than a proof: a run may
still miss the goal later.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import z3

from model import limits
from model.backend import SYMBOLIC as SYM
from model.machine import Machine, ModelError
from checkers.results import HOLDS_TO_DEPTH, UNKNOWN, VACUOUS, VIOLATED, Result, Transcript
from properties import Deadlock, Eventually, Invariant, Property, StepProperty

#: How far past its domain a variable may be seen.  An update here moves a value
#: by at most one from a state inside the domain, so any excursion is caught.
DOMAIN_SLACK = 8


@dataclass
class _Open:
    """A property not yet decided, with whether its premise was ever reachable."""

    prop: Property
    premise_met: bool
    matching: list[int] = field(default_factory=list)


class BMC:
    def __init__(self, machine: Machine, timeout_ms: int = limits.GUARD_MS) -> None:
        self.machine = machine
        # QF_FD bit-blasts bounded integers into Z3's incremental SAT solver,
        # which on these finite machines is far faster than arithmetic solving.
        self.solver = limits.limit(z3.SolverFor("QF_FD"), timeout_ms)
        self.timeout_ms = timeout_ms
        self.states = [machine.symbolic_state("0")]
        self.selectors: list[Any] = []
        self.solver.add(machine.initial_constraint(self.states[0]))

    def _unroll(self) -> None:
        k = len(self.states)
        post = self.machine.symbolic_state(str(k))
        selector = z3.Int(f"edge@{k - 1}")
        self.solver.add(self.machine.transition(self.states[-1], post, selector))
        # The finite-domain solver needs every integer bounded.  The slack lets
        # an update that leaves its domain be seen (and reported) rather than
        # silently excluded, since the previous state was inside the domain.
        self.solver.add(self.machine.domain_constraint(post, slack=DOMAIN_SLACK))
        self.states.append(post)
        self.selectors.append(selector)

    def _ask(self, *constraints: Any) -> tuple[z3.CheckSatResult, z3.ModelRef | None]:
        self.solver.push()
        try:
            self.solver.add(*constraints)
            answer = self.solver.check()
            return answer, (self.solver.model() if answer == z3.sat else None)
        finally:
            self.solver.pop()

    def _transcript(self, model: z3.ModelRef, length: int, violation: str, loop_start: int | None = None) -> Transcript:
        m = self.machine
        concrete = [self._read_state(model, self.states[k]) for k in range(length + 1)]
        path = []
        for k in range(length):
            edge = m.edges[model.eval(self.selectors[k], model_completion=True).as_long()]
            replayed = m.apply(concrete[k], edge)
            if replayed != concrete[k + 1]:
                raise ModelError(
                    f"the Z3 and concrete backends disagree on edge {edge.name!r}: "
                    f"from {m.describe(concrete[k])} Z3 reaches {m.describe(concrete[k + 1])}, "
                    f"the concrete backend {m.describe(replayed)}"
                )
            path.append((edge, concrete[k + 1]))
        return Transcript.from_path(m, concrete[0], path, violation, loop_start)

    def _read_state(self, model: z3.ModelRef, s: Any) -> Any:
        def read(term: Any) -> Any:
            if isinstance(term, tuple):
                return tuple(read(t) for t in term)
            value = model.eval(term, model_completion=True)
            return z3.is_true(value) if z3.is_bool(value) else value.as_long()
        return self.machine.State(*(read(t) for t in s))

    def check(
        self,
        properties: Sequence[Property],
        max_depth: int,
        on_depth: Callable[[int], None] | None = None,
    ) -> list[Result]:
        """Check all properties together, one depth at a time.

        At each depth one query asks whether any open property is violated
        there; only when one is does the model say which.  The seconds of a
        result are the time from the start of the run to its verdict, since
        the work is shared.
        """
        m = self.machine
        started = time.perf_counter()
        open_: dict[str, _Open] = {}
        results: dict[str, Result] = {}
        for p in properties:
            if not isinstance(p, (Invariant, StepProperty, Deadlock, Eventually)):
                raise TypeError(f"bounded model checking cannot check {type(p).__name__}")
            premise_met = isinstance(p, Deadlock) or (isinstance(p, Invariant) and p.premise is None)
            entry = _Open(p, premise_met)
            if isinstance(p, StepProperty):
                entry.matching = [i for i, e in enumerate(m.edges) if p.applies(e)]
            open_[p.name] = entry

        def decide(p: Property, **fields: Any) -> None:
            results[p.name] = Result(
                game=m.game,
                property=p.name,
                rules=p.rules,
                kind=p.kind,
                method="bmc",
                bounds=m.bounds,
                seconds=time.perf_counter() - started,
                **fields,
            )
            del open_[p.name]

        reached, exhausted, gave_up = max_depth, False, ""
        for k in range(max_depth + 1):
            if k > 0:
                self._unroll()
                # No run is k steps long: every shorter run was already covered,
                # so deeper unrolling would check nothing new.
                answer = self.solver.check()
                if answer == z3.unsat:
                    reached, exhausted = k - 1, True
                    break
                if answer == z3.unknown:
                    gave_up = f"solver gave up unrolling depth {k} ({limits.why_unknown(self.solver.reason_unknown(), self.timeout_ms)})"
                    reached = k - 1
                    break
            gave_up = self._check_depth(k, open_, decide)
            if gave_up:
                reached = k - 1
                break
            if on_depth is not None:
                on_depth(k)
        scope = f"no run is longer than {reached} steps" if exhausted else f"runs up to {reached} steps"
        for entry in list(open_.values()):
            if gave_up:
                # An interrupted query can leave the incremental solver unsound,
                # so nothing after it is trusted: the run stops here.
                decide(entry.prop, verdict=UNKNOWN, depth=max(reached, 0), note=f"{gave_up}; holds up to {reached} steps")
            elif entry.premise_met and isinstance(entry.prop, Eventually):
                # With no longer run every run was followed to its end; otherwise
                # a run may still owe the goal past the last depth.
                unmet = (
                    "none from a premise state stops short of the goal"
                    if exhausted
                    else "none from a premise state loops or stops short of the goal within them, "
                    "but one still open after them is not ruled out (a bounded check, not a proof)"
                )
                decide(entry.prop, verdict=HOLDS_TO_DEPTH, depth=reached, note=f"{scope}; {unmet}")
            elif entry.premise_met:
                decide(entry.prop, verdict=HOLDS_TO_DEPTH, depth=reached, note=scope)
            else:
                decide(entry.prop, verdict=VACUOUS, depth=reached, note=f"premise never reached ({scope})")
        return [results[p.name] for p in properties]

    def _check_depth(self, k: int, open_: dict[str, _Open], decide: Callable[..., None]) -> str:
        """Decide what depth ``k`` decides; say why if the solver gave up."""
        m = self.machine
        answer, model = self._ask(z3.Not(m.domain_constraint(self.states[k])))
        if answer == z3.sat:
            t = self._transcript(model, k, "a variable left its declared domain")
            raise ModelError(f"the model leaves a variable's domain at depth {k}:\n{t.text()}")
        if answer == z3.unknown:
            return f"solver gave up at depth {k} ({limits.why_unknown(self.solver.reason_unknown(), self.timeout_ms)})"
        violations, premises = {}, {}
        for name, entry in open_.items():
            violation, premise = self._violation_and_premise(entry.prop, entry, k)
            if violation is not None:
                violations[name] = z3.And(*violation)
            if premise is not None and not entry.premise_met:
                premises[name] = z3.And(*premise)
        for name, model in self._which(violations, k, "violates"):
            if model is None:
                return f"solver gave up at depth {k} ({limits.why_unknown(self.solver.reason_unknown(), self.timeout_ms)})"
            p = open_[name].prop
            loop_start = self._loop_start(p, model, k) if isinstance(p, Eventually) else None
            transcript = self._transcript(model, k, f"{p.name}: {p.statement}", loop_start)
            decide(p, verdict=VIOLATED, depth=k, counterexample=transcript)
        for name, model in self._which({n: c for n, c in premises.items() if n in open_}, k, "premise"):
            if model is None:
                return f"solver gave up at depth {k} ({limits.why_unknown(self.solver.reason_unknown(), self.timeout_ms)})"
            open_[name].premise_met = True
        return ""

    def _which(self, conditions: dict[str, Any], k: int, label: str) -> Iterator[tuple[str, z3.ModelRef | None]]:
        """Which of the named conditions are satisfiable at depth ``k``, asked
        as few times as possible: one query for all, then again without those
        a model already satisfied.  If the solver gives up, one last pair with
        no model says so and the search ends."""
        pending = dict(conditions)
        while pending:
            flags = {name: z3.Bool(f"{label}:{name}@{k}") for name in pending}
            answer, model = self._ask(
                z3.Or(*flags.values()), *(z3.Implies(flags[n], c) for n, c in pending.items())
            )
            if answer == z3.unsat:
                return
            if answer == z3.unknown:
                yield next(iter(pending)), None
                return
            hits = [n for n in pending if z3.is_true(model.eval(flags[n], model_completion=True))]
            for name in hits:
                del pending[name]
                yield name, model

    def _violation_and_premise(self, p: Property, entry: _Open, k: int) -> tuple[list[Any] | None, list[Any] | None]:
        """The constraints of a violation at depth ``k`` and of the property's premise there."""
        m = self.machine
        s = self.states[k]
        if isinstance(p, Invariant):
            premise = [p.premise(m, s, SYM)] if p.premise is not None else []
            return premise + [z3.Not(p.holds(m, s, SYM))], premise or None
        if isinstance(p, StepProperty):
            if k == 0:
                return None, None
            taken = z3.Or(*(self.selectors[k - 1] == i for i in entry.matching)) if entry.matching else z3.BoolVal(False)
            pre = self.states[k - 1]
            return [taken, z3.Not(p.holds(m, pre, s, SYM))], [taken]
        if isinstance(p, Eventually):
            loops, stuck = self._unmet(p, k)
            return [z3.Or(*loops, stuck)], [p.premise(m, s, SYM)]
        return [z3.Not(m.terminal_constraint(s)), z3.Not(m.enabled_constraint(s))], None

    def _unmet(self, p: Eventually, k: int) -> tuple[list[Any], Any]:
        """The ways the first ``k`` steps show a run that never meets the goal.

        ``loops[j]``: the goal is owed since a premise state at or before step
        ``j`` and state ``k`` repeats state ``j``, so the run can go round
        forever.  ``stuck``: it is owed at step ``k`` and no edge is enabled.
        """
        m = self.machine
        states = self.states[: k + 1]
        missed = [z3.Not(p.goal(m, s, SYM)) for s in states]
        owed: list[Any] = []  # owed[t]: some premise state at or before t, and no goal since
        for t, s in enumerate(states):
            begun = p.premise(m, s, SYM)
            owed.append(z3.And(missed[t], z3.Or(begun, owed[-1]) if owed else begun))
        loops = [z3.And(owed[j], *missed[j + 1 :], _same(states[j], states[k])) for j in range(k)]
        return loops, z3.And(owed[k], z3.Not(m.enabled_constraint(states[k])))

    def _loop_start(self, p: Eventually, model: z3.ModelRef, k: int) -> int | None:
        """The step after which a violation at depth ``k`` repeats its last state (None: it is stuck)."""
        loops, _ = self._unmet(p, k)
        return next((j for j, loop in enumerate(loops) if z3.is_true(model.eval(loop, model_completion=True))), None)


def _same(a: Any, b: Any) -> Any:
    """Two symbolic states agree on every field, every slot of a tuple included."""
    def terms(s: Any) -> Iterator[Any]:
        for value in s:
            yield from value if isinstance(value, tuple) else (value,)
    return z3.And(*(x == y for x, y in zip(terms(a), terms(b))))


def check_all(
    machine: Machine,
    properties: Sequence[Property],
    depth: int,
    timeout_ms: int = limits.GUARD_MS,
    on_depth: Callable[[int], None] | None = None,
) -> list[Result]:
    return BMC(machine, timeout_ms).check(properties, depth, on_depth)
