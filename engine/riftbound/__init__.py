"""The Riftbound combat reference engine, written from seed 003 and the readings
recorded in docs/findings-riftbound.md, independently of `model/` (it imports nothing from it)."""

from .cards import Card, CardFileError, Pool, load_pool
from .damage import Target, legal_assignments
from .game import RiftboundGame
from .objects import Action, EngineSetupError, IllegalAction
from .setup import random_setup
from .state import RiftboundState

__all__ = [
    "Action", "Card", "CardFileError", "EngineSetupError", "IllegalAction", "Pool", "RiftboundGame",
    "RiftboundState", "Target", "legal_assignments", "load_pool", "random_setup",
]
