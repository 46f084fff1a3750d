"""The WoW TCG as a game to play: `WowTcgGame(...).new_initial_state(seed)`."""

from __future__ import annotations

import random

from .cards import Pool, default_pool
from .deck import Deck, random_legal_deck, validate_deck
from .objects import EngineSetupError
from .state import GameState


class WowTcgGame:
    """A table of 2 to 4 players. Without decks given, each seat gets a
    random hero and a random legal sealed deck of `deck_size` cards (100.1:
    sealed decks hold at least 30), both drawn from the seed."""

    def __init__(self, players: int = 2, pool: Pool | None = None, deck_size: int = 40):
        if not 2 <= players <= 4:
            raise EngineSetupError(f"players={players}: the engine seats 2 to 4 players")
        self.num_players = players
        self.pool = pool if pool is not None else default_pool()
        self.deck_size = deck_size
        self._heroes: list[str] | None = None  # the heroes a random seat is given

    def new_initial_state(self, seed: int = 0, decks: list[Deck] | None = None,
                          deck_format: str = "sealed") -> GameState:
        rng = random.Random(seed)
        if decks is None:
            if self._heroes is None:  # a pool never changes once loaded: its heroes are listed once
                self._heroes = [c.name for c in self.pool if c.type == "hero" and not c.scripted_only]
            heroes = self._heroes
            decks = [
                random_legal_deck(self.pool, rng.choice(heroes), rng, size=self.deck_size)
                for _ in range(self.num_players)
            ]
        if len(decks) != self.num_players:
            raise EngineSetupError(f"{len(decks)} decks for {self.num_players} players")
        for seat, deck in enumerate(decks):
            problems = validate_deck(deck, self.pool, format=deck_format)
            if problems:
                raise EngineSetupError(f"P{seat + 1}'s deck is not legal: " + "; ".join(map(str, problems)))
        return GameState(self.pool, [d.hero for d in decks], [list(d.cards) for d in decks], rng.randrange(2**32))
