"""T6, T7 and T9 (docs/findings-wowtcg.md): proposals that one source's
reading allows or forbids alone, found by ``chainproof lint`` as source clashes.

- T6: 000's 601.2b asks for no opponent's control, so under 000 a player may
  propose against his own character (``may_be_proposed``);
- T9: 002's Chinese 601.2 has the defender be an opposing ally or totem, so
  under 002zh no hero may be proposed as the defender (``may_be_proposed``);
- T7: 002's Chinese 601.1 names no phase, so under 002zh the turn player may
  propose outside the action phase (``may_propose_now``).

The model's reading enables neither: its edges for them are tagged
``reading`` (T6) or not built at all (T7, a question of the board)."""

from __future__ import annotations

from typing import Any

import pytest

from chainproof.source_lint import SourceFinding
from model import wowtcg
from checkers.vector import check, explore
from model.machine import Machine
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

#: One turn is enough for both: the first player's first turn shows each.
BOUNDS = {"turns": 1}


build_reading = wowtcg_reading(BOUNDS)


def findings(question: str) -> dict[str, SourceFinding]:
    return source_findings(question, BOUNDS)


def roles(machine: Machine, edge: str) -> tuple[int, int]:
    """The attacker and defender a proposal edge names."""
    t = machine.table
    named = {t.name(c): c for c in range(t.none)}
    a, d = edge.split("[", 1)[1].rstrip("]").split(" -> ")
    return named[a], named[d]


def test_000_lets_a_player_propose_against_his_own_character():
    found = findings("may_be_proposed")
    clash = found["source-clash:may_be_proposed:000"]
    assert "000 answers yes where the model's reading answers no" in clash.summary
    assert "000_93427c41005e332f.txt:450-452" in clash.places
    assert "002_747842af486db20b.txt:35-36" in clash.places
    assert {key for key in found if key.startswith("source-clash:")} == {
        "source-clash:may_be_proposed:000", "source-clash:may_be_proposed:002zh"}
    assert clash.parted is not None
    model_game, reading_game = clash.parted
    last = reading_game.steps[-1].edge
    assert last.startswith("propose_combat[") and len(reading_game) == len(model_game) + 1
    m = wowtcg.build(**BOUNDS)
    a, d = roles(m, last)
    assert d != a and m.table.owner[a] == m.table.owner[d]
    assert m.edge(last).has("reading")


def test_002zh_lets_no_hero_be_proposed_as_the_defender():
    clash = findings("may_be_proposed")["source-clash:may_be_proposed:002zh"]
    assert "002zh answers no where the model's reading answers yes" in clash.summary
    assert "002_747842af486db20b.txt:27" in clash.places
    assert clash.parted is not None
    model_game, reading_game = clash.parted
    last = model_game.steps[-1].edge
    assert last.startswith("propose_combat[") and len(model_game) == len(reading_game) + 1
    m = wowtcg.build(**BOUNDS)
    a, d = roles(m, last)
    assert m.table.is_hero[d] and m.table.owner[a] != m.table.owner[d]
    # Read by 002zh, an ally of the opponent may still be proposed, and no proposal names a hero as defender.
    zh = wowtcg.build(**BOUNDS, reading="002zh@may_be_proposed")
    proposals = [k for _, _, k in explore(zh).graph.edges(keys=True) if k.startswith("propose_combat[")]
    defenders = {roles(zh, k)[1] for k in proposals}
    t = zh.table
    assert any(d < t.count for d in defenders) and not any(d < t.count and t.is_hero[d] for d in defenders)


def test_002zh_lets_the_turn_player_propose_outside_the_action_phase():
    found = findings("may_propose_now")
    clash = found["source-clash:may_propose_now:002zh"]
    assert "for ready step: 002zh answers yes where the model's reading answers no" in clash.summary
    assert "002_747842af486db20b.txt:24" in clash.places
    assert "002_747842af486db20b.txt:21-23" in clash.places
    assert [k for k in found if k.startswith("source-clash:")] == ["source-clash:may_propose_now:002zh"]
    assert clash.parted is not None
    _, reading_game = clash.parted
    last = reading_game.steps[-1]
    assert last.edge.startswith("propose_combat@ready_step[") and "601.1" in last.rules
    m = build_reading("002zh@may_propose_now", {})
    assert m.edge(last.edge).source == "ready_step"


def test_the_models_reading_takes_no_edge_tagged_reading_and_builds_no_proposal_outside_the_action_phase():
    m = wowtcg.build(**BOUNDS)
    tagged = {e.name for e in m.edges if e.has("reading")}
    assert tagged and all(e.startswith("propose_combat[") for e in tagged)
    assert all(e.source == "action_phase" for e in m.edges if e.has("proposes"))
    taken = {key for _, _, key in explore(m).graph.edges(keys=True)}
    assert not tagged & taken


def test_000s_reading_takes_every_edge_tagged_reading():
    """tests/test_perft.py's exercise check, for the edges the model's reading
    never takes: 000's reading takes each (P2's in P2's turn, hence two turns)."""
    m = wowtcg.build(chain_depth=1, reading="000@may_be_proposed")
    taken = {key for _, _, key in explore(m).graph.edges(keys=True)}
    tagged = {e.name for e in m.edges if e.has("reading")}
    assert len(tagged) == 10 and tagged <= taken


def _taken_with_own_roles(machine: Machine) -> set[str]:
    """The edges taken from states whose attacker and (proposed) defender share a party."""
    exploration = explore(machine)
    t = machine.table
    out = set()
    for u, _, key in exploration.graph.edges(keys=True):
        s: Any = exploration.state(u)
        if s.attacker < t.count and s.defender < t.count and t.owner[s.attacker] == t.owner[s.defender]:
            out.add(key.split("[")[0])
    return out


def test_read_by_000_a_combat_against_ones_own_character_runs_to_combat_damage():
    m = wowtcg.build(**BOUNDS, reading="000@may_be_proposed")
    taken = _taken_with_own_roles(m)
    # The attacker's opponent may protect the proposer's character (602.2), or it defends itself.
    assert {"resolve_proposal@action_phase", "protect", "no_protection", "strike", "combat_damage"} <= taken


@pytest.mark.parametrize("reading", ["000", "002zh"])
def test_neither_reading_deadlocks(reading: str):
    deadlock = next(p for p in CATALOGUE if p.name == "deadlock")
    assert check(explore(wowtcg.build(**BOUNDS, reading=reading)), deadlock).verdict != "violated"


def test_read_by_002zh_a_combat_proposed_in_the_ready_step_ends_in_the_action_phase():
    m = wowtcg.build(**BOUNDS, reading="002zh@may_propose_now")
    assert m.edge("resolve_proposal@ready_step").target == "attack_window"
    assert m.edge("interrupt_proposal@ready_step").target == "action_phase"
    taken = {key for _, _, key in explore(m).graph.edges(keys=True)}
    # A one-turn game has no draw step (501.2b): the ready step is the window
    # before the action phase where the reading proposes.
    assert any(k.startswith("propose_combat@ready_step[") for k in taken)
    assert "resolve_proposal@ready_step" in taken
