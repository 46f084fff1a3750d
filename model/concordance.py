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
by number (the seed's 409.6 is CR7.4's 410.6); where a version numbers its
sub-rules differently, the pairs share nothing, and lint counts them.

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
class Concordance:
    #: The texts numbered the older way, and the later version.
    older: tuple[str, ...]
    later: str
    entries: tuple[Entry, ...]

    @cached_property
    def sections(self) -> Mapping[str, str]:
        """Each older section's number in the later version."""
        return {e.older: e.later for e in self.entries}

    def rule(self, number: str) -> str:
        """The later version's number for the older ``number`` (a section's
        own sub-rules keep their numbers); a section with no entry keeps its own."""
        section, dot, rest = number.partition(".")
        return self.sections.get(section, section) + dot + rest


def _entries(*rows: tuple[str, str, str, str]) -> tuple[Entry, ...]:
    return tuple(Entry(*row) for row in rows)


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
))

#: Every concordance lint aligns versions by.
CONCORDANCES: tuple[Concordance, ...] = (SEED_TO_CR74,)
