"""Combat (600-603): who may attack whom, the protect point, strikes, and the
conclusion's combat damage. Each check returns `None` when the rules allow the
thing, or `(rule, reason)` naming the rule that forbids it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .effects import (
    atk_of, hosts_of, is_ally, is_character, keywords_lost, keywords_of, make_packet, powerless, sources_in_play, trigger_event,
)
from .objects import Action, Decision, Packet

if TYPE_CHECKING:
    from .objects import Obj
    from .state import GameState

Problem = "tuple[str, str] | None"


def has(st: GameState, o: Obj, keyword: str) -> bool:
    """A printed keyword, or one the card gains (Thunderhead Hippogryph), and
    not one an attachment takes away (405.1), unless it has lost its powers
    (Polymorph, CR7.4 700.3)."""
    powers = st.powers_in_game
    card = o.card
    if keyword in card.keywords:
        found = "attached_loses_keyword" not in powers or keyword not in keywords_lost(st, o)
    elif "keywords_by_hero_trait" in card.continuous_powers \
            or (keyword == "protector" and card.type == "hero" and "hero_bear_form" in powers):
        found = keyword in keywords_of(st, o)  # gained: by its hero's faction, or a hero's bear form
    else:
        return False  # neither printed nor gained
    return found and ("attached_powerless" not in powers or o.id not in powerless(st))


def in_party_since_turn_start(st: GameState, o: Obj) -> bool:
    """302.2: an ally counts only if it has been in its party continuously
    since its controller's latest turn began; heroes always have."""
    return o.card.type == "hero" or o.joined_turn < st.players[o.controller].last_turn_start


def attack_only(st: GameState, attacker: Obj) -> set[int]:
    """601.2c-d: the characters this attacker may attack only, if able:
    Sarmoth's for his opponents, Mocking Blow's caster's hero this turn."""
    # Loops, not comprehensions: every proposal asks, and mostly nothing is found.
    allowed = set()
    if "opponents_attack_only_this" in st.powers_in_game:
        for s in sources_in_play(st, "opponents_attack_only_this"):
            if not st.friendly(s.controller, attacker.controller):
                allowed.add(s.id)
    for what, oid, hero in st.turn_modifiers:
        if what == "attack_only_your_hero" and oid == attacker.id:
            allowed.add(hero)
    return allowed


#: Why a character can't be proposed as an attacker (`attacker_rule`): the
#: rule, and the reason with the card's and the turn player's names to fill in.
CANT_ATTACK = {
    "not_his": ("601.2", "{card} is not a character in {player}'s party"),
    "totem": ("306.3a", "{card} is a totem, which can't be proposed as an attacker"),
    "held": ("103.2", "{card} can't attack (Polymorph)"),
    "exhausted": ("601.2a", "{card} is exhausted"),
    "new": ("302.2", "{card} joined the party this turn and has no ferocity"),
}


def attacker_problem(st: GameState, a: Obj) -> Problem:
    """601.2a: a ready character of the turn player's party that has been in
    it since his turn began, or has ferocity (302.2)."""
    found = attacker_rule(st, a)
    if found is None:
        return None
    rule, reason = found
    return (rule, reason.format(card=a.name, player=st.pname(st.turn_player)))


def attacker_rule(st: GameState, a: Obj) -> tuple[str, str] | None:
    """`attacker_problem` with its reason unwritten (`CANT_ATTACK`): asked of
    every character of the turn player before each of his main-phase
    choices, where a refusal is common and its words are never read."""
    # `is_character`, `hosts_of` and `in_party_since_turn_start` written out:
    # this runs for every character of his before each of his main-phase choices.
    card = a.card
    if a.zone != "play" or a.resource or not card.is_character or a.controller != st.turn_player:
        return CANT_ATTACK["not_his"]
    if card.is_totem:
        return CANT_ATTACK["totem"]
    if "attached_cant_attack_or_protect" in st.powers_in_game and a.id in hosts_of(st, "attached_cant_attack_or_protect"):
        return CANT_ATTACK["held"]
    if a.exhausted:
        return CANT_ATTACK["exhausted"]
    if card.type != "hero" and a.joined_turn >= st.players[a.controller].last_turn_start and not has(st, a, "ferocity"):
        return CANT_ATTACK["new"]
    return None


