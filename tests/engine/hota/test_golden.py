"""The golden rules (101.1-101.3) and activated abilities' limits."""

from __future__ import annotations

import pytest

from engine.hota import Action, IllegalAction

from .helpers import act, entity, labels, passes, start


# --- 101.1: card text beats the rules; a player may always concede -------------------------------

def test_aegis_keeps_a_player_in_the_game_at_lethal_damage_and_the_damage_stays():
    """101.1, 104.3b: "you can't lose" beats the rule; damage markers stay."""
    st = start(table={"P1": ["Aegis of Immortality", "Ember Bolt"]}, starting_life=10)
    act(st, "P1 activates Ember Bolt targeting P1")
    s = st.snapshot()
    assert s["damage"] == [10, 0] and s["status"] == ["playing", "playing"]
    assert any(line.startswith("P1 can't lose (104.3b: 10 damage") for line in st.history)
    passes(st, 2)
    assert st.snapshot()["damage"] == [10, 0] and not st.is_terminal()


def test_aegis_does_not_stop_a_concession():
    """101.1's one exception, 104.3a: the player concedes, loses and leaves at once."""
    st = start(table={"P1": ["Aegis of Immortality"]})
    assert st.current_player() == 0
    st.concede(0)
    assert st.outcome() == ["lost", "won"] and st.returns() == [-1.0, 1.0]
    assert st.history[-4:] == ["P1 concedes", "P1 loses (104.3a: concedes)", "P1 leaves the game (104.5)",
                               "P2 wins the game (104.2a: every opponent has left the game)"]


def test_a_player_may_concede_when_it_is_not_their_decision():
    """104.3a "at any time": P3 concedes while P1 holds priority; the game goes on."""
    st = start(players=3, table={"P3": ["Ember Bolt"]})
    st.concede(2)
    s = st.snapshot()
    assert s["status"] == ["playing", "playing", "lost"] and s["entities"] == []
    assert s["priority"] == 0 and s["step"] == "priority"
    with pytest.raises(IllegalAction) as info:
        st.concede(2)
    assert info.value.rule == "104.5"


def test_a_concession_is_also_an_action():
    st = start()
    st.apply_action(Action("concede", 1))
    assert st.outcome() == ["won", "lost"]
    with pytest.raises(IllegalAction) as info:
        st.concede(0)
    assert info.value.rule == "104.1"


# --- 101.2: "can't" beats "can" ----------------------------------------------------------------

def test_cant_lose_beats_an_effect_that_says_you_lose():
    """101.2, 104.3d: Curse of Ruin on a player with Aegis does nothing."""
    st = start(table={"P1": ["Curse of Ruin"], "P2": ["Aegis of Immortality"]})
    act(st, "P1 activates Curse of Ruin targeting P2")
    assert st.outcome() == ["playing", "playing"]
    assert st.history[-1] == "P2 can't lose (104.3d: Curse of Ruin; 101.2: Aegis of Immortality)"


def test_curse_of_ruin_makes_its_target_lose_at_once():
    """104.3d, 104.5, 104.2a."""
    st = start(players=3, table={"P1": ["Curse of Ruin"]})
    act(st, "P1 activates Curse of Ruin targeting P2")
    s = st.snapshot()
    assert s["status"] == ["playing", "lost", "playing"] and s["priority"] == 0


def test_cant_win_beats_an_effect_that_says_you_win():
    """101.2, 104.2b: Pact of Victory against an opponent's Gatekeeper."""
    st = start(table={"P1": ["Pact of Victory"], "P2": ["Gatekeeper"]})
    act(st, "P1 activates Pact of Victory")
    assert st.outcome() == ["playing", "playing"] and entity(st, 0, "Pact of Victory")["used"]
    assert st.history[-1] == "P1 can't win (104.2b: Pact of Victory; 101.2: P2's Gatekeeper)"


def test_ones_own_gatekeeper_stops_only_opponents():
    st = start(table={"P1": ["Pact of Victory", "Gatekeeper"]})
    act(st, "P1 activates Pact of Victory")
    assert st.outcome() == ["won", "lost"]
    assert st.history[-1] == "P1 wins the game (104.2b: Pact of Victory)"


def test_the_last_player_standing_wins_whatever_prevents_it():
    """104.2a: P1 can't win by Pact against P3's Gatekeeper, but wins once every
    opponent has left."""
    st = start(players=3, table={"P1": ["Pact of Victory", "Curse of Ruin"], "P3": ["Gatekeeper"]})
    act(st, "P1 activates Pact of Victory")
    assert st.outcome() == ["playing"] * 3
    act(st, "P1 activates Curse of Ruin targeting P3")
    st.concede(1)
    assert st.outcome() == ["won", "lost", "lost"]
    assert st.history[-1] == "P1 wins the game (104.2a: every opponent has left the game)"


# --- 101.2a: losing abilities is not "can't" ----------------------------------------------------

