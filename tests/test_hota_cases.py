"""``ByCase`` (model/hota/cases.py): over arrays, an answer asked once a
distinct case of the fields it reads gives, row by row, what the function
gives over arrays and over plain values."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np
import pytest
import z3

from model.backend import CONCRETE, SYMBOLIC, VECTOR, Backend
from model.hota.cases import ByCase

State = namedtuple("State", "x y t")


def settles(s: Any, b: Backend) -> dict[str, Any]:
    # ``y`` is read only where ``x`` is positive (AndThen skips it over plain values).
    return {"y": b.If(b.AndThen(s.x > 0, lambda: s.y > 5), s.y + 1, 0), "t": (s.t[0], b.And(s.x > 0, s.t[1]))}


def arrays(rows: list[tuple[int, int, tuple[int, int]]]) -> State:
    x, y, t = zip(*rows)
    return State(np.array(x, np.int32), np.array(y, np.int32), tuple(np.array(c, np.int32) for c in zip(*t)))


ROWS = [(0, 9, (1, 0)), (1, 6, (1, 1)), (2, 5, (0, 1)), (0, 7, (1, 1)), (1, 6, (1, 1)), (3, 8, (0, 0))]


def test_each_row_gets_its_case_answer() -> None:
    f = ByCase(settles)
    got = f(arrays(ROWS), VECTOR)
    direct = settles(arrays(ROWS), VECTOR)
    for i, row in enumerate(ROWS):
        plain = settles(State(*row), CONCRETE)
        assert int(np.asarray(got["y"])[i]) == int(np.asarray(direct["y"])[i]) == plain["y"]
        for j in range(2):
            assert bool(np.broadcast_to(got["t"][j], len(ROWS))[i]) == bool(direct["t"][j][i]) == bool(plain["t"][j])
    # The first case read ``x`` alone; ``y`` was found where ``x`` is positive.
    assert f.fields == ["t", "x", "y"]


def test_one_case_gives_plain_values() -> None:
    got = ByCase(settles)(arrays([(0, 9, (1, 0)), (0, 3, (1, 0))]), VECTOR)
    assert got == {"y": 0, "t": (1, False)}


def test_a_state_is_asked_once_and_its_changes_given_as_copies() -> None:
    calls = []

    def counted(s: Any, b: Backend) -> dict[str, Any]:
        calls.append(s)
        return settles(s, b)

    f, s = ByCase(counted), arrays(ROWS)
    first = f(s, VECTOR)
    asked = len(calls)
    first["extra"] = 1
    assert "extra" not in f(s, VECTOR)
    # Another state of the same cases is split, and each case's answer is known.
    assert f(arrays(ROWS[::-1]), VECTOR)["y"].tolist() == first["y"].tolist()[::-1]
    assert len(calls) == asked


def test_other_backends_call_the_function() -> None:
    x, y = z3.Int("x"), z3.Int("y")
    s = State(x, y, (z3.Bool("a"), z3.Bool("c")))
    assert ByCase(settles)(s, SYMBOLIC)["y"].eq(settles(s, SYMBOLIC)["y"])
    assert ByCase(settles)(State(*ROWS[1]), CONCRETE) == settles(State(*ROWS[1]), CONCRETE)


def test_a_read_of_no_field_is_an_error() -> None:
    with pytest.raises(AttributeError):
        ByCase(lambda s, b: s.nothing)(arrays(ROWS), VECTOR)


def test_many_new_cases_are_asked_over_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.hota import cases

    monkeypatch.setattr(cases, "MOST_EVALUATED", 1)
    f = ByCase(settles)
    got = f(arrays(ROWS), VECTOR)
    # Past one fresh evaluation the rows are asked over arrays: the same
    # answer, and of the five cases one kept at most.
    assert got["y"].tolist() == settles(arrays(ROWS), VECTOR)["y"].tolist()
    assert len(f.known) <= 1
