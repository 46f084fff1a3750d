"""Concrete answers kept by the fields they read.

Explicit search (and the agreement harness's steering above all) asks the
same costly things of state after state: what a concession would settle,
what the priority check does. Each is a pure function of a few fields (who
is still in the game, the damage, the silenced entities), and the rulings
behind it are asked again for every state although those fields rarely
change. ``Recall`` keeps each answer under the fields its evaluation read,
in the order it read them: a tree whose nodes are fields and whose branches
are their values. Evaluation is deterministic, so a state that agrees with
an earlier one on every field that evaluation read takes the same path and
gets the same answer; the tree is walked field by field, and only a state
that leaves it is evaluated again (on a state that notes its reads). Nothing
is assumed about which fields matter: a ruling that comes to read another
field is recorded reading it.
"""

from __future__ import annotations

from typing import Any, Callable

from model.backend import CONCRETE, Backend

#: The most answers one ``Recall`` keeps: past them it asks afresh, so a long
#: explicit search over states that rarely agree keeps no more than this.
MOST_KEPT = 1 << 14


class _Reads:
    """A concrete state that notes each field read the first time, with its value.

    A field once read is kept on the object, so reading it again is a plain
    attribute (``__getattr__`` is asked only for what is not there): the
    rulings behind an answer read the same few fields many times over, and
    a second read has nothing to note."""

    def __init__(self, state: Any, read: dict[str, Any], derived: frozenset[str] = frozenset()) -> None:
        self._state = state
        self._read = read
        # Fields set by ``_replace``: their values come from the fields read already, or from no state.
        self._derived = derived

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._state, name)
        if name not in self._derived and name not in self._read:
            self._read[name] = value
        self.__dict__[name] = value
        return value

    def _replace(self, **changes: Any) -> "_Reads":
        return _Reads(self._state._replace(**changes), self._read, self._derived | changes.keys())


class _Node:
    """A field the evaluation read next, and the subtree for each of its values."""

    __slots__ = ("field", "branches")

    def __init__(self, field: str) -> None:
        self.field = field
        self.branches: dict[Any, Any] = {}


class _Leaf:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _fresh(value: Any) -> Any:
    """A kept mapping (an update's changes) is given out as a copy, so no caller can change what is kept."""
    return dict(value) if type(value) is dict else value


class Recall:
    """``f(state, backend, *args)`` over the concrete backend, kept per ``args``
    by the fields of the state it read; any other backend calls ``f``."""

    def __init__(self, f: Callable[..., Any]) -> None:
        self.f = f
        self.trees: dict[tuple[Any, ...], Any] = {}
        self.kept = 0

    def __call__(self, s: Any, b: Backend, *args: Any) -> Any:
        if b is not CONCRETE:
            return self.f(s, b, *args)
        node = self.trees.get(args)
        while node is not None:
            if type(node) is _Leaf:
                return _fresh(node.value)
            node = node.branches.get(getattr(s, node.field), None)
        return _fresh(self._evaluate(s, args))

    def _evaluate(self, s: Any, args: tuple[Any, ...]) -> Any:
        if self.kept >= MOST_KEPT:
            return self.f(s, CONCRETE, *args)
        self.kept += 1
        read: dict[str, Any] = {}
        value = self.f(_Reads(s, read), CONCRETE, *args)
        path = list(read.items())
        if not path:
            self.trees[args] = _Leaf(value)
            return value
        if args not in self.trees:
            self.trees[args] = _Node(path[0][0])
        node = self.trees[args]
        for i, (field, seen) in enumerate(path):
            # Deterministic evaluation reads, after the same values, the same field next.
            assert type(node) is _Node and node.field == field, f"{self.f.__qualname__} read {field} where it read {getattr(node, 'field', 'nothing')} before"
            following = node.branches.get(seen)
            if following is None:
                following = node.branches[seen] = _Node(path[i + 1][0]) if i + 1 < len(path) else _Leaf(value)
            node = following
        return value
