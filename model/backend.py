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
        return reduce(np.logical_and, xs, True)

    @staticmethod
    def Or(*xs: Any) -> Any:
        return reduce(np.logical_or, xs, False)

    @staticmethod
    def AndThen(first: Any, rest: Callable[[], Any]) -> Any:
        # ``rest`` is skipped only when no row needs it: the rows where
        # ``first`` is false get it too and stay false.  A ``rest`` that fails
        # on them sends its edge row by row over CONCRETE (checkers/vector.py).
        if not np.any(first):
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
        if np.ndim(index) == 0:
            return Concrete.select(seq, index, default)
        result = default
        for i, x in enumerate(seq):
            result = np.where(index == i, x, result)
        return result

    @staticmethod
    def store(seq: Sequence[Any], index: Any, value: Any) -> tuple:
        if np.ndim(index) == 0:
            return Concrete.store(seq, index, value)
        return tuple(np.where(index == i, value, x) for i, x in enumerate(seq))

    @staticmethod
    def count(flags: Sequence[Any]) -> Any:
        return sum((np.not_equal(f, 0).astype(np.int64) for f in flags), 0)

    @staticmethod
    def total(values: Sequence[Any]) -> Any:
        # As integers: NumPy adds two boolean arrays as "or".
        return sum((np.asarray(v, dtype=np.int64) for v in values), 0)


CONCRETE = Concrete()
SYMBOLIC = Symbolic()
VECTOR = Vector()
Backend = Concrete | Symbolic | Vector
