"""A hero removed from the game for a while (301.3), and whether 601.2a's bar
on a character new to its party reaches it (I3).

The seed's 601.2a (000:451) asks of every proposed attacker, a hero too,
that it has been in the turn player's party without a break since his turn
began (or has ferocity), as the English and Chinese combat texts do
(002:28-33).  Its 302.2 (000:135) states the same bar and says that only
allies are subject to it.  Its 301.3 (000:132) lets a modifier remove a
hero from the game for a while, so a hero can come back to its party during
its controller's turn: 601.2a bars it, 302.2 does not, and nothing in the
seed decides.  CR7.4 301.3 (:424-425) says outright that a hero may be
proposed as an attacker however long it has been under its controller's
control.  That is the question ``new_party_bar_reaches_heroes``; the model
follows CR7.4 there (``rulings.READING``).

No card of the default board removes a hero.  On the board one change away
with such an instant in the game (``Board.hero_removal``), the turn player's
instant link may resolve in his ready or draw step by removing his hero from
the game until his action phase begins; while it is away he plays no card
(301.3, CR7.4 301.5), and as the action phase begins it comes back, new to
his party (the state's ``fresh``, which the ruling 601.2a:new reads).

Abstraction: only a hero with no damage leaves, and only in its
controller's start phase, after his ready step readied it, so it comes back
ready and with no damage whether it is the same card (the seed says nothing)
or a new one (CR7.4 301.5).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from model.backend import Backend
from model.machine import Edge
from model.rulings import Question, Ruling

#: 601.2a's bar, in the words of each text that asks it of every proposed attacker.
ANY_ATTACKER = {"000": "451", "002en": "28-30", "002zh": "31-33"}
#: Where no hero has come back this turn, 601.2a's bar has nothing of heroes to say.
NOT_NEW = {"000": "451", "002en": "28-30", "CR7.4": "1838-1840"}

#: The windows of the turn player's start phase, where his instant may remove his hero.
START_WINDOWS = ("ready_step", "draw_step")


def removes(t: Any) -> bool:
    """Is an instant that removes a hero from the game in ``t``'s game?"""
    return t.board.hero_removal


def question(t: Any) -> Question:
    """``new_party_bar_reaches_heroes``, asked of each hero as its controller may propose."""

    def new_hero(s: Any, b: Backend, h: Any) -> Any:
        return b.select(s.fresh, h, False)

    return Question(
        "new_party_bar_reaches_heroes",
        "does 601.2a's bar on a character not in the turn player's party since his turn began reach a hero that came back to it this turn?",
        (
            Ruling(
                "601.2a:any-character",
                ("601.2a",),
                True,
                new_hero,
                "601.2a asks of every proposed attacker, a hero too, that it has been in the party since the turn began",
                texts=ANY_ATTACKER,
            ),
            # CR7.4's 601.2a speaks of any character too, and its 301.3 makes
            # heroes the exception in as many words.
            Ruling(
                "601.2a:any-character",
                ("601.2a", "CR7.4 301.3"),
                False,
                new_hero,
                "a hero may be proposed as an attacker however long it has been under its controller's control",
                texts={"CR7.4": "424-425"},
            ),
            # 302.2 beside 301.3: a hero the seed lets leave for a while is no ally.
            Ruling(
                "302.2",
                ("302.2", "301.3"),
                False,
                new_hero,
                "302.2 states the bar and says only allies are subject to it, so not a hero back from the game",
                texts={"000": "135"},
            ),
        ),
        tuple((t.hero(p),) for p in range(t.n)) if removes(t) else (),
        asked_at=("action_phase",),
        show=t.name,
        default_texts=NOT_NEW,
    )


def new_and_barred(t: Any, answer: Callable[..., Any]) -> Callable[[Any, Backend, Any], Any]:
    """Where the ruling 601.2a:new applies on a board where a hero can come
    back to its party: an ally new to it, or a hero new to it that the bar
    reaches (``answer``: the rule book's, asked late, as it is built after
    its rulings)."""
    heroes = tuple(t.hero(p) for p in range(t.n))

    def applies(s: Any, b: Backend, a: Any) -> Any:
        fresh = b.select(s.fresh, a, False)
        if type(a) is int:
            return b.And(fresh, answer("new_party_bar_reaches_heroes", s, b, a)) if a < t.count and t.is_hero[a] else fresh
        barred = b.Or(*(b.And(a == h, answer("new_party_bar_reaches_heroes", s, b, h)) for h in heroes))
        return b.And(fresh, b.Or(b.Not(b.select(t.is_hero, a, False)), barred))

    return applies


def removal_edges(t: Any, resolving: Callable[..., Edge], top_link_is: Callable[..., Any], instant: int) -> list[Edge]:
    """The turn player's instant link resolving in his start phase by
    removing his hero from the game until his action phase begins (301.3)."""
    if not removes(t):
        return []
    edges = []
    for window in START_WINDOWS:
        for p in range(t.n):
            h = t.hero(p)
            edges.append(resolving(
                t, window, f"resolve_instant[remove {t.name(h)} from the game]", ("301.3",),
                lambda s, b, p=p, h=h: b.And(
                    top_link_is(t, s, b, instant), t.chain.top(s, b, "controller") == p, s.turn_player == p, s.in_play[h],
                    s.damage[h] == 0,
                ),
                lambda s, b, h=h: {"in_play": b.store(s.in_play, h, False)},
                f"every player passed in succession: the top link resolves and removes {t.name(h)} from the game until {t.player_name(p)}'s action phase",
            ))
    return edges


def with_absence(t: Any, edge: Edge) -> Edge:
    """``edge``, on a board where a hero can be away: while his hero is
    removed from the game a player plays no card (301.3, CR7.4 301.5), and
    as the action phase begins the turn player's hero comes back, new to
    his party."""
    if edge.name.startswith("play_instant@"):
        guard = edge.guard

        def present(s: Any, b: Backend) -> Any:
            return b.AndThen(guard(s, b), lambda: b.select(s.in_play, b.select(t.hero_of, s.priority_holder, t.none), False))

        return replace(edge, guard=present, rules=tuple(dict.fromkeys(edge.rules + ("301.3",))))
    if edge.target != "action_phase" or edge.source not in ("draw_step_start", "draw_step"):
        return edge
    update = edge.update

    def back(s: Any, b: Backend) -> dict[str, Any]:
        out = update(s, b)
        away = tuple(b.And(s.turn_player == p, b.Not(s.in_play[t.hero(p)])) for p in range(t.n))
        in_play, fresh = list(out.get("in_play", s.in_play)), list(out.get("fresh", s.fresh))
        for p in range(t.n):
            h = t.hero(p)
            in_play[h] = b.Or(in_play[h], away[p])
            fresh[h] = b.Or(fresh[h], away[p])
        return {**out, "in_play": tuple(in_play), "fresh": tuple(fresh)}

    return replace(edge, update=back, rules=tuple(dict.fromkeys(edge.rules + ("301.3",))))
