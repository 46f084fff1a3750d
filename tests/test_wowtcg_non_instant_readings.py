"""B6 (docs/findings-wowtcg.md): the basic rules let a non-instant ability be
played in its player's action phase, its combats included, where 408.1 and
409.2b ask for the non-combat action phase; found by ``chainproof lint`` as a
source clash of ``may_play_non_instant_now``.  The question reads the board
alone, so only the basic rules' reading builds the combat windows' edges."""

from __future__ import annotations


from checkers.vector import check, explore
from model import wowtcg
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BOUNDS = {"turns": 1}
BASIC = "001@may_play_non_instant_now"
KEY = "source-clash:may_play_non_instant_now:001"


build_reading = wowtcg_reading(BOUNDS)


def test_the_basic_rules_play_a_non_instant_during_a_combat():
    found = source_findings("may_play_non_instant_now", BOUNDS)
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "001_bb13bfcb78a9b116.txt:128" in clash.places and "000_93427c41005e332f.txt:334" in clash.places
    model_game, reading_game = clash.parted
    assert reading_game.steps[-1].edge == "play_non_instant@attack_window"
    assert "only the second reading allows it" in model_game.violation


def test_only_the_basic_reading_builds_the_edges_and_they_break_409_2b():
    seed, basic = build_reading(None, {"hand": 1}), build_reading(BASIC, {"hand": 1})
    assert not [e for e in seed.edges if e.name.startswith("play_non_instant@")]
    built = [e for e in basic.edges if e.name.startswith("play_non_instant@")]
    assert {e.source for e in built} == {"attack_window", "defend_window"} and all(e.has("reading") for e in built)
    exploration = explore(basic)
    taken = {key for _, _, key in exploration.graph.edges(keys=True)}
    assert {"play_non_instant@attack_window", "play_non_instant@defend_window"} <= taken
    # Played there, it is an ability: it resolves untracked and no ally enters in combat.
    assert not {k for k in taken if k.startswith("resolve_ally") and not k.endswith("@action_phase")}
    props = {p.name: p for p in CATALOGUE}
    assert check(exploration, props["main_phase_only"]).verdict == "violated"
    assert check(exploration, props["deadlock"]).verdict != "violated"
    assert check(explore(seed), props["main_phase_only"]).verdict != "violated"