def test_a_silenced_aegis_no_longer_protects():
    """101.2a: P1 is at lethal damage under Aegis; once the Aegis loses its
    abilities, P1 loses at the check after the resolution (104.3b)."""
    st = start(table={"P1": ["Aegis of Immortality", "Ember Bolt"], "P2": ["Silencing Rune"]}, starting_life=10)
    act(st, "P1 activates Ember Bolt targeting P1", "P1 passes")
    # Ember Bolt's ability is activated, so Silencing Rune cannot target it.
    assert labels(st) == ["P2 passes", "P2 activates Silencing Rune targeting P1's Aegis of Immortality"]
    act(st, "P2 activates Silencing Rune targeting P1's Aegis of Immortality")
    assert st.outcome() == ["lost", "won"]
    assert "P1 loses (104.3b: 10 damage)" in st.history


def test_a_silenced_gatekeeper_no_longer_stops_wins():
    st = start(table={"P1": ["Pact of Victory", "Silencing Rune"], "P2": ["Gatekeeper"]})
    act(st, "P1 activates Silencing Rune targeting P2's Gatekeeper")
    assert entity(st, 1, "Gatekeeper")["silenced"]
    act(st, "P1 activates Pact of Victory")
    assert st.outcome() == ["won", "lost"]


def test_a_silenced_trigger_does_not_trigger_and_silence_ends_with_the_turn():
    """101.2a, assumed:turn-end."""
    st = start(table={"P1": ["Spirit Caller", "Silencing Rune"], "P2": ["Culling Field"]})
    act(st, "P1 activates Silencing Rune targeting P2's Culling Field", "P1 activates Spirit Caller")
    s = st.snapshot()
    assert s["tokens"] == [1, 0] and s["waiting_triggers"] == []
    passes(st, 2)
    assert entity(st, 1, "Culling Field") == {"card": "Culling Field", "controller": 1, "owner": 1, "used": False,
                                              "silenced": False, "attributes": []}
    assert not entity(st, 0, "Silencing Rune")["used"]


def test_silencing_rune_cannot_target_an_activated_ability():
    """Its text: another entity with a static or triggered ability."""
    st = start(table={"P1": ["Ember Bolt"], "P2": ["Silencing Rune"]})
    act(st, "P1 passes")
    assert labels(st) == ["P2 passes"]
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 1, "Silencing Rune", 0, "Ember Bolt"))
    assert info.value.rule == "108.4" and "P1's Ember Bolt" in str(info.value)


def test_silencing_rune_targets_another_entity_only():
    st = start(table={"P1": ["Silencing Rune"]})
    assert labels(st) == ["P1 passes"]
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 0, "Silencing Rune", 0, "Silencing Rune"))
    assert info.value.rule == "109.1"


# --- activated abilities: who, when, how often ----------------------------------------------------

def test_each_activated_ability_once_per_turn_by_its_controller_with_priority():
    """assumed:once-per-turn, assumed:priority, 109.2."""
    st = start(table={"P1": ["Ember Bolt"], "P2": ["Tome of Ages"]})
    assert labels(st) == ["P1 passes", "P1 activates Ember Bolt targeting P1", "P1 activates Ember Bolt targeting P2"]
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 1, "Tome of Ages", 1))
    assert info.value.rule == "assumed:priority"
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 0, "Tome of Ages", 0))
    assert info.value.rule == "109.2"
    act(st, "P1 activates Ember Bolt targeting P2")
    assert st.snapshot()["damage"] == [0, 10]
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("activate", 0, "Ember Bolt", 1))
    assert info.value.rule == "assumed:once-per-turn"
    passes(st, 2)
    passes(st, 2)
    assert "P1 activates Ember Bolt targeting P2" in labels(st)


def test_passing_moves_priority_in_turn_order_and_all_passing_ends_the_turn():
    """assumed:priority, assumed:turn-end, assumed:draw-step."""
    st = start(players=3)
    act(st, "P1 passes")
    assert st.snapshot()["priority"] == 1 and st.snapshot()["passes"] == 1
    act(st, "P2 passes", "P3 passes")
    s = st.snapshot()
    assert s["active"] == 1 and s["priority"] == 1 and s["passes"] == 0 and s["hand"] == [8, 8, 7]


def test_a_resolution_gives_priority_back_to_the_active_player():
    """assumed:priority: the run of passes starts over."""
    st = start(players=3, table={"P2": ["Ember Bolt"]})
    act(st, "P1 passes", "P2 activates Ember Bolt targeting P3")
    s = st.snapshot()
    assert s["priority"] == 0 and s["passes"] == 0 and s["damage"] == [0, 0, 10]


def test_tome_of_ages_draws_three_and_a_short_library_loses_at_the_check():
    """104.3c: the player draws what is left, then loses at the next check."""
    st = start(table={"P1": ["Tome of Ages"]})
    act(st, "P1 activates Tome of Ages targeting P1")
    assert st.snapshot()["hand"] == [9, 7]
    assert "P1 draws 2 of 3: the library is empty (104.3c)" in st.history
    assert st.outcome() == ["lost", "won"]


def test_tome_of_ages_against_aegis_clears_the_mark():
    """104.3c, 101.1: the mark is cleared by the check even though it caused no loss."""
    st = start(table={"P1": ["Tome of Ages", "Aegis of Immortality"]})
    act(st, "P1 activates Tome of Ages targeting P1")
    s = st.snapshot()
    assert s["status"] == ["playing", "playing"] and s["drew_from_empty"] == [False, False]
