"""Setting up a WoW TCG game as questions over setups (``model/setup.py``):
which cards a hero's deck may hold (100.2a, 100.2b), how many cards a deck needs
(100.1) and how many copies of one card it may hold (100.4), its side deck's
copies counted or not, how large the
opening hand is and who decides the first player (101.1), and how a
mulligan goes (101.2).

No state of play asks these: the model starts from a board already dealt.
Each source still answers them, sometimes differently, so each answer is a
ruling citing its text, and ``chainproof lint`` compares the sources over
every setup of each question's domain.  The facts a setup names (trait
icons, formats, hand sizes, numbers of players) are the rulebook's own words,
not the reference engine's cards.
"""

from __future__ import annotations

from typing import Any

from model.rulings import Question, Ruling, always
from model.setup import setup_question

# -- the facts a setup names ----------------------------------------------------------

#: The faction icons (CR7.4 206.1b); every other trait icon is a class icon
#: (206.1a): a hero shows one of each (301.1, 000:130).
FACTIONS = ("Alliance", "Horde")
#: Two classes are enough for every way a card's icons can meet a hero's.
CLASSES = ("Warrior", "Mage")
#: Deck formats (100.1): constructed, and sealed (limited) play.
FORMATS = ("constructed", "sealed")
#: Numbers of players at the table.
PLAYERS = (2, 3, 4)
#: The hand a mulligan shuffles back: seven after the opening draw (101.1),
#: fewer only where something else changed it; largest first.
HAND_SIZES = tuple(range(7, -1, -1))

HEROES = tuple(frozenset({f, c}) for f in FACTIONS for c in CLASSES)
#: No icon, one icon, then a class with each faction.
CARDS = (
    frozenset(),
    *(frozenset({x}) for x in FACTIONS + CLASSES),
    *(frozenset({c, f}) for c in CLASSES for f in FACTIONS),
)


def factions(icons: frozenset[str]) -> frozenset[str]:
    return icons & frozenset(FACTIONS)


def classes(icons: frozenset[str]) -> frozenset[str]:
    return icons - frozenset(FACTIONS)


def _icons(icons: frozenset[str]) -> str:
    # Faction before class, as a hero's type line reads.
    return " ".join(sorted(factions(icons)) + sorted(classes(icons)))


def show_deck_card(hero: frozenset[str], card: frozenset[str]) -> str:
    held = f"the {' and '.join(sorted(factions(card)) + sorted(classes(card)))} icon{'s' if len(card) > 1 else ''}" if card else "no icon"
    named = _icons(hero)
    return f"{'an' if named[0] in 'AEIOU' else 'a'} {named} hero and a card with {held}"


# -- 100.2a: which cards a hero's deck may hold -------------------------------------------


def shares_an_icon(hero: frozenset[str], card: frozenset[str]) -> bool:
    """000's 100.2a: one icon in common with the hero is enough."""
    return bool(card & hero)


def shares_each_kind(hero: frozenset[str], card: frozenset[str]) -> bool:
    """CR7.4's 100.2a: a class icon in common if the card shows any, and a
    faction icon in common if it shows any."""
    return all(not kind(card) or kind(card) & kind(hero) for kind in (classes, factions))


def only_the_heros_icons(hero: frozenset[str], card: frozenset[str]) -> bool:
    """001's deck building: every icon the card shows is one of the hero's."""
    return card <= hero


def _has_icons(s: Any, b: Any, hero: frozenset[str], card: frozenset[str]) -> bool:
    return bool(card)


may_include_card = setup_question(
    "may_include_card",
    "may a player include this card in his deck, given the trait icons of his hero and of the card (100.2a)?",
    (
        Ruling(
            "100.2a:no-icons",
            ("100.2a",),
            True,
            lambda s, b, hero, card: not card,
            "a card that shows no trait icon may go into any deck",
            texts={"000": "94", "001": "211", "CR7.4": "63"},
        ),
        Ruling(
            "100.2a",
            ("100.2a",),
            lambda s, b, hero, card: shares_an_icon(hero, card),
            _has_icons,
            "a card with trait icons needs at least one of them in common with the hero",
            texts={"000": "94"},
        ),
        Ruling(
            "100.2a",
            ("100.2a",),
            lambda s, b, hero, card: shares_each_kind(hero, card),
            _has_icons,
            "a card with class icons needs a class icon of the hero's, and one with faction icons a faction icon of the hero's",
            texts={"CR7.4": "60-63"},
        ),
        # Reading (may_include_card): 001:211 asks for cards with "the same
        # trait icons as your hero": every icon on the card, not one of them
        # (its line 311 lets a card of neither faction into either side's
        # deck, the same answer).
        Ruling(
            "100.2a",
            ("100.2a",),
            lambda s, b, hero, card: only_the_heros_icons(hero, card),
            _has_icons,
            "a deck holds only cards whose trait icons are the hero's own",
            texts={"001": "211"},
        ),
    ),
    ((hero, card) for hero in HEROES for card in CARDS),
    show=show_deck_card,
)

