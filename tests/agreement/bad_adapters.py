"""Adapters that misbehave, for the harness's error messages."""

from agreement.wowtcg.builtin import BuiltinWowAdapter


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
