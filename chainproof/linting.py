"""``chainproof lint``: where a rulebook's model contradicts itself.

For each game, at its default bounds (or those given):

- **deadlock**: a reachable state, not game over, where nobody and no rule can act;
- **conflict**: a reachable state where two live rulings answer one question
  differently and no precedence rule decides (``model/rulings.py``); the rules
  are named by a Z3 unsat core;
- **dead-edge** / **dead-rule**: an edge never enabled in a game of any length
  (proved on the any-length model, after explicit search of the bounded
  instance never took it), and a rule cited only by such edges;
- **variant**: each shipped rule variant against the seed's reading, with the
  shortest game on which they part (``checkers/diff.py``);
- **no-assignment** / **exclusion**: a game's queries over one rule alone
  (``Game.rule_queries``; Riftbound's damage assignment): a configuration
  with no legal assignment, and requirements that exclude each other;
- the sources compared on every question (``chainproof/source_lint.py``),
  and on setup questions (``model/setup.py``: deck building, the opening
  hand, the mulligan) over every setup of their domains (``lint_setup``);
- the texts read as texts, with no question declared
  (``chainproof/text_lint.py``): **dangling-reference**,
  **misdirected-reference**, **translation-clash**, **version-clash**,
  **basic-clash**.

Deadlocks and conflicts are checked by the same portfolio as ``verify``, so
their absence is proved for games of any length where the solvers manage it.
A finding is *known* when a known-findings file lists its key
(``model/<game>/known_findings.yaml`` by default); lint fails on the others.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Mapping, Sequence

import numpy as np
import z3

from chainproof import source_lint, text_lint
from chainproof.games import BadInput, Game, NearbyBoard
from model import limits
from checkers import induction, portfolio, vector
from model.backend import CONCRETE, SYMBOLIC
from scenarios.tables import ExportError, ScenarioTable, scenario_table, table_export, write_table_scenario
from checkers.diff import Comparison, compare
from model.machine import GAME_OVER, Machine
from model.registry import read_yaml
from model.rulings import Question, RuleBook, Ruling
from model.setup import answer_places, applies, deciding, is_setup, setup_questions
from checkers.results import PROVED, VIOLATED, Result, Transcript
from model.sources import GAME_SOURCES
from model.variants import SEED, Variant
from properties import Deadlock
from properties.contradictions import AGREE, NEVER, never_applies, never_enabled, no_deadlock, rulings_agree

KINDS = (
    "deadlock", "unending", "conflict", *source_lint.KINDS, "no-assignment", "exclusion", "loop", "dead-edge", "dead-rule", "variant",
    *text_lint.KINDS,
)


@dataclass
class Finding:
    game: str
    kind: str
    #: What identifies the finding in a known-findings file, stable across runs.
    key: str
    rules: tuple[str, ...]
    summary: str
    transcript: Transcript | None = None
    #: For a variant: the game as the variant plays it (``transcript`` is the seed's).
    other: Transcript | None = None
    known: bool = False
    #: The known-findings file's note on it.
    note: str = ""
    #: Where its game was written as a scenario (``lint --scenarios``), or why it was not.
    scenario: str | None = None
    scenario_note: str = ""
    #: ``file:line`` of each rule text involved, and the sources they are in.
    places: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    #: For a source clash: the game on which play parts, under the model's
    #: reading and under the source's (``reading``), when the bounds hold one.
    parted: tuple[Transcript, Transcript] | None = None
    reading: str | None = None
    #: Found on a board one change from the default (``wake_dead_rulings``): what changed.
    board: str | None = None
    #: For a dead ruling that applies one change away: that board's key, and
    #: ``transcript`` the nearest game there reaching such a state.
    woken_on: str | None = None
    #: For a finding on a setup question: the setup that shows it, in words.
    setup: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "kind": self.kind,
            "key": self.key,
            "rules": list(self.rules),
            "summary": self.summary,
            "transcript": self.transcript.to_json() if self.transcript else None,
            "other_transcript": self.other.to_json() if self.other else None,
            "known": self.known,
            "note": self.note or None,
            "scenario": self.scenario,
            "scenario_note": self.scenario_note or None,
            "places": list(self.places),
            "sources": list(self.sources),
            "reading": self.reading,
            "board": self.board,
            "woken_on": self.woken_on,
            "setup": self.setup,
            "parted": None if self.parted is None else {"model": self.parted[0].to_json(), "reading": self.parted[1].to_json()},
        }


@dataclass
class Check:
    """One query lint asked, and its verdict (kept for the report even when it found nothing)."""

    game: str
    query: str
    verdict: str
    method: str
    depth: int


@dataclass
class Lint:
    findings: list[Finding] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    @property
    def unknown(self) -> list[Finding]:
        return [f for f in self.findings if not f.known]


# -- known findings -------------------------------------------------------------------


class KnownFileError(BadInput):
    """The known-findings file is malformed."""


def default_known_file(game: str) -> Path:
    return Path(__file__).resolve().parent.parent / "model" / game / "known_findings.yaml"


#: What a known-findings file may hold: the known findings, and the text of
#: the game's findings page (``lint --markdown``) around its documented entries.
FILE_KEYS = ("known", "title", "intro", "documented", "not_confirmed")
#: What a documented entry holds; it is shown by findings or says why none shows it.
ENTRY_KEYS = ("id", "section", "title", "shown_by", "not_shown", "note")


@dataclass(frozen=True)
class Documented:
    """A disagreement the team wrote up, as an entry of its game's findings
    page: the lint findings that reproduce it (key prefixes), or why none does."""

    id: str
    section: str
    title: str
    note: str
    shown_by: tuple[str, ...] = ()
    not_shown: str = ""

    def shown_in(self, keys: Sequence[str]) -> list[str]:
        """The keys among ``keys`` that reproduce this entry."""
        return [k for k in keys if k.startswith(self.shown_by)]


@dataclass(frozen=True)
class KnownFile:
    path: Path
    #: Key -> note of each known finding.
    notes: dict[str, str]
    title: str = ""
    intro: str = ""
    documented: tuple[Documented, ...] = ()
    not_confirmed: str = ""
    #: Key -> the bounds, beyond the defaults, at which lint finds it (``bounds:``
    #: of its entry: a finding of a larger table, known there); absent: the defaults.
    bounds: dict[str, dict[str, int]] = field(default_factory=dict)


def load_known(path: Path) -> KnownFile:
    """The file is a mapping: ``known``, a list of ``{key, note}``; and for the
    findings page, optionally ``title``, ``intro`` and ``not_confirmed`` (Markdown)
    and ``documented``, a list of entries (``ENTRY_KEYS``)."""
    data = read_yaml(path, KnownFileError, "known-findings file")
    if not isinstance(data, dict) or not isinstance(data.get("known"), list):
        raise KnownFileError(f"{path}: expected a mapping with a list 'known' of {{key, note}} entries")
    stray = [k for k in data if k not in FILE_KEYS]
    if stray:
        raise KnownFileError(f"{path}: unknown key {stray[0]!r} (a known-findings file holds {', '.join(FILE_KEYS)})")
    known: dict[str, str] = {}
    at: dict[str, dict[str, int]] = {}
    for i, entry in enumerate(data["known"], start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) or not isinstance(entry.get("note"), str):
            raise KnownFileError(f"{path}: entry {i} of 'known' needs a string 'key' and a string 'note', got {entry!r}")
        stray = [k for k in entry if k not in ("key", "note", "bounds")]
        if stray:
            raise KnownFileError(f"{path}: entry {i} of 'known': unknown key {stray[0]!r} (an entry holds key, note and, optionally, bounds)")
        if entry["key"] in known:
            raise KnownFileError(f"{path}: entry {i}: the key {entry['key']!r} is listed twice")
        if "bounds" in entry:
            given = entry["bounds"]
            if not isinstance(given, dict) or not given or not all(isinstance(k, str) and type(v) is int for k, v in given.items()):
                raise KnownFileError(f"{path}: entry {i}: 'bounds' must map bound names to whole numbers, got {given!r}")
            at[entry["key"]] = dict(given)
        known[entry["key"]] = entry["note"]
    for k in ("title", "intro", "not_confirmed"):
        if not isinstance(data.get(k, ""), str):
            raise KnownFileError(f"{path}: {k!r} must be text, got {data[k]!r}")
    items = data.get("documented", [])
    if not isinstance(items, list):
        raise KnownFileError(f"{path}: 'documented' must be a list of entries, got {items!r}")
    documented: list[Documented] = []
    for i, item in enumerate(items, start=1):
        entry = _documented(path, i, item)
        if any(d.id == entry.id for d in documented):
            raise KnownFileError(f"{path}: documented item {i} ({entry.id}): the id {entry.id!r} is listed twice")
        documented.append(entry)
    return KnownFile(
        path, known, data.get("title", ""), data.get("intro", ""), tuple(documented), data.get("not_confirmed", ""), at
    )


def _documented(path: Path, i: int, item: Any) -> Documented:
    if not isinstance(item, dict):
        raise KnownFileError(f"{path}: documented item {i} must be a mapping of {', '.join(ENTRY_KEYS)}, got {item!r}")
    where = f"{path}: documented item {i}" + (f" ({item['id']})" if isinstance(item.get("id"), str) else "")
    stray = [k for k in item if k not in ENTRY_KEYS]
    if stray:
        raise KnownFileError(f"{where}: unknown key {stray[0]!r} (an entry holds {', '.join(ENTRY_KEYS)})")
    for k in ("id", "section", "title", "note"):
        if not isinstance(item.get(k), str) or not item[k].strip():
            raise KnownFileError(f"{where} needs a string {k!r}")
    if ("shown_by" in item) == ("not_shown" in item):
        raise KnownFileError(
            f"{where} needs either 'shown_by' (the findings' key prefixes) or 'not_shown' (why no finding shows it)"
            + (", not both" if "shown_by" in item else "")
        )
    if "not_shown" in item:
        if not isinstance(item["not_shown"], str) or not item["not_shown"].strip():
            raise KnownFileError(f"{where}: 'not_shown' must say why no finding shows it")
        return Documented(item["id"], item["section"], item["title"], item["note"], not_shown=item["not_shown"])
    prefixes = item["shown_by"]
    if not isinstance(prefixes, list) or not prefixes or not all(isinstance(p, str) for p in prefixes):
        raise KnownFileError(f"{where}: 'shown_by' must be a list of finding key prefixes, got {prefixes!r}")
    for p in prefixes:
        # A key starts with its kind ("variant:602.3b-english"), so a prefix must too.
        kind, colon, _ = p.partition(":")
        if not colon or kind not in KINDS:
            raise KnownFileError(f"{where}: shown_by {p!r} is no finding key's prefix (a key starts with its kind and ':', one of {', '.join(KINDS)})")
    return Documented(item["id"], item["section"], item["title"], item["note"], shown_by=tuple(prefixes))


# -- the queries ----------------------------------------------------------------------------


def lint_game(game: Game, bounds: Mapping[str, int | None], budget: portfolio.Budget, advance: Any, any_length: Machine | None) -> Lint:
    """Deadlocks, conflicts and dead rules of the seed's reading; ``any_length``
    is ``game.any_length_machine(bounds)`` where the game proves for games of any length."""
    out = Lint()
    bounded = game.machine(bounds)
    # The portfolio's exhaustive search of the any-length model and the
    # unending query read one search of it, made here before the workers fork.
    searched = vector.explore(any_length, game.exhaustive_states) if any_length is not None else None
    deadlock_rules = next((p.rules for p in game.properties if isinstance(p, Deadlock)), ("409.1",))
    taken = _contradictions(game, bounded, any_length, [no_deadlock(deadlock_rules)], budget, advance, out, searched)
    out.findings += _dead(game, bounded, any_length, taken, budget, out.checks)
    # A game whose model has no length bound (HotA's) is searched whole as it is.
    whole = any_length if any_length is not None else None if game.length_bounds else bounded
    out.findings += unending(game, whole, out.checks, searched)
    for q in game.rule_queries(budget.timeout_ms) if game.rule_queries else ():
        out.checks.append(Check(game.name, q.query, q.verdict, q.method, 0))
        out.findings += [Finding(game.name, q.kind, f"{q.kind}:{c.key}", c.rules, c.summary) for c in q.found]
    return out


def _contradictions(
    game: Game,
    bounded: Machine,
    any_length: Machine | None,
    queries: list[Any],
    budget: portfolio.Budget,
    advance: Any,
    out: Lint,
    searched: vector.VectorExploration | None = None,
) -> frozenset[str] | None:
    """Run the queries and one agreement query per question of the rule book;
    return the edges the bounded search took.  ``searched``: ``any_length``'s
    search to the game's exhaustive-search cap, where the caller has it."""
    if bounded.rulings is not None:
        # A setup question is asked of no state: ``lint_setup`` checks its agreement over its setups.
        queries = queries + [rulings_agree(bounded.rulings, q) for q in bounded.rulings.questions.values() if not is_setup(q)]
    # The lemmas ride along so that k-induction can lean on them; only the queries are reported.
    run = portfolio.verify(bounded, any_length, [*queries, *game.lemmas], game.budget(budget), advance, searched)
    reading = f" under {bounded.variant}" if bounded.variant else ""
    for r in run.results[: len(queries)]:
        out.checks.append(Check(game.name, r.property + reading, r.verdict, r.method, r.depth))
        if r.verdict != VIOLATED:
            continue
        if r.property == "no_deadlock":
            out.findings.append(_deadlock(game, r))
        else:
            out.findings += _conflicts(game, bounded, r)
    return run.edges_taken


