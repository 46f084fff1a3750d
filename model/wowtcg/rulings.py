"""Who may attack, be proposed, protect, in which window a combat is proposed
and whether as a link, in which window a non-instant is played, whether an
instant is played where no window is open, in which window a resource is
placed and whether as a link, whose cards ready, who is bound to attack, who
ends the action phase, who acts first after a link resolves, which weapons
strike together and when, whether a combat reaches its protect point, when
combat roles end, how bear form ends, whether an item that becomes an ally
joins its party then, whether a character made a defender replaces the
defender, who exchanges combat damage, whose characters are opposing in a
team game, whether 601.2a's bar reaches a hero back from the game, whether a
card held until its turn readies, and what a spell's printed text does:
the rules of 303, 404-410, 501-503 and 600-603 and CR7.4's bear form as
rulings with explicit precedence (``model/rulings.py``), each citing the
texts that state it.  Questions of play that read the board alone
(``Question.fixed``) the model asks as it builds its edges, so a reading of
them builds other edges.

The WoW rules come in five texts (``model/sources.py``): the seed's
comprehensive rules (000), the basic rules (001), the combat rules in English
(002en) and Chinese (002zh), and the later Comprehensive Rules 7.4.  Where a
text answers a question differently, its answer is a version of the same
ruling; ``READING`` says whose version the model follows.  The guards ask
these questions through ``Table.rulings``; ``chainproof lint`` compares every
source's reading with the model's and reports where they part.
"""

from __future__ import annotations

import itertools
from typing import Any

from model.backend import CONCRETE, SYMBOLIC, Backend
from model.rulings import Principle, Question, Reading, RuleBook, Ruling, always
from model.wowtcg import hero_absence, ready_hold, roles, setup, watchers

# -- the model's reading ----------------------------------------------------------------

# The seed's comprehensive rules come first: they are the specification.  The
# combat rules' English is the text 000 and 002zh translate, so it speaks
# next where 000 is silent, then 7.4, the later edition, for what the seed
# lacks.  002's Chinese and the basic rules are compared, never followed:
# the first is a looser translation of 002en, the second a simplification
# that predates several rules (dual wield, protectors in teams).
READING = Reading(
    "seed",
    ("000", "002en", "CR7.4"),
    "the seed's comprehensive rules, then the English combat rules they translate, then CR 7.4 for what the seed lacks",
    {
        # 000's 405.3 repeats its dual wield sentence for ranged dual wield
        # ("two melee weapons"); its own 405.2 ties ranged dual wield to two
        # ranged weapons, and CR7.4 406.6 says two ranged: a slip, read as
        # 7.4 corrects it.  000 as written is the reading 000@may_strike_with_both.
        "may_strike_with_both": (("CR7.4", "000", "002en"), "CR 7.4 first: it corrects 000's slip on ranged dual wield"),
        # 000's 601.2b drops "controlled by an opponent of the turn player"
        # from the English it translates, and its 601.2 asks only for
        # "something else" as the defender (T6); 002zh's 601.2 keeps the
        # defender in the opposing party.  000 as written is the reading
        # 000@may_be_proposed.
        "may_be_proposed": (("002en", "CR7.4", "000"), "the English first: 000's 601.2b drops the opponent's control it translates"),
        # 000 prints Mocking Blow's damage as combat damage where the card in
        # 002en and CR7.4 deals melee damage (T4); 000 as written is the
        # reading 000@spell_deals_combat_damage.
        # Neither 000 nor 002 knows bear form, and 000's rules of triggered
        # powers (its 700s) are missing: CR7.4 is the only comprehensive text,
        # and the basic rules simplify (they have no triggered effects).  The
        # reference engine reads it so too (Maul's trigger).
        "bear_form_ends_by_trigger": (("CR7.4", "000", "002en"), "CR 7.4 first: the seed has no bear form and lacks the triggered powers it is one of"),
        "spell_deals_combat_damage": (
            ("002en", "CR7.4", "000"), "the English card first: 000's Mocking Blow prints 'combat' damage where the card it translates deals melee damage",
        ),
        # 000's 601.2a bars any character new to the party, its 302.2 only
        # allies (I3); CR7.4 301.3 exempts heroes in as many words.  000 as
        # written is the reading 000@new_party_bar_reaches_heroes.
        "new_party_bar_reaches_heroes": (
            ("CR7.4", "000", "002en"), "CR 7.4 first: its 301.3 says outright of heroes what the seed's 302.2 says of the bar's reach and its 601.2a does not",
        ),
        # The seed's ready step is one moment: a modifier lasting until the
        # turn's start ends as the cards ready, and the seed does not say
        # which wins (V11).  CR7.4's ordered ready step is compared, not
        # followed; the reading CR7.4@readies_as_hold_ends follows it.
        "readies_as_hold_ends": (
            ("000", "002en"), "the seed's ready step, where the hold ends as the cards ready; CR 7.4's order is another design of the step",
        ),
    },
)

# -- 404.4: what a spell's printed text does besides its damage ---------------------------

#: Whether a spell stops the characters it damages from attacking this turn,
#: as each text prints the card.  They read the spell's name alone, so the
#: table knows before its rule book is built whether its state must say who
#: can't attack this turn (``some_text_stops_attacks``).
SPELL_STOPS_ATTACKS = (
    Ruling(
        "404.4:frost-nova",
        ("404.4", "103.2"),
        True,
        lambda s, b, name: name == "Frost Nova",
        "Frost Nova: a character dealt damage by it can't attack this turn",
        printed=True,
        texts={"CR7.4": "921-923"},
    ),
    # 000 quotes the card's whole text in its 404.4 example (and again in
    # 407.2c and 407.3d): damage to each opposing character, nothing more.
    Ruling(
        "404.4:frost-nova",
        ("404.4",),
        False,
        lambda s, b, name: name == "Frost Nova",
        "Frost Nova only deals 1 frost damage to each opposing hero and ally",
        printed=True,
        texts={"000": "244"},
    ),
)


#: Whether a power that doubles damage doubles it on heroes too, as each
#: text prints Barnathrum's power (404.3 example).
DOUBLING_REACHES_HEROES = (
    Ruling(
        "404.3:barnathrum",
        ("404.3",),
        True,
        lambda s, b, name: name == "Barnathrum, Lord of Pain",
        "Barnathrum doubles the damage on each character, heroes included",
        printed=True,
        texts={"000": "239-241"},
    ),
    # CR7.4's copy of the example (its 405.3) prints the power on allies only.
    Ruling(
        "404.3:barnathrum",
        ("404.3",),
        False,
        lambda s, b, name: name == "Barnathrum, Lord of Pain",
        "Barnathrum doubles the damage on each ally; heroes keep theirs",
        printed=True,
        texts={"CR7.4": "903-907"},
    ),
)


def some_text_stops_attacks(name: str) -> bool:
    """Does some text print the spell ``name`` as stopping the characters it damages from attacking?"""
    return any(r.says is True and r.applies(None, CONCRETE, name) for r in SPELL_STOPS_ATTACKS)


#: The answers to when_weapons_strike: the seed's strike link, CR7.4's strike as a role begins.
STRIKE_LINK = "with a strike link, in the defend window"
STRIKE_AS_ROLE_BEGINS = "as his hero becomes the attacker or the defender, off the chain"

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
    Principle("CR7.4 600.2b", ("CR7.4 600.2b",), "CR7.4 600.2b says itself that it is an exception to 600.2a"),
    # Our choice, not a text's: a reading of 000 alone leaves it out, so the
    # clash of a rule with an example under another rule still shows (I4).
    Principle("assumed:rule-over-example", ("assumed:rule-over-example",),
              "where a rule and an example printed under another rule disagree, the model follows the rule"),
    # Ours too, for the basic rules' reading alone (B10): their multiplayer
    # section, the one written for team games, over their glossary; a
    # reading of 001 alone leaves it out, so their clash with themselves shows.
    Principle("assumed:multiplayer-over-glossary", ("assumed:multiplayer-over-glossary",),
              "where the basic rules' multiplayer section and their glossary disagree, the multiplayer section is read"),
)


# -- where the texts say it ------------------------------------------------------------

# The places of the rules that both a ruling and a question's default cite
# (the grant and the "only" it implies are one sentence).
READY_ATTACKER = {"000": "451", "002en": "28-29", "002zh": "31-32", "CR7.4": "1838-1840"}
LEGAL_PROPOSAL = {"000": "450-452", "002en": "25-39", "002zh": "27-40", "CR7.4": "1832-1846"}
MUST_ATTACK = {"000": "446", "002en": "9-11", "002zh": "12", "CR7.4": "1778-1786"}
PROTECTOR = {"000": "471", "002en": "80-84", "002zh": "85", "CR7.4": "1896-1902"}
IN_COMBAT = {"000": "484", "002en": "125-126", "002zh": "127", "CR7.4": "1932"}

#: The priority windows (409.4) of the turn (501-503) and of combat (602.1, 602.3).
PRIORITY_WINDOWS = ("ready_step", "draw_step", "action_phase", "end_phase", "attack_window", "defend_window")
#: The action phase's windows with its combat steps' (602.1, 602.3): the basic
#: rules' action phase, whose actions include planning a combat (001:153).
ACTION_PHASE_WINDOWS = ("action_phase", "attack_window", "defend_window")
#: Where nobody holds priority and something of the rules still follows
#: before the next window: the protect point (602.2), combat conclusion
#: before its damage (603.1) and the end step (503.2a).  The ready and draw
#: steps' starts (501.1c) are left out: the same step's window opens right
#: after them, and no instant effect the model tracks bears on readying or
#: drawing, so an instant there could only be one played a step later.
NO_PRIORITY_POINTS = ("end_step", "protect_point", "combat_conclusion")


