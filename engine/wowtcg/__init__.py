"""The World of Warcraft TCG reference engine, written from the seed rules
independently of `model/` and `properties/` (it imports neither)."""

from .cards import CardFileError, Pool, UnsupportedCardText, default_pool, load_pool
from .deck import Deck, DeckViolation, validate_deck
from .game import WowTcgGame
from .objects import Action, EngineSetupError, IllegalAction
from .state import GameState

__all__ = [
    "Action", "CardFileError", "Deck", "DeckViolation", "EngineSetupError", "GameState",
    "IllegalAction", "Pool", "UnsupportedCardText", "WowTcgGame", "default_pool", "load_pool", "validate_deck",
]
