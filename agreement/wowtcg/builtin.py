"""The adapter of the built-in WoW engine (``engine/wowtcg``): it sets up games
from the part of the card pool the model abstracts, and reads engine states
and actions as observations (see ``agreement/wowtcg/observation.py``).

This is the only module of the harness that knows the engine's insides; the
engine knows nothing of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.wowtcg.arrange import arrange
from engine.wowtcg.cards import Card, Pool, load_pool
from engine.wowtcg.combat import attack_tax
from engine.wowtcg.effects import atk_of, health_of, keywords_of
from engine.wowtcg.objects import Action, IllegalAction
from engine.wowtcg.state import GameState

# -- the fragment of the pool the model abstracts --------------------------------
#
# The model tracks priority, the chain, turns, resources, and characters whose
# stats and keywords are printed constants (model/wowtcg/board.py).  A card
# belongs to the fragment when everything it does is either something the
# model tracks or an effect the model's resolution leaves untracked without
# changing anything else the model tracks:
# - allies without powers (keywords only): the model's resolve_ally (302.1);
# - the instants Hamstring, Flash Heal and Smoke Screen: they exhaust, heal, or
#   remove from combat (the model's 602.4 edges); exhausting and healing the
#   harness leaves free as an instant resolves (`frame` in abstraction.py);
# - quests: placed as resources only (408.2, 410.1b);
# - abilities whose whole effect is damage to one targeted hero or ally, or to
#   each opposing one (Arcane Missiles, Lightning Bolt, Frost Nova), perhaps
#   with Mocking Blow's "this turn it must attack if able and can attack only
#   your hero if able": the board's spells (model/wowtcg/board.py), found by
#   `spell` below.
# Left out, each for a reason the model gives: triggered powers (the model's
# chain has no trigger links), payment powers (no power links), continuous
# powers and other "this turn" modifiers (stats are constants), ongoing
# abilities (no attachments), and other non-instant cards that are not allies,
# weapons or armor (the model's resolving non-instant becomes an ally when a
# slot is free, or a weapon or armor the step's board holds in hand).
FRAGMENT_ALLIES = (
    "Ashen Recruit",
    "Scryer Arcanist",
    "Darnassian Sentinel",
    "Silvermoon Skirmisher",  # elusive, ferocity
    "Shadowed Prowler",  # stealth
    "Hill Archer",  # long-range
    "Stonehide Defender",  # protector
    "Tunnel Rat",  # sabotage
)
FRAGMENT_INSTANTS = ("Hamstring", "Flash Heal", "Smoke Screen")
FRAGMENT_QUESTS = ("Supplies for the Front", "Scout the Barrens")
# Heroes without powers.
FRAGMENT_HEROES = (
    "Baxxel Geartooth",
    "Bragvi Stormstein",
    "Kil'zin of the Bloodscalp",
    "Kerra Nightblade",
    "Gorrak Bloodfist",
    "Maelen Frostweave",
    "Elaria Moonwhisper",
)
#: Cards the model follows in a scripted game that random setups leave out, so
#: that a seed plays the game it always has: Sarmoth (opposing characters can
#: attack only it if able, 601.2c: the model's printed "can attack only [X]",
#: given to each of them where it is in play) and Nethrak the Bound (ranged dual
#: wield pairs two ranged weapons in the engine, 405.2, and in the model's
#: reading, CR7.4 406.6 first).
SCRIPTED_ONLY = (
    "Sarmoth",
    "Nethrak the Bound",
    "Golem Skull Helm",  # armor with DEF 3 and no powers (304.2)
    "Reluctant Conscript",  # can't attack unless its controller pays (1): the model's printed tax (600.3)
    "Wisp",  # Tyrande's token: a 0 ATK / 1 health ally without powers (403.2)
    "Greataxe of the Vale",  # a two-handed weapon: its label matters only to uniqueness (412), where the following ends
    # Armor with DEF 0 (no armor to the model, 304.2) whose power adds 1 to
    # what its hero heals (407.4): the model leaves heals untracked (``frame``).
    "Hide of the Wild",
    # Her allies that would go to the graveyard are removed from the game
    # instead (CR7.4 709.2f): the model follows no zone but play.
    "Dramla Lifebender",
    "Veiled Sentry",  # protector, sabotage and elusive: the model's keywords (601.2b, 602.2)
    "Draka Twinshot",  # a hero with dual wield and ranged dual wield (405.1, 405.2)
)
#: Allies with one power the model lacks, followed in a scripted game only
#: until that power acts (``power_acting``): until then each is an ally with its
#: keywords.  Goblin Sapper's trigger as it sabotages (603.1) and Vindicator
#: Kaldels' inspire in another player's ready step (501.1a).  Left out of
#: exported tables (scenarios/wowtcg/export.py), whose model must hold for every game.
UNTIL_POWER = ("Goblin Sapper", "Vindicator Kaldels")
#: Cards whose one power is triggered (409.5), followed the same way until its
#: effect waits or goes on the chain (``power_acting``): allies with their
#: stats and keywords, weapons, and one armor.  One whose target is missing
#: ceases to exist unseen (CR7.4 708.2), having changed nothing.
UNTIL_TRIGGER = (
    "Grunt Baranka",  # when she defends against an ally
    "High Overlord Saurfang",  # when an ally enters combat with him
    "Brigg",  # when he deals combat damage to a damaged ally
    "Donna Calister",  # when an opposing character attacks
    "Voss Treebender",  # when he attacks
    "Vexra Darkfall",  # when she is destroyed
    "High Priestess Tyrande Whisperwind",  # when a Night Elf of hers is destroyed
    "Watcher Mal'wi",  # when an opposing ally enters play
    "Hur Shieldsmasher",  # when he enters play
    "Thrash Blade",  # when his hero deals combat damage with it
    "Deathbringer",  # when his hero deals combat damage with it to an ally
    "Sword of Zeal",  # when his hero deals combat damage with it
    "Green Whelp Armor",  # DEF 1; when an attacking ally deals combat damage to its hero
)
#: Allies that can't be dealt damage of one type (404.5, 407.2b): the model's
#: damage has no type, so each is followed while no damage the model deals in
#: the game (a spell of the board, or the combat damage of a character or
#: weapon in play) is of that type (``untyped``).
IMMUNE_TO_A_TYPE = ("Emberward Sentinel",)
#: Cards whose one power is a payment power (CR7.4 701) the model lacks,
#: followed until a player uses it: a hero, an ally with its stats and
#: keywords, and a weapon.  Until then the engine's offer to use it is a
#: choice the model does not read (``ModelFollower.before``).
UNTIL_PAYMENT = ("Kaal Soulreaper",)
#: Cards whose one power is a payment power the model has (``payment_power``),
#: a power link on its chain (CR7.4 701.2): Barnathrum's "(1), exhaust him:
#: double the damage on each character" (404.3 example), and Boris
#: Brightbeard's flip that heals X (406.2 example), and Inventor's Focal
#: Sword's "(2), exhaust it: move a targeted attachment" (400.4d examples),
#: whose move the model does not see: where it changes a host's
#: ``held_exhausted`` the following ends (``changed_stats``).  Scripted games only.
PAYMENT_POWERS = ("Barnathrum, Lord of Pain", "Boris Brightbeard", "Inventor's Focal Sword")
#: A hero's flip that heals X from a targeted hero or ally, on his own turn (Boris).
FLIP_TO_HEAL = ((("flip_hero", True), ("x", True)), True, "character", (("heal", (("amount", "x"), ("to", "target"))),))
#: Items whose one power gives their hero ATK while he attacks (407.3c, CR7.4
#: 704), followed until that hero is proposed as an attacker (``ring_attacks``):
#: the model's hero deals his weapons' ATK only.  Until then each is an item a
#: sabotage may take.
UNTIL_HERO_ATTACKS = ("Mason's Fraternity Ring",)
#: Attachments the model abstracts only while attached in play: Entangling
#: Roots is its host's printed "doesn't ready in the ready step" (the board's
#: Character.held_exhausted, observed on the host); played, moved or falling
#: off, it changes the host during a step, where the following ends
#: (``changed_stats``), and its resolution is outside the model.
ATTACHED_ONLY = ("Entangling Roots",)
#: Totems (306.3a): characters in an ally slot with health and no ATK, which
#: may defend but never attack (the board's Character.totem).  Searing Totem's
#: only other text is its Fire Totem (1) label, where the following ends (412).
#: Scripted games only: exported tables keep the cards they always had.
TOTEMS = ("Searing Totem",)
#: Allies whose continuous power sets only their own ATK, health or keywords:
#: Tracker Gallen's ATK counts his controller's allies (CR7.4 704), Ironforge
#: Guards' health the other Guards (409.6b example), Thunderhead Hippogryph's
#: keywords follow his hero's faction (CR7.4 206.1c example).  Observed with
#: those stats as they stand (``observe``), each step is checked on a board
#: with the stats it had; a stat that changes during a step ends the following
#: (``changed_stats``), as the model's stats are constants of its board.  Left
#: out of exported tables, whose model is one board for the whole game.
STEPWISE_STATS = ("Tracker Gallen", "Ironforge Guards", "Thunderhead Hippogryph")
#: Abilities in play that give their controller's hero bear form (CR7.4
#: glossary, Bear Form; 001:198): the board's Party.bear_form, with its end a
#: triggered effect on the chain as the model reads it (a bear-form trigger
#: link).  The model's bear form is the game's from its start: one entering
#: play later ends the following (``ModelFollower.after``).
BEAR_FORM = ("Maul",)
ARMORS = ("Leather Jerkin", "Chain Hauberk")
#: A weapon whose combat damage can't be prevented (407.3c): the board's Weapon.unpreventable.
UNPREVENTABLE_WEAPONS = ("Annihilator",)
ITEM = "Lucky Charm"
WEAPONS = ("Viking Warhammer", "Hunting Longbow")
#: Every card the model abstracts faithfully: a game made only of these can be
#: checked against it step by step (face-down resources may be any card).
FRAGMENT = frozenset(
    FRAGMENT_ALLIES + FRAGMENT_INSTANTS + FRAGMENT_QUESTS + FRAGMENT_HEROES + SCRIPTED_ONLY + BEAR_FORM + ARMORS + WEAPONS + UNPREVENTABLE_WEAPONS
    + (ITEM,)
)


#: Where a card's only effect sends its damage: the model's two aims.
SPELL_AIMS = {"target": "character", "each_opposing_character": None}
#: Mocking Blow's modifiers on its target, as the engine's card data writes them (600.2, 601.2c).
TAUNT = (("modify_this_turn", "must_attack"), ("modify_this_turn", "attack_only_your_hero"))


def spell(card: Card) -> dict[str, Any] | None:
    """The card as a spell of the model's board (404.4): an ability that does
    nothing but deal damage as it resolves, to a targeted hero or ally or to
    each opposing one, and perhaps make its target attack the caster's hero
    this turn, or deal further packets to others it chooses; None for any
    other card."""
    effect = card.effect
    if card.type != "ability" or card.ongoing or card.attach or card.triggers or card.payments or card.continuous:
        return None
    if effect is None or not effect.steps or effect.steps[0].op != "deal":
        return None
    deal, *rest = effect.steps
    taunts = tuple((step.op, step.arg("what")) for step in rest) == TAUNT and all(step.arg("who") == "target" for step in rest)
    # Chain Lightning's "then may deal N to another" (306.3a example): the further packets.
    further = [step.arg("amount") for step in rest] if rest and all(step.op == "may_deal_another" for step in rest) else []
    to = deal.arg("to")
    if rest and not (taunts or further) or to not in SPELL_AIMS or SPELL_AIMS[to] != effect.target or further and to != "target":
        return None
    return {
        "name": card.name,
        "amount": deal.arg("amount"),
        "each_opposing": to == "each_opposing_character",
        "instant": card.instant,
        **({"taunts": True} if taunts else {}),
        **({"further": further} if further else {}),
    }


#: The steps of a non-instant ability that exhausts a targeted hero or ally and draws a card (Charge).
EXHAUST_AND_DRAW = (("exhaust", "target", None), ("draw", None, 1))
#: The steps of one that puts an ally card of its caster's graveyard into play if he can pay for it (Resurrection).
RETURN_AN_ALLY = (("put_into_play_if_cost_at_most_resources", "target", None),)


def ability(card: Card) -> dict[str, Any] | None:
    """The card as a non-instant ability of the model's board that deals no
    damage (409.2b): one whose whole effect is to heal (406.2), to exhaust a
    targeted hero or ally and then draw a card (105.1, 413.4a), to put an
    ally card of its caster's graveyard into play (306.3a example), or to
    take control of an ally (``taking_control``); None for any other card.  Instant heals (Flash Heal) are instants the model leaves
    untracked (``frame`` in abstraction.py)."""
    effect = card.effect
    controlling = taking_control(card)
    if controlling is not None:
        return controlling
    if card.type != "ability" or card.instant or card.ongoing or card.attach or card.triggers or card.payments or card.continuous:
        return None
    if effect is None or not effect.steps:
        return None
    if all(step.op == "heal" for step in effect.steps):
        return {"name": card.name, "effect": "heal"}
    steps = tuple((step.op, step.arg("what"), step.arg("count")) for step in effect.steps)
    if steps == EXHAUST_AND_DRAW and effect.target == "character":
        return {"name": card.name, "effect": "exhaust and draw"}
    if steps == RETURN_AN_ALLY and effect.target == "ally_in_your_graveyard":
        return {"name": card.name, "effect": "ally from the graveyard"}
    return None


#: Mind Control's text as the engine's card data writes it: it attaches to a
#: targeted ally whose cost is X and controls it, and is destroyed when its
#: controller plays a card (a trigger, where the following ends: ``power_acting``).
TAKE_CONTROL = (("control_attached", True),)


def taking_control(card: Card) -> dict[str, Any] | None:
    """The card as a non-instant ability of the model's board that takes
    control of an opposing ally while attached to it (401.3, Mind Control);
    None for any other card."""
    if card.type != "ability" or card.instant or not card.ongoing or card.attach != "ally_cost_x" or card.continuous != TAKE_CONTROL:
        return None
    if card.payments or card.effect is None or card.effect.steps or tuple(tr.when for tr in card.triggers) != ("you_play_a_card",):
        return None
    return {"name": card.name, "effect": "take control of an ally"}


def payment_power(card: Card) -> dict[str, Any] | None:
    """A card's one payment power as the model has it (CR7.4 701.2): an
    ally's "(N), exhaust this: double the damage on each character" (404.3
    example), as its cost N and the board's power spell; a hero's flip that
    heals X (``{"flips": True}``); a weapon's "(N), exhaust it: move a
    targeted attachment" (``{"cost": N, "moves": True}``); None for any other card."""
    if card.type not in ("ally", "hero", "weapon") or len(card.payments) != 1 or card.triggers or card.continuous:
        return None
    (power,) = card.payments
    shape = (tuple(sorted(power.cost)), power.own_turn_only, power.target, tuple((step.op, step.args) for step in power.steps))
    if card.type == "hero":
        return {"flips": True} if shape == FLIP_TO_HEAL else None
    if card.type == "weapon":
        moves = shape[1:] == (False, "attached_ability", (("reattach_target", ()),)) and {key for key, _ in power.cost} == {"resources", "exhaust_this"}
        return {"cost": dict(power.cost)["resources"], "moves": True} if moves else None
    cost = dict(power.cost)
    if set(cost) != {"resources", "exhaust_this"} or not cost["exhaust_this"] or power.own_turn_only or power.target:
        return None
    if tuple(step.op for step in power.steps) != ("double_damage_on_each_character",):
        return None
    return {"cost": cost["resources"],
            "spell": {"name": card.name, "amount": 0, "each_opposing": False, "instant": True, "doubles": True, "power": True}}


