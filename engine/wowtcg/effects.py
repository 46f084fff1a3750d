"""What cards do: continuous powers read off the cards in play, damage and
healing packets (404, 406, 407) with armor (304.2) and replacement (Hide of the
Wild), triggered powers (CR7.4 703, CR7.4 708), and the steps of a link's text as it
resolves (CR7.4 709.2b).

Functions take the game state `st` first; they never decide for a player:
where the rules give a choice they ask for a `Decision` and the state resumes
when it is answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .objects import BOARD_CLOCK, PARTY_CLOCK, READY_CLOCK, RESOURCE_MARKED, Action, Decision, Link, Obj, Packet, Waiting

if TYPE_CHECKING:
    from .state import GameState


# --- Continuous powers (CR7.4 704) --------------------------------------------------

NONE: frozenset[int] = frozenset()  # no card is such a host: the common case, with nothing to build


def in_play_with(st: GameState, power: str) -> list[Obj]:
    """The cards in play, resources too, whose card has this continuous power
    or watches for this event, in the order of play (`GameState.powers_in_play`)."""
    ids = st.powers_in_play.get(power)
    if not ids:
        return []
    objs = st.objs
    return [objs[oid] for oid in ids]


def sources_in_play(st: GameState, power: str, controller: int | None = None):
    """Cards in play with a continuous power, optionally of one controller;
    not one that has lost its powers (CR7.4 700.3)."""
    if power not in st.powers_in_game:
        return
    ids = st.powers_in_play.get(power)  # `in_play_with`, written out
    if not ids:
        return
    objs = st.objs
    found = [objs[oid] for oid in ids]
    lost = powerless(st) if "attached_powerless" in st.powers_in_game else NONE
    for o in found:
        if power in o.card.continuous_powers and not o.resource and (controller is None or o.controller == controller) \
                and o.id not in lost:
            yield o


def hosts_of(st: GameState, power: str) -> set[int]:
    """The cards in play to which a card with this continuous power is
    attached (Polymorph, Blessing of Freedom)."""
    if power not in st.powers_in_game:
        return NONE
    return {o.attached_to for o in in_play_with(st, power)
            if o.attached_to is not None and power in o.card.continuous_powers}


def powerless(st: GameState) -> set[int]:
    """Polymorph's hosts, which lose and can't have powers (CR7.4 700.3):
    their keywords, continuous, triggered and payment powers."""
    return hosts_of(st, "attached_powerless")


def health_of(st: GameState, o: Obj) -> int:
    """Total health (302.1), with Ironforge Guards' +1 for each other ally of
    its name in its controller's party. A resource is in no party, and face
    down it has no name at all (410.1b), so resources never count."""
    card = o.card  # read for every character before every grant of priority (409.6b)
    health = card.health or 0
    if "opposing_allies_health_minus" in st.powers_in_game and card.type == "ally":
        # Withering Shout: -N health to each ally of its controller's opponents.
        for shout in sources_in_play(st, "opposing_allies_health_minus"):
            if not st.friendly(shout.controller, o.controller):
                health -= shout.card.continuous_powers["opposing_allies_health_minus"]
    bonus = card.continuous_powers.get("health_per_other_named")
    if bonus and not ("attached_powerless" in st.powers_in_game and o.id in powerless(st)):
        others = sum(
            1 for other in map(st.objs.__getitem__, st.party)
            if other.id != o.id and is_ally(other)
            and other.card.name == o.card.name and other.controller == o.controller
        )
        health += bonus * others
    return health


def has_lethal_damage(st: GameState, o: Obj) -> bool:
    """404.2: damage at least the total health."""
    return o.damage >= health_of(st, o)


def can_be_destroyed(st: GameState, o: Obj) -> bool:
    """103.2: "can't" beats the rule that would destroy. Valthak Spiritdrinker:
    his controller's hero can't be destroyed while he is in play; a card that
    says it can't be destroyed (unless it has lost its powers, CR7.4 700.3).
    Uniqueness destroys either all the same (103.3: `destroy`'s caller says so)."""
    if o.card.type == "hero":
        return not any(True for _ in sources_in_play(st, "hero_cant_be_destroyed", o.controller))
    if "cant_be_destroyed" in o.card.continuous_powers and not is_blank(o):
        return "attached_powerless" in st.powers_in_game and o.id in powerless(st)
    return True


def is_ally(o: Obj) -> bool:
    return o.card.type == "ally"


def is_blank(o: Obj) -> bool:
    """410.1b: a face-down resource has no name, type or text, in play and as
    it leaves play."""
    return o.resource and not o.face_up


def is_character(o: Obj) -> bool:
    return o.card.is_character and not o.resource


def characters_in_play(st: GameState):
    """300.1: the heroes and allies in play, not resources (410.1b), in the
    order they entered; `is_character` written out, as this runs for every
    targeted card offered."""
    objs = st.objs
    return [seen for oid in st.party if (seen := objs[oid]).card.is_character]  # indexed: faster than map


def heroes_and_allies_in_play(st: GameState):
    """The heroes and allies in play, for a text that names "hero or ally"
    without targeting: a totem is not an ally, though it may be targeted as
    one (000 306.3a example: Chain Lightning's further packets)."""
    return [o for o in characters_in_play(st) if not o.card.is_totem]


def atk_of(st: GameState, o: Obj) -> int:
    """An ally's ATK: printed (a totem has none, 306.3a), with Tracker Gallen's
    +N for each ally its controller controls, itself included (CR7.4 704)."""
    atk = o.card.atk or 0
    bonus = o.card.continuous_powers.get("atk_per_ally_you_control")
    if bonus and o.id not in powerless(st):
        atk += bonus * sum(1 for other in characters_in_play(st) if is_ally(other) and other.controller == o.controller)
    return atk


def keywords_of(st: GameState, o: Obj) -> frozenset[str]:
    """Its printed keywords, and those it gains by its controller's hero's
    faction (Thunderhead Hippogryph: [Alliance] Hero: Elusive, [Horde] Hero: Ferocity),
    less those an attachment takes away (a hero losing dual wield, 405.1)."""
    words = o.card.keywords
    by_trait = o.card.continuous_powers.get("keywords_by_hero_trait")
    if by_trait:
        hero = st.objs[st.players[o.controller].hero].card
        words = words | {word for trait, gained in by_trait if trait in hero.traits for word in gained}
    if "hero_bear_form" in st.powers_in_game and o.card.type == "hero" \
            and any(True for _ in sources_in_play(st, "hero_bear_form", o.controller)):
        words = words | {"protector"}  # bear form (001 basic rules): the hero has protector
    if words and "attached_loses_keyword" in st.powers_in_game:
        lost = keywords_lost(st, o)
        if lost:
            words = words - lost
    return words


def keywords_lost(st: GameState, o: Obj) -> set[str]:
    """The keywords its attachments take away (Crippling Shackles: the hero loses dual wield, 405.1)."""
    return {a.card.continuous_powers["attached_loses_keyword"] for a in sources_in_play(st, "attached_loses_keyword")
            if a.attached_to == o.id}


def opponents(st: GameState, player: int) -> list[int]:
    """The players still in the game who are not on his team (102.1; CR7.4
    glossary, "Friendly": oneself and one's teammates)."""
    return [p.index for p in st.players if p.in_game and not st.friendly(p.index, player)]


# --- Packets (404.4, 406.2, 407) ----------------------------------------------

def make_packet(st: GameState, packet: Packet) -> Packet | None:
    """407.2a-b: a packet of less than 1, or to a target that can't take it, is
    never created; 406.3: healing an undamaged character creates none."""
    target = st.objs[packet.target]
    # In play: its zone says so (`GameState.move` keeps both), read without searching play.
    if packet.amount < 1 or target.zone != "play" or not target.card.is_character or target.resource:  # `is_character`
        return None
    if not packet.heal and "cant_be_dealt_damage_of_type" in st.powers_in_game \
            and target.card.continuous_powers.get("cant_be_dealt_damage_of_type") == packet.type \
            and target.id not in powerless(st):
        return None  # 404.5: the link resolves, but makes no packet for it
    if packet.heal:
        if target.damage == 0:
            return None
        # Hide of the Wild replaces a heal packet by its controller's hero (407.4:
        # the replacement changes only the amount).
        source = st.objs[packet.source] if packet.source is not None else None
        if source is not None and source.card.type == "hero":
            for armor in sources_in_play(st, "heal_plus", source.controller):
                packet.amount += int(armor.card.continuous_arg("heal_plus"))
    else:
        powers = st.powers_in_game
        if "hero_ability_damage_plus" in powers and packet.card is not None \
                and st.objs[packet.card].card.type == "ability" and packet.source == st.players[packet.controller].hero:
            # Chromatic Cloak replaces a packet its controller's hero deals with an
            # ability by one of N more; nothing else about it changes (407.4).
            for cloak in sources_in_play(st, "hero_ability_damage_plus", packet.controller):
                packet.amount += int(cloak.card.continuous_arg("hero_ability_damage_plus"))
        if "hero_damage_plus" in powers or "hero_dealt_damage_plus" in powers:
            _stance(st, packet, target)
    return packet


def _stance(st: GameState, packet: Packet, target: Obj) -> None:
    """Berserker Stance: a packet its controller's hero would deal, or would be
    dealt, is replaced by one N larger (407.4). Modifiers that raise a packet
    apply before any prevention (CR7.4 717.4a: the packet's controller picks
    among them first; additions give the same total in any order), as the
    001 basic rules' first Preventing damage example has it: 2 becomes 3, then
    2 of it is prevented."""
    source = st.objs[packet.source] if packet.source is not None else None
    if source is not None and source.card.type == "hero" and source.zone == "play":
        for stance in sources_in_play(st, "hero_damage_plus", source.controller):
            packet.amount += int(stance.card.continuous_powers["hero_damage_plus"])
    if target.card.type == "hero":
        for stance in sources_in_play(st, "hero_dealt_damage_plus", target.controller):
            packet.amount += int(stance.card.continuous_powers["hero_dealt_damage_plus"])


def deliver(st: GameState, packet: Packet) -> None:
    """Deal or heal one packet. Before a packet reaches a hero, its controller
    may replace it, one modifier at a time, in the order he chooses
    (CR7.4 717.4b): exhaust armor to prevent up to its DEF (304.2), only against a
    preventable packet, or put Blessed Life from play into its owner's hand
    to prevent it all (CR7.4 717.3: he may do so even against an
    unpreventable packet, which is then dealt all the same). That choice is a
    Decision."""
    target = st.objs[packet.target]
    if target.zone != "play":  # `GameState.move` keeps its zone and play together
        return
    if packet.heal:
        healed = min(packet.amount, target.damage)  # 406.1: extra healing is wasted
        target.damage -= healed
        st.history.append(f"{_packet_source(st, packet)} heals {healed} damage from {st.describe(target)} (406.1)")
        return
    if not packet.settled and (target.card.type == "hero" or st.turn_modifiers):
        options = []
        # Preventions lasting the turn (001 basic rules, Preventing damage;
        # CR7.4 717.2): they must apply, but with several modifiers competing
        # the destination's controller picks which applies next (CR7.4 717.4b).
        shields = _shields(st, packet) if packet.preventable and st.turn_modifiers else []
        if shields and len(shields) == 1 and not (target.card.type == "hero" and _hero_options_exist(st, packet, target)):
            apply_shield(st, packet, shields[0])
            if packet.amount >= 1:
                st.push(("deliver", packet))
            return
        if shields:
            options += [
                Action.made("prevent", target.controller, st.turn_modifiers[i][2], option=("shield", i),
                            label=f"{st.pname(target.controller)} applies {st.objs[st.turn_modifiers[i][2]].name}'s prevention "
                                  f"({st.turn_modifiers[i][0][1]} left) against {packet.amount} damage")
                for i in shields
            ]
        if packet.preventable and target.card.type == "hero":
            # His ready armor in play (304.2); most heroes wear none, so the
            # party is looked over by index before any choice is made.
            objs = st.objs
            worn = [oid for oid in st.party if objs[oid].card.type == "armor"]
            if worn:
                offers, player, amount = st._offers, target.controller, packet.amount
                for a in map(objs.__getitem__, worn):
                    if a.controller == player and not a.exhausted and (a.card.defense or 0) >= 1:
                        # Offered again as made the first time, by the armor (its card shows in the label) and the damage.
                        offer = offers.get(key := ("prevent", player, a.id, amount))
                        if offer is None:
                            offer = offers[key] = Action.made("prevent", player, a.id, label=f"{st.pname(player)} exhausts {a.name} (DEF {a.card.defense}) against {amount} damage")
                        options.append(offer)
        if "may_return_to_prevent_hero_damage" in st.powers_in_game and target.card.type == "hero":
            options += [
                Action.made("prevent", target.controller, b.id, option="return", label=f"{st.pname(target.controller)} returns {b.name} to its owner's hand against {packet.amount} damage")
                for b in sources_in_play(st, "may_return_to_prevent_hero_damage", target.controller)
            ]
        if options:
            if not shields:  # a prevention that applies can't be declined (CR7.4 717.2)
                offer = st._offers.get(key := ("prevent", target.controller, None, packet.amount))
                if offer is None:
                    offer = st._offers[key] = Action.made("prevent", target.controller, None, label=f"{st.pname(target.controller)} takes {packet.amount} damage")
                options.append(offer)
            armor = any(o.option is None and o.subject is not None for o in options)
            rule = "CR7.4 717.4b" if shields else "304.2" if armor else "407.1"
            st.decide(Decision("prevent", target.controller, options, rule, {"packet": packet}))
            return
    was_damaged = target.damage > 0  # the state just before the damage, for the powers watching it (CR7.4 703.4)
    target.damage += packet.amount
    # The packet as dealt, so that scenarios see its source (407.2c), type (407.3a) and whether it is combat damage (407.3b).
    kind = packet.type or ""
    if packet.combat:
        kind = f"{kind} combat" if kind else "combat"
    st.history.append(f"{_packet_source(st, packet)} deals {packet.amount} {kind + ' ' if kind else ''}damage to {st.describe(target)} (407.2)")
    if packet.combat:
        combat_damage_triggers(st, packet, was_damaged)
    if "this_dealt_damage" in st.powers_in_game:
        # Only a packet actually dealt: one never made (404.5, 407.2a-b) or
        # prevented completely (CR7.4 717.2b) never reaches here.
        for source, power in powers_watching(st, "this_dealt_damage", (target,)):
            _trigger(st, source, power, amount=packet.amount)


def _packet_source(st: GameState, packet: Packet) -> str:
    """407.2c: the character that deals (or heals) a packet; its controller's name where it has none."""
    return st.describe(st.objs[packet.source]) if packet.source is not None else st.pname(packet.controller)


def _shields(st: GameState, packet: Packet) -> list[int]:
    """The preventions lasting this turn (`prevent_this_turn`) that apply to
    this packet's destination: their places in `st.turn_modifiers`."""
    return [i for i, (what, oid, _) in enumerate(st.turn_modifiers)
            if oid == packet.target and type(what) is tuple and what[0] == "prevent"]


def _hero_options_exist(st: GameState, packet: Packet, hero: Obj) -> bool:
    """Whether armor (304.2) or Blessed Life (CR7.4 717.3) could also replace
    this packet to the hero, so that the order is the controller's choice."""
    if packet.preventable and any(a.card.type == "armor" and a.controller == hero.controller and not a.exhausted
                                  and (a.card.defense or 0) >= 1 for a in st.cards_in_play()):
        return True
    return "may_return_to_prevent_hero_damage" in st.powers_in_game \
        and any(True for _ in sources_in_play(st, "may_return_to_prevent_hero_damage", hero.controller))


def apply_shield(st: GameState, packet: Packet, index: int) -> None:
    """CR7.4 717.2a: a prevention of Y against a packet of X lowers the packet
    by Y and what the prevention has left by X; either at 0 or less is gone.
    So a 2-point prevention leaves 1 for later against a packet of 1, and
    nothing against a packet of 3 (001 basic rules, Preventing damage)."""
    (what, oid, source) = st.turn_modifiers[index]
    left, amount = what[1], packet.amount
    packet.amount -= left
    st.history.append(f"{st.objs[source].name}'s prevention prevents {min(left, amount)} damage to "
                      f"{st.describe(st.objs[oid])} (CR7.4 717.2a)")
    if left - amount > 0:
        st.turn_modifiers[index] = (("prevent", left - amount), oid, source)
    else:
        del st.turn_modifiers[index]


def answer_prevent(st: GameState, action: Action, packet: Packet) -> None:
    """304.2: exhausting armor prevents up to its DEF; a packet brought below 1
    disappears (407.2a); otherwise the controller may replace it again.
    Blessed Life goes to its owner's hand, and if it did, the whole packet is
    prevented unless it can't be (CR7.4 709.2f, CR7.4 717.3)."""
    if action.subject is None:
        packet.settled = True  # he declined: the packet is dealt as it is
    elif type(action.option) is tuple:  # a prevention lasting the turn (CR7.4 717.2a)
        apply_shield(st, packet, action.option[1])
        if packet.amount < 1:
            return
    elif action.option == "return":
        blessing = st.objs[action.subject]
        leave_play(st, blessing, "hand")
        st.history.append(f"{st.pname(action.player)} returns {blessing.name} to its owner's hand (413.2)")
        if packet.preventable:
            st.history.append(f"{blessing.name} prevents {packet.amount} damage to {st.describe(st.objs[packet.target])} (407.2a)")
            return
    else:
        armor = st.objs[action.subject]
        armor.exhausted = True
        packet.amount -= armor.card.defense or 0
        if packet.amount < 1:
            return
    st.push(("deliver", packet))


# --- Triggered powers (CR7.4 703, CR7.4 708) ------------------------------------------

def _trigger(st: GameState, source: Obj, power, **event) -> None:
    st.waiting.append(Waiting(source.controller, source.id, power, event))


def powers_watching(st: GameState, when: str, objs=None):
    """The triggered powers (CR7.4 703.1) of cards in play, or of `objs`,
    that watch for `when`."""
    if when not in st.powers_in_game:
        return
    if objs is None:
        ids = st.powers_in_play.get(when)  # `in_play_with`, written out
        if not ids:
            return
        objs = [st.objs[oid] for oid in ids]
    lost = powerless(st) if "attached_powerless" in st.powers_in_game else NONE
    for o in objs:
        if o.resource or o.id in lost:
            continue  # 402.4a: a resource only pays; face down it is blank (410.1b); CR7.4 700.3
        for power in o.card.triggers:
            if power.when == when:
                yield o, power


def destroyed_triggers(st: GameState, destroyed: list[Obj], watchers: list[Obj], hosts: dict[int, int] | None = None) -> None:
    """CR7.4 703.4: leaving play is judged on the state just before it, so a
    card destroyed in the same batch still sees the others (and itself). An
    attachment's own "when destroyed" power knows the host it had (`hosts`,
    by the attachment's id; CR7.4 709.2d: its last known information)."""
    for o in destroyed:
        for source, power in powers_watching(st, "this_destroyed", watchers):
            if source.id == o.id:
                host = hosts.get(o.id) if hosts else None
                if host is None:
                    _trigger(st, source, power)
                else:
                    _trigger(st, source, power, attached=host)
        for source, power in powers_watching(st, "friendly_race_destroyed", watchers):
            if o.controller == source.controller and power.race in o.card.subtypes and is_character(o):
                _trigger(st, source, power, destroyed=o.id)
        for source, power in powers_watching(st, "ally_you_control_destroyed", watchers):
            if o.controller == source.controller and is_ally(o):
                _trigger(st, source, power, destroyed=o.id)


def combat_damage_triggers(st: GameState, packet: Packet, was_damaged: bool) -> None:
    """407.3d: a hero's combat damage is dealt with every weapon it struck with;
    each "deals combat damage with this weapon" power triggers once per packet.
    Brigg's power watches his own combat damage to an ally that was damaged
    before it (`was_damaged`, CR7.4 703.4 example)."""
    target = st.objs[packet.target]
    to_ally = target.card.type == "ally"  # `is_ally`
    if to_ally and was_damaged:
        for source, power in powers_watching(st, "this_deals_combat_damage_to_damaged_ally"):
            if source.id == packet.source:
                _trigger(st, source, power, ally=target.id)
    for wid in packet.weapons:
        weapon = st.objs[wid]
        if weapon.zone != "play":
            continue  # CR7.4 703.3: a power is active only in play
        for power in weapon.card.triggers:
            if power.when == "hero_combat_damage_with_this" or (
                power.when == "hero_combat_damage_with_this_to_ally" and to_ally
            ):
                _trigger(st, weapon, power, amount=packet.amount, ally=target.id)
            elif power.when == "hero_first_combat_damage_with_this_each_turn":
                if weapon.first_combat_damage_turn != st.turn_number and st.turn_player == weapon.controller:
                    weapon.first_combat_damage_turn = st.turn_number
                    _trigger(st, weapon, power, amount=packet.amount)
    if packet.weapons and to_ally:
        for source, power in powers_watching(st, "hero_combat_damage_with_weapon_to_ally"):
            if source.controller == packet.controller:
                _trigger(st, source, power, amount=packet.amount, ally=target.id)
    # Green Whelp Armor: an attacking ally's combat damage to its controller's
    # hero (a packet prevented completely was never dealt, CR7.4 717.2b example).
    c = st.combat
    if target.card.type == "hero" and c is not None and packet.source is not None and packet.source == c.attacker \
            and is_ally(st.objs[packet.source]):
        for source, power in powers_watching(st, "attacking_ally_combat_damage_to_your_hero"):
            if source.controller == target.controller:
                _trigger(st, source, power, amount=packet.amount, ally=packet.source)


def trigger_event(st: GameState, when: str, test, **event) -> None:
    """Trigger every power watching `when` whose source passes `test`."""
    if when not in st.powers_in_game:
        return  # no card of the game watches for it: nothing to gather
    # `powers_watching` reads a list of its own (`in_play_with`): what a
    # trigger adds to the waiting effects does not change it.
    for source, power in powers_watching(st, when):
        if test(source):
            _trigger(st, source, power, **event)


# --- Leaving play ---------------------------------------------------------------

def leave_play(st: GameState, o: Obj, zone: str) -> None:
    """A card leaves play: its attachments go to the graveyard (400.3), it leaves
    combat (602.4), and a controlled card's control returns (401.3b)."""
    if o.id in st.play:
        st.play.remove(o.id)
        (st.resource_row if o.resource else st.party).remove(o.id)
    # Its attachments, in the order of play; a resource is never one (410.1b)
    # unless one has been given a host (`RESOURCE_MARKED`).
    objs, host_id = st.objs, o.id
    for a in [a for a in map(objs.__getitem__, st.play if RESOURCE_MARKED[0] else st.party) if a.attached_to == host_id]:
        leave_play(st, a, "graveyard")
    host = st.objs[o.attached_to] if o.attached_to is not None else None
    st.remove_from_combat(o.id)
    # Its fields set plainly, with the clocks ticked here for them, as
    # `Obj.__setattr__` would: play changes (damage, host), and so does what
    # is ready to pay if a resource leaves; none of these marks a resource.
    BOARD_CLOCK[0] += 1
    PARTY_CLOCK[0] += 1
    if o.resource:
        READY_CLOCK[0] += 1
    plain = object.__setattr__
    plain(o, "exhausted", False)
    plain(o, "damage", 0)
    plain(o, "attached_to", None)
    st.move(o, zone)  # before it stops being a resource: `move` asks whether it is blank (410.1b)
    plain(o, "resource", False)
    if host is not None and o.card.has_continuous("control_attached"):
        st.recompute_control(host)  # 401.3b: control goes back


def graveyard_from_play(st: GameState, o: Obj) -> str:
    """Where a card in play that would go to its owner's graveyard goes:
    while Dramla Lifebender is in play, her controller's allies are removed
    from the game instead (413.8a; a replacement, so the card is not
    destroyed, CR7.4 709.2f example). Reading: she is still in play as she
    herself would go, so she replaces her own destruction too. Asked before
    any card of a batch leaves (409.6)."""
    if is_blank(o):
        return "graveyard"  # 410.1b: blank as it leaves, no ally or ability that a replacement names
    if is_ally(o) and any(True for _ in sources_in_play(st, "own_allies_removed_instead_of_graveyard", o.owner)):
        return "removed"
    return "removed" if st.removed_instead_of_graveyard(o) else "graveyard"


def destroy(st: GameState, o: Obj, *, by_rule_over_cant: bool = False) -> bool:
    """Destroy a card in play (it goes to its owner's graveyard). Returns whether
    it was destroyed: a "can't be destroyed" power stops it (103.2) unless the
    rules destroy it anyway (103.3: uniqueness), and a card removed from the
    game instead was not destroyed (CR7.4 709.2f)."""
    if o.id not in st.play:
        return False
    if not by_rule_over_cant and not can_be_destroyed(st, o):
        return False
    zone = graveyard_from_play(st, o)
    # The cards in play with a triggered power (CR7.4 703.1), in the order of play: no other watches.
    watchers = [o for o in map(st.objs.__getitem__, st.play) if o.card.triggers]
    host = o.attached_to
    blank = is_blank(o)
    leave_play(st, o, zone)
    if zone == "removed":
        st.history.append(f"{st.describe(o)} is removed from the game instead of being destroyed (413.8a)")
        return False
    if blank:
        # 410.1b: blank as it leaves play, so no power watching for an ally,
        # a character or the card itself sees it go.
        st.history.append(f"{st.pname(o.controller)}'s face-down resource is destroyed and goes to the graveyard blank (410.1b)")
        return True
    destroyed_triggers(st, [o], watchers, None if host is None else {o.id: host})
    return True


# --- Steps of a link's text (CR7.4 709.2b) -------------------------------------

def _who(st: GameState, link: Link, what: str) -> list[int]:
    """The objects a step names."""
    src = st.objs[link.source] if link.source is not None else None
    if what == "target":
        return [t for t in link.targets if st.target_still_legal(link, t)]
    if what == "this":
        return [src.id] if src is not None else []
    if what == "hero":
        return [st.players[link.controller].hero]
    if what == "attached":
        return [link.event["attached"]] if link.event.get("attached") is not None else []
    if what == "event_ally":
        return [link.event["ally"]]
    if what == "event_ally_hero":
        ally = st.objs[link.event["ally"]]
        return [st.players[ally.controller].hero]
    if what == "defender":
        return [link.event["defender"]] if link.event.get("defender") is not None else []
    if what == "attacking_allies":
        c = st.combat
        return [c.attacker] if c is not None and c.attacker is not None and is_ally(st.objs[c.attacker]) else []
    if what == "each_opposing_character":
        # "Each opposing hero and ally" (Frost Nova) chooses without targeting:
        # a totem is not an ally (000 306.3a example).
        return [o.id for o in heroes_and_allies_in_play(st) if not st.friendly(o.controller, link.controller)]
    if what == "each_friendly_hero":
        # 000 406.2 example (Shelter the Flock): his hero and each teammate's still in the game.
        return [p.hero for p in st.players if p.in_game and st.friendly(p.index, link.controller)]
    raise ValueError(f"step names {what!r}")  # the loader admits no other


def _amount(st: GameState, link: Link, raw) -> int:
    if isinstance(raw, int):
        return raw
    if raw == "x":
        return link.x
    if raw == "event_amount":
        return link.event["amount"]
    if raw == "cards_in_hand_of_target_controller":
        # 404.4 example (Vexra): counted as the link resolves, one packet.
        targets = _who(st, link, "target")
        return len(st.players[st.objs[targets[0]].controller].hand) if targets else 0
    raise ValueError(f"amount {raw!r}")


def run_step(st: GameState, link: Link, step, answer=None) -> None:
    """Carry out one step; `answer` is the controller's reply when the step
    asked him something (an optional part is chosen as it resolves, CR7.4 708.3)."""
    op = step.op
    controller = link.controller
    hero = st.players[controller].hero
    if step.arg("optional"):  # "you may": chosen as it resolves (CR7.4 708.3)
        if answer is None:
            options = [Action("choose", controller, option=True, label=f"{st.pname(controller)} does it"),
                       Action("choose", controller, option=False, label=f"{st.pname(controller)} declines")]
            st.decide(Decision("choose", controller, options, "CR7.4 708.3", {"link": link, "step": step}))
            return
        if answer is False:
            link.done.append(False)
            return
    if op in ("deal", "heal"):
        source = link.source if step.arg("source") == "this" else hero
        src_obj = st.objs[link.source] if link.source is not None else None
        packets = []
        targets = _who(st, link, step.arg("to"))
        # What is on each now, to count the damage dealt this way (Mind Spike): no
        # check runs, and nothing heals, while a link resolves (409.5).
        # Pairs, not a mapping: a link's event is copied shallowly with the state (`Link.copy`).
        link.event["damage_before"] = tuple((tid, st.objs[tid].damage) for tid in targets)
        for tid in targets:
            p = make_packet(st, Packet(
                amount=_amount(st, link, step.arg("amount")), target=tid, source=source,
                controller=controller, heal=op == "heal", type=step.arg("type"),
                combat=bool(step.arg("combat")), card=src_obj.id if src_obj else None,
            ))
            if p is not None:
                packets.append(p)
        for p in reversed(packets):
            st.push(("deliver", p))
        link.done.append(bool(packets))
    elif op == "may_deal_another":
        # Seed 306.3a example: "another hero or ally", chosen as it resolves,
        # not targeted; never one already dealt damage by this link.
        chosen = set(link.targets) | {c for c in link.choices if isinstance(c, int)}
        options = [
            Action("choose", controller, o.id, option=o.id, label=f"{st.pname(controller)} deals {step.arg('amount')} to {st.describe(o)}")
            for o in heroes_and_allies_in_play(st) if o.id not in chosen
        ] + [Action("choose", controller, None, option=None, label=f"{st.pname(controller)} deals no more")]
        st.decide(Decision("choose_another", controller, options, "404.4", {"link": link, "step": step}))
    elif op == "double_damage_on_each_character":
        for o in characters_in_play(st):  # 404.3: put on, not dealt
            o.damage *= 2
    elif op in ("exhaust", "ready"):
        what = step.arg("what")
        ids = [hero] if what == "hero" else _who(st, link, what)
        for oid in ids:
            if oid in st.play:
                st.objs[oid].exhausted = op == "exhaust"
    elif op == "remove_from_combat":
        # 602.4: it stops being the attacker or the defender; the combat goes on.
        for oid in _who(st, link, step.arg("what")):
            st.remove_from_combat(oid)
    elif op == "destroy":
        done = [destroy(st, st.objs[oid]) for oid in _who(st, link, step.arg("what"))]
        link.done.append(bool(done) and all(done))
    elif op == "if_done_destroy":
        # CR7.4 709.2f: only if the previous action was actually performed.
        if link.done and link.done[-1]:
            for oid in _who(st, link, step.arg("what")):
                destroy(st, st.objs[oid])
    elif op == "modify_this_turn":
        for oid in _who(st, link, step.arg("who")):
            st.turn_modifiers.append((step.arg("what"), oid, hero))
    elif op == "create_token":
        st.create_token(controller, step)
    elif op == "may_ready_resources":
        targets = [t for t in link.targets if st.players[t].in_game]
        if not targets:
            return
        player = targets[0]
        count = min(_amount(st, link, step.arg("count")), sum(
            1 for oid in st.play if st.objs[oid].resource and st.objs[oid].controller == player and st.objs[oid].exhausted
        ))
        if count:
            options = [Action("choose", player, option=True, label=f"{st.pname(player)} readies {count} resources"),
                       Action("choose", player, option=False, label=f"{st.pname(player)} readies none")]
            st.decide(Decision("ready_resources", player, options, "105.1", {"count": count}))
    elif op == "reattach_target":
        _reattach(st, link)
    elif op == "return_to_owners_hand":
        # 413.2: to its owner's hand, whoever controls it; leaving play takes
        # its attachments off and ends any control it gave (400.3, 401.3b).
        # "If you do" (CR7.4 709.2f): only if the step before was done.
        if step.arg("if_done") and not (link.done and link.done[-1]):
            return
        for oid in _who(st, link, step.arg("what")):
            if oid in st.play:
                leave_play(st, st.objs[oid], "hand")
                st.history.append(f"{st.describe(st.objs[oid])} returns to its owner's hand (413.2)")
    elif op == "draw":
        for _ in range(step.arg("count", 1)):  # 413.4a; an empty deck loses at the next check (409.6c)
            st.draw(controller)
    elif op == "put_into_play_if_cost_at_most_resources":
        # 000 306.3a example (Resurrection): counted as it resolves, every
        # resource he controls, ready or exhausted; it enters play under him (CR7.4 710.1).
        resources = sum(1 for oid in st.play if st.objs[oid].resource and st.objs[oid].controller == controller)
        for oid in _who(st, link, step.arg("what")):
            o = st.objs[oid]
            if o.card.cost <= resources:
                st.enter_play(o, controller)
                st.history.append(f"{st.describe(o)} enters play from the graveyard (CR7.4 710.1)")
    elif op == "may_pay":
        # "You may pay (N). If you do, ..." (CR7.4 709.2f): chosen as it
        # resolves (CR7.4 708.3), only if he can pay (402.1).
        amount = step.arg("amount")
        if answer is None and st.ready_resources(controller) >= amount:
            options = [Action("choose", controller, option=True, label=f"{st.pname(controller)} pays {amount}"),
                       Action("choose", controller, option=False, label=f"{st.pname(controller)} does not pay")]
            st.decide(Decision("choose", controller, options, "CR7.4 708.3", {"link": link, "step": step}))
            return
        if answer:
            st.pay(controller, amount)
        link.done.append(bool(answer))
    elif op == "create_token_copy":
        # 403.2: Highborne Soul Mirror's token has the card's printed facts.
        for oid in _who(st, link, step.arg("what")):
            st.create_token_copy(controller, st.objs[oid].card)
    elif op == "discard_per_damage_dealt":
        # Mind Spike: the target's controller discards a card for each damage
        # the step before dealt it (413.6a), choosing which, one at a time.
        for tid, before in link.event.get("damage_before", ()):
            target = st.objs[tid]
            dealt = target.damage - before if target.id in st.play else 0
            if dealt > 0:
                st.push(("discard_for_effect", target.controller, dealt))
    elif op == "players_put_graveyard_allies_into_play":
        # Each player's, under his control, all at once (CR7.4 710.1): a power
        # of a card among them sees the others enter (CR7.4 703.3c example).
        entering = [(p.index, oid) for p in st.players if p.in_game for oid in list(p.graveyard)
                    if st.objs[oid].card.type == "ally"]
        for owner, oid in entering:
            st.enter_play(st.objs[oid], owner, watched=False)
            st.history.append(f"{st.describe(st.objs[oid])} enters play from the graveyard (CR7.4 710.1)")
        for _, oid in entering:
            st.entered_play(st.objs[oid])
    elif op == "destroy_others_of_event_name":
        # Highborne Soul Mirror: every other ally of the destroyed ally's name under the mirror's controller.
        name = st.objs[link.event["destroyed"]].card.name
        for o in [o for o in characters_in_play(st) if is_ally(o) and o.controller == controller and o.card.name == name]:
            destroy(st, o)
    elif op == "prevent_this_turn":
        # 001 basic rules, Preventing damage: it prevents up to its amount in
        # all, until the turn ends (CR7.4 717.2); kept with the turn's modifiers.
        for oid in _who(st, link, step.arg("to")):
            st.turn_modifiers.append((("prevent", step.arg("amount")), oid, link.source))
    elif op == "destroy_bear_form_sources":
        # Bear form (001 basic rules; CR7.4 glossary): each ability of his giving his hero bear form.
        for o in list(sources_in_play(st, "hero_bear_form", controller)):
            destroy(st, o)
    else:
        raise ValueError(f"operation {op!r}")  # the loader admits no other


def _reattach(st: GameState, link: Link) -> None:
    """400.4a-d: the attachment moves to another card in play that fits its
    attach description; untargetable cards may be chosen (400.4c); with none,
    it stays; its controller does not change (400.4d)."""
    targets = [t for t in link.targets if st.target_still_legal(link, t)]
    if not targets:
        return
    attachment = st.objs[targets[0]]
    options = [
        Action("choose", link.controller, o.id, option=o.id, label=f"{st.pname(link.controller)} moves {attachment.name} to {st.describe(o)}")
        for o in characters_in_play(st)
        if o.id != attachment.attached_to and st.fits_attach(attachment, o)
    ]
    if options:
        st.decide(Decision("reattach", link.controller, options, "400.4a", {"attachment": attachment.id}))
