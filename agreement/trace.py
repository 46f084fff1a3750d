"""``chainproof check-trace``: a log written by an engine in any language,
checked against the model.

The log is JSON Lines.  Each line is one object, either a state
``{"state": {...}}`` (optionally with ``"offered": [action, ...]``, the actions
the engine offered there) or an action ``{"action": {...}, "label": "..."}``,
in the observation format (README, "Traces from any engine").  States and
actions alternate, starting and ending with a state.  A state that is not a
point where the model waits for a choice (the engine asking for armor, say)
is passed through: the actions up to the next such point make one step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agreement.findings import Finding
from agreement.games import checker_for
from model import safe_yaml


#: The fields each kind of line may have (README, "Traces from any engine").
_FIELDS = {"state": {"state", "offered"}, "action": {"action", "label"}, "game": {"game"}}


class TraceFileError(ValueError):
    """The file is not a trace: the message names the file and line."""


@dataclass
class TraceResult:
    path: str
    game: str
    steps: int = 0
    finding: Finding | None = None
    line: int = 0  # line of the action that starts the step the rules do not allow
    label: str = ""
    completeness_checked: bool = True
    edges: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.finding is None

    def as_json(self) -> dict[str, Any]:
        return {
            "trace": self.path,
            "game": self.game,
            "status": "agree" if self.ok else "disagree",
            "steps": self.steps,
            "first_disallowed": None
            if self.ok
            else {"line": self.line, "action": self.label, "kind": self.finding.kind, "rules": list(self.finding.rules), "detail": self.finding.detail},
            "completeness_checked": self.completeness_checked,
            "edges": self.edges,
        }


def read(path: Path) -> tuple[str, list[tuple[int, dict[str, Any]]]]:
    """The game and the entries of a trace, each with its line number."""
    if safe_yaml.special_file(path):
        raise TraceFileError(f"{path}: not a regular file (a device or a pipe)")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TraceFileError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise TraceFileError(f"{path}:{line}: not UTF-8 text") from None
    entries = []
    game = "wowtcg"
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceFileError(f"{path}:{number}: not JSON: {exc.msg} (column {exc.colno})") from None
        except RecursionError:
            raise TraceFileError(f"{path}:{number}: not a trace line: its JSON nests too deeply") from None
        except ValueError:
            # Python refuses to convert an integer of thousands of digits.
            raise TraceFileError(f"{path}:{number}: not a trace line: a number with too many digits") from None
        if not isinstance(entry, dict) or len({"state", "action", "game"} & set(entry)) != 1:
            raise TraceFileError(f"{path}:{number}: expected an object with exactly one of 'state', 'action' or (first line only) 'game'")
        allowed = _FIELDS[next(iter({"state", "action", "game"} & set(entry)))]
        unknown = sorted(set(entry) - allowed)
        if unknown:
            # A misspelt field ('offerd') would otherwise be dropped, and with it a check.
            raise TraceFileError(f"{path}:{number}: unknown field {unknown[0]!r}; a line of this kind has {', '.join(sorted(allowed))}")
        if "label" in entry and not isinstance(entry["label"], str):
            raise TraceFileError(f"{path}:{number}: label: expected a string, got {type(entry['label']).__name__}")
        if "game" in entry:
            if entries:
                raise TraceFileError(f"{path}:{number}: 'game' may only be given on the first line")
            game = entry["game"]
            continue
        entries.append((number, entry))
    if not entries or "state" not in entries[0][1] or "state" not in entries[-1][1]:
        raise TraceFileError(f"{path}: a trace starts and ends with a state")
    for (n1, a), (n2, b) in zip(entries, entries[1:]):
        if ("state" in a) == ("state" in b):
            raise TraceFileError(f"{path}:{n2}: states and actions must alternate (line {n1} is also {'a state' if 'state' in a else 'an action'})")
    return game, entries


def check_trace(path: Path) -> TraceResult:
    game, entries = read(path)
    checker = checker_for(game)
    result = TraceResult(str(path), game)

    def valid(check: Any, value: Any, number: int) -> None:
        try:
            check(value)
        except ValueError as exc:
            raise TraceFileError(f"{path}:{number}: {exc}") from None

    for number, entry in entries:
        valid(checker.check_state if "state" in entry else checker.check_action, entry.get("state", entry.get("action")), number)
        offered = entry.get("offered", [])
        if not isinstance(offered, list):
            raise TraceFileError(f"{path}:{number}: offered: expected a list of actions, got {type(offered).__name__}")
        for k, action in enumerate(offered):
            try:
                checker.check_action(action)
            except ValueError as exc:
                raise TraceFileError(f"{path}:{number}: offered[{k}]: {exc}") from None
    first = entries[0][1]
    if not checker.waits_for_choice(first["state"]):
        raise TraceFileError(f"{path}:{entries[0][0]}: the first state must be one where a player chooses")
    checker.begin(first["state"])
    pre, offered = first["state"], first.get("offered")
    choice = None
    for number, entry in entries[1:]:
        if "action" in entry:
            if choice is None:
                choice, choice_line, label = entry["action"], number, entry.get("label", "")
            continue
        state = entry["state"]
        if not checker.waits_for_choice(state) and entry is not entries[-1][1]:
            continue
        result.completeness_checked &= offered is not None
        findings = checker.step(pre, choice, state, offered)
        result.steps += 1
        if findings:
            result.finding, result.line, result.label = findings[0], choice_line, label
            break
        pre, offered, choice = state, entry.get("offered"), None
    result.edges = dict(sorted(checker.edges.items()))
    return result
