"""Heroes of Ancients: the outcome of an ended game, losses at the priority
check, active-player-first choices, tokens, the start of the game, and loops.

Each property restates its rule from the state's variables and the table's
fixed facts (``machine.table``), without the model's helpers, so that a
broken edge cannot hide behind the same broken helper. Edge tags say what a
step is (``priority_check``, ``concedes``, ``choice``...).
"""

from __future__ import annotations

from typing import Any

from model.backend import Backend
from model.machine import Edge, Machine
from properties import Deadlock, Eventually, Invariant, StepProperty

# Codes of the model's variables (model/hota/game.py), restated.
NOT_YET = -1
ACCEPT, REFUSE = 1, 0
STARTING_LIFE = 30  # 103.3
OPENING_HAND = 7  # 103.4


def _seats(s: Any) -> range:
    """The players at the table (two to four): one ``won`` flag each."""
    return range(len(s.won))


def _echo_waits(s: Any) -> int:
    """The waiting code of an echo for P1's token: after one Culling Field code per seat."""
    return len(s.won)


def _stays(s: Any, p: Any, b: Backend) -> Any:
    """Player ``p`` (a seat or a term) is still in the game; at two players
    always, where play goes on, since the first to leave ends it (104.2a)."""
    if len(s.won) == 2:
        return True
    return b.Not(b.Or(*(b.select(x, p, False) for x in (s.won, s.lost, s.drew))))


def _other(p: Any) -> Any:
    return 1 - p


def _playing(s: Any, p: int, b: Backend) -> Any:
    return b.Not(b.Or(s.won[p], s.lost[p], s.drew[p]))


def _protected(m: Machine, s: Any, p: int, b: Backend) -> Any:
    """Player ``p`` controls an Aegis of Immortality that is not silenced (101.1, 101.2a)."""
    if m.table.control_moves:  # Mind Tether: the Aegis's "you" is whoever controls it now (108.4)
        return b.Or(*(
            b.And(s.controller[e] == p, b.Not(s.silenced[e])) for e, x in enumerate(m.table.entities)
            if x.card == "Aegis of Immortality"
        ))
    return b.Or(*(
        b.Not(s.silenced[e]) for e, x in enumerate(m.table.entities)
        if x.card == "Aegis of Immortality" and x.controller == p
    ))


# 104.1, 104.2, 104.3, 104.4, 104.5: once the game is over, every player has
# exactly one result, at most one player won, and a draw is everyone's; while
# it goes on, nobody has won or drawn and two players at least are still in it
# (at two players: nobody has a result, since the first to leave ends it).
def _outcome(m: Machine, s: Any, b: Backend) -> Any:
    one_each = [b.count([s.won[p], s.lost[p], s.drew[p]]) == 1 for p in _seats(s)]
    over = b.And(
        *one_each,
        b.count(list(s.won)) <= 1,
        # 104.4a: a draw is every remaining player's (those who left before keep their loss).
        b.Implies(b.Or(*s.drew), b.And(*(s.drew[p] if len(s.won) == 2 else b.Or(s.drew[p], s.lost[p])
                                        for p in _seats(s)))),
        b.Implies(b.Or(*s.won), b.Or(*s.lost)),
    )
    going_on = b.And(b.Not(b.Or(*s.won, *s.drew)), b.count([_playing(s, p, b) for p in _seats(s)]) >= 2)
    return b.If(m.at(s, "game_over", b=b), over, going_on)


game_outcome_well_defined = Invariant(
    "game_outcome_well_defined",
    ("104.1", "104.2", "104.3", "104.4", "104.5"),
    "an ended game gives every player exactly one of won, lost or drew (one winner at most, a draw for all); before the end nobody has a result",
    holds=_outcome,
)

# 104.3e: nobody both wins and loses.
nobody_wins_and_loses = Invariant(
    "nobody_wins_and_loses",
    ("104.3e",),
    "no player has both won and lost",
    holds=lambda m, s, b: b.And(*(b.Not(b.And(s.won[p], s.lost[p])) for p in _seats(s))),
)


# 104.3b, 104.3c, assumed:priority-check: the losses by damage and by an
# empty library happen at the check, never on another step; the only other
# steps where a player loses are a concession (104.3a), an effect (104.3d) or
# another's win (104.1).
def _loses_only_there(e: Edge) -> bool:
    return not (e.tags & {"priority_check", "concedes", "loss_effect", "win_effect"})


