"""Cards as data: the card pool's schema, its loader, and the rejection of text
the engine cannot play.

A card is a frozen `Card`. Its printed facts (type, cost, traits, stats, tags)
are fields; what its text does is a small vocabulary of powers (`Power`) whose
steps name an operation the engine implements (`OPERATIONS`). A card whose
text needs anything outside that vocabulary is refused when the pool loads,
with its name and the part that is not supported (`UnsupportedCardText`); a
file that is not a pool at all is `CardFileError` naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

POOL_FILE = Path(__file__).with_name("cards.yaml")

# 300.1: the seven card types. 300.1 also makes heroes, allies and totems
# characters, and armor, items and weapons equipment.
CARD_TYPES = ("hero", "ally", "weapon", "armor", "item", "ability", "quest")
CHARACTER_TYPES = ("hero", "ally")
EQUIPMENT_TYPES = ("weapon", "armor", "item")

# 205 / 407.3a: the damage types.
DAMAGE_TYPES = ("arcane", "fire", "frost", "holy", "melee", "nature", "ranged", "shadow")

# Keyword powers the engine implements, with the rule that gives each meaning.
KEYWORDS = {
    "protector": "602.2",  # may exhaust to become the proposed defender
    "elusive": "601.2b",  # can't be proposed as a defender
    "ferocity": "601.2a",  # may attack the turn it joins the party
    "stealth": "602.2a",  # nothing may protect against it
    "long_range": "603.1a",  # defenders deal it no combat damage
    "dual_wield": "405.1",  # two one-handed melee weapons; strikes with two (405.3)
    "ranged_dual_wield": "405.2",  # two ranged weapons
    "sabotage": "601.2b",  # may propose a sabotage combat against a non-friendly item
}

# Who or what a card's text may target (CR7.4 706) or attach to (400.1).
TARGETS = {
    "character": "target hero or ally",
    "ally": "target ally",
    "hero": "target hero",
    "ally_cost_x": "target ally whose cost is X",
    "attached_ability": "target ability attached to a hero or ally",
    # 413.3 example (Kryton Barleybeard): "target ability" means one in play.
    "ability_in_play": "target ability in play",
    "player": "target player",
    # 000 306.3a example (Resurrection): an ally card in the caster's own
    # graveyard; a totem there is an ability, not an ally, so never one.
    "ally_in_your_graveyard": "target ally in your graveyard",
    # Highborne Soul Mirror: an ally of the power's controller.
    "ally_you_control": "target ally you control",
    # Blessing of Freedom: a character of the card's controller.
    "character_you_control": "target hero or ally you control",
    # Hur Shieldsmasher: armor in play.
    "armor": "target armor",
}

# The operations a step of a card's text may perform, each with the parameters
# it accepts and the rules that say how it is carried out.
OPERATIONS: dict[str, tuple[frozenset[str], str]] = {
    # 404.4, 407: the hero (or the source character) deals a packet of damage.
    "deal": (frozenset({"amount", "type", "to", "source", "combat", "optional"}), "404.4 407.2"),
    # 406.2: the hero heals a packet of damage.
    "heal": (frozenset({"amount", "to"}), "406.1 406.2"),
    # Seed 306.3a example (Chain Lightning): an optional further packet to a
    # character chosen as the link resolves, not targeted.
    "may_deal_another": (frozenset({"amount", "type"}), "404.4 CR7.4 709.2b"),
    # 404.3: damage put on a character, not dealt; can't be prevented.
    "double_damage_on_each_character": (frozenset(), "404.3"),
    "exhaust": (frozenset({"what", "optional"}), "105.1"),
    "ready": (frozenset({"what"}), "105.1"),
    "destroy": (frozenset({"what", "optional"}), "413.6a"),
    "remove_from_combat": (frozenset({"what"}), "602.4"),
    # CR7.4 709.2f: "If you do" checks that the previous destroy happened.
    "if_done_destroy": (frozenset({"what"}), "CR7.4 709.2f"),
    # 600.2 / 601.2c: restrictions that last this turn.
    "modify_this_turn": (frozenset({"what", "who"}), "600.2 601.2c"),
    # 403.2: a token ally enters play.
    "create_token": (frozenset({"name", "atk", "type", "health", "subtypes"}), "403.2 403.2a"),
    # Sword of Zeal: a player may ready some of his resources.
    "may_ready_resources": (frozenset({"player", "count"}), "105.1"),
    # 400.4a: move an attachment to another host that fits its description.
    "reattach_target": (frozenset(), "400.4a 400.4c 400.4d"),
    # Kryton Barleybeard: a card in play goes to its owner's hand (413.2).
    "return_to_owners_hand": (frozenset({"what", "if_done"}), "413.2"),
    # 413.4a: the link's controller draws from the top of his deck; from an
    # empty deck he loses at the next check (409.6c). Charge.
    "draw": (frozenset({"count"}), "413.4a 409.6c"),
    # 000 306.3a example (Resurrection): a card from a graveyard enters play
    # under the link's controller, if its cost is at most the resources he controls.
    "put_into_play_if_cost_at_most_resources": (frozenset({"what"}), "CR7.4 710.1 413.2"),
    # Green Whelp Armor: "you may pay (N). If you do, ..." (CR7.4 709.2f).
    "may_pay": (frozenset({"amount"}), "402.1 CR7.4 709.2f"),
    # Highborne Soul Mirror: a token copy of a card enters play (403.2).
    "create_token_copy": (frozenset({"what"}), "403.2"),
    # Highborne Soul Mirror: every other ally of the event's name its controller controls.
    "destroy_others_of_event_name": (frozenset(), "413.6a"),
    # Kaal Soulreaper: every player puts every ally card of his graveyard into
    # play at once (CR7.4 710.1), and the powers watching that see them all (CR7.4 703.3c).
    "players_put_graveyard_allies_into_play": (frozenset(), "CR7.4 710.1 CR7.4 703.3c"),
    # Mind Spike: the target's controller discards a card per damage the link dealt it.
    "discard_per_damage_dealt": (frozenset(), "413.6a"),
    # 001 basic rules, Preventing damage: a prevention that lasts the turn
    # and prevents up to its amount in all, packet by packet (CR7.4 717.2a).
    "prevent_this_turn": (frozenset({"amount", "to"}), "CR7.4 717.2 CR7.4 717.2a"),
    # Bear form (001 basic rules; CR7.4 glossary): destroy each ability of its
    # controller that gives his hero bear form.
    "destroy_bear_form_sources": (frozenset(), "413.6a"),
}

# Continuous powers (CR7.4 704) the engine implements.
CONTINUOUS = {
    "hero_cant_be_destroyed": "103.2 103.4",  # Valthak Spiritdrinker
    "health_per_other_named": "409.6b",  # Ironforge Guards
    "opponents_attack_only_this": "601.2c 601.2d",  # Sarmoth
    "heal_plus": "406.2 407.4",  # Hide of the Wild: a replacement of heal packets
    "combat_damage_unpreventable": "407.3c",  # Annihilator
    "attached_cant_ready": "501.1a",  # Entangling Roots
    "control_attached": "401.3",  # Mind Control
    "enters_play_exhausted": "CR7.4 710.1b",  # Observer's Shield
    "inspire_ally": "501.1a",  # Vindicator Kaldels
    "hero_atk_while_attacking": "407.3c",  # Mason's Fraternity Ring: +N ATK while its controller's hero attacks
    "atk_per_ally_you_control": "CR7.4 704",  # Tracker Gallen: +N ATK for each ally its controller controls
    "attack_tax": "600.3",  # can't attack unless its controller pays (N)
    "keywords_by_hero_trait": "601.2b 601.2a",  # Thunderhead Hippogryph: [Alliance] Hero: Elusive, [Horde] Hero: Ferocity
    "may_return_to_prevent_hero_damage": "407.1 CR7.4 709.2f",  # Blessed Life: a conditional prevention
    "own_allies_removed_instead_of_graveyard": "413.8a CR7.4 709.2f",  # Dramla Lifebender: a replacement
    "opposing_allies_health_minus": "302.1 409.6a",  # Withering Shout: opposing allies have -N health
    "attached_untargetable": "CR7.4 706.1",  # Blessing of Freedom: its host can't be targeted
    "attached_cant_attack_or_protect": "103.2 601.2a 602.2",  # Polymorph
    "attached_powerless": "CR7.4 700.3",  # Polymorph: its host loses and can't have powers
    "cant_be_dealt_damage_of_type": "404.5 407.2b",  # no packet of that damage type is made for it
    "hero_ability_damage_plus": "407.4",  # Chromatic Cloak: a replacement that raises the amount
    "cant_be_destroyed": "103.2 103.3",  # the card itself can't be destroyed, but uniqueness still destroys it
    "attached_loses_keyword": "405.1 405.2",  # its host loses a keyword (a hero losing dual wield)
    "hero_damage_plus": "407.4 CR7.4 717.4a",  # Berserker Stance: packets its controller's hero deals are N larger
    "hero_dealt_damage_plus": "407.4 CR7.4 717.4a",  # Berserker Stance: packets dealt to that hero are N larger
    "hero_bear_form": "602.2",  # bear form (001 basic rules): its controller's hero has protector
}

# Events that triggered powers (CR7.4 703) watch for.
TRIGGERS = {
    "this_destroyed": "CR7.4 703.1",  # Vexra Darkfall
    "friendly_race_destroyed": "CR7.4 703.1 403.2",  # Tyrande
    "this_defends_against_ally": "602.3",  # Grunt Baranka
    "ally_enters_combat_with_this": "602.3",  # High Overlord Saurfang
    "hero_combat_damage_with_this": "407.3d",  # Sword of Zeal
    "hero_combat_damage_with_this_to_ally": "407.3d",  # Deathbringer
    "hero_first_combat_damage_with_this_each_turn": "407.3d",  # Thrash Blade
    "hero_combat_damage_with_weapon_to_ally": "407.3d",  # Blade Flurry
    "start_of_your_turn": "501.1a",  # Fireball while attached
    "this_sabotages": "603.1",  # a saboteur's reward
    "you_play_a_card": "408.1",  # Mind Control
    "opposing_character_attacks": "602.1",  # Donna Calister: when an opposing hero or ally attacks
    "attacking_ally_combat_damage_to_your_hero": "407.3b",  # Green Whelp Armor
    "ally_you_control_destroyed": "CR7.4 703.1 CR7.4 703.4",  # Highborne Soul Mirror
    "end_of_turn": "503.2a",  # Blessing of Freedom; on the chain at the next ready step
    "this_attacks": "602.1",  # Voss Treebender
    "this_enters_play": "CR7.4 710.1 CR7.4 703.4",  # Hur Shieldsmasher: judged just after it entered
    "this_deals_combat_damage_to_damaged_ally": "407.3b CR7.4 703.4",  # Brigg: judged just before the damage
    "opposing_ally_enters_play": "CR7.4 710.1 CR7.4 703.3c",  # Watcher Mal'wi
    "this_dealt_damage": "CR7.4 703.1 404.5 407.2",  # a packet dealt to it; none is made where it can't be dealt (404.5)
    "you_discard": "CR7.4 703.1 413.6a",  # once for each card its controller discards, one at a time
    # Bear form (001 basic rules): its controller plays an ability that is not Feral, or strikes with a weapon.
    "you_play_non_feral_ability_or_strike": "CR7.4 703.1 303.2",
}

# Alternate costs (CR7.4 403.3): paid rather than the card's cost, with the
# rule that says what paying it takes.
ALTERNATE_COSTS = {
    "destroy_resource": "CR7.4 403.3 410.1b",  # Nalonae: destroy a resource you control
}

# Costs a payment power (CR7.4 701) may ask for.
# destroy_this: Kryton Barleybeard destroys himself to pay (CR7.4 709.2d example);
# remove_this: Kaal Soulreaper removes himself from the game (413.8a).
PAYMENT_COSTS = ("resources", "x", "exhaust_this", "flip_hero", "destroy_this", "remove_this")

#: 306.3a: the word on a card's type line that makes an ability a totem.
TOTEM = "Totem"


class CardFileError(ValueError):
    """The pool file is not a well-formed pool: names the file and line."""


class UnsupportedCardText(ValueError):
    """A card's text needs something the engine does not implement."""

    def __init__(self, card: str, part: str, where: str = ""):
        self.card, self.part = card, part
        at = f" ({where})" if where else ""
        super().__init__(f"card {card!r}{at}: unsupported text: {part}")


