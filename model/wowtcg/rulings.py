"""Who may attack, be proposed, protect, and who is bound to attack: the
rules of 600-602 as rulings with explicit precedence (``model/rulings.py``).

The combat edges ask these questions through ``Table.rulings``; ``chainproof
lint`` checks that no reachable state makes two live rulings disagree.
"""

from __future__ import annotations

from typing import Any

from model.backend import Backend
from model.rulings import Principle, Question, RuleBook, Ruling

# -- 103: the precedence principles ----------------------------------------------------

PRINCIPLES = (
    Principle("103.1", ("103.1",), "card text that contradicts a rule takes precedence over the rule"),
    Principle(
        "103.2", ("103.2",), "a 'can't' takes precedence over any rule or modifier that would make the thing happen",
        cant_beats_can=True,
    ),
    # Rules that state their own exception to a broader grant.
    Principle("601.2a", ("601.2a",), "601.2a itself denies attacking to a character new to its party"),
    Principle("602.2b", ("602.2b",), "602.2b itself allows one protector per combat"),
    Principle("600.3", ("600.3",), "600.3's last clause: a character that can't attack unless its controller pays need not attack"),
)


def book(t: Any, without: tuple[str, ...] = ()) -> RuleBook:
    """The rulings of the table ``t`` (a ``Table``), less the principles or
    rulings named in ``without`` (a rule variant).  Rulings that consult
    another question ask this same book, so a variant reaches them too."""
    ferocity, elusive, sabotage = t.keyword("ferocity"), t.keyword("elusive"), t.keyword("sabotage")
    protector, stealth = t.keyword("protector"), t.keyword("stealth")
    characters = range(t.count)

    # The (attacker, defender) pairs a proposal may name, as the board alone decides (601.2b).
    proposals = tuple((a, d) for a in characters for d in t.rivals(a))

    def show_proposal(a: int, d: int) -> str:
        return f"{t.name(a)} -> {t.name(d)}"

    def owner(c: Any, b: Backend) -> Any:
        return b.select(t.owner, c, t.nobody)

    # -- 601.2a: who may attack ---------------------------------------------------------
    may_attack = Question(
        "may_attack",
        "may this character be proposed as an attacker (601.2a)?",
        (
            Ruling(
                "601.2a:ready",
                ("601.2", "601.2a"),
                True,
                lambda s, b, a: b.And(
                    t.is_character(a),
                    owner(a, b) == s.turn_player,
                    b.select(s.in_play, a, False),
                    b.Not(b.select(s.exhausted, a, True)),
                ),
                "a ready character in the turn player's party may attack",
            ),
            Ruling(
                "601.2a:new",
                ("601.2a", "302.2"),
                False,
                lambda s, b, a: b.select(s.fresh, a, False),
                "a character that joined its party this turn can't attack",
                overrides={"601.2a:ready": "601.2a"},
            ),
            Ruling(
                "ferocity",
                ("601.2a", "103.1"),
                None,
                lambda s, b, a: b.And(b.select(s.fresh, a, False), b.select(ferocity, a, False)),
                "ferocity, printed on the card, lifts the restriction on new characters",
                printed=True,
                overrides={"601.2a:new": "103.1"},
            ),
        ),
        tuple((a,) for a in characters),
        asked_at=("action_phase",),
        show=t.name,
    )

    # -- 601.2b: who may be proposed as the defender -------------------------------------
    may_be_proposed = Question(
        "may_be_proposed",
        "may this character or object be proposed as the defender against this attacker (601.2b)?",
        (
            Ruling(
                "601.2b:opposing-character",
                ("601.2", "601.2b"),
                True,
                lambda s, b, a, d: b.And(
                    t.is_character(d), t.is_opponent(s, b, s.turn_player, owner(d, b)), b.select(s.in_play, d, False)
                ),
                "an opposing character in play may be proposed",
            ),
            Ruling(
                "sabotage",
                ("601.2b",),
                True,
                lambda s, b, a, d: b.And(
                    b.Not(t.is_character(d)),
                    d < t.none,
                    t.is_opponent(s, b, s.turn_player, owner(d, b)),
                    b.select(sabotage, a, False),
                ),
                "an attacker with sabotage may propose an opposing object",
                printed=True,
            ),
            Ruling(
                "elusive",
                ("601.2b",),
                False,
                lambda s, b, a, d: b.select(elusive, d, False),
                "an elusive character can't be proposed as a defender",
                printed=True,
                cant=True,
            ),
        ),
        proposals,
        asked_at=("action_phase",),
        show=show_proposal,
    )

    def can_attack_and_be_proposed(s: Any, b: Backend, a: Any, d: Any) -> Any:
        return b.AndThen(rulebook.answer("may_attack", s, b, a), lambda: rulebook.answer("may_be_proposed", s, b, a, d))

    # -- 601.2c: a proposal as a whole ------------------------------------------------------
    may_propose = Question(
        "may_propose",
        "may the turn player propose this attacker against this defender (601.2a-c)?",
        (
            Ruling(
                "601.2",
                ("601.2", "601.2a", "601.2b"),
                True,
                can_attack_and_be_proposed,
                "a legal attacker may be proposed against a legal defender",
            ),
            # Reading: "can attack only [X] if able" is card text narrowing
            # 601.2, decided by 103.1; it is not read as a 103.2 "can't",
            # because it forbids nothing once X can't be proposed.
            Ruling(
                "601.2c",
                ("601.2c",),
                False,
                lambda s, b, a, d: b.AndThen(
                    b.And(b.select(t.attacks_only, a, t.none) != t.none, d != b.select(t.attacks_only, a, t.none)),
                    lambda: rulebook.answer("may_be_proposed", s, b, a, b.select(t.attacks_only, a, t.none)),
                ),
                "a character that can attack only [X] if able can't be proposed against another while X can",
                printed=True,
                overrides={"601.2": "103.1"},
            ),
        ),
        proposals,
        asked_at=("action_phase",),
        show=show_proposal,
    )

    # -- 600.2, 600.3: who is bound to attack --------------------------------------------
    bound = tuple(c for c in characters if t.characters[c].must_attack)
    bound_to_attack = Question(
        "bound_to_attack",
        "does this character's 'must attack if able' forbid its controller to pass (600.2)?",
        (
            # Reading: "able" includes paying the attack's tax, since a proposal
            # whose tax can't be paid can't be made (402.1, 600.3).
            Ruling(
                "600.2",
                ("600.2",),
                True,
                lambda s, b, a: b.AndThen(
                    b.And(
                        t.characters[a].must_attack,
                        s.priority_holder == s.turn_player,
                        s.chain_len == 0,
                        t.ready_resources(s, b, s.turn_player) >= t.attack_tax[a],
                    ),
                    lambda: b.Or(*(rulebook.answer("may_propose", s, b, a, d) for d in t.rivals(a))),
                ),
                "a character that must attack if able and could be legally proposed binds its controller",
            ),
            # Reading: "can't attack unless its controller pays" is no 103.2
            # "can't": the attack can happen once paid.  Only 600.3's last
            # clause says the character need not attack.
            Ruling(
                "600.3:attack-tax",
                ("600.3",),
                False,
                lambda s, b, a: t.attack_tax[a] > 0,
                "a character that can't attack unless its controller pays need not attack",
                printed=True,
                overrides={"600.2": "600.3"},
            ),
        ),
        tuple((a,) for a in bound),
        asked_at=("action_phase",),
        # Reading: where nothing settles the two (the variant without 600.3's
        # clause), the model follows the obligation, as 002's Chinese 600.3
        # reads: the controller must pay and attack.
        on_clash=True,
        show=t.name,
    )

    # -- 602.2: who may protect -------------------------------------------------------------
    may_protect = Question(
        "may_protect",
        "may this character exhaust to protect at the protect point (602.2)?",
        (
            Ruling(
                "602.2:protector",
                ("602.2",),
                True,
                lambda s, b, c: b.And(
                    b.select(protector, c, False),
                    t.is_opponent(s, b, owner(s.attacker, b), owner(c, b)),
                    b.select(s.in_play, c, False),
                    b.Not(b.select(s.exhausted, c, True)),
                    s.defender != c,
                ),
                "a ready protector of an opponent of the attacker, not the proposed defender, may protect",
                printed=True,
            ),
            Ruling(
                "602.2a:stealth",
                ("602.2a",),
                False,
                lambda s, b, c: b.select(stealth, s.attacker, False),
                "nobody can protect against an attacker with stealth",
                printed=True,
                cant=True,
            ),
            Ruling(
                "602.2b:one-protector",
                ("602.2b",),
                False,
                lambda s, b, c: s.protected,
                "only one character can protect in a combat",
                overrides={"602.2:protector": "602.2b"},
            ),
        ),
        tuple((c,) for c in characters if protector[c]),
        asked_at=("protect_point",),
        show=t.name,
    )

    rulebook = RuleBook((may_attack, may_be_proposed, may_propose, bound_to_attack, may_protect), PRINCIPLES).without(without)
    return rulebook
