"""The fixed facts of a Heroes of Ancients model: the entities on the table,
each with its one ability and its controller, and the size of each deck.

The seed (004) defines no cards; the table's cards exist to exercise rules
101-109, and the reference engine (``engine/hota/cards.yaml``) has cards of
the same names and abilities. Library and hand cards have no text
(abstracted:anonymous-cards), so the model counts them; a table whose decks
hold cards a player may play from hand (``PLAYABLE``) counts those by name
as well, so that a play is legal in the model exactly where its card is in
the hand and its requirements are met (106.3). The codes by which
the state names nobody, a waiting trigger and a council choice are here too,
for the game and its rulings alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

#: The players at the default table; a table seats two to four (102.1).
PLAYERS = 2
MAX_PLAYERS = 4
#: 103.3: every player's starting life; 104.3b compares damage markers with it.
STARTING_LIFE = 30
#: 103.4: the opening hand.
OPENING_HAND = 7
#: Ember Bolt's damage; Tome of Ages' draw.
BOLT_DAMAGE = 10
TOME_DRAW = 3

NOBODY = -1
#: A waiting triggered ability: Culling Field (for a token of player p) or the
#: echo (Echo Chamber or Whispering Echo); ECHO_WAITS is the echo's code at two
#: players (``Table.echo_waits`` at any table).
NO_TRIGGER, CULLING_WAITS, ECHO_WAITS = -1, 0, 2
#: A council player's card choice and answer.
NOT_YET, SKIPPED, PICKED = -1, 0, 1
REFUSE, ACCEPT = 0, 1

#: Cards with an ability a controller activates with priority (assumed:once-per-turn),
#: and whether it needs a target player ("player"), a token's controller
#: ("token"), a token of the activator's own ("own-token") or another entity ("entity").
ACTIVATED = {
    "Ember Bolt": "player",
    "Tome of Ages": "player",
    "Spirit Caller": None,
    "Banishing Gale": "token",
    "Rewind Portal": "own-token",
    "Silencing Rune": "entity",  # an entity with a static or triggered ability
    "Pact of Victory": None,
    "Curse of Ruin": "player",
    "Truce Banner": None,
    "Twin Fates": "player",
    "Council of Elders": None,
    "Mind Tether": "opponent-entity",  # gain control of an entity an opponent controls (107.2, 109.2)
}
#: Static abilities: "you can't lose the game", "your opponents can't win the game",
#: "Spirits can't enter the battlefield" (109.5d), "you have one more intelligence"
#: (106.2a: an attribute value, read only by plays from hand, assumed:play-from-hand).
STATIC = ("Aegis of Immortality", "Gatekeeper", "Warding Sigil", "Arcane Sanctum")
#: Triggered abilities on a token entering or leaving the battlefield.
MANDATORY_TRIGGERS = ("Culling Field", "Echo Chamber")
OPTIONAL_TRIGGERS = ("Whispering Echo",)
CARDS = (*ACTIVATED, *STATIC, *MANDATORY_TRIGGERS, *OPTIONAL_TRIGGERS)

#: 105.1: the three attributes, in the order a player's values are listed.
ATTRIBUTES = ("strength", "agility", "intelligence")


@dataclass(frozen=True)
class DeckCard:
    """A deck card a player may play from hand (assumed:play-from-hand): a
    basic attribute card, which gives one point of its attribute for the rest
    of the game (106.1), or a spell with an effect; either may require
    attribute values of its player (106.3, 106.4)."""

    gives: str | None = None
    effect: str | None = None
    requires: tuple[tuple[str, int], ...] = ()


#: The playable deck cards of the reference engine's pool, by name; a deck's
#: other cards have no text and stay unnamed in the model.
PLAYABLE = {
    "Strength Attribute": DeckCard(gives="strength"),
    "Agility Attribute": DeckCard(gives="agility"),
    "Intelligence Attribute": DeckCard(gives="intelligence"),
    "Attunement": DeckCard(effect="choose-attribute"),  # 105.3: one point of an attribute its player names
    "Call to Council": DeckCard(effect="council"),  # 101.4, for the player who plays it (108.4)
    "Gift of Fealty": DeckCard(effect="give-control"),  # 107.2, 109.2: an opponent gains an entity you control
    "Arcane Study": DeckCard(effect="draw", requires=(("intelligence", 1),)),  # 106.3, 106.4: draw a card
}


class TableError(ValueError):
    """A table the model cannot hold: an unknown card, a seat out of range, a
    second copy, or more than one ability triggering on one event."""


@dataclass(frozen=True)
class Entity:
    """A card on the battlefield from the start: its owner, who controls it
    until an effect (Mind Tether) gives control to another (107.2, 109.2)."""

    card: str
    controller: int

    @property
    def owner(self) -> int:
        return self.controller

    @property
    def label(self) -> str:
        return f"P{self.controller + 1}'s {self.card}"


@dataclass(frozen=True)
class Table:
    """``deck`` is the size of the largest deck, the bound of every count;
    ``decks``, each player's deck where they differ (100.2a lets decks differ
    in size), is empty where every deck has ``deck`` cards. ``named``, each
    player's playable cards (``PLAYABLE``) with their copies in the deck, is
    empty where no deck holds one: hands and libraries are then counts alone."""

    entities: tuple[Entity, ...]
    deck: int
    decks: tuple[int, ...] = ()
    players: int = PLAYERS
    named: tuple[tuple[tuple[str, int], ...], ...] = ()

    def __post_init__(self) -> None:
        if not PLAYERS <= self.players <= MAX_PLAYERS:
            raise TableError(f"a table of {self.players} players: the model seats {PLAYERS} to {MAX_PLAYERS}")
        seen: set[tuple[str, int]] = set()
        for e in self.entities:
            if e.card not in CARDS:
                raise TableError(f"unknown card {e.card!r}; cards: {', '.join(CARDS)}")
            if e.controller not in range(self.players):
                raise TableError(f"{e.card}: seat {e.controller} is not one of {', '.join(self.seat_names)}")
            if (e.card, e.controller) in seen:
                raise TableError(f"{e.label} is on the table twice")
            seen.add((e.card, e.controller))
        # One waiting trigger at a time: a token's entering triggers one
        # Culling Field at most, its leaving one echo at most.
        if len(self.holding("Culling Field")) > 1:
            raise TableError("the model holds one Culling Field at most: a token entering would trigger two, and one trigger waits at a time")
        if len(self.holding("Echo Chamber") + self.holding("Whispering Echo")) > 1:
            raise TableError("the model holds one Echo Chamber or Whispering Echo at most")
        # A council ends when the player who convened it leaves (assumed:leaver-objects):
        # with one Council of Elders at the table, that player is its controller.
        if self.players > PLAYERS and len(self.holding("Council of Elders")) > 1:
            raise TableError(f"the model holds one Council of Elders at most at a table of {self.players}")
        if self.decks and (len(self.decks) != self.players or max(self.decks) != self.deck):
            raise TableError(f"decks of {list(self.decks)} cards: one for each of {', '.join(self.seat_names)}, the largest of {self.deck}")
        for size in self.sizes:
            if size < OPENING_HAND:
                raise TableError(f"a deck of {size} cards cannot give an opening hand of {OPENING_HAND} (103.4)")
        if self.named:
            if len(self.named) != self.players:
                raise TableError(f"named deck cards for {len(self.named)} players at a table of {self.players}")
            for p, cards in enumerate(self.named):
                for name, copies in cards:
                    if name not in PLAYABLE:
                        raise TableError(f"{self.seat_names[p]}'s deck: {name!r} is no card a player plays; "
                                         f"playable cards: {', '.join(PLAYABLE)}")
                if sum(c for _, c in cards) > self.sizes[p]:
                    raise TableError(f"{self.seat_names[p]}'s deck holds more named cards than its {self.sizes[p]}")

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The playable cards some deck holds, in catalogue order: counted by name."""
        held = {name for cards in self.named for name, copies in cards if copies}
        return tuple(n for n in PLAYABLE if n in held)

    def copies(self, p: int, name: str) -> int:
        """How many cards of this name are in player ``p``'s deck."""
        return dict(self.named[p]).get(name, 0) if self.named else 0

    def unnamed(self, p: int) -> int:
        """The cards of ``p``'s deck without text to play."""
        return self.sizes[p] - sum(self.copies(p, n) for n in self.names)

    @property
    def council_convened_by_play(self) -> bool:
        """A played card can convene the council, so who convened it is part of the state."""
        return "Call to Council" in self.names

    @property
    def sizes(self) -> tuple[int, ...]:
        """Each player's deck."""
        return self.decks or (self.deck,) * self.players

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"P{p + 1}" for p in range(self.players))

    @property
    def echo_waits(self) -> int:
        """The waiting-trigger code of an echo for P1's token: the Culling Field codes come first, one per seat."""
        return CULLING_WAITS + self.players

    @cached_property
    def _held(self) -> dict[str, tuple[int, ...]]:
        # Guards and rulings ask these of the fixed table in every state: built once.
        out: dict[str, tuple[int, ...]] = {}
        for i, e in enumerate(self.entities):
            out[e.card] = (*out.get(e.card, ()), i)
        return out

    def holding(self, card: str) -> tuple[int, ...]:
        """The indices of the entities that are this card."""
        return self._held.get(card, ())

    @cached_property
    def _controllable(self) -> dict[tuple[str, int], tuple[int, ...]]:
        return {(card, p): tuple(i for i in held if self.control_moves or self.entities[i].controller == p)
                for card, held in self._held.items() for p in range(self.players)}

    def controlled_by(self, card: str, p: int) -> tuple[int, ...]:
        """The entities of this card ``p`` may control: those ``p`` owns, or any
        at a table where Mind Tether moves control."""
        return self._controllable.get((card, p), ())

    @cached_property
    def control_moves(self) -> bool:
        """An entity may change controller (107.2): the model keeps each entity's controller."""
        return bool(self.holding("Mind Tether")) or "Gift of Fealty" in self.names

    @cached_property
    def takes_tokens(self) -> bool:
        """Mind Tether may take a Spirit, or Gift of Fealty give one (109.5e: an
        effect on entities reaches tokens), so a player may control Spirits
        another owns: the model keeps them by controller and owner."""
        moves = bool(self.holding("Mind Tether")) or "Gift of Fealty" in self.names
        return moves and bool(self.holding("Spirit Caller"))

    def may_control_spirits(self, p: int) -> bool:
        """Player ``p`` may come to control a Spirit: by a Spirit Caller they
        control, by Mind Tether taking one, or by another's Gift of Fealty giving
        one (an echo gives its Spirit to the controller of a token that left,
        who held it one of these ways)."""
        moved = self.takes_tokens and ("Gift of Fealty" in self.names or self.controlled_by("Mind Tether", p))
        return bool(self.controlled_by("Spirit Caller", p) or moved)

    @property
    def activated(self) -> tuple[int, ...]:
        return tuple(i for i, e in enumerate(self.entities) if e.card in ACTIVATED)


