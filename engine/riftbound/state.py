"""A Riftbound table in play, with the OpenSpiel-style protocol:
`current_player()`, `legal_actions()`, `apply_action()`, `is_terminal()`,
`returns()`, `clone()`, `to_dict()`, `action_label()`.

The game stops only when a player must choose:

- step "action": the turn player moves a unit from base to a battlefield
  (assumed:standard-move) or ends the turn (assumed:turn-end);
- step "cleanup": combats are pending and the turn player picks the one to
  fight first (combat.pending.order);
- step "showdown": the player with focus passes or casts a spell
  (assumed:showdown-focus, assumed:showdown-spells);
- step "chain": a link waits on the chain and a player with a reaction left
  may act on it, casting one of the same spells on top, or pass
  (showdown.actions, assumed:chain-reactions); with no reaction left at the
  table the chain resolves without stopping;
- step "damage": the attacker, then the defender, assigns combat damage
  (damage.assign).

Everything else happens inside `apply_action`: cleanups, the chain's links
resolving, dealing damage and the resolution step.
"""

from __future__ import annotations

import copy
from typing import Any

from . import damage as dmg
from .cards import Pool
from .objects import (
    TAKES, TERMINAL, Action, Battlefield, Combat, IllegalAction, Link, Unit,
)

Problem = tuple[tuple[str, ...], str]  # (rule ids, reason)


def bf_name(i: int | None) -> str:
    return "-" if i is None else f"bf{i + 1}"


def pname(p: int | None) -> str:
    return "nobody" if p is None else f"P{p + 1}"


#: What a value that is no well-formed action breaks: the showdown's focus
#: rule, which says who may act and with what (assumed:showdown-focus).
FORMAT = ("assumed:showdown-focus",)