def outside_fragment(st: GameState, until_power: bool = False) -> list[str]:
    """The cards of this game the model does not abstract, by name; with
    ``until_power`` (a game followed step by step), the UNTIL_POWER,
    UNTIL_TRIGGER, UNTIL_PAYMENT, PAYMENT_POWERS, UNTIL_HERO_ATTACKS, STEPWISE_STATS and TOTEMS cards count as abstracted, and only cards
    in play or played onto the chain count: the model counts the cards in hand
    by kind and cost (408), and one outside it that stays in hand, or is placed
    face down as a resource (410.1b), is a card like any other to it.  An
    ATTACHED_ONLY card counts as abstracted while attached in play."""
    known = abstracted(st, until_power)
    placed = {link.source for link in st.chain if link.kind == "resource"}
    return sorted({
        o.card.name
        for o in st.objs
        if o.card.name not in known and not (o.resource and not o.face_up) and spell(o.card) is None and ability(o.card) is None
        and not (until_power and (o.zone not in ("play", "chain") or o.id in placed))
        and not (until_power and o.card.name in ATTACHED_ONLY and o.zone == "play" and o.attached_to is not None)
    })


def abstracted(st: GameState, until_power: bool = False) -> frozenset[str]:
    """The names of the cards the model abstracts in this game (spells aside); ``until_power`` as in ``outside_fragment``."""
    if not until_power:
        return FRAGMENT
    known = FRAGMENT | frozenset(UNTIL_POWER + UNTIL_TRIGGER + STEPWISE_STATS + TOTEMS + UNTIL_PAYMENT + PAYMENT_POWERS + UNTIL_HERO_ATTACKS)
    return known | frozenset(IMMUNE_TO_A_TYPE) if untyped(st) else known


