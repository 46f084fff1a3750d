"""Deck rules: 100.2a's two formats."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import Pool, load_pool
from .objects import DeckError, EngineSetupError

FORMATS = ("constructed", "limited")
MINIMUM = {"constructed": 50, "limited": 35}
COPIES = 3  # constructed: at most three of a name, basic attribute cards aside


@dataclass(frozen=True)
class DeckProblem:
    """One way a deck breaks its format. `part` is "size" (too few cards) or
    "copies" (too many of `name`); `count` the deck's size or those copies."""

    rule: str
    part: str
    count: int
    message: str
    name: str | None = None


def deck_problems(names: list[str], format: str, pool: Pool | None = None) -> list[DeckProblem]:
    """100.2a: every way the deck breaks its format, the size first, then each
    name held too often in card order ([] for a legal deck). A constructed deck
    holds at least 50 cards and at most three cards of any one name, basic
    attribute cards excepted; a limited deck holds at least 35 cards, any
    number of each (basic attribute cards added after the draft count like
    the others: the rule limits the deck, not how it was built).
    Reading: "at least 50" and "at least 35" (the text's "35张以上") include
    the bound itself.
    An unknown format is an EngineSetupError; a name the pool lacks,
    UnknownCard (a CardPoolError)."""
    if format not in FORMATS:
        raise EngineSetupError("format", f"100.2a knows the formats {', '.join(FORMATS)}, got {format!r}")
    pool = pool if pool is not None else load_pool()
    cards = [pool.card(n, "decks") for n in names]
    out = []
    if len(cards) < MINIMUM[format]:
        out.append(DeckProblem("100.2a", "size", len(cards),
                               f"a {format} deck holds at least {MINIMUM[format]} cards; this one holds {len(cards)}"))
    if format == "constructed":
        counts = Counter(c.name for c in cards if not c.basic)
        out += [DeckProblem("100.2a", "copies", count,
                            f"a constructed deck holds at most {COPIES} cards named {name!r} "
                            f"(basic attribute cards aside); this one holds {count}", name)
                for name, count in counts.items() if count > COPIES]
    return out


def check_deck(names: list[str], format: str, pool: Pool | None = None, seat: str | None = None) -> None:
    """100.2a: raises DeckError for the first problem deck_problems finds
    (naming `seat`, the player whose deck it is, when one is given)."""
    problems = deck_problems(names, format, pool)
    if problems:
        first = problems[0]
        raise DeckError(first.message, first.count, first.name, seat)
