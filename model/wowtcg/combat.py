"""Combat (600-603) and the pre-priority checks that follow it (409.5-409.6, 102).

A combat is proposed in the turn player's non-combat action phase as a link
(601.1; the basic rules' declaration is no link, a reading the rulings
build); as that link resolves, legality is checked again (601.3) and the combat
step starts: the attack window, the protect point, the defend window (602),
then the conclusion, where nobody has priority (603).  After combat damage,
pre-priority processing (409.5) is a location of its own: batches of checks
run until one changes nothing, and only then does the turn player get
priority back in the action phase.  (A spell's damage and its checks are one
step in windows.py.)

Combat roles: ``attacker`` holds the proposed attacker while the proposal is
on the chain and the attacker from 602.1 on; ``defender`` holds the proposed
defender until 602.3 and the defender after it.  ``none`` means no one.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any, Callable

from model.backend import Backend
from model.machine import BOOL, Edge, IntRange, Location, Var
from model.wowtcg import roles, rulings
from model.wowtcg.board import has_flip_powers
from model.wowtcg.table import PROPOSAL_LINK, STRIKE_LINK, Table
from model.wowtcg.windows import closing, holder, turn_player, window_edges

LOCATIONS = (
    Location("attack_window", ("602.1",), "the combat step's first priority window"),
    Location("protect_point", ("602.2",), "opponents of the attacker may exhaust a protector; no priority"),
    Location("defend_window", ("602.3",), "the combat step's second priority window; weapons may strike"),
    Location("combat_conclusion", ("603.1", "603.2"), "combat damage, then roles and 'this combat' modifiers end; no priority"),
    Location("pre_priority_checks", ("409.5", "409.6"), "batches of pre-priority checks before anyone gets priority"),
)

#: What a strike's edge name adds where it ends its hero's bear form (``strike[P1 warhammer][in bear form]``).
IN_BEAR_FORM = "[in bear form]"
#: The armor a combat-damage step uses (304.2): whose hero exhausts armor to prevent damage.
ARMOR_CHOICES = {"": (), "[attacker's armor]": ("attacker",), "[defender's armor]": ("defender",), "[both armors]": ("attacker", "defender")}


def variables(t: Table, combats: int | None) -> list[Var]:
    n, count = t.n, t.count
    most_damage = max(t.health) + t.most_combat_atk
    return [
        Var("resources", IntRange(0, t.resource_hi), (t.start_resources,), length=n, doc="resources in play (410.1a)"),
        Var("resources_exhausted", IntRange(0, t.resource_hi), (0,), length=n, doc="exhausted resources (402.4a)"),
        # 101.1: heroes (and, in this model, the allies of the board) start in play.
        Var("in_play", BOOL, (True,), length=count, start=tuple(not x for x in t.out_at_start) if any(t.out_at_start) else None,
            doc="each character is in play"),
        Var("exhausted", BOOL, (False,), length=count, doc="each character is exhausted (105.1)"),
        Var("fresh", BOOL, (False,), length=count, doc="the ally joined its party this turn (601.2a)"),
        *([Var("changed_sides", BOOL, (False,), length=count, doc="the ally joined its party this turn by a change of control, not by entering play (401.3)")]
          if t.ferocity_changes_sides else []),
        *([Var("owned_by", IntRange(0, n), (n,), length=count,
               doc="the owner of the card in each slot, where another player controls it (401.3, 102.2); n: the slot's own player")]
          if t.holds_others_cards else []),
        Var("damage", IntRange(0, most_damage), (0,), length=count, doc="damage on each character (404.1)"),
        Var("weapon_exhausted", BOOL, (False,), length=n * t.weapons, doc="each weapon is exhausted (303.2)"),
        Var("armor_exhausted", BOOL, (False,), length=n, doc="each hero's armor is exhausted (304.2)"),
        Var("struck", BOOL, (False,), length=n * t.weapons, doc="each weapon struck this combat (303.2c)"),
        Var("attacker", IntRange(0, t.none), (t.none,), doc="the (proposed) attacker (601.2, 602.1)"),
        Var("defender", IntRange(0, t.none), (t.none,), doc="the (proposed) defender (601.2, 602.3)"),
        *([Var("also_defender", IntRange(0, t.none), (t.none,),
               doc="a second defender: the ally a modifier made become a defender while the defender stayed (602.3b)")]
          if t.second_defender else []),
        Var("sabotage", BOOL, (False,), doc="the combat is a sabotage (600.1, 602.2c)"),
        Var("protected", BOOL, (False,), doc="a character protected this combat (602.2b)"),
    ] + ([] if combats is None else [Var("combats", IntRange(0, combats), (0,), doc="combats proposed this turn, for the combat bound")]) + (
        [Var("taunted_by", IntRange(0, n), (n,), length=count, doc="whose hero each character must attack this turn, if able (600.2, 601.2c); n: nobody's")]
        if t.taunting else []
    ) + (
        [Var("cant_attack", BOOL, (False,), length=count, doc="a modifier says each character can't attack this turn (103.2; CR7.4's Frost Nova)")]
        if t.stopping else []
    ) + (
        [Var("flipped", BOOL, (False,), length=count, doc="each hero has flipped, using his flip power (301.2)")]
        if has_flip_powers(t.board) else []
    ) + (
        [
            Var("weapon_in_play", BOOL, (True,), length=n * t.weapons, start=t.gear_at_start()[0], doc="each weapon is in its hero zone (303.1)"),
            Var("armor_in_play", BOOL, (True,), length=n, start=t.gear_at_start()[1], doc="each hero's armor is in its hero zone (304.1)"),
        ]
        if t.gear_from_hand else []
    ) + (
        [Var("item_in_play", BOOL, (False,), length=count, start=t.item_allies,
             doc="each item that a payment makes an ally this turn is in play, as an item or an ally (Arcanite Dragonling)")]
        if any(t.item_allies) else []
    ) + (
        [Var("bear_form", BOOL, (False,), length=n, start=t.bear, doc="each player's hero is in bear form: Maul is still in play (CR7.4 glossary; 001:198)")]
        if any(t.bear) else []
    )


def edges(t: Table, combats: int | None) -> tuple[list[Edge], Any]:
    """The combat edges, and the 600.2 condition the action phase's passes must respect.

    ``combats`` bounds the proposals explored per turn (an exploration bound, not
    a rule): past it no proposal is explored, and where 'must attack' would
    then forbid passing, the search stops at ``combat_limit`` instead of
    reporting a deadlock the rules do not have.  ``None``: no bound (the
    any-length model), as in the rules.
    """
    def below_combat_bound(s: Any) -> Any:
        return True if combats is None else s.combats < combats

    def count_combat(s: Any) -> dict[str, Any]:
        return {} if combats is None else {"combats": s.combats + 1}

    chain = t.chain
    out: list[Edge] = []
    none = t.none
    no_struck = (False,) * (t.n * t.weapons)

    # -- 601 proposal --------------------------------------------------------------
    def proposal_on_top(s: Any, b: Backend) -> Any:
        return b.And(t.last_pass(s, b), s.chain_len > 0, chain.top(s, b, "kind") == PROPOSAL_LINK)

    # 601.1: the windows a combat may be proposed in (a question of the
    # rulings: 002's Chinese names no phase); for the seed, the action phase's.
    # Whether the proposal is a link is a question too: the basic rules'
    # declaration exhausts the attacker at once (B7).
    as_link = t.rulings.fixed("proposal_uses_the_chain")
    for window in (w for w in rulings.PRIORITY_WINDOWS if t.rulings.fixed("may_propose_now", w)):
        elsewhere = window != "action_phase"
        at = f"@{window}" if elsewhere else ""

        # 601.1: the turn player holds priority on an empty chain (and the
        # bound on combats explored is not reached); 601.2a: the attacker is a
        # ready character of his party in play, which every source's rulings
        # ask before any proposal of it is legal (may_attack's one ruling that
        # grants, under may_propose's one that grants).  These conjuncts are
        # the prefilter an attacker's proposals share, so concrete stepping
        # passes over all of them at once where it cannot attack; the guard
        # implies it under every source's reading (tests/test_machine.py), and
        # keeps its own copy so that its Z3 term stays flat.
        def may_propose_with(a: int) -> Any:
            def may_propose_here(s: Any, b: Backend) -> Any:
                return b.And(
                    below_combat_bound(s), s.priority_holder == s.turn_player, s.chain_len == 0,
                    s.turn_player == t.owner[a], b.select(s.in_play, a, False), b.Not(b.select(s.exhausted, a, True)),
                )
            return may_propose_here

        for a in range(t.count):
            may_propose_here = may_propose_with(a)
            for d in t.defenders(a):
                tax = t.attack_tax[a]
                # A combat against an object is a sabotage (601.2b); against a
                # totem, the texts part (V15, ``totem_combat_is_sabotage``).
                totem = d < t.count and t.totem[d]
                sabotage = d >= t.count or (totem and t.rulings.fixed("totem_combat_is_sabotage", d))
                guard = lambda s, b, a=a, d=d, tax=tax: b.AndThen(  # noqa: E731
                    b.And(
                        below_combat_bound(s),
                        s.priority_holder == s.turn_player,
                        s.chain_len == 0,
                        t.ready_resources(s, b, s.turn_player) >= tax,
                    ),
                    lambda: t.legal_proposal(s, b, a, d),
                )
                name = f"propose_combat{at}[{t.name(a)} -> {t.name(d)}]"
                what = f"{'a sabotage' if sabotage else 'a combat'}: {t.name(a)} against {t.name(d)}" + (
                    f", in the {window.replace('_', ' ')} window" if elsewhere else ""
                )
                also_cited = (("600.3", "402.1") if tax else ()) + (("306.3a",) if totem else ())
                # Only the basic rules declare off the chain (B7), only 000's
                # 601.2b admits a defender of the proposer's own party
                # (may_be_proposed), and only 002's Chinese 601.1 another window:
                # the model's reading enables none of these edges, tagged
                # "reading" (lint's dead-edge check skips them).
                if not as_link:
                    out.append(
                        Edge(
                            name,
                            window,
                            "attack_window",
                            ("600.1", "601.1", "601.2", "601.2a", "601.2b", "601.2c", "601.2e", "602.1", "409.4", "302.2") + also_cited,
                            guard=guard,
                            prefilter=may_propose_here,
                            update=lambda s, b, a=a, d=d, tax=tax, sabotage=sabotage: {
                                **t.give_turn_player_priority(s, b),
                                **(t.pay(s, b, s.turn_player, tax) if tax else {}),
                                "attacker": a,
                                "defender": d,
                                "sabotage": sabotage,
                                "exhausted": b.store(s.exhausted, a, True),
                                **count_combat(s),
                            },
                            actor=turn_player,
                            tags=frozenset({"proposes", "opens_window", "reading"}),
                            doc=f"the turn player declares {what}; the attacker exhausts at once and the attack window opens",
                        )
                    )
                    continue
                out.append(
                    Edge(
                        name,
                        window,
                        window,
                        ("600.1", "601.1", "601.2", "601.2a", "601.2b", "601.2c", "601.2e")
                        + (() if elsewhere else ("409.2b",))
                        + ("409.3", "413.7a", "302.2")
                        + also_cited,
                        guard=guard,
                        prefilter=may_propose_here,
                        update=lambda s, b, a=a, d=d, tax=tax, sabotage=sabotage: {
                            **chain.push(s, b, controller=s.turn_player, kind=PROPOSAL_LINK),
                            **t.fresh_succession(),
                            **(t.pay(s, b, s.turn_player, tax) if tax else {}),
                            "attacker": a,
                            "defender": d,
                            "sabotage": sabotage,
                            **count_combat(s),
                        },
                        actor=turn_player,
                        tags=frozenset({"adds_link", "main_phase_action", "proposes", *(("reading",) if elsewhere or t.owner[d] == t.owner[a] else ())}),
                        doc=f"the turn player proposes {what}",
                    )
                )
        if not as_link:
            continue

        out.append(
            Edge(
                f"resolve_proposal@{window}",
                window,
                "attack_window",
                ("601.3", "602.1", "409.4a", "CR7.4 709.1", "413.7a", "409.4"),
                guard=lambda s, b: b.And(proposal_on_top(s, b), t.legal_proposal(s, b, s.attacker, s.defender)),
                # Its first conjunct, shared with the interruption: the proposal's
                # legality is not asked where no proposal is on top.
                prefilter=proposal_on_top,
                update=lambda s, b: {
                    **chain.pop(s, b),
                    **t.give_turn_player_priority(s, b),
                    "exhausted": b.store(s.exhausted, s.attacker, True),
                },
                actor=holder,
                tags=frozenset({"passes", "resolves", "resolves_proposal", "opens_window", *(("reading",) if elsewhere else ())}),
                doc=f"the proposal is still legal: the {window.replace('_', ' ')}'s window closes, the attacker exhausts and the attack window opens",
            )
        )
        # 601.3: an interrupted proposal leaves the turn player priority in his
        # action phase, whichever window it was proposed in.
        out.append(
            Edge(
                f"interrupt_proposal@{window}",
                window,
                "action_phase",
                ("601.3", "CR7.4 711.1", "409.4a", "413.7a", "409.4"),
                guard=lambda s, b: b.And(proposal_on_top(s, b), b.Not(t.legal_proposal(s, b, s.attacker, s.defender))),
                prefilter=proposal_on_top,
                update=lambda s, b: {
                    **chain.pop(s, b),
                    **t.give_turn_player_priority(s, b),
                    "attacker": none,
                    "defender": none,
                    "sabotage": False,
                },
                actor=holder,
                tags=frozenset({"passes", "resolves", "resolves_proposal", "interrupts", *(("reading", "opens_window") if elsewhere else ())}),
                doc="the proposal is no longer legal: it is interrupted and the turn player gets priority on an empty chain"
                + (" in his action phase" if elsewhere else ""),
            )
        )

    # -- 602.1-602.2 attack window and protect point -------------------------------------
    out += window_edges(t, "attack_window")
    both_roles = lambda s, b: b.And(s.attacker < none, s.defender < none)  # noqa: E731
    # 602.2: the protect point follows where an attacker and a proposed
    # defender remain; by 002's Chinese 602.2 (combat_reaches_protect_point)
    # only where a defender does, which no proposed defender is yet (602.3),
    # so the combat concludes with none and deals no combat damage (603.1b).
    reaches_protect_point = t.rulings.fixed("combat_reaches_protect_point")
    if reaches_protect_point:
        out.append(
            closing(
                t,
                "attack_window",
                "protect_point",
                ("602.2",),
                lambda s, b: {"priority_holder": t.nobody, **t.fresh_succession()},
                extra=both_roles,
                doc="the attack window closes with an attacker and a proposed defender: the protect point",
            )
        )
    out.append(
        closing(
            t,
            "attack_window",
            "combat_conclusion",
            ("602.2", "603.1b"),
            lambda s, b: {"priority_holder": t.nobody, **t.fresh_succession(), **({} if reaches_protect_point else {"defender": none})},
            suffix="[no attacker or defender]" if reaches_protect_point else "[no defender]",
            extra=(lambda s, b: b.Not(both_roles(s, b))) if reaches_protect_point else None,
            doc="the attack window closes with no attacker or no proposed defender: the combat concludes" if reaches_protect_point
            else "the attack window closes and, with no defender yet, the combat concludes",
        )
    )
    for c in range(t.count):
        if not t.protectors[c]:
            continue
        # CR7.4 602.2b: not where it is a second proposed defender (V4, roles.py).
        another = roles.protects_another(t, c)
        out.append(
            Edge(
                f"protect[{t.name(c)}]",
                "protect_point",
                "defend_window",
                ("602.2", "602.2a", "602.2b", "602.2c", "602.3") + (() if another is None else ("CR7.4 602.2b",)),
                guard=(lambda s, b, c=c: t.rulings.answer("may_protect", s, b, c)) if another is None
                else (lambda s, b, c=c, another=another: b.And(t.rulings.answer("may_protect", s, b, c), another(s, b))),
                update=lambda s, b, c=c: {
                    "exhausted": b.store(s.exhausted, c, True),
                    "defender": c,
                    "protected": True,
                    "sabotage": False,
                    **t.give_turn_player_priority(s, b),
                },
                actor=lambda s, b, c=c: t.owner[c],
                tags=frozenset({"protects", "opens_window"}),
                doc=f"{t.name(c)} exhausts to protect and becomes the defender; the defend window opens",
            )
        )
    out.append(
        Edge(
            "no_protection",
            "protect_point",
            "defend_window",
            ("602.2", "602.3"),
            update=t.give_turn_player_priority,
            tags=frozenset({"opens_window"}),
            doc="nobody protects: the proposed defender defends, both are in combat, the defend window opens",
        )
    )

    # -- 602.3 defend window and strikes --------------------------------------------------
    out += window_edges(t, "defend_window")
    # 303.2: the seed strikes with a link here; CR7.4 as the roles begin (a question of the rulings).
    strikes_as_roles_begin = t.rulings.fixed("when_weapons_strike") == rulings.STRIKE_AS_ROLE_BEGINS
    if strikes_as_roles_begin and any(t.bear):
        raise ValueError("bear form is modelled only where weapons strike with a link in the defend window (when_weapons_strike)")
    if not strikes_as_roles_begin:
        out += strike_edges(t)
    out.append(
        closing(
            t,
            "defend_window",
            "combat_conclusion",
            ("602.3", "603.1"),
            lambda s, b: {"priority_holder": t.nobody, **t.fresh_succession()},
            doc="the defend window closes: the combat concludes",
        )
    )

    # -- 603 conclusion ------------------------------------------------------------------------
    roles_ended = {"attacker": none, "defender": none, "sabotage": False, "protected": False, "struck": no_struck,
                   **({"also_defender": none} if t.second_defender else {})}
    # 603.2: the seed ends the roles as the conclusion ends; CR7.4 603.2-603.3
    # first runs the checks with the roles standing (a question of the rulings).
    roles_end_first = t.rulings.fixed("roles_end_before_checks")
    checks_in_combat = () if roles_end_first else ("CR7.4 603.2",)
    roles_end_after_checks = () if roles_end_first else ("CR7.4 603.3",)

    def conclude(extra: dict[str, Any]) -> dict[str, Any]:
        """603.2: roles are removed and 'this combat' modifiers (the strikes) end."""
        return {**(roles_ended if roles_end_first else {}), **extra}

    def after_checks(update: Callable[[Any, Backend], dict[str, Any]]) -> Callable[[Any, Backend], dict[str, Any]]:
        """CR7.4 603.3: leaving the checks, the roles still standing end."""
        return update if roles_end_first else (lambda s, b: {**update(s, b), **roles_ended})

    out.append(
        Edge(
            "conclude_without_combat_damage[no attacker or defender]",
            "combat_conclusion",
            "pre_priority_checks",
            ("603.1b", "603.2") + checks_in_combat,
            guard=lambda s, b: b.Not(both_roles(s, b)),
            update=lambda s, b: conclude({}),
            tags=frozenset({"concludes_combat"}),
            doc="no attacker or no defender remains: no combat damage",
        )
    )
    out.append(
        Edge(
            "conclude_without_combat_damage[sabotage]",
            "combat_conclusion",
            "pre_priority_checks",
            ("603.1", "603.2") + checks_in_combat,
            guard=lambda s, b: b.And(both_roles(s, b), s.sabotage),
            update=lambda s, b: conclude({}),
            tags=frozenset({"concludes_combat"}),
            doc="a sabotage concludes: no combat damage ('when it sabotages' effects are not modelled)",
        )
    )

    long_range = t.keyword("long_range")

    def packets(s: Any, b: Backend) -> dict[str, Any]:
        """603.1, 603.1a: simultaneous packets, ATK for ATK; none from defenders of a long-range attacker."""
        to_defender = t.combat_atk(s, b, s.attacker)
        to_attacker = b.If(b.select(long_range, s.attacker, False), 0, t.combat_atk(s, b, s.defender))
        if roles.ends_allies(t):
            # A role holder that is an item only deals what the rulings say (V5).
            to_defender = b.If(roles.deals_combat_damage(t, s, b, s.attacker), to_defender, 0)
            to_attacker = b.If(roles.deals_combat_damage(t, s, b, s.defender), to_attacker, 0)
        return {"defender": to_defender, "attacker": to_attacker}

    # 407.3c, 407.3d: a hero's packet is tied to every weapon it struck with, and one
    # that can't be prevented makes the whole packet unpreventable.
    unpreventable = [(p, t.weapon(p, w)) for p, party in enumerate(t.board.parties) for w, weapon in enumerate(party.weapons) if weapon.unpreventable]

    def preventable(s: Any, b: Backend, source: str) -> Any:
        """304.2 takes only a preventable packet: not one a hero deals having struck with such a weapon."""
        c = getattr(s, source)
        return b.Not(b.Or(*(b.And(c == t.hero(p), s.struck[i]) for p, i in unpreventable))) if unpreventable else True

    def armor_usable(s: Any, b: Backend, role: str) -> Any:
        """304.2: the recipient is a hero about to take a preventable packet whose armor is ready (DEF 1 or more)."""
        c = getattr(s, role)
        p = b.select(t.owner, c, t.nobody)
        return b.And(
            b.select(t.is_hero, c, False),
            packets(s, b)[role] > 0,
            b.select(t.armor_def, p, 0) > 0,
            t.armor_ready_in_play(s, b, p),
            preventable(s, b, "defender" if role == "attacker" else "attacker"),
        )

    def with_second_defender(s: Any, b: Backend, dealt: dict[str, Any]) -> tuple[dict[str, Any], Callable[[int], Any]]:
        """603.1 where a modifier may have made a second defender (602.3b): each
        defender exchanges packets with the attacker as the rulings answer
        (``exchanges_combat_damage``: the seed's 603.1 speaks of one defender,
        and for two no text says).  The second defender is an ally facing an
        ally (windows._making_defenders): no armor and no strike on either side
        of its packets."""
        also = s.also_defender
        exchanges = tuple(t.rulings.answer("exchanges_combat_damage", s, b, c) for c in range(t.count))
        first = b.select(exchanges, s.defender, False)
        second = b.select(exchanges, also, False)
        from_second = b.If(b.Or(b.Not(second), b.select(long_range, s.attacker, False)), 0, t.combat_atk(s, b, also))
        to_attacker = b.If(first, dealt["attacker"], 0) + from_second
        atk = t.combat_atk(s, b, s.attacker)

        def to_defender(c: int) -> Any:
            return b.If(b.And(s.defender == c, first), dealt["defender"], 0) + b.If(b.And(also == c, second), atk, 0)

        return {**dealt, "attacker": to_attacker}, to_defender

    for suffix, armored in ARMOR_CHOICES.items():
        def damage_guard(s: Any, b: Backend, armored=armored) -> Any:
            return b.And(
                both_roles(s, b),
                b.Not(s.sabotage),
                *(armor_usable(s, b, role) for role in armored),
            )

        def damage_update(s: Any, b: Backend, armored=armored) -> dict[str, Any]:
            amounts = packets(s, b)
            dealt = {}
            armor = s.armor_exhausted
            for role, amount in amounts.items():
                if role in armored:
                    p = b.select(t.owner, getattr(s, role), t.nobody)
                    prevented = b.select(t.armor_def, p, 0)
                    amount = b.If(amount > prevented, amount - prevented, 0)
                    armor = b.store(armor, p, True)
                dealt[role] = amount
            to_defender = lambda c: b.If(s.defender == c, dealt["defender"], 0)  # noqa: E731
            if t.second_defender:
                dealt, to_defender = with_second_defender(s, b, dealt)
            # 404.1: only a card in play carries damage; a defender that left
            # play keeps its role only by 002's Chinese 602.4 (leaving_play_ends_role).
            damage = tuple(
                b.If(
                    s.in_play[c],
                    s.damage[c] + b.If(s.attacker == c, dealt["attacker"], 0) + to_defender(c),
                    s.damage[c],
                )
                for c in range(t.count)
            )
            return conclude({"damage": damage, "armor_exhausted": armor})

        out.append(
            Edge(
                f"combat_damage{suffix}",
                "combat_conclusion",
                "pre_priority_checks",
                ("603.1", "603.1a", "603.2", "404.4", "407.1", "407.2a")
                + (("304.2",) if armored else ())
                + (("407.3c",) if armored and unpreventable else ())
                + checks_in_combat,
                guard=damage_guard,
                update=damage_update,
                tags=frozenset({"concludes_combat", "deals_combat_damage"}),
                doc="attacker and defender deal combat damage packets equal to their ATK at once"
                + (f"; {' and '.join(armored)} hero's armor prevents damage" if armored else ""),
            )
        )

    # -- 409.5-409.6 pre-priority processing, 102 winning and losing ------------------------
    # 409.6b, with what keeps a hero from being destroyed (103.2).
    lethal = t.lethal

    def hero_gone(s: Any, b: Backend, p: int) -> Any:
        return b.And(s.in_game[p], b.Not(s.in_play[t.hero(p)]))

    def something_to_check(s: Any, b: Backend) -> Any:
        return b.Or(*(lethal(s, b, c) for c in range(t.count)), *(hero_gone(s, b, p) for p in range(t.n)))

    # 102.1a: the seed's loss is a check of the next batch; CR7.4's comes at
    # once, with the hero's destruction (a question of the rulings).
    loses_at_once = t.rulings.fixed("loses_as_hero_is_destroyed")

    def batch(s: Any, b: Backend) -> dict[str, Any]:
        destroyed = tuple(lethal(s, b, c) for c in range(t.count))
        leaving = tuple(
            b.Or(hero_gone(s, b, p), b.And(s.in_game[p], destroyed[t.hero(p)])) if loses_at_once else hero_gone(s, b, p)
            for p in range(t.n)
        )
        left = t.leave_game(s, b, leaving, destroyed=destroyed)
        # 409.6b: lethal damage destroys; 404.1: a card that leaves play loses its damage.
        in_play = tuple(b.And(left["in_play"][c], b.Not(destroyed[c])) for c in range(t.count))
        post = {
            **left,
            "in_play": in_play,
            "damage": tuple(b.If(b.Or(destroyed[c], b.Not(left["in_play"][c])), 0, left.get("damage", s.damage)[c]) for c in range(t.count)),
            "exhausted": tuple(b.If(b.Or(destroyed[c], b.Not(left["in_play"][c])), False, left.get("exhausted", s.exhausted)[c]) for c in range(t.count)),
        }
        if not roles_end_first:
            # 602.4: a combatant still holding its role as it leaves play is removed from combat.
            gone = lambda c: b.Not(b.select(in_play, c, True))  # noqa: E731
            post["attacker"] = b.If(gone(s.attacker), none, s.attacker)
            post["defender"] = b.If(gone(s.defender), none, s.defender)
        return post

    # 102.1: a player wins once no opponent of his remains.  Only where a card
    # keeps a hero from being destroyed can a batch leave one player in the
    # game with a check still to make (his hero, whose keeper fell in that
    # batch, 103.4); the game is over then, as the 103.4 example says (his
    # hero is destroyed in the next batch only if other players remain).
    # Elsewhere every lethal character goes in the first batch, and the
    # guards stay as they were.
    over_at_once = any(t.keepers)

    def batch_guard(s: Any, b: Backend) -> Any:
        return b.And(something_to_check(s, b), t.goes_on(s, b)) if over_at_once else something_to_check(s, b)

    out.append(
        Edge(
            "pre_priority_batch",
            "pre_priority_checks",
            "pre_priority_checks",
            ("409.6", "409.6b", "404.1", "404.2", "102.1a", "102.2") + (() if roles_end_first else ("602.4",))
            + (("CR7.4 102.1a",) if loses_at_once else ()),
            guard=batch_guard,
            update=batch,
            tags=frozenset({"pre_priority_batch"}),
            doc="one batch: characters with lethal damage are destroyed and players whose hero is gone lose, all at once",
        )
    )
    settled = lambda s, b: b.Not(something_to_check(s, b))  # noqa: E731
    out.append(
        Edge(
            "game_ends",
            "pre_priority_checks",
            "game_over",
            ("102.1", "102.1a") + roles_end_after_checks,
            guard=lambda s, b: t.over(s, b) if over_at_once else b.And(settled(s, b), t.over(s, b)),
            update=after_checks(lambda s, b: {"priority_holder": t.nobody}),
            tags=frozenset({"ends_game"}),
            doc="at most one player remains: he wins, or with nobody left the game is a draw",
        )
    )
    out.append(
        Edge(
            "open_action_window",
            "pre_priority_checks",
            "action_phase",
            ("603.2", "409.5", "409.4") + roles_end_after_checks,
            guard=lambda s, b: b.And(settled(s, b), t.goes_on(s, b), b.select(s.in_game, s.turn_player, False)),
            update=after_checks(t.give_turn_player_priority),
            tags=frozenset({"opens_window", "ends_combat_step"}),
            doc="the checks change nothing more: a window opens in the action phase and the turn player gets priority",
        )
    )
    out.append(
        Edge(
            "turn_player_left",
            "pre_priority_checks",
            "ready_step_start",
            ("409.5", "102.2", "assumed:turn-player-leaves") + roles_end_after_checks,
            guard=lambda s, b: b.And(settled(s, b), t.goes_on(s, b), b.Not(b.select(s.in_game, s.turn_player, True))),
            update=after_checks(lambda s, b: t.next_turn(s, b)),
            tags=frozenset({"ends_turn"}),
            doc="the turn player lost in combat with players left: the next player clockwise starts a turn",
        )
    )

    if strikes_as_roles_begin:
        out = strikes_with_roles(t, out)
    if combats is None:
        return out, (lambda s, b: b.Not(t.must_attack_binds(s, b)))
    out.append(
        Edge(
            "combat_limit_reached",
            "action_phase",
            "combat_limit",
            (),
            guard=lambda s, b: b.And(s.combats >= combats, t.must_attack_binds(s, b)),
            update=lambda s, b: {"priority_holder": t.nobody, **t.fresh_succession()},
            tags=frozenset({"bound"}),
            doc="the exploration bound on combats per turn, not a rule",
        )
    )
    return out, (lambda s, b: b.Not(t.must_attack_binds(s, b)))


def strike_edges(t: Table) -> list[Edge]:
    """602.3a: a player whose hero is in combat (602.3c, a question of the
    rulings) strikes with a ready weapon in the defend window; 303.2c: one
    weapon per combat, except a pair 405 allows (``may_strike_with_both``)."""
    chain = t.chain
    out = []
    for p in range(t.n):
        party = t.board.parties[p]
        for w, weapon in enumerate(party.weapons):
            slot = t.weapon(p, w)
            # Another weapon already struck this combat forbids this strike unless the two make a pair.
            exclusive = [t.weapon(p, v) for v in range(len(party.weapons)) if v != w and not strikes_together(t, p, v, w)]
            paired = len(exclusive) < len(party.weapons) - 1
            rules = ("602.3a", "602.3c", "409.2a", "303.2", "303.2a", "303.2c", "409.3", "413.7a")
            if paired:
                rules += ("405.3",) + (("405.2",) if not weapon.melee else ())
            def guard(s: Any, b: Backend, p: int = p, slot: int = slot, exclusive: list = exclusive, cost: int = weapon.strike_cost) -> Any:
                return b.And(
                    s.priority_holder == p,
                    t.in_combat(s, b, t.hero(p)),
                    t.weapon_ready_in_play(s, b, slot),
                    t.ready_resources(s, b, p) >= cost,
                    b.Not(chain.is_full(s)),
                    *(b.Not(s.struck[o]) for o in exclusive),
                )

            def update(s: Any, b: Backend, p: int = p, slot: int = slot, cost: int = weapon.strike_cost) -> dict[str, Any]:
                return {
                    "weapon_exhausted": b.store(s.weapon_exhausted, slot, True),
                    "struck": b.store(s.struck, slot, True),
                    **(t.pay(s, b, p, cost) if cost else {}),
                    **chain.push(s, b, controller=p, kind=STRIKE_LINK),
                    **t.fresh_succession(),
                }

            name, doc = f"strike[{t.player_name(p)} {weapon.name}]", f"{t.player_name(p)}, whose hero is in combat, strikes with {weapon.name}"
            if not t.bear[p]:
                out.append(Edge(name, "defend_window", "defend_window", rules, guard=guard, update=update, actor=holder,
                                tags=frozenset({"adds_link", "strikes"}), doc=doc))
                continue
            out += _strikes_in_bear_form(t, p, name, rules, guard, update, doc)
    return out


def _strikes_in_bear_form(t: Table, p: int, name: str, rules: tuple[str, ...], guard: Callable[[Any, Backend], Any],
                          update: Callable[[Any, Backend], dict[str, Any]], doc: str) -> list[Edge]:
    """A strike of player ``p``, whose hero may be in bear form: out of it, as
    any strike; in it, the strike ends it (``Table.ending_bear_form``)."""
    return [
        Edge(name, "defend_window", "defend_window", rules, guard=lambda s, b: b.And(guard(s, b), b.Not(s.bear_form[p])), update=update,
             actor=holder, tags=frozenset({"adds_link", "strikes"}), doc=doc),
        Edge(f"{name}{IN_BEAR_FORM}", "defend_window", "defend_window", rules + t.bear_form_rules(p),
             guard=lambda s, b: b.And(guard(s, b), t.may_end_bear_form(s, b, p)),
             update=lambda s, b: t.ending_bear_form(s, b, p, update(s, b)), actor=holder, tags=frozenset({"adds_link", "strikes"}),
             doc=f"{doc}; his hero's bear form ends " + ("as its triggered effect, put on the chain above the strike, resolves" if t.bear_by_trigger[p]
                                                         else "at once: Maul is destroyed")),
    ]


def strikes_together(t: Table, p: int, v: int, w: int) -> bool:
    """405.3: may player ``p`` strike with both his weapons ``v`` and ``w`` in one combat?"""
    return bool(t.rulings.fixed("may_strike_with_both", p, *sorted((v, w))))


def strikes_with_roles(t: Table, edges: list[Edge]) -> list[Edge]:
    """CR7.4 303.2-303.2a, 602.1, 602.3: a player strikes only as his hero
    becomes the attacker (as the combat step starts) or the defender (after
    the protect point), without the chain.  Each edge where a role begins
    gets a twin per choice of weapons (one, or a pair 405 allows), as the
    armour choice is folded into combat damage."""
    # Which role begins on each edge.
    beginnings = {
        **{e.name: "attacker" for e in edges if (e.has("resolves_proposal") or e.has("proposes")) and e.target == "attack_window"},
        "no_protection": "defender",
        **{e.name: "defender" for e in edges if e.has("protects")},
    }
    added = []
    for e in edges:
        role = beginnings.get(e.name)
        if role is None:
            continue
        for p in range(t.n):
            party = t.board.parties[p]
            choices = [(w,) for w in range(len(party.weapons))] + [
                pair for pair in itertools.combinations(range(len(party.weapons)), 2) if strikes_together(t, p, *pair)
            ]
            for choice in choices:
                slots = tuple(t.weapon(p, w) for w in choice)
                cost = sum(party.weapons[w].strike_cost for w in choice)

                def guard(s: Any, b: Backend, e: Edge = e, role: str = role, p: int = p, slots: tuple = slots, cost: int = cost) -> Any:
                    return b.AndThen(
                        e.guard(s, b),
                        lambda: b.And(
                            e.update(s, b).get(role, getattr(s, role)) == t.hero(p),
                            *(t.weapon_ready_in_play(s, b, i) for i in slots),
                            t.ready_resources(s, b, p) >= cost,
                        ),
                    )

                def update(s: Any, b: Backend, e: Edge = e, p: int = p, slots: tuple = slots, cost: int = cost) -> dict[str, Any]:
                    post = dict(e.update(s, b))
                    exhausted, struck = s.weapon_exhausted, s.struck
                    for i in slots:
                        exhausted, struck = b.store(exhausted, i, True), b.store(struck, i, True)
                    return {**post, **(t.pay(s, b, p, cost) if cost else {}), "weapon_exhausted": exhausted, "struck": struck}

                names = " and ".join(party.weapons[w].name for w in choice)
                added.append(
                    replace(
                        e,
                        name=f"{e.name}[{t.player_name(p)} strikes with {names}]",
                        rules=e.rules + ("CR7.4 303.2", "CR7.4 303.2a", "CR7.4 602.1" if role == "attacker" else "CR7.4 602.3")
                        + (("405.3",) if len(choice) == 2 else ()),
                        guard=guard,
                        update=update,
                        tags=e.tags | {"strikes"},
                        doc=f"{e.doc}; {t.player_name(p)}'s hero becomes the {role} and strikes with {names}",
                    )
                )
    return [*edges, *added]
