"""The unit pool: cards as data, read from `cards.yaml`.

A card is a unit with a printed might and keywords. The keywords are the
ones the combat damage rules talk about (damage.requirements: Tank first,
Caitlyn last; damage.undamageable: a unit that cannot be damaged;
qa.both-survive: a unit that cannot be destroyed, which no card of the pool
has but a setup may grant) plus the
rallying cry of assumed:rallying-cry, whose trigger fills the initial chain
(showdown.initial-chain). Kayn's conditional immunity is an ability, and so
are Snare Warden's stun, Spark Sapper's 1 damage and Grave Reaper's destroy
of the enemy units 'here'
when they are played (assumed:here-trigger, combat.multiplayer.here-is-base),
and Distant Drummer's trigger when a showdown it is not in begins
(assumed:afar-trigger), a trigger of a player outside the combat.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

POOL_FILE = Path(__file__).with_name("cards.yaml")

KEYWORDS = ("tank", "last", "immune", "rallying", "indestructible")
ABILITIES = ("immune_if_moved_twice", "stun_enemies_here_when_played", "damage_enemies_here_when_played",
             "destroy_enemies_here_when_played", "rallies_from_afar")
MIGHT_RANGE = range(0, 7)
CARD_FIELDS = ("name", "might", "keywords", "ability", "text", "source")


class CardFileError(Exception):
    """The card file is malformed: the message names the file, the line and the field."""


@dataclass(frozen=True)
class Card:
    name: str
    might: int
    keywords: frozenset[str] = frozenset()
    ability: str | None = None
    text: str = ""
    source: str = ""


class Pool(dict):
    """Cards by name, in file order."""

    def __iter__(self):
        return iter(self.values())

    def names(self) -> list[str]:
        return list(self.keys())


def load_pool(path: Path | str = POOL_FILE) -> Pool:
    path = Path(path)
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise CardFileError(f"{path}:{mark.line + 1 if mark else '?'}: not valid YAML") from None
    if not isinstance(root, yaml.MappingNode):
        raise CardFileError(f"{path}:1: the pool is a mapping with a 'cards' list")
    entries = dict((k.value, v) for k, v in root.value).get("cards")
    if not isinstance(entries, yaml.SequenceNode):
        raise CardFileError(f"{path}:1: the pool needs a 'cards' list")
    pool = Pool()
    for node in entries.value:
        line = node.start_mark.line + 1
        raw = _construct(node)
        where = f"{path}:{line}"
        if not isinstance(raw, dict):
            raise CardFileError(f"{where}: a card is a mapping of {', '.join(CARD_FIELDS)}")
        unknown = set(raw) - set(CARD_FIELDS)
        if unknown:
            raise CardFileError(f"{where}: unknown field {sorted(unknown)[0]!r}; card fields: {', '.join(CARD_FIELDS)}")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CardFileError(f"{where}: a card needs a 'name'")
        if name in pool:
            raise CardFileError(f"{where}: card {name!r} appears twice")
        might = raw.get("might")
        if not isinstance(might, int) or isinstance(might, bool) or might not in MIGHT_RANGE:
            raise CardFileError(f"{where}: card {name!r}: 'might' must be a whole number from 0 to 6, got {might!r}")
        keywords = raw.get("keywords") or []
        if not isinstance(keywords, list) or any(k not in KEYWORDS for k in keywords):
            raise CardFileError(f"{where}: card {name!r}: 'keywords' must be a list of {', '.join(KEYWORDS)}, got {keywords!r}")
        ability = raw.get("ability")
        if ability is not None and ability not in ABILITIES:
            raise CardFileError(f"{where}: card {name!r}: unknown ability {ability!r}; abilities: {', '.join(ABILITIES)}")
        pool[name] = Card(name, might, frozenset(keywords), ability, str(raw.get("text", "")), str(raw.get("source", "")))
    return pool


def _construct(node: yaml.Node):
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()
