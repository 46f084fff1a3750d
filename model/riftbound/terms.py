"""Riftbound's terms for ``chainproof lint``'s term-clash check
(``chainproof/text_lint.py``): each game term of the combat rules (``003``)
with the English name the model and engine use (``model/riftbound``,
``engine/riftbound``) and every word the text writes it with.

003 has no English side and no term list, so the check is within the text:
a term written two ways is a finding unless ``synonyms`` says why the words
mean one thing, and a word two terms share is one unless ``SHARED`` says why
the text still tells them apart.  ``tests/test_term_clash_games.py`` holds
each word here to the text.
"""

from __future__ import annotations

from typing import Mapping

from model.term_concordance import Term

#: The text the table covers.
TEXT = "003"


def _t(name: str, kind: str, *words: str, synonyms: str | None = None) -> Term:
    return Term(name, kind, "", {TEXT: words}, {TEXT: synonyms} if synonyms else {})


#: The terms, by kind.  A term whose words hold another's (战斗伤害步骤,
#: 战斗伤害) is read as the longer, so each compound is a term of its own.
TERMS: tuple[Term, ...] = (
    # Places.
    _t("Battlefield", "place", "战场"),
    _t("Base", "place", "基地"),
    # Roles (line 27-31: a player's and a unit's role alike).
    _t("Attacker", "role", "进攻方"),
    _t("Defender", "role", "防守方"),
    _t("Controller", "role", "控制者"),
    _t("Turn player", "role", "回合玩家"),
    # Parts of a combat.
    _t("Combat", "combat", "战斗"),
    _t("Showdown", "combat", "法术对决"),
    _t("Showdown step", "combat", "法术对决步骤"),
    _t("Combat damage step", "combat", "战斗伤害步骤"),
    _t("Resolution step", "combat", "结算步骤"),
    _t("Cleanup", "combat", "清理", "清理阶段",
       synonyms="lines 30-31 give a unit its role in the 清理阶段 after the action that brought it, the cleanup line 7 runs after every move; "
                "003 has no phase of that name"),
    _t("Combat cleanup", "combat", "战斗清理"),
    # States.
    _t("Pending", "state", "待发生"),
    _t("Contested", "state", "争夺状态"),
    _t("Open", "state", "开环"),
    # Line 41 deals damage when the showdown 关闭; line 34 calls the showdown 闭环 once its initial chain is made.
    _t("Closed", "state", "闭环", "关闭"),
    _t("Stunned", "state", "眩晕"),
    # The chain and its timing.
    _t("Chain", "chain", "结算链"),
    _t("Focus", "chain", "焦点"),
    _t("Triggered ability", "chain", "触发式技能"),
    # Damage (line 47 says assigning is not dealing).
    _t("Might", "damage", "战力"),
    _t("Assign", "damage", "分配"),
    _t("Deal", "damage", "造成"),
    _t("Lethal damage", "damage", "致命伤害"),
    _t("Destroy", "damage", "摧毁"),
    _t("Tank", "keyword", "[壁垒]技能", "壁垒技能", "壁垒属性", "壁垒",
       synonyms="each example quotes the same reminder text for it (lines 53, 63, 71): the first damage in combat; "
                "技能 (ability) and 属性 (property) are two words for what a unit has"),
    # After combat.
    _t("Remain", "after", "留存", "存留",
       synonyms="the same two characters in either order, each said of units left on the battlefield (lines 43-44)"),
    _t("Recall", "after", "召回"),
    _t("Conquer", "after", "征服"),
    _t("Score", "after", "得分"),
)

#: Words two terms share, with why the text still tells them apart.
SHARED: Mapping[tuple[str, str], str] = {}
