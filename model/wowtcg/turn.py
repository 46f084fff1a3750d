"""World of Warcraft TCG: the turn, priority windows and the chain.

Seed ``000_93427c41005e332f.txt`` sections 408-410, 413.7 and 501-503, with the
chain section of the basic rules (``001_bb13bfcb78a9b116.txt``) and, where the
seed lacks the chain chapter, the Comprehensive Rules 7.4 (``CR7.4 709.1``).

Cards are abstracted to what priority and the chain depend on: each player's
hand is a count of cards of each kind (instant, non-instant, quest), the deck
is a count, and a link on the chain is its controller and kind.  Card effects
and costs are not modelled here: resolving a link only removes it.
"""

from __future__ import annotations

from math import ceil
from typing import Any

from model.backend import Backend
from model.machine import (
    BOOL,
    BoundSpec,
    Edge,
    Enum,
    IntRange,
    Location,
    Machine,
    Stack,
    Var,
)
from model.wowtcg import REGISTRY

BOUNDS = (
    BoundSpec("players", 2, 2, 4, "players at the table; priority passes clockwise"),
    BoundSpec("chain_depth", 3, 1, 6, "most links on the chain at once"),
    BoundSpec("turns", 3, 1, 16, "turns explored before the search stops"),
    BoundSpec("hand", 1, 0, 3, "cards of each kind (instant, non-instant, quest) in every starting hand"),
    BoundSpec("deck", 1, 0, 4, "most cards in a deck at the start (every count up to it is an initial state)"),
    BoundSpec(
        "hand_limit",
        2,
        0,
        7,
        "maximum hand size checked in the end step; the rules say 7 (503.2a), "
        "scaled down so that small instances reach the discard",
    ),
)

#: The kinds of card a hand holds, as far as priority cares (408.1, 408.2).
CARD_KINDS = ("instant", "non_instant", "quest")
#: What a link on the chain is.  ``empty`` marks a free slot of the bounded stack.
LINK_KINDS = ("empty", "instant", "non_instant", "resource")
INSTANT_LINK, NON_INSTANT_LINK, RESOURCE_LINK = 1, 2, 3

#: Locations where a priority window is open, in turn order, with the location
#: the game advances to when that window closes (409.4b) and the rules that say so.
WINDOWS = {
    "ready_step": ("draw_step_start", ("501.1a", "501.1c")),
    "draw_step": ("action_phase", ("501.2a",)),
    "action_phase": ("end_phase", ("502.2",)),
    "end_phase": ("end_step", ("503.1",)),
}


