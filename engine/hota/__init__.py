"""The Heroes of Ancients reference engine: the rulebook's general rules
(the golden rules, starting and ending the game, cards, objects and
entities), played with cards that exist to exercise them. It imports
nothing from `model/`, `properties/` or `agreement/`."""

from .cards import ABILITIES, Card, Pool, load_pool
from .deck import FORMATS, DeckProblem, check_deck, deck_problems
from .game import HotaGame, random_table
from .objects import (
    CHANCE, TERMINAL, Action, CardPoolError, DeckError, EngineSetupError, IllegalAction, UnknownCard,
)
from .state import HotaState

__all__ = [
    "ABILITIES", "CHANCE", "FORMATS", "TERMINAL", "Action", "Card", "CardPoolError", "DeckError", "DeckProblem",
    "EngineSetupError", "HotaGame", "HotaState", "IllegalAction", "Pool", "UnknownCard", "check_deck",
    "deck_problems", "load_pool", "random_table",
]
