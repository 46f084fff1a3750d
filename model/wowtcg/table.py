"""The WoW model's shared vocabulary: seats, characters, the chain, and the
predicates that the turn edges and the combat edges both read.

Characters are numbered seat by seat: character ``p * slots + i`` is slot ``i``
of player ``p``'s party (slot 0 the hero, 1.. the allies).  The object a
sabotage combat targets (601.2b) of player ``p`` is number ``characters + p``,
and ``none`` (one past the objects) means "no character or object", as in an
empty combat role.  Predicates take a state and a backend, and their indices
may be Python ints or Z3 terms alike (they read constants through
``b.select``), so one definition serves both checkers.
"""

from __future__ import annotations

from math import ceil
from typing import Any

from model.backend import Backend
from model.machine import Stack
from model.wowtcg import rulings
from model.wowtcg.board import KEYWORDS, Board, Character

#: The kinds of card a hand holds, as far as priority cares (408.1, 408.2).
CARD_KINDS = ("instant", "non_instant", "quest")
#: What a link on the chain is.  ``empty`` marks a free slot of the bounded stack.
LINK_KINDS = ("empty", "instant", "non_instant", "resource", "proposal", "strike")
INSTANT_LINK, NON_INSTANT_LINK, RESOURCE_LINK, PROPOSAL_LINK, STRIKE_LINK = 1, 2, 3, 4, 5
#: A payment power's effect on the chain (CR7.4 701.2): a kind of link only
#: boards with a payment power have (``Character.power_cost``).
LINK_KINDS_WITH_POWERS = (*LINK_KINDS, "power")
POWER_LINK = len(LINK_KINDS)
#: Bear form's triggered effect (CR7.4 glossary, Bear Form; 703.1, 708.1):
#: a kind of link only boards with a hero in bear form have (``Party.bear_form``).
ALL_LINK_KINDS = (*LINK_KINDS_WITH_POWERS, "bear_form_trigger")
BEAR_FORM_LINK = len(LINK_KINDS_WITH_POWERS)


