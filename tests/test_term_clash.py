"""The game's terms against the texts that render them
(``chainproof/text_lint.py``, term-clash): the declared table held to CR7.4
and to each Chinese text, and a wrong rendering, a term rendered two ways
and a rendering two terms share each reported."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from chainproof import text_lint
from chainproof.linting import KINDS
from model import term_concordance
from model.sources import lines_of, texts_folder
from model.term_concordance import READINGS, TERMS, TEXTS, Term

needs_texts = pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not at hand")


def test_term_clash_is_a_lint_kind():
    assert "term-clash" in text_lint.KINDS and "term-clash" in KINDS


def _rule(number: str, text: str) -> text_lint.Rule:
    return text_lint.Rule(number, 1, (1,), text)


def _texts(english: str, chinese: str, source: str = "002zh") -> tuple[text_lint.RuleText, text_lint.RuleText, list[tuple[text_lint.Rule, text_lint.Rule]]]:
    en, zh = _rule("602.1", english), _rule("602.1", chinese)
    return (text_lint.RuleText("002en", {"602.1": en}), text_lint.RuleText(source, {"602.1": zh}), [(en, zh)])


def test_a_rule_whose_chinese_renders_another_term_of_the_kind_is_a_finding():
    # 602.1 names the graveyard; a planted Chinese puts the card in hand (手牌) instead.
    en, zh, pairs = _texts("Put the attacker into its owner's graveyard.", "将攻击者置入其手牌。", "000")
    found, (query, verdict) = text_lint.term_pairs(en, zh, pairs)
    assert [f.key for f in found] == ["term-clash:002en+000:602.1:Graveyard"]
    assert "Hand (手牌)" in found[0].summary and query == "term_clash[002en 000]"
    assert verdict.startswith("3 occurrences of declared terms")  # attacker, owner, graveyard
    assert "renders 1 of them; 1 rendered as another term" in verdict
    # Rendered right, or not rendered at all, it is no finding.
    for chinese in ("将攻击者置入其坟墓场。", "将攻击者移走。"):
        en, zh, pairs = _texts("Put the attacker into its owner's graveyard.", chinese, "000")
        assert text_lint.term_pairs(en, zh, pairs)[0] == []


def test_a_split_rendering_and_a_proposed_role_are_read_as_one_term():
    # "proposed as an attacker" is the role; 提议它为攻击者 renders it with the pronoun in between.
    en, zh, pairs = _texts("It can be proposed as an attacker only if able.", "才能提议它为攻击者。")
    found, (_, verdict) = text_lint.term_pairs(en, zh, pairs)
    assert found == [] and "renders 1 of them" in verdict


def _table(monkeypatch: pytest.MonkeyPatch, *terms: Term) -> None:
    monkeypatch.setattr(text_lint, "TERMS", terms)
    monkeypatch.setattr(text_lint, "_BY_NAME", {t.name: t for t in terms})


def test_a_term_rendered_two_ways_or_two_terms_alike_is_a_finding(monkeypatch: pytest.MonkeyPatch):
    _table(monkeypatch,
           Term("Exhaust", "state", r"\bexhaust", {"000": ("横置", "倒置")}),
           Term("Ready", "state", r"\bready", {"000": ("重置", "竖置")}, {"000": "one the act, one the state"}),
           Term("Hand", "zone", r"\bhand", {"000": ("牌区",)}),
           Term("Deck", "zone", r"\bdeck", {"000": ("牌区", "牌库")}, {"000": "planted"}))
    lines = ("横置该牌。", "重置该牌,使其竖置。", "将其倒置。", "置入牌区。")
    found, (query, verdict) = text_lint.term_text("000", lines)
    assert sorted(f.key for f in found) == ["term-clash:000:Exhaust", "term-clash:000:牌区"]
    assert query == "term_clash[000]" and "declared but not in the text: 牌库 (Deck)" in verdict
    assert "1 rendered two ways declared synonyms" in verdict
    exhaust = next(f for f in found if f.key.endswith("Exhaust"))
    assert exhaust.places == ("000_93427c41005e332f.txt:1", "000_93427c41005e332f.txt:3")
    # Declared, with why the words still tell the two terms apart, the shared rendering is counted instead.
    monkeypatch.setattr(text_lint, "SHARED", {("000", "牌区"): "planted"})
    found, (_, verdict) = text_lint.term_text("000", lines)
    assert [f.key for f in found] == ["term-clash:000:Exhaust"] and "1 shared renderings declared" in verdict


def test_two_translations_of_one_rule_that_name_a_term_apart_are_a_finding():
    english = text_lint.RuleText("002en", {"603.1": _rule("603.1", "No player gets priority during combat conclusion.")})
    first = text_lint.RuleText("000", {"603.1": _rule("603.1", "于战斗终结中,没有玩家会得到优先权。")})
    second = text_lint.RuleText("002zh", {"603.1": _rule("603.1", "于战斗伤害判定中,没有玩家会得到优先权。")})
    found, (_, verdict) = text_lint.term_versions(first, second, english)
    assert [f.key for f in found] == ["term-clash:000+002zh:Combat-conclusion"]
    assert "战斗终结 against 伤害判定" in found[0].summary and verdict.startswith("2 terms")


def test_one_word_for_two_terms_in_two_texts_is_a_finding():
    seen = {"000": {"Target": {"目标": [66]}, "Character": {"角色": [70]}}, "002zh": {"Character": {"目标": [8, 9], "角色": [40]}}}
    found, (query, verdict) = text_lint.term_across(seen)
    assert [f.key for f in found] == ["term-clash:000+002zh:目标"] and query == "term_clash[across texts]"
    assert found[0].places == ("000_93427c41005e332f.txt:66", "002_747842af486db20b.txt:8")
    assert verdict == "2 renderings in use in two texts; 1 of them name different terms"


def test_the_table_names_each_term_once_and_declares_each_kind_of_reading():
    names = [t.name for t in TERMS]
    assert len(names) == len(set(names))
    for t in TERMS:
        assert set(t.renderings) <= set(TEXTS) and t.renderings, t.name
        # A reason for two renderings is given only where a text declares two, or for a pair of texts.
        for x in t.synonyms:
            assert x in t.renderings and len(t.renderings[x]) > 1 or set(x.split("+")) <= set(t.renderings), (t.name, x)
    assert {t for *_, t in READINGS} <= set(names)


@needs_texts
def test_each_term_is_cr74s_and_each_rendering_is_where_it_is_declared():
    reference = "\n".join(lines_of("CR7.4") or ())
    for t in TERMS:
        # The name is CR7.4's own words (a glossary head or its rules'), which its English pattern reads.
        assert t.name.lower() in reference.lower(), t.name
        assert re.search(t.english, reference, re.IGNORECASE), t.name
    for source in TEXTS:
        lines = [line for line in lines_of(source) or () if source != "002zh" or text_lint._language(line) == "zh"]
        text = "\n".join(lines)
        for t in TERMS:
            for r in t.renderings.get(source, ()):
                assert re.search(text_lint.rendering_pattern(r), text), (source, t.name, r)


@needs_texts
def test_lint_reads_the_texts_terms_and_says_how_many_agree():
    texts = {x: text_lint.load(x) for x in ("000", "001", "002en", "002zh", "CR7.4")}
    found, checks = text_lint.terms(texts)
    said = dict(checks)
    assert set(said) == {"term_clash[000]", "term_clash[001]", "term_clash[002zh]", "term_clash[across texts]",
                         "term_clash[002en 002zh]", "term_clash[CR7.4 000]", "term_clash[000 002zh]"}
    # Not vacuous: hundreds of occurrences compared, most of them rendered.
    for query in ("term_clash[002en 002zh]", "term_clash[CR7.4 000]"):
        compared, agree = map(int, re.match(r"(\d+) occurrences .* renders (\d+) of them", said[query]).groups())
        assert compared > 150 and agree > 0.85 * compared, said[query]
    assert "declared but not" not in " ".join(said.values())
    assert sorted(f.key for f in found) == [
        "term-clash:000+002zh:Character", "term-clash:000+002zh:Combat-conclusion", "term-clash:000+002zh:目标",
        "term-clash:001:遠程", "term-clash:002en+002zh:602.2b:Attacker", "term-clash:002en+002zh:602.3b:Attacker",
        "term-clash:002zh:Character",
    ]
