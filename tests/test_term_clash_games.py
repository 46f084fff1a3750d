"""term-clash for Riftbound (003) and Heroes of Ancients (004): the declared
tables (``model/riftbound/terms.py``, ``model/hota/terms.py``) held to the
texts, 004's rules held to the term list it opens with, and planted
renderings reported."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from chainproof import text_lint
from model.hota import terms as hota
from model.riftbound import terms as riftbound
from model.sources import SOURCES, lines_of, texts_folder
from model.term_concordance import Term

needs_texts = pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not at hand")


def _rules(lines: tuple[str, ...]) -> str:
    return "\n".join(lines[SOURCES["004"].rules_from - 1:])


def _listed() -> list[text_lint.ListedTerm]:
    return text_lint.term_list(lines_of("004") or (), SOURCES["004"].rules_from)


def _keys(found: list[text_lint.TextFinding]) -> list[str]:
    return sorted(f.key for f in found)


def test_a_list_entry_two_terms_share_a_listed_word_unused_and_a_lacking_term_are_findings():
    lines = ("## 中英文对应", "区域 Zones", "```", "    战场 Battlefield", "    战场 Field", "    套牌 Deck", "    坟场 Graveyard", "```",
             "第一章", "洗入牌库。", "战场上的实体。", "实体离开战场。")
    listed = text_lint.term_list(lines, 9)
    assert [(e.line, e.group, e.chinese, e.english) for e in listed][:2] == [(4, "Zones", "战场", "Battlefield"), (5, "Zones", "战场", "Field")]
    # The planted list gives 战场 to a second term; the rules write the deck 牌库 only; 实体 is in no list.
    table = (Term("Battlefield", "Zones", "", {"004": ("战场",)}), Term("Field", "Zones", "", {"004": ("战场",)}),
             Term("Deck", "Zones", "", {"004": ("套牌", "牌库")}), Term("Graveyard", "Zones", "", {"004": ("坟场",)}),
             Term("Entity", "unlisted", "", {"004": ("实体",)}))
    rules = tuple(line if i >= 9 else "" for i, line in enumerate(lines, start=1))
    found, (query, verdict) = text_lint.term_listed("004", rules, listed, hota.split, table, {}, 2)
    assert query == "term_clash[004 list]"
    assert _keys(found) == ["term-clash:004:Deck", "term-clash:004:list:战场", "term-clash:004:unlisted"]
    assert "gives 套牌 for Deck (line 6); its rules never write it, and write 牌库 1 times (first at line 10)" in next(f.summary for f in found if f.key.endswith("Deck"))
    assert "1 never (坟场 (Graveyard))" in verdict and "1 Chinese given two terms (0 declared)" in verdict and verdict.startswith("4 entries of its term list name 4 terms;")
    # Declared: the shared word is counted, and a lacking term used less than the bound is not reported.
    found, (_, verdict) = text_lint.term_listed("004", rules, listed, hota.split, table, {("004", "战场"): "planted"}, 3)
    assert _keys(found) == ["term-clash:004:Deck"] and "1 Chinese given two terms (1 declared)" in verdict


@needs_texts
def test_hotas_list_is_read_from_the_text_and_the_declarations_hold_to_it():
    listed = _listed()
    pairs = {(e.chinese, e.english) for e in listed}
    assert len(listed) == 44 and ("玩家", "Player") in pairs and ("放逐区", "Exile") in pairs and ("防止性效应", "Prevention Effect") in pairs
    names = {name for e in listed for name, _ in hota.split(e.chinese, e.english)}
    listed_words = {word for e in listed for _, word in hota.split(e.chinese, e.english)}
    assert all(e.english in {x.english for x in listed} for e in listed if e.english in hota.SPLIT) and set(hota.SPLIT) <= {e.english for e in listed}
    assert set(hota.VARIANTS) <= names and set(hota.SYNONYMS) <= set(hota.VARIANTS)
    rules = _rules(lines_of("004") or ())
    for name, variants in hota.VARIANTS.items():
        for word, why in variants:
            assert word in rules and word not in listed_words and why, (name, word)
    for t in hota.UNLISTED:
        assert t.name not in names and all(w in rules and w not in listed_words for w in t.renderings["004"]), t.name
    for (_, word), why in hota.SHARED.items():
        assert sum(1 for e in listed if e.chinese == word) > 1 and why
    table = hota.table((e.group, n, w) for e in listed for n, w in hota.split(e.chinese, e.english))
    assert len({t.name for t in table}) == len(table)


@needs_texts
def test_riftbounds_table_is_held_to_the_text():
    text = "\n".join(lines_of("003") or ())
    names = [t.name for t in riftbound.TERMS]
    assert len(names) == len(set(names))
    for t in riftbound.TERMS:
        assert set(t.renderings) == {"003"} and set(t.synonyms) <= {"003"}, t.name
        for word in t.renderings["003"]:
            assert re.search(text_lint.rendering_pattern(word), text), (t.name, word)
        # A reason for synonyms only where the text writes the term more than one way.
        assert not t.synonyms or len(t.renderings["003"]) > 1, t.name


@needs_texts
def test_lint_reads_both_texts_terms_and_says_how_many():
    texts = {x: text_lint.load(x) for x in ("003", "004")}
    found, checks = text_lint.terms(texts)
    said = dict(checks)
    assert set(said) == {"term_clash[003]", "term_clash[004]", "term_clash[004 list]"}
    # Not vacuous: hundreds of occurrences read in each text.
    for query in ("term_clash[003]", "term_clash[004]"):
        assert int(re.match(r"(\d+) occurrences", said[query]).group(1)) > 200, said[query]
    assert "its rules write 24 of them as listed" in said["term_clash[004 list]"]
    assert _keys(found) == [
        "term-clash:003:Closed", "term-clash:004:Creatures", "term-clash:004:Deck",
        "term-clash:004:Defense", "term-clash:004:Equipments", "term-clash:004:Life", "term-clash:004:Token", "term-clash:004:unlisted",
    ]
    unlisted = next(f for f in found if f.key.endswith("unlisted")).summary
    assert "Controller (操控者, 16 times" in unlisted and "Token (衍生物/指示物, 24 times" in unlisted


@needs_texts
def test_planted_renderings_in_hotas_rules_are_reported_and_a_fixed_one_is_not():
    lines = lines_of("004") or ()
    # A planted 生物 in 109.4 beside the rules' 单位: Creatures is then written two ways.
    at = next(i for i, line in enumerate(lines) if line.startswith("109.4. "))
    planted = lines[:at] + (lines[at].replace("单位", "生物", 1),) + lines[at + 1:]
    found = {f.key: f for f in text_lint.term_own_list("004", planted)[0]}
    assert "renders the Cards term Creatures 2 ways: 生物 1 times (first at line 214); 单位 6 times" in found["term-clash:004:Creatures"].summary
    # 104.3b written with 103.3's 生命值: life is one word throughout.
    fixed = tuple(line.replace("体力", "生命值") for line in lines)
    assert "term-clash:004:Life" not in {f.key for f in text_lint.term_own_list("004", fixed)[0]}


@needs_texts
def test_a_riftbound_term_written_two_ways_is_reported_unless_declared(monkeypatch: pytest.MonkeyPatch):
    lines = lines_of("003") or ()
    # Line 41 written as line 34 writes the closed showdown: no clash left.
    assert text_lint.term_text("003", tuple(line.replace("关闭", "闭环") for line in lines), riftbound.TERMS, riftbound.SHARED)[0] == []
    # Without its reason, the cleanup's second word is a finding.
    table = tuple(replace(t, synonyms={}) if t.name == "Cleanup" else t for t in riftbound.TERMS)
    found, (_, verdict) = text_lint.term_text("003", lines, table, riftbound.SHARED)
    assert _keys(found) == ["term-clash:003:Cleanup", "term-clash:003:Closed"] and "2 rendered two ways declared synonyms" in verdict