class Table:
    """The seats and cards of one model instance, and what the rules ask of a state."""

    def __init__(
        self,
        players: int,
        turns: int,
        hand: int,
        resources: int,
        allies: int,
        board: Board,
        chain: Stack,
        hand_limit: int,
        any_length: bool = False,
        without: tuple[str, ...] = (),
        reading: str | None = None,
    ) -> None:
        if len(board.parties) != players:
            raise ValueError(f"the board has {len(board.parties)} parties for {players} players")
        self.n = players
        self.nobody = players  # priority_holder (and a free chain slot's controller) when no player is meant
        self.slots = allies + 1
        self.board = board
        self.chain = chain
        self.characters: tuple[Character, ...] = tuple(c for party in board.parties for c in party.characters[: self.slots])
        if len(self.characters) != players * self.slots:
            raise ValueError(f"every party needs a hero and {allies} allies")
        self.count = len(self.characters)
        self.none = self.count + players
        #: No turn counter and no combat counter: the model of games of any length.
        self.any_length = any_length
        self.weapons = max(len(party.weapons) for party in board.parties)
        self.start_resources = resources
        if any_length:
            # Only the turn player draws (501.2a), and he ends his turn with at
            # most the hand limit (503.2a): a hand never holds more than the
            # larger of the opening hand and the limit, plus the card drawn.
            # That is a fact of the rules, not an abstraction.
            self.hand_hi = max(len(CARD_KINDS) * hand, hand_limit) + 1
            # abstracted:resource-cap: resources are counted up to a cap; a
            # player at the cap pays every cost without exhausting anything.
            # Abstraction: a cap that loses nothing would need a proof that no
            # player pays more between two ready steps than the cap leaves
            # him, and none was found (a proposal interrupted before it
            # resolves leaves its attacker ready to be taxed again, which
            # defeats the simple bound); so the cap over-approximates
            # instead: a player at it may pay more than a real one could,
            # never less, and a proof on this model holds in the game.  Set
            # where no party can spend it between two ready steps without
            # repeating a tax.
            spent_in_a_round = max(
                sum(w.strike_cost for w in party.weapons) + sum(c.attack_tax for c in party.characters[: self.slots])
                for party in board.parties
            )
            self.resource_cap = max(resources, spent_in_a_round + self.largest_cost)
            self.resource_hi = self.resource_cap
        else:
            # A player's own turns come every n turns; a hand grows at most once per own turn.
            self.hand_hi = hand + ceil(turns / players)
            # Resources are bounded by the cards a player ever holds, not by the
            # one-per-turn rule (410.1), so a model that breaks that rule is caught
            # by the property that states it rather than by a domain check.
            self.resource_hi = resources + len(CARD_KINDS) * self.hand_hi
            self.resource_cap = None
        # The most ATK a character can have in combat: printed, or a hero striking with every weapon.
        self.most_combat_atk = max(
            max(c.atk for c in self.characters),
            max(sum(w.atk for w in party.weapons) for party in board.parties),
        )
        # Constants indexed by character (and object) number; ``select`` gives
        # the default for ``none``.
        self.owner = tuple(c // self.slots for c in range(self.count)) + tuple(range(players))
        self.atk = tuple(c.atk for c in self.characters)
        self.health = tuple(c.health for c in self.characters)
        self.is_hero = tuple(c % self.slots == 0 for c in range(self.count))
        self.attack_tax = tuple(c.attack_tax for c in self.characters)
        self.armor_def = tuple(party.armor_def for party in board.parties)
        self._keywords = {word: tuple(c.has(word) for c in self.characters) for word in KEYWORDS}
        self.attacks_only = tuple(self._resolve_target(c, ch.attacks_only) for c, ch in enumerate(self.characters))
        #: CR7.4 600.2a: the character each must attack if able (``none``: no such modifier).
        self.must_attack_target = tuple(self._resolve_target(c, ch.must_attack_target) for c, ch in enumerate(self.characters))
        #: 306.3a: the totems, by character number.
        self.totem = tuple(c.totem for c in self.characters)
        #: For each hero, the allies of its party whose text says "your hero
        #: can't be destroyed" (Valthak Spiritdrinker, 103.4 example); none
        #: for an ally.
        self.keepers = tuple(
            tuple(k for k in self.party(self.owner[c]) if self.characters[k].keeps_hero) if self.is_hero[c] else ()
            for c in range(self.count)
        )
        if any(self.keepers):
            # Abstraction: a spell's damage and its checks, and an instant
            # that destroys a defender, are one step (windows.py), with no
            # second batch for a hero whose keeper that step destroys; so a
            # keeper is only modelled where no such step can destroy it.
            keeper_cards = [self.characters[k] for ks in self.keepers for k in ks]
            if any(sp.amount and not sp.heals for sp in board.spells) or any(sp.doubles for sp in board.spells):
                raise ValueError("a card that keeps its hero from being destroyed is modelled only on a board whose spells deal no damage")
            if any(not k.has("elusive") or k.has("protector") for k in keeper_cards):
                raise ValueError("a card that keeps its hero from being destroyed is modelled only on an elusive ally that can't protect (it never defends)")
        #: Which players' heroes are in bear form as the game starts (Maul in
        #: play, ``Party.bear_form``): the state then says whose still are (``bear_form``).
        self.bear = tuple(party.bear_form for party in board.parties)
        #: The items in ally slots that a payment makes allies this turn
        #: (Arcanite Dragonling, ``Character.ally_this_turn_for``): each starts
        #: out of play as a character, its item in play (``item_in_play``).
        self.item_allies = tuple(c.ally_this_turn_for is not None for c in self.characters)
        if any(self.item_allies):
            if any(self.is_hero[c] for c in range(self.count) if self.item_allies[c]):
                raise ValueError("an item that becomes an ally sits in an ally slot, not the hero's")
            if any(sum(self.item_allies[c] for c in self.party(p)) > 1 for p in range(players)):
                raise ValueError("a player has at most one item that becomes an ally (its power link names no card)")
            # The abilities that put an ally card into a free slot or move one
            # (Resurrection, Mind Control) would find the item's slot free, and
            # a power link carries no card to tell the item's from another's.
            if board.abilities or any(c.power_cost is not None or c.flips_to_heal for c in self.characters) or any(
                w.power_cost is not None for party in board.parties for w in party.weapons
            ):
                raise ValueError("an item that becomes an ally is modelled only on a board with no non-instant ability and no other payment power")
        #: The characters not in play as the game starts: items that become
        #: allies (in play as items) and slots that wait for their card.
        self.out_at_start = tuple(c.starts_out_of_play or c.ally_this_turn_for is not None for c in self.characters)
        if any(self.is_hero[c] and self.characters[c].starts_out_of_play for c in range(self.count)):
            raise ValueError("a hero is in play as the game starts (301.1)")
        #: Some ally with ferocity can change sides: Mind Control is in the
        #: game and another party has a slot for that card.  The state then
        #: says which allies joined their party this turn by a change of
        #: control (``changed_sides``), where 002's Chinese 601.2a lets
        #: ferocity lift nothing (question may_attack).
        self.ferocity_changes_sides = any(a.effect == "take control of an ally" for a in board.abilities) and any(
            self._keywords["ferocity"][c] and any(
                not self.is_hero[d] and self.owner[d] != self.owner[c] and self.characters[d].name == self.characters[c].name
                for d in range(self.count)
            )
            for c in range(self.count) if not self.is_hero[c]
        )
        #: Mind Control can put a card in another player's party where the
        #: game goes on after a player leaves (three players or more): the
        #: state then says whose card each slot holds where another player
        #: controls it (``owned_by``), so that 102.2 takes the card out with
        #: its owner and 401.3b gives it back to him when its controller leaves.
        self.holds_others_cards = players > 2 and any(a.effect == "take control of an ally" for a in board.abilities)
        #: The characters that may protect: printed protectors, and heroes in bear form.
        self.protectors = tuple(self._keywords["protector"][c] or (self.is_hero[c] and self.bear[self.owner[c]]) for c in range(self.count))
        #: Some spell of the board makes its target attack this turn (Mocking
        #: Blow): the state then holds, per character, the player whose hero it
        #: must attack (``taunted_by``; ``nobody``: none).
        self.taunting = any(sp.taunts for sp in board.spells)
        #: Some text prints a spell of the board as stopping the characters it
        #: damages from attacking this turn (CR7.4's Frost Nova): the state then
        #: says which characters can't attack this turn (``cant_attack``),
        #: whether the reading followed lets the spell say so or not.
        self.stopping = any(rulings.some_text_stops_attacks(sp.name) for sp in board.spells)
        #: Some weapon or armor starts in its controller's hand (303.1, 304.1):
        #: the state then says which are in play (``weapon_in_play``, ``armor_in_play``).
        #: Or some spell destroys a weapon, which then leaves play (303.2b).
        self.gear_from_hand = any(party.armor_from_hand or any(w.from_hand for w in party.weapons) for party in board.parties) or any(
            sp.destroys_weapon for sp in board.spells
        )
        #: Some instant makes a character become a defender (602.3b) or a
        #: proposed defender (CR7.4 602.2b): where the rulings keep the
        #: current one too, the state holds the second (``also_defender``).
        self.second_defender = any(sp.makes_defender or sp.makes_proposed_defender for sp in board.spells)
        #: Each player's hero by player number; ``none`` for ``nobody``.
        self.hero_of = tuple(self.hero(p) for p in range(players)) + (self.none,)
        #: Each seat's team (``Board.teams``): without teams every player is his own.
        self.team = board.teams or tuple(range(players))
        if board.teams:
            # Abstraction: a combat's checks end a team game as no two
            # teams are left (102.1, ``goes_on``), but a draw from an empty
            # deck ends a game by seats (turn.py, windows.py), and spells'
            # "each opposing" and Mind Control's "opposing ally" are read
            # seat by seat.  So a team game is modelled only where nobody
            # draws and no such card is in the game: the first player's
            # first turn (501.2b), with no spell or ability.
            if any_length or turns != 1 or board.spells or board.abilities:
                raise ValueError("a team game is modelled over the first turn only, with no spell or ability")
        #: Who may attack, be proposed, protect, and who is bound to attack, as
        #: rulings with explicit precedence; ``without`` names what a variant
        #: removes, ``reading`` the source read first (None: the model's reading).
        self.rulings = rulings.book(self, without, reading)
        #: Whose characters are opposing to whose, by ``p * (players + 1) + q``
        #: (``nobody`` in neither place): another team's, and a teammate's
        #: where the rulings say so (``opposing_in_team_game``, B10).
        self.opposed = tuple(
            p < players and q < players and p != q
            and (self.team[p] != self.team[q] or bool(self.rulings.fixed("opposing_in_team_game", p, q)))
            for p in range(players + 1) for q in range(players + 1)
        )
        #: The heroes a keeper of their party keeps in play with lethal damage, as the rulings read it.
        self.kept = tuple(bool(self.keepers[c]) and self.rulings.fixed("hero_cant_be_destroyed", c) for c in range(self.count))
        #: A strike's bonus counts only while its weapon is in play, as the
        #: rulings read 303.2b where a weapon can leave play (V13).
        self.strike_needs_weapon = bool(self.rulings.questions["strike_lasts_without_weapon"].arguments) and not self.rulings.fixed(
            "strike_lasts_without_weapon"
        )
        self._bound_arguments = self.rulings.questions["bound_to_attack"].arguments
        #: Whose bear form ends by a trigger link on the chain, as the rulings read it (else at once).
        self.bear_by_trigger = tuple(self.bear[p] and bool(self.rulings.fixed("bear_form_ends_by_trigger", p)) for p in range(players))
        #: Whether each item that becomes an ally joins its party as it does,
        #: and so is new to it this turn, as the rulings read it (V14).
        self.joins_as_ally = tuple(self.item_allies[c] and bool(self.rulings.fixed("joins_party_as_ally", c)) for c in range(self.count))

    @property
    def largest_cost(self) -> int:
        """The most resources any one payment here costs: a strike (303.2) or an attack tax (600.3)."""
        return max(
            max(w.strike_cost for party in self.board.parties for w in party.weapons),
            max(c.attack_tax for party in self.board.parties for c in party.characters),
        )

    def _resolve_target(self, c: int, named: tuple[int, int] | None) -> int:
        """The character number of a target named from character ``c``'s seat (``Character.attacks_only``)."""
        if named is None:
            return self.none
        seats, slot = named
        return ((c // self.slots + seats) % self.n) * self.slots + slot if slot < self.slots else self.none

    # -- naming ----------------------------------------------------------------

    @staticmethod
    def player_name(p: int) -> str:
        return f"P{p + 1}"

    def name(self, c: int) -> str:
        """A character or object as a judge reads it: ``P2 guard``, ``P1 item``, ``-``."""
        if c < self.count:
            return f"{self.player_name(self.owner[c])} {self.characters[c].name}"
        if c < self.none:
            p = c - self.count
            return f"{self.player_name(p)} {self.board.parties[p].object_name}"
        return "-"

    def hero(self, p: int) -> int:
        return p * self.slots

    def party(self, p: int) -> range:
        return range(p * self.slots, (p + 1) * self.slots)

    def has_protector(self, s: Any, b: Backend, c: int) -> Any:
        """Character ``c`` has protector: printed, or a hero while his bear form lasts (CR7.4 glossary; 001:198)."""
        if self._keywords["protector"][c] or not self.protectors[c]:
            return self.protectors[c]
        return s.bear_form[self.owner[c]]

    def out_of_bear_form(self, s: Any, b: Backend, p: Any) -> Any:
        """Player ``p``'s hero is not in bear form (always, on a board with none).

        Abstraction: a non-instant of the model has no name, so it can't say
        whether it is an ally or a non-Feral ability, whose play ends bear
        form as a strike does; so while his hero is in bear form a player
        plays no non-instant, nor an instant where no window is open (the
        basic rules' reading only).  His instants with priority are
        abilities, none Feral, and end it (``ending_bear_form``).  Only the
        board with a hero in bear form has this limit (board.nearby_boards);
        its label says so."""
        if not any(self.bear):
            return True
        return b.Not(b.select(s.bear_form, p, False))

    def may_end_bear_form(self, s: Any, b: Backend, p: int) -> Any:
        """Player ``p``'s hero is in bear form, and the chain has room for what ends it (a trigger link where the rulings say so)."""
        room = self.chain.size(s) + 2 <= self.chain.depth if self.bear_by_trigger[p] else b.Not(self.chain.is_full(s))
        return b.And(s.bear_form[p], room)

    def ending_bear_form(self, s: Any, b: Backend, p: int, after: dict[str, Any]) -> dict[str, Any]:
        """``after``, the update of a strike or a play of a non-Feral ability
        by player ``p`` that pushed one link, with his hero's bear form ended
        (CR7.4 glossary, Bear Form; 001:198): at once, or by a trigger link
        put on the chain above it before anyone gets priority (CR7.4 703.1,
        708.1), as the rulings read it (``bear_form_ends_by_trigger``)."""
        if not self.bear_by_trigger[p]:
            return {**after, "bear_form": b.store(s.bear_form, p, False)}
        chain, top = self.chain, self.chain.size(s) + 1
        trigger = {"controller": p, "kind": BEAR_FORM_LINK}
        return {
            **after,
            f"{chain.name}_len": top + 1,
            **{f"{chain.name}_{f}": b.store(after[f"{chain.name}_{f}"], top, trigger[f]) for f, _, _ in chain.fields},
        }

    def bear_form_rules(self, p: int) -> tuple[str, ...]:
        """The rule that ends player ``p``'s bear form, as the rulings read it."""
        return ("glossary.bear-form", "CR7.4 703.1", "CR7.4 708.1") if self.bear_by_trigger[p] else ("basic:bear-form",)

    def keyword(self, word: str) -> tuple[bool, ...]:
        """Which characters have ``word``, by number (computed once: guards read it on every step)."""
        return self._keywords[word]

    def weapon(self, p: int, w: int) -> int:
        """The index of weapon ``w`` of player ``p`` in the per-weapon tuples."""
        return p * self.weapons + w

    def weapon_ready_in_play(self, s: Any, b: Backend, i: int) -> Any:
        """Weapon slot ``i`` is in play (303.1) and ready: what a strike needs (303.2)."""
        ready = b.Not(s.weapon_exhausted[i])
        return b.And(s.weapon_in_play[i], ready) if self.gear_from_hand else ready

    def armor_ready_in_play(self, s: Any, b: Backend, p: Any) -> Any:
        """Player ``p``'s armor is in play (304.1) and ready (304.2); False for ``nobody``."""
        ready = b.Not(b.select(s.armor_exhausted, p, True))
        return b.And(b.select(s.armor_in_play, p, False), ready) if self.gear_from_hand else ready

    def gear_at_start(self) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        """Which weapon slots and armors are in play as the game starts: all but those in hand."""
        weapons = tuple(
            not (w < len(party.weapons) and party.weapons[w].from_hand) for party in self.board.parties for w in range(self.weapons)
        )
        return weapons, tuple(not party.armor_from_hand for party in self.board.parties)

    # -- seats and priority (409) ------------------------------------------------

    def remaining(self, s: Any, b: Backend) -> Any:
        return b.count(s.in_game)

    def next_clockwise(self, s: Any, b: Backend, player: Any) -> Any:
        """409.1, 503.2a: the next player clockwise who is still in the game."""
        n = self.n

        def after(p: int) -> Any:
            result: Any = p
            for k in reversed(range(1, n)):
                q = (p + k) % n
                result = b.If(s.in_game[q], q, result)
            return result

        return b.select(tuple(after(p) for p in range(n)), player, self.nobody)

    def has_priority(self, s: Any, b: Backend) -> Any:
        return s.priority_holder < self.nobody

    def fresh_succession(self) -> dict[str, Any]:
        return {"passes": 0, "passed": (False,) * self.n}

    def give_turn_player_priority(self, s: Any, b: Backend) -> dict[str, Any]:
        # 409.4: as a window opens (and after a resolution, 409.4a) the turn player gets priority first.
        return {"priority_holder": s.turn_player, **self.fresh_succession()}

    def give_priority_after_resolution(self, s: Any, b: Backend) -> dict[str, Any]:
        # 409.4a: who acts first once the top link of ``s`` has resolved is a
        # question the sources answer differently (the rulings decide).
        return {"priority_holder": self.rulings.answer("priority_after_resolution", s, b), **self.fresh_succession()}

    def last_pass(self, s: Any, b: Backend) -> Any:
        """This pass completes a succession of passes by every player in the game (409.4)."""
        return b.And(self.has_priority(s, b), s.passes + 1 == self.remaining(s, b))

    def link_resolves(self, s: Any, b: Backend) -> Any:
        """This pass completes a succession of passes on a chain that holds a
        link, so the top link resolves (409.4): what every resolving edge's
        guard asks first, and so their shared prefilter (windows.resolving)."""
        return b.And(self.last_pass(s, b), s.chain_len > 0)

    def is_opponent(self, s: Any, b: Backend, p: Any, q: Any) -> Any:
        """``q`` is an opponent of ``p`` still in the game: every other player
        without teams; in a team game one of another team, or a teammate
        whose characters the rulings count opposing (``opposed``)."""
        if not self.board.teams:
            return b.And(p != q, b.select(s.in_game, q, False))
        return b.And(b.select(self.opposed, p * (self.n + 1) + q, False), b.select(s.in_game, q, False))

    def goes_on(self, s: Any, b: Backend) -> Any:
        """102.1: the game goes on, some opponents of each other still in it
        (two players, without teams; two of different teams, with them).
        The teams, not the rulings' ``opposed``: 001 too sets teams apart (:265-266)."""
        return self.opponents_remain(b, s.in_game)

    def over(self, s: Any, b: Backend) -> Any:
        """102.1: the game is over, no two opponents of each other left in it."""
        if not self.board.teams:
            return self.remaining(s, b) <= 1
        return b.Not(self.opponents_remain(b, s.in_game))

    def opponents_remain(self, b: Backend, in_game: Any) -> Any:
        """Two players of ``in_game`` (a flag a player) are of different teams."""
        if not self.board.teams:
            return b.count(in_game) > 1
        return b.Or(*(b.And(in_game[p], in_game[q]) for p in range(self.n) for q in range(p + 1, self.n) if self.team[p] != self.team[q]))

    def friendly(self, b: Backend, p: Any, q: Any) -> Any:
        """``p`` and ``q`` are one player or teammates (001:267, CR7.4 glossary, Friendly); never ``nobody``."""
        if not self.board.teams:
            return p == q
        return b.select(self.team, p, -1) == b.select(self.team, q, -2)

    def next_turn(self, s: Any, b: Backend) -> dict[str, Any]:
        """503.2a: the turn ends and the next player clockwise begins one; no ally is new any more."""
        counters = {} if self.any_length else {"turn_number": s.turn_number + 1, "combats": 0}
        if self.taunting:
            # 503.2a: "this turn" modifiers end with the turn.
            counters["taunted_by"] = (self.nobody,) * self.count
        if self.stopping:
            counters["cant_attack"] = (False,) * self.count
        return {
            "turn_player": self.next_clockwise(s, b, s.turn_player),
            "first_turn": False,
            "resource_placed": False,
            "fresh": (False,) * self.count,
            **({"changed_sides": (False,) * self.count} if self.ferocity_changes_sides else {}),
            **counters,
        }

    # -- hands and resources (402, 410, 413) ---------------------------------------

    def in_hand(self, s: Any, b: Backend, kind: str, player: Any) -> Any:
        return b.select(getattr(s, f"hand_{kind}"), player)

    def take_from_hand(self, s: Any, b: Backend, kind: str, player: Any) -> dict[str, Any]:
        field = f"hand_{kind}"
        return {field: b.store(getattr(s, field), player, self.in_hand(s, b, kind, player) - 1)}

    def gain_resource(self, s: Any, b: Backend, player: Any) -> dict[str, Any]:
        """410.1a: one more resource in play (counted up to the cap in the any-length model)."""
        more = b.select(s.resources, player) + 1
        if self.resource_cap is not None:
            more = b.If(more > self.resource_cap, self.resource_cap, more)
        return {"resources": b.store(s.resources, player, more)}

    def at_resource_cap(self, s: Any, b: Backend, player: Any) -> Any:
        """abstracted:resource-cap: is the player's count of resources at the cap (never, without one)?"""
        if self.resource_cap is None:
            return False
        return b.select(s.resources, player) >= self.resource_cap

    def ready_resources(self, s: Any, b: Backend, player: Any) -> Any:
        ready = b.select(s.resources, player) - b.select(s.resources_exhausted, player)
        if self.resource_cap is None:
            return ready
        # abstracted:resource-cap: at the cap every cost is payable.
        return b.If(self.at_resource_cap(s, b, player), self.resource_cap, ready)

    def pay(self, s: Any, b: Backend, player: Any, amount: Any) -> dict[str, Any]:
        """402.4a: exhaust ``amount`` of the player's ready resources (nothing at the cap)."""
        exhausted = b.select(s.resources_exhausted, player)
        if self.resource_cap is not None:
            amount = b.If(self.at_resource_cap(s, b, player), 0, amount)
        return {"resources_exhausted": b.store(s.resources_exhausted, player, exhausted + amount)}

    def lethal(self, s: Any, b: Backend, c: int) -> Any:
        """409.6b: character ``c`` is in play with lethal damage (404.2) and so
        is destroyed at the next check, unless a keeper of its party is in
        play and the rulings let its "can't" win (103.2, ``hero_cant_be_destroyed``)."""
        lethal = b.And(s.in_play[c], s.damage[c] >= self.health[c])
        if not self.kept[c]:
            return lethal
        return b.And(lethal, b.Not(b.Or(*(s.in_play[k] for k in self.keepers[c]))))

    def free_ally_slot(self, s: Any, b: Backend, player: int) -> Any:
        """An ally slot of ``player`` no card fills (an item that becomes an ally keeps its own)."""
        return b.Or(*(b.Not(s.in_play[c]) for c in self.party(player) if not self.is_hero[c] and not self.item_allies[c]))

    def leave_game(self, s: Any, b: Backend, leaving: Any, resolved: bool = False, destroyed: Any = None, carried: Any = None) -> dict[str, Any]:
        """102.2: the players flagged in ``leaving`` (a tuple of bools) leave;
        their cards leave play and the links they control leave the chain
        (000 102.2, CR7.4 102.2: interrupted by the game), the others closing
        up in their order.  ``resolved``: the top link has just resolved and
        leaves the chain too.  ``destroyed``: what the step destroys;
        ``carried``: the step's new values of the fields a card takes with it
        (``held_fields``), for a card another player controls that goes back
        to its owner (``_held_cards_leave``).

        Abstraction: where at most one player remains the game is over
        (102.1) and the chain stays as it was, so that a finished game is
        the same state whoever's links were left on it."""
        in_game = tuple(b.And(s.in_game[p], b.Not(leaving[p])) for p in range(self.n))
        in_play = tuple(b.And(s.in_play[c], b.Not(leaving[self.owner[c]])) for c in range(self.count))
        held = {}
        if self.holds_others_cards:
            held = self._held_cards_leave(s, b, leaving, in_game, destroyed, carried or {})
            in_play = held.pop("in_play")
        chain = self.chain
        if self.n <= 2:
            # With two players whoever leaves ends the game (102.1).
            return {"in_game": in_game, "in_play": in_play, **held, **(chain.pop(s, b) if resolved else {})}
        length = chain.size(s) - (1 if resolved else 0)
        kept = [b.And(i < length, b.Not(b.select(leaving, chain.slots(s, "controller")[i], False))) for i in range(chain.depth)]
        below = [b.count(tuple(kept[:i])) for i in range(chain.depth)]
        goes_on = self.opponents_remain(b, in_game)
        closed_up = {f"{chain.name}_len": b.If(goes_on, b.count(tuple(kept)), length)}
        for f, _, empty in chain.fields:
            slots = chain.slots(s, f)
            closed_up[f"{chain.name}_{f}"] = tuple(
                b.If(
                    goes_on,
                    # Slot j takes the j-th link kept, counted from the bottom.
                    self._first(b, [(b.And(kept[i], below[i] == j), slots[i]) for i in range(j, chain.depth)], empty),
                    slots[j] if not resolved else b.If(length == j, empty, slots[j]),
                )
                for j in range(chain.depth)
            )
        return {"in_game": in_game, "in_play": in_play, **held, **closed_up}

    def _held_cards_leave(self, s: Any, b: Backend, leaving: Any, in_game: Any, destroyed: Any, carried: dict[str, Any]) -> dict[str, Any]:
        """102.2 for cards held under another player's control (401.3): a
        card leaves the game with its owner, whoever controls it; where its
        controller leaves and its owner stays, control goes back to the owner
        (401.3b) and the card, not destroyed in this step, fills the lowest
        free slot of his party that holds the same card, with its damage and
        readiness, new to his party (302.2).

        assumed:control-returns-to-owner: a card taken twice goes back to its
        owner, not to an earlier controller.  abstracted:no-slot-to-return-to:
        a card whose owner has no free slot for it (or whose slot another
        returning card fills in the same step) leaves play."""
        owner_leaves = [b.select(leaving, s.owned_by[c], False) for c in range(self.count)]
        in_play = [b.And(s.in_play[c], b.Not(leaving[self.owner[c]]), b.Not(owner_leaves[c])) for c in range(self.count)]
        # Where the game is over (102.1) no card goes back.
        goes_on = self.opponents_remain(b, in_game)
        # ``c``'s card goes back: its controller leaves, its owner stays, and it is not destroyed now.
        back = [
            b.And(goes_on, s.in_play[c], s.owned_by[c] != self.nobody, leaving[self.owner[c]], b.Not(owner_leaves[c]),
                  b.Not(destroyed[c]) if destroyed is not None else True)
            for c in range(self.count)
        ]
        before = {f: carried.get(f, getattr(s, f)) for f in self.held_fields()}
        moved = {f: list(values) for f, values in before.items()}
        for e in range(self.count):
            if self.is_hero[e]:
                continue
            name, p = self.characters[e].name, self.owner[e]
            earlier = [x for x in self.party(p) if x < e and not self.is_hero[x] and self.characters[x].name == name]
            lowest_free = b.And(b.Not(s.in_play[e]), *(s.in_play[x] for x in earlier))
            arrivals = [c for c in range(self.count) if not self.is_hero[c] and self.owner[c] != p and self.characters[c].name == name]
            for i, c in enumerate(arrivals):
                # The first card of that name going back to ``p`` takes his lowest free slot.
                fills = b.And(lowest_free, back[c], s.owned_by[c] == p, *(b.Not(b.And(back[x], s.owned_by[x] == p)) for x in arrivals[:i]))
                in_play[e] = b.Or(in_play[e], fills)
                for f, values in moved.items():
                    values[e] = b.If(fills, before[f][c], values[e])
                for f in ("fresh", "changed_sides"):
                    if f in moved:
                        moved[f][e] = b.Or(moved[f][e], fills)
        return {"in_play": tuple(in_play), **{f: tuple(values) for f, values in moved.items()}}

    def held_fields(self) -> tuple[str, ...]:
        """What a card carries from one party's slot to another's when its
        controller changes (401.3): its damage, readiness, whether it is new
        to its party, and this turn's modifiers."""
        return (
            "damage", "exhausted", "fresh",
            *(("changed_sides",) if self.ferocity_changes_sides else ()),
            *(("taunted_by",) if self.taunting else ()),
            *(("cant_attack",) if self.stopping else ()),
        )

    @staticmethod
    def _first(b: Backend, cases: list[tuple[Any, Any]], default: Any) -> Any:
        """The value of the first case whose condition holds, else ``default``."""
        out = default
        for cond, value in reversed(cases):
            out = b.If(cond, value, out)
        return out

    # -- combat legality (601.2) -----------------------------------------------------

    def is_character(self, c: Any) -> Any:
        return c < self.count

    def proposal_on_chain(self, s: Any, b: Backend) -> Any:
        """A proposal waits on the chain: 601.1 adds it to an empty chain, so it is the bottom link."""
        return b.And(s.chain_len > 0, self.chain.slots(s, "kind")[0] == PROPOSAL_LINK)

    def defender_is_ally_in_play(self, s: Any, b: Backend) -> Any:
        """The (proposed) defender is an ally in play: what an instant of the model can destroy."""
        return b.And(s.defender < self.count, b.Not(b.select(self.is_hero, s.defender, True)), b.select(s.in_play, s.defender, False))

    def legal_proposal(self, s: Any, b: Backend, a: Any, d: Any) -> Any:
        """601.2a-c: the rules' answer, with their precedence, to "may ``a`` be proposed against ``d``?"."""
        return self.rulings.answer("may_propose", s, b, a, d)

    def must_attack(self, s: Any, b: Backend, a: int) -> Any:
        """600.2: ``a`` must attack if able, by its printed text or, this turn, a spell's."""
        if self.characters[a].must_attack:
            return True
        return s.taunted_by[a] != self.nobody if self.taunting else False

    def must_attack_binds(self, s: Any, b: Backend) -> Any:
        """600.2, 600.3: some character of the turn player is bound to attack, so he may not pass."""
        return b.Or(*(self.rulings.answer("bound_to_attack", s, b, *args) for args in self._bound_arguments))

    def rivals(self, a: int, elusive_too: bool = False) -> list[int]:
        """The other players' characters and objects a proposal by ``a`` may
        name, as far as the board alone decides (601.2b): their non-elusive
        characters, and their objects if ``a`` has sabotage.  The rest is
        checked in play.

        Every source forbids proposing an elusive character, so no proposal
        edge names one; the question ``may_be_proposed`` is still asked of
        them (``elusive_too``), so that lint compares the sources there."""
        mine = self.owner[a]
        return [
            d
            for d in range(self.none)
            if self.owner[d] != mine
            and (elusive_too or not self.characters[d].has("elusive") if d < self.count else self.characters[a].has("sabotage"))
        ]

    def own_party(self, a: int, elusive_too: bool = False) -> list[int]:
        """The other characters of ``a``'s party: defenders only 000's 601.2b
        admits (it asks for no opponent's control, and its 601.2 only for
        something other than the attacker; T6), so proposal edges name them
        for that reading.  Elusive ones as in ``rivals``."""
        return [d for d in self.party(self.owner[a]) if d != a and (elusive_too or not self.characters[d].has("elusive"))]

    def defenders(self, a: int) -> list[int]:
        """Every character and object a proposal by ``a`` may name under some source's reading (601.2b)."""
        return self.rivals(a) + self.own_party(a)

    # -- combat (602, 603) -------------------------------------------------------------

    def in_combat(self, s: Any, b: Backend, c: Any) -> Any:
        """602.3c: is ``c`` in combat?  The sources differ (a question of the rulings)."""
        return self.rulings.answer("in_combat", s, b, c)

    def uses_priority_otherwise(self, s: Any, b: Backend) -> Any:
        """600.2: may the turn player add something other than a bound character's proposal?"""
        return self.rulings.answer("uses_priority_otherwise", s, b)

    def combat_atk(self, s: Any, b: Backend, c: Any) -> Any:
        """A character's ATK in combat: printed ATK; a hero adds the ATK of each weapon
        it struck with this combat (303.2a, 303.2c).

        Reading: every strike link has resolved by conclusion (the defend window
        closes only on an empty chain, 409.4b) and nothing here interrupts one,
        so the strike modifiers are exactly the weapons struck this combat.
        """
        values = []
        for x in range(self.count):
            bonus = 0
            if self.is_hero[x]:
                p = self.owner[x]
                party = self.board.parties[p]
                bonus = b.total(
                    tuple(
                        b.If(b.And(s.struck[i], s.weapon_in_play[i]) if self.strike_needs_weapon else s.struck[i], weapon.atk, 0)
                        for i, weapon in ((self.weapon(p, w), weapon) for w, weapon in enumerate(party.weapons))
                    )
                )
            values.append(self.atk[x] + bonus)
        return b.select(tuple(values), c, 0)
