"""The game state and its OpenSpiel-style protocol: `current_player()`,
`legal_actions()`, `apply_action()`, `is_terminal()`, `returns()`.

The game advances by a stack of small tasks (open a window, run a batch of
pre-priority checks, resolve the top link, deliver a packet ...). It stops
when a player must choose: either he holds priority (409.1) or a `Decision`
waits for him (a mulligan, armor, a protector, a choice made as a link
resolves). Everything is data, so a state can be copied with `clone()`.
"""

from __future__ import annotations

import random
from operator import attrgetter

from . import checks, combat, effects
from .cards import Card, Pool, token_card, token_copy
from .objects import BOARD_CLOCK, PARTY_CLOCK, READY_CLOCK, RESOURCE_MARKED, Action, Combat, Decision, EngineSetupError, IllegalAction, Link, Obj, Packet, Player, Waiting

HAND_SIZE = 7  # 101.1: opening hand
HAND_LIMIT = 7  # 413.5b, 503.2a
PILES = frozenset({"deck", "hand", "graveyard", "removed"})  # the zones each player has a list of (413.1)


#: The fields each kind of priority action takes (409.2): a card played or
#: placed (the face-up option for a quest), a power's source and which of its
#: powers, an attacker and its defender (sabotage or not), a weapon.
PRIORITY_ACTION_FIELDS = {
    "pass": (),
    "resource": ("subject", "option"),
    "play": ("subject", "targets", "x", "option"),  # option: the resource destroyed for an alternate cost (CR7.4 403.3)
    "power": ("subject", "targets", "x", "option"),
    "complete": ("subject",),  # a quest completed (409.2, CR7.4 702.2)
    "propose": ("subject", "targets", "option"),
    "strike": ("subject",),
}


#: Each kind's fields it does not take, with the value they hold when unset.
UNTAKEN_FIELDS = {
    kind: tuple((name, unset) for name, unset in (("subject", None), ("targets", ()), ("x", 0), ("option", None)) if name not in takes)
    for kind, takes in PRIORITY_ACTION_FIELDS.items()
}
#: For each kind, a reader of an action's kind and untaken fields, and what
#: it reads when they are unset: one comparison finds a stray field (the kind
#: is read as well so that the reader gives a tuple even for one field).
UNTAKEN_UNSET = {
    kind: (attrgetter("kind", *(name for name, _ in untaken)), (kind, *(unset for _, unset in untaken)))
    for kind, untaken in UNTAKEN_FIELDS.items()
}


FACTIONS = ("Alliance", "Horde")  # 206: the faction traits


class _SeatNames(dict):
    """Each seat's name, "P1" for seat 0, made once: a name is written into
    most labels and history lines."""

    def __missing__(self, seat: int) -> str:
        name = self[seat] = f"P{seat + 1}"
        return name


SEAT_NAMES = _SeatNames()


class _EverySeat(dict):
    """For a table of n seats, each seat's clockwise order of all the seats
    from it (409.1), made once."""

    def __missing__(self, n: int) -> tuple[tuple[int, ...], ...]:
        orders = self[n] = tuple((*range(seat, n), *range(seat)) for seat in range(n))
        return orders


EVERY_SEAT_FROM = _EverySeat()

#: Why a payment power can't be used now (`GameState._power_source_rule`):
#: the rule, and the reason with the card's and the player's names to fill in.
POWER_UNUSABLE = {
    "not_his": ("CR7.4 701.2", "{card} is not in play under {player}'s control"),
    "powerless": ("CR7.4 700.3", "{card} has lost its powers"),
    "not_his_turn": ("CR7.4 701.1", "{card}'s power is used only on its controller's turn"),
    "exhausted": ("402.1", "{card} is exhausted"),
    "new": ("302.2", "{card} joined the party this turn"),
    "flipped": ("402.1", "{card} is already flipped"),
}


def check_teams(pool: Pool, heroes: list[str], teams: list[int] | None) -> tuple[int, ...]:
    """Each seat's team, checked against the basic rules' multiplayer part
    (001): teammates' heroes share a faction, and teams sit alternately, so
    that both neighbours of every player are opponents. None: no teams,
    each player on his own."""
    n = len(heroes)
    if teams is None:
        return tuple(range(n))
    teams = tuple(teams)
    if len(teams) != n or any(type(t) is not int for t in teams):
        raise EngineSetupError(f"teams={list(teams)}: one team number for each of the {n} seats")
    if len(set(teams)) < 2:
        raise EngineSetupError(f"teams={list(teams)}: a game needs at least two teams (102.1)")
    for seat in range(n):
        if teams[seat] == teams[(seat + 1) % n]:
            raise EngineSetupError(f"teams={list(teams)}: P{seat + 1} and P{(seat + 1) % n + 1} sit side by side on one team; "
                                   "teams sit alternately (basic rules, multiplayer)")
    faction: dict[int, set[str]] = {}
    for seat, (hero, team) in enumerate(zip(heroes, teams)):
        faction.setdefault(team, set()).update(t for t in pool[hero].traits if t in FACTIONS)
    for team, found in faction.items():
        if len(found) > 1:
            raise EngineSetupError(f"teams={list(teams)}: team {team} mixes Alliance and Horde heroes; "
                                   "teammates' heroes share a faction (basic rules, multiplayer)")
    return teams


