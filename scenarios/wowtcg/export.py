"""Model transcripts as scenario files: what ``chainproof lint`` and ``chainproof
diff`` find, replayed in the reference engine.

A finding is a transcript of the model: edge names applied from an initial
state.  The model's default board is abstract, so its transcripts name no
card; here the model is the one the agreement harness builds from an engine
table (``abstraction.view``), so every edge is about cards the engine has.

- ``engine_table`` is a fixed table of fragment cards on which most edge
  families are a few steps away;
- ``table_machine`` is the harness's model of a table, whose only initial
  state is the table at its start (exploration bounds may be set);
- ``scenario_yaml`` drives the engine along a transcript of that model and
  writes the run as a scenario (``scenarios/README.md``) that
  ``chainproof scenarios --path FILE`` replays, in the engine and in the model.

A player's choice in the transcript becomes the engine's legal action whose
model edge it is; the engine takes the automatic edges itself (the end of a
window, the draw, the conclusion of a combat).  The model decides an
instant's effect only as it resolves and abstracts cards to their kinds, so
several engine actions may stand for one choice (which instant, aimed at
whom, which card placed as a resource): the replay searches them depth
first, the plays whose effect is the one the model gives the link first, and
keeps the first way with which the engine's state is the transcript's at
every following choice point (but for resources paid for cards: the model
has no costs).  A draw is chance in the model: the card the engine is to
draw is stacked on the deck.  Last, the harness's own step check
(``ModelFollower``) follows the replay as ``chainproof scenarios`` will.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

import z3

from agreement.wowtcg import abstraction as ab
from agreement.wowtcg.builtin import BEAR_FORM, TOTEMS, BuiltinWowAdapter, Setup, card_kind, observe, observe_action, outside_fragment
from agreement.wowtcg.checker import WowChecker
from agreement.wowtcg.follow import ModelFollower
from engine.wowtcg.objects import Action
from engine.wowtcg.state import GameState
from model.machine import Machine, ModelError
from model.wowtcg import BOUNDS, build
from model.wowtcg.board import BARNATHRUM, SEARING_TOTEM, Board, Character, default_board, nearby_boards
from model.wowtcg.table import CARD_KINDS
from scenarios import tables
from scenarios.tables import dump
from scenarios.wowtcg.adapter import RULE

#: The bounds a caller of ``table_machine`` may set: exploration limits.  The
#: table fixes the rest (players, hands, decks, allies, resources).
EXPLORATION = ("turns", "combats", "chain_depth")
#: Readings of the rules other than the seed's, for diff: a variant
#: (``model/variants.py``) or a source read first (``002zh@may_be_proposed``).
READINGS = ("variant", "reading")
#: Variables an engine may show otherwise than the model on a replayed
#: transcript: the model has no card costs (402.1), so resources the engine
#: exhausted to pay for cards are not the model's.
UNPAID = frozenset({"resources_exhausted"})
#: The most engine actions a replay tries before giving up (each choice with
#: several engine actions, and each armor decision, multiplies the ways).
MOST_TRIES = 5_000
#: The combat steps, where the engine has a combat (outside them a proposal is a link).
COMBAT_STEPS = ("attack_window", "protect_point", "defend_window", "combat_conclusion")


class ExportError(tables.ExportError):
    """What this module cannot do with what it was given: a table the model does
    not cover, bad arguments, or a transcript the engine cannot replay (then the
    message names the step, ``transcript[i]``, its edge and the reason)."""


# -- the table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Party:
    hero: str
    damage: int
    play: tuple[str, ...]
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    resources: int


#: The first player's party (and the third's): the side that attacks in turn 1.
ATTACKERS = _Party(
    # Dual wield (405.3): both Viking Warhammers strike in one combat.
    hero="Gorrak Bloodfist",
    damage=0,
    play=(
        "Viking Warhammer",
        "Viking Warhammer",
        "Leather Jerkin",  # armor, DEF 1, against a combat packet (304.2)
        "Lucky Charm",  # an item, the target of the other side's sabotage (601.2b)
        "Tunnel Rat",  # sabotage (601.2b); a protection ends it (602.2c)
        "Shadowed Prowler",  # stealth: nobody may protect (602.2a); ATK 3 is lethal to the other hero
        "Hill Archer",  # long range: its defender deals no damage back (603.1a)
    ),
    hand=(
        "Hamstring",  # exhausts the proposed attacker: the proposal is interrupted (601.3)
        "Smoke Screen",  # removes the attacker or the defender from combat (602.4)
        # On an undamaged character a heal changes nothing: the resolutions the
        # model leaves untracked.  Two, as Smoke Screen too changes nothing
        # outside combat, but Hamstring exhausts someone while all are ready.
        "Flash Heal",
        "Flash Heal",
        "Ashen Recruit",  # an ally to play into the free ally slot (302.1)
        "Supplies for the Front",  # a quest to place as a resource (408.2, 410.1b)
    ),
    # One card of each kind, so that a draw of any kind can be stacked on top (501.2a).
    deck=("Hamstring", "Ashen Recruit", "Scout the Barrens"),
    resources=4,  # an instant costs 1, each strike 1 (303.2)
)
#: The second player's party (and the fourth's): the side that defends in turn 1.
DEFENDERS = _Party(
    # 24 damage of 27: a 3-damage packet ends the game (102.1a) unless the armor prevents 2.
    hero="Maelen Frostweave",
    damage=24,
    play=(
        # A melee and a ranged weapon without dual wield: one strike per combat (303.2c).
        "Hunting Longbow",
        "Viking Warhammer",
        "Chain Hauberk",  # armor, DEF 2 (304.2)
        "Lucky Charm",  # what the Tunnel Rat sabotages
        "Stonehide Defender",  # protector (602.2)
        # Elusive: never proposed as a defender (601.2b).  Its ferocity does not
        # show: an ally in play at the start is not new to its party (601.2a).
        "Silvermoon Skirmisher",
    ),
    hand=(
        "Hamstring",
        "Smoke Screen",
        "Flash Heal",
        "Flash Heal",
        # Seven cards: the draw of turn 2 takes the hand over the limit, so the
        # end step's discard (503.2a) comes up unless a card leaves the hand.
        "Scout the Barrens",
        "Scout the Barrens",
        "Scout the Barrens",
    ),
    deck=("Flash Heal", "Ashen Recruit", "Scout the Barrens"),
    resources=4,
)


#: The card of the engine's table that plays each ally of the model's default
#: board (``model/wowtcg/board.py``) by the keywords it has (the model's guard
#: has no counterpart: no card of the table is a saboteur and a protector).
PLAYED_BY = {"prowler": "Shadowed Prowler", "skirmisher": "Silvermoon Skirmisher", "taunted": "Stonehide Defender"}
#: The model's characters that are engine cards: a nearby board that swaps
#: one in for an ally of the default board is the engine's table with that
#: card in place of the ally's.  Searing Totem: a totem in an ally slot, which
#: may defend and never attacks (306.3a).
AS_CARDS: dict[Character, str] = {SEARING_TOTEM: "Searing Totem"}
#: The model's spells that are an engine card's payment power (CR7.4 701.2):
#: the card that has it.  Barnathrum's doubles the damage on each character
#: (404.3 example).
POWER_OF = {BARNATHRUM.name: "Barnathrum, Lord of Pain"}


def _elusive_guard(table: Setup) -> Setup:
    """P1's Tunnel Rat, the table's saboteur, is Veiled Sentry: the model's
    guard (protector, sabotage) with elusive (601.2b, 602.2).  The readings
    part only as it may protect, in P2's turn: no card in hand, whose plays
    over P1's whole turn would multiply the ways past any search."""
    play = list(table.play)
    play[0] = tuple("Veiled Sentry" if card == "Tunnel Rat" else card for card in play[0])
    return dataclasses.replace(table, play=tuple(play), hands=tuple(() for _ in play))


