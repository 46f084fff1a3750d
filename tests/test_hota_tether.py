"""Mind Tether, Gift of Fealty and Spirit tokens (109.1, 109.5e): the
question ``control_reaches_tokens``, which 004 answers at 109.5e, and the
model's control of a Spirit another player owns, by controller and owner."""

from __future__ import annotations

import pytest

from model.backend import CONCRETE
from model.hota.game import build
from model.hota.rulings import rulebook
from model.hota.table import TableError, default_table, table_of

TETHER = table_of({0: ["Mind Tether"], 1: ["Spirit Caller", "Banishing Gale", "Echo Chamber"]}, 7)
#: From the shuffle to P1's priority, with a Spirit of P2's on the battlefield.
TO_P1_WITH_A_SPIRIT = ("shuffle_decks", "p2_goes_first", "draw_opening_hands", "declare_mulligan_0", "declare_mulligan_0",
                       "perform_mulligans", "skip_first_draw", "priority_check_then_priority", "p2_spirit_caller",
                       "priority_check_then_priority", "pass_priority", "priority_check_then_priority")

GIFT = table_of({0: ["Spirit Caller"], 1: ["Banishing Gale"]}, 8, named=({"Gift of Fealty": 8}, {}))
#: From the shuffle to P1's priority, with a Spirit of P1's on the battlefield and Gift of Fealty in P1's hand.
TO_P1_WITH_A_GIFT = ("shuffle_decks", "p1_goes_first", "draw_opening_hands@draws_p1_7_gift_of_fealty_p2_7_unnamed",
                     "declare_mulligan_0", "declare_mulligan_0", "perform_mulligans", "skip_first_draw",
                     "priority_check_then_priority", "p1_spirit_caller", "priority_check_then_priority")


def walk(m, names, s=None):
    """The state after these edges, from ``s`` (the start of the game if none)."""
    s = s if s is not None else next(m.initial_states())
    for name in names:
        s = next(post for e, post in m.successors(s) if e.name == name)
    return s


def test_the_question_is_004s_answer_at_109_5e():
    q = rulebook(TETHER).declared["control_reaches_tokens"]
    assert [(r.id, r.says, r.places()) for r in q.rulings] == [("109.5e", True, ("004_1df466d0e3555139.txt:230",))]
    assert q.arguments == ((),)
    # Asked only where Mind Tether or Gift of Fealty shares the table with a Spirit Caller.
    assert rulebook(GIFT).declared["control_reaches_tokens"].arguments == ((),)
    assert rulebook(default_table(7)).declared["control_reaches_tokens"].arguments == ()


def test_a_taken_spirit_stays_its_owners_and_its_leaving_answers_its_taker():
    m = build(table=TETHER)
    s = walk(m, TO_P1_WITH_A_SPIRIT)
    assert s.tokens == (0, 1) and s.priority == 0
    assert m.rulings.answer("control_reaches_tokens", s, CONCRETE) is True
    s = walk(m, ("p1_mind_tether_on_p2s_spirit",), s)
    # P1 controls it, P2 owns it (107.1): tokens_taken[P1 * 2 + P2].
    assert s.tokens == (1, 0) and s.tokens_taken == (0, 1, 0, 0)
    s = walk(m, ("priority_check_then_priority", "p2_banishing_gale_on_p1s_p2s_spirit"), s)
    # To its owner's hand (107.1); the echo waits for the controller it had as it left.
    assert s.tokens == (0, 0) and s.tokens_taken == (0, 0, 0, 0) and s.tokens_elsewhere == (0, 1)
    assert s.waiting == TETHER.echo_waits + 0


def test_without_109_5e_mind_tether_takes_no_spirit():
    m = build(table=TETHER, without=("109.5e",))
    names = {e.name for e, _ in m.successors(walk(m, TO_P1_WITH_A_SPIRIT))}
    assert "p1_mind_tether_on_p2s_spirit_caller" in names and "p1_mind_tether_on_p2s_spirit" not in names


def test_the_any_length_model_refuses_a_table_where_a_spirit_may_be_taken():
    # Its Spirits are counted up to a cap, which cannot say how many another owns.
    with pytest.raises(TableError, match="Mind Tether"):
        build(table=TETHER, any_length=True)


def test_gift_of_fealty_gives_a_spirit_whose_owner_stays():
    m = build(table=GIFT)
    s = walk(m, TO_P1_WITH_A_GIFT)
    assert s.tokens == (1, 0) and s.priority == 0
    assert m.rulings.answer("control_reaches_tokens", s, CONCRETE) is True
    s = walk(m, ("p1_plays_gift_of_fealty_giving_spirit_to_p2",), s)
    # P2 controls it, P1 owns it (107.1): tokens_taken[P2 * 2 + P1].
    assert s.tokens == (0, 1) and s.tokens_taken == (0, 0, 1, 0)
    names = {e.name for e, _ in m.successors(walk(m, ("priority_check_then_priority",), s))}
    # P1 has no Spirit left to give; P2's Banishing Gale names the Spirit by its owner.
    assert "p1_plays_gift_of_fealty_giving_spirit_to_p2" not in names
    s = walk(m, ("priority_check_then_priority", "pass_priority", "priority_check_then_priority",
                 "p2_banishing_gale_on_p2s_p1s_spirit"), s)
    # To its owner's hand (107.1).
    assert s.tokens == (0, 0) and s.tokens_taken == (0, 0, 0, 0) and s.tokens_elsewhere == (1, 0)


def test_without_109_5e_gift_of_fealty_gives_no_spirit():
    m = build(table=GIFT, without=("109.5e",))
    names = {e.name for e, _ in m.successors(walk(m, TO_P1_WITH_A_GIFT))}
    assert "p1_plays_gift_of_fealty_giving_spirit_caller_to_p2" in names
    assert "p1_plays_gift_of_fealty_giving_spirit_to_p2" not in names


def test_the_any_length_model_refuses_a_table_where_a_spirit_may_be_given():
    with pytest.raises(TableError, match="Gift of Fealty"):
        build(table=GIFT, any_length=True)