def unplayable_in_hand(st: GameState) -> dict[str, str]:
    """The kinds of card (408) whose play the model may owe the priority holder
    only for cards of his hand it does not abstract, with why it can't tell: the
    engine offers no play of that kind, he can pay for such a card, and no card
    of that kind the model abstracts is one he can pay for; the targets
    (400.1a) the model does not know may be what keeps them in hand."""
    p = st.priority
    if p is None:
        return {}
    known = abstracted(st, until_power=True)
    offered = {card_kind(st.objs[a.subject].card) for a in st.legal_actions() if a.kind == "play"}
    ready = st.ready_resources(p)
    hand = [st.objs[i].card for i in st.players[p].hand]
    out = {}
    for kind in ("instant", "non_instant"):
        payable = [c for c in hand if card_kind(c) == kind and (c.cost or 0) <= ready]
        lacking = sorted({c.name for c in payable if c.name not in known and spell(c) is None and ability(c) is None})
        if kind not in offered and lacking and len(lacking) == len({c.name for c in payable}):
            out[kind] = (f"{st.pname(p)} holds {'; '.join(lacking)}, which the model does not abstract, and may play no "
                         f"{kind.replace('_', '-')} card here: the model plays any card of a kind he can pay for")
    return out


def untyped(st: GameState) -> bool:
    """Does no damage the model deals in this game have a type some IMMUNE_TO_A_TYPE card can't be dealt?"""
    immune = {o.card.continuous_powers.get("cant_be_dealt_damage_of_type") for o in st.objs if o.card.name in IMMUNE_TO_A_TYPE}
    dealt = {o.card.effect.steps[0].arg("type") for o in st.objs if o.card.type == "ability" and spell(o.card) is not None}
    dealt |= {o.card.damage_type for o in map(st.objs.__getitem__, st.play) if o.card.type in ("ally", "weapon") and not o.resource}
    return not immune & dealt


