"""Deck building: which hero, deck and sideboard a player may bring (rules
100.1-100.4 of the seed rulebook, with the basic rules' deck-building section).

`validate_deck` checks a `Deck` against a `Pool` and returns every
`DeckViolation` it finds, each tagged with the rule it breaks; an empty list
means the deck is legal. `random_legal_deck` builds a legal deck for a hero,
for random play and benchmarks.

Two formats: "constructed" (at least 60 cards, at most four of a name, a
sideboard of exactly 10 if any) and "sealed" (at least 30 cards, no copy limit,
the sideboard is whatever else the player opened).

Readings where the text leaves room:

* A card that breaks a rule is reported once per name (with its count), not
  once per copy.
* If the hero is missing from the pool or is not a hero card, the checks that
  compare cards with the hero (100.2a, 100.2b) are skipped: there is nothing
  to compare with, and the hero violation already says what is wrong.
* A constructed sideboard is held to the main deck's rules (100.3), so its
  cards are checked for 100.1 (no heroes), 100.2a, 100.2b and 100.2c, and
  they count towards 100.4. A sealed sideboard is the rest of the player's
  opened cards, so only its names are checked (they must be in the pool).
* 100.2c is checked over deck and sideboard together: a sideboard card of the
  other reputation could not legally be swapped in.
* A name not in the pool is reported under 100.2 only, and a hero card in
  the deck under 100.1 only: the trait checks need a known non-hero card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .cards import Card, Pool

FORMATS = ("constructed", "sealed")

# 100.1: the smallest legal deck in each format (no upper bound).
MIN_DECK_SIZE = {"constructed": 60, "sealed": 30}
# 100.3: a constructed sideboard, when there is one, has exactly this many cards.
CONSTRUCTED_SIDEBOARD_SIZE = 10
# 100.4: the most copies of one name in a constructed deck plus sideboard.
MAX_COPIES = 4
# 100.2c: reputations that exclude each other.
OPPOSED_REPUTATIONS = (("Aldor", "Scryer"),)


@dataclass(frozen=True)
class DeckViolation:
    """One broken deck-building rule: the rule number and what is wrong."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


@dataclass(frozen=True)
class Deck:
    """A hero (not part of the deck), the deck's cards and an optional
    sideboard, all by card name; a name appears once per copy."""

    hero: str
    cards: tuple[str, ...]
    sideboard: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Accept any iterable of names but keep the deck hashable.
        if isinstance(self.cards, str) or isinstance(self.sideboard, str):
            raise TypeError("cards and sideboard are sequences of card names, not one string")
        object.__setattr__(self, "cards", tuple(self.cards))
        object.__setattr__(self, "sideboard", tuple(self.sideboard))

    @classmethod
    def from_counts(
        cls,
        hero: str,
        counts: Mapping[str, int],
        sideboard: Mapping[str, int] | Iterable[str] | None = None,
    ) -> Deck:
        """A deck from {name: copies}; the sideboard may be a mapping or names."""
        side: tuple[str, ...] = ()
        if isinstance(sideboard, Mapping):
            side = _expand(sideboard)
        elif sideboard is not None:
            side = tuple(sideboard)
        return cls(hero, _expand(counts), side)


def _expand(counts: Mapping[str, int]) -> tuple[str, ...]:
    names: list[str] = []
    for name, n in counts.items():
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"copies of {name!r} must be a non-negative integer, got {n!r}")
        names.extend([name] * n)
    return tuple(names)


def _copies(name: str, n: int) -> str:
    return f"{name!r}" if n == 1 else f"{name!r} (x{n})"


def _check_format(format: str) -> None:
    if format not in FORMATS:
        raise ValueError(f"unknown deck format {format!r}: expected one of {', '.join(FORMATS)}")