# -- 100.2b: cards that ask for a hero with a talent spec -------------------------------

#: The talent spec the card asks for, and the talent specs a hero may have
#: listed (CR7.4 206.1; None: none listed) or the deck may already hold.
REQUIRED_TALENT = "Marksmanship"
TALENTS = (None, "Marksmanship", "Survival")


def _talent(hero: str | None, deck: str | None) -> str:
    listed = f"the {hero} talent spec" if hero else "no talent spec listed"
    held = f"{deck} talent cards" if deck else "no talent card"
    return f"a hero with {listed}, a deck already holding {held}, and a '{REQUIRED_TALENT} Hero Required' card"


may_include_talent_card = setup_question(
    "may_include_talent_card",
    "may a player include a card that asks for a hero with a talent spec, given his hero's talent spec and the talent cards already in his deck (100.2b)?",
    (
        Ruling(
            "100.2b",
            ("100.2b",),
            lambda s, b, hero, deck: hero == REQUIRED_TALENT,
            always,
            "only a hero with the trait the card names may have it in his deck",
            texts={"000": "95", "001": "210"},
        ),
        # CR7.4 reads a talent spec named this way as its 100.2c talent, which
        # a hero with no talent spec listed may take while his deck holds no
        # talent of another spec.
        Ruling(
            "100.2b",
            ("100.2b",),
            lambda s, b, hero, deck: hero == REQUIRED_TALENT or (hero is None and deck in (None, REQUIRED_TALENT)),
            always,
            "a hero with that talent spec may have it, and so may a hero with none listed while his deck holds no talent of another spec",
            texts={"CR7.4": "64-73"},
        ),
    ),
    ((hero, deck) for hero in TALENTS for deck in TALENTS),
    show=_talent,
)

# -- 100.1: how many cards a deck needs ------------------------------------------------

minimum_deck_size = setup_question(
    "minimum_deck_size",
    "how many cards must a deck hold at least, in this format (100.1)?",
    (
        # Reading (minimum_deck_size): declared first, so that 001's reading
        # takes its sealed section's 30 over the deck-building list's 60, the
        # narrower sentence; 001 alone still clashes there.
        Ruling(
            "100.1:sealed",
            ("100.1",),
            30,
            lambda s, b, format: format == "sealed",
            "a sealed deck needs at least 30 cards",
            texts={"001": "271"},
        ),
        Ruling(
            "100.1",
            ("100.1",),
            lambda s, b, format: 60 if format == "constructed" else 30,
            always,
            "a constructed deck needs at least 60 cards, a sealed one at least 30",
            texts={"000": "92", "CR7.4": "55-56"},
        ),
        Ruling(
            "100.1",
            ("100.1",),
            60,
            always,
            "a deck needs at least 60 cards, whatever the format",
            texts={"001": "208"},
        ),
    ),
    ((f,) for f in FORMATS),
    show=lambda format: f"a {format} deck",
    default=None,
    show_answer=lambda n: f"{n} cards",
)

# -- 100.4: how many copies of one card a deck may hold ---------------------------------

#: The answer where the rules set no limit.
NO_LIMIT = "any number"

copies_allowed = setup_question(
    "copies_allowed",
    "how many copies of one card may a deck hold, in this format, for a card with or without the unlimited tag (100.4)?",
    (
        Ruling(
            "100.4",
            ("100.4",),
            lambda s, b, format, unlimited: 4 if format == "constructed" and not unlimited else NO_LIMIT,
            always,
            "four copies of a name in constructed play (sideboard included), any number in sealed play or of an unlimited card",
            texts={"000": "98", "CR7.4": "108-111"},
        ),
        # The basic rules' deck-building list names no format; their sealed
        # section (271-273) sets the deck's size but not the copies.
        Ruling(
            "100.4",
            ("100.4",),
            lambda s, b, format, unlimited: NO_LIMIT if unlimited else 4,
            always,
            "four copies of a card at most unless it is unlimited, in any format",
            texts={"001": "209"},
        ),
    ),
    ((f, u) for f in FORMATS for u in (False, True)),
    show=lambda format, unlimited: f"a {format} deck and a card {'with' if unlimited else 'without'} the unlimited tag",
    default=None,
    show_answer=str,
)

