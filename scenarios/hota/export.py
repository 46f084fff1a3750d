"""Heroes of Ancients model tables as scenario situations, and the engine's
state as ``expect``: what ``chainproof lint --scenarios`` writes a HotA
finding's game with (``scenarios/tables.py`` replays it).

The model's tables are the engine's cards already (``model/hota/table.py``):
each entity goes on its controller's table, each deck is that many cards,
the playable ones named with their copies and the rest the engine's filler
card, which has no text, as the model's unnamed cards (abstracted:anonymous-cards).
"""

from __future__ import annotations

from typing import Any

from model.hota.table import Table
from scenarios.hota.adapter import FILLER
from scenarios.tables import TableExport


def _deck(t: Table, p: int) -> int | dict[str, int]:
    if not t.names:
        return t.sizes[p]
    named = {n: t.copies(p, n) for n in t.names if t.copies(p, n)}
    return {**named, FILLER: t.unnamed(p)} if t.unnamed(p) else named


def situation(t: Table) -> dict[str, Any]:
    """The scenario's situation for the model table ``t``: a game from the shuffle (103.1)."""
    out: dict[str, Any] = {}
    if t.players != 2:
        out["players"] = t.players
    table: dict[str, list[str]] = {}
    for e in t.entities:
        table.setdefault(f"P{e.controller + 1}", []).append(e.card)
    if table:
        out["table"] = table
    decks = [_deck(t, p) for p in range(t.players)]
    out["decks"] = decks[0] if all(d == decks[0] for d in decks) else {f"P{p + 1}": d for p, d in enumerate(decks)}
    return out


def expect(st: Any) -> dict[str, Any]:
    """The engine's state in the words of ``expect`` (scenarios/hota/README.md)."""
    d = st.snapshot()

    def seat(p: int) -> str:
        return "nobody" if p < 0 else f"P{p + 1}"

    out: dict[str, Any] = {"step": d["step"]}
    out.update({key: seat(d[key]) for key in ("first_player", "active", "priority")})
    out.update({key: d[key] for key in ("first_turn", "passes", "mulligan_done")})
    for key in ("library", "hand", "damage", "tokens", "tokens_elsewhere", "status"):
        out[key] = list(d[key])
    out["entities"] = {f"P{e['owner'] + 1}'s {e['card']}": {"controller": seat(e["controller"]), "used": e["used"], "silenced": e["silenced"]}
                       for e in d["entities"]}
    out["waiting_triggers"] = [{"card": w["card"], "controller": seat(w["controller"]), "token_controller": seat(w["token_controller"])}
                               for w in d["waiting_triggers"]]
    c = d["council"]
    out["council"] = "none" if c is None else {
        "chooser": seat(c["chooser"]),
        "picked": ["none" if x is None else x for x in c["picked"]],
        "answers": ["none" if x is None else x for x in c["answers"]],
        "rechoosing": c["rechoosing"],
    }
    out["terminal"] = st.is_terminal()
    return out


EXPORT = TableExport("hota", situation, expect)
