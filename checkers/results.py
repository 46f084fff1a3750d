"""Verdicts and the counterexample transcripts that back them.

A verdict is never stronger than its method: exhaustive search of a bounded
instance and bounded model checking both say ``holds-to-depth``; ``proved`` is
reserved for unbounded methods; a solver timeout is ``unknown``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from model.machine import Edge, Machine, ModelError

PROVED = "proved"
HOLDS_TO_DEPTH = "holds-to-depth"
VIOLATED = "violated"
VACUOUS = "vacuous"
UNKNOWN = "unknown"
VERDICTS = (PROVED, HOLDS_TO_DEPTH, VIOLATED, VACUOUS, UNKNOWN)
PASSING = (PROVED, HOLDS_TO_DEPTH)


def actor_name(player: int | None) -> str:
    return "game" if player is None else f"P{player + 1}"


@dataclass(frozen=True)
class Step:
    index: int
    edge: str
    actor: str
    rules: tuple[str, ...]
    changes: dict[str, tuple[str, str]]

    def line(self) -> str:
        changed = "; ".join(f"{k}: {a} -> {b}" for k, (a, b) in self.changes.items()) or "no change"
        return f"{self.index:>3}. {self.actor:<4} {self.edge} [{' '.join(self.rules)}]  {changed}"


@dataclass(frozen=True)
class Transcript:
    """A game a judge can read: the starting state, then one line per step.

    A run that goes round forever is shown up to the step that repeats a
    state: ``loop_start`` is the step after which that state was first seen
    (0: the start).
    """

    initial: dict[str, str]
    steps: tuple[Step, ...]
    violation: str
    final: dict[str, str]
    loop_start: int | None = None

    @classmethod
    def from_path(
        cls,
        machine: Machine,
        start: Any,
        path: Sequence[tuple[Edge, Any]],
        violation: str,
        loop_start: int | None = None,
    ) -> "Transcript":
        steps = []
        pre = start
        for i, (edge, post) in enumerate(path, start=1):
            before, after = machine.aspects(pre), machine.aspects(post)
            # An aspect can appear mid-game ("P2: out of the game" replaces his hand and deck).
            changes = {k: (before.get(k, "-"), after[k]) for k in after if before.get(k) != after[k]}
            steps.append(Step(i, edge.name, actor_name(machine.actor(edge, pre)), edge.rules, changes))
            pre = post
        return cls(machine.aspects(start), tuple(steps), violation, machine.aspects(pre), loop_start)

    def __len__(self) -> int:
        return len(self.steps)

    def replay(self, machine: Machine) -> list[Any]:
        """The concrete states of this game in ``machine``, the start first.

        The start is the initial state a judge reads as ``initial``; each step
        is its edge (edges are deterministic).  A transcript that does not
        replay is a bug of the checker that wrote it.
        """
        starts = [s for s in machine.initial_states() if machine.aspects(s) == self.initial]
        for start in starts:
            states = [start]
            for step in self.steps:
                taken = [post for e, post in machine.successors(states[-1]) if e.name == step.edge]
                if not taken:
                    break
                states.append(taken[0])
            else:
                if machine.aspects(states[-1]) == self.final:
                    return states
        raise ModelError(f"the transcript does not replay in the model of {machine.game}: {self.violation}")

    def lines(self) -> list[str]:
        out = ["start: " + "; ".join(f"{k}: {v}" for k, v in self.initial.items())]
        out.extend(step.line() for step in self.steps)
        if self.loop_start is not None:
            again = "the start" if self.loop_start == 0 else f"the state after step {self.loop_start}"
            out.append(f"  loops back to {again}")
        # The whole last state, so the judge sees what the violation is about.
        out.append("end: " + "; ".join(f"{k}: {v}" for k, v in self.final.items()))
        out.append(f"violated: {self.violation}")
        return out

    def text(self) -> str:
        return "\n".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        return {
            "initial": self.initial,
            "steps": [
                {
                    "step": s.index,
                    "action": s.edge,
                    "player": s.actor,
                    "rules": list(s.rules),
                    "changes": {k: {"from": a, "to": b} for k, (a, b) in s.changes.items()},
                }
                for s in self.steps
            ],
            "loop_start": self.loop_start,
            "final": self.final,
            "violation": self.violation,
        }


@dataclass(frozen=True)
class Attempt:
    """One method's answer on the way to a portfolio's verdict, kept so a
    reader sees what was tried, on which model, and what each method said."""

    method: str
    model: str  # "bounded" (the instance as given) or "any-length"
    verdict: str
    seconds: float
    note: str

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "model": self.model,
            "verdict": self.verdict,
            "seconds": round(self.seconds, 4),
            "note": self.note,
        }


@dataclass
class Result:
    game: str
    property: str
    rules: tuple[str, ...]
    kind: str
    verdict: str
    depth: int
    method: str
    seconds: float
    counterexample: Transcript | None = None
    note: str = ""
    bounds: dict[str, int] = field(default_factory=dict)
    #: With ``proved`` from an inductive method: the inductive invariant that
    #: proves it, written in the model's own variable names.
    invariant: str = ""
    #: From the portfolio: every method tried, in order, the chosen one included.
    attempts: tuple[Attempt, ...] = ()
    #: With a Spacer proof: its invariant as SMT-LIB over the model's variable
    #: names, for ``checkers/invariants.py`` to keep (not part of the JSON).
    certificate: str = ""
    #: The verdict covers every run of the model, however long: a proof, or a
    #: ``vacuous`` whose premise is proved unreachable (not merely unmet
    #: within a bound).  Set by the method that decides so.
    unbounded: bool = False

    @property
    def passing(self) -> bool:
        return self.verdict in PASSING

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "property": self.property,
            "rules": list(self.rules),
            "kind": self.kind,
            "verdict": self.verdict,
            "depth": self.depth,
            "method": self.method,
            "seconds": round(self.seconds, 4),
            "counterexample": self.counterexample.to_json() if self.counterexample else None,
            "note": self.note,
            "bounds": self.bounds,
            "invariant": self.invariant or None,
            "attempts": [a.to_json() for a in self.attempts],
            "unbounded": self.unbounded,
        }
