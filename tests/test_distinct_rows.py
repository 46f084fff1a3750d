"""``distinct_rows`` and ``Vector.each_distinct`` (model/backend.py): the one
split of array rows into their distinct cases that HotA's ``ByCase`` and
Riftbound's damage splits share, held to a row-by-row reading in plain Python."""

from __future__ import annotations

import numpy as np

from model.backend import VECTOR, distinct_rows


def rows_of(columns: list, n: int) -> list[tuple[int, ...]]:
    return [tuple(int(c[i]) if isinstance(c, np.ndarray) else int(c) for c in columns) for i in range(n)]


def assert_split(columns: list, n: int) -> None:
    which, cases = distinct_rows(columns)
    expected = rows_of(columns, n)
    assert len(set(cases)) == len(cases) == len(set(expected))
    assert [cases[k] for k in which.tolist()] == expected
    assert all(type(v) is int for case in cases for v in case)


def test_each_row_is_numbered_by_its_case():
    rng = np.random.default_rng(7)
    n = 200
    columns = [rng.integers(0, 3, n, dtype=np.uint8), 5, rng.integers(-2, 2, n), np.zeros(n, bool), rng.random(n) < 0.5]
    assert_split(columns, n)


def test_columns_too_wide_for_one_number_are_split_row_by_row():
    # Each column's range near 2**31: their mixed radix would pass 2**62.
    rng = np.random.default_rng(8)
    n = 50
    wide = rng.integers(0, 4, n) * (1 << 31)
    assert_split([wide, wide[::-1].copy(), rng.integers(0, 2, n)], n)


def test_constants_alone_are_one_case_and_no_numbers():
    assert distinct_rows([3, True, np.int64(2)]) == (None, [(3, 1, 2)])


def test_the_same_columns_are_split_once():
    column = np.array([1, 0, 1])
    assert distinct_rows([column, 2]) is distinct_rows([column, 2])


def test_each_distinct_decides_each_case_asked_once():
    a, b = np.array([1, 2, 1, 2, 1]), np.array([0, 0, 0, 1, 0])
    asked: list[tuple[int, int]] = []

    def decide(x: int, y: int) -> int:
        asked.append((x, y))
        return 10 * x + y

    got = VECTOR.each_distinct(decide, [a, b], np.array([True, True, True, False, False]))
    assert got.tolist() == [10, 20, 10, 0, 0]
    assert sorted(asked) == [(1, 0), (2, 0)]  # (2, 1) is on no row asked


def test_each_distinct_over_constants_with_rows_asked():
    got = VECTOR.each_distinct(lambda x, y: x + y, [2, 3], np.array([True, False, True]))
    assert got.tolist() == [5, 0, 5]
