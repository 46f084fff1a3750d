"""V13: whether a strike's bonus outlasts its weapon (303.2b), asked on the
board one change away where an instant that destroys a weapon is in the game."""

from __future__ import annotations

import pytest

from model import wowtcg
from model.backend import CONCRETE
from model.wowtcg.board import Spell, nearby_boards


def _board():
    (board,) = [b for key, _, b in nearby_boards(2, 2) if key == "spell+destroy-weapon"]
    return board


def test_a_strike_counts_after_its_weapon_is_destroyed_by_000_not_by_cr74():
    """P1's hero struck with his warhammer, which has since been destroyed:
    000's 303.2b (and 001:105) keep the +1 ATK for the combat step; CR7.4's
    303.2a-b end it with the weapon's association."""
    seed = wowtcg.build(board=_board())
    by_cr74 = wowtcg.build(board=_board(), reading="CR7.4@strike_lasts_without_weapon")
    t = seed.table
    hero, warhammer = t.hero(0), t.weapon(0, 0)
    s = next(seed.initial_states())
    struck = tuple(i == warhammer for i in range(len(s.struck)))
    gone = tuple(i != warhammer for i in range(len(s.weapon_in_play)))
    after = s._replace(struck=struck, weapon_in_play=gone)
    assert t.combat_atk(after, CONCRETE, hero) == 1
    assert by_cr74.table.combat_atk(after, CONCRETE, hero) == 0
    # With the weapon still in play both count it.
    assert by_cr74.table.combat_atk(s._replace(struck=struck), CONCRETE, hero) == 1
    # The instant's link takes the weapon out of play, and nothing strikes with it after.
    resolving = s._replace(location=seed.location_index["action_phase"], priority_holder=1, passes=1, chain_len=1,
                           chain_controller=(0, t.n), chain_kind=(1, 0))
    (post,) = [p for e, p in seed.successors(resolving) if e.name == "resolve_instant[destroy P1 warhammer]@action_phase"]
    assert not post.weapon_in_play[warhammer] and post.chain_len == 0


def test_the_default_board_never_asks_and_a_destroying_spell_deals_nothing():
    assert not wowtcg.build().rulings.questions["strike_lasts_without_weapon"].arguments
    with pytest.raises(ValueError, match="destroys a weapon"):
        Spell("destroy and burn", 1, destroys_weapon=True)
