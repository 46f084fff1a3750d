"""World of Warcraft TCG: the priority-fairness catalogue and deadlock.

Each property restates a rule in its own terms rather than calling the model's
helpers, so a broken edge cannot hide behind the same broken helper.
"""

from __future__ import annotations

from typing import Any

from model.backend import Backend
from model.machine import Machine
from properties import Deadlock, Invariant, Property, StepProperty

WINDOW_LOCATIONS = ("ready_step", "draw_step", "action_phase", "end_phase")


def _nobody(m: Machine) -> int:
    return m.bounds["players"]


def _clockwise_after(m: Machine, s: Any, b: Backend, player: Any) -> Any:
    """409.1: the seat after ``player`` going clockwise, skipping players who left (102.2)."""
    n = _nobody(m)
    options = []
    for p in range(n):
        seats = [(p + k) % n for k in range(1, n)]
        result: Any = p
        for q in reversed(seats):
            result = b.If(s.in_game[q], q, result)
        options.append(result)
    return b.select(tuple(options), player, n)


# 409.1, 501.1c, 503.2a: a window has exactly one priority holder, a player
# still in the game; outside windows nobody holds priority.
priority_exclusive = Invariant(
    "priority_exclusive",
    ("409.1", "409.4", "501.1c", "503.2a"),
    "while a window is open exactly one player in the game holds priority; outside windows nobody does",
    holds=lambda m, s, b: b.If(
        m.at(s, *WINDOW_LOCATIONS, b=b),
        b.And(s.priority_holder >= 0, s.priority_holder < _nobody(m), b.select(s.in_game, s.priority_holder, False)),
        s.priority_holder == _nobody(m),
    ),
)

# 409.4, 409.4a: the turn player is first on every window opening and after every resolution.
turn_player_first = StepProperty(
    "turn_player_first",
    ("409.4", "409.4a", "501.1b", "501.2a", "502.1", "503.1"),
    "when a window opens and after a link resolves, the turn player gets priority",
    applies=lambda e: e.has("opens_window") or e.has("resolves"),
    holds=lambda m, pre, post, b: post.priority_holder == post.turn_player,
)

# 409.1, CR7.4 707.1f: adding a link leaves priority with the player who added it.
adder_keeps_priority = StepProperty(
    "adder_keeps_priority",
    ("409.1", "CR7.4 707.1f"),
    "the player who adds a link controls it and gets priority again",
    applies=lambda e: e.has("adds_link"),
    holds=lambda m, pre, post, b: b.And(
        post.priority_holder == pre.priority_holder,
        m.stacks["chain"].top(post, b, "controller") == pre.priority_holder,
    ),
)

# 409.1: passing gives priority to the next player clockwise.
clockwise_passing = StepProperty(
    "clockwise_passing",
    ("409.1",),
    "a pass that neither resolves a link nor closes the window moves priority to the next player clockwise",
    applies=lambda e: e.has("passes") and not (e.has("resolves") or e.has("closes_window")),
    holds=lambda m, pre, post, b: post.priority_holder == _clockwise_after(m, pre, b, pre.priority_holder),
)


def _all_passed(m: Machine, pre: Any, b: Backend) -> Any:
    """Every player in the game passed since the last link was added (the current pass included)."""
    return b.And(
        *(
            b.Implies(pre.in_game[p], b.Or(pre.passed[p], pre.priority_holder == p))
            for p in range(_nobody(m))
        )
    )


# 409.4a and the basic rules' chain section (001, "the chain and responding"):
# a link resolves only after every player has had the chance to respond.
resolution_needs_all_passes = StepProperty(
    "resolution_needs_all_passes",
    ("409.4", "409.4a"),
    "a link resolves only when every player in the game passed in succession since the last link was added",
    applies=lambda e: e.has("resolves"),
    holds=lambda m, pre, post, b: _all_passed(m, pre, b),
)

# 409.4b: a window closes only when everyone passed in succession on an empty chain.
window_closes_on_empty_chain = StepProperty(
    "window_closes_on_empty_chain",
    ("409.4b", "502.2"),
    "a priority window closes only with the chain empty and after every player passed in succession",
    applies=lambda e: e.has("closes_window"),
    holds=lambda m, pre, post, b: b.And(pre.chain_len == 0, post.chain_len == 0, _all_passed(m, pre, b)),
)


