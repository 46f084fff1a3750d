"""102.2 with 401.3 and 401.3b (000 102.2, CR7.4 102.2, CR7.4 401.3b): a
card that Mind Control moved to another player's party leaves the game with
its owner, and goes back to its owner, new to his party, when its controller
leaves.  The smallest board that reaches it: three players with one ally
each, Mind Control in the game, P1's guard held in P2's guard slot."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import z3

from model import wowtcg
from model.backend import CONCRETE, SYMBOLIC
from model.machine import Machine
from model.wowtcg.board import FROST_NOVA, nearby_boards
from model.wowtcg.table import INSTANT_LINK

BATCH = "pre_priority_batch"
P1_GUARD, P2_HERO, P2_GUARD, P1_HERO = 1, 2, 3, 0


@cache
def machine() -> Machine:
    board = dict((key, b) for key, _, b in nearby_boards(3, 1))["P2-mind-control"]
    return wowtcg.build(board=board, players=3, allies=1, turns=2, hand=0, deck=1)


def held(leaver_hero: int, guard_damage: int = 0):
    """P1's guard under P2's control (exhausted, with ``guard_damage``), P3's turn, and
    ``leaver_hero`` destroyed as the pre-priority checks run: his player
    loses at this batch (102.1a)."""
    m = machine()
    t = m.table
    assert [t.name(c) for c in (P1_HERO, P1_GUARD, P2_HERO, P2_GUARD)] == ["P1 hero", "P1 guard", "P2 hero", "P2 guard"]
    damage = [0] * t.count
    damage[P2_GUARD] = guard_damage
    exhausted = [False] * t.count
    exhausted[P2_GUARD] = True
    owned_by = [t.nobody] * t.count
    owned_by[P2_GUARD] = 0
    in_play = [True] * t.count
    in_play[P1_GUARD] = in_play[leaver_hero] = False
    return next(m.initial_states())._replace(
        location=m.location_index["pre_priority_checks"],
        turn_player=2,
        first_turn=False,
        in_play=tuple(in_play),
        damage=tuple(damage),
        exhausted=tuple(exhausted),
        owned_by=tuple(owned_by),
    )


def step(state):
    (post,) = [post for e, post in machine().successors(state) if e.name == BATCH]
    return post


def test_the_card_goes_back_to_its_owner_new_when_its_controller_leaves():
    post = step(held(P2_HERO))
    assert post.in_game == (True, False, True)
    assert not post.in_play[P2_GUARD]
    # 401.3b, 302.2: in P1's party again, still exhausted, new to the party.
    assert post.in_play[P1_GUARD]
    assert (post.exhausted[P1_GUARD], post.fresh[P1_GUARD], post.changed_sides[P1_GUARD]) == (True, True, True)
    assert post.owned_by == (machine().table.nobody,) * machine().table.count


def test_a_card_destroyed_as_its_controller_leaves_does_not_go_back():
    # 409.6b: lethal damage on the guard (health 1) destroys it in the same batch.
    post = step(held(P2_HERO, guard_damage=1))
    assert post.in_game == (True, False, True)
    assert not post.in_play[P2_GUARD] and not post.in_play[P1_GUARD]


def test_the_card_leaves_the_game_with_its_owner():
    post = step(held(P1_HERO))
    assert post.in_game == (False, True, True)
    # 102.2: every card P1 owns leaves, the one P2 controls too.
    assert not post.in_play[P2_GUARD] and not post.in_play[P1_GUARD]
    assert post.damage[P2_GUARD] == 0
    assert post.owned_by[P2_GUARD] == machine().table.nobody


def test_a_card_of_the_slots_own_player_stays_when_another_player_leaves():
    t = machine().table
    pre = held(P1_HERO)
    pre = pre._replace(owned_by=(t.nobody,) * t.count)
    post = step(pre)
    assert post.in_game == (False, True, True)
    assert post.in_play[P2_GUARD] and post.exhausted[P2_GUARD]


def test_taking_control_records_the_owner_and_taking_it_back_forgets_him():
    m = machine()
    t = m.table
    take = m.edge("resolve_ability[take control of P1 guard as P2 guard]@action_phase")
    back = m.edge("resolve_ability[take control of P2 guard as P1 guard]@action_phase")
    s = held(P2_HERO)._replace(owned_by=(t.nobody,) * t.count, in_play=(True,) * 3 + (False,) + (True,) * 2)
    assert take.update(s, CONCRETE)["owned_by"] == (t.nobody, t.nobody, t.nobody, 0, t.nobody, t.nobody)
    s = held(P2_HERO)
    assert back.update(s, CONCRETE)["owned_by"] == (t.nobody,) * t.count


def test_the_symbolic_step_agrees():
    """The Z3 backend's update (what the checkers prove with) gives the same state, both directions."""
    m = machine()
    edge = m.edge(BATCH)
    for pre in (held(P2_HERO), held(P1_HERO), held(P2_HERO, guard_damage=1)):
        post = step(pre)
        lifted = m.constant_state(pre)
        assert z3.is_true(z3.simplify(edge.guard(lifted, SYMBOLIC)))
        changes, expected = edge.update(lifted, SYMBOLIC), m.constant_state(post)
        for field, got in changes.items():
            want = getattr(expected, field)
            if isinstance(got, tuple):
                assert all(z3.is_true(z3.simplify(g == w)) for g, w in zip(got, want, strict=True)), field
            else:
                assert z3.is_true(z3.simplify(got == want)), field


def test_a_spell_that_puts_the_controller_out_and_destroys_the_card_sends_nothing_back():
    """P3's Frost Nova (1 to each opposing character, 404.4 example) takes P2's
    hero, 1 short of lethal, out of the game and destroys P1's guard that P2
    holds (health 1): destroyed, it goes to no party (409.6b, 102.2)."""
    board = replace(dict((key, b) for key, _, b in nearby_boards(3, 1))["P2-mind-control"], spells=(FROST_NOVA,))
    m = wowtcg.build(board=board, players=3, allies=1, hand=1, turns=1, chain_depth=1, deck=0, combats=0)
    t = m.table
    pre = next(m.initial_states())._replace(
        location=m.location_index["ready_step"], priority_holder=1, passes=2, passed=(True, False, True),
        hand_instant=(0,) * 3, chain_len=1, chain_controller=(2,), chain_kind=(INSTANT_LINK,),
        in_play=tuple(c != P1_GUARD for c in range(t.count)),
        damage=tuple(t.health[P2_HERO] - 1 if c == P2_HERO else 0 for c in range(t.count)),
        owned_by=tuple(0 if c == P2_GUARD else t.nobody for c in range(t.count)),
    )
    (edge, post), = [(e, post) for e, post in m.successors(pre) if e.name == "resolve_instant[deal 1 to each opposing character][P3]@ready_step"]
    assert post.in_game == (True, False, True)
    assert not post.in_play[P2_GUARD] and not post.in_play[P1_GUARD]
    assert post.owned_by == (t.nobody,) * t.count
    changes, expected = edge.update(m.constant_state(pre), SYMBOLIC), m.constant_state(post)
    for field in ("in_play", "damage", "exhausted", "fresh", "owned_by"):
        assert all(z3.is_true(z3.simplify(g == w)) for g, w in zip(changes[field], getattr(expected, field), strict=True)), field
