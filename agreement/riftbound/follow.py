"""Follow one game of the built-in Riftbound engine against the model, action
by action (for ``chainproof scenarios``; ``agreement/follow.py``). The
model's table is the one read off the game's first observation, with each
unit's card ability (``with_abilities``): the triggers of Snare Warden, Spark
Sapper and Grave Reaper when played (assumed:here-trigger) and of Distant
Drummer when a showdown it is not in begins (assumed:afar-trigger). Kayn is
followed as a unit whose immunity is a keyword. A situation with a card
ability the model does not abstract, or with no unit at all, is not covered;
so is the step at which the engine's own turn cap ends a game."""

from __future__ import annotations

from typing import Any

from agreement import follow
from agreement.riftbound.builtin import ABSTRACTED, BuiltinRiftboundAdapter, with_abilities
from agreement.riftbound.checker import RiftboundChecker, machine_for, table_of
from engine.riftbound import Action, RiftboundState
from engine.riftbound.cards import Card
from model.machine import Machine


class CardChecker(RiftboundChecker):
    """The checker of one game's table, its units given their cards' abilities."""

    def __init__(self, cards: dict[str, Card]) -> None:
        super().__init__()
        self.cards = cards

    def machine_for(self, first: dict[str, Any]) -> Machine:
        return machine_for(with_abilities(table_of(first), self.cards))


class ModelFollower(follow.ModelFollower):
    def __init__(self, st: RiftboundState) -> None:
        outside = sorted({u.card.name for u in st.units if u.card.ability and u.card.ability not in ABSTRACTED})
        not_covered = f"cards the model does not abstract: {', '.join(outside)}" if outside else ""
        # The model's table reads each unit's immunity as a fixed keyword: Kayn
        # is held as immune or not, as he is when the table is read.
        self._immune = {u.id: st.immune(u) for u in st.units}
        if not st.units:
            # The model's table is its units: it bounds damage by their might and has nothing to hold.
            not_covered = "a table with no unit: the model's tables hold at least one"
        super().__init__(BuiltinRiftboundAdapter(), CardChecker({u.id: u.card for u in st.units}), st, not_covered)

    def after(self, st: RiftboundState) -> list:
        # The step that reaches the engine's turn cap (assumed:turn-cap) has no model
        # counterpart: it is left unjudged, as conform leaves it.
        limit = self.adapter.ended_by_limit(st) if self.following else None
        if limit:
            self._pending = None
            self.not_covered = f"the engine's own length limit ended the game ({limit}); the model has none"
            return []
        findings = super().after(st)
        # The step that changes a unit's immunity (Kayn's second move, or the turn
        # end that takes it away) is judged by the table it began with; the steps
        # after it by the model of a table read afresh, with the keyword as it is
        # now. The model thus never judges when his immunity begins or ends: the
        # scenarios' own expectations do.
        now = {u.id: st.immune(u) for u in st.units}
        if self.following and now != self._immune:
            self._immune = now
            self.checker.begin(self.adapter.observe(st))
        return findings

    def asks_about(self, action: Action) -> bool:
        # Assignments are compared whole by completeness; a refused one names no edge.
        return action.kind != "assign"
