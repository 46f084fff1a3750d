"""The rule texts read as texts (``chainproof/text_lint.py``): citations of
rules that are not there or that name another section, the two languages of
one text that state a rule with different numbers, and two versions of one
rulebook compared through the concordance of their sections."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chainproof import text_lint
from chainproof.lint_report import sarif
from chainproof.linting import KINDS, Lint, lint_texts
from model.concordance import SEED_TO_CR74, Kept
from model.sources import SOURCES, texts_folder


def keys(found) -> list[str]:
    return sorted(f.key for f in found)


def test_every_text_kind_is_a_lint_kind():
    assert set(text_lint.KINDS) <= set(KINDS)


def test_a_citation_of_a_rule_the_text_lacks_inside_what_it_holds_is_dangling(whole_files):
    # 004 holds 100-109: 100.3 is inside, and missing; 112.10 is outside, and no other HotA text holds it.
    text = text_lint.read("004", [
        "### 100. 总则 General",
        "100.1. 先读规则100.2,再读100.3。",
        "100.2. 见 112.10 的例外。",
    ])
    found, checks = text_lint.dangling({"004": text})
    assert keys(found) == ["dangling-reference:004:100.3@100.1", "dangling-reference:004:112.10@100.2"]
    inside, outside = sorted(found, key=lambda f: f.key)
    assert inside.places == ("004_1df466d0e3555139.txt:2",) and inside.rules == ("100.1", "100.3")
    assert "inside the sections 004 holds" in inside.summary and "no game shows it" in inside.summary
    assert "no other text of the game holds it" in outside.summary
    assert checks == [("dangling_reference[004]", "2 of its 3 citations point at no rule")]


def test_a_clean_text_has_no_dangling_citation(whole_files):
    text = text_lint.read("004", ["### 100. 总则 General", "100.1. 见规则100.2。", "100.2. 见 100.1 与 101。", "### 101. 最高原则"])
    assert text_lint.dangling({"004": text}) == ([], [("dangling_reference[004]", "each of its 3 citations points at a rule")])


def test_outside_its_sections_a_citation_dangles_only_where_no_text_that_holds_them_has_the_rule(whole_files):
    seed = text_lint.read("000", ["103.3 即便如此(见规则102.2,709.2a)。", "102.2 输去游戏。"])
    later = text_lint.read("CR7.4", ["709.2a An interrupted link is removed.", "709.2b Another."])
    assert text_lint.dangling({"000": seed, "CR7.4": later})[0] == []
    without = text_lint.read("CR7.4", ["709.2b Another."])
    (found,), _ = text_lint.dangling({"000": seed, "CR7.4": without})
    assert found.key == "dangling-reference:000:709.2a@103.3"
    assert "CR7.4, which does, has no rule 709.2a either" in found.summary


def test_a_lost_cross_reference_is_dangling_and_rules_of_the_reference_carry_its_id(whole_files):
    text = text_lint.read("CR7.4", ["414.3d For the varieties of wielding, see Error! Reference source not", "found."])
    (found,), _ = text_lint.dangling({"CR7.4": text})
    assert found.key == "dangling-reference:CR7.4:lost@414.3d" and found.rules == ("CR7.4 414.3d",)
    assert "Error! Reference source not found" in found.summary


def test_a_text_that_numbers_no_rules_has_nothing_to_check(whole_files):
    assert text_lint.dangling({"003": text_lint.read("003", ["战斗", "每名玩家抓七张牌。"])}) == (
        [], [("dangling_reference[003]", "the text numbers no rules: nothing to check")]
    )


def test_a_citation_whose_words_are_another_sections_title_is_misdirected(whole_files):
    lines = ["405.双持", "405.1 可以持有两件武器。", "406.治愈", "404.伤害", "404.1 除非它被治愈(见规则405),伤害会留下。"]
    (found,), check = text_lint.misdirected(text_lint.read("000", lines))
    assert found.key == "misdirected-reference:000:405@404.1" and found.rules == ("404.1", "405", "406")
    assert "406 (治愈)" in found.summary and found.places == ("000_93427c41005e332f.txt:5",)
    assert check == ("misdirected_reference[000]", "1 of its citations annotate another section's title")
    right = [*lines[:-1], "404.1 除非它被治愈(见规则406),伤害会留下。"]
    assert text_lint.misdirected(text_lint.read("000", right))[0] == []


@pytest.mark.parametrize(
    "text, numbers",
    [
        ("抓七张牌,选择一个大于一百万的正整数", {7, 1_000_000}),
        ("draw seven cards; choose any integer greater than 1 million", {7, 1_000_000}),
        ("a card (see 602.3) with 2 ATK, twice", {2}),
        ("一个角色,两种更动,十二张", {2, 12}),
        ("有别于万智牌", set()),
        # 十字 is holy damage's cross and 并无二致 "no different": neither states a number, 十张 does.
        ("神圣(黄色十字),与其他盟军并无二致,抓十张牌", {10}),
        ("A token's cost is always zero", {0}),
    ],
)
def test_numbers_in_either_language_leave_out_citations_and_the_article_one(text, numbers):
    assert text_lint.numbers(text) == numbers


BILINGUAL = [
    "601. Combat proposal",
    "战斗提议",
    "601.1 A player draws two cards, then proposes (602.1).",
    "玩家抓两张牌,然后提议(见规则602.1)。",
    "601.2 Only one character can protect each combat (602.2).",
    "一次战斗只允许一个角色护卫。",
    "Example: You control 3 allies.",
    "Grunt Baranka, 2, Horde, Ally—Orc Warrior, 2 ATK (Melee), 2 Health",
]


def test_the_two_languages_of_a_text_that_agree_make_no_clash(whole_files):
    found, check = text_lint.translation(text_lint.read("002en", BILINGUAL), text_lint.read("002zh", BILINGUAL))
    assert found == []
    # 601.2's Chinese leaves the citation out: it adds nothing the English contradicts.
    assert check == ("translation_clash[002en 002zh]", "the 3 rules both state agree; in 1 more, one only adds to the other")


def test_a_number_or_a_citation_that_differs_between_the_languages_is_a_translation_clash(whole_files):
    planted = [line.replace("抓两张牌", "抓三张牌").replace("602.1", "603.1") if line.startswith("玩家") else line for line in BILINGUAL]
    (found,), _ = text_lint.translation(text_lint.read("002en", BILINGUAL), text_lint.read("002zh", planted))
    assert found.key == "translation-clash:002en+002zh:601.1"
    assert found.places == ("002_747842af486db20b.txt:3", "002_747842af486db20b.txt:4")
    assert "the numbers 2 in 002en against 3 in 002zh" in found.summary
    assert "002en cites 602.1 where 002zh cites 603.1" in found.summary


#: The seed's priority (409) is CR7.4's 410, its dual wield (405) CR7.4's
#: wielding (406), where CR7.4 lists the kinds of wielding first (406.1), so
#: that the seed's 405.1 is its 406.2.
SEED = [
    "102.1a 这是预·优先权检验(见规则409.6)。",
    "300.1 共有七种牌类别。图腾(见规则306.3)归为角色类。",
    "405.1 若英雄具有双持,可以持有两件武器(见规则412)。",
    "409.优先权",
    "409.6 预·优先权检验。",
]
LATER = [
    "102.1a These are pre-priority checks (410.6b).",
    "300.1 There are six card types. Totems (305.3) are characters.",
    "406.1 There are several kinds of wielding (303.2c).",
    "406.2 A hero with dual wield can have two weapons (414).",
    "409. Playing cards",
    "409.6 Something else.",
    "410. Priority",
    "410.6 Pre-priority checks.",
]


def test_a_shifted_section_is_aligned_through_the_concordance_and_a_moved_rule_by_its_move(whole_files):
    seed, later = text_lint.read("000", SEED), text_lint.read("CR7.4", LATER)
    pairs = {mine.number: theirs.number for mine, theirs in text_lint.aligned(seed, later, SEED_TO_CR74)}
    assert pairs["405.1"] == "406.2" and pairs["409.6"] == "410.6" and pairs["300.1"] == "300.1"
    assert "409" in pairs and pairs["409"] == "410"


def test_a_moved_rule_takes_its_sub_rules_along_and_a_dropped_rule_pairs_with_nothing(whole_files):
    # CR7.4 has no counterpart of the seed's 413.3, and numbers each zone after it one lower.
    seed = text_lint.read("000", ["413.区域", "413.3 说明。", "413.4 套牌区", "413.4a 套牌区中的牌面朝下(见规则413.10)。",
                                  "413.6a 被消灭的牌(见规则413.3)。"])
    later = text_lint.read("CR7.4", ["415. Zones", "415.3 Deck zone", "415.3a Cards in decks are face down (415.9a).",
                                     "415.4 Hand zone", "415.5a Destroyed cards (415.1)."])
    assert [(a.number, b.number) for a, b in text_lint.aligned(seed, later, SEED_TO_CR74)] == [
        ("413", "415"), ("413.4", "415.3"), ("413.4a", "415.3a"), ("413.6a", "415.5a")]
    # 413.10 is CR7.4's 415.9: 413.4a's citation agrees; a citation of the dropped 413.3 matches nothing.
    (found,), _ = text_lint.version(seed, later, SEED_TO_CR74)
    assert found.key == "version-clash:000+CR7.4:413.6a"
    assert "000 cites 413.3 (no rule of CR7.4) where CR7.4 cites 415.1" in found.summary


def test_two_versions_that_state_different_numbers_clash_and_a_renumbered_citation_does_not(whole_files):
    (found,), checks = text_lint.version(text_lint.read("000", SEED), text_lint.read("CR7.4", LATER), SEED_TO_CR74)
    # 102.1a's 409.6 is CR7.4's 410.6 and 405.1's 412 its 414: only 300.1's count of card types differs.
    assert found.key == "version-clash:000+CR7.4:300.1" and found.rules == ("300.1", "CR7.4 300.1")
    assert found.places == ("000_93427c41005e332f.txt:2", "wowtcg-comprehensive-rules-7.4.txt:2")
    assert found.summary.startswith("300.1 in 000 and in CR7.4: the numbers 7 in 000 against 6 in CR7.4 (")
    assert dict(checks)["version_clash[000 CR7.4]"].startswith("1 of the 5 rules both state differ")


def test_a_citation_that_moved_elsewhere_than_the_concordance_says_is_a_clash_shown_as_each_text_cites_it(whole_files):
    moved = [line.replace("(414)", "(413)") for line in LATER]
    found = {f.key: f for f in text_lint.version(text_lint.read("000", SEED), text_lint.read("CR7.4", moved), SEED_TO_CR74)[0]}
    assert sorted(found) == ["version-clash:000+CR7.4:300.1", "version-clash:000+CR7.4:405.1"]
    found = found["version-clash:000+CR7.4:405.1"]
    assert found.rules == ("405.1", "CR7.4 406.2")
    assert "405.1 in 000 and 406.2 in CR7.4: 000 cites 412 (CR7.4 414) where CR7.4 cites 413" in found.summary


def test_the_citations_bear_out_the_concordance_and_go_against_a_wrong_entry(whole_files):
    seed, later = text_lint.read("000", SEED), text_lint.read("CR7.4", LATER)
    checks = dict(text_lint.version(seed, later, SEED_TO_CR74)[1])
    assert checks["version_concordance[000 CR7.4]"] == (
        f"the paired rules' citations agree on 3 citations under 3 of its {len(SEED_TO_CR74.entries)} entries; 0 more point at "
        "another entry's section (a text that cites the wrong section, or a pair numbered apart); none goes against an entry; "
        "0 pairs state numbers or citations on both sides and share none; 0 of them declared one rule rewritten"
    )
    # Declared unshifted, priority's entry is contradicted: 102.1a's 409.6 is cited as 410.6b, under no entry's section.
    unshifted = replace(SEED_TO_CR74, entries=tuple(replace(e, later="409") if e.older == "409" else e for e in SEED_TO_CR74.entries))
    verdict = dict(text_lint.version(seed, later, unshifted)[1])["version_concordance[000 CR7.4]"]
    assert "the citations go against 409 -> 409 (102.1a cites 409.6 as 410.6b; 0 agree)" in verdict


def test_a_pair_that_shares_nothing_is_named_unless_declared_one_rule_rewritten(whole_files):
    """A concordance that lacks a move pairs two different rules, which
    rarely share a number or a citation: lint names such a pair."""
    seed = [*SEED, "409.6d 附结物检查其宿主(见规则400)。"]
    later = [*LATER, "410.6d All tokens in non-play zones cease to exist (404.2c)."]
    unmoved = replace(SEED_TO_CR74, moves=tuple(m for m in SEED_TO_CR74.moves if m.older != "409.6d"))
    found, checks = text_lint.version(text_lint.read("000", seed), text_lint.read("CR7.4", later), unmoved)
    assert "version-clash:000+CR7.4:409.6d" in keys(found)
    assert dict(checks)["version_concordance[000 CR7.4]"].endswith(
        "1 pairs state numbers or citations on both sides and share none; 0 of them declared one rule rewritten; "
        "not declared, and maybe two different rules: 409.6d")
    kept = replace(unmoved, kept=(Kept("409.6d", "read as one rule"),))
    verdict = dict(text_lint.version(text_lint.read("000", seed), text_lint.read("CR7.4", later), kept)[1])["version_concordance[000 CR7.4]"]
    assert verdict.endswith("1 pairs state numbers or citations on both sides and share none; 1 of them declared one rule rewritten")


def test_a_wrapped_line_that_is_only_a_citation_continues_its_rule(whole_files):
    text = text_lint.read("CR7.4", ["415.9 Changing zones", "415.9b This is an exception to", "415.9a.", "415.9c Another."])
    assert text.rules["415.9"].text == "Changing zones"
    assert text.rules["415.9b"].cites == {"415.9a"} and text.rules["415.9b"].text.endswith("exception to 415.9a.")


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_each_declared_move_is_read_in_both_texts():
    """A move's seed rule is one the seed heads or cites (413.10, which its
    text lacks), its CR7.4 number one CR7.4 heads; a rule CR7.4 added is no
    seed rule's pair, and every CR7.4 rule at a number a seed rule moved away
    from is another's pair or declared added; the pairs declared one rule
    rewritten are all the pairs that share nothing."""
    seed, later = text_lint.load("000"), text_lint.load("CR7.4")
    assert seed is not None and later is not None
    cited = {c.rule for c in seed.cited}
    for m in SEED_TO_CR74.moves:
        assert m.older in seed.rules or m.older in cited, m
        assert m.later is None or m.later in later.rules, m
    paired = {theirs.number: mine.number for mine, theirs in text_lint.aligned(seed, later, SEED_TO_CR74)}
    added = {a.later for a in SEED_TO_CR74.added}
    assert added <= set(later.rules) and not added & set(paired)
    left = {f"{SEED_TO_CR74.sections[m.older.partition('.')[0]]}.{m.older.partition('.')[2]}" for m in SEED_TO_CR74.moves}
    # 415.9 is the pair of 413.10, which the seed cites and does not hold.
    taken = set(paired) | {m.later for m in SEED_TO_CR74.moves}
    assert {n for n in left if n in later.rules} - taken == added
    _, checks = text_lint.version(seed, later, SEED_TO_CR74)
    verdict = dict(checks)["version_concordance[000 CR7.4]"]
    assert f"{len(SEED_TO_CR74.kept)} of them declared one rule rewritten" in verdict and "not declared" not in verdict


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_each_concordance_entry_names_its_sections_as_their_texts_title_them():
    """The seed's title from its heading, or from its contents for a section
    the translation leaves out (411, 500, the 700s); CR7.4's from its heading."""
    seed, later = text_lint.load("000"), text_lint.load("CR7.4")
    assert seed is not None and later is not None
    for e in SEED_TO_CR74.entries:
        assert seed.titles.get(e.older, seed.listed.get(e.older)) == text_lint.title_words(e.older_title), e
        assert later.titles.get(e.later) == text_lint.title_words(e.later_title), e


