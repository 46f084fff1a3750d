"""Pre-priority processing (409.5-409.6), uniqueness (412, 405) and leaving
the game (102.1-102.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .effects import (
    can_be_destroyed, destroyed_triggers, graveyard_from_play, health_of, in_play_with, keywords_of, leave_play, sources_in_play,
)
from .objects import READY_CLOCK, Action, Decision

if TYPE_CHECKING:
    from .objects import Obj
    from .state import GameState


def ppp_batch(st: GameState, cards: list[Obj] | None = None, standing_settled: bool = False) -> bool:
    """One batch of 409.6: every check reads the same state and what they find
    happens at once. Returns whether anything happened (then another batch).
    It runs before every grant of priority, so one pass over play gathers what
    409.6a-b, 409.6d and 409.6f find, each list in the order of play.
    `cards`: the cards in play that are not resources, or have damage or a
    host, in the order of play, when the caller has them (`GameState._checked_facts`):
    a resource with neither is a card none of these checks finds anything in.
    Or only those whose damage changed, or that entered play, since a batch
    last found nothing, when they are all a batch could find anything in
    (`GameState._changed_since_settled`). `standing_settled`: the players'
    standing and the tokens outside play are as when a batch last found
    nothing, and no card has left play since, so no player loses (409.6c,
    102.1a: every hero is still in play) and no token vanishes (409.6e)."""
    objs = st.objs
    doomed, misfits, scarred = [], [], []
    for o in map(objs.__getitem__, st.play) if cards is None else cards:
        if not o.resource and o.card.is_character:  # `is_character`, written out: most of play is resources
            # 409.6a: total health 0 destroys (not lethal damage); 409.6b: lethal damage.
            health = health_of(st, o)
            if (health <= 0 or o.damage >= health) and can_be_destroyed(st, o):
                doomed.append(o)
        elif o.damage:
            scarred.append(o)  # 409.6f: damage on something that is not a character is removed.
        # 409.6d: an attachment whose host no longer fits its description falls off.
        if o.attached_to is not None and not st.fits_attach(o, objs[o.attached_to], in_play=True):
            misfits.append(o)
    # 409.6c / 102.1a: a player who had to draw from an empty deck loses; so
    # does one whose hero has left play (its destruction was an earlier batch).
    losers = [] if standing_settled else [
        p for p in st.players
        if p.in_game and (p.drew_from_empty or p.hero not in st.party)  # a hero is never a resource
    ]
    # 409.6e: a token outside play vanishes.
    strays = [] if standing_settled else [objs[tid] for tid in st.tokens if objs[tid].zone not in ("play", "gone")]
    if not (doomed or losers or misfits or strays or scarred):
        return False
    # Where each goes is read before any leaves: they leave at once (409.6).
    zones = [graveyard_from_play(st, o) for o in doomed]
    destroyed = [o for o, zone in zip(doomed, zones) if zone == "graveyard"]
    removed = [o for o, zone in zip(doomed, zones) if zone == "removed"]
    if destroyed:
        st.history.append("pre-priority checks destroy " + ", ".join(st.describe(o) for o in destroyed) + " (409.6)")
    if removed:
        st.history.append("pre-priority checks remove " + ", ".join(st.describe(o) for o in removed)
                          + " from the game instead of destroying them (409.6, 413.8a)")
    # The cards in play with a triggered power (CR7.4 703.1), in the order of play: no other watches.
    watchers = [o for o in map(st.objs.__getitem__, st.play) if o.card.triggers]
    for o, zone in zip(doomed, zones):
        leave_play(st, o, zone)
    destroyed_triggers(st, destroyed, watchers)
    for a in misfits:
        if a.id in st.play:
            leave_play(st, a, "graveyard")
    for o in strays:
        st.move(o, "gone")
    for o in scarred:
        o.damage = 0
    if losers:
        st.players_lose([p.index for p in losers])
    return True


# --- Uniqueness (412; 405.1-405.2; basic rules "Unique") ------------------------

def uniqueness_violation(hero_keywords: frozenset[str], mine: list[Obj]) -> list[int]:
    """The cards of one uniqueness violation among `mine`, the cards bound by
    uniqueness that one player controls (not resources), in the order of play;
    `hero_keywords` are his hero's keywords now (a hero that loses dual wield
    may hold one melee weapon again, 405.1). [] when there is none."""
    by_name: dict[str, list[int]] = {}
    labels: dict[str, list[Obj]] = {}
    two_handed, off_hand, melee = [], [], []
    for o in mine:
        card = o.card
        if card.unique:  # two unique cards with one name
            by_name.setdefault(card.name, []).append(o.id)
        for label in card.limited_labels:
            labels.setdefault(label, []).append(o)
        if "Two-Handed" in card.tags:
            two_handed.append(o.id)
        if "Off-Hand" in card.tags:
            off_hand.append(o.id)
        if "Melee" in card.limited_labels:
            melee.append(o.id)
    for ids in by_name.values():
        if len(ids) > 1:
            return ids
    for label, cards in labels.items():
        limit = cards[0].card.limited_labels[label]
        # 405.1: dual wield allows two one-handed melee weapons; 405.2: ranged
        # dual wield two ranged weapons.
        if label == "Melee" and "dual_wield" in hero_keywords and not any("Two-Handed" in c.card.tags for c in cards):
            limit = 2
        if label == "Ranged" and "ranged_dual_wield" in hero_keywords:
            limit = 2
        if len(cards) > limit:
            return [c.id for c in cards]
    if two_handed and off_hand:  # basic rules: two-handed against off-hand
        return two_handed + off_hand
    if len(melee) >= 2 and off_hand:  # 405.1: two melee weapons and an off-hand card
        return melee + off_hand
    return []


def check_uniqueness(st: GameState, cards: list[Obj] | None = None) -> None:
    """CR7.4 414.2: the turn player repairs first, then clockwise; the player
    chooses which violating card the game destroys (103.3: even one that
    can't be destroyed). It runs before every grant of priority, so one pass
    over play sorts the cards bound by uniqueness by controller first.
    `cards`: at least the cards in play that are not resources, in the order
    of play, when the caller has them (as for `ppp_batch`)."""
    bound: dict[int, list[Obj]] = {}
    for o in map(st.objs.__getitem__, st.play) if cards is None else cards:
        if o.card.bound_by_uniqueness and not o.resource:
            mine = bound.get(o.controller)
            if mine is None:
                bound[o.controller] = [o]
            else:
                mine.append(o)
    if not bound:
        return  # nothing in play is bound by uniqueness
    # A hero's keywords change only by these attachments (405.1): where they are is read too.
    lost = tuple(a.attached_to for a in sources_in_play(st, "attached_loses_keyword")) \
        if in_play_with(st, "attached_loses_keyword") else ()
    # What each player's check read when it last found nothing: a card's
    # definition and a player's hero never change, so the same bound cards
    # of his, in the same order, with the same such attachments, find nothing again.
    settled = st.uniqueness_settled
    for p in st.clockwise_from(st.turn_player):
        mine = bound.get(p)
        if not mine:
            continue  # nothing of his is bound by uniqueness
        read = (tuple([o.id for o in mine]), lost)
        if settled.get(p) == read:
            continue
        ids = uniqueness_violation(keywords_of(st, st.objs[st.players[p].hero]), mine)
        if ids:
            options = [
                Action.made("repair", p, oid, label=f"{st.pname(p)} keeps the others and destroys {st.describe(st.objs[oid])}")
                for oid in ids
            ]
            st.decide(Decision("uniqueness", p, options, "412", {}))
            return
        settled[p] = read


def remove_player_cards(st: GameState, player: int) -> None:
    """102.2: a player who leaves takes every card he owns out of the game; his
    links are interrupted; what he controlled of others' goes back (401.3b)."""
    st.chain[:] = [link for link in st.chain if link.controller != player]
    st.waiting[:] = [w for w in st.waiting if w.controller != player]
    owner = st.players[player]
    removed = owner.removed
    for o in st.objs:
        if o.owner == player:
            zone = o.zone
            if zone == "play":
                leave_play(st, o, "removed")
            elif zone != "removed" and zone != "gone":
                # `st.move` written out for a card out of play, but for taking
                # it out of its pile: every pile of his is emptied below, as
                # each card in them is his own (413.1) and leaves with him.
                if o.resource:
                    READY_CLOCK[0] += 1
                object.__setattr__(o, "zone", "gone" if o.token else "removed")  # a token out of play vanishes (403.2a)
                if not o.token:
                    removed.append(o.id)
    owner.deck.clear()
    owner.hand.clear()
    owner.graveyard.clear()
    st.instants_in_hand[player] = 0