def _hero_rules_broken(card: Card, hero: Card) -> tuple[str, ...]:
    """The rules of 100.2a and 100.2b that one card breaks against a valid
    hero, without saying how: a random deck asks this of every card of the
    pool, and most break one."""
    # 100.2a: an icon-bearing card needs an icon in common with the hero;
    # icon-free (neutral) cards fit any hero.
    icons = bool(card.traits) and not (card.traits & hero.traits)
    # 100.2b: "[Trait] Hero Required" needs a hero with that trait: its
    # talent, an icon, or a race/class on its type line.
    need = card.hero_required
    required = need is not None and need != hero.talent and need not in hero.traits and need not in hero.subtypes
    return ("100.2a",) * icons + ("100.2b",) * required


def _hero_problems(card: Card, hero: Card, where: str, n: int) -> list[DeckViolation]:
    """100.2a and 100.2b for one card against a valid hero, each with what it lacks."""
    found = []
    broken = _hero_rules_broken(card, hero)
    if "100.2a" in broken:
        found.append(DeckViolation(
            "100.2a",
            f"{where} card {_copies(card.name, n)} has trait icons "
            f"{', '.join(sorted(card.traits))}, none shared with hero {hero.name!r} "
            f"({', '.join(sorted(hero.traits)) or 'no icons'})",
        ))
    if "100.2b" in broken:
        need = card.hero_required
        found.append(DeckViolation(
            "100.2b",
            f"{where} card {_copies(card.name, n)} requires a {need} hero; "
            f"hero {hero.name!r} does not have {need}",
        ))
    return found


def validate_deck(deck: Deck, pool: Pool, *, format: str = "constructed") -> list[DeckViolation]:
    """Every deck-building violation of `deck` in `format`; [] when legal."""
    _check_format(format)
    constructed = format == "constructed"
    found: list[DeckViolation] = []

    # The hero: it must exist and be a hero card (100.1 sets it apart from the deck).
    hero: Card | None = None
    if deck.hero not in pool:
        found.append(DeckViolation("100.2", f"hero {deck.hero!r} is not in the card pool"))
    elif pool[deck.hero].type != "hero":
        found.append(DeckViolation(
            "100.1", f"hero {deck.hero!r} is a {pool[deck.hero].type} card, not a hero"))
    else:
        hero = pool[deck.hero]

    # 100.1: at least the format's minimum; the hero is not among deck.cards.
    minimum = MIN_DECK_SIZE[format]
    if len(deck.cards) < minimum:
        found.append(DeckViolation(
            "100.1", f"the deck has {len(deck.cards)} cards; a {format} deck needs at least {minimum}"))

    # 100.3: a constructed sideboard is optional, but if present it is exactly 10.
    if constructed and deck.sideboard and len(deck.sideboard) != CONSTRUCTED_SIDEBOARD_SIZE:
        found.append(DeckViolation(
            "100.3",
            f"the sideboard has {len(deck.sideboard)} cards; a constructed sideboard "
            f"has exactly {CONSTRUCTED_SIDEBOARD_SIZE} (or none)",
        ))

    # Per-card legality. A sealed sideboard is only checked for names (100.3).
    places = [("deck", Counter(deck.cards), True), ("sideboard", Counter(deck.sideboard), constructed)]
    for where, counts, full in places:
        for name, n in counts.items():
            # 100.2: a legal card is one the pool knows.
            if name not in pool:
                found.append(DeckViolation("100.2", f"{where} card {_copies(name, n)} is not in the card pool"))
                continue
            if not full:
                continue
            card = pool.cards[name]
            # 100.1: heroes start in play, so none belong in the deck.
            if card.type == "hero":
                found.append(DeckViolation(
                    "100.1", f"{where} card {_copies(name, n)} is a hero; heroes are not part of a deck"))
                continue
            if hero is not None and _hero_rules_broken(card, hero):  # most cards break none: no words to write
                found.extend(_hero_problems(card, hero, where, n))

    # 100.2c: Aldor and Scryer cards exclude each other (deck and sideboard together).
    checked = list(deck.cards) + (list(deck.sideboard) if constructed else [])
    by_rep: dict[str, list[str]] = {}
    known = pool.cards
    for name in dict.fromkeys(checked):
        card = known.get(name)
        if card is not None and card.reputation:
            by_rep.setdefault(card.reputation, []).append(name)
    for a, b in OPPOSED_REPUTATIONS:
        if a in by_rep and b in by_rep:
            found.append(DeckViolation(
                "100.2c",
                f"the deck mixes {a} cards ({', '.join(map(repr, by_rep[a]))}) "
                f"with {b} cards ({', '.join(map(repr, by_rep[b]))})",
            ))

    # 100.4: constructed caps copies of a name across deck plus sideboard,
    # except Unlimited cards; sealed has no cap.
    if constructed:
        for name, n in Counter(list(deck.cards) + list(deck.sideboard)).items():
            if n > MAX_COPIES and name in pool and not pool[name].unlimited:
                found.append(DeckViolation(
                    "100.4",
                    f"{n} copies of {name!r} in deck and sideboard; constructed allows at most "
                    f"{MAX_COPIES} of a card that is not Unlimited",
                ))
    return found