def unending(
    game: Game, whole: Machine | None, checks: list[Check], searched: vector.VectorExploration | None = None
) -> list[Finding]:
    """A reachable state from which no continuation ends the game, in a win
    or a draw: play may go on, but nobody can ever win (a stalemate the rules
    leave open, such as every unit gone and no battlefield held).  Decided on
    ``whole``, a model in which no exploration bound ends a game (the
    any-length one, or a game's only one where it has no length bound), when
    its state graph fits the game's exhaustive-search budget: the states
    that can reach a game-over location, found backwards over the
    transition arrays, against all the others.  The first such state in
    breadth-first order is reached by a shortest game, which the finding shows.
    ``searched``: that search of ``whole``, where the caller has it."""
    query = "every_game_can_still_end"
    if whole is None:
        return []
    exploration = searched if searched is not None else vector.explore(whole, game.exhaustive_states)
    if not exploration.complete:
        checks.append(Check(game.name, query, f"not searched: games of any length reach more than {game.exhaustive_states:,} states",
                            "vectorized search", exploration.levels))
        return []
    over = [whole.location_index[name] for name, loc in whole.locations.items() if loc.terminal == GAME_OVER]
    can_end = np.isin(exploration.locations(), over)
    pre, post = exploration.step_pre, exploration.step_post
    while True:
        grows = can_end[post] & ~can_end[pre]
        if not grows.any():
            break
        can_end[pre[grows]] = True
    never = np.flatnonzero(~can_end)
    if not never.size:
        checks.append(Check(game.name, query, f"holds: from each of the {exploration.states:,} states of games of any length, a game can still end",
                            "vectorized search", exploration.levels))
        return []
    checks.append(Check(game.name, query, "violated", "vectorized search", exploration.levels))
    start, path = exploration.path_to(int(never[0]))
    where = whole.location_of(path[-1][1] if path else start)
    rules = tuple(dict.fromkeys(r for name, loc in whole.locations.items() if loc.terminal == GAME_OVER for r in loc.rules))
    summary = (f"from this state at {where} no continuation ends the game ({never.size:,} of the {exploration.states:,} states"
               " of games of any length): play goes on, and nobody can ever win")
    return [Finding(game.name, "unending", f"unending:{where}", rules, summary, Transcript.from_path(whole, start, path, summary))]


