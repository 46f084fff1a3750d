"""The adapter of the built-in Riftbound engine (``engine/riftbound``): games
set up from the part of its card pool the model abstracts, with reactions
(assumed:chain-reactions), and engine states and actions read as
observations (``agreement/riftbound/checker.py``), each unit with its card's
trigger as the model's units carry it.

This is the only module of the harness that knows the engine; the engine
knows nothing of it.
"""

from __future__ import annotations

import random
from typing import Any

from engine.riftbound import Action, IllegalAction, RiftboundGame, RiftboundState, load_pool, random_setup
from engine.riftbound.cards import Pool

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
#: Kayn's immunity once he has moved twice this turn (Unit.immune_after_two_moves,
#: damage.undamageable), which the model counts his moves for.
KAYN = "immune_if_moved_twice"
#: Every card ability the model abstracts; a card with another is not followed.
ABSTRACTED = (*WHEN_PLAYED, AFAR, KAYN)


def triggers(ability: str | None) -> dict[str, Any]:
    """A card's ability as the observation's unit fields give it to the model's units."""
    return {"when_played": WHEN_PLAYED.get(ability, ""), "afar": ability == AFAR, "immune_after_two_moves": ability == KAYN}


#: Victory comes at this many points in harness games: low enough for games to end.
VICTORY_POINTS = 6


class Setup(dict):
    """An engine setup, with the number of seats it is for."""

    def as_dict(self) -> dict[str, Any]:
        return dict(self)


class BuiltinRiftboundAdapter:
    game = "riftbound"

    def __init__(self) -> None:
        self.pool = load_pool()

    def random_setup(self, rng: random.Random, players: int) -> Setup:
        """A random table (``random_setup``) with reactions, and one more unit
        drawn from the cards with a trigger, for a player given a spell to cast:
        in hand for a trigger when played (assumed:here-trigger), at base for
        one from afar (assumed:afar-trigger). Uniform draws alone seldom bring
        such a card into play where its trigger counts. Kayn is drawn with them,
        at base and moved once this turn or not: one spell moving him into a
        combat then makes him immune (damage.undamageable). Each player may
        also get a spell for his action phase (assumed:action-spells), which
        waits on a chain outside the showdown where reactions are at the table."""
        setup = random_setup(rng, players=players, battlefields=2, victory_points=VICTORY_POINTS, pool=self.pool,
                             reactions=True)
        card = rng.choice([c for c in self.pool.names() if self.pool[c].ability in (*WHEN_PLAYED, AFAR, KAYN)])
        p = rng.randrange(players)
        ability = self.pool[card].ability
        extra = {"card": card, "owner": p, "zone": "hand" if ability in WHEN_PLAYED else "base"}
        if ability == KAYN:
            extra.update(moved=rng.randrange(2), name=f"{card} of {'P' + str(p + 1)}")
        setup["units"].append(extra)
        setup["spells"][p] = max(1, setup["spells"][p])
        # assumed:action-spells: a recall or a play for the action phase, drawn last.
        setup["action_spells"] = [rng.randint(0, 1) for _ in range(players)]
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
        obs = state.to_dict()
        ability = {u.id: u.card.ability for u in state.units}
        return {
            **obs,
            "units": [{**u, **triggers(ability[u["id"]])} for u in obs["units"]],
            "victory_points": state.victory_points,
            "asked": state.current_player() if state.step == "chain" else None,
        }

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