# -- 100.4: whether a side deck's copies count toward the four ------------------------------

#: Copies of one card (not unlimited) in a constructed main deck and in its side deck.
SIDE_DECK_COPIES = tuple((main, side) for main in range(1, 5) for side in range(1, 5))

copies_with_side_deck = setup_question(
    "copies_with_side_deck",
    "may a constructed main deck and its side deck hold these copies of one card without the unlimited tag (100.4)?",
    (
        Ruling(
            "100.4:side-deck",
            ("100.4",),
            lambda s, b, main, side: main + side <= 4,
            always,
            "four copies of a name in all: the side deck's count with the main deck's",
            texts={"000": "98", "CR7.4": "108-109"},
        ),
        # The basic rules cap copies "in your deck" (209) and let a side deck
        # hold any cards "just as you build your main deck" (212): its own
        # four, beside the main deck's.
        Ruling(
            "100.4:side-deck",
            ("100.4",),
            lambda s, b, main, side: main <= 4 and side <= 4,
            always,
            "four copies in the main deck; the side deck, built as a main deck is, holds up to four of its own",
            texts={"001": "209-212"},
        ),
    ),
    SIDE_DECK_COPIES,
    show=lambda main, side: f"{main} {'copy' if main == 1 else 'copies'} in the main deck and {side} in the side deck",
)

# -- 101.1: the opening hand and the first player -------------------------------------------

opening_hand_size = setup_question(
    "opening_hand_size",
    "how many cards does each player draw as his opening hand (101.1)?",
    (
        Ruling(
            "101.1:seven",
            ("101.1",),
            7,
            always,
            "each player draws seven cards before the first turn",
            texts={"000": "100", "001": "140", "CR7.4": "117-118"},
        ),
    ),
    ((n,) for n in PLAYERS),
    show=lambda players: f"a table of {players} players",
    default=None,
    show_answer=lambda n: f"{n} cards",
)

random_draw_picks_chooser = setup_question(
    "random_draw_picks_chooser",
    "does the random draw pick the player who then chooses who goes first, rather than the first player himself (101.1)?",
    (
        Ruling(
            "101.1:chooser",
            ("101.1",),
            True,
            always,
            "a random method picks the player who chooses the first player, who may pick another",
            texts={"000": "100", "CR7.4": "115-116"},
        ),
        Ruling(
            "101.1:chooser",
            ("101.1",),
            False,
            always,
            "a coin toss decides who goes first",
            texts={"001": "139"},
        ),
    ),
    ((n,) for n in PLAYERS),
    show=lambda players: f"a table of {players} players",
)

# -- 101.2: the mulligan --------------------------------------------------------------------

mulligan_draws = setup_question(
    "mulligan_draws",
    "how many cards does a player who mulligans draw, having shuffled back a hand of this size (101.2)?",
    (
        Ruling(
            "101.2:draws",
            ("101.2",),
            7,
            always,
            "a mulligan draws a new hand of seven",
            texts={"000": "101", "001": "141"},
        ),
        Ruling(
            "101.2:draws",
            ("101.2",),
            lambda s, b, hand: hand,
            always,
            "a mulligan draws as many cards as were shuffled back",
            texts={"CR7.4": "120-123"},
        ),
    ),
    ((n,) for n in HAND_SIZES),
    show=lambda hand: f"a hand of {hand} shuffled back",
    default=None,
    show_answer=lambda n: f"{n} cards",
)

# 000's 101.2 has the players decide in turn and the first turn start once
# all have decided, but says nothing of when a mulligan itself is done.
mulligans_wait_for_all = setup_question(
    "mulligans_wait_for_all",
    "do the players who chose to mulligan all do so together once every player has decided, rather than each in turn as he decides (101.2)?",
    (
        Ruling(
            "101.2:together",
            ("101.2",),
            True,
            always,
            "every player decides in turn, then those who chose to mulligan do so at once",
            texts={"CR7.4": "123-125"},
        ),
        Ruling(
            "101.2:together",
            ("101.2",),
            False,
            always,
            "from the first player on, each player who is unhappy with his hand mulligans in turn",
            texts={"001": "141"},
        ),
    ),
    ((n,) for n in PLAYERS),
    show=lambda players: f"a table of {players} players",
)

QUESTIONS: tuple[Question, ...] = (
    may_include_card, may_include_talent_card, minimum_deck_size, copies_allowed, copies_with_side_deck, opening_hand_size, random_draw_picks_chooser,
    mulligan_draws, mulligans_wait_for_all,
)