def _deadlock(game: Game, r: Result) -> Finding:
    t = r.counterexample
    assert t is not None
    where = t.final.get("location", "?")
    return Finding(game.name, "deadlock", f"deadlock:{where}", r.rules, f"nobody and no rule can act at {where}, and the game is not over", t)


def _conflicts(game: Game, machine: Machine, r: Result) -> list[Finding]:
    t = r.counterexample
    assert t is not None and machine.rulings is not None
    question = r.property.removeprefix(f"{AGREE}[").removesuffix("]")
    final = t.replay(machine)[-1]
    out = []
    for clash in machine.rulings.clash_in(final):
        if clash.question != question:
            continue
        q = machine.rulings.questions[question]
        said = "; ".join(
            f"{x.id} [{' '.join(x.rules)}] says {'yes' if x.says else 'no'} ({x.doc})" for x in clash.yes + clash.no if x.id in clash.core
        )
        reading = f"under {machine.variant}, " if machine.variant else ""
        summary = f"{reading}'{q.doc}' for {q.show(*clash.arguments)}: {said}; no precedence rule decides between them"
        key = f"conflict:{question}:{'+'.join(sorted(clash.core))}" + (f"@{machine.variant}" if machine.variant else "")
        out.append(Finding(game.name, "conflict", key, clash.rules, summary, t))
    return out


def _dead(
    game: Game,
    bounded: Machine,
    any_length: Machine | None,
    taken: frozenset[str] | None,
    budget: portfolio.Budget,
    checks: list[Check],
) -> list[Finding]:
    """Edges explicit search of the bounded instance never took, and of those
    the ones k-induction proves never enabled in a game of any length (the
    others are enabled in some longer game, or nothing decides)."""
    if taken is None:
        checks.append(Check(game.name, NEVER, "unknown", "the bounded search did not finish", 0))
        return []
    # A game with no length bound (HotA) has one model for both.
    unbounded = any_length if any_length is not None else bounded
    # An exploration bound is no rule, and an edge tagged "reading" is there
    # for a source's reading only: the model's reading never enables it by design.
    candidates = [
        e for e in bounded.edges
        if e.name not in taken and not e.has("bound") and not e.has("reading") and e.name in unbounded.edge_index
    ]
    if not candidates:
        return []
    # Reading: k=1.  An edge the rules make dead contradicts some invariant of
    # the game, which short induction finds (the multiplayer edges at two
    # players are 0-inductive); one that only the bounds kept unused is enabled
    # in a longer game and never proved dead, however long the induction.
    # An edge dead for a deeper reason is reported as unused within the bounds.
    results = induction.check_all(unbounded, [never_enabled(e) for e in candidates], 1, budget.timeout_ms)
    out = []
    dead: list[str] = []
    for e, r in zip(candidates, results):
        if r.verdict == PROVED:
            verdict = r.verdict
        elif any_length is not None:
            verdict = f"not enabled within the bounds; {r.verdict} on the any-length model"
        else:  # a game without a length bound: its one model was searched whole
            verdict = "not enabled in any game at these bounds; induction does not prove it dead"
        checks.append(Check(game.name, r.property, verdict, r.method, r.depth))
        if r.verdict == PROVED:
            dead.append(e.name)
            out.append(
                Finding(
                    game.name,
                    "dead-edge",
                    f"dead-edge:{e.name}",
                    e.rules,
                    f"{e.name} ({e.doc}) is never enabled in a game of any length at these bounds",
                )
            )
    live = (
        {r for e in bounded.edges if e.name not in dead for r in e.rules}
        | {r for loc in bounded.locations.values() for r in loc.rules}
        | {r for p in game.properties for r in p.rules}
        | (bounded.rulings.cited_rules() if bounded.rulings else set())
    )
    for rule in sorted({r for name in dead for r in bounded.edge(name).rules} - live):
        out.append(
            Finding(
                game.name,
                "dead-rule",
                f"dead-rule:{rule}",
                (rule,),
                f"rule {rule} is cited only by edges that are never enabled ({', '.join(n for n in dead if rule in bounded.edge(n).rules)})",
            )
        )
    return out


# -- rules diff ----------------------------------------------------------------------------------


def is_source_reading(game: Game, name: str) -> bool:
    """Does ``name`` name a source reading (``001``, ``002zh@bound_to_attack``) rather than a variant?"""
    return name not in game.variants and name.partition("@")[0] in GAME_SOURCES.get(game.name, ())


def source_reading_rules(machine: Machine, spec: str) -> list[str]:
    """The rule numbers of the rulings that the source of ``spec``
    (``002zh@may_be_proposed``, or ``001`` for every question) states, on the
    questions it is read first on."""
    assert machine.rulings is not None
    source, _, asked = spec.partition("@")
    chosen = asked.split(",") if asked else list(machine.rulings.declared)
    out: list[str] = []
    for q in chosen:
        for r in machine.rulings.declared[q].rulings:
            if source in r.texts:
                out += [rule for rule in r.rules if rule not in out]
    return out


def _readings(game: Game, first: str, second: str) -> list[Variant | None]:
    """The two readings to compare: None for the seed's or a source reading, else the variant."""
    readings = [None if name == SEED or is_source_reading(game, name) else game.variant(name) for name in (first, second)]
    if first == second:
        raise BadInput(f"diff: {first!r} against itself has nothing to show; name two different readings")
    return readings


def diff_variants(game: Game, first: str, second: str, bounds: Mapping[str, int | None], max_pairs: int) -> Comparison:
    """The two readings (``seed`` or a variant's name) compared on one table:
    the board and bounds either variant needs, the bounds given first."""
    readings = _readings(game, first, second)
    boards = {v.board for v in readings if v is not None and v.board is not None}
    if len(boards) > 1:
        raise BadInput(f"diff: {first} and {second} need different boards; compare each with {SEED} instead")
    wanted: dict[str, int | None] = {}
    for v in readings:
        if v is None:
            continue
        for k, value in v.bounds.items():
            if k in wanted and wanted[k] != value:
                raise BadInput(f"diff: {first} and {second} need different --{k}; give it yourself")
            wanted[k] = value
    wanted.update({k: v for k, v in bounds.items() if v is not None})
    resolved = game.resolve(wanted)
    extra = {"board": next(iter(boards))(resolved)} if boards else {}
    machines = [
        game.machine(resolved, reading=name, **extra) if is_source_reading(game, name)
        else game.machine(resolved, None if name == SEED else name, **extra)
        for name in (first, second)
    ]
    return compare(machines[0], machines[1], (first, second), max_pairs)


