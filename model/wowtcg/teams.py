"""A team game: the table where a teammate's characters can be proposed as
defenders, so that the texts' answers to who is opposing there are compared
(B10, question ``opposing_in_team_game``).

The basic rules' multiplayer section calls opposing every character you do
not control (001:264), where their glossary calls opposing only an
opponent's cards and a teammate's characters friendly (001:313, :300); CR7.4
calls a teammate a friendly player (its glossary, Friendly), and 601.2b asks
for a defender an opponent of the turn player controls (002en:35-36, CR7.4
601.2b).  No two-player table tells them apart: every other player is an
opponent there.

The table is the default board at four seats, the two parties alternating,
in two teams seated alternately as 001:266 asks: P1 and P3 (the first party)
against P2 and P4 (the second).  It is searched over P1's first turn, where
nobody draws (501.2b), with one combat, one resource each and empty hands, to
keep the search small (about 36,000 states).  A combat's checks end the game
there as one team is left (102.1, ``Table.goes_on``); ``Table`` refuses a
team game over more turns, or with spells or abilities, whose draws and
"each opposing" effects are still read seat by seat.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model.wowtcg.board import Board, default_board

#: Each seat's team: P1 and P3 against P2 and P4, so each player sits between two opponents (001:266).
TEAMS = (0, 1, 0, 1)
#: The bounds the team table is built at, over the caller's (lint's) own.
BOUNDS = {"players": len(TEAMS), "turns": 1, "combats": 1, "resources": 1, "hand": 0}
KEY = "teams-P1+P3-P2+P4"
LABEL = "four players in two teams, P1 and P3 against P2 and P4, over P1's first turn"


def team_board(allies: int) -> Board:
    """The default board at four seats, in the two teams of ``TEAMS``."""
    return replace(default_board(len(TEAMS), allies), teams=TEAMS)


def nearby(allies: int) -> tuple[str, str, dict[str, Any]]:
    """The team table as a board one change away: its key, what changed, and the
    builder's options (the board and the bounds it is built at)."""
    return KEY, LABEL, {"board": team_board(allies), **BOUNDS}
