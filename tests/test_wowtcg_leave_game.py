"""102.2 (000 102.2, CR7.4 102.2): a player who leaves the game takes his
cards out of it, and the links he controls leave the chain (interrupted by
the game); the links of the players who stay close up in their order.  The
smallest board that reaches it: three players, a spell that can destroy a
hero while another player's link waits below it (at two players the game
ends there, and a finished game keeps its chain)."""

from __future__ import annotations

from dataclasses import replace

import z3

from model import wowtcg
from model.backend import SYMBOLIC
from model.wowtcg.board import FROST_NOVA, default_board
from model.wowtcg.table import INSTANT_LINK

NOVA = "resolve_instant[deal 1 to each opposing character][P3]@ready_step"


def _machine(players: int, chain_depth: int):
    board = replace(default_board(players, 0), spells=(FROST_NOVA,))
    return wowtcg.build(board=board, players=players, allies=0, hand=1, turns=1, chain_depth=chain_depth, deck=0, combats=0)


def _waiting(machine, controllers: tuple[int, ...], damage: tuple[int, ...]):
    """P3's Frost Nova on top of ``controllers``' instants in the first ready
    step, every other player having passed; ``damage`` on the heroes."""
    t = machine.table
    depth, n = t.chain.depth, t.n
    links = (*controllers, n - 1)
    return next(machine.initial_states())._replace(
        location=machine.location_index["ready_step"],
        priority_holder=0,
        passes=n - 1,
        passed=tuple(p != 0 for p in range(n)),
        hand_instant=(0,) * n,
        damage=damage,
        chain_len=len(links),
        chain_controller=links + (t.nobody,) * (depth - len(links)),
        chain_kind=(INSTANT_LINK,) * len(links) + (0,) * (depth - len(links)),
    )


def _resolve(machine, state):
    (post,) = [post for e, post in machine.successors(state) if e.name == NOVA]
    return post


def test_a_leaving_players_link_leaves_the_chain_and_the_others_close_up():
    machine = _machine(3, 3)
    t = machine.table
    # P2's instant at the bottom, P1's above it; P3's Frost Nova (1 to each
    # opposing character) puts P2's hero, 1 short of lethal, out: P2 leaves.
    pre = _waiting(machine, (1, 0), (0, t.health[t.hero(1)] - 1, 0))
    post = _resolve(machine, pre)
    assert post.in_game == (True, False, True)
    # The Nova resolved and P2's link is gone; P1's, still to resolve, is now the bottom link.
    assert post.chain_len == 1
    assert post.chain_controller == (0, t.nobody, t.nobody)
    assert post.chain_kind == (INSTANT_LINK, 0, 0)
    # With no one leaving, the Nova alone leaves the chain.
    stays = _resolve(machine, pre._replace(damage=(0, 0, 0)))
    assert stays.in_game == (True, True, True)
    assert stays.chain_len == 2 and stays.chain_controller == (1, 0, t.nobody)


def test_the_symbolic_step_removes_the_same_links():
    """The Z3 backend's update (what the checkers prove with) agrees on the step."""
    machine = _machine(3, 3)
    t = machine.table
    pre = _waiting(machine, (1, 0), (0, t.health[t.hero(1)] - 1, 0))
    post = _resolve(machine, pre)
    edge = machine.edge(NOVA)
    lifted = machine.constant_state(pre)
    assert z3.is_true(z3.simplify(edge.guard(lifted, SYMBOLIC)))
    changes, expected = edge.update(lifted, SYMBOLIC), machine.constant_state(post)
    for field in ("in_game", "chain_len", "chain_controller", "chain_kind"):
        got, want = changes[field], getattr(expected, field)
        pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
        assert z3.is_true(z3.simplify(z3.And([x == y for x, y in pairs]))), field


def test_a_game_that_ends_keeps_its_chain():
    """102.1: at two players the leaver's opponent wins; the game is over and nothing is interrupted."""
    machine = _machine(2, 2)
    t = machine.table
    pre = _waiting(machine, (0,), (0, 0))._replace(damage=(t.health[t.hero(0)] - 1, 0))
    (post,) = [post for e, post in machine.successors(pre) if e.name == NOVA.replace("[P3]", "[P2]") + "->game_over"]
    assert machine.location_of(post) == "game_over"
    assert post.in_game == (False, True)
    assert post.chain_len == 1 and post.chain_controller == (0, t.nobody)