def _both_dual_wields(table: Setup) -> Setup:
    """P1's hero is Draka Twinshot: the table's dual wielder with ranged dual wield too (405.1, 405.2)."""
    return dataclasses.replace(table, heroes=("Draka Twinshot", *table.heroes[1:]))


#: The nearby boards (by key) whose engine table is written by hand: the
#: model writes their change as stats where the engine has a card for it.
CARD_TABLES = {"P1-guard+elusive": _elusive_guard, "P1-hero+ranged_dual_wield": _both_dual_wields}


def engine_table(players: int = 2) -> Setup:
    """A table of fragment cards (``builtin.FRAGMENT``) where most edge families of
    the model are a few steps from the start: the two parties above, seated
    alternately, each with instants for every window (409.2).

    With two players and ``table_machine``'s default bounds, every family is at
    most 21 edges from the start except the bounds' own, decking (a deck of
    three runs out at the fourth draw, 409.6c) and ``turn_player_left`` (which
    needs a third player, 102.2)."""
    if not 2 <= players <= 4:
        raise ExportError(f"engine_table: {players} players; the engine seats 2 to 4")
    parties = [ATTACKERS if p % 2 == 0 else DEFENDERS for p in range(players)]
    return Setup(
        heroes=tuple(party.hero for party in parties),
        hero_damage=tuple(party.damage for party in parties),
        play=tuple(party.play for party in parties),
        hands=tuple(party.hand for party in parties),
        decks=tuple(party.deck for party in parties),
        resources=tuple(party.resources for party in parties),
        seed=0,
    )


