"""The decisions the Riftbound model takes, as questions its guards ask the
rulebook (``model/rulings.py``), each answer with the line of seed 003 that
gives it, or marked as our assumption where the seed is silent.

Seed 003 is the game's one source, so the model's reading is that text, and
the model's own choices between two readings of one of its sentences are
principles whose rules are ``assumed:`` ids (``RuleBook.only("003")`` drops
them, and the clash they settle shows):

- ``valid_destination``: line 15 bars a player who controls no permanent at a
  battlefield with a combat, which shuts a player of that combat whose units
  have all left out of it too, although lines 30-31 expect their units to
  arrive (findings R2);
- ``exempt_from_assignment``: line 77 frees a unit that cannot be damaged from
  every mandatory rule, line 59 limits what it may take while other units lack
  lethal damage (findings R3);
- ``damage_dealt``: line 81 deals each unit what was assigned to it, lines
  77-79 speak of a unit that cannot be dealt damage, which the model lets the
  assigner give damage to; line 106 has Kayn, the same unit, survive damage
  as if it were dealt (findings R3);
- ``counts_in_total``: lines 45-47 sum the might of every attacking and every
  defending unit, line 106 says a stunned unit deals no damage;
- ``destroyed_by_damage``: line 102 destroys every unit of a combat with equal
  totals, line 106 only a unit whose damage reaches its might (a stunned unit,
  or damage put on a unit that cannot be damaged, leaves one standing) and
  never one that cannot be destroyed;
- ``conquers``: lines 95-97 give a defender who did not hold the battlefield a
  conquest when their units survive, line 106 says the defender keeps it and
  cannot score (needs units standing on an open battlefield before a combat);
- ``lethal_damage``: line 53's lethal damage is more than zero, line 106
  destroys a unit whose damage is at least its might, which no damage at all
  is for a unit of might 0 (an effect can set it; findings R13);
- ``assigns_whole_total``: line 49 assigns a player's whole total, line 59
  caps each of two or more units at lethal while others remain to be given
  damage, which leaves what lies beyond all their lethal amounts nowhere to
  go (findings R15);
- ``lethal_damage`` again: line 55's lethal damage "can destroy" the unit,
  which no amount can for a unit that cannot be destroyed (line 106); line
  53 measures it by might all the same (findings R16);
- ``begins_mid_combat``: line 7 begins a combat at any cleanup with an empty
  chain, so one made pending by a play in another combat's showdown begins
  at once; line 10 resolves combats one after another (findings R14).

Line 77's exception to line 53 (no amount of damage is lethal to a unit that
cannot be damaged) is the seed's own: its principle cites damage.undamageable.

Where only an assumption answers (who attacks and defends once the contesting
player has left, R5; what ends the showdown, R12; focus after a pass, the role of a unit sent away in the
showdown, spell moves, whether a recall is a move, scoring by holding, what
a conquest scores, an
emptied battlefield's control, marked damage and lethal, what contests a battlefield, who takes one without a
fight and whether that scores, R4; where a spell plays a unit; in which order
the initial chain resolves; how long a stun lasts; the cards' own triggers, which only tables with
those cards ask about; who acts on a chain, first and next, which only tables
with reactions ask about) ``chainproof lint`` reports a gap.
"""

from __future__ import annotations

from typing import Any, Callable

from model.backend import Backend
from model.riftbound.table import (ATTACKER, ATTACKER_ASSIGNS, BASE, DEALING, DEFENDER, DEFENDER_ASSIGNS, FIRST_BATTLEFIELD, NO_ROLE,
                                    NOBODY, Table)
from model.rulings import Principle, Question, Reading, RuleBook, Ruling, always

SOURCE = "003"

#: lethal_damage's answer for a unit to which no amount of damage is lethal (003:77).
NO_LETHAL = -1

READING = Reading(
    "seed", (SOURCE,),
    "seed 003 is the only Riftbound text: the model follows it where it speaks and names its assumption where it does not",
)

PRINCIPLES = (
    Principle("combatants-barred", ("assumed:combatants-barred",),
              "line 15 tests control of a permanent, not taking part: it bars a combatant with no unit left there as well"),
    Principle("undamageable-sink", ("assumed:undamageable-sink",),
              "line 77's exemption covers line 59 too: a unit nothing can damage may take any amount at any time"),
    Principle("undamageable-takes-none", ("assumed:undamageable-sink",),
              "line 77's unit that cannot be damaged takes none of what line 81 deals it, though line 106 has Kayn survive damage"),
    Principle("stunned-deal-nothing", ("assumed:stunned-out-of-total",),
              "line 106's stunned unit deals no damage, so its might is left out of the total lines 45-47 sum"),
    Principle("equal-might-as-dealt", ("assumed:equal-might-as-dealt",),
              "line 102 tells what equal totals usually come to; the damage dealt decides who survives (line 106)"),
    Principle("play-redirected", ("assumed:play-redirected",),
              "line 17 redirects a play that line 16 calls impossible: a player may name the battlefield, the unit goes to base"),
    Principle("equal-might-own-side", ("assumed:equal-might-own-side",),
              "line 102's 'all units there' leaves out whose units: each side's own, as lines 45-49 say"),
    Principle("zero-not-lethal", ("assumed:zero-not-lethal",),
              "line 53's lethal damage is more than zero: none is lethal to a unit of might 0, though line 106's 'damage at least its might' holds of it"),
    Principle("defender-already-held", ("assumed:qa-defender-held",),
              "line 106 speaks of a defender who already holds the battlefield: one who takes it conquers by lines 95-97"),
    Principle("running-combat-first", ("assumed:running-combat-first",),
              "line 10 resolves combats pending together one after another: the one already running ends before another begins"),
    Principle("excess-anywhere", ("assumed:excess-anywhere",),
              "line 59's 'other units to assign damage to' are those still short of lethal: once all have it, line 49's whole total is assigned, the rest anywhere"),
    Principle("indestructible-bound", ("assumed:indestructible-bound",),
              "line 55's lethal damage 'that can destroy it' says what it does to most units; line 53 measures it by might, and line 77 frees only a unit that cannot be damaged"),
    # Line 77 names itself as the exception to line 53's lethal damage: the seed settles it, no assumption.
    Principle("undamageable-no-lethal", ("damage.undamageable",),
              "line 77 excepts a unit that cannot be damaged from line 53's lethal damage: no amount is lethal to it"),
)


# ---------------------------------------------------------------------------
# What the rulings and the guards read off a state


class LastState:
    """Values read off one state, kept until another state is asked.

    Explicit search tries every edge of a state in turn, the search over
    whole frontiers every edge of a location's rows, and a transition relation
    every edge over one state of terms: many guards and rulings read the same
    sum or condition of the same state.  ``remembered(s, key, read)`` gives
    ``read()`` once per state and key (a key names the backend too: the
    value is the backend's).  The state is held, so that its identity is not
    reused while it is kept.
    """

    def __init__(self) -> None:
        self._state: Any = None
        self._known: dict[tuple[Any, ...], Any] = {}

    def __call__(self, s: Any, key: tuple[Any, ...], read: Callable[[], Any]) -> Any:
        if s is not self._state:
            self._state, self._known = s, {}
        known = self._known
        if key not in known:
            known[key] = read()
        return known[key]


def next_seat(t: Table, p: Any, b: Backend) -> Any:
    return b.If(p + 1 >= t.players, 0, p + 1)


def at_battlefield(t: Table, s: Any, u: int, bf: Any) -> Any:
    """Unit ``u`` is on battlefield ``bf``; callers pass ``s.combat_bf`` only
    while a combat runs (NOBODY's code would be the trash's)."""
    return s.zone[u] == FIRST_BATTLEFIELD + bf


