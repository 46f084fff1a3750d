"""Riftbound combat as a state-machine graph (seed ``003_04f893fe0d5f9a25.txt``).

The seed has no rule numbers; each paragraph has an id ``section.topic`` in
``model/riftbound/rules.yaml``. The flow, with the choice points a player
meets and the steps the game takes by itself:

- ``action_phase``: the turn player moves a unit from base to a battlefield
  (assumed:standard-move) or ends the turn (assumed:turn-end); at a table
  with action spells he may cast a recall or a play (assumed:action-spells);
- ``action_chain``: with reactions at such a table, that spell waits on a
  chain outside any showdown, every player with a reaction left asked in turn
  as on a showdown's chain; each link resolves into a cleanup, which begins no
  combat while links remain (combat.start, 003:7);
- ``cleanup``: contests without a fight are settled, then every pending
  combat is offered to the turn player, who picks which begins
  (combat.start, combat.pending, combat.pending.order);
- ``chain``: the showdown begins with roles and focus; its initial chain's
  triggers resolve from the top while the showdown is closed
  (showdown.initial-chain, showdown.closed); with reactions at the table
  (assumed:chain-reactions) the spells cast in the showdown wait here too,
  and before each link resolves every player with a reaction left is asked
  in turn to cast one on top or pass (showdown.actions);
- ``showdown``: the player with focus casts a spell or passes
  (showdown.actions, assumed:showdown-focus); ``showdown_cleanup`` gives
  late arrivals their roles (showdown.late-roles);
- ``combat_damage_step``: attacker, then defender, assigns a whole legal
  assignment (``model/riftbound/damage.py``), then all of it is dealt at once;
- ``resolution_step``: the combat cleanup, control and conquest.

Units are the table's (``model/riftbound/table.py``); their zone, damage,
role, stun, buff and assigned damage are state.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Callable

from model.backend import CONCRETE, Backend
from model.machine import BOOL, GAME_OVER, BoundSpec, Edge, IntRange, Location, Machine, Var
from model.riftbound import REGISTRY
from model.riftbound.damage import DamageUnit, is_legal
from model.riftbound.rulings import (
    LastState, after_recall, at_battlefield, cannot_be_damaged, chain_empty, in_the_combat, is_pending, needs_settling, next_seat, next_trigger, rulebook,
)
from model.riftbound.table import (
    ATTACKER, ATTACKER_ASSIGNS, BASE, DEALING, DEFENDER, DEFENDER_ASSIGNS, FIRST_BATTLEFIELD, HAND, NO_ROLE, NOBODY,
    ROLE_NAMES, TRASH, Table, Unit, default_table,
)
from model.rulings import RuleBook

BOUNDS = (
    BoundSpec("players", 2, 2, 3, "players at the table; with 3 the multiplayer placement rules apply"),
    BoundSpec("battlefields", 2, 1, 2, "battlefields on the table"),
    BoundSpec("turns", 2, 1, 4, "turns explored before the search stops"),
    BoundSpec("spells", 1, 0, 2, "showdown spells each player may cast in the whole game"),
    BoundSpec("victory_points", 2, 1, 8, "points that win the game (assumed:victory), scaled down from the game's"),
    BoundSpec("reactions", 0, 0, 2, "spells each player may cast on a chain in the whole game (assumed:chain-reactions)"),
    BoundSpec("action_spells", 0, 0, 1, "spells each player may cast in his action phase in the whole game (assumed:action-spells)"),
)

# ---------------------------------------------------------------------------
# What a guard reads off a state


def might(book: RuleBook, s: Any, u: int, b: Backend) -> Any:
    """Current might (current_might): printed, +1 while the rallying buff lasts (assumed:rallying-cry)."""
    return book.answer("current_might", s, b, u)


def _contest(book: RuleBook, s: Any, p: int, bf: int, b: Backend) -> Any:
    """contests (assumed:contested): who contests ``bf`` once a unit of ``p`` arrives there."""
    return b.If(book.answer("contests", s, b, p, bf), p, s.contested_by[bf])


def _conquest(t: Table, book: RuleBook, s: Any, bf: int, conquest: tuple[Any, ...], b: Backend) -> dict[str, Any]:
    """resolution.conquer: each player ``conquest`` names (as the rule book
    answers ``conquers`` or ``conquers_uncontested``) scores at ``bf`` what a
    conquest is worth (conquest_points), once per battlefield per turn."""
    points, scored = list(s.points), list(s.scored)
    worth = book.fixed("conquest_points")
    for p, conquers in enumerate(conquest):
        k = p * t.battlefields + bf
        points[p] = b.If(conquers, points[p] + worth, points[p])
        scored[k] = b.Or(s.scored[k], conquers)
    return {"points": tuple(points), "scored": tuple(scored)}


def _count_move(t: Table, s: Any, u: int, counts: Any, b: Backend) -> dict[str, Any]:
    """damage.undamageable (003:79): a move of the seed's Kayn, where ``counts``
    holds, adds to his moves this turn (two make him immune; more change
    nothing). Nothing for any other unit: only his immunity reads the count."""
    if not t.units[u].immune_after_two_moves:
        return {}
    return {"moves": b.store(s.moves, u, b.If(b.And(counts, s.moves[u] < 2), s.moves[u] + 1, s.moves[u]))}


# ---------------------------------------------------------------------------
# Edges


def _action_phase_edges(t: Table, book: RuleBook, any_length: bool) -> list[Edge]:
    edges = []
    for u, unit in enumerate(t.units):
        for bf in range(t.battlefields):
            p = unit.owner

            def guard(s: Any, b: Backend, u: int = u, p: int = p, bf: int = bf) -> Any:
                return b.And(s.turn_player == p, s.zone[u] == BASE, b.Not(s.moved[u]), book.answer("valid_destination", s, b, p, bf))

            def update(s: Any, b: Backend, u: int = u, p: int = p, bf: int = bf) -> dict[str, Any]:
                return {
                    "zone": b.store(s.zone, u, FIRST_BATTLEFIELD + bf),
                    "moved": b.store(s.moved, u, True),
                    "contested_by": b.store(s.contested_by, bf, _contest(book, s, p, bf, b)),
                    **_count_move(t, s, u, True, b),
                }

            edges.append(
                Edge(
                    f"move[{unit.name} to {t.battlefield_name(bf)}]",
                    "action_phase",
                    "cleanup",
                    ("assumed:standard-move", "assumed:contested", "combat.multiplayer.no-destination", "combat.third-player-invalid", "combat.start")
                    + (("damage.undamageable",) if unit.immune_after_two_moves else ()),
                    guard,
                    update,
                    actor=lambda s, b: s.turn_player,
                    tags=frozenset({"moves"}),
                    doc=f"the turn player moves {unit.name} from base to {t.battlefield_name(bf)}; a cleanup follows",
                )
            )

    def end_turn(s: Any, b: Backend) -> dict[str, Any]:
        n = len(t.units)
        nxt = next_seat(t, s.turn_player, b)
        # scores_by_holding: the new turn player scores each battlefield they
        # hold, which marks it scored for the turn like a conquest.
        holds = [
            [b.And(nxt == p, s.controller[bf] == p, book.answer("scores_by_holding", s, b, p, bf)) for bf in range(t.battlefields)]
            for p in range(t.players)
        ]
        return {
            "turn_player": nxt,
            **({} if any_length else {"turns_taken": s.turns_taken + 1}),
            "moved": (False,) * n,
            "stunned": (False,) * n,
            "damage": (0,) * n,
            **({"moves": (0,) * n} if t.counts_moves else {}),
            "scored": tuple(holds[p][bf] for p in range(t.players) for bf in range(t.battlefields)),
            "points": tuple(s.points[p] + b.count(holds[p]) for p in range(t.players)),
        }

    edges.append(
        Edge(
            "end_turn",
            "action_phase",
            "cleanup",
            ("assumed:turn-end", "qa.damage-cleared", "assumed:stun-lasts-turn", "assumed:hold")
            + (("damage.undamageable",) if t.counts_moves else ()),
            (lambda s, b: True) if any_length else (lambda s, b: s.turns_taken + 1 < t.turns),
            end_turn,
            actor=lambda s, b: s.turn_player,
            tags=frozenset({"ends_turn"}),
            doc="the turn passes to the next seat, who scores what they hold; moves, stuns, damage and scoring start afresh",
        )
    )
    if any_length:
        return edges
    edges.append(
        Edge(
            "turn_limit",
            "action_phase",
            "out_of_turns",
            (),
            lambda s, b: s.turns_taken + 1 >= t.turns,
            actor=lambda s, b: s.turn_player,
            tags=frozenset({"bound", "ends_turn"}),
            doc="the exploration bound on turns, not a rule",
        )
    )
    return edges


def _cleanup_edges(t: Table, book: RuleBook) -> list[Edge]:
    bfs = range(t.battlefields)

    def any_settling(s: Any, b: Backend) -> Any:
        return b.Or(*(needs_settling(t, s, bf, b) for bf in bfs))

    def someone_won(s: Any, b: Backend) -> Any:
        return b.Or(*(s.points[p] >= t.victory_points for p in range(t.players)))

    def settle(s: Any, b: Backend) -> dict[str, Any]:
        controller, contested = list(s.controller), list(s.contested_by)
        changes: dict[str, Any] = {"points": s.points, "scored": s.scored}
        for bf in bfs:
            settling = needs_settling(t, s, bf, b)
            # uncontested_controller: the one player there, or the old holder if nobody is.
            holder = b.If(settling, book.answer("uncontested_controller", s, b, bf), NOBODY)
            view = s._replace(points=changes["points"], scored=changes["scored"])
            conquest = tuple(book.answer("conquers_uncontested", s, b, p, bf) for p in range(t.players))
            changes.update(_conquest(t, book, view, bf, conquest, b))
            controller[bf] = b.If(settling, holder, s.controller[bf])
            contested[bf] = b.If(settling, NOBODY, s.contested_by[bf])
        return {**changes, "controller": tuple(controller), "contested_by": tuple(contested)}

    edges = [
        Edge(
            "settle_contests",
            "cleanup",
            "cleanup",
            ("assumed:uncontested-control", "resolution.conquer"),
            any_settling,
            settle,
            tags=frozenset({"conquers"}),
            doc="a contested battlefield with one player's units goes to that player; an empty one stops being contested",
        ),
        Edge(
            "game_won",
            "cleanup",
            "game_over",
            ("assumed:victory",),
            lambda s, b: b.And(b.Not(any_settling(s, b)), someone_won(s, b)),
            doc="a player has the points that win the game",
        ),
    ]
    calm = lambda s, b: b.And(b.Not(any_settling(s, b)), b.Not(someone_won(s, b)))  # noqa: E731
    # combat.start (003:7, combat_may_begin): a combat begins only at a cleanup
    # where the chain holds no effect; only a chain outside a showdown is ever
    # on the table here.
    chain_clear = (lambda s, b: book.answer("combat_may_begin", s, b)) if t.chains_outside else (lambda s, b: True)
    for bf in bfs:
        edges.append(
            Edge(
                f"start_combat[{t.battlefield_name(bf)}]",
                "cleanup",
                "chain",
                ("combat.start", "combat.pending.order", "combat.two-players", "showdown.attacker", "assumed:attacker-gone", "showdown.defender",
                 "showdown.unit-roles", "showdown.focus", "showdown.initial-chain", "showdown.closed"),
                lambda s, b, bf=bf: b.And(calm(s, b), chain_clear(s, b), is_pending(t, s, bf, b)),
                lambda s, b, bf=bf: _begin_showdown(t, book, s, bf, b),
                actor=lambda s, b: s.turn_player,
                tags=frozenset({"starts_combat"}),
                doc=f"the turn player has the combat at {t.battlefield_name(bf)} begin",
            )
        )
    edges.append(
        Edge(
            "cleanup_done",
            "cleanup",
            "action_phase",
            ("combat.pending.dropped", "combat.start"),
            lambda s, b: b.And(calm(s, b), chain_clear(s, b), *(b.Not(is_pending(t, s, bf, b)) for bf in bfs)),
            doc="no combat is pending: play goes on (a combat that stopped being pending is not resolved)",
        )
    )
    if t.chains_outside:
        edges.append(
            Edge(
                "chain_goes_on",
                "cleanup",
                "action_chain",
                ("combat.start", "assumed:action-spells", "assumed:chain-reactions"),
                lambda s, b: b.And(calm(s, b), b.Not(chain_clear(s, b))),
                lambda s, b: _ask(t, book, s, b, {}),
                doc="links wait on the chain: no combat begins, and the players are asked to act on the next link",
            )
        )
    return edges


def _begin_showdown(t: Table, book: RuleBook, s: Any, bf: int, b: Backend) -> dict[str, Any]:
    """showdown.attacker, showdown.defender, showdown.unit-roles, showdown.focus,
    showdown.initial-chain: roles from who contested ``bf``; the rallying units
    that take a role, and the units that rally from afar outside it, put their
    triggers on the initial chain; with reactions at the table, a player is
    asked to act on it (first_to_act_on_chain)."""
    attacker = book.answer("attacker", s, b, bf)
    defender = book.answer("defender", s, b, bf)
    roles, triggers = [], []
    for u, unit in enumerate(t.units):
        here = at_battlefield(t, s, u, bf)
        role = b.If(here, b.If(attacker == unit.owner, ATTACKER, b.If(defender == unit.owner, DEFENDER, NO_ROLE)), NO_ROLE)
        roles.append(role)
        # assumed:afar-trigger: a unit in play outside the combat triggers too (rallies_from_afar).
        fired = ([here] if unit.rallying else []) + ([book.answer("rallies_from_afar", s, b, u, bf)] if unit.afar else [])
        triggers.append(b.Or(*fired) if fired else False)
    changes = {
        "combat_bf": bf,
        "contested_by": b.store(s.contested_by, bf, attacker),
        "attacker": attacker,
        "defender": defender,
        "focus": book.answer("focus", s, b, bf),
        "passes": 0,
        "stage": ATTACKER_ASSIGNS,
        "role": tuple(roles),
        "trigger": tuple(triggers),
    }
    return _ask(t, book, s._replace(**changes), b, changes)


def _ask(t: Table, book: RuleBook, after: Any, b: Backend, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes``, which lead to the state ``after``, and, with reactions at
    the table, who is asked to act on its chain (first_to_act_on_chain)."""
    if not t.reacts:
        return changes
    return {**changes, "asked": book.answer("first_to_act_on_chain", after, b)}