def nearby_table(board: Board | None, players: int, allies: int) -> Setup:
    """The engine's counterpart of a model board one change from the default
    (``model/wowtcg/board.py``, ``nearby_boards``), or of the default board
    at another number of players (``board`` None): ``engine_table(players)``,
    where the change brings spells into the game, those cards in every
    player's hand; where it puts a hero in bear form, Maul in his party's
    play; where it swaps an ally for a character the engine has as a card
    (``AS_CARDS``), that card in place of the table's ally (``PLAYED_BY``);
    where it brings a card's payment power, that card in the first player's
    play (``POWER_OF``); and the tables written by hand for the boards of
    ``CARD_TABLES`` (an elusive guard, a hero with both dual wields).  A
    board whose characters or equipment changed otherwise has none: the
    model's characters are stats, not engine cards (ExportError)."""
    table = engine_table(players)
    if board is None:
        return table
    key = next((key for key, _, nearby in nearby_boards(players, allies) if nearby == board), None)
    if key in CARD_TABLES:
        return CARD_TABLES[key](table)
    default = default_board(players, allies)
    # A hero in bear form: Maul in his party's play from the start (builtin.BEAR_FORM).
    bear = tuple(party.bear_form for party in board.parties)
    unchanged = tuple(dataclasses.replace(party, bear_form=False) for party in board.parties)
    # An ally of the default board swapped for one the engine has as a card: that card in place of the table's own.
    play = [list(cards) for cards in table.play]
    for p, (party, was) in enumerate(zip(unchanged, default.parties)):
        kept = list(party.allies)
        for i, (now, before) in enumerate(zip(party.allies, was.allies)):
            if now != before and now in AS_CARDS and before.name in PLAYED_BY:
                play[p][play[p].index(PLAYED_BY[before.name])] = AS_CARDS[now]
                kept[i] = before
        unchanged = tuple(dataclasses.replace(x, allies=tuple(kept)) if q == p else x for q, x in enumerate(unchanged))
    if (unchanged, board.abilities) != (default.parties, default.abilities):
        raise ExportError("its characters or equipment are the model's own (stats, not engine cards): the engine's table has no counterpart")
    table = dataclasses.replace(table, play=tuple(tuple(cards) + BEAR_FORM if bear[p] else tuple(cards) for p, cards in enumerate(play)))
    instants = tuple(spell.name for spell in board.spells if spell.name not in POWER_OF)
    for name in instants:
        card = _adapter().pool.cards.get(name)
        if card is None or card_kind(card) != "instant":
            raise ExportError(f"the engine has no instant card {name!r}")
    # A power's card in the first player's party: his to use, as the first to hold priority (409.2).
    powers = tuple(POWER_OF[spell.name] for spell in board.spells if spell.name in POWER_OF)
    table = dataclasses.replace(table, play=(table.play[0] + powers, *table.play[1:]))
    # The model decides an instant's effect only as it resolves: any player's instant may be the spell.
    return dataclasses.replace(table, hands=tuple(hand + instants for hand in table.hands))


@lru_cache(maxsize=1)
def _adapter() -> BuiltinWowAdapter:
    return BuiltinWowAdapter()


def _game(setup: Setup, tops: tuple[tuple[str, ...], ...]) -> GameState:
    """The engine game of ``setup`` whose decks are the setup's without ``tops``,
    with ``tops[p]`` stacked on player p's deck, the first on top: as the
    scenario runner sets up ``decks`` and ``deck_tops`` (scenarios/README.md)."""
    rest = tuple(_without(deck, top) for deck, top in zip(setup.decks, tops))
    st = _adapter().new_game(dataclasses.replace(setup, decks=tuple(r + t for r, t in zip(rest, tops))))
    for p, top in enumerate(tops):
        # The cards of ``top`` were created last for their player: his deck's highest ids.
        deck = st.players[p].deck
        top_ids = sorted(deck)[len(deck) - len(top):]
        deck[:] = [i for i in deck if i not in top_ids] + top_ids[::-1]
    return st


def _without(deck: tuple[str, ...], taken: tuple[str, ...]) -> tuple[str, ...]:
    rest = list(deck)
    for name in taken:
        rest.remove(name)
    return tuple(rest)


# -- the model of a table -------------------------------------------------------------------


class TableMachine(Machine):
    """The harness's model of one engine table.  Its only initial state is the
    table at its start: the first player's ready step, his window open
    (501.1b), not the model's own start before the ready step."""

    def __init__(self, machine: Machine, start: Any) -> None:
        self.__dict__.update(machine.__dict__)
        self.start = start
        self.initial_location = machine.location_of(start)

    def initial_states(self) -> Iterator[Any]:
        yield self.start

    def initial_constraint(self, s: Any) -> Any:
        parts = [s.location == self.start.location]
        for name in self.State._fields[1:]:
            value, term = getattr(self.start, name), getattr(s, name)
            pairs = zip(term, value) if isinstance(value, tuple) else ((term, value),)
            parts.extend(x == v for x, v in pairs)
        return z3.And(*parts)

    def with_edges(self, edges: Any) -> "TableMachine":
        # Variants are built by replacing edges: they start at the same table.
        return TableMachine(super().with_edges(edges), self.start)


def table_machine(setup: Setup, **bounds: Any) -> Machine:
    """The model the harness uses for ``setup`` at its start (``abstraction.view``),
    with exploration bounds (``turns``, ``combats``, ``chain_depth``; the model's
    defaults otherwise) so that a bounded search on it ends, and optionally a
    ``variant`` or a source ``reading``.  Its one initial state is the table's start."""
    unknown = sorted(set(bounds) - set(EXPLORATION) - set(READINGS))
    if unknown:
        raise ExportError(
            f"table_machine: {', '.join(unknown)} can't be set (the table fixes players, hands, decks, allies "
            f"and resources); set {', '.join(EXPLORATION + READINGS[:-1])} or {READINGS[-1]}"
        )
    machine, _ = _table(_game(setup, ((),) * len(setup.heroes)), bounds)
    return machine


