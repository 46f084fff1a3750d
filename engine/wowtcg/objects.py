"""The things a game is made of: cards in zones, players, links on the chain,
damage packets, the combat in progress, actions and the decisions that wait
for one. Plain data; the rules that change them live in the other modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, make_dataclass
from typing import Any

from .cards import Card

# 413.1: the six zones; "gone" is where a token goes when it vanishes (403.2a).
ZONES = ("deck", "hand", "graveyard", "removed", "play", "chain", "gone")

#: Ticks whenever a field that uniqueness (412) and the pre-priority checks
#: (409.6) read is set, on any card or player of any game: with no tick since
#: those checks last found nothing, they would find nothing again, and the
#: state need not gather what they read to see it (`GameState._t_give_priority`).
#: A card changes zone whenever it enters or leaves play, so a move into or
#: out of play stands for the list of cards in play. The checks read cards in
#: play only, and no resource without damage or a host (`GameState._checked_facts`):
#: a field set on a card elsewhere, or such a resource entering or leaving
#: play, the most frequent moves of all, changes nothing they read and does
#: not tick. One list cell, shared by every game: a tick from another game
#: only makes a state look again.
BOARD_CLOCK = [0]
CARD_FIELDS_CHECKED = frozenset({"controller", "resource", "damage", "attached_to"})
#: Ticks with BOARD_CLOCK, but for damage: whenever which cards are in play
#: and not bare resources, their controllers or hosts, or a player's standing
#: may have changed. What is read of play to offer the actions (each
#: player's cards, the defenders, the legal targets, the proposals) reads no
#: damage, so a combat that destroys nothing leaves it as it was.
PARTY_CLOCK = [0]
#: Ticks whenever a field that says which resources a player could exhaust
#: to pay (402.4a) is set on any card of any game: whether it is exhausted,
#: its controller, whether it is a resource, its zone. With no tick since a
#: state last counted each player's ready resources, the counts hold
#: (`GameState.ready_resources`, asked before most choices).
READY_CLOCK = [0]
#: What setting each watched field of a card ticks: READY_CLOCK (`TICKS_READY`),
#: BOARD_CLOCK while the card is in play (`TICKS_BOARD`), or, for its zone,
#: both as the move says (`Obj.__setattr__`).
TICKS_BOARD, TICKS_READY, TICKS_ZONE, MARKS = 1, 2, 4, 8
CARD_FIELDS_WATCHED = {
    "controller": TICKS_BOARD | TICKS_READY,
    "resource": TICKS_BOARD | TICKS_READY | MARKS,
    "damage": TICKS_BOARD | MARKS,
    "attached_to": TICKS_BOARD | MARKS,
    "exhausted": TICKS_READY,
    "zone": TICKS_ZONE | TICKS_READY,
}
assert CARD_FIELDS_CHECKED == {name for name, ticks in CARD_FIELDS_WATCHED.items() if ticks & TICKS_BOARD}
#: Set for good once a resource of any game holds damage or a host, which
#: the rules never give one (410.1b): until then, a reading of play for
#: damage or hosts (`GameState._checked_facts`, an attachment's host leaving,
#: `effects.leave_play`) need not look over the resource row.
RESOURCE_MARKED = [False]
PLAYER_FIELDS_CHECKED = frozenset({"in_game", "drew_from_empty"})


@dataclass(slots=True)
class CardFields:
    """The fields of a card or a token in the game (`Obj`), set as fast as
    Python sets fields: an `Obj` is made as one and then becomes an `Obj`."""

    id: int
    card: Card
    owner: int
    zone: str  # "play" exactly when its id is in `GameState.play` (`GameState.move` keeps both)
    controller: int  # 401.1: meaningful in play and on the chain
    entered_by: int = 0  # who put it into play: control returns to him (401.3b)
    exhausted: bool = False  # 105.1
    damage: int = 0  # 404.1: damage counters
    attached_to: int | None = None  # 400.2: the host
    joined_turn: int = 0  # the turn number when it entered its current party (302.2)
    resource: bool = False  # in the resource row (410.1a)
    face_up: bool = True  # 410.1b: resources may be face down (blank)
    token: bool = False  # 403.2
    flipped: bool = False  # 301.2: a hero's flip
    first_combat_damage_turn: int = -1  # Thrash Blade's "first time each turn"


class Obj(CardFields):
    """A card or a token in the game. Setting a field the checks read on a
    card in play, or moving it into or out of play, ticks `BOARD_CLOCK`,
    whoever does it; setting one that decides whether it is a ready
    resource of a player ticks `READY_CLOCK`. The engine sets a field
    plainly (`object.__setattr__`) only where no clock would tick for it (a
    card about to enter play, `GameState.enter_play`) or ticks the clock
    itself and keeps the count it stands for (readying, `_t_begin_turn`;
    paying, `GameState.pay`) or ticks the clocks as this method would (a
    move, `GameState.move`; leaving play, `effects.leave_play`)."""

    __slots__ = ()

    @classmethod
    def made(cls, id: int, card: Card, owner: int, zone: str, token: bool = False) -> Obj:
        """A new card of `owner`, who controls it and puts it into play:
        made with the fields' own fast setting, every field given in order,
        then an `Obj` (`Obj(...)` would set each field through `__setattr__`),
        with one tick of the clocks for it, since it may be made straight
        into play. A game makes some eighty of them as it starts."""
        o = CardFields(id, card, owner, zone, owner, owner, False, 0, None, 0, False, True, token)
        o.__class__ = cls
        BOARD_CLOCK[0] += 1
        PARTY_CLOCK[0] += 1
        READY_CLOCK[0] += 1
        return o

    def __setattr__(self, name: str, value, _set=object.__setattr__, _watched=CARD_FIELDS_WATCHED, _clock=BOARD_CLOCK,
                    _ready=READY_CLOCK, _marked=RESOURCE_MARKED, _party=PARTY_CLOCK) -> None:
        # Every field is set by now: a card is made whole (`made`, `copy`,
        # `__deepcopy__`), never field by field.
        ticks = _watched.get(name)
        if ticks is not None:
            if ticks & MARKS and not _marked[0]:
                if name == "resource":
                    marks = value and (self.damage or self.attached_to is not None)
                else:
                    marks = (value is not None if name == "attached_to" else value) and self.resource
                if marks:
                    _marked[0] = True
            # Only a resource, or a card becoming one, changes what is ready to pay.
            if ticks & TICKS_READY and (name == "resource" or self.resource):
                _ready[0] += 1
            if ticks & TICKS_ZONE:
                if value == "play" or self.zone == "play":
                    if not self.resource or self.damage or self.attached_to is not None:  # not a bare resource
                        _clock[0] += 1
                        _party[0] += 1
            elif ticks & TICKS_BOARD and self.zone == "play":
                _clock[0] += 1
                if name != "damage":
                    _party[0] += 1
        _set(self, name, value)

    def copy(self) -> Obj:
        # Positional, in field order, and `made` written out without its tick
        # (a copy changes nothing any state reads): the fastest way to build
        # one, and a state copies every object it has.
        twin = CardFields(self.id, self.card, self.owner, self.zone, self.controller, self.entered_by, self.exhausted,
                          self.damage, self.attached_to, self.joined_turn, self.resource, self.face_up, self.token,
                          self.flipped, self.first_combat_damage_turn)
        twin.__class__ = Obj
        return twin

    def __deepcopy__(self, memo) -> Obj:
        # Whole, as `copy` makes it (`copy.deepcopy` would set its fields one
        # by one through `__setattr__`), and once for every place that holds it.
        twin = memo[id(self)] = self.copy()
        return twin

    @property
    def name(self) -> str:
        return self.card.name if self.face_up or not self.resource else "face-down resource"

    def __repr__(self) -> str:
        return f"{self.name}#{self.id}"


@dataclass(slots=True)
class PlayerFields:
    """The fields of a player (`Player`), set as fast as Python sets fields."""

    index: int
    hero: int  # object id of his hero
    deck: list[int] = field(default_factory=list)  # top of the deck is the end
    hand: list[int] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    in_game: bool = True
    result: str | None = None  # "won", "lost", "drew"
    mulliganed: bool = False
    placed_resource_turn: int = -1  # 410.1: one resource per turn
    drew_from_empty: bool = False  # 409.6c: he had to draw more than his deck held
    last_turn_start: int = 0  # turn number when his latest turn began (302.2)


class Player(PlayerFields):
    """A player at the table. Setting a field the checks read ticks `BOARD_CLOCK`
    and `PARTY_CLOCK`."""

    __slots__ = ()

    def __setattr__(self, name: str, value, _set=object.__setattr__, _checked=PLAYER_FIELDS_CHECKED, _clock=BOARD_CLOCK,
                    _party=PARTY_CLOCK) -> None:
        if name in _checked:
            _clock[0] += 1
            _party[0] += 1
        _set(self, name, value)

    def copy(self) -> Player:
        # Made as its fields, then a `Player`, like `Obj.copy`.
        twin = PlayerFields(self.index, self.hero, list(self.deck), list(self.hand), list(self.graveyard), list(self.removed),
                            self.in_game, self.result, self.mulliganed, self.placed_resource_turn, self.drew_from_empty,
                            self.last_turn_start)
        twin.__class__ = Player
        return twin

    @property
    def name(self) -> str:
        return f"P{self.index + 1}"


@dataclass(slots=True)
class Link:
    """A card or an effect on the chain (CR7.4 705.1)."""

    id: int
    kind: str  # "card", "resource", "proposal", "strike", "payment", "trigger"
    controller: int
    source: int | None = None  # object id (a proposal's source is its player)
    targets: tuple[int, ...] = ()
    x: int = 0
    power: Any = None  # the Power of a payment or a trigger
    event: dict = field(default_factory=dict)  # what a trigger saw: amount, ally ...
    attacker: int | None = None  # a proposal's roles
    defender: int | None = None
    sabotage: bool = False
    choices: list = field(default_factory=list)  # answers given while it resolves
    done: list = field(default_factory=list)  # what its steps did, for "if you do"

    def copy(self) -> Link:
        return Link(self.id, self.kind, self.controller, self.source, self.targets, self.x, self.power, dict(self.event),
                    self.attacker, self.defender, self.sabotage, list(self.choices), list(self.done))


@dataclass(slots=True)
class Packet:
    """Damage to deal or to heal (407)."""

    amount: int
    target: int
    source: int | None  # the source character (407.2c)
    controller: int
    heal: bool = False
    type: str | None = None  # 407.3a
    combat: bool = False  # 407.3b
    preventable: bool = True  # 407.3c
    weapons: tuple[int, ...] = ()  # 407.3d: weapons struck with
    card: int | None = None  # 407.3d: the card it is dealt with
    settled: bool = False  # its destination's controller declined to replace it further (304.2, 407.1)

    def copy(self) -> Packet:
        return Packet(self.amount, self.target, self.source, self.controller, self.heal, self.type, self.combat,
                      self.preventable, self.weapons, self.card, self.settled)


@dataclass(slots=True)
class Combat:
    """The combat being proposed, fought or concluded (600-603)."""

    attacker: int | None
    defender: int | None
    sabotage: bool
    defending: bool = False  # 602.3: the proposed defender has become the defender
    protected: bool = False  # 602.2b: someone already protected
    strikes: list = field(default_factory=list)  # (player, weapon id, atk, type) 303.2a
    struck: dict = field(default_factory=dict)  # player -> weapons struck with (303.2c)

    def copy(self) -> Combat:
        return Combat(self.attacker, self.defender, self.sabotage, self.defending, self.protected, list(self.strikes),
                      {player: list(weapons) for player, weapons in self.struck.items()})


@dataclass(slots=True)
class Waiting:
    """A triggered effect created but not yet added to the chain (CR7.4 708.1)."""

    controller: int
    source: int
    power: Any
    event: dict

    def copy(self) -> Waiting:
        return Waiting(self.controller, self.source, self.power, dict(self.event))


@dataclass(frozen=True, slots=True)
class Action:
    """One choice a player can make. `label` is for people; equality ignores it."""

    kind: str
    player: int
    subject: int | None = None  # the card, character, weapon or option chosen
    targets: tuple[int, ...] = ()
    x: int = 0
    option: Any = None
    label: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.label or f"P{self.player + 1} {self.kind}"

    @classmethod
    def made(cls, kind: str, player: int, subject: int | None = None, targets: tuple[int, ...] = (), x: int = 0,
             option: Any = None, label: str = "") -> Action:
        """The same action as `Action(...)`, built in less than half the time:
        made as `ActionFields` (its fields, not frozen, so set as fast as
        Python sets fields), then an `Action`, as `Obj.made` does. For the
        actions built before a player's every choice."""
        a = ActionFields(kind, player, subject, targets, x, option, label)
        a.__class__ = cls
        return a


