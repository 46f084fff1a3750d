"""The golden rules of Heroes of Ancients (101) as explicit precedence: who
loses, who wins, which entities have their abilities, whether a council
player chooses a card, whether a token returns.

Each question collects every rule's answer as a ruling; the principles say
which ruling beats which (``model/rulings.py``), never source order:

- 101.1 card text beats the rules (Aegis of Immortality over 104.3b-c);
- 101.1's exception: a player may always concede (104.3a over Aegis);
- 101.2 "can't" beats "can" (Aegis over Curse of Ruin, Gatekeeper over Pact
  of Victory), applied by the rule book without being named;
- 101.2a losing an ability is not a "can't" (a silenced entity simply has none);
- 101.3 an impossible instruction is skipped (the council card choice from an
  empty hand; Rewind Portal's return, made impossible by 109.5g);
- 104.2a the last player standing wins over every effect that stops it.
"""

from __future__ import annotations

from typing import Any

from model.backend import Backend
from model.hota.table import PLAYERS, STARTING_LIFE, Table
from model.rulings import Principle, Question, RuleBook, Ruling

#: Why a player would lose or win: the rule's answer depends on it.
DAMAGE, LIBRARY, EFFECT, CONCESSION = "damage", "empty library", "effect", "concession"
LAST_STANDING = "last standing"

PRINCIPLES = (
    Principle("101.1", ("101.1",), "card text that contradicts a rule takes precedence over it, in that case only"),
    Principle("101.1-concession", ("101.1",), "101.1's one exception: a player may always concede"),
    Principle("101.2", ("101.2",), "a 'can't' takes precedence over a 'can'", cant_beats_can=True),
    Principle("101.2a", ("101.2a",), "gaining or losing an ability is not a 'can' against a 'can't'"),
    Principle("101.3", ("101.3",), "an instruction to do the impossible is skipped"),
    Principle("104.2a-override", ("104.2a",), "the last player in the game wins over every effect that would stop it"),
)


def _other(p: Any) -> Any:
    return 1 - p


def left_the_game(s: Any, p: int, b: Backend) -> Any:
    """104.5: a player who lost, or for whom the game is a draw, has left it."""
    return b.Or(s.lost[p], s.drew[p])