def _table(st: GameState, bounds: dict[str, Any]) -> tuple[TableMachine, ab.View]:
    """The model of the engine game ``st`` at its start, and how the start's ids map onto it."""
    # A totem (Character.totem) and a payment power's card (Character.power_cost)
    # are the board's own, observed as such; the others outside the fragment
    # the model follows only in scripted games.
    outside = [name for name in outside_fragment(st) if name not in TOTEMS + tuple(POWER_OF.values())]
    if outside:
        raise ExportError("the model does not abstract these cards of the table: " + ", ".join(outside))
    obs = observe(st)
    binding = ab.Binding(len(obs["players"]))
    binding.seat(obs)
    harness = ab.view(binding, [obs])
    players = obs["players"]
    machine = build(
        **{
            **harness.machine.bounds,
            # Domains wide enough for the table's start (the harness never explores,
            # so its model leaves these at 0).
            "hand": max(len(costs) for pl in players for costs in pl["hand"].values()),
            "deck": max(pl["deck"] for pl in players),
            "resources": max(pl["resources"] for pl in players),
            **{spec.name: spec.default for spec in BOUNDS if spec.name in EXPLORATION},
            **bounds,
        },
        board=harness.table.board,
    )
    start_view = ab.View(machine, harness.number, harness.weapon_slot, harness.missing_object)
    start = ab.model_state(start_view, obs, ab.initial_carry(machine))
    table = TableMachine(machine, start)
    return table, dataclasses.replace(start_view, machine=table)


# -- the export -----------------------------------------------------------------------------


def scenario_yaml(setup: Setup, transcript: list[str], *, name: str, rules: list[str], source: str, summary: str) -> str:
    """The scenario file (YAML text) of ``transcript``, a list of edge names of
    ``table_machine(setup)`` from its start, replayed in the engine.

    Its situation is ``setup`` (with the cards the transcript draws stacked on
    the decks), its script the engine actions, each commented with the model
    edges it stands for, and its ``expect`` the model's state at the end of the
    transcript (completed by the automatic edges the engine takes up to the next
    player's choice).  Raises ExportError when the engine cannot replay it.
    """
    for key, text in (("name", name), ("source", source), ("summary", summary)):
        if not isinstance(text, str) or not text.strip():
            raise ExportError(f"{key}: give it a line of text")
    if not rules:
        raise ExportError("rules: cite at least one rule number")
    for rule in rules:
        if not isinstance(rule, str) or not RULE.match(rule):
            raise ExportError(f"rules: {rule!r} is not written like '409.4a' or 'CR7.4 709.1'")
    plain = tuple(() for _ in setup.heroes)
    # Exploration bounds out of reach: a transcript found within any bounds replays here.
    machine, start_view = _table(_game(setup, plain), {"turns": ab.FAR, "combats": ab.FAR, "chain_depth": len(transcript) + 1})
    states = _walk(machine, transcript)
    tops = _deck_tops(setup, machine, states, transcript)
    aliases = _aliases(setup)
    replay = _Replay(machine, start_view, states, transcript, dict(aliases.values()))
    replayed = replay.run(_game(setup, tops))
    _confirm(_game(setup, tops), replayed.lines, transcript)
    # The game is named, so the file runs wherever it is written.
    head = {"game": "wowtcg", "name": name, "rules": list(rules), "source": source, "summary": summary, "situation": _situation(setup, tops, aliases)}
    return _document(head, replayed.lines, replay.expectation(replayed))


def _walk(m: TableMachine, transcript: list[str]) -> list[Any]:
    """The model states along the transcript, its start first."""
    states = [m.start]
    for i, name in enumerate(transcript):
        if name not in m.edge_index:
            raise ExportError(f"transcript[{i}] {name}: no edge of that name in the model of this table")
        edge = m.edge(name)
        if edge.has("bound"):
            raise ExportError(f"transcript[{i}] {name}: an exploration bound, not a rule: the engine has nothing to replay")
        try:
            states.append(m.apply(states[-1], edge))
        except ModelError:
            raise ExportError(f"transcript[{i}] {name}: not enabled in the model here ({_where(m, states[-1])})") from None
    return states


def _where(m: Machine, s: Any) -> str:
    aspects = m.aspects(s)
    return ", ".join(f"{key} {aspects[key]}" for key in ("location", "turn", "priority", "chain", "combat"))


