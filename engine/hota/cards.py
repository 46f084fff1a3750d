"""The card pool: cards as data, read from `cards.yaml`.

An entity card has exactly one ability, named by a key of ABILITIES; the key
fixes whether the ability is activated, static or triggered, what it targets
and whether it is optional. The engine plays abilities by key, never by card
name. A deck card has no text; `basic` marks a basic attribute card (100.2a).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from .objects import CardPoolError, UnknownCard

POOL_FILE = Path(__file__).with_name("cards.yaml")
KINDS = ("entity", "deck")
CARD_KEYS = ("name", "kind", "ability", "basic", "attributes", "requires", "effect", "text", "rules")
#: 105.1: the three attributes, in the order a player's values are listed.
ATTRIBUTES = ("strength", "agility", "intelligence")
#: What a deck card that is a spell does when played (assumed:play-from-hand).
EFFECTS = ("draw_a_card", "gain_chosen_attribute", "council", "give_control")
#: Effects that ask the player to choose an attribute as the card is played (105.3).
CHOOSE_ATTRIBUTE = ("gain_chosen_attribute",)
#: Effects that target an opponent and an entity the player controls (Gift of Fealty).
GIVE_CONTROL = ("give_control",)


@dataclass(frozen=True)
class AbilityKind:
    timing: str  # activated | static | triggered
    target: str | None = None  # player | any_token | own_token | other_entity | opponent_entity (activated only)
    event: str | None = None  # token_leaves | token_enters (triggered only)
    optional: bool = False


ABILITIES: dict[str, AbilityKind] = {
    # activated (assumed:once-per-turn, assumed:no-costs, assumed:resolve-at-once)
    "damage_player": AbilityKind("activated", "player"),  # 104.3b
    "target_draws_three": AbilityKind("activated", "player"),  # 104.3c
    "create_spirit": AbilityKind("activated"),  # 109.2a, 109.5a, 109.5c
    "return_token": AbilityKind("activated", "any_token"),  # 109.5f
    "flicker_own_token": AbilityKind("activated", "own_token"),  # 109.5g
    "silence_other": AbilityKind("activated", "other_entity"),  # 101.2a
    "win": AbilityKind("activated"),  # 104.2b
    "target_loses": AbilityKind("activated", "player"),  # 104.3d
    "draw_game": AbilityKind("activated"),  # 104.4c
    "win_and_target_loses": AbilityKind("activated", "player"),  # 104.2b, 104.3d, 104.3e
    "council": AbilityKind("activated"),  # 101.4
    "gain_control": AbilityKind("activated", "opponent_entity"),  # 107.2, 108.4, 109.2
    # static (101.1, 101.2)
    "cant_lose": AbilityKind("static"),
    "opponents_cant_win": AbilityKind("static"),
    "spirits_cant_enter": AbilityKind("static"),  # 109.5d
    "adds_intelligence": AbilityKind("static"),  # 106.2, 106.2a
    # triggered (assumed:trigger-order)
    "echo_spirit": AbilityKind("triggered", event="token_leaves"),
    "echo_spirit_optional": AbilityKind("triggered", event="token_leaves", optional=True),
    "destroy_entering_token": AbilityKind("triggered", event="token_enters"),
}

#: A table may hold cards with one of these abilities, not both.
EXCLUSIVE = ("echo_spirit", "echo_spirit_optional")


@dataclass(frozen=True)
class Card:
    name: str
    kind: str
    ability: str | None = None
    basic: bool = False
    attributes: tuple[str, ...] = ()  # 105.2: none, one or more
    requires: tuple[tuple[str, int], ...] = ()  # 106.3: (attribute, value) pairs
    effect: str | None = None  # a spell's effect (EFFECTS)
    text: str = ""
    rules: tuple[str, ...] = ()

    @property
    def timing(self) -> str | None:
        return ABILITIES[self.ability].timing if self.ability else None

    @property
    def playable(self) -> bool:
        """A card a player may play from hand (assumed:play-from-hand): a basic
        attribute card (106.1) or a spell; other deck cards have no text to play."""
        return self.basic or self.effect is not None


class Pool(dict):
    """Cards by name, in file order. `card(name)` raises UnknownCard (a
    CardPoolError naming the file and the card) for a name it lacks."""

    path: str = str(POOL_FILE)

    def __iter__(self):
        return iter(self.values())

    def card(self, name: str, field_name: str = "card") -> Card:
        if not isinstance(name, str) or name not in self:
            raise UnknownCard(self.path, name, field_name)
        return self[name]

    def entities(self) -> list[Card]:
        return [c for c in self if c.kind == "entity"]

    def deck_cards(self) -> list[Card]:
        return [c for c in self if c.kind == "deck"]


_LOADED: dict[tuple[str, int], Pool] = {}


def load_pool(path: Path | str = POOL_FILE) -> Pool:
    """Read and check a pool file. Any problem is one CardPoolError naming the
    file and, when it is about one card, the card. A file read before (and not
    changed since) gives the same Pool again: treat it as read-only."""
    path = Path(path)
    try:
        key = (str(path.resolve()), path.stat().st_mtime_ns)
    except OSError:
        key = None
    if key in _LOADED:
        return _LOADED[key]
    pool = _read_pool(path)
    if key is not None:
        _LOADED[key] = pool
    return pool


def _read_pool(path: Path) -> Pool:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CardPoolError(f"{path}: cannot be read as YAML ({type(exc).__name__})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise CardPoolError(f"{path}: a pool is a mapping with a 'cards' list")
    pool = Pool()
    pool.path = str(path)
    for n, entry in enumerate(raw["cards"], 1):
        if not isinstance(entry, dict):
            raise CardPoolError(f"{path}: card #{n} is not a mapping of {', '.join(CARD_KEYS)}")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CardPoolError(f"{path}: card #{n} has no name")
        where = f"{path}: card {name!r}"
        unknown = sorted(set(entry) - set(CARD_KEYS))
        if unknown:
            raise CardPoolError(f"{where}: unknown key {unknown[0]!r}; card keys: {', '.join(CARD_KEYS)}")
        if name in pool:
            raise CardPoolError(f"{where}: appears twice")
        kind = entry.get("kind")
        if kind not in KINDS:
            raise CardPoolError(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        ability = entry.get("ability")
        if kind == "entity" and ability not in ABILITIES:
            raise CardPoolError(f"{where}: unknown ability {ability!r}; abilities: {', '.join(ABILITIES)}")
        if kind == "deck" and ability is not None:
            raise CardPoolError(f"{where}: a deck card has no ability, got {ability!r}")
        basic = entry.get("basic", False)
        if not isinstance(basic, bool) or (basic and kind != "deck"):
            raise CardPoolError(f"{where}: 'basic' is true or false, and only deck cards are basic")
        rules = entry.get("rules", [])
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            raise CardPoolError(f"{where}: 'rules' is a list of rule ids")
        attributes, requires, effect = _attributes(entry, where, kind, basic)
        pool[name] = Card(name, kind, ability, basic, attributes, requires, effect,
                          str(entry.get("text", "")).strip(), tuple(rules))
    return pool


def _attributes(entry: dict, where: str, kind: str, basic: bool) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...], str | None]:
    """105.2: a card's attributes, any of the three, each once; 106.1: a basic
    attribute card has exactly one, the one whose point it gives; 106.3-106.4:
    requirements, a positive value per attribute, on any deck card, with an
    attribute or without; a spell's effect, on a deck card that is not basic."""
    attributes = entry.get("attributes", [])
    if not isinstance(attributes, list) or any(a not in ATTRIBUTES for a in attributes) \
            or len(set(attributes)) != len(attributes):
        raise CardPoolError(f"{where}: 'attributes' is a list of distinct attributes from {', '.join(ATTRIBUTES)}")
    if basic and len(attributes) != 1:
        raise CardPoolError(f"{where}: a basic attribute card has exactly one attribute (106.1), got {attributes!r}")
    requires = entry.get("requires", {})
    if not isinstance(requires, dict) or any(a not in ATTRIBUTES for a in requires) \
            or any(not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in requires.values()):
        raise CardPoolError(f"{where}: 'requires' maps attributes ({', '.join(ATTRIBUTES)}) to values of 1 or more")
    effect = entry.get("effect")
    if effect is not None and (effect not in EFFECTS or kind != "deck" or basic):
        raise CardPoolError(f"{where}: 'effect' is one of {', '.join(EFFECTS)}, on a deck card that is not basic")
    if requires and kind != "deck":
        raise CardPoolError(f"{where}: only deck cards are played, so only they have requirements")
    ordered = tuple((a, requires[a]) for a in ATTRIBUTES if a in requires)
    return tuple(a for a in ATTRIBUTES if a in attributes), ordered, effect
