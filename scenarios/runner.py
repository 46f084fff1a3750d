"""Rulings as data: load, check and run scenario files, for any game.

A scenario file is YAML: a situation, a script of actions and the expected
ruling, with the rule numbers and the seed example it comes from. This module
is the part every game shares: it reads a file keeping the line of every
value, checks the fields every scenario has, walks the script (actions,
expectations between them, actions that must be illegal) and turns the
outcome into a result. Everything that knows the game (building the
situation, matching an action to the engine's legal actions, reading the
state an expectation talks about) lives in the game's adapter,
``scenarios/<game>/``, reached through :class:`GameAdapter`.

Two kinds of trouble are kept apart, because they call for different people:

- :class:`ScenarioFileError`: the file is malformed (bad YAML, an unknown or
  missing field, a wrong type, an unknown card or step, an action that
  matches no legal action). Status ``error``; the message names the file and
  the line.
- :class:`RulingFailed`: the file is fine but the engine's ruling differs from
  the expected one. Status ``fail``; the detail shows expected against actual.

Any other exception is a crash, counted against the side that raised it: the
engine's is a ``fail`` (it ruled nothing), the model check's an ``error``
that names it as ours.
"""

from __future__ import annotations

import fnmatch

import importlib
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from model import safe_yaml

SCENARIO_ROOT = Path(__file__).resolve().parent

#: The games that have scenario adapters: name -> module exposing ``ADAPTER``.
ADAPTERS = {"wowtcg": "scenarios.wowtcg.adapter", "riftbound": "scenarios.riftbound.adapter", "hota": "scenarios.hota.adapter"}

STATUSES = ("pass", "fail", "error")
#: A script step that has every player pass in turn.
EVERYONE_PASSES = "everyone passes"


# --- errors ---------------------------------------------------------------------------


class ScenarioFileError(Exception):
    """A scenario file is malformed: the message says where and what."""

    def __init__(self, path: Path | str, line: int | None, message: str):
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


@dataclass
class Mismatch:
    """One expectation the engine's state does not meet."""

    line: int
    what: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}: expected {_show(self.expected)}, got {_show(self.actual)}"


class RulingFailed(Exception):
    """The engine's ruling differs from the expected one."""

    def __init__(self, where: str, mismatches: list[Mismatch], snapshot: str = ""):
        self.where, self.mismatches, self.snapshot = where, mismatches, snapshot
        lines = [where] + [f"  {m}" for m in mismatches]
        if snapshot:
            lines += ["  state:"] + [f"    {s}" for s in snapshot.splitlines()]
        super().__init__("\n".join(lines))


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


# --- YAML with line numbers -----------------------------------------------------------


class Map(dict):
    """A YAML mapping that remembers the line of the mapping, of each key and
    of each value, and each scalar value's source text."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[str, int] = {}
        self.value_lines: dict[str, int] = {}
        self.raw: dict[str, str] = {}

    def at(self, key: str) -> int:
        return self.value_lines.get(key, self.key_lines.get(key, self.line))


class Seq(list):
    """A YAML sequence that remembers its line, each item's line and each
    scalar item's source text."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[int] = []
        self.raw: list[str | None] = []

    def at(self, index: int) -> int:
        return self.lines[index] if index < len(self.lines) else self.line


_SCALARS = yaml.constructor.SafeConstructor()


def _convert(node: yaml.Node, path: Path) -> Any:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out = Map()
        out.line = line
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise ScenarioFileError(path, key_line, "a key must be a plain word, not a list or a mapping")
            # A key is a field name or a card's name: read it as written (YAML 1.1
            # would turn a plain `on` into true).
            key = key_node.value
            if key == "<<":
                raise ScenarioFileError(path, key_line, "merge keys ('<<') are not supported: write the fields out")
            if key in out:
                raise ScenarioFileError(path, key_line, f"field {key!r} appears twice in this mapping (first at line {out.key_lines[key]})")
            out[key] = _convert(value_node, path)
            out.key_lines[key] = key_line
            out.value_lines[key] = value_node.start_mark.line + 1
            if isinstance(value_node, yaml.ScalarNode):
                out.raw[key] = value_node.value
        return out
    if isinstance(node, yaml.SequenceNode):
        out = Seq()
        out.line = line
        for item in node.value:
            out.append(_convert(item, path))
            out.lines.append(item.start_mark.line + 1)
            out.raw.append(item.value if isinstance(item, yaml.ScalarNode) else None)
        return out
    try:
        return _SCALARS.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        raise ScenarioFileError(path, line, f"cannot read this value: {getattr(exc, 'problem', exc)}") from None


