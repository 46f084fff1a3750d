"""A text against itself (``chainproof/text_lint.py``, self-count): a count a
passage states and then enumerates, against the items it lists, and one
text's words for a thing counted with two different numbers."""

from __future__ import annotations

import pytest

from chainproof import text_lint
from chainproof.linting import KINDS
from model.sources import SOURCES, texts_folder


def test_self_count_is_a_lint_kind():
    assert "self-count" in text_lint.KINDS and "self-count" in KINDS


def rows(*lines: str) -> list[tuple[int, str]]:
    return list(enumerate(lines, start=1))


@pytest.mark.parametrize(
    "lines, language, value, items",
    [
        # A colon after the counted words, the list to the sentence's end, across a wrapped line.
        (("There are six card types: Ability, Ally,", "Hero, Location, and Quest. Allies are characters."), "en", 6, 5),
        # "they are" in the next sentence; semicolons where an item holds a comma.
        (("Each turn has three phases. In order, they are start, action, and end.",), "en", 3, 3),
        (("Each player controls three rows in play: a resource row; an ally row for allies, tokens; and a hero row.",), "en", 3, 3),
        # Chinese, with 以及, brackets' words left out, and the list before its count.
        (("英雄具有5個特性:陣營,天賦,種族,以及職業。",), "zh", 5, 4),
        (("场上区分为三个区:资源区(放置资源),盟军区(放置盟军,图腾)。",), "zh", 3, 2),
        (("属性值分为力量、敏捷和智力三种，这些属性的符号不同。",), "zh", 3, 3),
        (("战斗分为两类,破坏型战斗或是普通型战斗。",), "zh", 2, 2),
        (("有三种属性，分别为`力量`、`敏捷`和`智力`。",), "zh", 3, 3),
        # A list of rows: names with a colon, numbered rows, bullets, a row of icons.
        (("TCG中包含所有9大職業", "德魯伊:守護者", "法師:奧術大師", "他們都很強大。"), "zh", 9, 2),
        (("將有3件事情按序發生:", "1.宣告:選擇進攻者。", "2.進攻:橫置並進攻。"), "zh", 3, 2),
        (("要做另外的2件事情:", "·使用武器打擊:增加攻擊力。", "", "·使用防具:防止傷害。"), "zh", 2, 2),
        (("There are eight different types of damage:", "", "   Arcane      Fire      Frost   ", "  Holy     Melee"), "en", 8, 5),
        # Ordinals in words that start the items.
        (("不同主要是兩個方面。首先,卡牌是對的。", "其次,由你來選擇。", "再次,你決定。"), "zh", 2, 3),
    ],
)
def test_a_count_and_the_items_it_goes_on_to_list(lines: tuple[str, ...], language: str, value: int, items: int):
    (e,) = text_lint.enumerations(rows(*lines), language)
    assert (e.line, e.value, e.items is not None and len(e.items)) == (1, value, items)


def test_a_colon_that_ends_a_rule_lists_its_sub_rules():
    (e,) = text_lint.enumerations(rows("A turn has the following three steps:"), "en", ((2, "501.1"), (5, "501.2")))
    assert (e.value, e.items, e.item_lines) == (3, ("501.1", "501.2"), (2, 5))


@pytest.mark.parametrize(
    "lines, language",
    [
        # A name with a number in it, and counts that no list follows.
        (("2H: See Two-Handed. Two-Handed Dual Wield: see there.",), "en"),
        (("Each start phase has two steps. The first readies cards.",), "en"),
        (("每個玩家的回合分為三個階段,某些階段再分為幾個步驟。",), "zh"),
        (("一共有9個不同的起始套牌,分別對應一個職業。",), "zh"),
        # Ordinals, and the markers of a numbered list, count nothing.
        (("the second of two", "2.進攻:橫置並進攻。"), "en"),
    ],
)
def test_what_is_no_enumerated_count(lines: tuple[str, ...], language: str):
    assert text_lint.enumerations(rows(*lines), language) == []


