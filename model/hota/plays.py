"""Cards by name in hands and libraries, and plays from hand
(assumed:play-from-hand), on a table whose decks hold playable cards.

The default table's decks are cards without text (abstracted:anonymous-cards),
counted and never played. Where a deck holds cards a player may play
(``model/hota/table.PLAYABLE``), the model counts those by name in each
library and hand, beside the totals: a play is then legal in the model
exactly where the engine allows it, with its card in the hand and its
requirements met (106.3). A draw does not say which card comes: each way the
named cards of a library can fall is an edge of its own, so the model has
every order a shuffle (103.1) can leave.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Sequence

from model.backend import Backend
from model.hota.rulings import controls
from model.hota.table import ATTRIBUTES, NOBODY, OPENING_HAND, PLAYABLE, Table
from model.machine import Edge, IntRange, Var

#: The most edges a table's named draws may add before the model declines it:
#: each way the cards of every drawing player can fall is one edge.
MOST_EDGES = 10000

#: How many cards a player draws in a step, read off the state before it.
Amount = Callable[[Any, Backend], Any]
#: One player's draw in a step: the player, how many, and every number it may be.
Draw = tuple[int, Amount, tuple[int, ...]]
#: One player's draw: how many of each named card, then how many unnamed.
Outcome = tuple[int, ...]


class TooManyDraws(ValueError):
    """The ways a table's draws can fall are more edges than the model builds."""


@lru_cache(maxsize=1024)
def slug(text: str) -> str:
    """A name as it goes into an edge or a variable name."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def play_name(p: int, name: str, choice: str | None = None, given: str | None = None, to: int | None = None) -> str:
    """The edge of ``p``'s play of ``name``: with the attribute it names
    (105.3), or the entity it gives (as its player names it) and to whom."""
    out = f"p{p + 1}_plays_{slug(name)}"
    if choice is not None:
        out += f"_choosing_{choice}"
    if given is not None:
        out += f"_giving_{slug(given)}_to_p{to + 1}"
    return out


def library_var(name: str) -> str:
    return f"library_{slug(name)}"


def hand_var(name: str) -> str:
    return f"hand_{slug(name)}"


def points_var(attribute: str) -> str:
    return f"points_{attribute}"


def variables(t: Table) -> list[Var]:
    """Each named card's copies in every library and hand; each player's
    attribute points from played cards (106.1, 106.2); the card each council
    player chose, by name (101.4a), and who convened the council where a
    played card can (108.4)."""
    if not t.names:
        return []
    n, last = t.players, t.players - 1
    out = []
    for name in t.names:
        most = max(t.copies(p, name) for p in range(n))
        out += [
            Var(library_var(name), IntRange(0, most), (), length=n, start=tuple(t.copies(p, name) for p in range(n)),
                doc=f"copies of {name} in each library"),
            Var(hand_var(name), IntRange(0, most), (0,), length=n, doc=f"copies of {name} in each hand"),
        ]
    out += [Var(points_var(a), IntRange(0, t.deck), (0,), length=n,
                doc=f"{a} points each player's played cards gave for the game (106.1, 106.2)") for a in ATTRIBUTES]
    out.append(Var("chosen", IntRange(-1, len(t.names) - 1), (NOBODY,), length=n,
                   doc="the named card each council player chose face down (101.4a), or none of them"))
    if t.council_convened_by_play and t.players > 2:
        out.append(Var("convener", IntRange(-1, last), (NOBODY,), doc="who convened the council (108.4)"))
    return out


def unnamed(t: Table, s: Any, pile: str, p: int) -> Any:
    """The cards of ``p``'s library or hand that are no named card."""
    total = getattr(s, pile)[p]
    for name in t.names:
        total = total - getattr(s, f"{pile}_{slug(name)}")[p]
    return total


def outcomes(t: Table, p: int, totals: Sequence[int]) -> list[Outcome]:
    """Every way ``p`` can draw one of ``totals`` cards of their deck: how
    many of each named card (none of a card their deck lacks), then unnamed ones."""
    most = max(totals)
    ranges = [range(min(t.copies(p, name), most) + 1) for name in t.names] + [range(min(t.unnamed(p), most) + 1)]
    return [o for o in itertools.product(*ranges) if sum(o) in totals]


def _shown(t: Table, p: int, o: Outcome) -> str:
    parts = [f"{c}_{slug(name)}" for name, c in zip(t.names, o) if c] + ([f"{o[-1]}_unnamed"] if o[-1] else [])
    return f"p{p + 1}_" + ("_".join(parts) or "none")


