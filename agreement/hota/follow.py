"""Follow one game of the built-in Heroes of Ancients engine against the
model, action by action (for ``chainproof scenarios``; ``agreement/follow.py``).
Plays from hand are followed too: the model of a table whose decks hold
playable cards counts them by name (``model/hota/plays.py``). A game the
model does not hold (two Culling Fields, decks with more ways to draw their
named cards than it builds) is not covered, with the reason."""

from __future__ import annotations

from agreement import follow
from agreement.hota.builtin import BuiltinHotaAdapter
from agreement.hota.checker import HotaChecker, machine_for, table_of
from engine.hota import HotaState
from model.hota.plays import TooManyDraws
from model.hota.table import TableError


def _not_covered(first: dict) -> str:
    try:
        machine_for(table_of(first))
    except (TableError, TooManyDraws) as exc:
        return str(exc)
    return ""


class ModelFollower(follow.ModelFollower):
    def __init__(self, st: HotaState) -> None:
        adapter = BuiltinHotaAdapter(plays=True)
        super().__init__(adapter, HotaChecker(), st, _not_covered(adapter.observe(st)))
