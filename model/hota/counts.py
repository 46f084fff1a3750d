"""How a Heroes of Ancients model counts cards and tokens.

The bounded model counts libraries, hands and tokens exactly: the deck bounds
them all, since every turn draws a card and a game ends when a library runs
out. The model of games of any length (``build(..., any_length=True)``) has no
deck: it counts each of them only up to a cap, and the cap stands for that
many or more (abstracted:library-cap, abstracted:hand-cap, abstracted:token-cap).
Hands are counted exactly until the first player's first turn is over, since
the start of the game is where the rules (103.4, 103.5a) read how many cards
a hand holds.

Each cap is above every number a guard, a ruling or a property compares the
count with once the cap applies (a library's 0 and the most one step draws,
a hand's 0, a token's 0), so those read the same on a state of the game as on
its image. A step that adds to a count at its cap leaves it there; a step
that takes from a count at its cap leaves any number from the exact
difference up to the cap, each by its own edge: so the model has every run
of the game, whatever the deck.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Union

from model.backend import CONCRETE, Backend
from model.hota.table import OPENING_HAND, TOME_DRAW, Table
from model.machine import Edge

#: Whose count a step changes: a seat, or the seat a state names (the active player).
Whose = Union[int, Callable[[Any], Any]]
#: A count a step takes from: the variable, whose, and the most the step takes.
Counted = tuple[str, Whose, int]

#: The registry entry that justifies each cap.
WHY = {
    "library": "abstracted:library-cap",
    "hand": "abstracted:hand-cap",
    "tokens": "abstracted:token-cap",
    "tokens_elsewhere": "abstracted:token-cap",
}


@dataclass(frozen=True)
class Counts:
    """The caps of the counted variables; none in the bounded model."""

    caps: Mapping[str, int]
    #: Counts kept exact until the first player's first turn is over, with
    #: the most they can hold until then.
    opening: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def exact(cls) -> "Counts":
        return cls({})

    @classmethod
    def any_length(cls, t: Table, mulligan: int) -> "Counts":
        # A library is compared with 0 (104.3c), a mulligan count (103.4) and
        # Tome of Ages' draw; a hand, once the game's start is over, only with
        # 0 (101.3); tokens only with 0 (109.5f). Until then a hand holds the
        # seven of 103.4, plus what each Tome of Ages and Council of Elders
        # can draw into it in the first player's first turn (once each,
        # assumed:once-per-turn; that player draws nothing, 103.5a).
        library = max(1, mulligan, TOME_DRAW if t.holding("Tome of Ages") else 0)
        first_turn = OPENING_HAND + TOME_DRAW * len(t.holding("Tome of Ages")) + len(t.holding("Council of Elders"))
        return cls({"library": library, "hand": 1, "tokens": 1, "tokens_elsewhere": 1}, {"hand": first_turn})

    @property
    def capped(self) -> bool:
        return bool(self.caps)

    def top(self, name: str, most: int) -> int:
        """The largest value the variable holds: ``most`` when it is exact."""
        if name not in self.caps:
            return most
        return max(self.caps[name], self.opening.get(name, 0))

    def shown(self, name: str, value: int, s: Any) -> str:
        at_cap = name in self.caps and value == self.caps[name] and self._capped_now(name, s, {}, CONCRETE)
        return f"{value}+" if at_cap else str(value)

    def counted(self, e: Edge, *counts: str | Counted) -> list[Edge]:
        """The edge that changes these counts (a name: one it only adds to or
        sets); with caps, held at each cap, and one more edge for each number
        a count at its cap may keep above the exact difference after the step
        takes from it."""
        if not self.capped:
            return [e]
        why = tuple(dict.fromkeys(WHY[c if isinstance(c, str) else c[0]] for c in counts))
        sites = [c for c in counts if not isinstance(c, str)]
        e = replace(e, rules=(*e.rules, *(w for w in why if w not in e.rules)))
        out = []
        for above in itertools.product(*(range(min(most, self.caps[name]) + 1) for name, _, most in sites)):
            chosen = [(site, j) for site, j in zip(sites, above) if j]
            out.append(self._held(e if not chosen else self._above(e, chosen)))
        return out

    def _capped_now(self, name: str, s: Any, after: Mapping[str, Any], b: Backend) -> Any:
        """Does the cap apply to this count (before a step: ``after`` empty)?"""
        return _past_start(s, after, b) if name in self.opening else True

    def _above(self, e: Edge, chosen: list[tuple[Counted, int]]) -> Edge:
        """``e`` where each count chosen, at its cap before the step, keeps ``j`` above the exact difference."""

        def index(s: Any, whose: Whose) -> Any:
            return whose(s) if callable(whose) else whose

        def guard(s: Any, b: Backend) -> Any:
            after = e.update(s, b)
            return b.And(e.guard(s, b), *(
                b.And(self._capped_now(name, s, {}, b),
                      b.select(getattr(s, name), index(s, whose)) == self.caps[name],
                      _floor(b.select(after[name], index(s, whose)), b) + j <= self.caps[name])
                for (name, whose, _), j in chosen
            ))

        def update(s: Any, b: Backend) -> dict[str, Any]:
            after = dict(e.update(s, b))
            for (name, whose, _), j in chosen:
                i = index(s, whose)
                after[name] = b.store(after[name], i, _floor(b.select(after[name], i), b) + j)
            return after

        def whose_name(whose: Whose) -> str:
            return "" if callable(whose) else f"p{whose + 1}s_"

        what = ", ".join(f"{j} more in {whose_name(w).replace('_', ' ')}{name.replace('_', ' ')}" for (name, w, _), j in chosen)
        suffix = "_".join(f"{whose_name(w)}{name}_{j}_more" for (name, w, _), j in chosen)
        return replace(e, name=f"{e.name}_{suffix}", guard=guard, update=update,
                       doc=f"{e.doc}; from a count at its cap, {what} left")

    def _held(self, e: Edge) -> Edge:
        """``e`` with every count it sets held at its cap where the cap applies
        after the step, and a difference taken from a cap never below none."""

        def update(s: Any, b: Backend, inner: Callable[..., dict[str, Any]] = e.update) -> dict[str, Any]:
            after = dict(inner(s, b))
            for name, cap in self.caps.items():
                # A step that ends the first turn caps a count exact until then.
                if name in after or (name in self.opening and "first_turn" in after):
                    now = self._capped_now(name, s, after, b)
                    after[name] = tuple(b.If(b.And(now, v > cap), cap, _floor(v, b)) for v in after.get(name, getattr(s, name)))
            return after

        return replace(e, update=update)


def _past_start(s: Any, after: Mapping[str, Any], b: Backend) -> Any:
    """The first player's first turn is over (after a step that sets ``after``)."""
    return b.And(after.get("mulligan_done", s.mulligan_done), b.Not(after.get("first_turn", s.first_turn)))


def _floor(value: Any, b: Backend) -> Any:
    """A difference taken from a cap, never below none."""
    return b.If(value < 0, 0, value)