def drawing(t: Table, e: Edge, draws: Sequence[Draw], guard: Callable[..., Any] | None = None) -> list[Edge]:
    """``e``, whose update draws for each (player, amount, totals) of
    ``draws`` (``amount`` read off the state before, one of ``totals``),
    once per way the named cards can fall: each way its own edge, which takes
    from the library and adds to the hand the named cards it draws, where
    ``guard`` holds too. A table without named cards keeps ``e`` as it is."""
    if not t.names:
        return [e]
    ways = [[(p, amount, o) for o in outcomes(t, p, totals)] for p, amount, totals in draws]
    out = []
    for combo in itertools.product(*ways):
        out.append(_drawn(t, e, combo, guard))
        if len(out) > MOST_EDGES:
            raise TooManyDraws(f"{e.name}: more than {MOST_EDGES} ways the named cards can be drawn; "
                               "the model counts named cards only for small decks")
    return out


def _drawn(t: Table, e: Edge, combo: Sequence[tuple[int, Amount, Outcome]], extra: Callable[..., Any] | None) -> Edge:
    def guard(s: Any, b: Backend) -> Any:
        fits = []
        for p, amount, o in combo:
            fits.append(amount(s, b) == sum(o))
            fits += [getattr(s, library_var(name))[p] >= c for name, c in zip(t.names, o) if c]
            if o[-1]:
                fits.append(unnamed(t, s, "library", p) >= o[-1])
        return b.And(*((extra(s, b),) if extra else ()), *fits, e.guard(s, b))

    def update(s: Any, b: Backend) -> dict[str, Any]:
        after = dict(e.update(s, b))
        for i, name in enumerate(t.names):
            library, hand = list(getattr(s, library_var(name))), list(after.get(hand_var(name), getattr(s, hand_var(name))))
            for p, _, o in combo:
                library[p] = library[p] - o[i]
                hand[p] = hand[p] + o[i]
            after[library_var(name)], after[hand_var(name)] = tuple(library), tuple(hand)
        return after

    what = ", ".join(_shown(t, p, o).replace("_", " ") for p, _, o in combo)
    suffix = "_".join(_shown(t, p, o) for p, _, o in combo)
    return replace(e, name=f"{e.name}@draws_{suffix}", guard=guard, update=update,
                   doc=f"{e.doc} (drawn: {what}; 103.1: any order the shuffle left)")


def attribute_value(t: Table, s: Any, b: Backend, p: int, attribute: str, provides: Callable[..., Any]) -> Any:
    """106.1, 106.2, 106.2a: the points ``p``'s played cards gave, and one
    intelligence for each Arcane Sanctum ``p`` controls while it provides
    its value (108.4: its "you" is its controller; ``provides``: the
    question ``provides_attribute_value``)."""
    value = getattr(s, points_var(attribute))[p]
    if attribute == "intelligence":
        for e in t.holding("Arcane Sanctum"):
            value = value + b.If(b.And(controls(t, s, e, p), provides(s, b, e)), 1, 0)
    return value


def mulligan_edges(t: Table, mulligan: int, declared_all: Callable[..., Any], in_game: Callable[..., Any],
                   tags: frozenset[str]) -> list[Edge]:
    """103.4 on a table with named cards: each player who declared a count
    sets that many cards of their hand aside (which ones: any, the player's
    choice), draws as many (104.3c if the library runs short), and shuffles
    the set-aside cards back into the library. The players' mulligans touch
    only their own cards, so the model takes them one player at a time, in
    seat order, before ``perform_mulligans`` begins the first turn; each
    player's is done once their declared count reads 0."""
    edges = []
    for p in range(t.players):
        def mine(s: Any, b: Backend, p: int = p) -> Any:
            earlier = (b.Or(s.declared[q] <= 0, b.Not(in_game(s, q, b))) for q in range(p))
            return b.And(declared_all(s, b), b.Not(s.mulligan_done), in_game(s, p, b), *earlier)

        # The library then holds the deck less the opening hand (or the whole
        # deck, for a player who left before drawing it, at a larger table).
        libraries = {t.sizes[p] - OPENING_HAND, t.sizes[p]}
        for k in range(1, mulligan + 1):
            # Asked once a state for every edge of this player and count.
            def due(s: Any, b: Backend, p: int = p, k: int = k, mine: Callable[..., Any] = mine) -> Any:
                return b.And(s.declared[p] == k, mine(s, b))

            for aside in outcomes(t, p, (k,)):
                for drawn in outcomes(t, p, sorted({min(k, n) for n in libraries})):
                    edges.append(_mulligan(t, p, k, aside, drawn, due, tags))
    if len(edges) > MOST_EDGES:
        raise TooManyDraws(f"the mulligans: more than {MOST_EDGES} ways to set aside and draw named cards; "
                           "the model counts named cards only for small decks")
    return edges


