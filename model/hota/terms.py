"""Heroes of Ancients' terms for ``chainproof lint``'s term-clash check
(``chainproof/text_lint.py``): what needs judgment beside the term list the
seed (``004``) opens with.

The seed declares its own vocabulary: a Chinese-English list (中英文对应)
before rule 100.  Lint reads that list from the file and holds the rules
(100-109) to it; this module declares only what the list cannot say by
itself: an entry that pairs two terms at once, the other words the rules
write a listed term with (each with why it is read as that term), the terms
the rules use that the list lacks, and the Chinese the list gives two terms
with why the rules still tell them apart.  A listed term the rules write in
other words is a finding unless ``SYNONYMS`` says why the words mean one
thing.  ``tests/test_term_clash_games.py`` holds each word here to the text.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from model.term_concordance import Term

#: The text the list and the rules are in.
TEXT = "004"

#: A list entry whose Chinese and English each name two terms, one slash apart.
SPLIT: Mapping[str, tuple[tuple[str, str], ...]] = {
    "Attack/Defense": (("Attack", "攻击力"), ("Defense", "防御力")),
}

#: Other words the rules write a listed term with, by its English, and why each is read as that term.
VARIANTS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "Deck": (
        ("牌库", "101.4a names it a hidden zone beside the hand, 103.4 shuffles the set-aside cards into it and 104.3c draws from it: the zone the list calls 套牌"),
        ("牌组", "100.2a adds basic attribute cards to it after a limited draft, in the passage that sets how many cards a 套牌 holds"),
    ),
    "Battle field": (
        ("阵地", "109.5f makes a token outside it cease to exist, the rule 109.5g's token leaving the 战场 goes on from"),
    ),
    "Life": (
        ("体力", "104.3b counts a player's damage markers against a starting 体力 cap, the figure 103.3 sets as the starting 生命值"),
    ),
    "Creatures": (
        ("单位", "109.4 gives the types of entity as 单位, couriers and weapons, where the list's card types are creatures, couriers and equipment"),
    ),
    "Equipments": (
        ("武器", "109.4 and 109.4b give 武器 as the third type of entity, beside units and couriers, where the list gives 装备"),
        ("战器", "109.4a's entity cards are units, couriers and 战器, the three types 109.4 gives with 武器"),
    ),
    "Defense": (
        ("血量", "108.3 lists 攻击力 and 血量 side by side among an object's characteristics, as the list pairs attack and defense"),
    ),
    "Attributes": (
        ("属性牌", "the card type: 106.1's basic attribute cards, and 109.4's attribute cards that cannot enter the battlefield"),
    ),
}

#: Listed terms whose several words the text shows to be one thing, and why.
SYNONYMS: Mapping[str, str] = {
    "Battle field": "阵地 stands once, in 109.5f, whose token outside it ceases to exist; 109.5g goes on with the token that leaves the 战场, "
                    "and no zone of 004 has the name 阵地 beside it",
    "Attributes": "属性牌 is the listed 属性 with 牌 (card) after it: the rules name the card type so, which also tells it from the attribute",
}

#: Chinese the list gives two English terms, with why the rules' words still tell them apart.
SHARED: Mapping[tuple[str, str], str] = {
    (TEXT, "属性"): "the list gives 属性 to the attribute (its general terms) and to the attribute card type (its card types); "
                  "the rules add 牌 for the card type (106.1, 106.2, 109.4), so 属性 alone is the attribute",
}

#: Terms the rules use that the list lacks, by the English their rules play the part of.
UNLISTED: tuple[Term, ...] = tuple(
    Term(name, "unlisted", "", {TEXT: words})
    for name, words in (
        ("Controller", ("操控者",)),
        ("Owner", ("拥有者",)),
        # 109.5 calls the marker that stands for a permanent 指示物, 109.5a-d and f 衍生物; 108.1 lists 衍生物 among objects.
        ("Token", ("衍生物", "指示物")),
        ("Active player", ("进攻玩家",)),
        ("Nonactive player", ("防御玩家",)),
        ("Starting player", ("先手玩家",)),
        ("Characteristic", ("特征",)),
        # 108.2b: a card on the stack, the part a spell plays in the rules 004 follows.
        ("Played card", ("打出的牌",)),
        ("State-based action", ("状态动作",)),
    )
)

#: How often the rules must use a term the list lacks for lint to report the lack.
HEAVY = 8


def split(chinese: str, english: str) -> tuple[tuple[str, str], ...]:
    """A list entry's terms, as (English, Chinese) pairs: two where ``SPLIT`` says, else the entry itself."""
    return SPLIT.get(english, ((english, chinese),))


def table(listed: Iterable[tuple[str, str, str]]) -> tuple[Term, ...]:
    """The terms lint reads the rules by: each listed (group, English,
    Chinese) term, once however often the list repeats it, with its declared
    variants after its listed words; then ``UNLISTED``."""
    words: dict[str, list[str]] = {}
    kind: dict[str, str] = {}
    for group, name, word in listed:
        kind.setdefault(name, group)
        if word not in words.setdefault(name, []):
            words[name].append(word)
    for name, variants in VARIANTS.items():
        words.setdefault(name, []).extend(w for w, _ in variants)
    listed_terms = tuple(Term(name, kind.get(name, "undeclared"), "", {TEXT: tuple(w)},
                              {TEXT: SYNONYMS[name]} if name in SYNONYMS else {}) for name, w in words.items())
    return listed_terms + UNLISTED