def power_acting(st: GameState) -> str:
    """What the game does that the model has no edge for, if anything: a
    triggered effect waiting or on the chain (409.5; the model's chain holds
    none but bear form's end, BEAR_FORM), the effect of a payment power it
    lacks on the chain (CR7.4 701), or an inspire decision (501.1a; the model
    readies only the turn player's cards).  "" when nothing of the kind happens."""
    for link in st.chain:
        if link.kind == "trigger" and not ends_bear_form(st, link.source):
            return f"{st.objs[link.source].card.name}'s power triggers: the model's chain holds no triggered effects (409.5)"
        if link.kind == "payment" and payment_power(st.objs[link.source].card) is None:
            return payment_used(st.objs[link.source].card.name)
    for w in st.waiting:
        if not ends_bear_form(st, w.source):
            return f"{st.objs[w.source].card.name}'s power triggers: the model's chain holds no triggered effects (409.5)"
    if st.decision is not None and st.decision.kind == "inspire":
        return f"{st.pname(st.decision.player)} readies an ally by inspire: the model readies only the turn player's cards (501.1a)"
    return ""


def ends_bear_form(st: GameState, source: int) -> bool:
    """Is ``source`` a BEAR_FORM card, whose one triggered power ends bear form (the model's bear-form trigger link)?"""
    return st.objs[source].card.name in BEAR_FORM


