"""The backends a guard or an update is evaluated over.

Every guard and update in a model is written once, as a Python function of a
state and a backend.  Over ``CONCRETE`` the state holds plain ints, bools and
tuples and the result is a plain value; over ``SYMBOLIC`` the state holds Z3
terms and the result is a Z3 term; over ``VECTOR`` each field holds a NumPy
array with one row per state (a tuple field, a tuple of such arrays) and the
result is an array over the same rows, or a plain constant that stands for
every row.  Only the operations that differ between them (boolean
connectives, if-then-else, indexing by a variable) go through the backend;
comparison and arithmetic operators work on all three as they are.
``AndThen`` is a conjunction whose costly second part the concrete backend
skips when the first is already false.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Callable, Sequence

import numpy as np
import z3


class Concrete:
    """Plain Python values: what explicit search and the transcripts use."""

    name = "concrete"

    @staticmethod
    def And(*xs: Any) -> bool:
        for x in xs:
            if not x:
                return False
        return True

    @staticmethod
    def Or(*xs: Any) -> bool:
        for x in xs:
            if x:
                return True
        return False

    @staticmethod
    def AndThen(first: Any, rest: Callable[[], Any]) -> bool:
        # Python evaluates And's arguments eagerly; a costly conjunct goes in
        # ``rest`` so that it is skipped when ``first`` already decides.
        return bool(first) and bool(rest())

    @staticmethod
    def Not(x: Any) -> bool:
        return not x

    @staticmethod
    def Implies(a: Any, c: Any) -> bool:
        return (not a) or bool(c)

    @staticmethod
    def If(cond: Any, then: Any, other: Any) -> Any:
        return then if cond else other

    @staticmethod
    def select(seq: Sequence[Any], index: Any, default: Any = 0) -> Any:
        # Out-of-range reads give the default on both backends, so a guard may
        # index by "nobody" (the value one past the last player) safely.
        if 0 <= index < len(seq):
            return seq[index]
        return default

    @staticmethod
    def store(seq: Sequence[Any], index: Any, value: Any) -> tuple:
        if 0 <= index < len(seq):
            return tuple(seq[:index]) + (value,) + tuple(seq[index + 1 :])
        return tuple(seq)

    @staticmethod
    def count(flags: Sequence[Any]) -> int:
        return sum(map(bool, flags))

    @staticmethod
    def total(values: Sequence[Any]) -> int:
        return sum(values)


class Symbolic:
    """Z3 terms: what bounded model checking unrolls."""

    name = "z3"

    @staticmethod
    def And(*xs: Any) -> z3.BoolRef:
        return z3.And(*xs) if xs else z3.BoolVal(True)

    @staticmethod
    def Or(*xs: Any) -> z3.BoolRef:
        return z3.Or(*xs) if xs else z3.BoolVal(False)

    @staticmethod
    def AndThen(first: Any, rest: Callable[[], Any]) -> z3.BoolRef:
        return z3.And(first, rest())

    @staticmethod
    def Not(x: Any) -> z3.BoolRef:
        return z3.Not(x)

    @staticmethod
    def Implies(a: Any, c: Any) -> z3.BoolRef:
        return z3.Implies(a, c)

    @staticmethod
    def If(cond: Any, then: Any, other: Any) -> Any:
        return z3.If(cond, then, other)

    @staticmethod
    def select(seq: Sequence[Any], index: Any, default: Any = 0) -> Any:
        result = default
        for i in reversed(range(len(seq))):
            result = z3.If(index == i, seq[i], result)
        return result

    @staticmethod
    def store(seq: Sequence[Any], index: Any, value: Any) -> tuple:
        return tuple(z3.If(index == i, value, seq[i]) for i in range(len(seq)))

    @staticmethod
    def count(flags: Sequence[Any]) -> Any:
        return z3.Sum([z3.If(f, 1, 0) for f in flags]) if flags else z3.IntVal(0)

    @staticmethod
    def total(values: Sequence[Any]) -> Any:
        return z3.Sum(list(values)) if values else z3.IntVal(0)


class Vector:
    """NumPy arrays, one row per state: what the vectorized search uses (``checkers/vector.py``).

    Fields are integer arrays (booleans as 0 and 1, so that arithmetic on them
    counts as it does on Python bools); a result may be a plain constant,
    which holds for every row.  Python's own ``and``, ``if`` or ``max`` on a
    field of more than one row raise here (such an array has no single truth
    value), so a guard that uses them fails rather than being misread.
    """

    name = "vector"

    @staticmethod
    def And(*xs: Any) -> Any:
        if len(xs) == 2 and type(xs[0]) is _ARRAY and type(xs[1]) is _ARRAY and xs[0].ndim and xs[1].ndim:
            return np.logical_and(*xs)  # the commonest case, in one call
        # Constants are decided at once, as on CONCRETE: only arrays cost a NumPy call.
        arrays = []
        for x in xs:
            if isinstance(x, np.ndarray) and x.ndim:
                arrays.append(x)
            elif not x:
                return False
        return _all(np.logical_and, arrays) if arrays else True

    @staticmethod
    def Or(*xs: Any) -> Any:
        if len(xs) == 2 and type(xs[0]) is _ARRAY and type(xs[1]) is _ARRAY and xs[0].ndim and xs[1].ndim:
            return np.logical_or(*xs)
        arrays = []
        for x in xs:
            if isinstance(x, np.ndarray) and x.ndim:
                arrays.append(x)
            elif x:
                return True
        return _all(np.logical_or, arrays) if arrays else False

    @staticmethod
    def AndThen(first: Any, rest: Callable[[], Any]) -> Any:
        # ``rest`` is skipped only when no row needs it: the rows where
        # ``first`` is false get it too and stay false.  A ``rest`` that fails
        # on them sends its edge row by row over CONCRETE (checkers/vector.py).
        if not (first.any() if isinstance(first, np.ndarray) else first):  # np.any, without its dispatch
            return np.logical_and(first, False)
        return np.logical_and(first, rest())

    @staticmethod
    def Not(x: Any) -> Any:
        return np.logical_not(x)

    @staticmethod
    def Implies(a: Any, c: Any) -> Any:
        return np.logical_or(np.logical_not(a), c)

    @staticmethod
    def If(cond: Any, then: Any, other: Any) -> Any:
        return np.where(cond, then, other)

    @staticmethod
    def select(seq: Sequence[Any], index: Any, default: Any = 0) -> Any:
        if not isinstance(index, np.ndarray) or not index.ndim:  # np.ndim, without its dispatch
            return Concrete.select(seq, index, default)
        if all(type(x) in (int, bool) for x in (*seq, default)):
            # Constants: one look-up in a table with the default on either
            # side of them, for an index clipped to that table (``take``'s
            # clipping: ``np.clip`` costs several times its work on a small frontier).
            table = np.array([default, *seq, default])
            return table.take(index + 1, mode="clip")
        if (
            index.size >= _BRANCHLESS_ROWS
            and type(default) in (int, bool)
            and all(type(x) is _ARRAY and x.shape == index.shape for x in seq)
        ):
            # Arrays: the chosen one by arithmetic on the rows where it is
            # chosen (exact in integers, and wrapping alike), not by ``where``,
            # which branches on every row and pays for each misprediction.
            # The default must be a constant (an array default, such as the
            # turn player, is taken row by row below).
            kind = np.result_type(*seq, default)
            if kind == _BOOL:
                out = np.logical_or(index < 0, index >= len(seq)) if default else np.zeros(index.shape, bool)
                for i, x in enumerate(seq):
                    out |= (index == i) & x
                return out
            if kind.kind in "iu" and seq:
                # The first slot's term is the sum to add the others to (no
                # array of the default to start from: a pass fewer); the
                # default, added last, is what rows of no slot keep.
                out = ((index == 0) * (seq[0] - default if default else seq[0])).astype(kind, copy=False)
                for i, x in enumerate(seq[1:], 1):
                    out += (index == i) * (x - default if default else x)
                if default:
                    out += default
                return out
        result = default
        for i, x in enumerate(seq):
            result = np.where(index == i, x, result)
        return result

    @staticmethod
    def store(seq: Sequence[Any], index: Any, value: Any) -> tuple:
        if not isinstance(index, np.ndarray) or not index.ndim:
            return Concrete.store(seq, index, value)
        out = []
        for i, x in enumerate(seq):
            here = index == i
            if type(x) is _ARRAY and x.shape == index.shape and np.result_type(value, x) == x.dtype:
                if not here.any():
                    out.append(x)  # no row writes this slot: it is handed back as it was
                    continue
                if index.size >= _BRANCHLESS_ROWS and x.dtype.kind in "iu":
                    out.append(x + here * (value - x))  # as ``select``: no branch a row
                    continue
            out.append(np.where(here, value, x))
        return tuple(out)

    @staticmethod
    def count(flags: Sequence[Any]) -> Any:
        return sum((np.not_equal(f, 0).astype(np.int64) for f in flags), 0)

    @staticmethod
    def total(values: Sequence[Any]) -> Any:
        # As integers: NumPy adds two boolean arrays as "or".
        return sum((np.asarray(v, dtype=np.int64) for v in values), 0)

    @staticmethod
    def each_distinct(decide: Callable[..., Any], columns: Sequence[Any], where: Any = True) -> Any:
        """``decide(*values)`` on plain ints, once for each distinct row of
        ``columns`` (arrays or constants, one value per row) where ``where``
        holds, and 0 on the other rows: for rules that only plain values can
        run, of which a frontier holds few distinct cases (``distinct_rows``)."""
        n = max((np.size(c) for c in (*columns, where) if np.ndim(c)), default=0)
        if not n:
            return decide(*(int(c) for c in columns)) if where else 0
        asked = np.flatnonzero(np.broadcast_to(where, (n,)))
        out = np.zeros(n, np.int64)
        if asked.size:
            row_of, distinct = distinct_rows(columns)
            if row_of is None:  # every column a constant: one case, on every row asked
                out[asked] = decide(*distinct[0])
                return out
            needed, which = np.unique(row_of[asked], return_inverse=True)
            out[asked] = np.array([decide(*distinct[i]) for i in needed.tolist()], np.int64)[which.reshape(-1)]
        return out


def _all(connective: np.ufunc, arrays: list[np.ndarray]) -> np.ndarray:
    """``arrays`` joined by ``connective``, as booleans (one array of integers is read as its truth)."""
    if len(arrays) > 1:
        return reduce(connective, arrays)
    # One array of booleans is its own truth (no NumPy call; nothing writes into a result).
    return arrays[0] if arrays[0].dtype == _BOOL else np.not_equal(arrays[0], 0)


_ARRAY = np.ndarray
_BOOL = np.dtype(bool)
#: Rows from which ``select`` and ``store`` choose by arithmetic: on fewer,
#: ``where`` takes fewer NumPy calls, and its mispredictions cost little.
_BRANCHLESS_ROWS = 1 << 12


#: The columns split last, each with its split (held, so that no other
#: array takes their identity): a family of edges asks the split of one
#: state's columns in turn, each with rows of its own to decide (Riftbound's
#: damage splits), and HotA's ``ByCase`` asks it of a location's state and
#: then of each edge's update.
_splits: list[tuple[tuple[Any, ...], Any]] = []
#: How many splits ``_splits`` keeps.
KEPT_SPLITS = 4


def distinct_rows(columns: Sequence[Any]) -> tuple[np.ndarray | None, list[tuple[int, ...]]]:
    """The distinct rows of ``columns`` (arrays of one length, or constants,
    one value per row): each row's number among them, and those rows as
    tuples of plain ints.  With no array among the columns there is one row,
    and no numbers (``None``).  The last ``KEPT_SPLITS`` answers are kept by
    the identity of their columns."""
    for held, found in _splits:
        if len(held) == len(columns) and all(a is b for a, b in zip(held, columns)):
            return found
    n = max((len(c) for c in columns if isinstance(c, np.ndarray) and c.ndim), default=0)
    if not n:
        return None, [tuple(int(c) for c in columns)]
    # One stack, cast once: a constant is written out as a row of its own.
    table = np.stack([c if isinstance(c, np.ndarray) and c.ndim else np.full(n, int(c)) for c in columns]).astype(np.int64)
    # One integer per row, by mixed radix over each column's range: the
    # distinct rows are found by sorting numbers, not rows.
    lo = table.min(axis=1)
    radix = table.max(axis=1) - lo + 1
    if np.prod(radix.astype(float)) < 2.0**62:
        place = np.concatenate(([1], np.cumprod(radix[:-1])))
        _, first, which = np.unique(place @ (table - lo[:, None]), return_index=True, return_inverse=True)
        distinct = table.take(first, axis=1).T
    else:
        distinct, which = np.unique(table.T, axis=0, return_inverse=True)
    found = which.reshape(-1), [tuple(x) for x in distinct.tolist()]
    _splits.insert(0, (tuple(columns), found))
    del _splits[KEPT_SPLITS:]
    return found


CONCRETE = Concrete()
SYMBOLIC = Symbolic()
VECTOR = Vector()
Backend = Concrete | Symbolic | Vector