def _chain_edges(t: Table, book: RuleBook) -> list[Edge]:
    """The chain: the showdown is closed while it is on the table
    (showdown.closed). Its links resolve from the top: the initial chain's
    triggers (showdown.initial-chain) and, with reactions, the spells cast on
    it (assumed:chain-reactions), before each of which every player who may
    act on it is asked in turn (showdown.actions)."""
    edges = []
    # last_link_resolves_first: the chain resolves from its top (assumed:chain-order).
    top_first = book.fixed("last_link_resolves_first")
    # With reactions, a trigger waits under the spells put on it and for every player asked to pass.
    waiting = (lambda s, b: b.And(s.asked == NOBODY, s.links[0] == 0)) if t.reacts else (lambda s, b: True)
    for u, unit in enumerate(t.units):
        if not unit.buffable:
            continue

        def resolve(s: Any, b: Backend, u: int = u) -> dict[str, Any]:
            # A trigger does nothing once its unit has left play (assumed:rallying-cry,
            # assumed:afar-trigger); a reaction may have sent it home first (assumed:chain-reactions).
            in_play = b.Or(s.zone[u] == BASE, s.zone[u] >= FIRST_BATTLEFIELD)
            changes = {"trigger": b.store(s.trigger, u, False), "buffed": b.store(s.buffed, u, b.Or(s.buffed[u], in_play))}
            return _ask(t, book, s._replace(**changes), b, changes)

        edges.append(
            Edge(
                f"resolve_top_link[{unit.name}]",
                "chain",
                "chain",
                ("showdown.initial-chain", "showdown.closed", "assumed:afar-trigger" if unit.afar else "assumed:rallying-cry")
                + (("assumed:chain-reactions",) if t.reacts else ()),
                lambda s, b, u=u: b.And(waiting(s, b), next_trigger(t, s, u, b, top_first)),
                resolve,
                tags=frozenset({"resolves"}),
                doc=f"the top trigger of the initial chain, {unit.name}'s {'rally from afar' if unit.afar else 'rallying cry'}, resolves",
            )
        )
    edges.append(
        Edge(
            "open_showdown",
            "chain",
            "showdown",
            ("showdown.closed", "showdown.focus-kept"),
            lambda s, b: chain_empty(t, s, b),
            doc="no initial chain, or it has resolved: the showdown is open and focus has not moved",
        )
    )
    if not t.reacts:
        return edges
    edges.append(_pass_on_chain(book, "pass_on_chain", "chain", ("showdown.actions", "assumed:chain-reactions")))
    for i, (kind, u, bf) in enumerate(t.castable):
        rules = _spell_rules(t, kind, u) + ("showdown.actions", "assumed:chain-reactions")
        react, cast, on_top, takes_effect = _chain_link(t, book, i, kind, u, bf)

        edges.append(
            Edge(
                f"reaction[{t.spell_name(i)}]",
                "chain",
                "chain",
                rules,
                react,
                cast,
                actor=_asked,
                tags=frozenset({"spell", "reaction"}),
                doc=f"the player asked casts a reaction on the chain: {t.spell_name(i)}",
                prefilter=_someone_asked,
            )
        )

        def resolve_spell(s: Any, b: Backend, takes_effect: Callable[[Any, Backend], dict[str, Any]] = takes_effect) -> dict[str, Any]:
            return {**takes_effect(s, b), "links": s.links[1:] + (0,)}

        edges.append(
            Edge(
                f"resolve_link[{t.spell_name(i)}]",
                "chain",
                "showdown_cleanup",
                rules,
                on_top,
                resolve_spell,
                tags=frozenset({"resolves"}),
                doc=f"every player asked has passed: the spell on top, {t.spell_name(i)}, resolves (or does nothing, its target gone)",
                prefilter=_top_resolves,
            )
        )
    return edges