#: The most pairs of states a search on the engine's table compares.
TABLE_PAIRS = 100_000


@dataclass
class Written:
    """A game written out as a scenario: a divergence searched on the game's
    engine table, or a finding's own game on its table (``finding_scenario``)."""

    comparison: Comparison | None  # None when no search ran on the table
    yaml: str | None  # the scenario file, or None
    why_not: str = ""  # why none was written


def divergence_scenario(
    game: Game, first: str, second: str, max_pairs: int, table: ScenarioTable | None = None, finding: Finding | None = None
) -> Written:
    """The shortest game on which the two readings part on the engine's own
    table (every character a card of the reference engine; ``table``, else
    the game's fixed one), as a scenario; for a lint ``finding``, its
    header names the finding and its texts' places.

    The engine plays the seed's reading, so the scenario is the seed's game,
    the step where they part included when the seed allows it; between two
    variants, the game up to that step.  Its ``expect`` is the model's state
    at the end, which the engine must reach too.  A game whose model tables
    are engine tables (Riftbound, HotA) is searched on its default table, and
    its game replayed as it is (``scenarios/tables.py``)."""
    export = table_export(game.name) if table is None else None
    table = table or scenario_table(game.name)
    if table is None and export is None:
        raise BadInput(f"{game.name} has no reference engine to write scenarios for")
    readings = _readings(game, first, second)
    needs = [name for name, v in zip((first, second), readings) if v is not None and v.board is not None]
    if needs:
        return Written(None, None, f"{needs[0]} needs a board of its own, and the engine's table is fixed")
    if export is not None:
        resolved = game.resolve({})
        machines = [
            game.machine(resolved, reading=name) if is_source_reading(game, name)
            else game.machine(resolved, None if name == SEED else name)
            for name in (first, second)
        ]
    else:
        assert table is not None
        machines = [
            table.machine() if name == SEED
            else table.machine(reading=name) if is_source_reading(game, name)
            else table.machine(variant=name)
            for name in (first, second)
        ]
    # The engine's table deals full hands, so its games branch far more than
    # the model's board; a reading its cards never exercise would otherwise
    # be searched for minutes before the answer "they agree".
    comparison = compare(machines[0], machines[1], (first, second), min(max_pairs, TABLE_PAIRS))
    d = comparison.divergence
    if d is None:
        return Written(comparison, None, f"no game on the engine's table tells them apart ({comparison.verdict})")
    seed_side = d.first if first == SEED else d.second if second == SEED else None
    steps = [s.edge for s in (seed_side or d.first).steps]
    if seed_side is None or not steps or steps[-1] != d.action:
        steps = steps[: d.length - 1]
    if not steps:
        return Written(comparison, None, f"they part at the table's first choice ({d.first.violation}): no step of the seed's to replay")
    v = readings[1] or readings[0]
    if v is not None:
        rules, about, where = v.rules, v.reading, f" ({v.finding} in docs/findings-{game.name}.md)"
    else:
        name = second if is_source_reading(game, second) else first
        reader = machines[(first, second).index(name)]
        rules, about, where = source_reading_rules(reader, name), f"The rules read {reader.rulings.reading.why}", ""
    seed_machine = machines[0] if first == SEED or second != SEED else machines[1]
    write = table.scenario if table is not None else (
        lambda transcript, **meta: write_table_scenario(export, seed_machine, transcript, **meta))
    try:
        text = write(
            steps,
            name=f"{first} against {second}: where they part" + (f" (lint finding {finding.key})" if finding else ""),
            # WoW's scenarios cite the texts' rules; the per-table games' own assumptions are rule ids too.
            rules=[r for r in rules if table is None or not r.startswith(("basic:", "assumed:", "abstracted:"))],
            source=f"own: chainproof diff {game.name} {first} {second}{where}" if finding is None
            else f"own: chainproof lint --game {game.name}, finding {finding.key}" + (f"; texts: {', '.join(finding.places)}" if finding.places else ""),
            summary=f"{about}. The two readings part at step {d.length}: {d.first.violation}. "
            + ("The engine plays the seed's reading." if seed_side is not None else "This is the game up to that step."),
        )
    except ExportError as exc:
        return Written(comparison, None, f"the engine cannot replay it: {exc}")
    return Written(comparison, text)


#: The kinds of finding whose witness is a game of the model: the game to the
#: state where the texts part, clash or are silent.
GAME_KINDS = ("source-clash", "self-clash", "gap")


def found_on(game: Game, f: Finding, bounds: Mapping[str, int | None]) -> tuple[dict[str, int], Mapping[str, Any]]:
    """The bounds and the builder's options of the table a finding was found
    on: the board or bounds one change away its key names (``@P2+Rewind-Portal``),
    or the default."""
    settings = {**game.resolve(bounds), **{k: v for k, v in bounds.items() if v is not None}}
    if f.board is None and f.woken_on is None:
        return settings, {}
    where = f.woken_on or f.key.rpartition("@")[2]
    board = next((b for b in game.nearby_boards(settings) if b.key == where), None) if game.nearby_boards else None
    if board is not None:
        return settings, board.extra
    further = next((b for b in game.nearby_bounds(settings) if b.key == where), None) if game.nearby_bounds else None
    if further is not None:
        return {**settings, **further.bounds}, {}
    raise BadInput(f"{f.key}: no board or bounds one change away is keyed {where!r}")


def finding_machine(game: Game, f: Finding, bounds: Mapping[str, int | None]) -> Machine:
    """The model a finding's game was found on (``found_on``), and for a
    source clash whose play parts, at the bounds its question asks for."""
    settings, extra = found_on(game, f, bounds)
    if f.kind == "source-clash" and f.parted is not None:
        question = f.key.split(":")[1]
        asked = game.machine(settings, **extra).rulings
        assert asked is not None
        settings = {**settings, **asked.declared[question].bounds}
    return game.machine(settings, **extra)


def finding_scenario(game: Game, f: Finding, bounds: Mapping[str, int | None]) -> Written:
    """A finding's own game, on the table it was found on, as a scenario, for
    a game whose model tables the engine sets up as they are (Riftbound,
    HotA: ``scenarios/tables.py``): for a source clash the game the model's
    reading plays, up to and including the step where the readings part
    when the model's reading takes it; for a self-clash or a gap the game to
    the state where the rulings clash or are silent.  Its ``expect`` is the
    model's state at the end (the engine's, which the replay checks is the
    model's), and its header names the finding and the texts' places."""
    export = table_export(game.name)
    if export is None:
        raise BadInput(f"{game.name}'s model tables are not engine tables")
    woken = f.kind == "dead-ruling" and f.woken_on is not None
    if f.kind not in GAME_KINDS and not woken:
        return Written(None, None, "no game reaches it" if f.kind.startswith("dead-") else f"its witness is not a game ({f.kind}): nothing to replay")
    witness = f.parted[0] if f.kind == "source-clash" and f.parted is not None else f.transcript
    if witness is None:
        return Written(None, None, "no game reaches it")
    rules = [r for r in f.rules if not r.startswith(("basic:", "abstracted:"))]
    said = {"source-clash": "the model's reading plays this game, up to the step where the readings part",
            "self-clash": "this game reaches a state where the rulings of one text clash",
            "gap": "this game reaches a state where no text answers",
            "dead-ruling": "no game of the default table reaches it; this game, on the table one change away, reaches a state where it applies"}[f.kind]
    try:
        text = write_table_scenario(
            export, finding_machine(game, f, bounds), [s.edge for s in witness.steps],
            name=f"lint finding {f.key}",
            rules=rules,
            source=f"own: chainproof lint --game {game.name}, finding {f.key}" + (f"; texts: {', '.join(f.places)}" if f.places else ""),
            summary=f"{f.summary}. {said[0].upper()}{said[1:]}; the engine plays the model's reading.",
        )
    except ExportError as exc:
        return Written(None, None, f"the engine cannot replay it: {exc}")
    return Written(None, text)


