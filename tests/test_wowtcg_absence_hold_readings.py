"""A hero back from the game this turn (question ``new_party_bar_reaches_heroes``,
I3), and a card held "until the start of your next turn" as its ready step
readies (question ``readies_as_hold_ends``, V11).

I3: the seed's 601.2a (000:451) bars every proposed attacker not in the turn
player's party since his turn began, and its 302.2 (000:135) subjects only
allies to that bar; a hero its 301.3 removed for a while is barred by the
one and free by the other, with nothing in the seed to decide.  CR7.4 301.3
(:424-425) frees it, as the model does.

V11: the seed readies as the turn starts, the very moment such a hold ends
(000:416), and says nothing of which wins; CR7.4 501.1a (:1668-1672) ends
the hold first.  The model follows the seed, with the assumption that the
card stays exhausted that once.

Each is asked on its board one change away, over two turns from empty hands."""

from __future__ import annotations

from functools import cache

from chainproof.source_lint import SourceFinding, lint_sources
from model import wowtcg
from model.backend import CONCRETE
from model.machine import Machine
from model.wowtcg.board import nearby_boards

BOUNDS = {"turns": 2, "hand": 0, "deck": 1}
BOARDS = dict((key, board) for key, _, board in nearby_boards(2, 2))
AWAY, HELD = "spell+remove-hero", "P2-taunted+held-until-next-turn"
SELF_CLASH = "self-clash:new_party_bar_reaches_heroes:000:302.2+601.2a:any-character"
SOURCE_CLASH = "source-clash:readies_as_hold_ends:CR7.4"


@cache
def build(board: str, spec: str | None = None) -> Machine:
    return wowtcg.build(**BOUNDS, board=BOARDS[board], reading=spec)


@cache
def findings(board: str, question: str) -> dict[str, SourceFinding]:
    found = lint_sources(build(board), lambda spec, more: build(board, spec), 2_000_000, 2_000_000, questions=(question,))
    return {f.key: f for f in found.findings}


def test_the_seed_bars_and_frees_a_hero_back_from_the_game():
    found = findings(AWAY, "new_party_bar_reaches_heroes")
    assert list(found) == [SELF_CLASH]
    clash = found[SELF_CLASH]
    assert clash.sources == ("000",)
    assert {"000_93427c41005e332f.txt:451", "000_93427c41005e332f.txt:135"} <= set(clash.places)
    m = build(AWAY)
    t = m.table
    steps = clash.transcript.steps
    # P2 draws the instant, his hero leaves the game, and comes back new as his action phase begins.
    assert any(s.edge == "resolve_instant[remove P2 hero from the game]@draw_step" for s in steps)
    last = clash.transcript.replay(m)[-1]
    hero = t.hero(1)
    assert m.location_of(last) == "action_phase" and last.in_play[hero] and last.fresh[hero]
    # 601.2a as written bars him; 302.2 and CR7.4 301.3 free him, and so does the model.
    book = m.rulings
    assert book.only("002en").answer("new_party_bar_reaches_heroes", last, CONCRETE, hero) is True
    assert book.only("CR7.4").answer("new_party_bar_reaches_heroes", last, CONCRETE, hero) is False
    assert book.answer("may_attack", last, CONCRETE, hero) is True
    assert any(e.name.startswith("propose_combat[P2 hero ->") for e, _ in m.successors(last))


def test_away_from_the_game_a_hero_leaves_his_player_no_card_to_play():
    m = build(AWAY)
    t = m.table
    away = next(s for s in build_path(m) if not s.in_play[t.hero(1)])
    assert m.location_of(away) == "draw_step"
    # With an instant in hand and priority, he still can't play it (301.3).
    armed = away._replace(hand_instant=(0, 1), priority_holder=1)
    assert not any(e.name.startswith("play_instant@") for e, _ in m.successors(armed))
    assert any(e.name.startswith("play_instant@") for e, _ in m.successors(armed._replace(in_play=(True,) * t.count)))


def build_path(m: Machine) -> list:
    return findings(AWAY, "new_party_bar_reaches_heroes")[SELF_CLASH].transcript.replay(m)


def test_cr74_readies_the_held_card_the_seed_leaves_open():
    found = findings(HELD, "readies_as_hold_ends")
    assert list(found) == [SOURCE_CLASH]
    clash = found[SOURCE_CLASH]
    assert "for P2 taunted: CR7.4 answers yes where the model's reading answers no" in clash.summary
    assert "wowtcg-comprehensive-rules-7.4.txt:1668-1672" in clash.places
    ours, theirs = clash.parted
    assert ours.steps[-1].edge == theirs.steps[-1].edge == "ready_cards"
    # The model: P2's taunted stays exhausted through his first ready step; CR7.4: it readies.
    m = build(HELD)
    taunted = next(c for c in range(m.table.count) if m.table.characters[c].held_until_next_turn)
    assert ours.replay(m)[-1].exhausted[taunted]
    assert not theirs.replay(build(HELD, clash.reading))[-1].exhausted[taunted]
    assert theirs.steps[-1].changes["P2 party"] == ("hero, skirmisher, taunted (exhausted)", "hero, skirmisher, taunted")
    # Either way the hold is over once P2's turn has begun.
    after = clash.transcript.replay(m)[-1]
    assert m.location_of(after) == "ready_step_start"
    (_, readied), = [(e, s) for e, s in m.successors(after) if e.name == "ready_cards"]
    assert not any(readied.held_until_turn)


def test_the_default_board_asks_neither_question():
    m = wowtcg.build(**BOUNDS)
    assert "held_until_turn" not in {v.name for v in m.variables}
    assert not any("from the game" in e.name for e in m.edges)
    assert m.rulings.questions["new_party_bar_reaches_heroes"].arguments == ()
    assert m.rulings.questions["readies_as_hold_ends"].arguments == ()
