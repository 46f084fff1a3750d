"""A card that "doesn't ready until the start of your next turn", and the
ready step's order (501.1a, V11).

The seed's ready step readies the turn player's cards as it starts, and
whatever else happens as the turn starts happens at that same moment
(000:416).  A modifier that lasts until the start of its controller's next
turn ends at that moment too, so the seed has the hold end and the readying
happen at once; its 103.4 (000:111), which settles a "can't" that ends just
as something would make the thing happen, speaks only of another modifier
trying, and readying is a rule's doing.  So the seed leaves open whether the
card readies.  CR7.4's ready step is an ordered list (CR7.4 501.1a,
:1668-1677): modifiers lasting "until the start of [this turn]" expire first,
then the turn player readies, so the card readies.

Whether it readies is the question ``readies_as_hold_ends``.  The model
follows the seed's one simultaneous step, and where the seed is silent it
takes the assumption assumed:hold-outlasts-readying (the card stays
exhausted that once, as 103.4 has it for a modifier).  No card of the
default board holds a card so; on the board one change away where P2's
taunted starts the game exhausted under such a modifier (``nearby_boards``),
its controller's first ready step asks the question.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model.backend import Backend
from model.machine import BOOL, Var
from model.rulings import Question, Ruling

#: CR7.4's ordered ready step: such modifiers expire, then the turn player readies.
EXPIRE_THEN_READY = {"CR7.4": "1668-1672"}
#: Where no such modifier ends, the turn player readies his cards as the ready step starts.
READYING = {"000": "416", "CR7.4": "1668-1672"}


def held(t: Any) -> tuple[bool, ...]:
    """Which characters of ``t``'s board start the game exhausted under the modifier."""
    return tuple(c.held_until_next_turn for c in t.characters)


def variables(t: Any, variables: list[Var]) -> list[Var]:
    """The machine's variables, with the held characters exhausted as the game
    starts and the state's ``held_until_turn`` (only where some character is held)."""
    start = held(t)
    if not any(start):
        return variables
    out = [replace(v, start=start) if v.name == "exhausted" else v for v in variables]
    return out + [Var("held_until_turn", BOOL, (False,), length=t.count, start=start,
                      doc="a modifier keeps each character from readying until the start of its controller's next turn (V11)")]


def exhausted_after(t: Any, s: Any, b: Backend, c: int, readies_all: bool) -> Any:
    """Whether character ``c``, held by the modifier, is exhausted once this
    ready step has readied: the hold lasts until its controller's turn starts, and
    then the rulings say whether it ends before the readying (question
    ``readies_as_hold_ends``).  ``readies_all``: the basic rules' ready step,
    which readies other players' cards too; the hold keeps those exhausted."""
    own = s.turn_player == t.owner[c]
    stays = b.Or(b.Not(own), b.Not(t.rulings.answer("readies_as_hold_ends", s, b, c)))
    if readies_all:
        return b.And(s.exhausted[c], s.held_until_turn[c], stays)
    return b.And(s.exhausted[c], b.Or(b.Not(own), b.And(s.held_until_turn[c], stays)))


def after_readying(t: Any, s: Any, b: Backend) -> dict[str, Any]:
    """The hold of each card of the turn player has ended with the turn's start."""
    return {"held_until_turn": tuple(b.And(s.held_until_turn[c], s.turn_player != t.owner[c]) for c in range(t.count))}


def question(t: Any) -> Question:
    """``readies_as_hold_ends``, asked of each held character as its controller's turn starts."""
    holds = held(t)

    def ends_now(s: Any, b: Backend, c: Any) -> Any:
        return b.And(b.select(s.held_until_turn, c, False), b.select(s.in_play, c, False), s.turn_player == b.select(t.owner, c, t.nobody))

    return Question(
        "readies_as_hold_ends",
        "as its controller's turn starts, does a card that a modifier keeps from readying until the start of that turn ready in its ready step (501.1a)?",
        (
            # CR7.4 501.1a: the list's first item ends the modifier, its second readies.
            Ruling(
                "501.1a:hold-ends",
                ("501.1a", "CR7.4 501.1a"),
                True,
                ends_now,
                "modifiers lasting until the start of the turn expire first, and then the turn player readies: the card readies",
                texts=EXPIRE_THEN_READY,
            ),
            # The seed: the hold ends and the readying happens at one moment
            # (000:416), and its 103.4 (000:111) speaks only of a modifier
            # that tries to make the thing happen: no text answers.
            Ruling(
                "501.1a:hold-ends",
                ("assumed:hold-outlasts-readying",),
                False,
                ends_now,
                "the hold ends as the card would ready, and as 103.4 has it for a modifier, the card stays exhausted this once",
            ),
        ),
        tuple((c,) for c in range(t.count) if holds[c]),
        asked_at=("ready_step_start",),
        show=t.name,
        default_texts=READYING,
    )
