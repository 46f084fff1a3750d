"""Answers kept by the fields they read (``model/hota/recall.py``): the same
answers as asked afresh, and the order of mulligan declarations reads only
who has declared (``model/hota/game.declared_or_not``)."""

from __future__ import annotations

import itertools
from collections import namedtuple

import pytest

from model.backend import CONCRETE, SYMBOLIC
from model.hota import build
from model.hota.game import declared_or_not
from model.hota import recall
from model.hota.recall import Recall
from model.hota.table import NOT_YET

Point = namedtuple("Point", "a b c")


def test_a_kept_answer_is_the_answer_and_a_new_path_is_evaluated_again() -> None:
    calls = []

    def f(s, b, k):  # noqa: ANN001, ANN202
        calls.append(s)
        # Reads c only where a is positive: two states that differ in c alone
        # share an answer where a is not.
        return {"sum": s.a + (s.c if s.a > 0 else 0) + k}

    kept = Recall(f)
    states = [Point(a, b, c) for a in (-1, 1) for b in (0, 5) for c in (2, 3)]
    for s in states * 2:
        assert kept(s, CONCRETE, 10) == f(s, CONCRETE, 10)
    # b is never read; c only where a > 0: three paths, each evaluated once.
    assert len(calls) - 2 * len(states) == 3
    # A kept mapping is given out as a copy.
    kept(states[0], CONCRETE, 10)["sum"] = 0
    assert kept(states[0], CONCRETE, 10) == {"sum": 9}


def test_past_its_most_answers_it_asks_afresh(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(recall, "MOST_KEPT", 2)
    calls = []
    kept = Recall(lambda s, b: calls.append(s) or s.a)
    for a in (1, 2, 3, 3, 1):
        assert kept(Point(a, 0, 0), CONCRETE) == a
    # 1 and 2 are kept; 3 is asked each time.
    assert [s.a for s in calls] == [1, 2, 3, 3]


def test_a_state_replaced_inside_is_read_through() -> None:
    kept = Recall(lambda s, b: s._replace(a=0).a + s.b)
    assert kept(Point(5, 1, 0), CONCRETE) == 1
    # a was replaced before it was read: a state differing in a alone is the same path.
    assert kept(Point(7, 1, 0), CONCRETE) == 1 and kept(Point(7, 2, 0), CONCRETE) == 2


def test_other_backends_are_asked_afresh() -> None:
    seen = []
    kept = Recall(lambda s, b: seen.append(b) or 1)
    kept(Point(1, 2, 3), SYMBOLIC)
    kept(Point(1, 2, 3), SYMBOLIC)
    assert seen == [SYMBOLIC, SYMBOLIC]


@pytest.mark.parametrize("players", [3, 4])
def test_who_declares_next_turns_on_who_has_declared_not_on_the_count(players: int) -> None:
    m = build(players=players)
    book = m.rulings
    start = next(m.initial_states())._replace(location=m.location_index["mulligan"])
    lefts = [()] + [(p,) for p in range(players)]
    asked = 0
    for first, left, declared in itertools.product(range(players), lefts, itertools.product((NOT_YET, 0, 5), repeat=players)):
        s = start._replace(first=first, declared=declared, lost=tuple(p in left for p in range(players)))
        coarse = declared_or_not(s, CONCRETE)
        for p in range(players):
            assert book.answer("declares_next", s, CONCRETE, p) == book.answer("declares_next", coarse, CONCRETE, p)
            asked += 1
    assert asked == players * len(lefts) * 3 ** players * players
