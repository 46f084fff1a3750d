"""What ``chainproof lint`` finds by comparing the sources of a game's rules,
with no code per finding: every question of the game's rule book
(``model/rulings.py``) is asked of every source that answers it, in every
state the model reaches within the bounds.

- **source-clash**: a reachable state where a source's reading of a question
  (``RuleBook.under``) answers otherwise than the model's reading; with the
  shortest game that reaches such a state, and the shortest game on which the
  two readings make play differ (``checkers/diff.py``) when there is one within
  the bounds (a clash that changes no play is still a clash of the texts);
- **self-clash**: two rulings of one source answer one question differently
  in a reachable state, and nothing in that source settles it
  (``RuleBook.only``: the model's own assumed choices left out); the rulings
  named by a Z3 unsat core;
- **gap**: a reachable state where the question is asked and no text answers
  it: the model runs on an assumption or an unsourced default there;
- **dead-ruling**: a ruling that applies in no state reached where its
  question is asked, within the bounds;
- **deadlock** under a source's whole reading: a reachable state of the
  machine that source builds where nobody and no rule can act (searched over
  whole frontiers, ``checkers/vector.py``).

Breadth-first order makes every state found one of the nearest to the start.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable, Mapping

import numpy as np

from model.backend import CONCRETE, VECTOR
from checkers.diff import compare
from checkers import vector
from model.machine import Machine
from checkers.results import Transcript
from model.rulings import Question, RuleBook, Ruling
from model.setup import is_setup
from chainproof.text_lint import TextFinding

#: The kinds of finding only this module reports, in report order (it also
#: reports a deadlock under a source's reading, a kind of lint's own).
KINDS = ("source-clash", "self-clash", "gap", "dead-ruling")


@dataclass
class SourceFinding(TextFinding):
    transcript: Transcript | None = None
    #: For a source clash: the game on which the two readings' play parts, as
    #: the model plays it and as the source's reading does.
    parted: tuple[Transcript, Transcript] | None = None
    #: For a source clash: the source reading's name, for ``diff``.
    reading: str | None = None
    #: For a dead ruling: its question and its index among the question's declared rulings.
    ruling: tuple[str, int] | None = None
    #: Found on a board one change from the default: what changed.
    board: str | None = None
    #: The question it is about (every kind but a deadlock's).
    question: str | None = None
    #: For a dead ruling that applies one change away: that board's key
    #: (``transcript`` is then the nearest game there reaching such a state).
    woken_on: str | None = None


@dataclass
class SourceLint:
    findings: list[SourceFinding] = field(default_factory=list)
    #: (query, verdict) of each comparison made, for lint's table of checks.
    checks: list[tuple[str, str]] = field(default_factory=list)
    states: int = 0
    complete: bool = True
    #: Clashes the texts' rulings allow but no state reached shows:
    #: (kind, question, source), for lint to look for one change away.
    quiet: list[tuple[str, str, str]] = field(default_factory=list)
    #: The first state searched (one of the nearest) where each ruling
    #: applies, by its question and its index among the question's rulings.
    applies_at: dict[tuple[str, int], int] = field(default_factory=dict)


def _signature(r: Ruling) -> tuple[Any, ...]:
    """Which version of which ruling, and what it overrides: two books whose
    rulings of a question have the same signatures answer it alike."""
    return (r.id, tuple(r.texts), tuple(sorted(r.overrides.items())))


def _apart(ours: Question, theirs: Question) -> tuple[Ruling, ...]:
    """The rulings one book's question has and the other's lacks, theirs first."""
    mine, other = {_signature(r) for r in ours.rulings}, {_signature(r) for r in theirs.rulings}
    return tuple(r for r in theirs.rulings if _signature(r) not in mine) + tuple(r for r in ours.rulings if _signature(r) not in other)


def _ranked(book: RuleBook, q: Question) -> bool:
    """Can ``q``'s rulings in ``book`` never clash, whatever the state?  So
    where one of each pair of a "yes" and a "no" ruling beats the other: the
    two are never live at once (a live winner leaves its loser dead)."""
    if q.valued:
        return False
    yes = [r for r in q.rulings if r.says is True]
    no = [r for r in q.rulings if r.says is False]
    return all(book.beats(a, b) or book.beats(b, a) for a in yes for b in no)


def _texts(rulings: Iterable[Ruling]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    places: dict[str, None] = {}
    sources: dict[str, None] = {}
    for r in rulings:
        places.update(dict.fromkeys(r.places()))
        sources.update(dict.fromkeys(r.texts))
    return tuple(places), tuple(sources)


def _each(answer: Any, n: int) -> np.ndarray:
    """An answer over ``VECTOR`` as one value per row: a valued question's
    answers may be labels, which no guard or update gives."""
    return np.broadcast_to(np.asarray(answer), (n,))


BuildReading = Callable[[str | None, Mapping[str, int]], Machine]


def lint_sources(
    machine: Machine,
    build_reading: BuildReading | None,
    max_states: int,
    max_pairs: int,
    questions: Collection[str] | None = None,
    exploration: vector.VectorExploration | None = None,
) -> SourceLint:
    """Every question of ``machine``'s rule book asked of every source.

    ``build_reading(spec, bounds)`` builds the same game under a source
    reading (``SOURCE@question``; None: the model's) at the lint bounds
    overlaid with ``bounds``, for the rules diff; None skips the diff.
    ``questions`` names the only questions to ask; the sources' whole
    readings are then not searched for deadlocks.  ``exploration``:
    ``machine``'s search to ``max_states``, where the caller already has it."""
    out = SourceLint()
    book = machine.rulings
    if book is None or book.reading is None:
        return out
    # A setup question is asked of no state: lint asks it over its setups (``linting.lint_setup``).
    asked = {name: q for name, q in book.declared.items() if (questions is None or name in questions) and not is_setup(q)}
    if exploration is None:
        exploration = vector.explore(machine, max_states)
    out.states, out.complete = exploration.states, exploration.complete
    scope = "within the bounds" if exploration.complete else f"within {exploration.expanded} steps"

    # Each source's reading, and the source alone (for its own clashes).
    readings: dict[str, RuleBook] = {x: book.under(x) for x in book.sources()}
    alone: dict[str, RuleBook] = {x: book.only(x) for x in book.sources()}

    # What to look for, question by question.
    clash_with: dict[str, list[str]] = {}
    #: The rulings on which a source's reading and the model's differ: only
    #: where one of them applies can the answers differ.
    differing: dict[tuple[str, str], tuple[Ruling, ...]] = {}
    own_clash: dict[str, list[str]] = {}
    covered: set[tuple[str, str]] = set()
    #: Sources whose own rulings of a question can never clash, in any state.
    ranked: set[tuple[str, str]] = set()
    #: Sources that state the very same rulings of a question share their clashes.
    same_as: dict[tuple[str, str], str] = {}
    for name, q in asked.items():
        clash_with[name] = []
        for x in q.sources:
            apart = _apart(book.questions[name], readings[x].questions[name])
            if apart:
                clash_with[name].append(x)
                differing[(name, x)] = apart
        first_with: dict[tuple[Any, ...], str] = {}
        own_clash[name] = []
        model_own = tuple(_signature(r) for r in book.questions[name].rulings)
        for x in q.sources:
            own = alone[x].questions[name].rulings
            if len({(r.says if not r.valued else r.id) for r in own if r.says is not None}) < 2:
                continue
            sig = tuple(_signature(r) for r in own)
            if sig == model_own and alone[x].in_force == book.in_force:
                # The model's own rulings: lint's conflict query (rulings_agree) covers them, for games of any length.
                covered.add((name, x))
                continue
            if _ranked(alone[x], alone[x].questions[name]):
                ranked.add((name, x))
                continue
            if sig in first_with:
                same_as[(name, x)] = first_with[sig]
            else:
                first_with[sig] = x
                own_clash[name].append(x)
    found_clash: dict[tuple[str, str], tuple[int, tuple[Any, ...]]] = {}
    found_own: dict[tuple[str, str], tuple[int, tuple[Any, ...]]] = {}
    found_gap: dict[str, tuple[int, tuple[Any, ...]]] = {}
    applies_at = out.applies_at

    # Every question is asked of all the states at its locations at once, as
    # arrays (``VECTOR``); states are numbered breadth-first, so the first
    # row where something holds is one of the nearest states to the start.
    location = exploration.locations()
    for name, q in asked.items():
        where = np.flatnonzero(np.isin(location, [machine.location_index[loc] for loc in q.asked_at]))
        if not where.size:
            continue
        s = exploration.layout.state(exploration.layout.unpack(exploration.keys[where]))

        def first(holds: Any) -> int | None:
            hits = np.flatnonzero(vector.rows(holds, len(where)))
            return int(where[hits[0]]) if hits.size else None

        def nearest(found: dict[Any, tuple[int, tuple[Any, ...]]], key: Any, holds: Any, args: tuple[Any, ...]) -> None:
            # Of two arguments that first meet at one state, the one asked first is kept.
            i = first(holds)
            if i is not None and (key not in found or i < found[key][0]):
                found[key] = (i, args)

        for args in q.arguments:
            applies = [r.applies(s, VECTOR, *args) for r in q.rulings]
            for k, holds in enumerate(applies):
                i = first(holds)
                if i is not None and i < applies_at.get((name, k), i + 1):
                    applies_at[(name, k)] = i
            nearest(found_gap, name, VECTOR.Not(book.speaks(name, s, VECTOR, *args)), args)
            for x in clash_with[name]:
                could_differ = VECTOR.Or(*(r.applies(s, VECTOR, *args) for r in differing[(name, x)]))
                answers_differ = _each(readings[x].answer(name, s, VECTOR, *args), len(where)) != _each(
                    book.answer(name, s, VECTOR, *args), len(where)
                )
                nearest(found_clash, (name, x), VECTOR.And(could_differ, answers_differ), args)
            for x in own_clash[name]:
                nearest(found_own, (name, x), alone[x].clashes(name, s, VECTOR, *args), args)

    def transcript(i: int, note: str) -> Transcript:
        start, path = exploration.path_to(i)
        return Transcript.from_path(machine, start, path, note)

    for name, q in asked.items():
        for x in clash_with[name]:
            spec = f"{x}@{name}"
            places, sources = _texts(differing[(name, x)])
            rules = tuple(dict.fromkeys(rule for r in differing[(name, x)] for rule in r.rules))
            parted = None
            play = ""
            hit = found_clash.get((name, x))
            # Where the answers agree in every state the model reaches, the two
            # readings take the same steps from each: play cannot part at these
            # bounds, and only the bounds the question names can show more.  A
            # question of this board asked of nothing (no spell to ask about)
            # builds the same edges under both.
            if build_reading is not None and (hit is not None or (q.bounds and q.arguments)):
                comparison = compare(
                    build_reading(None, q.bounds), build_reading(spec, q.bounds), ("model", spec), max_pairs, one_judge=True
                )
                d = comparison.divergence
                if d is not None:
                    parted = (d.first, d.second)
                    play = f"; play parts after {d.length} steps: {d.first.violation}"
                else:
                    play = f"; play does not part ({comparison.verdict})"
                out.checks.append((f"diff[model {spec}]", comparison.verdict))
            if hit is None and parted is None:
                out.checks.append((f"source_clash[{name}: {x}]", f"the answers agree in every state reached {scope}"))
                out.quiet.append(("source-clash", name, x))
                continue
            if hit is not None:
                i, args = hit
                s = exploration.state(i)
                said = f"{x} answers {q.show_answer(readings[x].answer(name, s, CONCRETE, *args))} where the model's reading answers {q.show_answer(book.answer(name, s, CONCRETE, *args))}"
                where = f" for {q.show(*args)}" if args else ""
                t = transcript(i, f"'{q.doc}'{where}: {said}")
                summary = f"'{q.doc}'{where}: {said}{play}"
            else:
                t = None
                summary = f"'{q.doc}': {x}'s rulings differ from the model's reading, and no state reached {scope} shows the answers apart{play}"
            out.checks.append((f"source_clash[{name}: {x}]", "violated"))
            out.findings.append(
                SourceFinding("source-clash", f"source-clash:{name}:{x}", rules, summary, places, sources, t, parted, spec, question=name)
            )

        for x in q.sources:
            if (name, x) in covered:
                out.checks.append((f"self_clash[{name}: {x}]", "the model's own rulings: see rulings_agree"))
                continue
            if (name, x) in ranked:
                out.checks.append((f"self_clash[{name}: {x}]", "never: a precedence ranks each of its 'yes' rulings against each 'no'"))
                continue
            if x not in own_clash[name] and (name, x) not in same_as:
                continue
            hit = found_own.get((name, same_as.get((name, x), x)))
            if hit is None:
                out.checks.append((f"self_clash[{name}: {x}]", f"no clash in any state reached {scope}"))
                if x in own_clash[name]:
                    out.quiet.append(("self-clash", name, x))
                continue
            i, args = hit
            clash = alone[x].explain(name, exploration.state(i), *args)
            core = [r for r in clash.yes + clash.no if r.id in clash.core]
            places, _ = _texts(core)
            said = "; ".join(f"{r.id} [{' '.join(r.rules)}] says {q.show_answer(r.value(exploration.state(i), CONCRETE, *args))} ({r.doc})" for r in core)
            where = f" for {q.show(*args)}" if args else ""
            summary = f"{x} alone, '{q.doc}'{where}: {said}; nothing in {x} decides between them"
            out.checks.append((f"self_clash[{name}: {x}]", "violated"))
            out.findings.append(
                SourceFinding(
                    "self-clash", f"self-clash:{name}:{x}:{'+'.join(sorted(clash.core))}", clash.rules, summary, places, (x,),
                    transcript(i, summary), question=name,
                )
            )

        hit = found_gap.get(name)
        if hit is None:
            out.checks.append((f"gap[{name}]", f"some text answers in every state reached {scope}"))
        else:
            i, args = hit
            s = exploration.state(i)
            live = [r for r in book.live_concrete(name, s, args) if r.says is not None]
            how = f"the assumption {live[0].id} [{' '.join(live[0].rules)}]" if live else "the model's unsourced default"
            where = f" for {q.show(*args)}" if args else ""
            summary = f"no text answers '{q.doc}'{where}; the model answers {q.show_answer(book.answer(name, s, CONCRETE, *args))} by {how}"
            rules = tuple(dict.fromkeys(r for x in live for r in x.rules)) or tuple(dict.fromkeys(r for x in q.rulings for r in x.rules))
            out.checks.append((f"gap[{name}]", "violated"))
            out.findings.append(SourceFinding("gap", f"gap:{name}", rules, summary, (), (), transcript(i, summary), question=name))

        for k, r in enumerate(q.rulings):
            if (name, k) in applies_at:
                continue
            places, sources = _texts([r])
            tag = "+".join(r.texts) or "assumed"
            summary = f"{r.id} [{' '.join(r.rules)}] of {tag} ('{r.doc}') applies in no state reached {scope} where '{q.doc}' is asked"
            out.findings.append(
                SourceFinding("dead-ruling", f"dead-ruling:{name}:{r.id}@{tag}", r.rules, summary, places, sources, ruling=(name, k), question=name)
            )

    # Each source read whole, as `verify --reading SOURCE` builds it: a reading
    # under which nobody and no rule can act is a fault of the text or of its
    # encoding, which comparing answers state by state cannot see.
    if build_reading is not None and questions is None:
        for x in book.sources():
            differing_rulings = [r for name in book.declared for r in differing.get((name, x), ())]
            if not differing_rulings:
                continue
            reading = build_reading(x, {})
            searched = vector.explore(reading, max_states)
            within = "within the bounds" if searched.complete else f"within {searched.expanded} levels"
            if not len(searched.dead_ends):
                out.checks.append((f"no_deadlock[reading {x}]", f"no state reached {within} deadlocks"))
                continue
            start, path = searched.path_to(int(searched.dead_ends[0]))
            where = reading.location_names[path[-1][1].location if path else start.location]
            summary = f"read by {x}, the rules leave nobody able to act at {where}, and the game is not over"
            places, sources = _texts(differing_rulings)
            rules = tuple(dict.fromkeys(rule for r in differing_rulings for rule in r.rules))
            out.checks.append((f"no_deadlock[reading {x}]", "violated"))
            out.findings.append(SourceFinding(
                "deadlock", f"deadlock:{where}@{x}", rules, summary, places, sources,
                Transcript.from_path(reading, start, path, summary), reading=x,
            ))
    return out