losses_wait_for_priority_check = StepProperty(
    "losses_wait_for_priority_check",
    ("104.3b", "104.3c", "assumed:priority-check"),
    "no step but the priority check, a concession or an effect that says so makes a player lose",
    applies=_loses_only_there,
    holds=lambda m, pre, post, b: b.And(*(post.lost[p] == pre.lost[p] for p in _seats(pre))),
)


# 104.3b, 104.3c: and the check does make them: whoever holds priority has
# been checked: no one still in the game has lethal damage unless Aegis keeps
# them in (101.1), and no mark of a draw from an empty library is left over.
def _checked(m: Machine, s: Any, b: Backend) -> Any:
    return b.And(*(
        b.Implies(_stays(s, p, b), b.And(
            b.Not(s.drew_from_empty[p]),
            b.Implies(s.damage[p] >= STARTING_LIFE, _protected(m, s, p, b)),
        ))
        for p in _seats(s)
    ))


checked_before_priority = Invariant(
    "checked_before_priority",
    ("104.3b", "104.3c", "101.1", "assumed:priority-check"),
    "when a player holds priority, nobody in the game has lethal damage without Aegis, and no empty-library draw awaits its loss",
    holds=_checked,
    premise=lambda m, s, b: m.at(s, "priority", b=b),
)


# 109.5f, 109.5g: at a priority check every token off the battlefield has
# vanished, so none is anywhere else when a player holds priority.
tokens_only_on_battlefield_at_priority = Invariant(
    "tokens_only_on_battlefield_at_priority",
    ("109.5f", "109.5g"),
    "when a player holds priority, no token is in any zone but the battlefield",
    holds=lambda m, s, b: b.And(*(s.tokens_elsewhere[p] == 0 for p in _seats(s))),
    premise=lambda m, s, b: m.at(s, "priority", b=b),
)

# 109.5g: a token never comes back: the tokens on the battlefield grow only
# on a step that creates one.
tokens_never_return = StepProperty(
    "tokens_never_return",
    ("109.5g", "109.5a"),
    "the tokens on the battlefield grow only when a token is created",
    applies=lambda e: not e.has("creates_token"),
    holds=lambda m, pre, post, b: b.And(*(post.tokens[p] <= pre.tokens[p] for p in _seats(pre))),
)


# 101.4, 101.4c, 101.4d, 103.4: simultaneous choices go active player first.
# A defender chooses only once the active player's choices are all made (and
# not being made again); a player answers only after choosing the card
# (written order); the mulligan's opponent declares after the first player.
def _in_order(m: Machine, pre: Any, post: Any, b: Backend) -> Any:
    council = m.at(pre, "council", b=b)
    a = pre.active
    chooser = pre.chooser
    active_done = b.And(
        b.select(pre.picked, a) != NOT_YET, b.select(pre.answer, a) != NOT_YET, b.Not(pre.rechoosing)
    )
    card_first = b.Implies(
        b.Or(*(b.And(chooser == p, post.answer[p] != pre.answer[p]) for p in _seats(pre))),
        b.select(pre.picked, chooser) != NOT_YET,
    )
    # At a larger table an active or first player who has left is passed over.
    council_order = b.And(b.Implies(b.And(chooser != a, _stays(pre, a, b)), active_done), card_first)
    mulligan_order = b.Implies(
        b.Or(*(b.And(p != pre.first, post.declared[p] != pre.declared[p]) for p in _seats(pre))),
        b.Or(b.select(pre.declared, pre.first) != NOT_YET, b.Not(_stays(pre, pre.first, b))),
    )
    return b.If(council, council_order, mulligan_order)


choices_active_player_first = StepProperty(
    "choices_active_player_first",
    ("101.4", "101.4c", "101.4d", "103.4"),
    "a defending player chooses only after the active player's choices stand, a card comes before the answer, and the first player declares a mulligan first",
    applies=lambda e: e.has("choice"),
    holds=_in_order,
)


# 101.4d: a defender's refusal while the active player accepts hands the next
# choice back to the active player.
def _restart(m: Machine, pre: Any, post: Any, b: Backend) -> Any:
    a = pre.active
    refused = b.Or(*(
        b.And(pre.chooser == p, p != a, pre.answer[p] != REFUSE, post.answer[p] == REFUSE) for p in _seats(pre)
    ))
    return b.Implies(
        b.And(refused, b.select(pre.answer, a) == ACCEPT, _stays(pre, a, b)),
        b.And(post.chooser == a, post.rechoosing),
    )


