"""A hero that can't be destroyed (Valthak Spiritdrinker's text, 103.2 and
the 103.4 example) on the board one change away where P2's skirmisher
carries it: when the game ends, and how 000's own texts answer when a player
whose hero a batch destroys loses (I4)."""

from __future__ import annotations

from model import wowtcg
from model.backend import CONCRETE
from model.wowtcg.board import nearby_boards


def _keeper_board():
    (board,) = [b for key, _, b in nearby_boards(2, 2) if key == "P2-keeps-hero+flash-heal"]
    return board


def test_the_game_ends_once_one_player_is_left_though_his_kept_hero_still_waits_for_a_check():
    """102.1 and the 103.4 example: the batch that destroys the skirmisher and
    P1's hero leaves P2's hero, with lethal damage, for the next batch; once P1
    has left, P2 wins before that batch (his hero is destroyed in it only if
    other players remain)."""
    machine = wowtcg.build(board=_keeper_board())
    t = machine.table
    hero, keeper = t.hero(1), t.party(1)[1]
    damage = tuple(t.health[c] if c in (hero, keeper, t.hero(0)) else 0 for c in range(t.count))
    s = next(machine.initial_states())._replace(location=machine.location_index["pre_priority_checks"], damage=damage)
    (first,) = [post for e, post in machine.successors(s) if e.name == "pre_priority_batch"]
    assert not first.in_play[keeper] and not first.in_play[t.hero(0)] and first.in_play[hero]
    # 000's reading: P1 loses in the next batch, with P2's hero destroyed beside it.
    (second,) = [post for e, post in machine.successors(first) if e.name == "pre_priority_batch"]
    assert not second.in_game[0] and second.in_game[1]
    assert [e.name for e, _ in machine.successors(second)] == ["game_ends"]
    # CR7.4's reading: P1 loses with his hero, and P2's hero is never destroyed.
    at_once = wowtcg.build(board=_keeper_board(), reading="CR7.4@loses_as_hero_is_destroyed")
    (first,) = [post for e, post in at_once.successors(s) if e.name == "pre_priority_batch"]
    assert not first.in_game[0] and first.in_play[hero]
    assert [e.name for e, _ in at_once.successors(first)] == ["game_ends"]


def test_000_alone_clashes_with_its_own_example_where_a_card_keeps_a_hero():
    """I4: 102.1a makes the loss a check (the batch after), the 103.4 example
    has it before the next batch; the model follows the rule by an assumed
    principle, which a reading of 000 alone leaves out."""
    machine = wowtcg.build(board=_keeper_board())
    book = machine.rulings
    s = next(machine.initial_states())
    assert not book.clashes("loses_as_hero_is_destroyed", s, CONCRETE)
    assert book.answer("loses_as_hero_is_destroyed", s, CONCRETE) is False
    clash = book.only("000").explain("loses_as_hero_is_destroyed", s)
    assert set(clash.core) == {"102.1a", "103.4:example"}
    # On the default board no card keeps a hero, and 000 alone agrees with itself.
    plain = wowtcg.build()
    assert not plain.rulings.only("000").clashes("loses_as_hero_is_destroyed", next(plain.initial_states()), CONCRETE)
