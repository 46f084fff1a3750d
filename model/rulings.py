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

**Sources and readings.**  Each ruling names the texts that state it
(``texts``: a source id of ``model/sources.py`` and the line or lines of its
words).  Where two texts give one rule different answers, each answer is a
ruling of its own with the same id: *versions* of that rule, with disjoint
sources.  A ``Reading`` is a declared precedence among sources, with its
reason: for each rule it takes the version of the first source in its
precedence that states it, so a source that says nothing about a rule lends
its place to the next.  The model's reading is declared once per game; every
other source is a reading too (``RuleBook.under``), which ``chainproof verify
--reading`` builds and ``chainproof lint`` compares.  A ruling with no texts
is an assumption (its rules are ``assumed:`` ids): where only assumptions and
unsourced defaults answer, the rules are silent, and lint reports a gap.

Questions and rulings are built for one table (``arguments`` lists the
characters or pairs a question is asked about), so they read state through
the same backend as guards and serve explicit search and Z3 alike.
"""

from __future__ import annotations

import difflib

from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
import z3

from model.backend import CONCRETE, SYMBOLIC, VECTOR, Backend
from model.sources import SOURCES, SourceError, check_texts

#: The most rulings a question may have for its answers over arrays to be
#: looked up in tables (``RuleBook._truth``: 2 ** n rows); the games' have at most 6.
TABLED_RULINGS = 12
#: The most rows of arrays whose questions are looked up in those tables
#: (more: ruling by ruling, ``RuleBook._tabled``).
TABLED_ROWS = 1 << 12

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

    ``says`` may also be a function ``(state, backend, *arguments) -> value``:
    the ruling of a question whose answer is not yes or no (who receives
    priority), ``valued`` below.
    """

    id: str
    rules: tuple[str, ...]
    says: bool | None | Applies
    applies: Applies
    doc: str
    printed: bool = False
    cant: bool = False
    overrides: Mapping[str, str] = field(default_factory=dict)
    #: The texts that state this answer: source id -> line or lines ("449",
    #: "223-224").  Empty: our assumption, where no text answers.
    texts: Mapping[str, str] = field(default_factory=dict)

    @property
    def valued(self) -> bool:
        return callable(self.says)

    @property
    def assumption(self) -> bool:
        return not self.texts

    def value(self, s: Any, b: Backend, *args: Any) -> Any:
        return self.says(s, b, *args) if callable(self.says) else self.says

    def places(self) -> tuple[str, ...]:
        """``file:line`` of each text that states it."""
        return tuple(SOURCES[src].place(at) for src, at in self.texts.items())


@dataclass(frozen=True)
class Question:
    """A yes-or-no question the rules answer, with the rulings that bear on it.

    ``default`` is the answer when no ruling applies (a function of the state
    for a valued question); ``default_texts`` the texts that give it (a rule
    that grants only in some case denies in the others).  A default no text
    gives is the model's assumption: lint reports each reachable state that
    needs it as a gap.  ``on_clash`` is the yes-or-no answer the model takes
    where live rulings disagree (a valued question takes the first live
    ruling in declared order).
    """

    name: str
    doc: str
    rulings: tuple[Ruling, ...]
    arguments: tuple[tuple[Any, ...], ...]
    #: The control locations where the model asks it (its guards there read the answer).
    asked_at: tuple[str, ...] = ()
    default: bool | Applies = False
    on_clash: bool = False
    #: How to show one tuple of arguments to a reader ("prowler", "guard -> hero").
    show: Callable[..., str] = lambda *args: ", ".join(map(str, args))
    default_texts: Mapping[str, str] = field(default_factory=dict)
    #: Bounds at which a rules diff can show this question's readings apart
    #: (instants in the starting hands, say), over the defaults.
    bounds: Mapping[str, int] = field(default_factory=dict)
    #: How to show an answer ("yes", "the turn player").
    show_answer: Callable[[Any], str] = lambda v: ("yes" if v else "no") if isinstance(v, bool) else str(v)
    #: Its rulings read the board, not the state: the model asks it once, as
    #: it builds its edges (``RuleBook.fixed``), so each reading of it builds
    #: other edges.  Lint still asks it in every state where it is asked.
    fixed: bool = False

    @cached_property
    def valued(self) -> bool:
        return callable(self.default) or any(r.valued for r in self.rulings)

    @property
    def sources(self) -> tuple[str, ...]:
        """Every source that states one of its rulings or its default, in first-cited order."""
        out = dict.fromkeys(self.default_texts)
        for r in self.rulings:
            out.update(dict.fromkeys(r.texts))
        return tuple(out)

    def default_value(self, s: Any, b: Backend, *args: Any) -> Any:
        return self.default(s, b, *args) if callable(self.default) else self.default