@pytest.mark.parametrize(
    "lines",
    [
        # A list that says it is not whole, and a row that runs its names together.
        ("There are four types of powers: payment, reward, and others such as keywords.",),
        ("·一共有8種傷害符號:", "·奧術火焰冰霜神聖近戰自然遠程暗影", "·一個生命值,位於右下角。"),
    ],
)
def test_a_list_lint_cannot_read_is_said_not_compared(lines: tuple[str, ...]):
    (e,) = text_lint.enumerations(rows(*lines), "en" if lines[0].isascii() else "zh")
    assert e.items is None
    found, (query, verdict) = text_lint.self_count("001", [("特性", rows(*lines), ())])
    assert found == [] and verdict.startswith("0 counts it goes on to enumerate") and "no list lint can read: 特性" in verdict


def test_a_count_its_list_does_not_bear_out_is_a_finding(whole_files):
    text = text_lint.read("CR7.4", [
        "300. Card Types",
        "300.1 There are six card types: Ability, Ally, Hero, Location, and Quest.",
        "415.1 Cards can be in any one of six game zones: chain, deck, graveyard, hand, play, and removed",
        "      from game (RFG).",
        "415.2 There are seven card types in all. All players share two zones: chain and play.",
    ])
    found, (query, verdict) = text_lint.self_count("CR7.4", text_lint._passages(text))
    assert query == "self_count[CR7.4]"
    listed, twice = found
    assert listed.key == "self-count:CR7.4:300.1:card-types" and listed.rules == ("CR7.4 300.1",)
    assert listed.places == ("wowtcg-comprehensive-rules-7.4.txt:2",) * 2
    assert "counts 6 card types and then lists 5: Ability, Ally, Hero, Location, Quest" in listed.summary
    # The same words with another number in another rule; "zones" alone names no one thing.
    assert twice.key == "self-count:CR7.4:card-types@300.1+415.2"
    assert twice.places == ("wowtcg-comprehensive-rules-7.4.txt:2", "wowtcg-comprehensive-rules-7.4.txt:5")
    assert verdict == ("3 counts it goes on to enumerate, 2 agree with the items it lists, 1 does not; "
                       "1 of their words it states twice or more, 1 with different numbers")


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_the_shipped_texts_counts():
    """How many counts each text enumerates, and the one whose list falls short."""
    said, found = {}, []
    for x in SOURCES:
        more, (_, said[x]) = text_lint.self_count(x, text_lint.passages(text_lint.load(x)))
        found += more
    assert [f.key for f in found] == ["self-count:001:特性:大職業"]
    assert found[0].places == ("001_bb13bfcb78a9b116.txt:38", "001_bb13bfcb78a9b116.txt:39-45")
    assert "counts 9 大職業 and then lists 7: 德魯伊, 法師, 聖騎士, 牧師, 盜賊, 術士, 戰士" in found[0].summary
    enumerated = {x: v.partition(" counts")[0] for x, v in said.items()}
    assert enumerated == {"000": "5", "001": "9", "002en": "0", "002zh": "0", "CR7.4": "17", "003": "0", "004": "3"}
    assert said["001"].startswith("9 counts it goes on to enumerate, 8 agree with the items it lists, 1 does not; it states none of their words twice")
    assert said["001"].endswith("no list lint can read: 卡牌類型 (line 98): 8 種傷害符號")
    assert said["CR7.4"] == ("17 counts it goes on to enumerate, 17 agree with the items it lists; "
                             "6 of their words it states twice or more, each time with the same number")
    assert said["004"].startswith("3 counts it goes on to enumerate, 3 agree")


def test_lint_reports_the_count_of_each_text_of_a_game():
    found, checks = text_lint.lint_texts("riftbound")
    # Its only textual finding is term-clash's (tests/test_term_clash_games.py).
    assert dict(checks)["self_count[003]"].startswith("0 counts it goes on to enumerate") and [f.kind for f in found] == ["term-clash"]