# 413.7a, 409.4a, CR7.4 709.1: only the top link resolves; the ones under it stay in order.
last_in_first_out = StepProperty(
    "last_in_first_out",
    ("413.7", "413.7a", "409.4a", "CR7.4 709.1"),
    "resolving removes exactly the most recently added link and leaves the others in order",
    applies=lambda e: e.has("resolves"),
    holds=lambda m, pre, post, b: b.And(
        pre.chain_len > 0, post.chain_len == pre.chain_len - 1, m.stacks["chain"].kept(pre, post, b, post.chain_len)
    ),
)

# 413.7a: adding a link puts it on top and disturbs none below.
links_added_on_top = StepProperty(
    "links_added_on_top",
    ("413.7a",),
    "adding a link puts it on top of the chain and leaves the links below unchanged",
    applies=lambda e: e.has("adds_link"),
    holds=lambda m, pre, post, b: b.And(
        post.chain_len == pre.chain_len + 1, m.stacks["chain"].kept(pre, post, b, pre.chain_len)
    ),
)

# 408.1, 409.2b, 410.1a, 502.1: non-instant cards and resources only by the turn
# player, in his non-combat action phase, with priority and an empty chain.
main_phase_only = StepProperty(
    "main_phase_only",
    ("408.1", "409.2b", "410.1a", "502.1"),
    "non-instant cards and resources are added only by the turn player with priority in his action phase on an empty chain",
    applies=lambda e: e.has("main_phase_action"),
    holds=lambda m, pre, post, b: b.And(
        m.at(pre, "action_phase", b=b),
        pre.priority_holder == pre.turn_player,
        pre.chain_len == 0,
        b.select(post.chain_controller, 0, -1) == pre.turn_player,
    ),
)

# 410.1: at most one resource per turn.
one_resource_per_turn = StepProperty(
    "one_resource_per_turn",
    ("410.1",),
    "a player places at most one resource per turn",
    applies=lambda e: e.has("places_resource"),
    holds=lambda m, pre, post, b: b.Not(pre.resource_placed),
)

# 501.2b: only the first turn of the game skips its draw.
first_player_skips_first_draw = StepProperty(
    "first_player_skips_first_draw",
    ("501.2b", "501.2a"),
    "the draw is skipped exactly on the first player's first turn",
    applies=lambda e: e.source == "draw_step_start",
    holds=lambda m, pre, post, b: b.If(
        pre.first_turn,
        b.And(pre.turn_player == 0, b.select(post.deck, pre.turn_player) == b.select(pre.deck, pre.turn_player)),
        b.Or(
            b.select(post.deck, pre.turn_player) == b.select(pre.deck, pre.turn_player) - 1,
            b.Not(b.select(post.in_game, pre.turn_player, True)),
        ),
    ),
)

# 409.6c, 102.1a: drawing from an empty deck loses, and only that loses here.
decked_player_loses = StepProperty(
    "decked_player_loses",
    ("409.6c", "102.1a"),
    "a player leaves the game exactly when he must draw from an empty deck",
    applies=lambda e: e.source == "draw_step_start",
    holds=lambda m, pre, post, b: (
        b.Not(b.select(post.in_game, pre.turn_player, True))
        == b.And(b.Not(pre.first_turn), b.select(pre.deck, pre.turn_player) == 0)
    ),
)

deadlock = Deadlock(
    "deadlock",
    ("409.1", "409.4b", "503.2a"),
    "every reachable state that is not game over (or the turn bound) has an enabled transition",
)


CATALOGUE: tuple[Property, ...] = (
    priority_exclusive,
    turn_player_first,
    adder_keeps_priority,
    clockwise_passing,
    resolution_needs_all_passes,
    window_closes_on_empty_chain,
    last_in_first_out,
    links_added_on_top,
    main_phase_only,
    one_resource_per_turn,
    first_player_skips_first_draw,
    decked_player_loses,
    deadlock,
)