@dataclass(frozen=True)
class Reading:
    """A declared precedence among a game's sources, and why.

    For each rule, the model follows the version of the first source here
    that states it; a source left out is never followed.  ``questions`` gives
    some questions a precedence of their own, each with its reason.
    """

    name: str
    precedence: tuple[str, ...]
    why: str
    questions: Mapping[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)

    def precedence_for(self, question: str) -> tuple[str, ...]:
        own = self.questions.get(question)
        return own[0] if own is not None else self.precedence

    def first(self, source: str, questions: Iterable[str] | None = None) -> "Reading":
        """This reading with ``source`` put first (on ``questions`` only, when given):
        ``source`` where it speaks, this reading where it is silent."""
        name = source if questions is None else f"{source}@{','.join(questions)}"

        def lead(order: tuple[str, ...]) -> tuple[str, ...]:
            return (source, *(x for x in order if x != source))

        if questions is None:
            return Reading(name, lead(self.precedence), f"{source} first, then {self.name}",
                           {q: (lead(p), why) for q, (p, why) in self.questions.items()})
        chosen = set(questions)
        return Reading(name, self.precedence, f"{source} first on {', '.join(sorted(chosen))}, then {self.name}",
                       {**self.questions, **{q: (lead(self.precedence_for(q)), f"{source} first") for q in chosen}})

    def only(self, source: str) -> "Reading":
        """The source alone: no other text fills its silences."""
        return Reading(f"{source} alone", (source,), f"what {source} says, and nothing else")

    def derive(self, spec: str | None, sources: Iterable[str], questions: Iterable[str]) -> "Reading":
        """The reading a user names: None for this one, ``SOURCE`` for that
        source first, ``SOURCE@q1,q2`` for that source first on those questions."""
        if spec is None:
            return self
        source, sep, asked = spec.partition("@")
        sources, questions = tuple(sources), tuple(questions)
        if source not in sources:
            raise SourceError(f"no source {source!r} to read by; sources: {', '.join(sources)}")
        chosen = tuple(x.strip() for x in asked.split(",")) if sep else None
        if chosen is not None and not all(chosen):
            # ``001@`` or ``001@a,,b``: a question left out by mistake, not "every question".
            raise SourceError(f"reading {spec!r}: a question name is missing after '@' or between commas; {_where_listed(questions)}")
        unknown = [x for x in chosen or () if x not in questions]
        if unknown:
            near = difflib.get_close_matches(unknown[0], questions, n=3)
            hint = f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""
            raise SourceError(f"reading {spec!r}: no question {', '.join(map(repr, unknown))}{hint}; {_where_listed(questions)}")
        return self.first(source, chosen)


def _where_listed(questions: tuple[str, ...]) -> str:
    # Naming all of them made one error line of a thousand columns.
    return f"the game has {len(questions)} questions, listed by `chainproof coverage --questions`"


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
        """The rule numbers of the clashing rulings, in the core's (declared) order."""
        by_id = {r.id: r for r in self.yes + self.no}
        out: list[str] = []
        for rid in self.core:
            for rule in by_id[rid].rules:
                if rule not in out:
                    out.append(rule)
        return tuple(out)


def always(s: Any, b: Backend, *args: Any) -> bool:
    """Where a ruling applies when it applies in every state its question is asked in."""
    return True


#: The "state" a fixed question is asked in: its rulings never read it.
_BOARD = object()


