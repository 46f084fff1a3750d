"""Heroes of Ancients, two to four players, from the shuffle to the end of
the game (seed ``004_1df466d0e3555139.txt``, rules 101-109), as a
state-machine graph.

The flow, with the choice points a player meets and the steps the game takes
by itself:

- ``shuffle``, ``first_player``: chance (103.1, 103.2);
- ``opening_hands``: 30 life and seven cards each (103.3, 103.4);
- ``mulligan``: the first player declares a count, then the opponent; then
  both mulligan at once, once (103.4);
- ``draw_step``: the active player draws, except the first player on the
  first turn (103.5, 103.5a, assumed:draw-step);
- ``check``: the priority check (assumed:priority-check): tokens off the
  battlefield vanish (109.5f), the losses of 104.3b-c, leaving (104.5), the
  draw of 104.4a, the last player standing (104.2a);
- ``triggers``: a waiting triggered ability resolves (assumed:trigger-order),
  or the game is a draw because the waiting trigger is part of a loop of
  mandatory actions (104.4b);
- ``priority``: the player with priority activates an ability of the table or
  passes (assumed:priority, assumed:once-per-turn);
- ``council``: Council of Elders' simultaneous choices, active player first
  (101.4, 101.4a, 101.4c, 101.4d);
- ``game_over``.

A player may concede at any time (104.3a, 101.1): at two players every
location but the last has a concession edge for each player, and the game
ends there (104.2a). At three or four a player who leaves takes their
entities, tokens and triggers (assumed:leaver-objects) and play goes on; a
concession is then taken where a player decides (the shuffle and the first
player by chance, the mulligan, priority, the council, a waiting trigger):
the game's own steps in between (the opening hands, the draw, the check)
take no time in which anyone acts. An active player who leaves ends their
turn (assumed:active-player-leaves); turns, passes and the council's
choices go round the players still in the game in seat order
(assumed:seat-order).

Who may lose or win, and which entity has its ability, are the rule book's
answers (``model/hota/rulings.py``), with the golden rules' precedence
declared there.

Where Mind Tether is on the table each entity's controller is part of the
state: Mind Tether gives its controller an entity an opponent controls, whose
owner stays (107.1, 107.2, 109.2); only the controller activates it, and its
"you" is the controller (108.4). A Spirit token is such an entity too (109.1,
109.5e; the question ``control_reaches_tokens``), for Mind Tether as for Gift
of Fealty, which gives an entity its player controls to an opponent: where a
Spirit may move, the state keeps, of the Spirits each player controls, how
many each other player owns (``tokens_taken``), since a token goes to its
owner's hand or graveyard and, at a larger table, leaves with its owner.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, Callable, Iterator

from model.backend import CONCRETE, Backend
from model.hota import REGISTRY
from model.hota import plays
from model.hota.plays import slug
from model.hota.counts import Counts
from model.hota.cases import ByCase
from model.hota.recall import Recall
from model.hota.rulings import (
    CONCESSION, EFFECT, LAST_STANDING, controls, entity_has_ability, loses_at_check, rulebook,
)
from model.hota.table import (
    ACCEPT, ACTIVATED, ATTRIBUTES, BOLT_DAMAGE, CULLING_WAITS, ECHO_WAITS, MAX_PLAYERS, NO_TRIGGER, NOBODY, NOT_YET, OPENING_HAND,
    PICKED, PLAYERS, REFUSE, SKIPPED, STARTING_LIFE, TOME_DRAW, Table, TableError, default_table,
)
from model.machine import BOOL, GAME_OVER, BoundSpec, Edge, IntRange, Location, Machine, Var, always
from model.rulings import RuleBook

BOUNDS = (
    BoundSpec("deck", 7, 7, 12, "cards in each deck: seven go to the opening hand, the rest make the library"),
    BoundSpec("mulligan", 1, 0, 7, "the largest mulligan count a player may declare (103.4 allows the whole hand)"),
    BoundSpec("players", PLAYERS, PLAYERS, MAX_PLAYERS, "players at the table (102.1); the default table's cards stay with P1 and P2"),
)

PLAYER_NAMES = ("P1", "P2", "P3", "P4")

#: Edge tags: what a step is, for properties that select steps by meaning.
MANDATORY = "mandatory"  # the game does it; nobody chooses (104.4b)
CHANCE = "chance"
CHOICE = "choice"  # a simultaneous choice made in active-player-first order (101.4, 103.4)
PRIORITY_CHECK = "priority_check"
CONCEDES = "concedes"
LOSS_EFFECT = "loss_effect"
WIN_EFFECT = "win_effect"
CREATES_TOKEN = "creates_token"
LOOP_DRAW = "loop_draw"

LOCATIONS = (
    Location("shuffle", ("103.1",), "the game begins: each deck is shuffled"),
    Location("first_player", ("103.2",), "the system picks the first player at random"),
    Location("opening_hands", ("103.3", "103.4"), "starting life and the opening hands"),
    Location("mulligan", ("103.4",), "the first player, then the opponent, declares a mulligan count"),
    Location("draw_step", ("assumed:draw-step", "103.5a"), "the active player's turn begins with a draw"),
    Location("check", ("assumed:priority-check",), "the priority check, before anyone receives priority"),
    Location("triggers", ("assumed:trigger-order",), "a triggered ability waits to resolve"),
    Location("priority", ("assumed:priority",), "a player holds priority"),
    Location("council", ("101.4",), "the council's choices, active player first"),
    Location("game_over", ("104.1",), "the game has ended", terminal=GAME_OVER),
)


def other(p: Any) -> Any:
    return 1 - p


def in_game(s: Any, p: Any, b: Backend) -> Any:
    """Player ``p`` (a seat, or a term naming one) has not left the game (104.5)."""
    if isinstance(p, int):
        return b.Not(b.Or(s.won[p], s.lost[p], s.drew[p]))
    return b.Not(b.Or(*(b.select(x, p, False) for x in (s.won, s.lost, s.drew))))


def game_is_over(s: Any, b: Backend) -> Any:
    """104.1: a player won or the game is a draw."""
    return b.Or(*s.won, *s.drew)


def seats(s: Any) -> int:
    """The players at the table of state ``s``."""
    return len(s.won)


def _each(s: Any, make: Callable[[int], Any]) -> tuple[Any, ...]:
    """One value per seat of ``s``'s table."""
    return tuple(make(p) for p in range(seats(s)))


def players_in_game(s: Any, b: Backend) -> Any:
    return b.count([in_game(s, p, b) for p in range(seats(s))])


def _by_seat(s: Any, p: Any, at: Callable[[int], Any], b: Backend) -> Any:
    """``at(p)`` for a seat ``p`` that may be a term: one case per seat."""
    if isinstance(p, int):
        return at(p)
    out = at(seats(s) - 1)
    for h in range(seats(s) - 2, -1, -1):
        out = b.If(p == h, at(h), out)
    return out


def first_from(s: Any, start: Any, wanted: Callable[[int], Any], b: Backend, skip_start: bool = False) -> Any:
    """The first player, in seat order from ``start`` (assumed:seat-order),
    for whom ``wanted`` holds; NOBODY if none does."""
    n = seats(s)

    def at(h: int) -> Any:
        out = NOBODY
        for k in range(n - 1, 0 if skip_start else -1, -1):
            q = (h + k) % n
            out = b.If(wanted(q), q, out)
        return out

    return _by_seat(s, start, at, b)


def next_in_game(s: Any, p: Any, b: Backend) -> Any:
    """The next player still in the game after seat ``p`` (assumed:seat-order).
    At two players the first to leave ends the game: it is the other."""
    if seats(s) == PLAYERS:
        return other(p)
    return first_from(s, p, lambda q: in_game(s, q, b), b, skip_start=True)


