"""Adapters that misbehave, for the harness's error messages."""

from agreement.riftbound.builtin import VICTORY_POINTS, BuiltinRiftboundAdapter
from agreement.wowtcg.builtin import BuiltinWowAdapter
from engine.riftbound import RiftboundGame


class GarbageObservation(BuiltinWowAdapter):
    def observe(self, state):
        obs = super().observe(state)
        if state.turn_number >= 2:
            obs["players"][0]["hand"] = "seven cards"
        return obs


class RaisingApply(BuiltinWowAdapter):
    def apply_action(self, state, action):
        if state.turn_number >= 2:
            raise RuntimeError("engine crashed")
        super().apply_action(state, action)


def failing_factory():
    raise RuntimeError("no engine today")


class ShortRiftbound(BuiltinRiftboundAdapter):
    """Riftbound games that the engine ends after two turns (its assumed:turn-cap), by no rule of the model."""

    def new_game(self, setup):
        table = {k: v for k, v in setup.items() if k != "players"}
        return RiftboundGame(setup["players"], 2, VICTORY_POINTS, pool=self.pool, max_turns=2).new_initial_state(table)
