"""Contradiction queries, stated as properties so that every checker (explicit
search, k-induction, Spacer, BMC) can answer them:

- ``rulings_agree``: the live rulings on a question never clash
  (``model/rulings.py``): two rules answer differently and no precedence rule
  decides between them;
- ``never_enabled``: an edge is never enabled, so the rules it encodes never
  apply (a dead rule, when no live edge cites them);
- ``never_applies``: a ruling never applies where its question is asked (a
  dead ruling);
- ``no_deadlock``: a game that is not over always lets some player or rule act.

A game may also have contradiction queries over a rule alone, which no game
state is needed to ask (Riftbound's damage assignment: does every
configuration have a legal assignment, which requirements exclude each
other). Each answers with a :class:`RuleQuery`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.backend import Backend
from model.machine import Edge, Machine
from model.rulings import Question, RuleBook
from properties import Deadlock, Invariant

#: The prefixes of the properties' names, so a result names its query.
AGREE = "rulings_agree"
NEVER = "never_enabled"
NEVER_APPLIES = "never_applies"


def rulings_agree(book: RuleBook, q: Question) -> Invariant:
    rules = tuple(dict.fromkeys(r for x in q.rulings for r in x.rules))
    return Invariant(
        f"{AGREE}[{q.name}]",
        rules + tuple(r for p in book.principles.values() if p.id in book.in_force for r in p.rules if r not in rules),
        f"no two live rulings answer '{q.doc}' differently where the model asks it",
        holds=lambda m, s, b, name=q.name, arguments=q.arguments, at=q.asked_at: b.Not(
            b.AndThen(m.at(s, *at, b=b), lambda: b.Or(*(m.rulings.clashes(name, s, b, *args) for args in arguments)))
        ),
    )


def never_enabled(edge: Edge) -> Invariant:
    """The edge of this name is never enabled (each model, bounded or of any
    length, is asked about its own edge of that name)."""

    def holds(m: Machine, s: Any, b: Backend, name: str = edge.name) -> Any:
        e = m.edge(name)
        return b.Not(b.AndThen(s.location == m.location_index[e.source], lambda: e.guard(s, b)))

    return Invariant(f"{NEVER}[{edge.name}]", edge.rules, f"the edge {edge.name} is never enabled", holds=holds)


def never_applies(question: str, index: int, rules: tuple[str, ...]) -> Invariant:
    """The ``index``-th declared ruling of ``question`` never applies where the
    question is asked (each model is asked about its own book's ruling)."""

    def holds(m: Machine, s: Any, b: Backend) -> Any:
        q = m.rulings.declared[question]
        r = q.rulings[index]
        return b.Not(b.AndThen(m.at(s, *q.asked_at, b=b), lambda: b.Or(*(r.applies(s, b, *args) for args in q.arguments))))

    return Invariant(f"{NEVER_APPLIES}[{question}#{index}]", rules, f"ruling {index} of {question} never applies", holds=holds)


def no_deadlock(rules: tuple[str, ...]) -> Deadlock:
    return Deadlock("no_deadlock", rules, "a game that is not over always has an enabled step")


@dataclass(frozen=True)
class Contradiction:
    """What a rule query found: a stable key, the rules involved, in words."""

    key: str
    rules: tuple[str, ...]
    summary: str


@dataclass(frozen=True)
class RuleQuery:
    """One query over a rule alone, its verdict (proved, violated, unknown...)
    and what it found; ``kind`` is the lint kind of its findings."""

    query: str
    verdict: str
    method: str
    kind: str
    found: tuple[Contradiction, ...] = ()
