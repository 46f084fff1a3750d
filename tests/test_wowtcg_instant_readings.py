"""B14 (docs/findings-wowtcg.md): the basic rules let an instant be played at
any time (001:202), where 408.1 and 409.2 ask for priority, which nobody has
at the protect point (602.2), in combat conclusion (603.1) or in the end step
(503.2a); found by ``chainproof lint`` as a source clash of
``may_play_instant_now``.  The question reads the board alone, so only the
basic rules' reading builds the edges that play an instant at those points,
each reopening the window before the point with the instant on the chain."""

from __future__ import annotations

from checkers.results import PASSING, VIOLATED
from checkers.vector import check, explore
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BOUNDS = {"turns": 1}
BASIC = "001@may_play_instant_now"
KEY = "source-clash:may_play_instant_now:001"

build_reading = wowtcg_reading(BOUNDS)


def test_the_basic_rules_play_an_instant_where_nobody_holds_priority():
    found = source_findings("may_play_instant_now", BOUNDS)
    assert sorted(found) == [KEY]
    clash = found[KEY]
    assert "001 answers yes where the model's reading answers no" in clash.summary
    assert "001_bb13bfcb78a9b116.txt:202" in clash.places
    # Each point's own rule that nobody has priority there: 602.2, 603.1, 503.2a.
    assert {
        "000_93427c41005e332f.txt:471", "000_93427c41005e332f.txt:487", "000_93427c41005e332f.txt:435",
        "wowtcg-comprehensive-rules-7.4.txt:1952", "wowtcg-comprehensive-rules-7.4.txt:1759-1760",
    } <= set(clash.places)
    model_game, reading_game = clash.parted
    # Play parts as the first end step begins: P1 plays an instant, and the end phase's window reopens.
    last = reading_game.steps[-1]
    assert last.edge == "play_instant_without_priority[P1]@end_step" and last.actor == "P1"
    assert last.changes["location"] == ("end_step", "end_phase") and last.changes["priority"] == ("nobody", "P1")
    assert [s.edge for s in model_game.steps] == [s.edge for s in reading_game.steps[:-1]]
    assert model_game.steps[-1].edge == "close_window@end_phase"


def step(machine, state, name):
    (post,) = [post for e, post in machine.successors(state) if e.name == name]
    return post


def test_read_by_the_basic_rules_an_instant_in_conclusion_still_stops_combat_damage():
    # An instant in each starting hand.
    seed, basic = build_reading(None, {"hand": 1}), build_reading(BASIC, {"hand": 1})
    assert not [e for e in seed.edges if e.name.startswith("play_instant_without_priority")]
    reopened = {e.source: e.target for e in basic.edges if e.name.startswith("play_instant_without_priority")}
    assert reopened == {"protect_point": "attack_window", "combat_conclusion": "defend_window", "end_step": "end_phase"}
    exploration = explore(basic)
    names = [e.name for e in basic.edges]
    taken = [
        (int(pre), int(post))
        for pre, e, post in zip(exploration.step_pre, exploration.step_edge, exploration.step_post)
        if names[e] == "play_instant_without_priority[P2]@combat_conclusion"
    ]
    none = basic.table.none
    # The nearest conclusion where a combat would deal damage: both roles stand.
    pre = next(s for s in (exploration.state(i) for i, _ in taken) if s.attacker < none and s.defender < none)
    # The seed's conclusion leaves nobody a choice: only combat damage follows.
    after = {e.name for e, _ in seed.successors(pre)}
    assert after and after <= {e.name for e in seed.edges if e.has("deals_combat_damage")}
    # Read by the basic rules, P2 plays an instant there; it resolves and removes the attacker.
    s = step(basic, pre, "play_instant_without_priority[P2]@combat_conclusion")
    s = step(basic, s, "pass_priority@defend_window")
    s = step(basic, s, "resolve_instant[remove attacker from combat]@defend_window")
    s = step(basic, s, "pass_priority@defend_window")
    s = step(basic, s, "close_window@defend_window")
    assert basic.location_of(s) == "combat_conclusion" and s.attacker == none
    assert {e.name for e, _ in basic.successors(s)} >= {"conclude_without_combat_damage[no attacker or defender]"}
    assert not [e for e, _ in basic.successors(s) if e.has("deals_combat_damage")]


def test_the_basic_instants_break_only_the_priority_rules():
    props = {p.name: p for p in CATALOGUE}
    seed, basic = explore(build_reading(None, {"hand": 1})), explore(build_reading(BASIC, {"hand": 1}))
    verdicts = {p: (check(seed, props[p]).verdict, check(basic, props[p]).verdict) for p in props}
    # 409.1: the player who adds a link had priority; 409.4: a window opens with the turn player first.
    for broken in ("adder_keeps_priority", "turn_player_first"):
        assert verdicts[broken][0] in PASSING and verdicts[broken][1] == VIOLATED
    assert all(basic_verdict != VIOLATED for p, (_, basic_verdict) in verdicts.items() if p not in ("adder_keeps_priority", "turn_player_first"))
    assert len(basic.dead_ends) == 0
