"""B17 (docs/findings-wowtcg.md): the basic rules' ready step readies every
card in play, where 501.1a and their own overview ready only the turn
player's; found by ``chainproof lint`` as a source clash and a self-clash of
``ready_step_readies_all``.  The question reads the board alone, so only the
basic rules' reading builds the ready step that readies everyone's cards."""

from __future__ import annotations


from checkers.vector import check, explore
from model import wowtcg
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BASIC = "001@ready_step_readies_all"


build_reading = wowtcg_reading({})


def test_the_basic_rules_ready_every_card_and_contradict_themselves():
    found = source_findings("ready_step_readies_all", {})
    assert sorted(found) == ["self-clash:ready_step_readies_all:001:501.1a+501.1a:all-cards", "source-clash:ready_step_readies_all:001"]
    themselves = found["self-clash:ready_step_readies_all:001:501.1a+501.1a:all-cards"]
    assert {"001_bb13bfcb78a9b116.txt:56", "001_bb13bfcb78a9b116.txt:148"} <= set(themselves.places)
    model_game, reading_game = found["source-clash:ready_step_readies_all:001"].parted
    # Play parts at the second player's ready step: the first player's exhausted hero readies too.
    assert reading_game.steps[-1].edge == "ready_cards" and len(reading_game) > 1
    assert "P1 party" in reading_game.steps[-1].changes and "P1 party" not in model_game.steps[-1].changes


def test_every_property_holds_under_the_basic_ready_step():
    props = {p.name: p for p in CATALOGUE}
    exploration = explore(build_reading(BASIC, {}))
    assert all(check(exploration, p).verdict != "violated" for p in props.values())
