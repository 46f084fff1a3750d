"""B16 (docs/findings-wowtcg.md): the basic rules put a placed resource
straight into play, where 409.3 and 410.1a make it a link that enters play as
it resolves; found by ``chainproof lint`` as a source clash of
``resource_uses_the_chain``.  The question reads the board alone, so each
reading builds its own placements."""

from __future__ import annotations


from checkers.vector import check, explore
from model import wowtcg
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BOUNDS = {"turns": 1}
BASIC = "001@resource_uses_the_chain"
KEY = "source-clash:resource_uses_the_chain:001"


build_reading = wowtcg_reading(BOUNDS)


def test_the_basic_rules_place_a_resource_off_the_chain():
    found = source_findings("resource_uses_the_chain", BOUNDS)
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "001 answers no where the model's reading answers yes" in clash.summary
    assert "001_bb13bfcb78a9b116.txt:168" in clash.places and "000_93427c41005e332f.txt:348" in clash.places
    model_game, reading_game = clash.parted
    # Play parts on the first placement: a link for the model, a resource in play for the basic rules.
    ours, theirs = model_game.steps[-1], reading_game.steps[-1]
    assert ours.edge == theirs.edge and ours.edge.startswith("place_resource[")
    assert "chain" in ours.changes and "chain" not in theirs.changes


def test_each_reading_builds_its_own_placements():
    seed, basic = build_reading(None, {"hand": 1}), build_reading(BASIC, {"hand": 1})
    assert [e.name for e in seed.edges if e.name.startswith("resolve_resource")] == ["resolve_resource@action_phase"]
    assert not [e for e in basic.edges if e.name.startswith("resolve_resource")]
    placements = [e for e in basic.edges if e.name.startswith("place_resource[")]
    assert placements and all(e.has("reading") and not e.has("adds_link") for e in placements)
    exploration = explore(basic)
    props = {p.name: p for p in CATALOGUE}
    for holds in ("one_resource_per_turn", "links_added_on_top", "main_phase_only", "deadlock"):
        assert check(exploration, props[holds]).verdict != "violated"