#: What the helpers below read off the last state asked, by what they read of the table.
_read = LastState()


def has_units_at(t: Table, s: Any, p: int, bf: Any, b: Backend) -> Any:
    if type(p) is int and type(bf) is int:
        units = t.units_of(p)
        return _read(s, ("has_units_at", units, bf, b.name), lambda: b.Or(*(at_battlefield(t, s, u, bf) for u in units)))
    return b.Or(*(at_battlefield(t, s, u, bf) for u in t.units_of(p)))


def players_at(t: Table, s: Any, bf: Any, b: Backend) -> Any:
    """How many players have units at ``bf``: asked of a state by most guards of a cleanup."""
    if type(bf) is int:
        return _read(s, ("players_at", t.owned, bf, b.name), lambda: b.count([has_units_at(t, s, p, bf, b) for p in range(t.players)]))
    return b.count([has_units_at(t, s, p, bf, b) for p in range(t.players)])


def contester_is_there(t: Table, s: Any, bf: int, b: Backend) -> Any:
    """The player who contested ``bf`` still has units there (showdown.attacker)."""
    return b.Or(*(b.And(s.contested_by[bf] == p, has_units_at(t, s, p, bf, b)) for p in range(t.players)))


def is_pending(t: Table, s: Any, bf: int, b: Backend) -> Any:
    """combat.start, combat.pending: units of two opposing players share ``bf`` while no combat runs."""
    return b.And(s.combat_bf == NOBODY, players_at(t, s, bf, b) >= 2)


def combat_here(s: Any, bf: Any) -> Any:
    return s.combat_bf == bf


def in_the_combat(s: Any, p: Any, b: Backend) -> Any:
    return b.Or(s.attacker == p, s.defender == p)


def side_present(t: Table, s: Any, role: int, b: Backend) -> Any:
    return b.Or(*(b.And(at_battlefield(t, s, u, s.combat_bf), s.role[u] == role) for u in range(len(t.units))))


def needs_settling(t: Table, s: Any, bf: int, b: Backend) -> Any:
    """assumed:uncontested-control: ``bf`` is contested but holds units of at most one player."""
    return b.And(s.contested_by[bf] != NOBODY, players_at(t, s, bf, b) <= 1)


def other_player_at(t: Table, s: Any, bf: int, who: Any, b: Backend) -> Any:
    """The first player in seat order, other than ``who``, with units at ``bf`` (NOBODY if none)."""
    out: Any = NOBODY
    for p in reversed(range(t.players)):
        out = b.If(b.And(p != who, has_units_at(t, s, p, bf, b)), p, out)
    return out


def sole_player_at(t: Table, s: Any, bf: Any, b: Backend) -> Any:
    """The one player with units at ``bf`` (NOBODY if none; meant for at most one)."""
    who: Any = NOBODY
    for p in reversed(range(t.players)):
        who = b.If(has_units_at(t, s, p, bf, b), p, who)
    return who


def link_order(t: Table, u: int, s: Any, b: Backend) -> Any:
    """showdown.initial-chain: a trigger's height on the initial chain. The
    attacker's go on first (bottom), then other non-defenders' in turn order,
    the defender's last (top); a player's own in unit order. Past two
    players, a player outside the combat has triggers only from afar
    (assumed:afar-trigger)."""
    owner, n = t.units[u].owner, len(t.units)
    # Seats after the attacker in turn order, the defender's put last.
    seat = b.If(owner > s.attacker, owner - s.attacker, owner - s.attacker + t.players) if t.players > 2 else 1
    return b.If(s.attacker == owner, u, b.If(s.defender == owner, t.players * n + u, seat * n + u))


def next_trigger(t: Table, s: Any, u: int, b: Backend, top_first: bool) -> Any:
    """``u``'s trigger is the next of the initial chain to resolve: the top one
    (last_link_resolves_first), or the bottom one under the other reading."""
    return b.And(
        s.trigger[u],
        *(b.Implies(s.trigger[v], (link_order(t, v, s, b) < link_order(t, u, s, b)) if top_first
                    else (link_order(t, v, s, b) > link_order(t, u, s, b)))
          for v in range(len(t.units)) if v != u),
    )


def chain_empty(t: Table, s: Any, b: Backend) -> Any:
    """No spell and no trigger waits on the chain (showdown.closed: the showdown may open)."""
    return b.And(*((s.links[0] == 0,) if t.reacts else ()), b.Not(b.Or(*s.trigger)))


def top_player(t: Table, s: Any, b: Backend, top_first: bool) -> Any:
    """Who put the top link of the chain on: the caster of the top spell (links
    are kept top first, a code naming spell and caster: Table.link_code), else
    the owner of the next trigger; NOBODY with an empty chain."""
    owner: Any = NOBODY
    for u, unit in enumerate(t.units):
        if unit.buffable:
            owner = b.If(next_trigger(t, s, u, b, top_first), unit.owner, owner)
    return b.If(s.links[0] != 0, (s.links[0] - 1) % t.players, owner)


def reactor_after(t: Table, s: Any, b: Backend, top: Any, after: Any = None) -> Any:
    """assumed:chain-reactions: the first player with a reaction left in turn
    order from the seat after ``top`` (``top`` itself last), coming after
    ``after`` in that order when given; NOBODY if there is none."""
    def offset(p: Any) -> Any:  # 1 for the seat after top, players for top itself
        return b.If(p > top, p - top, p - top + t.players)

    who: Any = NOBODY
    for k in reversed(range(1, t.players + 1)):
        seat = b.If(top + k >= t.players, top + k - t.players, top + k)
        ready = b.select(s.reactions, seat) > 0
        who = b.If(ready if after is None else b.And(ready, k > offset(after)), seat, who)
    return b.If(top == NOBODY, NOBODY, who)


def cannot_be_damaged(t: Table, s: Any, u: int, b: Backend) -> Any:
    """damage.undamageable: ``u`` cannot be dealt damage now. A plain bool for
    a unit that always or never can; for the seed's Kayn (003:79), whether he
    has moved twice this turn (the ``moves`` the model counts for him)."""
    unit = t.units[u]
    if unit.immune or not unit.immune_after_two_moves:
        return unit.immune
    return s.moves[u] >= 2


def after_recall(t: Table, s: Any, b: Backend) -> Any:
    """resolution.recall: the state with every attacking unit sent home, if a defending unit remains."""
    defenders_remain = side_present(t, s, DEFENDER, b)
    zone = tuple(
        b.If(b.And(defenders_remain, at_battlefield(t, s, u, s.combat_bf), s.role[u] == ATTACKER), BASE, s.zone[u])
        for u in range(len(t.units))
    )
    return s._replace(zone=zone)


# ---------------------------------------------------------------------------
# The book


