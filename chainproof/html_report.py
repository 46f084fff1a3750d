"""``chainproof report``: one self-contained HTML page from the JSON that
``verify``, ``lint``, ``scenarios`` and ``conform`` print with ``--json``.

The page holds the verdict table, filtered in the browser; every
counterexample as a transcript whose rule numbers link to the page's own
appendix of rule texts (an excerpt and its ``file:line``); lint's findings
with both games side by side; each game's rules graph, its edges coloured by
how often the runs given took them; and a heat map of the rules registry by
section.  Nothing on it is fetched: style, script and pictures are inline, so
the file can be mailed or archived as it is.

The page is rendered by a Jinja2 template with autoescaping on; the one piece
of markup that does not pass through it is the graph's SVG, drawn by the
renderer from the model's DOT and edited as an XML tree.

The inputs are files, so that the page reports the very runs that CI or a
person made, at their bounds (a campaign's database, ``--campaign``, holds
each cell's run as that command's JSON); ``--run COMMAND`` is the shortcut
for a command no file is given for: it runs ``chainproof COMMAND --json`` at
its defaults first (verify, the command ``--run`` alone names, about a minute
for every game; scenarios seconds; lint and conform minutes).

Exit codes: 0 the page is written, 2 bad input (a file missing or unreadable,
not JSON, the JSON of another command, or a game chainproof does not know).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence
from xml.etree import ElementTree as ET

import click
from markupsafe import Markup

from agreement.games import checker_for
from chainproof import campaign, report
from chainproof.common import guarded
from chainproof.games import GAME_NAMES, BadInput, Game, get_game
from checkers.results import VERDICTS
from model import safe_yaml
from model.machine import Edge, Machine
from model.registry import STATUSES
from model.sources import GAME_SOURCES, SOURCES, line_span, lines_of, texts_folder
from model.variants import SEED
from scenarios import runner

#: The commands whose JSON the page reads, in the order the page shows them.
COMMANDS = ("verify", "lint", "scenarios", "conform")

#: How much of a rule's text the appendix quotes.
EXCERPT_CHARS = 280


# -- reading the inputs ------------------------------------------------------------------


@dataclass(frozen=True)
class Maybe:
    """A field that may be null."""

    shape: Any


@dataclass(frozen=True)
class Each:
    """An object whose every value has this shape (names to counts, aspects to values)."""

    shape: Any


STRINGS = [str]
TRANSCRIPT = {
    "initial": Each(str),
    "steps": [{"step": int, "action": str, "player": str, "rules": STRINGS, "changes": Each({"from": str, "to": str})}],
    "final": Each(str),
    "violation": str,
    "loop_start": Maybe(int),
}
#: The fields the page reads from each command's JSON (other fields are ignored).
SHAPES: Mapping[str, Any] = {
    "verify": {
        "results": [
            {
                "game": str, "property": str, "rules": STRINGS, "verdict": str, "depth": int, "method": str,
                "seconds": (int, float), "counterexample": Maybe(TRANSCRIPT), "note": str, "bounds": dict,
            }
        ],
        # The reading checked: a variant's name, a source reading, or neither (the model's own).
        "summary": {"verdicts": dict, "variant": Maybe(str), "reading": Maybe(str)},
    },
    "lint": {
        "findings": [
            {
                "game": str, "kind": str, "key": str, "rules": STRINGS, "summary": str, "known": bool, "note": Maybe(str),
                "places": STRINGS, "reading": Maybe(str), "board": Maybe(str), "transcript": Maybe(TRANSCRIPT),
                "other_transcript": Maybe(TRANSCRIPT), "parted": Maybe({"model": TRANSCRIPT, "reading": TRANSCRIPT}),
            }
        ],
        "checks": [{"verdict": str}],
        "summary": dict,
    },
    "scenarios": {
        "results": [{"game": str, "scenario": str, "rules": STRINGS, "status": str, "detail": str, "model": str}],
        "summary": {"pass": int},
    },
    "conform": {
        "game": str, "status": str, "examples": int, "steps": int,
        "findings": [{"kind": str, "rules": STRINGS, "detail": str}],
        "transcript": str,
        "coverage": {"edges": Each(int), "rules": Each(int), "reachable_edges": int, "missed_edges": dict},
    },
}


class Malformed(Exception):
    """A value of an input does not have the shape the page reads."""


def _kind(shape: Any) -> str:
    if isinstance(shape, Maybe):
        return f"{_kind(shape.shape)} or null"
    if isinstance(shape, list):
        return "a list"
    if isinstance(shape, dict) or shape is dict:
        return "an object"
    if isinstance(shape, Each):
        return f"an object whose values are each {_kind(shape.shape)}"
    names = {str: "a string", int: "a whole number", bool: "true or false", (int, float): "a number"}
    return names[shape]


def _check(value: Any, shape: Any, where: str) -> None:
    """Raise Malformed, naming the place (``results[3].counterexample``), where ``value`` is not ``shape``."""
    if isinstance(shape, Maybe):
        if value is not None:
            _check(value, shape.shape, where)
        return
    if isinstance(shape, list):
        if not isinstance(value, list):
            raise Malformed(f"{where}: expected {_kind(shape)}, got {type(value).__name__}")
        for i, item in enumerate(value):
            _check(item, shape[0], f"{where}[{i}]")
        return
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            raise Malformed(f"{where or 'the document'}: expected {_kind(shape)}, got {type(value).__name__}")
        for key, inner in shape.items():
            if key not in value:
                raise Malformed(f"{where + ': ' if where else ''}missing {key!r}")
            _check(value[key], inner, f"{where}.{key}" if where else key)
        return
    if isinstance(shape, Each):
        if not isinstance(value, dict):
            raise Malformed(f"{where}: expected {_kind(shape)}, got {type(value).__name__}")
        for key, item in value.items():
            _check(item, shape.shape, f"{where}[{json.dumps(key)}]")
        return
    # JSON's true and false are Python bools, which are ints too.
    if not isinstance(value, shape) or (isinstance(value, bool) and shape is not bool):
        raise Malformed(f"{where}: expected {_kind(shape)}, got {json.dumps(value)[:40]}")


def written_by(data: Any) -> str | None:
    """Which command printed this JSON, as far as its top-level fields tell."""
    if not isinstance(data, dict):
        return None
    summary = data.get("summary")
    # Before lint's test: a conformance run has findings and checks too.
    if "coverage" in data and "examples" in data:
        return "conform"
    if "findings" in data and "checks" in data:
        return "lint"
    if "results" in data and isinstance(summary, dict) and "verdicts" in summary:
        return "verify"
    if "results" in data and isinstance(summary, dict) and "pass" in summary:
        return "scenarios"
    if "divergence" in data:
        return "diff"
    if "property" in data and "verdict" in data:
        return "verify --explain"
    return None


def read(path: Path, command: str) -> dict[str, Any]:
    """The JSON ``chainproof COMMAND --json`` wrote to ``path``; BadInput naming the file otherwise."""
    if safe_yaml.special_file(path):
        raise BadInput(f"{path}: not a regular file (a device or a pipe), so not the JSON of `chainproof {command} --json`")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text, so not the JSON of `chainproof {command} --json`") from None
    if not text.strip():
        raise BadInput(f"{path}: the file is empty; expected the JSON of `chainproof {command} --json`")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise BadInput(f"{path}: its JSON nests too deeply to be the JSON of `chainproof {command} --json`") from None
    except ValueError:
        # Python refuses to convert an integer of thousands of digits.
        raise BadInput(f"{path}: a number with too many digits; not the JSON of `chainproof {command} --json`") from None
    return checked(data, command, str(path))


def checked(data: Any, command: str, name: str) -> dict[str, Any]:
    """``data`` if it is the JSON of ``command`` about games chainproof knows; BadInput naming ``name`` otherwise."""
    found = written_by(data)
    if found is None:
        raise BadInput(f"{name}: not the JSON of `chainproof {command} --json`, nor of another command the report reads")
    if found != command:
        raise BadInput(f"{name}: this is the JSON of `chainproof {found} --json`; --{command} takes that of `chainproof {command} --json`")
    try:
        _check(data, SHAPES[command], "")
    except Malformed as exc:
        raise BadInput(f"{name}: not the JSON of `chainproof {command} --json` as this version writes it: {exc}") from None
    items = [data] if command == "conform" else data["findings" if command == "lint" else "results"]
    for item in items:
        if item["game"] not in GAME_NAMES:
            raise BadInput(f"{name}: unknown game {item['game']!r}; games: {', '.join(GAME_NAMES)}")
    allowed = {"verify": ("verdict", VERDICTS), "scenarios": ("status", runner.STATUSES)}.get(command)
    if allowed is not None:
        key, values = allowed
        for item in items:
            if item[key] not in values:
                raise BadInput(f"{name}: {key} {item[key]!r} is not one of {', '.join(values)}")
    return data


@dataclass
class Inputs:
    """What the page reports: the items of every file given, by command."""

    verify: list[dict[str, Any]] = field(default_factory=list)
    lint: list[dict[str, Any]] = field(default_factory=list)
    lint_checks: list[dict[str, Any]] = field(default_factory=list)
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    conform: list[dict[str, Any]] = field(default_factory=list)
    #: (command, file) for each input, for the page's header.
    sources: list[tuple[str, str]] = field(default_factory=list)

    def add(self, command: str, data: dict[str, Any], name: str) -> None:
        self.sources.append((command, name))
        if command == "verify":
            # One run checks one reading: each of its results is shown with it.
            reading = reading_of(data["summary"])
            self.verify.extend({**r, "reading": reading} for r in data["results"])
        elif command == "lint":
            self.lint.extend(data["findings"])
            self.lint_checks.extend(data["checks"])
        elif command == "scenarios":
            self.scenarios.extend(data["results"])
        else:
            self.conform.append(data)

    def about(self, game: str, command: str) -> list[dict[str, Any]]:
        """The items of ``command``'s inputs that are about ``game``."""
        return [x for x in getattr(self, command) if x["game"] == game]

    def games(self) -> list[str]:
        """The games any input is about, in chainproof's order."""
        named = {item["game"] for items in (self.verify, self.lint, self.scenarios, self.conform) for item in items}
        return [g for g in GAME_NAMES if g in named]


