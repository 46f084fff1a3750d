"""Where one version of a rulebook put each section that an older one numbers
differently: the concordance ``chainproof lint`` aligns two versions by
(``chainproof/text_lint.py``, the version-clash check).

The seeds number WoW's comprehensive rules as the translation (``000``) does,
and the combat text (``002``) follows the same numbering.  CR7.4 inserted
copying (402), moved ready and exhausted from 105 to 411, merged the seed's
armor (304) and items (305) into one equipment section, and renumbered what
follows each change.
Each entry pairs a seed section with the CR7.4 section that holds its rules,
judged by the two sections' titles, which stand beside it so that a reader can
check the pairing (``tests/test_text_lint.py`` holds each title to its text:
the seed's from its heading, or from its table of contents for a section the
translation lists and leaves out).  Inside a paired section, rules are paired
by number (the seed's 409.6 is CR7.4's 410.6), except where CR7.4 numbered a
rule otherwise inside its section: each such move is declared (``Move``, read
in both texts), as is each rule of one version that the other lacks, so that
lint compares a rule with itself and never with its neighbour.  A pair that
still shares no number and no citation is either declared the same rule
rewritten (``Kept``) or named by lint as a place where the concordance may
be wrong.

Left out: the seed's 800 (附加术语, "additional terms") and 803 (附件,
"attachments"), whose titles name none of CR7.4's 800 (card-specific rules)
or 801 (additional documents) plainly enough to pair them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Mapping


@dataclass(frozen=True)
class Entry:
    older: str
    older_title: str
    later: str
    later_title: str


@dataclass(frozen=True)
class Move:
    """An older rule that the later version numbers otherwise than its
    section's entry implies; its sub-rules move with it, letter for letter,
    unless a move of their own is declared.  ``later`` is None where the
    later version has no counterpart."""

    older: str
    later: str | None
    #: What the rule says, in a few words, so that a reader can check the move.
    subject: str


@dataclass(frozen=True)
class Added:
    """A later rule that no older rule is: it stands at a number an older rule
    moved away from, so that only the moves say it has no counterpart."""

    later: str
    subject: str


@dataclass(frozen=True)
class Kept:
    """A pair that states numbers or citations in both versions and shares
    none of them, and which, read in both texts, is still one rule."""

    older: str
    subject: str


@dataclass(frozen=True)
class Concordance:
    #: The texts numbered the older way, and the later version.
    older: tuple[str, ...]
    later: str
    entries: tuple[Entry, ...]
    moves: tuple[Move, ...] = ()
    added: tuple[Added, ...] = ()
    kept: tuple[Kept, ...] = ()

    @cached_property
    def sections(self) -> Mapping[str, str]:
        """Each older section's number in the later version."""
        return {e.older: e.later for e in self.entries}

    @cached_property
    def moved(self) -> Mapping[str, str | None]:
        """Each moved older rule's later number (None: no counterpart)."""
        return {m.older: m.later for m in self.moves}

    def rule(self, number: str) -> str | None:
        """The later version's number for the older ``number``: its own move,
        else the move of the rule it is a sub-rule of (413.4a goes where 413.4
        goes), else its section's entry with the same sub-rule number; a
        section with no entry keeps its own.  None: the later version has no
        counterpart."""
        if number in self.moved:
            return self.moved[number]
        above = number.rstrip("abcdefghijklmnopqrstuvwxyz")
        if above != number and above in self.moved:
            later = self.moved[above]
            return None if later is None else later + number[len(above):]
        section, dot, rest = number.partition(".")
        return self.sections.get(section, section) + dot + rest


def _entries(*rows: tuple[str, str, str, str]) -> tuple[Entry, ...]:
    return tuple(Entry(*row) for row in rows)