class RiftboundState:
    def __init__(self, players: int, battlefields: int, victory_points: int, pool: Pool, table: dict, max_turns: int):
        self.num_players = players
        self.max_turns = max_turns
        self.num_battlefields = battlefields
        self.victory_points = victory_points
        self.pool = pool
        self.turn: int = table["turn"]
        self.turn_player: int = table["turn_player"]
        self.battlefields: list[Battlefield] = table["battlefields"]
        self.units: list[Unit] = table["units"]
        self.points: list[int] = table["points"]
        self.scored: list[list[bool]] = table["scored"]
        self.spells: list[int] = table["spells"]
        self.reactions: list[int] = table["reactions"]
        # Spells the turn player casts outside a showdown (assumed:action-spells).
        self.action_spells: list[int] = table["action_spells"]
        # The chain, bottom first; who acts on it now, and how many have passed
        # in succession since its top link came (assumed:chain-reactions).
        self.chain: list[Link] = []
        self.chain_priority: int | None = None
        self.chain_passes = 0
        self.chain_waited = False  # a player has been asked to act on this chain
        self.combat: Combat | None = None
        self.to_choose: list[int] = []
        self.step = "action"
        self.winner: int | None = None
        self.history: list[str] = []
        # Reading: a setup is a table between two actions. A cleanup runs first,
        # so that the state the game starts in waits for a choice like every
        # other (a combat the setup makes pending is offered at once).
        self._cleanup()

    # --- the protocol -------------------------------------------------------------------

    def current_player(self) -> int:
        """The player who must choose now; -4 (OpenSpiel's terminal id) once the game is over."""
        if self.step == "game_over":
            return TERMINAL
        if self.step == "showdown":
            return self.combat.focus
        if self.step == "chain":
            return self.chain_priority
        if self.step == "damage":
            return self.combat.assigning
        return self.turn_player

    def is_terminal(self) -> bool:
        return self.step == "game_over"

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for every other player once the game is over; 0 each before."""
        if self.winner is None:
            return [0.0] * self.num_players
        return [1.0 if p == self.winner else -1.0 for p in range(self.num_players)]

    def clone(self) -> "RiftboundState":
        """An independent copy: every container and mutable piece of the table
        is copied; the pool, its cards and the chain's links (immutable) are
        shared. Copied field by field, as a deep copy of the whole state is
        most of the agreement harness's time."""
        twin = copy.copy(self)
        twin.battlefields = [copy.copy(bf) for bf in self.battlefields]
        twin.units = [copy.copy(u) for u in self.units]
        twin.points, twin.spells = list(self.points), list(self.spells)
        twin.reactions, twin.action_spells = list(self.reactions), list(self.action_spells)
        twin.scored = [list(row) for row in self.scored]
        twin.chain, twin.to_choose, twin.history = list(self.chain), list(self.to_choose), list(self.history)
        if self.combat is not None:
            twin.combat = copy.copy(self.combat)
            twin.combat.assigned = dict(self.combat.assigned)
        return twin

    def legal_actions(self) -> list[Action]:
        return [a for a in self._candidates() if self._problem(a) is None]

    def apply_action(self, action: Action) -> None:
        problem = self._problem(action)
        if problem is not None:
            # A value too malformed to put in words is quoted as it came.
            words = isinstance(action, Action) and type(action.player) is int
            quoted = self.action_label(action) if words and not action.stray_fields() else repr(action)
            raise IllegalAction(problem[0], problem[1], quoted, str(self))
        self.history.append(self.action_label(action))
        getattr(self, f"_do_{action.kind}")(action)

    # --- looking at the table -------------------------------------------------------------

    def unit(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.id == uid), None)

    def at(self, bf: int) -> list[Unit]:
        return [u for u in self.units if u.zone == "battlefield" and u.battlefield == bf]

    def owners_at(self, bf: int) -> list[int]:
        return sorted({u.owner for u in self.at(bf)})

    def might(self, u: Unit) -> int:
        """Current might, which damage.step and damage.lethal read: the printed
        might, or the one an effect in force sets instead (a setup's `might`),
        +1 while buffed by its rallying cry (assumed:rallying-cry).
        Reading: a set might replaces the printed one and the buff adds to it."""
        base = u.card.might if u.set_might is None else u.set_might
        return base + (1 if u.buffed else 0)

    def immune(self, u: Unit) -> bool:
        """damage.undamageable: the always-immune keyword, or Kayn's ability (he
        cannot be damaged this turn once he has moved twice this turn; a
        standard move and a "move to combat" spell both count)."""
        if u.has("immune"):
            return True
        return u.card.ability == "immune_if_moved_twice" and u.moves >= 2

    def is_pending(self, bf: int) -> bool:
        """combat.pending: units of two players share the battlefield and its
        combat has not begun."""
        running = self.combat is not None and self.combat.battlefield == bf
        return not running and len(self.owners_at(bf)) >= 2

    def combat_players(self, bf: int) -> set[int]:
        """The two players of the combat, pending or running, at a battlefield (empty if none)."""
        if self.combat is not None and self.combat.battlefield == bf:
            return {self.combat.attacker, self.combat.defender}
        if self.is_pending(bf):
            return set(self.owners_at(bf))
        return set()

    def in_combat(self, role: str) -> list[Unit]:
        """The units with that role at the combat's battlefield."""
        if self.combat is None:
            return []
        return [u for u in self.at(self.combat.battlefield) if u.role == role]

    # --- candidates and their problems ---------------------------------------------------

    def _candidates(self) -> list[Action]:
        p = self.current_player()
        if self.step == "action":
            out = [Action("move", p, u.id, bf) for u in self.units if u.owner == p and u.zone == "base"
                   for bf in range(self.num_battlefields)]
            return out + self._spell_candidates(p) + [Action("end_turn", p)]
        if self.step == "cleanup":
            return [Action("start_combat", p, battlefield=bf) for bf in self.to_choose]
        if self.step in ("showdown", "chain"):
            return [Action("pass", p)] + self._spell_candidates(p)
        if self.step == "damage":
            # Reading: assigning is a choice even when only one assignment is legal
            # (a total of 0, or one opposing unit), as a single pending combat is.
            # Each legal assignment is offered once, in one order the rules allow
            # (dmg.in_order); any other allowed order of it is accepted too.
            targets = self._damage_targets()
            seen = [self._target(u) for u in targets]
            out = []
            for amounts in dmg.legal_assignments(seen, self._total(self.combat.assigning)):
                order = dmg.in_order(seen, amounts)
                out.append(Action("assign", p, assignment=tuple((targets[i].id, amounts[i]) for i in order)))
            return out
        return []

    def _spell_candidates(self, p: int) -> list[Action]:
        """The spells ``p`` might cast now (assumed:showdown-spells); stun and
        move into the combat only while a combat runs (assumed:action-spells)."""
        out = [Action("recall", p, u.id) for u in self.units if u.zone == "battlefield"]
        if self.combat is not None:
            out += [Action("stun", p, u.id) for u in self.at(self.combat.battlefield)]
            out += [Action("move_to_combat", p, u.id) for u in self.units if u.owner == p and u.zone == "base"]
        return out + [Action("play", p, u.id, bf) for u in self.units if u.owner == p and u.zone == "hand"
                      for bf in range(self.num_battlefields)]

    def _malformed(self, a: Any) -> Problem | None:
        """What the value lacks to be an action at all: its kind, a player at
        this table, and only the fields its kind takes."""
        if not isinstance(a, Action):
            return FORMAT, f"not an action: {a!r}"
        if not isinstance(a.kind, str) or a.kind not in TAKES:
            return FORMAT, f"unknown kind of action {a.kind!r}; kinds: {', '.join(TAKES)}"
        if not isinstance(a.player, int) or isinstance(a.player, bool) or not 0 <= a.player < self.num_players:
            return FORMAT, f"no player {a.player!r} at this table"
        if a.stray_fields():
            return FORMAT, f"a {a.kind} action takes no {', '.join(a.stray_fields())}"
        return None

    def _problem(self, a: Any) -> Problem | None:
        malformed = self._malformed(a)
        if malformed:
            return malformed
        if self.step == "game_over" and self.winner is None:
            return ("assumed:turn-cap",), f"the game is over: it reached {self.max_turns} turns with no winner"
        if self.step == "game_over":
            return ("assumed:victory",), f"the game is over: {pname(self.winner)} has won"
        return getattr(self, f"_check_{a.kind}")(a)

    def _need_unit(self, a: Action, rule: str) -> tuple[Unit | None, Problem | None]:
        u = self.unit(a.unit) if isinstance(a.unit, str) else None
        if u is None:
            return None, ((rule,), f"no unit {a.unit!r} at this table")
        return u, None

    def _need_bf(self, a: Action, rule: str) -> Problem | None:
        if not isinstance(a.battlefield, int) or not 0 <= a.battlefield < self.num_battlefields:
            return (rule,), f"no battlefield {a.battlefield!r}: there are {self.num_battlefields}"
        return None

    def _check_move(self, a: Action) -> Problem | None:
        """assumed:standard-move: in the action phase, the turn player moves one of
        his units that has not moved this turn from base to a battlefield.
        combat.multiplayer.no-destination, combat.third-player-invalid: with more
        than two players some battlefields are no destination (see _destination)."""
        rule = "assumed:standard-move"
        if self.step == "cleanup":
            return ("combat.pending.order",), "a combat is pending: the turn player must first choose one to start"
        if self.step != "action":
            return (rule,), f"units move in the action phase; this is the {self.step} step"
        if a.player != self.turn_player:
            return (rule,), f"it is {pname(self.turn_player)}'s turn"
        u, problem = self._need_unit(a, rule)
        if problem:
            return problem
        if u.owner != a.player:
            return (rule,), f"{self._ref(u)} is not {pname(a.player)}'s"
        if u.zone != "base":
            return (rule,), f"{self._ref(u)} is not at base (it is in {self._where(u)})"
        if u.moves:
            return (rule,), f"{self._ref(u)} has already moved this turn"
        return self._need_bf(a, rule) or self._destination(a.player, a.battlefield)

    def _destination(self, player: int, bf: int) -> Problem | None:
        """combat.multiplayer.no-destination: with more than two players, a
        battlefield with a pending or running combat where the mover has no unit
        is no destination, even for a player of that combat whose units there
        have all left (assumed:combatants-barred). combat.third-player-invalid, combat.two-players: nor is a
        battlefield that already holds units of two other players."""
        if self.num_players <= 2:
            return None
        owners = self.owners_at(bf)
        if self.combat_players(bf) and player not in owners:
            return (("combat.multiplayer.no-destination", "combat.third-player-invalid"),
                    f"{bf_name(bf)} has a combat and {pname(player)} has no unit there")
        if player not in owners and len(owners) >= 2:
            return ("combat.third-player-invalid", "combat.two-players"), \
                f"{bf_name(bf)} holds units of two other players already"
        return None

    def _check_end_turn(self, a: Action) -> Problem | None:
        """assumed:turn-end: the turn player ends the turn from the action phase,
        with no combat pending."""
        if self.step == "cleanup":
            return ("assumed:turn-end", "combat.pending.order"), "a combat is pending: it must be fought first"
        if self.step != "action":
            return ("assumed:turn-end",), f"the turn ends from the action phase; this is the {self.step} step"
        if a.player != self.turn_player:
            return ("assumed:turn-end",), f"it is {pname(self.turn_player)}'s turn"
        return None

    def _check_start_combat(self, a: Action) -> Problem | None:
        """combat.pending.order: the turn player chooses which pending combat is
        fought first; combat.pending.dropped: one no longer pending is not offered."""
        if self.step != "cleanup":
            return ("combat.start",), f"no combat waits to start; this is the {self.step} step"
        if a.player != self.turn_player:
            return ("combat.pending.order",), f"the turn player, {pname(self.turn_player)}, chooses the combat"
        problem = self._need_bf(a, "combat.pending")
        if problem:
            return problem
        if a.battlefield not in self.to_choose:
            return ("combat.pending", "combat.pending.dropped"), \
                f"no combat is pending at {bf_name(a.battlefield)}"
        return None

    def _showdown_turn(self, a: Action) -> Problem | None:
        """assumed:showdown-focus: in the open showdown only the focus holder acts."""
        if self.step != "showdown":
            return ("assumed:showdown-focus",), f"no showdown is open; this is the {self.step} step"
        if a.player != self.combat.focus:
            return ("assumed:showdown-focus",), f"{pname(self.combat.focus)} has the focus"
        return None

    def _check_pass(self, a: Action) -> Problem | None:
        """assumed:showdown-focus in the open showdown; assumed:chain-reactions on a chain."""
        if self.step == "chain":
            return self._chain_turn(a)
        return self._showdown_turn(a)

    def _chain_turn(self, a: Action) -> Problem | None:
        """assumed:chain-reactions: on a chain, only the player asked now acts."""
        if a.player != self.chain_priority:
            return ("assumed:chain-reactions",), f"{pname(self.chain_priority)} acts on the chain now"
        return None

    def _spell(self, a: Action) -> tuple[Unit | None, Problem | None]:
        """assumed:showdown-spells: in the open showdown a spell is cast by the
        focus holder, within his spell budget; assumed:chain-reactions: on a
        chain, by the player asked to act on it, within his reaction budget.
        Then the spell's target must be one it can take (_target_problem)."""
        if self.step == "chain":
            problem = self._chain_turn(a)
            if not problem and self.reactions[a.player] <= 0:
                problem = ("assumed:chain-reactions",), f"{pname(a.player)} has no reaction left"
        elif self.step == "action":
            problem = self._action_spell_turn(a)
        else:
            problem = self._showdown_turn(a)
            if not problem and self.spells[a.player] <= 0:
                problem = ("assumed:showdown-spells",), f"{pname(a.player)} has no spell left"
        if problem:
            return None, problem
        u, problem = self._need_unit(a, "assumed:showdown-spells")
        if problem:
            return None, problem
        if a.kind == "play":
            problem = self._need_bf(a, "assumed:showdown-spells")
        return u, problem or self._target_problem(a.kind, a.player, u)

    def _action_spell_turn(self, a: Action) -> Problem | None:
        """assumed:action-spells: outside a showdown, the turn player casts a recall
        or a play in his action phase, within his budget of such spells."""
        rule = ("assumed:action-spells",)
        if a.player != self.turn_player:
            return rule, f"{pname(self.turn_player)} acts in the action phase"
        if a.kind not in ("recall", "play"):
            return rule, f"no combat is running: a {a.kind.replace('_', ' ')} needs one"
        if self.action_spells[a.player] <= 0:
            return rule, f"{pname(a.player)} has no spell left to cast outside a showdown"
        return None

    def _target_problem(self, kind: str, player: int, u: Unit) -> Problem | None:
        """assumed:showdown-spells: what each spell takes, asked when it is cast
        and again when it resolves (assumed:chain-reactions: a spell whose
        target has become one it cannot take does nothing):
        recall: any unit at a battlefield; stun: a unit at the combat's
        battlefield not stunned yet; move into the combat: one's own unit at
        base, where the combat's battlefield is a destination for him
        (combat.multiplayer.no-destination, combat.third-player-invalid);
        play: one's own unit in hand (combat.multiplayer.play-to-base may send it
        to base instead)."""
        rule = ("assumed:showdown-spells",)
        if kind in ("move_to_combat", "play") and u.owner != player:
            return rule, f"{self._ref(u)} is not {pname(player)}'s"
        if kind == "recall" and u.zone != "battlefield":
            return rule, f"{self._ref(u)} is not at a battlefield"
        if kind == "play" and u.zone != "hand":
            return rule, f"{self._ref(u)} is not in hand (it is in {self._where(u)})"
        if kind in ("stun", "move_to_combat") and self.combat is None:
            return rule, "no combat is running"
        if kind == "stun" and (u.zone != "battlefield" or u.battlefield != self.combat.battlefield):
            return rule, f"{self._ref(u)} is not at the combat's battlefield"
        if kind == "stun" and u.stunned:
            return rule, f"{self._ref(u)} is stunned already"
        if kind == "move_to_combat" and u.zone != "base":
            return rule, f"{self._ref(u)} is not at base (it is in {self._where(u)})"
        if kind == "move_to_combat":
            # The seed's test is whether the mover controls a permanent (a unit)
            # there, not whether they are in the combat: with more than two players
            # an attacker or defender whose units have all left may not move back in.
            return self._destination(player, self.combat.battlefield)
        return None

    def _check_spell(self, a: Action) -> Problem | None:
        return self._spell(a)[1]

    _check_recall = _check_stun = _check_move_to_combat = _check_play = _check_spell

    def _check_assign(self, a: Action) -> Problem | None:
        """damage.assign: the attacker, then the defender, assigns his whole total
        among the opposing units; the assignment must be legal (damage.* in damage.py),
        and so must the order its pairs give: the order in which the damage is handed
        out (damage.lethal-first, damage.requirements, damage.exclusive)."""
        if self.step != "damage":
            return ("damage.assign",), f"no damage is being assigned; this is the {self.step} step"
        if a.player != self.combat.assigning:
            return ("damage.assign",), f"{pname(self.combat.assigning)} assigns damage now"
        targets = self._damage_targets()
        try:
            pairs = list(a.assignment)
            given = dict(pairs)
        except (TypeError, ValueError):
            pairs, given = [], {}
        if not pairs and targets or len(given) != len(pairs) or set(given) != {u.id for u in targets}:
            names = ", ".join(self._ref(u) for u in targets)
            return ("damage.assign",), f"an assignment names each opposing unit once: {names}"
        total = self._total(a.player)
        ordered = [self.unit(uid) for uid, _ in pairs]
        amounts = [n for _, n in pairs]
        seen = [self._target(u) for u in ordered]
        shown = ", ".join(f"{self._ref(u)} {n}" for u, n in zip(ordered, amounts))
        rule = dmg.problem(seen, amounts, total)
        if rule is not None:
            return (rule,), f"{shown} is not a legal assignment of {total} damage"
        rule = dmg.order_problem(seen, amounts)
        if rule is not None:
            return (rule,), f"{shown}: damage cannot be handed out in this order"
        return None

    # --- doing ---------------------------------------------------------------------------

    def _contest(self, player: int, bf: int) -> None:
        """assumed:contested: a unit arriving where its player has no control
        makes the battlefield contested by that player, unless it is already contested."""
        b = self.battlefields[bf]
        if b.controller != player and b.contested_by is None:
            b.contested_by = player

    def _do_move(self, a: Action) -> None:
        """assumed:standard-move, then a cleanup (combat.start)."""
        u = self.unit(a.unit)
        u.zone, u.battlefield = "battlefield", a.battlefield
        u.moves += 1
        self._contest(a.player, a.battlefield)
        self._cleanup()

    def _do_end_turn(self, a: Action) -> None:
        """assumed:turn-end, qa.damage-cleared, assumed:stun-lasts-turn: moves, stuns
        and damage end, every player may score at each battlefield again, and the
        next seat takes the turn."""
        for u in self.units:
            u.moves, u.stunned, u.damage = 0, False, 0
        self.scored = [[False] * self.num_battlefields for _ in range(self.num_players)]
        self.turn_player = (self.turn_player + 1) % self.num_players
        self.turn += 1
        if self.turn > self.max_turns:
            # assumed:turn-cap: nothing in the seed ends a game nobody can win.
            self.step = "game_over"
            self.history.append(f"the game ends with no winner after {self.max_turns} turns (turn cap)")
            return
        self.step = "action"
        # assumed:hold: the new turn player scores each battlefield they hold;
        # the cleanup that follows sees whether that wins (assumed:victory).
        for bf, field in enumerate(self.battlefields):
            if field.controller == self.turn_player:
                self.scored[self.turn_player][bf] = True
                self.points[self.turn_player] += 1
                self.history.append(f"{pname(self.turn_player)} holds {bf_name(bf)}: {self.points[self.turn_player]} points")
        self._cleanup()

    def _do_start_combat(self, a: Action) -> None:
        """showdown.attacker, showdown.defender, showdown.unit-roles, showdown.focus,
        then the initial chain (showdown.initial-chain, showdown.closed, showdown.focus-kept)."""
        bf = a.battlefield
        owners = self.owners_at(bf)
        contester = self.battlefields[bf].contested_by
        if contester in owners:
            attacker = contester
        else:
            # Reading (assumed:attacker-gone): the attacker is the player in contested_by, but with three
            # players the contesting player's units can leave (a recall) while two
            # others meet there. The attacker is then the one of the two who does not
            # control the battlefield, or, when neither does, the first of them in turn
            # order from the turn player; the battlefield counts as contested by him.
            strangers = [p for p in owners if p != self.battlefields[bf].controller]
            order = sorted(strangers, key=lambda p: (p - self.turn_player) % self.num_players)
            attacker = order[0]
            self.battlefields[bf].contested_by = attacker
        defender = next(p for p in owners if p != attacker)
        self.to_choose = []
        self.combat = Combat(battlefield=bf, attacker=attacker, defender=defender, focus=attacker)
        for u in self.at(bf):
            u.role = "attacker" if u.owner == attacker else "defender"
        self.history.append(f"combat at {bf_name(bf)}: {pname(attacker)} attacks, {pname(defender)} defends")
        self.step = "showdown"
        self._initial_chain()

    def _triggers_of(self, p: int) -> list[Unit]:
        """The triggers of p's units that the roles just made pending, in unit order:
        the rallying cries of p's units in the combat (assumed:rallying-cry) and
        the triggers of p's units in play outside it (assumed:afar-trigger)."""
        c = self.combat
        out = []
        for u in self.units:
            if u.owner != p or u.zone not in ("base", "battlefield"):
                continue
            inside = u.zone == "battlefield" and u.battlefield == c.battlefield
            if (inside and u.role and u.has("rallying")) or (not inside and u.card.ability == "rallies_from_afar"):
                out.append(u)
        return out

    def _initial_chain(self) -> None:
        """showdown.initial-chain: the triggers the roles made pending go on the
        chain: the attacker's first (in unit order), then every other
        non-defending player's in turn order after the attacker (players outside
        the combat included), the defender's last, on top. showdown.closed: with a
        chain the showdown is closed until it has resolved, top first
        (assumed:chain-order); showdown.actions: players may act on it as on any
        chain (assumed:chain-reactions). showdown.focus-kept: the focus stays
        with the attacker afterwards (_chain_done)."""
        c = self.combat
        order = [c.attacker] + [(c.attacker + k) % self.num_players for k in range(1, self.num_players)]
        order = [p for p in order if p != c.defender] + [c.defender]
        triggered = [u for p in order for u in self._triggers_of(p)]
        if not triggered:
            return
        c.initial_chain = True
        self.history.append("initial chain, bottom first: " + ", ".join(self._ref(u) for u in triggered))
        self.chain = [Link("trigger", u.owner, u.id, u.battlefield) for u in triggered]
        self.chain_passes = 0
        self._run_chain()

    def _do_pass(self, a: Action) -> None:
        """assumed:showdown-focus: the focus moves on; once every player has passed
        in succession the showdown ends (damage.step). assumed:chain-reactions:
        on a chain, the next player with a reaction left is asked, and once each
        has passed in succession the top link resolves."""
        if self.step == "chain":
            self.chain_passes += 1
            self._run_chain()
            return
        c = self.combat
        c.focus = (c.focus + 1) % self.num_players
        c.passes += 1
        if c.passes == self.num_players:
            self._end_showdown()

    def _cast(self, a: Action) -> None:
        """assumed:showdown-spells, assumed:showdown-focus: a spell in the open
        showdown costs one of the caster's spell budget, moves the focus on and
        restarts the count of passes; assumed:chain-reactions: one cast on a
        chain costs a reaction and moves no focus; assumed:action-spells: one cast
        in the action phase costs one of the caster's spells for it. Each goes on
        the chain (showdown.actions), on top, and resolves when its turn comes."""
        if self.step == "chain":
            self.reactions[a.player] -= 1
        elif self.step == "action":
            self.action_spells[a.player] -= 1
        else:
            self.spells[a.player] -= 1
            self.combat.focus = (self.combat.focus + 1) % self.num_players
            self.combat.passes = 0
        self.chain.append(Link(a.kind, a.player, a.unit, a.battlefield))
        self.chain_passes = 0
        self._run_chain()

    _do_recall = _do_stun = _do_move_to_combat = _do_play = _cast

    def _reactors(self) -> list[int]:
        """assumed:chain-reactions: the players who may act on the chain, those
        with a reaction left, in turn order from the player after the one who
        put its top link on (he comes last)."""
        top = self.chain[-1].player
        order = [(top + k) % self.num_players for k in range(1, self.num_players + 1)]
        return [p for p in order if self.reactions[p] > 0]

    def _run_chain(self) -> None:
        """showdown.actions, assumed:chain-reactions, assumed:chain-order: the chain
        resolves from its top. Before each link resolves, every player with a
        reaction left is asked in turn (step "chain"); once each has passed in
        succession, or when nobody has a reaction left, the top link resolves,
        followed by a cleanup, and the asking starts again for the next.
        Chains arise in a showdown (its initial chain and its spells) and in
        the action phase (assumed:action-spells). A game won at the cleanup
        after a link (assumed:victory: a conquest outside a showdown) is over:
        the links left on the chain never resolve and nobody is asked."""
        while self.chain and self.step != "game_over":
            reactors = self._reactors()
            if self.chain_passes < len(reactors):
                self.step, self.chain_priority, self.chain_waited = "chain", reactors[self.chain_passes], True
                return
            self._resolve_link(self.chain.pop())
            self.chain_passes = 0
        self.chain_priority = None
        self._chain_done()

    def _resolve_link(self, link: Link) -> None:
        """The top link resolves (assumed:chain-order), then a cleanup
        (showdown.actions, showdown.late-roles). A spell whose target has
        become one it cannot take does nothing (assumed:chain-reactions); so
        does a trigger whose unit has left play."""
        u = self.unit(link.unit)
        if self.chain_waited:
            self.history.append(f"{self.link_label(link)} resolves")
        if link.kind == "trigger":
            self._resolve_trigger(u)
        else:
            problem = self._target_problem(link.kind, link.player, u)
            if problem:
                self.history.append(f"{self.link_label(link)} does nothing: {problem[1]}")
            else:
                getattr(self, f"_resolve_{link.kind}")(link, u)
        self._cleanup()

    def _resolve_trigger(self, u: Unit) -> None:
        """assumed:rallying-cry, assumed:afar-trigger: +1 might until the combat ends."""
        if u.zone not in ("base", "battlefield"):
            self.history.append(f"{self._ref(u)}'s trigger does nothing: it has left play")
            return
        u.buffed = True
        self.history.append(f"{self._ref(u)} rallies: +1 might ({self.might(u)})")

    def _chain_done(self) -> None:
        """The chain is empty: the showdown is open again (showdown.closed);
        after the initial chain the attacker keeps the focus
        (showdown.focus-kept). Outside a showdown (assumed:action-spells) the
        cleanup after the last link has already said what comes next: a pending
        combat, or the action phase (combat.start)."""
        self.chain_waited = False
        c = self.combat
        if c is None or self.step == "game_over":
            return
        self.step = "showdown"
        if c.initial_chain:
            c.initial_chain = False
            c.focus = c.attacker
            self.history.append(f"the initial chain has resolved; {pname(c.attacker)} keeps the focus")

    def _resolve_recall(self, link: Link, u: Unit) -> None:
        """assumed:showdown-spells: the unit goes to its owner's base and loses its role
        (a pending combat elsewhere may stop being pending: combat.pending.dropped)."""
        # Reading: the unit keeps its damage, stun and rallying buff; only its
        # role goes. The buff still ends with the combat (resolution.clear-roles).
        u.zone, u.battlefield, u.role = "base", None, None

    def _resolve_stun(self, link: Link, u: Unit) -> None:
        """assumed:showdown-spells, assumed:stun-lasts-turn, qa.both-survive: a stunned
        unit deals no combat damage."""
        u.stunned = True

    def _resolve_move_to_combat(self, link: Link, u: Unit) -> None:
        """assumed:showdown-spells: the unit arrives with no role; it takes one at the
        cleanup that follows (showdown.late-roles). It is a move (Kayn counts it)."""
        u.zone, u.battlefield = "battlefield", self.combat.battlefield
        u.moves += 1
        self._contest(link.player, self.combat.battlefield)

    def _resolve_play(self, link: Link, u: Unit) -> None:
        """assumed:showdown-spells; combat.multiplayer.play-to-base (and
        combat.multiplayer.no-play): with more than two players, a unit played to a
        battlefield with a pending or running combat its player is not part of goes
        to his base instead; the spell may name that battlefield all the same
        (assumed:play-redirected, where line 16 would forbid the play). Reading: a unit played to its own combat's battlefield
        takes its role at the cleanup (showdown.late-roles)."""
        bf = link.battlefield
        players = self.combat_players(bf)
        if self.num_players > 2 and players and link.player not in players:
            u.zone, u.battlefield = "base", None
            self.history.append(f"{self._ref(u)} is played to {pname(link.player)}'s base instead "
                                f"(a combat at {bf_name(bf)} without {pname(link.player)})")
        else:
            u.zone, u.battlefield = "battlefield", bf
            self._contest(link.player, bf)
        self._when_played(u)

    def _when_played(self, u: Unit) -> None:
        """assumed:here-trigger, combat.multiplayer.here-is-base: each enemy unit
        'here', the place the unit was played to, is stunned (Snare Warden), dealt
        1 damage (Spark Sapper) or destroyed (Grave Reaper). Played to its base
        instead, 'here' is that base, where no enemy unit stands, so the effect
        finds no target and does nothing. Damage dealt so is damage outside
        combat: the cleanup after the spell destroys a unit it made lethal
        (assumed:destroy-lethal), and it lasts until the end of the next combat or
        of the turn (qa.damage-cleared)."""
        effect = {"stun_enemies_here_when_played": "stun",
                  "damage_enemies_here_when_played": "damage",
                  "destroy_enemies_here_when_played": "destroy"}.get(u.card.ability)
        if effect is None:
            return
        if u.zone == "base":
            self.history.append(f"{self._ref(u)}'s {effect} finds no enemy unit here ({pname(u.owner)}'s base)")
            return
        for v in self.at(u.battlefield):
            if v.owner == u.owner:
                continue
            if effect == "stun" and not v.stunned:
                v.stunned = True
                self.history.append(f"{self._ref(v)} is stunned by {self._ref(u)}")
            elif effect == "damage" and not self.immune(v):
                v.damage += 1
                self.history.append(f"{self._ref(u)} deals 1 damage to {self._ref(v)}")
            elif effect == "destroy":
                # qa.both-survive: a unit that cannot be destroyed stays, and the
                # Q&A's example of one is Kayn's immunity (assumed:immune-not-destroyed).
                if v.has("indestructible") or self.immune(v):
                    self.history.append(f"{self._ref(v)} cannot be destroyed")
                else:
                    self.history.append(f"{self._ref(v)} is destroyed by {self._ref(u)}")
                    self._to_trash(v)

    def _end_showdown(self) -> None:
        """damage.step, damage.both-present: combat damage only if attacking and
        defending units are both still there; otherwise straight to resolution."""
        # Reading: the focus and the count of passes stay as the last pass left
        # them (focus on the next seat, passes equal to the number of players)
        # until the combat ends.
        if self.in_combat("attacker") and self.in_combat("defender"):
            self.step = "damage"
            self.combat.assigning = self.combat.attacker
            self.combat.assigned = {}
        else:
            self.history.append("no combat damage: one side has no unit left there")
            self._resolve()

    def _damage_targets(self) -> list[Unit]:
        """damage.assign: the opposing units in the combat, in unit order."""
        c = self.combat
        return self.in_combat("defender" if c.assigning == c.attacker else "attacker")

    def _total(self, player: int) -> int:
        """damage.totals, qa.both-survive: the summed might of the player's units in
        the combat that are not stunned (might below 0 counts as 0); leaving the
        stunned out is assumed:stunned-out-of-total. At equal totals too, each side
        assigns its own total, not the might of all units there
        (assumed:equal-might-own-side)."""
        role = "attacker" if player == self.combat.attacker else "defender"
        return sum(max(0, self.might(u)) for u in self.in_combat(role) if not u.stunned)

    def _target(self, u: Unit) -> dmg.Target:
        return dmg.Target(self.might(u), u.damage, u.has("tank"), u.has("last"), self.immune(u))

    def _do_assign(self, a: Action) -> None:
        """damage.assign, damage.assign-not-deal: the attacker's assignment waits
        until the defender has assigned too; damage.deal: then every unit is dealt
        what it was assigned, all at once (a unit that cannot be damaged takes
        none), and lethal damage destroys (assumed:destroy-lethal)."""
        c = self.combat
        given = dict(a.assignment)
        if c.assigning == c.attacker:
            # Reading: `assigned` lists every opposing unit, zeros included, since
            # an assignment names them all.
            c.assigned = {u.id: given[u.id] for u in self._damage_targets()}
            c.assigning = c.defender
            return
        c.assigned.update({u.id: given[u.id] for u in self._damage_targets()})
        dealt = []
        for uid, amount in c.assigned.items():
            u = self.unit(uid)
            if amount and not self.immune(u):
                u.damage += amount
                dealt.append(f"{amount} to {self._ref(u)}")
        self.history.append("combat damage dealt: " + (", ".join(dealt) or "none"))
        c.assigning, c.assigned = None, {}
        self._destroy_lethal()
        self._resolve()

    def _resolve(self) -> None:
        """The resolution step: resolution.cleanup with its inserted steps
        resolution.clear-damage (every unit everywhere), resolution.recall (the
        attackers go home if a defender is still there), resolution.clear-roles
        (and the rallying buffs), then resolution.clear-contested,
        resolution.control and resolution.conquer (resolution.any-player: whoever
        remains), assumed:control-needs-units (nobody left: uncontrolled;
        qa.equal-might), qa.both-survive. Then a cleanup."""
        c = self.combat
        bf = c.battlefield
        for u in self.units:
            u.damage = 0
        if any(u.role == "defender" for u in self.at(bf)):
            for u in self.at(bf):
                if u.role == "attacker":
                    u.zone, u.battlefield = "base", None
                    self.history.append(f"{self._ref(u)} is recalled to base")
        for u in self.units:
            u.role, u.buffed = None, False
        b = self.battlefields[bf]
        b.contested_by = None
        owners = self.owners_at(bf)
        if owners:
            # Reading: after the recall only one player's units can be left there.
            # A defender who did not hold it conquers too (assumed:qa-defender-held).
            holder = owners[0]
            if b.controller != holder:
                b.controller = holder
                self._conquer(holder, bf)
        elif b.controller is not None:
            b.controller = None
            self.history.append(f"{bf_name(bf)} is left with no unit: nobody controls it")
        self.combat = None
        self.history.append(f"the combat at {bf_name(bf)} is over")
        self._cleanup()

    def _conquer(self, player: int, bf: int) -> None:
        """resolution.conquer, assumed:uncontested-control: taking control is a
        conquest if the player has not scored there this turn, worth one point
        (assumed:conquest-point)."""
        if self.scored[player][bf]:
            self.history.append(f"{pname(player)} takes control of {bf_name(bf)} (already scored there this turn)")
            return
        self.scored[player][bf] = True
        self.points[player] += 1
        self.history.append(f"{pname(player)} conquers {bf_name(bf)}: {self.points[player]} points")

    # --- cleanup ---------------------------------------------------------------------------

    def _destroy_lethal(self) -> None:
        """assumed:destroy-lethal, damage.lethal, qa.both-survive: a unit with lethal
        damage (more than zero, at least its might) goes to its owner's trash,
        unless it cannot be damaged or cannot be destroyed (qa.both-survive: it
        keeps its damage until the combat's cleanup); equal totals destroy only
        through the damage dealt (assumed:equal-might-as-dealt).
        A unit of might 0 with no damage is not destroyed: lethal damage is never
        zero (damage.lethal), though qa.both-survive's "damage at least its
        might" holds of it (assumed:zero-not-lethal; the model's question
        lethal_damage declares both)."""
        for u in self.units:
            if u.zone in ("base", "battlefield") and u.damage > 0 and u.damage >= self.might(u) \
                    and not self.immune(u) and not u.has("indestructible"):
                self.history.append(f"{self._ref(u)} is destroyed ({u.damage} damage, might {self.might(u)})")
                self._to_trash(u)

    @staticmethod
    def _to_trash(u: Unit) -> None:
        """assumed:destroy-lethal: a destroyed unit goes to its owner's trash.
        Reading: a unit in the trash keeps nothing of its time on the board."""
        u.zone, u.battlefield, u.damage, u.role = "trash", None, 0, None
        u.stunned, u.buffed, u.moves, u.set_might = False, False, 0, None

    def _cleanup(self) -> None:
        """A cleanup, after every move, every spell and every combat:
        a. assumed:destroy-lethal; b. showdown.late-roles during a combat;
        c. assumed:uncontested-control outside combat; then assumed:victory;
        d. combat.start, combat.pending, combat.pending.order outside combat,
        only once the chain is empty (003:7: a chain cast in the action phase,
        assumed:action-spells, holds pending combats back until it has resolved)."""
        self._destroy_lethal()
        c = self.combat
        if c is not None:
            for u in self.at(c.battlefield):  # showdown.late-roles
                if u.role is None and u.owner in (c.attacker, c.defender):
                    u.role = "attacker" if u.owner == c.attacker else "defender"
                    self.history.append(f"{self._ref(u)} becomes {'an' if u.role == 'attacker' else 'a'} {u.role}")
        else:
            self._settle_contested()
        # Reading: victory is checked before pending combats are offered, so a
        # game that is won ends even if a combat is pending (the winner would be the
        # same at the next cleanup anyway, and no choice is wasted on it).
        winners = [p for p in range(self.num_players) if self.points[p] >= self.victory_points]
        if winners:
            # Reading: two players can reach the goal in one cleanup only through
            # two conquests at once; the one with more points wins, then the first in
            # turn order from the turn player.
            winners.sort(key=lambda p: (-self.points[p], (p - self.turn_player) % self.num_players))
            self.winner = winners[0]
            self.step = "game_over"
            self.to_choose = []
            self.history.append(f"{pname(self.winner)} wins with {self.points[self.winner]} points")
            return
        if c is not None:
            return  # the showdown goes on; a combat pending elsewhere waits for it to end (assumed:running-combat-first)
        if self.chain:
            self.to_choose = []
            return  # combat.start: links are still waiting on the chain
        self.to_choose = [bf for bf in range(self.num_battlefields) if self.is_pending(bf)]
        self.step = "cleanup" if self.to_choose else "action"

    def _settle_contested(self) -> None:
        """assumed:uncontested-control: outside combat, a contested battlefield
        holding one player's units only is taken by that player; one holding no
        units stops being contested.
        Reading: a player who already controls it does not take it again, so
        that is no conquest (as resolution.control: only a player who does not
        control it takes control)."""
        for bf, b in enumerate(self.battlefields):
            if b.contested_by is None:
                continue
            owners = self.owners_at(bf)
            if not owners:
                b.contested_by = None
                self.history.append(f"{bf_name(bf)} is no longer contested: no unit is there")
            elif len(owners) == 1:
                b.contested_by = None
                if b.controller != owners[0]:
                    b.controller = owners[0]
                    self._conquer(owners[0], bf)

    # --- words -----------------------------------------------------------------------------

    def _ref(self, u: Unit) -> str:
        return f"{pname(u.owner)}'s {u.name}"

    def _where(self, u: Unit) -> str:
        return bf_name(u.battlefield) if u.zone == "battlefield" else u.zone

    def link_label(self, link: Link) -> str:
        """A link in words: "P1's Drum Herald's trigger", "P2's recall of P1's Kayn",
        "P1's play of Border Scout to bf1"."""
        u = self.unit(link.unit)
        if link.kind == "trigger":
            return f"{self._ref(u)}'s trigger"
        what = self._ref(u) if u.owner != link.player else u.name
        to = f" to {bf_name(link.battlefield)}" if link.kind == "play" else ""
        return f"{pname(link.player)}'s {link.kind.replace('_', ' ')} of {what}{to}"

    def action_label(self, a: Action) -> str:
        """The action in words: "P1 moves Caitlyn to bf1", "P2 passes",
        "P1 starts combat at bf2", "P2 recalls P1's Kayn", "P1 stuns P2's Kayn",
        "P1 moves Kayn into the combat", "P2 plays Border Scout to bf1",
        "P1 assigns Bulwark Sentry 3, Caitlyn 2", "P1 ends the turn"."""
        who = pname(a.player)
        u = self.unit(a.unit) if isinstance(a.unit, str) else None

        def own(unit_id: str | None) -> str:
            if u is None:
                return str(unit_id)
            return u.name if u.owner == a.player else self._ref(u)

        bf = bf_name(a.battlefield) if isinstance(a.battlefield, int) else str(a.battlefield)
        if a.kind == "assign":
            parts = []
            for uid, n in a.assignment:
                t = self.unit(uid)
                parts.append(f"{t.name if t else uid} {n}")
            return f"{who} assigns {', '.join(parts)}"
        target = self._ref(u) if u else a.unit
        words = {
            "move": f"moves {own(a.unit)} to {bf}",
            "end_turn": "ends the turn",
            "start_combat": f"starts combat at {bf}",
            "pass": "passes",
            "recall": f"recalls {target}",
            "stun": f"stuns {target}",
            "move_to_combat": f"moves {own(a.unit)} into the combat",
            "play": f"plays {own(a.unit)} to {bf}",
        }
        return f"{who} {words[a.kind]}" if a.kind in words else str(a)

    def action_to_string(self, action: Action) -> str:
        return self.action_label(action)

    def to_dict(self) -> dict:
        """The observation the agreement harness reads."""
        c = self.combat
        return {
            "players": self.num_players,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "step": self.step,
            "battlefields": [{"controller": b.controller, "contested_by": b.contested_by} for b in self.battlefields],
            "units": [{
                "id": u.id, "card": u.card.name, "owner": u.owner, "might": self.might(u),
                "tank": u.has("tank"), "last": u.has("last"), "immune": self.immune(u),
                "rallying": u.has("rallying"), "indestructible": u.has("indestructible"),
                "zone": u.zone, "battlefield": u.battlefield,
                "damage": u.damage, "role": u.role, "stunned": u.stunned, "moved": u.moves > 0,
                "moves": u.moves,
                "buffed": u.buffed,
            } for u in self.units],
            "combat": None if c is None else {
                "battlefield": c.battlefield, "attacker": c.attacker, "defender": c.defender,
                "focus": c.focus, "passes": c.passes, "assigning": c.assigning, "assigned": dict(c.assigned),
                # showdown.closed: closed while a chain is on the table, open once it is empty.
                "closed": bool(self.chain),
            },
            # The chain, bottom first (assumed:chain-reactions): each link's kind
            # ("trigger" or a spell's), its player, its unit, and where it acts.
            "chain": [{"kind": k.kind, "player": k.player, "unit": k.unit, "battlefield": k.battlefield}
                      for k in self.chain],
            # The combats the turn player must choose from now (combat.pending.order;
            # empty outside the cleanup step)...
            "to_choose": list(self.to_choose),
            # ...and every combat pending on the table, whatever the step (combat.pending).
            "pending_combats": [bf for bf in range(self.num_battlefields) if self.is_pending(bf)],
            "points": list(self.points),
            "scored": [list(row) for row in self.scored],
            "spells": list(self.spells),
            "reactions": list(self.reactions),
            "action_spells": list(self.action_spells),
            "winner": self.winner,
        }

    def _unit_text(self, u: Unit) -> str:
        bits = [f"might {self.might(u)}"]
        bits += [k for k in ("tank", "last", "rallying", "indestructible") if u.has(k)]
        if self.immune(u):
            bits.append("immune")
        if u.role:
            bits.append(u.role)
        if u.damage:
            bits.append(f"{u.damage} damage")
        if u.stunned:
            bits.append("stunned")
        if u.moves:
            bits.append("moved" if u.moves == 1 else f"moved {u.moves}x")
        if u.buffed:
            bits.append("buffed")
        return f"{self._ref(u)} ({', '.join(bits)})"

    def __str__(self) -> str:
        head = f"turn {self.turn}, {pname(self.turn_player)}'s turn, step {self.step}"
        if self.step == "game_over":
            head += f", {pname(self.winner)} won"
        lines = [head,
                 "points " + ", ".join(f"{pname(p)} {n}" for p, n in enumerate(self.points))
                 + "; spells " + ", ".join(f"{pname(p)} {n}" for p, n in enumerate(self.spells))
                 + "; reactions " + ", ".join(f"{pname(p)} {n}" for p, n in enumerate(self.reactions))]
        if self.chain:
            lines.append("chain, bottom first: " + "; ".join(self.link_label(k) for k in self.chain)
                         + f"; {pname(self.chain_priority)} to act" * (self.step == "chain"))
        c = self.combat
        for bf, b in enumerate(self.battlefields):
            text = f"{bf_name(bf)}: controlled by {pname(b.controller)}"
            if b.contested_by is not None:
                text += f", contested by {pname(b.contested_by)}"
            if c is not None and c.battlefield == bf:
                text += f"; combat, {pname(c.attacker)} attacks {pname(c.defender)}"
                if self.step in ("showdown", "chain"):
                    # showdown.closed: closed while a chain is on the table.
                    text += f", showdown {'closed' if self.chain else 'open'}, focus {pname(c.focus)}, {c.passes} passes"
                if self.step == "damage":
                    text += f", {pname(c.assigning)} assigns"
                    if c.assigned:
                        text += " (assigned: " + ", ".join(f"{self._ref(self.unit(i))} {n}"
                                                           for i, n in c.assigned.items()) + ")"
            if bf in self.to_choose:
                text += "; combat pending"
            lines.append(text)
            lines += [f"  {self._unit_text(u)}" for u in self.at(bf)]
        for p in range(self.num_players):
            for zone in ("base", "hand", "trash"):
                here = [u for u in self.units if u.owner == p and u.zone == zone]
                if here:
                    lines.append(f"{pname(p)} {zone}: " + "; ".join(self._unit_text(u) for u in here))
        return "\n".join(lines)