def in_bear_form(st: GameState, player: int) -> bool:
    """Is the hero of ``player`` in bear form: a BEAR_FORM card of his in play (Party.bear_form)?"""
    return any(st.objs[i].card.name in BEAR_FORM and st.objs[i].controller == player and not st.objs[i].resource for i in st.play)


def payment_used(name: str) -> str:
    """Why the model stops following where a payment power is used."""
    return (f"{name}'s payment power is used: the model's power links are a doubling, a hero's flip that heals, "
            "and a weapon's move of an attachment (CR7.4 701.2)")


def ring_attacks(st: GameState, action: Action) -> str:
    """Why the model can't follow this proposal: its attacker is a hero whose
    controller has an UNTIL_HERO_ATTACKS item in play ("" otherwise)."""
    if action.kind != "propose" or action.subject != st.players[action.player].hero:
        return ""
    rings = sorted({o.card.name for o in map(st.objs.__getitem__, st.play)
                    if o.card.name in UNTIL_HERO_ATTACKS and o.controller == action.player and not o.resource})
    if not rings:
        return ""
    return f"{st.pname(action.player)}'s hero attacks with {'; '.join(rings)} in play: the model's hero has no ATK of his own beside his weapons' (407.3c, CR7.4 704)"


def spells_of(st: GameState) -> list[dict[str, Any]]:
    """The spells among this game's cards, one per name, in name order: the
    abilities, and the effects of the payment powers the model has."""
    found = {o.card.name: spell(o.card) for o in st.objs if o.card.type == "ability"}
    found.update((o.card.name, power["spell"]) for o in st.objs if "spell" in (power := payment_power(o.card) or {}))
    return [found[name] for name in sorted(found) if found[name] is not None]


