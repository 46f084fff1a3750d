"""The adapter of the built-in Riftbound engine (``engine/riftbound``): games
set up from the part of its card pool the model abstracts, and engine states
and actions read as observations (``agreement/riftbound/checker.py``).

This is the only module of the harness that knows the engine; the engine
knows nothing of it.
"""

from __future__ import annotations

import random
from typing import Any

from engine.riftbound import Action, IllegalAction, RiftboundGame, RiftboundState, load_pool, random_setup
from engine.riftbound.cards import Pool

#: Cards the model does not abstract: what Snare Warden, Spark Sapper and Grave
#: Reaper do when played (assumed:here-trigger) is no edge of the model, and its
#: initial chain holds only units in the combat (Distant Drummer's trigger,
#: assumed:afar-trigger, is outside it).
NOT_ABSTRACTED = ("Snare Warden", "Spark Sapper", "Grave Reaper", "Distant Drummer")
#: Cards left out of random tables: those, and Kayn, who cannot be damaged only
#: after two moves in a turn while the model's units keep fixed keywords (no move
#: count), so a random game would soon change his immunity. The scenarios'
#: follower still holds him, reading the table afresh when his immunity changes.
OUTSIDE_THE_MODEL = ("Kayn", *NOT_ABSTRACTED)
#: Victory comes at this many points in harness games: low enough for games to end.
VICTORY_POINTS = 6


class Setup(dict):
    """An engine setup, with the number of seats it is for."""

    def as_dict(self) -> dict[str, Any]:
        return dict(self)


def fragment_pool() -> Pool:
    return Pool((c.name, c) for c in load_pool() if c.name not in OUTSIDE_THE_MODEL)


class BuiltinRiftboundAdapter:
    game = "riftbound"

    def __init__(self) -> None:
        self.pool = fragment_pool()

    def random_setup(self, rng: random.Random, players: int) -> Setup:
        setup = random_setup(rng, players=players, battlefields=2, victory_points=VICTORY_POINTS, pool=self.pool)
        return Setup(setup, players=players)

    def new_game(self, setup: dict[str, Any]) -> RiftboundState:
        table = {k: v for k, v in setup.items() if k != "players"}
        return RiftboundGame(setup["players"], 2, VICTORY_POINTS, pool=self.pool).new_initial_state(table)

    def legal_actions(self, state: RiftboundState) -> list[Action]:
        return state.legal_actions()

    def apply_action(self, state: RiftboundState, action: Action) -> None:
        state.apply_action(action)

    def is_terminal(self, state: RiftboundState) -> bool:
        return state.is_terminal()

    def ended_by_limit(self, state: RiftboundState) -> str | None:
        """assumed:turn-cap: the engine ends a game nobody has won after its last turn."""
        if state.step == "game_over" and state.winner is None and state.turn > state.max_turns:
            return f"{state.max_turns} turns, assumed:turn-cap"
        return None

    def observe(self, state: RiftboundState) -> dict[str, Any]:
        return {**state.to_dict(), "victory_points": state.victory_points}

    def observe_action(self, state: RiftboundState, action: Action) -> dict[str, Any]:
        kind = "play_unit" if action.kind == "play" else action.kind
        return {
            "kind": kind,
            "player": action.player,
            "unit": action.unit,
            "battlefield": action.battlefield,
            "assignment": dict(action.assignment),
        }

    def action_label(self, state: RiftboundState, action: Action) -> str:
        return state.action_label(action)

    def clone(self, state: RiftboundState) -> RiftboundState:
        return state.clone()

    def refusal(self, state: RiftboundState, action: Action) -> str | None:
        try:
            state.clone().apply_action(action)
        except IllegalAction as exc:
            return ", ".join(exc.rules)
        return None

    def candidate_actions(self, state: RiftboundState, observed: dict[str, Any]) -> list[Action]:
        kind = "play" if observed["kind"] == "play_unit" else observed["kind"]
        return [Action(kind, observed["player"], observed.get("unit"), observed.get("battlefield"))]