def _chain_link(t: Table, book: RuleBook, i: int, kind: str, u: int, bf: int) -> tuple[Callable[..., Any], ...]:
    """What castable spell ``i`` brings to any chain, in a showdown or outside
    one (showdown.actions, assumed:chain-reactions, assumed:action-spells):
    whether the player asked may cast it as a reaction, the cast, whether its
    link is on top, and the changes it makes as it resolves."""
    owner = t.units[u].owner

    def react(s: Any, b: Backend) -> Any:
        # The player asked casts it, his own units' where the spell needs one.
        mine = s.asked == owner if kind in OWN_UNIT_SPELLS else s.asked != NOBODY
        # The target, which asks the rule book, only where the player asked may cast at all.
        return b.AndThen(b.And(mine, b.select(s.reactions, s.asked) > 0), lambda: _target_ok(t, book, s, b, kind, u, s.asked, bf))

    def cast(s: Any, b: Backend) -> dict[str, Any]:
        changes = {"reactions": b.store(s.reactions, s.asked, b.select(s.reactions, s.asked) - 1),
                   "links": _push(s, t.link_code(i, s.asked))}
        return _ask(t, book, s._replace(**changes), b, changes)

    def on_top(s: Any, b: Backend) -> Any:
        return b.And(s.asked == NOBODY, b.Or(*(s.links[0] == t.link_code(i, p) for p in range(t.players))))

    def takes_effect(s: Any, b: Backend) -> dict[str, Any]:
        # A spell whose target has become one it cannot take does nothing (assumed:chain-reactions).
        caster = (s.links[0] - 1) % t.players
        effect = _effect(t, book, s, b, kind, u, caster, bf)
        takes = _target_ok(t, book, s, b, kind, u, caster, bf)
        return {k: _if_each(b, takes, v, getattr(s, k)) for k, v in effect.items()}

    return react, cast, on_top, takes_effect


def _asked(s: Any, b: Backend) -> Any:
    """The player asked to act on a chain: who acts by passing or reacting."""
    return s.asked


def _pass_on_chain(book: RuleBook, name: str, location: str, rules: tuple[str, ...]) -> Edge:
    """The player asked to act on a chain, in a showdown or outside one,
    passes; the rule book names the next player asked, or nobody, and then
    the top link resolves."""
    return Edge(
        name,
        location,
        location,
        rules,
        lambda s, b: s.asked != NOBODY,
        lambda s, b: {"asked": book.answer("next_to_act_on_chain", s, b)},
        actor=_asked,
        tags=frozenset({"passes"}),
        doc="the player asked to act on the chain passes; the next is asked, or the top link resolves",
    )


def _someone_asked(s: Any, b: Backend) -> Any:
    """A player is asked to act on the chain: the prefilter every reaction shares."""
    return s.asked != NOBODY


def _top_resolves(s: Any, b: Backend) -> Any:
    """Nobody is asked and a spell tops the chain: the prefilter every spell link's resolution shares."""
    return b.And(s.asked == NOBODY, s.links[0] != 0)


def _push(s: Any, code: Any) -> tuple:
    """The chain's spells with ``code`` put on top (links are kept top first)."""
    return (code,) + s.links[:-1]


def _if_each(b: Backend, cond: Any, then: Any, other: Any) -> Any:
    if isinstance(then, tuple):
        return tuple(b.If(cond, x, y) for x, y in zip(then, other))
    return b.If(cond, then, other)


def _spell(t: Table, book: RuleBook, s: Any, b: Backend, **changes: Any) -> dict[str, Any]:
    """assumed:showdown-focus: a spell spends budget, focus moves on, passes start over."""
    return {
        "spells": b.store(s.spells, s.focus, b.select(s.spells, s.focus) - 1),
        "focus": book.answer("next_focus", s, b),
        "passes": 0,
        **changes,
    }


#: Spells a player casts on a unit of their own (assumed:showdown-spells).
OWN_UNIT_SPELLS = ("move_to_combat", "play_unit")


def _target_ok(t: Table, book: RuleBook, s: Any, b: Backend, kind: str, u: int, p: Any, bf: int) -> Any:
    """assumed:showdown-spells: what each spell may take, cast by ``p`` (asked
    again as it resolves from a chain, assumed:chain-reactions): recall, a unit
    at a battlefield; stun, one in the combat not stunned yet; move into the
    combat, one's own unit at base, where the combat's battlefield is a
    destination for its player (valid_destination: past two players, only a
    player of the combat with a unit there); play, one's own unit in hand, to
    a battlefield its player may name (may_play_to)."""
    if kind == "recall":
        return s.zone[u] >= FIRST_BATTLEFIELD
    if kind == "stun":
        return b.And(at_battlefield(t, s, u, s.combat_bf), b.Not(s.stunned[u]))
    if kind == "move_to_combat":
        owner = t.units[u].owner
        enter = b.Or(*(b.And(s.combat_bf == x, book.answer("valid_destination", s, b, owner, x)) for x in range(t.battlefields)))
        return b.And(s.zone[u] == BASE, in_the_combat(s, owner, b), enter)
    # may_play_to: whether its player may name that battlefield (003 lines 16-17).
    return b.And(s.zone[u] == HAND, book.answer("may_play_to", s, b, t.units[u].owner, bf))


def _effect(t: Table, book: RuleBook, s: Any, b: Backend, kind: str, u: int, p: Any, bf: int) -> dict[str, Any]:
    """What a spell does as it resolves (assumed:showdown-spells)."""
    if kind == "recall":
        # keeps_role: whether the recalled unit keeps its role (assumed:showdown-spells: it does not).
        return {"zone": b.store(s.zone, u, BASE),
                "role": b.store(s.role, u, b.If(book.answer("keeps_role", s, b, u), s.role[u], NO_ROLE)),
                **_count_move(t, s, u, book.answer("is_a_move", s, b, "recall"), b)}
    if kind == "stun":
        return {"stunned": b.store(s.stunned, u, True)}
    if kind == "move_to_combat":
        # counts_as_moved: a spell's move uses up the unit's move.
        return {"zone": b.store(s.zone, u, FIRST_BATTLEFIELD + s.combat_bf),
                "moved": b.store(s.moved, u, b.Or(s.moved[u], book.answer("counts_as_moved", s, b, u))),
                **_count_move(t, s, u, book.answer("is_a_move", s, b, "move_to_combat"), b)}
    # combat.multiplayer.no-play, combat.multiplayer.play-to-base: with more than
    # two players, a unit played where a combat it is not part of is pending or
    # running goes to its controller's base instead (played_to_base).
    owner = t.units[u].owner
    outsider = book.answer("played_to_base", s, b, owner, bf)
    effect = _when_played(t, book, s, u, owner, bf, b)
    zone = effect.pop("zone", s.zone)
    return {
        **effect,
        "zone": b.store(zone, u, b.If(outsider, BASE, FIRST_BATTLEFIELD + bf)),
        "contested_by": b.store(s.contested_by, bf, b.If(outsider, s.contested_by[bf], _contest(book, s, owner, bf, b))),
    }