def _deck_tops(setup: Setup, m: Machine, states: list[Any], transcript: list[str]) -> tuple[tuple[str, ...], ...]:
    """The cards each player draws along the transcript, in order: for each draw
    (chance in the model, 501.2a) a card of the drawn kind from his deck."""
    pool = _adapter().pool
    left = [list(deck) for deck in setup.decks]
    tops: list[list[str]] = [[] for _ in setup.decks]
    for i, name in enumerate(transcript):
        edge = m.edge(name)
        if not edge.has("draws"):
            continue
        p = m.actor(edge, states[i])
        kind = next(k for k in CARD_KINDS if name.endswith(f"[{k}]"))
        card = next((c for c in left[p] if card_kind(pool[c]) == kind), None)
        if card is None:
            raise ExportError(f"transcript[{i}] {name}: P{p + 1}'s deck holds no {kind.replace('_', '-')} card left to draw")
        left[p].remove(card)
        tops[p].append(card)
    return tuple(tuple(top) for top in tops)


def _aliases(setup: Setup) -> dict[tuple[str, int, int], tuple[int, str]]:
    """Names given with ``as`` to the cards a file may name in play (the cards in
    play, the allies in hand) of which their player has another copy ("P1's
    Viking Warhammer" would mean either), with their engine ids; keyed by
    (``hands`` or ``play``, player, position).  The engine creates the heroes
    and decks first, then the hands, the resources and the cards in play, each
    player's in turn (engine/wowtcg/arrange.py)."""
    pool = _adapter().pool
    n = len(setup.heroes)
    first_id = {"hands": n + sum(len(deck) for deck in setup.decks)}
    first_id["play"] = first_id["hands"] + sum(len(hand) for hand in setup.hands) + sum(setup.resources)
    out = {}
    copies: dict[tuple[int, str], int] = {}
    for zone, lists in (("hands", setup.hands), ("play", setup.play)):
        for p, cards in enumerate(lists):
            everything = setup.play[p] + setup.hands[p] + setup.decks[p]
            for j, card in enumerate(cards):
                may_be_in_play = zone == "play" or pool[card].type == "ally"
                if may_be_in_play and everything.count(card) > 1:
                    copies[(p, card)] = copies.get((p, card), 0) + 1
                    oid = first_id[zone] + sum(len(c) for c in lists[:p]) + j
                    out[(zone, p, j)] = (oid, f"P{p + 1} {card} {copies[(p, card)]}")
    return out


@dataclass
class _Choice:
    """A player's choice of the transcript, where the engine is to make it."""

    edge: Any
    view: ab.View
    index: int  # in the transcript
    actor: int | None


@dataclass
class _Line:
    """One step of the script: an engine action as the file writes it, and the
    transcript's edges it stands for (only on the action that makes the choice)."""

    action: Action
    entry: Any
    index: int  # the transcript index of the choice this action belongs to
    chosen: bool  # the action is the choice's edge (not a decline or an armor decision)
    edges: tuple[str, ...] = ()
    then: tuple[str, ...] = ()  # past the transcript's end: the automatic edges the engine took too


@dataclass
class _Replayed:
    """A replay found: the script, and the model's and the engine's final states."""

    lines: list[_Line]
    final: Any
    st: GameState
    view: ab.View


class _Mismatch(Exception):
    """One way of replaying a choice fails; the reason, for the report."""


class _OutOfTries(Exception):
    """The replay has tried MOST_TRIES engine actions."""


