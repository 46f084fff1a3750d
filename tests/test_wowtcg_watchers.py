"""Powers that note an event, and an attachment that comes off its host
(``model/wowtcg/watchers.py``): where the texts part only on what triggers.

- B3, question ``combat_ends_after_removal_triggers``: with its attacker or
  defender removed, a combat concludes and nothing triggers by 603.1b (000:489,
  002en:145-146, CR7.4:1960-1962); the basic rules end it as usual (001:327).
- B11, question ``spell_deals_combat_damage``: an effect's packet that says it
  counts as combat damage is combat damage by 407.3b (000:310, CR7.4:1139-1140),
  never by the basic rules (001:286).
- V10, question ``attachment_off_is_destroyed``: an attachment that comes off
  as its host leaves play is put into the graveyard without being destroyed by
  the seed's 400.3 (000:182), destroyed by the game by CR7.4 400.6 (:623-627).

Each is asked on the board with the watchers (``nearby``), here cut to what
its question needs, over P1's first turn."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from chainproof.source_lint import SourceFinding, lint_sources
from model import wowtcg
from model.machine import Machine
from model.wowtcg.board import COUNTED_AS_COMBAT, default_board, nearby_boards
from model.wowtcg.watchers import Watcher, nearby

BOUNDS = {"turns": 1, "hand": 1, "deck": 0, "chain_depth": 1}
WATCHED = dict((key, board) for key, _, board in nearby_boards(2, 2))["watchers"]
ENDS, _, DESTROYED = WATCHED.watchers
#: Each question on the watchers' board cut to what it needs, so that each search stays small:
#: the default instants remove combatants; P1 plays the damage ability, between heroes alone;
#: the attachment's host dies in P1's first combat, with no card in hand.
CASES = {
    "combat_ends_after_removal_triggers": (replace(WATCHED, spells=(), watchers=(ENDS,), attached_to=None), BOUNDS),
    "spell_deals_combat_damage": (replace(default_board(2, 0), spells=(COUNTED_AS_COMBAT,), watchers=(Watcher("combat damage", 0),)),
                                  {**BOUNDS, "allies": 0}),
    "attachment_off_is_destroyed": (replace(WATCHED, spells=(), watchers=(DESTROYED,)), {**BOUNDS, "hand": 0}),
}


def build(b, spec: str | None = None, **bounds: int) -> Machine:
    return wowtcg.build(**(bounds or BOUNDS), board=b, reading=spec)


@cache
def clashes(question: str) -> dict[str, SourceFinding]:
    """Lint's source clashes on the question's board."""
    b, bounds = CASES[question]
    found = lint_sources(build(b, **bounds), lambda spec, more: build(b, spec, **{**bounds, **more}),
                         2_000_000, 2_000_000, questions=(question,))
    return {f.key: f for f in found.findings if f.kind == "source-clash"}


def parted(f: SourceFinding):
    """The last step of the game on which the two readings part, as the model plays it and as the source does."""
    assert f.parted is not None
    ours, theirs = (game.steps[-1] for game in f.parted)
    assert ours.edge == theirs.edge
    return ours, theirs


def test_a_combat_whose_combatant_was_removed_ends_as_usual_only_by_the_basic_rules():
    f, = clashes("combat_ends_after_removal_triggers").values()
    assert f.key == "source-clash:combat_ends_after_removal_triggers:001"
    assert "001 answers yes where the model's reading answers no" in f.summary
    assert {"001_bb13bfcb78a9b116.txt:327", "000_93427c41005e332f.txt:489"} <= set(f.places)
    ours, theirs = parted(f)
    assert ours.edge.startswith("conclude_without_combat_damage")
    assert "triggered" not in ours.changes and theirs.changes["triggered"][1] == "P1's 'when a combat ends'"


def test_damage_that_counts_as_combat_damage_is_none_by_the_basic_rules():
    f, = clashes("spell_deals_combat_damage").values()
    assert f.key == "source-clash:spell_deals_combat_damage:001"
    assert f"for {COUNTED_AS_COMBAT.name}: 001 answers no where the model's reading answers yes" in f.summary
    ours, theirs = parted(f)
    # P1's ability deals its packet in his action phase: his watcher notes combat damage by the model only.
    assert ours.edge.startswith("resolve_ability[deal 1]")
    assert ours.changes["triggered"][1] == "P1's 'when a card he controls deals combat damage'" and "triggered" not in theirs.changes


def test_an_attachment_that_comes_off_is_destroyed_only_by_cr74():
    f, = clashes("attachment_off_is_destroyed").values()
    assert f.key == "source-clash:attachment_off_is_destroyed:CR7.4"
    assert {"000_93427c41005e332f.txt:182", "wowtcg-comprehensive-rules-7.4.txt:623-627"} <= set(f.places)
    ours, theirs = parted(f)
    # The host leaves play: the attachment goes to the graveyard under both, destroyed only by CR7.4.
    assert ours.changes["attachment"] == theirs.changes["attachment"] == ("under P2 taunted", "in the graveyard")
    assert "triggered" not in ours.changes and theirs.changes["triggered"][1] == "P1's 'when an attachment is destroyed'"


def test_combat_damage_is_noted_for_the_dealers_player_only():
    """Ordinary combat damage triggers the watcher under every reading, for
    the player whose card dealt it: P1's guard deals 1 to P2's hero, which
    deals none back (no strike)."""
    for player, noted in ((0, True), (1, False)):
        m = build(replace(WATCHED, watchers=(Watcher("combat damage", player),)), hand=0, turns=1, deck=0, chain_depth=1)
        t = m.table
        guard, hero = t.party(0)[1], t.hero(1)
        _, after = _first_step(m, "combat_damage", lambda s: s.attacker == guard and s.defender == hero)
        assert after.damage[hero] == 1 and after.damage[guard] == 0
        assert after.noted == (noted,)


def _first_step(m: Machine, name: str, where):
    """The first step named ``name`` from a state where ``where`` holds, breadth first."""
    seen, frontier = set(), list(m.initial_states())
    while frontier:
        nxt = []
        for s in frontier:
            for e, after in m.successors(s):
                if e.name == name and where(s):
                    return e, after
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        frontier = nxt
    raise AssertionError(f"no {name} step reached")


@pytest.mark.parametrize("bad", [(1, 0), (2, 1), (1, 3)])
def test_an_attachment_goes_under_an_ally_of_the_table(bad):
    with pytest.raises(ValueError, match="an attachment goes under an ally"):
        build(replace(WATCHED, attached_to=bad), hand=0, turns=1, deck=0, chain_depth=1)


def test_the_default_board_has_no_watcher_and_asks_neither_question():
    m = wowtcg.build(**BOUNDS)
    names = {v.name for v in m.variables}
    assert not {"noted", "attached"} & names
    assert m.rulings.questions["combat_ends_after_removal_triggers"].arguments == ()
    assert m.rulings.questions["attachment_off_is_destroyed"].arguments == ()
    assert nearby(default_board(2, 0), COUNTED_AS_COMBAT) is None