def load_yaml(path: Path) -> Any:
    """Read a YAML file into :class:`Map` / :class:`Seq` values that know their lines."""
    try:
        node = safe_yaml.compose_file(path)
    except safe_yaml.YamlRefused as exc:
        raise ScenarioFileError(path, exc.line, exc.message) from None
    if node is None:
        raise ScenarioFileError(path, 1, "the file is empty: a scenario is a mapping with name, rules, source, summary, situation, script and expect")
    return _convert(node, path)


# --- checking shapes --------------------------------------------------------------------


class Checker:
    """Helpers to check a value's shape and to raise a located error."""

    def __init__(self, path: Path):
        self.path = path

    def error(self, line: int | None, message: str) -> ScenarioFileError:
        return ScenarioFileError(self.path, line, message)

    def fields(self, m: Any, line: int, what: str, required: Iterable[str], optional: Iterable[str] = ()) -> Map:
        """`m` is a mapping with every required field and no unknown one."""
        if not isinstance(m, Map):
            raise self.error(line, f"{what} must be a mapping, got {kind_of(m)}")
        required, optional = list(required), list(optional)
        for key in m:
            if key not in required and key not in optional:
                known = ", ".join(dict.fromkeys(required + optional))
                raise self.error(m.key_lines[key], f"unknown field {key!r} in {what}; known fields: {known}")
        for key in required:
            if key not in m:
                raise self.error(m.line, f"{what} lacks the field {key!r}")
        return m

    def type(self, value: Any, types: type | tuple[type, ...], line: int, what: str) -> Any:
        # YAML's true/false are bools, which Python also counts as ints: keep them apart.
        wanted = types if isinstance(types, tuple) else (types,)
        if isinstance(value, bool) and bool not in wanted:
            raise self.error(line, f"{what} must be {_names(wanted)}, got {kind_of(value)}")
        if not isinstance(value, wanted):
            raise self.error(line, f"{what} must be {_names(wanted)}, got {kind_of(value)}")
        return value

    def text(self, m: Map, key: str, what: str) -> str:
        value = self.type(m[key], str, m.at(key), f"{what} {key!r}")
        if not value.strip():
            raise self.error(m.at(key), f"{what} {key!r} is empty")
        return value

    def seq(self, value: Any, line: int, what: str) -> Seq:
        if not isinstance(value, Seq):
            raise self.error(line, f"{what} must be a list, got {kind_of(value)}")
        return value


def illegal_rules(m: Map, key: str = "rule") -> tuple[str, ...]:
    """The rule numbers an illegal step or expectation accepts, as written: one
    (``rule: "303.2c"``), or any of several where the rules forbid the action
    twice over (``rule: ["303.2c", "409.2"]``)."""
    value = m[key]
    if isinstance(value, Seq):
        return tuple(value.raw[i] if _unquoted_number(x) else x for i, x in enumerate(value))
    return (m.raw[key] if _unquoted_number(value) else value,)


def check_illegal_rules(c: Checker, adapter: "GameAdapter", m: Map, key: str = "rule") -> None:
    """Each rule number of :func:`illegal_rules` is a string the game's rules know."""
    value = m[key]
    if isinstance(value, Seq):
        if not value:
            raise c.error(m.at(key), f"'{key}' is an empty list: give the rule number, or the numbers any of which may forbid it")
        lines = [value.at(i) for i in range(len(value))]
    else:
        lines = [m.at(key)]
    for rule, at in zip(illegal_rules(m, key), lines):
        adapter.check_rule_number(c, c.type(rule, str, at, f"'{key}'"), at)


