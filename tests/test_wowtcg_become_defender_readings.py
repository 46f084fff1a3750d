"""A character made to become a defender where one already defends
(question ``becoming_defender_removes_defender``, V3), and the combat damage
of two defenders (question ``exchanges_combat_damage``, 603.1).

The seed's 602.3b (000:483, 002:121-123) has the new defender start
defending and the attacker start attacking it, and its 602.4 (000:485) ends
no role for that, so both defend; CR7.4 602.3a (:1928-1932) removes the
current defender from combat first.  Every text's 603.1 deals combat damage
between the attacker and "the defender": for two, no text says, and the
model's assumption (each defender exchanges packets with the attacker) is a
gap lint reports.  Asked on the board one change away where an instant that
makes a target ally become a defender is in the game."""

from __future__ import annotations

from functools import cache

from chainproof.source_lint import SourceFinding, lint_sources
from model import wowtcg
from model.machine import Machine
from model.wowtcg.board import nearby_boards

#: P1's first turn with an instant in each hand: P1's ally attacks, P2's
#: instant makes another of his allies a defender in the defend window.
BOUNDS = {"turns": 1, "hand": 1, "deck": 0, "chain_depth": 1}
CLASH = "source-clash:becoming_defender_removes_defender:CR7.4"
GAP = "gap:exchanges_combat_damage"
BOARD = dict((key, board) for key, _, board in nearby_boards(2, 2))["spell+become-defender"]


def build(spec: str | None, **bounds: int) -> Machine:
    return wowtcg.build(**{**BOUNDS, **bounds}, board=BOARD, reading=spec)


@cache
def findings() -> dict[str, SourceFinding]:
    found = lint_sources(build(None), lambda spec, more: build(spec, **more), 2_000_000, 2_000_000,
                         questions=("becoming_defender_removes_defender", "exchanges_combat_damage"))
    return {f.key: f for f in found.findings}


def test_the_seed_keeps_the_current_defender_where_cr74_removes_it():
    clash = findings()[CLASH]
    assert "CR7.4 answers yes where the model's reading answers no" in clash.summary
    assert {"000_93427c41005e332f.txt:483-485", "wowtcg-comprehensive-rules-7.4.txt:1928-1932"} <= set(clash.places)
    ours, theirs = (game.steps[-1] for game in clash.parted)
    assert ours.edge == theirs.edge and "becomes a defender]" in ours.edge
    # The seed: both defend.  CR7.4: only the new one ("P1 guard vs P2 taunted (protected)").
    before = ours.changes["combat"][0].removesuffix(" (protected)")
    new = theirs.changes["combat"][1].removesuffix(" (protected)").partition(" vs ")[2]
    assert ours.changes["combat"][1].removesuffix(" (protected)") == f"{before} and {new}"
    assert theirs.changes["combat"][1].partition(" vs ")[0] == before.partition(" vs ")[0] and new not in before


def test_two_defenders_deal_combat_damage_only_by_the_models_assumption():
    found = findings()
    assert set(found) == {CLASH, GAP}
    gap = found[GAP]
    assert "the model answers yes by the assumption assumed:each-defender-exchanges-damage" in gap.summary
    m = build(None)
    t = m.table
    last = gap.transcript.replay(m)[-1]
    assert m.location_of(last) == "combat_conclusion" and last.also_defender < t.none
    (edge, after), = [(e, s) for e, s in m.successors(last) if e.has("deals_combat_damage")]
    a, d, e = last.attacker, last.defender, last.also_defender
    # 603.1 for each defender: the attacker (an ally) deals its ATK to both, and takes both packets.
    assert after.damage[d] == last.damage[d] + t.atk[a]
    assert after.damage[e] == last.damage[e] + t.atk[a]
    assert after.damage[a] == last.damage[a] + t.atk[d] + t.atk[e]


def test_the_default_board_asks_neither_question():
    m = wowtcg.build(**BOUNDS)
    assert "also_defender" not in {v.name for v in m.variables}
    assert not any("becomes a defender" in e.name for e in m.edges)
    assert m.rulings.questions["becoming_defender_removes_defender"].arguments == ()
    assert m.rulings.questions["exchanges_combat_damage"].arguments == ()