def defender_problem(st: GameState, a: Obj, d: Obj, sabotage: bool) -> Problem:
    """601.2b: a normal combat's defender is a non-elusive opposing character;
    a sabotage's is a non-friendly item that the saboteur can sabotage."""
    teams = st.teams
    if d.zone != "play" or teams[d.controller] == teams[a.controller]:  # friendly: his own or a teammate's (CR7.4 glossary)
        return ("601.2b", f"{d.name} is not an opposing card in play")
    if has(st, d, "elusive"):
        return ("601.2b", f"{d.name} has elusive")
    if sabotage:
        # Reading: the pool's only saboteur sabotages items (its card says so).
        if not has(st, a, "sabotage"):
            return ("601.2b", f"{a.name} has no sabotage")
        if d.card.type != "item" or d.resource:
            return ("601.2b", f"{a.name} can sabotage only items, not {d.name}")
    elif not is_character(d):
        return ("601.2b", f"{d.name} is not a character")
    return None


def open_defenders(st: GameState, player: int, cards: list[Obj]) -> tuple[list[tuple[Obj, bool]], bool]:
    """Those of `cards` (in play, not resources) that an attacker of this
    player could be proposed against, each with whether it would be a
    sabotage: what `defender_problem` finds for every attacker alike, which
    leaves only a sabotage's need of an attacker with sabotage (601.2b).
    With them, whether any would be a sabotage."""
    teams = st.teams
    mine = teams[player]
    out = []
    items = False
    for d in cards:
        if teams[d.controller] == mine or ("elusive" in d.card.keywords_possible and has(st, d, "elusive")):
            continue
        if d.card.type == "item":
            out.append((d, True))
            items = True
        elif d.card.is_character:
            out.append((d, False))
    return out, items


def proposal_problem(st: GameState, a: Obj, d: Obj, sabotage: bool) -> Problem:
    """601.2e: a proposal is legal when both roles are; 601.2c-d: a character
    that can attack only certain characters must propose one of them, unless
    every such proposal would be illegal."""
    return attacker_problem(st, a) or defender_problem(st, a, d, sabotage) or attack_only_problem(st, a, d, attack_only(st, a))


def attack_only_problem(st: GameState, a: Obj, d: Obj, only: set[int]) -> Problem:
    """601.2c-d: `only`, what `a` may attack only (`attack_only`), holds
    characters and `d` is not one of them, though one could be proposed."""
    if only and d.id not in only:
        if any(defender_problem(st, a, st.objs[x], False) is None for x in only if x in st.play):
            names = ", ".join(sorted(st.objs[x].name for x in only))
            return ("601.2c", f"{a.name} can attack only {names} if able")
    return None


def attack_tax(o: Obj) -> int:
    """600.3: what its controller must pay to propose it as an attacker."""
    return o.card.continuous_powers.get("attack_tax", 0)


def must_attack_pending(st: GameState) -> str | None:
    """600.2: the name of a turn player's character that must attack if able
    and could be proposed now, or None. 600.3: one that can't attack unless
    its controller pays is unable to attack, and so need not, until he pays."""
    for what, oid, _ in st.turn_modifiers:
        if what != "must_attack" or oid not in st.play:
            continue
        a = st.objs[oid]
        if a.controller != st.turn_player or attack_tax(a):
            continue
        for d in st.cards_in_play():
            if not st.friendly(d.controller, a.controller) and proposal_problem(st, a, d, False) is None:
                return a.name
    return None


# --- The protect point (602.2) ---------------------------------------------------