def test_without_the_texts_lint_says_the_text_checks_were_skipped(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(text_lint, "lines_of", lambda source: None)
    out = Lint()
    lint_texts("hota", out)
    assert out.findings == []
    (check,) = out.checks
    assert check.query == "text_checks" and check.verdict.startswith("skipped: 004_1df466d0e3555139.txt not at hand")


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_the_shipped_texts_findings():
    wow, wow_checks = text_lint.lint_texts("wowtcg")
    # The basic rules' clashes are tests/test_basic_clash.py's, the counts a text lists tests/test_self_count.py's,
    # the glossaries tests/test_glossary_clash.py's, the terms tests/test_term_clash.py's.
    assert [k for k in keys(wow) if not k.startswith(("version-clash:", "basic-clash:", "self-count:", "glossary-clash:", "term-clash:"))] == [
        "dangling-reference:000:412.3b@405.1",
        "dangling-reference:000:412.3b@405.2",
        "dangling-reference:000:413.10@403.1b",
        "dangling-reference:CR7.4:lost@414.3d",
        "misdirected-reference:000:405@404.1",
        "misdirected-reference:000:405@407.1",
    ]
    checks = dict(wow_checks)
    assert checks["misdirected_reference[CR7.4]"].startswith("not checked")
    # The seed's citations of the chain rules it leaves out (709.2a, 707.1d, 712.6, 718.2) are CR7.4's rules.
    assert checks["dangling_reference[000]"] == "3 of its 96 citations point at no rule"
    assert checks["dangling_reference[001]"] == "the text numbers no rules: nothing to check"
    assert checks["translation_clash[002en 002zh]"].startswith("the 30 rules both state agree")
    versions = sorted(k for k in keys(wow) if k.startswith("version-clash:"))
    assert versions == [f"version-clash:000+CR7.4:{n}" for n in (
        "103.3", "300.1", "303.2a", "404.1", "407.1", "409.2b", "412.3d", "502.1")]
    assert checks["version_clash[000 CR7.4]"] == "8 of the 204 rules both state differ; in 44 more, one only adds to the other"
    assert checks["version_clash[002en CR7.4]"] == "the 29 rules both state agree; in 3 more, one only adds to the other"
    assert "none goes against an entry; 3 pairs state numbers or citations on both sides" in checks["version_concordance[000 CR7.4]"]
    # term-clash's findings in 003 and 004 are pinned by tests/test_term_clash_games.py.
    hota = [f for f in text_lint.lint_texts("hota")[0] if f.kind != "term-clash"]
    assert keys(hota) == ["dangling-reference:004:112.10@101.2a"]
    assert hota[0].places == ("004_1df466d0e3555139.txt:94",)
    assert [f.kind for f in text_lint.lint_texts("riftbound")[0]] == ["term-clash"]
    assert dict(text_lint.lint_texts("riftbound")[1])["dangling_reference[003]"] == "the text numbers no rules: nothing to check"


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
def test_a_textual_finding_is_located_at_its_line_in_sarif():
    out = Lint()
    lint_texts("hota", out)
    (result,) = [r for r in sarif(out)["runs"][0]["results"] if r["ruleId"] != "term-clash"]
    assert result["ruleId"] == "dangling-reference"
    (location,) = result["locations"]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "seeds/004_1df466d0e3555139.txt"
    assert location["physicalLocation"]["region"] == {"startLine": 94, "endLine": 94}
    assert [c.method for c in out.checks] == ["text scan"] * 5


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_the_sections_a_source_declares_are_those_it_heads(source: str):
    """``covers`` is data held to the files: every section a text heads is
    declared (004 closes on an empty heading 110), and every declared one is
    there but 000's 411 (searching) and 500 (the turn's overview), which the
    translation lists in its contents and leaves out."""
    text = text_lint.load(source)
    assert text is not None
    heads = {n.partition(".")[0] for n in text.rules}
    declared = {str(n) for first, last in SOURCES[source].covers for n in range(first, last + 1)}
    assert heads - declared == ({"110"} if source == "004" else set())
    assert declared - heads == ({"411", "500"} if source == "000" else set())