def _unquoted_number(x: Any) -> bool:
    # 409.4 unquoted reads as a number: keep what was written.
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def show_rules(rules: tuple[str, ...]) -> str:
    """``303.2c``, or ``303.2c or 409.2``."""
    return " or ".join(rules)


def kind_of(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, Map):
        return "a mapping"
    if isinstance(value, Seq):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return type(value).__name__


def _names(types: tuple[type, ...]) -> str:
    words = {str: "text", int: "a whole number", bool: "true or false", float: "a number",
             Map: "a mapping", Seq: "a list", dict: "a mapping", list: "a list", type(None): "null"}
    return " or ".join(words.get(t, t.__name__) for t in types)


# --- the scenario ---------------------------------------------------------------------------

TOP_REQUIRED = ("name", "rules", "source", "summary", "situation")
TOP_OPTIONAL = ("game", "script", "expect", "known_failure", "cases")
#: A case of a file with ``cases``: the shared situation varied, with its own
#: script and expectations.
CASE_REQUIRED = ("name",)
CASE_OPTIONAL = ("situation", "rules", "script", "expect", "known_failure")


@dataclass
class Scenario:
    path: Path
    game: str
    name: str
    rules: list[str]
    source: str
    summary: str
    situation: Map
    script: Seq
    expect: Map | None
    expect_line: int
    known_failure: str | None
    doc: Map


@dataclass
class Result:
    game: str
    scenario: str
    path: str
    rules: list[str]
    status: str  # "pass" | "fail" | "error"
    detail: str
    known_failure: str | None = None
    model: str = ""  # the model's verdict on the script's steps; empty when the game has no model check

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "scenario": self.scenario, "rules": self.rules,
                "status": self.status, "detail": self.detail, "model": self.model}


class GameAdapter:
    """What a game supplies to run its scenarios. Subclasses implement the
    three checks (called once, before anything runs, so a malformed file is
    reported even past a failing step) and :meth:`start`."""

    name = ""

    def check_situation(self, c: Checker, situation: Map) -> None:
        raise NotImplementedError

    def check_step(self, c: Checker, step: Any, line: int, situation: Map) -> None:
        """An action, or ``{illegal: action, rule: ...}``."""
        raise NotImplementedError

    def check_expect(self, c: Checker, expect: Map, situation: Map) -> None:
        raise NotImplementedError

    def check_rule_number(self, c: Checker, rule: str, line: int) -> None:
        """Games may restrict how rule numbers are written."""

    @staticmethod
    def check_label(c: Checker, label: str, line: int, players: int) -> None:
        """A scripted action's label starts with its player (``P1 passes``), or is ``everyone passes``."""
        if label == EVERYONE_PASSES:
            return
        m = re.match(r"^P(\d+) \S", label)
        if not m or not 1 <= int(m.group(1)) <= players:
            raise c.error(line, f"{label!r} is not an action: an action's label starts with the player (P1 to P{players}), "
                                f"for example 'P1 passes'; or write '{EVERYONE_PASSES}'")

    def start(self, scenario: Scenario) -> "Session":
        raise NotImplementedError


class Session:
    """One running scenario in the game's engine."""

    def act(self, step: Any, line: int) -> None:
        """Apply an action (an error if it matches no single legal action)."""
        raise NotImplementedError

    def illegal(self, step: Map, line: int) -> list[Mismatch]:
        raise NotImplementedError

    def expect(self, expect: Map) -> list[Mismatch]:
        raise NotImplementedError

    def snapshot(self) -> str:
        return ""

    def describe_step(self, step: Any) -> str:
        return str(step)

    def model_verdict(self) -> str:
        """The model's reading of the steps played so far, one line ("" if the game has none)."""
        return ""