def window_question(name: str, text: str, rulings: tuple[Ruling, ...], **extra: Any) -> Question:
    """A question of the board alone, asked of each priority window: in which
    windows may the turn player, holding priority on an empty chain, do this."""
    return Question(
        name, text, rulings, tuple((w,) for w in PRIORITY_WINDOWS), asked_at=PRIORITY_WINDOWS, fixed=True,
        show=lambda w: w.replace("_", " "), **extra,
    )


def book(t: Any, without: tuple[str, ...] = (), reading: str | None = None) -> RuleBook:
    """The rulings of the table ``t`` (a ``Table``), less the principles or
    rulings named in ``without`` (a rule variant), under the reading named by
    ``reading`` (``SOURCE`` or ``SOURCE@question,...``; None: ``READING``).
    Rulings that consult another question ask this same book, so a variant
    or a reading reaches them too."""
    ferocity, elusive, sabotage = t.keyword("ferocity"), t.keyword("elusive"), t.keyword("sabotage")
    stealth = t.keyword("stealth")
    characters = range(t.count)

    # The (attacker, defender) pairs a proposal may name under some source, as
    # the board alone decides (601.2b): the proposer's own characters too (T6).
    proposals = tuple((a, d) for a in characters for d in t.rivals(a, elusive_too=True) + t.own_party(a, elusive_too=True))

    def show_proposal(a: int, d: int) -> str:
        return f"{t.name(a)} -> {t.name(d)}"

    # Over Z3 terms a character's owner is built once for each character number:
    # the rulings ask it of every (attacker, defender) pair.
    owners: dict[int, Any] = {}

    def owner(c: Any, b: Backend) -> Any:
        if b is not SYMBOLIC or type(c) is not int:
            return b.select(t.owner, c, t.nobody)
        if c not in owners:
            owners[c] = b.select(t.owner, c, t.nobody)
        return owners[c]

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
                texts=READY_ATTACKER,
            ),
            Ruling(
                "601.2a:new",
                ("601.2a", "302.2"),
                False,
                # A hero back from the game is new to its party too; whether
                # the bar reaches it is a question of its own (I3).
                hero_absence.new_and_barred(t, lambda *asked: rulebook.answer(*asked)) if hero_absence.removes(t)
                else lambda s, b, a: b.select(s.fresh, a, False),
                "a character that joined its party this turn can't attack",
                overrides={"601.2a:ready": "601.2a"},
                # 001: only allies in the party as the turn began attack (its ferocity lifts it, 201).
                texts={"000": "451", "001": "94", "002en": "29-30", "002zh": "33", "CR7.4": "1838-1840"},
            ),
            Ruling(
                "ferocity",
                ("601.2a", "103.1"),
                None,
                lambda s, b, a: b.And(b.select(s.fresh, a, False), b.select(ferocity, a, False)),
                "ferocity, printed on the card, lifts the restriction on new characters",
                printed=True,
                overrides={"601.2a:new": "103.1"},
                # 001 says it both ways: its keyword list lets a ferocious ally
                # attack in the turn it joins the party (201), its glossary in
                # the turn it enters play (299); the model reads it by 201.
                texts={"000": "451", "001": "201", "002en": "30", "CR7.4": "1838-1840"},
            ),
            # 002's Chinese 601.2a lists ferocity as the one exception for
            # allies in the turn they enter play (its item 3), and bars,
            # by its own example, an ally Mind Control brought over this turn
            # (item 2): ferocity lifts nothing for an ally that joined its
            # party without entering play.
            Ruling(
                "ferocity",
                ("601.2a", "103.1", "401.3"),
                None,
                lambda s, b, a: b.And(
                    b.select(s.fresh, a, False), b.select(ferocity, a, False),
                    *((b.Not(b.select(s.changed_sides, a, True)),) if t.ferocity_changes_sides else ()),
                ),
                "ferocity lifts the restriction only in the turn the ally enters play, not in one it changes sides",
                printed=True,
                overrides={"601.2a:new": "103.1"},
                texts={"002zh": "33-34"},
            ),
            *(
                # Only where the board holds a totem; the texts agree here (V15).
                (
                    Ruling(
                        "306.3a:totem",
                        ("306.3a", "601.2a"),
                        False,
                        lambda s, b, a: b.select(t.totem, a, False),
                        "a totem can't be proposed as an attacker",
                        cant=True,
                        texts={"000": "158", "CR7.4": "552"},
                    ),
                )
                if any(t.totem)
                else ()
            ),
            *(
                # Only where a spell of the board may say so (``spell_stops_attacks``).
                (
                    Ruling(
                        "103.2:cant-attack",
                        ("103.2", "601.2a"),
                        False,
                        lambda s, b, a: b.select(s.cant_attack, a, False),
                        "a character a modifier says can't attack this turn can't attack",
                        cant=True,
                        texts={"000": "109", "CR7.4": "155-158"},
                    ),
                )
                if t.stopping
                else ()
            ),
        ),
        tuple((a,) for a in characters),
        asked_at=("action_phase",),
        show=t.name,
        # 601.2a grants attacking to ready characters only.
        default_texts=READY_ATTACKER,
    )

    # -- 601.2b: who may be proposed as the defender -------------------------------------
    may_be_proposed = Question(
        "may_be_proposed",
        "may this character or object be proposed as the defender against this attacker (601.2b)?",
        (
            Ruling(
                "601.2b:character",
                ("601.2", "601.2b"),
                True,
                lambda s, b, a, d: b.And(
                    t.is_character(d), t.is_opponent(s, b, s.turn_player, owner(d, b)), b.select(s.in_play, d, False)
                ),
                "an opposing character in play may be proposed",
                texts={"002en": "35-36", "CR7.4": "1842-1844"},
            ),
            # 000's 601.2b asks only that the attacker can attack the
            # character, and its 601.2 that the defender be something other
            # than the attacker: whose character it is, 000 does not say (T6).
            Ruling(
                "601.2b:character",
                ("601.2", "601.2b"),
                True,
                lambda s, b, a, d: b.And(t.is_character(d), d != a, b.select(s.in_play, d, False)),
                "any other character in play may be proposed, the proposer's own included",
                texts={"000": "450-452"},
            ),
            # 002's Chinese 601.2 names the defender's kind: a target in the
            # opposing party, "an ally or a totem", so never a hero (T9).  Its
            # 601.2b (000's sentence word for word) adds only "non-elusive"
            # and "the attacker can attack it", which narrow, never widen.
            Ruling(
                "601.2b:character",
                ("601.2", "601.2b"),
                True,
                lambda s, b, a, d: b.And(
                    t.is_character(d),
                    b.Not(b.select(t.is_hero, d, False)),
                    t.is_opponent(s, b, s.turn_player, owner(d, b)),
                    b.select(s.in_play, d, False),
                ),
                "an opposing ally in play may be proposed; a hero may not",
                texts={"002zh": "27"},
            ),
            # The basic rules' declaration names an opponent's hero or ally as
            # the defender (001:181, again in the glossary, :324); they call
            # heroes and allies the characters (:284) and list totems beside
            # them, not among them (:301).  So no totem is declared.
            Ruling(
                "601.2b:character",
                ("601.2", "601.2b", "basic:combat"),
                True,
                lambda s, b, a, d: b.And(
                    t.is_character(d),
                    b.Not(b.select(t.totem, d, False)),
                    t.is_opponent(s, b, s.turn_player, owner(d, b)),
                    b.select(s.in_play, d, False),
                ),
                "an opponent's hero or ally in play may be declared the defender; a totem is neither",
                texts={"001": "181"},
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
                texts={"000": "452", "002en": "37-39", "002zh": "40", "CR7.4": "1844-1846"},
            ),
            Ruling(
                "elusive",
                ("601.2b",),
                False,
                lambda s, b, a, d: b.select(elusive, d, False),
                "an elusive character can't be proposed as a defender",
                printed=True,
                cant=True,
                # 001 words elusive more widely (its holder can't be attacked
                # at all): for a defender-to-be that is the same answer; where
                # it is not, see may_protect.
                texts={"000": "452", "001": "200", "002en": "35", "002zh": "40", "CR7.4": "1842"},
            ),
        ),
        proposals,
        asked_at=("action_phase",),
        show=show_proposal,
        # 601.2b names the only legal defenders; 002zh drops "of an opponent"
        # from it, but its 601.2 keeps the defender in the opposing party.
        default_texts={"000": "452", "002en": "35-36", "002zh": "27", "CR7.4": "1842-1846"},
    )

    # -- 001 multiplayer, 601.2b: whose characters are opposing in a team game ---------------
    # Every player's opponent is every other player unless the board seats
    # teams; then the texts part on a teammate.  The answer (the table's
    # ``opposed``) decides whose characters 601.2b lets a player's attack,
    # and whose protectors may protect against his (602.2).
    teammates = tuple((p, q) for p in range(t.n) for q in range(t.n) if p != q and t.team[p] == t.team[q])
    opposing_in_team_game = Question(
        "opposing_in_team_game",
        "are the characters this player's teammate controls opposing to his, so that his may attack them (001 multiplayer, 601.2b)?",
        (
            # The basic rules' multiplayer section: your characters may attack
            # any opposing hero or ally, and an opposing character is any
            # character you do not control, a teammate's included.
            Ruling(
                "opposing:multiplayer",
                ("basic:multiplayer",),
                True,
                always,
                "an opposing character is any character you do not control, a teammate's too",
                overrides={"opposing:friendly": "assumed:multiplayer-over-glossary"},
                texts={"001": "264"},
            ),
            # The basic glossary calls opposing only the cards an opponent
            # controls (:313), and the characters of your team friendly (:300,
            # again in the multiplayer section, :267).
            Ruling(
                "opposing:friendly",
                ("basic:opposing",),
                False,
                always,
                "opposing cards are an opponent's; a teammate's characters are friendly",
                texts={"001": "313"},
            ),
            # CR7.4's glossary: friendly players are you and your teammates,
            # opposing cards those opponents control (:3804-3806).
            Ruling(
                "opposing:friendly",
                ("glossary.friendly",),
                False,
                always,
                "a teammate is a friendly player, and his characters are friendly, not opposing",
                texts={"CR7.4": "3648-3649"},
            ),
        ),
        teammates,
        asked_at=("action_phase",),
        fixed=True,
        show=lambda p, q: f"{t.player_name(p)}'s teammate {t.player_name(q)}",
        # 601.2b: the defender of a combat is controlled by an opponent of the turn player.
        default_texts={"002en": "35-36", "CR7.4": "1842-1843"},
    )

    def can_attack_and_be_proposed(s: Any, b: Backend, a: Any, d: Any) -> Any:
        return b.AndThen(rulebook.answer("may_attack", s, b, a), lambda: rulebook.answer("may_be_proposed", s, b, a, d))

    # -- 601.2c: a proposal as a whole ------------------------------------------------------
    def printed_only(s: Any, b: Backend, a: Any) -> Any:
        return b.select(t.attacks_only, a, t.none)

    def taunt_only(s: Any, b: Backend, a: Any) -> Any:
        """The hero a spell made ``a`` attack only, this turn (``none``: no such spell)."""
        return b.select(t.hero_of, b.select(s.taunted_by, a, t.nobody), t.none)

    def narrowed_to(s: Any, b: Backend, a: Any, d: Any, x: Any) -> Any:
        """601.2c: ``a`` can attack only ``x`` if able, ``d`` is another, and ``x`` can be proposed."""
        return b.AndThen(b.And(x != t.none, d != x), lambda: rulebook.answer("may_be_proposed", s, b, a, x))

    def only_one_target(s: Any, b: Backend, a: Any, d: Any) -> Any:
        if not t.taunting:
            return narrowed_to(s, b, a, d, printed_only(s, b, a))
        x, y = printed_only(s, b, a), taunt_only(s, b, a)
        return b.Or(
            b.AndThen(b.Or(y == t.none, y == x), lambda: narrowed_to(s, b, a, d, x)),
            b.AndThen(x == t.none, lambda: narrowed_to(s, b, a, d, y)),
        )

    def only_targets(s: Any, b: Backend, a: Any) -> tuple[Any, ...]:
        """The characters ``a`` can attack only, if able: printed, and a spell's this turn."""
        return (printed_only(s, b, a), taunt_only(s, b, a)) if t.taunting else (printed_only(s, b, a),)

    #: Some character of the board must attack a named character if able (CR7.4 600.2a).
    named_targets = any(x != t.none for x in t.must_attack_target)

    def must_narrow(s: Any, b: Backend, a: Any, d: Any) -> Any:
        """CR7.4 600.2a: ``a`` must attack only X if able, ``d`` is another, and X can be proposed."""
        return named_targets and narrowed_to(s, b, a, d, b.select(t.must_attack_target, a, t.none))

    def must_and_only(s: Any, b: Backend, a: Any, d: Any) -> Any:
        """CR7.4 600.2b: ``a`` must attack X and can attack only [Y] if able, and
        some Y can be proposed (else, as its example says, 600.2a binds it to X)."""
        return named_targets and b.AndThen(
            b.select(t.must_attack_target, a, t.none) != t.none,
            lambda: b.Or(*(b.AndThen(y != t.none, lambda y=y: rulebook.answer("may_be_proposed", s, b, a, y)) for y in only_targets(s, b, a))),
        )

    def must_among_only(s: Any, b: Backend, a: Any, d: Any) -> Any:
        """CR7.4 600.2b's last sentence: X is also one of the [Y]s, ``d`` is not X, and X can be proposed."""
        if not named_targets:
            return False
        x = b.select(t.must_attack_target, a, t.none)
        return b.AndThen(b.Or(*(y == x for y in only_targets(s, b, a))), lambda: narrowed_to(s, b, a, d, x))

    def two_targets(s: Any, b: Backend, a: Any, d: Any) -> Any:
        """601.2d: ``a`` can attack only ``x`` and only ``y`` (two of them), ``d`` is neither, and one can be proposed."""
        x, y = printed_only(s, b, a), taunt_only(s, b, a)
        return b.AndThen(
            b.And(x != t.none, y != t.none, x != y, d != x, d != y),
            lambda: b.Or(rulebook.answer("may_be_proposed", s, b, a, x), rulebook.answer("may_be_proposed", s, b, a, y)),
        )

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
                texts=LEGAL_PROPOSAL,
            ),
            # "Can attack only [X] if able" is card text narrowing 601.2,
            # decided by 103.1; it is no 103.2 "can't", because it forbids
            # nothing once X can't be proposed (601.2c's own last sentence).
            Ruling(
                "601.2c",
                ("601.2c",),
                False,
                only_one_target,
                "a character that can attack only [X] if able can't be proposed against another while X can",
                printed=True,
                overrides={"601.2": "103.1"},
                texts={"000": "453", "002en": "41-44", "002zh": "45", "CR7.4": "1848-1852"},
            ),
            *(
                # Two such modifiers at once: the printed one and a spell's this turn.
                (
                    Ruling(
                        "601.2d",
                        ("601.2d",),
                        False,
                        two_targets,
                        "a character that can attack only [X] or only [Y] if able can't be proposed against a third while X or Y can",
                        printed=True,
                        overrides={"601.2": "103.1"},
                        texts={"000": "454", "002en": "46-49", "002zh": "50", "CR7.4": "1854-1857"},
                    ),
                )
                if t.taunting
                else ()
            ),
            # The seed has no rule for "must attack [X] if able" (Vigilant
            # Guard); the model's reading takes CR7.4's, which narrows the
            # proposal to X as 601.2c does, unless "can attack only" modifiers
            # decide instead (600.2b).  Whether such a character is bound is
            # bound_to_attack's question, where the texts part (V12).
            Ruling(
                "600.2a",
                ("CR7.4 600.2a",),
                False,
                must_narrow,
                "a character that must attack [X] if able can't be proposed against another while X can",
                printed=True,
                overrides={"601.2": "103.1"},
                texts={"CR7.4": "1787-1792"},
            ),
            Ruling(
                "600.2b",
                ("CR7.4 600.2b",),
                None,
                must_and_only,
                "a character that must attack [X] and can attack only [Y] if able, while a Y can be proposed, is narrowed by the 'can attack only' modifiers (601.2c-d), not by 600.2a",
                printed=True,
                overrides={"600.2a": "CR7.4 600.2b"},
                texts={"CR7.4": "1794-1800"},
            ),
            Ruling(
                "600.2b:both",
                ("CR7.4 600.2b",),
                False,
                must_among_only,
                "a character that must attack [X] and can attack only X among others can't be proposed against another while X can",
                printed=True,
                overrides={"601.2": "103.1"},
                texts={"CR7.4": "1798-1800"},
            ),
        ),
        proposals,
        asked_at=("action_phase",),
        show=show_proposal,
        default_texts=LEGAL_PROPOSAL,
    )

    # -- 601.1: in which window a combat may be proposed ------------------------------------
    may_propose_now = window_question(
        "may_propose_now",
        "may the turn player, holding priority on an empty chain, propose a combat in this window (601.1)?",
        (
            Ruling(
                "601.1",
                ("601.1",),
                True,
                lambda s, b, w: w == "action_phase",
                "a combat is proposed in the proposer's non-combat action phase",
                texts={"000": "449", "001": "152-153", "002en": "21-23", "CR7.4": "1828-1830"},
            ),
            # 002's Chinese 601.1 keeps the turn player, his priority and the
            # empty chain but names no phase (T7); its 600.1 still has combats
            # proposed and concluded one at a time, so not in a combat step.
            Ruling(
                "601.1",
                ("601.1", "600.1"),
                True,
                lambda s, b, w: w in ("ready_step", "draw_step", "action_phase", "end_phase"),
                "a combat is proposed in any window of the turn outside a combat step",
                texts={"002zh": "24"},
            ),
        ),
        # 601.1 names the only phase; the basic rules' end phase forbids planning a combat.
        default_texts={"000": "449", "001": "174", "002en": "21-23", "CR7.4": "1828-1830"},
    )

    # -- 408.1, 409.2b: in which window a non-instant may be played ------------------------
    may_play_non_instant_now = window_question(
        "may_play_non_instant_now",
        "may the turn player, holding priority on an empty chain, play a non-instant card in this window (408.1, 409.2b)?",
        (
            Ruling(
                "408.1",
                ("408.1", "409.2b"),
                True,
                lambda s, b, w: w == "action_phase",
                "a non-instant is played in its player's non-combat action phase",
                texts={"000": "334", "CR7.4": "1200-1201"},
            ),
            # The basic rules name the action phase without "non-combat", and
            # their combat is one of the action phase's actions (001:153): a
            # non-instant ability may be played in a combat step's windows too
            # (B6).  Only ability cards are named, so nothing played there
            # enters an ally slot (windows.py).
            Ruling(
                "408.1",
                ("408.1", "basic:abilities"),
                True,
                lambda s, b, w: w in ACTION_PHASE_WINDOWS,
                "a non-instant ability is played in its player's action phase, its combats included",
                texts={"001": "128"},
            ),
        ),
        # Both name the only phase; the basic rules' end phase forbids non-instants too (001:174).
        default_texts={"000": "334", "001": "128", "CR7.4": "1200-1201"},
        # A non-instant in hand.
        bounds={"hand": 1},
    )

    # -- 410.1a: in which window a resource may be placed ------------------------------------
    may_place_resource_now = window_question(
        "may_place_resource_now",
        "may the turn player, holding priority on an empty chain, place this turn's resource in this window (410.1a)?",
        (
            Ruling(
                "410.1a",
                ("410.1a",),
                True,
                lambda s, b, w: w == "action_phase",
                "a resource is placed in its player's non-combat action phase",
                texts={"000": "376", "CR7.4": "1311-1312"},
            ),
            # The basic rules list placing a resource among the action phase's
            # four actions, planning a combat being another (001:153), and
            # elsewhere say only "once in each of your turns" (001:168, 319):
            # no "non-combat", as for non-instants (B6).
            Ruling(
                "410.1a",
                ("410.1a", "basic:resources"),
                True,
                lambda s, b, w: w in ACTION_PHASE_WINDOWS,
                "a resource is placed in its player's action phase, its combats included",
                texts={"001": "153-154"},
            ),
        ),
        # Both name the only phase; the basic rules' end phase forbids placing one (001:174).
        default_texts={"000": "376", "001": "174", "CR7.4": "1311-1312"},
        # A card in hand to place.
        bounds={"hand": 1},
    )

    # -- 408.1, 409.2: whether an instant may be played where nobody holds priority ----------
    # Each point has its own rule saying nobody gets priority there; the basic
    # rules' instants may be played "at any time" (001:202, also 001:128 and
    # 305), and name no such point (B14).
    no_priority = {
        "protect_point": ("602.2", "the protect point comes as the attack window closes; protecting there uses no chain", {"000": "471", "002en": "80-84", "002zh": "85", "CR7.4": "1896-1901"}),
        "combat_conclusion": ("603.1", "nobody gets priority during combat conclusion", {"000": "487", "002en": "136", "002zh": "141", "CR7.4": "1952"}),
        "end_step": ("503.2a", "no priority window opens in the end step, so nothing is added to the chain", {"000": "435", "CR7.4": "1759-1760"}),
    }
    may_play_instant_now = Question(
        "may_play_instant_now",
        "may a player play an instant at this point, where no priority window is open (408.1, 409.2)?",
        tuple(
            ruling
            for point, (rule, why, texts) in no_priority.items()
            for ruling in (
                Ruling(
                    rule,
                    (rule, "408.1", "409.2"),
                    False,
                    lambda s, b, w, point=point: w == point,
                    f"an instant needs priority: {why}",
                    texts=texts,
                ),
                Ruling(
                    rule,
                    (rule, "basic:abilities"),
                    True,
                    lambda s, b, w, point=point: w == point,
                    "an instant may be played at any time, even in an opponent's turn",
                    texts={"001": "202"},
                ),
            )
        ),
        tuple((w,) for w in NO_PRIORITY_POINTS),
        asked_at=NO_PRIORITY_POINTS,
        fixed=True,
        show=lambda w: w.replace("_", " "),
        # An instant in hand.
        bounds={"hand": 1},
    )

    # -- 409.3, 410.1a: whether a resource is a link ----------------------------------------
    resource_uses_the_chain = Question(
        "resource_uses_the_chain",
        "does placing a resource put the card on the chain, to enter play as it resolves (409.3, 410.1a)?",
        (
            Ruling(
                "409.3",
                ("409.3", "410.1a", "413.7a"),
                True,
                always,
                "placing a resource adds a link the players may respond to; the card enters play as it resolves",
                texts={"000": "348", "CR7.4": "1312-1316"},
            ),
            # The basic rules move the card from hand straight to the resource
            # row (001:60, 168, 319).  Their chain holds cards that are used
            # and effects (001:221), and placing is an action of its own beside
            # using a card (001:153), as with the declaration of a combat (B7).
            Ruling(
                "409.3",
                ("409.3", "basic:resources"),
                False,
                always,
                "placing a resource puts the card into play at once, with no chance to respond",
                texts={"001": "168"},
            ),
        ),
        ((),),
        asked_at=("action_phase",),
        fixed=True,
        show=lambda: "placing a resource",
        # A card in hand to place.
        bounds={"hand": 1},
    )

    # -- 601.1, 601.3: whether a proposal is a link -------------------------------------------
    proposal_uses_the_chain = Question(
        "proposal_uses_the_chain",
        "does a combat proposal go on the chain, to be rechecked as it resolves (601.1, 601.3)?",
        (
            Ruling(
                "601.1",
                ("601.1", "409.3", "601.3"),
                True,
                always,
                "proposing adds a link the players may respond to; its legality is checked again as it resolves",
                texts={"000": "449", "002en": "21-23", "002zh": "24", "CR7.4": "1828-1830"},
            ),
            # The basic rules' combat is five steps in order: the declared
            # attacker exhausts and attacks right after the declaration (B7).
            # Their chain takes "most" actions, never naming a declaration,
            # and interrupts only what has lost all its targets.
            Ruling(
                "601.1",
                ("601.1", "602.1"),
                False,
                always,
                "declaring a combat takes effect at once: the attacker exhausts and attacks, with no chance to respond",
                texts={"001": "180-182"},
            ),
        ),
        ((),),
        asked_at=("action_phase",),
        fixed=True,
        show=lambda: "a combat proposal",
    )

    # -- 600.2, 600.3: who is bound to attack --------------------------------------------
    # Where a spell makes characters attack (Mocking Blow), any of them may be bound.
    bound = tuple(c for c in characters if t.characters[c].must_attack or t.must_attack_target[c] != t.none or t.taunting)

    def could_propose(s: Any, b: Backend, a: int, defenders: Any) -> Any:
        """On an empty chain, in his priority, the turn player could legally propose ``a`` against one of ``defenders``.
        "Able" includes paying the attack's tax, since a proposal whose tax
        can't be paid can't be made (402.1, 600.3)."""
        return b.AndThen(
            b.And(s.priority_holder == s.turn_player, s.chain_len == 0, t.ready_resources(s, b, s.turn_player) >= t.attack_tax[a]),
            lambda: b.Or(*(rulebook.answer("may_propose", s, b, a, d) for d in defenders)),
        )

    def must_attack_any(s: Any, b: Backend, a: int) -> Any:
        return b.AndThen(t.must_attack(s, b, a), lambda: could_propose(s, b, a, t.defenders(a)))

    def must_attack_at_all(s: Any, b: Backend, a: int) -> Any:
        """``a`` must attack if able, or must attack [X] if able, and could be proposed against anyone."""
        return b.AndThen(b.Or(t.must_attack(s, b, a), t.must_attack_target[a] != t.none), lambda: could_propose(s, b, a, t.defenders(a)))

    def must_attack_named(s: Any, b: Backend, a: int) -> Any:
        x = t.must_attack_target[a]
        return False if x == t.none else could_propose(s, b, a, (x,))

    bound_to_attack = Question(
        "bound_to_attack",
        "does this character's 'must attack if able' forbid its controller to pass (600.2)?",
        (
            # The seed has no rule for "must attack [X] if able": its 600.2 is
            # the one sentence on a modifier that makes a character attack, so
            # such a character binds while it could be proposed at all.
            Ruling(
                "600.2",
                ("600.2",),
                True,
                must_attack_at_all,
                "a character that must attack if able, or must attack [X] if able, and could be legally proposed binds its controller",
                texts={"000": "446", "002en": "9-11", "002zh": "12"},
            ),
            # CR7.4's 600.2a binds a character that must attack [X] only while
            # it could be proposed against X; under a "can attack only [Y]"
            # modifier too, 600.2b lets it be proposed only against Y (as
            # may_propose asks), so it need not attack (V12, 600.2b's example).
            Ruling(
                "600.2",
                ("600.2", "CR7.4 600.2a", "CR7.4 600.2b"),
                True,
                lambda s, b, a: b.Or(must_attack_any(s, b, a), must_attack_named(s, b, a)),
                "a character that must attack if able binds while it could be legally proposed; one that must attack [X] if able, while it could be legally proposed against X",
                texts={"CR7.4": "1778-1800"},
            ),
            # "Can't attack unless its controller pays" is no 103.2 "can't":
            # the attack can happen once paid.  Only 600.3's last clause says
            # the character need not attack.
            Ruling(
                "600.3:attack-tax",
                ("600.3",),
                False,
                lambda s, b, a: t.attack_tax[a] > 0,
                "a character that can't attack unless its controller pays need not attack",
                printed=True,
                overrides={"600.2": "600.3"},
                texts={"000": "447", "002en": "13-17", "CR7.4": "1817-1822"},
            ),
            # 002's Chinese keeps the tax but turns the clause around: under
            # both modifiers the controller must first pay, then propose.  Its
            # version exempts from nothing, so 600.2's obligation stands, on
            # 600.2's own terms (an empty chain, a proposal he could make).
            Ruling(
                "600.3:attack-tax",
                ("600.3",),
                None,
                lambda s, b, a: t.attack_tax[a] > 0,
                "a character that can't attack unless its controller pays must still attack, once he has paid",
                printed=True,
                texts={"002zh": "18"},
            ),
        ),
        tuple((a,) for a in bound),
        asked_at=("action_phase",),
        # Where nothing settles the two (the variant without 600.3's clause),
        # the model follows the obligation, as 002's Chinese 600.3 does.
        on_clash=True,
        show=t.name,
        # 600.2 binds only while its modifier lasts and a proposal is legal.
        default_texts=MUST_ATTACK,
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
                    t.has_protector(s, b, c),
                    t.is_opponent(s, b, owner(s.attacker, b), owner(c, b)),
                    b.select(s.in_play, c, False),
                    b.Not(b.select(s.exhausted, c, True)),
                    s.defender != c,
                ),
                "a ready protector of an opponent of the attacker, not the proposed defender, may protect",
                printed=True,
                texts=PROTECTOR,
            ),
            # 001's multiplayer rules let a protector guard only its own side;
            # 602.2 lets any opponent of the attacker protect.  With no teams
            # "friendly" is the proposed defender's controller: the two part
            # only at three players or more.
            Ruling(
                "602.2:protector",
                ("602.2", "basic:multiplayer"),
                True,
                lambda s, b, c: b.And(
                    t.has_protector(s, b, c),
                    t.friendly(b, owner(c, b), owner(s.defender, b)),
                    b.select(s.in_play, c, False),
                    b.Not(b.select(s.exhausted, c, True)),
                    s.defender != c,
                ),
                "a ready protector may protect a friendly character, not the proposed defender",
                printed=True,
                texts={"001": "268"},
            ),
            Ruling(
                "602.2a:stealth",
                ("602.2a",),
                False,
                lambda s, b, c: b.select(stealth, s.attacker, False),
                "nobody can protect against an attacker with stealth",
                printed=True,
                cant=True,
                texts={"000": "472", "002en": "86", "002zh": "87", "CR7.4": "1903-1904"},
            ),
            Ruling(
                "602.2b:one-protector",
                ("602.2b",),
                False,
                lambda s, b, c: s.protected,
                "only one character can protect in a combat",
                overrides={"602.2:protector": "602.2b"},
                texts={"000": "473", "002en": "91", "002zh": "93", "CR7.4": "1905-1906"},
            ),
            # 001: an elusive character can't be attacked at all, so it can't
            # protect and become the defender (B9); 602.2b lets any protector
            # protect "whether or not it can be attacked".
            Ruling(
                "elusive:cant-be-attacked",
                ("basic:keywords",),
                False,
                lambda s, b, c: b.select(elusive, c, False),
                "an elusive protector can't protect, since the defender it would become can't be attacked",
                printed=True,
                cant=True,
                texts={"001": "200"},
            ),
        ),
        tuple((c,) for c in characters if t.protectors[c]),
        asked_at=("protect_point",),
        show=t.name,
        # 602.2 names the only characters that may protect.
        default_texts=PROTECTOR,
    )

    # -- 602.2: whether a combat goes on to the protect point ------------------------------
    # 002's Chinese 602.2 concludes the combat as the attack window closes
    # unless an attacker and a *defender* remain (T5); its own 602.3, like
    # every text, makes the proposed defender a defender only after the
    # protect point, so read as written no combat gets there.
    combat_reaches_protect_point = Question(
        "combat_reaches_protect_point",
        "as the attack window closes with an attacker and a proposed defender, does the combat go on to the protect point (602.2)?",
        (
            Ruling(
                "602.2",
                ("602.2",),
                True,
                always,
                "with an attacker and a proposed defender the protect point follows; only without one of them does the combat conclude",
                texts={"000": "471", "002en": "80-84", "CR7.4": "1896-1899"},
            ),
            Ruling(
                "602.2",
                ("602.2", "602.3"),
                False,
                always,
                "the combat concludes unless a defender remains, and nobody is a defender before 602.3: no protect point, no combat damage",
                texts={"002zh": "85"},
            ),
        ),
        ((),),
        asked_at=("attack_window",),
        fixed=True,
        show=lambda: "the combat",
    )

    # -- 501.2b: who skips the draw step ----------------------------------------------------
    # The whole step, with its priority window (000, CR7.4); the basic rules
    # have no windows, so skipping the draw there is skipping the step.
    skips_draw = Question(
        "skips_draw",
        "does the turn player skip this turn's draw step, the draw and its priority window (501.2b)?",
        (
            Ruling(
                "501.2b",
                ("501.2b",),
                True,
                lambda s, b: s.first_turn,
                "the first player skips the draw step of the game's first turn, at any table",
                texts={"000": "425", "001": "151", "CR7.4": "1738"},
            ),
        ),
        ((),),
        asked_at=("draw_step_start",),
        # 501.2a: every other turn starts with a draw.
        default_texts={"000": "424", "001": "150", "CR7.4": "1734"},
        show=lambda: "the turn player",
    )

    # -- 501.1a: whose cards the ready step readies ---------------------------------------
    ready_step_readies_all = Question(
        "ready_step_readies_all",
        "does the ready step ready every player's cards in play, not only the turn player's (501.1a)?",
        (
            Ruling(
                "501.1a",
                ("501.1a",),
                False,
                always,
                "the turn player readies the cards he controls, and nobody else's",
                texts={"000": "416", "001": "56", "CR7.4": "1674"},
            ),
            # The basic rules' turn structure drops "your": as the ready step
            # starts, the cards in play ready, whoever controls them.
            Ruling(
                "501.1a:all-cards",
                ("501.1a", "basic:ready-step"),
                True,
                always,
                "as the ready step starts every card in play readies, whoever controls it",
                texts={"001": "148"},
            ),
        ),
        ((),),
        asked_at=("ready_step_start",),
        # The basic rules say both; read whole they follow the section on the
        # step itself (001:148) over the overview of readying (001:56).
        on_clash=True,
        fixed=True,
        show=lambda: "the ready step",
    )

    # -- 502.2: who ends the action phase ---------------------------------------------------
    turn_player_ends_action_phase = Question(
        "turn_player_ends_action_phase",
        "does the action phase end once the turn player is done with it, on an empty chain, without the others passing in succession (502.2)?",
        (
            Ruling(
                "502.2",
                ("502.2", "409.4b"),
                False,
                always,
                "the action phase ends only when every player passes in succession on an empty chain",
                texts={"000": "431", "CR7.4": "1749-1751"},
            ),
            # The basic rules move to the end phase once the turn player has
            # done his actions; it is the end phase, not the action phase, that
            # waits until every player is done (001:176).
            Ruling(
                "502.2",
                ("502.2", "basic:action-phase"),
                True,
                always,
                "the turn player enters his end phase once he has done what he wants; nobody else is asked",
                texts={"001": "172"},
            ),
        ),
        ((),),
        asked_at=("action_phase",),
        fixed=True,
        show=lambda: "the action phase",
    )

    # -- 600.2: what a bound player may do with his priority --------------------------------
    uses_priority_otherwise = Question(
        "uses_priority_otherwise",
        "while a character must attack if able, may its controller use his priority on an empty chain for anything but proposing it (600.2)?",
        (
            # 002's Chinese has him use his priority to propose that combat,
            # where the English only forbids him to pass (the default).
            Ruling(
                "600.2:propose-first",
                ("600.2",),
                False,
                lambda s, b: b.AndThen(s.chain_len == 0, lambda: t.must_attack_binds(s, b)),
                "the controller of a character bound to attack must propose it before anything else",
                texts={"002zh": "12"},
            ),
        ),
        ((),),
        asked_at=("action_phase",),
        default=True,
        # 600.2 forbids passing only; 409.2b's other actions stay open.
        default_texts={"000": "446", "002en": "9-11", "CR7.4": "1778-1786"},
        show=lambda: "the turn player",
        # An instant in hand, to play before the proposal.
        bounds={"hand": 1},
    )

    # -- 602.3c: who is in combat, and so may strike -------------------------------------
    def holds_a_role(s: Any, b: Backend, c: Any) -> Any:
        return b.Or(s.attacker == c, s.defender == c)

    in_combat = Question(
        "in_combat",
        "is this character in combat, so that its player may strike with a weapon (602.3a, 602.3c)?",
        (
            Ruling(
                "602.3c",
                ("602.3c",),
                True,
                lambda s, b, c: b.And(s.attacker < t.none, s.defender < t.none, holds_a_role(s, b, c)),
                "an attacker or defender is in combat while an opposing one remains",
                texts=IN_COMBAT,
            ),
            # 001's glossary: attacking or defending is being in combat, with
            # no opposing combatant needed.
            Ruling(
                "602.3c",
                ("602.3c", "basic:combat"),
                True,
                holds_a_role,
                "a character is in combat whenever it attacks or defends",
                texts={"001": "302"},
            ),
        ),
        tuple((c,) for c in characters if t.is_hero[c]),
        asked_at=("defend_window",),
        default_texts={**IN_COMBAT, "001": "302"},
        show=t.name,
        # An instant in hand removes the opposing combatant.
        bounds={"hand": 1},
    )

    # -- 601.2f, 602.4: whether a card that leaves play loses its role -------------------
    # The English and 000 end the role of a card that leaves play; CR7.4 says
    # "becomes a different card", which leaving play makes it (415.9a): the
    # same answer.  002's Chinese names removal from the game (602.4) or
    # leaving the match (601.2f) instead, so a destroyed defender, in the
    # graveyard, keeps defending (T10).
    # The model asks it where an instant could destroy the (proposed) defender.
    def proposing(s: Any, b: Backend) -> Any:
        return b.And(t.proposal_on_chain(s, b), t.defender_is_ally_in_play(s, b))

    def in_a_combat_step(s: Any, b: Backend) -> Any:
        return b.And(b.Not(t.proposal_on_chain(s, b)), t.defender_is_ally_in_play(s, b))

    leaving_play_ends_role = Question(
        "leaving_play_ends_role",
        "does a proposed defender or defender that leaves play (destroyed, not removed from the game) stop holding its role (601.2f, 602.4)?",
        (
            Ruling(
                "601.2f",
                ("601.2f",),
                True,
                proposing,
                "a proposed attacker or defender that leaves play stops being one",
                texts={"000": "461", "002en": "64-65", "CR7.4": "1875-1876"},
            ),
            Ruling(
                "601.2f",
                ("601.2f",),
                False,
                proposing,
                "only leaving the match or changing controller ends a proposed role; a destroyed card keeps it",
                texts={"002zh": "66"},
            ),
            Ruling(
                "602.4",
                ("602.4",),
                True,
                in_a_combat_step,
                "a card that leaves play stops being an attacker or defender; the combat goes on",
                texts={"000": "485", "002en": "128-130", "CR7.4": "1933-1937"},
            ),
            Ruling(
                "602.4",
                ("602.4",),
                False,
                in_a_combat_step,
                "only removal from the game, a change of controller or removal from combat ends a role; a destroyed card keeps it",
                texts={"002zh": "133"},
            ),
            # The basic rules' glossary ends an attacker's or a defender's role
            # in two ways only, removal from combat and the combat's end
            # (001:281, 291, again 327); their declared defender gives way
            # only to a protector (001:192, 325).  Leaving play is none of
            # these.  They have no proposal link, so 601.2f gets no ruling of theirs.
            Ruling(
                "602.4",
                ("602.4", "basic:combat"),
                False,
                in_a_combat_step,
                "a (declared) defender stops being one only as a protector replaces it, it is removed from combat or the combat ends; a destroyed one keeps its role",
                texts={"001": "291"},
            ),
        ),
        ((),),
        asked_at=("action_phase", "attack_window", "defend_window"),
        # Where no ally holds a role nothing of the model leaves play; 602.4 speaks of every card that does.
        default=True,
        default_texts={"000": "485", "002en": "128-130", "CR7.4": "1933-1937"},
        show=lambda: "the defender",
        # An instant in hand destroys the defender.
        bounds={"hand": 1},
    )

    # -- 409.4a: who acts first after a link resolves ------------------------------------
    chain = t.chain
    priority_after_resolution = Question(
        "priority_after_resolution",
        "who gets priority once the top link of the chain has resolved (409.4a)?",
        (
            Ruling(
                "409.4a",
                ("409.4a",),
                lambda s, b: s.turn_player,
                lambda s, b: s.chain_len > 0,
                "after any resolution the turn player gets priority",
                texts={"000": "350", "CR7.4": "1233-1234"},
            ),
            # 001: whoever added the link that is now on top responds first;
            # on an empty chain the window closes (409.4b) and nobody needs it.
            Ruling(
                "409.4a",
                ("409.4a", "basic:chain-and-responding"),
                lambda s, b: b.If(s.chain_len > 1, b.select(chain.slots(s, "controller"), s.chain_len - 2, s.turn_player), s.turn_player),
                lambda s, b: s.chain_len > 0,
                "after a resolution the player who added the new top link acts first; the turn player on an empty chain",
                texts={"001": "227-228"},
            ),
        ),
        ((),),
        asked_at=PRIORITY_WINDOWS,
        default=lambda s, b: s.turn_player,
        # 409.4 gives the turn player priority as any window opens.
        default_texts={"000": "349", "001": "223", "CR7.4": "1229-1232"},
        show=lambda: "the chain",
        show_answer=t.player_name,
        # Two links on the chain need an instant in some starting hand.
        bounds={"hand": 1},
    )

    # -- 303.2c, 405.3: which weapons strike together --------------------------------------
    parties = t.board.parties
    weapon_pairs = tuple(
        (p, v, w) for p in range(t.n) for v, w in itertools.combinations(range(len(parties[p].weapons)), 2)
    )

    def both(p: int, v: int, w: int, melee: bool) -> bool:
        return parties[p].weapons[v].melee is melee and parties[p].weapons[w].melee is melee

    def dual_wields(s: Any, b: Backend, p: int, v: int, w: int) -> bool:
        return parties[p].dual_wield and both(p, v, w, melee=True)

    may_strike_with_both = Question(
        "may_strike_with_both",
        "may this player strike with both of these weapons in one combat (303.2c, 405.3)?",
        (
            Ruling(
                "405.3:dual-wield",
                ("405.3", "303.2c"),
                True,
                dual_wields,
                "a hero with dual wield strikes with two melee weapons in a combat",
                texts={"000": "269", "CR7.4": "1014-1015"},
            ),
            # The basic rules know one weapon per combat, and no dual wield.
            Ruling(
                "405.3:dual-wield",
                ("303.2c", "basic:combat"),
                False,
                dual_wields,
                "one weapon per combat, whatever the hero's keywords",
                texts={"001": "190"},
            ),
            Ruling(
                "405.3:ranged-dual-wield",
                ("405.3",),
                True,
                lambda s, b, p, v, w: parties[p].ranged_dual_wield and both(p, v, w, melee=True),
                "a hero with ranged dual wield strikes with two melee weapons in a combat, as 405.3 is written",
                texts={"000": "269"},
            ),
            Ruling(
                "405.3:ranged-dual-wield",
                ("405.3", "405.2"),
                True,
                lambda s, b, p, v, w: parties[p].ranged_dual_wield and both(p, v, w, melee=False),
                "a hero with ranged dual wield strikes with two ranged weapons in a combat",
                texts={"CR7.4": "1016-1017"},
            ),
        ),
        weapon_pairs,
        asked_at=("defend_window",),
        fixed=True,
        # 303.2c: one weapon per combat, but for 405's pairs (never one melee and one ranged).
        default_texts={"000": "143", "001": "102", "CR7.4": "504"},
        show=lambda p, v, w: f"{t.player_name(p)}'s {parties[p].weapons[v].name} and {parties[p].weapons[w].name}",
    )

    # -- 303.2, 602.3a: when a weapon strikes ------------------------------------------------
    when_weapons_strike = Question(
        "when_weapons_strike",
        "when may a player strike with a weapon (303.2, 602.3a)?",
        (
            Ruling(
                "303.2",
                ("303.2", "602.3a", "409.2a"),
                lambda s, b: STRIKE_LINK,
                always,
                "a player with priority in the defend window, his hero in combat, puts a strike on the chain",
                texts={"000": "138", "001": "190", "002en": "118-119", "002zh": "120"},
            ),
            Ruling(
                "303.2",
                ("CR7.4 303.2", "CR7.4 303.2a", "CR7.4 602.1", "CR7.4 602.3"),
                lambda s, b: STRIKE_AS_ROLE_BEGINS,
                always,
                "a player strikes only as his hero becomes the attacker or the defender, and not with the chain",
                texts={"CR7.4": "483-489"},
            ),
        ),
        ((),),
        asked_at=("defend_window",),
        default=STRIKE_LINK,
        fixed=True,
        show=lambda: "every weapon",
    )

    # -- 603.2: the end of the roles and the checks after combat damage -----------------------
    roles_end_before_checks = Question(
        "roles_end_before_checks",
        "do combat roles and 'this combat' modifiers end before the pre-priority checks that follow combat damage (603.2)?",
        (
            Ruling(
                "603.2",
                ("603.2",),
                True,
                always,
                "roles and 'this combat' modifiers end as the conclusion ends; the checks come as the window opens",
                texts={"000": "490", "002en": "148-151", "002zh": "152"},
            ),
            Ruling(
                "603.2",
                ("CR7.4 603.2", "CR7.4 603.3"),
                False,
                always,
                "a round of pre-priority checks runs while the roles still stand; only then do they end",
                texts={"CR7.4": "1963-1969"},
            ),
            # The basic rules' combat deals its damage (step 4) before it ends
            # (step 5), and an ally with lethal damage is destroyed at once
            # (001:100, 301), while still a defender, which only the combat's
            # end or a removal stops it being (001:291): CR7.4's order.
            Ruling(
                "603.2",
                ("603.2", "basic:combat"),
                False,
                always,
                "a character dealt lethal combat damage is destroyed at once, in its role, before the combat ends",
                texts={"001": "184-185"},
            ),
        ),
        ((),),
        asked_at=("combat_conclusion",),
        default=True,
        fixed=True,
        show=lambda: "the combat",
    )

    # -- 102.1a: when a player whose hero is destroyed loses ------------------------------------
    loses_as_hero_is_destroyed = Question(
        "loses_as_hero_is_destroyed",
        "does a player lose in the same batch of checks that destroys his hero (102.1a)?",
        (
            # 000 makes the loss a pre-priority check; a batch's checks all read
            # the state as the batch begins (409.6), so the hero is gone only
            # for the next batch.  409.6 itself lists no such check (I4).
            Ruling(
                "102.1a",
                ("102.1a", "409.6"),
                False,
                always,
                "the loss is a pre-priority check: the batch after the one that destroys the hero finds it gone",
                overrides={"103.4:example": "assumed:rule-over-example"},
                texts={"000": "104"},
            ),
            Ruling(
                "102.1a",
                ("102.1a", "CR7.4 102.1a"),
                True,
                always,
                "a player loses at once as his hero is destroyed",
                texts={"CR7.4": "134-135"},
            ),
            # 001 knows no batches of checks: its game goal (line 28), the
            # hero's health (88), damage (289), health (301) and losing (314)
            # all have a player lose the moment his hero has lethal damage.
            Ruling(
                "102.1a",
                ("102.1a", "basic:losing"),
                True,
                always,
                "a player loses the moment his hero has lethal damage",
                texts={"001": "301"},
            ),
            # The 103.4 example (Valthak) in both editions: the batch that
            # destroys the opposing hero makes its player lose before the
            # next batch, which destroys the kept hero only "if there are
            # other players" left.  Asked where a card keeps a hero (I4).
            Ruling(
                "103.4:example",
                ("103.4", "102.1a"),
                True,
                lambda s, b: any(t.keepers),
                "the player whose hero a batch destroys has lost before the next batch",
                texts={"000": "112", "CR7.4": "167-172"},
            ),
        ),
        ((),),
        asked_at=("pre_priority_checks",),
        fixed=True,
        show=lambda: "a player whose hero is destroyed",
    )

    # -- 407.3b: whether a spell's packet is combat damage ----------------------------------
    counted = {sp.name for sp in t.board.spells if sp.counts_as_combat}
    spell_deals_combat_damage = Question(
        "spell_deals_combat_damage",
        "is the damage this spell deals as it resolves combat damage (407.3b)?",
        (
            Ruling(
                "601.2d:mocking-blow",
                ("601.2d", "407.3b"),
                True,
                lambda s, b, name: name == "Mocking Blow",
                "Mocking Blow deals 1 combat damage: a packet its own text marks as combat damage counts as such",
                printed=True,
                texts={"000": "457"},
            ),
            Ruling(
                "601.2d:mocking-blow",
                ("601.2d", "407.3b"),
                False,
                lambda s, b, name: name == "Mocking Blow",
                "Mocking Blow deals 1 melee damage, which nothing marks as combat damage",
                printed=True,
                texts={"002en": "58", "CR7.4": "1865-1866"},
            ),
            # 407.3b: a packet an effect says counts as combat damage is
            # combat damage (B11).
            Ruling(
                "407.3b",
                ("407.3b",),
                True,
                lambda s, b, name: name in counted,
                "a packet whose effect says it counts as combat damage is combat damage",
                texts={"000": "310", "CR7.4": "1139-1140"},
            ),
            # The basic rules' glossary: only what attacker and defender deal
            # each other as a combat ends is combat damage, even where other
            # damage is dealt during a combat (B11).
            Ruling(
                "407.3b",
                ("407.3b", "basic:combat-damage"),
                False,
                always,
                "only the damage attacker and defender deal each other at combat's end is combat damage",
                texts={"001": "286"},
            ),
        ),
        tuple((sp.name,) for sp in t.board.spells if not sp.heals and not sp.destroys_weapon and not sp.changes_role),
        asked_at=("defend_window",),
        fixed=True,
        show=lambda name: name,
        # 407.3b: a packet made outside combat conclusion is combat damage only where its maker says so.
        default_texts={"000": "310", "CR7.4": "1139-1140"},
    )

    # -- 404.4: whether a spell stops the characters it damages from attacking ------------
    spell_stops_attacks = Question(
        "spell_stops_attacks",
        "does this spell's text stop each character it deals damage to from attacking this turn (404.4 example)?",
        SPELL_STOPS_ATTACKS,
        tuple((sp.name,) for sp in t.board.spells if not sp.heals and not sp.destroys_weapon and not sp.changes_role),
        asked_at=PRIORITY_WINDOWS,
        fixed=True,
        show=lambda name: name,
        # An instant in a starting hand: the caster's opponent is the one who would attack.
        bounds={"hand": 1},
    )

    # -- 404.3: whom a power that doubles damage reaches ------------------------------
    doubling_reaches_heroes = Question(
        "doubling_reaches_heroes",
        "does this power double the damage on heroes as well as on allies (404.3 example)?",
        DOUBLING_REACHES_HEROES,
        tuple((sp.name,) for sp in t.board.spells if sp.doubles),
        asked_at=PRIORITY_WINDOWS,
        fixed=True,
        show=lambda name: name,
    )

    # -- 306.3a: what a totem is (V15) ------------------------------------------------------
    totems = tuple((c,) for c in characters if t.totem[c])
    totem_combat_is_sabotage = Question(
        "totem_combat_is_sabotage",
        "is a combat proposed against this totem a sabotage (306.3a, 601.2b)?",
        (
            # 000 counts totems among the characters (300.1, line 127) and
            # lets one be proposed as a defender (306.3a); CR7.4 makes it an
            # ally.  A character proposed as the defender makes a combat, not
            # a sabotage (601.2b).
            Ruling(
                "306.3a:totem-defender",
                ("306.3a", "601.2b"),
                False,
                always,
                "a totem proposed as the defender is a character: the combat is no sabotage",
                texts={"000": "158", "CR7.4": "551-552"},
            ),
            # 002's Chinese 602.2c example calls a combat against Searing
            # Totem a sabotage until a protector steps in; the English 602.2c
            # has no example, and 002 says nothing else of what a totem is.
            Ruling(
                "306.3a:totem-defender",
                ("306.3a", "601.2b", "602.2c"),
                True,
                always,
                "a combat against a totem is a sabotage, as against an object",
                texts={"002zh": "95"},
            ),
        ),
        totems,
        asked_at=("action_phase",),
        fixed=True,
        show=t.name,
    )

    # Asked only where some effect of the board names each opposing hero and
    # ally without targeting them (Frost Nova): targeting a totem, every text
    # allows (000 as if it were an ally, CR7.4 because it is one).
    totem_is_ally = Question(
        "totem_is_ally",
        "is this totem an ally for a text that names each hero and ally without targeting it (306.3a)?",
        (
            # 000's Chain Lightning example: the further packets, chosen
            # without targeting, can't go to a totem, for it is no ally.
            Ruling(
                "306.3a:totem-ally",
                ("306.3a",),
                False,
                always,
                "a totem is targeted as if it were an ally but is none: 'each hero and ally' passes it by",
                texts={"000": "158-159"},
            ),
            # CR7.4's 305.3a: totems are ability allies in every zone, and its
            # Arcane Burst example deals damage to an opposing totem.
            Ruling(
                "306.3a:totem-ally",
                ("306.3a",),
                True,
                always,
                "a totem is an ability ally in every zone: 'each hero and ally' reaches it",
                texts={"CR7.4": "551-557"},
            ),
        ),
        totems if any(sp.each_opposing for sp in t.board.spells) else (),
        asked_at=PRIORITY_WINDOWS,
        fixed=True,
        show=t.name,
        # An instant in a starting hand: Frost Nova is played at all.
        bounds={"hand": 1},
    )

    # -- 103.2, 406.1: a hero that can't be destroyed, and healing it (B1) --------------------
    # Asked of each hero whose party holds Valthak Spiritdrinker's text.
    kept_heroes = tuple((c,) for c in characters if t.keepers[c])
    hero_cant_be_destroyed = Question(
        "hero_cant_be_destroyed",
        "does 'your hero can't be destroyed' keep this hero in play through the checks while it has lethal damage (103.2, 409.6b)?",
        (
            # 103.2: the "can't" beats 409.6b's destruction; the 103.4 example
            # (Valthak) says so of a hero with lethal damage in both editions.
            # CR7.4's 103.3 lets nothing stop a destruction "by the game", and
            # its 410.6a does not call lethal damage's destruction so.
            Ruling(
                "103.2:cant-be-destroyed",
                ("103.2", "103.4", "409.6b"),
                True,
                always,
                "the 'can't' beats 409.6b: the hero keeps its lethal damage and stays in play",
                printed=True,
                texts={"000": "109-114", "CR7.4": "155-174"},
            ),
            # The basic rules know no such card: a player whose hero has lethal
            # damage loses (goal of the game, hero cards, glossary).
            Ruling(
                "103.2:cant-be-destroyed",
                ("409.6b", "basic:losing"),
                False,
                always,
                "a hero with lethal damage makes its player lose, whatever card says otherwise",
                texts={"001": "88"},
            ),
        ),
        kept_heroes,
        asked_at=("pre_priority_checks",),
        fixed=True,
        show=t.name,
    )

    heals_lethal_damage = Question(
        "heals_lethal_damage",
        "does this healing remove damage from a character that already has lethal damage (406.1)?",
        (
            # 406.1 removes the damage counters, with no word of lethal damage;
            # a character keeps lethal damage until the next check (404.2).
            Ruling(
                "406.1",
                ("406.1",),
                True,
                always,
                "healing removes damage counters, lethal damage or not",
                texts={"000": "272", "CR7.4": "1034-1036"},
            ),
            # The basic rules: once a character has lethal damage, it is too
            # late to heal it; only non-lethal damage can be healed.
            Ruling(
                "406.1",
                ("406.1", "basic:healing"),
                False,
                always,
                "only non-lethal damage can be healed: once damage is lethal, healing comes too late",
                texts={"001": "244-245"},
            ),
        ),
        tuple((sp.name,) for sp in t.board.spells if sp.heals),
        asked_at=PRIORITY_WINDOWS,
        fixed=True,
        show=lambda name: name,
    )

    # -- 303.2b: whether a strike's bonus outlasts its weapon (V13) ------------------------
    strike_lasts_without_weapon = Question(
        "strike_lasts_without_weapon",
        "does a strike's bonus last through the combat step after its weapon leaves play (303.2b)?",
        (
            # 000: once made, the strike effect and modifier stand apart from
            # the weapon; the basic rules say the same of a weapon that leaves play.
            Ruling(
                "303.2b",
                ("303.2b",),
                True,
                always,
                "once made, the strike modifier stands apart from its weapon and lasts the combat step",
                texts={"000": "142", "001": "105"},
            ),
            # CR7.4: the bonus lasts while the weapon stays associated with
            # its wielder, which ends as it becomes a different card (leaves play).
            Ruling(
                "303.2b",
                ("303.2b", "CR7.4 303.2a"),
                False,
                always,
                "the bonus lasts only while the weapon stays associated with its wielder, which ends as it leaves play",
                texts={"CR7.4": "489-498"},
            ),
        ),
        ((),) if any(sp.destroys_weapon for sp in t.board.spells) else (),
        asked_at=("defend_window",),
        fixed=True,
        show=lambda: "a strike whose weapon left play",
    )

    # -- bear form's end (CR7.4 glossary, Bear Form; 001's keywords) ------------------------
    # Asked of each player whose hero is in bear form (Maul in play), where he
    # may strike or play an instant (the model's instants are non-Feral abilities).
    bear_form_ends_by_trigger = Question(
        "bear_form_ends_by_trigger",
        "as this player strikes with a weapon or plays a non-Feral ability while his hero is in bear form, "
        "does bear form end by a triggered effect on the chain, which players may respond to first?",
        (
            # CR7.4's glossary makes the end a "when ..." power of the hero: a
            # triggered power (703.1), whose effect goes on the chain (708.1)
            # and ends the form only as it resolves; until then the hero keeps
            # protector.
            Ruling(
                "bear-form:end",
                ("glossary.bear-form", "CR7.4 703.1", "CR7.4 708.1"),
                True,
                always,
                "bear form's end is a triggered power: its effect goes on the chain and destroys the bear-form abilities as it resolves",
                printed=True,
                texts={"CR7.4": "3277-3279"},
            ),
            # The basic rules: on striking (or playing a non-Feral ability)
            # you must destroy every card giving bear form, and their example
            # has Maul go to the graveyard once the strike is made; their
            # glossary keeps the cards in play only until then (001:282).  No
            # link, so nobody can respond first.  A version of the same rule:
            # it answers what CR7.4's 703.1 and 708.1 answer there.
            Ruling(
                "bear-form:end",
                ("basic:bear-form", "CR7.4 703.1", "CR7.4 708.1"),
                False,
                always,
                "on striking or playing a non-Feral ability, its player destroys the abilities giving bear form at once, with nothing on the chain",
                printed=True,
                texts={"001": "198-199"},
            ),
        ),
        tuple((p,) for p in range(t.n) if t.bear[p]),
        asked_at=PRIORITY_WINDOWS,
        fixed=True,
        show=t.player_name,
    )

    # -- an item that becomes an ally: does it join its party then (V14)? ------------------
    # Asked of each item in an ally slot that a payment makes an ally this
    # turn (Arcanite Dragonling), where its power link resolves.  The answer
    # decides whether it is new to its party, so whether it may attack this
    # turn (601.2a, 302.2).  The basic rules' party is the hero and the
    # allies of the ally row (001:316), and they do not say where an item
    # that becomes an ally stands, nor 002 what a party is: no ruling.
    joins_party_as_ally = Question(
        "joins_party_as_ally",
        "as an item its player controls in play becomes an ally this turn, does it join his party then, so that it has not been in it since the turn began?",
        (
            # 000's party is a player's hero, allies and totems (413.9a): an
            # item is none of them, so it joins as it becomes an ally (an
            # extra type, 300.2), and 302.2 then asks that it had been in the
            # party since the turn began.
            Ruling(
                "party:joins",
                ("413.9a", "300.2", "302.2"),
                True,
                always,
                "the party is the hero, allies and totems: an item joins it as it becomes an ally",
                texts={"000": "408"},
            ),
            # CR7.4's party is every card in play its player controls, and a
            # card that gains or loses a type neither joins nor leaves it
            # (415.8b; again in the glossary, :3829-3832).
            Ruling(
                "party:joins",
                ("CR7.4 415.8b",),
                False,
                always,
                "the party is every card in play its player controls: gaining a type, a card neither joins nor leaves it",
                texts={"CR7.4": "1538-1543"},
            ),
        ),
        tuple((c,) for c in characters if t.item_allies[c]),
        asked_at=PRIORITY_WINDOWS,
        fixed=True,
        show=t.name,
    )

    # -- 602.3b: a character made to become a defender where one defends (V3) ----------------
    # Asked where an instant of the board makes a target ally become a
    # defender (windows._making_defenders).  002's Chinese 602.3b (002:124)
    # says only that the target becomes a defender and enters combat: nothing
    # of the current one, so no ruling.  The basic rules know no such modifier.
    becoming_defender_removes_defender = Question(
        "becoming_defender_removes_defender",
        "as a modifier makes a character become a defender during combat, is the current defender removed from combat (602.3b)?",
        (
            # 000 and the English: the new defender starts defending and the
            # attacker starts attacking it; 602.4 lists what ends a role
            # (leaving play, a change of control, removal from combat), and
            # becoming a defender beside it is none of them.
            Ruling(
                "602.3b",
                ("602.3b", "602.4"),
                False,
                always,
                "the new defender joins the combat; nothing ends the current defender's role, so both defend",
                texts={"000": "483-485", "002en": "121-123"},
            ),
            # CR7.4's 602.3a removes the current defender from combat first.
            Ruling(
                "602.3b",
                ("602.3b", "CR7.4 602.3a", "602.4"),
                True,
                always,
                "the current defender is removed from combat, and the new one defends in its place",
                texts={"CR7.4": "1928-1932"},
            ),
        ),
        ((),) if any(sp.makes_defender for sp in t.board.spells) else (),
        asked_at=("defend_window",),
        fixed=True,
        show=lambda: "a target ally that becomes a defender",
    )

    # -- 603.1: who exchanges combat damage with the attacker ---------------------------------
    # Every text's 603.1 speaks of "the defender": one.  Where the rulings
    # keep two (becoming_defender_removes_defender), no text says how they
    # deal and take combat damage; the model's assumption is 603.1 for each
    # defender against the attacker, which attacks both (602.3b), and lint
    # reports the gap.  Asked only where a second defender can be.
    SOLE_DEFENDER = {"000": "487", "002en": "136-140", "002zh": "141", "CR7.4": "1952-1957"}
    NO_DAMAGE = {"000": "487-489", "002en": "136-147", "002zh": "141-147", "CR7.4": "1952-1962"}

    def one_combat(s: Any, b: Backend) -> Any:
        return b.And(b.Not(s.sabotage), s.attacker < t.none)

    exchanges_combat_damage = Question(
        "exchanges_combat_damage",
        "as a combat that is no sabotage concludes, does this character deal its combat damage to the attacker and take the attacker's as a defender (603.1)?",
        (
            Ruling(
                "603.1",
                ("603.1",),
                True,
                lambda s, b, c: b.And(one_combat(s, b), s.defender == c, s.also_defender == t.none),
                "the attacker and the one defender each deal the other a packet of combat damage",
                texts=SOLE_DEFENDER,
            ),
            Ruling(
                "assumed:each-defender-exchanges-damage",
                ("assumed:each-defender-exchanges-damage",),
                True,
                lambda s, b, c: b.And(one_combat(s, b), s.also_defender < t.none, b.Or(s.defender == c, s.also_defender == c)),
                "with two defenders, the attacker and each defender deal each other a packet, as 603.1 has it for one",
            ),
            # 603.1 and 603.1b: combat damage passes only between the attacker
            # and the defender of a combat that is no sabotage.
            Ruling(
                "603.1:no-packet",
                ("603.1", "603.1b"),
                False,
                lambda s, b, c: b.Not(b.And(one_combat(s, b), b.Or(s.defender == c, s.also_defender == c))),
                "a character that is no defender, or a combat with no attacker or a sabotage, has no packet to exchange",
                texts=NO_DAMAGE,
            ),
        ),
        tuple((c,) for c in characters) if t.second_defender else (),
        asked_at=("combat_conclusion",),
        show=t.name,
    )

    questions = (
        may_attack, may_be_proposed, opposing_in_team_game, may_propose, may_propose_now, may_play_non_instant_now, may_play_instant_now, may_place_resource_now,
        resource_uses_the_chain, proposal_uses_the_chain,
        bound_to_attack, combat_reaches_protect_point, may_protect,
        ready_step_readies_all, skips_draw, turn_player_ends_action_phase, uses_priority_otherwise, in_combat, priority_after_resolution,
        may_strike_with_both, when_weapons_strike, roles_end_before_checks, loses_as_hero_is_destroyed,
        leaving_play_ends_role, spell_deals_combat_damage, spell_stops_attacks, doubling_reaches_heroes,
        totem_combat_is_sabotage, totem_is_ally, hero_cant_be_destroyed, heals_lethal_damage,
        strike_lasts_without_weapon, bear_form_ends_by_trigger, joins_party_as_ally,
        becoming_defender_removes_defender, exchanges_combat_damage,
        hero_absence.question(t), ready_hold.question(t),
    )
    # What only a power watching for an event, or an attachment, asks (B3, V10).
    questions += watchers.questions(t, PRIORITY_WINDOWS)
    # What only an instant that changes a combat role asks (V4, V5).
    questions += roles.questions(t)
    # Deck building, the opening hand, the first player, the mulligan: asked of setups, not states.
    questions += setup.QUESTIONS
    # One book, built under the reading asked for (a model is built per board,
    # so a second book only to learn the sources cost every build): the
    # sources are those the questions' rulings and defaults cite.
    sources = dict.fromkeys(src for q in questions for src in q.sources)
    chosen = READING.derive(reading, sources, [q.name for q in questions])
    rulebook = RuleBook(questions, PRINCIPLES, reading=chosen, game="wowtcg")
    rulebook = rulebook.without(without)
    return rulebook
