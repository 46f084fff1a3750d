"""The basic rules (001, unnumbered) read against the comprehensive rules
through the declared concordance of their passages
(``model/basic_concordance.py``): what each side counts, and the pairs that
count one thing differently, name steps in another order, or whose list of
names the other's lacks (``chainproof/text_lint.py``, basic-clash)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chainproof import text_lint
from chainproof.linting import KINDS
from model import sources
from model.basic_concordance import BASIC_TO_COMPREHENSIVE, NamedList, Passage
from model.concordance import SEED_TO_CR74
from model.sources import texts_folder

needs_texts = pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")


def test_basic_clash_is_a_lint_kind():
    assert "basic-clash" in text_lint.KINDS and "basic-clash" in KINDS


@pytest.mark.parametrize(
    "text, counted",
    [
        ("你的套牌至少需要包括60張牌", {"cards": {60}}),
        ("The minimum deck size for Constructed play is 60 cards. For Limited play it is 30 cards.", {"cards": {60, 30}}),
        ("can include a total of only four copies of any card", {"cards": {4}}),
        # Traditional 兩 as well as simplified 两; a range counts what its last number counts.
        ("兩名玩家各抓两张牌", {"players": {2}, "cards": {2}}),
        ("你需要4-8人,每個人需要4個補充包", {"players": {4, 8}, "booster packs": {4}}),
        ("Each turn has three phases. Each start phase has two steps.", {"phases": {3}, "steps": {2}}),
        ("Cards can be in any one of six game zones", {"zones": {6}}),
        ("一共有8種傷害符號", {"damage types": {8}}),
        ("對目標盟軍造成2點傷害", {"damage": {2}}),
        # One counts where it limits, or in digits; as an article it does not.
        ("每一回合可以只放置一個資源", {"resources": {1}}),
        ("A player may place only one resource per turn", {"resources": {1}}),
        ("選擇手上的任何一張卡牌放置為資源", {}),
        ("每場戰鬥只能使用1個武器", {"weapons": {1}}),
        # A count the words before it name.
        ("代替物的費用為0", {"cost": {0}}),
        ("A token's cost is always zero (201.4).", {"cost": {0}}),
        # Ordinals count nothing; a number whose words the table does not know is left out.
        ("只有第一個玩家的第一回合跳過抓牌步驟", {}),
        ("the second player draws", {}),
        ("從106名英雄中選擇一名", {}),
        # A rule number is a citation, not a count.
        ("見規則409.6的7張", {"cards": {7}}),
    ],
)
def test_counts_read_what_each_number_counts(text, counted):
    assert text_lint.counts(text) == {k: frozenset(v) for k, v in counted.items()}


def test_traditional_numerals_and_words_are_read_as_the_simplified_ones():
    assert text_lint.numbers("兩種更動,一萬張,萬智牌,並無二致") == {2, 10_000}


BASIC = [
    "簡介",
    "牌組,開局,回合,術語,多人,",
    "牌組",
    "·套牌至少60張牌。",
    "開局",
    "每個玩家抓取起始的7張牌,例如抓到5張技能卡。",
    "手牌上限為7張,另一句也寫著7張。",
    "回合",
    "回合分為三個階段。",
    "術語",
    "多人",
]


def test_an_unnumbered_text_is_read_by_the_sections_its_contents_line_lists():
    text = text_lint.read_sections("001", BASIC)
    assert text.sections == {"牌組": (3, 4), "開局": (5, 7), "回合": (8, 9), "術語": (10, 10), "多人": (11, 11)}
    # An example inside the paragraph is left out of its words.
    line, words = text.passage("開局", "抓取起始")
    assert line == 6 and "5" not in words and text_lint.counts(words) == {"cards": frozenset({7})}
    with pytest.raises(LookupError, match="001 has no section 規則"):
        text.passage("規則", "7張")
    with pytest.raises(LookupError, match="001's 開局 has 2 lines holding '7張'"):
        text.passage("開局", "7張")
    with pytest.raises(LookupError, match="001's 回合 has no lines holding '兩個'"):
        text.passage("回合", "兩個")


SEED = [
    "100.组建套牌",
    "100.1 构筑赛制中套牌张数不得少于60张。现开赛制中套牌张数不得少于30张。",
    "101.开始游戏",
    "101.1 每位玩家抓七张牌作为起手。",
    "502.行动阶段",
    "502.1 玩家可以进行下列事项。",
    "·使用非瞬发牌",
    "·安置资源",
    "·提议战斗",
]
LATER = [
    "100. Building a deck",
    "100.1 The minimum deck size for Constructed play is 60 cards.",
    "101. Starting a game",
    "101.1 Each player puts the top eight cards into hand.",
    "206. Traits",
    "206.1a A hero's class is represented by one of the following trait icons.",
    "       Druid       Hunter       Mage",
    "       Priest      Rogue",
]
CONCORDANCE = replace(BASIC_TO_COMPREHENSIVE, lists=(), passages=(
    Passage("deck-size", "牌組", "至少60張", "a deck holds at least 60 cards", "100.1", "组建套牌", "100.1", "Building a deck"),
    Passage("opening-hand", "開局", "抓取起始", "each player draws seven", "101.1", "开始游戏", "101.1", "Starting a game"),
    Passage("phases", "回合", "三個階段", "a turn has three phases", "502.1", "行动阶段", "206.1a", "Traits", "classes"),
))


def _basic(basic=BASIC, seed=SEED, later=LATER, concordance=CONCORDANCE):
    versions = {"000": text_lint.read("000", seed), "CR7.4": text_lint.read("CR7.4", later)}
    return text_lint.basic(text_lint.read_sections("001", basic), versions, concordance)


def test_a_figure_both_sides_count_differently_is_a_basic_clash(whole_files):
    found, checks = _basic()
    (clash,) = found
    assert clash.key == "basic-clash:001+CR7.4:opening-hand" and clash.rules == ("CR7.4 101.1",)
    assert clash.places == ("001_bb13bfcb78a9b116.txt:6", "wowtcg-comprehensive-rules-7.4.txt:4")
    assert clash.sources == ("001", "CR7.4")
    assert "7 cards in 001 against 8 in CR7.4" in clash.summary and "concordance entry opening-hand" in clash.summary
    checks = dict(checks)
    # 60 cards against 60 and 30: the seed only adds a figure.
    assert checks["basic_clash[001 000]"] == "none of the 3 pairs differs in what they count or in the order they name things; 2 agree on all they both count, in 1 of them one only adds to the other"
    assert checks["basic_clash[001 CR7.4]"].startswith("1 of the 3 pairs differ in what they count")


def test_a_pair_that_counts_different_things_is_named_as_a_doubtful_entry(whole_files):
    """The planted phases entry pairs a count of phases with 000's list of
    three actions and CR7.4's row of five class icons: both sides count, and
    nothing they count is the same, so the concordance check names it."""
    checks = dict(_basic()[1])
    for names in ("001 000", "001 CR7.4"):
        assert checks[f"basic_concordance[{names}]"] == (
            "2 of its 3 pairs count the same thing on both sides; in 0 only one side counts; these count on both sides "
            "and share nothing they count, so may pair two different rules: phases")


def test_a_rule_lists_its_bullets_or_its_row_of_icons(whole_files):
    seed, later = text_lint.read("000", SEED), text_lint.read("CR7.4", LATER)
    assert text_lint.list_items(seed.rules["502.1"], seed.lines) == 3
    assert text_lint.list_items(later.rules["206.1a"], later.lines) == 5
    assert text_lint.list_items(later.rules["100.1"], later.lines) == 0


def test_a_passage_or_a_rule_that_is_not_there_is_reported(whole_files):
    lost = replace(CONCORDANCE, passages=(
        replace(CONCORDANCE.passages[0], anchor="至少70張"), replace(CONCORDANCE.passages[1], later="101.9")))
    checks = dict(_basic(concordance=lost)[1])
    assert checks["basic_concordance[001 CR7.4]"].endswith(
        "not found in the texts: deck-size (001's 牌組 has no lines holding '至少70張'), opening-hand (CR7.4 has no rule 101.9)")


@needs_texts
def test_each_passage_and_rule_of_the_concordance_is_in_its_text():
    """Each heading is a section the basic rules list, each anchor is on one
    line of it, and that line counts something; each rule is one its text
    heads, under the section title the entry gives (the seed's from its
    contents for the sections the translation leaves out); each list the
    entry declares is there."""
    basic = text_lint.read_sections("001", sources.lines_of("001") or ())
    seed, later = text_lint.load("000"), text_lint.load("CR7.4")
    assert seed is not None and later is not None
    older = {e.later: e.older for e in SEED_TO_CR74.entries}
    keys = [p.key for p in BASIC_TO_COMPREHENSIVE.passages]
    assert len(keys) == len(set(keys))
    for p in BASIC_TO_COMPREHENSIVE.passages:
        _, words = basic.passage(p.heading, p.anchor)
        assert text_lint.counts(words), p
        assert p.later is not None and p.later in later.rules, p
        if p.seed is not None:
            assert p.seed in seed.rules, p
            seed_section = p.seed.partition(".")[0]
        else:
            # No seed rule: the translation lists the section CR7.4's rule stands in and leaves out its text.
            seed_section = older[p.later.partition(".")[0]]
            assert seed_section in seed.listed and not any(n.partition(".")[0] == seed_section for n in seed.rules), p
        assert seed.titles.get(seed_section, seed.listed.get(seed_section)) == text_lint.title_words(p.seed_title), p
        assert later.titles.get(p.later.partition(".")[0]) == text_lint.title_words(p.later_title), p
        for basic_word, seed_word, later_word in p.order:
            assert basic_word in words and later_word is not None and later_word in later.rules[p.later].text.lower(), p
            assert p.seed is None or (seed_word is not None and seed_word in seed.rules[p.seed].text), p
        if p.listed is not None:
            assert text_lint.list_items(later.rules[p.later], later.lines) > 0, p
            if p.seed is not None:
                assert text_lint.list_items(seed.rules[p.seed], seed.lines) > 0, p


@needs_texts
def test_the_shipped_basic_rules_findings():
    found, checks = text_lint.lint_texts("wowtcg")
    assert sorted(f.key for f in found if f.kind == "basic-clash") == [
        "basic-clash:001+000:action-phase",
        "basic-clash:001+CR7.4:action-phase",
        "basic-clash:001+CR7.4:classes",
        "basic-clash:001+CR7.4:keywords",
        "basic-clash:001+CR7.4:traits",
    ]
    keywords = next(f for f in found if f.key == "basic-clash:001+CR7.4:keywords")
    assert keywords.places == ("001_bb13bfcb78a9b116.txt:198-204", "wowtcg-comprehensive-rules-7.4.txt:3729-3738")
    assert "(Keyword, 52 names) lacks 2: Instant (瞬發), Ongoing (持續)" in keywords.summary
    traits = next(f for f in found if f.key == "basic-clash:001+CR7.4:traits")
    assert traits.places == ("001_bb13bfcb78a9b116.txt:35", "wowtcg-comprehensive-rules-7.4.txt:352-356")
    assert "5 kinds of trait in 001 against 6 in CR7.4" in traits.summary
    checks = dict(checks)
    assert checks["basic_clash[001 000]"].startswith("1 of the 15 pairs differ in what they count")
    assert checks["basic_clash[001 CR7.4]"].startswith("3 of the 20 pairs differ in what they count")
    assert checks["basic_clash[001 CR7.4]"].endswith("1 of its 1 lists of names lack names of 001's")
    assert checks["basic_concordance[001 000]"] == "14 of its 15 pairs count the same thing on both sides; in 1 only one side counts"
    assert checks["basic_concordance[001 CR7.4]"] == (
        "18 of its 20 pairs count the same thing on both sides; in 2 only one side counts; 6 names in its lists are terms of CR7.4's glossary")


@needs_texts
@pytest.mark.parametrize("rule, shown", [("415.1", "may pair two different rules: hand-size"), ("100.1", "")])
def test_a_planted_wrong_entry_is_reported(rule: str, shown: str):
    """The hand size paired with CR7.4's zones (415.1) counts different
    things: the concordance check names it.  Paired with deck size (100.1), it
    counts cards on both sides, and 7 against 60 and 30 is a clash."""
    planted = replace(BASIC_TO_COMPREHENSIVE, passages=tuple(
        replace(p, later=rule) if p.key == "hand-size" else p for p in BASIC_TO_COMPREHENSIVE.passages))
    texts = {x: text_lint.load(x) for x in ("000", "CR7.4")}
    basic = text_lint.read_sections("001", sources.lines_of("001") or ())
    found, checks = text_lint.basic(basic, texts, planted)
    verdict = dict(checks)["basic_concordance[001 CR7.4]"]
    if shown:
        assert shown in verdict and "basic-clash:001+CR7.4:hand-size" not in {f.key for f in found}
    else:
        (clash,) = [f for f in found if f.key == "basic-clash:001+CR7.4:hand-size"]
        assert "7 cards in 001 against 30, 60 in CR7.4" in clash.summary


STEPS = ["詞", "規則,開局,回合,術語,多人,", "回合", "開始階段分為2個步驟:重置步驟和抓牌步驟。"]
STEPS_LATER = ["500. Overview", "500.1 Each start phase has two steps. In order, they are draw and ready."]
STEPS_ENTRY = Passage("start-phase-steps", "回合", "分為2個步驟", "the start phase's steps", None, "综述", "500.1", "Overview",
                      None, (("重置步驟", None, "ready"), ("抓牌步驟", None, "draw")))


@pytest.mark.parametrize("later, found", [
    (STEPS_LATER, ["001 names 重置步驟, 抓牌步驟 in this order, CR7.4 draw, ready"]),
    ([STEPS_LATER[0], STEPS_LATER[1].replace("draw and ready", "ready and draw")], []),
])
def test_steps_named_in_another_order_are_a_basic_clash(whole_files, later, found):
    """Both count two steps; a planted swap of their order is found."""
    concordance = replace(BASIC_TO_COMPREHENSIVE, passages=(STEPS_ENTRY,), lists=())
    clashes, checks = text_lint.basic(text_lint.read_sections("001", STEPS), {"CR7.4": text_lint.read("CR7.4", later)}, concordance)
    assert [c.summary.partition(": ")[2].partition("; concordance")[0] for c in clashes] == found
    assert "not found" not in dict(checks)["basic_concordance[001 CR7.4]"]


def test_a_step_the_rule_does_not_name_is_reported(whole_files):
    concordance = replace(BASIC_TO_COMPREHENSIVE, passages=(replace(STEPS_ENTRY, order=(("重置步驟", None, "inspire"),)),), lists=())
    _, checks = text_lint.basic(text_lint.read_sections("001", STEPS), {"CR7.4": text_lint.read("CR7.4", STEPS_LATER)}, concordance)
    assert dict(checks)["basic_concordance[001 CR7.4]"].endswith("not found in the texts: start-phase-steps (inspire not in the rule)")


KEYWORDS = ["詞", "規則,關鍵文字,術語,附錄,多人,", "關鍵文字", "這些字有特殊意義。", "·隱遁:無法被攻擊。", "·瞬發:任何時候都能使用。", "術語"]
GLOSSARY = [
    "10. Glossary",
    "Elusive: A keyword power. It means the card can't be proposed as a defender.",
    "",
    "Instant: A tag that some cards have.",
    "",
    "Keyword: A bold word. Current keywords are: Bear Form, Dual Wield (including Ranged",
    "Dual Wield), Elusive, and Ferocity.",
]
NAMES = NamedList("keywords", "關鍵文字", "the words the basic rules call keywords", "Keyword", "Current keywords are:",
                  (("隱遁", "Elusive"), ("瞬發", "Instant")))


def test_a_glossary_is_read_entry_by_entry_and_a_list_in_it_name_by_name():
    lines = tuple(GLOSSARY)
    terms = text_lint.glossary(lines)
    assert terms == {"Elusive": (2, 2), "Instant": (4, 4), "Keyword": (6, 7)}
    assert text_lint.glossary_list(lines, terms["Keyword"], "Current keywords are:") == ["Bear Form", "Dual Wield", "Elusive", "Ferocity"]


def _keywords(names: NamedList = NAMES):
    later = text_lint.read("CR7.4", GLOSSARY)
    concordance = replace(BASIC_TO_COMPREHENSIVE, passages=(), lists=(names,))
    return text_lint.basic(text_lint.read_sections("001", KEYWORDS), {"CR7.4": later}, concordance)


def test_a_name_the_later_list_lacks_is_a_basic_clash():
    """The basic rules call instant a keyword; the glossary's list of
    keywords does not hold it (it defines it as a tag)."""
    (clash,), checks = _keywords()
    assert clash.key == "basic-clash:001+CR7.4:keywords" and clash.rules == ("CR7.4 glossary: Keyword",)
    assert clash.places == ("001_bb13bfcb78a9b116.txt:5-6", "wowtcg-comprehensive-rules-7.4.txt:6-7")
    assert "names 2 words the basic rules call keywords" in clash.summary and "(Keyword, 4 names) lacks 1: Instant (瞬發)" in clash.summary
    assert dict(checks)["basic_concordance[001 CR7.4]"].endswith("2 names in its lists are terms of CR7.4's glossary")


def test_a_planted_wrong_term_is_reported():
    """瞬發 declared as a term the glossary does not define; a name of the basic list with no term declared."""
    wrong = replace(NAMES, names=(("瞬發", "Instance"),))
    found, checks = _keywords(wrong)
    verdict = dict(checks)["basic_concordance[001 CR7.4]"]
    assert verdict.endswith("0 names in its lists are terms of CR7.4's glossary; not found in the texts: "
                            "keywords (瞬發: no CR7.4 glossary entry Instance), keywords (隱遁: no term declared for it)")
    assert [f.key for f in found] == ["basic-clash:001+CR7.4:keywords"]