#: A script step that has a player concede, where a game's rules let him at any
#: time (WoW 102.1b, HotA 104.3a): the engine's ``concede``, not a legal action.
CONCEDES = re.compile(r"^P([1-9]) concedes$")


def concede(session: "Session", st: Any, step: str, line: int, rule: str, illegal: type[Exception]) -> None:
    """The step's player concedes in the engine state ``st``; a refusal
    (``illegal``, with its rule and reason) is the ruling failing."""
    try:
        st.concede(int(CONCEDES.match(step).group(1)) - 1)
    except illegal as exc:
        refused = Mismatch(line, f"{step!r} ({rule}: a player may concede at any time)",
                           "accepted", f"illegal by {exc.rule}: {exc.reason}")  # type: ignore[attr-defined]
        raise RulingFailed("", [refused], session.snapshot()) from None


def legal_mismatches(key: str, patterns: Seq, labels: list[str]) -> list[Mismatch]:
    """``legal`` / ``not_legal``: each glob pattern must match (or must not
    match) the label of an action the engine offers."""
    out = []
    for i, pattern in enumerate(patterns):
        hits = [x for x in labels if fnmatch.fnmatchcase(x, pattern)]
        if key == "legal" and not hits:
            out.append(Mismatch(patterns.at(i), "a legal action", pattern, labels))
        if key == "not_legal" and hits:
            out.append(Mismatch(patterns.at(i), "no legal action like", pattern, hits))
    return out


def model_disagrees(line: int, step: Any, findings: list[Any], snapshot: str) -> RulingFailed:
    """The failure of a step the engine took but the model following the game does not allow."""
    rules = sorted({r for f in findings for r in f.rules})
    return RulingFailed("", [Mismatch(line, f"the model's reading of {step!r}", "a step the model allows",
                                      "; ".join(str(f) for f in findings) + f" (rules {', '.join(rules)})")], snapshot)


def adapter_for(game: str) -> GameAdapter:
    module = ADAPTERS.get(game)
    if module is None:
        raise KeyError(game)
    return importlib.import_module(module).ADAPTER


def game_of(path: Path, doc: Map | None = None) -> str | None:
    """The game a file belongs to: its ``game`` field, else the nearest folder
    named after a game (``scenarios/wowtcg/...``)."""
    if doc is not None and isinstance(doc.get("game"), str):
        return doc["game"]
    for parent in path.resolve().parents:
        if parent.name in ADAPTERS:
            return parent.name
    return None


def load(path: Path | str, game: str | None = None) -> tuple[Scenario, GameAdapter]:
    """Read and fully check a scenario file of one case; raises :class:`ScenarioFileError`
    (for a file of several cases too: use :func:`load_cases`)."""
    scenarios, adapter = load_cases(path, game)
    if len(scenarios) != 1 or "cases" in scenarios[0].doc:
        raise ScenarioFileError(Path(path), scenarios[0].doc.at("cases"), "this file has several cases: read it with load_cases")
    return scenarios[0], adapter


