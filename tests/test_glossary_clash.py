"""A glossary against the rules it restates, in one text
(``chainproof/text_lint.py``, glossary-clash): an entry's figures against its
rule's, each with what it counts, and an entry's citation of a rule that
never names its term."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chainproof import text_lint
from chainproof.linting import KINDS
from model.glossary_concordance import GLOSSARY_CONCORDANCES, GlossaryPassage
from model.sources import lines_of, texts_folder


@pytest.fixture(scope="module")
def reference() -> text_lint.RuleText:
    """CR7.4, read once for the tests that read it."""
    text = text_lint.load("CR7.4")
    assert text is not None
    return text


def test_glossary_clash_is_a_lint_kind():
    assert "glossary-clash" in text_lint.KINDS and "glossary-clash" in KINDS


def test_an_entry_with_another_figure_or_a_citation_astray_is_a_finding(whole_files):
    text = text_lint.read("CR7.4", [
        "100. Building a deck",
        "100.3 A side deck holds exactly 10 cards, and you may play a card without paying its cost.",
        "305. Abilities",
        "305.3 Totems",
        "305.3a A totem is a character with 2 cards under it.",
        "415. Zones",
        "415.8 Play zone",
        "415.8a Each player controls three rows in play.",
        "415.8b Cards in play a player controls are collectively called his party.",
        "415.9 Changing zones",
        "415.9c Some links trigger off of a card being destroyed.",
        "415.9d To destroy a card is to put it into its owner's graveyard from play.",
        "10. Glossary",
        "Side Deck (100.3): A side deck is exactly 15 cards.",
        "",
        "Party (415.8a): Cards in play a player controls are his party.",
        "",
        "Preparation (100.3): A keyword power. It means “On your first turn, you may play this card without",
        "paying its cost.”",
        "",
        "Totem: A character with 2 cards under it.",
        "",
        "Elusive: A keyword power. It means “This can't be attacked.”",
        "",
        "Destroy (415.9c): To destroy a card is to put it into its owner’s graveyard from play.",
    ])
    pairs, astray, entries = text_lint.numbered_glossary(text)
    assert entries == 6
    assert [(p.term, p.rule, p.how) for p in pairs] == [
        ("Side Deck", "100.3", "cited"), ("Party", "415.8a", "cited"), ("Preparation", "100.3", "cited"),
        ("Totem", "305.3", "heading"), ("Destroy", "415.9c", "cited")]
    found, (query, verdict) = text_lint.glossary_clash("CR7.4", pairs, astray, entries, [])
    assert query == "glossary_clash[CR7.4]"
    clash, party, destroy = found
    assert clash.key == "glossary-clash:CR7.4:Side-Deck"
    assert clash.places == ("wowtcg-comprehensive-rules-7.4.txt:14", "wowtcg-comprehensive-rules-7.4.txt:2")
    assert "15 cards in the entry against 10 in 100.3" in clash.summary
    # Preparation's rule never says "preparation", but shares words of what the keyword means.
    assert party.key == "glossary-clash:CR7.4:Party@415.8a" and party.rules == ("CR7.4 glossary: Party", "CR7.4 415.8a")
    assert "names no word of the term; 415.8b does" in party.summary
    # 415.9c says "destroyed", but the entry is 415.9d's words.
    assert destroy.key == "glossary-clash:CR7.4:Destroy@415.9c"
    assert destroy.summary.startswith("CR7.4's glossary entry Destroy cites CR7.4 415.9c, which shares no 4 words in a row with it, "
                                      "while 415.9d restates it (7 words in a row or more) (")
    assert destroy.places == ("wowtcg-comprehensive-rules-7.4.txt:25", "wowtcg-comprehensive-rules-7.4.txt:11")
    assert verdict == ("5 of its 6 entries paired with what they restate (4 by their own citation, 1 by a heading in the same words); "
                       "2 state a count of one thing on both sides, 1 agrees, 1 does not; "
                       "2 of their citations point at a rule that names no word of the term or that another rule's words restate")


def test_an_unnumbered_glossary_is_paired_by_headings_and_the_declared_table():
    lines = (
        "遊戲設定",
        "洗牌後抓取起始的7張牌。對起始手牌不滿意時可以再調度一次,重新抓取7張牌。",
        "關鍵文字",
        "·狂暴:具有狂暴的盟軍可以在加入隊伍的同一回合進攻。",
        "主要術語",
        "再調度:在遊戲的開始,你可以重新抓取8張卡牌。",
        "狂暴:狂暴是盟軍可以具有的關鍵字。",
        "防禦力:防具的防禦值。",
    )
    text = text_lint.SectionText("001", lines, {"遊戲設定": (1, 2), "關鍵文字": (3, 4), "主要術語": (5, 8)})
    declared = (GlossaryPassage("再調度", "遊戲設定", "對起始手牌不滿意", "a mulligan"),
                GlossaryPassage("隊伍", "遊戲設定", "隊伍", "a party"))
    pairs, lost, entries = text_lint.section_glossary(text, "主要術語", declared)
    assert [(p.term, p.rule, p.rule_lines, p.how) for p in pairs] == [("再調度", "遊戲設定", (2,), "declared"), ("狂暴", "關鍵文字", (4,), "heading")]
    assert (entries, lost) == (3, ["隊伍 (no entry of 主要術語)"])
    (found,), (_, verdict) = text_lint.glossary_clash("001", pairs, [], entries, lost)
    assert found.key == "glossary-clash:001:再調度" and found.places == ("001_bb13bfcb78a9b116.txt:6", "001_bb13bfcb78a9b116.txt:2")
    assert "8 cards in the entry against 7 in 遊戲設定 (line 2)" in found.summary
    assert verdict.startswith("2 of its 3 entries paired with what they restate (1 by a heading in the same words, 1 declared); "
                              "1 states a count of one thing on both sides, 0 agree, 1 does not; not found in the text: 隊伍")


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_the_shipped_glossaries(reference: text_lint.RuleText):
    """How many entries each glossary pairs and compares, and the four citations astray: each entry is the words of
    the rule after the one it cites (717.3, 402.3, 415.9d, 415.8b)."""
    pairs, astray, entries = text_lint.numbered_glossary(reference)
    found, (_, verdict) = text_lint.glossary_clash("CR7.4", pairs, astray, entries, [])
    assert {f.key: f.summary.partition(" (7 words")[0].rpartition("while ")[2] for f in found} == {
        "glossary-clash:CR7.4:Conditional-Replacement-Modifier@717.2d": "717.3 restates it",
        "glossary-clash:CR7.4:Copy,-Card-in-Play@402.2": "402.3, 402.3a restate it",
        "glossary-clash:CR7.4:Destroy@415.9c": "415.9d restates it",
        "glossary-clash:CR7.4:Party@415.8a": "415.8b restates it",
    }
    assert found[-1].places == ("wowtcg-comprehensive-rules-7.4.txt:3829-3832", "wowtcg-comprehensive-rules-7.4.txt:1533-1536")
    # Entries with no blank line between them are read apart ("Character (300.1)" under "Chain").
    assert verdict == ("133 of its 227 entries paired with what they restate (132 by their own citation, 1 by a heading in the same words); "
                       "11 state a count of one thing on both sides, 11 agree (in 2 of those that agree, one side states a figure the other does not); "
                       "4 of their citations point at a rule that names no word of the term or that another rule's words restate")
    heading, declared = GLOSSARY_CONCORDANCES["001"]
    basic = text_lint.read_sections("001", lines_of("001"))
    pairs, lost, entries = text_lint.section_glossary(basic, heading, declared)
    found, (_, verdict) = text_lint.glossary_clash("001", pairs, [], entries, lost)
    # Every declared pair is an entry of the glossary and finds its passage once.
    assert found == [] and lost == []
    assert {p.term for p in pairs if p.how == "declared"} == {d.term for d in declared}
    assert verdict == ("12 of its 55 entries paired with what they restate (8 by a heading in the same words, 4 declared); "
                       "1 states a count of one thing on both sides, 1 agrees")


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_a_figure_planted_in_the_real_glossary_is_reported(reference: text_lint.RuleText):
    # The glossary is read from the text's lines, its rules from the rules read before: only the entry changes.
    lines = list(reference.lines)
    entry = next(i for i, line in enumerate(lines) if line.startswith("Side Deck (100.3):"))
    at = next(i for i in range(entry, len(lines)) if "a side deck is exactly 10 cards" in lines[i])
    lines[at] = lines[at].replace("exactly 10 cards", "exactly 12 cards")
    pairs, astray, entries = text_lint.numbered_glossary(replace(reference, lines=tuple(lines)))
    found, _ = text_lint.glossary_clash("CR7.4", pairs, astray, entries, [])
    (planted,) = [f for f in found if f.key == "glossary-clash:CR7.4:Side-Deck"]
    assert "12 cards in the entry against 10 in 100.3" in planted.summary


def test_an_entry_ends_where_the_next_head_starts_a_line_after_a_sentence():
    lines = ("10. Glossary", "Chain (415.6): The chain zone is where links wait.", "Character (300.1): A hero, ally, or Totem.",
             "Control (401): A player controls his hero, each card he puts into",
             "play, and each link: he adds them.", "", "Cost (403): Anything a player must pay.")
    assert text_lint.glossary(lines) == {"Chain": (2, 2), "Character": (3, 3), "Control": (4, 5), "Cost": (7, 7)}