def abilities_of(st: GameState) -> list[dict[str, Any]]:
    """The non-instant abilities that deal no damage among this game's cards, one per name, in name order."""
    found = {o.card.name: ability(o.card) for o in st.objs if o.card.type == "ability"}
    return [found[name] for name in sorted(found) if found[name] is not None]


#: The game whose spells and abilities were read last: its objects (held, so
#: that no other list takes their identity), how many, and what they were.
_read_last: list[Any] = [None, 0, None]


def board_spells(st: GameState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``spells_of`` and ``abilities_of``, read once while the game's objects
    stay as they were: a game only adds objects (tokens), and an object's
    card never changes, so its spells change only as objects are added
    (every observation of a step read them all again, some 60 cards)."""
    objs = st.objs
    if _read_last[0] is not objs or _read_last[1] != len(objs):
        _read_last[:] = [objs, len(objs), (spells_of(st), abilities_of(st))]
    return _read_last[2]


@dataclass(frozen=True)
class Setup:
    """A game to play: heroes and the damage on them, what each player has in
    play, in hand and in the deck (top last), starting resources.  Everything
    from the fragment."""

    heroes: tuple[str, ...]
    hero_damage: tuple[int, ...]
    play: tuple[tuple[str, ...], ...]
    hands: tuple[tuple[str, ...], ...]
    decks: tuple[tuple[str, ...], ...]
    resources: tuple[int, ...]
    seed: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "heroes": list(self.heroes),
            "hero_damage": list(self.hero_damage),
            "play": [list(p) for p in self.play],
            "hands": [list(h) for h in self.hands],
            "decks": [list(d) for d in self.decks],
            "resources": list(self.resources),
            "seed": self.seed,
        }


def random_setup(rng: random.Random, players: int) -> Setup:
    """A table where combat, protection, sabotage, strikes, armor, instants in
    every window and a hero's death can all happen within a few turns."""
    heroes = tuple(rng.choice(FRAGMENT_HEROES) for _ in range(players))
    # Heroes often start near death, so that games also end in combat (102.1a), not only by decking.
    damage = tuple(rng.choice((0, 20, 24, 25)) for _ in heroes)
    play, hands, decks = [], [], []
    for hero in heroes:
        dual = hero in ("Kerra Nightblade", "Gorrak Bloodfist")
        weapons = (WEAPONS[0], WEAPONS[0]) if dual else WEAPONS
        allies = tuple(rng.choice(FRAGMENT_ALLIES) for _ in range(rng.randint(0, 2)))
        armor = (rng.choice(ARMORS),) if rng.random() < 0.8 else ()
        play.append((*weapons, *armor, ITEM, *allies))
        hands.append(tuple(_card(rng) for _ in range(rng.randint(2, 5))))
        decks.append(tuple(_card(rng) for _ in range(rng.randint(2, 8))))
    return Setup(heroes, damage, tuple(play), tuple(hands), tuple(decks), tuple(rng.randint(2, 5) for _ in heroes), rng.randrange(2**16))


def _card(rng: random.Random) -> str:
    # Instants half the time: they are what every window's edges are about.
    pool = FRAGMENT_INSTANTS if rng.random() < 0.5 else FRAGMENT_ALLIES + FRAGMENT_QUESTS
    return rng.choice(pool)


class BuiltinWowAdapter:
    """The agreement harness's adapter for ``engine.wowtcg`` (protocol in agreement/adapter.py)."""

    game = "wowtcg"

    def __init__(self, pool: Pool | None = None) -> None:
        self.pool = pool if pool is not None else load_pool()

    # -- games ---------------------------------------------------------------------

    def random_setup(self, rng: random.Random, players: int) -> Setup:
        return random_setup(rng, players)

    def new_game(self, setup: Setup) -> GameState:
        # The model's game starts in the first player's first ready step (101.1,
        # 501.1), heroes and the board already in play.
        state = arrange(
            list(setup.heroes),
            play={p: list(cards) for p, cards in enumerate(setup.play)},
            hands={p: list(cards) for p, cards in enumerate(setup.hands)},
            decks={p: list(cards) for p, cards in enumerate(setup.decks)},
            resources={p: n for p, n in enumerate(setup.resources)},
            step="ready_step",
            turn=1,
            pool=self.pool,
            seed=setup.seed,
        )
        for player, damage in zip(state.players, setup.hero_damage):
            state.objs[player.hero].damage = damage
        return state

    # -- the protocol ------------------------------------------------------------------

    def legal_actions(self, state: GameState) -> list[Action]:
        return state.legal_actions()

    def apply_action(self, state: GameState, action: Action) -> None:
        state.apply_action(action)

    def is_terminal(self, state: GameState) -> bool:
        return state.is_terminal()

    def clone(self, state: GameState) -> GameState:
        return state.clone()

    def action_label(self, state: GameState, action: Action) -> str:
        return str(action)

    def refusal(self, state: GameState, action: Action) -> str | None:
        """The rule the engine cites when it refuses ``action`` (on a copy), or None if it accepts."""
        try:
            state.clone().apply_action(action)
        except IllegalAction as exc:
            return exc.rule
        return None

    def candidate_actions(self, state: GameState, observed: dict[str, Any]) -> list[Action]:
        """The engine actions an observed action could stand for, offered or not
        (to ask the engine why it refuses one)."""
        kind, p = observed["kind"], observed["player"]
        if kind == "propose":
            return [Action("propose", p, observed["attacker"], (observed["defender"],), option=observed["sabotage"])]
        if kind == "strike":
            return [Action("strike", p, observed["weapon"])]
        if kind == "pass":
            return [Action("pass", p)]
        if kind in ("play", "resource"):
            hand = [o for o in (state.objs[i] for i in state.players[p].hand) if card_kind(o.card) == observed["card_kind"]]
            if kind == "resource":
                return [Action("resource", p, o.id) for o in hand]
            return [
                Action("play", p, o.id, (state.players[p].hero,) if o.card.effect and o.card.effect.target else ())
                for o in hand
            ]
        return []

    def observe(self, state: GameState) -> dict[str, Any]:
        return observe(state)

    def observe_action(self, state: GameState, action: Action) -> dict[str, Any]:
        return observe_action(state, action)


#: Target kinds that name a hero or an ally, whose ids the observation shares.
CHARACTER_TARGETS = ("character", "hero", "ally", "ally_cost_x")


def card_kind(card: Card) -> str:
    """The model's kinds of card in hand (408.1, 408.2)."""
    if card.type == "quest":
        return "quest"
    return "instant" if card.instant else "non_instant"


def _keywords(words: frozenset[str]) -> list[str]:
    return sorted(k for k in words if k in ("protector", "stealth", "elusive", "ferocity", "long_range", "sabotage"))


def observe(st: GameState) -> dict[str, Any]:
    """The engine state in the words of the observation format."""
    decision = None
    if st.decision is not None:
        decision = {"kind": st.decision.kind, "player": st.decision.player}
    combat = None
    proposal = next((link for link in st.chain if link.kind == "proposal"), None)
    if st.combat is not None:
        c = st.combat
        combat = {
            "attacker": c.attacker,
            "defender": c.defender,
            "sabotage": c.sabotage,
            "protected": c.protected,
        }
    elif proposal is not None:
        # 601.2f: a proposed attacker or defender that left play is one no more,
        # though the link still names it (it is interrupted as it resolves, 601.3).
        def proposed(oid: int) -> int | None:
            return oid if st.objs[oid].zone == "play" else None

        combat = {"attacker": proposed(proposal.attacker), "defender": proposed(proposal.defender), "sabotage": proposal.sabotage, "protected": False}
    struck = {w for ws in (st.combat.struck.values() if st.combat else ()) for w in ws}
    # Hosts of an attachment that keeps them from readying (Entangling Roots, 501.1a).
    held = {o.attached_to for o in map(st.objs.__getitem__, st.play) if o.attached_to is not None and o.card.has_continuous("attached_cant_ready")}
    # 600.2, 601.2c: who must attack whose hero this turn (Mocking Blow).
    taunted_by = {oid: st.objs[hero].controller for what, oid, hero in st.turn_modifiers if what == "attack_only_your_hero"}
    players = []
    for pl in st.players:
        mine = [st.objs[i] for i in st.play if st.objs[i].controller == pl.index]
        hero = st.objs[pl.hero]
        hand = {"instant": [], "non_instant": [], "quest": []}
        for i in pl.hand:
            card = st.objs[i].card
            hand[card_kind(card)].append(card.cost or 0)
        resources = [o for o in mine if o.resource]
        armor = next((o for o in mine if o.card.type == "armor" and not o.resource), None)
        item = next((o for o in mine if o.card.type == "item" and not o.resource), None)
        players.append(
            {
                "in_game": pl.in_game,
                "deck": len(pl.deck),
                "hand": hand,
                "resources": len(resources),
                "resources_exhausted": sum(o.exhausted for o in resources),
                "resource_placed": pl.placed_resource_turn == st.turn_number,
                "hero": {
                    "id": hero.id,
                    "name": hero.card.name,
                    "health": hero.card.health,
                    "damage": hero.damage,
                    "exhausted": hero.exhausted,
                    "in_play": hero.zone == "play",
                    "dual_wield": "dual_wield" in hero.card.keywords,
                    **({"ranged_dual_wield": True} if "ranged_dual_wield" in hero.card.keywords else {}),
                    **({"flips_to_heal": True, "flipped": hero.flipped} if payment_power(hero.card) else {}),
                    **({"taunted_by": taunted_by[hero.id]} if hero.id in taunted_by else {}),
                    **({"bear_form": True} if in_bear_form(st, pl.index) else {}),
                },
                "allies": [
                    {
                        "id": o.id,
                        "name": o.card.name,
                        # As they stand: printed, or set by the ally's own continuous power (STEPWISE_STATS).
                        "atk": atk_of(st, o),
                        "health": health_of(st, o),
                        "keywords": _keywords(keywords_of(st, o)),
                        "damage": o.damage,
                        "exhausted": o.exhausted,
                        "new": o.joined_turn == st.turn_number,
                        **({"taunted_by": taunted_by[o.id]} if o.id in taunted_by else {}),
                        **({"draws_attacks": True} if "opponents_attack_only_this" in o.card.continuous_powers else {}),
                        **({"attack_tax": attack_tax(o)} if attack_tax(o) else {}),
                        **({"totem": True} if o.card.is_totem else {}),
                        **({"held_exhausted": True} if o.id in held else {}),
                        **({"power_cost": power["cost"]} if (power := payment_power(o.card)) is not None else {}),
                    }
                    for o in mine
                    # 306.3a: a totem in play sits among the allies as a character.
                    if (o.card.type == "ally" or o.card.is_totem) and not o.resource
                ],
                "weapons": [
                    {
                        "id": o.id,
                        "name": o.card.name,
                        "atk": o.card.atk or 0,
                        "strike_cost": o.card.strike_cost or 0,
                        "melee": "Melee" in o.card.limited_labels,
                        "exhausted": o.exhausted,
                        "struck": o.id in struck,
                        **({"unpreventable": True} if "combat_damage_unpreventable" in o.card.continuous_powers else {}),
                        **({"power_cost": power["cost"]} if (power := payment_power(o.card)) is not None else {}),
                    }
                    for o in mine
                    if o.card.type == "weapon" and not o.resource
                ],
                "armor": None if armor is None else {"id": armor.id, "defense": armor.card.defense or 0, "exhausted": armor.exhausted},
                "item": None if item is None else {"id": item.id, "name": item.card.name},
            }
        )
    step = st.step
    spells, abilities = board_spells(st)
    return {
        **({"spells": spells} if spells else {}),
        **({"abilities": abilities} if abilities else {}),
        "step": step,
        "turn_player": st.turn_player,
        "turn": st.turn_number,
        "first_turn": st.turn_number == 1 and st.turn_player == st.first_player,
        "priority": st.priority,
        "passes": st.passes,
        "chain": [{"controller": link.controller, "kind": _link_kind(st, link)} for link in st.chain],
        "combat": combat,
        "decision": decision,
        "players": players,
    }


def _link_kind(st: GameState, link: Any) -> str:
    if link.kind == "card":
        return "instant" if st.objs[link.source].card.instant else "non_instant"
    if link.kind == "payment":
        return "power"  # one the model has (``power_acting`` stops at others)
    if link.kind == "trigger" and ends_bear_form(st, link.source):
        return "bear_form_trigger"  # the one trigger the model has
    return link.kind  # resource, proposal, strike (other trigger links are outside the fragment: ``power_acting``)


def observe_action(st: GameState, a: Action) -> dict[str, Any]:
    """An engine action in the words of the observation format (read before it applies)."""
    out: dict[str, Any] = {"kind": a.kind, "player": a.player}
    if a.kind in ("play", "resource", "discard"):
        out["card_kind"] = card_kind(st.objs[a.subject].card)
        effect = st.objs[a.subject].card.effect
        if a.kind == "play" and effect is not None and effect.target in CHARACTER_TARGETS:
            out["targets"] = list(a.targets)
    elif a.kind == "propose":
        out.update(attacker=a.subject, defender=a.targets[0], sabotage=bool(a.option))
    elif a.kind == "strike":
        out["weapon"] = a.subject
    elif a.kind == "power":
        out["source"] = a.subject
    elif a.kind == "protect":
        out["protector"] = a.subject
    elif a.kind == "prevent":
        out["armor"] = a.subject
    return out