def _spell_rules(t: Table, kind: str, u: int) -> tuple[str, ...]:
    unit = t.units[u]
    kayn = ("damage.undamageable",) if unit.immune_after_two_moves else ()
    if kind == "recall":
        return ("assumed:showdown-spells", "combat.pending.dropped") + kayn
    if kind == "stun":
        return ("assumed:showdown-spells", "qa.both-survive")
    if kind == "move_to_combat":
        return ("assumed:showdown-spells", "showdown.late-roles", "combat.multiplayer.no-destination", "combat.third-player-invalid") + kayn
    rules = ("assumed:showdown-spells", "assumed:contested", "combat.multiplayer.no-play", "combat.multiplayer.play-to-base",
             "assumed:play-redirected", "showdown.late-roles")
    if unit.when_played:
        rules += ("assumed:here-trigger", "combat.multiplayer.here-is-base") + (
            ("qa.both-survive", "assumed:immune-not-destroyed") if unit.when_played == "destroy"
            else ("damage.undamageable", "qa.damage-cleared") if unit.when_played == "damage" else ("assumed:stun-lasts-turn",))
    return rules


#: The spells that need no combat: the only ones cast outside a showdown (assumed:action-spells).
OUTSIDE_SPELLS = ("recall", "play_unit")


def _resolve_outside(t: Table, book: RuleBook, s: Any, b: Backend, effect: dict[str, Any]) -> dict[str, Any]:
    """assumed:action-spells: a spell's ``effect`` outside a showdown, with the
    first part of the cleanup after it: a unit that a played unit's damage made
    lethal is destroyed (assumed:destroy-lethal). The rest of that cleanup is
    the ``cleanup`` location's."""
    if not t.plays_with("damage"):
        return effect
    return {**effect, **_destroy_lethal(t, book, s._replace(**effect), b)}


def _action_spell_edges(t: Table, book: RuleBook) -> list[Edge]:
    """assumed:action-spells: in his action phase the turn player casts a recall
    or a play within his budget of such spells. With no reaction at the table
    it resolves at once; with reactions it waits on a chain outside any
    showdown (``action_chain``), where every player with a reaction left is
    asked in turn (first_to_act_on_chain, next_to_act_on_chain) to cast a
    recall or a play on top or pass; each link resolves into a cleanup
    (assumed:chain-reactions: a spell whose target has become one it cannot
    take does nothing). Stun and a move into the combat need a combat."""
    if not t.casts_outside:
        return []
    edges = []
    spells = [(i, kind, u, bf) for i, (kind, u, bf) in enumerate(t.castable) if kind in OUTSIDE_SPELLS]
    for i, kind, u, bf in spells:
        owner = t.units[u].owner
        rules = _spell_rules(t, kind, u) + ("assumed:action-spells",) + (("assumed:chain-reactions",) if t.reacts else ())

        def guard(s: Any, b: Backend, kind: str = kind, u: int = u, bf: int = bf, owner: int = owner) -> Any:
            mine = (s.turn_player == owner,) if kind in OWN_UNIT_SPELLS else ()
            return b.AndThen(b.And(b.select(s.action_spells, s.turn_player) > 0, *mine),
                             lambda: _target_ok(t, book, s, b, kind, u, s.turn_player, bf))

        def spend(s: Any, b: Backend) -> dict[str, Any]:
            return {"action_spells": b.store(s.action_spells, s.turn_player, b.select(s.action_spells, s.turn_player) - 1)}

        if t.reacts:
            def update(s: Any, b: Backend, i: int = i) -> dict[str, Any]:
                changes = {**spend(s, b), "links": _push(s, t.link_code(i, s.turn_player))}
                return _ask(t, book, s._replace(**changes), b, changes)
        else:
            def update(s: Any, b: Backend, kind: str = kind, u: int = u, bf: int = bf) -> dict[str, Any]:
                return {**_resolve_outside(t, book, s, b, _effect(t, book, s, b, kind, u, s.turn_player, bf)), **spend(s, b)}

        edges.append(
            Edge(
                f"action_spell[{t.spell_name(i)}]",
                "action_phase",
                "action_chain" if t.reacts else "cleanup",
                rules,
                guard,
                update,
                actor=lambda s, b: s.turn_player,
                tags=frozenset({"spell"}),
                doc="in the action phase, " + SPELL_DOCS[kind].format(unit=t.units[u].name, bf=t.battlefield_name(bf)),
            )
        )
    if not t.reacts:
        return edges
    edges.append(_pass_on_chain(book, "pass_on_action_chain", "action_chain", ("assumed:action-spells", "assumed:chain-reactions")))
    for i, kind, u, bf in spells:
        rules = _spell_rules(t, kind, u) + ("assumed:action-spells", "assumed:chain-reactions")
        react, cast, on_top, takes_effect = _chain_link(t, book, i, kind, u, bf)

        edges.append(
            Edge(
                f"action_reaction[{t.spell_name(i)}]",
                "action_chain",
                "action_chain",
                rules,
                react,
                cast,
                actor=_asked,
                tags=frozenset({"spell", "reaction"}),
                doc=f"the player asked casts a reaction on the chain outside a showdown: {t.spell_name(i)}",
                prefilter=_someone_asked,
            )
        )

        def resolve_spell(s: Any, b: Backend, takes_effect: Callable[[Any, Backend], dict[str, Any]] = takes_effect) -> dict[str, Any]:
            return {**_resolve_outside(t, book, s, b, takes_effect(s, b)), "links": s.links[1:] + (0,)}

        edges.append(
            Edge(
                f"resolve_action_link[{t.spell_name(i)}]",
                "action_chain",
                "cleanup",
                rules + ("combat.start",),
                on_top,
                resolve_spell,
                tags=frozenset({"resolves"}),
                doc=f"every player asked has passed: the spell on top, {t.spell_name(i)}, resolves (or does nothing, "
                    "its target gone); a cleanup follows",
                prefilter=_top_resolves,
            )
        )
    return edges


SPELL_DOCS = {
    "recall": "a spell returns {unit} from its battlefield to base",
    "stun": "a spell stuns {unit} in the combat",
    "move_to_combat": "a spell moves {unit} from base into the combat; it takes its role at the cleanup",
    "play_unit": "a spell plays {unit} from hand to {bf}",
}