def lint_variants(
    game: Game, bounds: Mapping[str, int | None], budget: portfolio.Budget, max_pairs: int, advance: Any, out: Lint
) -> None:
    """Each variant against the seed, but those that alias a source reading on the default board;
    a variant that removes rulings or precedence principles may leave rules
    clashing, so its conflicts are checked as well (a patch of edges changes
    no ruling)."""
    for name, v in game.variants.items():
        if v.source_reading is not None and v.board is None:
            # An alias of a source reading: lint_readings compares it, as every
            # source's, on the default board; one that brings its own board is
            # compared here, on that board.
            continue
        comparison = diff_variants(game, SEED, name, bounds, max_pairs)
        d = comparison.divergence
        out.checks.append(
            Check(game.name, f"diff[{SEED} {name}]", comparison.verdict, "lockstep search", d.length if d else comparison.depth)
        )
        if d is not None:
            summary = f"{v.reading} ({v.finding} in docs/findings-{game.name}.md); after {d.length} steps: {d.first.violation}"
            out.findings.append(Finding(game.name, "variant", f"variant:{name}", v.rules, summary, d.first, d.second))
        if v.without:
            bounded = game.machine(bounds, name)
            any_length = game.any_length_machine(bounds, name) if game.proves_any_length else None
            _contradictions(game, bounded, any_length, [], budget, advance, out)


def lint_texts(game: str, out: Lint) -> None:
    """The texts read as texts (``chainproof/text_lint.py``): citations of
    rules that are not there, a text's two languages that part, and two
    versions of a rulebook that part."""
    found, checks = text_lint.lint_texts(game)
    out.checks += [Check(game, query, verdict, "text scan", 0) for query, verdict in checks]
    out.findings += [Finding(game, f.kind, f.key, f.rules, f.summary, places=f.places, sources=f.sources) for f in found]


def lint_readings(
    game: Game, bounds: Mapping[str, int | None], budget: portfolio.Budget, max_pairs: int, out: Lint, any_length: Machine | None = None
) -> None:
    """Every question asked of every source (``chainproof/source_lint.py``);
    a ruling that applies nowhere within the bounds is then tried on the
    any-length model (``any_length``, where the caller has built it), where
    k-induction may prove it dead in every game."""
    resolved = game.resolve(bounds)
    user = {k: v for k, v in bounds.items() if v is not None}

    def build_reading(spec: str | None, shows_with: Mapping[str, int]) -> Machine:
        return game.machine({**resolved, **shows_with, **user}, reading=spec)

    bounded = game.machine(bounds)
    found = source_lint.lint_sources(bounded, build_reading, max_pairs, max_pairs)
    for query, verdict in found.checks:
        method = "lockstep search" if query.startswith("diff[") else "vectorized search" if query.startswith("no_deadlock[") else "explicit"
        out.checks.append(Check(game.name, query, verdict, method, 0))
    dead = [f for f in found.findings if f.ruling is not None]
    if dead and found.complete:
        # A game without a length bound (HotA) was searched whole: its one model is the any-length one.
        if not game.proves_any_length:
            unbounded = bounded
        else:
            unbounded = any_length if any_length is not None else game.any_length_machine(bounds)
        queries = [never_applies(*f.ruling, f.rules) for f in dead if f.ruling is not None]
        for f, r in zip(dead, induction.check_all(unbounded, queries, 1, budget.timeout_ms)):
            if r.verdict == PROVED:
                f.summary += "; k-induction proves it never applies in a game of any length at these bounds"
            elif game.proves_any_length:
                f.summary += f"; k-induction does not prove it dead in longer games ({r.verdict})"
            else:
                f.summary += "; no game at these bounds reaches it (induction does not prove it)"
            out.checks.append(Check(game.name, r.property, r.verdict, r.method, r.depth))
    boards = Boards(game, {**resolved, **user}, max_pairs, budget.timeout_ms)
    woken = wake_dead_rulings(game, {**resolved, **user}, bounded, dead, budget, out.checks, boards) if dead else []
    seen = {f.key for f in [*found.findings, *woken]}
    woken += wake_quiet_clashes(game, {**resolved, **user}, bounded, found.quiet, seen, budget, max_pairs, out.checks, boards)
    for f in [*found.findings, *woken]:
        t = f.transcript if f.transcript is not None else (f.parted[0] if f.parted else None)
        out.findings.append(
            Finding(
                game.name, f.kind, f.key, f.rules, f.summary, t,
                places=f.places, sources=f.sources, parted=f.parted, reading=f.reading, board=f.board, woken_on=f.woken_on,
            )
        )
    lint_setup(game.name, bounded.rulings, out)


# -- setup questions -----------------------------------------------------------------------


def _rules_of(rulings: Sequence[Ruling]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(rule for r in rulings for rule in r.rules))


def _sources_of(rulings: Sequence[Ruling]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(src for r in rulings for src in r.texts))


def _first(q: Question, holds: Any) -> tuple[tuple[Any, ...] | None, int]:
    """The first setup of ``q``'s domain where ``holds(args)``, and how many setups it holds for."""
    hits = [args for args in q.arguments if holds(args)]
    return (hits[0] if hits else None), len(hits)


def _clashing(book: RuleBook, q: Question, args: tuple[Any, ...]) -> tuple[Ruling, ...]:
    """The rulings of ``book`` that clash on ``q`` for the setup ``args``: for
    a yes-or-no question those of a Z3 unsat core (``RuleBook.explain``), for
    one answered by numbers every live ruling that answers."""
    if not book.questions[q.name].valued:
        clash = book.explain(q.name, None, *args)
        return tuple(r for r in clash.yes + clash.no if r.id in clash.core)
    return tuple(r for r in book.live_concrete(q.name, None, args) if r.says is not None)


