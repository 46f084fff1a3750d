"""Instants that change a combat role: a second proposed defender (V4) and
an ally that stops being a character while it holds a role (V5).

Neither is on the default board; each is asked on a board one change away
(``board.nearby_boards``).

- A second proposed defender: CR7.4's 602.2b speaks of several proposed
  defenders, one protector for each, and lets no proposed defender protect
  another (wowtcg-comprehensive-rules-7.4.txt:1905-1907); the seed's 602.2b
  forbids only protecting itself (000:473, 002:91-93).  The question
  ``proposed_defender_may_protect_another``.
- An ally that becomes an item only: the seed's 602.4 ends a role as a card
  leaves play, changes controller or is removed from combat (000:485,
  002:128-133); CR7.4's 602.4 also as it stops being a character
  (:1933-1936).  The question ``stops_being_character_ends_role``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from model.backend import Backend
from model.machine import Edge
from model.rulings import Question, Ruling, always


def proposes_second_defender(t: Any) -> bool:
    """Some instant of the board makes a second proposed defender (V4)."""
    return any(sp.makes_proposed_defender for sp in t.board.spells)


def ends_allies(t: Any) -> bool:
    """Some instant of the board makes an ally that is an item too an item only (V5)."""
    return any(sp.ends_ally for sp in t.board.spells) and any(t.item_allies)


def questions(t: Any) -> tuple[Question, ...]:
    # Asked where an instant can make a second proposed defender, at the
    # protect point; the basic rules know no such thing.
    proposed_defender_may_protect_another = Question(
        "proposed_defender_may_protect_another",
        "may a protector that is a proposed defender protect another proposed defender (602.2b)?",
        (
            # 000 and 002: 602.2 lets any ready protector of an opponent of
            # the attacker protect, and 602.2b bars only the proposed defender
            # from protecting itself.
            Ruling(
                "602.2b:proposed-defender",
                ("602.2", "602.2b"),
                True,
                always,
                "602.2b bars a proposed defender only from protecting itself",
                texts={"000": "471-473", "002en": "80-92", "002zh": "85-93"},
            ),
            # CR7.4's 602.2b bars protecting another proposed defender too.
            Ruling(
                "602.2b:proposed-defender",
                ("CR7.4 602.2b",),
                False,
                always,
                "a proposed defender can't protect itself or another proposed defender",
                texts={"CR7.4": "1905-1907"},
            ),
        ),
        ((),) if proposes_second_defender(t) else (),
        asked_at=("protect_point",),
        fixed=True,
        show=lambda: "a second proposed defender with protector",
    )
    # Asked where such an instant is in the game, in the windows of a combat
    # step, where a card holds a role as the instant resolves.  The basic
    # rules say nothing of it.
    stops_being_character_ends_role = Question(
        "stops_being_character_ends_role",
        "as a card holding a combat role stops being a character and stays in play, does its role end (602.4)?",
        (
            # 000 and 002 in both tongues: a role ends as its card leaves play,
            # changes controller or is removed from combat; a card that stays
            # in play as an item is none of these.
            Ruling(
                "602.4",
                ("602.4",),
                False,
                always,
                "a role ends only as its card leaves play, changes controller or is removed from combat: an item in play keeps it",
                texts={"000": "485", "002en": "128-132", "002zh": "133"},
            ),
            # CR7.4's 602.4 adds "stops being a character" to what removes a
            # card from combat.
            Ruling(
                "602.4",
                ("CR7.4 602.4",),
                True,
                always,
                "a card that stops being a character is removed from combat, and its role ends",
                texts={"CR7.4": "1933-1936"},
            ),
        ),
        ((),) if ends_allies(t) else (),
        asked_at=("attack_window", "defend_window"),
        fixed=True,
        show=lambda: "an ally in a combat role made an item only",
    )
    # 603.1 deals a packet equal to each role holder's ATK, and ATK is a
    # character's or a weapon's (CR7.4 glossary, :3240): where the seed keeps
    # an item in a role, no text says what it deals.  The model's assumption:
    # nothing, as it has no ATK; lint reports the gap.  It takes none either,
    # only a character in play carrying damage (404.1, CR7.4 405.1).
    def item_only(s: Any, b: Backend, c: Any) -> Any:
        return b.And(b.Not(s.in_play[c]), s.item_in_play[c])

    item_deals_combat_damage = Question(
        "item_deals_combat_damage",
        "as a combat concludes, does this card, holding a combat role, deal a packet of combat damage equal to its ATK (603.1)?",
        (
            Ruling(
                "603.1",
                ("603.1",),
                True,
                lambda s, b, c: b.Not(item_only(s, b, c)),
                "the attacker and the defender each deal a packet equal to their ATK",
                texts={"000": "487", "002en": "136-140", "002zh": "141", "CR7.4": "1952-1957"},
            ),
            Ruling(
                "assumed:item-deals-no-combat-damage",
                ("assumed:item-deals-no-combat-damage",),
                False,
                item_only,
                "a card in a role that is an item only has no ATK, and deals no packet",
            ),
        ),
        tuple((c,) for c in range(t.count) if t.item_allies[c]) if ends_allies(t) else (),
        asked_at=("combat_conclusion",),
        show=t.name,
    )
    return (proposed_defender_may_protect_another, stops_being_character_ends_role, item_deals_combat_damage)


def deals_combat_damage(t: Any, s: Any, b: Backend, c: Any) -> Any:
    """Whether the role holder ``c`` deals its packet at 603.1: asked of a
    card that can be an item only (``item_deals_combat_damage``), yes for
    every other."""
    return b.select(tuple(t.rulings.answer("item_deals_combat_damage", s, b, x) if t.item_allies[x] else True for x in range(t.count)), c, True)


def making_proposed_defenders(t: Any, window: str) -> list[Edge]:
    """An instant resolves in the attack window and a target ally of the
    proposed defender's player, out of combat, becomes a proposed defender
    beside it (``also_defender``), as CR7.4 602.2b's several proposed
    defenders suppose.  At the protect point a protector takes the place of
    the proposal's proposed defender (602.2); whether the other proposed
    defender may be that protector is the question
    ``proposed_defender_may_protect_another`` (V4, ``protects_another``).
    At 602.3 both defend, and ``exchanges_combat_damage`` says how they deal
    combat damage, as on V3's board.

    Kept small, as V3's instant is: a combat that is no sabotage, with an
    ally attacking, at most two proposed defenders; protecting the second
    proposed defender is left out."""
    from model.wowtcg.windows import joining_the_defence, resolving

    edges = []
    for c in range(t.count):
        if t.is_hero[c] or t.totem[c]:
            continue

        edges.append(resolving(
            t, window, f"resolve_instant[{t.name(c)} becomes a proposed defender]", ("602.2",), joining_the_defence(t, c),
            lambda s, b, c=c: {"also_defender": c},
            f"an instant resolves and {t.name(c)} becomes a proposed defender beside the proposed defender",
        ))
    return edges


def protects_another(t: Any, c: int) -> Callable[[Any, Backend], Any] | None:
    """The protect point's extra condition on ``c`` protecting where it may be
    a second proposed defender: none where the rulings let it (the seed's
    602.2b), else that it is not one (CR7.4's).  None: no condition."""
    if not proposes_second_defender(t) or t.rulings.fixed("proposed_defender_may_protect_another"):
        return None
    return lambda s, b: s.also_defender != c


def ending_allies(t: Any, window: str) -> list[Edge]:
    """An instant resolves and an ally that is an item too (Arcanite
    Dragonling), holding a combat role, stops being an ally and stays in play
    as an item, as it does as the turn ends (503.2a).  Whether its role ends
    is the question ``stops_being_character_ends_role`` (V5).  Kept small:
    only while it is the attacker or the (proposed) defender."""
    from model.wowtcg.windows import INSTANT_LINK, resolving, top_link_is

    ends = bool(t.rulings.fixed("stops_being_character_ends_role"))
    rules = ("300.2", "CR7.4 602.4") if ends else ("300.2", "602.4")
    edges = []
    for c in (c for c in range(t.count) if t.item_allies[c]):

        def guard(s: Any, b: Backend, c: int = c) -> Any:
            return b.And(
                top_link_is(t, s, b, INSTANT_LINK), s.in_play[c], s.item_in_play[c], b.Or(s.attacker == c, s.defender == c),
            )

        def effect(s: Any, b: Backend, c: int = c) -> dict[str, Any]:
            out = {"in_play": b.store(s.in_play, c, False)}
            if ends:
                out.update(attacker=b.If(s.attacker == c, t.none, s.attacker), defender=b.If(s.defender == c, t.none, s.defender))
            return out

        edge = resolving(
            t, window, f"resolve_instant[{t.name(c)} is an item only]", rules, guard, effect,
            f"an instant resolves and {t.name(c)} stops being an ally, staying in play as an item; "
            + ("it is removed from combat" if ends else "it keeps its combat role"),
        )
        edges.append(replace(edge, tags=edge.tags | {"stays_an_item"}))
    return edges
