"""Priority windows and the chain (409, 413.7, CR7.4 707-711).

Every window, in the turn or in combat, has the same edges: play an instant,
pass clockwise, and the final pass of a succession, which either resolves the
top link (409.4a) or, on an empty chain, closes the window (409.4b).  What a
link does as it resolves depends on its kind; effects the model does not
track (most instants, strikes, non-ally non-instants) just leave the chain.
A board's spells deal damage as they resolve, and the pre-priority checks
follow at once (``spell_edges``).
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, Sequence

from model.backend import Backend
from model.machine import Edge
from model.wowtcg import roles
from model.wowtcg.rulings import NO_PRIORITY_POINTS
from model.wowtcg.watchers import SPELL_COMBAT_DAMAGE
from model.wowtcg.table import BEAR_FORM_LINK, CARD_KINDS, INSTANT_LINK, NON_INSTANT_LINK, POWER_LINK, STRIKE_LINK, Table

#: Windows that belong to a combat step (602.1, 602.3), where removal from combat matters.
COMBAT_WINDOWS = ("attack_window", "defend_window")


def holder(s: Any, b: Backend) -> Any:
    return s.priority_holder


def turn_player(s: Any, b: Backend) -> Any:
    return s.turn_player


def window_edges(
    t: Table,
    window: str,
    may_pass: Callable[[Any, Backend], Any] | None = None,
    may_add: Callable[[Any, Backend], Any] | None = None,
) -> list[Edge]:
    """The edges every priority window shares, except the ones that close it (see ``closing``).

    ``may_pass`` and ``may_add`` are extra conditions on passing and on
    playing an instant (600.2 in the action phase).
    """
    chain = t.chain

    def pass_allowed(s: Any, b: Backend) -> Any:
        return True if may_pass is None else may_pass(s, b)

    edges = [
        Edge(
            f"play_instant@{window}",
            window,
            window,
            ("408.1", "409.1", "409.2", "409.3", "413.7a"),
            guard=lambda s, b: b.AndThen(
                b.And(
                    t.has_priority(s, b), t.in_hand(s, b, "instant", s.priority_holder) > 0, b.Not(chain.is_full(s)),
                    # A player in bear form plays an instant by the edge that ends it (below).
                    *((t.out_of_bear_form(s, b, s.priority_holder),) if any(t.bear) else ()),
                ),
                lambda: True if may_add is None else may_add(s, b),
            ),
            update=lambda s, b: {
                **t.take_from_hand(s, b, "instant", s.priority_holder),
                **chain.push(s, b, controller=s.priority_holder, kind=INSTANT_LINK),
                **t.fresh_succession(),
            },
            actor=holder,
            tags=frozenset({"adds_link"}),
            doc="the player with priority plays an instant and keeps priority",
        ),
        Edge(
            f"pass_priority@{window}",
            window,
            window,
            ("409.1", "409.4") + (("600.2", "600.3") if may_pass else ()),
            guard=lambda s, b: b.And(t.has_priority(s, b), s.passes + 1 < t.remaining(s, b), pass_allowed(s, b)),
            update=lambda s, b: {
                "priority_holder": t.next_clockwise(s, b, s.priority_holder),
                "passes": s.passes + 1,
                "passed": b.store(s.passed, s.priority_holder, True),
            },
            actor=holder,
            tags=frozenset({"passes"}),
            doc="the player with priority passes it clockwise",
        ),
    ]

    # The model's instants are abilities, none Feral: one played while its
    # player's hero is in bear form ends it (CR7.4 glossary, Bear Form; 001:198).
    for p in (p for p in range(t.n) if t.bear[p]):
        edges.append(
            Edge(
                f"play_instant@{window}[{t.player_name(p)} in bear form]",
                window,
                window,
                ("408.1", "409.1", "409.2", "409.3", "413.7a", *t.bear_form_rules(p)),
                guard=lambda s, b, p=p: b.AndThen(
                    b.And(s.priority_holder == p, t.in_hand(s, b, "instant", p) > 0, t.may_end_bear_form(s, b, p)),
                    lambda: True if may_add is None else may_add(s, b),
                ),
                update=lambda s, b, p=p: t.ending_bear_form(s, b, p, {
                    **t.take_from_hand(s, b, "instant", p),
                    **chain.push(s, b, controller=p, kind=INSTANT_LINK),
                    **t.fresh_succession(),
                }),
                actor=holder,
                tags=frozenset({"adds_link"}),
                doc=f"{t.player_name(p)}, with priority and his hero in bear form, plays an instant and keeps priority; bear form ends "
                + ("as its triggered effect, put on the chain above the instant, resolves" if t.bear_by_trigger[p] else "at once: Maul is destroyed"),
            )
        )

    # Outside the non-combat action phase only the basic rules' reading plays a
    # non-instant (may_play_non_instant_now), and only an ability (001:128):
    # it enters no ally slot.
    abilities_only = window != "action_phase" and t.rulings.fixed("may_play_non_instant_now", window)

    def untracked(s: Any, b: Backend) -> Any:
        # A non-instant is an ally only when its controller has a free ally slot (see resolve_ally).
        controller = chain.top(s, b, "controller")
        no_slot = b.Not(b.select(tuple(t.free_ally_slot(s, b, p) for p in range(t.n)), controller, False))
        return b.Or(
            top_link_is(t, s, b, INSTANT_LINK),
            top_link_is(t, s, b, STRIKE_LINK),
            top_link_is(t, s, b, NON_INSTANT_LINK) if abilities_only else b.And(top_link_is(t, s, b, NON_INSTANT_LINK), no_slot),
        )

    edges.append(
        resolving(
            t,
            window,
            "resolve_top_link",
            (),
            untracked,
            lambda s, b: {},
            "every player passed in succession: the top link resolves with an effect the model does not track",
        )
    )
    # Abstraction: an instant's target is chosen here, as it resolves.  Links carry
    # no targets in this model; choosing late covers every target the player
    # could have chosen on playing it (CR7.4 707), so no behaviour is lost.
    # The instant effects tracked are those that bear on combat legality:
    # exhausting a proposed attacker before its proposal resolves (601.3),
    # removing a combatant from combat (602.4), and destroying the (proposed)
    # defender (601.2f, 602.4).  Others leave no trace here.
    # A proposal is on the chain only where one may be proposed (601.1, a
    # question of the rulings: the action phase, for the seed), and only
    # where a proposal is a link (the basic rules declare at once, B7).
    if t.rulings.fixed("may_propose_now", window) and t.rulings.fixed("proposal_uses_the_chain"):
        edges.append(
            resolving(
                t,
                window,
                "resolve_instant[exhaust proposed attacker]",
                ("105.1", "601.3"),
                lambda s, b: b.And(
                    top_link_is(t, s, b, INSTANT_LINK),
                    s.attacker < t.none,
                    b.Not(b.select(s.exhausted, s.attacker, True)),
                ),
                lambda s, b: {"exhausted": b.store(s.exhausted, s.attacker, True)},
                "an instant resolves and exhausts the proposed attacker (as Entangling Roots does)",
            )
        )
        edges.append(destroying_the_defender(t, window, "proposed defender", ("601.2f",)))
    if window in COMBAT_WINDOWS:
        for role in ("attacker", "defender"):
            edges.append(
                resolving(
                    t,
                    window,
                    f"resolve_instant[remove {role} from combat]",
                    ("602.4",),
                    lambda s, b, role=role: b.And(top_link_is(t, s, b, INSTANT_LINK), getattr(s, role) < t.none),
                    lambda s, b, role=role: {role: t.none},
                    f"an instant resolves and removes the {role} from combat; the combat step goes on (602.4)",
                )
            )
        edges.append(destroying_the_defender(t, window, "defender", ("602.4",)))
    if window == "defend_window" and any(sp.makes_defender for sp in t.board.spells):
        edges += _making_defenders(t, window)
    if window == "attack_window" and roles.proposes_second_defender(t):
        edges += roles.making_proposed_defenders(t, window)
    if window in COMBAT_WINDOWS and roles.ends_allies(t):
        edges += roles.ending_allies(t, window)
    if any(t.bear_by_trigger):
        # Bear form's triggered effect, put on the chain above a strike or an instant (Table.ending_bear_form).
        edges.append(
            resolving(
                t,
                window,
                "resolve_trigger[bear form ends]",
                ("glossary.bear-form", "CR7.4 703.1", "CR7.4 708.1"),
                lambda s, b: top_link_is(t, s, b, BEAR_FORM_LINK),
                lambda s, b: {"bear_form": b.store(s.bear_form, chain.top(s, b, "controller"), False)},
                "every player passed in succession: bear form's triggered effect resolves and destroys Maul; the hero loses protector",
            )
        )
    edges += spell_edges(t, window, abilities_only)
    edges += ability_edges(t, window, abilities_only)
    edges += power_edges(t, window, may_add)
    return edges


def power_edges(t: Table, window: str, may_add: Callable[[Any, Backend], Any] | None) -> list[Edge]:
    """Payment powers (CR7.4 701.2): the player with priority whose card has
    one pays its cost (402.1), and its effect goes on the chain as a power
    link (409.3); he keeps priority, as after playing an instant.

    - A character's ``power_cost``: he pays it and exhausts the character
      (an ally new to the party can't, 302.2); the link resolves as the
      board's power spell does (``spell_edges``).
    - A hero's flip (``Character.flips_to_heal``): on his controller's turn,
      once a game (301.2, CR7.4 701.1), for an X the model does not count;
      the link heals, which the model does not track.
    - A weapon's ``power_cost``: he pays it and exhausts the weapon; the
      link moves an attachment, which the model does not have.

    Abstraction, as for the spells: links carry no card, so any power link
    may resolve as any power effect of the board."""
    chain = t.chain
    edges = []

    def use(name: str, p: int, rules: tuple[str, ...], may: Callable[[Any, Backend], Any],
            paid: Callable[[Any, Backend], dict[str, Any]], doc: str) -> None:
        edges.append(Edge(
            f"{name}@{window}",
            window,
            window,
            ("CR7.4 701.2", "409.3", "413.7a", *rules),
            guard=lambda s, b: b.AndThen(
                b.And(t.has_priority(s, b), s.priority_holder == p, may(s, b), b.Not(chain.is_full(s))),
                lambda: True if may_add is None else may_add(s, b),
            ),
            update=lambda s, b: {**paid(s, b), **chain.push(s, b, controller=p, kind=POWER_LINK), **t.fresh_succession()},
            actor=holder,
            tags=frozenset({"adds_link"}),
            doc=doc,
        ))

    def untracked(effect: str, doc: str) -> None:
        edges.append(resolving(
            t, window, f"resolve_power[{effect}]", ("CR7.4 701.2",), lambda s, b: top_link_is(t, s, b, POWER_LINK), lambda s, b: {},
            f"every player passed in succession: the top power link resolves and {doc}",
        ))

    users = [c for c in range(t.count) if t.characters[c].power_cost is not None]
    if users and not any(sp.power for sp in t.board.spells):
        raise ValueError("a payment power needs its effect among the board's spells (Spell.power)")
    for c in users:
        p, cost = t.owner[c], t.characters[c].power_cost
        use(
            f"use_power[{t.name(c)}]", p, ("402.1", "302.2"),
            lambda s, b, c=c, p=p, cost=cost: b.And(
                s.in_play[c], b.Not(s.exhausted[c]), b.Not(s.fresh[c]) if not t.is_hero[c] else True, t.ready_resources(s, b, p) >= cost,
            ),
            lambda s, b, c=c, p=p, cost=cost: {"exhausted": b.store(s.exhausted, c, True), **t.pay(s, b, p, cost)},
            f"the player with priority pays for {t.name(c)}'s power, exhausts it, and keeps priority",
        )
    flippers = [c for c in range(t.count) if t.characters[c].flips_to_heal]
    for c in flippers:
        use(
            f"use_power_x[{t.name(c)}]", t.owner[c], ("CR7.4 701.1", "301.2"),
            lambda s, b, c=c: b.And(s.turn_player == t.owner[c], s.in_play[c], b.Not(s.flipped[c])),
            lambda s, b, c=c: {"flipped": b.store(s.flipped, c, True)},
            f"the player with priority flips {t.name(c)} for his power, paying an X the model does not count, and keeps priority",
        )
    if flippers:
        untracked("heal", "heals, which the model does not track")
    movers = [(p, w, weapon) for p, party in enumerate(t.board.parties) for w, weapon in enumerate(party.weapons) if weapon.power_cost is not None]
    for p, w, weapon in movers:
        i, cost = t.weapon(p, w), weapon.power_cost
        use(
            f"use_power[{t.player_name(p)} {weapon.name}]", p, ("402.1",),
            lambda s, b, p=p, i=i, cost=cost: b.And(t.weapon_ready_in_play(s, b, i), t.ready_resources(s, b, p) >= cost),
            lambda s, b, p=p, i=i, cost=cost: {"weapon_exhausted": b.store(s.weapon_exhausted, i, True), **t.pay(s, b, p, cost)},
            f"the player with priority pays for {t.player_name(p)}'s {weapon.name}'s power, exhausts it, and keeps priority",
        )
    if movers:
        untracked("move an attachment", "moves an attachment, which the model does not have")
    for c in (c for c in range(t.count) if t.item_allies[c]):
        p, cost, name = t.owner[c], t.characters[c].ally_this_turn_for, t.name(c)
        use(
            f"use_power[{name}]", p, ("402.1",),
            lambda s, b, p=p, c=c, cost=cost: b.And(s.item_in_play[c], t.ready_resources(s, b, p) >= cost),
            lambda s, b, p=p, cost=cost: t.pay(s, b, p, cost),
            f"the player with priority pays for {name}'s power and keeps priority",
        )
        joins = t.joins_as_ally[c]
        edges.append(resolving(
            t, window, f"resolve_power[{name} becomes an ally]", ("CR7.4 701.2", "300.2", "302.2", "413.9a" if joins else "CR7.4 415.8b"),
            lambda s, b, p=p, c=c: b.And(
                top_link_is(t, s, b, POWER_LINK), t.chain.top(s, b, "controller") == p, s.item_in_play[c], b.Not(s.in_play[c]),
            ),
            # It keeps the item's readiness; an item has no damage (CR7.4 405.1).
            lambda s, b, c=c, joins=joins: {
                "in_play": b.store(s.in_play, c, True), "fresh": b.store(s.fresh, c, joins), "damage": b.store(s.damage, c, 0),
            },
            f"every player passed in succession: the power link resolves and {name} is also an ally this turn, "
            + ("joining its party now, so new to it" if joins else "in its party all along, as it was in play"),
        ))
        edges.append(resolving(
            t, window, f"resolve_power[{name} no change]", ("CR7.4 701.2",),
            lambda s, b, p=p, c=c: b.And(
                top_link_is(t, s, b, POWER_LINK), t.chain.top(s, b, "controller") == p, b.Or(b.Not(s.item_in_play[c]), s.in_play[c]),
            ),
            lambda s, b: {},
            f"every player passed in succession: the power link resolves with {name} already an ally, or gone: nothing changes",
        ))
    return edges


#: The window an instant played where nobody holds priority reopens, with the
#: instant on the chain: the one just closed before the protect point (602.2)
#: and before combat conclusion's damage (602.3, 603.1), the end phase's
#: before the end step (503.1, 503.2).  There every player may respond, and
#: as it closes on an empty chain play comes back to the point.
REOPENS = {"protect_point": "attack_window", "combat_conclusion": "defend_window", "end_step": "end_phase"}


def instants_at_any_time(t: Table) -> list[Edge]:
    """The basic rules' instants "at any time" (001:202): where the rulings let
    an instant be played with no window open (``may_play_instant_now``; never
    for the seed, whose 408.1 asks for priority), any player in the game
    plays one and the window before that point reopens with it on the chain,
    its player first to respond (001:226)."""
    chain = t.chain
    edges = []
    for point in (p for p in NO_PRIORITY_POINTS if t.rulings.fixed("may_play_instant_now", p)):
        for p in range(t.n):
            edges.append(
                Edge(
                    f"play_instant_without_priority[{t.player_name(p)}]@{point}",
                    point,
                    REOPENS[point],
                    ("408.1", "409.2", "basic:abilities"),
                    guard=lambda s, b, p=p: b.And(s.in_game[p], t.in_hand(s, b, "instant", p) > 0, b.Not(chain.is_full(s)), t.out_of_bear_form(s, b, p)),
                    update=lambda s, b, p=p: {
                        **t.take_from_hand(s, b, "instant", p),
                        **chain.push(s, b, controller=p, kind=INSTANT_LINK),
                        "priority_holder": p,
                        **t.fresh_succession(),
                    },
                    actor=lambda s, b, p=p: p,
                    tags=frozenset({"adds_link", "opens_window", "reading"}),
                    doc=f"{t.player_name(p)} plays an instant with no window open; the {REOPENS[point].replace('_', ' ')} reopens with it on the chain",
                )
            )
    return edges


def destroying_the_defender(t: Table, window: str, role: str, rules: tuple[str, ...]) -> Edge:
    """An instant resolves and destroys the (proposed) defender, an ally: it
    leaves play with its damage (404.1).  Whether it keeps its role is a
    question of the rulings (601.2f, 602.4: 002's Chinese keeps it).  Heroes
    are left out: a destroyed hero's player loses, and the model runs the
    checks that find it only after combat."""

    def guard(s: Any, b: Backend) -> Any:
        return b.And(top_link_is(t, s, b, INSTANT_LINK), t.defender_is_ally_in_play(s, b))

    def destroy(s: Any, b: Backend) -> dict[str, Any]:
        return {
            "in_play": b.store(s.in_play, s.defender, False),
            "damage": b.store(s.damage, s.defender, 0),
            "exhausted": b.store(s.exhausted, s.defender, False),
            "defender": b.If(t.rulings.answer("leaving_play_ends_role", s, b), t.none, s.defender),
        }

    return resolving(
        t,
        window,
        f"resolve_instant[destroy {role}]",
        ("404.1",) + rules,
        guard,
        destroy,
        f"an instant resolves and destroys the {role}, an ally; it leaves play, and with it its role (as the rulings say)",
    )


def joining_the_defence(t: Table, c: int) -> Callable[[Any, Backend], Any]:
    """The guard of an instant that makes ally ``c`` a second defender or
    proposed defender beside the one the combat has (602.2, 602.3b; V3's and
    V4's boards): on top of the chain, in a combat that is no sabotage, with
    an ally attacking, ``c`` in play, not that one, and of its player."""

    def guard(s: Any, b: Backend) -> Any:
            return b.And(
                top_link_is(t, s, b, INSTANT_LINK),
                b.Not(s.sabotage),
                s.attacker < t.count,
                b.Not(b.select(t.is_hero, s.attacker, True)),
                t.is_character(s.defender),
                s.defender != c,
                s.also_defender == t.none,
                s.in_play[c],
                b.select(t.owner, s.defender, t.nobody) == t.owner[c],
            )

    return guard


def _making_defenders(t: Table, window: str) -> list[Edge]:
    """An instant resolves and a target ally of the defending player, out of
    combat, "becomes a defender" (602.3b): it starts defending against the
    attacker, which starts attacking it.  Whether the current defender is
    removed from combat first (CR7.4 602.3a) or stays, a second defender
    (``also_defender``), is a question of the rulings
    (``becoming_defender_removes_defender``, V3).

    Kept small: only in the defend window of a combat that is no sabotage
    (602.3b's sabotage is T1's variants'), with an ally attacking (the
    packets of two defenders against a hero's armor and strikes are left
    out), and at most two defenders."""
    removes = t.rulings.fixed("becoming_defender_removes_defender")
    rules = ("602.3b", "602.4", *(("CR7.4 602.3a",) if removes else ()))
    edges = []
    for c in range(t.count):
        if t.is_hero[c] or t.totem[c]:
            continue

        edges.append(resolving(
            t, window, f"resolve_instant[{t.name(c)} becomes a defender]", rules, joining_the_defence(t, c),
            (lambda s, b, c=c: {"defender": c}) if removes else (lambda s, b, c=c: {"also_defender": c}),
            f"an instant resolves and {t.name(c)} becomes a defender against the attacker; "
            + ("the current defender is removed from combat" if removes else "the current defender goes on defending"),
        ))
    return edges


def spell_edges(t: Table, window: str, abilities_only: bool) -> list[Edge]:
    """The board's abilities that deal damage (``Board.spells``) as their link
    resolves: the packets (404.4), armor a hero's controller may exhaust
    against one (304.2), then the pre-priority checks (409.5, 409.6b, 102.1a)
    before the next priority.

    Abstraction: links carry no card, so any instant (any non-instant ability)
    on the chain may resolve as any instant (non-instant) spell of the board,
    its target chosen as it resolves, as for the other tracked instants.
    Abstraction: the checks run in the same step as the damage; nobody can
    act between the two (409.5), and a batch changes nothing once lethal
    damage has destroyed its characters and their players have left (102.1a
    and 409.6 part only on the batch a loss comes in, not on the outcome).
    A non-instant spell resolves only where one may be played (408.1, 409.2b;
    the basic rules' combat windows read by ``may_play_non_instant_now``)."""
    if not t.board.spells:
        return []
    may_resolve_here = window == "action_phase" or abilities_only
    # Whether a spell's packets are combat damage (407.3b, T4), and whether its
    # text stops the characters it damages from attacking (V7), are questions
    # of the rulings.
    effects = dict.fromkeys(
        (
            sp.amount, sp.each_opposing, sp.instant, sp.taunts,
            t.rulings.fixed("spell_deals_combat_damage", sp.name), t.rulings.fixed("spell_stops_attacks", sp.name), sp.further,
        )
        for sp in t.board.spells
        if (sp.instant or may_resolve_here) and not sp.doubles and not sp.heals and not sp.destroys_weapon and not sp.changes_role
    )
    edges = []
    # Powers that double damage (404.3): whom they reach is a question of the
    # rulings (V6), and the edge keeps one name under every reading, so that a
    # rules diff compares the damage it leaves.
    doubling = dict.fromkeys(
        (sp.instant, sp.power, t.rulings.fixed("doubling_reaches_heroes", sp.name))
        for sp in t.board.spells
        if sp.doubles and (sp.instant or may_resolve_here)
    )
    for instant, power, heroes in doubling:
        targets = tuple(c for c in range(t.count) if heroes or not t.is_hero[c])
        link = "power" if power else "instant" if instant else "ability"
        label = f"resolve_{link}[double the damage{' on allies' if (instant, power, not heroes) in doubling else ''}]"
        kind = POWER_LINK if power else INSTANT_LINK if instant else NON_INSTANT_LINK
        edges += _dealing(t, window, label, kind, None, targets, 0, (), doubles=True)
    edges += _healing(t, window, may_resolve_here)
    edges += _destroying_weapons(t, window, may_resolve_here)
    for amount, each_opposing, instant, taunts, combat, stops, further in effects:
        kind = INSTANT_LINK if instant else NON_INSTANT_LINK
        # Readings that part only on what the text adds keep one name per edge,
        # so that a rules diff compares what the edges do; the damage type and
        # the stop are named only where two spells of the board differ in nothing else.
        twin = (amount, each_opposing, instant, taunts, not combat, stops, further) in effects
        stop_twin = (amount, each_opposing, instant, taunts, combat, not stops, further) in effects
        label = f"resolve_{'instant' if instant else 'ability'}[deal {amount}{' combat damage' if combat and twin else ''}" + (
            " to each opposing character" if each_opposing else " and taunt" if taunts else ""
        ) + "".join(f", then {more}" for more in further) + (" and stop attacks]" if stops and stop_twin else "]")
        if each_opposing:
            # One edge per controller: the opposing characters are those
            # outside his party; a totem among them only where it counts as
            # an ally (V15, ``totem_is_ally``).
            reached = tuple(c for c in range(t.count) if not t.totem[c] or t.rulings.fixed("totem_is_ally", c))
            aims = [(f"[{t.player_name(p)}]", p, tuple(c for c in reached if t.owner[c] != p)) for p in range(t.n)]
        else:
            aims = [(f"[{t.name(c)}]", None, (c,)) for c in range(t.count)]
        if further:
            # 306.3a example: each further packet goes to another hero or ally,
            # chosen (not targeted) as it resolves; a totem only where it
            # counts as an ally (V15).  The player may stop after any packet.
            chosen = tuple(c for c in range(t.count) if not t.totem[c] or t.rulings.fixed("totem_is_ally", c))
            aims = [
                (aim + "".join(f"[{t.name(c)}]" for c in more), None, targets + more)
                for aim, _, targets in aims
                for k in range(len(further) + 1)
                for more in itertools.permutations((c for c in chosen if c not in targets), k)
            ]
        for aim, controller, targets in aims:
            armored_players = [t.owner[c] for c in targets if t.is_hero[c] and t.armor_def[t.owner[c]] > 0]
            amounts = (amount, *further)[: len(targets)] if further else amount
            for k in range(len(armored_players) + 1):
                for armored in itertools.combinations(armored_players, k):
                    edges += _dealing(t, window, label + aim, kind, controller, targets, amounts, armored, taunts, combat, stops)
    return edges


def ability_edges(t: Table, window: str, abilities_only: bool) -> list[Edge]:
    """The board's non-instant abilities that deal no damage (``Board.abilities``)
    as their link resolves, where a non-instant may resolve (409.2b).

    Abstraction, as for the spells: links carry no card, so any non-instant
    link may resolve as any such ability of the board, its target chosen as
    it resolves."""
    abilities = t.board.abilities
    if not abilities or not (window == "action_phase" or abilities_only):
        return []
    chain = t.chain
    resolves = lambda s, b: top_link_is(t, s, b, NON_INSTANT_LINK)  # noqa: E731
    controller = lambda s, b: chain.top(s, b, "controller")  # noqa: E731
    effects = {a.effect for a in abilities}
    edges = []
    if "heal" in effects:
        edges.append(resolving(
            t, window, "resolve_ability[heal]", ("409.2b",), resolves, lambda s, b: {},
            "every player passed in succession: the top link resolves and heals, which the model does not track",
        ))
    if "ally from the graveyard" in effects:
        # Where the ally enters, the link resolves as resolve_ally does.
        edges.append(resolving(
            t, window, "resolve_ability[no ally enters]", ("409.2b",), resolves, lambda s, b: {},
            "every player passed in succession: the top link resolves, and the ally it names costs more than its controller's resources",
        ))
    if "take control of an ally" in effects:
        edges += _taking_control(t, window, resolves, controller)
    if "exhaust and draw" not in effects:
        return edges
    edges.append(resolving(
        t, window, "resolve_ability[interrupted]", ("409.2b", "CR7.4 709.2a"), resolves, lambda s, b: {},
        "every player passed in succession: the top link's target has left play, so it is interrupted and does nothing",
    ))
    for c in range(t.count):
        for kind in CARD_KINDS:
            def exhaust_and_draw(s: Any, b: Backend, c: int = c, kind: str = kind) -> dict[str, Any]:
                p, field = controller(s, b), f"hand_{kind}"
                return {
                    "exhausted": b.store(s.exhausted, c, True),
                    "deck": b.store(s.deck, p, b.select(s.deck, p) - 1),
                    field: b.store(getattr(s, field), p, t.in_hand(s, b, kind, p) + 1),
                }

            # Which kind is drawn is chance, as in the draw step (501.2a); the pass that resolves the link is the choice.
            edges.append(resolving(
                t, window, f"resolve_ability[exhaust {t.name(c)} and draw {kind}]", ("409.2b", "105.1"),
                lambda s, b, c=c: b.And(resolves(s, b), s.in_play[c], b.select(s.deck, controller(s, b)) > 0),
                exhaust_and_draw,
                f"every player passed in succession: the top link resolves, exhausts {t.name(c)}, and its controller draws a {kind} card",
            ))
        # 409.6c: drawing from an empty deck loses at the check that follows
        # at once (409.5); with two players left the game ends.  With more the
        # model has no edge: the turn player would leave mid-turn.
        edges.append(Edge(
            f"resolve_ability[exhaust {t.name(c)} and draw from an empty deck]@{window}->game_over",
            window,
            "game_over",
            ("409.4", "409.4a", "CR7.4 709.1", "413.7a", "409.2b", "105.1", "409.5", "409.6", "409.6c", "102.1a", "102.1"),
            guard=lambda s, b, c=c: b.And(resolves(s, b), s.in_play[c], b.select(s.deck, controller(s, b)) == 0, t.remaining(s, b) == 2),
            update=lambda s, b, c=c: {
                # The game ends here (102.1): no card goes back to its owner, so the exhaustion stands.
                **t.leave_game(s, b, tuple(controller(s, b) == p for p in range(t.n))),
                "exhausted": b.store(s.exhausted, c, True),
                **chain.pop(s, b),
                "priority_holder": t.nobody,
                **t.fresh_succession(),
            },
            actor=holder,
            tags=frozenset({"passes", "resolves", "loses"}),
            doc="the top link resolves and its controller draws from an empty deck: he loses, and the last opponent wins",
        ))
    return edges


def _destroying_weapons(t: Table, window: str, may_resolve_here: bool) -> list[Edge]:
    """The board's abilities that destroy a weapon as their link resolves:
    the target weapon leaves play (404.1's counterpart for gear: no more
    strikes with it).  Whether a strike already made with it still adds its
    ATK is a question of the rulings (``strike_lasts_without_weapon``, V13),
    read as the hero's combat ATK is (``Table.combat_atk``)."""
    edges = []
    for sp in t.board.spells:
        if not sp.destroys_weapon or not (sp.instant or may_resolve_here):
            continue
        kind = INSTANT_LINK if sp.instant else NON_INSTANT_LINK
        for p, party in enumerate(t.board.parties):
            for w, weapon in enumerate(party.weapons):
                i = t.weapon(p, w)
                edges.append(resolving(
                    t, window, f"resolve_{'instant' if sp.instant else 'ability'}[destroy {t.player_name(p)} {weapon.name}]", ("303.2b",),
                    lambda s, b, i=i, kind=kind: b.And(top_link_is(t, s, b, kind), s.weapon_in_play[i]),
                    lambda s, b, i=i: {"weapon_in_play": b.store(s.weapon_in_play, i, False), "weapon_exhausted": b.store(s.weapon_exhausted, i, False)},
                    f"every player passed in succession: the top link resolves and destroys {t.player_name(p)}'s {weapon.name}",
                ))
    return edges


def _healing(t: Table, window: str, may_resolve_here: bool) -> list[Edge]:
    """The board's healing abilities as their link resolves: the target loses
    up to ``amount`` damage (406.1; with none to lose, nothing happens).
    Whether healing reaches a character with lethal damage is a question of
    the rulings (``heals_lethal_damage``, B1): only a hero that can't be
    destroyed (103.2) holds lethal damage while a player has priority."""
    edges = []
    for sp in t.board.spells:
        if not sp.heals or not (sp.instant or may_resolve_here):
            continue
        kind = INSTANT_LINK if sp.instant else NON_INSTANT_LINK
        reaches_lethal = t.rulings.fixed("heals_lethal_damage", sp.name)
        for c in range(t.count):
            def heal(s: Any, b: Backend, c: int = c, amount: int = sp.amount, reaches_lethal: bool = reaches_lethal) -> dict[str, Any]:
                d = s.damage[c]
                healed = b.If(d > amount, d - amount, 0)
                if not reaches_lethal:
                    healed = b.If(d >= t.health[c], d, healed)
                return {"damage": b.store(s.damage, c, healed)}

            edges.append(resolving(
                t, window, f"resolve_{'instant' if sp.instant else 'ability'}[heal {sp.amount}][{t.name(c)}]",
                ("406.1",) + (() if reaches_lethal else ("basic:healing",)),
                lambda s, b, c=c, kind=kind: b.And(top_link_is(t, s, b, kind), s.in_play[c]),
                heal,
                f"every player passed in succession: the top link resolves and heals up to {sp.amount} damage from {t.name(c)}",
            ))
    return edges


def _taking_control(t: Table, window: str, resolves: Callable[[Any, Backend], Any], controller: Callable[[Any, Backend], Any]) -> list[Edge]:
    """The top non-instant link takes control of an opposing ally (401.3):
    the card leaves its slot and fills the lowest free slot of its new
    controller's party that holds the same card, with its damage and
    readiness, new to that party (302.2).  On a totem the rulings count no
    ally, the attachment falls off at the next check (409.6d example, V15)
    and control comes back, the totem new to its party again."""
    edges = []
    allies = [c for c in range(t.count) if not t.is_hero[c]]
    for c in allies:
        if t.totem[c] and not t.rulings.fixed("totem_is_ally", c):
            continue
        for d in allies:
            if t.owner[d] == t.owner[c] or t.characters[d].name != t.characters[c].name:
                continue
            earlier = [x for x in t.party(t.owner[d]) if x < d and not t.is_hero[x]]

            def move(s: Any, b: Backend, c: int = c, d: int = d) -> dict[str, Any]:
                out = {
                    "in_play": b.store(b.store(s.in_play, c, False), d, True),
                    "fresh": b.store(b.store(s.fresh, c, False), d, True),
                    "exhausted": b.store(b.store(s.exhausted, c, False), d, s.exhausted[c]),
                    "damage": b.store(b.store(s.damage, c, 0), d, s.damage[c]),
                }
                if t.ferocity_changes_sides:
                    out["changed_sides"] = b.store(b.store(s.changed_sides, c, False), d, True)
                if t.holds_others_cards:
                    # 102.2, 401.3b: the slot remembers whose card it holds, none where the owner takes it back.
                    owner = b.If(s.owned_by[c] == t.nobody, t.owner[c], s.owned_by[c])
                    out["owned_by"] = b.store(b.store(s.owned_by, c, t.nobody), d, b.If(owner == t.owner[d], t.nobody, owner))
                # "This turn" modifiers stay with the card.
                for name, off, held in (("taunted_by", t.nobody, t.taunting), ("cant_attack", False, t.stopping)):
                    if held:
                        out[name] = b.store(b.store(getattr(s, name), c, off), d, getattr(s, name)[c])
                return out

            # The card keeps its place in the slots of each party only, and
            # where its controller leaves, goes back to its owner, not to an
            # earlier controller (Table.leave_game).
            edges.append(resolving(
                t, window, f"resolve_ability[take control of {t.name(c)} as {t.name(d)}]",
                ("409.2b", "401.3", "302.2"),
                lambda s, b, c=c, d=d, earlier=tuple(earlier): b.And(
                    resolves(s, b), controller(s, b) == t.owner[d], s.in_play[c], b.Not(s.in_play[d]), *(s.in_play[x] for x in earlier),
                ),
                move,
                f"every player passed in succession: the top link resolves, and {t.name(c)} joins {t.player_name(t.owner[d])}'s party as {t.name(d)}",
            ))
    for c in allies:
        if not t.totem[c] or t.rulings.fixed("totem_is_ally", c):
            continue
        # Control passed to the caster as the link resolved and back as the
        # attachment fell off (401.3b), so the totem is new to its party again (302.2).
        edges.append(resolving(
            t, window, f"resolve_ability[control of {t.name(c)} falls off]", ("409.2b", "306.3a", "401.3", "401.3b", "302.2"),
            lambda s, b, c=c: b.And(resolves(s, b), s.in_play[c], controller(s, b) != t.owner[c]),
            lambda s, b, c=c: {
                "fresh": b.store(s.fresh, c, True),
                **({"changed_sides": b.store(s.changed_sides, c, True)} if t.ferocity_changes_sides else {}),
            },
            f"every player passed in succession: the top link attaches to {t.name(c)}, no ally, and falls off; it comes back to its party new",
        ))
    return edges


def _dealing(
    t: Table,
    window: str,
    label: str,
    kind: int,
    controller: int | None,
    targets: tuple[int, ...],
    amount: int | tuple[int, ...],
    armored: tuple[int, ...],
    taunts: bool = False,
    combat: bool = False,
    stops: bool = False,
    doubles: bool = False,
) -> list[Edge]:
    """The two outcomes of one resolution: the game goes on in ``window``, or
    at most one player is left and it ends (102.1).  Neither lets a turn
    player leave while others stay: the model has no edge for that turn's
    remainder, and the guards leave such a step out.  ``amount`` is one for
    every target, or one per target in their order (further packets)."""
    none = t.none
    amounts = dict(zip(targets, amount)) if isinstance(amount, tuple) else dict.fromkeys(targets, amount)
    # Only in the defend window is a hero a defender (602.3) while a spell resolves.
    held_back = combat and window == "defend_window"
    name = label + "".join(f"[armor of {t.player_name(p)}]" for p in armored)
    # A doubling puts its damage on (404.3): no packet, nothing to prevent.
    made = ("404.3",) if doubles else ("404.4", "407.1", "407.2a")
    dealing = ", then ".join(str(amounts[c]) for c in targets) if isinstance(amount, tuple) else str(amount)
    what = "doubles the damage on " + ("each character" if len(targets) == t.count else "each ally") if doubles else f"deals {dealing} damage"
    rules = made + ("409.5", "409.6", "409.6b", "404.1", "404.2", "102.1a", "102.2") + (
        ("304.2",) if armored else ()
    ) + (("600.2", "601.2c") if taunts else ()) + (("407.3b", "603.1a") if held_back else ()) + (("103.2",) if stops else ())

    def dealt(c: int) -> int:
        # 304.2: exhausted armor prevents as much of the packet to its hero as its DEF.
        if t.is_hero[c] and t.owner[c] in armored:
            return max(amounts[c] - t.armor_def[t.owner[c]], 0)
        return amounts[c]

    def no_packet(s: Any, b: Backend) -> Any:
        """603.1a: while a long-range character attacks, defenders can't deal
        combat damage (CR7.4's long-range says so for the whole attack, 001:203
        too), so a combat-damage spell whose caster's hero defends deals none."""
        caster_hero = b.select(t.hero_of, t.chain.top(s, b, "controller"), none)
        return b.And(s.defender == caster_hero, b.select(t.keyword("long_range"), s.attacker, False))

    def after(s: Any, b: Backend) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
        """Damage after the packets, the characters it destroys (409.6b), and the players who leave (102.1a)."""
        held = no_packet(s, b) if held_back else False
        damage = tuple(
            b.If(b.And(s.in_play[c], b.Not(held)), s.damage[c] + (s.damage[c] if doubles else dealt(c)), s.damage[c])
            if c in targets else s.damage[c]
            for c in range(t.count)
        )
        destroyed = tuple(
            b.And(s.in_play[c], damage[c] >= t.health[c]) if c in targets else False for c in range(t.count)
        )
        leaving = tuple(b.And(s.in_game[p], destroyed[t.hero(p)]) for p in range(t.n))
        return damage, destroyed, leaving

    def guard(s: Any, b: Backend) -> Any:
        conditions = [top_link_is(t, s, b, kind)]
        if controller is not None:
            conditions.append(t.chain.top(s, b, "controller") == controller)
        elif not doubles:
            # Its target, and any hero or ally it chooses further, are in play.
            conditions += [s.in_play[c] for c in targets]
        for p in armored:
            # 304.2: only a ready armor with DEF 1 or more, against a packet to its hero in play.
            conditions += [s.in_play[t.hero(p)], t.armor_ready_in_play(s, b, p)]
        if armored and held_back:
            conditions.append(b.Not(no_packet(s, b)))
        return b.And(*conditions)

    def remaining_after(s: Any, b: Backend) -> Any:
        _, _, leaving = after(s, b)
        return b.count(tuple(b.And(s.in_game[p], b.Not(leaving[p])) for p in range(t.n)))

    def update(s: Any, b: Backend) -> dict[str, Any]:
        damage, destroyed, leaving = after(s, b)
        # The top link resolved and leaves the chain; a leaver's links go with it (102.2).
        # A card going back to its owner as its controller leaves (401.3b)
        # takes this step's damage, and the spell's stop, with it.
        carried = {"damage": damage}
        if stops and t.holds_others_cards:
            carried["cant_attack"] = tuple(
                b.Or(s.cant_attack[c], b.And(s.in_play[c], b.Not(destroyed[c]), damage[c] > s.damage[c])) if c in targets else s.cant_attack[c]
                for c in range(t.count)
            )
        left = t.leave_game(s, b, leaving, resolved=True, destroyed=destroyed, carried=carried)
        in_play = tuple(b.And(left["in_play"][c], b.Not(destroyed[c])) for c in range(t.count))
        # 404.1: a card that leaves play loses its damage; 601.2f, 602.4: and,
        # as the rulings read it, the role it held.
        gone = lambda c: b.Not(b.select(in_play, c, True))  # noqa: E731
        ends_role = t.rulings.answer("leaving_play_ends_role", s, b)
        armor = s.armor_exhausted
        for p in armored:
            armor = b.store(armor, p, True)
        taunted = {}
        if stops:
            # The spell's text (CR7.4's Frost Nova): a character still in play
            # that a packet dealt damage to can't attack this turn.
            taunted["cant_attack"] = tuple(
                b.Or(s.cant_attack[c], b.And(in_play[c], damage[c] > s.damage[c])) if c in targets else s.cant_attack[c]
                for c in range(t.count)
            )
        if taunts:
            # 600.2, 601.2c: a target still in play must attack the caster's hero this turn, if able.
            (c,) = targets
            taunted["taunted_by"] = b.store(s.taunted_by, c, b.If(in_play[c], t.chain.top(s, b, "controller"), s.taunted_by[c]))
        if t.holds_others_cards:
            # A slot empty before the step and filled after it holds a card gone back to its owner.
            filled = [b.And(b.Not(s.in_play[c]), in_play[c]) for c in range(t.count)]
            taunted = {f: tuple(b.If(filled[c], left[f][c], values[c]) for c in range(t.count)) for f, values in taunted.items()}
        return {
            **left,
            **taunted,
            "in_play": in_play,
            "damage": tuple(b.If(in_play[c], left.get("damage", damage)[c], 0) for c in range(t.count)),
            "exhausted": tuple(b.And(in_play[c], left.get("exhausted", s.exhausted)[c]) for c in range(t.count)),
            "armor_exhausted": armor,
            "attacker": b.If(b.And(gone(s.attacker), ends_role), none, s.attacker),
            "defender": b.If(b.And(gone(s.defender), ends_role), none, s.defender),
        }

    # Packets an effect marks as combat damage (407.3b), for a power that watches for it (watchers.py).
    marked = (SPELL_COMBAT_DAMAGE,) if combat else ()
    goes_on = Edge(
        f"{name}@{window}",
        window,
        window,
        ("409.4", "409.4a", "CR7.4 709.1", "413.7a", *rules),
        guard=lambda s, b: b.AndThen(
            guard(s, b), lambda: b.And(remaining_after(s, b) > 1, b.Not(b.select(after(s, b)[2], s.turn_player, True)))
        ),
        update=lambda s, b: {**update(s, b), **t.give_priority_after_resolution(s, b)},
        actor=holder,
        tags=frozenset({"passes", "resolves", "deals_damage", *marked}),
        doc=f"every player passed in succession: the top link resolves and {what}; characters with lethal damage are destroyed before priority",
    )
    ends = Edge(
        f"{name}@{window}->game_over",
        window,
        "game_over",
        ("CR7.4 709.1", "413.7a", "102.1", *rules),
        guard=lambda s, b: b.AndThen(guard(s, b), lambda: remaining_after(s, b) <= 1),
        update=lambda s, b: {**update(s, b), "priority_holder": t.nobody, **t.fresh_succession()},
        actor=holder,
        tags=frozenset({"passes", "resolves", "deals_damage", "loses", *marked}),
        doc=f"the top link resolves and {what}; a destroyed hero's player loses and at most one player is left",
    )
    return [goes_on, ends]


def top_link_is(t: Table, s: Any, b: Backend, kind: int) -> Any:
    """Every player passed in succession and the top link is of this kind (409.4a)."""
    return b.And(t.last_pass(s, b), s.chain_len > 0, t.chain.top(s, b, "kind") == kind)


def resolving(
    t: Table,
    window: str,
    name: str,
    rules: tuple[str, ...],
    guard: Callable[[Any, Backend], Any],
    effect: Callable[[Any, Backend], Mapping[str, Any]],
    doc: str,
    prefilter: Callable[[Any, Backend], Any] | None = None,
) -> Edge:
    """The top link resolves with ``effect`` and leaves the chain; then the
    player the rulings name gets priority (409.4a: the turn player).
    ``prefilter``: a conjunct of ``guard`` that a family of such edges
    shares; by default the one every resolution shares, a last pass on a
    chain that holds a link (``Table.link_resolves``, which ``guard`` must imply)."""
    return Edge(
        f"{name}@{window}",
        window,
        window,
        ("409.4", "409.4a", "CR7.4 709.1", "413.7a", *rules),
        guard=guard,
        update=lambda s, b: {**effect(s, b), **t.chain.pop(s, b), **t.give_priority_after_resolution(s, b)},
        actor=holder,
        tags=frozenset({"passes", "resolves"}),
        doc=doc,
        prefilter=t.link_resolves if prefilter is None else prefilter,
    )


def closing(
    t: Table,
    window: str,
    target: str,
    rules: Sequence[str],
    update: Callable[[Any, Backend], Mapping[str, Any]],
    *,
    suffix: str = "",
    extra: Callable[[Any, Backend], Any] | None = None,
    opens_window: bool = False,
    doc: str,
) -> Edge:
    """The final pass of a succession on an empty chain: the window closes (409.4b)."""
    return Edge(
        f"close_window@{window}{suffix}",
        window,
        target,
        ("409.4", "409.4b", *rules),
        guard=lambda s, b: b.And(t.last_pass(s, b), s.chain_len == 0, True if extra is None else extra(s, b)),
        update=update,
        actor=holder,
        tags=frozenset({"passes", "closes_window", *(("opens_window",) if opens_window else ())}),
        doc=doc,
    )
