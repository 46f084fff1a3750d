"""Follow one game of the built-in Heroes of Ancients engine against the
model, action by action (for ``chainproof scenarios``; ``agreement/follow.py``).
A game the model does not hold (more than two players, Warding Sigil, decks
of two sizes, two Culling Fields) is not covered, with the reason."""

from __future__ import annotations

from agreement import follow
from agreement.hota.builtin import BuiltinHotaAdapter
from agreement.hota.checker import HotaChecker, table_of
from engine.hota import HotaState
from model.hota.table import TableError


def _not_covered(first: dict) -> str:
    if first["players"] != 2:
        return f"the model is of two players; this game has {first['players']}"
    try:
        table_of(first)
    except (TableError, ValueError) as exc:
        return str(exc)
    return ""


class ModelFollower(follow.ModelFollower):
    def __init__(self, st: HotaState) -> None:
        adapter = BuiltinHotaAdapter()
        super().__init__(adapter, HotaChecker(), st, _not_covered(adapter.observe(st)))
