"""World of Warcraft TCG: the turn, its priority windows, the chain, and combat.

Seed ``000_93427c41005e332f.txt`` sections 408-410, 413.7, 501-503 and 600-603
(with the English combat text of ``002_747842af486db20b.txt``), the chain
section of the basic rules (``001_bb13bfcb78a9b116.txt``) and, where the seed
lacks the chain chapter, the Comprehensive Rules 7.4 (``CR7.4 709.1``).

Cards are abstracted to what priority, the chain and combat depend on: each
player's hand is a count of cards of each kind (instant, non-instant, quest),
the deck is a count, and a link on the chain is its controller and kind.  The
characters in play come from a board (``model/wowtcg/board.py``) whose stats
and keywords are constants; their readiness, damage and roles are state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from model.backend import Backend
from model.machine import (
    BOOL,
    GAME_OVER,
    BoundSpec,
    Edge,
    Enum,
    IntRange,
    Location,
    Machine,
    Stack,
    Var,
)
from model.wowtcg import REGISTRY, combat, hero_absence, ready_hold, watchers
from model.wowtcg.board import Board, default_board, has_payment_powers
from model.wowtcg.variants import VARIANTS
from model.wowtcg.table import ALL_LINK_KINDS, CARD_KINDS, INSTANT_LINK, LINK_KINDS, LINK_KINDS_WITH_POWERS, NON_INSTANT_LINK, RESOURCE_LINK, Table
from model.wowtcg.windows import closing, instants_at_any_time, resolving, top_link_is, turn_player, window_edges

BOUNDS = (
    BoundSpec("players", 2, 2, 4, "players at the table; priority passes clockwise"),
    BoundSpec("chain_depth", 2, 1, 6, "most links on the chain at once"),
    BoundSpec("turns", 2, 1, 16, "turns explored before the search stops"),
    BoundSpec(
        "hand",
        0,
        0,
        3,
        "cards of each kind (instant, non-instant, quest) in every starting hand; with 0, cards come only from draws",
    ),
    BoundSpec("deck", 1, 0, 4, "most cards in a deck at the start (every count up to it is an initial state)"),
    BoundSpec(
        "hand_limit",
        2,
        0,
        7,
        "maximum hand size checked in the end step; the rules say 7 (503.2a), "
        "scaled down so that small instances reach the discard",
    ),
    BoundSpec("allies", 2, 0, 2, "allies in each party at the start (the board's ally slots)"),
    BoundSpec("resources", 1, 0, 3, "resources each player has in play at the start"),
    BoundSpec(
        "combats",
        1,
        0,
        3,
        "combats proposed per turn that are explored; where 'must attack' would demand one more, the search stops at combat_limit",
    ),
)

#: Locations where a turn's priority window is open, in turn order, with the
#: location the game advances to when that window closes (409.4b) and the rules that say so.
WINDOWS = {
    "ready_step": ("draw_step_start", ("501.1a", "501.1c")),
    "draw_step": ("action_phase", ("501.2a",)),
    "action_phase": ("end_phase", ("502.2",)),
    "end_phase": ("end_step", ("503.1",)),
}

def build(
    players: int = 2,
    chain_depth: int = 2,
    turns: int = 2,
    hand: int = 0,
    deck: int = 1,
    hand_limit: int = 2,
    allies: int = 2,
    resources: int = 1,
    combats: int = 1,
    board: Board | None = None,
    variant: str | None = None,
    any_length: bool = False,
    reading: str | None = None,
) -> Machine:
    """The model at the given bounds, under the model's reading of the sources,
    the named rule variant (``model/wowtcg/variants.py``), or ``reading``: a
    source read first (``001``), or on some questions only
    (``001@priority_after_resolution``; ``model/rulings.py``).

    ``any_length`` builds the model of games of any length, for unbounded
    proofs: no turn counter and no combat counter (so ``turns`` and
    ``combats`` bound nothing), each deck only empty or not (``deck`` is
    ignored), and resources counted up to a cap.  Each of these is an entry
    ``abstracted:...`` of the rules registry that says why the model still has
    every run of the game (perhaps more), so that its proofs hold in the game.
    """
    chosen = None
    if variant is not None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")
        chosen = VARIANTS[variant]
        if board is None and chosen.board is not None:
            board = chosen.board({"players": players, "allies": allies})
        if chosen.source_reading is not None:
            if reading is not None:
                raise ValueError(f"the variant {variant!r} is the reading {chosen.source_reading!r}; give one or the other")
            reading = chosen.source_reading
    n = players
    # 413.7a: the chain, links added on top; a link is its controller and kind.
    chain = Stack(
        "chain",
        chain_depth,
        (("controller", IntRange(0, n), n), ("kind", Enum(*link_kinds(board)), 0)),
        doc="the chain (413.7a)",
    )
    t = Table(
        players,
        turns,
        hand,
        resources,
        allies,
        board or default_board(players, allies),
        chain,
        hand_limit,
        any_length,
        without=chosen.without if chosen else (),
        reading=reading,
    )
    if any_length:
        # abstracted:deck-empty-or-not: 1 stands for any number of cards.
        deck_var = Var("deck", IntRange(0, 1), (0, 1), length=n, doc="each deck is empty (0) or not (1) (413.4a)")
        turn_counter = []
    else:
        deck_var = Var("deck", IntRange(0, deck), tuple(range(deck + 1)), length=n, doc="cards in each deck (413.4a)")
        turn_counter = [Var("turn_number", IntRange(1, turns + 1), (1,), doc="turns begun, for the turn bound")]

    variables = [
        # Abstraction: 101.1 picks the first player at random; by symmetry of seats
        # the model lets P1 go first and loses no behaviour.
        Var("turn_player", IntRange(0, n - 1), (0,), doc="whose turn it is"),
        Var("first_turn", BOOL, (True,), doc="this is the first turn of the game (501.2b)"),
        *turn_counter,
        Var("priority_holder", IntRange(0, t.nobody), (t.nobody,), doc="who has priority (409.1); nobody outside windows"),
        Var("passes", IntRange(0, n - 1), (0,), doc="players who passed in succession (409.4)"),
        # A monitor, not rule state: who passed since a link was last added or
        # resolved or the window opened, so that "everyone had the chance to
        # respond" can be stated apart from the ``passes`` count the rules use.
        Var("passed", BOOL, (False,), length=n, doc="players who passed in the current succession"),
        Var("resource_placed", BOOL, (False,), doc="the turn player placed a resource this turn (410.1)"),
        # Abstraction: every player starts with the same hand (seven cards in the
        # rules, 101.1; ``hand`` of each kind here).  A smaller hand only takes
        # options away (apart from how much the end step discards), and letting
        # every mix start multiplied the states of a three-player game by four.
        # Deck sizes do vary, so decking is reached.
        *(
            Var(f"hand_{kind}", IntRange(0, t.hand_hi), (hand,), length=n, doc=f"{kind} cards in each hand")
            for kind in CARD_KINDS
        ),
        deck_var,
        Var("in_game", BOOL, (True,), length=n, doc="each player is still in the game (102.2)"),
        *combat.variables(t, None if any_length else combats),
        *watchers.variables(t),
    ]
    # A character held exhausted until its controller's next turn starts so (V11).
    variables = ready_hold.variables(t, variables)

    locations = [
        # 101.1: the game starts here, heroes in play and hands drawn.
        Location("ready_step_start", ("501.1", "501.1a", "501.1c", "101.1"), "turn-based readying; no priority window (501.1c)"),
        Location("ready_step", ("501.1b",), "the ready step's priority window"),
        Location("draw_step_start", ("501.2a", "501.1c"), "the turn player draws; no priority window yet"),
        Location("draw_step", ("501.2", "501.2a"), "the draw step's priority window"),
        Location("action_phase", ("502.1",), "the non-combat action phase's priority window"),
        *combat.LOCATIONS,
        Location("end_phase", ("503.1",), "the end phase's priority window"),
        Location("end_step", ("503.2", "503.2a"), "discard to the hand limit; no priority window (503.2a)"),
        Location("game_over", ("102.1", "102.1a"), "at most one player remains", terminal=GAME_OVER),
    ]
    if not any_length:
        locations += [
            Location("turn_limit", (), f"{turns} turns explored", terminal="turn bound reached"),
            Location("combat_limit", (), f"{combats} combats explored in a turn", terminal="combat bound reached"),
        ]

    edges: list[Edge] = []

    # -- 501.1 ready step ---------------------------------------------------------

    # Whether other players' cards ready too is a question of the rulings: the
    # basic rules' ready step readies every card in play (ready_step_readies_all).
    readies_all = t.rulings.fixed("ready_step_readies_all")
    held = tuple(c.held_exhausted for c in t.characters)
    # Held until its controller's turn starts: whether it readies then is a
    # question of the rulings (readies_as_hold_ends, V11).
    holds = ready_hold.held(t)

    def ready_turn_players_cards(s: Any, b: Backend) -> dict[str, Any]:
        """501.1a: the turn player readies his characters, equipment and
        resources; a character whose text holds it exhausted stays so (103.1)."""
        out = readying(s, b)
        if not any(holds):
            return out
        exhausted = tuple(ready_hold.exhausted_after(t, s, b, c, readies_all) if holds[c] else x for c, x in enumerate(out["exhausted"]))
        return {**out, "exhausted": exhausted, **ready_hold.after_readying(t, s, b)}

    def readying(s: Any, b: Backend) -> dict[str, Any]:
        if readies_all:
            # Entangling Roots holds its ally only in its controller's ready
            # step (000:191): in another player's, the basic rules ready it too.
            return {
                "exhausted": tuple(b.And(s.exhausted[c], s.turn_player == t.owner[c]) if held[c] else False for c in range(t.count)),
                "weapon_exhausted": (False,) * (n * t.weapons),
                "armor_exhausted": (False,) * n,
                "resources_exhausted": (0,) * n,
            }
        return {
            "exhausted": tuple(s.exhausted[c] if held[c] else b.And(s.exhausted[c], s.turn_player != t.owner[c]) for c in range(t.count)),
            "weapon_exhausted": tuple(
                b.And(s.weapon_exhausted[i], s.turn_player != i // t.weapons) for i in range(n * t.weapons)
            ),
            "armor_exhausted": b.store(s.armor_exhausted, s.turn_player, False),
            "resources_exhausted": b.store(s.resources_exhausted, s.turn_player, 0),
        }

    edges.append(
        Edge(
            "ready_cards",
            "ready_step_start",
            "ready_step",
            ("501.1a", "501.1b", "409.4") + (("abstracted:any-number-of-turns",) if any_length else ()) + (("103.1",) if any(held) else ()),
            guard=(lambda s, b: True) if any_length else (lambda s, b: s.turn_number <= turns),
            update=lambda s, b: {**ready_turn_players_cards(s, b), **t.give_turn_player_priority(s, b)},
            tags=frozenset({"opens_window"}),
            doc="the turn player readies his cards without the chain, then a window opens",
        )
    )
    if not any_length:
        edges.append(
            Edge(
                "turn_limit_reached",
                "ready_step_start",
                "turn_limit",
                (),
                guard=lambda s, b: s.turn_number > turns,
                update=lambda s, b: {"priority_holder": t.nobody},
                tags=frozenset({"bound"}),
                doc="the exploration bound on turns, not a rule",
            )
        )

    # -- 501.2 draw step ------------------------------------------------------------

    # 501.2b skips the whole draw step, its priority window with the draw
    # (000:425, CR7.4 501.2b): the action phase's window opens at once (502.1).
    edges.append(
        Edge(
            "skip_first_draw",
            "draw_step_start",
            "action_phase",
            ("501.2b", "502.1", "409.4"),
            guard=lambda s, b: t.rulings.answer("skips_draw", s, b),
            update=t.give_turn_player_priority,
            tags=frozenset({"opens_window"}),
            doc="the first player skips the draw step of the first turn: the action phase begins",
        )
    )
    def draw_guard(s: Any, b: Backend) -> Any:
        return b.And(b.Not(t.rulings.answer("skips_draw", s, b)), b.select(s.deck, s.turn_player) > 0)

    # What is left of the deck after a draw: one card fewer; in the any-length
    # model, where 1 stands for any number of cards, the draw either leaves
    # some (``draw_card``) or takes the last (``draw_last_card``), by chance.
    deck_after = {"draw_card": lambda s, b: b.select(s.deck, s.turn_player) - (0 if any_length else 1)}
    if any_length:
        deck_after["draw_last_card"] = lambda s, b: 0
    for drawn, left in deck_after.items():
        for kind in CARD_KINDS:
            # Which kind is drawn is chance; the deck is not split by kind.
            def draw_update(s: Any, b: Backend, kind: str = kind, left: Any = left) -> dict[str, Any]:
                field = f"hand_{kind}"
                return {
                    "deck": b.store(s.deck, s.turn_player, left(s, b)),
                    field: b.store(getattr(s, field), s.turn_player, t.in_hand(s, b, kind, s.turn_player) + 1),
                    **t.give_turn_player_priority(s, b),
                }

            edges.append(
                Edge(
                    f"{drawn}[{kind}]",
                    "draw_step_start",
                    "draw_step",
                    ("501.2a", "409.4") + (("abstracted:deck-empty-or-not",) if any_length else ()),
                    guard=draw_guard,
                    update=draw_update,
                    actor=turn_player,
                    tags=frozenset({"opens_window", "chance", "draws"}),
                    doc=f"the turn player draws (by chance) a {kind} card without the chain"
                    + (", and the deck is empty after it" if drawn == "draw_last_card" else ""),
                )
            )

    def decked(s: Any, b: Backend) -> Any:
        return b.And(b.Not(t.rulings.answer("skips_draw", s, b)), b.select(s.deck, s.turn_player) == 0)

    def turn_player_leaves(s: Any, b: Backend) -> dict[str, Any]:
        return {**t.leave_game(s, b, tuple(s.turn_player == p for p in range(n))), "priority_holder": t.nobody}

    # Abstraction: the draw from an empty deck and the loss it causes (409.6c) are
    # one step here, because the pre-priority check that applies the loss
    # (409.5) comes before anyone could act in between.
    edges.append(
        Edge(
            "decked_game_over",
            "draw_step_start",
            "game_over",
            ("409.6", "409.6c", "409.5", "102.1a", "102.1"),
            guard=lambda s, b: b.And(decked(s, b), t.remaining(s, b) == 2),
            update=turn_player_leaves,
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
            guard=lambda s, b: b.And(decked(s, b), t.remaining(s, b) > 2),
            update=lambda s, b: {**turn_player_leaves(s, b), **t.next_turn(s, b)},
            actor=turn_player,
            tags=frozenset({"loses", "ends_turn"}),
            doc="with players left, the decked turn player leaves and the next player clockwise starts a turn",
        )
    )

    # -- 409 priority windows of the turn, and combat (600-603) ----------------------

    combat_edges, may_pass = combat.edges(t, None if any_length else combats)
    for window, (after_close, close_rules) in WINDOWS.items():
        in_action_phase = window == "action_phase"
        edges += window_edges(
            t, window, may_pass if in_action_phase else None, t.uses_priority_otherwise if in_action_phase else None
        )
        opens_next = after_close in WINDOWS
        edges.append(
            closing(
                t,
                window,
                after_close,
                close_rules + (("600.2", "600.3") if in_action_phase else ()),
                t.give_turn_player_priority if opens_next else (lambda s, b: {"priority_holder": t.nobody, **t.fresh_succession()}),
                extra=may_pass if in_action_phase else None,
                opens_window=opens_next,
                doc=f"every player passed with the chain empty: the window closes and {after_close} begins",
            )
        )
    edges += combat_edges
    # 408.1, 409.2: only a reading whose instants need no priority (the basic
    # rules', B14) plays one at the protect point, in conclusion or in the end step.
    edges += instants_at_any_time(t)
    # A hero removed from the game until its action phase (301.3, I3).
    edges += hero_absence.removal_edges(t, resolving, top_link_is, INSTANT_LINK)

    # 502.2: whether the turn player alone ends his action phase is a question
    # of the rulings: the basic rules move on once he is done (001:172), where
    # 502.2 waits for every player to pass in succession (the closing above).
    if t.rulings.fixed("turn_player_ends_action_phase"):
        edges.append(
            Edge(
                "end_action_phase",
                "action_phase",
                "end_phase",
                ("502.2", "503.1", "600.2", "600.3"),
                guard=lambda s, b: b.And(s.priority_holder == s.turn_player, s.chain_len == 0, may_pass(s, b)),
                update=t.give_turn_player_priority,
                actor=turn_player,
                tags=frozenset({"closes_window", "opens_window", "reading"}),
                doc="the turn player is done with his action phase on an empty chain: the end phase begins, nobody else asked",
            )
        )

    # -- 408.1, 409.2b, 410.1: only in the turn player's non-combat action phase -------

    def main_phase_ready(s: Any, b: Backend) -> Any:
        return b.AndThen(b.And(s.priority_holder == s.turn_player, s.chain_len == 0), lambda: t.uses_priority_otherwise(s, b))

    def play_non_instant(s: Any, b: Backend) -> dict[str, Any]:
        return {
            **t.take_from_hand(s, b, "non_instant", s.turn_player),
            **chain.push(s, b, controller=s.turn_player, kind=NON_INSTANT_LINK),
            **t.fresh_succession(),
        }

    edges.append(
        Edge(
            "play_non_instant",
            "action_phase",
            "action_phase",
            ("408.1", "409.2b", "502.1", "409.3", "413.7a"),
            guard=lambda s, b: b.And(
                main_phase_ready(s, b), t.in_hand(s, b, "non_instant", s.turn_player) > 0, b.Not(chain.is_full(s)),
                *((t.out_of_bear_form(s, b, s.turn_player),) if any(t.bear) else ()),
            ),
            update=play_non_instant,
            actor=turn_player,
            tags=frozenset({"adds_link", "main_phase_action"}),
            doc="the turn player plays a non-instant card on an empty chain",
        )
    )
    # The windows of a combat step, for the basic rules' reading only (a
    # question of the rulings: 408.1 allows the non-combat action phase alone).
    for window in ("attack_window", "defend_window"):
        if not t.rulings.fixed("may_play_non_instant_now", window):
            continue
        edges.append(
            Edge(
                f"play_non_instant@{window}",
                window,
                window,
                ("408.1", "409.3", "413.7a"),
                guard=lambda s, b: b.And(
                    s.priority_holder == s.turn_player,
                    s.chain_len == 0,
                    t.in_hand(s, b, "non_instant", s.turn_player) > 0,
                    b.Not(chain.is_full(s)),
                    t.out_of_bear_form(s, b, s.turn_player),
                ),
                update=play_non_instant,
                actor=turn_player,
                tags=frozenset({"adds_link", "main_phase_action", "reading"}),
                doc=f"the turn player plays a non-instant ability on an empty chain in the {window.replace('_', ' ')}",
            )
        )

    # Whether placing adds a link is a question of the rulings: the basic
    # rules put the card straight into play (resource_uses_the_chain).
    as_link = t.rulings.fixed("resource_uses_the_chain")

    def place_resource(kind: str) -> Callable[[Any, Backend], dict[str, Any]]:
        def update(s: Any, b: Backend) -> dict[str, Any]:
            placed = {**t.take_from_hand(s, b, kind, s.turn_player), "resource_placed": True}
            if not as_link:
                return {**placed, **t.gain_resource(s, b, s.turn_player)}
            return {**placed, **chain.push(s, b, controller=s.turn_player, kind=RESOURCE_LINK), **t.fresh_succession()}

        return update

    def placeable(s: Any, b: Backend, kind: str) -> tuple[Any, ...]:
        """410.1: none placed yet this turn, a card of this kind in hand, room on the chain."""
        return b.Not(s.resource_placed), t.in_hand(s, b, kind, s.turn_player) > 0, b.Not(chain.is_full(s))

    # Off the chain a placement adds no link and is only the basic rules'
    # (tagged reading, as their declaration of a combat is).
    placing = frozenset({"places_resource", *(("adds_link", "main_phase_action") if as_link else ("reading",))})
    for kind in CARD_KINDS:
        # 410.1b: any card can be placed face down; 408.2: a quest can only be placed.
        rules = ("410.1", "410.1a", "409.2b", "502.1", "410.1b") + (("408.2",) if kind == "quest" else ())
        edges.append(
            Edge(
                f"place_resource[{kind}]",
                "action_phase",
                "action_phase",
                rules,
                guard=lambda s, b, kind=kind: b.And(main_phase_ready(s, b), *placeable(s, b, kind)),
                update=place_resource(kind),
                actor=turn_player,
                tags=placing,
                doc=f"the turn player places a {kind} card from hand as this turn's resource"
                + ("" if as_link else ", straight into play"),
            )
        )

    # 410.1a: a placed resource enters play as it resolves (ready, 105.1), in
    # the window it was placed in.  At the cap the count stays put, and costs
    # are paid without exhausting (table.py).
    def resolve_resource(window: str) -> Edge:
        return resolving(
            t,
            window,
            "resolve_resource",
            ("410.1a", "105.1") + (("abstracted:resource-cap",) if any_length else ()),
            lambda s, b: top_link_is(t, s, b, RESOURCE_LINK),
            lambda s, b: t.gain_resource(s, b, s.turn_player),
            "the placed resource resolves and enters play",
        )

    if as_link:
        edges.append(resolve_resource("action_phase"))
    # The windows of a combat step, for the basic rules' reading only (a
    # question of the rulings: 410.1a allows the non-combat action phase alone).
    for window in ("attack_window", "defend_window"):
        if not t.rulings.fixed("may_place_resource_now", window):
            continue
        for kind in CARD_KINDS:
            edges.append(
                Edge(
                    f"place_resource[{kind}]@{window}",
                    window,
                    window,
                    ("410.1", "410.1a", "410.1b") + (("408.2",) if kind == "quest" else ()),
                    guard=lambda s, b, kind=kind: b.And(
                        s.priority_holder == s.turn_player, s.chain_len == 0, *placeable(s, b, kind)
                    ),
                    update=place_resource(kind),
                    actor=turn_player,
                    tags=placing | {"main_phase_action", "reading"},
                    doc=f"the turn player places a {kind} card from hand as this turn's resource in the {window.replace('_', ' ')}",
                )
            )
        if as_link:
            edges.append(resolve_resource(window))

    # Abstraction: the non-instant cards the model tracks are allies (302.1).  As
    # one resolves it enters its controller's lowest free ally slot, as the
    # card of that slot, ready and new to the party; a controller with no free
    # slot played some other non-instant, whose effect is not tracked.
    # An item that becomes an ally keeps its slot: no ally card enters it.
    def free_slot_is(s: Any, b: Backend, c: int) -> Any:
        earlier = [x for x in t.party(t.owner[c]) if x < c and not t.is_hero[x] and not t.item_allies[x]]
        return b.And(b.Not(s.in_play[c]), *(s.in_play[x] for x in earlier))

    # A resolving non-instant's edges (an ally, a weapon or an armor enters)
    # share their first conjunct: one prefilter passes them all over at once
    # where no non-instant is on top of the chain, as in most states.
    def non_instant_on_top(s: Any, b: Backend) -> Any:
        return top_link_is(t, s, b, NON_INSTANT_LINK)

    for c in range(t.count):
        if t.is_hero[c] or t.item_allies[c]:
            continue
        edges.append(
            resolving(
                t,
                "action_phase",
                f"resolve_ally[{t.name(c)}]",
                ("302.1", "105.1", "601.2a"),
                lambda s, b, c=c: b.And(non_instant_on_top(s, b), s.turn_player == t.owner[c], free_slot_is(s, b, c)),
                lambda s, b, c=c: {
                    "in_play": b.store(s.in_play, c, True),
                    "fresh": b.store(s.fresh, c, True),
                    **({"changed_sides": b.store(s.changed_sides, c, False)} if t.ferocity_changes_sides else {}),
                    "exhausted": b.store(s.exhausted, c, False),
                    "damage": b.store(s.damage, c, 0),
                    # A card entering play is a new object, under no modifier yet.
                    **({"taunted_by": b.store(s.taunted_by, c, t.nobody)} if t.taunting else {}),
                    **({"cant_attack": b.store(s.cant_attack, c, False)} if t.stopping else {}),
                },
                f"the ally resolves and enters play as {t.name(c)}, new to the party",
                prefilter=non_instant_on_top,
            )
        )

    # Weapons and armor that start in hand (boards built for a game that plays
    # one): as the turn player's non-instant resolves, one of his not yet in
    # play enters his hero zone ready (303.1, 304.1, 000:137, 000:146), and no
    # ally joins the party.  Which card resolved the model does not know: each
    # is a way the link may resolve; it enters ready (105.1).
    for p, party in enumerate(t.board.parties):
        for w, weapon in enumerate(party.weapons):
            if not weapon.from_hand:
                continue
            i = t.weapon(p, w)
            edges.append(
                resolving(
                    t,
                    "action_phase",
                    f"resolve_weapon[{t.player_name(p)} {weapon.name}]",
                    ("303.1", "105.1"),
                    lambda s, b, p=p, i=i: b.And(non_instant_on_top(s, b), s.turn_player == p, b.Not(s.weapon_in_play[i])),
                    lambda s, b, i=i: {
                        "weapon_in_play": b.store(s.weapon_in_play, i, True),
                        "weapon_exhausted": b.store(s.weapon_exhausted, i, False),
                    },
                    f"the weapon resolves and enters {t.player_name(p)}'s hero zone as {weapon.name}",
                    prefilter=non_instant_on_top,
                )
            )
        if party.armor_from_hand:
            edges.append(
                resolving(
                    t,
                    "action_phase",
                    f"resolve_armor[{t.player_name(p)}]",
                    ("304.1", "105.1"),
                    lambda s, b, p=p: b.And(non_instant_on_top(s, b), s.turn_player == p, b.Not(s.armor_in_play[p])),
                    lambda s, b, p=p: {
                        "armor_in_play": b.store(s.armor_in_play, p, True),
                        "armor_exhausted": b.store(s.armor_exhausted, p, False),
                    },
                    f"the armor resolves and enters {t.player_name(p)}'s hero zone",
                    prefilter=non_instant_on_top,
                )
            )

    # -- 503.2 end step -----------------------------------------------------------------

    def hand_size(s: Any, b: Backend, player: Any) -> Any:
        return b.total(tuple(t.in_hand(s, b, kind, player) for kind in CARD_KINDS))

    for kind in CARD_KINDS:
        edges.append(
            Edge(
                f"discard[{kind}]",
                "end_step",
                "end_step",
                ("503.2a", "413.5b"),
                guard=lambda s, b, kind=kind: b.And(
                    hand_size(s, b, s.turn_player) > hand_limit, t.in_hand(s, b, kind, s.turn_player) > 0
                ),
                update=lambda s, b, kind=kind: t.take_from_hand(s, b, kind, s.turn_player),
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
            update=t.next_turn,
            tags=frozenset({"ends_turn"}),
            doc="the turn ends and the next player clockwise starts a turn",
        )
    )

    if any(t.item_allies):
        edges = [_with_item_allies(t, e) for e in edges]
    if t.holds_others_cards:
        edges = [_with_held_cards(t, e) for e in edges]
    if t.second_defender:
        edges = [_with_second_defender(t, e) for e in edges]
    if hero_absence.removes(t):
        edges = [hero_absence.with_absence(t, e) for e in edges]
    if t.board.watchers or t.board.attached_to is not None:
        edges = [watchers.watched(t, e) for e in edges]

    bounds = {
        "players": players,
        "chain_depth": chain_depth,
        "hand": hand,
        "hand_limit": hand_limit,
        "allies": allies,
        "resources": resources,
    }
    if not any_length:
        bounds.update(turns=turns, deck=deck, combats=combats)
    machine = Machine(
        "wowtcg",
        variables,
        locations,
        "ready_step_start",
        edges,
        REGISTRY,
        bounds,
        lambda m, s: describe(t, s),
        stacks=[chain],
        table=t,
        rulings=t.rulings,
    )
    if chosen is not None:
        return chosen.apply(machine)
    if reading is not None:
        machine.variant = reading
    return machine


def _with_item_allies(t: Table, edge: Edge) -> Edge:
    """``edge``, on a board with an item that a payment makes an ally this
    turn (Arcanite Dragonling): where the step takes it out of play as an
    ally (destroyed, or its player out of the game), the card leaves play,
    its item too; as the turn ends, an ally only "this turn" is an item
    again (503.2a), still in play, as it is where an instant makes it an
    item only (``roles.ending_allies``, tagged ``stays_an_item``)."""
    if edge.has("stays_an_item"):
        return edge
    ends_turn = edge.has("ends_turn")
    items = [c for c in range(t.count) if t.item_allies[c]]

    def update(s: Any, b: Backend) -> dict[str, Any]:
        out = edge.update(s, b)
        if "in_play" not in out and not ends_turn:
            return out
        after = out.get("in_play", s.in_play)
        item = list(s.item_in_play)
        for c in items:
            item[c] = b.And(s.item_in_play[c], b.Or(b.Not(s.in_play[c]), after[c]))
        out = {**out, "item_in_play": tuple(item)}
        if ends_turn:
            out["in_play"] = tuple(False if t.item_allies[c] else after[c] for c in range(t.count))
        return out

    rules = edge.rules + (("503.2a", "300.2") if ends_turn else ())
    return replace(edge, update=update, rules=tuple(dict.fromkeys(rules)))


def _with_held_cards(t: Table, edge: Edge) -> Edge:
    """``edge``, on a board where Mind Control can move a card to another
    player's party: a slot whose card leaves play no longer holds another
    player's card, so that only the card the slot holds says whose it is
    (102.2, 401.3)."""

    def update(s: Any, b: Backend) -> dict[str, Any]:
        out = edge.update(s, b)
        if "in_play" not in out:
            return out
        owned = out.get("owned_by", s.owned_by)
        return {**out, "owned_by": tuple(b.If(out["in_play"][c], owned[c], t.nobody) for c in range(t.count))}

    # Where a player may leave (102.2), a card he controls goes back to its owner (Table.leave_game).
    rules = edge.rules + (("401.3b", "302.2", "assumed:control-returns-to-owner", "abstracted:no-slot-to-return-to") if "102.2" in edge.rules else ())
    return replace(edge, update=update, rules=tuple(dict.fromkeys(rules)))


def _with_second_defender(t: Table, edge: Edge) -> Edge:
    """``edge``, on a board where a second defender may stand beside the
    defender (602.3b): as it leaves play it loses its role as the defender
    does (``leaving_play_ends_role``), and where the defender's role ends
    (it leaves play or is removed from combat) the second one goes on
    defending (602.4) and takes its place in the state.  A second proposed
    defender that protects (CR7.4 602.2b forbids it, the seed does not) is
    the proposed defender, once."""

    def update(s: Any, b: Backend) -> dict[str, Any]:
        out = edge.update(s, b)
        if "in_play" not in out and "defender" not in out:
            return out
        also = out.get("also_defender", s.also_defender)
        if "in_play" in out:
            gone = b.Not(b.select(out["in_play"], also, True))
            also = b.If(b.And(gone, t.rulings.answer("leaving_play_ends_role", s, b)), t.none, also)
        defender = out.get("defender", s.defender)
        also = b.If(defender == also, t.none, also)
        promoted = b.And(defender == t.none, also < t.none)
        return {**out, "defender": b.If(promoted, also, defender), "also_defender": b.If(promoted, t.none, also)}

    # The steps in which a defender can leave play or be removed from combat.
    rules = edge.rules + (("602.4",) if {"602.4", "404.1", "409.6b"} & set(edge.rules) else ())
    return replace(edge, update=update, rules=tuple(dict.fromkeys(rules)))


def link_kinds(board: Board) -> tuple[str, ...]:
    """The kinds of link the chain of ``board`` may hold: a power link only
    where a card has a payment power, a bear-form trigger only where a hero is
    in bear form (the kinds keep their numbers: ``ALL_LINK_KINDS``)."""
    if board is not None and any(party.bear_form for party in board.parties):
        return ALL_LINK_KINDS
    return LINK_KINDS_WITH_POWERS if has_payment_powers(board) else LINK_KINDS


def describe(t: Table, s: Any) -> dict[str, str]:
    """What a judge reads off a state: turn, priority, chain, combat, hands, decks, parties."""
    n = t.n
    chain = ", ".join(
        f"{Table.player_name(link['controller'])} {ALL_LINK_KINDS[link['kind']].replace('_', '-')}" for link in t.chain.entries(s)
    )
    aspects = {
        "turn": Table.player_name(s.turn_player) + _turn_note(t, s),
        "priority": Table.player_name(s.priority_holder) if s.priority_holder < n else "nobody",
        "passes": str(s.passes),
        "chain": f"[{chain}]",
        "resource placed": "yes" if s.resource_placed else "no",
    }
    if s.attacker < t.none or s.defender < t.none:
        marks = [m for m, on in (("sabotage", s.sabotage), ("protected", s.protected)) if on]
        also = f" and {t.name(s.also_defender)}" if t.second_defender and s.also_defender < t.none else ""
        aspects["combat"] = f"{t.name(s.attacker)} vs {t.name(s.defender)}{also}" + (f" ({', '.join(marks)})" if marks else "")
    else:
        aspects["combat"] = "none"
    for p in range(n):
        name = Table.player_name(p)
        if not s.in_game[p]:
            aspects[name] = "out of the game"
            continue
        aspects[f"{name} hand"] = f"{s.hand_instant[p]} instant, {s.hand_non_instant[p]} non-instant, {s.hand_quest[p]} quest"
        aspects[f"{name} deck"] = ("not empty" if s.deck[p] else "empty") if t.any_length else str(s.deck[p])
        party = []
        for c in t.party(p):
            if not s.in_play[c]:
                if t.item_allies[c] and s.item_in_play[c]:
                    party.append(f"{t.characters[c].name} (an item{', exhausted' if s.exhausted[c] else ''})")
                    continue
                party.append(f"{t.characters[c].name} gone")
                continue
            marks = [m for m, on in (("exhausted", s.exhausted[c]), ("new", s.fresh[c])) if on]
            damage = f" {s.damage[c]} damage" if s.damage[c] else ""
            party.append(t.characters[c].name + damage + (f" ({', '.join(marks)})" if marks else ""))
        aspects[f"{name} party"] = ", ".join(party)
        gear = [f"resources {s.resources[p] - s.resources_exhausted[p]}/{s.resources[p]} ready"]
        for w, weapon in enumerate(t.board.parties[p].weapons):
            i = t.weapon(p, w)
            if t.gear_from_hand and not s.weapon_in_play[i]:
                gear.append(f"{weapon.name} in hand")
                continue
            state = "exhausted" if s.weapon_exhausted[i] else "ready"
            gear.append(f"{weapon.name} {state}{', struck' if s.struck[i] else ''}")
        if t.board.parties[p].armor_def:
            in_hand = t.gear_from_hand and not s.armor_in_play[p]
            gear.append("armor in hand" if in_hand else f"armor {'exhausted' if s.armor_exhausted[p] else 'ready'}")
        if t.bear[p]:
            gear.append("Maul in play (hero in bear form)" if s.bear_form[p] else "Maul destroyed")
        aspects[f"{name} gear"] = ", ".join(gear)
    return {**aspects, **watchers.describe(t, s)}


def _turn_note(t: Table, s: Any) -> str:
    if t.any_length:
        return " (first turn)" if s.first_turn else ""
    return f" (turn {s.turn_number}{', first' if s.first_turn else ''})"
