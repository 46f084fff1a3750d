"""Plain data of a Riftbound table: units, battlefields, the combat, actions,
and the two errors the engine raises."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .cards import Card

ZONES = ("hand", "base", "battlefield", "trash")
ROLES = ("attacker", "defender")
STEPS = ("action", "cleanup", "showdown", "chain", "damage", "game_over")
KINDS = ("move", "end_turn", "start_combat", "pass", "recall", "stun", "move_to_combat", "play", "assign")
TERMINAL = -4  # OpenSpiel's id for "nobody: the game is over"


class EngineSetupError(ValueError):
    """A setup the engine cannot start from; the message names the field."""

    def __init__(self, field_name: str, message: str):
        self.field = field_name
        super().__init__(f"setup {field_name}: {message}")


class IllegalAction(Exception):
    """An action the rules forbid now. `rule` is the rule id that forbids it
    (`rules` when several do, the first being `rule`); `reason` says why."""

    def __init__(self, rules: tuple[str, ...], reason: str, label: str, state_text: str = ""):
        self.rules = tuple(rules)
        self.rule = self.rules[0]
        self.reason = reason
        self.label = label
        super().__init__(f"{label}: illegal by {', '.join(self.rules)}: {reason}"
                         + (f"\n{state_text}" if state_text else ""))


#: The fields each kind of action takes besides its player.
TAKES = {
    "move": ("unit", "battlefield"), "end_turn": (), "start_combat": ("battlefield",), "pass": (),
    "recall": ("unit",), "stun": ("unit",), "move_to_combat": ("unit",), "play": ("unit", "battlefield"),
    "assign": ("assignment",),
}


@dataclass(frozen=True)
class Action:
    """A player's choice. `unit` is a unit id, `battlefield` a 0-based index,
    `assignment` the whole damage assignment: (unit id, amount) for every
    opposing unit in the combat, in the order the damage is handed out.
    `state.action_label(a)` reads it in words."""

    kind: str
    player: int
    unit: str | None = None
    battlefield: int | None = None
    assignment: tuple[tuple[str, int], ...] = ()

    def stray_fields(self) -> list[str]:
        """The fields set that its kind does not take (an action is only what
        its kind reads: a stray field would be silently ignored)."""
        return [f.name for f in fields(self)[2:] if f.name not in TAKES.get(self.kind, ()) and getattr(self, f.name) != f.default]

    def __str__(self) -> str:
        parts = [f"P{self.player + 1} {self.kind}"]
        if self.unit is not None:
            parts.append(self.unit)
        if self.battlefield is not None:
            parts.append(f"bf{self.battlefield + 1}")
        if self.kind == "assign":
            parts.append(", ".join(f"{u} {n}" for u, n in self.assignment))
        return " ".join(parts)


@dataclass
class Unit:
    id: str
    name: str  # the name shown in labels: the card's, or one given in the setup
    card: Card
    owner: int  # also its controller: nothing in this game changes control of a unit
    zone: str
    battlefield: int | None = None
    damage: int = 0
    role: str | None = None
    stunned: bool = False
    moves: int = 0  # moves this turn: a standard move or a "move to combat" spell
    buffed: bool = False  # +1 might from its rallying cry, until the combat ends
    grants: frozenset[str] = frozenset()
    set_might: int | None = None  # the might an effect in force gives it instead of the printed one

    def has(self, keyword: str) -> bool:
        return keyword in self.card.keywords or keyword in self.grants


@dataclass
class Battlefield:
    controller: int | None = None
    contested_by: int | None = None


@dataclass
class Combat:
    battlefield: int
    attacker: int
    defender: int
    focus: int | None
    passes: int = 0
    assigning: int | None = None
    assigned: dict[str, int] = field(default_factory=dict)
    initial_chain: bool = False  # its initial chain is on the table (showdown.focus-kept once it has resolved)


@dataclass(frozen=True)
class Link:
    """One link of the chain: a trigger of `unit` (its card or keyword says
    what it does; `battlefield` is where it triggered, for a trigger that acts
    "here"), or a spell of `player` (`kind` one of the spells' action kinds,
    with the action's unit and battlefield)."""

    kind: str
    player: int
    unit: str
    battlefield: int | None = None