def rulebook(t: Table, reading: str | None = None) -> RuleBook:
    """The questions of the table ``t``, read as ``reading`` names (None: the model's own)."""
    book: list[RuleBook] = []  # set below: rulings that need another answer ask the same book
    remembered = LastState()
    players = range(t.players)
    battlefields = range(t.battlefields)
    units = range(len(t.units))
    player = Table.player_name
    # Where a spell takes effect: as it is cast, or, with reactions, as it resolves from the chain;
    # at a table with action spells, in the action phase or on its chain too (assumed:action-spells).
    outside_at = (("action_chain",) if t.reacts else ("action_phase",)) if t.casts_outside else ()
    spells_at = (("showdown", "chain") if t.reacts else ("showdown",)) + outside_at
    # Where a chain is asked who acts on it: its locations, and where a link is put on it or resolves.
    chains_at = ("chain",) + (("action_chain",) if t.chains_outside else ())

    # -- valid_destination(p, bf): where a move may take a player's unit ----------------
    def fight(s: Any, b: Backend, bf: int) -> Any:
        return b.Or(combat_here(s, bf), players_at(t, s, bf, b) >= 2)

    def others_at(s: Any, b: Backend, p: int, bf: int) -> Any:
        return b.count([has_units_at(t, s, q, bf, b) for q in players if q != p])

    many = t.players > 2
    # combat.multiplayer.no-destination speaks of permanents; units are the only ones the model has.
    valid_destination = Question(
        "valid_destination",
        "may a move take this player's unit to this battlefield?",
        (
            Ruling("no-destination", ("combat.multiplayer.no-destination",), False,
                   lambda s, b, p, bf: many and b.And(fight(s, b, bf), b.Not(has_units_at(t, s, p, bf, b))),
                   "past two players, a battlefield with a combat where the player has nothing is closed to their units",
                   cant=True, texts={SOURCE: "15"}, overrides={"late-arrival": "combatants-barred"}),
            Ruling("third-player", ("combat.third-player-invalid",), False,
                   lambda s, b, p, bf: many and others_at(s, b, p, bf) >= 2,
                   "a move may not bring a third player into one combat", cant=True, texts={SOURCE: "20"}),
            Ruling("late-arrival", ("showdown.late-roles",), True,
                   lambda s, b, p, bf: b.And(combat_here(s, bf), in_the_combat(s, p, b)),
                   "units of the attacker or defender may still arrive at their combat and take their role",
                   texts={SOURCE: "30-31"}),
        ),
        tuple((p, bf) for p in players for bf in battlefields),
        asked_at=tuple(dict.fromkeys(("action_phase", *spells_at))),
        # assumed:standard-move: with no combat in the way, a unit may go to any battlefield.
        default=True,
        show=lambda p, bf: f"{player(p)} to {t.battlefield_name(bf)}",
    )

    # -- attacker(bf): who attacks when a combat begins ----------------------------------
    def stranger(s: Any, b: Backend, bf: int) -> Any:
        """The player there who does not hold ``bf``, the first in turn order from the turn player if both do not."""
        outside = [b.And(has_units_at(t, s, p, bf, b), s.controller[bf] != p) for p in players]
        first: Any = NOBODY
        for v in players:
            who: Any = NOBODY
            for p in reversed([(v + k) % t.players for k in players]):
                who = b.If(outside[p], p, who)
            first = b.If(s.turn_player == v, who, first)
        return first

    attacker = Question(
        "attacker",
        "who attacks at this battlefield when its combat begins?",
        (
            Ruling("no-combat", ("combat.start", "combat.pending"), lambda s, b, bf: NOBODY,
                   lambda s, b, bf: b.Not(is_pending(t, s, bf, b)),
                   "no combat is pending there, so nobody attacks", texts={SOURCE: "7-9"}),
            Ruling("contester", ("showdown.attacker",), lambda s, b, bf: s.contested_by[bf],
                   lambda s, b, bf: b.And(is_pending(t, s, bf, b), contester_is_there(t, s, bf, b)),
                   "the player whose units contested the battlefield attacks", texts={SOURCE: "27"}),
            Ruling("attacker-gone", ("assumed:attacker-gone",), stranger,
                   lambda s, b, bf: b.And(is_pending(t, s, bf, b), b.Not(contester_is_there(t, s, bf, b))),
                   "the contesting player has left: the player who does not hold the battlefield attacks"),
        ),
        tuple((bf,) for bf in battlefields),
        asked_at=("cleanup",),
        default=NOBODY,
        show=t.battlefield_name,
        show_answer=player,
    )

    # -- defender(bf): who defends when a combat begins ----------------------------------
    defender = Question(
        "defender",
        "who defends at this battlefield when its combat begins?",
        (
            Ruling("no-combat", ("combat.start", "combat.pending"), lambda s, b, bf: NOBODY,
                   lambda s, b, bf: b.Not(is_pending(t, s, bf, b)),
                   "no combat is pending there, so nobody defends", texts={SOURCE: "7-9"}),
            Ruling("non-contester", ("showdown.defender",),
                   lambda s, b, bf: other_player_at(t, s, bf, s.contested_by[bf], b),
                   lambda s, b, bf: b.And(is_pending(t, s, bf, b), contester_is_there(t, s, bf, b)),
                   "the player there who did not contest the battlefield defends", texts={SOURCE: "29"}),
            # With the contester gone, line 29's "the player who did not contest"
            # fits both players there: the one the assumption does not make attack defends.
            Ruling("attacker-gone", ("assumed:attacker-gone",),
                   lambda s, b, bf: other_player_at(t, s, bf, book[0].answer("attacker", s, b, bf), b),
                   lambda s, b, bf: b.And(is_pending(t, s, bf, b), b.Not(contester_is_there(t, s, bf, b))),
                   "the contesting player has left: the player there who does not attack defends"),
        ),
        tuple((bf,) for bf in battlefields),
        asked_at=("cleanup",),
        default=NOBODY,
        show=t.battlefield_name,
        show_answer=player,
    )

    # -- focus(bf) and next_focus(): the showdown's focus --------------------------------
    focus = Question(
        "focus",
        "who holds focus when the showdown at this battlefield begins?",
        (
            Ruling("attacker-focus", ("showdown.focus",), lambda s, b, bf: book[0].answer("attacker", s, b, bf),
                   lambda s, b, bf: True, "the attacker takes focus as the showdown begins", texts={SOURCE: "28"}),
        ),
        tuple((bf,) for bf in battlefields),
        asked_at=("cleanup",),
        default=NOBODY,
        show=t.battlefield_name,
        show_answer=player,
    )
    next_focus = Question(
        "next_focus",
        "who holds focus after the player with it casts a spell or passes?",
        (
            Ruling("next-seat", ("assumed:showdown-focus",), lambda s, b: next_seat(t, s.focus, b), always,
                   "focus goes round the table in turn order"),
        ),
        ((),),
        asked_at=("showdown",),
        default=NOBODY,
        show=lambda: "the showdown",
        show_answer=player,
    )

    # -- showdown_ends(): what ends the open showdown ------------------------------------
    # Line 41 deals combat damage "when the showdown closes"; line 34 calls the
    # showdown closed while its initial chain is on the table, and lines 36-37
    # have players act on that chain and the attacker keep the focus after it,
    # so that closing does not end it. 003 never says what does.
    showdown_ends = Question(
        "showdown_ends",
        "is the showdown over once the player with focus passes, so that combat damage follows?",
        (
            Ruling("all-passed", ("assumed:showdown-focus",), True, lambda s, b: s.passes + 1 >= t.players,
                   "every player has now passed in succession since the last spell: the showdown is over"),
            Ruling("passes-remain", ("assumed:showdown-focus",), False, lambda s, b: s.passes + 1 < t.players,
                   "a player has not passed since the last spell: the focus moves on and the showdown goes on"),
        ),
        ((),),
        asked_at=("showdown",),
        show=lambda: "the showdown",
    )

    # -- combat_may_begin(): a cleanup with links on a chain outside a showdown -------------
    # Line 7 begins a combat at a cleanup only if the chain holds no effect. Asked
    # only of a table whose spells of the action phase wait on a chain
    # (assumed:action-spells); at every other table no chain is ever on the
    # table at a cleanup.
    combat_may_begin = Question(
        "combat_may_begin",
        "may a pending combat begin at this cleanup, or does a link on the chain hold it back?",
        (
            Ruling("empty-chain", ("combat.start",), True, lambda s, b: s.links[0] == 0,
                   "the chain holds no effect: a pending combat may begin", texts={SOURCE: "7"}),
            # The only chain at a cleanup is one cast outside a showdown (assumed:action-spells).
            Ruling("chain-holds-effect", ("combat.start", "assumed:action-spells"), False, lambda s, b: s.links[0] != 0,
                   "an effect waits on the chain: no combat begins until it has resolved", texts={SOURCE: "7"}),
        ),
        ((),) if t.chains_outside else (),
        asked_at=("cleanup",),
        default=True,
        show=lambda: "the cleanup",
    )

    # -- begins_mid_combat(bf): a combat that becomes pending in another's showdown ---------
    # Line 7 begins a combat at any cleanup whose chain holds no effect where
    # units of two opposing players share a battlefield, and each spell of a
    # showdown is followed by a cleanup (lines 30-31). A unit played to another
    # battlefield in a showdown can make a second combat pending there: line 7
    # begins it at that cleanup, line 10 has combats pending together resolved
    # one after another. The model has one combat at a time: the showdown's
    # cleanup reads this answer, and a reading that began the second combat
    # there would leave that cleanup no way on.
    def pending_elsewhere(s: Any, b: Backend, bf: int) -> Any:
        return b.And(s.combat_bf != NOBODY, s.combat_bf != bf, players_at(t, s, bf, b) >= 2)

    begins_mid_combat = Question(
        "begins_mid_combat",
        "does a combat pending at this battlefield begin at a cleanup in the showdown of a combat elsewhere?",
        (
            Ruling("cleanup-begins", ("combat.start",), True,
                   lambda s, b, bf: b.And(pending_elsewhere(s, b, bf), chain_empty(t, s, b)),
                   "at a cleanup whose chain holds no effect, units of two opposing players on one battlefield begin a combat there",
                   texts={SOURCE: "7"}),
            Ruling("one-at-a-time", ("combat.pending.order",), False, pending_elsewhere,
                   "combats pending together are resolved one after another, in the order the turn player picks",
                   texts={SOURCE: "10"}, overrides={"cleanup-begins": "running-combat-first"}),
        ),
        tuple((bf,) for bf in battlefields),
        asked_at=("showdown_cleanup",),
        # Line 7: without units of two opposing players there, no combat begins.
        default_texts={SOURCE: "7"},
        show=t.battlefield_name,
    )

    # -- keeps_role(u): a unit taken off the battlefield in the showdown --------------------
    # Lines 29-31 give roles to units at the battlefield and line 91 takes every
    # role away at the combat cleanup; 003 never says whether a unit sent away
    # before then keeps its role.
    keeps_role = Question(
        "keeps_role",
        "does a unit that a spell takes off its battlefield during the showdown keep its combat role?",
        (
            Ruling("role-left-behind", ("assumed:showdown-spells",), False, always,
                   "a unit that leaves the battlefield leaves its role there; it takes it again if it comes back"),
        ),
        tuple((u,) for u in units),
        asked_at=spells_at,
        show=lambda u: t.units[u].name,
    )

    # -- counts_as_moved(u): a spell's move -----------------------------------------------
    counts_as_moved = Question(
        "counts_as_moved",
        "has a unit that a spell moved made its move for the turn?",
        (
            Ruling("spell-move", ("assumed:standard-move",), True, lambda s, b, u: True,
                   "a move by a spell uses up the unit's move this turn"),
        ),
        tuple((u,) for u in units),
        asked_at=spells_at,
        show=lambda u: t.units[u].name,
    )

    # -- is_a_move(kind): which spells move a unit ----------------------------------------
    # Line 15 speaks of "every kind of move, standard or not", so a move may come
    # from elsewhere than the standard move; 003 never says whether a recall,
    # which takes a unit from its battlefield to its base, is one. Only Kayn's
    # "moved twice" (line 79) counts moves, so only a table with him reads the answer.
    is_a_move = Question(
        "is_a_move",
        "is a unit that this spell takes elsewhere moved by it (a move that counts towards Kayn's two)?",
        (
            Ruling("non-standard-move", ("combat.multiplayer.no-destination",), True,
                   lambda s, b, kind: kind == "move_to_combat",
                   "a spell that moves a unit into the combat moves it: line 15 counts moves other than the standard one",
                   texts={SOURCE: "15"}),
            Ruling("recall-not-a-move", ("assumed:showdown-spells",), False, lambda s, b, kind: kind == "recall",
                   "a recall sends a unit home; it is not a move"),
        ),
        (("move_to_combat",), ("recall",)),
        asked_at=spells_at,
        show=lambda kind: kind,
    )

    # -- contests(p, bf): who makes a battlefield contested -------------------------------
    # Line 27 names the player whose units made the battlefield contested, and
    # nothing in 003 says what makes it so.
    contests = Question(
        "contests",
        "does this player's unit arriving at this battlefield make the battlefield contested by them?",
        (
            Ruling("arrival", ("assumed:contested",), True,
                   lambda s, b, p, bf: b.And(s.controller[bf] != p, s.contested_by[bf] == NOBODY),
                   "a unit arriving where its player does not hold the battlefield, not yet contested, contests it"),
        ),
        tuple((p, bf) for p in players for bf in battlefields),
        asked_at=tuple(dict.fromkeys(("action_phase", *spells_at))),
        show=lambda p, bf: f"{player(p)} at {t.battlefield_name(bf)}",
    )

    # -- played_to_base(p, bf): a unit played where a combat is ------------------------------
    def plays_outside_combat(s: Any, b: Backend, p: int, bf: int) -> Any:
        """Past two players, ``bf`` has a pending or running combat that ``p`` takes no part in."""
        if not many:
            return False
        outsider = b.And(b.Not(has_units_at(t, s, p, bf, b)), b.Not(b.And(combat_here(s, bf), in_the_combat(s, p, b))))
        return b.And(fight(s, b, bf), outsider)

    played_to_base = Question(
        "played_to_base",
        "is a unit this player plays to this battlefield put in their base instead?",
        (
            # Lines 16-17 test taking part in the combat, where line 15 tests
            # controlling a permanent there: a combatant with nothing left there
            # may not move a unit in, but may play one.
            Ruling("play-to-base", ("combat.multiplayer.no-play", "combat.multiplayer.play-to-base"), True,
                   plays_outside_combat,
                   "past two players, a unit played where a combat its controller takes no part in is pending or running goes to their base",
                   texts={SOURCE: "16-17"}),
            Ruling("as-cast", ("assumed:showdown-spells",), False,
                   lambda s, b, p, bf: b.Not(plays_outside_combat(s, b, p, bf)),
                   "the spell plays the unit to the battlefield it names"),
        ),
        tuple((p, bf) for p in players for bf in battlefields),
        asked_at=spells_at,
        show=lambda p, bf: f"{player(p)} to {t.battlefield_name(bf)}",
    )

    # -- may_play_to(p, bf): where a player may play a unit ------------------------------------
    # Line 16 makes a battlefield with a combat an invalid place for a player
    # outside that combat: no unit can be played there by any means. Line 17
    # has a unit an effect plays there go to its controller's base instead.
    # The showdown's play spell lets its caster name the battlefield: by line
    # 16 he may not name that one, by line 17 the play goes ahead, to base.
    may_play_to = Question(
        "may_play_to",
        "may this player cast a spell that plays a unit of theirs to this battlefield?",
        (
            Ruling("invalid-location", ("combat.multiplayer.no-play",), False, plays_outside_combat,
                   "past two players, no unit can be played by any means where a combat its player takes no part in is",
                   cant=True, texts={SOURCE: "16"}),
            Ruling("redirected", ("combat.multiplayer.play-to-base",), True, plays_outside_combat,
                   "the play goes ahead, and the unit goes to its controller's base instead", texts={SOURCE: "17"},
                   overrides={"invalid-location": "play-redirected"}),
            Ruling("ordinary", ("assumed:showdown-spells",), True, lambda s, b, p, bf: b.Not(plays_outside_combat(s, b, p, bf)),
                   "the play spell may name any battlefield"),
        ),
        tuple((p, bf) for p in players for bf in battlefields),
        asked_at=spells_at,
        show=lambda p, bf: f"{player(p)} to {t.battlefield_name(bf)}",
    )

    # -- the cards' own triggers (assumed:here-trigger, assumed:afar-trigger) ----------------
    # Asked only of a table with such a card; the default tables have none.
    def in_play(s: Any, b: Backend, u: int) -> Any:
        return b.Or(s.zone[u] == BASE, s.zone[u] >= FIRST_BATTLEFIELD)

    def outside(s: Any, b: Backend, u: int, bf: int) -> Any:
        return b.And(in_play(s, b, u), b.Not(at_battlefield(t, s, u, bf)))

    rallies_from_afar = Question(
        "rallies_from_afar",
        "does this unit's trigger go on the initial chain as a showdown at this battlefield begins?",
        (
            # Line 33 has every non-defending player put triggers on the initial
            # chain, players outside the combat included; the trigger is ours.
            Ruling("from-afar", ("assumed:afar-trigger",), True, outside,
                   "a unit in play outside the combat rallies when its showdown begins"),
            Ruling("not-afar", ("assumed:afar-trigger",), False, lambda s, b, u, bf: b.Not(outside(s, b, u, bf)),
                   "a unit in the combat, or out of play, does not"),
        ),
        tuple((u, bf) for u in units if t.units[u].afar for bf in battlefields),
        asked_at=("cleanup",),
        show=lambda u, bf: f"{t.units[u].name} at {t.battlefield_name(bf)}",
    )

    def to_base(s: Any, b: Backend, p: int, bf: int) -> Any:
        return book[0].answer("played_to_base", s, b, p, bf)

    here = Question(
        "here",
        "which zone is 'here' for the trigger of a unit this player plays to this battlefield?",
        (
            Ruling("where-played", ("assumed:here-trigger",), lambda s, b, p, bf: FIRST_BATTLEFIELD + bf,
                   lambda s, b, p, bf: b.Not(to_base(s, b, p, bf)), "the battlefield the unit was played to"),
            Ruling("base-instead", ("combat.multiplayer.here-is-base",), lambda s, b, p, bf: BASE, to_base,
                   "played to its controller's base instead, 'here' is that base", texts={SOURCE: "18"}),
        ),
        tuple((p, bf) for p in players if any(t.units[u].when_played for u in t.units_of(p)) for bf in battlefields),
        asked_at=spells_at,
        default=0,
        show=lambda p, bf: f"{player(p)} to {t.battlefield_name(bf)}",
        show_answer=lambda z: t.zone_name(z),
    )

    destroyed_by_effect = Question(
        "destroyed_by_effect",
        "is this unit destroyed by an effect that destroys it?",
        (
            Ruling("destroyed", ("assumed:here-trigger",), True,
                   lambda s, b, v: b.And(not t.units[v].indestructible, b.Not(cannot_be_damaged(t, s, v, b))),
                   "an effect that destroys sends the unit to its owner's trash"),
            Ruling("cannot-be-destroyed", ("qa.both-survive",), False, lambda s, b, v: t.units[v].indestructible,
                   "a unit that cannot be destroyed stays in play", texts={SOURCE: "106"}),
            # Line 106 gives Kayn's ability as its example of a unit that cannot be
            # destroyed; line 77 gives it as immunity to damage.
            Ruling("immune", ("assumed:immune-not-destroyed",), False,
                   lambda s, b, v: cannot_be_damaged(t, s, v, b), "a unit that cannot be damaged cannot be destroyed either"),
        ),
        tuple((v,) for v in units) if t.plays_with("destroy") else (),
        asked_at=spells_at,
        show=lambda v: t.units[v].name,
    )

    # -- the initial chain's order: asked once, as the edges are built ------------------------
    # Line 33 says in which order the triggers go on the initial chain, not in
    # which order they resolve.  Without reactions no spell comes between
    # them, so the order changes nothing but the steps; with reactions each
    # trigger may be answered before it resolves. Spells put on the chain
    # resolve last in first out (assumed:chain-reactions).
    chain_order = Question(
        "last_link_resolves_first",
        "does the trigger put on the initial chain last resolve first?",
        (
            Ruling("last-in-first-out", ("assumed:chain-order",), True, always,
                   "the chain resolves from its top: the defender's triggers, put on last, resolve first"),
        ),
        ((),),
        asked_at=("chain",),
        fixed=True,
        show=lambda: "the initial chain",
    )

    # -- who acts on a chain (assumed:chain-reactions) --------------------------------------
    # Line 36 lets players go on acting on the chain "as usual", and nothing in
    # 003 says who may act on a chain, with what, or in which order. Asked only
    # of a table with reactions: without them every chain resolves at once.
    def top(s: Any, b: Backend) -> Any:
        return top_player(t, s, b, book[0].fixed("last_link_resolves_first"))

    on_chain = ((),) if t.reacts else ()
    first_to_act = Question(
        "first_to_act_on_chain",
        "who is asked first to act on the chain, once a link has gone on it or the link above has resolved?",
        (
            Ruling("after-the-top", ("assumed:chain-reactions",), lambda s, b: reactor_after(t, s, b, top(s, b)), always,
                   "the first player with a reaction left in turn order after the one who put the top link on, "
                   "who is asked last; nobody if no player has one, and the top link resolves"),
        ),
        on_chain,
        asked_at=(*chains_at, "showdown", "showdown_cleanup") + (("action_phase", "cleanup") if t.chains_outside else ()),
        default=NOBODY,
        show=lambda: "the chain",
        show_answer=player,
    )
    next_to_act = Question(
        "next_to_act_on_chain",
        "who is asked to act on the chain after the player asked passes?",
        (
            Ruling("round-to-the-top", ("assumed:chain-reactions",), lambda s, b: reactor_after(t, s, b, top(s, b), s.asked),
                   always,
                   "the next player with a reaction left, until the turn order comes round past the one who put the "
                   "top link on: then every player who could act has passed, nobody is asked, and the top link resolves"),
        ),
        on_chain,
        asked_at=chains_at,
        default=NOBODY,
        show=lambda: "the chain",
        show_answer=player,
    )

    # -- the combat damage step -----------------------------------------------------------
    def in_combat(s: Any, b: Backend, v: int) -> Any:
        return remembered(s, ("in_combat", v, b.name), lambda: b.And(s.combat_bf != NOBODY, at_battlefield(t, s, v, s.combat_bf)))

    # Line 43 holds the step only if units of both sides remain; line 44's
    # example names the case where neither does.
    damage_step_happens = Question(
        "damage_step_happens",
        "does the combat damage step happen?",
        (
            Ruling("both-present", ("damage.both-present",), True,
                   lambda s, b: b.And(side_present(t, s, ATTACKER, b), side_present(t, s, DEFENDER, b)),
                   "units of the attacker and of the defender are still at the battlefield", texts={SOURCE: "43"}),
            Ruling("side-gone", ("damage.both-present",), False,
                   lambda s, b: b.Not(b.And(side_present(t, s, ATTACKER, b), side_present(t, s, DEFENDER, b))),
                   "the attacker's or the defender's units are all gone: the step is skipped", texts={SOURCE: "43-44"}),
        ),
        ((),),
        asked_at=("combat_damage_step",),
        show=lambda: "the combat",
    )

    opposing_unit = Question(
        "opposing_unit",
        "is this unit one the other side of the combat assigns damage to?",
        (
            Ruling("assign-to-opponent", ("damage.assign",), True,
                   lambda s, b, v: b.And(in_combat(s, b, v), s.role[v] != NO_ROLE),
                   "damage is assigned among the other side's units in the combat", texts={SOURCE: "49"}),
            Ruling("left-the-combat", ("damage.step",), False, lambda s, b, v: b.Not(in_combat(s, b, v)),
                   "combat damage is dealt at the attacked battlefield, so a unit that left takes none", texts={SOURCE: "41"}),
        ),
        tuple((v,) for v in units),
        asked_at=("combat_damage_step",),
        show=lambda v: t.units[v].name,
    )

    current_might = Question(
        "current_might",
        "what is this unit's might in the combat damage step?",
        (
            Ruling("current", ("damage.step", "damage.totals"), lambda s, b, u: t.units[u].might + s.buffed[u],
                   lambda s, b, u: True, "its might as it is then, a rallying buff included", texts={SOURCE: "41"}),
        ),
        tuple((u,) for u in units),
        asked_at=("combat_damage_step",),
        default=0,
        show=lambda u: t.units[u].name,
    )

    counts_in_total = Question(
        "counts_in_total",
        "does this unit's might count in its side's total in the combat damage step?",
        (
            Ruling("every-unit", ("damage.totals",), True,
                   lambda s, b, u: b.And(in_combat(s, b, u), s.role[u] != NO_ROLE),
                   "the might of every attacking unit is summed, and so is the might of every defending unit",
                   texts={SOURCE: "45-47"}),
            Ruling("stunned", ("qa.both-survive",), False, lambda s, b, u: s.stunned[u],
                   "a stunned unit deals no damage", texts={SOURCE: "106"},
                   overrides={"every-unit": "stunned-deal-nothing"}),
        ),
        tuple((u,) for u in units),
        asked_at=("combat_damage_step",),
        # Lines 45-47 sum the attacking and the defending units: no other unit counts.
        default_texts={SOURCE: "45-47"},
        show=lambda u: t.units[u].name,
    )

    def damage_taken(s: Any, b: Backend, u: int) -> Any:
        return s.damage[u] + s.assigned[u]

    def reaches_might(s: Any, b: Backend, u: int) -> Any:
        """Line 106's test, damage at least the unit's might, with line 53's
        lethal damage, which is more than zero (lethal_damage asks which).
        Two rulings of destroyed_by_damage ask it of each unit."""
        def read() -> Any:
            taken = damage_taken(s, b, u)
            return b.And(taken > 0, taken >= book[0].answer("current_might", s, b, u))
        return remembered(s, ("reaches_might", u, b.name), read)

    def side_total(s: Any, b: Backend, role: int) -> Any:
        """The damage one side deals: its units' might that counts in the total
        (counts_in_total); several rulings of a state ask either side's."""
        return remembered(s, ("side_total", role, b.name), lambda: b.total(
            [b.If(b.And(in_combat(s, b, w), s.role[w] == role, book[0].answer("counts_in_total", s, b, w)),
                  book[0].answer("current_might", s, b, w), 0) for w in units]))

    def equal_totals(s: Any, b: Backend, u: int) -> Any:
        """Damage is about to be dealt in a combat whose two sides' totals are equal, and ``u`` fights in it."""
        # The totals only where damage is about to be dealt (cleanups outside it ask too).
        return b.AndThen(b.And(s.stage == DEALING, in_combat(s, b, u), s.role[u] != NO_ROLE),
                         lambda: side_total(s, b, ATTACKER) == side_total(s, b, DEFENDER))

    # Lines 45-49 have each player assign damage equal to the might of their own
    # units in the combat; line 102, on equal totals, has each side deal damage
    # equal to the total might of "all units there", naming no side.
    def own_total(s: Any, b: Backend, p: int) -> Any:
        return b.If(s.attacker == p, side_total(s, b, ATTACKER), side_total(s, b, DEFENDER))

    def fights_at_equal_totals(s: Any, b: Backend, p: int) -> Any:
        return b.AndThen(in_the_combat(s, p, b), lambda: side_total(s, b, ATTACKER) == side_total(s, b, DEFENDER))

    damage_total = Question(
        "damage_total",
        "how much combat damage does this player assign?",
        (
            Ruling("own-units", ("damage.totals", "damage.assign"), own_total, lambda s, b, p: in_the_combat(s, p, b),
                   "the total might of the player's own attacking or defending units", texts={SOURCE: "45-49"},
                   overrides={"all-units-there": "equal-might-own-side"}),
            Ruling("all-units-there", ("qa.equal-might",),
                   lambda s, b, p: side_total(s, b, ATTACKER) + side_total(s, b, DEFENDER), fights_at_equal_totals,
                   "with equal totals, the total might of all units there", texts={SOURCE: "102"}),
        ),
        tuple((p,) for p in players),
        asked_at=("combat_damage_step",),
        default=0,
        # Line 13: a combat is between two players; nobody else assigns its damage.
        default_texts={SOURCE: "13"},
        show=player,
    )

    # Asked of the units that can be damaged: one that cannot takes no damage (line 77).
    destroyed_by_damage = Question(
        "destroyed_by_damage",
        "is this unit destroyed as the combat damage is dealt?",
        (
            Ruling("lethal-destroys", ("qa.both-survive", "damage.lethal"), True,
                   lambda s, b, u: not t.units[u].indestructible and reaches_might(s, b, u),
                   "a unit whose damage is at least its might is destroyed, unless it cannot be destroyed",
                   texts={SOURCE: "106"}),
            Ruling("cannot-be-destroyed", ("qa.both-survive",), False, lambda s, b, u: t.units[u].indestructible,
                   "a unit that cannot be destroyed is not, whatever its damage", texts={SOURCE: "106"},
                   overrides={"equal-might": "equal-might-as-dealt"}),
            Ruling("survives", ("qa.both-survive",), False, lambda s, b, u: b.Not(reaches_might(s, b, u)),
                   "a unit whose damage is less than its might survives the combat", texts={SOURCE: "106"},
                   overrides={"equal-might": "equal-might-as-dealt"}),
            # Line 102 says so of every combat with equal totals; a stunned unit
            # (which adds nothing to its side's total) or damage put on a unit
            # that cannot be damaged leaves a unit standing all the same.
            Ruling("equal-might", ("qa.equal-might",), True, equal_totals,
                   "with equal total might on both sides, every unit in the combat is destroyed", texts={SOURCE: "102"}),
        ),
        tuple((u,) for u in units if not t.units[u].immune),
        # Damage a played unit deals in the showdown destroys at the cleanup after its spell.
        asked_at=("combat_damage_step",) + (("showdown_cleanup",) + outside_at if t.plays_with("damage") else ()),
        show=lambda u: t.units[u].name,
    )

    def lethal(s: Any, b: Backend, v: int, marked: Any) -> Any:
        left = book[0].answer("current_might", s, b, v) - marked
        return b.If(left >= 1, left, 1)

    # Asked for lint only: the damage rules read the same amount off DamageUnit.lethal,
    # and leave a unit that cannot be damaged out of them (DamageUnit.damageable).
    lethal_damage = Question(
        "lethal_damage",
        "how much damage is lethal to this unit?",
        (
            Ruling("undamageable", ("damage.undamageable",), lambda s, b, v: NO_LETHAL,
                   lambda s, b, v: cannot_be_damaged(t, s, v, b),
                   "no amount of damage is lethal to a unit that cannot be damaged", texts={SOURCE: "77"},
                   overrides={r: "undamageable-no-lethal" for r in ("lethal", "reaches-might", "marked-counts")}),
            Ruling("lethal", ("damage.lethal",), lambda s, b, v: lethal(s, b, v, 0), lambda s, b, v: s.damage[v] == 0,
                   "damage, more than zero, that reaches the unit's might", texts={SOURCE: "53"},
                   overrides={"reaches-might": "zero-not-lethal", "cannot-be-destroyed": "indestructible-bound"}),
            # Line 106 destroys a unit whose damage is at least its might: for a
            # unit of might 0 (an effect can set it) no damage at all is enough.
            Ruling("reaches-might", ("qa.both-survive",), lambda s, b, v: 0,
                   lambda s, b, v: b.And(s.damage[v] == 0, book[0].answer("current_might", s, b, v) <= 0),
                   "damage at least the unit's might destroys it: for a unit of might 0, none at all", texts={SOURCE: "106"}),
            Ruling("marked-counts", ("assumed:destroy-lethal",), lambda s, b, v: lethal(s, b, v, s.damage[v]),
                   lambda s, b, v: s.damage[v] > 0, "damage already marked on the unit counts towards lethal",
                   overrides={"cannot-be-destroyed": "indestructible-bound"}),
            # Line 55 asks for lethal damage "that can destroy" the unit: none
            # can destroy one that cannot be destroyed (line 106), which line 53's
            # might-based amount still binds to the assignment rules.
            Ruling("cannot-be-destroyed", ("damage.lethal-first", "qa.both-survive"), lambda s, b, v: NO_LETHAL,
                   lambda s, b, v: t.units[v].indestructible,
                   "lethal damage is damage that can destroy the unit: no amount can destroy one that cannot be destroyed",
                   texts={SOURCE: "55"}),
        ),
        tuple((v,) for v in units),
        asked_at=("combat_damage_step",),
        default=0,
        show=lambda v: t.units[v].name,
        show_answer=lambda n: "none" if n == NO_LETHAL else str(n),
    )

    def beside_damageable(s: Any, b: Backend, v: int) -> Any:
        """``v`` is in the combat beside another unit of its side that can be damaged."""
        side = [w for w in t.units_of(t.units[v].owner) if w != v and not t.units[w].immune]
        return b.And(in_combat(s, b, v), s.role[v] != NO_ROLE,
                     b.Or(*(b.And(at_battlefield(t, s, w, s.combat_bf), s.role[w] == s.role[v],
                                  b.Not(cannot_be_damaged(t, s, w, b))) for w in side)))

    exempt_from_assignment = Question(
        "exempt_from_assignment",
        "may this unit that cannot be damaged take damage while another unit still lacks lethal damage?",
        (
            Ruling("undamageable", ("damage.undamageable",), True, lambda s, b, v: True,
                   "no mandatory assignment rule binds a unit that cannot be damaged", texts={SOURCE: "77"},
                   overrides={"no-overkill": "undamageable-sink"}),
            Ruling("no-overkill", ("damage.no-overkill",), False, beside_damageable,
                   "no unit gets more than its lethal amount while other units remain to be assigned", texts={SOURCE: "59"}),
        ),
        tuple((v,) for v in units if t.units[v].may_be_immune),
        asked_at=("combat_damage_step",),
        show=lambda v: t.units[v].name,
    )

    # Line 49 has each player assign damage equal to their whole total; line 59
    # caps a unit at its lethal amount while there are other units to assign
    # damage to, which every unit of two or more still is once all have lethal.
    # Asked for lint only: the damage rules put the excess anywhere
    # (DamageUnit, damage.no-overkill).
    def assigns_now(s: Any, b: Backend, q: int) -> Any:
        return b.Or(b.And(s.attacker == q, s.stage == ATTACKER_ASSIGNS), b.And(s.defender == q, s.stage == DEFENDER_ASSIGNS))

    def beyond_lethal(s: Any, b: Backend, q: int) -> Any:
        """``q`` assigns now, to two or more opposing units that can be damaged
        and none that cannot, a total more than what is lethal to them all."""
        opposing = b.If(s.attacker == q, DEFENDER, ATTACKER)
        theirs = [v for v in units if t.units[v].owner != q]
        there = {v: b.And(book[0].answer("opposing_unit", s, b, v), s.role[v] == opposing) for v in theirs}
        hit = [b.And(there[v], b.Not(cannot_be_damaged(t, s, v, b))) for v in theirs]
        sink = b.Or(*(b.And(there[v], cannot_be_damaged(t, s, v, b)) for v in theirs if t.units[v].may_be_immune))
        need = b.total([b.If(h, lethal(s, b, v, s.damage[v]), 0) for h, v in zip(hit, theirs)])
        return b.AndThen(b.And(assigns_now(s, b, q), b.count(hit) >= 2, b.Not(sink)),
                         lambda: book[0].answer("damage_total", s, b, q) > need)

    assigns_whole_total = Question(
        "assigns_whole_total",
        "does this player assign their whole total, damage beyond what is lethal to every opposing unit included?",
        (
            Ruling("whole-total", ("damage.assign",), True, lambda s, b, q: in_the_combat(s, q, b),
                   "each player assigns damage equal to their total might", texts={SOURCE: "49"},
                   overrides={"lethal-cap": "excess-anywhere"}),
            Ruling("lethal-cap", ("damage.no-overkill",), False, beyond_lethal,
                   "no unit gets more than its lethal damage while there are other units to assign damage to, "
                   "so what is left once all have it cannot be assigned", texts={SOURCE: "59"}),
        ),
        tuple((p,) for p in players),
        asked_at=("combat_damage_step",),
        # Line 13: a combat is between two players; nobody else assigns its damage.
        default_texts={SOURCE: "13"},
        show=player,
    )

    # Line 81 deals every unit what was assigned to it; lines 77-79 speak of a
    # unit that cannot be dealt damage (Kayn, immune to damage), which the
    # model's reading of line 77 lets the assigner give damage to (R3).
    damage_dealt = Question(
        "damage_dealt",
        "how much damage is this unit dealt as the combat damage is dealt?",
        (
            Ruling("as-assigned", ("damage.deal",), lambda s, b, u: s.assigned[u], always,
                   "each unit is dealt as much damage as was assigned to it", texts={SOURCE: "81"}),
            Ruling("undamageable", ("damage.undamageable",), lambda s, b, u: 0, lambda s, b, u: cannot_be_damaged(t, s, u, b),
                   "a unit that cannot be damaged is dealt none", texts={SOURCE: "77-79"},
                   overrides={"as-assigned": "undamageable-takes-none"}),
        ),
        tuple((u,) for u in units),
        asked_at=("combat_damage_step",),
        default=0,
        show=lambda u: t.units[u].name,
    )

    # -- the resolution step --------------------------------------------------------------
    def left_empty(s: Any, b: Backend) -> Any:
        return b.Not(b.Or(*(at_battlefield(t, s, u, s.combat_bf) for u in units)))

    controller_after_combat = Question(
        "controller_after_combat",
        "who controls the battlefield of the combat once it is over?",
        (
            Ruling("control", ("resolution.control", "resolution.any-player"),
                   lambda s, b: sole_player_at(t, after_recall(t, s, b), s.combat_bf, b),
                   lambda s, b: b.Not(left_empty(s, b)), "the player whose units remain there holds it", texts={SOURCE: "95"}),
            Ruling("all-destroyed", ("qa.equal-might",), lambda s, b: NOBODY,
                   lambda s, b: b.And(left_empty(s, b), s.stage == DEALING),
                   "damage was dealt and nobody remains: the battlefield is open", texts={SOURCE: "102"}),
            Ruling("emptied", ("assumed:control-needs-units",), lambda s, b: NOBODY,
                   lambda s, b: b.And(left_empty(s, b), s.stage != DEALING),
                   "no damage was dealt and nobody remains: the battlefield is open all the same"),
        ),
        ((),),
        asked_at=("resolution_step",),
        default=NOBODY,
        show=lambda: "the battlefield of the combat",
        show_answer=player,
    )

    # -- stun_ends_with_combat(): how long a stun lasts ----------------------------------------
    # Line 106 says a stunned unit deals no damage, and 003 says nothing more
    # of stuns: not when one ends. The combat cleanup keeps or ends them;
    # asked once, as the edges are built.
    stun_ends_with_combat = Question(
        "stun_ends_with_combat",
        "do the units' stuns end at the cleanup of a combat?",
        (
            Ruling("lasts-the-turn", ("assumed:stun-lasts-turn",), False, always,
                   "a stun lasts until the turn ends, past the combat it was put on in"),
        ),
        ((),),
        asked_at=("resolution_step",),
        fixed=True,
        show=lambda: "the combat cleanup",
    )

    # -- conquers(p): a conquest as the combat ends -----------------------------------------
    def combat_scored(s: Any, b: Backend, p: int) -> Any:
        return b.select(s.scored, p * t.battlefields + s.combat_bf, False)

    def takes_it(s: Any, b: Backend, p: int) -> Any:
        """``p`` holds the battlefield once the combat is over and did not hold it before."""
        return b.And(book[0].answer("controller_after_combat", s, b) == p,
                     b.select(s.controller, s.combat_bf, NOBODY) != p)

    conquers = Question(
        "conquers",
        "does this player conquer the battlefield of the combat as it ends, and score there?",
        (
            Ruling("conquest", ("resolution.control", "resolution.conquer", "resolution.any-player"), True,
                   lambda s, b, p: b.And(takes_it(s, b, p), b.Not(combat_scored(s, b, p))),
                   "the player who takes the battlefield conquers it, unless they have scored there this turn",
                   texts={SOURCE: "95-98"}, overrides={"defender-keeps": "defender-already-held"}),
            # Line 106 presumes a defender who holds the battlefield; one who did
            # not (both sides reached an open battlefield before a cleanup
            # settled it) takes it by line 95.
            Ruling("defender-keeps", ("qa.both-survive",), False,
                   lambda s, b, p: b.And(s.defender == p, side_present(t, s, ATTACKER, b), side_present(t, s, DEFENDER, b)),
                   "units of both sides survive: the attackers go home and the defender keeps the battlefield without scoring",
                   texts={SOURCE: "106"}),
        ),
        tuple((p,) for p in players),
        asked_at=("resolution_step",),
        # Line 97: a conquest is taking control of it; who takes nothing conquers nothing.
        default_texts={SOURCE: "95-97"},
        show=player,
    )

    # -- conquest_points(): what a conquest scores -------------------------------------------
    # Line 97 makes taking the battlefield a conquest when its player has not
    # scored there this turn, and line 102 says nobody scores when nobody is
    # left to take it: a conquest scores, but 003 never says how much. Asked
    # once, as the edges are built.
    conquest_points = Question(
        "conquest_points",
        "how many points does a conquest score?",
        (
            Ruling("one-point", ("assumed:conquest-point",), lambda s, b: 1, always, "a conquest scores one point"),
        ),
        ((),),
        asked_at=("resolution_step", "cleanup"),
        default=0,
        fixed=True,
        show=lambda: "a conquest",
    )

    # -- uncontested_controller(bf): a contest settled without a combat ------------------------
    uncontested_controller = Question(
        "uncontested_controller",
        "who holds a contested battlefield that a cleanup settles without a combat?",
        (
            Ruling("uncontested", ("assumed:uncontested-control",),
                   lambda s, b, bf: b.If(b.And(needs_settling(t, s, bf, b), sole_player_at(t, s, bf, b) != NOBODY),
                                         sole_player_at(t, s, bf, b), s.controller[bf]),
                   lambda s, b, bf: True,
                   "the one player with units there takes it; with nobody there, or no contest to settle, it stays as it was"),
        ),
        tuple((bf,) for bf in battlefields),
        asked_at=("cleanup",),
        default=lambda s, b, bf: s.controller[bf],
        show=t.battlefield_name,
        show_answer=player,
    )

    # -- conquers_uncontested(p, bf): a battlefield taken without a combat -----------------
    # Lines 95-97 make taking control a conquest in a combat's resolution step;
    # 003 never says whether a battlefield taken without a combat scores.
    def takes_unscored(s: Any, b: Backend, p: int, bf: int) -> Any:
        """A cleanup hands ``bf`` to ``p`` without a combat, and ``p`` has not scored there this turn."""
        takes = b.And(needs_settling(t, s, bf, b), book[0].answer("uncontested_controller", s, b, bf) == p, s.controller[bf] != p)
        return b.And(takes, b.Not(s.scored[p * t.battlefields + bf]))

    conquers_uncontested = Question(
        "conquers_uncontested",
        "does this player conquer a battlefield that a cleanup hands them without a combat, and score there?",
        (
            Ruling("no-conquest", ("resolution.conquer",), False, lambda s, b, p, bf: b.Not(takes_unscored(s, b, p, bf)),
                   "a conquest is taking control of it when one has not scored there this turn", texts={SOURCE: "95-97"}),
            Ruling("uncontested-conquest", ("assumed:uncontested-control",), True, takes_unscored,
                   "the player who takes it without a combat conquers it"),
        ),
        tuple((p, bf) for p in players for bf in battlefields),
        asked_at=("cleanup",),
        show=lambda p, bf: f"{player(p)} at {t.battlefield_name(bf)}",
    )

    # -- scores_by_holding(p, bf): the start of a turn ----------------------------------
    scores_by_holding = Question(
        "scores_by_holding",
        "does this player score for this battlefield by holding it as their turn begins?",
        (
            Ruling("hold", ("assumed:hold",), True, lambda s, b, p, bf: True,
                   "each battlefield a player holds scores a point as their turn begins"),
        ),
        tuple((p, bf) for p in players for bf in battlefields),
        asked_at=("action_phase",),
        show=lambda p, bf: f"{player(p)} at {t.battlefield_name(bf)}",
    )

    questions = (valid_destination, attacker, defender, focus, next_focus, showdown_ends, combat_may_begin, begins_mid_combat, keeps_role, counts_as_moved, is_a_move, contests, played_to_base, may_play_to,
                 rallies_from_afar, here, destroyed_by_effect, chain_order, first_to_act, next_to_act, damage_step_happens, opposing_unit, current_might, counts_in_total, damage_total, destroyed_by_damage, lethal_damage,
                 exempt_from_assignment, assigns_whole_total, damage_dealt, controller_after_combat, stun_ends_with_combat, conquers, conquest_points, uncontested_controller,
                 conquers_uncontested, scores_by_holding)
    read = READING.derive(reading, (SOURCE,), (q.name for q in questions))
    book.append(RuleBook(questions, PRINCIPLES, reading=read, game="riftbound"))
    return book[0]
