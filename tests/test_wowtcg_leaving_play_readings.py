"""T10 (docs/findings-wowtcg.md): a (proposed) defender that leaves play
stops being one (601.2f, 602.4), where 002's Chinese names only removal from
the game or leaving the match; found by ``chainproof lint`` as a source clash
of ``leaving_play_ends_role``.  The model's one way out of play besides the
checks is an instant that destroys the (proposed) defender, an ally."""

from __future__ import annotations

import numpy as np

from chainproof.source_lint import SourceFinding
from checkers.vector import explore
from model import wowtcg
from tests.conftest import source_findings, wowtcg_reading

#: One turn, an instant in hand and room for it on a proposal.
BOUNDS = {"turns": 1, "hand": 1, "chain_depth": 2, "deck": 0}
CHINESE = "002zh@leaving_play_ends_role"
KEY = "source-clash:leaving_play_ends_role:002zh"
BASIC = "source-clash:leaving_play_ends_role:001"


build_reading = wowtcg_reading(BOUNDS)


def findings() -> dict[str, SourceFinding]:
    return source_findings("leaving_play_ends_role", BOUNDS, {**BOUNDS, "hand": 0})


def test_the_chinese_keeps_a_destroyed_defender_in_its_role():
    found = findings()
    assert sorted(k for k in found if k.startswith("source-clash:")) == [BASIC, KEY]
    clash = found[KEY]
    assert "002zh answers no where the model's reading answers yes" in clash.summary
    assert {"002_747842af486db20b.txt:66", "002_747842af486db20b.txt:133"} <= set(clash.places)
    assert {"000_93427c41005e332f.txt:461", "000_93427c41005e332f.txt:485", "002_747842af486db20b.txt:128-130"} <= set(clash.places)
    # The state where they differ: a proposal against an ally is on the chain.
    assert clash.transcript.steps[-1].edge.startswith("propose_combat[")
    model_game, reading_game = clash.parted
    ours, theirs = model_game.steps[-1], reading_game.steps[-1]
    assert ours.edge == theirs.edge and ours.edge.startswith("resolve_instant[destroy ")
    assert ours.changes["combat"][1].endswith("vs -") and "combat" not in theirs.changes


def test_the_basic_rules_keep_a_destroyed_defender_in_its_role_in_a_combat_step():
    """The basic rules end a role only by removal from combat or the combat's
    end (001:291); they have no proposed defender, so they part from the
    model only once the combat step has begun."""
    clash = findings()[BASIC]
    assert "001 answers no where the model's reading answers yes" in clash.summary
    assert "001_bb13bfcb78a9b116.txt:291" in clash.places
    assert "002_747842af486db20b.txt:66" not in clash.places
    assert not any(step.edge.startswith("propose_combat[") for step in clash.transcript.steps[-1:])
    model_game, reading_game = clash.parted
    ours, theirs = model_game.steps[-1], reading_game.steps[-1]
    assert ours.edge == theirs.edge and ours.edge.startswith("resolve_instant[destroy ")
    assert ours.changes["combat"][1].endswith("vs -") and "combat" not in theirs.changes


def _from_a_destroyed_defender(spec: str | None) -> set[str]:
    """The edge families taken from a state whose (proposed) defender is a character out of play."""
    m = build_reading(spec, {})
    exploration = explore(m)
    # Every state over arrays, and every transition by its source and edge:
    # 53,000 states, too many to put into plain values and a graph for this.
    s, t = exploration.layout.state(exploration.layout.unpack(exploration.keys)), m.table
    in_play = np.stack([*s.in_play, np.ones_like(s.in_play[0])])  # the last row: no defender
    defender = np.minimum(s.defender, t.count)
    out_of_play = (s.defender < t.count) & ~in_play[defender, np.arange(exploration.states)].astype(bool)
    taken = np.unique(exploration.step_edge[out_of_play[exploration.step_pre]])
    return {m.edges[e].name.split("[")[0] for e in taken}


def test_only_the_chinese_lets_a_destroyed_defender_fight_on():
    assert _from_a_destroyed_defender(None) == set()
    # 602.3a, 603.1: the attacking hero still strikes against it, and it deals combat damage.
    assert {"strike", "combat_damage", "interrupt_proposal@action_phase"} <= _from_a_destroyed_defender(CHINESE)
