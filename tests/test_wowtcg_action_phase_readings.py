"""B18 (docs/findings-wowtcg.md): the basic rules move on to the end phase
once the turn player is done with his action phase (001:172), where 502.2
ends it only when every player passes in succession on an empty chain; found
by ``chainproof lint`` as a source clash of ``turn_player_ends_action_phase``.
The question reads the board alone, so only the basic rules' reading builds
the edge that ends the action phase on the turn player's word."""

from __future__ import annotations


from checkers.results import PASSING, VIOLATED
from checkers.vector import check, explore
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BOUNDS = {"turns": 1}
BASIC = "001@turn_player_ends_action_phase"
KEY = "source-clash:turn_player_ends_action_phase:001"


build_reading = wowtcg_reading(BOUNDS)


def test_the_basic_rules_let_the_turn_player_end_his_action_phase_alone():
    found = source_findings("turn_player_ends_action_phase", BOUNDS)
    assert sorted(found) == [KEY]
    clash = found[KEY]
    assert "001 answers yes where the model's reading answers no" in clash.summary
    assert "001_bb13bfcb78a9b116.txt:172" in clash.places
    assert {"000_93427c41005e332f.txt:431", "wowtcg-comprehensive-rules-7.4.txt:1749-1751"} <= set(clash.places)
    model_game, reading_game = clash.parted
    # Play parts as the first action phase opens: P1 is done, and only the basic rules leave at once.
    assert reading_game.steps[-1].edge == "end_action_phase" and reading_game.steps[-1].actor == "P1"
    assert reading_game.steps[-1].changes["location"] == ("action_phase", "end_phase")
    # The model's game is the same up to there: the action phase opens as the
    # first turn skips its draw step (501.2b).
    assert [s.edge for s in model_game.steps] == [s.edge for s in reading_game.steps[:-1]]
    assert model_game.steps[-1].edge == "skip_first_draw"


def test_only_the_basic_reading_ends_the_action_phase_without_the_others_passing():
    seed, basic = build_reading(None, {}), build_reading(BASIC, {})
    assert not [e for e in seed.edges if e.name == "end_action_phase"]
    (ending,) = [e for e in basic.edges if e.name == "end_action_phase"]
    assert ending.has("reading") and ending.source == "action_phase" and ending.target == "end_phase"
    props = {p.name: p for p in CATALOGUE}
    # 409.4b and 502.2 close a window only after every player passed: the basic reading breaks exactly that.
    verdicts = {name: check(explore(m), props["window_closes_on_empty_chain"]).verdict for name, m in (("seed", seed), ("basic", basic))}
    assert verdicts["seed"] in PASSING and verdicts["basic"] == VIOLATED
    exploration = explore(basic)
    for holds in ("deadlock", "turn_player_first", "main_phase_only", "one_resource_per_turn"):
        assert check(exploration, props[holds]).verdict != VIOLATED