def table_of(entities: dict[int, list[str]] | list[tuple[str, int]], deck: int | tuple[int, ...],
             players: int = PLAYERS, named: tuple[dict[str, int], ...] = ()) -> Table:
    """A table of ``players`` from (card, seat) pairs or from a seat -> cards
    mapping, with one deck size for all or each player's, and each player's
    playable deck cards by name (none: hands and libraries are counts alone)."""
    pairs = [(c, p) for p, cards in entities.items() for c in cards] if isinstance(entities, dict) else entities
    sizes = (deck,) if isinstance(deck, int) else tuple(deck)
    kept = tuple(tuple(sorted((n, c) for n, c in cards.items() if c)) for cards in named)
    return Table(tuple(Entity(c, p) for c, p in pairs), max(sizes), sizes if len(set(sizes)) > 1 else (), players,
                 kept if any(kept) else ())


#: The table ``chainproof verify`` checks: a card for every rule the model
#: encodes, and the two pieces of the mandatory loop, which P2 can silence
#: apart. (Silencing Rune and Council of Elders on one table multiply the
#: states a turn can reach, so the default deck leaves a short game.)
DEFAULT_CARDS = {
    0: ["Ember Bolt", "Twin Fates", "Council of Elders", "Culling Field", "Gatekeeper", "Truce Banner"],
    1: ["Aegis of Immortality", "Spirit Caller", "Silencing Rune", "Echo Chamber", "Curse of Ruin", "Banishing Gale"],
}


