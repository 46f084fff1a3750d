"""A Heroes of Ancients game in play, with the OpenSpiel-style protocol:
`current_player()`, `is_chance_node()`, `chance_outcomes()`, `legal_actions()`,
`apply_action()`, `is_terminal()`, `returns()`, `clone()`, plus `concede()`,
`outcome()`, `snapshot()` and `observation_for()`.

The game stops only where someone must choose:

- "shuffle", "first_player": chance shuffles the decks (103.1), then picks
  the first player (103.2);
- "mulligan": each player declares how many cards to mulligan (103.4);
- "priority": the player with priority activates an ability, plays a card
  from hand (assumed:play-from-hand) or passes (assumed:priority);
- "council": a player of Council of Elders chooses a card face down, then
  accepts or refuses (101.4, 101.4a-101.4d);
- "optional_trigger": the controller of the token that left chooses whether
  Whispering Echo creates a Spirit (assumed:trigger-order).

Everything else happens inside `apply_action` (and `concede`): resolutions,
the check before priority (assumed:priority-check), waiting triggers, players
leaving, the end of a turn and the start of the next.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from .cards import ABILITIES, ATTRIBUTES, CHOOSE_ATTRIBUTE, GIVE_CONTROL, Card, Pool
from .objects import (
    CHANCE, TAKES, TERMINAL, Action, Council, Entity, IllegalAction, StackObject, Token, Trigger, seat,
)

OPENING_HAND = 7  # 103.4
BOLT_DAMAGE = 10  # Ember Bolt
TOME_DRAWS = 3  # Tome of Ages
#: Reading (104.4b): a series of mandatory actions can go on without ever
#: repeating a state exactly (two Echo Chambers and a Culling Field double the
#: waiting triggers every round). Such a series cannot stop either, so past this
#: many mandatory resolutions without a decision it counts as a loop too.
LOOP_CAP = 1000

Problem = tuple[str, str]  # (rule id, reason)


class HotaState:
    def __init__(self, players: int, table: list[tuple[int, Card]], decks: list[list[str]], starting_life: int,
                 pool: Pool, seed: int):
        self.num_players = players
        self.starting_life = starting_life
        self.pool = pool
        self.rng = random.Random(seed)
        self.libraries: list[list[str]] = [list(d) for d in decks]  # the top card is the first
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.discards: list[list[str]] = [[] for _ in range(players)]
        # The attribute points each player's played cards gave for the game: basic
        # attribute cards (106.1) and Attunement (106.2); entities add theirs on top.
        self.attributes: list[dict[str, int]] = [dict.fromkeys(ATTRIBUTES, 0) for _ in range(players)]
        self.damage = [0] * players
        self.drew_from_empty = [False] * players
        self.status = ["playing"] * players
        self.step = "shuffle"
        self.first_player = -1
        self.active = -1
        self.first_turn = False
        self.turn = 0
        self.priority = -1
        self.passed: list[int] = []  # the players who passed in succession, in order
        self.mulligan_declared = [-1] * players
        self.mulligan_done = False
        self.entities = [Entity(card, p) for p, card in table]
        self.tokens: list[Token] = []
        self.next_token = 1
        self.waiting: list[Trigger] = []
        # What is resolving now, the newest last (107.3, 108.4): resolutions happen at
        # once (assumed:resolve-at-once), so an object stays here only while its
        # resolution waits for players' choices (a council).
        self.stack: list[StackObject] = []
        self.council: Council | None = None
        self.history: list[str] = []

    # --- the protocol ------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat that must choose now; CHANCE (-1) at a chance node; TERMINAL (-4) once over."""
        if self.step == "game_over":
            return TERMINAL
        if self.step in ("shuffle", "first_player"):
            return CHANCE
        if self.step == "mulligan":
            return self._declarer()
        if self.step == "council":
            return self.council.chooser
        if self.step == "optional_trigger":
            return self.waiting[0].token_controller
        return self.priority

    def is_chance_node(self) -> bool:
        return self.step in ("shuffle", "first_player")

    def is_terminal(self) -> bool:
        return self.step == "game_over"

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """103.1: one outcome, the shuffle (the state's RNG orders the cards);
        103.2: each player still in the game goes first with equal chance."""
        if self.step == "shuffle":
            return [(Action("shuffle", CHANCE), 1.0)]
        if self.step == "first_player":
            seats = self.in_game()
            return [(Action("first_player", CHANCE, target=p), 1.0 / len(seats)) for p in seats]
        return []

    def returns(self) -> list[float]:
        """+1 for a player who won, -1 for one who lost, 0 for a draw or a game still going."""
        return [{"won": 1.0, "lost": -1.0}.get(s, 0.0) for s in self.status]

    def outcome(self) -> list[str]:
        """"won", "lost", "drew" or "playing", per seat."""
        return list(self.status)

    def clone(self) -> "HotaState":
        """An independent deep copy; the pool and its cards (immutable) are shared."""
        memo: dict[int, Any] = {id(self.pool): self.pool}
        memo.update((id(c), c) for c in self.pool.values())
        # Lists of names and the RNG are copied whole rather than item by item:
        # a deep copy walks every string of a long history and every word of
        # the RNG's state, most of a copy's cost.
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        memo[id(self.rng)] = rng
        for names in (self.history, *self.libraries, *self.hands, *self.discards):
            memo[id(names)] = list(names)
        return copy.deepcopy(self, memo)

    def legal_actions(self) -> list[Action]:
        return [a for a in self._candidates() if self._problem(a) is None]

    def apply_action(self, action: Action) -> None:
        """Take one action; a concession (kind "concede") is taken for any player
        still in the game (101.1, 104.3a). A refused action raises IllegalAction."""
        if isinstance(action, Action) and action.kind == "concede" and not action.stray_fields():
            self.concede(action.player)
            return
        problem = self._problem(action)
        if problem is not None:
            raise IllegalAction(problem[0], problem[1], self.action_label(action), str(self))
        self.history.append(self.action_label(action))
        getattr(self, f"_do_{action.kind}")(action)

    def action_label(self, action: Any) -> str:
        return str(action)

    def action_to_string(self, action: Any) -> str:
        return str(action)

    def concede(self, p: int) -> None:
        """101.1, 104.3a: a player still in the game may concede at any time, even
        when another player is choosing, Aegis of Immortality or not: they lose and
        leave at once (104.5), and a lone player left wins (104.2a)."""
        label = f"{seat(p) if isinstance(p, int) and not isinstance(p, bool) else repr(p)} concedes"
        if self.step == "game_over":
            raise IllegalAction("104.1", "the game is over", label, str(self))
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < self.num_players:
            raise IllegalAction("104.3a", f"no player {p!r} in this game", label, str(self))
        if self.status[p] != "playing":
            raise IllegalAction("104.5", f"{seat(p)} has left the game already", label, str(self))
        self.history.append(label)
        self.history.append(f"{seat(p)} loses (104.3a: concedes)")
        front = self.waiting[0] if self.waiting else None
        self._remove_player(p, "lost")
        if self.step != "game_over":
            self._after_leaving(p, front)

    # --- looking at the game ---------------------------------------------------------------

    def in_game(self) -> list[int]:
        return [p for p in range(self.num_players) if self.status[p] == "playing"]

    def _order_from(self, start: int) -> list[int]:
        """The players still in the game in turn order from `start` (assumed:seat-order)."""
        return [q for q in ((start + k) % self.num_players for k in range(self.num_players))
                if self.status[q] == "playing"]

    def _next_in_game(self, p: int) -> int:
        """The next player in the game after seat p in turn order (assumed:seat-order)."""
        for k in range(1, self.num_players + 1):
            q = (p + k) % self.num_players
            if self.status[q] == "playing":
                return q
        return -1

    def _live(self, ability: str) -> list[Entity]:
        """Entities with that ability that still have their abilities (101.2a)."""
        return [e for e in self.entities if e.card.ability == ability and not e.silenced]

    def attribute_values(self, p: int) -> dict[str, int]:
        """106.1, 106.2, 106.2a: the points p's played cards gave, plus one
        intelligence for each Arcane Sanctum p controls that has its abilities
        (108.4: its 'you' is its controller; 101.2a)."""
        values = dict(self.attributes[p])
        values["intelligence"] += sum(e.controller == p for e in self._live("adds_intelligence"))
        return values

    def can_lose(self, p: int) -> bool:
        """101.1, 101.2: Aegis of Immortality (with its abilities, 101.2a) keeps its
        controller from losing by 104.3b, 104.3c and 104.3d; concession aside."""
        return not any(e.controller == p for e in self._live("cant_lose"))

    def can_win(self, p: int) -> bool:
        """101.1, 101.2: an opponent's Gatekeeper (with its abilities, 101.2a) keeps
        the player from winning by 104.2b. 104.2a ignores it."""
        return not any(e.controller != p for e in self._live("opponents_cant_win"))

    def _entity(self, controller: Any, ref: Any) -> Entity | None:
        """The entity `controller` controls that actions name `ref` (Entity.ref)."""
        return next((e for e in self.entities if e.controller == controller and e.ref == ref), None)

    def _spirits(self, p: int, ref: str | None = None) -> list[Token]:
        """The Spirits p controls on the battlefield; with `ref`, those actions
        name so (Token.ref: one p owns, or one another player owns)."""
        return [t for t in self.tokens if t.controller == p and t.zone == "battlefield" and ref in (None, t.ref)]

    def _spirit_refs(self, p: int) -> list[str]:
        """One name per kind of Spirit p controls: Spirits of one owner are alike."""
        return list(dict.fromkeys(t.ref for t in self._spirits(p)))

    def _declarer(self) -> int:
        """103.4: the first player declares first, then the others in turn order."""
        for p in self._order_from(self.first_player):
            if self.mulligan_declared[p] == -1:
                return p
        return -1

    # --- candidates and their problems -------------------------------------------------------

    def _candidates(self) -> list[Action]:
        if self.step in ("shuffle", "first_player"):
            return [a for a, _ in self.chance_outcomes()]
        p = self.current_player()
        if self.step == "mulligan":
            return [Action("mulligan", p, count=k) for k in range(len(self.hands[p]) + 1)]
        if self.step == "priority":
            return [Action("pass", p)] + self._activations(p) + self._plays(p)
        if self.step == "council":
            c = self.council
            if c.picked[p] is None and not c.rechoosing:
                # Reading: which card is chosen is hidden (101.4a); cards of one name
                # are alike, so one choice is offered per name (any index is accepted).
                firsts: dict[str, int] = {}
                for i, name in enumerate(self.hands[p]):
                    firsts.setdefault(name, i)
                return [Action("choose", p, card=i) for i in firsts.values()]
            return [Action("answer", p, choice=x) for x in ("accept", "refuse")]
        if self.step == "optional_trigger":
            t = self.waiting[0]
            return [Action("optional", p, source=t.card, choice=x) for x in ("create", "decline")]
        return []

    def _activations(self, p: int) -> list[Action]:
        """assumed:priority, assumed:once-per-turn: every ability p may activate now,
        once per legal target; one with no legal target is not offered."""
        out = []
        for e in self.entities:
            if e.controller != p or e.card.timing != "activated" or e.silenced or e.used:
                continue
            target = ABILITIES[e.card.ability].target
            if target is None:
                out.append(Action("activate", p, e.ref))
            elif target == "player":
                out += [Action("activate", p, e.ref, q) for q in self.in_game()]
            elif target == "any_token":
                out += [Action("activate", p, e.ref, q, ref) for q in self.in_game() for ref in self._spirit_refs(q)]
            elif target == "own_token":
                out += [Action("activate", p, e.ref, p, ref) for ref in self._spirit_refs(p)]
            elif target == "other_entity":
                out += [Action("activate", p, e.ref, o.controller, o.ref) for o in self.entities
                        if o is not e and o.card.timing != "activated"]
            elif target == "opponent_entity":
                # An entity card or a Spirit token (109.1: both are entities;
                # 109.5e: an effect on entities reaches tokens).
                out += [Action("activate", p, e.ref, o.controller, o.ref) for o in self.entities if o.controller != p]
                out += [Action("activate", p, e.ref, q, ref) for q in self.in_game() if q != p
                        for ref in self._spirit_refs(q)]
        return out

    def _plays(self, p: int) -> list[Action]:
        """assumed:play-from-hand, 106.3: one play per card name in p's hand that
        can be played and whose requirements p meets (cards of a name are alike)."""
        out = []
        for n in dict.fromkeys(self.hands[p]):
            effect = self.pool.card(n).effect
            if effect in GIVE_CONTROL:
                # Once per opponent and entity p controls (108.4: "you" is p), a
                # Spirit token among them (109.1, 109.5e).
                refs = [e.ref for e in self.entities if e.controller == p] + self._spirit_refs(p)
                out += [a for a in (Action("play", p, source=n, target=q, target_card=ref)
                                    for ref in refs for q in self.in_game() if q != p)
                        if self._play_problem(p, n, None, a.target, a.target_card) is None]
                continue
            # 105.3: a card that asks for an attribute is offered once per attribute.
            choices = ATTRIBUTES if effect in CHOOSE_ATTRIBUTE else (None,)
            out += [Action("play", p, source=n, choice=x) for x in choices if self._play_problem(p, n, x) is None]
        return out

    def _problem(self, a: Any) -> Problem | None:
        if not isinstance(a, Action):
            return "assumed:priority", f"not an action: {a!r}"
        if a.kind not in TAKES:
            return "assumed:priority", f"unknown kind of action {a.kind!r}; kinds: {', '.join(TAKES)}"
        if a.stray_fields():
            return "assumed:priority", f"a {a.kind} action takes no {', '.join(a.stray_fields())}"
        if self.step == "game_over":
            return "104.1", "the game is over"
        check = getattr(self, f"_check_{a.kind}", None)
        if check is None:
            return "assumed:priority", f"unknown kind of action {a.kind!r}"
        return check(a)

    def _check_shuffle(self, a: Action) -> Problem | None:
        """103.1: the decks are shuffled once, as the game starts, by chance."""
        if self.step != "shuffle":
            return "103.1", "the decks are shuffled once, as the game starts"
        if a.player != CHANCE:
            return "103.1", "the shuffle is chance's, not a player's"
        return None

    def _check_first_player(self, a: Action) -> Problem | None:
        """103.2: after the shuffle, chance picks the first player among those in the game."""
        if self.step != "first_player":
            return "103.2", "the first player is picked once, right after the shuffle"
        if a.player != CHANCE:
            return "103.2", "the first player is picked at random, not by a player"
        if a.target not in self.in_game():
            return "103.2", f"{a.target!r} is not a player in the game"
        return None

    def _check_mulligan(self, a: Action) -> Problem | None:
        """103.4: one declaration each, the first player first, then in turn order;
        any number of cards from 0 (keep) to the hand's size."""
        if self.step != "mulligan":
            why = "each player mulligans at most once, as the game starts" if self.mulligan_done \
                else "mulligans are declared after the opening hands are drawn"
            return "103.4", why
        if a.player != self._declarer():
            return "103.4", f"{seat(self._declarer())} declares now"
        hand = len(self.hands[a.player])
        if not isinstance(a.count, int) or isinstance(a.count, bool) or not 0 <= a.count <= hand:
            return "103.4", f"a mulligan is of 0 to {hand} cards, not {a.count!r}"
        return None

    def _priority_turn(self, a: Action) -> Problem | None:
        """assumed:priority: only the player holding priority acts."""
        if self.step != "priority":
            return "assumed:priority", f"no one holds priority in the {self.step} step"
        if a.player != self.priority:
            return "assumed:priority", f"{seat(self.priority)} holds priority"
        return None

    def _check_pass(self, a: Action) -> Problem | None:
        return self._priority_turn(a)

    def _check_activate(self, a: Action) -> Problem | None:
        """assumed:priority, 109.2, 108.4: the entity's controller activates its
        ability while holding priority; 101.2a: not while it has lost its
        abilities; assumed:once-per-turn; and the target must be legal."""
        problem = self._priority_turn(a)
        if problem:
            return problem
        e = self._entity(a.player, a.source)
        if e is None:
            if any(a.source in (o.name, o.ref) for o in self.entities):
                return "109.2", f"{seat(a.player)} does not control {a.source}: only its controller activates it"
            return "109.1", f"no entity named {a.source!r} is on the battlefield"
        if e.card.timing != "activated":
            return "assumed:priority", f"{e.name}'s ability is {e.card.timing}, not activated"
        if e.silenced:
            return "101.2a", f"{e.name} has lost its abilities until end of turn"
        if e.used:
            return "assumed:once-per-turn", f"{e.name}'s ability was activated this turn already"
        return self._target_problem(e, a)

    def _check_play(self, a: Action) -> Problem | None:
        """assumed:play-from-hand: the player holding priority plays a card from
        their hand; 106.3: only if their attribute values meet its requirements."""
        return self._priority_turn(a) or self._play_problem(a.player, a.source, a.choice, a.target, a.target_card)

    def _play_problem(self, p: int, name: Any, choice: Any = None, target: Any = None,
                      target_card: Any = None) -> Problem | None:
        if name not in self.hands[p]:
            return "assumed:play-from-hand", f"{seat(p)} has no card named {name!r} in hand"
        card = self.pool.card(name)
        if not card.playable:
            return "assumed:play-from-hand", f"{name} is neither a basic attribute card nor a spell: it has nothing to play"
        if card.effect in CHOOSE_ATTRIBUTE and choice not in ATTRIBUTES:
            return "105.3", f"{name} asks for exactly one of {', '.join(ATTRIBUTES)}, not {choice!r}"
        if card.effect not in CHOOSE_ATTRIBUTE and choice is not None:
            return "assumed:play-from-hand", f"{name} asks for no choice"
        if card.effect in GIVE_CONTROL:
            problem = self._gift_problem(p, name, target, target_card)
            if problem:
                return problem
        elif target is not None or target_card is not None:
            return "assumed:play-from-hand", f"{name} takes no target"
        values = self.attribute_values(p)
        short = [f"{need} {attr} (has {values[attr]})" for attr, need in card.requires if values[attr] < need]
        if short:
            return "106.3", f"{name} needs {', '.join(short)}"
        return None

    def _gift_problem(self, p: int, name: str, target: Any, target_card: Any) -> Problem | None:
        """Gift of Fealty: 108.4: its "you" is the player playing it (the card's
        would-be controller), so the target is an opponent of p still in the game
        (104.5) and an entity p controls (109.2), named as p names it: a Spirit
        token p controls is one (109.1, 109.5e)."""
        if target not in self.in_game():
            return "104.5", f"{target!r} is no player in the game"
        if target == p:
            return "108.4", f"{name} gives an entity to an opponent of {seat(p)}, not to {seat(p)}"
        if self._entity(p, target_card) is None and not self._spirits(p, target_card):
            spirit = any(t.zone == "battlefield" and target_card in ("Spirit", f"{seat(t.owner)}'s Spirit")
                         for t in self.tokens)
            if spirit or any(target_card in (o.name, o.ref) for o in self.entities):
                return "109.2", f"{seat(p)} does not control {target_card}: {name} gives an entity you control"
            return "109.1", f"no entity named {target_card!r} is on the battlefield"
        return None

    def _target_problem(self, e: Entity, a: Action) -> Problem | None:
        """The target each ability asks for: a player in the game (104.5: a player
        who left is none); a Spirit on the battlefield (108.2); for Rewind Portal one
        you control (108.4); for Silencing Rune another entity (109.1)."""
        kind = ABILITIES[e.card.ability].target
        if kind is None:
            if a.target is not None or a.target_card is not None:
                return "assumed:priority", f"{e.name} takes no target"
            return None
        if a.target not in self.in_game():
            return "104.5", f"{a.target!r} is no player in the game"
        if kind == "player":
            if a.target_card is not None:
                return "104.5", f"{e.name} targets a player, not {a.target_card!r}"
            return None
        if kind in ("any_token", "own_token"):
            if kind == "own_token" and a.target != a.player:
                return "108.4", f"{e.name} targets a token you control, not one of {seat(a.target)}'s"
            if not self._spirits(a.target, a.target_card):
                return "108.2", f"{seat(a.target)} controls no {a.target_card!r} on the battlefield"
            return None
        if kind == "opponent_entity" and self._spirits(a.target, a.target_card):
            # 109.5e: a Spirit is an entity Mind Tether may take.
            if a.target == a.player:
                return "108.4", f"{e.name} targets an entity an opponent of {seat(a.player)} controls, not " \
                                f"{seat(a.player)}'s own {a.target_card}"
            return None
        other = self._entity(a.target, a.target_card)
        if other is None and kind == "opponent_entity" and a.target_card in self.hands[a.target]:
            return "107.3", f"{a.target_card} in {seat(a.target)}'s hand has no controller (only objects on " \
                            f"the stack and the battlefield have one), so no opponent controls it"
        if other is None or other is e:
            return "109.1", f"{e.name} targets another entity on the battlefield, " \
                            f"not {seat(a.target)}'s {a.target_card!r}"
        if kind == "opponent_entity":
            if other.controller == a.player:
                # 108.4: "an opponent" is read from the activator, the ability's controller.
                return "108.4", f"{e.name} targets an entity an opponent of {seat(a.player)} controls, not " \
                                f"{seat(a.player)}'s own {other.ref}"
            return None
        if other.card.timing == "activated":
            return "108.4", f"{e.name} targets an entity with a static or triggered ability, " \
                            f"not {seat(a.target)}'s {other.name}"
        return None

    def _council_turn(self, a: Action) -> Problem | None:
        """101.4: the council's players act one at a time, the active player first."""
        if self.step != "council":
            return "101.4", f"no council is choosing in the {self.step} step"
        if a.player != self.council.chooser:
            return "101.4", f"{seat(self.council.chooser)} chooses now"
        return None

    def _check_choose(self, a: Action) -> Problem | None:
        """101.4c: the card first, then the answer; 101.4d: a player answering
        again does not choose a new card; 101.4a: a card in one's own hand."""
        problem = self._council_turn(a)
        if problem:
            return problem
        c = self.council
        if c.rechoosing:
            return "101.4d", f"{seat(a.player)} answers again; the card chosen stays chosen"
        if c.picked[a.player] is not None:
            return "101.4c", f"{seat(a.player)} has made the card choice; now the answer"
        hand = self.hands[a.player]
        if not isinstance(a.card, int) or isinstance(a.card, bool) or not 0 <= a.card < len(hand):
            return "101.4a", f"no card {a.card!r} in a hand of {len(hand)}"
        return None

    def _check_answer(self, a: Action) -> Problem | None:
        """101.4c: the answer comes after the card choice."""
        problem = self._council_turn(a)
        if problem:
            return problem
        if self.council.picked[a.player] is None and not self.council.rechoosing:
            return "101.4c", f"{seat(a.player)} first chooses a card, then answers"
        if a.choice not in ("accept", "refuse"):
            return "101.4", f"the answer is accept or refuse, not {a.choice!r}"
        return None

    def _check_optional(self, a: Action) -> Problem | None:
        """assumed:trigger-order: an optional trigger waits for its controller's choice."""
        if self.step != "optional_trigger":
            return "assumed:trigger-order", f"no optional trigger waits in the {self.step} step"
        t = self.waiting[0]
        if a.player != t.token_controller:
            return "assumed:trigger-order", f"{seat(t.token_controller)} decides for {t.card}"
        if a.source != t.card or a.choice not in ("create", "decline"):
            return "assumed:trigger-order", f"the choice is to create a Spirit or decline ({t.card})"
        return None

    # --- the start of the game (103.1-103.5a) -----------------------------------------------------------

    def _do_shuffle(self, a: Action) -> None:
        """103.1: every library is shuffled."""
        for library in self.libraries:
            self.rng.shuffle(library)
        self.step = "first_player"

    def _do_first_player(self, a: Action) -> None:
        """103.2 the first player; 103.3 no damage and starting life for all;
        103.4 everyone draws the opening hand, then the mulligan declarations."""
        self.first_player = a.target
        self.damage = [0] * self.num_players
        self.history.append(f"every player starts with {self.starting_life} life and no damage (103.3)")
        for p in self.in_game():
            self._draw(p, OPENING_HAND)
        self.history.append(f"every player draws {OPENING_HAND} cards (103.4)")
        self.step = "mulligan"

    def _do_mulligan(self, a: Action) -> None:
        """103.4: declared counts are public; once all are in, the mulligans happen."""
        self.mulligan_declared[a.player] = a.count
        if self._declarer() == -1:
            self._mulligans()

    def _mulligans(self) -> None:
        """103.4: every player who declared a count mulligans at the same time:
        sets that many cards aside face down, draws as many (104.3c if the library
        runs short), then shuffles the set-aside cards into the library. Once per
        game (mulligan_done); then 103.5 the first player's first turn.
        Reading: the rule lets a player choose which cards to set aside; the
        engine picks them with the game's RNG, so a declaration is just a count,
        and the count set aside is the one declared, though 103.4 also speaks of
        "any number" (assumed:declared-mulligan-count)."""
        doing = [p for p in self._order_from(self.first_player) if self.mulligan_declared[p] > 0]
        aside: dict[int, list[str]] = {}
        for p in doing:
            hand = self.hands[p]
            picks = sorted(self.rng.sample(range(len(hand)), self.mulligan_declared[p]))
            aside[p] = [hand[i] for i in picks]
            self.hands[p] = [c for i, c in enumerate(hand) if i not in picks]
        for p in doing:
            self._draw(p, len(aside[p]))
        for p in doing:
            self.libraries[p].extend(aside[p])
            self.rng.shuffle(self.libraries[p])
            self.history.append(f"{seat(p)} mulligans {len(aside[p])}: sets them aside face down, draws, "
                                f"and shuffles them into the library (103.4)")
        if not doing:
            self.history.append("every player keeps their hand (103.4)")
        self.mulligan_declared = [-1] * self.num_players
        self.mulligan_done = True
        start = self.first_player if self.status[self.first_player] == "playing" \
            else self._next_in_game(self.first_player)
        self._begin_turn(start)

    # --- turns (assumed) ------------------------------------------------------------------------

    def _begin_turn(self, p: int) -> None:
        """102.1 p is the active player; assumed:draw-step: the turn begins with a
        draw, except 103.5a (the first player's first turn in a two-player game);
        then the check and priority for p (assumed:priority-check)."""
        self.active = p
        self.turn += 1
        # 103.5: the game's first turn is the first player's.
        # Reading: if the first player left before it began, the turn is another's
        # and no "first turn" is marked.
        self.first_turn = self.turn == 1 and p == self.first_player
        self.passed = []
        self.priority = -1
        self.step = "priority"
        self.history.append(f"{seat(p)}'s turn {self.turn} begins")
        # 103.5a's "two-player game" counts the seats the game began with, not
        # the players still in it (assumed:two-player-by-seats).
        if self.first_turn and self.num_players == 2:
            self.history.append(f"{seat(p)} skips the draw of the first turn (103.5a)")
        else:
            self._draw(p, 1)
        self._settle()

    def _end_turn(self) -> None:
        """assumed:turn-end: "until end of turn" effects end (silence), once-per-turn
        uses reset, and the next player in the game in turn order begins a turn."""
        for e in self.entities:
            e.silenced = False
            e.used = False
        self.history.append(f"{seat(self.active)}'s turn ends")
        self.first_turn = False
        self._begin_turn(self._next_in_game(self.active))

    def _do_pass(self, a: Action) -> None:
        """assumed:priority: passing gives priority to the next player in the game;
        once every player in the game has passed in succession, the turn ends."""
        self.passed.append(a.player)
        self._pass_on(a.player)

    def _pass_on(self, holder: int) -> None:
        if all(q in self.passed for q in self.in_game()):
            self._end_turn()
            return
        self._settle(give_to=self._next_in_game(holder))

    def _active_left(self) -> None:
        """assumed:active-player-leaves: when the active player leaves a game of three
        or more, their turn ends as soon as no resolution is under way, and the next
        player in the game after them begins a turn."""
        self.history.append(f"{seat(self.active)} has left: the turn passes on")
        self._end_turn()

    # --- the check and waiting triggers ------------------------------------------------------

    def _settle(self, give_to: int | None = None, resolved: bool = False) -> None:
        """assumed:priority-check, assumed:trigger-order: before anyone gets
        priority, and after every resolution, one check; then the oldest waiting
        trigger resolves, another check, and so on; a mandatory trigger resolves by
        itself, an optional one waits for its controller. With none waiting,
        priority goes to `give_to` (after a pass) or else to the active player, and
        the run of passes starts over (after a resolution or as a turn begins).
        104.4b: the state after each resolution without a decision in between is
        fingerprinted; a repeat is a loop of mandatory actions, a draw (the
        concessions open all the while are no choice within it:
        assumed:concession-outside-loops)."""
        seen: set[str] = set()
        if resolved:
            seen.add(self._fingerprint())
        count = 0
        while True:
            self._check(loud=resolved)
            if self.step == "game_over":
                return
            if not self.waiting:
                break
            t = self.waiting[0]
            if t.optional:
                self.step, self.priority = "optional_trigger", -1
                return
            self.waiting.pop(0)
            self._resolve_trigger(t)
            if self.step == "game_over":
                return
            resolved, give_to, count = True, None, count + 1
            fp = self._fingerprint()
            if fp in seen or count > LOOP_CAP:
                self._draw_game("104.4b: a loop of mandatory actions")
                return
            seen.add(fp)
        if self.status[self.active] != "playing":
            self._active_left()
            return
        if resolved or give_to is None:
            give_to = self.active
            self.passed = []
        self.step, self.priority = "priority", give_to

    def _check(self, loud: bool = True) -> None:
        """assumed:priority-check, all at once:
        1. 109.5f: every token anywhere but the battlefield vanishes;
        2. 104.3b: a player with damage at least their starting life loses;
           104.3c: so does one who tried to draw from an empty library since the
           last check; 101.1, 101.2: not a player who can't lose (Aegis); every
           check clears the empty-library marks;
        3. 104.5: losers leave; 104.4a: if every player still in the game lost,
           the game is a draw; 104.2a: a lone player left wins."""
        for t in [t for t in self.tokens if t.zone != "battlefield"]:
            self.tokens.remove(t)
            self.history.append(f"{seat(t.owner)}'s Spirit vanishes (109.5f)")
        losers: list[tuple[int, str]] = []
        for p in self.in_game():
            reasons = []
            if self.damage[p] >= self.starting_life:
                reasons.append(f"104.3b: {self.damage[p]} damage")
            if self.drew_from_empty[p]:
                reasons.append("104.3c: drew from an empty library")
            if not reasons:
                continue
            if self.can_lose(p):
                losers.append((p, "; ".join(reasons)))
            elif loud or self.drew_from_empty[p]:
                self.history.append(f"{seat(p)} can't lose ({'; '.join(reasons)}; 101.2: Aegis of Immortality)")
        self.drew_from_empty = [False] * self.num_players
        if not losers:
            return
        everyone = len(losers) == len(self.in_game())
        for p, why in losers:
            self.history.append(f"{seat(p)} loses ({why})")
        if everyone:
            self._draw_game("104.4a: every player still in the game lost at once")
            return
        for p, _ in losers:
            self.status[p] = "lost"
            self._leave(p)
        self._last_standing()

    def _fingerprint(self) -> str:
        """The whole state but its history, the RNG (no mandatory action uses it)
        and token ids, which are replaced by their place among the tokens."""
        rank = {t.id: i for i, t in enumerate(self.tokens)}
        return repr((
            self.snapshot(), self.turn, self.libraries, self.hands, self.discards, self.passed,
            [(t.owner, t.controller, t.zone) for t in self.tokens],
            [(w.card, w.controller, w.token_controller, rank.get(w.token)) for w in self.waiting],
        ))

    def _trigger(self, event: str, token: Token) -> None:
        """assumed:trigger-order, 108.4: each entity whose ability watches the event
        gets a waiting trigger, controlled by the entity's controller; 101.2a: an
        entity that lost its abilities does not trigger.
        Reading: triggers of one event wait in turn order of their controllers
        from the active player (101.4's active-player-first), then in table order."""
        start = self.active if self.active >= 0 else 0
        order = {q: k for k, q in enumerate((start + k) % self.num_players for k in range(self.num_players))}
        fired = [e for e in self.entities if e.card.timing == "triggered" and not e.silenced
                 and ABILITIES[e.card.ability].event == event]
        fired.sort(key=lambda e: order[e.controller])
        for e in fired:
            self.waiting.append(Trigger(e.name, e.card.ability, e.controller, token.controller, token.id,
                                        ABILITIES[e.card.ability].optional))
            self.history.append(f"{seat(e.controller)}'s {e.name} triggers ({seat(token.controller)}'s Spirit "
                                f"{'enters' if event == 'token_enters' else 'leaves'} the battlefield)")

    def _resolve_trigger(self, t: Trigger) -> None:
        """The mandatory triggers: Culling Field destroys the token that entered,
        which goes to the graveyard (assumed:destroy; 101.3: if it has already
        left, nothing happens); Echo Chamber makes that
        token's controller create a Spirit: the controller it had as it left
        (assumed:last-known-controller), since 107.3 gives none to a token off
        the battlefield."""
        if t.ability == "destroy_entering_token":
            token = next((x for x in self.tokens if x.id == t.token and x.zone == "battlefield"), None)
            if token is None:
                self.history.append(f"{seat(t.controller)}'s {t.card}: that Spirit has already left the "
                                    f"battlefield, nothing to destroy (101.3)")
                return
            self._move_token(token, "discard", f"{seat(t.controller)}'s {t.card} destroys it")
        elif t.ability in ("echo_spirit", "echo_spirit_optional"):
            self._create_spirit(t.token_controller, t.card)

    def _do_optional(self, a: Action) -> None:
        """assumed:trigger-order: the optional trigger resolves as chosen.
        Whispering Echo's text gives the choice to the controller of the token that
        left ("that token's controller may create a Spirit"), and the Spirit is
        created under that player's control (109.2a)."""
        t = self.waiting.pop(0)
        if a.choice == "create":
            self._create_spirit(t.token_controller, t.card)
        self._settle(resolved=True)

    # --- tokens (107.1-107.3, 109.5-109.5g) ---------------------------------------------------------------------

    def _create_spirit(self, p: int, source: str) -> None:
        """107.1, 107.2, 109.2a, 109.5a, 109.5c: a 1/1 Spirit unit token, named for its
        unit type, enters the battlefield owned and controlled by its creator;
        109.5d: with a Warding Sigil (with its abilities) on the battlefield it is
        not created at all; 101.3: nor for a player who has left."""
        if self.status[p] != "playing":
            self.history.append(f"{source}: {seat(p)} has left the game, no Spirit is created (101.3)")
            return
        sigils = self._live("spirits_cant_enter")
        if sigils:
            self.history.append(f"no Spirit is created for {seat(p)} ({source}; 109.5d: "
                                f"{seat(sigils[0].controller)}'s {sigils[0].name})")
            return
        token = Token(self.next_token, p, p)
        self.next_token += 1
        self.tokens.append(token)
        self.history.append(f"{seat(p)} creates a Spirit token ({source})")
        self._trigger("token_enters", token)

    def _move_token(self, token: Token, zone: str, why: str) -> None:
        """A token leaves the battlefield: its leaving triggers trigger now; it
        vanishes at the next check (109.5f)."""
        token.zone = zone
        self.history.append(f"{seat(token.controller)}'s Spirit goes to {zone} ({why})")
        self._trigger("token_leaves", token)

    # --- activated abilities (assumed:resolve-at-once, assumed:no-costs) ------------------------

    def _do_activate(self, a: Action) -> None:
        """assumed:once-per-turn, assumed:no-costs, assumed:resolve-at-once: the
        ability is marked used and resolves at once; then the check and priority
        for the active player (assumed:priority), unless it opened a council."""
        e = self._entity(a.player, a.source)
        e.used = True
        ability = StackObject(e.name, "ability", e.owner, a.player)
        self.stack.append(ability)
        getattr(self, f"_ability_{e.card.ability}")(e, a)
        if self.step in ("game_over", "council"):
            return
        self._finish_resolving(ability)
        self._after_resolution()

    def _do_play(self, a: Action) -> None:
        """assumed:play-from-hand: the card leaves the hand and resolves at once
        (assumed:resolve-at-once); a basic attribute card gives its player one
        point of its attribute for the rest of the game (106.1, 106.2); a spell
        does what it says. Neither can enter the battlefield (109.4): both go to
        their owner's discard pile (assumed:played-card-discarded). Then the check
        and priority for the active player, as after any resolution."""
        p, card = a.player, self.pool.card(a.source)
        self.hands[p].remove(card.name)
        # 107.3, 108.4: on the stack the card has a controller, the player playing it.
        played = StackObject(card.name, "played card", p, p)
        self.stack.append(played)
        if card.basic:
            (attr,) = card.attributes
            self.attributes[p][attr] += 1
            self.history.append(f"{seat(p)} plays {card.name}: {attr} {self.attributes[p][attr]}")
        else:
            self.history.append(f"{seat(p)} plays {card.name}")
            getattr(self, f"_effect_{card.effect}")(p, a if card.effect in GIVE_CONTROL else a.choice)
        if self.step in ("game_over", "council"):
            return
        self._finish_resolving(played)
        self._after_resolution()

    def _finish_resolving(self, done: StackObject | None) -> None:
        """`done` has resolved and leaves the stack: an ability is over; a played
        card goes to its owner's discard pile (107.1, assumed:played-card-discarded),
        whoever controlled it. One whose controller left while it resolved has
        gone with them already (assumed:leaver-objects)."""
        if not any(o is done for o in self.stack):
            return
        self.stack.remove(done)
        if done.kind == "played card":
            self.discards[done.owner].append(done.name)

    def _effect_draw_a_card(self, p: int, choice: None) -> None:
        """Arcane Study: its player draws a card (from an empty library, 104.3c acts at the check)."""
        self._draw(p, 1)

    def _effect_council(self, p: int, choice: None) -> None:
        """Call to Council: the council of 101.4, for the player who plays it (108.4)."""
        self._convene(p)

    def _effect_give_control(self, p: int, a: Action) -> None:
        """Gift of Fealty: the target opponent controls the entity from now on;
        its owner stays (107.1, 109.2) and its "you" is its new controller (108.4).
        A Spirit token is given alike (109.5e)."""
        if self._move_spirit(p, a.target_card, a.target):
            return
        given = self._entity(p, a.target_card)
        given.controller = a.target
        self.history.append(f"{seat(a.target)} gains control of {seat(p)}'s {given.name} "
                            f"(107.2; its owner is still {seat(given.owner)})")

    def _effect_gain_chosen_attribute(self, p: int, choice: str) -> None:
        """Attunement: one point of the chosen attribute (105.3) for the rest of the
        game (106.2), counted with the points of played attribute cards."""
        self.attributes[p][choice] += 1
        self.history.append(f"{seat(p)} chooses {choice}: {choice} {self.attributes[p][choice]}")

    def _after_resolution(self) -> None:
        self.passed = []
        self._settle(resolved=True)

    def _ability_damage_player(self, e: Entity, a: Action) -> None:
        """Ember Bolt: 10 damage to the target player (104.3b acts at the check)."""
        self.damage[a.target] += BOLT_DAMAGE
        self.history.append(f"{seat(e.controller)}'s {e.name} deals {BOLT_DAMAGE} damage to {seat(a.target)} "
                            f"({self.damage[a.target]} in all)")

    def _ability_target_draws_three(self, e: Entity, a: Action) -> None:
        """Tome of Ages: the target draws three (104.3c if the library runs short)."""
        self._draw(a.target, TOME_DRAWS)

    def _ability_create_spirit(self, e: Entity, a: Action) -> None:
        """Spirit Caller: 109.2a, 109.5a: a Spirit under the activator's control."""
        self._create_spirit(e.controller, e.name)

    def _ability_return_token(self, e: Entity, a: Action) -> None:
        """Banishing Gale: the token goes to its owner's hand (107.1), where it
        vanishes at the next check (109.5f). Spirits of one controller and owner are alike."""
        token = self._spirits(a.target, a.target_card)[0]
        self._move_token(token, "hand", f"{seat(e.controller)}'s {e.name}")

    def _ability_flicker_own_token(self, e: Entity, a: Action) -> None:
        """Rewind Portal: exile the token; 109.5g: a token that left the battlefield
        can't return, so 101.3 skips the return and it stays in exile. The exile
        is still done: 101.3's "no effect" is taken as the omitted action's, not
        the whole instruction's (assumed:impossible-action-only)."""
        token = self._spirits(a.target, a.target_card)[0]
        self._move_token(token, "exile", f"{seat(e.controller)}'s {e.name}")
        self.history.append(f"{seat(token.controller)}'s Spirit can't return to the battlefield (109.5g): "
                            f"it stays in exile (101.3)")

    def _move_spirit(self, controller: int, ref: str, taker: int, how: str = "") -> bool:
        """109.5e: an effect that moves an entity's control moves a Spirit named
        `ref` that `controller` controls to `taker`, if there is one; its owner
        stays (107.1). Whether one was there to move."""
        spirits = self._spirits(controller, ref)
        if not spirits:
            return False
        token = spirits[0]
        before = f"{seat(controller)}'s Spirit" if token.owner == controller else \
            f"{seat(token.owner)}'s Spirit under {seat(controller)}'s control"
        token.controller = taker
        self.history.append(f"{seat(taker)} gains control of {before}{how} "
                            f"(109.5e, 107.2; its owner is still {seat(token.owner)})")
        return True

    def _ability_gain_control(self, e: Entity, a: Action) -> None:
        """Mind Tether: the target changes controller for the rest of the game; its
        owner stays who put it in the game (107.1, 109.2). From now on its "you"
        is the new controller (108.4): Aegis keeps them from losing, Gatekeeper
        stops their opponents, and only they activate its ability (109.2).
        Reading: an ability used this turn stays used under its new controller
        (assumed:once-per-turn counts uses of the ability, not of a player).
        A Spirit token is taken alike (109.5e): it stays its owner's (107.1), and
        an echo's "that token's controller" is then the taker (108.4)."""
        if self._move_spirit(a.target, a.target_card, e.controller, f" with {e.name}"):
            return
        other = self._entity(a.target, a.target_card)
        before = f"{seat(other.controller)}'s {other.name}"
        other.controller = e.controller
        self.history.append(f"{seat(e.controller)} gains control of {before} with {e.name} "
                            f"(107.2; its owner is still {seat(other.owner)})")

    def _ability_silence_other(self, e: Entity, a: Action) -> None:
        """Silencing Rune: 101.2a: the target loses its abilities until end of turn
        (no "can't" against "can": it simply has none).
        Reading: tokens have no abilities to lose, so only entity cards are offered."""
        other = self._entity(a.target, a.target_card)
        other.silenced = True
        self.history.append(f"{seat(a.target)}'s {other.name} loses all its abilities until end of turn (101.2a)")

    def _ability_win(self, e: Entity, a: Action) -> None:
        """Pact of Victory: 104.2b, unless the player can't win (101.2: Gatekeeper)."""
        if self.can_win(e.controller):
            self._win(e.controller, f"104.2b: {e.name}")
        else:
            self._cant_win_note(e.controller, e.name)

    def _ability_target_loses(self, e: Entity, a: Action) -> None:
        """Curse of Ruin: 104.3d, at once, unless the target can't lose (101.2: Aegis)."""
        self._lose_now(a.target, f"104.3d: {e.name}")

    def _ability_draw_game(self, e: Entity, a: Action) -> None:
        """Truce Banner: 104.4c."""
        self._draw_game(f"104.4c: {e.name}")

    def _ability_win_and_target_loses(self, e: Entity, a: Action) -> None:
        """Twin Fates: the controller wins (104.2b) and the target loses (104.3d) at
        the same time; 101.2: Gatekeeper stops the win, Aegis the loss; 104.3e: a
        player who would both win and lose loses."""
        p, t = e.controller, a.target
        wins, loses = self.can_win(p), self.can_lose(t)
        if not wins:
            self._cant_win_note(p, e.name)
        if not loses:
            self.history.append(f"{seat(t)} can't lose (104.3d: {e.name}; 101.2: Aegis of Immortality)")
        if t == p and wins and loses:
            self.history.append(f"{seat(p)} would win and lose at the same time: {seat(p)} loses (104.3e)")
            self._lose_now(p, f"104.3e: {e.name}")
        elif wins and loses:
            self.history.append(f"{seat(t)} loses (104.3d: {e.name})")
            self.status[t] = "lost"
            self._leave(t)
            self._win(p, f"104.2b: {e.name}")
        elif wins:
            self._win(p, f"104.2b: {e.name}")
        elif loses:
            self._lose_now(t, f"104.3d: {e.name}")

    def _ability_council(self, e: Entity, a: Action) -> None:
        """Council of Elders: the council of 101.4, for its controller (108.4)."""
        self._convene(e.controller)

    def _convene(self, p: int) -> None:
        """101.4: the players choose one at a time, the active player first, then
        the others in turn order; the choices take effect together once all have
        chosen. Until then the ability or played card that convened it stays on
        the stack under p's control (107.3, 108.4)."""
        n = self.num_players
        self.council = Council(p, self._order_from(self.active), [None] * n, [None] * n, [None] * n)
        self.step, self.priority = "council", -1
        self._council_advance()

    # --- the council (101.4, 101.4a-101.4d) ----------------------------------------------------

    def _council_advance(self) -> None:
        """101.3: a player with no card in hand skips the card choice (and still
        answers); once no one is left to choose, the council resolves."""
        c = self.council
        if not c.queue:
            self._council_finish()
            return
        p = c.queue[0]
        if c.picked[p] is None and not c.rechoosing and not self.hands[p]:
            c.picked[p] = False
            self.history.append(f"{seat(p)} has no card in hand to choose (101.3)")

    def _do_choose(self, a: Action) -> None:
        """101.4a: the card stays in the hand, face down and marked as chosen; no
        other player learns which (observation_for shows "a chosen card")."""
        self.council.picked[a.player] = True
        self.council.chosen[a.player] = a.card

    def _do_answer(self, a: Action) -> None:
        """101.4b: the answer is public. 101.4d: a defending player's refusal while
        the active player's answer is "accept" makes the active player answer
        again (the new answer replaces the old; the card chosen stays chosen);
        then the players who have not chosen go on in turn order."""
        c = self.council
        p = a.player
        c.answers[p] = a.choice
        c.queue.pop(0)
        if c.rechoosing:
            c.rechoosing = False
        elif p != self.active and a.choice == "refuse" and self.status[self.active] == "playing" \
                and c.answers[self.active] == "accept":
            c.rechoosing = True
            c.queue.insert(0, self.active)
            self.history.append(f"{seat(p)} refuses while {seat(self.active)} accepts: "
                                f"{seat(self.active)} answers again (101.4d)")
        self._council_advance()

    def _council_finish(self) -> None:
        """101.4: the choices take effect together: every chosen card is discarded
        at the same time, then every player who accepted draws a card at the same
        time (104.3c applies); then the check and priority as after any resolution."""
        c = self.council
        gone = []
        for p in self.in_game():
            if c.chosen[p] is not None:
                card = self.hands[p].pop(c.chosen[p])
                self.discards[p].append(card)
                gone.append(f"{seat(p)}'s {card}")
        self.history.append("the chosen cards are discarded: " + (", ".join(gone) or "none"))
        for p in self._order_from(self.active):
            if c.answers[p] == "accept":
                self._draw(p, 1)
        self.council = None
        self._finish_resolving(self.stack[-1] if self.stack else None)
        self._after_resolution()

    # --- drawing, winning, losing, leaving (104.1-104.5) -------------------------------------------------

    def _draw(self, p: int, count: int) -> None:
        """104.3c: a player asked to draw more cards than the library holds draws
        what is left and is marked; they lose at the next check."""
        drawn = 0
        for _ in range(count):
            if not self.libraries[p]:
                self.drew_from_empty[p] = True
                self.history.append(f"{seat(p)} draws {drawn} of {count}: the library is empty (104.3c)")
                return
            self.hands[p].append(self.libraries[p].pop(0))
            drawn += 1
        if count < OPENING_HAND:
            self.history.append(f"{seat(p)} draws {count}")

    def _cant_win_note(self, p: int, source: str) -> None:
        keeper = next(e for e in self._live("opponents_cant_win") if e.controller != p)
        self.history.append(f"{seat(p)} can't win (104.2b: {source}; 101.2: {seat(keeper.controller)}'s {keeper.name})")

    def _win(self, p: int, why: str) -> None:
        """104.1: the game ends at once; every other player still in it has lost."""
        self.status[p] = "won"
        for q in self.in_game():
            self.status[q] = "lost"
        self.history.append(f"{seat(p)} wins the game ({why})")
        self._game_over()

    def _lose_now(self, p: int, why: str) -> None:
        """104.3d (and 104.3e): a loss an effect causes happens at once, unless the
        player can't lose (101.1, 101.2: Aegis); 104.5: they leave."""
        if not self.can_lose(p):
            self.history.append(f"{seat(p)} can't lose ({why}; 101.2: Aegis of Immortality)")
            return
        self.history.append(f"{seat(p)} loses ({why})")
        self._remove_player(p, "lost")

    def _draw_game(self, why: str) -> None:
        """104.4a, 104.4b, 104.4c: a draw for every player still in the game; 104.1."""
        for p in self.in_game():
            self.status[p] = "drew"
        self.history.append(f"the game is a draw ({why})")
        self._game_over()

    def _game_over(self) -> None:
        self.step, self.priority = "game_over", -1
        self.council, self.waiting, self.passed, self.stack = None, [], [], []

    def _remove_player(self, p: int, result: str) -> None:
        self.status[p] = result
        self._leave(p)
        self._last_standing()

    def _leave(self, p: int) -> None:
        """104.5: a player who loses leaves the game. assumed:leaver-objects: the
        entities and tokens they own or control leave with them (one they took
        with Mind Tether, and one of theirs another player took; no token "leaves
        the battlefield" for a trigger: it leaves the game), and so do the
        triggers they control; a trigger that would make a Spirit for them has
        nobody left to decide or to receive it (101.3). An object on the stack
        they control goes too (107.3): their played card reaches no discard pile,
        and a council it or their ability convened ends (_after_leaving)."""
        self.entities = [e for e in self.entities if e.controller != p and e.owner != p]
        self.tokens = [t for t in self.tokens if t.controller != p and t.owner != p]
        self.waiting = [w for w in self.waiting if w.controller != p and w.token_controller != p]
        self.stack = [o for o in self.stack if o.controller != p]
        self.passed = [q for q in self.passed if q != p]
        self.history.append(f"{seat(p)} leaves the game (104.5)")

    def _last_standing(self) -> None:
        """104.2a: a player whose opponents have all left wins at once, whatever
        would prevent it (Gatekeeper included). At a table of more than two the
        win waits for the last opponent to leave (assumed:last-opponent-leaves:
        104.2a's "their opponent" is one, and 104.4a-104.5 let play go on)."""
        left = self.in_game()
        if len(left) == 1 and self.step != "game_over":
            self._win(left[0], "104.2a: every opponent has left the game")

    def _after_leaving(self, p: int, front: Trigger | None) -> None:
        """What a concession leaves unfinished goes on without the player:
        103.4 the mulligans once every other player has declared; 101.4 the
        council without them (assumed:leaver-objects: it ends if they activated
        it); assumed:trigger-order a trigger they were to decide on is gone;
        assumed:priority their priority passes on; assumed:active-player-leaves."""
        if self.step == "mulligan":
            if self._declarer() == -1:
                self._mulligans()
        elif self.step == "council":
            c = self.council
            if c.activator == p:
                self.history.append(f"the council ends: {seat(p)}, its controller, has left (assumed:leaver-objects)")
                self.council = None
                self._after_resolution()
                return
            if c.queue and c.queue[0] == p and c.rechoosing:
                c.rechoosing = False
            c.queue = [q for q in c.queue if q != p]
            self._council_advance()
        elif self.step == "optional_trigger":
            if not self.waiting or self.waiting[0] is not front:
                self._settle(resolved=True)
        elif self.step == "priority":
            if p == self.active:
                self._active_left()
            elif p == self.priority:
                self.priority = -1
                self._pass_on(p)

    # --- what players see ------------------------------------------------------------------------

    def snapshot(self) -> dict:
        """The public state as plain data, with exactly the keys the agreement
        harness compares."""
        c = self.council
        return {
            "step": self.step,
            "players": self.num_players,
            "first_player": self.first_player,
            "active": self.active,
            "first_turn": self.first_turn,
            "priority": self.priority if self.step == "priority" else -1,
            "passes": len(self.passed),
            "library": [len(x) for x in self.libraries],
            "hand": [len(x) for x in self.hands],
            "damage": list(self.damage),
            "drew_from_empty": list(self.drew_from_empty),
            "status": list(self.status),
            "mulligan_declared": list(self.mulligan_declared),
            "mulligan_done": self.mulligan_done,
            "tokens": [sum(1 for t in self.tokens if t.controller == p and t.zone == "battlefield")
                       for p in range(self.num_players)],
            "tokens_elsewhere": [sum(1 for t in self.tokens if t.owner == p and t.zone != "battlefield")
                                 for p in range(self.num_players)],
            # Of the Spirits each player controls, how many each other player owns (109.5e: Mind Tether took them).
            "tokens_taken": [[sum(1 for t in self._spirits(p) if t.owner == o != p) for o in range(self.num_players)]
                             for p in range(self.num_players)],
            "attributes": [self.attribute_values(p) for p in range(self.num_players)],
            "entities": [{"card": e.name, "controller": e.controller, "owner": e.owner, "used": e.used,
                          "silenced": e.silenced, "attributes": list(e.card.attributes)} for e in self.entities],
            "stack": [{"card": o.name, "kind": o.kind, "owner": o.owner, "controller": o.controller}
                      for o in self.stack],
            "waiting_triggers": [{"card": w.card, "controller": w.controller, "token_controller": w.token_controller}
                                 for w in self.waiting],
            "council": None if c is None else {
                "chooser": c.chooser, "picked": list(c.picked), "answers": list(c.answers),
                "rechoosing": c.rechoosing,
            },
        }

    def objects(self) -> list[dict]:
        """108.1: every object in the game as plain data, hidden ones included
        (for rulings, not for players): name, kind (card, played card, ability,
        entity, token), zone (library, hand, stack, battlefield, discard, exile),
        owner (107.1, 109.2, 109.5a), controller (107.3: only on the stack and
        the battlefield; None elsewhere), attributes (105.2: an entity's are
        printed, 109.3; a Spirit token's none, 109.5b; an ability's none: the seed
        gives abilities no characteristics) and requirements (106.3)."""
        out = []

        def card(name: str, zone: str, owner: int, controller: int | None, kind: str = "card") -> dict:
            c = self.pool.card(name)
            return {"name": name, "kind": kind, "zone": zone, "owner": owner, "controller": controller,
                    "attributes": list(c.attributes), "requires": dict(c.requires)}

        for zone, piles in (("library", self.libraries), ("hand", self.hands), ("discard", self.discards)):
            out += [card(n, zone, p, None) for p, pile in enumerate(piles) for n in pile]
        for o in self.stack:
            if o.kind == "played card":
                out.append(card(o.name, "stack", o.owner, o.controller, "played card"))
            else:
                out.append({"name": o.name, "kind": "ability", "zone": "stack", "owner": o.owner,
                            "controller": o.controller, "attributes": [], "requires": {}})
        out += [card(e.name, "battlefield", e.owner, e.controller, "entity") for e in self.entities]
        out += [{"name": "Spirit", "kind": "token", "zone": t.zone, "owner": t.owner,
                 "controller": t.controller if t.zone == "battlefield" else None, "attributes": [], "requires": {}}
                for t in self.tokens]
        return out

    def observation_for(self, p: int) -> dict:
        """What seat p sees: the public snapshot, p's own hand by name, the other
        hands by size, and the council's face-down cards as "a chosen card" to
        everyone but their chooser (101.4a); the answers are public (101.4b)."""
        obs = self.snapshot()
        c = self.council
        chosen = [None] * self.num_players
        if c is not None:
            for q in range(self.num_players):
                if c.chosen[q] is not None:
                    chosen[q] = self.hands[q][c.chosen[q]] if q == p else "a chosen card"
        obs.update({
            "seat": p,
            "own_hand": list(self.hands[p]),
            "hand_sizes": [len(h) for h in self.hands],
            "discards": [list(d) for d in self.discards],
            "chosen": chosen,
            "council_answers": None if c is None else list(c.answers),
        })
        return obs

    def __str__(self) -> str:
        head = f"step {self.step}, turn {self.turn}"
        if self.active >= 0:
            head += f", {seat(self.active)} active"
        if self.step == "priority":
            head += f", {seat(self.priority)} has priority, {len(self.passed)} passes"
        lines = [head]
        for p in range(self.num_players):
            toks = self.snapshot()["tokens"][p]
            lines.append(f"{seat(p)} [{self.status[p]}]: damage {self.damage[p]}/{self.starting_life}, "
                         f"library {len(self.libraries[p])}, hand {self.hands[p]}, discard {len(self.discards[p])}"
                         + (f", {toks} Spirit(s)" if toks else "")
                         + (", drew from an empty library" if self.drew_from_empty[p] else "")
                         + "".join(f", {attr} {n}" for attr, n in self.attribute_values(p).items() if n))
        for e in self.entities:
            marks = [m for m, on in (("used", e.used), ("silenced", e.silenced),
                                     (f"owned by {seat(e.owner)}", e.owner != e.controller)) if on]
            lines.append(f"  {seat(e.controller)}'s {e.name}" + (f" ({', '.join(marks)})" if marks else ""))
        for w in self.waiting:
            lines.append(f"  waiting: {seat(w.controller)}'s {w.card} (for {seat(w.token_controller)}'s Spirit)")
        if self.council is not None:
            c = self.council
            lines.append(f"  council: {seat(c.chooser)} chooses; answers "
                         + ", ".join(f"{seat(q)} {c.answers[q] or '-'}" for q in range(self.num_players))
                         + (" (answering again)" if c.rechoosing else ""))
        return "\n".join(lines)
