"""The WoW game's terms, each with its CR7.4 English name and the Chinese
words each translation renders it with: the declared table ``chainproof
lint`` reads the texts' terms by (``chainproof/text_lint.py``, the
term-clash check).

The WoW rules come in three Chinese renderings of one English vocabulary:
the comprehensive rules' translation (``000``, Simplified), the basic rules
(``001``, Traditional) and the Chinese under each of the combat rules
(``002zh``).  A term a text renders two ways, two terms it renders alike, or
a rule whose English names a term its Chinese does not render, leave a
reader unable to tell whether one thing is meant.  The table says, per
text, every rendering it uses for a term; a second rendering is a finding
unless ``synonyms`` says why the two mean one thing, and a rendering two
terms share is a finding unless ``shared`` says why the words still tell
them apart.  ``tests/test_term_clash.py`` holds each term's name to CR7.4
and each rendering to the text it is declared for.

``english`` is a pattern for the term in an English rule (its inflections
included); ``kind`` groups terms a translation could mistake for each other
(a zone for a zone, a step for a step): lint names a rule whose Chinese
renders another term of the kind in place of the one its English names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Term:
    #: The term as CR7.4 names it (a glossary entry's head, or its rules' words).
    name: str
    kind: str
    english: str
    #: Each Chinese text's renderings of the term.
    renderings: Mapping[str, tuple[str, ...]]
    #: Why a text's several renderings of the term mean one thing, per text.
    synonyms: Mapping[str, str] = field(default_factory=dict)


#: The Chinese texts the table covers.
TEXTS = ("000", "001", "002zh")


def _t(name: str, kind: str, english: str, comprehensive: tuple[str, ...] | str, basic: tuple[str, ...] | str | None,
       combat: tuple[str, ...] | str | None = None, synonyms: Mapping[str, str] | None = None) -> Term:
    """A term whose comprehensive (``000``) and combat (``002zh``) renderings
    are the same unless ``combat`` says otherwise (``()`` where the combat
    rules never name it); ``basic`` is ``001``'s (None where the basic rules
    never name it)."""
    def tup(x: tuple[str, ...] | str) -> tuple[str, ...]:
        return (x,) if isinstance(x, str) else x
    renderings = {"000": tup(comprehensive), "001": tup(basic or ()), "002zh": tup(comprehensive if combat is None else combat)}
    return Term(name, kind, english, {x: r for x, r in renderings.items() if r}, dict(synonyms or {}))


_READY_BOTH = "重置 readies a card (the act) and {} says it is not exhausted (the state); CR7.4 411 names both ready"
_ATTACK_VERBS = "进攻 and 攻击 are two words for to attack; "
_PROPOSED = ("the words for a proposed role come as a noun (被提议{0}, 提议{0}, the passive marker dropped) "
             "or as the verb of a clause (提议为{0}, proposed as {0}), each where the English has the proposed {1}")

#: "proposed attacker", and "proposed as an attacker" (a role, not the proposal).
_PROPOSED_AS = r"\bproposed (?:as (?:an? |the )?)?"
#: "propose an ally as an attacker": the role, with the proposal's object between.
_PROPOSE_AS = r"\bpropos(?:e|es|ed|ing)\s+(?:(?!as\b)[\w’'\[\]-]+\s+){1,4}as\s+(?:an?\s+|the\s+)?"
_NOT_TO_BE_PROPOSED = r"(?!\s+(?:can|may|must)\s+be\s+proposed\b)"
_NOT_PROPOSED = r"(?<!proposed )(?<!proposed as )(?<!proposed as a )(?<!proposed as an )(?<!proposed as the )"

#: The terms, by kind.  English patterns exclude one another where one term's
#: words hold another's ("proposed attacker" is not "attacker"; in "a
#: proposed attacker or defender" the defender is a proposed one too).
TERMS: tuple[Term, ...] = (
    # Keywords (CR7.4's glossary entries).
    _t("Protector", "keyword", r"\bprotect(?:or|ors|s|ed|ing)?\b(?! point)", "护卫", "護衛"),
    _t("Stealth", "keyword", r"\bstealth\b", "潜行", "潛行"),
    _t("Elusive", "keyword", r"\belusive\b", "隐遁", "隱遁"),
    _t("Ferocity", "keyword", r"\bferocity\b", "狂暴", "狂暴"),
    _t("Long-Range", "keyword", r"\blong-range\b", "长程", "遠程"),
    _t("Dual Wield", "keyword", r"(?<!ranged )\bdual wield\b", "双持", None, ()),
    _t("Ranged Dual Wield", "keyword", r"\branged dual wield\b", "远程双持", None, ()),
    _t("Sabotage", "keyword", r"\bsabotag(?:e|es|ed|ing)\b", "破坏", None),
    # A card's state (CR7.4 411).
    _t("Exhaust", "state", r"\bexhaust(?:s|ed|ing)?\b", "横置", "橫置"),
    _t("Ready", "state", r"\bread(?:y|ies|ied|ying)\b(?! step)", ("重置", "未横置"), "重置", ("重置", "未被横置"),
       synonyms={"000": _READY_BOTH.format("未横置"), "002zh": _READY_BOTH.format("未被横置"),
                 "000+002zh": "未被横置 is 未横置 with the passive marker: both say not exhausted"}),
    # Roles in combat and over cards.
    _t("Attacker", "role", _NOT_PROPOSED + r"\battackers?\b", "攻击者", ("進攻者", "攻擊者"), ("攻击者", "进攻者"),
       synonyms={"001": "the glossary's entry 進攻者 (line 281) ends with the same role as 攻擊者, in one sentence",
                 "002zh": _ATTACK_VERBS + "602.2's Chinese (line 85) says 进攻者 and its 602.4 (line 133) 攻击者 for the English attacker"}),
    _t("Defender", "role", _NOT_PROPOSED + r"(?<!proposed attacker or )(?<!proposed attackers or )\bdefenders?\b" + _NOT_TO_BE_PROPOSED, "防御者", "防禦者"),
    _t("Proposed attacker", "role", _PROPOSED_AS + r"attackers?\b|" + _PROPOSE_AS + r"attackers?\b", ("被提议攻击者", "提议攻击者", "提议…为攻击者"),
       "進攻宣告者", ("提议攻击者", "被提议攻击者", "提议进攻者", "提议…为攻击者"),
       synonyms={"000": _PROPOSED.format("攻击者", "attacker"), "002zh": _ATTACK_VERBS + _PROPOSED.format("攻击者", "attacker")}),
    _t("Proposed defender", "role", _PROPOSED_AS + r"defenders?\b|(?<=proposed attacker or )defender\b|(?<=proposed attackers or )defenders\b|" + _PROPOSE_AS + r"defenders?\b|\bdefenders?(?=\s+(?:can|may|must)\s+be\s+proposed\b)",
       ("被提议防御者", "提议…为…防御者"), "防禦宣告者", ("被提议防御者", "提议…为…防御者"),
       synonyms={"000": _PROPOSED.format("防御者", "defender"), "002zh": _PROPOSED.format("防御者", "defender")}),
    _t("Controller", "player", r"\bcontrollers?\b", "操控者", None, ("操控者", "控制者"),
       synonyms={"002zh": "控制 and 操控 are two words for to control, and 控制 is the basic rules' word for it (控制了一個雙手武器)"}),
    _t("Turn player", "side", r"\bturn player(?:’s|'s)?\b", "回合玩家", "回合玩家"),
    _t("Opponent", "side", r"\bopponents?\b", "对手", "對手"),
    _t("Owner", "player", r"\bowners?\b", "拥有者", "擁有者", ()),
    # The chain and priority (CR7.4 410, 415.6, 700s).
    _t("Chain", "chain", r"\bchain\b", "连锁", "鎖鏈"),
    _t("Link", "chain", r"\blinks?\b", "连结", None, ()),
    _t("Priority", "chain", r"\bpriority\b", "优先权", None),
    _t("Target", "chain", r"\btarget(?:s|ed|ing)?\b", "目标", None, ()),
    _t("Resolve", "chain", r"\bresol(?:ve|ves|ved|ving|ution)\b", "结算", "解析"),
    _t("Proposal", "chain", r"\bpropos(?:e|es|ed|ing|al|als)\b(?! (?:as (?:an? |the )?)?(?:attacker|defender))", "提议", "宣告"),
    # Parts of a turn and of a combat (500-503, 600-603).
    _t("Start phase", "turn", r"\bstart phase\b", "开始阶段", "開始階段", ()),
    _t("Ready step", "turn", r"\bready step\b", "重置步骤", "重置步驟", ()),
    _t("Draw step", "turn", r"\bdraw step\b", "抓牌步骤", "抓牌步驟", ()),
    _t("Action phase", "turn", r"\baction phase\b", "行动阶段", "行動階段"),
    _t("End phase", "turn", r"\bend phase\b", "结束阶段", "結束階段", ()),
    _t("Wrap-up step", "turn", r"\bwrap-up step\b", "结束步骤", "結束步驟", ()),
    _t("Combat step", "turn", r"\bcombat step\b", "战斗步骤", None),
    _t("Combat conclusion", "turn", r"\bcombat conclusion\b", "战斗终结", None, "伤害判定"),
    _t("Attack window", "turn", r"\battack window\b", "攻击窗口", None, "进攻窗口",
       synonyms={"000+002zh": _ATTACK_VERBS + "002zh names the window by the one it uses for the attacker too (进攻者, line 85)"}),
    _t("Defend window", "turn", r"\bdefend window\b", "防御窗口", None),
    _t("Protect point", "turn", r"\bprotect point\b", "护卫点", None),
    # Zones (CR7.4 415).
    _t("Deck", "zone", r"\bdecks?\b", "套牌", "套牌", ()),
    _t("Hand", "zone", r"\bhands?\b", "手牌", "手牌", ()),
    _t("Graveyard", "zone", r"\bgraveyards?\b", "坟墓场", "墳墓場", ()),
    _t("Removed from Game", "zone", r"\bremoved from (?:the )?game\b|\bRFG\b", ("移出游戏", "RFG"), "移出遊戲", "移出游戏",
       synonyms={"000": "413.1 introduces RFG as the English abbreviation of 移出游戏区 and uses it after"}),
    # Cards and what they are.
    _t("Character", "character", r"\bcharacters?\b", "角色", None, ("角色", "目标")),
    _t("Totem", "card", r"\btotems?\b", "图腾", "圖騰"),
    _t("Ally", "card", r"\ball(?:y|ies)\b", "盟军", "盟軍"),
    _t("Hero", "card", r"\bhero(?:es)?\b", "英雄", "英雄"),
    _t("Equipment", "card", r"\bequipment\b", "装备", "裝備", ()),
    _t("Weapon", "card", r"\bweapons?\b", "武器", "武器"),
    _t("Armor", "card", r"\barmou?rs?\b", "防具", ("防具", "護甲"), (),
       synonyms={"001": "one example (line 258) calls the same card 防具 and then 護甲"}),
    _t("Item", "card", r"\bitems?\b", "物品", "物品", ()),
    _t("Quest", "card", r"\bquests?\b", "任务", "任務", ()),
    _t("Resource", "card", r"\bresources?\b", "资源", "資源", ()),
    _t("Token", "card", r"\btokens?\b", "衍生物", "代替物", ()),
    _t("Party", "card", r"\bpart(?:y|ies)\b", "队伍", "隊伍"),
    # What a player does to a card.
    _t("Destroy", "action", r"\bdestroy(?:s|ed|ing)?\b", "消灭", ("消滅", "摧毀"), (),
       synonyms={"001": "摧毀 puts an ally with lethal damage into its owner's graveyard (line 100), which is what the glossary's 消滅 says destroying does; its other 摧毀 (line 44) is a class's description"}),
    _t("Strike", "action", r"\bstrik(?:e|es|ing)\b|\bstruck\b", "打击", "打擊", ()),
    # Tags and bold words of a card's text.
    _t("Instant", "tag", r"\binstant\b", "瞬发", "瞬發", ()),
    _t("Ongoing", "tag", r"\bongoing\b", "持续性", "持續", ()),
    _t("Ranged", "tag", r"\branged\b(?! dual)", "远程", "遠程", ()),
    _t("Melee", "tag", r"\bmelee\b", "近战", "近戰", ()),
    _t("Modifier", "tag", r"\bmodifiers?\b", "更动", None),
)

#: Renderings a text uses for two terms, with why its words still tell them apart.
SHARED: Mapping[tuple[str, str], str] = {}

#: Rules whose English names a term that their Chinese renders by none of its
#: words but by another term of its kind, read and found to say the same:
#: (the English text, the Chinese, the Chinese rule's number, the term) and why.
READINGS: Mapping[tuple[str, str, str, str], str] = {
    ("002en", "002zh", "601.1", "Link"):
        "the rules for adding a link are rendered as the rules for adding to the chain (连锁添加规则), which is what adding a link does",
    ("CR7.4", "000", "304.1", "Item"):
        "a version change: CR7.4 304 merges the seed's armor (304) and items (305) into one equipment section (model/concordance.py), so its 304.1 names both",
    ("CR7.4", "000", "304.2", "Item"):
        "a version change: CR7.4 304.2 gives armor and some items a defense value, the seed's 304.2 tells how armor prevents damage to a hero; the section was rewritten, not mistranslated",
    ("CR7.4", "000", "304.3", "Item"):
        "a version change: CR7.4 304 is equipment, the seed's 304 armor only",
    ("CR7.4", "000", "305.1", "Armor"):
        "a version change: the seed's items (305) are paired with CR7.4's equipment (304), whose 304.1 names armor too",
}
