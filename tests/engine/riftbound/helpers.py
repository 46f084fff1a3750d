"""Small helpers to set a Riftbound table up and play it by action labels."""

from __future__ import annotations

from engine.riftbound import RiftboundGame


def unit(card: str, owner: int, where: str = "base", **extra) -> dict:
    """A setup entry: `where` is hand, base, trash or bf1..bf3."""
    out = {"card": card, "owner": owner, **extra}
    if where.startswith("bf"):
        out["zone"], out["battlefield"] = "battlefield", int(where[2:]) - 1
    else:
        out["zone"] = where
    return out


def table(units: list[dict], players: int = 2, battlefields: list[dict] | None = None, victory_points: int = 8,
          **setup):
    n_bf = len(battlefields) if battlefields else 2
    game = RiftboundGame(players=players, battlefields=n_bf, victory_points=victory_points)
    bfs = battlefields or [{} for _ in range(n_bf)]
    return game.new_initial_state({"units": units, "battlefields": bfs, **setup})


def labels(state) -> list[str]:
    return [state.action_label(a) for a in state.legal_actions()]


def act(state, *steps: str):
    """Apply each action given by its label (exactly one legal action must match)."""
    for step in steps:
        found = [a for a in state.legal_actions() if state.action_label(a) == step]
        assert len(found) == 1, f"{step!r} matches {len(found)} legal actions; legal: {labels(state)}\n{state}"
        state.apply_action(found[0])
    return state


def everyone_passes(state):
    for _ in range(state.num_players):
        act(state, f"P{state.current_player() + 1} passes")
    return state


def u(state, uid: str) -> dict:
    return next(x for x in state.to_dict()["units"] if x["id"] == uid)
