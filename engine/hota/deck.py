"""Deck rules: 100.2a's two formats."""

from __future__ import annotations

from collections import Counter

from .cards import Pool, load_pool
from .objects import DeckError, EngineSetupError

FORMATS = ("constructed", "limited")
MINIMUM = {"constructed": 50, "limited": 35}
COPIES = 3  # constructed: at most three of a name, basic attribute cards aside


def check_deck(names: list[str], format: str, pool: Pool | None = None) -> None:
    """100.2a: a constructed deck holds at least 50 cards and at most three
    cards of any one name, basic attribute cards excepted; a limited deck holds
    at least 35 cards, any number of each.
    Reading: "at least 50" and "at least 35" (the text's "35张以上") include
    the bound itself.
    Raises DeckError naming the count or the card; UnknownCard (a CardPoolError)
    for a name the pool lacks."""
    if format not in FORMATS:
        raise EngineSetupError("format", f"100.2a knows the formats {', '.join(FORMATS)}, got {format!r}")
    pool = pool if pool is not None else load_pool()
    cards = [pool.card(n, "decks") for n in names]
    if len(cards) < MINIMUM[format]:
        raise DeckError(f"a {format} deck holds at least {MINIMUM[format]} cards; this one holds {len(cards)}",
                        len(cards))
    if format == "constructed":
        counts = Counter(c.name for c in cards if not c.basic)
        for name, count in counts.items():
            if count > COPIES:
                raise DeckError(f"a constructed deck holds at most {COPIES} cards named {name!r} "
                                f"(basic attribute cards aside); this one holds {count}", count, name)
