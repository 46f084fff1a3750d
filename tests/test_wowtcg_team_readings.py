"""Who is opposing in a team game (question ``opposing_in_team_game``, B10).

The basic rules' multiplayer section calls opposing any character you do
not control (001:264), so a player's characters may attack his teammate's;
their glossary calls opposing only an opponent's cards and a teammate's
characters friendly (001:313, :300), as CR7.4's glossary does (Friendly,
:3648-3649), and 601.2b asks for a defender an opponent controls (002en:35-36,
CR7.4:1842-1843).  Asked on the team table (``model/wowtcg/teams.py``): four
players, P1 and P3 against P2 and P4, over P1's first turn."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from chainproof.source_lint import SourceFinding, lint_sources
from checkers import vector
from model import wowtcg
from model.machine import Machine
from model.wowtcg import teams
from model.wowtcg.board import Board

QUESTION = "opposing_in_team_game"
SELF_CLASH = "self-clash:opposing_in_team_game:001:opposing:friendly+opposing:multiplayer"
SOURCE_CLASH = "source-clash:opposing_in_team_game:001"


def build(spec: str | None, **bounds: int) -> Machine:
    # One ally a party: the smallest team table where a teammate's ally is a candidate defender.
    return wowtcg.build(**{**teams.BOUNDS, **bounds}, allies=1, board=teams.team_board(1), reading=spec)


@cache
def findings() -> dict[str, SourceFinding]:
    found = lint_sources(build(None), lambda spec, more: build(spec, **more), 200_000, 200_000, questions=(QUESTION,))
    return {f.key: f for f in found.findings}


def test_the_basic_rules_clash_with_themselves_on_a_teammates_characters():
    found = findings()
    assert set(found) == {SELF_CLASH, SOURCE_CLASH}
    clash = found[SELF_CLASH]
    assert {"001_bb13bfcb78a9b116.txt:264", "001_bb13bfcb78a9b116.txt:313"} <= set(clash.places)
    assert "basic:multiplayer" in clash.rules and "basic:opposing" in clash.rules


def test_only_the_basic_rules_let_a_player_attack_his_teammates_characters():
    clash = findings()[SOURCE_CLASH]
    assert "001 answers yes where the model's reading answers no" in clash.summary
    assert {"001_bb13bfcb78a9b116.txt:264", "wowtcg-comprehensive-rules-7.4.txt:3648-3649"} <= set(clash.places)
    ours, theirs = ([step.edge for step in game.steps] for game in clash.parted)
    # P1's first action phase, after the four players pass in his ready step: only 001's
    # reading goes on to a proposal against a character of P3, his teammate.
    assert theirs[:-1] == ours and ours[-1] == "skip_first_draw" and ours.count("pass_priority@ready_step") == 3
    assert theirs[-1].startswith("propose_combat[P1 ") and " -> P3 " in theirs[-1]


def test_the_models_reading_keeps_teammates_friendly_and_opponents_opposing():
    m = build(None)
    t = m.table
    assert [m.rulings.fixed(QUESTION, p, q) for p, q in m.rulings.questions[QUESTION].arguments] == [False] * 4
    # 601.2b: P1's characters may attack P2's and P4's, never P3's; 602.2: only P1's opponents protect against him.
    assert [t.opposed[q] for q in range(t.n)] == [False, True, False, True]
    theirs = build("001@opposing_in_team_game").table
    assert [theirs.opposed[q] for q in range(t.n)] == [False, True, True, True]


def test_a_team_game_ends_as_one_team_is_left():
    # 102.1: a player wins once no opponent of his remains.  Only 001's reading lets P1 attack his
    # teammate's hero, whose strike back may fell P1's too: both heroes of a team fall in one combat.
    m = build("001@opposing_in_team_game")
    ex = vector.explore(m, 200_000)
    assert ex.complete
    s = ex.layout.state(ex.layout.unpack(ex.keys))
    out = np.zeros(ex.states, bool)
    for team in set(teams.TEAMS):
        out |= ~np.logical_or.reduce([np.asarray(s.in_game[p]) != 0 for p, x in enumerate(teams.TEAMS) if x == team])
    assert out.any()
    where = {m.location_names[x] for x in np.unique(np.asarray(s.location)[out])}
    # The batch that fells them, then the game's end: nobody acts in between.
    assert where == {"pre_priority_checks", "game_over"}


def test_the_default_board_asks_nothing_and_a_team_game_is_built_only_at_its_bounds():
    m = wowtcg.build(turns=1)
    assert m.rulings.questions[QUESTION].arguments == ()
    board = teams.team_board(2)
    with pytest.raises(ValueError, match="over the first turn only"):
        wowtcg.build(**{**teams.BOUNDS, "turns": 2}, board=board)
    with pytest.raises(ValueError, match="a team for every seat"):
        Board(board.parties, teams=(0, 1))
