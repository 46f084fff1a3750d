"""Heroes of Ancients as a game to play: `HotaGame(...).new_initial_state(seed)`.

A game is its players (seats P1..Pn, assumed:seat-order), a table (entity
cards that start on the battlefield under their owners' control, 107.2,
109.2) and decks (deck cards only).
"""

from __future__ import annotations

import random
from typing import Any

from .cards import EXCLUSIVE, Card, Pool, load_pool
from .deck import FORMATS, check_deck
from .objects import EngineSetupError, UnknownCard, seat
from .state import OPENING_HAND, HotaState

DEFAULT_DECK_SIZE = 9


def _seat_index(key: Any, players: int, field_name: str) -> int:
    """A seat given as "P1".."Pn" or as its index 0..n-1."""
    if isinstance(key, str) and key.startswith("P") and key[1:].isdigit() and 1 <= int(key[1:]) <= players:
        return int(key[1:]) - 1
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < players:
        return key
    raise EngineSetupError(field_name, f"no seat {key!r}: the seats are P1..P{players}")


def _card(pool: Pool, name: Any, field_name: str) -> Card:
    try:
        return pool.card(name, field_name)
    except UnknownCard as exc:
        exc.field = field_name
        raise


def read_table(table: Any, players: int, pool: Pool) -> list[tuple[int, Card]]:
    """The table as (controller, card) in table order: seat order, then each
    seat's list in the order given. At most one of each card per player, and
    Echo Chamber or Whispering Echo, not both."""
    if table is None:
        return []
    if not isinstance(table, dict):
        raise EngineSetupError("table", f"a mapping of seat -> list of entity card names, got {table!r}")
    by_seat: dict[int, list[Card]] = {}
    for key, names in table.items():
        p = _seat_index(key, players, "table")
        if p in by_seat:
            raise EngineSetupError("table", f"{seat(p)} is given twice")
        if not isinstance(names, (list, tuple)):
            raise EngineSetupError("table", f"{seat(p)}: a list of entity card names, got {names!r}")
        cards = [_card(pool, n, "table") for n in names]
        for c in cards:
            if c.kind != "entity":
                raise EngineSetupError("table", f"{seat(p)}: {c.name!r} is a deck card, not an entity")
        seen = [c.name for c in cards]
        dup = next((n for n in seen if seen.count(n) > 1), None)
        if dup:
            raise EngineSetupError("table", f"{seat(p)} has {dup!r} twice: at most one of each card per player")
        by_seat[p] = cards
    out = [(p, c) for p in sorted(by_seat) for c in by_seat[p]]
    present = {c.ability for _, c in out}
    if all(k in present for k in EXCLUSIVE):
        names = sorted({c.name for _, c in out if c.ability in EXCLUSIVE})
        raise EngineSetupError("table", f"{' and '.join(names)} can't share a table")
    return out


def default_deck(pool: Pool, format: str | None) -> list[str]:
    """Each player's deck when none is given: nine copies of a plain deck card;
    in a format, the format's minimum (basic attribute cards for constructed,
    which may repeat freely)."""
    plain = [c for c in pool.deck_cards() if not c.basic]
    basic = [c for c in pool.deck_cards() if c.basic]
    if not pool.deck_cards():
        raise EngineSetupError("pool", "the pool holds no deck card to build default decks from")
    courier = "Wandering Courier" if "Wandering Courier" in pool else (plain or basic)[0].name
    if format == "constructed":
        if not basic:
            raise EngineSetupError("pool", "a constructed default deck needs a basic attribute card")
        return [basic[0].name] * 50
    if format == "limited":
        return [courier] * 35
    return [courier] * DEFAULT_DECK_SIZE


def read_decks(decks: Any, players: int, pool: Pool, format: str | None) -> list[list[str]]:
    """Every seat's deck: the one given, else the default. Only deck cards;
    with a format, 100.2a (check_deck); without, at least the opening hand."""
    given: dict[int, Any] = {}
    if decks is not None:
        if not isinstance(decks, dict):
            raise EngineSetupError("decks", f"a mapping of seat -> list of deck card names, got {decks!r}")
        for key, names in decks.items():
            given[_seat_index(key, players, "decks")] = names
    out = []
    for p in range(players):
        names = given.get(p)
        if names is None:
            names = default_deck(pool, format)
        if not isinstance(names, (list, tuple)):
            raise EngineSetupError("decks", f"{seat(p)}: a list of deck card names, got {names!r}")
        for n in names:
            if _card(pool, n, "decks").kind != "deck":
                raise EngineSetupError("decks", f"{seat(p)}: {n!r} is an entity, not a deck card")
        if format is not None:
            check_deck(list(names), format, pool, seat(p))
        elif len(names) < OPENING_HAND:
            raise EngineSetupError("decks", f"{seat(p)}'s deck holds {len(names)} cards; "
                                            f"it needs at least {OPENING_HAND} for the opening hand (103.4)")
        out.append(list(names))
    return out


class HotaGame:
    """A game of 2 to 4 players. `table` maps a seat ("P1".."Pn") to its entity
    cards; `decks` maps a seat to its deck (seats left out get the default
    deck); `format` None, "constructed" or "limited" (100.2a)."""

    def __init__(self, players: int = 2, table: dict | None = None, decks: dict | None = None,
                 starting_life: int = 30, pool: Pool | None = None, format: str | None = None):
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise EngineSetupError("players", f"the engine seats 2 to 4 players, got {players!r}")
        if not isinstance(starting_life, int) or isinstance(starting_life, bool) or starting_life < 1:
            raise EngineSetupError("starting_life", f"a whole number of at least 1, got {starting_life!r}")
        if format is not None and format not in FORMATS:
            raise EngineSetupError("format", f"None or one of {', '.join(FORMATS)}, got {format!r}")
        self.num_players = players
        self.starting_life = starting_life
        self.format = format
        self.pool = pool if pool is not None else load_pool()
        self.table = read_table(table, players, self.pool)
        self.decks = read_decks(decks, players, self.pool, format)

    def new_initial_state(self, seed: int | None = None) -> HotaState:
        """The game before its first chance action; `seed` (None counts as 0)
        drives every shuffle and every card the engine picks."""
        return HotaState(self.num_players, self.table, self.decks, self.starting_life, self.pool,
                         0 if seed is None else seed)


def random_table(rng: random.Random, players: int, pool: Pool | None = None) -> dict[str, list[str]]:
    """A random legal table: each seat gets up to four entity cards, no card
    twice for one seat, and Echo Chamber and Whispering Echo never together."""
    pool = pool if pool is not None else load_pool()
    cards = pool.entities()
    banned = rng.choice(EXCLUSIVE)  # the echo ability this table leaves out
    allowed = [c.name for c in cards if c.ability != banned]
    return {seat(p): rng.sample(allowed, rng.randint(0, min(4, len(allowed)))) for p in range(players)}