@dataclass(frozen=True)
class Reading:
    """The reading of the rules a verify run checked, named as a campaign names it."""

    name: str
    #: What the name is: the model's own reading, a rule variant, or a source text's reading.
    kind: str


def reading_of(summary: Mapping[str, Any]) -> Reading:
    """The reading in the summary of ``chainproof verify --json`` (its ``--variant`` or ``--reading``)."""
    if summary["variant"] is not None:
        return Reading(summary["variant"], "a rule variant")
    if summary["reading"] is not None:
        return Reading(summary["reading"], "a source text's reading (the model's where the source is silent)")
    return Reading(SEED, "the model's own reading of the seed")


def run_arguments(command: str, games: Sequence[str]) -> list[tuple[str, ...]]:
    """The arguments of each run of ``command`` that ``--run`` makes on ``games`` (every game when none):
    one run, but one per game for ``conform``, which plays one game's engine."""
    if command == "conform":
        return [(f"--game={g}",) for g in games or GAME_NAMES]
    return [tuple(f"--game={g}" for g in games)]


def run_command(command: str, *args: str) -> dict[str, Any]:
    """The JSON of ``chainproof COMMAND ARGS --json``, run as its own process so
    that its limits (``--rlimit``) stay its own; its exit code, which says whether
    its checks pass, is for the page to show, not an error."""
    program = [sys.executable, "-c", "from chainproof.cli import main; main(prog_name='chainproof')"]
    done = subprocess.run([*program, command, *args, "--json"], capture_output=True, encoding="utf-8", check=False)
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise BadInput(f"chainproof {command} exited with status {done.returncode} and no JSON: {reason}") from None
    return checked(data, command, f"chainproof {command} --json")