class HotaRules:
    """The table, its rule book, and what the edges read off a state."""

    def __init__(self, t: Table, book: RuleBook, loop_rule: bool = True, counts: Counts = Counts.exact()):
        self.t = t
        self.n = t.players
        self.book = book
        self.loop_rule = loop_rule
        self.counts = counts
        # Questions of the board alone, asked once (``RuleBook.fixed``).
        self.life = book.fixed("starting_life_total")
        self.tokens_vanish_at_check = book.fixed("state_actions_at_check")
        self.winning_loser_loses = book.fixed("wins_and_loses_at_once")
        self.all_losing_draw = book.fixed("all_lose_at_once")
        self.damage_marks = book.fixed("damage_becomes_markers")
        # Asked of nearly every state a search expands, and a function of a
        # few fields: kept by the fields they read, over arrays asked once a
        # case of those fields (``model/hota/cases.py``).
        self.priority_check = ByCase(self._priority_check)

    def has_ability(self, s: Any, b: Backend, e: int) -> Any:
        return entity_has_ability(self.book, s, b, e)

    def provides_value(self, s: Any, b: Backend, e: int) -> Any:
        """Entity ``e`` is on the battlefield and adds its attribute value to its controller's (106.2a)."""
        return b.And(b.Not(self.book.answer("leaves_with_its_player", s, b, e)),
                     self.book.answer("provides_attribute_value", s, b, e))

    def card_works(self, s: Any, b: Backend, card: str) -> Any:
        """Some entity that is this card has its ability."""
        return b.Or(*(self.has_ability(s, b, e) for e in self.t.holding(card)))

    def may_lose(self, s: Any, b: Backend, p: int, why: str) -> Any:
        return self.book.answer("loses_game", s, b, p, why)

    def may_win(self, s: Any, b: Backend, p: int, why: str) -> Any:
        return self.book.answer("wins_game", s, b, p, why)

    # -- 104: the outcome ------------------------------------------------------------

    def settle(self, s: Any, b: Backend, loses: tuple[Any, ...], wins: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """Losses and wins that happen at the same time, and what follows at once.

        104.3e: a player who wins and loses at once loses (``wins_and_loses_at_once``).
        104.4a: if every player still in the game loses at once, the game is a
        draw for them (``all_lose_at_once``), in place of their losses
        (``draw_replaces_losses``: 104.3b-c say they lose).
        104.5: losers leave. 104.2a: a player whose opponent has left wins.
        Then a game that ends with a winner ends as a loss for every other player
        still in it (the question ``loses_when_the_game_ends``: 104.1 is silent).
        """
        wins = wins or (False,) * seats(s)
        loses_now = _each(s, lambda p: b.And(in_game(s, p, b), loses[p]))
        wins_now = _each(s, lambda p: b.And(in_game(s, p, b), wins[p]))
        if self.winning_loser_loses:  # 104.3e
            loses, wins = loses_now, _each(s, lambda p: b.And(wins_now[p], b.Not(loses_now[p])))
        else:
            loses, wins = _each(s, lambda p: b.And(loses_now[p], b.Not(wins_now[p]))), wins_now
        everyone = b.And(*(b.Or(loses[p], b.Not(in_game(s, p, b))) for p in range(seats(s))), b.Or(*loses))
        if not self.all_losing_draw:  # 104.4a
            everyone = False
        drew = _each(s, lambda p: b.Or(s.drew[p], b.And(everyone, loses[p])))  # 104.4a
        # (Asked only where everyone loses: it reads every player's losses at the check.)
        instead = b.AndThen(everyone, lambda: self.book.answer("draw_replaces_losses", s, b))
        lost = _each(s, lambda p: b.Or(s.lost[p], b.And(loses[p], b.Not(instead))))
        after = s._replace(lost=lost, drew=drew)
        standing = _each(s,  # 104.2a
            lambda p: b.And(in_game(after, p, b), self.may_win(after, b, p, LAST_STANDING))
        )
        won = _each(s, lambda p: b.Or(s.won[p], wins[p], standing[p]))
        ended = after._replace(won=won)
        lost = _each(s, lambda p: b.Or(lost[p], self.book.answer("loses_when_the_game_ends", ended, b, p)))
        return {"won": won, "lost": lost, "drew": drew}

    def ends_the_game(self, s: Any, b: Backend, changes: dict[str, Any]) -> Any:
        return game_is_over(s._replace(**changes), b)

    # -- assumed:leaver-objects ----------------------------------------------------------------

    @staticmethod
    def trigger_of(t: Table, s: Any, waiting: Any, p: int, b: Backend) -> Any:
        """The waiting trigger is player ``p``'s (its entity's controller, 108.4)
        or waits for ``p``'s token."""
        out = []
        for base, cards in ((CULLING_WAITS, ("Culling Field",)), (t.echo_waits, ("Echo Chamber", "Whispering Echo"))):
            mine = b.Or(*(controls(t, s, i, p) for c in cards for i in t.holding(c)))
            out.append(b.And(waiting >= base, waiting < base + t.players, b.Or(waiting - base == p, mine)))
        return b.Or(*out)

    # -- assumed:priority, assumed:turn-end ---------------------------------------------------

    def last_to_pass(self, s: Any, b: Backend, last: bool) -> Any:
        """Is the holder's pass the last of a run by every player still in the
        game (the question ``turn_ends_on_pass``)?"""
        ends = self.book.answer("turn_ends_on_pass", s, b)
        return ends if last else b.Not(ends)

    def next_turn(self, s: Any, b: Backend) -> dict[str, Any]:
        """The turn ends (assumed:turn-end: silence and once-per-turn uses end) and
        the next player still in the game after the active one begins a turn
        (102.1, assumed:seat-order)."""
        n = len(self.t.entities)
        return {"passes": 0, "priority": NOBODY, "active": next_in_game(s, s.active, b), "first_turn": False,
                "used": (False,) * n, "silenced": (False,) * n}

    # -- assumed:priority-check ------------------------------------------------------------

    def _priority_check(self, s: Any, b: Backend) -> dict[str, Any]:
        """Everything the check does, all at once (``priority_check``)."""
        loses = _each(s, lambda p: loses_at_check(self.book, s, b, p))  # 104.3b, 104.3c
        return {
            **self.settle(s, b, loses),
            # 109.5f: tokens off the battlefield vanish, if the check is one of state actions.
            "tokens_elsewhere": (0,) * seats(s) if self.tokens_vanish_at_check else s.tokens_elsewhere,
            "drew_from_empty": _each(
                s, lambda p: b.And(s.drew_from_empty[p], self.book.answer("empty_library_loss_waits", s, b, p))
            ),
        }

    # -- 109.5e: Spirits one player controls and another owns -----------------------------

    def taken_at(self, controller: int, owner: int) -> int:
        """The place in ``tokens_taken`` of the Spirits ``controller`` took from ``owner``."""
        return controller * self.n + owner

    def own_tokens(self, s: Any, q: int) -> Any:
        """The Spirits player ``q`` controls and owns."""
        if not self.t.takes_tokens:
            return s.tokens[q]
        return s.tokens[q] - sum(s.tokens_taken[self.taken_at(q, o)] for o in range(self.n) if o != q)

    def token_leaves(self, s: Any, b: Backend, q: int, o: int) -> dict[str, Any]:
        """A Spirit ``q`` controls and ``o`` owns leaves the battlefield for its
        owner's hand, graveyard or exile (107.1), and its leaving triggers with
        ``q`` as the controller it had (109.5f)."""
        out = {"tokens": b.store(s.tokens, q, s.tokens[q] - 1),
               "tokens_elsewhere": b.store(s.tokens_elsewhere, o, s.tokens_elsewhere[o] + 1),
               "waiting": self.on_token_leaves(s, b, q)}
        if o != q:
            i = self.taken_at(q, o)
            out["tokens_taken"] = b.store(s.tokens_taken, i, s.tokens_taken[i] - 1)
        return out

    def token_moves(self, s: Any, b: Backend, giver: int, taker: int, o: int) -> dict[str, Any]:
        """A Spirit ``giver`` controls and ``o`` owns comes under ``taker``'s
        control (Mind Tether, Gift of Fealty); its owner stays (107.1)."""
        taken = s.tokens_taken
        if o != giver:
            taken = b.store(taken, self.taken_at(giver, o), taken[self.taken_at(giver, o)] - 1)
        if o != taker:
            taken = b.store(taken, self.taken_at(taker, o), taken[self.taken_at(taker, o)] + 1)
        return {"tokens": b.store(b.store(s.tokens, giver, s.tokens[giver] - 1), taker, s.tokens[taker] + 1),
                "tokens_taken": taken}

    def spirit_moves(self, s: Any, b: Backend) -> Any:
        """The question control_reaches_tokens: may an effect that moves an entity's control move a Spirit (109.5e)."""
        return self.book.answer("control_reaches_tokens", s, b)

    def spirits_of(self, q: int) -> Iterator[tuple[int, str, Callable[[Any], Any]]]:
        """The kinds of Spirit player ``q`` may control: by owner, with how an
        edge names it (``p1s_spirit``, ``p1s_p2s_spirit``) and its count."""
        yield q, f"{PLAYER_NAMES[q].lower()}s_spirit", lambda s: self.own_tokens(s, q)
        if self.t.takes_tokens:
            for o in (o for o in range(self.n) if o != q):
                i = self.taken_at(q, o)
                yield o, f"{PLAYER_NAMES[q].lower()}s_{PLAYER_NAMES[o].lower()}s_spirit", lambda s, i=i: s.tokens_taken[i]

    # -- triggers (assumed:trigger-order) -------------------------------------------------

    def on_token_enters(self, s: Any, b: Backend, p: Any) -> Any:
        """The waiting trigger after a token of ``p`` enters the battlefield."""
        return b.If(self.card_works(s, b, "Culling Field"), CULLING_WAITS + p, NO_TRIGGER)

    def create_spirit(self, s: Any, b: Backend, p: Any, now: Any) -> dict[str, Any]:
        """A 1/1 Spirit token of ``p`` (who has ``now``) enters the battlefield
        (109.5a), and its entering triggers. 109.5d: while a Warding Sigil
        with its ability (101.2a) says Spirits can't enter, none is created,
        so nothing enters and nothing triggers."""
        made = {"tokens": b.store(s.tokens, p, now + 1), "waiting": self.on_token_enters(s, b, p)}
        if not self.t.holding("Warding Sigil"):
            return made
        enters = b.Not(self.card_works(s, b, "Warding Sigil"))
        return {"tokens": b.store(s.tokens, p, b.If(enters, now + 1, now)),
                "waiting": b.If(enters, made["waiting"], NO_TRIGGER)}

    def on_token_leaves(self, s: Any, b: Backend, p: Any) -> Any:
        """The waiting trigger after a token of ``p`` leaves the battlefield (109.5f: before it vanishes)."""
        echo = b.Or(self.card_works(s, b, "Echo Chamber"), self.card_works(s, b, "Whispering Echo"))
        return b.If(echo, self.t.echo_waits + p, NO_TRIGGER)

    def in_mandatory_loop(self, s: Any, b: Backend) -> Any:
        """104.4b: the waiting trigger begins a loop of mandatory actions, so the
        game is a draw (the question ``loop_is_a_draw``)."""
        if not self.loop_rule:
            return False
        return self.book.answer("loop_is_a_draw", s, b)

    # -- 101.4: the council's order ----------------------------------------------------------

    def convene(self, s: Any, b: Backend, p: int) -> dict[str, Any]:
        """101.4: the council opens, the active player to choose first; where
        a played card can convene it too, the state keeps who did (108.4)."""
        out = {"chooser": s.active, "picked": (NOT_YET,) * seats(s), "answer": (NOT_YET,) * seats(s),
               "rechoosing": False}
        if self.t.council_convened_by_play and self.n > PLAYERS:
            out["convener"] = p
        return out

    def draw_one(self, s: Any, b: Backend, p: int) -> dict[str, Any]:
        """Player ``p`` draws a card (104.3c: from an empty library nothing, and the loss waits for the check)."""
        empty = s.library[p] == 0
        return {"library": b.store(s.library, p, b.If(empty, 0, s.library[p] - 1)),
                "hand": b.store(s.hand, p, b.If(empty, s.hand[p], s.hand[p] + 1)),
                "drew_from_empty": b.store(s.drew_from_empty, p, b.Or(s.drew_from_empty[p], empty))}

    def next_chooser(self, s: Any, b: Backend, picked: Any, answer: Any) -> Any:
        """The next player to choose, active player first, then the defending
        player (101.4); at a larger table the question ``chooses_next`` (the
        first, in seat order from the active player, still in the game, whose
        choices are not all made: assumed:seat-order); NOBODY when every
        choice stands."""
        a = s.active
        unfinished = lambda p: b.Or(picked[p] == NOT_YET, answer[p] == NOT_YET)  # noqa: E731
        if self.n == PLAYERS:
            return b.If(
                unfinished_at(a, unfinished, b),
                a,
                b.If(unfinished_at(other(a), unfinished, b), other(a), NOBODY),
            )
        made = s._replace(picked=picked, answer=answer)
        out = NOBODY
        for p in range(self.n - 1, -1, -1):
            out = b.If(self.book.answer("chooses_next", made, b, p), p, out)
        return out


def unfinished_at(p: Any, unfinished: Callable[[int], Any], b: Backend) -> Any:
    return b.Or(*(b.And(p == q, unfinished(q)) for q in range(PLAYERS)))


# ---------------------------------------------------------------------------
# The start of the game (103)


#: The state ``declared_or_not`` was asked last and its answer: every
#: declaration's guard and update asks it of one state. The state is held, so
#: its identity is not reused while it is kept.
_last_declared: list[Any] = [None, None]


def declared_or_not(s: Any, b: Backend) -> Any:
    """A concrete state with each mulligan count declared so far as 0: what
    the order of declarations reads (``tests/test_hota_recall.py`` holds
    ``declares_next`` to that)."""
    if b is not CONCRETE:
        return s
    if _last_declared[0] is not s:
        _last_declared[:] = [s, s._replace(declared=tuple(NOT_YET if d == NOT_YET else 0 for d in s.declared))]
    return _last_declared[1]


def _start_edges(t: Table, mulligan: int, counts: Counts, book: RuleBook) -> list[Edge]:
    edges = [
        Edge("shuffle_decks", "shuffle", "first_player", ("103.1",), tags=frozenset({MANDATORY, CHANCE}),
             doc="chance: each deck is shuffled; the counts stay as they are"),
    ]
    # 103.2: chance picks among the players in the game (at two, both are).
    in_it = (lambda p: lambda s, b: in_game(s, p, b)) if t.players > PLAYERS else (lambda p: always)
    for p in range(t.players):
        edges.append(
            Edge(f"{PLAYER_NAMES[p].lower()}_goes_first", "first_player", "opening_hands", ("103.2",),
                 guard=in_it(p), update=lambda s, b, p=p: {"first": p}, tags=frozenset({MANDATORY, CHANCE}),
                 doc=f"chance: {PLAYER_NAMES[p]} is the first player")
        )
    # 103.4: a player who left before the opening hands draws none (assumed:leaver-objects).
    drawing = (lambda s, b, p: in_game(s, p, b)) if t.players > PLAYERS else (lambda s, b, p: True)
    # Which named cards come, where the decks hold some (model/hota/plays.py).
    opening = [(p, lambda s, b, p=p: b.If(drawing(s, b, p), OPENING_HAND, 0),
                (0, OPENING_HAND) if t.players > PLAYERS else (OPENING_HAND,)) for p in range(t.players)]
    edges += [named for e in counts.counted(
        Edge("draw_opening_hands", "opening_hands", "mulligan", ("103.3", "103.4", "abstracted:anonymous-cards"),
             update=lambda s, b: {
                 "damage": (0,) * seats(s),  # 103.3: 30 life, no damage yet
                 "hand": _each(s, lambda p: b.If(drawing(s, b, p), OPENING_HAND, s.hand[p])),
                 "library": _each(s, lambda p: b.If(drawing(s, b, p), s.library[p] - OPENING_HAND, s.library[p])),
             },
             tags=frozenset({MANDATORY}), doc="each player draws seven"),
        *(("library", p, OPENING_HAND) for p in range(t.players)), "hand",
    ) for named in plays.drawing(t, e, opening)]

    # 103.4: the first player declares, then the opponent (at a larger table
    # the question ``declares_next``: the others still in the game, in seat
    # order, assumed:seat-order).
    # Asked by every declaration's guard and update: kept by the fields it
    # read (``model/hota/recall.py``), of the state with each count declared
    # so far as 0 (``declared_or_not``): who declares next turns on who has
    # declared (103.4), not on how many cards, and a count may be any of eight.
    @Recall
    def next_declarer(s: Any, b: Backend) -> Any:
        if t.players == PLAYERS:
            return b.If(b.select(s.declared, s.first) == NOT_YET, s.first, other(s.first))
        out = NOBODY
        for p in range(t.players - 1, -1, -1):
            out = b.If(book.answer("declares_next", s, b, p), p, out)
        return out

    def declarer(s: Any, b: Backend) -> Any:
        return next_declarer(declared_or_not(s, b), b)

    @Recall
    def all_declared(s: Any, b: Backend) -> Any:
        if t.players == PLAYERS:
            return b.And(*(d != NOT_YET for d in s.declared))
        return b.And(*(b.Or(d != NOT_YET, b.Not(in_game(s, p, b))) for p, d in enumerate(s.declared)))

    def everyone_declared(s: Any, b: Backend) -> Any:
        return all_declared(declared_or_not(s, b), b)

    # An exploration bound, not a rule: a declaration above ``mulligan`` is
    # left out, because a large one refills the library and lengthens the game.
    largest = mulligan
    for k in range(largest + 1):
        edges.append(
            Edge(f"declare_mulligan_{k}", "mulligan", "mulligan", ("103.4", "101.4"),
                 guard=lambda s, b, k=k: b.And(
                     s.first != NOBODY,
                     b.Not(everyone_declared(s, b)),
                     k <= b.select(s.hand, declarer(s, b)),
                 ),
                 update=lambda s, b, k=k: {"declared": b.store(s.declared, declarer(s, b), k)},
                 actor=declarer, tags=frozenset({CHOICE}),
                 doc=f"the player whose turn it is to declare will mulligan {k} cards")
        )

    def mulligan(s: Any, b: Backend) -> dict[str, Any]:
        # All who declared a count mulligan at once: set k aside, draw k (104.3c
        # if the library runs short), shuffle the k back. A player who left
        # mulligans nothing.
        declared = _each(s, lambda p: s.declared[p] if t.players == PLAYERS else
                         b.If(b.And(in_game(s, p, b), s.declared[p] > 0), s.declared[p], 0))
        drawn = _each(s, lambda p: b.If(declared[p] <= s.library[p], declared[p], s.library[p]))
        # 103.5: the first player's first turn begins; at a larger table the
        # question ``takes_first_turn`` says whose turn begins if that player
        # has left: no first player's first turn.
        first_in = in_game(s, s.first, b) if t.players > PLAYERS else True
        begins = s.first
        if t.players > PLAYERS:
            begins = NOBODY
            for p in range(t.players - 1, -1, -1):
                begins = b.If(book.answer("takes_first_turn", s, b, p), p, begins)
        return {
            "hand": _each(s, lambda p: s.hand[p] - declared[p] + drawn[p]),
            "library": _each(s, lambda p: s.library[p] - drawn[p] + declared[p]),
            "drew_from_empty": _each(s, lambda p: b.Or(s.drew_from_empty[p], declared[p] > s.library[p])),
            "declared": (NOT_YET,) * seats(s),
            "mulligan_done": True,
            "active": begins,
            "first_turn": first_in,
        }

    # With named cards each player's mulligan comes first, one at a time;
    # each leaves its declared count at 0 (model/hota/plays.py).
    done = (lambda s, b: True) if not t.names else (
        lambda s, b: b.And(*(b.Or(d <= 0, b.Not(in_game(s, p, b))) for p, d in enumerate(s.declared))))
    if t.names:
        edges += plays.mulligan_edges(t, largest, everyone_declared, in_game, frozenset({MANDATORY}))
    # A mulligan takes no more than the library holds and puts back as many:
    # at the cap it leaves the library where it was.
    edges += counts.counted(
        Edge("perform_mulligans", "mulligan", "draw_step", ("103.4", "103.5", "104.3c"),
             guard=lambda s, b: b.And(everyone_declared(s, b), b.Not(s.mulligan_done), done(s, b)),
             update=mulligan, tags=frozenset({MANDATORY}),
             doc="everyone who declared a count mulligans at once; the first player's turn begins"),
        "library", "hand",
    )
    return edges


# ---------------------------------------------------------------------------
# The turn (assumed:draw-step, assumed:priority, assumed:turn-end)


def _turn_edges(r: HotaRules) -> list[Edge]:
    def draw(s: Any, b: Backend) -> dict[str, Any]:
        a = s.active
        empty = b.select(s.library, a) == 0
        return {
            "library": b.store(s.library, a, b.If(empty, 0, b.select(s.library, a) - 1)),
            "hand": b.store(s.hand, a, b.If(empty, b.select(s.hand, a), b.select(s.hand, a) + 1)),
            "drew_from_empty": b.store(s.drew_from_empty, a, b.Or(b.select(s.drew_from_empty, a, False), empty)),
            "priority": a,
        }

    draws = lambda s, b: r.book.answer("draws_at_draw_step", s, b)  # noqa: E731
    turn_draw = Edge("draw_for_turn", "draw_step", "check", ("assumed:draw-step", "104.3c", "abstracted:anonymous-cards"),
                     guard=draws, update=draw, tags=frozenset({MANDATORY}),
                     doc="the active player draws a card (from an empty library: nothing, and the loss waits for the check)")
    # With named cards, which card the active player draws (model/hota/plays.py).
    named_draws = [x for p in range(r.n) for x in plays.drawing(
        r.t, turn_draw, [(p, lambda s, b, p=p: b.If(s.library[p] >= 1, 1, 0), (0, 1))],
        guard=lambda s, b, p=p: s.active == p)] if r.t.names else []
    edges = [
        *(named_draws or r.counts.counted(turn_draw, ("library", lambda s: s.active, 1), "hand")),
        Edge("skip_first_draw", "draw_step", "check", ("103.5a",),
             guard=lambda s, b: b.Not(draws(s, b)), update=lambda s, b: {"priority": s.active},
             tags=frozenset({MANDATORY}), doc="the first player skips the first turn's draw"),
    ]

    def active_stays(s: Any, b: Backend, ch: dict[str, Any]) -> Any:
        # At two players an active player who leaves ends the game.
        return in_game(s._replace(**ch), s.active, b) if r.n > PLAYERS else True

    check_rules = ("assumed:priority-check", "109.5f", "104.3b", "104.3c", "104.4a", "104.5", "104.2a", "104.1")
    for name, target, guard in (
        ("priority_check_ends_game", "game_over", lambda s, b, ch: r.ends_the_game(s, b, ch)),
        ("priority_check_then_trigger", "triggers",
         lambda s, b, ch: b.And(b.Not(r.ends_the_game(s, b, ch)), s.waiting != NO_TRIGGER)),
        ("priority_check_then_priority", "priority",
         lambda s, b, ch: b.And(b.Not(r.ends_the_game(s, b, ch)), s.waiting == NO_TRIGGER, active_stays(s, b, ch))),
    ):
        edges.append(
            Edge(name, "check", target, check_rules,
                 guard=lambda s, b, guard=guard: guard(s, b, r.priority_check(s, b)),
                 update=r.priority_check, tags=frozenset({MANDATORY, PRIORITY_CHECK}),
                 doc="the priority check: tokens vanish, losses by damage and by empty library, leaving, the outcome")
        )
    if r.n > PLAYERS:
        def turn_passes_on(s: Any, b: Backend) -> dict[str, Any]:
            ch = r.priority_check(s, b)
            return {**ch, **r.next_turn(s._replace(**ch), b)}

        edges += r.counts.counted(
            Edge("priority_check_then_next_turn", "check", "draw_step",
                 (*check_rules, "assumed:active-player-leaves", "assumed:turn-end", "assumed:seat-order"),
                 guard=lambda s, b: b.And(*(lambda ch: (b.Not(r.ends_the_game(s, b, ch)), s.waiting == NO_TRIGGER,
                                                        b.Not(active_stays(s, b, ch))))(r.priority_check(s, b))),
                 update=turn_passes_on, tags=frozenset({MANDATORY, PRIORITY_CHECK}),
                 doc="the priority check, after which nothing waits and the active player has left: "
                     "the next player still in the game begins a turn"),
            "hand",
        )

    holder = lambda s, b: s.priority  # noqa: E731
    edges += [
        Edge("pass_priority", "priority", "check", ("assumed:priority", "assumed:seat-order"),
             guard=lambda s, b: r.last_to_pass(s, b, False),
             update=lambda s, b: {"passes": s.passes + 1, "priority": next_in_game(s, s.priority, b)},
             actor=holder, doc="the player passes; the next player still in the game receives priority"),
        # The end of the first turn is where a capped hand starts to be counted up to its cap.
        *r.counts.counted(
            Edge("pass_ends_turn", "priority", "draw_step", ("assumed:priority", "assumed:turn-end", "102.1"),
                 guard=lambda s, b: r.last_to_pass(s, b, True),
                 update=r.next_turn, actor=holder,
                 doc="every player still in the game passed in succession: the turn ends and the next player's begins"),
            "hand",
        ),
    ]
    return edges


# ---------------------------------------------------------------------------
# The table's activated abilities (assumed:once-per-turn, assumed:resolve-at-once)


def _activations(r: HotaRules) -> Iterator[Edge]:
    t = r.t

    # A target is a player still in the game (104.5), an entity still on the
    # battlefield (109.1, assumed:leaver-objects): at two players, always.
    def target_in(q: int) -> Callable[..., Any] | None:
        return (lambda s, b: in_game(s, q, b)) if t.players > PLAYERS else None

    def on_battlefield(x: int) -> Callable[..., Any] | None:
        return (lambda s, b: b.Not(r.book.answer("leaves_with_its_player", s, b, x))) if t.players > PLAYERS else None

    # 109.2: only an entity's controller activates it; where Mind Tether moves
    # control, any player may come to control it, and its "you" is then that
    # player (108.4). Edges name a taken entity by its owner.
    for e, c in ((e, c) for e in t.activated for c in range(t.players) if t.control_moves or c == t.entities[e].owner):
        entity = t.entities[e]
        taken = c != entity.owner
        ref = f"{PLAYER_NAMES[entity.owner]}'s {entity.card}" if taken else entity.card
        base = f"{PLAYER_NAMES[c].lower()}_{slug(ref)}"

        def may_activate(s: Any, b: Backend, e: int = e, c: int = c) -> Any:
            mine = (controls(t, s, e, c),) if t.control_moves else ()
            return b.And(s.priority == c, *mine, b.Not(s.used[e]), r.has_ability(s, b, e))

        def resolved(s: Any, b: Backend, e: int = e, **changes: Any) -> dict[str, Any]:
            # After anything resolves the active player receives priority, after the check.
            return {"used": b.store(s.used, e, True), "passes": 0, "priority": s.active, **changes}

        def edge(name: str, rules: tuple[str, ...], update: Callable[..., dict[str, Any]], guard: Callable[..., Any] = None,
                 target: str = "check", tags: tuple[str, ...] = (), doc: str = "",
                 may_activate: Callable[..., Any] = may_activate, resolved: Callable[..., Any] = resolved,
                 label: str = entity.label + (f" under {PLAYER_NAMES[c]}'s control" if taken else ""),
                 c: int = c) -> Edge:
            extra = guard or (lambda s, b: True)
            return Edge(
                name, "priority", target, (*rules, "assumed:once-per-turn", "assumed:resolve-at-once", "assumed:no-costs"),
                guard=lambda s, b: b.And(may_activate(s, b), extra(s, b)),
                update=lambda s, b: resolved(s, b, **update(s, b)),
                actor=lambda s, b: c, tags=frozenset(tags), doc=f"{label}: {doc}",
            )

        card = entity.card
        if card == "Ember Bolt":
            for q in range(t.players):
                # Damage that puts no markers on the player changes nothing 100-109 read
                # (the question ``damage_becomes_markers``).
                yield edge(f"{base}_on_{PLAYER_NAMES[q].lower()}",
                           ("104.3b", "assumed:damage-markers", "abstracted:damage-at-starting-life"),
                           lambda s, b, q=q: {"damage": b.store(
                               s.damage, q, b.If(s.damage[q] + BOLT_DAMAGE >= r.life, r.life,
                                                 s.damage[q] + BOLT_DAMAGE))} if r.damage_marks else {},
                           guard=target_in(q), doc=f"deal {BOLT_DAMAGE} damage to {PLAYER_NAMES[q]}")
        elif card == "Tome of Ages":
            for q in range(t.players):
                def tome(s: Any, b: Backend, q: int = q) -> dict[str, Any]:
                    drawn = b.If(s.library[q] >= TOME_DRAW, TOME_DRAW, s.library[q])
                    return {
                        "library": b.store(s.library, q, s.library[q] - drawn),
                        "hand": b.store(s.hand, q, s.hand[q] + drawn),
                        "drew_from_empty": b.store(s.drew_from_empty, q, b.Or(s.drew_from_empty[q], s.library[q] < TOME_DRAW)),
                    }
                drawn = lambda s, b, q=q: b.If(s.library[q] >= TOME_DRAW, TOME_DRAW, s.library[q])  # noqa: E731
                for counted in r.counts.counted(
                    edge(f"{base}_on_{PLAYER_NAMES[q].lower()}", ("104.3c",), tome, guard=target_in(q),
                         doc=f"{PLAYER_NAMES[q]} draws {TOME_DRAW} (all that remain if fewer)"),
                    ("library", q, TOME_DRAW), "hand"):
                    yield from plays.drawing(t, counted, [(q, drawn, tuple(range(TOME_DRAW + 1)))])
        elif card == "Spirit Caller":
            yield from r.counts.counted(
                edge(base, ("109.5", "109.5a", "109.5d", "109.2", "109.2a", "107.1", "107.2", "108.1", "109.1"),
                     lambda s, b, c=c: r.create_spirit(s, b, c, s.tokens[c]),
                     tags=(CREATES_TOKEN,), doc="create a Spirit token under its controller's control"),
                "tokens")
        elif card == "Banishing Gale":
            # Only a player with a Spirit Caller, or one who took a Spirit, ever controls a token.
            for q in (q for q in range(t.players) if t.may_control_spirits(q)):
                for o, named, count in r.spirits_of(q):
                    yield from r.counts.counted(
                        edge(f"{base}_on_{named}", ("109.5f", "107.3", "109.1", *(("107.1",) if o != q else ())),
                             lambda s, b, q=q, o=o: r.token_leaves(s, b, q, o),
                             guard=lambda s, b, count=count: count(s) >= 1,
                             doc=f"return a Spirit {PLAYER_NAMES[q]} controls" + (f" and {PLAYER_NAMES[o]} owns" if o != q else "")
                                 + " to its owner's hand"),
                        ("tokens", q, 1), "tokens_elsewhere")
        elif card == "Rewind Portal":
            def rewind(s: Any, b: Backend, c: int = c, o: int = c) -> dict[str, Any]:
                back = r.book.answer("token_returns", s, b)  # 109.5g, 101.3: no
                # Where the return is impossible, whether the exile is still done
                # (101.3: the question omits_only_the_impossible_action): yes.
                exiled = b.And(b.Not(back), r.book.answer("omits_only_the_impossible_action", s, b))
                gone = r.token_leaves(s, b, c, o)
                return {
                    **{k: tuple(b.If(exiled, x, y) for x, y in zip(v, getattr(s, k)))
                       for k, v in gone.items() if k != "waiting"},
                    "waiting": b.If(b.Or(back, exiled), gone["waiting"], s.waiting),
                }
            # Its own Spirit, or one taken from another (an edge named by its owner).
            for o, named, count in r.spirits_of(c):
                yield from r.counts.counted(
                    edge(base if o == c else f"{base}_on_{named}", ("109.5g", "101.3", "109.5f"),
                         partial(rewind, o=o), guard=lambda s, b, count=count: count(s) >= 1,
                         doc="exile a token of its controller and return it: the return is skipped, the token stays exiled"),
                    ("tokens", c, 1), "tokens_elsewhere")
        elif card == "Silencing Rune":
            for x, target in enumerate(t.entities):
                if target.card in ACTIVATED:  # the card's text: target static or triggered entity
                    continue
                yield edge(f"{base}_on_{PLAYER_NAMES[target.controller].lower()}s_{slug(target.card)}",
                           ("101.2a", "109.1"), lambda s, b, x=x: {"silenced": b.store(s.silenced, x, True)},
                           guard=on_battlefield(x), doc=f"{target.label} loses its abilities until the end of the turn")
        elif card == "Pact of Victory":
            yield from _outcome_edges(r, base, c, edge, wins=c, loses=None, rules=("104.2b", "101.2"))
        elif card == "Curse of Ruin":
            for q in range(t.players):
                yield from _outcome_edges(r, f"{base}_on_{PLAYER_NAMES[q].lower()}", c, edge, wins=None, loses=q,
                                          rules=("104.3d", "101.2"), guard=target_in(q))
        elif card == "Twin Fates":
            for q in range(t.players):
                yield from _outcome_edges(r, f"{base}_on_{PLAYER_NAMES[q].lower()}", c, edge, wins=c, loses=q,
                                          rules=("104.2b", "104.3d", "104.3e", "101.2"), guard=target_in(q))
        elif card == "Truce Banner":
            yield edge(base, ("104.4c", "104.5"),
                       lambda s, b: {"drew": _each(s, lambda p: b.Or(s.drew[p], in_game(s, p, b)))},
                       target="game_over", doc="the game is a draw")
        elif card == "Mind Tether":
            for x, other_entity in enumerate(t.entities):
                if x == e:
                    continue
                present = on_battlefield(x) or always

                def tether(s: Any, b: Backend, x: int = x, c: int = c) -> dict[str, Any]:
                    return {"controller": b.store(s.controller, x, c)}

                yield edge(f"{base}_on_{PLAYER_NAMES[other_entity.owner].lower()}s_{slug(other_entity.card)}",
                           ("107.1", "107.2", "108.4", "109.2"), tether,
                           guard=lambda s, b, x=x, c=c, present=present: b.And(s.controller[x] != c, present(s, b)),
                           doc=f"gain control of {other_entity.label}, which an opponent controls; its owner stays")
            # A Spirit an opponent controls, where the question control_reaches_tokens says it is an entity to take.
            for q in (q for q in range(t.players) if q != c and t.takes_tokens and t.may_control_spirits(q)):
                for o, named, count in r.spirits_of(q):
                    yield from r.counts.counted(
                        edge(f"{base}_on_{named}", ("109.5e", "109.1", "107.1", "107.2", "108.4"),
                             lambda s, b, q=q, o=o, c=c: r.token_moves(s, b, q, c, o),
                             guard=lambda s, b, count=count: b.And(count(s) >= 1, r.spirit_moves(s, b)),
                             doc=f"gain control of a Spirit {PLAYER_NAMES[q]} controls and {PLAYER_NAMES[o]} owns; its owner stays"),
                        ("tokens", q, 1), "tokens")
        elif card == "Council of Elders":
            yield edge(base, ("101.4",), lambda s, b, c=c: r.convene(s, b, c),
                       target="council", doc="each player, active player first, chooses a card and an answer")
        else:  # pragma: no cover - table.ACTIVATED lists exactly the cases above
            raise ValueError(f"no edge for {card}")


def _outcome_edges(r: HotaRules, name: str, c: int, edge: Callable[..., Edge], wins: int | None, loses: int | None,
                   rules: tuple[str, ...], guard: Callable[..., Any] | None = None) -> Iterator[Edge]:
    """An effect that says a player wins or loses (104.2b, 104.3d), at once and
    at the same time: one edge where the game ends (104.1), one where play
    goes on, because a "can't" stops all of it (101.2) or, at a table of more
    than two, the loser leaves and others stay (104.5)."""
    target = guard or (lambda s, b: True)

    @ByCase
    def outcome(s: Any, b: Backend) -> dict[str, Any]:
        return r.settle(
            s, b,
            loses=_each(s, lambda p: r.may_lose(s, b, p, EFFECT) if p == loses else False),
            wins=_each(s, lambda p: r.may_win(s, b, p, EFFECT) if p == wins else False),
        )

    tags = tuple(tag for tag, present in ((WIN_EFFECT, wins is not None), (LOSS_EFFECT, loses is not None)) if present)
    yield edge(name, rules, outcome, guard=lambda s, b: b.And(target(s, b), r.ends_the_game(s, b, outcome(s, b))),
               target="game_over", tags=tags, doc="the effect ends the game")
    # Play goes on where the win is stopped, by a Gatekeeper of the winner's
    # opponent (or by 104.3e, for Twin Fates on oneself), and the loss is
    # stopped, by the loser's Aegis, or leaves others in a game of more than two.
    t = r.t
    stopped_win = wins is None or any(t.controlled_by("Gatekeeper", q) for q in range(t.players) if q != wins)
    larger = t.players > PLAYERS
    if (stopped_win or (larger and wins == loses)) and (
        loses is None or t.controlled_by("Aegis of Immortality", loses) or larger
    ):
        yield edge(f"{name}_stopped", (*rules, "104.5") if larger else rules, outcome,
                   guard=lambda s, b: b.And(target(s, b), b.Not(r.ends_the_game(s, b, outcome(s, b)))), tags=tags,
                   doc="the game goes on: a 'can't' stops the effect, or the loser leaves and others stay" if larger
                   else "a 'can't' stops the effect; play goes on")


# ---------------------------------------------------------------------------
# 101.4: the council


def _council_edges(r: HotaRules) -> list[Edge]:
    chooser = lambda s, b: s.chooser  # noqa: E731

    def card_choice(s: Any, b: Backend) -> Any:
        return b.And(s.chooser != NOBODY, b.select(s.picked, s.chooser) == NOT_YET)

    def chooses(s: Any, b: Backend) -> Any:
        return b.Or(*(b.And(s.chooser == p, r.book.answer("chooses_a_card", s, b, p)) for p in range(r.n)))

    def answer_due(s: Any, b: Backend) -> Any:
        # 101.4c: the answer comes after the card, in the order written;
        # 101.4d: or again, for the active player, after a defender refused.
        mine = b.select(s.answer, s.chooser)
        return b.And(s.chooser != NOBODY, b.select(s.picked, s.chooser) != NOT_YET,
                     b.Or(mine == NOT_YET, b.And(s.rechoosing, s.chooser == s.active)))

    def answering(value: int) -> Callable[[Any, Backend], dict[str, Any]]:
        def update(s: Any, b: Backend) -> dict[str, Any]:
            answer = b.store(s.answer, s.chooser, value)
            # 101.4d: the active player chooses again, then the choices still to
            # be made go on, active player first.
            restart = r.book.answer("active_player_chooses_anew", s, b, value)
            return {
                "answer": answer,
                "rechoosing": restart,
                "chooser": b.If(restart, s.active, r.next_chooser(s, b, s.picked, answer)),
            }
        return update

    def staying(s: Any, b: Backend) -> Callable[[int], Any]:
        # The choices of a player who has left since take no effect (104.5).
        return (lambda p: in_game(s, p, b)) if r.n > PLAYERS else (lambda p: True)

    def accepted(s: Any, b: Backend, p: int) -> Any:
        return b.And(staying(s, b)(p), s.answer[p] == ACCEPT)

    def takes_effect(s: Any, b: Backend) -> dict[str, Any]:
        # 101.4: every choice takes effect at once: the chosen cards are
        # discarded, then each player who accepted draws a card (104.3c).
        hand = _each(s, lambda p: s.hand[p] - b.If(b.And(staying(s, b)(p), s.picked[p] == PICKED), 1, 0))
        draws = _each(s, lambda p: b.And(accepted(s, b, p), s.library[p] >= 1))
        named = plays.discard_chosen(r.t, s, b, staying(s, b)) if r.t.names else {}
        ended = {"convener": NOBODY} if r.t.council_convened_by_play and r.n > PLAYERS else {}
        return {
            **named, **ended,
            "hand": _each(s, lambda p: hand[p] + b.If(draws[p], 1, 0)),
            "library": _each(s, lambda p: s.library[p] - b.If(draws[p], 1, 0)),
            "drew_from_empty": _each(
                s, lambda p: b.Or(s.drew_from_empty[p], b.And(accepted(s, b, p), s.library[p] == 0))
            ),
            "picked": (NOT_YET,) * seats(s), "answer": (NOT_YET,) * seats(s),
            "rechoosing": False, "chooser": NOBODY,
        }

    # With named cards, an unnamed card is chosen by this edge and each named
    # one by its own (model/hota/plays.py).
    unnamed = plays.has_unnamed(r.t) if r.t.names else (lambda s, b: True)
    council_draws = [(p, lambda s, b, p=p: b.If(b.And(accepted(s, b, p), s.library[p] >= 1), 1, 0), (0, 1))
                     for p in range(r.n)]
    return [
        Edge("council_chooses_a_card", "council", "council", ("101.4", "101.4a", "101.4c"),
             guard=lambda s, b: b.And(card_choice(s, b), chooses(s, b), unnamed(s, b)),
             update=lambda s, b: {"picked": b.store(s.picked, s.chooser, PICKED)},
             actor=chooser, tags=frozenset({CHOICE}), doc="the chooser picks a card in hand, face down"),
        *plays.council_choices(r.t, chooses, card_choice, chooser, frozenset({CHOICE})),
        Edge("council_skips_the_card", "council", "council", ("101.3", "101.4c"),
             guard=lambda s, b: b.And(card_choice(s, b), b.Not(chooses(s, b))),
             update=lambda s, b: {"picked": b.store(s.picked, s.chooser, SKIPPED)},
             tags=frozenset({MANDATORY, CHOICE}), doc="an empty hand: the card choice is impossible and skipped"),
        Edge("council_accepts", "council", "council", ("101.4", "101.4c", "101.4d", "assumed:seat-order"),
             guard=answer_due, update=answering(ACCEPT), actor=chooser, tags=frozenset({CHOICE}),
             doc="the chooser accepts, in public"),
        Edge("council_refuses", "council", "council", ("101.4", "101.4c", "101.4d", "assumed:seat-order"),
             guard=answer_due, update=answering(REFUSE), actor=chooser, tags=frozenset({CHOICE}),
             doc="the chooser refuses, in public"),
        *(named for counted in r.counts.counted(
            Edge("council_takes_effect", "council", "check", ("101.4", "104.3c", "assumed:resolve-at-once"),
                 guard=lambda s, b: s.chooser == NOBODY, update=takes_effect, tags=frozenset({MANDATORY}),
                 doc="every choice stands: the chosen cards are discarded and those who accepted draw"),
            *(("library", p, 1) for p in range(r.n)), *(("hand", p, 1) for p in range(r.n)),
        ) for named in plays.drawing(r.t, counted, council_draws)),
    ]


# ---------------------------------------------------------------------------
# Triggered abilities (assumed:trigger-order) and 104.4b


def _trigger_edges(r: HotaRules) -> list[Edge]:
    def whose(s: Any, base: int) -> Any:
        return s.waiting - base

    # The triggers' guards and updates read a few fields (the trigger, the
    # tokens, the silenced entities, who is in the game): over arrays each is
    # asked once a case of them (``model/hota/cases.py``).
    @ByCase
    def culling(s: Any, b: Backend) -> dict[str, Any]:
        p = whose(s, CULLING_WAITS)
        # 101.3: nothing to destroy if it is gone; and it leaves the battlefield
        # only where destroying moves it (the question ``destroyed_token_leaves``).
        there = b.And(b.select(s.tokens, p) >= 1, r.book.answer("destroyed_token_leaves", s, b))
        return {
            "tokens": b.store(s.tokens, p, b.If(there, b.select(s.tokens, p) - 1, b.select(s.tokens, p))),
            "tokens_elsewhere": b.store(s.tokens_elsewhere, p, b.If(there, b.select(s.tokens_elsewhere, p) + 1,
                                                                    b.select(s.tokens_elsewhere, p))),
            "waiting": b.If(there, r.on_token_leaves(s, b, p), NO_TRIGGER),
        }

    @ByCase
    def echo(s: Any, b: Backend) -> dict[str, Any]:
        # "That token's controller" creates the Spirit, if the token that left
        # still has one (the question ``left_token_has_controller``, 107.3);
        # if not, 101.3 skips the instruction.
        p = whose(s, r.t.echo_waits)
        # Its creator controls the Spirit, or else the echo's owner (the
        # question ``echo_spirit_to_creator``, 109.5a against 107.2).
        echo_owner = r.t.entities[(*r.t.holding("Echo Chamber"), *r.t.holding("Whispering Echo"))[0]].owner
        to = b.If(r.book.answer("echo_spirit_to_creator", s, b), p, echo_owner)
        made = r.create_spirit(s, b, to, b.select(s.tokens, to))
        named = r.book.answer("left_token_has_controller", s, b)
        return {"tokens": tuple(b.If(named, x, y) for x, y in zip(made["tokens"], s.tokens)),
                "waiting": b.If(named, made["waiting"], NO_TRIGGER)}

    def waiting(kind: int, card: str) -> Callable[[Any, Backend], Any]:
        return ByCase(lambda s, b: b.And(s.waiting >= kind, s.waiting < kind + r.n, r.card_works(s, b, card),
                                         b.Not(r.in_mandatory_loop(s, b))))

    echo_owner = lambda s, b: s.waiting - r.t.echo_waits  # noqa: E731
    # Each edge, with the counts it changes (``Counts.counted``).
    edges = [
        (Edge("culling_field_destroys", "triggers", "check", ("assumed:trigger-order", "109.5f", "assumed:destroy"),
              guard=waiting(CULLING_WAITS, "Culling Field"), update=culling, tags=frozenset({MANDATORY}),
              doc="Culling Field destroys the token that entered"),
         (("tokens", lambda s: whose(s, CULLING_WAITS), 1), "tokens_elsewhere")),
        (Edge("echo_chamber_creates", "triggers", "check", ("assumed:trigger-order", "109.5a", "109.5d", "109.2a", "107.3"),
              guard=waiting(r.t.echo_waits, "Echo Chamber"), update=echo, tags=frozenset({MANDATORY, CREATES_TOKEN}),
              doc="Echo Chamber: the controller of the token that left creates a Spirit"),
         ("tokens",)),
        (Edge("whispering_echo_creates", "triggers", "check", ("assumed:trigger-order", "109.5a", "109.5d", "109.2a", "107.3"),
              guard=waiting(r.t.echo_waits, "Whispering Echo"), update=echo, actor=echo_owner,
              tags=frozenset({CREATES_TOKEN}), doc="Whispering Echo: that player chooses to create a Spirit"),
         ("tokens",)),
        (Edge("whispering_echo_declines", "triggers", "check", ("assumed:trigger-order",),
              guard=waiting(r.t.echo_waits, "Whispering Echo"), update=lambda s, b: {"waiting": NO_TRIGGER},
              actor=echo_owner, doc="Whispering Echo: that player chooses not to"),
         ()),
        (Edge("mandatory_loop_draw", "triggers", "game_over", ("104.4b", "104.5"),
              guard=ByCase(r.in_mandatory_loop),
              update=lambda s, b: {"drew": _each(s, lambda p: b.Or(s.drew[p], in_game(s, p, b)))},
              tags=frozenset({MANDATORY, LOOP_DRAW}),
              doc="the waiting trigger begins a loop of mandatory actions that cannot stop: the game is a draw"),
         ()),
    ]
    # Only the triggers of the table's cards can wait, and the loop needs both of its pieces.
    needs = {
        "culling_field_destroys": ("Culling Field",),
        "echo_chamber_creates": ("Echo Chamber",),
        "whispering_echo_creates": ("Whispering Echo",),
        "whispering_echo_declines": ("Whispering Echo",),
        "mandatory_loop_draw": ("Culling Field", "Echo Chamber"),
    }
    return [
        counted
        for e, counts in edges
        if all(r.t.holding(card) for card in needs[e.name]) and (r.loop_rule or not e.has(LOOP_DRAW))
        for counted in r.counts.counted(e, *counts)
    ]


# ---------------------------------------------------------------------------
# 104.3a: conceding, at any time


#: Where a player decides: at a table of more than two, the places a concession is taken.
DECIDING = ("shuffle", "first_player", "mulligan", "priority", "council", "triggers")
CONCESSION_RULES = ("104.3a", "101.1", "104.5", "104.2a")


def _concession_edges(r: HotaRules, locations: tuple[str, ...]) -> list[Edge]:
    edges = []

    # A concession's outcome, asked by every concession edge's update (and at
    # a table of more than two its guard) in every state: kept by the fields
    # it read, over arrays asked once a case of them (``model/hota/cases.py``).
    @ByCase
    def conceding(s: Any, b: Backend, p: int) -> dict[str, Any]:
        return r.settle(s, b, loses=_each(s, lambda q: r.may_lose(s, b, q, CONCESSION) if q == p else False))

    for loc in LOCATIONS:
        if loc.terminal or loc.name not in locations or (r.n > PLAYERS and loc.name not in DECIDING):
            continue
        for p in range(r.n):
            def concede(s: Any, b: Backend, p: int = p) -> dict[str, Any]:
                return conceding(s, b, p)

            def guard(s: Any, b: Backend, p: int = p) -> Any:
                if r.n == PLAYERS:  # two players: the game ends (104.2a)
                    return in_game(s, p, b)
                return b.And(in_game(s, p, b), r.ends_the_game(s, b, concede(s, b, p)))

            name = f"{PLAYER_NAMES[p].lower()}_concedes_at_{loc.name}"
            edges.append(
                Edge(name, loc.name, "game_over", CONCESSION_RULES, guard=guard, update=concede,
                     actor=lambda s, b, p=p: p, tags=frozenset({CONCEDES}),
                     doc=f"{PLAYER_NAMES[p]} concedes, leaves and loses")
            )
            if r.n > PLAYERS:
                edges += _play_goes_on(r, loc.name, p, name, concede)
    return edges


def _play_goes_on(r: HotaRules, loc: str, p: int, name: str, concede: Callable[..., dict[str, Any]]) -> list[Edge]:
    """A concession at a table of more than two after which others stay: what
    was under way goes on without the leaver (104.5, assumed:leaver-objects)."""
    who = PLAYER_NAMES[p]

    def goes_on(s: Any, b: Backend) -> Any:
        return b.And(in_game(s, p, b), b.Not(r.ends_the_game(s, b, concede(s, b, p))))

    def edge(suffix: str, target: str, rules: tuple[str, ...], when: Callable[..., Any],
             update: Callable[[Any, Any, dict[str, Any]], dict[str, Any]], doc: str) -> Edge:
        def changes(s: Any, b: Backend) -> dict[str, Any]:
            ch = concede(s, b, p)
            return {**ch, **update(s, b, ch)}
        return Edge(f"{name}_{suffix}", loc, target, (*CONCESSION_RULES, "assumed:leaver-objects", *rules),
                    guard=lambda s, b: b.And(goes_on(s, b), when(s, b)), update=changes,
                    actor=lambda s, b: p, tags=frozenset({CONCEDES}), doc=f"{who} concedes and leaves; {doc}")

    anyway = lambda s, b: True  # noqa: E731
    unchanged = lambda s, b, ch: {}  # noqa: E731
    if loc in ("shuffle", "first_player", "mulligan"):
        # 103.2: chance picks among those still in; 103.4: the others declare.
        return [edge("and_play_goes_on", loc, ("103.2", "103.4"), anyway, unchanged, "the others go on")]
    if loc == "priority":
        def after(s: Any, ch: dict[str, Any]) -> Any:
            return s._replace(**ch)

        def had_passed(s: Any, b: Backend) -> Any:
            # The passes in succession are those of the players just before the
            # holder, in seat order among those still in the game.
            def at(h: int) -> Any:
                between = [(p + k) % r.n for k in range(1, (h - p) % r.n)]
                return b.count([in_game(s, q, b) for q in between]) + 1 <= s.passes
            return _by_seat(s, s.priority, at, b)

        holder_not_active = lambda s, b: b.And(s.priority == p, s.active != p)  # noqa: E731
        all_passed = lambda s, b: s.passes == players_in_game(after(s, concede(s, b, p)), b)  # noqa: E731
        return [
            *r.counts.counted(edge("turn_passes_on", "draw_step", ("assumed:active-player-leaves", "assumed:turn-end"),
                                   lambda s, b: s.active == p, lambda s, b, ch: r.next_turn(after(s, ch), b),
                                   "the active player's turn ends and the next player's begins"), "hand"),
            *r.counts.counted(edge("turn_ends", "draw_step", ("assumed:priority", "assumed:turn-end"),
                                   lambda s, b: b.And(holder_not_active(s, b), all_passed(s, b)),
                                   lambda s, b, ch: r.next_turn(after(s, ch), b),
                                   "every player still in the game has passed: the turn ends"), "hand"),
            edge("priority_passes_on", "check", ("assumed:priority", "assumed:seat-order"),
                 lambda s, b: b.And(holder_not_active(s, b), b.Not(all_passed(s, b))),
                 lambda s, b, ch: {"priority": next_in_game(after(s, ch), p, b)},
                 "priority passes to the next player still in the game"),
            edge("and_play_goes_on", "priority", ("assumed:priority",),
                 lambda s, b: b.And(s.priority != p, s.active != p),
                 lambda s, b, ch: {"passes": s.passes - b.If(had_passed(s, b), 1, 0)},
                 "the holder keeps priority; a pass the leaver made no longer counts"),
        ]
    if loc == "council":
        # With one Council of Elders at the table, its controller convened the
        # council (no one activates anything while it chooses); where a played
        # card can convene it, the state says who did.
        if r.t.council_convened_by_play:
            convenes = lambda s, b: s.convener == p  # noqa: E731
            may_convene = True
        else:
            council = r.t.holding("Council of Elders")[0]
            convenes = lambda s, b: controls(r.t, s, council, p)  # noqa: E731
            may_convene = r.t.control_moves or r.t.entities[council].owner == p
        ended = {"convener": NOBODY} if r.t.council_convened_by_play else {}
        out = []
        if may_convene:
            out.append(edge("council_ends", "check", ("assumed:resolve-at-once",), convenes,
                            lambda s, b, ch: {"chooser": NOBODY, "picked": (NOT_YET,) * r.n, "answer": (NOT_YET,) * r.n,
                                              "rechoosing": False, "priority": s.active, "passes": 0, **ended,
                                              **({"chosen": (NOBODY,) * r.n} if r.t.names else {})},
                            "the council they convened ends with them, and the active player receives priority"))

        def council_goes_on(s: Any, b: Backend, ch: dict[str, Any]) -> dict[str, Any]:
            chooser = r.next_chooser(s._replace(**ch), b, s.picked, s.answer)
            return {"chooser": b.If(s.chooser == p, chooser, s.chooser),
                    "rechoosing": b.And(s.rechoosing, s.chooser != p)}
        if r.t.council_convened_by_play or r.t.control_moves or r.t.entities[council].owner != p:
            out.append(edge("and_play_goes_on", "council", ("101.4", "assumed:seat-order"),
                            lambda s, b: b.Not(convenes(s, b)), council_goes_on, "the other players' choices go on"))
        return out
    # triggers: a trigger of the leaver's, or for the leaver's token, leaves with them.
    return [
        edge("trigger_leaves_with_them", "check", ("assumed:trigger-order",),
             lambda s, b: r.trigger_of(r.t, s, s.waiting, p, b), unchanged, "the trigger waiting leaves with them"),
        edge("and_play_goes_on", "triggers", ("assumed:trigger-order",),
             lambda s, b: b.Not(r.trigger_of(r.t, s, s.waiting, p, b)), unchanged, "the trigger still waits"),
    ]


def _leavers_take_their_objects(e: Edge, t: Table) -> Edge:
    """An edge after which a player may have left a game that goes on: the
    tokens, the entities' marks and the waiting trigger of every player who
    left on it go with them (104.5, assumed:leaver-objects). Their entities'
    abilities are gone with them too (``leaves_with_its_player``)."""
    owners = [x.owner for x in t.entities]

    @Recall
    def update(s: Any, b: Backend, inner: Callable[..., dict[str, Any]] = e.update) -> dict[str, Any]:
        after = dict(inner(s, b))
        post = s._replace(**after)
        gone = [b.And(in_game(s, p, b), b.Not(in_game(post, p, b))) for p in range(t.players)]
        for name in ("tokens", "tokens_elsewhere"):
            after[name] = tuple(b.If(gone[p], 0, x) for p, x in enumerate(getattr(post, name)))
        if t.takes_tokens:
            # A Spirit another player took leaves with its owner too.
            n = t.players
            taken = post.tokens_taken
            after["tokens"] = tuple(b.If(gone[c], 0, x - b.total([b.If(gone[o], taken[c * n + o], 0) for o in range(n) if o != c]))
                                    for c, x in enumerate(post.tokens))
            after["tokens_taken"] = tuple(b.If(b.Or(gone[i // n], gone[i % n]), 0, x) for i, x in enumerate(taken))
        # An entity leaves with its owner or its controller; what it was left at, its start.
        went = [b.Or(gone[owners[i]], *(b.And(gone[p], controls(t, post, i, p)) for p in range(t.players)))
                for i in range(len(owners))]
        for name in ("used", "silenced"):
            after[name] = tuple(b.If(went[i], False, x) for i, x in enumerate(getattr(post, name)))
        if t.control_moves:
            after["controller"] = tuple(b.If(went[i], owners[i], x) for i, x in enumerate(post.controller))
        belongs = b.Or(*(b.And(gone[p], HotaRules.trigger_of(t, post, post.waiting, p, b)) for p in range(t.players)))
        after["waiting"] = b.If(belongs, NO_TRIGGER, post.waiting)
        return after

    return replace(e, update=update, rules=(*e.rules, *(() if "assumed:leaver-objects" in e.rules else ("assumed:leaver-objects",))))


# ---------------------------------------------------------------------------
# The machine


def variables(t: Table, life: int = STARTING_LIFE, counts: Counts = Counts.exact()) -> list[Var]:
    n, entities, last = t.players, len(t.entities), t.players - 1
    # Counted exactly, the deck bounds every count; with caps, a library
    # starts at its cap: a deck of that many cards or more.
    library, hand = counts.top("library", t.deck), counts.top("hand", t.deck)
    tokens, elsewhere = counts.top("tokens", t.deck), counts.top("tokens_elsewhere", t.deck)
    return [
        Var("first", IntRange(-1, last), (NOBODY,), doc="the first player (103.2)"),
        Var("active", IntRange(-1, last), (NOBODY,), doc="whose turn it is (102.1)"),
        Var("first_turn", BOOL, (False,), doc="this is the first player's first turn (103.5a)"),
        Var("priority", IntRange(-1, last), (NOBODY,), doc="who holds priority, or receives it after the check"),
        Var("passes", IntRange(0, last), (0,), doc="passes in succession"),
        Var("library", IntRange(0, library), (), length=n, start=(library,) * n if counts.capped else t.sizes,
            doc="cards in each library"),
        Var("hand", IntRange(0, hand), (), length=n, start=(0,) * n, doc="cards in each hand"),
        Var("damage", IntRange(0, life), (0,), length=n, doc="damage markers, up to the starting life (starting_life_total)"),
        Var("drew_from_empty", BOOL, (False,), length=n, doc="tried to draw from too small a library since the last check"),
        Var("won", BOOL, (False,), length=n),
        Var("lost", BOOL, (False,), length=n),
        Var("drew", BOOL, (False,), length=n, doc="the game is a draw for this player"),
        Var("declared", IntRange(-1, OPENING_HAND), (NOT_YET,), length=n, doc="declared mulligan counts"),
        Var("mulligan_done", BOOL, (False,)),
        Var("tokens", IntRange(0, tokens), (0,), length=n, doc="Spirit tokens on the battlefield, by controller"),
        Var("tokens_elsewhere", IntRange(0, elsewhere), (0,), length=n, doc="tokens off the battlefield, by owner"),
        # Only where Mind Tether may take a Spirit (109.5e); elsewhere each controls only Spirits they own.
        *([Var("tokens_taken", IntRange(0, tokens), (0,), length=n * n,
               doc="of the Spirits each player controls, how many each other player owns (controller * players + owner)")]
          if t.takes_tokens else []),
        Var("waiting", IntRange(-1, t.echo_waits + last), (NO_TRIGGER,), doc="the triggered ability waiting"),
        Var("used", BOOL, (False,), length=entities, doc="each entity's ability used this turn"),
        Var("silenced", BOOL, (False,), length=entities, doc="each entity lost its abilities until the end of the turn"),
        Var("chooser", IntRange(-1, last), (NOBODY,), doc="the council player to choose next"),
        Var("picked", IntRange(-1, 1), (NOT_YET,), length=n, doc="council card choices"),
        Var("answer", IntRange(-1, 1), (NOT_YET,), length=n, doc="council answers"),
        Var("rechoosing", BOOL, (False,), doc="the active player answers again (101.4d)"),
        # Only where Mind Tether moves control (107.2, 109.2); elsewhere each owner controls its entities.
        *([Var("controller", IntRange(0, last), (), length=entities, start=tuple(x.owner for x in t.entities),
               doc="who controls each entity (its owner unless an effect gave it to another)")]
          if t.control_moves else []),
        *plays.variables(t),
    ]


def build(deck: int = 7, mulligan: int = 1, table: Table | None = None, without: tuple[str, ...] = (),
          loop_rule: bool = True, reading: str | None = None, any_length: bool = False, players: int = PLAYERS) -> Machine:
    """The model at these bounds, for the table given or the default one.

    ``loop_rule=False`` leaves 104.4b out: triggers resolve even inside a loop
    of mandatory actions, so the loops the rule ends can be seen
    (``checkers/hota_loops.py``). ``reading`` names a reading of the sources
    (``"004"``, the only one, is the model's own).

    ``any_length`` builds the model of games of every deck size, for
    unbounded proofs: libraries, hands and tokens are counted up to caps
    (``model/hota/counts.py``), so ``deck`` bounds nothing there. Each cap
    is an entry ``abstracted:...`` of the registry that says why the model
    still has every run of the game, perhaps more.

    ``players`` seats two to four at the default table; a table given says
    how many it seats."""
    t = table if table is not None else default_table(deck, players)
    if any_length and t.takes_tokens:
        # Counted up to a cap, a player's Spirits cannot say how many of them another owns.
        raise TableError("the model of games of any length counts Spirits up to a cap, so it cannot keep whose a Spirit "
                         "Mind Tether or Gift of Fealty moved is: build a table with either and Spirit Caller bounded")
    book = rulebook(t, without, reading)
    counts = Counts.any_length(t, mulligan) if any_length else Counts.exact()
    r = HotaRules(t, book, loop_rule, counts)
    edges = [
        *_start_edges(t, mulligan, counts, book),
        *_turn_edges(r),
        *_activations(r),
        *plays.play_edges(t, r.provides_value, in_game, r.convene, r.draw_one, r.spirits_of, r.token_moves, r.spirit_moves),
        *(_council_edges(r) if t.holding("Council of Elders") or t.council_convened_by_play else ()),
        *_trigger_edges(r),
    ]
    edges += _concession_edges(r, tuple({e.source for e in edges}))
    state = variables(t, r.life, counts)
    if t.players > PLAYERS:
        leaving = {CONCEDES, LOSS_EFFECT, PRIORITY_CHECK}
        edges = [_leavers_take_their_objects(e, t) if e.tags & leaving and e.target != "game_over" else e for e in edges]
    edges = [_ending(e, state) if e.target == "game_over" else e for e in edges]
    bounds = {"mulligan": mulligan} if any_length else {"deck": t.deck, "mulligan": mulligan}
    if t.players != PLAYERS:
        bounds["players"] = t.players
    return Machine("hota", state, LOCATIONS, "shuffle", edges, REGISTRY, bounds, partial(describe, counts=counts),
                   table=t, rulings=book)


#: What an ended game keeps: its outcome (104.1), and what decided it.
OUTCOME = ("won", "lost", "drew", "damage", "drew_from_empty", "first", "active")


def _ending(e: Edge, state: list[Var]) -> Edge:
    """An edge that ends the game also forgets everything but the outcome and
    what decided it, so that games ending alike end in one state."""
    start = {v.name: (v.start if v.start is not None else
                      (v.initial[0],) * v.length if v.length is not None else v.initial[0])
             for v in state if v.name not in OUTCOME}

    def update(s: Any, b: Backend, inner: Callable[..., dict[str, Any]] = e.update) -> dict[str, Any]:
        return {**inner(s, b), **start}

    return replace(e, update=update)


def describe(m: Machine, s: Any, counts: Counts = Counts.exact()) -> dict[str, str]:
    t: Table = m.table
    seat = lambda p: PLAYER_NAMES[p] if p != NOBODY else "-"  # noqa: E731

    def outcome(p: int) -> str:
        return "won" if s.won[p] else "lost" if s.lost[p] else "drew" if s.drew[p] else "playing"

    out = {
        "first": seat(s.first), "active": seat(s.active), "priority": seat(s.priority),
        "library": "/".join(counts.shown("library", n, s) for n in s.library),
        "hand": "/".join(counts.shown("hand", n, s) for n in s.hand),
        "damage": "/".join(map(str, s.damage)), "status": "/".join(outcome(p) for p in range(t.players)),
        "tokens": "/".join(counts.shown("tokens", n, s) for n in s.tokens),
    }
    if t.takes_tokens and any(s.tokens_taken):
        n = t.players
        out["tokens_taken"] = ", ".join(f"{seat(i // n)} controls {k} of {seat(i % n)}'s" for i, k in enumerate(s.tokens_taken) if k)
    if any(s.tokens_elsewhere):
        out["tokens_elsewhere"] = "/".join(counts.shown("tokens_elsewhere", n, s) for n in s.tokens_elsewhere)
    if any(s.drew_from_empty):
        out["drew_from_empty"] = ",".join(seat(p) for p in range(t.players) if s.drew_from_empty[p])
    if s.waiting != NO_TRIGGER:
        kind = "Culling Field" if s.waiting < t.echo_waits else "echo"
        out["waiting"] = f"{kind} for {seat(s.waiting % t.players)}'s token"
    if any(s.used):
        out["used"] = ", ".join(t.entities[e].label for e in range(len(t.entities)) if s.used[e])
    if any(s.silenced):
        out["silenced"] = ", ".join(t.entities[e].label for e in range(len(t.entities)) if s.silenced[e])
    if t.control_moves and any(c != x.owner for c, x in zip(s.controller, t.entities)):
        out["control"] = ", ".join(f"{x.label} under {seat(c)}" for c, x in zip(s.controller, t.entities) if c != x.owner)
    if any(d != NOT_YET for d in s.declared):
        out["declared"] = "/".join(map(str, s.declared))
    if s.chooser != NOBODY or any(x != NOT_YET for x in s.answer):
        out["council"] = f"chooser {seat(s.chooser)}, picked {s.picked}, answers {s.answer}" + (
            ", rechoosing" if s.rechoosing else "")
    if s.first_turn:
        out["first_turn"] = "yes"
    for name in t.names:
        for pile in ("library", "hand"):
            out[f"{pile}: {name}"] = "/".join(map(str, getattr(s, f"{pile}_{slug(name)}")))
    if t.names:
        out["attribute points"] = "/".join(",".join(str(getattr(s, f"points_{a}")[p]) for a in ATTRIBUTES)
                                           for p in range(t.players))
    return out