def protect_options(st: GameState, player: int) -> list[Action]:
    """602.2, 602.2a-b: a ready protector in this opponent's party, not the
    proposed defender, and never while the attacker has stealth."""
    c = st.combat
    attacker = st.objs[c.attacker]
    if c.protected or has(st, attacker, "stealth"):
        return []
    # The cheap tests first: this is asked at every protect point, and most
    # characters could never have protector (a hero gains it in bear form).
    # The party holds no resource, so `is_character` reads the card alone.
    bear = "hero_bear_form" in st.powers_in_game
    ready = [o for o in map(st.objs.__getitem__, st.party)
             if ("protector" in o.card.keywords_possible or (bear and o.card.type == "hero")) and o.controller == player
             and not o.exhausted and o.id != c.defender and o.card.is_character]
    if not ready:
        return []
    held = hosts_of(st, "attached_cant_attack_or_protect")  # Polymorph (103.2: "can't" beats "can")
    return [
        Action.made("protect", player, o.id, label=f"{st.pname(player)} protects with {st.describe(o)}")
        for o in ready if o.id not in held and has(st, o, "protector")
    ]


def protect_point(st: GameState, asked: tuple[int, ...] = ()) -> None:
    """Ask, clockwise from the turn player, each opponent of the attacker who
    has a protector; the first to protect ends the protect point. The
    attacker's teammates are not his opponents (basic rules, multiplayer (001):
    a protector protects characters friendly to it).
    Reading: 602.2 lets any opponent protect but names no order; the turn
    order used for priority (409.1) is the natural one."""
    c = st.combat
    if c.attacker is None or c.defender is None:
        return
    attacking = st.objs[c.attacker].controller
    for p in st.clockwise_from(st.turn_player):
        if p in asked or st.friendly(p, attacking):
            continue
        options = protect_options(st, p)
        if options:
            options.append(Action.made("protect", p, None, label=f"{st.pname(p)} does not protect"))
            st.decide(Decision("protect", p, options, "602.2", {"asked": asked + (p,)}))
            return


def answer_protect(st: GameState, action: Action, asked: tuple[int, ...]) -> None:
    c = st.combat
    if action.subject is None:
        protect_point(st, asked)
        return
    protector = st.objs[action.subject]
    protector.exhausted = True
    c.defender = protector.id
    c.protected = True
    c.sabotage = False  # 602.2c


def begin_defending(st: GameState) -> None:
    """602.3: the proposed defender defends and both enter combat; powers
    watching that event trigger (Grunt Baranka, High Overlord Saurfang)."""
    c = st.combat
    c.defending = True
    a, d = st.objs[c.attacker], st.objs[c.defender]
    if c.sabotage:
        return  # an item is not a character: nobody enters combat with it
    # Asked first whether any card of the game watches for these (every combat comes here).
    powers = st.powers_in_game
    if "this_defends_against_ally" in powers and is_ally(a):
        trigger_event(st, "this_defends_against_ally", lambda s: s.id == d.id)
    if "ally_enters_combat_with_this" in powers:
        for me, other in ((a, d), (d, a)):
            if is_ally(other):
                trigger_event(st, "ally_enters_combat_with_this", lambda s, me=me: s.id == me.id, ally=other.id)


# --- Strikes (303.2, 405.3, 602.3a) ----------------------------------------------

def may_strike_now(st: GameState, player: int) -> bool:
    """602.3a: weapons strike in the defend window, while their controller's
    hero is in combat; 602.3c: a hero is in combat only while it has an
    opponent in it."""
    c = st.combat
    if st.step != "defend_window" or c is None or not c.defending or c.attacker is None or c.defender is None:
        return False
    hero = st.players[player].hero
    return hero == c.attacker or hero == c.defender