def _mulligan(t: Table, p: int, k: int, aside: Outcome, drawn: Outcome, due: Callable[..., Any],
              tags: frozenset[str]) -> Edge:
    def guard(s: Any, b: Backend) -> Any:
        library = s.library[p]
        fits = [getattr(s, hand_var(name))[p] >= c for name, c in zip(t.names, aside) if c]
        fits += [getattr(s, library_var(name))[p] >= c for name, c in zip(t.names, drawn) if c]
        return b.And(due(s, b), b.If(library >= k, k, library) == sum(drawn),
                     unnamed(t, s, "hand", p) >= aside[-1], unnamed(t, s, "library", p) >= drawn[-1], *fits)

    def update(s: Any, b: Backend) -> dict[str, Any]:
        after: dict[str, Any] = {}
        for i, name in enumerate(t.names):
            for pile, change in ((hand_var(name), drawn[i] - aside[i]), (library_var(name), aside[i] - drawn[i])):
                values = list(getattr(s, pile))
                values[p] = values[p] + change
                after[pile] = tuple(values)
        got = sum(drawn)
        return {
            **after,
            "hand": b.store(s.hand, p, s.hand[p] - k + got),
            "library": b.store(s.library, p, s.library[p] + k - got),
            "drew_from_empty": b.store(s.drew_from_empty, p, b.Or(s.drew_from_empty[p], s.library[p] < k)),
            "declared": b.store(s.declared, p, 0),
        }

    name = f"p{p + 1}_mulligans_{k}@sets_aside_{_shown(t, p, aside)}@draws_{_shown(t, p, drawn)}"
    return Edge(name, "mulligan", "mulligan", ("103.4", "104.3c", "103.1"), guard=guard, update=update,
                tags=tags, prefilter=due,
                doc=f"P{p + 1} sets {k} cards aside ({_shown(t, p, aside)}), draws "
                    f"({_shown(t, p, drawn)}) and shuffles them back")


def council_choices(t: Table, chooses: Callable[..., Any], card_choice: Callable[..., Any], chooser: Callable[..., Any],
                    tags: frozenset[str]) -> list[Edge]:
    """101.4, 101.4a: the council player chooses a named card of their hand,
    face down; which one decides what is discarded as the choices take effect."""
    edges = []
    for i, name in enumerate(t.names):
        def has(s: Any, b: Backend, name: str = name) -> Any:
            return b.select(getattr(s, hand_var(name)), s.chooser) >= 1

        edges.append(Edge(
            f"council_chooses_a_card@{slug(name)}", "council", "council", ("101.4", "101.4a", "101.4c"),
            guard=lambda s, b, has=has: b.And(card_choice(s, b), chooses(s, b), has(s, b)),
            update=lambda s, b, i=i: {"picked": b.store(s.picked, s.chooser, 1), "chosen": b.store(s.chosen, s.chooser, i)},
            actor=chooser, tags=tags, doc=f"the chooser picks {name} in hand, face down"))
    return edges


def has_unnamed(t: Table) -> Callable[..., Any]:
    """The council chooser has a card in hand that is no named card."""
    def guard(s: Any, b: Backend) -> Any:
        total = b.select(s.hand, s.chooser)
        for name in t.names:
            total = total - b.select(getattr(s, hand_var(name)), s.chooser)
        return total >= 1
    return guard


def discard_chosen(t: Table, s: Any, b: Backend, staying: Callable[[int], Any]) -> dict[str, Any]:
    """101.4: each named card chosen leaves its hand as the choices take effect."""
    out = {}
    for i, name in enumerate(t.names):
        out[hand_var(name)] = tuple(
            h - b.If(b.And(staying(p), s.picked[p] == 1, s.chosen[p] == i), 1, 0)
            for p, h in enumerate(getattr(s, hand_var(name))))
    out["chosen"] = (NOBODY,) * t.players
    return out