refusal_restarts_with_active_player = StepProperty(
    "refusal_restarts_with_active_player",
    ("101.4d",),
    "after a defending player refuses what the active player accepted, the active player chooses again, first",
    applies=lambda e: e.has("choice"),
    holds=_restart,
)


# 103.3, 103.4: once the opening hands are drawn, and until the mulligans,
# every player has seven cards and no damage.
opening_hands = Invariant(
    "opening_hands",
    ("103.3", "103.4"),
    "while mulligans are declared every player holds seven cards and has no damage",
    holds=lambda m, s, b: b.And(*(b.Implies(_stays(s, p, b), b.And(s.hand[p] == OPENING_HAND, s.damage[p] == 0))
                                  for p in _seats(s))),
    premise=lambda m, s, b: m.at(s, "mulligan", b=b),
)


# 103.4: the mulligan happens once, for all who declared, at the same time;
# a hand keeps its size unless the library ran short.
def _mulligan(m: Machine, pre: Any, post: Any, b: Backend) -> Any:
    return b.And(
        b.Not(pre.mulligan_done),
        post.mulligan_done,
        *(b.Or(pre.declared[p] != NOT_YET, b.Not(_stays(pre, p, b))) for p in _seats(pre)),
        *(b.Implies(pre.declared[p] <= pre.library[p], post.hand[p] == pre.hand[p]) for p in _seats(pre)),
        *(post.hand[p] + post.library[p] == pre.hand[p] + pre.library[p] for p in _seats(pre)),
    )


mulligan_once_and_together = StepProperty(
    "mulligan_once_and_together",
    ("103.4",),
    "the mulligan comes once, after every player declared, for all at once, and keeps each player's cards",
    applies=lambda e: e.name == "perform_mulligans",
    holds=_mulligan,
)


# 103.5a: in a two-player game the first player draws nothing on the first turn.
first_player_skips_first_draw = StepProperty(
    "first_player_skips_first_draw",
    ("103.5a", "103.5"),
    "leaving the first turn's draw step, the first player's hand and library are unchanged",
    applies=lambda e: e.source == "draw_step" and not e.has("concedes"),
    holds=lambda m, pre, post, b: b.Implies(
        b.And(pre.first_turn, len(pre.won) == 2),
        b.And(pre.active == pre.first, *(b.And(post.hand[p] == pre.hand[p], post.library[p] == pre.library[p]) for p in _seats(pre))),
    ),
)


# 104.4b: mandatory actions end: from a state where only the game acts (the
# check, a waiting mandatory trigger), play reaches a player's decision (a
# waiting optional trigger among them) or the end of the game. A loop of mandatory actions that never ended would be a
# cycle of such states; the rule ends it in a draw instead.
def _mandatory(m: Machine, s: Any, b: Backend) -> Any:
    # A waiting Whispering Echo asks its controller: a decision, not a mandatory step.
    whisper = any(x.card == "Whispering Echo" for x in m.table.entities)
    decision = b.And(s.waiting >= _echo_waits(s), whisper)
    return b.Or(m.at(s, "check", b=b), b.And(m.at(s, "triggers", b=b), b.Not(decision)))


def _decision_or_end(m: Machine, s: Any, b: Backend) -> Any:
    return b.Not(_mandatory(m, s, b))


mandatory_actions_end = Eventually(
    "mandatory_actions_end",
    ("104.4b", "assumed:trigger-order"),
    "from the check or a waiting trigger, play reaches a player's decision or the end of the game",
    premise=_mandatory,
    goal=_decision_or_end,
)

no_deadlock = Deadlock(
    "no_deadlock",
    ("104.1", "assumed:priority"),
    "a game that is not over always has a step to take",
)

#: Invariants that k-induction leans on (lint's deadlock query).
PLAYABLE_PROPERTIES = (game_outcome_well_defined, tokens_only_on_battlefield_at_priority)

CATALOGUE = (
    game_outcome_well_defined,
    nobody_wins_and_loses,
    losses_wait_for_priority_check,
    checked_before_priority,
    tokens_only_on_battlefield_at_priority,
    tokens_never_return,
    choices_active_player_first,
    refusal_restarts_with_active_player,
    opening_hands,
    mulligan_once_and_together,
    first_player_skips_first_draw,
    mandatory_actions_end,
    no_deadlock,
)
