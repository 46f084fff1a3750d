"""Powers that watch for an event, and an attachment that comes off its host
(B3, B11, V10): the least the model needs for the texts to part on what
triggers.

The texts part on three events that change nothing the rest of the model
tracks, only whether a power watching for them triggers:

- whether "when this combat ends" powers trigger where the combat concludes
  with its attacker or defender removed (603.1b: nothing triggers; the basic
  rules: the combat ends as usual; question
  ``combat_ends_after_removal_triggers``, B3);
- whether the damage of an effect that says it counts as combat damage is
  combat damage (407.3b: yes; the basic rules: only what attacker and
  defender deal each other is; question ``spell_deals_combat_damage``, B11);
- whether an attachment that comes off as its host leaves play is destroyed
  (the seed's 400.3: it is put into the graveyard, no destruction; CR7.4
  400.6 and 415.9d: destroyed by the game; question
  ``attachment_off_is_destroyed``, V10).  The attachment says it can't be
  destroyed: CR7.4's 103.3 lets no such text stop a destruction by the
  game, where the seed's 103.3 lets only the uniqueness rule override it
  (V8); the only destructions by the game CR7.4 adds are attachments', where
  the seed destroys nothing, so V8 shows in the same clash.

A ``Watcher`` is an ongoing ability in play for the whole game whose power
triggers on its event and only notes it: a flag of the state (``noted``),
set when the event happens and never cleared.  What the power then does is
left out: the flag is the trigger, which is all the questions decide.  The
attachment is an ability card that says it can't be destroyed, under one
ally from the start (``attached``),
which comes off as that ally leaves play.  Only the board one change away
made here (``nearby``) holds them, so the default board, its counts and the
any-length model are untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from model.backend import Backend
from model.machine import BOOL, Edge, Var
from model.rulings import Question, Ruling, always

if TYPE_CHECKING:
    from model.wowtcg.board import Board
    from model.wowtcg.table import Table

#: What a watcher's power triggers on, with the rule that says when it happens.
EVENTS = {
    "combat ends": ("603.1b", "a combat ends"),
    "combat damage": ("407.3b", "a card he controls deals combat damage"),
    "attachment destroyed": ("400.3", "an attachment is destroyed"),
}

#: An edge that deals a packet an effect marks as combat damage (407.3b); set by ``windows._dealing``.
SPELL_COMBAT_DAMAGE = "deals_combat_damage_by_effect"


@dataclass(frozen=True)
class Watcher:
    """An ongoing ability ``player`` controls, in play for the whole game:
    "When [event], note it"."""

    event: str
    player: int = 0

    def __post_init__(self) -> None:
        if self.event not in EVENTS:
            raise ValueError(f"unknown watched event {self.event!r}; known: {', '.join(EVENTS)}")

    def text(self, player_name: str) -> str:
        return f"{player_name}'s 'when {EVENTS[self.event][1]}'"


def host(t: Table) -> int | None:
    """The character the attachment is under, if the board has one: an ally."""
    at = t.board.attached_to
    if at is None:
        return None
    seat, slot = at
    if not (0 <= seat < t.n and 1 <= slot < len(t.party(seat))):
        raise ValueError(f"an attachment goes under an ally in play: seat {seat + 1} has no ally slot {slot}")
    return t.party(seat)[slot]


def variables(t: Table) -> list[Var]:
    out = []
    if t.board.watchers:
        out.append(Var("noted", BOOL, (False,), length=len(t.board.watchers), doc="each watcher's power has triggered"))
    if t.board.attached_to is not None:
        out.append(Var("attached", BOOL, (True,), doc="the attachment is still under its host (400.2)"))
    return out


def questions(t: Table, priority_windows: tuple[str, ...]) -> tuple[Question, ...]:
    """The questions only a watcher or the attachment asks."""
    none = t.none

    def no_combatants(s: Any, b: Backend) -> Any:
        return b.Or(s.attacker == none, s.defender == none)

    # -- 603.1b: a combat ending with its attacker or defender removed (B3) ----------------
    combat_ends_after_removal_triggers = Question(
        "combat_ends_after_removal_triggers",
        "as this combat concludes, do powers that trigger when a combat ends trigger (603.1b)?",
        (
            # 603.1b in every comprehensive text: with no attacker or no
            # defender left, nothing triggers.
            Ruling(
                "603.1b",
                ("603.1b",),
                False,
                no_combatants,
                "with no attacker or no defender left, no combat damage is dealt and nothing triggers",
                texts={"000": "489", "002en": "145-146", "002zh": "146", "CR7.4": "1960-1962"},
            ),
            # The basic rules end a role before the combat's end only by
            # removal from combat (001:281, 291), and of a combatant removed
            # they say the combat ends as usual, only without combat damage.
            Ruling(
                "603.1b",
                ("603.1b", "basic:removal-from-combat"),
                True,
                no_combatants,
                "a combatant removed from combat: the combat ends as usual, only no combat damage is dealt",
                texts={"001": "327"},
            ),
        ),
        ((),) if any(w.event == "combat ends" for w in t.board.watchers) else (),
        asked_at=("combat_conclusion",),
        # 603.2 (CR7.4 603.3): the combat step ends and the triggers waiting go on the chain.
        default=True,
        default_texts={"000": "490", "002en": "148", "CR7.4": "1965-1969"},
        show=lambda: "a power that triggers when a combat ends",
    )

    # -- 400.3: whether an attachment that comes off is destroyed (V10) ----------------------
    attachment_off_is_destroyed = Question(
        "attachment_off_is_destroyed",
        "as its host leaves play, is the attachment that comes off destroyed (400.3)?",
        (
            # The seed: it comes off and is put into its owner's graveyard,
            # and the rule says that is no destruction (again 409.6d, 000:368).
            Ruling(
                "400.3",
                ("400.3",),
                False,
                always,
                "the attachment comes off and is put into its owner's graveyard: it is not destroyed (so its 'can't be destroyed' never comes up)",
                texts={"000": "182"},
            ),
            # CR7.4: an attachment checks for a host matching its host
            # description as part of the checks and is destroyed by the game
            # where there is none (400.6, 410.6c); every move from play to a
            # graveyard is a destroy event (415.9d); and no "can't be
            # destroyed" stops a destruction by the game (its 103.3, :160-162,
            # where the seed's 103.3, 000:110, lets only the uniqueness rule
            # override one: V8).  The seed has no destruction here for its
            # 103.3 to meet.
            Ruling(
                "400.3",
                ("400.3", "CR7.4 400.6", "CR7.4 415.9d", "CR7.4 103.3"),
                True,
                always,
                "an attachment left without a matching host is destroyed by the game, even one that can't be destroyed",
                texts={"CR7.4": "623-627"},
            ),
        ),
        ((),) if t.board.attached_to is not None else (),
        asked_at=(*priority_windows, "pre_priority_checks"),
        fixed=True,
        show=lambda: "the attachment",
    )
    return combat_ends_after_removal_triggers, attachment_off_is_destroyed


def watched(t: Table, edge: Edge) -> Edge:
    """``edge`` on a board with watchers or an attachment: each watcher's
    flag is set where the step makes its event happen, and the attachment
    comes off where the step takes its host out of play.

    Abstraction: the attachment comes off in the step its host leaves play;
    CR7.4's check (400.6) destroys it in the next batch of checks, before
    anyone has priority, so nothing can act in between."""
    watchers = t.board.watchers
    h = host(t)
    concludes = edge.has("concludes_combat")
    combat_damage = edge.has("deals_combat_damage")
    by_effect = edge.has(SPELL_COMBAT_DAMAGE)
    if not (concludes or combat_damage or by_effect or h is not None):
        return edge
    destroys = h is not None and t.rulings.fixed("attachment_off_is_destroyed")

    def update(s: Any, b: Backend) -> dict[str, Any]:
        out = edge.update(s, b)
        host_leaves = False
        changes: dict[str, Any] = {}
        if h is not None and "in_play" in out:
            # A player who leaves the game takes his cards with him, the
            # attachment under his ally too: removed from the game, not
            # put into a graveyard (102.2, 001:262).
            stays = out.get("in_game", s.in_game)[t.owner[h]]
            host_leaves = b.And(s.attached, b.Not(out["in_play"][h]), stays)
            changes["attached"] = b.And(s.attached, out["in_play"][h])
        noted = list(s.noted) if watchers else []
        for i, w in enumerate(watchers):
            if w.event == "combat ends" and concludes:
                noted[i] = b.Or(noted[i], t.rulings.answer("combat_ends_after_removal_triggers", s, b))
            elif w.event == "combat damage" and (combat_damage or by_effect):
                noted[i] = b.Or(noted[i], _deals_combat_damage(t, s, b, out, w.player, by_effect))
            elif w.event == "attachment destroyed" and destroys:
                noted[i] = b.Or(noted[i], host_leaves)
        if watchers:
            changes["noted"] = tuple(noted)
        return {**out, **changes}

    rules = edge.rules + tuple(
        EVENTS[w.event][0] for w in watchers
        if (w.event == "combat ends" and concludes) or (w.event == "combat damage" and (combat_damage or by_effect))
    ) + (("400.3",) if h is not None and {"409.6b", "404.1"} & set(edge.rules) else ())
    return replace(edge, update=update, rules=tuple(dict.fromkeys(rules)))


def _deals_combat_damage(t: Table, s: Any, b: Backend, out: dict[str, Any], player: int, by_effect: bool) -> Any:
    """Did a card ``player`` controls deal combat damage in this step?  A
    packet dealt shows as damage gained, or as lethal damage taking its
    recipient out of play in the same step; one prevented in full, or held
    back (603.1a), leaves none.  An effect's packet is dealt by the card its
    link's controller played (407.3b); combat's, by the attacker to the
    defender and back (603.1)."""
    damage = out.get("damage", s.damage)
    in_play = out.get("in_play", s.in_play)

    def took(c: int) -> Any:
        return b.And(s.in_play[c], b.Or(damage[c] > s.damage[c], b.Not(in_play[c])))

    if by_effect:
        return b.And(t.chain.top(s, b, "controller") == player, b.Or(*(took(c) for c in range(t.count))))
    owner = lambda c: b.select(t.owner, c, t.nobody)  # noqa: E731
    took_from = lambda role: b.Or(*(b.And(role == c, took(c)) for c in range(t.count)))  # noqa: E731
    return b.Or(
        b.And(owner(s.attacker) == player, took_from(s.defender)),
        b.And(owner(s.defender) == player, took_from(s.attacker)),
    )


def describe(t: Table, s: Any) -> dict[str, str]:
    """The watchers' flags and the attachment, for a reader of a transcript."""
    out = {}
    if t.board.watchers:
        noted = [w.text(t.player_name(w.player)) for i, w in enumerate(t.board.watchers) if s.noted[i]]
        out["triggered"] = ", ".join(noted) or "none"
    h = host(t)
    if h is not None:
        out["attachment"] = f"under {t.name(h)}" if s.attached else "in the graveyard"
    return out


def nearby(board: Board, spell: Any) -> tuple[str, str, Board] | None:
    """The default board with the watchers, an effect whose damage counts as
    combat damage, and an attachment that can't be destroyed under P2's last
    ally: where each of the three questions is asked.  None where P2 has no
    ally.  Nothing else destroys the attachment, so its "can't" is read only
    by the rulings of ``attachment_off_is_destroyed``."""
    if len(board.parties) < 2 or not board.parties[1].allies:
        return None
    slot = len(board.parties[1].allies)
    who = board.parties[1].allies[-1].name
    watchers = (Watcher("combat ends", 0), Watcher("combat damage", 1), Watcher("attachment destroyed", 0))
    return (
        "watchers",
        f"powers note when a combat ends, when a card of P2 deals combat damage and when an attachment is destroyed; "
        f"P2's {who} has an attachment that can't be destroyed; and a non-instant ability of {spell.amount} damage that counts as combat damage is in the game",
        replace(board, spells=(spell,), watchers=watchers, attached_to=(1, slot)),
    )