def _legal_for(card: Card, hero: Card) -> bool:
    return card.type != "hero" and not _hero_rules_broken(card, hero)


def legal_cards(pool: Pool, hero: Card) -> list[Card]:
    """The pool's cards, in its order, that a deck for this hero may hold
    (100.1, 100.2a-b); asked of the pool once per hero (`Pool.legal_for_hero`)."""
    found = pool.legal_for_hero.get(hero.name)
    if found is None:
        found = pool.legal_for_hero[hero.name] = tuple(card for card in pool if _legal_for(card, hero))
    return list(found)


def random_legal_deck(
    pool: Pool,
    hero_name: str,
    rng: random.Random,
    size: int = 40,
    format: str = "sealed",
) -> Deck:
    """A random deck of `size` cards that `validate_deck` accepts for
    `hero_name` in `format`, with every legal quest in it at least once (room
    permitting) and at most one side of each opposed reputation. No sideboard.
    ValueError when the hero or the pool can't make such a deck."""
    _check_format(format)
    if hero_name not in pool:
        raise ValueError(f"hero {hero_name!r} is not in the card pool")
    hero = pool[hero_name]
    if hero.type != "hero":
        raise ValueError(f"{hero_name!r} is a {hero.type} card, not a hero")
    minimum = MIN_DECK_SIZE[format]
    if size < minimum:
        raise ValueError(f"a {format} deck needs at least {minimum} cards (100.1), asked for {size}")

    candidates = [c for c in legal_cards(pool, hero) if not c.scripted_only]
    # 100.2c: keep one side of each opposed pair, picked at random.
    for a, b in OPPOSED_REPUTATIONS:
        present = [r for r in (a, b) if any(c.reputation == r for c in candidates)]
        if len(present) == 2:
            drop = rng.choice(present)
            candidates = [c for c in candidates if c.reputation != drop]

    # 100.4: copies left of each name (None: no limit).
    constructed = format == "constructed"
    room = {c.name: MAX_COPIES if constructed and not c.unlimited else None for c in candidates}
    if any(v is None for v in room.values()):
        available = None
    else:
        available = sum(room.values())
    if not candidates or (available is not None and available < size):
        raise ValueError(
            f"the pool can't make a {size}-card {format} deck for {hero_name!r}: "
            f"{len(candidates)} legal card names, {available or 0} legal copies in all"
        )

    quests = [c.name for c in candidates if c.type == "quest"]
    cards = rng.sample(quests, min(len(quests), size))
    for name in cards:
        if room[name] is not None:
            room[name] -= 1
    # The names with copies left change only when one runs out (100.4).
    open_names = [name for name, left in room.items() if left is None or left > 0]
    while len(cards) < size:
        name = rng.choice(open_names)
        cards.append(name)
        left = room[name]
        if left is not None:
            room[name] = left - 1
            if left == 1:
                open_names.remove(name)
    rng.shuffle(cards)
    return Deck(hero_name, tuple(cards))
