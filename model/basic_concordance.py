"""Where the comprehensive rules state what a passage of the basic rules
states: the concordance ``chainproof lint`` compares WoW's basic rules by
(``chainproof/text_lint.py``, the basic-clash check).

The basic rules (``001``, an encyclopedia article in Traditional Chinese)
number nothing: a passage is found by its section's heading, one of the
titles the article's contents line lists, and a few of its own words (the
anchor) that occur once in that section.  A line number alone would not
survive an edit of the article; the heading and the anchor do, and lint
reports the line they lead to.

Each entry pairs one such passage with the rule of the seed translation
(``000``) and the rule of CR7.4 that say the same thing, with the titles of
the sections those rules stand in, so that a reader can check the pairing
(``tests/test_basic_clash.py`` holds every heading, anchor, rule and title
to its text).  ``None`` where a text has no such rule: the translation
leaves out the turn's overview (500) and the traits (206), which its
contents list.  Only passages that count something are paired: the
comparison is of the figures both sides state, and what each counts.  A list
of names (the keywords) is paired with the list CR7.4's glossary gives, name
by name (``NamedList``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Passage:
    #: The finding's key: a short name for what the passage says.
    key: str
    #: The basic rules' section, as their contents line lists it, and words of the passage found once in it.
    heading: str
    anchor: str
    #: What the passage says, in a few English words.
    subject: str
    #: The seed's rule and its section's title; CR7.4's rule and its section's title.
    seed: str | None
    seed_title: str
    later: str | None
    later_title: str
    #: What the rules' list counts, where they list the things (their bullets,
    #: or a row of icons' names) that the passage counts.
    listed: str | None = None
    #: Things the passage names in an order that is part of the rule (steps),
    #: each as the basic rules, the seed and CR7.4 write it (None: that text
    #: has no such rule).
    order: tuple[tuple[str, str | None, str | None], ...] = ()


@dataclass(frozen=True)
class NamedList:
    """Things the basic rules name in a list (the heads of a section's
    bullets, "·熊形態:") that the later version lists under an entry of its
    glossary, after a few words that lead the list in; each name with the
    later version's term for it, which must be a term its glossary defines."""

    key: str
    heading: str
    subject: str
    entry: str
    lead: str
    names: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class BasicConcordance:
    #: The unnumbered text, and the numbered versions it is compared with.
    basic: str
    seed: str
    later: str
    passages: tuple[Passage, ...]
    lists: tuple[NamedList, ...] = ()

    def names(self, passage: Passage, source: str) -> list[tuple[str, str | None]]:
        """The things ``passage`` names in order, each with how ``source`` writes it."""
        at = {self.seed: 1, self.later: 2}[source]
        return [(named[0], named[at]) for named in passage.order]

    def rules(self, source: str) -> list[tuple[Passage, str]]:
        """Each passage with its rule in ``source`` (the seed or the later version), where it has one."""
        pick = {self.seed: lambda p: p.seed, self.later: lambda p: p.later}[source]
        return [(p, rule) for p in self.passages if (rule := pick(p)) is not None]


def _passages(*rows: tuple[object, ...]) -> tuple[Passage, ...]:
    """Rows of the fields of ``Passage``, in its order."""
    return tuple(Passage(*row) for row in rows)