def load_cases(path: Path | str, game: str | None = None) -> tuple[list[Scenario], GameAdapter]:
    """Read and fully check one scenario file, every case of it; raises
    :class:`ScenarioFileError`.  A file with ``cases`` shares its situation:
    each case replaces the situation's keys it gives, adds its rules to the
    file's, and has its own script and expectations."""
    path = Path(path)
    c = Checker(path)
    doc = load_yaml(path)
    if not isinstance(doc, Map):
        raise c.error(getattr(doc, "line", 1), f"a scenario is a mapping of fields, got {kind_of(doc)}")
    c.fields(doc, doc.line, "the scenario", TOP_REQUIRED, TOP_OPTIONAL)
    name_of_game = game_of(path, doc) if "game" in doc else (game or game_of(path))
    if "game" in doc:
        c.text(doc, "game", "the scenario's")
    if name_of_game not in ADAPTERS:
        where = doc.at("game") if "game" in doc else doc.line
        raise c.error(where, f"unknown game {name_of_game!r}: set 'game' to one of {', '.join(ADAPTERS)}"
                      if name_of_game else f"cannot tell the game: put the file under a game folder or set 'game' ({', '.join(ADAPTERS)})")
    adapter = adapter_for(name_of_game)
    for key in ("name", "source", "summary"):
        c.text(doc, key, "the scenario's")
    if "known_failure" in doc:
        c.text(doc, "known_failure", "the scenario's")
    numbers = _rule_numbers(c, adapter, doc)
    if not numbers:
        raise c.error(doc.at("rules"), "'rules' is empty: cite at least one rule number")
    situation = doc["situation"]
    if not isinstance(situation, Map):
        raise c.error(doc.at("situation"), f"'situation' must be a mapping, got {kind_of(situation)}")
    if "cases" not in doc:
        adapter.check_situation(c, situation)
        return [_one_case(c, adapter, doc, doc, name_of_game, doc["name"], numbers, situation)], adapter
    for key in ("script", "expect"):
        if key in doc:
            raise c.error(doc.at(key), f"a file with 'cases' has no '{key}' of its own: give each case its own")
    cases = c.seq(doc["cases"], doc.at("cases"), "'cases'")
    if not cases:
        raise c.error(doc.at("cases"), "'cases' is empty: give at least one case, or drop the key")
    out, names = [], set()
    for i, case in enumerate(cases):
        if not isinstance(case, Map):
            raise c.error(cases.at(i), f"case {i + 1} must be a mapping, got {kind_of(case)}")
        c.fields(case, case.line, f"case {i + 1}", CASE_REQUIRED, CASE_OPTIONAL)
        name = c.text(case, "name", f"case {i + 1}'s")
        if name in names:
            raise c.error(case.at("name"), f"two cases are named {name!r}: name each case differently")
        names.add(name)
        varied = situation
        if "situation" in case:
            if not isinstance(case["situation"], Map):
                raise c.error(case.at("situation"), f"a case's 'situation' must be a mapping, got {kind_of(case['situation'])}")
            varied = _varied(situation, case["situation"])
        adapter.check_situation(c, varied)
        rules = numbers + [r for r in (_rule_numbers(c, adapter, case) if "rules" in case else []) if r not in numbers]
        out.append(_one_case(c, adapter, doc, case, name_of_game, f"{doc['name']}: {name}", rules, varied))
    return out, adapter


def _rule_numbers(c: Checker, adapter: GameAdapter, m: Map) -> list[str]:
    rules = c.seq(m["rules"], m.at("rules"), "'rules'")
    numbers = []
    for i, rule in enumerate(rules):
        if _unquoted_number(rule):
            rule = rules.raw[i]
        c.type(rule, str, rules.at(i), f"rule number {i + 1}")
        adapter.check_rule_number(c, rule, rules.at(i))
        numbers.append(rule)
    return numbers


def _varied(shared: Map, changes: Map) -> Map:
    """The shared situation with the keys a case gives replaced, each line kept where it was written."""
    out = Map()
    out.line = changes.line
    for source in (shared, changes):
        for key, value in source.items():
            out[key] = value
            for lines, theirs in ((out.key_lines, source.key_lines), (out.value_lines, source.value_lines), (out.raw, source.raw)):
                if key in theirs:
                    lines[key] = theirs[key]
    return out


