"""Riftbound model tables as scenario situations, and the engine's state as
``expect``: what ``chainproof lint --scenarios`` writes a Riftbound
finding's game with (``scenarios/tables.py`` replays it).

A model unit is abstract: an owner, a might and keywords.  The engine has
cards; each unit becomes a card of the pool with the same card ability
(assumed:here-trigger, assumed:afar-trigger, Kayn's immunity) and no
keyword the unit lacks: the card of its name where the pool has one (the
seed's Caitlyn), else one of its might with the fewest keywords to grant.
The unit's keywords its card lacks are granted and its might set where the
card's differs (as an effect may, damage.step; not in hand, where a might
is the printed one), and it is named ``as`` the model unit.
"""

from __future__ import annotations

from typing import Any

from agreement.riftbound.builtin import triggers
from model.riftbound.table import BASE, FIRST_BATTLEFIELD, HAND, NOBODY, TRASH, Table, Unit
from scenarios.riftbound.adapter import pool
from scenarios.tables import ExportError, TableExport

KEYWORDS = ("tank", "last", "immune", "rallying", "indestructible")
ZONES = {HAND: "hand", BASE: "base", TRASH: "trash"}


def _seat(p: int) -> str | None:
    return None if p == NOBODY else f"P{p + 1}"


def _keywords(u: Unit) -> set[str]:
    return {k for k in KEYWORDS if getattr(u, k)}


def _card(u: Unit) -> dict[str, Any] | str:
    """The unit as a situation's entry: a card of the engine's pool with its ability, made the unit."""
    wanted = {"when_played": u.when_played, "afar": u.afar, "immune_after_two_moves": u.immune_after_two_moves}
    fits = [c for c in pool().values() if triggers(c.ability) == wanted and set(c.keywords) <= _keywords(u)]
    if u.start == HAND:
        # A might set by an effect lasts while the unit is in play (damage.step): in hand it is the printed one.
        fits = [c for c in fits if c.might == u.might]
    if not fits:
        printed = f" at might {u.might}" if u.start == HAND else ""
        raise ExportError(f"{u.name} starts in {ZONES.get(u.start, 'play')}{printed}, and no card of the engine's pool has its ability{printed} without keywords it lacks")
    # The card of the unit's name where the pool has it (the seed's Caitlyn), else the closest.
    card = min(fits, key=lambda c: (c.name != u.name, c.might != u.might, len(_keywords(u) - set(c.keywords)), c.name))
    entry: dict[str, Any] = {"card": card.name}
    if card.name != u.name:
        entry["as"] = u.name
    grant = sorted(_keywords(u) - set(card.keywords))
    if grant:
        entry["grant"] = grant
    if card.might != u.might:
        entry["might"] = u.might
    return entry if len(entry) > 1 else card.name


def situation(t: Table) -> dict[str, Any]:
    """The scenario's situation for the model table ``t``."""
    units: dict[str, dict[str, list[Any]]] = {}
    for u in t.units:
        zone = ZONES.get(u.start) or t.battlefield_name(u.start - FIRST_BATTLEFIELD)
        units.setdefault(f"P{u.owner + 1}", {}).setdefault(zone, []).append(_card(u))
    out: dict[str, Any] = {}
    if t.players != 2:
        out["players"] = t.players
    out["battlefields"] = [{"controller": _seat(c)} if c != NOBODY else {} for c in t.controllers]
    if t.turn_player:
        out["turn_player"] = f"P{t.turn_player + 1}"
    out["victory_points"] = t.victory_points
    out["units"] = units
    seats = range(t.players)
    for key, per, alone in (("spells", t.spell_budgets, t.spells), ("reactions", t.reaction_budgets, t.reactions),
                            ("action_spells", t.action_spell_budgets, t.action_spells), ("points", t.points, 0)):
        values = per or (alone,) * t.players
        if any(values):
            out[key] = {f"P{p + 1}": values[p] for p in seats if values[p]}
    if t.scored and any(t.scored):
        out["scored"] = {f"P{p + 1}": [t.battlefield_name(b) for b in range(t.battlefields) if t.scored[p * t.battlefields + b]]
                         for p in seats if any(t.scored[p * t.battlefields:(p + 1) * t.battlefields])}
    return out


def expect(st: Any) -> dict[str, Any]:
    """The engine's state in the words of ``expect`` (scenarios/riftbound/README.md)."""
    d = st.to_dict()

    def who(p: int | None) -> str:
        return "none" if p is None else f"P{p + 1}"

    out: dict[str, Any] = {"step": d["step"], "turn": d["turn"], "turn_player": who(d["turn_player"])}
    combat = d["combat"]
    out["combat"] = "none" if not combat else {
        "battlefield": f"bf{combat['battlefield'] + 1}", "attacker": who(combat["attacker"]), "defender": who(combat["defender"])}
    out["units"] = {
        f"P{u['owner'] + 1}'s {u['id'].split(':', 1)[1]}": {
            "zone": f"bf{u['battlefield'] + 1}" if u["zone"] == "battlefield" else u["zone"],
            "damage": u["damage"], "role": u["role"] or "none", "stunned": u["stunned"],
        }
        for u in d["units"]
    }
    out["controllers"] = {f"bf{i + 1}": who(b["controller"]) for i, b in enumerate(d["battlefields"])}
    out["points"] = {f"P{p + 1}": x for p, x in enumerate(d["points"])}
    out["chain"] = [st.link_label(k) for k in st.chain]
    if st.is_terminal():
        out["terminal"] = True
        out["winner"] = who(d["winner"])
    return out


EXPORT = TableExport("riftbound", situation, expect)