def default_table(deck: int, players: int = PLAYERS) -> Table:
    """The default cards; a third and fourth player sit down with none, so
    that the leavers of 104.5 take P1's or P2's cards with them."""
    return table_of(DEFAULT_CARDS, deck, players)


def every_play_table(deck: int, players: int = PLAYERS) -> Table:
    """The default cards with an Arcane Sanctum for P1 (106.2a), and one of
    each playable card in every deck, the rest unnamed: a table on which
    every play from hand the model knows can be made."""
    cards = {**DEFAULT_CARDS, 0: [*DEFAULT_CARDS[0], "Arcane Sanctum"]}
    one_each = tuple(dict.fromkeys(PLAYABLE, 1) for _ in range(players))
    return table_of(cards, max(deck, len(PLAYABLE)), players, one_each)


def nearby_tables(deck: int, players: int = PLAYERS) -> list[tuple[str, str, Table]]:
    """The default table with one card more each: a card of the model's
    catalogue that a player does not hold yet, wherever the model can hold it.

    Lint tries these where the default table alone keeps a ruling from ever
    applying (a card nobody holds), so that the texts are compared there too.
    Each comes as (key, what changed, table)."""
    out = []
    for p in range(players):
        for card in CARDS:
            if card in DEFAULT_CARDS.get(p, ()):
                continue
            try:
                table = table_of({**DEFAULT_CARDS, p: [*DEFAULT_CARDS.get(p, ()), card]}, deck, players)
            except TableError:
                continue  # a second waiting trigger on one event, which the model does not hold
            out.append((f"P{p + 1}+{card.replace(' ', '-')}", f"P{p + 1} also has {card}", table))
    return out
