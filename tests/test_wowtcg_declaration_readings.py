"""B7 (docs/findings-wowtcg.md): the basic rules declare a combat at once,
where 601.1 and 601.3 make the proposal a link rechecked as it resolves;
found by ``chainproof lint`` as a source clash of ``proposal_uses_the_chain``.

The question reads the board alone, so each reading builds its own proposal
edges: the model's add a link, 001's (tagged ``reading``) open the attack
window with the attacker exhausted."""

from __future__ import annotations

from pathlib import Path

import yaml

from chainproof.source_lint import SourceFinding
from model import wowtcg
from checkers.vector import check, explore
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

#: One turn is enough: the first player's first proposal shows it.
BOUNDS = {"turns": 1}
BASIC = "001@proposal_uses_the_chain"
KEY = "source-clash:proposal_uses_the_chain:001"


build_reading = wowtcg_reading(BOUNDS)


def findings() -> dict[str, SourceFinding]:
    return source_findings("proposal_uses_the_chain", BOUNDS)


def test_the_basic_rules_declare_a_combat_off_the_chain():
    found = findings()
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "001 answers no where the model's reading answers yes" in clash.summary
    assert "001_bb13bfcb78a9b116.txt:180-182" in clash.places
    assert "000_93427c41005e332f.txt:449" in clash.places
    assert "wowtcg-comprehensive-rules-7.4.txt:1828-1830" in clash.places
    assert clash.parted is not None
    model_game, reading_game = clash.parted
    # Play parts on the first proposal: the same action, a link for the
    # model, the attack window for the basic rules.
    assert len(model_game) == len(reading_game) == 5
    ours, theirs = model_game.steps[-1], reading_game.steps[-1]
    assert ours.edge == theirs.edge and ours.edge.startswith("propose_combat[")
    assert "409.3" in ours.rules and "409.3" not in theirs.rules and "602.1" in theirs.rules
    assert "chain" in ours.changes and "location" not in ours.changes
    assert theirs.changes["location"] == ("action_phase", "attack_window") and "chain" not in theirs.changes


def test_each_reading_builds_its_own_proposals():
    model, basic = wowtcg.build(**BOUNDS), build_reading(BASIC, {})
    # The model's proposals all add a link; none goes straight to combat.
    assert all(e.has("adds_link") and e.target == "action_phase" for e in model.edges if e.has("proposes"))
    assert not any(e.has("reading") and not e.name.startswith("propose_combat[") for e in model.edges)
    declared = [e for e in basic.edges if e.has("proposes")]
    assert declared and all(e.has("reading") and e.target == "attack_window" and not e.has("adds_link") for e in declared)
    # With no proposal link, nothing resolves, interrupts or exhausts one.
    names = {e.name for e in basic.edges}
    assert not names & {"resolve_proposal@action_phase", "interrupt_proposal@action_phase", "resolve_instant[exhaust proposed attacker]"}


def test_read_by_001_a_declared_combat_runs_to_combat_damage_with_no_deadlock():
    m = build_reading(BASIC, {})
    exploration = explore(m)
    taken = {key for _, _, key in exploration.graph.edges(keys=True)}
    assert any(k.startswith("propose_combat[P1 hero -> P2") for k in taken)
    assert {"protect", "no_protection", "strike", "combat_damage"} <= {k.split("[")[0] for k in taken}
    deadlock = next(p for p in CATALOGUE if p.name == "deadlock")
    assert check(exploration, deadlock).verdict != "violated"
    assert check(explore(wowtcg.build(**BOUNDS, reading="001")), deadlock).verdict != "violated"


def test_b7_is_shown_by_the_finding():
    entries = yaml.safe_load((Path(__file__).parent.parent / "model/wowtcg/known_findings.yaml").read_text())
    b7 = next(d for d in entries["documented"] if d["id"] == "B7")
    assert b7["shown_by"] == [KEY] and "not_shown" not in b7
    assert KEY in {k["key"] for k in entries["known"]}