#: Rules CR7.4 numbers otherwise inside a paired section, each read in the
#: seed (000, whose numbering 002 shares) and in CR7.4.
_SEED_MOVES = (
    # CR7.4 inserts talent specs as 100.2c.
    Move("100.2c", "100.2d", "a reputation's bold words limit which cards share a deck"),
    # CR7.4 gathers what changes a card's type under 300.1.
    Move("300.2", "300.1b", "a modifier that adds a card type takes none away"),
    # CR7.4 inserts heroes' control time (301.3) and master heroes (301.4).
    Move("301.3", "301.5", "a hero removed from the game for a while: no cards played meanwhile"),
    # CR7.4 makes the seed's two sub-rules on attach descriptions rules of
    # their own (400.2-3) and inserts 400.4, so the seed's 400.2-4 move by three.
    Move("400.1a", "400.2", "a targeted attach description"),
    Move("400.1b", "400.3", "an attach description that does not target"),
    Move("400.2", "400.5", "an attachment lies under its one host"),
    # The seed's host leaving play and the PPP check: CR7.4 keeps the check
    # here, and the host leaving play as 400.5's last sentence.
    Move("400.3", "400.6", "each attachment checks its host as part of PPP"),
    Move("400.4", "400.7", "moving attachments"),
    # CR7.4 folds who controls a moved attachment into 400.7b.
    Move("400.4d", "400.7b", "a moved attachment's controller"),
    # CR7.4 inserts counters removed as a cost (403.4) and destroying a friendly character (403.5).
    Move("402.4", "403.6", "resource costs"),
    # CR7.4 lists the wield variants (406.1) and adds sextuple (406.3) and infinite wield.
    Move("405.1", "406.2", "dual wield: two one-handed melee weapons without a uniqueness violation"),
    Move("405.2", "406.4", "ranged dual wield: two ranged weapons"),
    Move("405.3", "406.6", "striking with two weapons per combat"),
    # CR7.4 strikes as a wielder becomes an attacker or defender (303.2,
    # 602.3), with no priority: the seed's defend-window option has no place in its list.
    Move("409.2a", None, "striking with a weapon while the defend window is open"),
    Move("409.2b", "410.2a", "what a player may also do in his non-combat action phase"),
    # CR7.4 merges the two character destructions into one check, 410.6a.
    Move("409.6a", "410.6a", "characters with 0 health are destroyed"),
    Move("409.6b", "410.6a", "characters with fatal damage are destroyed"),
    Move("409.6c", "410.6b", "a player who must draw from too small a deck loses"),
    Move("409.6d", "410.6c", "attachments check their hosts"),
    Move("409.6e", "410.6d", "tokens outside play cease to exist"),
    Move("409.6f", "410.6e", "damage on non-characters is removed"),
    # CR7.4 drops the seed's reading of a "[description]"; from the deck zone
    # on, each zone is one number lower.  The seed's text stops at 413.9a,
    # but 403.1b cites 413.10 for a card changing zones: CR7.4's 415.9.
    Move("413.3", None, 'a "[description]" means a face-up card in play'),
    Move("413.4", "415.3", "deck zone"),
    Move("413.5", "415.4", "hand zone"),
    Move("413.6", "415.5", "graveyard zone"),
    Move("413.7", "415.6", "chain zone"),
    Move("413.8", "415.7", "removed-from-game zone"),
    Move("413.9", "415.8", "play zone"),
    Move("413.10", "415.9", "changing zones"),
    # CR7.4 lists the ready step's actions and its priority window in 501.1a
    # and gives inspire a rule of its own, 501.1b.
    Move("501.1b", "501.1a", "the ready step's priority window"),
    # The seed's strike in the defend window, as in 409.2a: CR7.4 strikes as
    # the defender is declared (a sentence of 602.3); the rules after it move up.
    Move("602.3a", None, "striking with a weapon only while the defend window is open"),
    Move("602.3b", "602.3a", 'a character that "becomes a defender" in combat'),
    Move("602.3c", "602.3b", "what being in combat means"),
    # CR7.4 inserts the pre-priority checks of combat conclusion as 603.2.
    Move("603.2", "603.3", "the last part of combat conclusion: out of combat, then a priority window"),
)

#: CR7.4 rules at numbers a seed rule moved away from, which no seed rule is.
_CR74_ADDED = (
    Added("100.2c", "talent specs limit which cards a deck may include"),
    Added("301.3", "a hero may attack or use its exhaust powers however long it has been controlled"),
    Added("400.4", 'an attachment that puts "[something] into play" attaches to it'),
    Added("403.4", "removing all counters of a type as a cost"),
    Added("406.1", "the variants of wielding"),
    Added("406.3", "sextuple wield"),
    Added("410.6f", "counters on face-down resources are removed"),
    Added("501.1b", "inspire, which the seed states within 501.1a"),
    Added("603.2", "the pre-priority checks of combat conclusion"),
)

#: Pairs that share no number or citation and are, read in both texts, one rule.
_SEED_KEPT = (
    Kept("103.3", "what the game does can't be stopped: the seed names uniqueness and the chain's rules, CR7.4 says \"by the game\""),
    Kept("303.2a", "a strike: the seed's goes on the chain, CR7.4's does not and ties the weapon to its wielder"),
    Kept("412.3d", "dual wield's uniqueness: CR7.4's reference to it is lost"),
)

