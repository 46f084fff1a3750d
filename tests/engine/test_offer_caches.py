"""What the WoW engine keeps between two choices instead of working it out
again must be what working it out again gives.

The state keeps, keyed by clocks that tick when what they read changes
(objects.py): each player's ready resources (402.4a), updated through moves
rather than recounted; each player's cards in play and the defenders his
attackers could face (601.2b); the legal targets of each kind (CR7.4 706.1);
and a player's proposals at his last main-phase choice (601.2). Random games
are played, and before every choice a copy of the state that has forgotten
all of it must offer the same actions, with the same labels, and count the
same ready resources.
"""

from __future__ import annotations

import random

import pytest

from engine.wowtcg import WowTcgGame
from engine.wowtcg.objects import BOARD_CLOCK, PARTY_CLOCK, READY_CLOCK
from engine.wowtcg.state import GameState

GAME = WowTcgGame(players=2)
SEEDS = (0, 1, 2)


def forgetful(st: GameState) -> GameState:
    """A copy of `st` that keeps nothing between choices: every kept reading
    of play is worked out again when asked."""
    twin = st.clone()
    n = len(twin.players)
    twin._ready_at = -1
    twin._sides_of = [None] * n
    twin._defenders_of = [None] * n
    twin._attacks_of = [None] * n
    twin._targets, twin._targets_at = {}, -1
    twin._offered = None
    return twin


def recount(st: GameState, player: int) -> int:
    """402.4a: his resources in play that are not exhausted, counted anew."""
    return sum(1 for oid in st.resource_row if st.objs[oid].controller == player and not st.objs[oid].exhausted)


@pytest.mark.parametrize("seed", SEEDS)
def test_what_is_kept_between_choices_is_what_working_it_out_again_gives(seed):
    st = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    steps = 0
    while not st.is_terminal():
        offered = st.legal_actions()
        for p in range(len(st.players)):
            assert st.ready_resources(p) == recount(st, p), f"seed {seed}, step {steps}: P{p + 1}'s ready resources"
        if st.decision is None:
            again = forgetful(st).legal_actions()
            assert [(a, a.label) for a in offered] == [(a, a.label) for a in again], f"seed {seed}, step {steps}\n{st}"
        st.apply_action(rng.choice(offered))
        steps += 1


def test_damage_ticks_the_board_clock_but_not_the_party_clock():
    st = GAME.new_initial_state(0)
    hero = st.objs[st.players[0].hero]
    board, party, ready = BOARD_CLOCK[0], PARTY_CLOCK[0], READY_CLOCK[0]
    hero.damage = 1  # 404.1: what the checks read (409.6b), but no offer
    assert (BOARD_CLOCK[0] > board, PARTY_CLOCK[0] == party, READY_CLOCK[0] == ready) == (True, True, True)
    party = PARTY_CLOCK[0]
    hero.controller = 1  # 401.3: whose card it is changes what each player is offered
    assert PARTY_CLOCK[0] > party
    party = PARTY_CLOCK[0]
    st.players[1].in_game = False  # a player's standing: who may be targeted (CR7.4 706.1)
    assert PARTY_CLOCK[0] > party


def test_ready_resources_are_counted_through_a_resource_moving_in_and_out_of_play():
    st = GAME.new_initial_state(0)
    card = st.objs[st.players[0].deck[-1]]
    card.resource = True
    assert st.ready_resources(0) == 0  # counted now: the moves below keep the count rather than count again
    st.enter_play(card, 0)  # 410.1a: a ready resource in his resource row
    assert st.ready_resources(0) == recount(st, 0) == 1
    st.move(card, "graveyard")  # out of play by `move` alone, not `leave_play`
    assert st.ready_resources(0) == recount(st, 0) == 0