class GameState:
    # Its fields as slots: a state has more fields than CPython 3.11 shares
    # the keys of in an instance dictionary (30), and a slot is read faster
    # than a key of a dictionary of its own. Every one is set in `__init__`
    # and in `clone`.
    __slots__ = (
        "pool", "teams", "rng", "objs", "tokens", "powers_in_game", "powers_in_play", "payment_sources", "players",
        "seated", "instants_in_hand", "play", "party", "resource_row", "chain", "waiting", "tasks", "decision",
        "priority", "passes", "step", "turn_player", "first_player", "turn_number", "combat", "turn_modifiers",
        "resolving", "over", "history", "_next_link", "_settled", "_settled_at", "uniqueness_settled", "_ready",
        "_ready_at", "_sides_of", "_defenders_of", "_attacks_of", "_targets", "_targets_at", "_offers", "_placings", "_plays", "_proposals", "_offered",
        "pass_actions",
    )

    def __init__(self, pool: Pool, heroes: list[str], decks: list[list[str]], seed: int, start: bool = True,
                 teams: list[int] | None = None):
        self.pool = pool
        # Each seat's team; without teams every player is his own (each other
        # player is an opponent). Friendly players are oneself and one's teammates.
        self.teams: tuple[int, ...] = check_teams(pool, heroes, teams)
        self.rng = random.Random(seed)
        self.objs: list[Obj] = []
        self.tokens: list[int] = []  # ids of the tokens made so far (403.2), for 409.6e
        # Every continuous power and trigger event of a card in this game: play
        # is searched for one only if some card has it (CR7.4 703, CR7.4 704).
        self.powers_in_game: set[str] = set()
        # The ids of the cards in play (resources too) with each continuous
        # power or trigger event, in the order of play, kept by `move` as they
        # enter and leave play: a power is looked up here (`effects.in_play_with`)
        # rather than searched for card by card in play.
        self.powers_in_play: dict[str, list[int]] = {}
        # Ids of the cards in play with a payment power (CR7.4 701) or a
        # face-up quest's reward power (CR7.4 702.1), kept by `move` as they
        # enter and leave play and by a quest's completion: asked about
        # before every choice, and most such cards are elsewhere or face down.
        self.payment_sources: list[int] = []
        self.players: list[Player] = []
        # How many players are still in the game, kept by `players_lose`: read at every pass (409.4a).
        self.seated = len(heroes)
        # How many instants (408.1) each player holds in his hand, kept by
        # `move`: outside his main phase only these are played, and most of
        # the time he holds none.
        self.instants_in_hand: list[int] = [0] * len(heroes)
        self.play: list[int] = []  # ids in play, in the order they entered
        # `play` split in two, each in the order of play, kept by `move` and
        # `effects.leave_play`: the resource row (410.1a) and the rest, the
        # cards and tokens in play that are not resources. Most of play is
        # resources, which a resource pays and no more (402.4a, 410.1b), so
        # most readings of play need only one of them. A card is made a
        # resource, or stops being one, only out of play.
        self.party: list[int] = []
        self.resource_row: list[int] = []
        self.chain: list[Link] = []  # bottom first
        self.waiting: list[Waiting] = []
        self.tasks: list[tuple] = []
        self.decision: Decision | None = None
        self.priority: int | None = None
        self.passes = 0
        self.step = "setup"
        self.turn_player = 0
        self.first_player = 0
        self.turn_number = 0
        self.combat: Combat | None = None
        self.turn_modifiers: list[tuple] = []  # (what, character, the caster's hero) 600.2, 601.2c
        self.resolving: Link | None = None
        self.over = False
        self.history: list[str] = []
        self._next_link = 0
        self._settled: tuple | None = None  # what the last check that found nothing read (409.6)
        self._settled_at = -1  # BOARD_CLOCK when that was last seen to hold
        # What each player's last uniqueness check that found nothing read (412).
        self.uniqueness_settled: dict[int, tuple] = {}
        self._ready: list[int] = []  # each player's ready resources (402.4a) as counted at READY_CLOCK `_ready_at`
        self._ready_at = -1
        self._sides_of: list[tuple | None] = [None] * len(heroes)  # each player's `_sides`, with PARTY_CLOCK then
        # Each player's `combat.open_defenders` of the others' side, with
        # PARTY_CLOCK then: what it reads (controllers, keywords, which follow
        # from cards in play and their hosts) ticks that clock when it changes.
        self._defenders_of: list[tuple | None] = [None] * len(heroes)
        # Each player's proposals at his last main-phase choice, with what
        # they read that PARTY_CLOCK does not stand for (`_priority_actions`).
        self._attacks_of: list[tuple | None] = [None] * len(heroes)
        # `legal_targets` of each kind, controller and X, as listed at PARTY_CLOCK `_targets_at`.
        self._targets: dict[tuple, list[int]] = {}
        self._targets_at = -1
        # 409.2: each priority action offered so far (and armor's choices,
        # 304.2), by what it is made of and what its label reads; an action
        # is an immutable value, and building one (its label above all)
        # costs more than finding it.
        self._offers: dict[tuple, Action] = {}
        # The two most frequent offers, by the card's id alone, with no key
        # to build: a card of his hand placed face down as a resource (410.1),
        # and one played from his hand with no target and no X. A hand is its
        # owner's (413.1), so the id names the player too.
        self._placings: dict[int, Action] = {}
        self._plays: dict[int, Action] = {}
        # Each proposal offered (601.2), by attacker, then by defender,
        # proposing player and the defender's controller (`_priority_actions`).
        self._proposals: dict[int, dict[int, Action]] = {}
        # The priority actions `legal_actions` last returned, until the state
        # next acts: each was built only once the rules allowed it (409.2).
        self._offered: list[Action] | None = None
        for index, (hero, deck) in enumerate(zip(heroes, decks)):
            hero_obj = self._new_obj(pool[hero], index, "play")  # 101.1, 301.1
            self.play.append(hero_obj.id)
            self.party.append(hero_obj.id)
            if hero_obj.card.pays:
                self.payment_sources.append(hero_obj.id)
            for name in hero_obj.card.power_names:
                self.powers_in_play.setdefault(name, []).append(hero_obj.id)
            player = Player(index, hero_obj.id)
            self.players.append(player)
            # `_new_obj` written out for the forty cards or more of a deck.
            known, objs, made, ids = pool.cards, self.objs, Obj.made, player.deck
            for name in deck:
                o = made(len(objs), known.get(name) or pool[name], index, "deck")  # pool[name] names an unknown card
                objs.append(o)
                ids.append(o.id)
            for name in set(deck):
                self.powers_in_game |= known[name].power_names
            self.rng.shuffle(player.deck)  # 101.1, 413.4b
        # 409.2: each player's pass, offered at every grant of priority; an
        # action is an immutable value, so one object per player serves.
        self.pass_actions = [Action("pass", p.index, label=f"{p.name} passes") for p in self.players]
        if start:
            self._choose_first_player()

    def _choose_first_player(self) -> None:
        # 101.1: a random player chooses who goes first.
        chooser = self.rng.randrange(len(self.players))
        self.decide(Decision("first_player", chooser, [
            Action("first_player", chooser, option=p.index, label=f"{self.pname(chooser)} chooses {p.name} to go first")
            for p in self.players
        ], "101.1"))

    # --- the protocol ---------------------------------------------------------

    def current_player(self) -> int:
        """The player to act; -4 (OpenSpiel's terminal id) when the game is over."""
        if self.over:
            return -4
        if self.decision is not None:
            return self.decision.player
        return self.priority

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for each loser, 0 for those who drew (102.1,
        102.1a). With three or more players this is general-sum, as the rules
        know only win, lose and draw; a player who left before a draw keeps -1."""
        return [{"won": 1.0, "lost": -1.0}.get(p.result, 0.0) for p in self.players]

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        if self.decision is not None:
            return list(self.decision.options)
        offered = self._offered = self._priority_actions()
        return offered[:]  # the caller's own list: what he adds to it was never offered

    def apply_action(self, action: Action) -> None:
        offered = self._offered
        if offered is not None and self.decision is None and not self.over:
            # An action from the list just offered, the very object, was built
            # only once the rules allowed it (`_priority_actions`): asking
            # `_problem` again would find nothing. The list is kept only while
            # the state stands as it was offered in (`legal_actions`), so the
            # checks below (409.1, 102.1) would find nothing either.
            for a in offered:
                if a is action:
                    self._offered = None
                    self.history.append(action.label or str(action))
                    self._act(action)
                    if self.priority is None:  # `_run` would stop at once while a player holds priority
                        self._run()
                    return
        if not isinstance(action, Action):
            raise IllegalAction("409.1", f"not an action: {action!r}", repr(action), str(self))
        if self.over:
            raise IllegalAction("102.1", "the game is over", action, str(self))
        if self.decision is not None:
            options = self.decision.options
            for taken in options:  # mostly the very object offered: found without comparing values
                if taken is action:
                    break
            else:
                if action not in options:
                    raise IllegalAction(self.decision.rule, f"{self.pname(self.decision.player)} must {self.decision.kind}: "
                                        f"one of {[str(o) for o in options]}", action, str(self))
                taken = options[options.index(action)]
            decision, self.decision = self.decision, None
            self._offered = None
            self.history.append(str(taken))
            self._answer(decision, action)
        else:
            # An action not taken from the list just offered is asked whether
            # it is well formed (409.1), then what the rules say; the priority
            # holder's pass is this state's own object, well formed by construction.
            own_pass = self.priority is not None and action is self.pass_actions[self.priority]
            problem = (None if own_pass else self._malformed(action)) or self._problem(action)
            if problem is not None:
                raise IllegalAction(problem[0], problem[1], action, str(self))
            self._offered = None
            self.history.append(action.label or str(action))
            self._act(action)
        if self.priority is None:  # `_run` would stop at once while a player holds priority
            self._run()

    def find(self, name: str, player: int | None = None, zone: str = "play") -> Obj:
        """The first card of that name in the zone (of that player, if given):
        for tests and scenarios that name cards rather than ids."""
        for o in self.objs:
            if o.card.name == name and o.zone == zone and (player is None or o.controller == player):
                return o
        raise KeyError(f"no {name!r} in {zone}" + (f" for {self.pname(player)}" if player is not None else ""))

    def action_to_string(self, action: Action) -> str:
        return str(action)

    def clone(self) -> GameState:
        """A copy that plays on exactly as a deep copy would, made by hand
        because deepcopy is slow. What never changes is shared: the pool and
        its cards (with their powers and steps), actions, strings and
        tuples. A link or a packet can be held in several places at once (the
        resolving link is also in a task and in a decision), so each is
        copied once and the copy held in all of them, as deepcopy's memo does."""
        same: dict[int, Link | Packet] = {}

        def copied(value):
            if isinstance(value, (Link, Packet)):
                twin = same.get(id(value))
                if twin is None:
                    twin = same[id(value)] = value.copy()
                return twin
            return value

        # Every field of __init__, each set here (tests/engine/test_clone.py checks none is missed).
        new = GameState.__new__(GameState)
        new.pool = self.pool
        new.teams = self.teams
        new.rng = random.Random.__new__(random.Random)  # setstate seeds it: no need to seed it from the OS first
        new.rng.setstate(self.rng.getstate())
        new.objs = [o.copy() for o in self.objs]
        new.tokens = list(self.tokens)
        new.powers_in_game = set(self.powers_in_game)
        new.powers_in_play = {name: list(ids) for name, ids in self.powers_in_play.items()}
        new.payment_sources = list(self.payment_sources)
        new.players = [p.copy() for p in self.players]
        new.seated = self.seated
        new.instants_in_hand = list(self.instants_in_hand)
        new.play = list(self.play)
        new.party = list(self.party)
        new.resource_row = list(self.resource_row)
        new.chain = [copied(link) for link in self.chain]
        new.waiting = [w.copy() for w in self.waiting]
        new.tasks = [tuple(map(copied, task)) for task in self.tasks]
        new.decision = self.decision.copy(copied) if self.decision is not None else None
        new.priority = self.priority
        new.passes = self.passes
        new.step = self.step
        new.turn_player = self.turn_player
        new.first_player = self.first_player
        new.turn_number = self.turn_number
        new.combat = self.combat.copy() if self.combat is not None else None
        new.turn_modifiers = list(self.turn_modifiers)
        new.resolving = copied(self.resolving)
        new.over = self.over
        new.history = list(self.history)
        new._next_link = self._next_link
        # Compared, never changed in place; copied anyway so that no list is shared.
        new._settled = None if self._settled is None else tuple(list(facts) for facts in self._settled)
        new._settled_at = self._settled_at  # the copy reads the same facts as this state
        new.uniqueness_settled = dict(self.uniqueness_settled)  # of tuples
        new._ready = list(self._ready)
        new._ready_at = self._ready_at  # the copy's resources are this state's
        new._sides_of = [  # the copy's own cards, as they were sorted here
            None if sides is None else (sides[0], *([new.objs[o.id] for o in cards] for cards in sides[1:]))
            for sides in self._sides_of
        ]
        new._defenders_of = [
            None if found is None else (found[0], [(new.objs[d.id], sabotage) for d, sabotage in found[1]], found[2])
            for found in self._defenders_of
        ]
        new._attacks_of = [None if last is None else (*last[:2], list(last[2]), last[3], list(last[4])) for last in self._attacks_of]
        new._targets = {key: list(targets) for key, targets in self._targets.items()}
        new._targets_at = self._targets_at  # the copy's cards in play are this state's
        new.pass_actions = list(self.pass_actions)
        new._offers = dict(self._offers)
        new._placings = dict(self._placings)
        new._plays = dict(self._plays)
        new._proposals = {attacker: dict(made) for attacker, made in self._proposals.items()}
        new._offered = None if self._offered is None else list(self._offered)  # offered in the same state
        return new

    def concede(self, player: int) -> None:
        """102.1b: a player may concede at any time, and leaves the game.
        Reading: "at any time" includes when others must act, so conceding is
        a method, not one of the legal actions offered to the player to act."""
        if self.over or not self.players[player].in_game:
            raise IllegalAction("102.1b", f"{self.pname(player)} is not in the game", f"concede {player}", str(self))
        self._offered = None
        self.history.append(f"{self.pname(player)} concedes")
        held_priority = self.priority == player
        if self.decision is not None and self.decision.player == player:
            self.decision = None  # his pending choice goes with him
        self.players_lose([player])
        if self.over:
            return
        if held_priority:
            self.priority = None
            self.passes = 0
            self.tasks.append(("give_priority", self.next_clockwise(player)))
        self._run()
        if not self.over and self.priority is None and self.decision is None:
            self.tasks.append(("give_priority", self.turn_player))
            self._run()

    # --- names ----------------------------------------------------------------

    def pname(self, player: int) -> str:
        return SEAT_NAMES[player]

    def describe(self, o: Obj) -> str:
        return f"{SEAT_NAMES[o.controller]}'s {o.name}"

    def __str__(self) -> str:
        lines = [
            f"turn {self.turn_number}: {self.pname(self.turn_player)}; step {self.step}; "
            f"priority {self.pname(self.priority) if self.priority is not None else 'nobody'}; passes {self.passes}",
            "chain: " + (", ".join(self._link_text(link) for link in self.chain) or "empty"),
        ]
        if self.combat:
            c = self.combat
            role = "defender" if c.defending else "proposed defender"
            att = self.objs[c.attacker].name if c.attacker is not None else "none"
            dfd = self.objs[c.defender].name if c.defender is not None else "none"
            lines.append(f"combat: attacker {att}, {role} {dfd}{' (sabotage)' if c.sabotage else ''}")
        for p in self.players:
            party = []
            for oid in self.play:
                o = self.objs[oid]
                if o.controller == p.index:
                    bits = [o.name]
                    if o.damage:
                        bits.append(f"{o.damage} damage")
                    if o.exhausted:
                        bits.append("exhausted")
                    if o.attached_to is not None:
                        bits.append(f"on {self.objs[o.attached_to].name}")
                    party.append(" ".join(bits) if len(bits) == 1 else f"{bits[0]} ({', '.join(bits[1:])})")
            status = p.result or "playing"
            lines.append(f"{p.name} [{status}] hand {len(p.hand)}, deck {len(p.deck)}, graveyard {len(p.graveyard)}: "
                         + "; ".join(party))
        if self.decision:
            lines.append(f"waiting: {self.pname(self.decision.player)} to choose ({self.decision.kind}, {self.decision.rule})")
        return "\n".join(lines)

    def _link_text(self, link: Link) -> str:
        if link.kind == "proposal":
            return f"{self.pname(link.controller)} proposal {self.objs[link.attacker].name} -> {self.objs[link.defender].name}"
        if link.kind == "reward":  # the quest is face down by now; its reward is still its own (CR7.4 702.2)
            return f"{self.pname(link.controller)} reward {self.objs[link.source].card.name}"
        source = self.objs[link.source].name if link.source is not None else "?"
        return f"{self.pname(link.controller)} {link.kind} {source}"

    # --- seats ----------------------------------------------------------------

    def friendly(self, player: int, other: int) -> bool:
        """CR7.4 glossary, "Friendly": the same player or a teammate."""
        return self.teams[player] == self.teams[other]

    def next_clockwise(self, player: int) -> int:
        """409.1: the next player clockwise still in the game."""
        players = self.players
        n = len(players)
        q = (player + 1) % n
        if players[q].in_game:  # the neighbour: asked at every pass
            return q
        for step in range(2, n + 1):
            q = (player + step) % n
            if players[q].in_game:
                return q
        return player

    def clockwise_from(self, player: int) -> tuple[int, ...]:
        """409.1: the players still in the game, clockwise from `player`."""
        n = len(self.players)
        if self.seated == n:  # nobody has left: every seat, from his, the same order every time
            return EVERY_SEAT_FROM[n][player]
        return tuple((player + i) % n for i in range(n) if self.players[(player + i) % n].in_game)

    def in_game_count(self) -> int:
        return self.seated

    # --- objects and zones ----------------------------------------------------

    def _new_obj(self, card: Card, owner: int, zone: str, token: bool = False) -> Obj:
        o = Obj.made(len(self.objs), card, owner, zone, token)
        self.objs.append(o)
        self.powers_in_game |= card.power_names
        if token:
            self.tokens.append(o.id)
        return o

    def cards_in_play(self) -> list[Obj]:
        """Cards and tokens in play other than resources: a face-down resource is
        blank (410.1b), and a resource is used only to pay (402.4a)."""
        objs = self.objs
        return [objs[oid] for oid in self.party]

    def move(self, o: Obj, zone: str) -> None:
        """Move a card out of its zone into `zone` of its owner (413.2). Its
        id is in no list but the one its zone names (`Obj.zone`), so only that
        one is searched; it may be in none (a card made for the move, or one
        `leave_play` has already taken out of play)."""
        owner = self.players[o.owner]
        if zone == "graveyard" and self.turn_modifiers and self.removed_instead_of_graveyard(o):
            zone = "removed"  # Readiness's replacement
            self.history.append(f"{o.name} is removed from the game instead of entering the graveyard (413.8a)")
        where = o.zone
        pile = self.play if where == "play" else getattr(owner, where) if where in PILES else None
        if pile and (pile[-1] == o.id or o.id in pile):  # the last first: the top of a deck, drawn
            if pile[-1] == o.id:
                pile.pop()
            else:
                pile.remove(o.id)
            if where == "hand" and o.card.instant:
                self.instants_in_hand[o.owner] -= 1
        if where == "play":
            row = self.resource_row if o.resource else self.party
            if o.id in row:
                row.remove(o.id)
            if o.card.pays and o.id in self.payment_sources:
                self.payment_sources.remove(o.id)
            for name in o.card.power_names:
                ids = self.powers_in_play.get(name)
                if ids and o.id in ids:
                    ids.remove(o.id)
        # `o.zone = zone` with the ticks `Obj.__setattr__` makes for it written
        # out, as every move comes here: what is ready to pay changes with a
        # resource's zone; play changes unless a bare resource enters or leaves it.
        if o.resource:
            counted = self._ready_at == READY_CLOCK[0]
            READY_CLOCK[0] += 1
            if counted:
                # The count of ready resources held before: it holds with this
                # one counted where it goes (402.4a: a ready resource in play).
                if not o.exhausted:
                    self._ready[o.controller] += (zone == "play") - (where == "play")
                self._ready_at = READY_CLOCK[0]
        if (where == "play" or zone == "play") and (not o.resource or o.damage or o.attached_to is not None):
            BOARD_CLOCK[0] += 1
            PARTY_CLOCK[0] += 1
        object.__setattr__(o, "zone", zone)
        if zone == "play":
            self.play.append(o.id)
            (self.resource_row if o.resource else self.party).append(o.id)
            if o.card.pays and (o.face_up or not o.resource):  # a face-down resource is blank (410.1b) and stays so
                self.payment_sources.append(o.id)
            for name in o.card.power_names:
                self.powers_in_play.setdefault(name, []).append(o.id)
        elif zone in PILES:
            getattr(owner, zone).append(o.id)
            if zone == "hand" and o.card.instant:
                self.instants_in_hand[o.owner] += 1

    def removed_instead_of_graveyard(self, o: Obj) -> bool:
        """Readiness: this turn an ability that would enter its owner's
        graveyard is removed from the game instead. A face-down resource is
        blank as it leaves play (410.1b), no ability, so it goes to the
        graveyard (000 410.1b example: Nalonae's alternate cost)."""
        if o.card.type != "ability" or (o.resource and not o.face_up):
            return False
        hero = self.players[o.owner].hero
        return any(what == "abilities_removed_instead_of_graveyard" and oid == hero for what, oid, _ in self.turn_modifiers)

    def may_play_from_graveyard(self, player: int) -> bool:
        """Readiness: this turn he may play abilities from his graveyard."""
        hero = self.players[player].hero
        return any(what == "abilities_from_graveyard" and oid == hero for what, oid, _ in self.turn_modifiers)

    def enter_play(self, o: Obj, controller: int, attached_to: int | None = None, watched: bool = True) -> None:
        """CR7.4 710.1: enters play under its controller, new to his party,
        exhausted if it says so (CR7.4 710.1b); then uniqueness is checked (CR7.4 710.1f).
        `watched`: the powers watching it enter trigger now; cards that enter
        together are watched once all of them are in (`entered_play`)."""
        # Its fields are set before it moves in, where neither the checks
        # (`_checked_facts`) nor a count of ready resources reads them: set
        # plainly, with no tick of the clocks (`Obj.__setattr__`); the move
        # into play ticks what entering changes, and nothing for a bare
        # resource, the most frequent entry.
        assert o.zone != "play", f"{o!r} is in play already"
        plain = object.__setattr__
        plain(o, "controller", controller)
        plain(o, "entered_by", controller)
        plain(o, "joined_turn", self.turn_number)
        plain(o, "attached_to", attached_to)
        # A face-down resource is blank (410.1b): no power of its card applies as it enters.
        plain(o, "exhausted", not o.resource and "enters_play_exhausted" in o.card.continuous_powers)
        self.move(o, "play")
        if attached_to is not None and o.card.has_continuous("control_attached"):
            self.recompute_control(self.objs[attached_to])
        if watched:
            self.entered_play(o)

    def entered_play(self, o: Obj) -> None:
        """The powers watching a card enter play trigger, judged just after it
        entered (CR7.4 703.4); a face-down resource is blank (410.1b)."""
        if o.resource:
            return
        effects.trigger_event(self, "this_enters_play", lambda s: s.id == o.id)
        if o.card.type == "ally":
            effects.trigger_event(self, "opposing_ally_enters_play", lambda s: not self.friendly(s.controller, o.controller), ally=o.id)

    def create_token(self, controller: int, step) -> None:
        """403.2: a token ally enters play under the effect's controller."""
        o = self._new_obj(token_card(step), controller, "play", token=True)
        o.zone = "chain"  # not yet anywhere; enter_play moves it
        self.enter_play(o, controller)

    def create_token_copy(self, controller: int, card: Card) -> None:
        """403.2: a token copy of a card (Highborne Soul Mirror) enters play
        under the effect's controller, with the card's printed facts but a
        cost of 0, as every token's (CR7.4 402.4)."""
        o = self._new_obj(token_copy(card), controller, "play", token=True)
        o.zone = "chain"  # not yet anywhere; enter_play moves it
        self.enter_play(o, controller)

    def set_controller(self, o: Obj, player: int) -> None:
        """401.3: a card whose controller changes moves to his party, leaves
        combat (602.4) and is new to that party (302.2)."""
        if o.controller == player:
            return
        self.remove_from_combat(o.id)
        o.controller = player
        o.joined_turn = self.turn_number

    def recompute_control(self, host: Obj) -> None:
        """401.3b: the latest control effect still attached wins; with none,
        the player who put the card into play controls it."""
        controllers = [
            self.objs[oid].controller for oid in self.play
            if self.objs[oid].attached_to == host.id and self.objs[oid].card.has_continuous("control_attached")
        ]
        if host.id in self.play:
            self.set_controller(host, controllers[-1] if controllers else host.entered_by)

    def remove_from_combat(self, oid: int) -> None:
        """602.4: it stops being attacker or defender; the combat goes on."""
        c = self.combat
        if c is None:
            return
        if c.attacker == oid:
            c.attacker = None
        if c.defender == oid:
            c.defender = None

    def ready_resources(self, player: int) -> int:
        """402.4a: the resources he could exhaust to pay. Counted for every
        player at once, and again only once a field it reads was set
        (`READY_CLOCK`): it is asked before most choices, where mostly
        nothing was exhausted, readied or moved since."""
        if self._ready_at != READY_CLOCK[0]:
            counts = [0] * len(self.players)
            objs = self.objs
            for oid in self.resource_row:
                o = objs[oid]
                if not o.exhausted:
                    counts[o.controller] += 1
            self._ready, self._ready_at = counts, READY_CLOCK[0]
        return self._ready[player]

    def pay(self, player: int, amount: int) -> None:
        """402.4a: exhaust that many ready resources. Reading: resources are
        interchangeable for paying, so the earliest placed are used."""
        if amount == 0:
            return
        counted = self._ready_at == READY_CLOCK[0]
        READY_CLOCK[0] += 1  # for every resource exhausted below, set plainly (`Obj.__setattr__`)
        left = amount
        for oid in self.resource_row:
            if left == 0:
                break
            o = self.objs[oid]
            if o.controller == player and not o.exhausted:
                object.__setattr__(o, "exhausted", True)
                left -= 1
        if counted:  # the count of ready resources held before: it holds with those exhausted
            self._ready[player] -= amount - left
            self._ready_at = READY_CLOCK[0]

    def fits_attach(self, attachment: Obj, host: Obj, in_play: bool = False) -> bool:
        """400.1 / 409.6d: does this host fit the attach description? In play
        Mind Control's X is 0 (000 400.4d example), so it fits cost-0 allies."""
        if host.id not in self.play or not effects.is_character(host):
            return False
        kind = attachment.card.attach
        if kind == "ally":
            return host.card.type == "ally"
        if kind == "ally_cost_x":
            return host.card.type == "ally" and (in_play or host.card.cost == 0)
        if kind == "hero":
            return host.card.type == "hero"
        # "Hero or ally": a totem, though targeted as if an ally, is neither
        # (000 306.3a and 409.6d examples).
        if host.card.is_totem:
            return False
        if kind == "character_you_control":
            return host.controller == attachment.controller
        return kind == "character"

    # --- targets (CR7.4 706, CR7.4 707.1d, CR7.4 709.2a) ----------------------------------

    def legal_targets(self, kind: str, controller: int, x: int | None = None) -> list[int]:
        """The legal targets of this kind for this controller (CR7.4 706.1),
        in the order of play; the caller does not change the list. What they
        read of cards in play (which are there, their types, controllers and
        hosts) and the players still in the game ticks PARTY_CLOCK when it
        changes, so each kind is listed once until it ticks; a graveyard is
        not in play and is read every time."""
        if kind == "ally_in_your_graveyard":
            return self._listed_targets(kind, controller, x)
        if self._targets_at != PARTY_CLOCK[0]:
            self._targets, self._targets_at = {}, PARTY_CLOCK[0]
        key = (kind, controller, x)
        targets = self._targets.get(key)
        if targets is None:
            targets = self._targets[key] = self._listed_targets(kind, controller, x)
        return targets

    def _listed_targets(self, kind: str, controller: int, x: int | None) -> list[int]:
        targets = self._described(kind, controller, x)
        if kind != "player" and "attached_untargetable" in self.powers_in_game:
            # CR7.4 706.1: an untargetable card in play can't be chosen (Blessing of Freedom's host).
            shielded = effects.hosts_of(self, "attached_untargetable")
            targets = [t for t in targets if t not in shielded]
        return targets

    def _described(self, kind: str, controller: int, x: int | None) -> list[int]:
        """What meets a target description (CR7.4 706.1)."""
        if kind == "player":
            return [p.index for p in self.players if p.in_game]
        if kind == "attached_ability":  # a resource has no host (410.1b): the other cards in play are read
            return [o.id for o in self.cards_in_play() if o.card.type == "ability" and o.attached_to is not None]
        if kind == "ability_in_play":  # 413.3: an ability named without a zone is one in play
            return [o.id for o in self.cards_in_play() if o.card.type == "ability"]
        if kind == "character":  # hero or ally; a totem in play is targeted as if an ally (306.3a)
            return [o.id for o in effects.characters_in_play(self)]
        if kind == "character_you_control":
            return [o.id for o in effects.characters_in_play(self) if o.controller == controller]
        if kind == "armor":
            return [o.id for o in self.cards_in_play() if o.card.type == "armor"]
        if kind == "ally_in_your_graveyard":
            # 413.3: a card named in another zone; a totem card there is an
            # ability, not an ally (000 306.3a example: Resurrection).
            return [oid for oid in self.players[controller].graveyard if self.objs[oid].card.type == "ally"]
        out = []
        for o in effects.characters_in_play(self):
            if kind == "hero" and o.card.type != "hero":
                continue
            if kind in ("ally", "ally_cost_x", "ally_you_control") and not o.card.targetable_as_ally:
                continue
            if kind == "ally_you_control" and o.controller != controller:
                continue
            if kind == "ally_cost_x" and x is not None and o.card.cost != x:
                continue
            out.append(o.id)
        return out

    def target_still_legal(self, link: Link, target: int) -> bool:
        kind = self._target_kind(link)
        if kind == "player":
            return self.players[target].in_game
        if kind == "ally_cost_x":
            return target in self.legal_targets(kind, link.controller, link.x)
        return target in self.legal_targets(kind, link.controller)

    def _target_kind(self, link: Link) -> str | None:
        if link.kind in ("payment", "trigger", "reward"):
            return link.power.target
        if link.kind == "card" and link.source is not None and self.objs[link.source].card.effect:
            return self.objs[link.source].card.effect.target
        return None

    # --- the task loop ----------------------------------------------------------

    def push(self, task: tuple) -> None:
        """Put a task on the stack (`_run`); the state's own methods append to `tasks` directly."""
        self.tasks.append(task)

    def decide(self, decision: Decision) -> None:
        self.decision = decision

    def _run(self) -> None:
        """Carry out tasks until a player must choose or the game ends. A task
        whose last act would push the task to run next calls that one at once
        instead: the same order, without the trip through the stack."""
        tasks = self.tasks
        while tasks and self.decision is None and self.priority is None and not self.over:
            task = tasks.pop()
            # Looked up on the instance, not bound once: a test may replace a task's method.
            method = getattr(self, TASK_METHODS[task[0]])
            if len(task) == 1:  # most tasks take nothing: no tuple of arguments to build
                method()
            else:
                method(*task[1:])

    # 409.5: before a player receives priority, the checks run in batches,
    # then waiting triggered effects go on the chain, then he gets priority.
    def _t_give_priority(self, player: int) -> None:
        if self._settled_at == BOARD_CLOCK[0] and not self.waiting:
            # Nothing the checks read was even set, no trigger waits: he gets
            # priority (`_t_grant`, written out: this follows most passes).
            if not self.players[player].in_game:
                player = self.next_clockwise(player)
            assert not self.tasks, f"tasks left when granting priority: {self.tasks}"
            self.priority = player
            return
        at = BOARD_CLOCK[0]
        board = self._checked_facts()
        if board == self._settled:  # nothing the checks read has changed: they would find nothing
            self._settled_at = at
            if not self.waiting:
                self._t_grant(player)
            else:
                self.tasks.append(("grant", player))
                self.tasks.append(("add_triggers",))
            return
        self.tasks.append(("grant", player))
        self.tasks.append(("add_triggers",))
        self._t_ppp(board, at)  # at once: nothing can change the facts before it reads them
        if self._settled is board and not self.waiting:
            # The checks found nothing and no trigger waits: the two tasks
            # just pushed, all there is on the stack, would only grant.
            del self.tasks[-2:]
            self._t_grant(player)

    def _t_ppp(self, board: tuple | None = None, at: int = -1) -> None:
        """`board`: the checked facts as they are now, when the caller has
        just read them, at BOARD_CLOCK `at`, and found them changed."""
        # Reading: uniqueness is checked continuously (CR7.4 414.1); checking
        # before every batch catches each card that entered play (CR7.4 710.1f).
        if board is None:
            at = BOARD_CLOCK[0]
            board = self._checked_facts()
            if board == self._settled:
                self._settled_at = at
                return  # the same facts as the last check that found nothing: nothing to find
        objs = self.objs
        since = self._changed_since_settled(board)
        if since is None or since[1]:
            every = [objs[fact[0]] for fact in board[0]]  # what the checks read of play, in its order
            checks.check_uniqueness(self, every)
            if self.decision is not None:
                self.tasks.append(("ppp",))
                return
        cards = every if since is None else since[0]
        if checks.ppp_batch(self, cards, standing_settled=since is not None):
            self.tasks.append(("ppp",))
        else:
            self._settled, self._settled_at = board, at

    def _changed_since_settled(self, board: tuple) -> tuple[list[Obj], bool] | None:
        """What changed in `board` since the last check that found nothing,
        when all that changed is some cards' damage and cards that entered
        play with no continuous power and no host: those cards, in the order
        of play, and whether one of the new ones is bound by uniqueness; None
        otherwise. Then, for the cards that were there, nothing the checks
        read changed but damage: the same cards under the same controllers
        with the same hosts, the same players and tokens, and no new power
        that changes health, destruction or powers (CR7.4 704). Uniqueness
        reads no damage (412), so it finds nothing again unless a new card
        is bound by it; and 409.6 finds in these cards all it would find in
        play (409.6a-b, 409.6f), and nothing else (409.6c-e). The most
        frequent changes before a grant of priority: a combat's or a link's
        damage, a card that entered play."""
        settled = self._settled
        if settled is None or settled[1] != board[1] or settled[2] != board[2]:
            return None
        before, now = settled[0], board[0]
        if len(now) < len(before):
            return None
        objs = self.objs
        changed = []
        # Compared whole first, in one go: most often cards only entered play.
        for was, fact in () if now[:len(before)] == before else zip(before, now):
            if was != fact:
                if was[0] != fact[0] or was[1] != fact[1] or was[2] != fact[2] or was[4] != fact[4]:
                    return None
                changed.append(objs[fact[0]])
        bound = False
        for fact in now[len(before):]:
            o = objs[fact[0]]
            if fact[2] or fact[4] is not None or o.card.continuous_powers:  # a resource, a host, a continuous power
                return None
            bound = bound or o.card.bound_by_uniqueness
            changed.append(o)
        return changed, bound

    def _checked_facts(self) -> tuple:
        """Everything uniqueness (412) and the pre-priority checks (409.6) read:
        the cards in play in order, each with its controller, resource flag,
        damage and host, and each player's standing (a card's definition and a
        player's hero never change; a token outside play, 409.6e, has left
        play). Equal facts give equal findings, so a check is skipped when
        nothing it reads changed since one found nothing; a new check there
        must add what it reads here, and the fields it reads to those whose
        setting ticks BOARD_CLOCK (objects.py). A resource with no damage
        and no host is left out: no check finds anything in it (uniqueness
        and 409.6a-b read no resource, 402.4a, 410.1b; 409.6d and 409.6f
        need a host or damage), and as a host it fits nothing, like a card
        out of play (409.6d), so placing one, the most frequent change of
        play, leaves the facts as they were. A token that entered and left
        play between two checks (a token copy destroyed by uniqueness, 412)
        leaves the cards in play as they were, so the tokens outside play
        are read too (409.6e). The rules put neither damage nor a host on a
        resource, so the resource row is looked over for one only once some
        resource has held one (`RESOURCE_MARKED`)."""
        objs = self.objs
        if RESOURCE_MARKED[0] and any(o.damage or o.attached_to is not None for o in map(objs.__getitem__, self.resource_row)):
            # Read in its place in play.
            facts = [(o.id, o.controller, o.resource, o.damage, o.attached_to) for o in map(objs.__getitem__, self.play)
                     if not o.resource or o.damage or o.attached_to is not None]
        else:
            # The party holds no resource (`move`): each of its cards is read.
            facts = [((seen := objs[oid]).id, seen.controller, seen.resource, seen.damage, seen.attached_to) for oid in self.party]
        return (
            facts,
            [(p.in_game, p.drew_from_empty) for p in self.players],
            [tid for tid in self.tokens if objs[tid].zone not in ("play", "gone")],
        )

    def _t_add_triggers(self) -> None:
        """CR7.4 708.1a: the turn player's waiting effects go on first, in the
        order he chooses, then each next player's clockwise."""
        if not self.waiting:
            return
        self.tasks.append(("add_triggers",))
        for p in self.clockwise_from(self.turn_player):
            mine = [i for i, w in enumerate(self.waiting) if w.controller == p]
            if not mine:
                continue
            if len(mine) == 1:
                self._add_trigger(mine[0])
            else:
                self.decide(Decision("order_trigger", p, [
                    Action("order_trigger", p, option=i, label=f"{self.pname(p)} adds {self.objs[self.waiting[i].source].name}'s effect next")
                    for i in mine
                ], "CR7.4 708.1a"))
            return
        self.waiting.clear()  # only players who left had some

    def _add_trigger(self, index: int) -> None:
        w = self.waiting.pop(index)
        source = self.objs[w.source]
        event = dict(w.event)
        if source.attached_to is not None:
            event["attached"] = source.attached_to  # last known host (CR7.4 709.2d)
        link = Link(self._link_id(), "trigger", w.controller, w.source, power=w.power, event=event)
        if w.power.target:
            targets = self.legal_targets(w.power.target, w.controller)
            if not targets:
                return  # CR7.4 708.2: with no legal target it ceases to exist
            self.decide(Decision("trigger_target", w.controller, [
                Action("trigger_target", w.controller, t, label=f"{self.pname(w.controller)} targets {self._target_name(w.power.target, t)} with {source.name}'s effect")
                for t in targets
            ], "CR7.4 708.2", {"link": link}))
            return
        self.chain.append(link)

    def _target_name(self, kind: str, t: int) -> str:
        if kind == "player":
            return self.pname(t)
        if kind == "ally_in_your_graveyard":
            return f"{self.objs[t].name} in {self.pname(self.objs[t].owner)}'s graveyard"
        return self.describe(self.objs[t])

    def _t_grant(self, player: int) -> None:
        if not self.players[player].in_game:
            player = self.next_clockwise(player)
        assert not self.tasks, f"tasks left when granting priority: {self.tasks}"
        self.priority = player

    def _link_id(self) -> int:
        self._next_link += 1
        return self._next_link

    # --- windows and the turn (501-503) -------------------------------------------

    def _t_open_window(self, step: str) -> None:
        """409.4: a window opens and the turn player gets priority first."""
        self.step = step
        self.passes = 0
        self._t_give_priority(self.turn_player)

    def _t_close_window(self) -> None:
        """409.4b: the window closes and the game moves to its next part."""
        step = self.step
        if step == "ready_step":
            self._t_draw_step()
        elif step == "draw_step":
            self._t_open_window("action_phase")  # 502.1
        elif step == "action_phase":
            self._t_open_window("end_phase")  # 503.1
        elif step == "end_phase":
            self._t_end_step()
        elif step == "attack_window":
            self.tasks.append(("after_protect",))  # 602.2
            self._t_protect_point()
        elif step == "defend_window":
            self._t_conclude()  # 603

    def _t_begin_turn(self, player: int) -> None:
        """501.1a: the ready step. The turn player readies his cards (not an
        ally Entangling Roots holds); other players' inspire powers ready one
        of their cards each; "at the start of your turn" powers trigger."""
        self.turn_number += 1
        self.turn_player = player
        self.players[player].last_turn_start = self.turn_number
        self.step = "ready_step"
        held = {
            self.objs[oid].attached_to for oid in self.play
            if self.objs[oid].card.has_continuous("attached_cant_ready") and self.objs[oid].attached_to is not None
        } if "attached_cant_ready" in self.powers_in_game else ()
        counted = self._ready_at == READY_CLOCK[0]
        READY_CLOCK[0] += 1  # for every card readied below, set plainly (`Obj.__setattr__`)
        readied = 0
        plain = object.__setattr__
        # Resources too: they are in play (413.9a).
        for o in [o for o in map(self.objs.__getitem__, self.play) if o.exhausted and o.controller == player]:
            if o.id not in held:
                plain(o, "exhausted", False)
                readied += o.resource
        if counted:  # the count of ready resources held before: it holds with those readied
            self._ready[player] += readied
            self._ready_at = READY_CLOCK[0]
        effects.trigger_event(self, "start_of_your_turn", lambda s: s.controller == player)
        self.tasks.append(("open_window", "ready_step"))  # 501.1b
        for other in reversed(self.clockwise_from(player)[1:]):
            for source in effects.sources_in_play(self, "inspire_ally", other):
                self.tasks.append(("inspire", other, source.id))

    def _t_inspire(self, player: int, source: int) -> None:
        # Reading: inspire readies at the same time as the turn player's cards
        # (501.1a); asking each inspiring card in turn gives the same result,
        # since each readies only its own controller's cards.
        options = [
            Action("inspire", player, o.id, label=f"{self.pname(player)} readies {o.name} (inspire)")
            for o in self.cards_in_play()
            if o.controller == player and o.card.type == "ally" and o.exhausted
        ]
        if options:
            options.append(Action("inspire", player, None, label=f"{self.pname(player)} readies nothing"))
            self.decide(Decision("inspire", player, options, "501.1a"))

    def _t_draw_step(self) -> None:
        """501.2a: the turn player draws, then the step's window opens.
        501.2b: the first player skips the whole draw step of the first turn,
        its window too, and his action phase begins (502.1)."""
        if self.turn_player == self.first_player and self.turn_number == 1:
            self._t_open_window("action_phase")
            return
        self.step = "draw_step"
        self.draw(self.turn_player)
        self._t_open_window("draw_step")

    def draw(self, player: int) -> None:
        p = self.players[player]
        if not p.deck:
            p.drew_from_empty = True  # 409.6c: he loses at the next check
            return
        self.move(self.objs[p.deck[-1]], "hand")

    def _t_discard_for_effect(self, player: int, count: int) -> None:
        """A card's text makes a player discard `count` cards: he chooses
        each from his hand, one at a time (413.6a); an empty hand ends it."""
        p = self.players[player]
        if count < 1 or not p.in_game or not p.hand:
            return
        self.tasks.append(("discard_for_effect", player, count - 1))
        self.decide(Decision("discard_for_effect", player, [
            Action("discard", player, oid, label=f"{p.name} discards {self.objs[oid].name}") for oid in p.hand
        ], "413.6a"))

    def _t_end_step(self) -> None:
        """503.2a: no priority. Discard to the hand limit, end "this turn"
        effects, and the next player clockwise begins."""
        self.step = "end_step"
        p = self.players[self.turn_player]
        if len(p.hand) > HAND_LIMIT:
            self.tasks.append(("end_step",))
            self.decide(Decision("discard", p.index, [
                Action("discard", p.index, oid, label=f"{p.name} discards {self.objs[oid].name}") for oid in p.hand
            ], "503.2a"))
            return
        # "At end of turn" powers trigger; with no window in the end step, their
        # effects go on the chain as the next turn's ready step begins (503.2a).
        effects.trigger_event(self, "end_of_turn", lambda s: True)
        self.turn_modifiers.clear()
        self._t_begin_turn(self.next_clockwise(self.turn_player))

    # --- resolving (CR7.4 709, CR7.4 711) --------------------------------------------------

    def _t_resolve_top(self) -> None:
        link = self.chain.pop()
        self.resolving = link
        if link.targets and self._target_kind(link) and not any(self.target_still_legal(link, t) for t in link.targets):
            self._interrupt(link, "CR7.4 709.2a")
            return
        if link.kind == "proposal":
            a, d = self.objs[link.attacker], self.objs[link.defender]
            if combat.proposal_problem(self, a, d, link.sabotage) is not None:
                self._interrupt(link, "601.3")
                return
            # 601.3 / 602.1: the window closes; the attacker exhausts and attacks.
            self.combat = Combat(link.attacker, link.defender, link.sabotage)
            a.exhausted = True
            # Donna Calister: "when an opposing hero or ally attacks"; Voss Treebender: "when this ally attacks" (602.1).
            effects.trigger_event(self, "opposing_character_attacks", lambda s: not self.friendly(s.controller, a.controller))
            effects.trigger_event(self, "this_attacks", lambda s: s.id == a.id)
            self.resolving = None
            self._t_open_window("attack_window")
            return
        self.tasks.append(("finish_link", link))
        steps = self._steps_of(link)
        if steps:
            self.tasks.append(("effect_step", link, steps, 0))

    def _interrupt(self, link: Link, rule: str) -> None:
        """CR7.4 711.1: removed from the chain, a card to its owner's graveyard;
        the turn player gets priority."""
        self.history.append(f"{self._link_text(link)} is interrupted ({rule})")
        if link.kind in ("card", "resource") and link.source is not None:
            self.move(self.objs[link.source], "graveyard")
        self.resolving = None
        self._t_give_priority(self.turn_player)

    def _steps_of(self, link: Link):
        if link.kind in ("payment", "trigger", "reward"):
            return link.power.steps
        if link.kind == "card":
            card = self.objs[link.source].card
            return card.effect.steps if card.effect else ()
        return ()

    def _t_effect_step(self, link: Link, steps, index: int) -> None:
        if index + 1 < len(steps):
            self.tasks.append(("effect_step", link, steps, index + 1))
        effects.run_step(self, link, steps[index])

    def _t_deliver(self, packet) -> None:
        effects.deliver(self, packet)

    def _t_finish_link(self, link: Link) -> None:
        """CR7.4 709.2g-h: a card enters play or goes to the graveyard, then the
        turn player gets priority."""
        self.resolving = None
        if link.kind == "resource":
            o = self.objs[link.source]
            # It enters play as a resource, blank if face down (410.1b). Set
            # plainly: off play, it is in no count of ready resources and no
            # check reads it, so no clock would tick (`Obj.__setattr__`), and
            # a card on the chain holds neither damage nor a host.
            plain = object.__setattr__
            plain(o, "resource", True)
            plain(o, "face_up", bool(link.event.get("face_up")))
            self.enter_play(o, link.controller)
        elif link.kind == "strike":
            weapon = self.objs[link.source]
            # 303.2a-b: the strike modifier uses the weapon's ATK now, and lasts
            # the combat step even if the weapon leaves.
            if self.combat is not None:
                self.combat.strikes.append((link.controller, weapon.id, weapon.card.atk or 0, weapon.card.damage_type))
        elif link.kind == "card":
            o = self.objs[link.source]
            card = o.card
            if card.type == "ability" and not card.ongoing:
                self.move(o, "graveyard")  # 306.1
            elif card.attach:
                host = [t for t in link.targets if self.target_still_legal(link, t)]
                if host:
                    self.enter_play(o, link.controller, attached_to=host[0])  # 400.1a
                else:
                    self.move(o, "graveyard")
            else:
                self.enter_play(o, link.controller)  # 302.1, 303.1, 304.1, 305.1, 306.2c
        self._t_give_priority(self.turn_player)

    # --- combat (600-603) -----------------------------------------------------------

    def _t_protect_point(self) -> None:
        self.step = "protect_point"
        combat.protect_point(self)

    def _t_after_protect(self) -> None:
        """602.3: with a side missing, the combat concludes; otherwise the
        defender defends and the defend window opens."""
        c = self.combat
        if c.attacker is None or c.defender is None:
            self._t_conclude()
            return
        combat.begin_defending(self)
        self._t_open_window("defend_window")

    def _t_conclude(self) -> None:
        self.step = "combat_conclusion"
        self.priority = None
        combat.conclude(self)

    def _t_end_combat(self) -> None:
        """603.2: everyone leaves combat, "this combat" effects end, and the
        action phase's window opens."""
        self.combat = None
        self._t_open_window("action_phase")

    # --- losing and winning (102) -----------------------------------------------------

    def players_lose(self, losers: list[int]) -> None:
        """102.1a-102.2: losers leave; when all remaining players lose at once
        the game is a draw; the players left win once none of them has an
        opponent left in the game (102.1): the last player, or the last team."""
        remaining = [p.index for p in self.players if p.in_game and p.index not in losers]
        self.history.append(", ".join(self.pname(i) for i in losers) + " leaves the game (102.1a, 102.2)")
        for i in losers:
            self.players[i].in_game = False
            self.seated -= 1
            self.players[i].result = "drew" if not remaining else "lost"
            checks.remove_player_cards(self, i)
        if not remaining or not effects.opponents(self, remaining[0]):
            for i in remaining:
                self.players[i].result = "won"
            self.over = True
            self.step = "game_over"
            self.priority = None
            self.decision = None
            self.tasks.clear()
            return
        if self.turn_player in losers:
            # assumed:turn-player-leaves: his turn ends and the next player's begins.
            self.combat = None
            self.turn_modifiers.clear()
            self.tasks.clear()
            self.decision = None
            self.priority = None
            self.tasks.append(("begin_turn", self.next_clockwise(self.turn_player)))

    # --- decisions ---------------------------------------------------------------------

    def _answer(self, decision: Decision, action: Action) -> None:
        kind, ctx = decision.kind, decision.context
        if kind == "first_player":
            self.first_player = self.turn_player = action.option
            for _ in range(HAND_SIZE):  # 101.1
                for p in self.players:
                    self.draw(p.index)
            self._ask_mulligan(0)
        elif kind == "mulligan":
            p = self.players[action.player]
            if action.option:  # 101.2: shuffle the hand back and draw seven anew
                for oid in list(p.hand):
                    self.move(self.objs[oid], "deck")
                self.rng.shuffle(p.deck)
                for _ in range(HAND_SIZE):
                    self.draw(p.index)
            p.mulliganed = True
            self._ask_mulligan(ctx["asked"] + 1)
        elif kind == "prevent":
            effects.answer_prevent(self, action, ctx["packet"])
        elif kind == "order_trigger":
            self._add_trigger(action.option)
        elif kind == "trigger_target":
            link = ctx["link"]
            link.targets = (action.subject,)
            self.chain.append(link)
        elif kind == "protect":
            combat.answer_protect(self, action, ctx["asked"])
        elif kind == "choose":
            effects.run_step(self, ctx["link"], ctx["step"], answer=action.option)
        elif kind == "choose_another":
            link, step = ctx["link"], ctx["step"]
            link.choices.append(action.option)
            if action.option is not None:
                hero = self.players[link.controller].hero
                p = effects.make_packet(self, effects.Packet(
                    amount=step.arg("amount"), target=action.option, source=hero, controller=link.controller,
                    type=step.arg("type"), card=link.source,
                ))
                if p is not None:
                    self.tasks.append(("deliver", p))
        elif kind == "ready_resources":
            if action.option:
                count = ctx["count"]
                for oid in self.play:
                    o = self.objs[oid]
                    if count and o.resource and o.controller == action.player and o.exhausted:
                        o.exhausted = False
                        count -= 1
        elif kind == "reattach":
            attachment = self.objs[ctx["attachment"]]
            old = self.objs[attachment.attached_to]
            attachment.attached_to = action.subject
            if attachment.card.has_continuous("control_attached"):
                self.recompute_control(old)
                self.recompute_control(self.objs[action.subject])
        elif kind == "uniqueness":
            effects.destroy(self, self.objs[action.subject], by_rule_over_cant=True)
        elif kind == "inspire":
            if action.subject is not None:
                self.objs[action.subject].exhausted = False
        elif kind in ("discard", "discard_for_effect"):
            # 413.6a: one card at a time, each its own discard event.
            self.move(self.objs[action.subject], "graveyard")
            effects.trigger_event(self, "you_discard", lambda s: s.controller == action.player, discarded=action.subject)

    def _ask_mulligan(self, asked: int) -> None:
        """101.2: the first player decides first, then clockwise; once each."""
        order = self.clockwise_from(self.first_player)
        if asked >= len(order):
            self.tasks.append(("begin_turn", self.first_player))
            return
        p = order[asked]
        self.decide(Decision("mulligan", p, [
            Action.made("mulligan", p, option=False, label=f"{self.pname(p)} keeps his hand"),
            Action.made("mulligan", p, option=True, label=f"{self.pname(p)} mulligans"),
        ], "101.2", {"asked": asked}))

    # --- priority actions (409.2) ------------------------------------------------------

    def _in_main_phase(self, player: int) -> bool:
        """408.1, 409.2b, 502.1: his own non-combat action phase, on an empty chain."""
        return self.step == "action_phase" and player == self.turn_player and not self.chain and self.combat is None

    def _main_phase_problem(self, player: int, what: str, rule: str):
        """408.1, 409.2b, 502.1: only in his own non-combat action phase, with
        priority, on an empty chain."""
        if not self._in_main_phase(player):
            return (rule, f"{what} only in the turn player's non-combat action phase on an empty chain")
        return None

    def _malformed(self, a: Action):
        """409.1: what a priority action is made of. A value the engine never
        offers (a player or card that is not there, a field its kind does not
        take) is refused before any rule reads it."""
        takes = PRIORITY_ACTION_FIELDS.get(a.kind)
        if takes is None:
            return ("409.2", f"no priority action is of kind {a.kind!r}; kinds: {', '.join(PRIORITY_ACTION_FIELDS)}")
        if type(a.player) is not int or not 0 <= a.player < len(self.players):
            return ("409.1", f"no player {a.player!r} at this table")
        read, unset = UNTAKEN_UNSET[a.kind]
        if read(a) != unset:
            stray = [name for name, unset in UNTAKEN_FIELDS[a.kind] if getattr(a, name) != unset]
            if stray:
                return ("409.1", f"a {a.kind} action takes no {', '.join(stray)}")
        cards = len(self.objs)
        if "subject" in takes and (type(a.subject) is not int or not 0 <= a.subject < cards):
            return ("409.1", f"no card {a.subject!r} in this game")
        if not isinstance(a.targets, tuple) or (a.targets and any(type(t) is not int or not 0 <= t < cards for t in a.targets)):
            return ("409.1", f"targets must be cards of this game, not {a.targets!r}")
        if type(a.x) is not int or a.x < 0:
            return ("409.1", f"X must be a whole number, not {a.x!r}")
        if a.kind == "power" and (type(a.option) is not int or not 0 <= a.option < len(self.objs[a.subject].card.payments)):
            return ("409.1", f"{self.objs[a.subject].name} has no power {a.option!r}")
        if a.kind == "propose" and type(a.option) is not bool:
            return ("409.1", f"a proposal says whether it is a sabotage (option True or False), not {a.option!r}")
        if a.kind == "play" and a.option is not None and (type(a.option) is not int or not 0 <= a.option < cards):
            return ("409.1", f"an alternate cost names a card of this game to destroy, not {a.option!r}")
        if a.kind == "resource" and a.option not in (None, False, True):
            return ("409.1", f"a resource is placed face down (no option, or False) or face up (True), not {a.option!r}")
        return None

    def _problem(self, a: Action):
        """The rule that forbids this priority action now, or None."""
        if self.priority is None or a.player != self.priority:
            who = self.pname(self.priority) if self.priority is not None else "nobody"
            return ("409.1", f"{self.pname(a.player)} does not hold priority ({who} does)")
        player = self.players[a.player]
        if a.kind == "pass":
            if self._in_main_phase(a.player):
                name = combat.must_attack_pending(self)
                if name:
                    return ("600.2", f"{name} must attack if able, so {player.name} can't pass")
            return None
        if a.kind in ("play", "resource"):
            card = self.objs[a.subject].card
            from_graveyard = a.kind == "play" and card.type == "ability" and a.subject in player.graveyard \
                and self.may_play_from_graveyard(a.player)  # Readiness
            if a.subject not in player.hand and not from_graveyard:
                return ("408.1", "cards are played from the hand")
            if a.kind == "resource":
                if player.placed_resource_turn == self.turn_number:
                    return ("410.1", "one resource per turn")
                if a.option and card.type != "quest":
                    return ("410.1b", "only a quest may be placed face up")
                return self._main_phase_problem(a.player, "resources are placed", "410.1a")
            if card.type == "quest":
                return ("307.1", "quests can't be played, only placed as resources")
            if card.type == "hero":
                return ("301.1", "heroes are not played")
            if not card.instant:
                problem = self._main_phase_problem(a.player, "non-instant cards are played", "408.1")
                if problem:
                    return problem
            target = card.effect.target if card.effect else None
            problem = self._x_problem(a, has_x=target == "ally_cost_x")
            if problem is None and a.option is not None:
                problem = self._alternate_cost_problem(a.player, card, a.option)
            cost = 0 if a.option is not None else card.cost + a.x  # CR7.4 707.1e: the alternate cost replaces the cost
            return problem or self._cost_and_target_problem(a, target, cost)
        if a.kind == "power":
            source = self.objs[a.subject]
            power = source.card.payments[a.option]
            problem = self._power_source_problem(a.player, source, power)
            if problem:
                return problem
            problem = self._x_problem(a, has_x=bool(power.cost_of("x")))
            return problem or self._cost_and_target_problem(a, power.target, (power.cost_of("resources") or 0) + a.x)
        if a.kind == "propose":
            problem = self._main_phase_problem(a.player, "combats are proposed", "601.1")
            if problem:
                return problem
            if len(a.targets) != 1:  # 601.2: one attacker against one defender
                return ("601.2", f"a proposal names exactly one defender, not {len(a.targets)}")
            problem = combat.proposal_problem(self, self.objs[a.subject], self.objs[a.targets[0]], bool(a.option))
            tax = combat.attack_tax(self.objs[a.subject])
            if problem is None and self.ready_resources(a.player) < tax:
                return ("600.3", f"{self.objs[a.subject].name} can't attack unless {self.pname(a.player)} pays {tax}")
            return problem
        if a.kind == "strike":
            return combat.strike_problem(self, a.player, self.objs[a.subject])
        if a.kind == "complete":
            return self._complete_problem(a.player, self.objs[a.subject])
        return ("409.2", f"{a.kind} is not something a player does with priority")

    def _alternate_cost_problem(self, player: int, card: Card, resource: int):
        """CR7.4 403.3: an alternate cost is paid only for a card that has one;
        Nalonae's is a resource its player controls, ready or not (destroying
        it is the cost, not exhausting it)."""
        if card.alternate_cost != "destroy_resource":
            return ("CR7.4 403.3", f"{card.name} has no alternate cost")
        o = self.objs[resource]
        if o.zone != "play" or not o.resource or o.controller != player:
            return ("CR7.4 403.3", f"{self.describe(o)} is not a resource {self.pname(player)} controls")
        return None

    def _complete_problem(self, player: int, quest: Obj):
        """409.2, CR7.4 702.1, CR7.4 702.2: a face-up quest in his resource row with a
        reward, any time he has priority, if he can pay its completion cost
        (the quest itself may be exhausted towards it)."""
        if quest.zone != "play" or not quest.resource or not quest.face_up or quest.controller != player \
                or quest.card.reward is None:
            return ("CR7.4 702.2", f"{quest.name} is not a face-up quest with a reward that {self.pname(player)} controls")
        cost = quest.card.reward.cost_of("resources") or 0
        if self.ready_resources(player) < cost:
            return ("402.1", f"{self.pname(player)} can't pay {cost} to complete {quest.name}")
        return None

    def _power_source_problem(self, player: int, source: Obj, power):
        """CR7.4 701.1, CR7.4 701.2, 402.1, 302.2: whether this player may use this
        payment power of this card now, whatever X and target he would choose."""
        found = self._power_source_rule(player, source, power)
        if found is None:
            return None
        rule, reason = found
        return (rule, reason.format(card=source.name, player=self.pname(player)))

    def _power_source_rule(self, player: int, source: Obj, power):
        """`_power_source_problem` with its reason unwritten (`POWER_UNUSABLE`):
        asked of every payment power in play before every choice, where an
        answer that forbids is common and its words are never read."""
        if source.zone != "play" or source.resource or source.controller != player:
            return POWER_UNUSABLE["not_his"]
        if "attached_powerless" in self.powers_in_game and source.id in effects.powerless(self):
            return POWER_UNUSABLE["powerless"]
        if power.own_turn_only and self.turn_player != player:
            return POWER_UNUSABLE["not_his_turn"]
        if power.exhausts_this:
            if source.exhausted:
                return POWER_UNUSABLE["exhausted"]
            if source.card.type == "ally" and not combat.in_party_since_turn_start(self, source):
                return POWER_UNUSABLE["new"]
        if power.flips_hero and source.flipped:
            return POWER_UNUSABLE["flipped"]
        return None

    def _x_problem(self, a: Action, has_x: bool):
        """CR7.4 707.1b: a value of X is chosen only for a link whose cost has
        an X, and it is a whole number of resources."""
        if a.x < 0 or (a.x and not has_x):
            return ("CR7.4 707.1b", f"X={a.x} can't be chosen: " + ("X is never negative" if a.x < 0 else "this cost has no X"))
        return None

    def _cost_and_target_problem(self, a: Action, target_kind: str | None, cost: int):
        """402.1: he can pay the cost; CR7.4 707.1d: a legal target, if it needs one."""
        if self.ready_resources(a.player) < cost:
            return ("402.1", f"{self.pname(a.player)} can't pay {cost}")
        if target_kind:
            if len(a.targets) != 1 or a.targets[0] not in self.legal_targets(target_kind, a.player, a.x if target_kind == "ally_cost_x" else None):
                return ("CR7.4 707.1d", f"{a.targets} is not a legal {target_kind} target")
        elif a.targets:
            return ("CR7.4 706.1", "this needs no target")
        return None

    def _priority_actions(self) -> list[Action]:
        """The legal priority actions (409.2), in the order: pass, each card
        of the hand (placed as a resource, then played; under Readiness,
        abilities of the graveyard after it), quests completed, payment
        powers, proposals, strikes. They are built before every choice, so each is
        built only once the conditions `_problem` would find against it are
        known to hold: the window (408.1, 410.1a, 601.1, 602.3a), one resource
        per turn (410.1), the cost with its X (402.1, CR7.4 707.1b), the
        targets, listed by `legal_targets` itself (CR7.4 707.1d), the power's
        source (CR7.4 701), the attacker (601.2a), the defender (601.2b) and
        what it may attack only (601.2c), a strike (303.2, 405.3). Asking
        `_problem` again would read all of it twice, so `apply_action` does
        not ask it of an action taken from this list (the random-play tests
        ask it of every action offered). Outside his main phase he can do no
        more than pass, play an instant (408.1), use a payment power (CR7.4 701)
        or, in the defend window, strike (602.3a); with none of those at
        hand, as at most choices, only his pass is asked about and play is
        not read. An action offered again is the one made the first time
        (`_offers`)."""
        p = self.priority
        objs = self.objs
        step = self.step
        # `_in_main_phase` (408.1, 409.2b, 502.1), written out: this runs before every choice.
        c = self.combat
        main = step == "action_phase" and p == self.turn_player and not self.chain and c is None
        if not main and step != "defend_window" and not self.instants_in_hand[p] and not self.turn_modifiers:
            for oid in self.payment_sources:
                if objs[oid].controller == p:
                    break
            else:
                # Outside his main phase and the defend window, no instant
                # (408.1), no payment power or face-up quest of his in play
                # (CR7.4 701, CR7.4 702.2), no ability to play from a graveyard
                # (Readiness): his pass is all there is (409.2), as at most choices.
                return [self.pass_actions[p]]
        # 602.3a: in the defend window, while his hero is in combat, he may
        # strike with a ready weapon of his (303.2); with none, he can't.
        # (`combat.may_strike_now`, written out.)
        if step == "defend_window" and c is not None and c.defending and c.attacker is not None and c.defender is not None \
                and self.players[p].hero in (c.attacker, c.defender):
            weapons = [w for w in self._sides(p)[0] if w.card.type == "weapon" and not w.exhausted]
            defend = bool(weapons)
        else:
            defend = False
        if main:
            hand = [objs[oid] for oid in self.players[p].hand]
        elif self.instants_in_hand[p]:
            hand = [o for o in map(objs.__getitem__, self.players[p].hand) if o.card.instant]  # 408.1: only instants
        else:
            if not (self.turn_modifiers or defend):
                for oid in self.payment_sources:
                    if objs[oid].controller == p:
                        break
                else:
                    # No instant (408.1), no payment power or face-up quest
                    # of his in play (CR7.4 701, CR7.4 702.2), no ability to
                    # play from a graveyard (Readiness), no strike (602.3a):
                    # his pass is all there is (409.2), as at most choices.
                    return [self.pass_actions[p]]
            hand = []
        player = self.players[p]
        if self.turn_modifiers and self.may_play_from_graveyard(p):  # Readiness
            for oid in player.graveyard:
                o = objs[oid]
                if o.card.type == "ability" and (main or o.card.instant):
                    hand.append(o)
        play = self.play
        # His payment powers he may use now whatever he pays (CR7.4 701.1-2,
        # 402.1, 302.2), and his face-up quests with a reward, completed any
        # time he has priority (409.2, CR7.4 702.2).
        powers, quests = [], []
        for oid in self.payment_sources:
            o = objs[oid]
            if o.controller == p and o.zone == "play":
                if o.resource:
                    if o.face_up and o.card.reward is not None:
                        quests.append(o)
                    continue
                for i, power in enumerate(o.card.payments):
                    if self._power_source_rule(p, o, power) is None:
                        powers.append((o, i, power))
        if len(powers) > 1:
            powers.sort(key=lambda use: play.index(use[0].id))  # in the order of play, like every list of cards in play
        out = []
        if not (main and self.turn_modifiers and combat.must_attack_pending(self)):  # 600.2: he can't pass while a character must attack
            out.append(self.pass_actions[p])
        if not (main or hand or powers or defend or quests):
            return out
        place = main and player.placed_resource_turn != self.turn_number
        offers = self._offers
        offer = out.append
        # What he can pay (402.1, 402.4a); in his main phase or while he may
        # strike, the cards in play that are not resources (410.1b, 402.4a):
        # his (attackers, weapons), and in his main phase the others' that
        # could defend, characters and, against a sabotage, items (601.2b).
        budget = self.ready_resources(p)
        mine, theirs = self._sides(p) if main or defend else ((), ())
        # Each offer is looked up by what it is made of, with the controller
        # of a card it names, which its label shows (`describe`).
        targets_of: dict[str, list[int]] = {}  # `legal_targets` of each kind, read once: several cards may ask
        placings, plays = self._placings, self._plays
        for o in hand:
            card = o.card
            if place:
                a = placings.get(o.id)
                if a is None:
                    a = placings[o.id] = Action.made("resource", p, o.id, label=f"{self.pname(p)} places {card.name} as a resource")
                offer(a)
            if card.played_plainly and o.zone == "hand":  # the most frequent: what he can pay for, he can play
                if card.cost <= budget:
                    a = plays.get(o.id)
                    if a is None:
                        a = plays[o.id] = Action.made("play", p, o.id, label=f"{self.pname(p)} plays {card.name}")
                    offer(a)
                continue
            if card.type == "quest":
                if place:
                    a = offers.get(key := ("resource", p, o.id, True))
                    if a is None:
                        a = offers[key] = Action.made("resource", p, o.id, option=True, label=f"{self.pname(p)} places {card.name} face up as a resource")
                    offer(a)
                continue
            if card.alternate_cost == "destroy_resource" and o.zone == "hand":
                # Nalonae (CR7.4 403.3): rather than pay, destroy a resource he
                # controls, each a choice of its own (its card shows once it is gone, 410.1b).
                for r in map(objs.__getitem__, self.resource_row):
                    if r.controller == p:
                        a = offers.get(key := ("play", p, o.id, r.id))
                        if a is None:
                            shown = f"face-down {r.card.name}" if not r.face_up else r.card.name
                            a = offers[key] = Action.made("play", p, o.id, option=r.id, label=f"{self.pname(p)} plays {card.name} by destroying his resource ({shown})")
                        offer(a)
            if card.type == "hero" or card.cost > budget:
                continue
            zone = o.zone
            target = card.effect_target
            if target is None and zone == "hand":  # Nalonae, paying her cost instead
                a = plays.get(o.id)
                if a is None:
                    a = plays[o.id] = Action.made("play", p, o.id, label=f"{self.pname(p)} plays {card.name}")
                offer(a)
                continue
            where = " from his graveyard" if zone == "graveyard" else ""
            if target == "ally_cost_x":
                allies = targets_of.get("ally")
                if allies is None:
                    allies = targets_of["ally"] = self.legal_targets("ally", p)
                for t in allies:
                    x = objs[t].card.cost  # an ally of cost X is a legal target (CR7.4 707.1d)
                    if card.cost + x <= budget:
                        a = offers.get(key := ("play", p, o.id, t, x, objs[t].controller, zone))
                        if a is None:
                            a = offers[key] = Action.made("play", p, o.id, (t,), x, label=f"{self.pname(p)} plays {card.name}{where} (X={x}) on {self.describe(objs[t])}")
                        offer(a)
            elif target:
                targets = targets_of.get(target)
                if targets is None:
                    targets = targets_of[target] = self.legal_targets(target, p)
                for t in targets:
                    a = offers.get(key := ("play", p, o.id, t, 0, None if target == "player" else objs[t].controller, zone))
                    if a is None:
                        a = offers[key] = Action.made("play", p, o.id, (t,), label=f"{self.pname(p)} plays {card.name}{where} on {self._target_name(target, t)}")
                    offer(a)
            else:  # from his graveyard (Readiness)
                a = offers.get(key := ("play", p, o.id, zone))
                if a is None:
                    a = offers[key] = Action.made("play", p, o.id, label=f"{self.pname(p)} plays {card.name}{where}")
                offer(a)
        for q in quests:
            if q.card.reward.resources <= budget:  # 402.1: the quest may pay towards itself
                a = offers.get(key := ("complete", p, q.id))
                if a is None:
                    a = offers[key] = Action.made("complete", p, q.id, label=f"{self.pname(p)} completes {q.card.name}")
                offer(a)
        for o, i, power in powers:
            # 402.1, CR7.4 707.1b: each X he can pay for on top of the resources.
            resources = power.resources
            has_x = power.has_x
            if has_x:
                xs = range(budget - resources + 1)
            else:
                xs = (0,) if resources <= budget else ()
            if power.target:
                targets = targets_of.get(power.target)
                if targets is None:
                    targets = targets_of[power.target] = self.legal_targets(power.target, p)
            else:
                targets = (None,)
            for x in xs:
                for t in targets:
                    a = offers.get(key := ("power", p, o.id, i, x, t, None if t is None or power.target == "player" else objs[t].controller))
                    if a is None:
                        tname = f" on {self._target_name(power.target, t)}" if t is not None else ""
                        a = offers[key] = Action.made("power", p, o.id, () if t is None else (t,), x, i,
                                                      label=f"{self.pname(p)} uses {o.name}'s power{f' (X={x})' if has_x else ''}{tname}")
                    offer(a)
        if main and theirs:  # the others' cards matter in his main phase only
            powers_in_game = self.powers_in_game
            taxed = "attack_tax" in powers_in_game
            # His proposals at his last main-phase choice hold again while
            # nothing they read has changed: the cards in play with their
            # controllers and hosts (PARTY_CLOCK), the turn (302.2), which of
            # his cards are exhausted (601.2a), what he can pay if one of his
            # attackers is taxed (600.3); and with no modifier of this turn
            # (600.2, 601.2c). A resource placed, the most frequent choice,
            # changes none of them.
            exhausted = [a.exhausted for a in mine]
            last = self._attacks_of[p]
            if last is not None and last[0] == PARTY_CLOCK[0] and last[1] == self.turn_number and last[2] == exhausted \
                    and (last[3] is None or last[3] == budget) and not self.turn_modifiers:
                out += last[4]
                return out  # no strike in the main phase (602.3a)
            first = len(out)
            paid = None
            # `combat.attacker_rule` written out for `mine`, his cards in play
            # that are not resources, before each of his main-phase choices: a
            # character (601.2), not a totem (306.3a), not held by Polymorph
            # (103.2), ready (601.2a), in his party since his turn began
            # unless it has ferocity (302.2).
            held = effects.hosts_of(self, "attached_cant_attack_or_protect") if "attached_cant_attack_or_protect" in powers_in_game else ()
            since = player.last_turn_start
            limited = self.turn_modifiers or "opponents_attack_only_this" in powers_in_game
            defenders = None
            proposals, seats = self._proposals, len(self.players)
            for a in mine:
                card = a.card
                if not card.is_character or a.exhausted or card.is_totem or (held and a.id in held):
                    continue
                if card.type != "hero" and a.joined_turn >= since \
                        and not ("ferocity" in card.keywords_possible and combat.has(self, a, "ferocity")):
                    continue
                if taxed and combat.attack_tax(a):
                    paid = budget  # what he can pay decides this attacker (600.3)
                    if budget < combat.attack_tax(a):  # he can't pay to propose it
                        continue
                if defenders is None:
                    # What 601.2b asks of a defender, bar the attacker's
                    # sabotage, is the same for every attacker of his: asked
                    # once for each defender (`combat.open_defenders`), in the
                    # order of play, with whether any is an item to sabotage.
                    found = self._defenders_of[p]
                    if found is None or found[0] != PARTY_CLOCK[0]:
                        found = self._defenders_of[p] = (PARTY_CLOCK[0], *combat.open_defenders(self, p, theirs))
                    defenders, items = found[1], found[2]
                # Asked only where it can matter: whether it may sabotage, if an
                # item could be sabotaged (601.2b); what it may attack only, if a
                # card's power or a turn's modifier could say (601.2c-d).
                saboteur = items and "sabotage" in card.keywords_possible and combat.has(self, a, "sabotage")
                only = combat.attack_only(self, a) if limited else None
                made = proposals.get(a.id)
                if made is None:
                    made = proposals[a.id] = {}
                for d, sabotage in defenders:
                    if (sabotage and not saboteur) or (only and combat.attack_only_problem(self, a, d, only)):
                        continue
                    # By the defender, the proposing player and the defender's
                    # controller (its label shows him), packed in one number.
                    # Whether it is a sabotage follows from the defender's card (601.2b).
                    key = (d.id * seats + p) * seats + d.controller
                    proposal = made.get(key)
                    if proposal is None:
                        word = "sabotages" if sabotage else "attacks"
                        proposal = made[key] = Action.made("propose", p, a.id, (d.id,), option=sabotage,
                                                           label=f"{self.pname(p)} proposes {a.name} {word} {self.describe(d)}")
                    offer(proposal)
            self._attacks_of[p] = None if self.turn_modifiers else (PARTY_CLOCK[0], self.turn_number, exhausted, paid, out[first:])
        if defend:
            for w in weapons:
                if combat.strike_problem(self, p, w, budget) is None:  # 303.2
                    a = offers.get(key := ("strike", p, w.id))
                    if a is None:
                        a = offers[key] = Action.made("strike", p, w.id, label=f"{self.pname(p)} strikes with {w.name}")
                    offer(a)
        return out

    def _sides(self, player: int) -> tuple[list[Obj], list[Obj]]:
        """The cards in play that are not resources, in the order of play:
        `player`'s, and the others' that could defend (characters, and items
        against a sabotage, 601.2b). Asked before most choices in a main
        phase or a defend window; kept until PARTY_CLOCK ticks, as it does
        whenever a card enters or leaves the party or changes controller.
        Neither list is changed by its readers."""
        at = PARTY_CLOCK[0]
        sides = self._sides_of[player]
        if sides is None or sides[0] != at:
            party = [*map(self.objs.__getitem__, self.party)]
            mine = [o for o in party if o.controller == player]
            theirs = [o for o in party if o.controller != player and (o.card.is_character or o.card.type == "item")]
            sides = self._sides_of[player] = (at, mine, theirs)
        return sides[1], sides[2]

    def _act(self, a: Action) -> None:
        """Add the link (CR7.4 707): pay, put it on top, and its controller
        gets priority again (409.1, CR7.4 707.1f) after the pre-priority checks."""
        self.priority = None
        if a.kind == "pass":
            self.passes += 1
            if self.passes >= self.seated:
                self.passes = 0
                if self.chain:  # 409.4a-b
                    self._t_resolve_top()
                else:
                    self._t_close_window()
            else:
                # The task stack is empty while a player holds priority (`_t_grant`),
                # so the next player's grant is the task to run now.
                self._t_give_priority(self.next_clockwise(a.player))
            return
        self.passes = 0
        player = self.players[a.player]
        if a.kind == "resource":
            player.placed_resource_turn = self.turn_number
            self.move(self.objs[a.subject], "chain")
            self._next_link += 1  # `_link_id`
            self.chain.append(Link(self._next_link, "resource", a.player, a.subject, (), 0, None, {"face_up": bool(a.option)}))
        elif a.kind == "play":
            card = self.objs[a.subject].card
            if a.option is None:
                self.pay(a.player, card.cost + a.x)
            else:
                # CR7.4 403.3, CR7.4 707.1e: the alternate cost instead (Nalonae: destroy a resource he controls).
                effects.destroy(self, self.objs[a.option])
            self.move(self.objs[a.subject], "chain")
            self.objs[a.subject].controller = a.player
            self.chain.append(Link(self._link_id(), "card", a.player, a.subject, a.targets, a.x))
            # Mind Control: "when you play a card" (408.1)
            effects.trigger_event(self, "you_play_a_card", lambda s: s.controller == a.player)
            if card.type == "ability" and "Feral" not in card.subtypes:  # bear form (001 basic rules)
                effects.trigger_event(self, "you_play_non_feral_ability_or_strike", lambda s: s.controller == a.player)
        elif a.kind == "power":
            source = self.objs[a.subject]
            power = source.card.payments[a.option]
            self.pay(a.player, (power.cost_of("resources") or 0) + a.x)
            if power.cost_of("exhaust_this"):
                source.exhausted = True
            if power.cost_of("flip_hero"):
                source.flipped = True
            if power.cost_of("destroy_this"):
                effects.destroy(self, source)  # the link stays on the chain without its source (CR7.4 709.2d example)
            if power.cost_of("remove_this"):
                effects.leave_play(self, source, "removed")  # 413.8a: not destroyed
                self.history.append(f"{self.describe(source)} is removed from the game to pay (413.8a)")
            self.chain.append(Link(self._link_id(), "payment", a.player, a.subject, a.targets, a.x, power=power))
        elif a.kind == "propose":
            self.pay(a.player, combat.attack_tax(self.objs[a.subject]))  # 600.3: an additional cost
            self._next_link += 1  # `_link_id`
            self.chain.append(Link(self._next_link, "proposal", a.player, None, (), 0, None, {}, a.subject, a.targets[0], bool(a.option)))
        elif a.kind == "strike":
            weapon = self.objs[a.subject]
            self.pay(a.player, weapon.card.strike_cost or 0)
            weapon.exhausted = True  # 303.2
            self.combat.struck.setdefault(a.player, []).append(weapon.id)
            self.chain.append(Link(self._link_id(), "strike", a.player, a.subject))
            effects.trigger_event(self, "you_play_non_feral_ability_or_strike", lambda s: s.controller == a.player)  # bear form
        elif a.kind == "complete":
            # 409.3, CR7.4 702.2: its reward effect goes on the chain; as the
            # last part of adding it, the quest turns face down and stays a resource.
            quest = self.objs[a.subject]
            self.pay(a.player, quest.card.reward.cost_of("resources") or 0)
            self.chain.append(Link(self._link_id(), "reward", a.player, a.subject, power=quest.card.reward))
            quest.face_up = False
            self.payment_sources.remove(quest.id)  # face down, it has no reward to offer again (410.1b)
        self._t_give_priority(a.player)


#: The method that carries out each kind of task on the stack (`_run`).
TASK_METHODS = {name[len("_t_"):]: name for name in vars(GameState) if name.startswith("_t_")}
