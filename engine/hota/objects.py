"""Plain data of a Heroes of Ancients game: actions, entities, tokens,
waiting triggers, the council, and the errors the engine raises."""

from __future__ import annotations

from dataclasses import dataclass, fields

CHANCE = -1  # OpenSpiel's id for "chance decides"
TERMINAL = -4  # OpenSpiel's id for "nobody: the game is over"


class EngineSetupError(ValueError):
    """A game the engine cannot start: `field` names the bad argument
    (players, table, decks, starting_life, format, pool)."""

    def __init__(self, field_name: str, message: str):
        self.field = field_name
        super().__init__(f"setup {field_name}: {message}")


class CardPoolError(Exception):
    """The card pool is malformed, or a card was asked for that it lacks; the
    message names the file and the card."""


class UnknownCard(CardPoolError, EngineSetupError):
    """A card name the pool does not hold. It is a pool error (the pool is
    asked for a card it lacks) and, when a table or deck names it, a setup
    error too, so it can be caught as either."""

    def __init__(self, path: str, name: str, field_name: str = "card"):
        self.path = path
        self.name = name
        self.field = field_name
        Exception.__init__(self, f"{path}: no card named {name!r} (setup {field_name})")


class DeckError(EngineSetupError):
    """A deck that breaks 100.2a in the format asked for: a setup error at the
    field `decks`, so a game in a format refuses it as it is set up. `rule` is
    "100.2a"; `count` is the deck size or the copies of `name`; `seat` the
    player whose deck it is, when a game was being set up."""

    def __init__(self, message: str, count: int, name: str | None = None, seat: str | None = None):
        self.rule = "100.2a"
        self.count = count
        self.name = name
        self.seat = seat
        super().__init__("decks", (f"{seat}'s deck breaks " if seat else "") + f"100.2a: {message}")


class IllegalAction(Exception):
    """An action the rules forbid in this state. `rule` is the rule id that
    forbids it, `reason` says why, `label` is the action in words; the message
    carries both and the state."""

    def __init__(self, rule: str, reason: str, label: str, state_text: str = ""):
        self.rule = rule
        self.reason = reason
        self.label = label
        super().__init__(f"{label!r}: illegal by {rule}: {reason}" + (f"\n{state_text}" if state_text else ""))


def seat(p: int) -> str:
    return f"P{p + 1}"


#: The fields each kind of action takes besides its player.
TAKES = {
    "shuffle": (), "first_player": ("target",), "mulligan": ("count",), "pass": (),
    "activate": ("source", "target", "target_card"), "choose": ("card",), "answer": ("choice",),
    "optional": ("source", "choice"), "concede": (), "play": ("source", "choice", "target", "target_card"),
}


@dataclass(frozen=True)
class Action:
    """A choice, by a player or by chance (player CHANCE).

    kind          shuffle | first_player | mulligan | pass | activate | play | choose | answer | optional | concede
    source        activate: the entity's `ref` (its card name, or "P2's Ember Bolt" for one
                  its owner no longer controls); optional: the trigger's card name;
                  play: the name of the card played from hand
    target        first_player: the seat that goes first; activate: the seat of the target
                  player, or the controller of the target token or entity; play: the
                  opponent a card gives an entity to (Gift of Fealty)
    target_card   activate: None for a player target, "Spirit" for a token, else the entity's `ref`;
                  play: the `ref` of the entity given
    count         mulligan: how many cards (0 keeps)
    card          choose: the index in the hand of the card chosen face down
    choice        answer: "accept" | "refuse"; optional: "create" | "decline";
                  play: the attribute chosen, for a card that asks for one (105.3)
    """

    kind: str
    player: int
    source: str | None = None
    target: int | None = None
    target_card: str | None = None
    count: int | None = None
    card: int | None = None
    choice: str | None = None

    def stray_fields(self) -> list[str]:
        """The fields set that its kind does not take (they would be silently ignored)."""
        return [f.name for f in fields(self)[2:] if f.name not in TAKES.get(self.kind, ()) and getattr(self, f.name) is not None]

    def __str__(self) -> str:
        who = seat(self.player) if isinstance(self.player, int) and self.player >= 0 else "chance"
        if self.kind == "shuffle":
            return "shuffle decks"
        if self.kind == "first_player":
            return f"{seat(self.target)} goes first" if isinstance(self.target, int) else f"{self.target!r} goes first"
        if self.kind == "mulligan":
            return f"{who} declares mulligan {self.count}"
        if self.kind == "pass":
            return f"{who} passes"
        if self.kind == "concede":
            return f"{who} concedes"
        if self.kind == "play":
            text = f"{who} plays {self.source}" + (f" choosing {self.choice}" if self.choice is not None else "")
            if self.target is not None or self.target_card is not None:
                aim = seat(self.target) if isinstance(self.target, int) else repr(self.target)
                text += f" giving {self.target_card} to {aim}"
            return text
        if self.kind == "activate":
            text = f"{who} activates {self.source}"
            if self.target is not None:
                aim = seat(self.target) if isinstance(self.target, int) else repr(self.target)
                if isinstance(self.target_card, str) and "'s " in self.target_card:
                    # An entity its owner no longer controls: "targeting P2's Ember Bolt under P1's control".
                    text += f" targeting {self.target_card} under {aim}'s control"
                else:
                    text += f" targeting {aim}" + (f"'s {self.target_card}" if self.target_card else "")
            return text
        if self.kind == "choose":
            # Which card is chosen is hidden (101.4a): every choice reads the same.
            return f"{who} chooses a card face down"
        if self.kind == "answer":
            return f"{who} {'accepts' if self.choice == 'accept' else 'refuses' if self.choice == 'refuse' else repr(self.choice)}"
        if self.kind == "optional":
            if self.choice == "create":
                return f"{who} creates a Spirit ({self.source})"
            return f"{who} declines ({self.source})"
        return f"{who} {self.kind}"


