"""Small helpers to start a Heroes of Ancients game and play it by action labels."""

from __future__ import annotations

from engine.hota import CHANCE, Action, HotaGame


def new(players: int = 2, table: dict | None = None, decks: dict | None = None, seed: int = 0, **kw):
    """A game before its first chance action."""
    return HotaGame(players=players, table=table, decks=decks, **kw).new_initial_state(seed)


def labels(state) -> list[str]:
    return [state.action_label(a) for a in state.legal_actions()]


def act(state, *steps: str):
    """Apply each action given by its label; exactly one legal action must match
    (the face-down council choices, which all read alike, take the first)."""
    for step in steps:
        found = [a for a in state.legal_actions() if state.action_label(a) == step]
        if step.endswith("chooses a card face down"):
            found = found[:1]
        assert len(found) == 1, f"{step!r} matches {len(found)} legal actions; legal: {labels(state)}\n{state}"
        state.apply_action(found[0])
    return state


def deal(state, first: int = 0):
    """The two chance actions: the shuffle, then `first` goes first."""
    state.apply_action(Action("shuffle", CHANCE))
    state.apply_action(Action("first_player", CHANCE, target=first))
    return state


def start(players: int = 2, table: dict | None = None, decks: dict | None = None, first: int = 0,
          mulligans: dict | None = None, seed: int = 0, **kw):
    """A game at its first priority: dealt, every player declares its mulligan
    count (`mulligans` maps a seat index to a count; 0 by default)."""
    st = deal(new(players, table, decks, seed, **kw), first)
    while st.snapshot()["step"] == "mulligan":
        p = st.current_player()
        act(st, f"P{p + 1} declares mulligan {(mulligans or {}).get(p, 0)}")
    return st


def choose(state, player: int, name: str):
    """The council's face-down choice of a card by name."""
    index = state.hands[player].index(name)
    state.apply_action(Action("choose", player, card=index))
    return state


def passes(state, count: int):
    """`count` passes by whoever holds priority."""
    for _ in range(count):
        act(state, f"P{state.current_player() + 1} passes")
    return state


def to_turn_of(state, player: int):
    """Pass until `player` is active and holds priority at the start of a turn."""
    for _ in range(50):
        s = state.snapshot()
        if s["active"] == player and s["priority"] == player and s["passes"] == 0:
            return state
        passes(state, 1)
    raise AssertionError(f"P{player + 1}'s turn never came\n{state}")


def entity(state, controller: int, name: str) -> dict:
    return next(e for e in state.snapshot()["entities"] if e["card"] == name and e["controller"] == controller)
