"""The adapter of the built-in Riftbound engine (``engine/riftbound``): games
set up from the part of its card pool the model abstracts, and engine states
and actions read as observations (``agreement/riftbound/checker.py``).

This is the only module of the harness that knows the engine; the engine
knows nothing of it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.riftbound import Action, IllegalAction, RiftboundGame, RiftboundState, load_pool, random_setup
from engine.riftbound.cards import Card, Pool
from model.riftbound.table import Table

#: The cards' triggers as the model's units carry them (Unit.when_played,
#: assumed:here-trigger): Snare Warden's stun, Spark Sapper's 1 damage and
#: Grave Reaper's destroy of every enemy unit 'here'.
WHEN_PLAYED = {
    "stun_enemies_here_when_played": "stun",
    "damage_enemies_here_when_played": "damage",
    "destroy_enemies_here_when_played": "destroy",
}
#: Distant Drummer's trigger when a showdown it is not in begins (Unit.afar, assumed:afar-trigger).
AFAR = "rallies_from_afar"
#: Kayn's immunity after two moves, which the model holds as a keyword, fixed
#: for a table: the scenarios' follower reads the table afresh when it changes.
KAYN = "immune_if_moved_twice"
#: Every card ability the model abstracts; a card with another is not followed.
ABSTRACTED = (*WHEN_PLAYED, AFAR, KAYN)

def with_abilities(table: Table, cards: dict[str, Card]) -> Table:
    """``table`` (read off an observation) with each unit's card ability, ``cards`` by unit id."""
    return replace(table, units=tuple(
        replace(u, afar=cards[u.name].ability == AFAR, when_played=WHEN_PLAYED.get(cards[u.name].ability, ""))
        for u in table.units
    ))


#: Victory comes at this many points in harness games: low enough for games to end.
VICTORY_POINTS = 6


class Setup(dict):
    """An engine setup, with the number of seats it is for."""

    def as_dict(self) -> dict[str, Any]:
        return dict(self)


def fragment_pool() -> Pool:
    """The cards of random tables: those without an ability. The harness's
    checker reads its table off an observation, which shows a unit's keywords
    but not its card's ability, and Kayn would soon change his immunity (the
    model's units keep fixed keywords, with no count of moves). The scenarios'
    follower holds them all, its table given each card's ability
    (``with_abilities``)."""
    return Pool((c.name, c) for c in load_pool() if c.ability is None)


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