def _showdown_edges(t: Table, book: RuleBook) -> list[Edge]:
    focus = lambda s, b: s.focus  # noqa: E731
    can_cast = lambda s, b: b.select(s.spells, s.focus) > 0  # noqa: E731
    edges = [
        Edge(
            "pass_focus",
            "showdown",
            "showdown",
            ("showdown.actions", "assumed:showdown-focus"),
            # showdown_ends: a pass that does not end the showdown.
            lambda s, b: b.Not(book.answer("showdown_ends", s, b)),
            lambda s, b: {"passes": s.passes + 1, "focus": book.answer("next_focus", s, b)},
            actor=focus,
            tags=frozenset({"passes"}),
            doc="the player with focus passes; focus moves to the next seat",
        ),
        Edge(
            "showdown_ends",
            "showdown",
            "combat_damage_step",
            ("assumed:showdown-focus", "damage.step"),
            lambda s, b: book.answer("showdown_ends", s, b),
            lambda s, b: {"passes": s.passes + 1, "focus": NOBODY},
            actor=focus,
            tags=frozenset({"passes"}),
            doc="every player has passed in succession: the showdown closes and combat damage follows",
        ),
    ]
    for i, (kind, u, bf) in enumerate(t.castable):
        owner = t.units[u].owner

        def guard(s: Any, b: Backend, kind: str = kind, u: int = u, bf: int = bf, owner: int = owner) -> Any:
            mine = (s.focus == owner,) if kind in OWN_UNIT_SPELLS else ()
            return b.AndThen(b.And(can_cast(s, b), *mine), lambda: _target_ok(t, book, s, b, kind, u, s.focus, bf))

        if t.reacts:
            # assumed:chain-reactions: the spell waits on the chain while players are asked to act on it.
            def update(s: Any, b: Backend, i: int = i) -> dict[str, Any]:
                changes = _spell(t, book, s, b, links=_push(s, t.link_code(i, s.focus)))
                return _ask(t, book, s._replace(**changes), b, changes)
        else:
            # Nobody can act on the chain: the spell resolves at once.
            def update(s: Any, b: Backend, kind: str = kind, u: int = u, bf: int = bf) -> dict[str, Any]:
                return _spell(t, book, s, b, **_effect(t, book, s, b, kind, u, s.focus, bf))

        name = f"{kind}[{t.units[u].name}" + (f" to {t.battlefield_name(bf)}]" if bf != NOBODY else "]")
        edges.append(
            Edge(
                name,
                "showdown",
                "chain" if t.reacts else "showdown_cleanup",
                _spell_rules(t, kind, u) + (("assumed:chain-reactions",) if t.reacts else ()),
                guard,
                update,
                actor=focus,
                tags=frozenset({"spell"}),
                doc=SPELL_DOCS[kind].format(unit=t.units[u].name, bf=t.battlefield_name(bf)),
            )
        )

    def late_roles(s: Any, b: Backend) -> dict[str, Any]:
        # assumed:destroy-lethal: damage a played unit dealt destroys first (destroyed_by_damage).
        destroyed = _destroy_lethal(t, book, s, b) if t.plays_with("damage") else {}
        s = s._replace(**destroyed)
        roles = []
        for u, unit in enumerate(t.units):
            arrived = b.And(at_battlefield(t, s, u, s.combat_bf), s.role[u] == NO_ROLE)
            role = b.If(s.attacker == unit.owner, ATTACKER, b.If(s.defender == unit.owner, DEFENDER, NO_ROLE))
            roles.append(b.If(arrived, role, s.role[u]))
        changes = {**destroyed, "role": tuple(roles)}
        return _ask(t, book, s._replace(**changes), b, changes)

    def one_combat(s: Any, b: Backend) -> Any:
        """begins_mid_combat (combat.start, combat.pending.order): no combat
        pending elsewhere begins at this cleanup; it waits for this one to end."""
        return b.And(*(b.Not(book.answer("begins_mid_combat", s, b, bf)) for bf in range(t.battlefields)))

    rules = ("showdown.late-roles", "combat.pending.order", "assumed:running-combat-first") \
        + (("assumed:destroy-lethal", "damage.lethal", "qa.both-survive") if t.plays_with("damage") else ())
    doc = "the cleanup after a spell: " + ("units with lethal damage are destroyed, " if t.plays_with("damage") else "") \
        + "units of attacker or defender that arrived take their roles; a combat pending elsewhere waits"
    edges.append(
        Edge(
            "showdown_cleanup",
            "showdown_cleanup",
            "showdown",
            rules + (("showdown.closed",) if t.reacts else ()),
            (lambda s, b: b.And(chain_empty(t, s, b), one_combat(s, b))) if t.reacts else one_combat,
            update=late_roles,
            doc=doc + ("; the chain is empty: the showdown is open" if t.reacts else ""),
        )
    )
    if t.reacts:
        edges.append(
            Edge(
                "showdown_cleanup_chain_waits",
                "showdown_cleanup",
                "chain",
                rules + ("showdown.closed", "assumed:chain-reactions"),
                lambda s, b: b.And(b.Not(chain_empty(t, s, b)), one_combat(s, b)),
                update=late_roles,
                doc=doc + "; links remain on the chain, which goes on resolving",
            )
        )
    return edges


def _to_trash(t: Table, s: Any, gone: dict[int, Any], b: Backend, clear_damage: bool = True) -> dict[str, Any]:
    """assumed:destroy-lethal: each unit ``gone`` names (where its condition
    holds) goes to its owner's trash and keeps no role, buff, stun or move;
    nor its damage, unless the combat cleanup is about to clear it
    (resolution.clear-damage)."""
    zone, damage, role = list(s.zone), list(s.damage), list(s.role)
    buffed, moved, stunned = list(s.buffed), list(s.moved), list(s.stunned)
    moves = list(s.moves) if t.counts_moves else []
    for u, lethal in gone.items():
        if moves:
            moves[u] = b.If(lethal, 0, s.moves[u])
        zone[u] = b.If(lethal, TRASH, s.zone[u])
        role[u] = b.If(lethal, NO_ROLE, s.role[u])
        buffed[u] = b.And(b.Not(lethal), s.buffed[u])
        moved[u] = b.And(b.Not(lethal), s.moved[u])
        stunned[u] = b.And(b.Not(lethal), s.stunned[u])
        if clear_damage:
            damage[u] = b.If(lethal, 0, s.damage[u])
    return {"zone": tuple(zone), "damage": tuple(damage), "role": tuple(role),
            "buffed": tuple(buffed), "moved": tuple(moved), "stunned": tuple(stunned),
            **({"moves": tuple(moves)} if moves else {})}


def _destroy_lethal(t: Table, book: RuleBook, s: Any, b: Backend) -> dict[str, Any]:
    """assumed:destroy-lethal, damage.lethal, qa.both-survive: a unit in play
    whose damage is lethal goes to the trash (destroyed_by_damage; one that
    cannot be damaged never has any)."""
    in_play = lambda u: b.Or(s.zone[u] == BASE, s.zone[u] >= FIRST_BATTLEFIELD)  # noqa: E731
    return _to_trash(t, s, {u: b.And(in_play(u), b.Not(cannot_be_damaged(t, s, u, b)), book.answer("destroyed_by_damage", s, b, u))
                            for u, unit in enumerate(t.units) if not unit.immune}, b)


def _when_played(t: Table, book: RuleBook, s: Any, u: int, p: int, bf: int, b: Backend) -> dict[str, Any]:
    """assumed:here-trigger, combat.multiplayer.here-is-base: what the trigger
    of ``u``, played by ``p`` to ``bf``, does to every enemy unit 'here' (the
    here question: that battlefield, or ``p``'s base where the unit went
    instead; a base holds its owner's units only, so no enemy is ever there).
    Stun lasts the turn (assumed:stun-lasts-turn); damage spares a unit that
    cannot be damaged (damage.undamageable) and destroys at the cleanup after
    the spell; destroy spares what cannot be destroyed (destroyed_by_effect)."""
    effect = t.units[u].when_played
    if not effect:
        return {}
    here = book.answer("here", s, b, p, bf)
    hit = {v: b.And(here != BASE, s.zone[v] == here) for v, unit in enumerate(t.units) if unit.owner != p}
    if effect == "stun":
        return {"stunned": tuple(b.Or(s.stunned[v], hit[v]) if v in hit else s.stunned[v] for v in range(len(t.units)))}
    if effect == "damage":
        return {"damage": tuple(s.damage[v] + b.If(b.And(hit[v], b.Not(cannot_be_damaged(t, s, v, b))), 1, 0)
                                if v in hit and not t.units[v].immune else s.damage[v] for v in range(len(t.units)))}
    return _to_trash(t, s, {v: b.And(hit[v], book.answer("destroyed_by_effect", s, b, v)) for v in hit}, b)


def _damage_units(t: Table, book: RuleBook, s: Any, assigner: int, targets: tuple[int, ...], b: Backend) -> tuple[DamageUnit, ...]:
    """The opposing units in the combat as the damage rules see them."""
    opposing = b.If(s.attacker == assigner, DEFENDER, ATTACKER)
    return tuple(
        DamageUnit(
            t.units[v].name,
            might(book, s, v, b),
            tank=t.units[v].tank,
            last=t.units[v].last,
            immune=cannot_be_damaged(t, s, v, b),
            marked=s.damage[v],
            present=b.And(book.answer("opposing_unit", s, b, v), s.role[v] == opposing),
            exempt=book.answer("exempt_from_assignment", s, b, v) if t.units[v].may_be_immune else True,
        )
        for v in targets
    )


