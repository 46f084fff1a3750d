"""Copies of one card in a constructed side deck (setup question
``copies_with_side_deck``, B19): 100.4 in the seed (000:98) and in CR7.4
(:108-109) counts the side deck's copies with the main deck's, four in all;
the basic rules cap copies "in your deck" (001:209) and let a side deck hold
any cards as a main deck is built (001:212), so each may hold four.  The
model's reading follows the seed."""

from __future__ import annotations

from chainproof.linting import Lint, lint_setup
from model import wowtcg
from model.wowtcg.setup import SIDE_DECK_COPIES

BOOK = wowtcg.build().rulings
KEY = "source-clash:copies_with_side_deck:001"


def test_the_seed_and_cr74_count_the_side_deck_where_the_basic_rules_do_not():
    for main, side in SIDE_DECK_COPIES:
        for source in ("000", "CR7.4"):
            assert BOOK.under(source).fixed("copies_with_side_deck", main, side) is (main + side <= 4)
        assert BOOK.under("001").fixed("copies_with_side_deck", main, side) is True
    assert BOOK.fixed("copies_with_side_deck", 3, 1) is True and BOOK.fixed("copies_with_side_deck", 4, 1) is False


def test_lint_reports_the_clash_with_both_places():
    out = Lint()
    lint_setup("wowtcg", BOOK, out)
    (clash,) = [f for f in out.findings if f.key == KEY]
    assert clash.setup == "1 copy in the main deck and 4 in the side deck"
    assert "001 answers yes where the model's reading answers no" in clash.summary
    assert "10 of the 16 setups" in clash.summary
    assert set(clash.places) == {
        "001_bb13bfcb78a9b116.txt:209-212", "000_93427c41005e332f.txt:98", "wowtcg-comprehensive-rules-7.4.txt:108-109",
    }
