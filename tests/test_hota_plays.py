"""Plays from hand in the Heroes of Ancients model (model/hota/plays.py):
named cards only where a deck holds playable ones, every way a draw can fall,
and plays gated by the hand and the attribute values (106.3)."""

from __future__ import annotations

import pytest

from agreement.hota.checker import machine_for
from agreement.hota.follow import ModelFollower
from engine.hota import Action, HotaGame
from model.hota import build
from model.hota.plays import MOST_EDGES, TooManyDraws, outcomes
from model.hota.table import TableError, table_of


def test_the_default_table_names_no_card_and_plays_none() -> None:
    m = build()
    assert not m.table.names
    assert not [e.name for e in m.edges if "_plays_" in e.name or "@" in e.name]
    assert not [v.name for v in m.variables if v.name.startswith(("library_", "hand_", "points_"))]


def test_a_draw_has_every_way_the_named_cards_can_fall() -> None:
    t = table_of({}, 9, 2, ({"Strength Attribute": 7}, {}))
    # Seven of P1's nine cards, two of them unnamed: five to seven Strength Attributes.
    assert outcomes(t, 0, (OPENING := 7,)) == [(5, 2), (6, 1), (7, 0)]
    assert outcomes(t, 1, (OPENING,)) == [(0, 7)]
    assert outcomes(t, 0, (0, 1)) == [(0, 0), (0, 1), (1, 0)]


def _to_first_priority(m, s):
    """Every state the first player's first priority can be reached in, by the given start."""
    frontier = [s]
    for _ in range(12):
        following = []
        for x in frontier:
            for e, post in m.successors(x):
                if "concedes" in e.name or ("goes_first" in e.name and not e.name.startswith("p1_")):
                    continue
                if e.name.startswith("declare_mulligan_") and e.name != "declare_mulligan_0":
                    continue
                following.append(post)
        if any(m.location_of(x) == "priority" for x in following):
            return [x for x in following if m.location_of(x) == "priority"]
        frontier = following
    raise AssertionError("no priority reached")


def _plays(m, s) -> set[str]:
    return {e.name.split("@")[0] for e, _ in m.successors(s) if "_plays_" in e.name}


def test_a_spell_needs_the_attribute_value_it_requires() -> None:
    # 106.2a, 106.3: P1's Arcane Sanctum gives the one intelligence Arcane Study needs.
    with_sanctum = machine_for(table_of({0: ["Arcane Sanctum"]}, 9, 2, ({"Arcane Study": 9}, {})))
    (start,) = list(with_sanctum.initial_states())
    (first,) = _to_first_priority(with_sanctum, start)
    assert _plays(with_sanctum, first) == {"p1_plays_arcane_study"}
    # Silenced, the Sanctum gives nothing (101.2a): no play.
    assert _plays(with_sanctum, first._replace(silenced=(True,))) == set()
    without = machine_for(table_of({0: ["Ember Bolt"]}, 9, 2, ({"Arcane Study": 9}, {})))
    (start,) = list(without.initial_states())
    (first,) = _to_first_priority(without, start)
    assert _plays(without, first) == set()


def test_a_played_basic_attribute_card_gives_a_point_and_leaves_the_hand() -> None:
    m = machine_for(table_of({}, 9, 2, ({"Strength Attribute": 7}, {})))
    (start,) = list(m.initial_states())
    firsts = _to_first_priority(m, start)
    assert sorted(x.hand_strength_attribute[0] for x in firsts) == [5, 6, 7]
    for s in firsts:
        ((e, post),) = [(e, post) for e, post in m.successors(s) if "_plays_" in e.name]
        assert e.name == "p1_plays_strength_attribute"
        assert post.points_strength == (1, 0)
        assert (post.hand[0], post.hand_strength_attribute[0]) == (s.hand[0] - 1, s.hand_strength_attribute[0] - 1)


def test_a_table_the_model_cannot_hold_by_name_is_declined_with_why() -> None:
    with pytest.raises(TableError, match="no card a player plays"):
        table_of({}, 9, 2, ({"Wandering Courier": 3}, {}))
    big = table_of({}, 60, 2, ({"Strength Attribute": 20, "Agility Attribute": 20, "Arcane Study": 10},) * 2)
    with pytest.raises(TooManyDraws, match=str(MOST_EDGES)):
        build(table=big, mulligan=7)


def test_the_follower_follows_a_play_and_checks_a_refused_one() -> None:
    game = HotaGame(2, table={"P1": ["Arcane Sanctum"]}, decks={"P1": ["Arcane Study"] * 9})
    st = game.new_initial_state(0)
    follower = ModelFollower(st)
    assert follower.not_covered == ""
    for action in (Action("shuffle", -1), Action("first_player", -1, target=0), Action("mulligan", 0, count=0),
                   Action("mulligan", 1, count=0), Action("play", 0, source="Arcane Study")):
        follower.before(st, action)
        st.apply_action(action)
        assert follower.after(st) == []
    assert follower.steps == 5
    # P2 holds no Arcane Study: the model allows no such play either.
    assert follower.allows(st, Action("play", 1, source="Arcane Study")) == ""