def rulebook(t: Table, without: tuple[str, ...] = ()) -> RuleBook:
    """The questions of one table; ``without`` removes principles or rulings (a variant)."""
    book: list[RuleBook] = []  # set below: rulings ask the book whether an entity has its ability

    def has_ability(s: Any, b: Backend, e: int) -> Any:
        return book[0].answer("has_ability", s, b, e)

    def holds(card: str, p: int):
        """Player ``p`` controls this card and it has its ability (108.4: 'you' is its controller)."""
        return lambda s, b: b.Or(*(has_ability(s, b, e) for e in t.controlled_by(card, p)))

    # -- has_ability(e): 101.2a ------------------------------------------------------
    has_ability_q = Question(
        "has_ability",
        "does this entity have its ability?",
        (
            Ruling("printed", ("109.1",), True, lambda s, b, e: True,
                   "an entity on the battlefield has the ability printed on it", printed=True),
            # Reading: 101.2a takes ability changes out of "can't beats can"; the
            # silence is a later effect on the entity, so it replaces the printed
            # ability until it ends (assumed:turn-end), and a "can" never undoes it.
            Ruling("silenced", ("101.2a",), False, lambda s, b, e: s.silenced[e],
                   "Silencing Rune took its abilities until the end of the turn", overrides={"printed": "101.2a"}),
        ),
        tuple((e,) for e in range(len(t.entities))),
        asked_at=("priority", "check", "triggers"),
        show=lambda e: t.entities[e].label,
    )

    # -- loses_game(p, why) ------------------------------------------------------------
    def cause(expected: str, applies: Any):
        return lambda s, b, p, why: applies(s, b, p) if why == expected else False

    aegis = {p: holds("Aegis of Immortality", p) for p in range(PLAYERS)}
    loses_q = Question(
        "loses_game",
        "does this player lose the game?",
        (
            Ruling("104.3a", ("104.3a",), True, cause(CONCESSION, lambda s, b, p: True),
                   "a player who concedes loses", overrides={"aegis": "101.1-concession"}),
            Ruling("104.3b", ("104.3b",), True,
                   cause(DAMAGE, lambda s, b, p: s.damage[p] >= STARTING_LIFE),
                   "damage markers at or above the starting life total (103.3)"),
            Ruling("104.3c", ("104.3c",), True, cause(LIBRARY, lambda s, b, p: s.drew_from_empty[p]),
                   "tried to draw more cards than the library held"),
            Ruling("104.3d", ("104.3d",), True, cause(EFFECT, lambda s, b, p: True),
                   "an effect says the player loses"),
            # Aegis beats the rules 104.3b-c as card text (101.1) and the effects
            # of 104.3d as a "can't" (101.2, unnamed); conceding beats it (above).
            Ruling("aegis", ("101.1", "101.2", "108.4"), False, lambda s, b, p, why: aegis[p](s, b),
                   "Aegis of Immortality: its controller can't lose the game", printed=True, cant=True,
                   overrides={"104.3b": "101.1", "104.3c": "101.1"}),
        ),
        tuple((p, why) for p in range(PLAYERS) for why in (DAMAGE, LIBRARY, EFFECT, CONCESSION)),
        asked_at=("check", "priority"),
        show=lambda p, why: f"P{p + 1} by {why}",
    )

    # -- wins_game(p, why) ---------------------------------------------------------------
    gatekeeper = {p: holds("Gatekeeper", _other(p)) for p in range(PLAYERS)}
    wins_q = Question(
        "wins_game",
        "does this player win the game?",
        (
            Ruling("104.2a", ("104.2a",), True,
                   lambda s, b, p, why: b.And(why == LAST_STANDING, left_the_game(s, _other(p), b)),
                   "every opponent has left the game", overrides={"gatekeeper": "104.2a-override"}),
            Ruling("104.2b", ("104.2b",), True, lambda s, b, p, why: why == EFFECT,
                   "an effect says the player wins"),
            Ruling("gatekeeper", ("101.2", "108.4"), False, lambda s, b, p, why: gatekeeper[p](s, b),
                   "Gatekeeper: its controller's opponents can't win the game", printed=True, cant=True),
        ),
        tuple((p, why) for p in range(PLAYERS) for why in (EFFECT, LAST_STANDING)),
        asked_at=("check", "priority"),
        show=lambda p, why: f"P{p + 1} by {why}",
    )

    # -- chooses_a_card(p): the council's first choice ----------------------------------------
    chooses_q = Question(
        "chooses_a_card",
        "does this player choose a card from hand for the council?",
        (
            Ruling("council", ("101.4", "101.4a"), True, lambda s, b, p: True,
                   "Council of Elders: each player chooses a card in hand, face down", printed=True),
            Ruling("empty-hand", ("101.3",), False, lambda s, b, p: s.hand[p] == 0,
                   "there is no card in hand to choose", overrides={"council": "101.3"}),
        ),
        tuple((p,) for p in range(PLAYERS)),
        asked_at=("council",),
        show=lambda p: f"P{p + 1}",
    )

    # -- token_returns(): Rewind Portal ------------------------------------------------------
    # Reading: 101.1 does not let Rewind Portal beat 109.5g: the card does not
    # contradict the rule, it gives an instruction that 109.5g makes impossible,
    # which 101.3 skips.
    returns_q = Question(
        "token_returns",
        "does an exiled token return to the battlefield?",
        (
            Ruling("rewind-portal", ("108.4",), True, lambda s, b: True,
                   "Rewind Portal: return the exiled token to the battlefield", printed=True),
            Ruling("109.5g", ("109.5g",), False, lambda s, b: True,
                   "a token that left the battlefield can never come back", cant=True,
                   overrides={"rewind-portal": "101.3"}),
        ),
        ((),),
        asked_at=("priority",),
        show=lambda: "the token",
    )

    made = RuleBook((has_ability_q, loses_q, wins_q, chooses_q, returns_q), PRINCIPLES)
    book.append(made.without(without) if without else made)
    return book[0]