def lint_setup(game: str, book: RuleBook | None, out: Lint) -> None:
    """The setup questions of ``book`` (``model/setup.py``), each asked of
    every setup of its domain, with no code per finding:

    - the model's reading must answer each setup with no clash (the
      ``rulings_agree`` check; a clash is a *conflict*);
    - *source-clash*: a source's reading (``RuleBook.under``) answers some
      setup otherwise than the model's; the first such setup is the witness,
      with the texts that give each answer;
    - *self-clash*: the rulings of one source alone answer a setup two ways;
    - *gap*: a setup that no text answers;
    - *dead-ruling*: a ruling that applies to no setup of the domain.

    The whole domain is checked, so a question with none of these has none
    for any setup its domain names."""
    questions = setup_questions(book)
    if not questions:
        return
    assert book is not None
    readings: dict[str, RuleBook] = {}
    alone: dict[str, RuleBook] = {}
    for q in questions:
        name, n = q.name, len(q.arguments)
        method = f"every setup of its domain ({n})"

        def answer(b: RuleBook, args: tuple[Any, ...], name: str = name) -> Any:
            return b.fixed(name, *args)

        clash, _ = _first(q, lambda args: book.clashes(name, None, CONCRETE, *args))
        out.checks.append(Check(game, f"{AGREE}[{name}]", PROVED if clash is None else VIOLATED, method, 0))
        if clash is not None:
            core = _clashing(book, q, clash)
            said = "; ".join(f"{r.id} [{' '.join(r.rules)}] says {q.show_answer(r.value(None, CONCRETE, *clash))} ({r.doc})" for r in core)
            out.findings.append(Finding(
                game, "conflict", f"conflict:{name}:{'+'.join(sorted(dict.fromkeys(r.id for r in core)))}", _rules_of(core),
                f"'{q.doc}' for {q.show(*clash)}: {said}; no precedence rule decides between them",
                places=tuple(dict.fromkeys(p for r in core for p in r.places())), sources=_sources_of(core), setup=q.show(*clash),
            ))
        for x in q.sources:
            theirs = readings.setdefault(x, book.under(x))
            hit, count = _first(q, lambda args: answer(theirs, args) != answer(book, args))
            query = f"source_clash[{name}: {x}]"
            if hit is None:
                out.checks.append(Check(game, query, f"the answers agree on {method}", "setup domain", 0))
                continue
            out.checks.append(Check(game, query, VIOLATED, "setup domain", 0))
            decide = (*deciding(theirs, name, hit), *deciding(book, name, hit))
            places = tuple(dict.fromkeys((*answer_places(theirs, name, hit), *answer_places(book, name, hit))))
            summary = (
                f"'{q.doc}' for {q.show(*hit)}: {x} answers {q.show_answer(answer(theirs, hit))} where the model's reading answers "
                f"{q.show_answer(answer(book, hit))}; they differ on {count} of the {n} setups of the domain"
            )
            out.findings.append(Finding(
                game, "source-clash", f"source-clash:{name}:{x}", _rules_of(decide), summary,
                places=places, sources=_sources_of(decide), reading=f"{x}@{name}", setup=q.show(*hit),
            ))
        for x in q.sources:
            own = alone.setdefault(x, book.only(x))
            hit, count = _first(q, lambda args: own.clashes(name, None, CONCRETE, *args))
            if hit is None:
                continue
            core = _clashing(own, q, hit)
            said = "; ".join(f"{r.id} [{' '.join(r.rules)}] says {q.show_answer(r.value(None, CONCRETE, *hit))} ({r.doc})" for r in core)
            out.checks.append(Check(game, f"self_clash[{name}: {x}]", VIOLATED, "setup domain", 0))
            out.findings.append(Finding(
                game, "self-clash", f"self-clash:{name}:{x}:{'+'.join(sorted(dict.fromkeys(r.id for r in core)))}", _rules_of(core),
                f"{x} alone, '{q.doc}' for {q.show(*hit)}: {said}; nothing in {x} decides between them ({count} of the {n} setups)",
                places=tuple(dict.fromkeys(p for r in core for p in r.places())), sources=(x,), setup=q.show(*hit),
            ))
        hit, count = _first(q, lambda args: not book.speaks(name, None, CONCRETE, *args))
        if hit is None:
            out.checks.append(Check(game, f"gap[{name}]", f"some text answers {method}", "setup domain", 0))
        else:
            live = [r for r in book.live_concrete(name, None, hit) if r.says is not None]
            how = f"the assumption {live[0].id} [{' '.join(live[0].rules)}]" if live else "the model's unsourced default"
            out.checks.append(Check(game, f"gap[{name}]", VIOLATED, "setup domain", 0))
            out.findings.append(Finding(
                game, "gap", f"gap:{name}", _rules_of(live) or _rules_of(q.rulings),
                f"no text answers '{q.doc}' for {q.show(*hit)} ({count} of the {n} setups); the model answers "
                f"{q.show_answer(answer(book, hit))} by {how}",
                setup=q.show(*hit),
            ))
        for r in q.rulings:
            if any(applies(r, args) for args in q.arguments):
                continue
            tag = "+".join(r.texts) or "assumed"
            out.findings.append(Finding(
                game, "dead-ruling", f"dead-ruling:{name}:{r.id}@{tag}", r.rules,
                f"{r.id} [{' '.join(r.rules)}] of {tag} ('{r.doc}') applies to no setup of the domain of '{q.doc}' ({n} setups)",
                places=r.places(), sources=tuple(r.texts),
            ))


#: Nearby boards searched whole for one dead ruling, at most: each search is
#: as long as the default board's.
WAKE_SEARCHES = 3


def board_rules_out(machine: Machine, question: str, k: int, timeout_ms: int) -> bool | None:
    """Does the board alone keep ruling ``k`` of ``question`` from applying:
    in no state of the declared domains, at a location where the question is
    asked, does it apply for any of its arguments?  None: the solver could not say."""
    assert machine.rulings is not None
    q = machine.rulings.declared[question]
    r = q.rulings[k]
    s, domain = _anywhere(machine)
    solver = limits.limit(z3.Solver(), timeout_ms)
    solver.add(domain, machine.at(s, *q.asked_at, b=SYMBOLIC))
    solver.add(z3.Or(*(_term(r.applies(s, SYMBOLIC, *args)) for args in q.arguments), z3.BoolVal(False)))
    answer = solver.check()
    return True if answer == z3.unsat else False if answer == z3.sat else None


def _term(x: Any) -> Any:
    # A ruling that reads only the board answers with a plain bool.
    return x if z3.is_expr(x) else z3.BoolVal(bool(x))


#: A board is first searched to this share of the states allowed: where
#: that shorter search already settles every finding its questions could have
#: (``Boards.lint_sources``), the whole search would find the very same ones.
FIRST_SEARCH_SHARE = 128