def play_edges(t: Table, provides: Callable[..., Any], in_game: Callable[..., Any],
               council_start: Callable[..., dict[str, Any]], draw: Callable[..., dict[str, Any]],
               spirits_of: Callable[[int], Any], token_moves: Callable[..., dict[str, Any]],
               spirit_moves: Callable[..., Any]) -> list[Edge]:
    """The plays from hand (assumed:play-from-hand): the player holding
    priority plays a named card of their hand whose requirements their
    attribute values meet (106.3), once per choice it asks for; it resolves
    at once (assumed:resolve-at-once) and never enters the battlefield
    (109.4, which the model does not encode: it has no entity types); then the check, and the active player receives priority.
    ``council_start`` opens the council for a player; ``draw`` is one card
    drawn by a player, in counts. ``spirits_of`` names the Spirits a player
    may control by owner, ``token_moves`` moves one to another controller,
    and ``spirit_moves`` is the question control_reaches_tokens (109.5e)."""
    edges = []
    for p in range(t.players):
        for name in t.names:
            if not t.copies(p, name):
                continue
            card = PLAYABLE[name]

            def may_play(s: Any, b: Backend, p: int = p, name: str = name, card=card) -> Any:
                needs = [attribute_value(t, s, b, p, a, provides) >= v for a, v in card.requires]
                return b.And(s.priority == p, getattr(s, hand_var(name))[p] >= 1, *needs)

            def played(s: Any, b: Backend, p: int = p, name: str = name, **changes: Any) -> dict[str, Any]:
                return {hand_var(name): b.store(getattr(s, hand_var(name)), p, getattr(s, hand_var(name))[p] - 1),
                        "hand": b.store(s.hand, p, s.hand[p] - 1), "passes": 0, "priority": s.active, **changes}

            # 109.4 keeps a played card off the battlefield: no play here makes an entity.
            rules = ("assumed:play-from-hand", "106.3", "assumed:resolve-at-once", "assumed:played-card-discarded")

            def edge(edge_name: str, more: tuple[str, ...], update: Callable[..., dict[str, Any]], doc: str,
                     guard: Callable[..., Any] | None = None, target: str = "check",
                     may_play: Callable[..., Any] = may_play, played: Callable[..., Any] = played,
                     p: int = p, name: str = name) -> Edge:
                extra = guard or (lambda s, b: True)
                return Edge(edge_name, "priority", target, (*rules, *more),
                            guard=lambda s, b: b.And(may_play(s, b), extra(s, b)),
                            update=lambda s, b: played(s, b, **update(s, b)), actor=lambda s, b, p=p: p,
                            doc=f"P{p + 1} plays {name}: {doc}")

            if card.gives:
                var = points_var(card.gives)
                edges.append(edge(play_name(p, name), ("105.1", "106.1", "106.2"),
                                  lambda s, b, var=var, p=p: {var: b.store(getattr(s, var), p, getattr(s, var)[p] + 1)},
                                  f"one {card.gives} point for the rest of the game"))
            elif card.effect == "choose-attribute":
                for a in ATTRIBUTES:
                    var = points_var(a)
                    edges.append(edge(play_name(p, name, choice=a), ("105.1", "105.3", "106.2"),
                                      lambda s, b, var=var, p=p: {var: b.store(getattr(s, var), p, getattr(s, var)[p] + 1)},
                                      f"its player names {a} and has one {a} point more for the game"))
            elif card.effect == "council":
                edges.append(edge(play_name(p, name), ("101.4", "108.4", "107.3"), lambda s, b, p=p: council_start(s, b, p),
                                  "the council of 101.4 for the player who plays it; the card waits on the stack under "
                                  "that player's control (107.3, 108.4)", target="council"))
            elif card.effect == "give-control":
                for x, entity in enumerate(t.entities):
                    for q in range(t.players):
                        if q == p:
                            continue
                        ref = entity.card if entity.owner == p else f"P{entity.owner + 1}'s {entity.card}"
                        edges.append(edge(
                            play_name(p, name, given=ref, to=q), ("107.1", "107.2", "108.4", "109.2"),
                            lambda s, b, x=x, q=q: {"controller": b.store(s.controller, x, q)},
                            f"P{q + 1} gains control of {entity.label}, which P{p + 1} controls; its owner stays",
                            guard=lambda s, b, x=x, q=q, p=p: b.And(controls(t, s, x, p), in_game(s, q, b))))
                # A Spirit p controls is an entity too (109.1, 109.5e), named by its owner once another's.
                for q in (q for q in range(t.players) if q != p and t.takes_tokens and t.may_control_spirits(p)):
                    for o, _, count in spirits_of(p):
                        ref = "Spirit" if o == p else f"P{o + 1}'s Spirit"
                        edges.append(edge(
                            play_name(p, name, given=ref, to=q), ("109.5e", "109.1", "107.1", "107.2", "108.4"),
                            lambda s, b, q=q, o=o, p=p: token_moves(s, b, p, q, o),
                            f"P{q + 1} gains control of a Spirit P{p + 1} controls and P{o + 1} owns; its owner stays",
                            guard=lambda s, b, q=q, count=count: b.And(count(s) >= 1, in_game(s, q, b), spirit_moves(s, b))))
            elif card.effect == "draw":
                # The card has left the hand before its effect draws.
                # 106.2a: an Arcane Sanctum's point counts toward the requirement.
                sanctum = ("106.2a",) if t.holding("Arcane Sanctum") else ()
                base = edge(play_name(p, name), ("105.1", "106.4", "104.3c", *sanctum),
                            lambda s, b, p=p: draw(s._replace(hand=b.store(s.hand, p, s.hand[p] - 1)), b, p),
                            "its player draws a card")
                edges += drawing(t, base, [(p, lambda s, b, p=p: b.If(s.library[p] >= 1, 1, 0), (0, 1))])
            else:  # pragma: no cover - PLAYABLE lists exactly the cases above
                raise ValueError(f"no play for {name}")
    return edges