#: `Action`'s fields, in its order and slots, in a class that is not frozen (`Action.made`).
ActionFields = make_dataclass(
    "ActionFields", [(f.name, f.type, field(default=f.default, compare=f.compare)) for f in fields(Action)], slots=True)


@dataclass(slots=True)
class Decision:
    """A choice the game waits for outside the priority mechanism: a mulligan,
    armor, the order of triggers, a protector, a choice made as a link resolves."""

    kind: str
    player: int
    options: list[Action]
    rule: str
    context: dict = field(default_factory=dict)

    def copy(self, copied) -> Decision:
        """`copied` copies a link or a packet the context holds, once for
        every place that holds it."""
        return Decision(self.kind, self.player, list(self.options), self.rule,
                        {key: copied(value) for key, value in self.context.items()})


class IllegalAction(ValueError):
    """An action the rules forbid in this state: names the rule, quotes the
    action, and carries a snapshot of the state to paste into a report."""

    def __init__(self, rule: str, reason: str, action: Any, snapshot: str):
        self.rule, self.reason, self.action, self.snapshot = rule, reason, action, snapshot
        super().__init__(f"illegal action {action}: {reason} ({rule})\n{snapshot}")


class EngineSetupError(ValueError):
    """The game cannot start: a deck or player count the rules don't allow."""