# -- rule texts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleLink:
    id: str
    anchor: str


@dataclass(frozen=True)
class Place:
    """Where a rule's words are: ``file:line`` of a source text, and its excerpt when the texts are at hand."""

    place: str
    title: str
    language: str
    excerpt: str | None


@dataclass(frozen=True)
class RuleText:
    """One entry of the page's appendix."""

    game: str
    id: str
    anchor: str
    summary: str | None
    status: str | None
    why: str
    places: tuple[Place, ...]
    #: Why no text is quoted, when none is.
    unquoted: str


_NUMBER = re.compile(r"^(CR7\.4 )?(\d{3}(?:\.\d+[a-z]?)?)$")
#: A line that starts a numbered rule (``409.6a ...``, ``103.1. ...``, ``601. ...``), with its number.
_RULE_START = re.compile(r"^\s*(\d{3}(?:\.\d+[a-z]?)?)\.?\s")
#: Lines an excerpt of a numbered rule may run on for, its wrapped continuation.
_CONTINUATION_LINES = 4


@dataclass(frozen=True)
class _Text:
    """A source text's lines as ``grep -n`` counts them (split at line feeds
    only), and the first line that starts each rule number."""

    lines: tuple[str, ...]
    starts: Mapping[str, int]


@lru_cache(maxsize=len(SOURCES))
def _text(source: str) -> _Text | None:
    """The text of ``source``; None when the texts are not at hand."""
    # Every rule of a page is looked up in the same few files.
    lines = lines_of(source)
    if lines is None:
        return None
    starts: dict[str, int] = {}
    for i, line in enumerate(lines, start=1):
        m = _RULE_START.match(line)
        if m is not None:
            starts.setdefault(m.group(1), i)
    return _Text(lines, starts)