#: The basic rules (001) against the seed's comprehensive rules (000) and CR7.4.
BASIC_TO_COMPREHENSIVE = BasicConcordance("001", "000", "CR7.4", _passages(
    ("deck-size", "套牌構築", "至少需要包括60張牌", "a deck holds at least 60 cards, the hero aside",
     "100.1", "组建套牌", "100.1", "Building a deck"),
    ("copies", "套牌構築", "不得超過4張", "at most four copies of a card unless it is unlimited",
     "100.4", "组建套牌", "100.4", "Building a deck"),
    ("side-deck", "套牌構築", "10張主套牌以外的牌", "some events allow a side deck of 10 cards",
     "100.3", "组建套牌", "100.3", "Building a deck"),
    ("sealed-deck", "現開遊戲形式", "每個人將需要6個補充包", "sealed play: six boosters, a deck of at least 30 cards",
     "100.1", "组建套牌", "100.1", "Building a deck"),
    ("draft-deck", "現開遊戲形式", "你需要4-8人", "booster draft: four to eight players, four boosters, a deck of at least 30 cards",
     "100.1", "组建套牌", "100.1", "Building a deck"),
    ("opening-hand", "遊戲設定", "抓取起始的7張牌", "after shuffling, each player draws seven cards",
     "101.1", "开始游戏", "101.1", "Starting a game"),
    ("mulligan", "遊戲設定", "對起始手牌不滿意", "a mulligan: shuffle the hand back and draw seven anew, once a game",
     "101.2", "开始游戏", "101.2", "Starting a game"),
    ("mulligan-term", "主要術語", "再調度:", "the glossary's mulligan: once, at the start, redraw seven",
     "101.2", "开始游戏", "101.2", "Starting a game"),
    ("traits", "特性", "英雄具有5個特性", "the kinds of trait a hero has",
     None, "特性", "206.1", "Traits"),
    ("classes", "特性", "所有9大職業", "the classes heroes belong to",
     None, "特性", "206.1a", "Traits", "classes"),
    ("damage-types", "卡牌類型", "8種傷害符號", "the damage types an ATK's icon shows",
     None, "攻击力和伤害类别", "205.1", "ATK and damage type", "damage types"),
    ("action-phase", "遊戲設定", "以下4種行動", "what a player may do in his action phase, in any order",
     "502.1", "行动阶段", "502.1", "Action phase", "kinds of action"),
    ("one-weapon", "卡牌類型", "只能使用一個武器進行打擊", "a hero strikes with one weapon per combat",
     "303.2c", "武器", "303.2c", "Equipment (Weapons)"),
    ("one-weapon-combat", "基礎戰鬥", "只能使用1個武器進行打擊", "basic combat: one weapon strikes per combat",
     "303.2c", "武器", "303.2c", "Equipment (Weapons)"),
    ("token-cost", "主要術語", "代替物的費用為0", "an ally token costs 0",
     "403.2", "指示物与衍生物", "404.2", "Counters and tokens"),
    ("resources-per-turn", "遊戲設定", "每一回合可以只放置一個資源", "only one resource is placed each turn",
     "410.1", "资源", "412.1", "Resources"),
    ("zones", "遊戲區域", "6個遊戲區域", "the six zones a card can be in",
     "413.1", "区域", "415.1", "Zones"),
    ("turn-phases", "遊戲設定", "分為三個階段", "a turn has three phases",
     None, "综述", "500.1", "Overview"),
    ("start-phase-steps", "遊戲設定", "分為2個步驟", "the start phase has two steps, ready and draw",
     None, "综述", "500.1", "Overview", None, (("重置步驟", None, "ready"), ("抓牌步驟", None, "draw"))),
    ("hand-size", "遊戲設定", "最大值(7張)", "the end step discards down to the maximum hand size of seven",
     "503.2a", "结束阶段", "503.2a", "End phase"),
), (
    # The seed translation has no glossary and leaves out the powers (700s).
    NamedList("keywords", "關鍵文字", "the words the basic rules call keywords", "Keyword", "Current keywords are:", (
        ("熊形態", "Bear Form"), ("隱遁", "Elusive"), ("狂暴", "Ferocity"), ("瞬發", "Instant"),
        # The basic rules' 遠程 keeps defenders from dealing combat damage to the attacker: CR7.4's
        # long-range, which its glossary tells apart from the ranged damage type.
        ("遠程", "Long-Range"), ("持續", "Ongoing"),
    )),
))

#: Every concordance of an unnumbered text that lint compares.
BASIC_CONCORDANCES: tuple[BasicConcordance, ...] = (BASIC_TO_COMPREHENSIVE,)
