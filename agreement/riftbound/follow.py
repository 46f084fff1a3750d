"""Follow one game of the built-in Riftbound engine against the model, action
by action (for ``chainproof scenarios``; ``agreement/follow.py``). The
model's table is the one read off the game's first observation, each unit
with its card's trigger (the adapter's ``observe``): Snare Warden's, Spark
Sapper's and Grave Reaper's when played (assumed:here-trigger) and Distant
Drummer's when a showdown it is not in begins (assumed:afar-trigger), and
each player's reactions (assumed:chain-reactions), and Kayn's immunity once
he has moved twice this turn (damage.undamageable), for which the model counts
his moves, and each player's spells for the action phase with the chain
they wait on (assumed:action-spells). A situation with a card ability the
model does not abstract, or with no unit at all, is not covered; so is the
step at which the engine's own turn cap ends a game."""

from __future__ import annotations


from agreement import follow
from agreement.riftbound.builtin import ABSTRACTED, BuiltinRiftboundAdapter
from agreement.riftbound.checker import RiftboundChecker
from engine.riftbound import Action, RiftboundState


class ModelFollower(follow.ModelFollower):
    def __init__(self, st: RiftboundState) -> None:
        outside = sorted({u.card.name for u in st.units if u.card.ability and u.card.ability not in ABSTRACTED})
        not_covered = f"cards the model does not abstract: {', '.join(outside)}" if outside else ""
        if not st.units:
            # The model's table is its units: it bounds damage by their might and has nothing to hold.
            not_covered = "a table with no unit: the model's tables hold at least one"
        super().__init__(BuiltinRiftboundAdapter(), RiftboundChecker(), st, not_covered)

    def after(self, st: RiftboundState) -> list:
        # The step that reaches the engine's turn cap (assumed:turn-cap) has no model
        # counterpart: it is left unjudged, as conform leaves it.
        limit = self.adapter.ended_by_limit(st) if self.following else None
        if limit:
            self._pending = None
            self.not_covered = f"the engine's own length limit ended the game ({limit}); the model has none"
            return []
        return super().after(st)

    def asks_about(self, action: Action) -> bool:
        # Assignments are compared whole by completeness; a refused one names no edge.
        return action.kind != "assign"