def build(players: int = 2, chain_depth: int = 3, turns: int = 3, hand: int = 1, deck: int = 1, hand_limit: int = 2) -> Machine:
    n, depth = players, chain_depth
    nobody = n  # the value of priority_holder (and of an empty slot's controller) when no player is meant
    # A hand holds at most its start plus one draw per own turn; a domain check
    # in both checkers reports it if the model ever gets past that.
    hand_hi = hand + ceil(turns / n)

    variables = [
        # Reading: 101.1 picks the first player at random; by symmetry of seats
        # the model lets P1 go first and loses no behaviour.
        Var("turn_player", IntRange(0, n - 1), (0,), doc="whose turn it is"),
        Var("first_turn", BOOL, (True,), doc="this is the first turn of the game (501.2b)"),
        Var("turn_number", IntRange(1, turns + 1), (1,), doc="turns begun, for the turn bound"),
        Var("priority_holder", IntRange(0, nobody), (nobody,), doc="who has priority (409.1); nobody outside windows"),
        Var("passes", IntRange(0, n - 1), (0,), doc="players who passed in succession (409.4)"),
        # A monitor, not rule state: who passed since a link was last added or
        # resolved or the window opened, so that "everyone had the chance to
        # respond" can be stated apart from the ``passes`` count the rules use.
        Var("passed", BOOL, (False,), length=n, doc="players who passed in the current succession"),
        Var("resource_placed", BOOL, (False,), doc="the turn player placed a resource this turn (410.1)"),
        # Reading: every player starts with the same hand (seven cards in the
        # rules, 101.1; ``hand`` of each kind here).  A smaller hand only takes
        # options away (apart from how much the end step discards), and letting
        # every mix start multiplied the states of a three-player game by four.  Deck sizes do vary, so decking is reached.
        *(
            Var(f"hand_{kind}", IntRange(0, hand_hi), (hand,), length=n, doc=f"{kind} cards in each hand")
            for kind in CARD_KINDS
        ),
        Var("deck", IntRange(0, deck), tuple(range(deck + 1)), length=n, doc="cards in each deck (413.4a)"),
        Var("in_game", BOOL, (True,), length=n, doc="each player is still in the game (102.2)"),
    ]

    # 413.7a: the chain, links added on top; a link is its controller and kind.
    chain = Stack(
        "chain",
        depth,
        (("controller", IntRange(0, nobody), nobody), ("kind", Enum(*LINK_KINDS), 0)),
        doc="the chain (413.7a)",
    )

    locations = [
        # 101.1: the game starts here, heroes in play and hands drawn.
        Location("ready_step_start", ("501.1", "501.1a", "501.1c", "101.1"), "turn-based readying; no priority window (501.1c)"),
        Location("ready_step", ("501.1b",), "the ready step's priority window"),
        Location("draw_step_start", ("501.2a", "501.1c"), "the turn player draws; no priority window yet"),
        Location("draw_step", ("501.2", "501.2a"), "the draw step's priority window"),
        Location("action_phase", ("502.1",), "the non-combat action phase's priority window"),
        Location("end_phase", ("503.1",), "the end phase's priority window"),
        Location("end_step", ("503.2", "503.2a"), "discard to the hand limit; no priority window (503.2a)"),
        Location("game_over", ("102.1", "102.1a"), "no opponent remains", terminal="game over"),
        Location("turn_limit", (), f"{turns} turns explored", terminal="turn bound reached"),
    ]

    # -- helpers shared by the edges ------------------------------------------

    def remaining(s: Any, b: Backend) -> Any:
        return b.count(s.in_game)

    def next_clockwise(s: Any, b: Backend, player: Any) -> Any:
        """409.1, 503.2a: the next player clockwise who is still in the game."""
        def after(p: int) -> Any:
            result: Any = p
            for k in reversed(range(1, n)):
                q = (p + k) % n
                result = b.If(s.in_game[q], q, result)
            return result
        return b.select(tuple(after(p) for p in range(n)), player, nobody)

    def has_priority(s: Any, b: Backend) -> Any:
        return s.priority_holder < nobody

    def in_hand(s: Any, b: Backend, kind: str, player: Any) -> Any:
        return b.select(getattr(s, f"hand_{kind}"), player)

    def take_from_hand(s: Any, b: Backend, kind: str, player: Any) -> dict[str, Any]:
        field = f"hand_{kind}"
        return {field: b.store(getattr(s, field), player, in_hand(s, b, kind, player) - 1)}

    def fresh_succession() -> dict[str, Any]:
        return {"passes": 0, "passed": (False,) * n}

    def give_turn_player_priority(s: Any, b: Backend) -> dict[str, Any]:
        # 409.4: as a window opens the turn player gets priority first.
        return {"priority_holder": s.turn_player, **fresh_succession()}

    def last_pass(s: Any, b: Backend) -> Any:
        """This pass completes a succession of passes by every player in the game (409.4)."""
        return b.And(has_priority(s, b), s.passes + 1 == remaining(s, b))

    def holder(s: Any, b: Backend) -> Any:
        return s.priority_holder

    def turn_player(s: Any, b: Backend) -> Any:
        return s.turn_player

    edges: list[Edge] = []

    # -- 501.1 ready step ---------------------------------------------------------

    edges.append(
        Edge(
            "ready_cards",
            "ready_step_start",
            "ready_step",
            ("501.1a", "501.1b", "409.4"),
            guard=lambda s, b: s.turn_number <= turns,
            update=give_turn_player_priority,
            tags=frozenset({"opens_window"}),
            doc="the turn player readies his cards without the chain, then a window opens",
        )
    )
    edges.append(
        Edge(
            "turn_limit_reached",
            "ready_step_start",
            "turn_limit",
            (),
            guard=lambda s, b: s.turn_number > turns,
            update=lambda s, b: {"priority_holder": nobody},
            tags=frozenset({"bound"}),
            doc="the exploration bound on turns, not a rule",
        )
    )

    # -- 501.2 draw step ------------------------------------------------------------

    edges.append(
        Edge(
            "skip_first_draw",
            "draw_step_start",
            "draw_step",
            ("501.2b", "501.2a", "409.4"),
            guard=lambda s, b: s.first_turn,
            update=give_turn_player_priority,
            tags=frozenset({"opens_window"}),
            doc="the first player skips the draw of the first turn",
        )
    )
    for kind in CARD_KINDS:
        # Which kind is drawn is chance; the deck is not split by kind.
        def draw_guard(s: Any, b: Backend) -> Any:
            return b.And(b.Not(s.first_turn), b.select(s.deck, s.turn_player) > 0)

        def draw_update(s: Any, b: Backend, kind: str = kind) -> dict[str, Any]:
            field = f"hand_{kind}"
            return {
                "deck": b.store(s.deck, s.turn_player, b.select(s.deck, s.turn_player) - 1),
                field: b.store(getattr(s, field), s.turn_player, in_hand(s, b, kind, s.turn_player) + 1),
                **give_turn_player_priority(s, b),
            }

        edges.append(
            Edge(
                f"draw_card[{kind}]",
                "draw_step_start",
                "draw_step",
                ("501.2a", "409.4"),
                guard=draw_guard,
                update=draw_update,
                actor=turn_player,
                tags=frozenset({"opens_window", "chance"}),
                doc=f"the turn player draws (by chance) a {kind} card without the chain",
            )
        )

    def decked(s: Any, b: Backend) -> Any:
        return b.And(b.Not(s.first_turn), b.select(s.deck, s.turn_player) == 0)

    def leave_game(s: Any, b: Backend) -> dict[str, Any]:
        return {"in_game": b.store(s.in_game, s.turn_player, False), "priority_holder": nobody}

    # Reading: the draw from an empty deck and the loss it causes (409.6c) are
    # one step here, because the pre-priority check that applies the loss
    # (409.5) comes before anyone could act in between.
    edges.append(
        Edge(
            "decked_game_over",
            "draw_step_start",
            "game_over",
            ("409.6", "409.6c", "409.5", "102.1a", "102.1"),
            guard=lambda s, b: b.And(decked(s, b), remaining(s, b) == 2),
            update=leave_game,
            actor=turn_player,
            tags=frozenset({"loses"}),
            doc="drawing from an empty deck loses; the last opponent wins",
        )
    )
    edges.append(
        Edge(
            "decked_turn_passes",
            "draw_step_start",
            "ready_step_start",
            ("409.6", "409.6c", "409.5", "102.1a", "102.2", "assumed:turn-player-leaves"),
            guard=lambda s, b: b.And(decked(s, b), remaining(s, b) > 2),
            update=lambda s, b: {
                **leave_game(s, b),
                "turn_player": next_clockwise(s, b, s.turn_player),
                "turn_number": s.turn_number + 1,
                "first_turn": False,
                "resource_placed": False,
            },
            actor=turn_player,
            tags=frozenset({"loses", "ends_turn"}),
            doc="with players left, the decked turn player leaves and the next player clockwise starts a turn",
        )
    )

    # -- 409 priority windows, one set of edges per window ---------------------------

    for window, (after_close, close_rules) in WINDOWS.items():
        edges.append(
            Edge(
                f"play_instant@{window}",
                window,
                window,
                ("408.1", "409.1", "409.2", "409.3", "413.7a"),
                guard=lambda s, b: b.And(
                    has_priority(s, b),
                    in_hand(s, b, "instant", s.priority_holder) > 0,
                    b.Not(chain.is_full(s)),
                ),
                update=lambda s, b: {
                    **take_from_hand(s, b, "instant", s.priority_holder),
                    **chain.push(s, b, controller=s.priority_holder, kind=INSTANT_LINK),
                    **fresh_succession(),
                },
                actor=holder,
                tags=frozenset({"adds_link"}),
                doc="the player with priority plays an instant and keeps priority",
            )
        )
        edges.append(
            Edge(
                f"pass_priority@{window}",
                window,
                window,
                ("409.1", "409.4"),
                guard=lambda s, b: b.And(has_priority(s, b), s.passes + 1 < remaining(s, b)),
                update=lambda s, b: {
                    "priority_holder": next_clockwise(s, b, s.priority_holder),
                    "passes": s.passes + 1,
                    "passed": b.store(s.passed, s.priority_holder, True),
                },
                actor=holder,
                tags=frozenset({"passes"}),
                doc="the player with priority passes it clockwise",
            )
        )

        edges.append(
            Edge(
                f"resolve_top_link@{window}",
                window,
                window,
                ("409.4", "409.4a", "CR7.4 709.1", "413.7a"),
                guard=lambda s, b: b.And(last_pass(s, b), s.chain_len > 0),
                # Card effects are not modelled: the resolving link just leaves.
                update=lambda s, b: {**chain.pop(s, b), **give_turn_player_priority(s, b)},
                actor=holder,
                tags=frozenset({"passes", "resolves"}),
                doc="every player passed in succession: the top link resolves, the turn player gets priority",
            )
        )
        opens_next = after_close in WINDOWS
        edges.append(
            Edge(
                f"close_window@{window}",
                window,
                after_close,
                ("409.4", "409.4b", *close_rules),
                guard=lambda s, b: b.And(last_pass(s, b), s.chain_len == 0),
                update=(
                    give_turn_player_priority
                    if opens_next
                    else lambda s, b: {"priority_holder": nobody, **fresh_succession()}
                ),
                actor=holder,
                tags=frozenset({"passes", "closes_window", *(("opens_window",) if opens_next else ())}),
                doc=f"every player passed with the chain empty: the window closes and {after_close} begins",
            )
        )

    # -- 408.1, 409.2b, 410.1: only in the turn player's non-combat action phase -------

    def main_phase_ready(s: Any, b: Backend) -> Any:
        return b.And(s.priority_holder == s.turn_player, s.chain_len == 0)

    edges.append(
        Edge(
            "play_non_instant",
            "action_phase",
            "action_phase",
            ("408.1", "409.2b", "502.1", "409.3", "413.7a"),
            guard=lambda s, b: b.And(
                main_phase_ready(s, b), in_hand(s, b, "non_instant", s.turn_player) > 0, b.Not(chain.is_full(s))
            ),
            update=lambda s, b: {
                **take_from_hand(s, b, "non_instant", s.turn_player),
                **chain.push(s, b, controller=s.turn_player, kind=NON_INSTANT_LINK),
                **fresh_succession(),
            },
            actor=turn_player,
            tags=frozenset({"adds_link", "main_phase_action"}),
            doc="the turn player plays a non-instant card on an empty chain",
        )
    )
    for kind in CARD_KINDS:
        # 410.1b: any card can be placed face down; 408.2: a quest can only be placed.
        rules = ("410.1", "410.1a", "409.2b", "502.1", "410.1b") + (("408.2",) if kind == "quest" else ())
        edges.append(
            Edge(
                f"place_resource[{kind}]",
                "action_phase",
                "action_phase",
                rules,
                guard=lambda s, b, kind=kind: b.And(
                    main_phase_ready(s, b),
                    b.Not(s.resource_placed),
                    in_hand(s, b, kind, s.turn_player) > 0,
                    b.Not(chain.is_full(s)),
                ),
                update=lambda s, b, kind=kind: {
                    **take_from_hand(s, b, kind, s.turn_player),
                    **chain.push(s, b, controller=s.turn_player, kind=RESOURCE_LINK),
                    "resource_placed": True,
                    **fresh_succession(),
                },
                actor=turn_player,
                tags=frozenset({"adds_link", "main_phase_action", "places_resource"}),
                doc=f"the turn player places a {kind} card from hand as this turn's resource",
            )
        )

    # -- 503.2 end step -----------------------------------------------------------------

    def hand_size(s: Any, b: Backend, player: Any) -> Any:
        return b.total(tuple(in_hand(s, b, kind, player) for kind in CARD_KINDS))

    for kind in CARD_KINDS:
        edges.append(
            Edge(
                f"discard[{kind}]",
                "end_step",
                "end_step",
                ("503.2a", "413.5b"),
                guard=lambda s, b, kind=kind: b.And(
                    hand_size(s, b, s.turn_player) > hand_limit, in_hand(s, b, kind, s.turn_player) > 0
                ),
                update=lambda s, b, kind=kind: take_from_hand(s, b, kind, s.turn_player),
                actor=turn_player,
                tags=frozenset({"discards"}),
                doc=f"the turn player, over the hand limit, discards a {kind} card",
            )
        )
    edges.append(
        Edge(
            "end_turn",
            "end_step",
            "ready_step_start",
            ("503.2a",),
            guard=lambda s, b: hand_size(s, b, s.turn_player) <= hand_limit,
            update=lambda s, b: {
                "turn_player": next_clockwise(s, b, s.turn_player),
                "turn_number": s.turn_number + 1,
                "first_turn": False,
                "resource_placed": False,
            },
            tags=frozenset({"ends_turn"}),
            doc="the turn ends and the next player clockwise starts a turn",
        )
    )

    return Machine(
        "wowtcg",
        variables,
        locations,
        "ready_step_start",
        edges,
        REGISTRY,
        {"players": players, "chain_depth": chain_depth, "turns": turns, "hand": hand, "deck": deck, "hand_limit": hand_limit},
        describe,
        stacks=[chain],
    )


def player_name(p: int) -> str:
    return f"P{p + 1}"


def describe(machine: Machine, s: Any) -> dict[str, str]:
    """What a judge reads off a state: turn, priority, chain, hands, decks."""
    n = machine.bounds["players"]
    chain = ", ".join(
        f"{player_name(link['controller'])} {LINK_KINDS[link['kind']].replace('_', '-')}"
        for link in machine.stacks["chain"].entries(s)
    )
    aspects = {
        "turn": f"{player_name(s.turn_player)} (turn {s.turn_number}{', first' if s.first_turn else ''})",
        "priority": player_name(s.priority_holder) if s.priority_holder < n else "nobody",
        "passes": str(s.passes),
        "chain": f"[{chain}]",
        "resource placed": "yes" if s.resource_placed else "no",
    }
    for p in range(n):
        name = player_name(p)
        if not s.in_game[p]:
            aspects[name] = "out of the game"
            continue
        aspects[f"{name} hand"] = f"{s.hand_instant[p]} instant, {s.hand_non_instant[p]} non-instant, {s.hand_quest[p]} quest"
        aspects[f"{name} deck"] = str(s.deck[p])
    return aspects
