"""Starting the game (103): chance, the opening hands, the mulligan, the first turn."""

from __future__ import annotations

import pytest

from engine.hota import CHANCE, Action, IllegalAction

from .helpers import act, deal, labels, new, start


def test_the_game_starts_with_two_chance_actions():
    """103.1 the shuffle, then 103.2 a uniform pick of the first player."""
    st = new(players=3)
    assert st.current_player() == CHANCE and st.is_chance_node()
    assert [(str(a), p) for a, p in st.chance_outcomes()] == [("shuffle decks", 1.0)]
    assert st.snapshot()["first_player"] == -1 and st.snapshot()["active"] == -1
    st.apply_action(st.chance_outcomes()[0][0])
    outcomes = st.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == ["P1 goes first", "P2 goes first", "P3 goes first"]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len({p for _, p in outcomes}) == 1
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("shuffle", CHANCE))
    assert info.value.rule == "103.1"


def test_the_shuffle_uses_the_state_rng_so_a_seed_fixes_it():
    decks = {"P1": ["Wandering Courier"] * 5 + ["Village Scholar"] * 5}
    a, b, c = (deal(new(decks=decks, seed=s)) for s in (4, 4, 5))
    assert a.hands == b.hands and a.libraries == b.libraries
    assert (a.hands[0], a.libraries[0]) != (c.hands[0], c.libraries[0])


def test_starting_life_no_damage_and_seven_cards_each():
    """103.3, 103.4."""
    st = deal(new(players=3), first=1)
    s = st.snapshot()
    assert s["step"] == "mulligan" and s["first_player"] == 1
    assert s["damage"] == [0, 0, 0] and s["hand"] == [7, 7, 7] and s["library"] == [2, 2, 2]
    assert "every player starts with 30 life and no damage (103.3)" in st.history


def test_the_first_player_declares_first_then_the_others_in_turn_order_seeing_earlier_counts():
    """103.4, 101.4b: declarations are public."""
    st = deal(new(players=3), first=2)
    assert st.current_player() == 2
    assert labels(st) == [f"P3 declares mulligan {k}" for k in range(8)]
    act(st, "P3 declares mulligan 2")
    assert st.current_player() == 0 and st.snapshot()["mulligan_declared"] == [-1, -1, 2]
    assert st.observation_for(0)["mulligan_declared"] == [-1, -1, 2]
    act(st, "P1 declares mulligan 0")
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("mulligan", 0, count=1))
    assert info.value.rule == "103.4"
    act(st, "P2 declares mulligan 7")
    s = st.snapshot()
    assert s["mulligan_done"] and s["mulligan_declared"] == [-1, -1, -1]
    assert s["active"] == 2 and s["step"] == "priority"


def test_mulligans_happen_together_and_cards_are_kept_count_for_count():
    st = deal(new(players=2, decks={"P1": ["Wandering Courier"] * 20}), first=0)
    act(st, "P1 declares mulligan 3", "P2 declares mulligan 0")
    s = st.snapshot()
    assert s["hand"] == [7, 7]  # P1 first in a two-player game: no draw (103.5a)
    assert s["library"] == [13, 2]
    assert any(line.startswith("P1 mulligans 3") for line in st.history)


def test_simultaneous_mulligans_from_short_libraries_are_a_draw():
    """103.4 "at the same time", 104.3c at the next check, 104.4a: both players
    draw from an empty library during the mulligan, so both lose together."""
    st = deal(new(players=2, decks={"P1": ["Wandering Courier"] * 7, "P2": ["Village Scholar"] * 7}))
    act(st, "P1 declares mulligan 2")
    assert st.snapshot()["hand"] == [7, 7]  # nothing happens before every player declared
    act(st, "P2 declares mulligan 1")
    assert st.outcome() == ["drew", "drew"]
    assert "the game is a draw (104.4a: every player still in the game lost at once)" in st.history
    assert st.returns() == [0.0, 0.0]


def test_only_the_short_player_loses_after_a_mulligan():
    st = deal(new(players=2, decks={"P2": ["Village Scholar"] * 7}))
    act(st, "P1 declares mulligan 2", "P2 declares mulligan 2")
    assert st.outcome() == ["won", "lost"]
    assert "P2 loses (104.3c: drew from an empty library)" in st.history


def test_a_mulligan_is_once_per_game():
    """103.4: no mulligan after the first turn has begun."""
    st = start(mulligans={0: 1, 1: 1})
    assert not any(a.kind == "mulligan" for a in st.legal_actions())
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("mulligan", 0, count=0))
    assert info.value.rule == "103.4" and "at most once" in info.value.reason


def test_the_first_player_skips_the_first_draw_in_a_two_player_game():
    """103.5, 103.5a."""
    st = start(players=2, first=1)
    s = st.snapshot()
    assert s["active"] == 1 and s["first_turn"] and s["priority"] == 1
    assert s["hand"] == [7, 7] and s["library"] == [2, 2]
    assert "P2 skips the draw of the first turn (103.5a)" in st.history
    act(st, "P2 passes", "P1 passes")
    s = st.snapshot()
    assert s["active"] == 0 and not s["first_turn"] and s["hand"] == [8, 7]


@pytest.mark.parametrize("players", [3, 4])
def test_the_first_player_draws_on_the_first_turn_with_three_or_four_players(players):
    """103.5a applies to two-player games only."""
    st = start(players=players, first=0)
    s = st.snapshot()
    assert s["first_turn"] and s["hand"] == [8] + [7] * (players - 1)
    assert not any("103.5a" in line for line in st.history)
