"""Setup questions (``model/setup.py``, ``model/wowtcg/setup.py``): deck
building, the opening hand, the first player and the mulligan, ruled per
source and compared by lint over every setup of their domains
(``chainproof.linting.lint_setup``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from chainproof import lint_cli
from chainproof.cli import main
from chainproof.lint_report import markdown, sarif
from chainproof.linting import Lint, lint_setup
from engine.wowtcg.cards import load_pool
from engine.wowtcg.deck import Deck, validate_deck
from model import wowtcg
from model.registry import RegistryError
from model.rulings import RuleBook, Ruling, always
from model.setup import is_setup, setup_question, setup_questions
from model.sources import SourceError
from model.wowtcg import rulings as wow_rulings
from model.wowtcg import setup as wow_setup

BOOK = wowtcg.build().rulings
ALLIANCE_WARRIOR = frozenset({"Alliance", "Warrior"})
HORDE_WARRIOR_CARD = frozenset({"Horde", "Warrior"})


def _lint(book: RuleBook) -> Lint:
    out = Lint()
    lint_setup("wowtcg", book, out)
    return out


def test_the_setup_questions_sit_in_the_rule_book_and_no_state_asks_them():
    names = {q.name for q in setup_questions(BOOK)}
    assert names == {q.name for q in wow_setup.QUESTIONS}
    assert all(is_setup(BOOK.declared[n]) and not BOOK.declared[n].asked_at for n in names)
    # The questions of play are not setup questions.
    assert not is_setup(BOOK.declared["may_attack"]) and not is_setup(BOOK.declared["loses_as_hero_is_destroyed"])


def test_each_source_answers_the_deck_building_question_its_own_way():
    """100.2a: an Alliance Warrior hero and a card with the Horde and Warrior icons."""
    args = (ALLIANCE_WARRIOR, HORDE_WARRIOR_CARD)
    assert BOOK.fixed("may_include_card", *args) is True  # 000:94, one icon in common
    assert BOOK.under("CR7.4").fixed("may_include_card", *args) is False  # a faction icon must be shared too
    assert BOOK.under("001").fixed("may_include_card", *args) is False  # every icon must be the hero's
    # A card with no icon goes into any deck, by every source.
    for x in ("000", "001", "CR7.4"):
        assert BOOK.under(x).fixed("may_include_card", ALLIANCE_WARRIOR, frozenset()) is True


def test_the_engine_checks_decks_as_the_models_reading_answers_for_every_hero_and_card():
    """The engine's deck validation (100.2a, written without the model) and the
    model's reading of may_include_card give every pair of the engine's pool
    the same legality."""
    pool = load_pool()
    heroes = [c for c in pool if c.type == "hero"]
    cards = [c for c in pool if c.type != "hero"]
    assert heroes and cards
    legal = illegal = 0
    for hero in heroes:
        for card in cards:
            engine_says = not any(v.rule == "100.2a" for v in validate_deck(Deck(hero.name, (card.name,)), pool))
            model_says = BOOK.fixed("may_include_card", frozenset(hero.traits), frozenset(card.traits))
            assert engine_says == model_says, (hero.name, card.name)
            legal += engine_says
            illegal += not engine_says
    # Both answers occur, so the comparison could fail.
    assert legal and illegal


def test_lint_finds_the_setup_disagreements_with_the_setup_as_witness():
    found = {f.key: f for f in _lint(BOOK).findings}
    assert set(found) == {
        "source-clash:may_include_card:CR7.4",
        "source-clash:may_include_card:001",
        "source-clash:may_include_talent_card:CR7.4",
        "source-clash:mulligan_draws:CR7.4",
        "source-clash:mulligans_wait_for_all:001",
        "source-clash:random_draw_picks_chooser:001",
        "source-clash:copies_allowed:001",
        "source-clash:copies_with_side_deck:001",
        "self-clash:minimum_deck_size:001:100.1+100.1:sealed",
    }
    deck = found["source-clash:may_include_card:CR7.4"]
    assert deck.setup == "an Alliance Warrior hero and a card with the Horde and Warrior icons"
    # Both quotes: the source's answer and the model's reading's.
    assert deck.places == ("wowtcg-comprehensive-rules-7.4.txt:60-63", "000_93427c41005e332f.txt:94")
    assert deck.rules == ("100.2a",) and deck.transcript is None
    mulligan = found["source-clash:mulligan_draws:CR7.4"]
    assert mulligan.setup == "a hand of 6 shuffled back" and "CR7.4 answers 6 cards" in mulligan.summary
    assert "7 of the 8 setups" in mulligan.summary
    talent = found["source-clash:may_include_talent_card:CR7.4"]
    assert talent.setup.startswith("a hero with no talent spec listed, a deck already holding no talent card")
    assert "CR7.4 answers yes where the model's reading answers no" in talent.summary
    own = found["self-clash:minimum_deck_size:001:100.1+100.1:sealed"]
    assert own.sources == ("001",) and set(own.places) == {"001_bb13bfcb78a9b116.txt:271", "001_bb13bfcb78a9b116.txt:208"}


def test_the_models_reading_answers_every_setup_without_a_clash():
    checks = {c.query: c.verdict for c in _lint(BOOK).checks}
    for q in wow_setup.QUESTIONS:
        assert checks[f"rulings_agree[{q.name}]"] == "proved"
        assert checks[f"gap[{q.name}]"].startswith("some text answers every setup")
    assert checks["source_clash[opening_hand_size: 001]"].startswith("the answers agree")


def _toy(rulings: tuple[Ruling, ...], **kw) -> RuleBook:
    q = setup_question("toy", "may a toy be included (100.2a)?", rulings, ((n,) for n in range(3)), show=lambda n: f"toy {n}", **kw)
    return RuleBook([q], wow_rulings.PRINCIPLES, reading=wow_rulings.READING, game="wowtcg")


def test_lint_reports_a_gap_a_dead_ruling_and_a_conflict_over_a_setup_domain():
    book = _toy((
        Ruling("100.2a", ("100.2a",), True, lambda s, b, n: n == 0, "toy 0 is legal", texts={"000": "94"}),
        Ruling("100.2a:never", ("100.2a",), False, lambda s, b, n: n > 5, "no toy past five", texts={"000": "94"}),
        Ruling("100.2a:two", ("100.2a",), False, lambda s, b, n: n in (0, 2), "toys 0 and 2 are not", texts={"CR7.4": "60"}),
    ))
    found = {f.key: f for f in _lint(book).findings}
    gap = found["gap:toy"]
    assert gap.setup == "toy 1" and "unsourced default" in gap.summary
    assert "dead-ruling:toy:100.2a:never@000" in found
    # 000 says yes for toy 0, CR7.4 no; the model's reading follows both (different rulings): a conflict.
    conflict = found["conflict:toy:100.2a+100.2a:two"]
    assert conflict.setup == "toy 0" and set(conflict.places) == {"000_93427c41005e332f.txt:94", "wowtcg-comprehensive-rules-7.4.txt:60"}


def test_setup_findings_reach_json_sarif_and_markdown():
    found = _lint(BOOK)
    f = next(x for x in found.findings if x.key == "source-clash:may_include_card:001")
    assert json.loads(json.dumps(f.to_json()))["setup"] == f.setup
    result = next(r for r in sarif(found)["runs"][0]["results"] if r["properties"]["key"] == f.key)
    assert result["properties"]["setup"] == f.setup
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 211, "endLine": 211}
    page = markdown(found, "wowtcg", None)
    assert f"- Setup: {f.setup}" in page


def test_the_plain_report_shows_the_setup_and_no_scenario_is_searched_for_it(tmp_path, capsys):
    found = _lint(BOOK)
    f = next(x for x in found.findings if x.key == "source-clash:random_draw_picks_chooser:001")
    lint_cli._write_scenarios(Lint([f]), tmp_path, 10)
    assert f.scenario is None and f.scenario_note.startswith("a question of the game's setup") and not list(tmp_path.iterdir())
    lint_cli._print_lint(Lint([f]))
    out = capsys.readouterr().out
    assert "  setup: a table of 2 players" in out and "001_bb13bfcb78a9b116.txt:139" in out


@pytest.mark.parametrize(
    "texts, rules, error, message",
    [
        ({"005": "1"}, ("100.2a",), SourceError, "unknown source '005'"),
        ({"001": "400"}, ("100.2a",), SourceError, "001_bb13bfcb78a9b116.txt:400 is past the end of the file (331 lines)"),
        ({"000": "94"}, ("100.9z",), RegistryError, "cites rule 100.9z, which is not in"),
    ],
)
def test_a_malformed_setup_ruling_fails_the_build_naming_it(monkeypatch, texts, rules, error, message):
    bad = setup_question(
        "bad_setup", "a question citing nothing real (100.2a)?",
        (Ruling("bad", rules, True, always, "a ruling citing nothing real", texts=texts),), ((),), show=lambda: "any setup",
    )
    monkeypatch.setattr(wow_setup, "QUESTIONS", (*wow_setup.QUESTIONS, bad))
    with pytest.raises(error, match=message.replace(".", r"\.").replace("(", r"\(").replace(")", r"\)")):
        wowtcg.build()
    result = CliRunner().invoke(main, ["lint", "--game", "wowtcg"])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_an_empty_setup_domain_is_refused():
    with pytest.raises(ValueError, match="empty domain"):
        setup_question("none", "a question of nothing?", (), (), show=str)