@lru_cache(maxsize=1 << 10)
def _winners_first_order(name: str, ids: tuple[str, ...], beaten: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """``RuleBook._winners_first`` over ruling ids (kept: a model built per
    board asks it of the same questions on every board)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(beaten)
    declared = {i: n for n, i in enumerate(ids)}
    try:
        return tuple(nx.lexicographical_topological_sort(graph, key=declared.__getitem__))
    except nx.NetworkXUnfeasible:
        cycle = " > ".join(a for a, _ in nx.find_cycle(graph))
        raise ValueError(f"question {name!r}: rulings beat each other in a cycle ({cycle})") from None


def is_assumed_rule(rule: str) -> bool:
    return rule.startswith(("assumed:", "abstracted:"))


class RuleBook:
    """The questions of one model instance and the precedence principles in force.

    ``declared`` holds every question as written, each version of each
    ruling included; ``questions`` the same questions under ``reading``: one
    version per ruling, those no admitted source states left out.  Without a
    reading every ruling is taken as written (a game whose rulings name no
    texts yet).  ``game`` checks every citation against its sources.
    """

    def __init__(
        self,
        questions: Iterable[Question],
        principles: Iterable[Principle],
        in_force: Iterable[str] | None = None,
        reading: Reading | None = None,
        game: str | None = None,
    ) -> None:
        self.declared = {q.name: q for q in questions}
        #: Every principle the rulings may cite, and those a variant has not removed.
        self.principles = {p.id: p for p in principles}
        self.in_force = frozenset(self.principles if in_force is None else in_force)
        self.reading = reading
        self.game = game
        self._cant_beats_can = frozenset(p.id for p in self.principles.values() if p.cant_beats_can)
        for q in self.declared.values():
            self._check(q)
        self.questions = {q.name: self._select(q) for q in self.declared.values()}
        self._winners = {q.name: self._precedence(q) for q in self.questions.values()}
        self._order = {q.name: self._winners_first(q) for q in self.questions.values()}
        self._memo_state: Any = None
        self._memo: dict[tuple[Any, ...], Any] = {}
        # Over arrays and Z3 terms, by backend: the state asked last and its answers.
        self._memo_terms: dict[str, tuple[Any, dict[tuple[Any, ...], Any]]] = {}
        # For explicit search, which asks these questions in nearly every state:
        # each ruling in winners-first order with the ids of its winners.
        self._plan = {
            name: tuple((r, r.id, tuple(w.id for w in self._winners[name][r.id])) for r in order)
            for name, order in self._order.items()
        }
        # Over arrays: each question's verdicts and answer for every set of rulings that apply (``_truth``).
        self._truths: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        # The books ``under`` and ``only`` derived, kept: lint asks a source's
        # reading of every question of every board, and a new book builds each
        # answer again, where a kept one keeps the answers it built last.
        self._derived: dict[tuple[Any, ...], RuleBook] = {}
        # Over Z3 terms: each ruling's condition as built for the state asked
        # last, shared with every book derived from this one (``_rebuilt``): a
        # condition reads only the state and its arguments, so a source's
        # reading builds the terms of the versions it alone states.
        self._conditions: dict[str, Any] = {"state": None, "terms": {}}

    # -- construction --------------------------------------------------------

    def _check(self, q: Question) -> None:
        ids = {r.id for r in q.rulings}
        if ids & set(self.principles):
            raise ValueError(f"question {q.name!r}: {sorted(ids & set(self.principles))} each name both a ruling and a principle")
        seen: dict[str, set[str]] = {}
        for r in q.rulings:
            sources = set(r.texts) or {""}
            if seen.get(r.id, set()) & sources:
                raise ValueError(
                    f"question {q.name!r}: two versions of ruling {r.id!r} are stated by one source"
                    + (f" ({', '.join(sorted(seen[r.id] & sources))})" if set(r.texts) else " (both are assumptions)")
                )
            seen.setdefault(r.id, set()).update(sources)
            for loser, why in r.overrides.items():
                if loser not in ids:
                    raise ValueError(f"ruling {r.id!r} overrides {loser!r}, which {q.name!r} does not have")
                if why not in self.principles:
                    raise ValueError(f"ruling {r.id!r} cites unknown principle {why!r}")
            if self.game is not None:
                who = f"ruling {r.id!r} of {q.name!r}"
                check_texts(self.game, r.texts, who)
                if r.assumption and not all(is_assumed_rule(x) for x in r.rules):
                    raise SourceError(f"{who} names no text; a ruling no text states is an assumption and cites only assumed: rules")
        if self.game is not None:
            check_texts(self.game, q.default_texts, f"the default of {q.name!r}")

    def _select(self, q: Question) -> Question:
        """``q`` under this book's reading: for each ruling id the version of the
        first source in the precedence that states it, else its assumption."""
        if self.reading is None:
            return q
        order = self.reading.precedence_for(q.name)
        chosen: dict[str, Ruling] = {}
        for rid in dict.fromkeys(r.id for r in q.rulings):
            versions = [r for r in q.rulings if r.id == rid]
            stated = [(order.index(src), r) for r in versions for src in r.texts if src in order]
            if stated:
                chosen[rid] = min(stated, key=lambda x: x[0])[1]
            else:
                fallback = [r for r in versions if r.assumption]
                if fallback:
                    chosen[rid] = fallback[0]
        rulings = tuple(
            # A ruling that overrode one this reading leaves out keeps no link to it.
            replace(r, overrides={k: v for k, v in r.overrides.items() if k in chosen}) for r in chosen.values()
        )
        return replace(q, rulings=rulings)

    def _precedence(self, q: Question) -> dict[str, tuple[Ruling, ...]]:
        """For each ruling, the rulings that beat it wherever both apply."""
        winners: dict[str, list[Ruling]] = {r.id: [] for r in q.rulings}
        for w in q.rulings:
            for r in q.rulings:
                if w is not r and self.beats(w, r):
                    winners[r.id].append(w)
        return {k: tuple(v) for k, v in winners.items()}

    def _winners_first(self, q: Question) -> tuple[Ruling, ...]:
        """The rulings ordered so that every winner comes before the rulings it
        beats, and otherwise in declared order (a valued question's answer
        on a clash is the first live ruling)."""
        ids = tuple(r.id for r in q.rulings)
        beaten = tuple((w.id, loser) for loser, ws in self._winners[q.name].items() for w in ws)
        by_id = {r.id: r for r in q.rulings}
        return tuple(by_id[i] for i in _winners_first_order(q.name, ids, beaten))

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
        """The rules of every ruling this book's reading follows, and of every
        principle (a rule only another source's version cites is a variant's)."""
        return {r for q in self.questions.values() for x in q.rulings for r in x.rules} | {
            r for p in self.principles.values() for r in p.rules
        }

    def _rebuilt(self, questions: Iterable[Question], in_force: Iterable[str] | None = None, reading: Reading | None = None) -> "RuleBook":
        book = RuleBook(questions, self.principles.values(), self.in_force if in_force is None else in_force,
                        reading if reading is not None else self.reading, self.game)
        book._conditions = self._conditions
        return book

    def without(self, ids: Iterable[str]) -> "RuleBook":
        """This book with some principles or rulings (every version) removed (a rule variant)."""
        ids = set(ids)
        if not ids:
            return self
        rulings = {r.id for q in self.declared.values() for r in q.rulings}
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
            for q in self.declared.values()
        ]
        return self._rebuilt(questions, self.in_force - ids)

    def under(self, source: str, questions: Iterable[str] | None = None) -> "RuleBook":
        """The book under ``source``'s reading: its versions wherever it states
        a rule (of ``questions`` only, when given), this book's reading elsewhere."""
        if self.reading is None:
            raise ValueError("this book declares no reading, so it has no sources to read by")
        key = ("under", source, None if questions is None else tuple(questions))
        if key not in self._derived:
            self._derived[key] = self._rebuilt(self.declared.values(), reading=self.reading.first(source, key[2]))
        return self._derived[key]

    def only(self, source: str) -> "RuleBook":
        """The rulings ``source`` itself states, with no other text or assumption beside them."""
        key = ("only", source)
        if key not in self._derived:
            self._derived[key] = self._only(source)
        return self._derived[key]

    def _only(self, source: str) -> "RuleBook":
        questions = [replace(q, rulings=tuple(r for r in q.rulings if source in r.texts)) for q in self.declared.values()]
        stated = {r.id for q in questions for r in q.rulings}
        questions = [
            replace(q, rulings=tuple(replace(r, overrides={k: v for k, v in r.overrides.items() if k in stated}) for r in q.rulings))
            for q in questions
        ]
        assert self.reading is not None
        # The model's own choices between readings of one text are assumptions,
        # not the text's: without them the text's own clashes show.
        chosen = {p.id for p in self.principles.values() if all(is_assumed_rule(r) for r in p.rules)}
        return self._rebuilt(questions, self.in_force - chosen, self.reading.only(source))

    def sources(self) -> tuple[str, ...]:
        """Every source a ruling or default of this book cites."""
        out: dict[str, None] = {}
        for q in self.declared.values():
            out.update(dict.fromkeys(q.sources))
        return tuple(out)

    # -- answers -------------------------------------------------------------

    def _live(self, q: Question, s: Any, b: Backend, args: Sequence[Any]) -> list[tuple[Ruling, Any]]:
        """Each ruling with the condition that it is live: it applies and no live winner beats it."""
        winners = self._winners[q.name]
        live: dict[str, Any] = {}
        for r in self._order[q.name]:
            live[r.id] = b.AndThen(self._applies(r, s, b, args), lambda r=r: b.Not(b.Or(*(live[w.id] for w in winners[r.id]))))
        return [(r, live[r.id]) for r in q.rulings]

    def _applies(self, r: Ruling, s: Any, b: Backend, args: Sequence[Any]) -> Any:
        """Where ``r`` applies; over Z3 terms, built once for the state asked
        last by this book and the books derived from it, for plain arguments
        (the condition function, which is kept, names the ruling's version)."""
        if b is not SYMBOLIC or not all(type(a) in (int, bool, str) for a in args):
            return r.applies(s, b, *args)
        held = self._conditions
        if held["state"] is not s:
            held["state"], held["terms"] = s, {}
        key = (r.applies, *args)
        if key not in held["terms"]:
            held["terms"][key] = r.applies(s, b, *args)
        return held["terms"][key]

    def live_concrete(self, name: str, s: Any, args: Sequence[Any]) -> tuple[Ruling, ...]:
        """The live rulings in the concrete state ``s``, winners first.

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
        out: list[Ruling] = []
        for r, rid, winners in self._plan[name]:
            alive = bool(r.applies(s, CONCRETE, *args)) and not any(live[w] for w in winners)
            live[rid] = alive
            if alive:
                out.append(r)
        found = self._memo[key] = tuple(out)
        return found

    def _terms_memo(self, b: Backend, s: Any, args: Sequence[Any]) -> dict[tuple[Any, ...], Any] | None:
        """The answers already built over arrays or terms for the state ``s``.

        A search over whole frontiers asks every edge of a location's rows,
        and building a transition asks every edge of one symbolic state: many
        guards ask the same question of the same state (every proposal asks
        whether its attacker may attack), and nested questions ask theirs
        again.  Kept only for plain arguments (seat and slot numbers), which
        compare by value; the state is held, so its identity is not reused.
        """
        if not all(type(a) in (int, bool, str) for a in args):
            return None
        held = self._memo_terms.get(b.name)
        if held is None or held[0] is not s:
            held = self._memo_terms[b.name] = (s, {})
        return held[1]

    def verdicts(self, name: str, s: Any, b: Backend, *args: Any) -> tuple[Any, Any]:
        """Whether some live ruling says yes, and whether some says no."""
        if b is CONCRETE:
            live = self.live_concrete(name, s, args)
            return any(r.says is True for r in live), any(r.says is False for r in live)
        if b is VECTOR and self._tabled(name, s):
            yes, no, _, _ = self._truth(name)
            applying = self._applying(name, s, args)
            return _looked_up(yes, applying), _looked_up(no, applying)
        memo = self._terms_memo(b, s, args)
        key = ("verdicts", name, *args)
        if memo is not None and key in memo:
            return memo[key]
        live = self._live(self.questions[name], s, b, args)
        found = (
            b.Or(*(x for r, x in live if r.says is True)),
            b.Or(*(x for r, x in live if r.says is False)),
        )
        if memo is not None:
            memo[key] = found
        return found

    def answer(self, name: str, s: Any, b: Backend, *args: Any) -> Any:
        """The rules' answer, the question's default where no ruling applies,
        and its ``on_clash`` answer where live rulings disagree (a valued
        question: the first live ruling's)."""
        if b is CONCRETE:
            return self._answer_concrete(name, s, args)
        q = self.questions[name]
        if q.valued:
            return self._value(q, s, b, args)
        if b is VECTOR and self._tabled(name, s):
            return _looked_up(self._truth(name)[2], self._applying(name, s, args))
        yes, no = self.verdicts(name, s, b, *args)
        return b.Or(
            b.And(yes, b.Not(no)),
            b.And(yes, no) if q.on_clash else False,
            b.And(b.Not(yes), b.Not(no)) if q.default else False,
        )

    def _tabled(self, name: str, s: Any) -> bool:
        """Is ``name`` asked of the arrays ``s`` through ``_truth``'s tables?
        Only where they are small enough to build (a row for each set of its
        rulings that apply) and ``s`` has few rows: a look-up costs a gather a
        row, where a connective over many rows is a fast pass, and it saves
        NumPy calls, which cost most on few rows.  Otherwise it is asked
        ruling by ruling."""
        rows = s.location
        return len(self._plan[name]) <= TABLED_RULINGS and not (isinstance(rows, np.ndarray) and rows.size > TABLED_ROWS)

    def _truth(self, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Whether some live ruling says yes, whether some says no, the
        answer, and the place (winners-first) of the first live ruling that
        says something (-1: none, the default answers), for every set of
        rulings that apply: tables with one axis per ruling in winners-first
        order (index 1: it applies).  Over arrays a question is then its
        rulings' conditions and one look-up, not a NumPy call for each
        ruling's liveness and each connective (``_applying``)."""
        found = self._truths.get(name)
        if found is None:
            q, plan = self.questions[name], self._plan[name]
            shape = (2,) * len(plan)
            yes, no, answer = np.zeros(shape, bool), np.zeros(shape, bool), np.zeros(shape, bool)
            first = np.full(shape, -1, np.int8)
            for applying in np.ndindex(*shape):
                live: dict[str, bool] = {}
                for (r, rid, winners), applies in zip(plan, applying):
                    live[rid] = bool(applies) and not any(live[w] for w in winners)
                said = [r.says for r, rid, _ in plan if live[rid]]
                y, n = True in said, False in said
                yes[applying], no[applying] = y, n
                answer[applying] = (y and not n) or (y and n and q.on_clash) or (not y and not n and bool(q.default))
                first[applying] = next((i for i, (r, rid, _) in enumerate(plan) if live[rid] and r.says is not None), -1)
            found = self._truths[name] = (yes, no, answer, first)
        return found

    def _applying(self, name: str, s: Any, args: Sequence[Any]) -> tuple[Any, ...]:
        """Over arrays: whether each ruling of ``name`` applies in ``s``, in
        winners-first order, as the index of ``_truth``'s tables: 0 or 1 where
        the condition is a constant, otherwise 0 or 1 a row.  Kept with the
        state's other answers (``_terms_memo``)."""
        memo = self._terms_memo(VECTOR, s, args)
        key = ("applying", name, *args)
        if memo is not None and key in memo:
            return memo[key]
        index = []
        for r, _, _ in self._plan[name]:
            x = r.applies(s, VECTOR, *args)
            if isinstance(x, np.ndarray) and x.ndim:
                index.append((x if x.dtype == bool else x != 0).view(np.uint8))
            else:
                index.append(int(bool(x)))
        found = tuple(index)
        if memo is not None:
            memo[key] = found
        return found

    def fixed(self, name: str, *args: Any) -> Any:
        """The answer to a question of the board alone (``Question.fixed``), as the edges are built."""
        if not self.questions[name].fixed:
            raise ValueError(f"question {name!r} reads the state: ask it in a guard, not as the model is built")
        return self._answer_concrete(name, _BOARD, args)

    def _answer_concrete(self, name: str, s: Any, args: Sequence[Any]) -> Any:
        """``answer`` over plain values, kept with the state's live rulings:
        several guards of one state ask the same question."""
        live = self.live_concrete(name, s, args)
        key = (None, name, *args)
        known = self._memo.get(key, self)
        if known is not self:
            return known
        q = self.questions[name]
        if q.valued:
            said = [r for r in live if r.says is not None]
            out = said[0].value(s, CONCRETE, *args) if said else q.default_value(s, CONCRETE, *args)
        else:
            yes = any(r.says is True for r in live)
            no = any(r.says is False for r in live)
            out = (yes and not no) or (yes and no and q.on_clash) or (not yes and not no and bool(q.default))
        self._memo[key] = out
        return out

    def _value(self, q: Question, s: Any, b: Backend, args: Sequence[Any]) -> Any:
        memo = self._terms_memo(b, s, args)
        key = ("value", q.name, *args)
        if memo is not None and key in memo:
            return memo[key]
        if b is VECTOR and self._tabled(q.name, s):
            out = self._vector_value(q, s, args)
            if memo is not None:
                memo[key] = out
            return out
        live = dict((r.id, x) for r, x in self._live(q, s, b, args))
        out = q.default_value(s, b, *args)
        for r in reversed(self._order[q.name]):
            if r.says is not None:
                out = b.If(live[r.id], r.value(s, b, *args), out)
        if memo is not None:
            memo[key] = out
        return out

    def _vector_value(self, q: Question, s: Any, args: Sequence[Any]) -> Any:
        """``_value`` over arrays: the first live ruling's value (``_truth``);
        where every row takes the same ruling's, only that value is asked."""
        chosen = _looked_up(self._truth(q.name)[3], self._applying(q.name, s, args))
        order = self._order[q.name]
        if not isinstance(chosen, np.ndarray):
            return q.default_value(s, VECTOR, *args) if chosen < 0 else order[chosen].value(s, VECTOR, *args)
        default = q.default_value(s, VECTOR, *args)
        return VECTOR.select([r.value(s, VECTOR, *args) if r.says is not None else default for r in order], chosen, default)

    def clashes(self, name: str, s: Any, b: Backend, *args: Any) -> Any:
        q = self.questions[name]
        if not q.valued:
            yes, no = self.verdicts(name, s, b, *args)
            return b.And(yes, no)
        if b is CONCRETE:
            return len({r.value(s, b, *args) for r in self.live_concrete(name, s, args) if r.says is not None}) > 1
        live = [(r, x) for r, x in self._live(q, s, b, args) if r.says is not None]
        return b.Or(
            *(
                b.And(x, y, r.value(s, b, *args) != w.value(s, b, *args))
                for i, (r, x) in enumerate(live)
                for w, y in live[i + 1 :]
            )
        )

    def speaks(self, name: str, s: Any, b: Backend, *args: Any) -> Any:
        """Does some text answer the question in state ``s``: a ruling with
        texts applies (overridden or not), or the default is a text's?"""
        q = self.declared[name]
        if q.default_texts:
            return True
        return b.Or(*(r.applies(s, b, *args) for r in q.rulings if r.texts))

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
        answer = z3.Int(f"answer:{name}") if q.valued else z3.Bool(f"answer:{name}")
        literal = {r.id: z3.Bool(f"ruling:{r.id}") for r in q.rulings}
        live = {r.id: z3.Bool(f"live:{r.id}") for r in q.rulings}
        solver = z3.Solver()
        solver.set("core.minimize", True)
        for r in q.rulings:
            beaten = z3.Or(*(live[w.id] for w in winners[r.id]), z3.BoolVal(False))
            solver.add(live[r.id] == z3.And(literal[r.id], z3.BoolVal(applies[r.id]), z3.Not(beaten)))
            if r.says is not None:
                said = r.value(s, CONCRETE, *args)
                solver.add(z3.Implies(live[r.id], answer == (int(said) if q.valued else said)))
        if solver.check(*literal.values()) != z3.unsat:
            raise ValueError(f"no clash on {name}({q.show(*args)}) in this state")
        # In declared order: the order Z3 lists a core in depends on the terms made before.
        in_core = {str(x).removeprefix("ruling:") for x in solver.unsat_core()}
        core = tuple(dict.fromkeys(r.id for r in q.rulings if r.id in in_core))
        model_live = {r.id: bool(x) for r, x in self._live(q, s, CONCRETE, args)}
        said = {r.id: r.value(s, CONCRETE, *args) for r in q.rulings if model_live[r.id] and r.says is not None}
        # A valued clash sides with the first live answer against the others.
        first = next(iter(said.values()), None) if q.valued else True
        return Clash(
            name,
            tuple(args),
            tuple(r for r in q.rulings if r.id in said and said[r.id] == first),
            tuple(r for r in q.rulings if r.id in said and said[r.id] != first),
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


def _looked_up(table: np.ndarray, applying: tuple[Any, ...]) -> Any:
    """``table`` at the index ``applying`` (``RuleBook._applying``): an array
    of values, one a row, or a plain value where no condition is an array."""
    found = table[applying]
    return found if isinstance(found, np.ndarray) else found.item()