@dataclass(frozen=True)
class Step:
    """One operation of a card's text, with its parameters."""

    op: str
    args: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        # Read as the step resolves: the mapping is built once (see `Card.__post_init__`).
        object.__setattr__(self, "_args", dict(self.args))

    def arg(self, name: str, default: Any = None) -> Any:
        return self._args.get(name, default)


@dataclass(frozen=True)
class Power:
    """A triggered (`when` set) or payment (`cost` set) power, or what an
    ability does as it resolves (neither set)."""

    steps: tuple[Step, ...]
    target: str | None = None
    when: str | None = None
    cost: tuple[tuple[str, Any], ...] = ()
    own_turn_only: bool = False
    race: str | None = None  # friendly_race_destroyed: which race

    def __post_init__(self) -> None:
        # What each payment power's cost asks (402.1, CR7.4 701), read for
        # every candidate power action: worked out once, as a card's facts
        # are (see `Card.__post_init__`).
        costs = dict(self.cost)
        derived = {
            "_costs": costs,
            "resources": costs.get("resources") or 0,  # the resources it costs, X aside
            "has_x": bool(costs.get("x")),  # CR7.4 707.1b: its cost has an X
            "exhausts_this": bool(costs.get("exhaust_this")),  # exhausting its own card is part of the cost
            "flips_hero": bool(costs.get("flip_hero")),  # flipping the hero is part of the cost
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def cost_of(self, name: str, default: Any = None) -> Any:
        return self._costs.get(name, default)


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    type: str
    text: str
    source: str
    cost: int = 0
    x_cost: bool = False
    traits: frozenset[str] = frozenset()  # 206: faction and class icons
    subtypes: tuple[str, ...] = ()  # races, classes, weapon kinds on the type line
    tags: tuple[str, ...] = ()  # Unique, Unlimited, "Pet (1)", Two-Handed, Off-Hand ...
    instant: bool = False
    ongoing: bool = False
    atk: int | None = None
    damage_type: str | None = None
    health: int | None = None
    defense: int | None = None
    strike_cost: int | None = None
    keywords: frozenset[str] = frozenset()
    talent: str | None = None  # a hero's talent (100.2b)
    hero_required: str | None = None  # 100.2b "[Trait] Hero Required"
    reputation: str | None = None  # 100.2c Aldor / Scryer
    attach: str | None = None  # 400.1: what it attaches to
    effect: Power | None = None  # what an ability does as it resolves
    continuous: tuple[tuple[str, Any], ...] = ()
    triggers: tuple[Power, ...] = ()
    payments: tuple[Power, ...] = ()
    alternate_cost: str | None = None  # CR7.4 403.3: paid rather than `cost`
    reward: Power | None = None  # a quest's reward power (307.1, CR7.4 702.1): its cost and its effect
    #: Kept out of random decks and random heroes: a pool filler for written
    #: scenarios only, so that seeded random games stay those they always were.
    scripted_only: bool = False

    # The derived facts below are read on every pass of the game loop; a card
    # is immutable, so each is worked out once, as the card is made
    # (`__post_init__`), and kept in a slot of its own: fields that are not
    # given, shown or compared (equality, hashing and `replace` see only the
    # printed facts). Slots rather than cached properties: CPython reads a
    # slot fastest, and a card has more facts than it shares the keys of in
    # an instance dictionary.
    is_totem: bool = field(init=False, repr=False, compare=False)
    is_character: bool = field(init=False, repr=False, compare=False)
    targetable_as_ally: bool = field(init=False, repr=False, compare=False)
    pays: bool = field(init=False, repr=False, compare=False)
    is_equipment: bool = field(init=False, repr=False, compare=False)
    unique: bool = field(init=False, repr=False, compare=False)
    unlimited: bool = field(init=False, repr=False, compare=False)
    continuous_powers: dict[str, Any] = field(init=False, repr=False, compare=False)
    power_names: frozenset[str] = field(init=False, repr=False, compare=False)
    limited_labels: dict[str, int] = field(init=False, repr=False, compare=False)
    bound_by_uniqueness: bool = field(init=False, repr=False, compare=False)
    keywords_possible: frozenset[str] = field(init=False, repr=False, compare=False)
    effect_target: str | None = field(init=False, repr=False, compare=False)
    played_plainly: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        is_totem = self.type == "ability" and TOTEM in self.subtypes  # 306.3a: an ability whose type line says Totem
        continuous_powers = dict(self.continuous)
        labels = {}
        for tag in self.tags:
            if tag.endswith(")") and "(" in tag:
                label, _, n = tag[:-1].rpartition("(")
                labels[label.strip()] = int(n)
        unique = "Unique" in self.tags
        derived = {
            "is_totem": is_totem,
            # 300.1: heroes, allies and totems (306.3a) are characters.
            "is_character": self.type in CHARACTER_TYPES or is_totem,
            # 306.3a: an ally, or a totem, which in play may be targeted as if it
            # were an ally (it still is not one for any choice that does not target).
            "targetable_as_ally": self.type == "ally" or is_totem,
            # Whether it has a payment power (CR7.4 701) or a reward power (CR7.4 702.1).
            "pays": bool(self.payments) or self.reward is not None,
            "is_equipment": self.type in EQUIPMENT_TYPES,  # 300.1: armor, items and weapons are equipment
            "unique": unique,
            "unlimited": "Unlimited" in self.tags,
            # Its continuous powers (CR7.4 704) by name, with their arguments.
            "continuous_powers": continuous_powers,
            # Its continuous powers' names and the events its triggered powers
            # watch for (CR7.4 703, CR7.4 704).
            "power_names": frozenset(continuous_powers) | {t.when for t in self.triggers} | ({"reward"} if self.reward else set()),
            # Tags such as "Pet (1)" or "Melee (1)": at most n cards with the label
            # under one player's control (412; basic rules, "unique").
            "limited_labels": labels,
            # Whether the card can take part in a uniqueness violation (412, 405.1;
            # basic rules "Unique"): unique, a limited label, two-handed or off-hand.
            "bound_by_uniqueness": unique or bool(labels) or "Two-Handed" in self.tags or "Off-Hand" in self.tags,
            # The keywords it could ever have: printed, or gained by its hero's
            # faction (Thunderhead Hippogryph); a keyword outside them is asked
            # about without reading play (`combat.has`), bar a hero's protector
            # in bear form.
            "keywords_possible": self.keywords.union(*(words for _, words in continuous_powers.get("keywords_by_hero_trait", ()))),
            # What its effect targets (CR7.4 706), if anything.
            "effect_target": self.effect.target if self.effect is not None else None,
            # Played from a hand with no choice but to play it: not a quest
            # (307.1) or a hero (301.1), no alternate cost (CR7.4 403.3), no target.
            "played_plainly": self.type not in ("quest", "hero") and self.alternate_cost is None
                              and (self.effect is None or self.effect.target is None),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def has_continuous(self, name: str) -> bool:
        return name in self.continuous_powers

    def continuous_arg(self, name: str) -> Any:
        return self.continuous_powers.get(name)

    def __deepcopy__(self, memo):  # cards are immutable definitions, shared
        return self


_CARD_FIELDS = {
    "name", "type", "text", "source", "cost", "x_cost", "traits", "subtypes", "tags",
    "instant", "ongoing", "atk", "damage_type", "health", "defense", "strike_cost",
    "keywords", "talent", "hero_required", "reputation", "attach", "effect",
    "continuous", "triggers", "payments", "target", "alternate_cost", "reward", "scripted_only",
}


def _steps(card: str, raw: Any, where: str) -> tuple[Step, ...]:
    if not isinstance(raw, list) or not raw:
        raise UnsupportedCardText(card, f"{where} must be a non-empty list of steps")
    steps = []
    for item in raw:
        if isinstance(item, str):  # an operation without parameters
            item = {item: {}}
        if not isinstance(item, dict) or len(item) != 1:
            raise UnsupportedCardText(card, f"{where}: a step is one operation, got {item!r}")
        (op, args), = item.items()
        if op not in OPERATIONS:
            raise UnsupportedCardText(card, f"{where}: operation {op!r}")
        args = args or {}
        if not isinstance(args, dict):
            args = {"what": args}
        unknown = set(args) - OPERATIONS[op][0]
        if unknown:
            raise UnsupportedCardText(card, f"{where}: {op} with {sorted(unknown)}")
        steps.append(Step(op, tuple(sorted(args.items()))))
    return tuple(steps)


def _power(card: str, raw: Any, where: str) -> Power:
    if not isinstance(raw, dict):
        raise UnsupportedCardText(card, f"{where} must be a mapping")
    unknown = set(raw) - {"steps", "target", "when", "cost", "own_turn_only", "race"}
    if unknown:
        raise UnsupportedCardText(card, f"{where}: {sorted(unknown)}")
    target = raw.get("target")
    if target is not None and target not in TARGETS:
        raise UnsupportedCardText(card, f"{where}: target {target!r}")
    when = raw.get("when")
    if when is not None and when not in TRIGGERS:
        raise UnsupportedCardText(card, f"{where}: trigger event {when!r}")
    cost = raw.get("cost") or {}
    bad_cost = set(cost) - set(PAYMENT_COSTS)
    if bad_cost:
        raise UnsupportedCardText(card, f"{where}: cost {sorted(bad_cost)}")
    return Power(
        steps=_steps(card, raw.get("steps"), where),
        target=target,
        when=when,
        cost=tuple(sorted(cost.items())),
        own_turn_only=bool(raw.get("own_turn_only", False)),
        race=raw.get("race"),
    )


def card_from_dict(raw: dict) -> Card:
    """Build one card, refusing text outside the engine's vocabulary."""
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise UnsupportedCardText(repr(name), "every card needs a name")
    unknown = set(raw) - _CARD_FIELDS
    if unknown:
        raise UnsupportedCardText(name, f"fields {sorted(unknown)}")
    kind = raw.get("type")
    if kind not in CARD_TYPES:
        raise UnsupportedCardText(name, f"type {kind!r} (known: {', '.join(CARD_TYPES)})")
    for word in raw.get("keywords", []):
        if word not in KEYWORDS:
            raise UnsupportedCardText(name, f"keyword {word!r}")
    if raw.get("damage_type") not in (None, *DAMAGE_TYPES):
        raise UnsupportedCardText(name, f"damage type {raw['damage_type']!r}")
    continuous = []
    for entry in raw.get("continuous", []):
        key, value = (next(iter(entry.items())) if isinstance(entry, dict) else (entry, True))
        if key not in CONTINUOUS:
            raise UnsupportedCardText(name, f"continuous power {key!r}")
        if key == "keywords_by_hero_trait":
            # {trait: [keywords]}: kept as pairs, so that the card stays hashable.
            if not isinstance(value, dict) or any(w not in KEYWORDS for words in value.values() for w in words):
                raise UnsupportedCardText(name, f"{key} maps a hero trait to known keywords, not {value!r}")
            value = tuple((trait, frozenset(words)) for trait, words in value.items())
        if key == "attached_loses_keyword" and value not in KEYWORDS:
            raise UnsupportedCardText(name, f"{key} names a known keyword, not {value!r}")
        continuous.append((key, value))
    effect = None
    if "effect" in raw or "target" in raw:
        # An attaching ability may have a target and nothing else to do (400.1a).
        steps = raw.get("effect") or []
        effect = Power(steps=_steps(name, steps, "effect") if steps else (), target=raw.get("target"))
        if effect.target is not None and effect.target not in TARGETS:
            raise UnsupportedCardText(name, f"target {effect.target!r}")
    if raw.get("attach") not in (None, *TARGETS):
        raise UnsupportedCardText(name, f"attach description {raw['attach']!r}")
    triggers = tuple(_power(name, t, f"trigger {i + 1}") for i, t in enumerate(raw.get("triggers", [])))
    if any(t.when is None for t in triggers):
        raise UnsupportedCardText(name, "a triggered power needs 'when'")
    payments = tuple(_power(name, p, f"payment power {i + 1}") for i, p in enumerate(raw.get("payments", [])))
    alternate = raw.get("alternate_cost")
    if alternate is not None and alternate not in ALTERNATE_COSTS:
        raise UnsupportedCardText(name, f"alternate cost {alternate!r} (known: {', '.join(ALTERNATE_COSTS)})")
    reward = None
    if "reward" in raw:
        # 307.1, CR7.4 702.1: only a quest has a reward power; its cost is what completing it takes.
        if kind != "quest":
            raise UnsupportedCardText(name, "only a quest has a reward power (307.1)")
        reward = _power(name, raw["reward"], "reward")
        if reward.when is not None:
            raise UnsupportedCardText(name, "a reward power is not triggered")
    if kind in CHARACTER_TYPES and raw.get("health") is None:
        raise UnsupportedCardText(name, "a character needs health (301.1, 302.1)")
    if kind == "weapon" and (raw.get("atk") is None or raw.get("strike_cost") is None):
        raise UnsupportedCardText(name, "a weapon needs ATK and a strike cost (303.1)")
    if kind == "armor" and raw.get("defense") is None:
        raise UnsupportedCardText(name, "armor needs DEF (304.1)")
    if kind == "ability" and TOTEM in raw.get("subtypes", []):
        # 306.3a: a totem has total health and no ATK; it stays in play, so it is ongoing.
        if raw.get("health") is None or raw.get("atk") is not None or not raw.get("ongoing"):
            raise UnsupportedCardText(name, "a totem is an ongoing ability with health and no ATK (306.3a)")
    return Card(
        name=name,
        type=kind,
        text=str(raw.get("text", "")),
        source=str(raw.get("source", "")),
        cost=int(raw.get("cost", 0)),
        x_cost=bool(raw.get("x_cost", False)),
        traits=frozenset(raw.get("traits", [])),
        subtypes=tuple(raw.get("subtypes", [])),
        tags=tuple(raw.get("tags", [])),
        instant=bool(raw.get("instant", False)),
        ongoing=bool(raw.get("ongoing", False)),
        atk=raw.get("atk"),
        damage_type=raw.get("damage_type"),
        health=raw.get("health"),
        defense=raw.get("defense"),
        strike_cost=raw.get("strike_cost"),
        keywords=frozenset(raw.get("keywords", [])),
        scripted_only=bool(raw.get("scripted_only", False)),
        talent=raw.get("talent"),
        hero_required=raw.get("hero_required"),
        reputation=raw.get("reputation"),
        attach=raw.get("attach"),
        effect=effect,
        continuous=tuple(continuous),
        triggers=triggers,
        payments=payments,
        alternate_cost=alternate,
        reward=reward,
    )


@dataclass
class Pool:
    """The cards by name."""

    cards: dict[str, Card] = field(default_factory=dict)
    # Each hero's cards a deck may hold (`deck.legal_cards`), found once: a
    # pool never changes once loaded, and a random deck is built per game.
    legal_for_hero: dict[str, tuple[Card, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __getitem__(self, name: str) -> Card:
        try:
            return self.cards[name]
        except KeyError:
            raise KeyError(f"unknown card {name!r}: not in the pool") from None

    def __contains__(self, name: str) -> bool:
        return name in self.cards

    def __iter__(self):
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    @cached_property
    def tokens(self) -> dict[str, Card]:
        """403.2: the token cards the pool's powers create, by name."""
        out = {}
        for card in self.cards.values():
            for power in (card.effect, *card.triggers, *card.payments):
                for step in power.steps if power else ():
                    if step.op == "create_token":
                        out.setdefault(step.arg("name"), token_card(step))
        return out


#: The token cards made so far, by the id of what they were made from (a
#: step or a card) with that object, which keeps the id from being reused:
#: a card is an immutable definition, so every token of one step, or every
#: token copy of one card, shares one (`token_card`, `token_copy`).
_TOKEN_CARDS: dict[int, tuple[Any, Card]] = {}


def token_card(step: Step) -> Card:
    """403.2: a token ally with the stats a create_token step gives; cost 0;
    its label is its name; melee unless said otherwise."""
    made = _TOKEN_CARDS.get(id(step))
    if made is None or made[0] is not step:
        made = _TOKEN_CARDS[id(step)] = (step, Card(
            name=step.arg("name"), type="ally", text="token", source="403.2",
            atk=step.arg("atk", 0), damage_type=step.arg("type", "melee"), health=step.arg("health", 1),
            subtypes=tuple(step.arg("subtypes", ())),
        ))
    return made[1]


def token_copy(card: Card) -> Card:
    """403.2: a token copy of a card (Highborne Soul Mirror): the card's
    printed facts but a cost of 0, as every token's (CR7.4 402.4)."""
    made = _TOKEN_CARDS.get(id(card))
    if made is None or made[0] is not card:
        made = _TOKEN_CARDS[id(card)] = (card, replace(card, cost=0))
    return made[1]


@cache
def default_pool() -> Pool:
    """The engine's own pool (cards.yaml), read once per process: games and
    arranged states made without a pool share it (its cards are immutable)."""
    return load_pool()


def load_pool(path: Path | str = POOL_FILE) -> Pool:
    """Read a pool file. Malformed YAML or a non-list is `CardFileError` with
    file and line; a card the engine can't play is `UnsupportedCardText`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardFileError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        nodes = yaml.compose(text)
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise CardFileError(f"{path}{line}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(raw, list):
        raise CardFileError(f"{path}:1: a pool is a list of cards")
    pool = Pool()
    for i, entry in enumerate(raw):
        line = nodes.value[i].start_mark.line + 1
        if not isinstance(entry, dict):
            raise CardFileError(f"{path}:{line}: a card is a mapping, got {entry!r}")
        try:
            card = card_from_dict(entry)
        except UnsupportedCardText as exc:
            raise UnsupportedCardText(exc.card, exc.part, f"{path.name}:{line}") from None
        if card.name in pool.cards:
            raise CardFileError(f"{path}:{line}: card {card.name!r} appears twice")
        pool.cards[card.name] = card
    return pool