@dataclass
class Entity:
    """An entity card on the battlefield (109.1). Its owner put it in the game
    (107.1, 109.2); it starts under its owner's control (107.2) and only an
    effect changes that (Mind Tether). `ref` is how actions name it: its card
    name while its owner controls it, else "P2's Ember Bolt" (its owner's), so
    that a player holding two of one name can tell them apart."""

    card: object  # cards.Card
    controller: int
    owner: int = -1  # -1: the controller, as every entity starts (107.2)
    used: bool = False  # assumed:once-per-turn
    silenced: bool = False  # Silencing Rune, until end of turn (101.2a)

    def __post_init__(self) -> None:
        if self.owner == -1:
            self.owner = self.controller

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def ref(self) -> str:
        return self.name if self.owner == self.controller else f"{seat(self.owner)}'s {self.name}"


@dataclass
class Token:
    """A Spirit token (109.5, 109.5a, 109.5c): owned and controlled by the player
    who created it, until an effect on entities gives its control to another
    (109.5e: Mind Tether); its owner stays (107.1). `zone` is battlefield, hand,
    exile or discard; anywhere but the battlefield it vanishes at the next
    check (109.5f)."""

    id: int
    owner: int
    controller: int
    zone: str = "battlefield"

    @property
    def ref(self) -> str:
        """How actions name it, as an entity: "Spirit" while its owner controls
        it, else "P2's Spirit" (its owner's), once Mind Tether took it (109.5e)."""
        return "Spirit" if self.owner == self.controller else f"{seat(self.owner)}'s Spirit"


@dataclass
class Trigger:
    """A triggered ability waiting for the next check (assumed:trigger-order).
    `controller` is the controller of its entity when it triggered (108.4);
    `token_controller` the controller of the token whose move triggered it;
    `token` that token's id (Culling Field destroys that very token)."""

    card: str
    ability: str
    controller: int
    token_controller: int
    token: int
    optional: bool = False


@dataclass
class StackObject:
    """An object on the stack while it resolves (108.1): a card being played
    ("played card", as 108.2 calls it) or an activated ability ("ability"). 107.3: it has
    a controller there; 108.4: a played card's is the player playing it, an
    ability's the player who activated it. `owner` is the played card's owner
    (107.1) or the owner of the ability's entity."""

    name: str
    kind: str
    owner: int
    controller: int


@dataclass
class Council:
    """Council of Elders while its players choose (101.4, 101.4a-101.4d).
    `queue` holds the seats still to act, the current chooser first."""

    activator: int
    queue: list[int]
    picked: list  # per seat: None before the card choice, False when skipped, True once chosen
    answers: list  # per seat: None, "accept" or "refuse"
    chosen: list  # per seat: the index in the hand of the chosen card, or None
    rechoosing: bool = False

    @property
    def chooser(self) -> int:
        return self.queue[0] if self.queue else -1