class Boards:
    """The game's boards one change away as lint builds and searches them for
    one game, each once: a board a dead ruling is woken on is often one a
    quiet clash is looked for on too, and several clashes may ask one board.

    A board's search is first a short one (``FIRST_SEARCH_SHARE``), carried
    to ``max_states`` only where it leaves some finding of the questions
    asked unsettled: states are numbered breadth first, so a search stopped
    early numbers its states as the whole one does, and every clash, gap or
    applying ruling it meets is the one the whole search would report first."""

    def __init__(self, game: Game, settings: Mapping[str, int], max_states: int, timeout_ms: int) -> None:
        self.game, self.settings, self.max_states, self.timeout_ms = game, settings, max_states, timeout_ms
        self._machines: dict[str, Machine] = {}
        self._searched: dict[str, vector.VectorExploration] = {}
        #: Boards searched to ``max_states``, not only the first, short search.
        self._whole: set[str] = set()

    def machine(self, board: NearbyBoard) -> Machine:
        if board.key not in self._machines:
            self._machines[board.key] = self.game.machine(self.settings, **board.extra)
        return self._machines[board.key]

    def lint_sources(
        self, board: NearbyBoard, questions: Collection[str], needs: Collection[tuple[str, int]] = ()
    ) -> source_lint.SourceLint:
        """``source_lint.lint_sources`` on ``board`` for ``questions``, as the
        search to ``max_states`` gives it; ``needs``: the rulings (question,
        index) the caller looks to see apply there."""

        machine = self.machine(board)

        def build_reading(spec: str | None, shows_with: Mapping[str, int]) -> Machine:
            if spec is None and not shows_with:
                # The board's own model, the one already searched: not built a second time.
                return machine
            return self.game.machine({**self.settings, **shows_with}, reading=spec, **board.extra)

        searched = self.searched(board)
        if not searched.complete and board.key not in self._whole:
            # Asked without the rules diff, which reads no state searched.
            short = source_lint.lint_sources(machine, None, self.max_states, self.max_states, questions=questions, exploration=searched)
            if not self._settled(machine, short, needs):
                searched = self._searched[board.key] = vector.explore(machine, self.max_states)
                self._whole.add(board.key)
        return source_lint.lint_sources(
            machine, build_reading, self.max_states, self.max_states, questions=questions, exploration=searched
        )

    def searched(self, board: NearbyBoard) -> vector.VectorExploration:
        """The board's search as far as it has gone (at first, the short one)."""
        if board.key not in self._searched:
            self._searched[board.key] = vector.explore(self.machine(board), max(1, self.max_states // FIRST_SEARCH_SHARE))
        return self._searched[board.key]

    def _settled(self, machine: Machine, short: source_lint.SourceLint, needs: Collection[tuple[str, int]]) -> bool:
        """Would a longer search find what ``short`` found and nothing more?
        So every ruling of ``needs`` applies in it, and each clash or gap it
        did not meet is one Z3 says no state of the declared domains holds
        (``clash_possible``, ``gap_possible``).  A source clash the rules diff
        is asked of even unmet (its question names bounds of its own) is left
        to the longer search: its summary says how far the search went."""
        assert machine.rulings is not None
        if any(need not in short.applies_at for need in needs):
            return False
        for kind, name, source in short.quiet:
            q = machine.rulings.declared[name]
            if kind == "source-clash" and q.bounds and q.arguments:
                return False
            if clash_possible(machine, kind, name, source, self.timeout_ms) is not False:
                return False
        unmet_gaps = [query[len("gap[") : -1] for query, verdict in short.checks if query.startswith("gap[") and verdict != VIOLATED]
        return all(gap_possible(machine, name, self.timeout_ms) is False for name in unmet_gaps)


def wake_dead_rulings(
    game: Game,
    settings: Mapping[str, int],
    bounded: Machine,
    dead: Sequence[source_lint.SourceFinding],
    budget: portfolio.Budget,
    checks: list[Check],
    boards: Boards,
) -> list[source_lint.SourceFinding]:
    """For each ruling that applies nowhere because the board alone rules it
    out (no character has the keyword it needs, nobody holds the card, a rule
    for more players than sit at the table), the nearest board where it can
    apply: the game's boards one change away, in order, each first asked of
    Z3 (can the ruling apply there at all?), then searched for the ruling's
    question as the default board was, at most ``WAKE_SEARCHES`` boards per
    ruling.  A board is searched once for the questions of every ruling it
    may wake.  The texts' clashes, self-clashes and gaps on a woken ruling's
    question found there are lint's findings too, keyed by the board; the
    dead ruling's summary says where it woke, and its transcript is the
    nearest game there that reaches a state where it applies."""
    if game.nearby_boards is None:
        return []
    asleep: list[source_lint.SourceFinding] = []  # the board rules them out
    by_play: list[source_lint.SourceFinding] = []  # the board allows them; no game reaches them
    for f in dead:
        assert f.ruling is not None
        ruled_out = board_rules_out(bounded, *f.ruling, budget.timeout_ms)
        if ruled_out is not None:
            (asleep if ruled_out else by_play).append(f)
    searched: dict[str, list[str]] = {f.key: [] for f in asleep + by_play}
    woken: dict[str, tuple[NearbyBoard, list[source_lint.SourceFinding]]] = {}

    def waiting(fs: list[source_lint.SourceFinding], machine: Machine) -> list[source_lint.SourceFinding]:
        return [f for f in fs if f.key not in woken and len(searched[f.key]) < WAKE_SEARCHES
                and board_rules_out(machine, *f.ruling, budget.timeout_ms) is False]  # type: ignore[misc]

    for board in game.nearby_boards(settings):
        if all(f.key in woken or len(searched[f.key]) == WAKE_SEARCHES for f in asleep):
            break
        machine = boards.machine(board)
        here = waiting(asleep, machine)
        if not here:
            continue
        # A board searched anyway is searched for the rulings play keeps
        # asleep too: a rule for more players than the default seats reads
        # the state, so Z3 alone does not rule it out on the default board.
        here += waiting(by_play, machine)
        there = boards.lint_sources(board, {f.question for f in here}, [f.ruling for f in here])  # type: ignore[misc]
        still_dead = {x.key for x in there.findings}
        for f in here:
            searched[f.key].append(board.label)
            if f.key not in still_dead:
                woken[f.key] = board, [x for x in there.findings if x.kind != "dead-ruling" and x.question == f.question]
                # The nearest game there that reaches a state where it applies (its scenario).
                start, path = boards.searched(board).path_to(there.applies_at[f.ruling])  # type: ignore[index]
                f.transcript = Transcript.from_path(machine, start, path, f"where {board.label}, {f.key} applies")
                f.woken_on = board.key
    out: list[source_lint.SourceFinding] = []
    for f in asleep + by_play:
        keeps = "the default board alone rules it out" if f in asleep else "play keeps it from applying on the default board"
        tried = searched[f.key]
        if f.key not in woken:
            if f in by_play:
                continue  # no board was searched for it
            if len(tried) == WAKE_SEARCHES:
                f.summary += (f"; {keeps}, and the first {WAKE_SEARCHES} boards one change away"
                              f" that let it apply never reach it within the bounds (searched: {'; '.join(tried)}); the others were not searched")
            else:
                listed = f" (searched: {'; '.join(tried)})" if tried else ""
                f.summary += f"; {keeps}, and no board one change away lets it apply within the bounds{listed}"
            checks.append(Check(game.name, f"wake[{f.key}]", "asleep on the boards one change away searched", "nearby boards", 0))
            continue
        board, found = woken[f.key]
        for x in found:
            if x.board is None:  # not yet claimed by another ruling of its question woken on this board
                x.key, x.board = f"{x.key}@{board.key}", board.label
                x.summary = f"on the board where {board.label}: {x.summary}"
                out.append(x)
        said = f"; lint finds {', '.join(x.key for x in found)} there" if found else "; the texts agree there"
        f.summary += f"; {keeps}: where {board.label}, it applies within the bounds{said}"
        checks.append(Check(game.name, f"wake[{f.key}]", f"applies where {board.label}", "nearby boards", 0))
    return out


def clash_possible(machine: Machine, kind: str, question: str, source: str, timeout_ms: int) -> bool | None:
    """Can the quiet clash hold at all on this board: is there a state of the
    declared domains, at a location where the question is asked, where the
    source alone clashes with itself (``self-clash``) or the source's reading
    answers otherwise than the model's (``source-clash``)?  None: the solver
    could not say, or the question's answers are labels Z3 does not compare."""
    book = machine.rulings
    assert book is not None
    q = book.declared[question]
    if book.questions[question].valued:
        return None
    s, domain = _anywhere(machine)
    if kind == "self-clash":
        alone = book.only(source)
        holds = [alone.clashes(question, s, SYMBOLIC, *args) for args in q.arguments]
    else:
        theirs = book.under(source)
        holds = [theirs.answer(question, s, SYMBOLIC, *args) != book.answer(question, s, SYMBOLIC, *args) for args in q.arguments]
    solver = limits.limit(z3.Solver(), timeout_ms)
    solver.add(domain, machine.at(s, *q.asked_at, b=SYMBOLIC))
    solver.add(z3.Or(*(_term(h) for h in holds), z3.BoolVal(False)))
    answer = solver.check()
    return True if answer == z3.sat else False if answer == z3.unsat else None


def gap_possible(machine: Machine, question: str, timeout_ms: int) -> bool | None:
    """Can the question go unanswered at all on this board: is there a state
    of the declared domains, at a location where it is asked, where no text
    answers it (``RuleBook.speaks``)?  None: the solver could not say."""
    book = machine.rulings
    assert book is not None
    q = book.declared[question]
    s, domain = _anywhere(machine)
    solver = limits.limit(z3.Solver(), timeout_ms)
    solver.add(domain, machine.at(s, *q.asked_at, b=SYMBOLIC))
    solver.add(z3.Or(*(z3.Not(_term(book.speaks(question, s, SYMBOLIC, *args))) for args in q.arguments), z3.BoolVal(False)))
    answer = solver.check()
    return True if answer == z3.sat else False if answer == z3.unsat else None


_ANYWHERE: "weakref.WeakKeyDictionary[Machine, tuple[Any, Any]]" = weakref.WeakKeyDictionary()


def _anywhere(machine: Machine) -> tuple[Any, Any]:
    """One symbolic state of ``machine`` and its domain constraint, kept per
    machine: the rule book keeps the answers it built for a state it is asked
    again (``RuleBook._terms_memo``), so the model's own answer to a question
    is built once for all the sources compared with it."""
    if machine not in _ANYWHERE:
        s = machine.symbolic_state("anywhere")
        _ANYWHERE[machine] = (s, machine.domain_constraint(s))
    return _ANYWHERE[machine]


def _quiet_key(kind: str, question: str, source: str) -> str:
    """The key prefix of the finding a quiet clash would be."""
    return f"{kind}:{question}:{source}"


def wake_quiet_clashes(
    game: Game,
    settings: Mapping[str, int],
    bounded: Machine,
    quiet: Sequence[tuple[str, str, str]],
    seen: set[str],
    budget: portfolio.Budget,
    max_pairs: int,
    checks: list[Check],
    boards: Boards,
) -> list[source_lint.SourceFinding]:
    """Clashes the texts' rulings allow that no state within the bounds shows
    (``SourceLint.quiet``), looked for one change away.

    Where Z3 says the default board alone rules a clash out, the game's boards
    one change away are tried in order, each asked of Z3 first and searched
    only where the clash can hold (at most ``WAKE_SEARCHES`` per clash).
    Where the board allows it and play does not reach it, the game's nearby
    bounds are searched once for all such clashes.  A finding made there is
    keyed by the board or bounds; one whose key is already ``seen`` (a dead
    ruling's board found it) is not repeated."""
    out: list[source_lint.SourceFinding] = []

    def keep(found: Sequence[source_lint.SourceFinding], wanted: Sequence[tuple[str, str, str]], key: str, label: str) -> list[str]:
        prefixes = [_quiet_key(*w) for w in wanted]
        kept = []
        for x in found:
            if not any(x.key == p or x.key.startswith(p + ":") for p in prefixes):
                continue
            x.key = f"{x.key}@{key}"
            x.summary = f"where {label}: {x.summary}"
            x.board = label
            if x.key not in seen:
                seen.add(x.key)
                out.append(x)
                kept.append(x.key)
        return kept

    by_play: list[tuple[str, str, str]] = []
    nearby = game.nearby_boards(settings) if game.nearby_boards is not None else []
    for kind, name, x in quiet:
        query = f"wake[{_quiet_key(kind, name, x)}]"
        if clash_possible(bounded, kind, name, x, budget.timeout_ms) is not False:
            by_play.append((kind, name, x))
            continue
        if game.nearby_boards is None:
            checks.append(Check(game.name, query, "the default board rules it out, and the game has no boards one change away", "Z3 over the domains", 0))
            continue
        searched: list[str] = []
        for board in nearby:
            if clash_possible(boards.machine(board), kind, name, x, budget.timeout_ms) is False:
                continue
            searched.append(board.label)
            if any(k.startswith(_quiet_key(kind, name, x)) and k.endswith("@" + board.key) for k in seen):
                # A dead ruling's board already showed it here: the same search would find it again.
                checks.append(Check(game.name, query, f"shows where {board.label}", "nearby boards", 0))
                break
            there = boards.lint_sources(board, (name,))
            if keep(there.findings, [(kind, name, x)], board.key, board.label):
                checks.append(Check(game.name, query, f"shows where {board.label}", "nearby boards", 0))
                break
            if len(searched) == WAKE_SEARCHES:
                checks.append(Check(game.name, query, f"not shown on the first {WAKE_SEARCHES} boards one change away that allow it", "nearby boards", 0))
                break
        else:
            said = f"not shown on the boards one change away that allow it ({'; '.join(searched)})" if searched else "no board one change away allows it"
            checks.append(Check(game.name, query, said, "nearby boards", 0))
    if not by_play or game.nearby_bounds is None:
        for kind, name, x in by_play:
            checks.append(Check(game.name, f"wake[{_quiet_key(kind, name, x)}]", "the board allows it; no game within the bounds reaches it", "Z3 over the domains", 0))
        return out
    for further in game.nearby_bounds(settings):
        wider = {**settings, **further.bounds}

        def build_wider(spec: str | None, shows_with: Mapping[str, int]) -> Machine:
            return game.machine({**wider, **shows_with}, reading=spec)

        there = source_lint.lint_sources(game.machine(wider), build_wider, max_pairs, max_pairs, questions={n for _, n, _ in by_play})
        kept = keep(there.findings, by_play, further.key, further.label)
        for kind, name, x in by_play:
            shown = [k for k in kept if k.startswith(_quiet_key(kind, name, x))]
            checks.append(Check(game.name, f"wake[{_quiet_key(kind, name, x)}]",
                                f"shows with {further.label}" if shown else f"not shown with {further.label} either",
                                "nearby bounds", 0))
    return out


def run(
    games: Sequence[Game],
    bounds: Mapping[str, int | None],
    budget: portfolio.Budget,
    known: Mapping[str, Mapping[str, str]],
    max_pairs: int,
    advance: Any,
) -> Lint:
    """Every query for every game; ``known`` maps each game to its known keys and notes."""
    out = Lint()
    for game in games:
        # One any-length model for the game's queries: what Z3 and induction
        # build for it (its transition, its inductive domain bounds) is built once.
        any_length = game.any_length_machine(bounds) if game.proves_any_length else None
        one = lint_game(game, bounds, budget, advance, any_length)
        lint_variants(game, bounds, budget, max_pairs, advance, one)
        lint_readings(game, bounds, budget, max_pairs, one, any_length)
        lint_texts(game.name, one)
        notes = known.get(game.name, {})
        for f in one.findings:
            f.known = f.key in notes
            f.note = notes.get(f.key, "")
        out.findings += sorted(one.findings, key=lambda f: (KINDS.index(f.kind), f.key))
        out.checks += one.checks
    return out