def strike_problem(st: GameState, player: int, weapon: Obj, ready: int | None = None) -> Problem:
    """303.2, 405.3, 602.3a: whether this player may strike with this weapon
    now; `ready`: his ready resources (402.4a), when the caller has counted them."""
    c = st.combat
    hero = st.players[player].hero
    if not may_strike_now(st, player):
        return ("602.3a", "a weapon strikes only in the defend window while its controller's hero is in combat")
    if weapon.zone != "play" or weapon.resource or weapon.card.type != "weapon" or weapon.controller != player:
        return ("303.2", f"{weapon.name} is not a weapon {st.pname(player)} controls")
    if weapon.exhausted:
        return ("303.2", f"{weapon.name} is exhausted")
    if (st.ready_resources(player) if ready is None else ready) < (weapon.card.strike_cost or 0):
        return ("402.1", f"{st.pname(player)} can't pay the strike cost {weapon.card.strike_cost}")
    struck = c.struck.get(player, [])
    if weapon.id in struck or not struck:
        return None  # 303.2c: the same weapon again, if it was readied
    kinds = {_weapon_kind(st.objs[w]) for w in struck} | {_weapon_kind(weapon)}
    if len(set(struck)) >= 2:
        return ("405.3", "at most two weapons strike in one combat")
    # 405.3: dual wield allows two melee weapons, ranged dual wield two ranged
    # ones, and never one of each. Reading: the seed's 405.3 gives ranged dual
    # wield two *melee* weapons; 405.2 and 303.2c make it two ranged ones.
    if kinds == {"Melee"} and has(st, st.objs[hero], "dual_wield"):
        return None
    if kinds == {"Ranged"} and has(st, st.objs[hero], "ranged_dual_wield"):
        return None
    return ("303.2c", f"{st.pname(player)} already struck with another weapon this combat")


def _weapon_kind(weapon: Obj) -> str:
    labels = weapon.card.limited_labels
    return "Melee" if "Melee" in labels else "Ranged" if "Ranged" in labels else "other"


# --- Conclusion (603) ---------------------------------------------------------------

def atk_in_combat(st: GameState, o: Obj) -> tuple[int, str | None, tuple[int, ...]]:
    """A character's ATK, damage type and the weapons its damage is dealt with:
    an ally's ATK (`atk_of`); a hero's strike modifiers (303.2a, 407.3d) and,
    while it attacks, Mason's Fraternity Ring's +N (000 407.3c example)."""
    card = o.card
    if card.type != "hero":
        return atk_of(st, o), card.damage_type or "melee", ()
    c = st.combat
    # Most heroes in combat struck with nothing: no lists to build for them.
    strikes = [s for s in c.strikes if s[0] == o.controller] if c.strikes else ()
    atk = 0
    for s in strikes:
        atk += s[2]
    if c.attacker == o.id and "hero_atk_while_attacking" in st.powers_in_game:
        atk += sum(ring.card.continuous_powers["hero_atk_while_attacking"]
                   for ring in sources_in_play(st, "hero_atk_while_attacking", o.controller))
    if not strikes:
        return atk, "melee", ()
    return atk, strikes[-1][3], tuple(dict.fromkeys(s[1] for s in strikes))


def conclude(st: GameState) -> None:
    """603.1: no priority. With both sides present, a sabotage deals no damage
    but its "when sabotages" powers trigger; a normal combat deals each side's
    ATK to the other at once, except to a long-range attacker (603.1a). With a
    side missing nothing is dealt and nothing triggers (603.1b)."""
    c = st.combat
    st.push(("end_combat",))
    if c.attacker is None or c.defender is None or not c.defending:
        return
    a, d = st.objs[c.attacker], st.objs[c.defender]
    if c.sabotage:
        trigger_event(st, "this_sabotages", lambda s: s.id == a.id, defender=d.id)
        return
    # Reading: both packets are made at once (603.1); armor is then chosen
    # packet by packet, which changes nothing since no trigger fires between.
    packets = []
    for source, target in ((a, d), (d, a)):
        if source is d and has(st, a, "long_range"):
            continue
        atk, kind, weapons = atk_in_combat(st, source)
        unpreventable = bool(weapons) and any(
            st.objs[w].card.has_continuous("combat_damage_unpreventable") and w in st.play for w in weapons
        )
        # Positional, in the field order: amount, target, source, controller,
        # heal, type, combat, preventable, weapons (made twice in every combat).
        p = make_packet(st, Packet(atk, target.id, source.id, source.controller, False, kind, True, not unpreventable, weapons))
        if p is not None:
            packets.append(p)
    for p in reversed(packets):
        st.push(("deliver", p))