def _one_case(c: Checker, adapter: GameAdapter, doc: Map, case: Map, game: str, name: str, rules: list[str],
              situation: Map) -> Scenario:
    """One case's script and expectations checked, as a scenario to play."""
    if "known_failure" in case and case is not doc:
        c.text(case, "known_failure", "the case's")
    script = c.seq(case.get("script", Seq()), case.at("script"), "'script'")
    asserts = 0
    for i, step in enumerate(script):
        line = script.at(i)
        if isinstance(step, Map) and "expect" in step:
            c.fields(step, line, "an expectation step", ("expect",))
            if not isinstance(step["expect"], Map):
                raise c.error(step.at("expect"), f"'expect' must be a mapping, got {kind_of(step['expect'])}")
            adapter.check_expect(c, step["expect"], situation)
            asserts += bool(step["expect"])
        else:
            adapter.check_step(c, step, line, situation)
            asserts += isinstance(step, Map) and "illegal" in step
    expect = case.get("expect")
    if expect is not None:
        if not isinstance(expect, Map):
            raise c.error(case.at("expect"), f"'expect' must be a mapping, got {kind_of(expect)}")
        adapter.check_expect(c, expect, situation)
        asserts += bool(expect)
    if not asserts:
        what = "the scenario" if case is doc else f"case {name!r}"
        raise c.error(case.line, f"{what} expects nothing: add 'expect' (or an expect or illegal step to the script)")
    return Scenario(
        path=c.path, game=game, name=name, rules=rules, source=doc["source"],
        summary=doc["summary"], situation=situation, script=script, expect=expect,
        expect_line=case.at("expect") if expect is not None else 0,
        known_failure=case.get("known_failure", doc.get("known_failure")), doc=doc,
    )


def execute(scenario: Scenario, adapter: GameAdapter) -> Session:
    """Play the scenario; raises :class:`RulingFailed` or :class:`ScenarioFileError`."""
    session = adapter.start(scenario)
    done = "the situation"
    for i, step in enumerate(scenario.script):
        line = scenario.script.at(i)
        if isinstance(step, Map) and "expect" in step:
            mismatches = session.expect(step["expect"])
            if mismatches:
                raise RulingFailed(f"expectation at line {line}, after {done}:", mismatches, session.snapshot())
            continue
        if isinstance(step, Map) and "illegal" in step:
            mismatches = session.illegal(step, line)
            if mismatches:
                raise RulingFailed(f"illegal action at line {line}, after {done}:", mismatches, session.snapshot())
            continue
        try:
            session.act(step, line)
        except RulingFailed as exc:
            raise RulingFailed(f"step at line {line} ({session.describe_step(step)}), after {done}:",
                               exc.mismatches, exc.snapshot) from None
        done = f"line {line} ({session.describe_step(step)})"
    if scenario.expect is not None:
        mismatches = session.expect(scenario.expect)
        if mismatches:
            raise RulingFailed(f"expect at line {scenario.expect_line}, after {done}:", mismatches, session.snapshot())
    return session


def run_file(path: Path | str, game: str | None = None, root: Path | None = None) -> Result:
    """The result of a file of one case (see :func:`run_cases` for any file)."""
    results = run_cases(path, game, root)
    if len(results) != 1:
        raise ValueError(f"{path} has {len(results)} cases: run it with run_cases")
    return results[0]


def run_cases(path: Path | str, game: str | None = None, root: Path | None = None) -> list[Result]:
    """One result per case of a file (one for a file without cases, or that
    cannot be read); never raises for a malformed file or a wrong ruling."""
    path = _display(Path(path))
    shown = _relative(path, root)
    try:
        scenarios, adapter = load_cases(path, game)
    except ScenarioFileError as exc:
        return [Result(game or game_of(path) or "?", shown, str(path), [], "error", str(exc))]
    if "cases" not in scenarios[0].doc:
        return [_run(scenario, adapter, shown, str(path)) for scenario in scenarios]
    cases = [scenario.name.removeprefix(f"{scenario.doc['name']}: ") for scenario in scenarios]
    return [_run(scenario, adapter, f"{shown} [{case}]", f"{path} [{case}]") for scenario, case in zip(scenarios, cases)]