def possible_assignments(t: Table, q: int, targets: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The assignments player ``q`` could ever make at this table (a vector
    over ``targets``): for each opponent (combat.two-players: one at a time),
    each set of their units in the combat, their buffs, the damage a played
    unit may have marked on them (assumed:here-trigger) and each total up to
    ``q``'s most might, every legal split that the damage module's Z3
    enumeration finds. Only these get an edge, so an assignment edge that is
    never taken is a fact of the table or the rules, not padding."""
    most = t.most_might(q)
    # assumed:here-trigger: each Spark Sapper played may leave 1 damage on a unit
    # before the damage step, which lowers what is lethal to it (damage.lethal).
    sappers = sum(u.when_played == "damage" for u in t.units)
    found: set[tuple[int, ...]] = set()
    for r in range(t.players):
        if r == q:
            continue
        theirs = [v for v in targets if t.units[v].owner == r]
        for split in _splits_against(tuple(_damage_traits(t.units[v]) for v in theirs), most, sappers):
            amounts = dict(zip(theirs, split))
            found.add(tuple(amounts.get(v, 0) for v in targets))
    return sorted(found)


def _damage_traits(unit: Unit) -> tuple[int, bool, bool, bool, bool, bool]:
    """What of a unit the damage rules can read: its printed might and keywords,
    whether it may rally (+1 might) and whether it may be immune."""
    return (unit.might, unit.tank, unit.last, unit.immune, unit.immune_after_two_moves, unit.buffable)


@functools.lru_cache(maxsize=None)
def _splits_against(traits: tuple[tuple[int, bool, bool, bool, bool, bool], ...], most: int, sappers: int) -> frozenset[tuple[int, ...]]:
    """Every split over one opponent's units (``_damage_traits``, in order)
    that some combat can make legal with a total up to ``most``. Remembered by
    what the rules read, not by table: the agreement harness builds a table
    per game, and most of its tables share their units' traits."""
    found: set[tuple[int, ...]] = set()
    for present in itertools.product((False, True), repeat=len(traits)):
        here = [k for k, p in enumerate(present) if p]
        if not here:
            continue
        rallying = [k for k in here if traits[k][5]]
        splits: set[tuple[int, ...]] = set()
        for buffs in itertools.product((0, 1), repeat=len(rallying)):
            buff = dict(zip(rallying, buffs))
            mights = [traits[k][0] + buff.get(k, 0) for k in here]
            # A unit can carry no more marked damage than its might (damage.lethal): any more destroys it.
            marks = [range(1) if traits[k][3] else range(min(sappers, max(0, m)) + 1) for k, m in zip(here, mights)]
            # Kayn may or may not be immune (damage.undamageable): both are met.
            shields = [(False, True) if traits[k][4] else (traits[k][3],) for k in here]
            for marked, immune in itertools.product(itertools.product(*marks), itertools.product(*shields)):
                units = tuple(
                    DamageUnit(f"#{n}", m, tank=traits[k][1], last=traits[k][2], immune=i, marked=d)
                    for n, (k, m, d, i) in enumerate(zip(here, mights, marked, immune))
                )
                splits.update(_legal_splits(units, most))
        # Each split of the units there, as a vector over all of the opponent's (the others get nothing).
        for split in splits:
            amounts = dict(zip(here, split))
            found.add(tuple(amounts.get(k, 0) for k in range(len(traits))))
    return frozenset(found)


@functools.lru_cache(maxsize=None)
def _legal_splits(units: tuple[DamageUnit, ...], most: int) -> tuple[tuple[int, ...], ...]:
    """The legal splits of every total up to ``most`` (``legal_assignments``).

    A unit that cannot be damaged is bound by no assignment rule and binds
    none (damage.undamageable, the model's reading: ``DamageUnit.exempt``), so
    the splits with it are those of the others, with any amount left over put
    on it: asking Z3 for each of them would cost one check per split, many
    more than the others have. The others' splits follow damage.no-overkill:
    below the sum of their lethal amounts no unit gets more than its own, so
    each candidate under those caps is decided on plain values (``is_legal``,
    by ``_splits_below``); from that sum on, the legal splits give each unit
    at least its lethal amount and the excess anywhere.
    tests/test_riftbound_kayn.py compares these splits with Z3's enumeration
    (``legal_assignments``)."""
    shielded = next((i for i, u in enumerate(units) if u.immune is True and u.exempt is True), None)
    if shielded is not None:
        rest = _legal_splits(units[:shielded] + units[shielded + 1:], most)
        return tuple(sorted(s[:shielded] + (k,) + s[shielded:] for s in rest for k in range(most - sum(s) + 1)))
    # No rule names a unit or reads their order, so reordering the units
    # reorders their splits: each mix is decided once, in the order of what
    # the rules read of its units, and its splits put back in the given order.
    order = sorted(range(len(units)), key=lambda i: _rule_shape(units[i]))
    place = {i: k for k, i in enumerate(order)}
    below = [tuple(s[place[i]] for i in range(len(units)))
             for s in _splits_below(tuple(_rule_shape(units[i]) for i in order)) if sum(s) <= most]
    lethal = tuple(u.lethal for u in units)
    above = [tuple(x + y for x, y in zip(lethal, extra))
             for excess in range(most - sum(lethal) + 1) for extra in _compositions(excess, len(units))]
    return tuple(sorted(below + above))


def _rule_shape(u: DamageUnit) -> tuple[Any, ...]:
    """What the assignment rules read of a unit: its lethal amount (might and
    marked damage count only through it, damage.lethal), keywords and state."""
    return (u.lethal, u.tank, u.last, u.immune, u.present, u.exempt)


@functools.lru_cache(maxsize=None)
def _splits_below(shapes: tuple[tuple[Any, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The legal splits of the units of these shapes (``_rule_shape``, in this
    order) whose total falls short of the sum of their lethal amounts,
    remembered: the tables read off many games meet the same mixes again,
    under every total their players can have."""
    units = tuple(DamageUnit(f"#{k}", lethal, tank, last, immune, 0, present, exempt)
                  for k, (lethal, tank, last, immune, present, exempt) in enumerate(shapes))
    lethal = tuple(u.lethal for u in units)
    hit = tuple(u.damageable(CONCRETE) for u in units)
    # damage.lethal-first leaves at most one unit that can be damaged short of
    # its lethal amount with some damage: only such candidates go to ``is_legal``.
    return tuple(a for a in itertools.product(*(range(x + 1) for x in lethal))
                 if sum(a) < sum(lethal) and sum(h and 0 < x < y for h, x, y in zip(hit, a, lethal)) <= 1
                 and is_legal(units, sum(a), a, CONCRETE))


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to split ``total`` into ``parts`` amounts of zero or more, in order."""
    if parts == 0:
        return [()] if total == 0 else []
    return [(k,) + rest for k in range(total + 1) for rest in _compositions(total - k, parts - 1)]


def _damage_edges(t: Table, book: RuleBook) -> list[Edge]:
    edges = [
        Edge(
            "skip_damage",
            "combat_damage_step",
            "resolution_step",
            ("damage.both-present",),
            lambda s, b: b.Not(book.answer("damage_step_happens", s, b)),
            doc="attacking or defending units are gone: no combat damage",
        )
    ]
    # Every assignment edge of a state asks the same of it: whether the damage
    # step happens, each assigner's total and the units he assigns to.  Each is
    # read off the book once for the last state asked, on any backend.
    remembered = LastState()

    def step_happens(s: Any, b: Backend) -> Any:
        return remembered(s, ("happens", b.name), lambda: book.answer("damage_step_happens", s, b))

    def assigner_total(s: Any, q: int, b: Backend) -> Any:
        return remembered(s, ("total", q, b.name), lambda: _assigner_total(t, book, s, q, b))

    def assigns_now(s: Any, q: int, b: Backend) -> Any:
        """It is ``q``'s turn to assign in a damage step that happens: read once
        per state for all of ``q``'s assignment edges."""
        def read() -> Any:
            turn = b.Or(b.And(s.attacker == q, s.stage == ATTACKER_ASSIGNS), b.And(s.defender == q, s.stage == DEFENDER_ASSIGNS))
            return b.And(turn, step_happens(s, b))
        return remembered(s, ("now", q, b.name), read)

    def damage_units(s: Any, q: int, targets: tuple[int, ...], b: Backend) -> tuple[DamageUnit, ...]:
        return remembered(s, ("units", q, b.name), lambda: _damage_units(t, book, s, q, targets, b))

    ready_for: dict[tuple[int, int], Callable[[Any, Backend], Any]] = {}
    for q in range(t.players):
        targets = tuple(u for u in range(len(t.units)) if t.units[u].owner != q)
        for amounts in possible_assignments(t, q, targets):
            shown = ", ".join(f"{t.units[v].name} {a}" for v, a in zip(targets, amounts) if a) or "nothing"

            if (q, sum(amounts)) not in ready_for:
                def ready(s: Any, b: Backend, q: int = q, total: int = sum(amounts)) -> Any:
                    """q assigns now, and his total is this one (damage.assign): one
                    function for all of q's assignments of that total, so that a
                    state asks it once for all of them (the edges' prefilter)."""
                    return remembered(s, ("ready", q, total, b.name), lambda: b.And(assigns_now(s, q, b), assigner_total(s, q, b) == total))

                ready_for[q, sum(amounts)] = ready
            ready = ready_for[q, sum(amounts)]

            def guard(s: Any, b: Backend, q: int = q, targets: tuple = targets, amounts: tuple = amounts, ready=ready) -> Any:
                # The turn and the total are cheap to test first (and are the
                # edge's prefilter); is_legal implies them and decides the
                # rest, over arrays only on the rows where they hold.
                now = ready(s, b)
                return b.AndThen(
                    now,
                    lambda: is_legal(damage_units(s, q, targets, b), assigner_total(s, q, b), amounts, b, asked=now),
                )

            def update(s: Any, b: Backend, targets: tuple = targets, amounts: tuple = amounts) -> dict[str, Any]:
                assigned = list(s.assigned)
                for v, a in zip(targets, amounts):
                    assigned[v] = s.assigned[v] + a
                return {"assigned": tuple(assigned), "stage": s.stage + 1}

            edges.append(
                Edge(
                    f"assign_damage[{t.player_name(q)}: {shown}]",
                    "combat_damage_step",
                    "combat_damage_step",
                    ("damage.assign", "damage.totals", "damage.lethal", "damage.lethal-first", "damage.no-overkill",
                     "damage.requirements", "damage.same-priority", "damage.exclusive", "damage.exclusive.each-unit",
                     "damage.undamageable", "damage.assign-not-deal"),
                    guard,
                    update,
                    actor=lambda s, b, q=q: q,
                    tags=frozenset({"assigns"}),
                    doc=f"{t.player_name(q)} assigns combat damage: {shown}",
                    prefilter=ready,
                )
            )

    def deal(s: Any, b: Backend) -> dict[str, Any]:
        # damage.deal, damage.undamageable: what line 81 deals each unit (damage_dealt).
        dealt = s._replace(damage=tuple(s.damage[u] + book.answer("damage_dealt", s, b, u) for u in range(len(t.units))))
        # assumed:destroy-lethal: a destroyed unit keeps nothing but the damage
        # the combat cleanup clears (resolution.clear-damage); one that cannot
        # be destroyed (qa.both-survive) keeps its damage till then. No damage
        # is lethal to a unit that cannot be damaged (damage.undamageable).
        gone = {u: b.And(b.Not(cannot_be_damaged(t, s, u, b)), book.answer("destroyed_by_damage", s, b, u))
                for u, unit in enumerate(t.units) if not unit.immune}
        return {**_to_trash(t, dealt, gone, b, clear_damage=False), "assigned": (0,) * len(t.units)}

    edges.append(
        Edge(
            "deal_damage",
            "combat_damage_step",
            "resolution_step",
            ("damage.assign-not-deal", "damage.deal", "damage.undamageable", "assumed:destroy-lethal", "qa.equal-might", "qa.both-survive"),
            lambda s, b: s.stage == DEALING,
            deal,
            tags=frozenset({"deals_damage"}),
            doc="all assigned damage is dealt at once; units with lethal damage are destroyed",
        )
    )
    return edges


def _assigner_total(t: Table, book: RuleBook, s: Any, q: int, b: Backend) -> Any:
    """damage.totals: the damage ``q`` assigns (damage_total)."""
    return book.answer("damage_total", s, b, q)


def _resolution_edge(t: Table, book: RuleBook) -> Edge:
    def resolve(s: Any, b: Backend) -> dict[str, Any]:
        n = len(t.units)
        after = after_recall(t, s, b)  # resolution.recall: attackers go home while a defender holds on
        changes: dict[str, Any] = {"zone": after.zone}
        controller, contested = list(s.controller), list(s.contested_by)
        points, scored = s.points, s.scored
        holder = book.answer("controller_after_combat", s, b)
        conquers = tuple(book.answer("conquers", s, b, p) for p in range(t.players))
        for bf in range(t.battlefields):
            here = s.combat_bf == bf
            view = after._replace(points=points, scored=scored)
            won = _conquest(t, book, view, bf, tuple(b.And(here, c) for c in conquers), b)
            points, scored = won["points"], won["scored"]
            controller[bf] = b.If(here, holder, s.controller[bf])
            contested[bf] = b.If(here, NOBODY, s.contested_by[bf])  # resolution.clear-contested
        changes.update(
            damage=(0,) * n,  # resolution.clear-damage
            # assumed:stun-lasts-turn (stun_ends_with_combat): a stun outlasts its combat.
            stunned=(False,) * n if book.fixed("stun_ends_with_combat") else s.stunned,
            role=(NO_ROLE,) * n,  # resolution.clear-roles
            buffed=(False,) * n,
            controller=tuple(controller),
            contested_by=tuple(contested),
            points=points,
            scored=scored,
            combat_bf=NOBODY,
            attacker=NOBODY,
            defender=NOBODY,
            focus=NOBODY,
            passes=0,
            stage=ATTACKER_ASSIGNS,
        )
        return changes

    return Edge(
        "resolve_combat",
        "resolution_step",
        "cleanup",
        ("resolution.cleanup", "resolution.clear-damage", "resolution.recall", "resolution.clear-roles",
         "resolution.clear-contested", "resolution.control", "resolution.conquer", "resolution.any-player",
         "assumed:control-needs-units", "qa.equal-might", "qa.both-survive", "qa.damage-cleared", "assumed:stun-lasts-turn"),
        update=resolve,
        tags=frozenset({"conquers", "resolves_combat"}),
        doc="the combat cleanup: damage cleared, attackers recalled if defenders remain, roles and contest cleared, control and conquest",
    )


# ---------------------------------------------------------------------------
# The machine


def build(
    players: int = 2,
    battlefields: int = 2,
    turns: int = 2,
    spells: int = 1,
    victory_points: int = 2,
    reactions: int = 0,
    action_spells: int = 0,
    table: Table | None = None,
    any_length: bool = False,
    reading: str | None = None,
) -> Machine:
    """The model at the given bounds. ``any_length`` builds the model of games
    of any number of turns, for unbounded proofs: it only drops the turn
    counter. Nothing else grows without end (spells are spent, points stop at
    the victory total), so its state space is finite and the same as the
    game's: no abstraction is needed. ``reading`` names the source to read
    the rules by (``model/riftbound/rulings.py``); None: the model's own."""
    t = table or default_table(players, battlefields, spells, turns, victory_points, reactions, action_spells)
    book = rulebook(t, reading)
    n, P, B = len(t.units), t.players, t.battlefields
    # A unit that cannot be destroyed keeps its damage; each played unit's trigger may add 1 (assumed:here-trigger).
    damage_cap = max(t.most_damage, max(u.might for u in t.units) + 1) + sum(u.when_played == "damage" for u in t.units)
    variables = [
        Var("turn_player", IntRange(0, P - 1), (t.turn_player,), doc="whose turn it is"),
        Var("zone", IntRange(0, t.zones - 1), (), length=n, doc="each unit's zone: hand, base, trash or a battlefield", start=tuple(u.start for u in t.units)),
        Var("damage", IntRange(0, damage_cap), (0,), length=n, doc="damage marked on each unit"),
        Var("role", IntRange(0, 2), (NO_ROLE,), length=n, doc="each unit's combat role (showdown.unit-roles)"),
        Var("stunned", BOOL, (False,), length=n, doc="stunned units deal no combat damage (qa.both-survive)"),
        Var("moved", BOOL, (False,), length=n, doc="units that made their standard move this turn"),
        *([Var("moves", IntRange(0, 2), (0,), length=n, doc="Kayn's moves this turn, up to the two that make him immune (damage.undamageable)")]
          if t.counts_moves else []),
        Var("buffed", BOOL, (False,), length=n, doc="the rallying +1 might, until the end of the combat"),
        Var("trigger", BOOL, (False,), length=n, doc="rallying triggers on the initial chain (showdown.initial-chain)"),
        Var("assigned", IntRange(0, t.most_damage), (0,), length=n, doc="combat damage assigned, not yet dealt"),
        Var("controller", IntRange(NOBODY, P - 1), (), length=B, doc="who controls each battlefield", start=t.controllers),
        Var("contested_by", IntRange(NOBODY, P - 1), (NOBODY,), length=B, doc="who contested each battlefield"),
        # A cleanup scores at most one conquest per battlefield (or a point for each one held as a
        # turn begins); the game ends at the victory total.
        Var("points", IntRange(0, max(t.victory_points - 1 + B * max(1, book.fixed("conquest_points")), *(t.points or (0,)))), (0,),
            length=P, doc="each player's points", start=t.points),
        Var("scored", BOOL, (False,), length=P * B, doc="player p scored at battlefield i this turn: index p*battlefields+i", start=t.scored),
        Var("spells", IntRange(0, max(t.spells, *(t.spell_budgets or (0,)))), (t.spells,), length=P, doc="showdown spells each player may still cast", start=t.spell_budgets),
        Var("combat_bf", IntRange(NOBODY, B - 1), (NOBODY,), doc="the battlefield of the running combat"),
        Var("attacker", IntRange(NOBODY, P - 1), (NOBODY,), doc="the attacking player (showdown.attacker)"),
        Var("defender", IntRange(NOBODY, P - 1), (NOBODY,), doc="the defending player (showdown.defender)"),
        Var("focus", IntRange(NOBODY, P - 1), (NOBODY,), doc="who holds focus in the showdown"),
        Var("passes", IntRange(0, P), (0,), doc="passes in succession in the showdown"),
        Var("stage", IntRange(0, 2), (ATTACKER_ASSIGNS,), doc="who assigns next: attacker, defender, or dealing"),
    ]
    if t.reacts:
        variables += [
            Var("reactions", IntRange(0, max(t.reactions, *(t.reaction_budgets or (0,)))), (t.reactions,), length=P,
                doc="reactions each player may still cast on a chain (assumed:chain-reactions)", start=t.reaction_budgets),
            Var("links", IntRange(0, t.link_code(len(t.castable) - 1, P - 1)), (0,), length=t.chain_depth,
                doc="the spells on the chain, the top first: Table.link_code of spell and caster, 0 for none"),
            Var("asked", IntRange(NOBODY, P - 1), (NOBODY,), doc="the player asked to act on the chain (nobody: its top link resolves)"),
        ]
    if t.casts_outside:
        variables.append(Var("action_spells", IntRange(0, max(t.action_spells, *(t.action_spell_budgets or (0,)))), (t.action_spells,),
                             length=P, doc="spells each player may still cast in his action phase (assumed:action-spells)",
                             start=t.action_spell_budgets))
    if not any_length:
        variables.insert(1, Var("turns_taken", IntRange(0, t.turns), (0,), doc="turns ended, for the turn bound"))
    locations = [
        Location("action_phase", ("assumed:standard-move",), "the turn player moves units or ends the turn"),
        Location("cleanup", ("combat.start",), "after a move or a combat: contests settle, pending combats begin"),
        Location("chain", ("showdown.initial-chain", "showdown.closed") + (("showdown.actions", "assumed:chain-reactions") if t.reacts else ()),
                 "the showdown is closed while its chain resolves" + (", each player asked acting on it in turn" if t.reacts else "")),
        *([Location("action_chain", ("assumed:action-spells", "assumed:chain-reactions", "combat.start"),
                    "a chain outside a showdown: each player asked acts on it in turn, and no combat begins while it holds a link")]
          if t.chains_outside else []),
        Location("showdown", ("showdown.actions",), "an open showdown: the player with focus acts"),
        Location("showdown_cleanup", ("showdown.late-roles",), "the cleanup after a spell in the showdown"),
        Location("combat_damage_step", ("damage.step",), "combat damage is assigned, then dealt"),
        Location("resolution_step", ("resolution.cleanup",), "the combat cleanup, control and conquest"),
        Location("game_over", ("assumed:victory",), "a player has won", terminal=GAME_OVER),
    ]
    if not any_length:
        locations.append(Location("out_of_turns", (), f"{t.turns} turns explored", terminal="turn bound reached"))
    edges = (
        _action_phase_edges(t, book, any_length)
        + _cleanup_edges(t, book)
        + _action_spell_edges(t, book)
        + _chain_edges(t, book)
        + _showdown_edges(t, book)
        + _damage_edges(t, book)
        + [_resolution_edge(t, book)]
    )
    bounds = {"players": P, "battlefields": B, "turns": t.turns, "spells": t.spells, "victory_points": t.victory_points}
    if t.reactions:
        bounds["reactions"] = t.reactions
    if t.action_spells:
        bounds["action_spells"] = t.action_spells
    return Machine("riftbound", variables, locations, "action_phase", edges, REGISTRY, bounds, describe, table=t, rulings=book)


def describe(m: Machine, s: Any) -> dict[str, str]:
    """What a judge reads off a state: turn, battlefields, combat, each player's units."""
    t: Table = m.table
    counted = f" (turn {s.turns_taken + 1})" if hasattr(s, "turns_taken") else ""
    aspects = {"turn": t.player_name(s.turn_player) + counted}
    for bf in range(t.battlefields):
        marks = [f"held by {t.player_name(s.controller[bf])}" if s.controller[bf] != NOBODY else "open"]
        if s.contested_by[bf] != NOBODY:
            marks.append(f"contested by {t.player_name(s.contested_by[bf])}")
        aspects[t.battlefield_name(bf)] = ", ".join(marks)
    if s.combat_bf != NOBODY:
        aspects["combat"] = (
            f"at {t.battlefield_name(s.combat_bf)}: {t.player_name(s.attacker)} attacks {t.player_name(s.defender)}, "
            f"focus {t.player_name(s.focus)}, passes {s.passes}, "
            + ("attacker assigns" if s.stage == ATTACKER_ASSIGNS else "defender assigns" if s.stage == DEFENDER_ASSIGNS else "dealing")
        )
    else:
        aspects["combat"] = "none"
    if t.reacts:
        spells = [f"{t.player_name((code - 1) % t.players)}'s {t.spell_name((code - 1) // t.players)}" for code in s.links if code]
        aspects["chain"] = ("spells, top first: " + "; ".join(spells) if spells else "no spell") + (
            f"; {t.player_name(s.asked)} asked to act" if s.asked != NOBODY else "")
        aspects["reactions"] = ", ".join(f"{t.player_name(p)} {s.reactions[p]}" for p in range(t.players))
    for p in range(t.players):
        units = []
        for u in t.units_of(p):
            marks = [t.zone_name(s.zone[u])]
            if s.role[u] != NO_ROLE:
                marks.append(ROLE_NAMES[s.role[u]])
            immune = t.units[u].immune_after_two_moves and s.moves[u] >= 2
            for flag, label in ((s.stunned[u], "stunned"), (s.moved[u], "moved"), (immune, "moved twice, immune"), (s.buffed[u], "+1"),
                                (s.trigger[u], "trigger on chain")):
                if flag:
                    marks.append(label)
            if s.damage[u]:
                marks.append(f"{s.damage[u]} damage")
            if s.assigned[u]:
                marks.append(f"{s.assigned[u]} assigned")
            units.append(f"{t.units[u].name} ({', '.join(marks)})")
        scored = [t.battlefield_name(bf) for bf in range(t.battlefields) if s.scored[p * t.battlefields + bf]]
        aspects[t.player_name(p)] = (
            f"{s.points[p]} points" + (f" (scored at {', '.join(scored)})" if scored else "")
            + f", {s.spells[p]} spells"
            + (f", {s.action_spells[p]} action spells" if t.casts_outside else "") + "; " + "; ".join(units)
        )
    return aspects