#: The seed's numbering (000, and 002's English) to CR7.4's.
SEED_TO_CR74 = Concordance(("000", "002en"), "CR7.4", _entries(
    ("100", "组建套牌", "100", "Building a deck"),
    ("101", "开始游戏", "101", "Starting a game"),
    ("102", "输赢", "102", "Winning and losing"),
    ("103", "抵触", "103", "Contradictions"),
    ("104", "数值", "104", "Numeric values"),
    # Readying and exhausting moved from the basic principles to the game concepts.
    ("105", "重置与横置", "411", "Ready and exhausted"),
    ("200", "牌名", "200", "Name"),
    ("201", "费用", "201", "Cost"),
    ("202", "类别栏", "202", "Type line"),
    ("203", "规则栏", "203", "Text box"),
    ("204", "收集编号", "204", "Collector number"),
    ("205", "攻击力和伤害类别", "205", "ATK and damage type"),
    ("206", "特性", "206", "Traits"),
    ("300", "综述", "300", "Overview"),
    ("301", "英雄", "301", "Heroes"),
    ("302", "盟军", "302", "Allies"),
    ("303", "武器", "303", "Equipment (Weapons)"),
    ("304", "防具", "304", "Equipment (Armor and Items)"),
    ("305", "物品", "304", "Equipment (Armor and Items)"),
    ("306", "技能", "305", "Abilities"),
    ("307", "任务", "306", "Quests and Locations"),
    ("400", "附结物", "400", "Attachments"),
    ("401", "操控权与所有权", "401", "Control and ownership"),
    # CR7.4 inserts copying as 402.
    ("402", "费用", "403", "Costs"),
    ("403", "指示物与衍生物", "404", "Counters and tokens"),
    ("404", "伤害", "405", "Damage"),
    ("405", "双持", "406", "Wielding"),
    ("406", "治愈", "407", "Healing"),
    ("407", "囊包", "408", "Packets"),
    ("408", "使用牌", "409", "Playing cards"),
    ("409", "优先权", "410", "Priority"),
    ("410", "资源", "412", "Resources"),
    ("411", "搜寻", "413", "Searching"),
    ("412", "唯一性", "414", "Uniqueness"),
    ("413", "区域", "415", "Zones"),
    ("500", "综述", "500", "Overview"),
    ("501", "开始阶段", "501", "Start phase"),
    ("502", "行动阶段", "502", "Action phase"),
    ("503", "结束阶段", "503", "End phase"),
    ("600", "综述", "600", "Overview"),
    ("601", "战斗提议", "601", "Combat proposal"),
    ("602", "战斗步骤", "602", "Combat step"),
    ("603", "战斗终结", "603", "Combat conclusion"),
    ("700", "能力", "700", "Powers"),
    ("701", "支付式能力", "701", "Payment powers"),
    ("702", "奖励式能力", "702", "Reward powers"),
    ("703", "触发式能力", "703", "Triggered powers"),
    ("704", "持续式能力", "704", "Continuous powers"),
    ("705", "连结", "705", "Links"),
    ("706", "目标", "706", "Targets"),
    ("707", "添加连结", "707", "Adding links"),
    ("708", "触发式效果", "708", "Triggered effects"),
    ("709", "结算连结", "709", "Resolving links"),
    ("710", "进场", "710", "Entering play"),
    ("711", "中断技能", "711", "Interrupting links"),
    ("712", "更动", "712", "Modifiers"),
    ("713", "一次性更动", "713", "One-shot modifiers"),
    ("714", "持续性更动", "714", "Continuous modifiers"),
    ("715", "触发式更动", "715", "Triggered modifiers"),
    ("716", "替代性更动", "716", "Replacement modifiers"),
    ("717", "替代和防止伤害", "717", "Replacing and preventing damage"),
    ("718", "更动的互动", "718", "Modifier interaction"),
    ("719", "更动的从属性", "719", "Modifier dependency"),
    # CR7.4 moved loops to the end of the chapter.
    ("801", "死循环", "803", "Loops"),
    ("802", "同时发生", "802", "Simultaneity"),
), _SEED_MOVES, _CR74_ADDED, _SEED_KEPT)

#: Every concordance lint aligns versions by.
CONCORDANCES: tuple[Concordance, ...] = (SEED_TO_CR74,)
