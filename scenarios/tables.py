"""Engine tables on which model transcripts are written out as scenario files
(``chainproof lint --scenarios``, ``chainproof diff --scenario``).

Two kinds of game:

- WoW's model boards are abstract (characters by stats, no card names), so
  its transcripts are searched again on a fixed table of engine cards
  (``scenarios/wowtcg/export.py``; ``ScenarioTable``);
- Riftbound's and Heroes of Ancients' model tables are made of the engine's
  own cards (or cards a situation can set up), so the transcript a finding
  holds, on whichever table it was found, is replayed as it is
  (``TableExport``, ``write_table_scenario``): the game's exporter writes the
  table as a situation and the engine's state in the words of ``expect``.

The replay of a transcript on a per-table game: the situation is set up as
``chainproof scenarios`` sets it up, and the model the agreement harness
builds for it (``agreement/table_checker.py``) is walked alongside the
transcript's, state for state.  At each choice (a player's or chance's) the
engine's legal actions that stand for the model's edge are tried, and one is
kept with which the engine arrives at the model's state at the next choice;
the engine takes the automatic edges itself.  Last, the written file is run
by the scenario runner, which must pass it with the model following.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import yaml

from agreement.model_steps import successors
from model.machine import Machine, ModelError


class ExportError(Exception):
    """The engine cannot replay a transcript: the message says at which step and why."""


class ScenarioTable:
    """A game's table of engine cards, for writing model transcripts out as
    scenarios the engine replays: ``machine(variant=..., reading=...)`` is the
    model of the table under a variant or a source reading (the seed's when
    neither is given), ``scenario(transcript, **meta)`` the scenario file
    (YAML text) of a transcript of that model (edge names from its start),
    which raises ExportError when the engine cannot replay it."""

    def __init__(self, machine: Any, scenario: Any) -> None:
        self.machine = machine
        self.scenario = scenario


def scenario_table(game: str, setup: Any = None, exploration: Mapping[str, int] | None = None) -> ScenarioTable | None:
    """The game's engine table (``setup``, else its fixed one: WoW's
    ``engine_table``), searched within ``exploration`` bounds (else the
    model's defaults), or None when the game has none (its model tables are
    engine tables already: ``table_export``)."""
    if game == "wowtcg":
        from scenarios.wowtcg import export

        setup = setup or export.engine_table()
        limits = {k: v for k, v in (exploration or {}).items() if k in export.EXPLORATION}
        return ScenarioTable(
            lambda **reading: export.table_machine(setup, **limits, **{k: v for k, v in reading.items() if v is not None}),
            lambda transcript, **meta: export.scenario_yaml(setup, transcript, **meta),
        )
    return None


def nearby_scenario_table(game: str, settings: Mapping[str, int], extra: Mapping[str, Any]) -> ScenarioTable:
    """The engine's table for a finding made one change from the game's
    default board (``extra``, the model builder's options) or bounds
    (``settings``), searched within those bounds; ExportError says why the
    engine has none."""
    if game != "wowtcg":
        raise ExportError(f"{game} has no fixed engine table")
    from scenarios.wowtcg import export

    setup = export.nearby_table(extra.get("board"), settings["players"], settings["allies"])
    table = scenario_table(game, setup, settings)
    assert table is not None
    return table


# -- games whose model tables are engine tables ------------------------------------------------


@dataclass(frozen=True)
class TableExport:
    """What a per-table game gives the replay: ``situation(table)`` is the
    scenario's situation for a model table (raises ExportError for a table
    the engine cannot set up), ``expect(st)`` the engine's state in the
    words of the game's ``expect``; the checker's ``model_state`` of that
    state is the model's, so it says what the model says."""

    game: str
    situation: Callable[[Any], dict[str, Any]]
    expect: Callable[[Any], dict[str, Any]]


def table_export(game: str) -> TableExport | None:
    """The exporter of a game whose model tables are engine tables, or None."""
    if game == "riftbound":
        from scenarios.riftbound import export as riftbound

        return riftbound.EXPORT
    if game == "hota":
        from scenarios.hota import export as hota

        return hota.EXPORT
    return None


#: The most engine actions a replay tries before giving up.
MOST_TRIES = 2_000


