"""Follow one game of the built-in Heroes of Ancients engine against the
model, action by action (for ``chainproof scenarios``; ``agreement/follow.py``).
A game the model does not hold (two Culling Fields) is not covered, with
the reason; so are the steps from a card played from hand on."""

from __future__ import annotations

from agreement import follow
from agreement.hota.builtin import BuiltinHotaAdapter
from agreement.hota.checker import HotaChecker, table_of
from engine.hota import Action, HotaState
from model.hota.table import TableError


def _not_covered(first: dict) -> str:
    try:
        table_of(first)
    except (TableError, ValueError) as exc:
        return str(exc)
    return ""


class ModelFollower(follow.ModelFollower):
    def __init__(self, st: HotaState) -> None:
        adapter = BuiltinHotaAdapter()
        super().__init__(adapter, HotaChecker(), st, _not_covered(adapter.observe(st)))

    def before(self, st: HotaState, action: Action) -> None:
        # The model has no card plays (assumed:play-from-hand, 106.1, 106.3): the
        # steps up to the first one are followed, that one and the rest are not.
        if self.following and action.kind == "play":
            self.not_covered = (f"{st.action_label(action)}: the model has no plays from hand: its hands are counts of "
                                "cards without names (abstracted:anonymous-cards), so it knows neither which card a "
                                "player may play (106.3) nor their attribute values (106.1-106.2a)")
            return
        super().before(st, action)

    def asks_about(self, action: Action) -> bool:
        # A refused play names no model edge.
        return action.kind != "play"
