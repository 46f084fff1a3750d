"""Glossary entries of the WoW basic rules paired by judgment with the
passage of the same text they restate: the declared table ``chainproof
lint`` compares them by (``chainproof/text_lint.py``, the glossary-clash
check).

Most entries of a glossary need no table: CR7.4's entries cite their rule
("Chain (415.6):"), and a term of the basic rules (``001``) that heads a
section or a bulleted definition ("·熊形態:") elsewhere in the text is paired
by that heading.  An entry whose term heads nothing is paired here, with the
section and a few words (the anchor) that find its passage once, as the
basic rules' concordance finds its passages (``model/basic_concordance.py``);
``tests/test_glossary_clash.py`` holds each entry to its text.  Only entries
that state a figure are declared: the check compares figures.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GlossaryPassage:
    #: The glossary's term, as the entry writes it before its colon.
    term: str
    #: The section that restates the entry, and words found once in it.
    heading: str
    anchor: str
    #: What both say, in a few English words.
    subject: str


#: The basic rules' glossary (the section 主要術語 of 001) against their own sections.
BASIC_GLOSSARY: tuple[GlossaryPassage, ...] = (
    GlossaryPassage("再調度", "遊戲設定", "對起始手牌不滿意", "a mulligan redraws seven cards, once"),
    GlossaryPassage("放置", "遊戲設定", "每一回合可以只放置一個資源", "one resource placed each turn"),
    GlossaryPassage("資源", "遊戲設定", "每一回合可以只放置一個資源", "one resource placed each turn"),
    GlossaryPassage("防禦力", "基礎戰鬥", "·使用防具", "exhausting armor prevents damage equal to its DEF"),
)

#: Each text with an unnumbered glossary, the section that holds it, and its declared pairs.
GLOSSARY_CONCORDANCES: dict[str, tuple[str, tuple[GlossaryPassage, ...]]] = {"001": ("主要術語", BASIC_GLOSSARY)}
