"""Council of Elders: simultaneous choices made one at a time (101.4, 101.4a-101.4d)."""

from __future__ import annotations

import pytest

from engine.hota import Action, IllegalAction

from .helpers import act, choose, labels, start

MIXED = ["Wandering Courier"] * 5 + ["Village Scholar"] * 5


def council(players: int = 3, holder: str = "P1", **kw):
    decks = {f"P{p + 1}": MIXED for p in range(players)}
    st = start(players=players, table={holder: ["Council of Elders"]}, decks=decks, **kw)
    return st


def test_the_active_player_chooses_first_a_card_face_down_then_an_answer():
    """101.4, 101.4c: the card, then accept or refuse; one choice per card name,
    all reading alike (101.4a)."""
    st = council()
    act(st, "P1 activates Council of Elders")
    s = st.snapshot()
    assert s["step"] == "council" and s["priority"] == -1
    assert s["council"] == {"chooser": 0, "picked": [None] * 3, "answers": [None] * 3, "rechoosing": False}
    names = set(st.hands[0])
    assert labels(st) == ["P1 chooses a card face down"] * len(names)
    assert {st.hands[0][a.card] for a in st.legal_actions()} == names
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("answer", 0, choice="accept"))
    assert info.value.rule == "101.4c"
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("choose", 1, card=0))
    assert info.value.rule == "101.4"
    choose(st, 0, "Village Scholar")
    assert labels(st) == ["P1 accepts", "P1 refuses"]
    assert st.snapshot()["council"]["picked"] == [True, None, None]


def test_later_choosers_see_earlier_answers_but_not_the_face_down_cards():
    """101.4a, 101.4b."""
    st = council()
    act(st, "P1 activates Council of Elders")
    choose(st, 0, "Village Scholar")
    act(st, "P1 accepts")
    seen_by_p2 = st.observation_for(1)
    assert seen_by_p2["chosen"] == ["a chosen card", None, None]
    assert seen_by_p2["council_answers"] == ["accept", None, None]
    assert "Village Scholar" not in str(seen_by_p2["chosen"]) and seen_by_p2["own_hand"] == st.hands[1]
    assert st.observation_for(0)["chosen"] == ["Village Scholar", None, None]
    assert st.history[-2:] == ["P1 chooses a card face down", "P1 accepts"]


def test_a_refusal_after_the_active_player_accepted_makes_the_active_player_answer_again():
    """101.4d: only the active player's answer is asked again, the card stays
    chosen; then the players who have not chosen go on in turn order."""
    st = council()
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 accepts",
        "P2 chooses a card face down", "P2 refuses")
    s = st.snapshot()["council"]
    assert s == {"chooser": 0, "picked": [True, True, None], "answers": ["accept", "refuse", None],
                 "rechoosing": True}
    assert labels(st) == ["P1 accepts", "P1 refuses"]
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("choose", 0, card=0))
    assert info.value.rule == "101.4d"
    act(st, "P1 refuses")
    s = st.snapshot()["council"]
    assert s == {"chooser": 2, "picked": [True, True, None], "answers": ["refuse", "refuse", None],
                 "rechoosing": False}
    act(st, "P3 chooses a card face down", "P3 refuses")  # P1 refuses now: no new answer
    s = st.snapshot()
    assert s["step"] == "priority" and s["council"] is None and s["hand"] == [7, 6, 6]


def test_the_active_player_may_be_asked_again_more_than_once():
    st = council(players=4)
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 accepts",
        "P2 chooses a card face down", "P2 refuses", "P1 accepts",
        "P3 chooses a card face down", "P3 accepts",
        "P4 chooses a card face down", "P4 refuses")
    assert st.snapshot()["council"]["rechoosing"] and st.current_player() == 0
    act(st, "P1 accepts")
    s = st.snapshot()
    assert s["council"] is None and s["hand"] == [8, 6, 7, 6]  # P1 and P3 discarded one and drew one


def test_no_new_answer_when_a_defender_accepts_or_the_active_player_refused():
    st = council()
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 refuses",
        "P2 chooses a card face down", "P2 refuses")
    assert st.snapshot()["council"]["chooser"] == 2
    st = council()
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 accepts",
        "P2 chooses a card face down", "P2 accepts")
    assert st.snapshot()["council"]["chooser"] == 2


def test_the_chosen_cards_are_discarded_together_then_accepting_players_draw():
    """101.4: the choices take effect at the same time."""
    st = council(players=2)
    act(st, "P1 activates Council of Elders")
    choose(st, 0, "Village Scholar")
    act(st, "P1 accepts")
    choose(st, 1, "Wandering Courier")
    act(st, "P2 refuses", "P1 accepts")
    assert st.discards == [["Village Scholar"], ["Wandering Courier"]]
    s = st.snapshot()
    assert s["hand"] == [7, 6] and s["library"] == [2, 3] and s["priority"] == 0
    assert "the chosen cards are discarded: P1's Village Scholar, P2's Wandering Courier" in st.history


def test_a_defender_may_activate_the_council_and_the_active_player_still_chooses_first():
    st = council(holder="P2")
    act(st, "P1 passes", "P2 activates Council of Elders")
    assert st.current_player() == 0 and st.snapshot()["council"]["chooser"] == 0


def test_a_player_with_no_card_in_hand_skips_the_card_choice_and_still_answers():
    """101.3: the impossible choice is left out (hand emptied by arrangement)."""
    st = council()
    st.hands[1] = []
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 refuses")
    assert st.snapshot()["council"]["picked"] == [True, False, None]
    assert labels(st) == ["P2 accepts", "P2 refuses"]
    assert "P2 has no card in hand to choose (101.3)" in st.history
    act(st, "P2 accepts", "P3 chooses a card face down", "P3 refuses")
    assert st.snapshot()["hand"] == [7, 1, 6]


def test_everyone_accepting_from_empty_libraries_is_a_draw():
    """104.3c at the check after the council, 104.4a."""
    st = start(table={"P1": ["Council of Elders"]}, decks={"P1": ["Wandering Courier"] * 7,
                                                            "P2": ["Village Scholar"] * 7})
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 accepts",
        "P2 chooses a card face down", "P2 accepts")
    assert st.outcome() == ["drew", "drew"]


def test_a_chooser_who_concedes_is_left_out_and_the_council_goes_on():
    st = council()
    act(st, "P1 activates Council of Elders", "P1 chooses a card face down", "P1 accepts")
    st.concede(1)
    s = st.snapshot()
    assert s["council"]["chooser"] == 2 and s["status"] == ["playing", "lost", "playing"]
    act(st, "P3 chooses a card face down", "P3 accepts")
    assert st.snapshot()["hand"] == [8, 7, 7]


def test_the_council_ends_if_its_controller_leaves():
    """assumed:leaver-objects: the ability leaves the game with its controller."""
    st = council(holder="P2")
    act(st, "P1 passes", "P2 activates Council of Elders", "P1 chooses a card face down", "P1 accepts")
    st.concede(1)
    s = st.snapshot()
    assert s["council"] is None and s["step"] == "priority" and s["priority"] == 0
    assert s["hand"] == [8, 7, 7]  # the chosen card stays in the hand