def write_table_scenario(export: TableExport, machine: Machine, transcript: Sequence[str], *, name: str, rules: Sequence[str],
                         source: str, summary: str) -> str:
    """The scenario file (YAML text) of ``transcript``, edge names of
    ``machine`` (a model of a table the game's engine can set up) from its
    start, replayed in the engine; ExportError when it cannot be."""
    from scenarios import runner

    adapter = runner.adapter_for(export.game)
    kept = _rule_numbers(adapter, rules)
    if not kept:
        raise ExportError(f"none of its rules ({', '.join(rules)}) is a rule number the {export.game} scenarios cite")
    situation = export.situation(machine.table)
    session = _session(export.game, adapter, situation)
    follower = session.model
    if follower.not_covered:
        raise ExportError(f"the model does not follow the engine on this table: {follower.not_covered}")
    lint_states = _walk(machine, transcript)
    engine_model = follower.checker.machine
    obs = follower.adapter.observe(session.st)
    start = follower.checker.model_state(engine_model, obs)
    differ = _differences(machine, lint_states[0], engine_model, start)
    if differ:
        raise ExportError(f"the engine's start is not the model's: {differ}")
    states, edges = _alongside(machine, lint_states, transcript, engine_model, start)
    # A game of no step: the situation itself is the state, as the engine sets it up.
    lines, st = _Replay(follower.checker, follower.adapter, engine_model, states, edges, transcript).run(session.st) if edges else ([], session.st)
    head = {"game": export.game, "name": name, "rules": kept, "source": source, "summary": summary, "situation": situation}
    text = _document(head, lines, export.expect(st))
    _confirm(export.game, text)
    return text


def _rule_numbers(adapter: Any, rules: Sequence[str]) -> list[str]:
    """The rules a scenario of this game may cite (the runner refuses the others)."""
    from scenarios.runner import Checker, ScenarioFileError

    c = Checker(Path("rules"))
    out = []
    for rule in rules:
        try:
            adapter.check_rule_number(c, rule, 0)
        except ScenarioFileError:
            continue
        out.append(rule)
    return out


def _session(game: str, adapter: Any, situation: dict[str, Any]) -> Any:
    """The engine game of ``situation`` as the scenario runner sets it up, with the model following."""
    from scenarios.runner import Scenario, ScenarioFileError, Seq, load_yaml

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "situation.yaml"
        path.write_text(dump(situation), encoding="utf-8")
        loaded = load_yaml(path)
        scenario = Scenario(path, game, "situation", [], "", "", loaded, Seq(), None, 0, None, loaded)
        try:
            return adapter.start(scenario)
        except ScenarioFileError as exc:
            raise ExportError(f"the engine can't set the table up: {exc.message}") from None


def _walk(m: Machine, transcript: Sequence[str]) -> list[Any]:
    """The states of ``m`` along the transcript, from the initial state it starts from."""
    tried = []
    for start in m.initial_states():
        states = [start]
        try:
            for name in transcript:
                states.append(m.apply(states[-1], m.edge(name)))
        except (ModelError, KeyError) as exc:
            tried.append(str(exc))
            continue
        return states
    raise ExportError(f"the transcript is not a game of its model from any start ({'; '.join(tried) or 'no initial state'})")


def _fields(m: Machine, s: Any) -> dict[str, Any]:
    out = dict(s._asdict())
    out["location"] = m.location_of(s)
    return out


def _differences(a: Machine, s: Any, b: Machine, t: Any) -> str:
    """Where two states of two models of one table differ, in the variables both have
    (a bounded model counts what the engine's any-length one does not)."""
    x, y = _fields(a, s), _fields(b, t)
    return "; ".join(f"{k}: model {x[k]} / engine {y[k]}" for k in x if k in y and x[k] != y[k])


def _alongside(lint: Machine, lint_states: list[Any], transcript: Sequence[str], m: Machine, start: Any) -> tuple[list[Any], list[Any]]:
    """The transcript as a game of ``m``, the engine table's model: at each
    step the edge of ``m`` that reaches the same state (its edges may be named
    otherwise: a unit by its engine id)."""
    states, edges = [start], []
    for i, name in enumerate(transcript):
        steps = [(e, post) for e, post in successors(m, states[-1]) if not _differences(lint, lint_states[i + 1], m, post)]
        if not steps:
            raise ExportError(f"transcript[{i}] {name}: the model of the engine's table has no step to the same state")
        e, post = next(((e, p) for e, p in steps if e.name == name), steps[0])
        states.append(post)
        edges.append(e)
    return states, edges


@dataclass
class _Line:
    label: str
    edges: list[str]  # the transcript's edges this action stands for


class _OutOfTries(Exception):
    pass


