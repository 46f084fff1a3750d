"""Rulings: what each rule says about one question, and which rule wins.

A rulebook answers questions such as "may this character attack?" or "is
this character bound to attack?" with several rules at once: a general rule
grants, a narrower one forbids, a card's text lifts the narrower one.  Source
order must not decide between them, so each answer is declared as data:

- a ``Ruling`` is one rule's answer (yes, no, or ``None``: it only lifts
  another ruling) and the states where it applies;
- a ``Principle`` is a precedence rule of the rulebook ("card text beats the
  rules", "can't beats can"), cited by its own number;
- a ruling may name the rulings it overrides and the principle that lets it.
  The one principle that applies without being named is the rulebook's
  "can't beats can" (``Principle.cant_beats_can``): a "can't" ruling beats a
  "yes", unless that "yes" names the "can't" among the rulings it overrides
  (an explicit exception, such as conceding despite "you can't lose", is
  narrower than the general principle and wins).

The answer to a question is read off the *live* rulings: those that apply and
are not overridden by another ruling that applies.  When live rulings say both
yes and no, the rules **clash** there: no precedence rule decides.  The model
still needs an answer in such a state, and each question says which one it
takes (``on_clash``, with the reading that justifies it); ``chainproof lint``
reports every reachable clash with its transcript, and ``explain`` names the
clashing rules through a Z3 unsat core over rule-labelled constraints.

Questions and rulings are built for one table (``arguments`` lists the
characters or pairs a question is asked about), so they read state through
the same backend as guards and serve explicit search and Z3 alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

import networkx as nx
import z3

from model.backend import CONCRETE, Backend

Applies = Callable[..., Any]  # (state, backend, *arguments) -> bool or a Z3 term


@dataclass(frozen=True)
class Principle:
    """A precedence rule: why one ruling beats another."""

    id: str
    rules: tuple[str, ...]
    doc: str
    #: This is the rulebook's "can't beats can" (WoW 103.2, HotA 101.2): a
    #: "can't" ruling beats a "yes" wherever both apply, unnamed.
    cant_beats_can: bool = False


@dataclass(frozen=True)
class Ruling:
    """One rule's answer to a question, and where it applies.

    ``says`` is the answer, or ``None`` for a ruling that only lifts the
    rulings it overrides (ferocity lifts "a new ally can't attack" without
    saying the ally may attack).  ``printed``: the answer is card text (a
    keyword or a printed modifier), as 103.1 distinguishes card text from the
    rules.  ``cant``: the answer is a "can't" in the sense of the rulebook's
    "can't beats can" principle.
    ``overrides`` maps the id of each ruling this one beats to the id of the
    principle that says so.
    """

    id: str
    rules: tuple[str, ...]
    says: bool | None
    applies: Applies
    doc: str
    printed: bool = False
    cant: bool = False
    overrides: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Question:
    """A yes-or-no question the rules answer, with the rulings that bear on it.

    ``default`` is the answer when no ruling applies; ``on_clash`` the answer
    the model takes where live rulings disagree (see the question's reading).
    """

    name: str
    doc: str
    rulings: tuple[Ruling, ...]
    arguments: tuple[tuple[Any, ...], ...]
    #: The control locations where the model asks it (its guards there read the answer).
    asked_at: tuple[str, ...] = ()
    default: bool = False
    on_clash: bool = False
    #: How to show one tuple of arguments to a reader ("prowler", "guard -> hero").
    show: Callable[..., str] = lambda *args: ", ".join(map(str, args))


@dataclass(frozen=True)
class Clash:
    """Live rulings that disagree on one question in one state."""

    question: str
    arguments: tuple[Any, ...]
    yes: tuple[Ruling, ...]
    no: tuple[Ruling, ...]
    core: tuple[str, ...]  # the ruling ids of the Z3 unsat core

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule numbers of the clashing rulings, in the order of the core."""
        by_id = {r.id: r for r in self.yes + self.no}
        out: list[str] = []
        for rid in self.core:
            for rule in by_id[rid].rules:
                if rule not in out:
                    out.append(rule)
        return tuple(out)


class RuleBook:
    """The questions of one model instance and the precedence principles in force."""

    def __init__(
        self, questions: Iterable[Question], principles: Iterable[Principle], in_force: Iterable[str] | None = None
    ) -> None:
        self.questions = {q.name: q for q in questions}
        #: Every principle the rulings may cite, and those a variant has not removed.
        self.principles = {p.id: p for p in principles}
        self.in_force = frozenset(self.principles if in_force is None else in_force)
        self._cant_beats_can = frozenset(p.id for p in self.principles.values() if p.cant_beats_can)
        for q in self.questions.values():
            ids = {r.id for r in q.rulings}
            if ids & set(self.principles):
                raise ValueError(f"question {q.name!r}: {sorted(ids & set(self.principles))} each name both a ruling and a principle")
            if len(ids) != len(q.rulings):
                raise ValueError(f"question {q.name!r} has two rulings with one id")
            for r in q.rulings:
                for loser, why in r.overrides.items():
                    if loser not in ids:
                        raise ValueError(f"ruling {r.id!r} overrides {loser!r}, which {q.name!r} does not have")
                    if why not in self.principles:
                        raise ValueError(f"ruling {r.id!r} cites unknown principle {why!r}")
        self._winners = {q.name: self._precedence(q) for q in self.questions.values()}
        self._order = {q.name: self._winners_first(q) for q in self.questions.values()}
        self._memo_state: Any = None
        self._memo: dict[tuple[Any, ...], tuple[bool, bool]] = {}
        # For explicit search, which asks these questions in nearly every state:
        # each ruling in winners-first order with the ids of its winners.
        self._plan = {
            name: tuple((r, r.id, tuple(w.id for w in self._winners[name][r.id])) for r in order)
            for name, order in self._order.items()
        }

    def _precedence(self, q: Question) -> dict[str, tuple[Ruling, ...]]:
        """For each ruling, the rulings that beat it wherever both apply."""
        winners: dict[str, list[Ruling]] = {r.id: [] for r in q.rulings}
        for w in q.rulings:
            for r in q.rulings:
                if w is not r and self.beats(w, r):
                    winners[r.id].append(w)
        return {k: tuple(v) for k, v in winners.items()}

    def _winners_first(self, q: Question) -> tuple[Ruling, ...]:
        """The rulings ordered so that every winner comes before the rulings it beats."""
        graph = nx.DiGraph()
        graph.add_nodes_from(r.id for r in q.rulings)
        graph.add_edges_from((w.id, loser) for loser, ws in self._winners[q.name].items() for w in ws)
        try:
            order = list(nx.topological_sort(graph))
        except nx.NetworkXUnfeasible:
            cycle = " > ".join(a for a, _ in nx.find_cycle(graph))
            raise ValueError(f"question {q.name!r}: rulings beat each other in a cycle ({cycle})") from None
        by_id = {r.id: r for r in q.rulings}
        return tuple(by_id[i] for i in order)

    def beats(self, w: Ruling, r: Ruling) -> bool:
        """Does ``w`` win over ``r`` where both apply?  Only by a principle in force."""
        why = w.overrides.get(r.id)
        if why is not None and why in self.in_force:
            return True
        # "Can't beats can" (WoW 103.2, HotA 101.2): a "can't" beats a rule or
        # effect that would make the thing happen, unless that one overrides
        # the "can't" by a principle in force (the narrower exception wins).
        return (
            bool(self._cant_beats_can & self.in_force)
            and w.cant
            and w.says is False
            and r.says is True
            and r.overrides.get(w.id) not in self.in_force
        )

    def cited_rules(self) -> set[str]:
        """The rules of every ruling and principle."""
        return {r for q in self.questions.values() for x in q.rulings for r in x.rules} | {
            r for p in self.principles.values() for r in p.rules
        }

    def without(self, ids: Iterable[str]) -> "RuleBook":
        """This book with some principles or rulings removed (a rule variant)."""
        ids = set(ids)
        rulings = {r.id for q in self.questions.values() for r in q.rulings}
        unknown = ids - set(self.principles) - rulings
        if unknown:
            known = ", ".join(sorted(set(self.principles) | rulings))
            raise ValueError(f"no principle or ruling {sorted(unknown)}; known: {known}")
        questions = [
            replace(
                q,
                rulings=tuple(
                    # A ruling that overrode a removed one keeps no link to it.
                    replace(r, overrides={k: v for k, v in r.overrides.items() if k not in ids})
                    for r in q.rulings
                    if r.id not in ids
                ),
            )
            for q in self.questions.values()
        ]
        return RuleBook(questions, self.principles.values(), self.in_force - ids)

    # -- answers -------------------------------------------------------------

    def _live(self, q: Question, s: Any, b: Backend, args: Sequence[Any]) -> list[tuple[Ruling, Any]]:
        """Each ruling with the condition that it is live: it applies and no live winner beats it."""
        winners = self._winners[q.name]
        live: dict[str, Any] = {}
        for r in self._order[q.name]:
            live[r.id] = b.AndThen(r.applies(s, b, *args), lambda r=r: b.Not(b.Or(*(live[w.id] for w in winners[r.id]))))
        return [(r, live[r.id]) for r in q.rulings]

    def _verdicts_concrete(self, name: str, s: Any, args: Sequence[Any]) -> tuple[bool, bool]:
        """``verdicts`` over plain values, without building terms.

        Explicit search tries every edge of one state in turn, and many guards
        ask the same question of it (each proposal asks whether its attacker
        may attack): the answers for the last state asked are kept.  The state
        is held, so its identity cannot be reused while it is kept.
        """
        if s is not self._memo_state:
            self._memo_state, self._memo = s, {}
        key = (name, *args)
        known = self._memo.get(key)
        if known is not None:
            return known
        live: dict[str, bool] = {}
        yes = no = False
        for r, rid, winners in self._plan[name]:
            alive = bool(r.applies(s, CONCRETE, *args)) and not any(live[w] for w in winners)
            live[rid] = alive
            if alive:
                if r.says is True:
                    yes = True
                elif r.says is False:
                    no = True
        self._memo[key] = (yes, no)
        return yes, no

    def verdicts(self, name: str, s: Any, b: Backend, *args: Any) -> tuple[Any, Any]:
        """Whether some live ruling says yes, and whether some says no."""
        if b is CONCRETE:
            return self._verdicts_concrete(name, s, args)
        live = self._live(self.questions[name], s, b, args)
        return (
            b.Or(*(x for r, x in live if r.says is True)),
            b.Or(*(x for r, x in live if r.says is False)),
        )

    def answer(self, name: str, s: Any, b: Backend, *args: Any) -> Any:
        """The rules' answer, the question's default where no ruling applies,
        and its ``on_clash`` answer where live rulings disagree."""
        q = self.questions[name]
        yes, no = self.verdicts(name, s, b, *args)
        return b.Or(
            b.And(yes, b.Not(no)),
            b.And(yes, no) if q.on_clash else False,
            b.And(b.Not(yes), b.Not(no)) if q.default else False,
        )

    def clashes(self, name: str, s: Any, b: Backend, *args: Any) -> Any:
        yes, no = self.verdicts(name, s, b, *args)
        return b.And(yes, no)

    def explain(self, name: str, s: Any, *args: Any) -> Clash:
        """The clash of question ``name`` in the concrete state ``s``, its
        rules named by a Z3 unsat core over one literal per ruling.

        A ruling is live when its literal holds, it applies, and no live
        winner beats it; a live ruling asserts its answer.  With every literal
        assumed the constraints are unsatisfiable exactly where live rulings
        disagree, and the core is a set of rulings that cannot all hold.
        """
        q = self.questions[name]
        winners = self._winners[name]
        applies = {r.id: bool(r.applies(s, CONCRETE, *args)) for r in q.rulings}
        answer = z3.Bool(f"answer:{name}")
        literal = {r.id: z3.Bool(f"ruling:{r.id}") for r in q.rulings}
        live = {r.id: z3.Bool(f"live:{r.id}") for r in q.rulings}
        solver = z3.Solver()
        solver.set("core.minimize", True)
        for r in q.rulings:
            beaten = z3.Or(*(live[w.id] for w in winners[r.id]), z3.BoolVal(False))
            solver.add(live[r.id] == z3.And(literal[r.id], z3.BoolVal(applies[r.id]), z3.Not(beaten)))
            if r.says is not None:
                solver.add(z3.Implies(live[r.id], answer == r.says))
        if solver.check(*literal.values()) != z3.unsat:
            raise ValueError(f"no clash on {name}({q.show(*args)}) in this state")
        core = tuple(str(x).removeprefix("ruling:") for x in solver.unsat_core())
        model_live = {r.id: bool(x) for r, x in self._live(q, s, CONCRETE, args)}
        return Clash(
            name,
            tuple(args),
            tuple(r for r in q.rulings if model_live[r.id] and r.says is True),
            tuple(r for r in q.rulings if model_live[r.id] and r.says is False),
            core,
        )

    def clash_in(self, s: Any) -> list[Clash]:
        """Every clash in the concrete state ``s``, explained."""
        return [
            self.explain(q.name, s, *args)
            for q in self.questions.values()
            for args in q.arguments
            if self.clashes(q.name, s, CONCRETE, *args)
        ]