def _excerpt(lines: Sequence[str]) -> str:
    text = " ".join(" ".join(line.replace("\f", " ").split()) for line in lines).strip()
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[:EXCERPT_CHARS]
    return (cut.rsplit(" ", 1)[0] if " " in cut[EXCERPT_CHARS // 2 :] else cut) + " …"


class RuleTexts:
    """Where each rule of one game is stated, and what it says.

    A numbered rule is found by its number at the start of a line of the
    game's texts (the seed's numbers in its seeds, ``CR7.4`` ones in the 7.4
    reference); every rule, numbered or not (Riftbound's paragraphs), is also
    placed at the texts of the rulings that state it alone
    (``model/<game>/rulings.py``).
    """

    def __init__(self, game: Game, machine: Machine) -> None:
        self.game = game
        self.ruled: dict[str, list[tuple[str, str]]] = {}
        book = machine.rulings
        for question in book.declared.values() if book is not None else ():
            for ruling in question.rulings:
                if len(ruling.rules) == 1:
                    self.ruled.setdefault(ruling.rules[0], []).extend(ruling.texts.items())

    def _numbered(self, rule: str) -> list[tuple[str, int, int]]:
        """(source, first line, last line) of ``rule``'s number and its continuation in each of the game's texts."""
        m = _NUMBER.match(rule)
        if m is None:
            return []
        prefixed, number = m.group(1), m.group(2)
        found, files = [], set()
        for source in GAME_SOURCES[self.game.name]:
            text = _text(source)
            # One look per file (002's two languages share one), the 7.4 reference for its own numbers only.
            if text is None or (source == "CR7.4") != bool(prefixed) or SOURCES[source].file in files:
                continue
            files.add(SOURCES[source].file)
            first = text.starts.get(number)
            if first is not None:
                last = first
                while (last - first < _CONTINUATION_LINES - 1 and last < len(text.lines) and text.lines[last].strip()
                       and not _RULE_START.match(text.lines[last])):
                    last += 1
                found.append((source, first, last))
        return found

    def places(self, rule: str) -> tuple[Place, ...]:
        spans = self._numbered(rule) + [(source, *line_span(at)) for source, at in self.ruled.get(rule, [])]
        out: dict[tuple[str, int], Place] = {}
        for source, first, last in spans:
            about, text = SOURCES[source], _text(source)
            key = (about.file, first)
            if key not in out:
                at = str(first) if first == last else f"{first}-{last}"
                excerpt = None if text is None else _excerpt(text.lines[first - 1 : last])
                out[key] = Place(about.place(at), about.title, about.language, excerpt)
        return tuple(out.values())

    def entry(self, rule: str, anchor: str) -> RuleText:
        registered = self.game.registry.rules.get(rule)
        places = self.places(rule)
        if places and places[0].excerpt is not None:
            unquoted = ""
        elif registered is not None and registered.source in ("assumption", "abstraction"):
            unquoted = "the model's own assumption: no rule text states it"
        elif texts_folder() is None:
            unquoted = "the rule texts are not at hand (CHAINPROOF_TEXTS names the folder holding seeds/ and reference/)"
        elif _NUMBER.match(rule):
            unquoted = "its number starts no line of the game's texts"
        else:
            unquoted = "no ruling of the model places this paragraph in the texts"
        return RuleText(
            self.game.name, rule, anchor,
            registered.summary if registered else None, registered.status if registered else None,
            registered.why if registered else "", places, unquoted,
        )


class RuleIndex:
    """Every rule the page cites, each with the anchor of its appendix entry."""

    def __init__(self, texts: Mapping[str, RuleTexts]) -> None:
        self.texts = texts
        self.anchors: dict[tuple[str, str], str] = {}
        self.taken: set[str] = set()

    def link(self, game: str, rule: str) -> RuleLink:
        key = (game, rule)
        if key not in self.anchors:
            # An id without spaces; an input's odd rule name that collides with another's gets a suffix.
            anchor = "rule-" + re.sub(r"[^A-Za-z0-9_.:-]+", "_", f"{game}-{rule}")
            while anchor in self.taken:
                anchor += "_"
            self.anchors[key] = anchor
            self.taken.add(anchor)
        return RuleLink(rule, self.anchors[key])

    def links(self, game: str, rules: Iterable[str]) -> list[RuleLink]:
        return [self.link(game, r) for r in rules]

    def appendix(self) -> list[RuleText]:
        """The entries by game, each game's in its registry's order (rules it lacks last)."""
        position = {game: {rule: i for i, rule in enumerate(t.game.registry.rules)} for game, t in self.texts.items()}

        def order(key: tuple[str, str]) -> tuple[int, int, str]:
            game, rule = key
            return GAME_NAMES.index(game), position[game].get(rule, len(position[game])), rule

        return [self.texts[game].entry(rule, self.anchors[(game, rule)]) for game, rule in sorted(self.anchors, key=order)]


# -- what the page shows ------------------------------------------------------------------


def _transcript(t: dict[str, Any], game: str, rules: RuleIndex) -> dict[str, Any]:
    loop = t["loop_start"]
    return {
        "initial": list(t["initial"].items()),
        "steps": [
            {
                "index": s["step"], "player": s["player"], "action": s["action"], "rules": rules.links(game, s["rules"]),
                "changes": [(k, c["from"], c["to"]) for k, c in s["changes"].items()],
            }
            for s in t["steps"]
        ],
        "loop": None if loop is None else "the start" if loop == 0 else f"the state after step {loop}",
        "final": list(t["final"].items()),
        "violation": t["violation"],
    }


def _changes(step: dict[str, Any] | None) -> str:
    if step is None:
        return "(not allowed)"
    return "; ".join(f"{k}: {c['from']} → {c['to']}" for k, c in step["changes"].items()) or "no change"


def _side_by_side(first: dict[str, Any], second: dict[str, Any], names: tuple[str, str], game: str, rules: RuleIndex) -> dict[str, Any]:
    """Two games step by step: the actions, and what each step changed under each reading."""
    rows = []
    for i in range(max(len(first["steps"]), len(second["steps"]))):
        a = first["steps"][i] if i < len(first["steps"]) else None
        b = second["steps"][i] if i < len(second["steps"]) else None
        step = a or b
        assert step is not None
        actions = dict.fromkeys(s["action"] for s in (a, b) if s is not None)
        cells = [_changes(a), _changes(b)]
        rows.append({
            "index": step["step"], "player": step["player"], "action": " / ".join(actions),
            "rules": rules.links(game, dict.fromkeys(r for s in (a, b) if s is not None for r in s["rules"])),
            "first": cells[0], "second": "(the same)" if a is not None and b is not None and cells[0] == cells[1] else cells[1],
        })
    return {"names": names, "rows": rows, "initial": list(first["initial"].items()), "violation": first["violation"]}


def _finding(f: dict[str, Any], rules: RuleIndex) -> dict[str, Any]:
    game = f["game"]
    pair = None
    single = f["transcript"]
    if f["other_transcript"] is not None and single is not None:
        pair = _side_by_side(single, f["other_transcript"], ("seed", f["key"].removeprefix("variant:")), game, rules)
        single = None
    elif f["parted"] is not None:
        names = ("the model's reading", f["reading"] or "the source's reading")
        pair = _side_by_side(f["parted"]["model"], f["parted"]["reading"], names, game, rules)
    return {
        "game": game, "kind": f["kind"], "key": f["key"], "known": f["known"], "rules": rules.links(game, f["rules"]),
        "summary": f["summary"], "note": f["note"], "places": f["places"], "board": f["board"],
        "transcript": None if single is None else _transcript(single, game, rules), "pair": pair,
    }


@dataclass(frozen=True)
class Measure:
    """What a graph's arrows can be coloured by: a count of the runs given."""

    unit: str
    doc: str


MEASURES = {
    "conform": Measure("conformance steps", "steps of conformance runs (chainproof conform) taken by the edge families on the arrow"),
    "transcripts": Measure("transcript steps", "steps of the counterexamples and of lint's games that take an edge on the arrow"),
    "scenarios": Measure("scenarios", "scenarios citing a rule that an edge on the arrow cites (scenario results name rules, not edges)"),
}
UNTAKEN = "#b8b8b8"
#: A taken edge's colour runs from the first to the second as its count nears the graph's most taken.
TAKEN_FROM, TAKEN_TO = (0xF4, 0xA5, 0x82), (0x67, 0x00, 0x1F)


def _colour(count: int, most: int) -> tuple[str, str]:
    """Stroke colour and width of an arrow taken ``count`` times, on a log scale up to ``most``."""
    if count == 0:
        return UNTAKEN, "1"
    share = math.log1p(count) / math.log1p(most)
    rgb = (round(a + (b - a) * share) for a, b in zip(TAKEN_FROM, TAKEN_TO))
    return "#{:02x}{:02x}{:02x}".format(*rgb), f"{1.5 + 2.5 * share:.2f}"


def _family(game: str) -> Callable[[str], str]:
    """How ``chainproof conform`` names the family of an edge in its counts:
    the table checkers' own method, the WoW checker's abstraction."""
    # Imported on use, like each game's model: every command's start-up pays for this module's imports.
    from agreement.wowtcg import abstraction

    return getattr(checker_for(game), "family", abstraction.family)


def _arrow_counts(machine: Machine, game: str, inputs: Inputs) -> tuple[dict[tuple[str, str], dict[str, int]], dict[str, int]]:
    """Per arrow (pair of locations) of the graph, each measure's count; and per measure, the count no arrow shows."""
    on_arrow: dict[tuple[str, str], list[Edge]] = {}
    for e in machine.edges:
        on_arrow.setdefault((e.source, e.target), []).append(e)
    counts = {pair: dict.fromkeys(MEASURES, 0) for pair in on_arrow}
    off_graph = dict.fromkeys(MEASURES, 0)

    taken: dict[str, int] = {}
    for run in inputs.about(game, "conform"):
        for name, times in run["coverage"]["edges"].items():
            taken[name] = taken.get(name, 0) + times
    if taken:
        family = _family(game)
        families_on = {pair: {family(e.name) for e in edges} for pair, edges in on_arrow.items()}
        for pair, families in families_on.items():
            counts[pair]["conform"] = sum(taken.get(f, 0) for f in families)
        drawn = set().union(*families_on.values())
        off_graph["conform"] = sum(n for f, n in taken.items() if f not in drawn)

    for t in _transcripts(game, inputs):
        for step in t["steps"]:
            if step["action"] in machine.edge_index:
                e = machine.edge(step["action"])
                counts[(e.source, e.target)]["transcripts"] += 1
            else:
                off_graph["transcripts"] += 1

    for scenario in inputs.about(game, "scenarios"):
        cited = set(scenario["rules"])
        for pair, edges in on_arrow.items():
            counts[pair]["scenarios"] += any(cited.intersection(e.rules) for e in edges)
    return counts, off_graph


def _transcripts(game: str, inputs: Inputs) -> list[dict[str, Any]]:
    """Every game the inputs played on ``game``'s model: counterexamples and lint's games."""
    out = [r["counterexample"] for r in inputs.about(game, "verify") if r["counterexample"]]
    for f in inputs.about(game, "lint"):
        out += [t for t in (f["transcript"], f["other_transcript"]) if t]
        if f["parted"]:
            out += [f["parted"]["model"], f["parted"]["reading"]]
    return out


SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")


def _graph(game: str, machine: Machine, inputs: Inputs) -> dict[str, Any]:
    """The rules graph drawn by ``chainproof graph``, each arrow carrying its
    counts and colours (as data attributes the page's script switches between)."""
    arrows, off_graph = _arrow_counts(machine, game, inputs)
    totals = {m: sum(c[m] for c in arrows.values()) for m in MEASURES}
    shown = next((m for m in MEASURES if totals[m]), "conform")
    most = {m: max((c[m] for c in arrows.values()), default=0) for m in MEASURES}
    measures = [{"key": m, "unit": measure.unit, "total": totals[m], "off_graph": off_graph[m]} for m, measure in MEASURES.items()]
    try:
        drawn = report.svg(report.dot(machine) + "\n")
    except report.RenderError as exc:
        # The rest of the page stands without the picture.
        return {"game": game, "svg": None, "error": str(exc), "measures": measures, "shown": shown}
    by_title = {f"{s}->{t}": (s, t) for s, t in arrows}
    root = ET.fromstring(drawn)
    for edge in root.iter(f"{{{SVG}}}g"):
        title = edge.find(f"{{{SVG}}}title")
        if edge.get("class") != "edge" or title is None or title.text not in by_title:
            continue
        pair = by_title[title.text]
        counts = arrows[pair]
        for measure in MEASURES:
            colour, width = _colour(counts[measure], most[measure])
            edge.set(f"data-{measure}", str(counts[measure]))
            edge.set(f"data-colour-{measure}", colour)
            edge.set(f"data-width-{measure}", width)
        title.text = f"{pair[0]} -> {pair[1]}: " + ", ".join(f"{counts[m]} {measure.unit}" for m, measure in MEASURES.items())
        colour, width = _colour(counts[shown], most[shown])
        for shape in (*edge.iter(f"{{{SVG}}}path"), *edge.iter(f"{{{SVG}}}polygon")):
            shape.set("stroke", colour)
            shape.set("stroke-width", width)
            if shape.tag.endswith("polygon"):
                shape.set("fill", colour)
    root.set("class", "rules-graph")
    return {
        "game": game,
        # Drawn by the renderer from the model's DOT, edited as XML above: no input's text is in it but numbers.
        "svg": Markup(ET.tostring(root, encoding="unicode")),
        "error": None,
        "measures": measures,
        "shown": shown,
    }


#: The heat map's columns: the registry's statuses, the engine's citations, then what the runs given touched.
HEAT_COLUMNS = (
    *((s, f"rules the registry marks {s}") for s in STATUSES),
    ("engine", "rules the reference engine's source cites"),
    ("verified", "rules cited by the properties verified"),
    ("scenarios", "rules cited by the scenarios"),
    ("conformance", "rules the conformance runs exercised"),
    ("transcripts", "rules on a step of a counterexample or lint's game"),
)


def _heat_map(game: Game, inputs: Inputs) -> dict[str, Any]:
    """``chainproof coverage``'s table by section, with the share of each
    section's rules the runs given touched, as a heat map."""
    table = report.game_coverage(game)
    name = game.name
    touched = {
        "verified": {r for x in inputs.about(name, "verify") for r in x["rules"]},
        "scenarios": {r for x in inputs.about(name, "scenarios") for r in x["rules"]},
        "conformance": {r for x in inputs.about(name, "conform") for r, n in x["coverage"]["rules"].items() if n},
        "transcripts": {r for t in _transcripts(name, inputs) for s in t["steps"] for r in s["rules"]},
    }
    sections = game.registry.by_section()
    rows = []
    for s in table["sections"]:
        ids = {r.id for r in sections[s["section"]]}
        counts = {**{k: s[k] for k in (*STATUSES, "engine")}, **{k: len(ids & rules) for k, rules in touched.items()}}
        rows.append({
            "section": s["section"], "rules": s["rules"],
            "cells": [{"count": counts[k], "share": counts[k] / s["rules"] if s["rules"] else 0.0} for k, _ in HEAT_COLUMNS],
        })
    # The columns some input about this game could fill: the others are hatched, not zero.
    given = {
        "verified": bool(inputs.about(name, "verify")), "scenarios": bool(inputs.about(name, "scenarios")),
        "conformance": bool(inputs.about(name, "conform")), "transcripts": bool(inputs.about(name, "verify") or inputs.about(name, "lint")),
    }
    return {
        "game": name, "rules": table["rules"], "rows": rows,
        "columns": [{"key": k, "doc": doc, "given": given.get(k, True)} for k, doc in HEAT_COLUMNS],
    }


def _bounds(bounds: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in bounds.items())


def page(inputs: Inputs, games: Sequence[str] = ()) -> dict[str, Any]:
    """Everything the template shows, computed: the template only lays it out."""
    names = [g for g in GAME_NAMES if g in {*inputs.games(), *games}]
    chosen = {name: get_game(name) for name in names}
    machines = {name: g.machine({}) for name, g in chosen.items()}
    rules = RuleIndex({name: RuleTexts(chosen[name], machines[name]) for name in names})

    verdicts, counterexamples = [], []
    for i, r in enumerate(inputs.verify):
        anchor = f"counterexample-{i}" if r["counterexample"] else None
        verdicts.append({
            "game": r["game"], "property": r["property"], "rules": rules.links(r["game"], r["rules"]), "verdict": r["verdict"],
            "reading": r["reading"], "depth": r["depth"], "bounds": _bounds(r["bounds"]), "method": r["method"],
            "seconds": f"{r['seconds']:.2f}", "note": r["note"], "counterexample": anchor,
        })
        if anchor:
            counterexamples.append({
                "anchor": anchor, "game": r["game"], "property": r["property"], "method": r["method"], "verdict": r["verdict"],
                "reading": r["reading"].name, "bounds": _bounds(r["bounds"]),
                "transcript": _transcript(r["counterexample"], r["game"], rules),
            })
    findings = [_finding(f, rules) for f in inputs.lint]
    # Those that do not pass first.
    scenarios = [
        {**s, "rules": rules.links(s["game"], s["rules"])}
        for s in sorted(inputs.scenarios, key=lambda s: (s["status"] == "pass", s["game"], s["scenario"]))
    ]
    conform = [
        {
            "game": c["game"], "status": c["status"], "examples": c["examples"], "steps": c["steps"],
            "findings": [{"kind": f["kind"], "rules": rules.links(c["game"], f["rules"]), "detail": f["detail"]} for f in c["findings"]],
            "transcript": c["transcript"],
            "exercised": c["coverage"]["reachable_edges"] - len(c["coverage"]["missed_edges"]), "reachable": c["coverage"]["reachable_edges"],
            "missed": sorted(c["coverage"]["missed_edges"]),
        }
        for c in inputs.conform
    ]
    graphs = [_graph(name, machines[name], inputs) for name in names]
    heat_maps = [_heat_map(chosen[name], inputs) for name in names]
    return {
        "version": metadata.version("chainproof"),
        "sources": inputs.sources,
        "games": [{"name": n, "title": chosen[n].title} for n in names],
        "verdict_names": VERDICTS,
        "verdict_counts": {v: sum(r["verdict"] == v for r in verdicts) for v in VERDICTS},
        "verdicts": verdicts,
        # The filters' choices, in the order the table first shows each.
        "readings": list(dict.fromkeys(v["reading"].name for v in verdicts)),
        "bounds": list(dict.fromkeys(v["bounds"] for v in verdicts)),
        "counterexamples": counterexamples,
        "lint_given": any(c == "lint" for c, _ in inputs.sources),
        "findings": findings,
        "new_findings": sum(not f["known"] for f in findings),
        "lint_checks": len(inputs.lint_checks),
        "scenario_counts": {s: sum(x["status"] == s for x in scenarios) for s in runner.STATUSES},
        "scenarios": scenarios,
        "conform": conform,
        "graphs": graphs,
        "measures": MEASURES,
        "heat_maps": heat_maps,
        # Last: every section above has registered the rules it links to.
        "rules": rules.appendix(),
    }


def _environment() -> Any:
    import jinja2  # on use, as above

    return jinja2.Environment(
        loader=jinja2.PackageLoader("chainproof", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(inputs: Inputs, games: Sequence[str] = ()) -> str:
    """The page, as HTML text."""
    return _environment().get_template("report.html.j2").render(page(inputs, games))


# -- the command --------------------------------------------------------------------------


def _input_option(command: str, what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        f"--{command}", f"{command}_files", multiple=True, metavar="FILE", type=click.Path(dir_okay=False, path_type=Path),
        help=f"{what} (`chainproof {command} --json` > FILE; repeatable)",
    )


@click.command("report")
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@_input_option("verify", "the verdicts and counterexamples")
@_input_option("lint", "lint's findings, each with its games")
@_input_option("scenarios", "scenario results")
@_input_option("conform", "a conformance run's edge counts and findings")
@click.option("--campaign", "campaign_files", multiple=True, metavar="DB", type=click.Path(dir_okay=False, path_type=Path),
              help="a campaign's results database (`chainproof campaign`): the run of each of its cells (repeatable)")
# A value of its own is optional, so that `--run --game hota` runs verify as it always has.
@click.option("--run", "runs", multiple=True, is_flag=False, flag_value="verify", type=click.Choice(COMMANDS), metavar="[COMMAND]",
              help="run `chainproof COMMAND --json`, COMMAND one of verify (when none is named), lint, scenarios, conform, "
                   "at its defaults on the built-in rulebooks (the games of --game, or all), and report it; for a command "
                   "no file is given for (repeatable; scenarios take seconds, verify about a minute, lint and conform minutes)")
@click.option("--game", "games", multiple=True, metavar="GAME",
              help=f"also draw this game's graph and heat map; with --run, a game to run on (repeatable; {', '.join(GAME_NAMES)})")
def report_command(
    output: Path,
    verify_files: tuple[Path, ...],
    lint_files: tuple[Path, ...],
    scenarios_files: tuple[Path, ...],
    conform_files: tuple[Path, ...],
    campaign_files: tuple[Path, ...],
    runs: tuple[str, ...],
    games: tuple[str, ...],
) -> None:
    """Write one self-contained HTML page (OUTPUT) from the JSON of verify,
    lint, scenarios and conform: the verdicts, every counterexample with its
    rules' texts, lint's findings side by side, each game's rules graph
    coloured by the runs, and the registry's coverage as a heat map.
    Exit 0 when the page is written, 2 on bad input."""

    def build() -> int:
        for g in games:
            get_game(g)  # an unknown name is refused before any work
        given = {"verify": verify_files, "lint": lint_files, "scenarios": scenarios_files, "conform": conform_files}
        to_run = [c for c in COMMANDS if c in runs]
        for command in to_run:
            if given[command]:
                raise BadInput(f"--run {command} runs {command} and --{command} gives its JSON: give one or the other")
        if not to_run and not any(given.values()) and not campaign_files:
            raise BadInput("nothing to report: give --verify, --lint, --scenarios, --conform or --campaign files, "
                           "or --run COMMAND to run one")
        if not output.parent.is_dir():
            # Said before the page is built, which takes seconds.
            raise BadInput(f"cannot write {output}: the folder {output.parent} does not exist")
        inputs = Inputs()
        for command in COMMANDS:
            for path in given[command]:
                inputs.add(command, read(path, command), str(path))
        for path in campaign_files:
            # A cell that ended in an error has no run to show.
            for cell in (c for c in campaign.read_rows(path).values() if c.outcome != campaign.ERROR):
                name = f"{path} [{cell.key}]"
                inputs.add(cell.kind, checked(cell.result, cell.kind, name), name)
        for command in to_run:
            for args in run_arguments(command, games):
                line = " ".join(["chainproof", command, *args, "--json"])
                click.echo(f"running {line} ...", err=True)
                inputs.add(command, run_command(command, *args), f"{line} (run by --run)")
        html = render(inputs, games)
        try:
            output.write_text(html, encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"cannot write {output}: {exc.strerror or exc}") from None
        click.echo(f"wrote {output} ({len(html.encode('utf-8')) / 1024:.0f} KiB)")
        return 0

    guarded(build)