class _Replay:
    """Drives the engine along the walked transcript: at each choice, the
    engine's actions that stand for its edge, depth first."""

    def __init__(self, checker: Any, adapter: Any, m: Machine, states: list[Any], edges: list[Any], transcript: Sequence[str]) -> None:
        self.checker, self.adapter, self.m = checker, adapter, m
        self.states, self.edges, self.transcript = states, edges, transcript
        self.tries = 0
        self.deepest = (-1, "")

    def run(self, st: Any) -> tuple[list[_Line], Any]:
        first = next((i for i, e in enumerate(self.edges) if self.checker.is_choice(e)), None)
        if first is None:
            raise ExportError("the game has no choice of a player's or chance's: the engine takes every step itself, nothing to replay")
        if first:
            raise ExportError(f"transcript[0] {self.transcript[0]}: an automatic step before the first choice, which the engine's start has taken")
        try:
            found = self._from(st, 0)
        except _OutOfTries:
            found = None
            self.deepest = (self.deepest[0], f"{self.deepest[1]} (gave up after {MOST_TRIES} engine actions)")
        if found is None:
            i, why = self.deepest
            raise ExportError(f"transcript[{i}] {self.transcript[i]}: {why}" if i >= 0 else why)
        return found

    def _from(self, st: Any, i: int) -> tuple[list[_Line], Any] | None:
        """The engine at the transcript's choice ``i`` (its state checked): the lines from there, and the engine at the end."""
        obs = self.adapter.observe(st)
        choice = self.edges[i]
        j = i + 1
        while j < len(self.edges) and not self.checker.is_choice(self.edges[j]):
            j += 1
        actions = self.adapter.legal_actions(st)
        named = self.checker.choice_names(obs, [self.adapter.observe_action(st, a) for a in actions])
        candidates = [a for a, names in zip(actions, named) if choice.name in names]
        if not candidates:
            self._failed(i, "the engine offers no action for it")
            return None
        for action in candidates:
            self.tries += 1
            if self.tries > MOST_TRIES:
                raise _OutOfTries
            label = self.adapter.action_label(st, action)
            if sum(self.adapter.action_label(st, a) == label for a in actions) > 1:
                self._failed(i, f"the engine's action {label!r} can't be told from another of the same label in a scenario file")
                continue
            after = self.adapter.clone(st)
            self.adapter.apply_action(after, action)
            line = _Line(label, list(self.transcript[i:j]))
            seen = self.checker.model_state(self.m, self.adapter.observe(after))
            if j < len(self.edges):
                if seen != self.states[j]:
                    self._failed(i, "after it the engine's state is not the model's: " + _differences(self.m, self.states[j], self.m, seen))
                    continue
                rest = self._from(after, j)
                if rest is not None:
                    return [line, *rest[0]], rest[1]
                continue
            ends = [end for _, end in self.checker.automatic_ends(self.m, self.states[j])]
            if seen not in ends:
                self._failed(i, "after it the engine's state is not the model's: " + _differences(self.m, ends[0], self.m, seen) if ends else
                             "the model has no choice point after it")
                continue
            return [line], after
        return None

    def _failed(self, i: int, reason: str) -> None:
        if i >= self.deepest[0]:
            self.deepest = (i, reason)


def _document(head: dict[str, Any], lines: list[_Line], expect: dict[str, Any]) -> str:
    """The YAML text: each script line carries the model edges it stands for as a comment."""
    script = []
    for line in lines:
        entry = dump([line.label], flow=False).rstrip("\n")
        script.append(f"{entry}  # {' > '.join(line.edges)}")
    return dump(head) + ("script:\n" + "\n".join(script) + "\n" if script else "") + dump({"expect": expect})


def _confirm(game: str, text: str) -> None:
    """The scenario runner's own verdict on the written file: it must pass,
    the model following it (a concession, which the runner plays outside the
    model, or a game of no step leaves the model nothing to check: the replay
    has checked the engine's state against the model's already)."""
    from scenarios.runner import run_cases

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "finding.yaml"
        path.write_text(text, encoding="utf-8")
        (result,) = run_cases(path, game)
    if result.status != "pass" or result.model.startswith(("disagrees", "not covered")):
        raise ExportError(f"the scenario runner does not pass the written file ({result.status}: {result.detail}; model: {result.model})")


def dump(value: Any, flow: bool | None = None) -> str:
    """YAML as the scenario files write it: fields in order, one line per value."""
    return yaml.safe_dump(value, sort_keys=False, default_flow_style=flow, allow_unicode=True, width=10**6)