def _run(scenario: Scenario, adapter: GameAdapter, shown: str, where: str) -> Result:
    """Play one scenario (one case of a file): ``shown`` names it in the
    results, ``where`` in a failure's detail."""
    base = dict(game=scenario.game, scenario=shown, path=str(scenario.path), rules=scenario.rules,
                known_failure=scenario.known_failure)
    try:
        session = execute(scenario, adapter)
    except ScenarioFileError as exc:
        return Result(**base, status="error", detail=str(exc))
    except RulingFailed as exc:
        detail = f"{where}: ruling differs from the expected one at {exc}"
        if scenario.known_failure:
            detail = f"known failure: {scenario.known_failure}\n{detail}"
        return Result(**base, status="fail", detail=detail)
    except Exception as exc:  # noqa: BLE001 - a crash is reported against whichever side raised it
        if _raised_in_model_check(exc):
            # Our own model check broke: neither a wrong ruling nor "not covered".
            return Result(**base, status="error",
                          detail=f"{where}: internal error in the model check: {type(exc).__name__}: {exc}")
        # An engine that crashes rules wrongly; the file is fine.
        return Result(**base, status="fail", detail=f"{where}: the engine raised {type(exc).__name__}: {exc}")
    detail = "ok"
    if scenario.known_failure:
        detail = f"passes although marked known_failure ({scenario.known_failure}): remove the mark"
    return Result(**base, status="pass", detail=detail, model=session.model_verdict())


#: Where the model check's code lives; the engines import none of it (DESIGN.md).
MODEL_CHECK = tuple(str(SCENARIO_ROOT.parent / folder) + "/" for folder in ("agreement", "model"))


def _raised_in_model_check(exc: BaseException) -> bool:
    """Whether the innermost frame of our code that ``exc`` passed through is the model check's."""
    ours = [name for name in (frame.f_code.co_filename for frame, _ in traceback.walk_tb(exc.__traceback__))
            if name.startswith(str(SCENARIO_ROOT.parent) + "/") and "site-packages" not in name]
    return bool(ours) and ours[-1].startswith(MODEL_CHECK)


def _display(path: Path) -> Path:
    """The path as messages show it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def _relative(path: Path, root: Path | None) -> str:
    for base in (root, SCENARIO_ROOT):
        if base is None:
            continue
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def discover(paths: Iterable[Path | str] | None = None, games: Iterable[str] | None = None) -> list[Path]:
    """Scenario files: each given file, every ``*.yaml`` under each given folder;
    by default every game's folder under ``scenarios/``. Sorted, so runs repeat."""
    chosen = list(games or ADAPTERS)
    if not paths:
        paths = [SCENARIO_ROOT / g for g in chosen]
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(f for f in p.rglob("*.y*ml") if f.suffix in (".yaml", ".yml")))
        elif p.exists():
            found.append(p)
        else:
            raise FileNotFoundError(str(p))
    # A file named twice, or named and also under a folder given, runs once: counted twice it would inflate the tally.
    seen: set[Path] = set()
    return [f for f in found if not (f.resolve() in seen or seen.add(f.resolve()))]


def run_all(paths: Iterable[Path | str] | None = None, games: Iterable[str] | None = None,
            progress: Callable[[int, int], None] | None = None) -> list[Result]:
    files = discover(paths, games)
    wanted = set(games) if games else None
    results = []
    for i, f in enumerate(files):
        for result in run_cases(f, root=SCENARIO_ROOT):
            if wanted is not None and result.game not in wanted and result.game != "?":
                # Named, or found in a folder: a file of another game is refused, never dropped unseen.
                result = Result(result.game, result.scenario, result.path, result.rules, "error",
                                f"{result.path}: the scenario is for {result.game}, and --game asked for {', '.join(sorted(wanted))}")
            results.append(result)
        if progress:
            progress(i + 1, len(files))
    return results


def rules_named(game: str) -> set[str]:
    """The rule ids the shipped scenarios of a game name, in every case (for
    ``chainproof coverage``). A malformed shipped file raises
    :class:`ScenarioFileError`: a rule it would name is not guessed."""
    return {rule for path in discover(games=[game]) for scenario in load_cases(path, game)[0] for rule in scenario.rules}


def summary(results: Iterable[Result]) -> dict[str, int]:
    counts = {s: 0 for s in STATUSES}
    for r in results:
        counts[r.status] += 1
    return counts