class _Replay:
    """A depth-first search for engine actions that replay the transcript."""

    def __init__(self, m: TableMachine, start_view: ab.View, states: list[Any], transcript: list[str], aliases: dict[int, str]) -> None:
        self.m = m
        self.start_view = start_view
        self.states = states
        self.transcript = transcript
        self.aliases = aliases  # engine id -> name given with ``as``
        # The transcript in steps: a player's choice and the automatic edges up to the next choice point.
        choices = [i for i in range(len(transcript)) if ab.is_choice_point(m, states[i])]
        self.steps = list(zip(choices, choices[1:] + [len(transcript)]))
        self.tries = 0
        self.deepest = (0, "")
        self.dead_ends: set[tuple[int, Any]] = set()  # (step, engine state) from which no replay goes on

    def run(self, st: GameState) -> _Replayed:
        if not self.steps:
            raise ExportError("the transcript is empty: nothing to replay")
        binding = ab.Binding(len(st.players))
        binding.seat(observe(st))
        try:
            found = self._from(0, st, binding, [])
        except _OutOfTries:
            found = None
            self.deepest = (self.deepest[0], f"{self.deepest[1]} (gave up after {MOST_TRIES} engine actions)")
        if found is None:
            i, reason = self.deepest
            raise ExportError(f"transcript[{i}] {self.transcript[i]}: {reason}")
        return found

    # -- the search ---------------------------------------------------------------------

    def _from(self, k: int, st: GameState, binding: ab.Binding, lines: list[_Line]) -> _Replayed | None:
        """Replay steps k.. from engine state ``st``, or None."""
        here = (k, _fingerprint(st, binding))
        if here in self.dead_ends:
            return None
        i, j = self.steps[k]
        edge = self.m.edge(self.transcript[i])
        choice = _Choice(edge, self._view(binding), i, self.m.actor(edge, self.states[i]))
        candidates = self._choices(st, choice)
        if not candidates:
            self._failed(i, self._no_action(st, choice))
        for action in self._ranked(st, candidates, choice, self.states[i].chain_len):
            for after, taken in self._play(st, action, choice):
                try:
                    seated, v, final, completion = self._reached(after, binding, j)
                except _Mismatch as exc:
                    self._failed(i, str(exc))
                    continue
                # The transcript's edges go on the line of the action that is the model's choice.
                at = next(n for n, line in enumerate(taken) if line.chosen)
                taken[at] = dataclasses.replace(taken[at], edges=tuple(self.transcript[i:j]), then=tuple(e.name for e in completion))
                done = lines + taken
                if k + 1 == len(self.steps):
                    return _Replayed(done, final, after, v)
                found = self._from(k + 1, after, seated, done)
                if found is not None:
                    return found
        self.dead_ends.add(here)
        return None

    def _choices(self, st: GameState, choice: _Choice) -> list[Action]:
        """The engine's legal actions that are the choice's edge and, when another
        opponent protects, the declines of those asked before him (602.2: the
        engine asks them one at a time; the model's choice is one step)."""
        out = []
        for a in st.legal_actions():
            is_edge = ab.matches(choice.view, choice.edge, observe_action(st, a), choice.actor)
            passes_over = a.kind == "protect" and a.subject is None and choice.edge.has("protects") and a.player != choice.actor
            if is_edge or passes_over:
                out.append(a)
        return out

    def _ranked(self, st: GameState, candidates: list[Action], choice: _Choice, position: int) -> list[Action]:
        """The candidates, the likeliest first.  An instant's effect shows only as it
        resolves, many steps on (CR7.4 709.1): the plays whose effect, resolved at
        once, is the one the model gives that link as it resolves come first."""
        resolved = self._resolution(choice.index, position) if choice.edge.name.startswith("play_instant") else None
        if resolved is None:
            return candidates
        wanted = _effect(self.states[resolved], self.states[resolved + 1])
        carried = {name: getattr(self.states[choice.index], name) for name in ab.UNOBSERVED}
        before = ab.model_state(choice.view, observe(st), carried)

        def effect_now(action: Action) -> frozenset:
            trial = st.clone()
            trial.apply_action(action)
            # Every player passes in turn until the link resolves (409.4a).
            while trial.priority is not None and len(trial.chain) > position:
                trial.apply_action(Action("pass", trial.priority))
            return _effect(before, ab.model_state(choice.view, observe(trial), carried))

        return sorted(candidates, key=lambda a: effect_now(a) != wanted)

    def _resolution(self, i: int, position: int) -> int | None:
        """The index of the edge that resolves the link added at transcript[i], if the transcript gets there."""
        for r in range(i + 1, len(self.transcript)):
            if self.m.edge(self.transcript[r]).has("resolves") and self.states[r].chain_len == position + 1:
                return r
        return None

    def _play(self, st: GameState, action: Action, choice: _Choice) -> Iterator[tuple[GameState, list[_Line]]]:
        """Apply ``action``, then every way to the next choice point: through the
        decisions the model folds into automatic edges (armor against a packet,
        304.2), and past an opponent's decline to protect, to the next one asked."""
        self.tries += 1
        if self.tries > MOST_TRIES:
            raise _OutOfTries
        try:
            entry = self._entry(st, action)
        except _Mismatch as exc:
            self._failed(choice.index, str(exc))
            return
        chosen = ab.matches(choice.view, choice.edge, observe_action(st, action), choice.actor)
        line = _Line(action, entry, choice.index, chosen)
        after = st.clone()
        after.apply_action(action)
        declined = action.kind == "protect" and action.subject is None
        if declined and after.decision is not None and after.decision.kind == "protect":
            follow = self._choices(after, choice)
        elif after.is_terminal() or WowChecker.waits_for_choice(observe(after)):
            yield after, [line]
            return
        else:
            follow = after.legal_actions()
        if not follow:
            self._failed(choice.index, self._no_action(after, choice))
        for option in follow:
            for end, taken in self._play(after, option, choice):
                yield end, [line, *taken]

    def _reached(self, st: GameState, binding: ab.Binding, j: int) -> tuple[ab.Binding, ab.View, Any, tuple[Any, ...]]:
        """The engine at a choice point after a step: the slots, the view, and the
        model state it is (the transcript's, or for a transcript that stops between
        choice points, one that its automatic edges lead to), with those edges."""
        obs = observe(st)
        seated = ab.Binding(binding.players, [list(row) for row in binding.slots])
        seated.release(obs)
        seated.seat(obs)
        v = self._view(seated)
        end = self.states[j]
        observed = ab.model_state(v, obs, {name: getattr(end, name) for name in ab.UNOBSERVED})
        nearest: list[str] | None = None
        for path, reached in ab.automatic_paths(self.m, end):
            diff = ab.differences(v, reached, observed, UNPAID)
            if not diff:
                return seated, v, reached, path
            if nearest is None or len(diff) < len(nearest):
                nearest = diff
        raise _Mismatch("the engine's state is not the model's: " + "; ".join(nearest or ()))

    def _view(self, binding: ab.Binding) -> ab.View:
        """The table's model with the ids of the allies in play now: an ally keeps
        the slot it entered, the lowest free one (302.1, as resolve_ally fills them)."""
        number = dict(self.start_view.number)
        slots = self.m.table.slots
        for p, row in enumerate(binding.slots):
            for i, held in enumerate(row):
                if held is None:
                    continue
                if i + 1 >= slots:
                    raise _Mismatch(f"an ally entered play in P{p + 1}'s party, whose ally slots in the model's table are all taken")
                number[held] = p * slots + i + 1
        return dataclasses.replace(self.start_view, number=number)

    def _failed(self, i: int, reason: str) -> None:
        if i >= self.deepest[0]:
            self.deepest = (i, reason)

    def _no_action(self, st: GameState, choice: _Choice) -> str:
        family, actor = ab.family(choice.edge.name), choice.actor
        if family.startswith(("play_instant", "play_non_instant")):
            kind = "instant" if family.startswith("play_instant") else "non_instant"
            if any(card_kind(st.objs[i].card) == kind for i in st.players[actor].hand):
                return f"P{actor + 1} can pay for no {kind.replace('_', '-')} card in hand (the model has no costs, 402.1)"
        offered = "; ".join(str(a) for a in st.legal_actions()) or "none"
        return f"the engine offers no action for it (legal now: {offered})"

    # -- writing ------------------------------------------------------------------------

    def _entry(self, st: GameState, action: Action) -> Any:
        """The action as the file writes it: its label, unless another legal action
        has the same label (two cards of one name), then by its fields."""
        label = str(action)
        alike = [a for a in st.legal_actions() if str(a) == label]
        if len(alike) == 1 or _interchangeable(st, alike):
            return label
        fields: dict[str, Any] = {"player": f"P{action.player + 1}", "kind": action.kind}
        for key, oid in (("card", action.subject), *(("target", t) for t in action.targets)):
            ref = self.ref(st, oid)
            if ref is None:
                raise _Mismatch(f"the engine's action {label!r} can't be told from another of the same label in a scenario file")
            fields[key] = ref
        return fields

    def ref(self, st: GameState, oid: int) -> str | None:
        """How the file names a card: its name given with ``as``, or "P1's Name"
        when that means no other card (None then)."""
        if oid in self.aliases:
            return self.aliases[oid]
        o = st.objs[oid]
        whose = _whose(o)
        same = [x for x in st.objs if x.card.name == o.card.name and x.zone != "deck" and _whose(x) == whose]
        return f"P{whose + 1}'s {o.card.name}" if len(same) == 1 else None

    def expectation(self, replayed: _Replayed) -> dict[str, Any]:
        """What the model's final state shows, in the runner's words (the names of
        the chain's links and of the cards are the engine's, whose state it is)."""
        m, t = self.m, self.m.table
        final, st, v = replayed.final, replayed.st, replayed.view
        location = m.location_of(final)
        out: dict[str, Any] = {
            "step": location,
            "turn_player": f"P{final.turn_player + 1}",
            "turn": final.turn_number,
            "priority": "nobody" if final.priority_holder >= t.nobody else f"P{final.priority_holder + 1}",
            "passes": final.passes,
            "chain": [_link_text(st, link) for link in st.chain],
        }
        ident = {number: oid for oid, number in v.number.items() if st.objs[oid].zone == "play"}
        if location in COMBAT_STEPS:
            combat = {}
            for role in ("attacker", "defender"):
                c = getattr(final, role)
                ref = None if c == t.none else self.ref(st, ident[c])
                if c == t.none or ref is not None:
                    combat[role] = ref
            out["combat"] = {**combat, "sabotage": final.sabotage}
        elif final.attacker == t.none and final.defender == t.none:
            out["combat"] = "none"
        damage, exhausted = {}, {}
        for c in range(t.count):
            ref = self.ref(st, ident[c]) if final.in_play[c] else None
            if ref is not None:
                damage[ref], exhausted[ref] = final.damage[c], final.exhausted[c]
        for oid, i in v.weapon_slot.items():
            ref = self.ref(st, oid) if final.in_game[i // t.weapons] else None
            if ref is not None:
                exhausted[ref] = final.weapon_exhausted[i]
        for p, pl in enumerate(observe(st)["players"]):
            ref = self.ref(st, pl["armor"]["id"]) if pl.get("armor") and final.in_game[p] and t.armor_def[p] else None
            if ref is not None:
                exhausted[ref] = final.armor_exhausted[p]
        out.update(damage=damage, exhausted=exhausted)
        out["hand"] = {
            f"P{p + 1}": final.hand_instant[p] + final.hand_non_instant[p] + final.hand_quest[p] for p in range(t.n) if final.in_game[p]
        }
        if m.is_terminal(final):
            out["terminal"] = True
            left = [p for p in range(t.n) if final.in_game[p]]
            if len(left) == 1:  # 102.1a: the last player in the game wins
                out["results"] = {f"P{p + 1}": "won" if p in left else "lost" for p in range(t.n)}
        return out


#: What an instant's resolution may change that the model tracks: readiness
#: (105.1, 601.3), damage (404.1), the combat roles (602.4).
EFFECTS = ("exhausted", "damage", "attacker", "defender")


def _effect(before: Any, after: Any) -> frozenset:
    """What changed of EFFECTS between two model states: (variable, index, new value)."""
    out = set()
    for name in EFFECTS:
        old, new = getattr(before, name), getattr(after, name)
        pairs = enumerate(zip(old, new)) if isinstance(old, tuple) else [(None, (old, new))]
        out.update((name, i, b) for i, (a, b) in pairs if a != b)
    return frozenset(out)


def _fingerprint(st: GameState, binding: ab.Binding) -> tuple:
    """What of an engine state decides how a replay goes on: its observation, the
    names of the cards in each hand and deck (copies are alike), each link's
    card and targets (an instant's target decides its effect), and the slots.
    Two plays that leave the same fingerprint (a heal on either of two
    undamaged allies) need not both be tried."""
    return (
        repr(observe(st)),
        tuple(tuple(sorted(st.objs[i].card.name for i in p.hand)) for p in st.players),
        tuple(tuple(st.objs[i].card.name for i in p.deck) for p in st.players),
        tuple((link.kind, link.controller, link.source and st.objs[link.source].card.name, link.targets) for link in st.chain),
        tuple(map(tuple, binding.slots)),
    )


def _whose(o: Any) -> int:
    # The runner's reading of "P2's X": the card he controls in play or on the chain, or owns elsewhere.
    return o.controller if o.zone in ("play", "chain") else o.owner


def _interchangeable(st: GameState, actions: list[Action]) -> bool:
    """Copies of one card in a hand: playing either is the same action (the runner's rule)."""
    first = actions[0]
    return all(
        (a.kind, a.player, a.targets, a.x, a.option) == (first.kind, first.player, first.targets, first.x, first.option)
        and a.subject is not None
        and st.objs[a.subject].zone == "hand"
        and st.objs[a.subject].card.name == st.objs[first.subject].card.name
        for a in actions
    )


def _link_text(st: GameState, link: Any) -> str:
    # The runner's wording of a link: "P1 card Hamstring", "P1 proposal Tunnel Rat -> Lucky Charm".
    who = f"P{link.controller + 1}"
    if link.kind == "proposal":
        return f"{who} proposal {st.objs[link.attacker].name} -> {st.objs[link.defender].name}"
    return f"{who} {link.kind} {st.objs[link.source].name}"


def _confirm(st: GameState, lines: list[_Line], transcript: list[str]) -> None:
    """The harness's own check of every step (``ModelFollower``, as the scenario
    runner makes it): the exported file must agree with the model there too."""
    follower = ModelFollower(st)
    for line in lines:
        follower.before(st, line.action)
        st.apply_action(line.action)
        follower.after(st)
        if not follower.following:
            raise ExportError(f"transcript[{line.index}] {transcript[line.index]}: the harness's step check does not agree: {follower.verdict()}")


def _situation(setup: Setup, tops: tuple[tuple[str, ...], ...], aliases: dict[tuple[str, int, int], tuple[int, str]]) -> dict[str, Any]:
    """The scenario's situation: the setup in the first player's first ready step (501.1)."""
    players = [hero if not damage else {"hero": hero, "damage": damage} for hero, damage in zip(setup.heroes, setup.hero_damage)]
    out: dict[str, Any] = {"players": players, "turn_player": "P1", "turn": 1, "step": "ready_step"}
    for key, lists in (("play", setup.play), ("hands", setup.hands)):
        entries = {}
        for p, cards in enumerate(lists):
            named = [card if (key, p, j) not in aliases else {"card": card, "as": aliases[(key, p, j)][1]} for j, card in enumerate(cards)]
            if named:
                entries[f"P{p + 1}"] = named
        if entries:
            out[key] = entries
    # Every deck is given, even an empty one: an absent deck is ten cards of filler.
    out["decks"] = {f"P{p + 1}": list(_without(deck, top)) for p, (deck, top) in enumerate(zip(setup.decks, tops))}
    stacked = {f"P{p + 1}": list(top) for p, top in enumerate(tops) if top}
    if stacked:
        out["deck_tops"] = stacked
    if any(setup.resources):
        out["resources"] = {f"P{p + 1}": n for p, n in enumerate(setup.resources) if n}
    out["seed"] = setup.seed
    return out


def _document(head: dict[str, Any], lines: list[_Line], expect: dict[str, Any]) -> str:
    """The YAML text: the script's lines carry the model edges they stand for as comments."""
    text = dump(head)
    script = []
    for line in lines:
        # Block style for the list; an action written by its fields stays on one line.
        entry = dump([line.entry], flow=None if isinstance(line.entry, dict) else False).rstrip("\n")
        then = f" (then by itself: {' > '.join(line.then)})" if line.then else ""
        script.append(f"{entry}  # {' > '.join(line.edges)}{then}" if line.edges else entry)
    return text + "script:\n" + "\n".join(script) + "\n" + dump({"expect": expect})
