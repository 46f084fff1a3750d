"""B15 (docs/findings-wowtcg.md): the basic rules place a resource as one of
the action phase's actions, its combats included, where 410.1a asks for the
non-combat action phase; found by ``chainproof lint`` as a source clash of
``may_place_resource_now``.  The question reads the board alone, so only the
basic rules' reading builds the combat windows' edges."""

from __future__ import annotations


from checkers.vector import check, explore
from model import wowtcg
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BOUNDS = {"turns": 1}
BASIC = "001@may_place_resource_now"
KEY = "source-clash:may_place_resource_now:001"


build_reading = wowtcg_reading(BOUNDS)


def test_the_basic_rules_place_a_resource_during_a_combat():
    found = source_findings("may_place_resource_now", BOUNDS)
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "001_bb13bfcb78a9b116.txt:153-154" in clash.places and "000_93427c41005e332f.txt:376" in clash.places
    model_game, reading_game = clash.parted
    assert reading_game.steps[-1].edge.startswith("place_resource[") and reading_game.steps[-1].edge.endswith("]@attack_window")
    assert "only the second reading allows it" in model_game.violation


def test_only_the_basic_reading_builds_the_edges_and_they_break_410_1a_not_410_1():
    seed, basic = build_reading(None, {"hand": 1}), build_reading(BASIC, {"hand": 1})
    assert not [e for e in seed.edges if "resource" in e.name and "@" in e.name and not e.name.endswith("@action_phase")]
    built = [e for e in basic.edges if e.name.startswith("place_resource[") and "@" in e.name]
    assert {e.source for e in built} == {"attack_window", "defend_window"} and all(e.has("reading") for e in built)
    exploration = explore(basic)
    taken = {key for _, _, key in exploration.graph.edges(keys=True)}
    assert {"resolve_resource@attack_window", "resolve_resource@defend_window"} <= taken
    props = {p.name: p for p in CATALOGUE}
    for broken in ("main_phase_only", "main_phase_links_at_bottom"):
        assert check(exploration, props[broken]).verdict == "violated"
    for still in ("one_resource_per_turn", "deadlock"):
        assert check(exploration, props[still]).verdict != "violated"
