"""Bounded model checking with Z3, incremental by depth.

One solver holds the initial constraint and the transition relation unrolled
one step at a time; each property is asked at each depth inside push/pop, so
the first depth at which a violation is satisfiable is the length of a
shortest counterexample.  Every counterexample is replayed on the concrete
backend before it is reported, so the two backends are checked against each
other on every violation found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import z3

from model.backend import SYMBOLIC as SYM
from model.machine import Machine, ModelError
from model.results import HOLDS_TO_DEPTH, UNKNOWN, VACUOUS, VIOLATED, Result, Transcript
from properties import Deadlock, Invariant, Property, StepProperty


@dataclass
class _Open:
    """A property not yet decided, with whether its premise was ever reachable."""

    prop: Property
    premise_met: bool
    seconds: float = 0.0
    unknown_at: int | None = None
    matching: Any = field(default=None)


class BMC:
    def __init__(self, machine: Machine, timeout_ms: int = 60_000) -> None:
        self.machine = machine
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.states = [machine.symbolic_state("0")]
        self.selectors: list[Any] = []
        self.solver.add(machine.initial_constraint(self.states[0]))

    def _unroll(self) -> None:
        k = len(self.states)
        post = self.machine.symbolic_state(str(k))
        selector = z3.Int(f"edge@{k - 1}")
        self.solver.add(self.machine.transition(self.states[-1], post, selector))
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

    def _transcript(self, model: z3.ModelRef, length: int, violation: str) -> Transcript:
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
        return Transcript.from_path(m, concrete[0], path, violation)

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
        m = self.machine
        open_: dict[str, _Open] = {}
        results: dict[str, Result] = {}
        for p in properties:
            if not isinstance(p, (Invariant, StepProperty, Deadlock)):
                raise TypeError(f"bounded model checking cannot check {type(p).__name__}")
            premise_met = isinstance(p, Deadlock) or (isinstance(p, Invariant) and p.premise is None)
            entry = _Open(p, premise_met)
            if isinstance(p, StepProperty):
                entry.matching = [i for i, e in enumerate(m.edges) if p.applies(e)]
            open_[p.name] = entry
        common = lambda p: dict(  # noqa: E731
            game=m.game, property=p.name, rules=p.rules, kind=p.kind, method="bmc", bounds=m.bounds
        )
        reached = max_depth
        exhausted = False
        for k in range(max_depth + 1):
            if k > 0:
                self._unroll()
                # No run is k steps long: every shorter run was already covered,
                # so deeper unrolling would check nothing new.
                if self.solver.check() == z3.unsat:
                    reached, exhausted = k - 1, True
                    break
            s = self.states[k]
            answer, model = self._ask(z3.Not(m.domain_constraint(s)))
            if answer == z3.sat:
                t = self._transcript(model, k, "a variable left its declared domain")
                raise ModelError(f"the model leaves a variable's domain at depth {k}:\n{t.text()}")
            for name, entry in list(open_.items()):
                p = entry.prop
                started = time.perf_counter()
                violation, premise = self._violation_and_premise(p, entry, k)
                if violation is None:
                    entry.seconds += time.perf_counter() - started
                    continue
                answer, model = self._ask(*violation)
                if answer == z3.sat:
                    transcript = self._transcript(model, k, f"{p.name}: {p.statement}")
                    entry.seconds += time.perf_counter() - started
                    results[name] = Result(
                        verdict=VIOLATED, depth=k, seconds=entry.seconds, counterexample=transcript, **common(p)
                    )
                    del open_[name]
                    continue
                if answer == z3.unknown:
                    entry.unknown_at = k
                    entry.seconds += time.perf_counter() - started
                    results[name] = Result(
                        verdict=UNKNOWN,
                        depth=max(k - 1, 0),
                        seconds=entry.seconds,
                        note=f"solver gave up at depth {k} ({self.solver.reason_unknown()})",
                        **common(p),
                    )
                    del open_[name]
                    continue
                if not entry.premise_met and premise is not None:
                    entry.premise_met = self._ask(*premise)[0] == z3.sat
                entry.seconds += time.perf_counter() - started
            if on_depth is not None:
                on_depth(k)
        for name, entry in open_.items():
            p = entry.prop
            scope = f"no run is longer than {reached} steps" if exhausted else f"runs up to {reached} steps"
            if not entry.premise_met:
                results[name] = Result(
                    verdict=VACUOUS, depth=reached, seconds=entry.seconds, note=f"premise never reached ({scope})", **common(p)
                )
            else:
                results[name] = Result(verdict=HOLDS_TO_DEPTH, depth=reached, seconds=entry.seconds, note=scope, **common(p))
        return [results[p.name] for p in properties]

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
        return [z3.Not(m.terminal_constraint(s)), z3.Not(m.enabled_constraint(s))], None



def check_all(
    machine: Machine,
    properties: Sequence[Property],
    depth: int,
    timeout_ms: int = 60_000,
    on_depth: Callable[[int], None] | None = None,
) -> list[Result]:
    return BMC(machine, timeout_ms).check(properties, depth, on_depth)
