"""The adapter of the built-in Heroes of Ancients engine (``engine/hota``):
games set up from its card pool (every entity card is the model's), engine states
read as snapshots and actions as plain data (``agreement/hota/checker.py``).
A concession is offered as an action of every player still in the game.
With ``plays`` (as scenarios are followed) the plays from hand are offered
too, and each observation carries the cards by name that the model of a
table with playable deck cards keeps (``named_cards``): hidden information,
which only the harness reads.

This is the only module of the harness that knows the engine; the engine
knows nothing of it.
"""

from __future__ import annotations

import random
from typing import Any

from engine.hota import Action, HotaGame, HotaState, IllegalAction, load_pool

#: Cards that come to a table only with a kit that names them: Mind Tether
#: turns a game on who controls what, so it is tried with the entities whose
#: control matters (tests/agreement/test_hota_agreement.py), not as a random extra.
KIT_ONLY = ("Mind Tether",)
#: One of each of these on a table at most (the model keeps one waiting trigger).
ONE_PER_TABLE = (("Culling Field",), ("Echo Chamber", "Whispering Echo"))
#: And at a table of more than two, one council, whose convener the model knows.
ONE_COUNCIL = (("Council of Elders",),)
#: Deck sizes: seven go to the opening hand; a small library makes games end.
DECKS = (9, 11, 13)


class Setup(dict):
    def as_dict(self) -> dict[str, Any]:
        return dict(self)


#: Cards that only do something together; a table starts from one of these,
#: split at random between the seats, so that random tables bring them together.
KITS = (
    ("Spirit Caller", "Culling Field", "Echo Chamber"),  # a loop of mandatory actions (104.4b)
    ("Spirit Caller", "Culling Field", "Whispering Echo"),  # a loop through a decision
    ("Spirit Caller", "Banishing Gale", "Rewind Portal", "Echo Chamber"),  # tokens leaving (109.5f-g), echoed
    ("Council of Elders", "Tome of Ages"),  # the council (101.4), libraries run short
    ("Aegis of Immortality", "Gatekeeper", "Twin Fates", "Silencing Rune"),  # the golden rules
)


def random_setup(rng: random.Random, pool: Any = None, players: int = 2) -> Setup:
    """``players`` seats: a kit split between them and up to four more
    entities each, from the model's part of the pool; equal decks."""
    pool = pool if pool is not None else load_pool()
    names = [c.name for c in pool.entities() if c.name not in KIT_ONLY]
    seats = [f"P{p + 1}" for p in range(players)]
    once = ONE_PER_TABLE + (ONE_COUNCIL if players > 2 else ())
    table: dict[str, list[str]] = {s: [] for s in seats}
    for name in rng.choice(KITS):
        table[rng.choice(seats)].append(name)
    taken: set[str] = {n for cards in table.values() for n in cards if any(n in g for g in once)}
    for s in seats:
        cards = table[s]
        for name in rng.sample(names, rng.randint(0, 4)):
            if name in cards:
                continue
            group = next((g for g in once if name in g), None)
            if group is not None and taken & set(group):
                continue
            if group is not None:
                taken.add(name)
            cards.append(name)
        table[s] = cards
    size = rng.choice(DECKS)
    fillers = [c.name for c in pool.deck_cards()]
    decks = {s: [rng.choice(fillers) for _ in range(size)] for s in seats}
    return Setup(table=table, decks=decks, seed=rng.randrange(2**16))


class BuiltinHotaAdapter:
    game = "hota"

    def __init__(self, plays: bool = False) -> None:
        self.pool = load_pool()
        self.plays = plays

    def random_setup(self, rng: random.Random, players: int) -> Setup:
        return random_setup(rng, self.pool, players)

    def new_game(self, setup: dict[str, Any]) -> HotaState:
        game = HotaGame(len(setup["table"]), table=setup["table"], decks=setup["decks"], pool=self.pool)
        return game.new_initial_state(setup["seed"])

    def legal_actions(self, state: HotaState) -> list[Action]:
        """The engine's actions, plays from hand only with ``plays``: random
        games play no card, so that their tables keep anonymous decks."""
        concessions = [] if state.is_terminal() else [Action("concede", p) for p in state.in_game()]
        return [a for a in state.legal_actions() if self.plays or a.kind != "play"] + concessions

    def apply_action(self, state: HotaState, action: Action) -> None:
        state.apply_action(action)

    def is_terminal(self, state: HotaState) -> bool:
        return state.is_terminal()

    def observe(self, state: HotaState) -> dict[str, Any]:
        obs = state.snapshot()
        if self.plays:
            council = state.council
            obs["named_cards"] = {
                "playable": sorted(c.name for c in self.pool.deck_cards() if c.playable),
                "library": [list(x) for x in state.libraries],
                "hand": [list(x) for x in state.hands],
                "points": [dict(x) for x in state.attributes],
                "chosen": [None if council is None or i is None else state.hands[p][i]
                           for p, i in enumerate(council.chosen if council else [None] * state.num_players)],
                "convener": council.activator if council else -1,
            }
        return obs

    def observe_action(self, state: HotaState, action: Action) -> dict[str, Any]:
        out = {
            "kind": action.kind, "player": action.player, "source": action.source, "target": action.target,
            "target_card": action.target_card, "count": action.count, "card": action.card, "choice": action.choice,
        }
        if self.plays and action.kind == "choose" and isinstance(action.card, int) \
                and 0 <= action.card < len(state.hands[action.player]):
            out["card_name"] = state.hands[action.player][action.card]
        return out

    def action_label(self, state: HotaState, action: Action) -> str:
        return state.action_label(action)

    def clone(self, state: HotaState) -> HotaState:
        return state.clone()

    def refusal(self, state: HotaState, action: Action) -> str | None:
        try:
            state.clone().apply_action(action)
        except IllegalAction as exc:
            return exc.rule
        return None

    def candidate_actions(self, state: HotaState, observed: dict[str, Any]) -> list[Action]:
        return [Action(observed["kind"], observed["player"], observed.get("source"), observed.get("target"),
                       observed.get("target_card"), choice=observed.get("choice") if observed["kind"] == "play" else None)]
