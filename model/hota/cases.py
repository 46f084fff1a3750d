"""Costly answers of a few fields, over arrays asked once a case.

What a concession settles, what the priority check does and what an
effect's outcome is are pure functions of a few fields of a state (who is
still in the game, the damage, the silenced entities). Explicit search keeps
them by the fields they read (``model/hota/recall.py``). Over arrays the
same answer was built from each ruling's conditions with a NumPy call apiece,
a few hundred calls a frontier group, for groups that hold a handful of
distinct cases of those fields among their rows. ``ByCase`` asks such a
function over plain values once for each distinct case of the fields it
reads (``distinct_rows`` of model/backend.py splits the rows), so over
arrays it costs a split of the rows and a gather, and runs the very code
explicit search runs. Where the rows hold many cases never met, or cases
whose answers differ in shape, it asks the function over the arrays instead.

Which fields it reads is found as it runs, not declared: each case is a
state that holds only the fields read so far, and a read of another adds that
field and starts the split again. A function that comes to read another
field is split by it as well.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from model.backend import CONCRETE, VECTOR, Backend, distinct_rows
from model.hota.recall import MOST_KEPT, Recall


class _Unread(Exception):
    """A case was asked a field it does not hold."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class _OverArrays(Exception):
    """The rows are asked over arrays: more than ``MOST_EVALUATED`` of their
    cases were never met, or their answers differ in shape."""


#: Cases evaluated afresh for one state, past which it is asked over arrays
#: instead: an evaluation over plain values costs about half of one over the arrays.
MOST_EVALUATED = 32


class _Case:
    """One distinct case over plain values: the fields read so far, and no other."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise _Unread(name) from None

    def _replace(self, **changes: Any) -> "_Case":
        return _Case({**self._values, **changes})


class ByCase:
    """``f(state, backend, *args)``: over plain values kept by the fields it
    read (``Recall``); over arrays asked once for each distinct case of those
    fields, and kept for the state last asked (the edges that leave a
    location are asked of one state, and the priority check's three guards,
    or an effect's two outcomes, ask the same answer of it; the state is held,
    so its identity is not reused while kept); over Z3 terms, ``f`` itself.
    ``f`` gives a value, or a mapping of fields to values or tuples of them."""

    def __init__(self, f: Callable[..., Any]) -> None:
        self.f = f
        self.concrete = Recall(f)
        # A case missing from ``known`` is asked of a ``Recall`` of its own,
        # which tells apart only the fields its path reads (a case's values
        # are ints, not explicit search's booleans: kept apart from its answers).
        self.cases = Recall(self._evaluated)
        #: How many cases were evaluated afresh.
        self.evaluated = 0
        #: The fields the cases hold, by name.
        self.fields: list[str] = []
        #: Each case's answer, by its arguments and its fields' values (ints:
        #: booleans as 0 and 1, as arrays hold them), flattened, with its shape (``_flat``).
        self.known: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self.state: Any = None
        self.answers: dict[tuple[Any, ...], Any] = {}

    def __call__(self, s: Any, b: Backend, *args: Any) -> Any:
        if b is CONCRETE:
            return self.concrete(s, b, *args)
        if b is not VECTOR:
            return self.f(s, b, *args)
        if self.state is not s:
            self.state, self.answers = s, {}
        found = self.answers.get(args)
        if found is None:
            while True:
                try:
                    found = self._by_case(s, args, self.evaluated + MOST_EVALUATED)
                    break
                except _OverArrays:
                    found = self.f(s, b, *args)
                    break
                except _Unread as unread:
                    getattr(s, unread.name)  # a field of the state, or its AttributeError
                    # In one order for every function: those that read the same
                    # fields of one state share its split (``distinct_rows`` keeps it).
                    self.fields = sorted((*self.fields, unread.name))
                    self.known = {}
            self.answers[args] = found
        # A mapping of changes is given out as a copy: a caller may add to it.
        return dict(found) if type(found) is dict else found

    def _evaluated(self, s: Any, b: Backend, *args: Any) -> Any:
        self.evaluated += 1
        return self.f(s, b, *args)

    def _by_case(self, s: Any, args: tuple[Any, ...], most: int) -> Any:
        columns: list[Any] = []
        lengths: list[int | None] = []
        for name in self.fields:
            value = getattr(s, name)
            if type(value) is tuple:
                columns.extend(value)
                lengths.append(len(value))
            else:
                columns.append(value)
                lengths.append(None)
        which, cases = distinct_rows(columns)
        answers = []
        shapes = set()
        for values in cases:
            key = (args, values)
            found = self.known.get(key)
            if found is None:
                case, i = {}, 0
                for name, length in zip(self.fields, lengths):
                    if length is None:
                        case[name], i = values[i], i + 1
                    else:
                        case[name], i = values[i : i + length], i + length
                if self.evaluated >= most:
                    raise _OverArrays
                found = _flat(self.cases(_Case(case), CONCRETE, *args))
                if len(self.known) < MOST_KEPT:
                    self.known[key] = found
            answers.append(found[0])
            shapes.add(found[1])
        if len(shapes) > 1:
            raise _OverArrays
        shape = shapes.pop()
        if len(answers) == 1:
            return _unflat(answers[0], shape)
        table = np.array(answers)
        same = (table == table[0]).all(axis=0).tolist()
        rows = table.take(which, axis=0)
        return _unflat([answers[0][i] if same[i] else rows[:, i] for i in range(len(same))], shape)


def _flat(answer: Any) -> tuple[tuple[Any, ...], Any]:
    """An answer as a tuple of plain values, and what ``_unflat`` needs to rebuild it."""
    if type(answer) is not dict:
        return (answer,), None
    flat: list[Any] = []
    shape = []
    for name, value in answer.items():
        if type(value) is tuple:
            flat.extend(value)
            shape.append((name, len(value)))
        else:
            flat.append(value)
            shape.append((name, None))
    return tuple(flat), tuple(shape)


def _unflat(flat: Any, shape: Any) -> Any:
    if shape is None:
        return flat[0]
    out, i = {}, 0
    for name, length in shape:
        if length is None:
            out[name], i = flat[i], i + 1
        else:
            out[name], i = tuple(flat[i : i + length]), i + length
    return out
