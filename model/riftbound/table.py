"""The fixed facts of a Riftbound combat model: seats, battlefields and the
units at the table, with their printed might and keywords.

A unit's zone, damage, role, stun and buff are state (``combat.py``); what a
unit *is* never changes, so it lives here as constants the guards read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

#: Zone codes of the ``zone`` variable; battlefield ``i`` is ``FIRST_BATTLEFIELD + i``.
HAND, BASE, TRASH = 0, 1, 2
FIRST_BATTLEFIELD = 3
#: Role codes of the ``role`` variable (showdown.unit-roles).
NO_ROLE, ATTACKER, DEFENDER = 0, 1, 2
ROLE_NAMES = ("none", "attacker", "defender")
#: Assignment stages of the combat damage step (damage.assign: the attacker first).
ATTACKER_ASSIGNS, DEFENDER_ASSIGNS, DEALING = 0, 1, 2
NOBODY = -1


@dataclass(frozen=True)
class Unit:
    """One unit card at the table: its owner, printed might and keywords.

    ``tank``: assigned combat damage first; ``last``: assigned it last (the
    seed's Caitlyn); both at once is the seed's Caitlyn given Tank
    (damage.exclusive). ``immune``: cannot be damaged (damage.undamageable).
    ``indestructible``: cannot be destroyed, though it takes damage (qa.both-survive).
    ``rallying``: the triggered ability of assumed:rallying-cry.
    ``afar``: the triggered ability of assumed:afar-trigger (+1 might when a
    showdown it is not in begins).
    ``when_played``: what its trigger does to every enemy unit 'here' when a
    spell plays it (assumed:here-trigger): "stun", "damage" (1 damage) or
    "destroy"; "" for none.
    ``start``: its zone at the start (a zone code)."""

    name: str
    owner: int
    might: int
    start: int = BASE
    tank: bool = False
    last: bool = False
    immune: bool = False
    immune_after_two_moves: bool = False
    rallying: bool = False
    indestructible: bool = False
    afar: bool = False
    when_played: str = ""

    @property
    def may_be_immune(self) -> bool:
        """It cannot be damaged, always or in some state of the game (damage.undamageable)."""
        return self.immune or self.immune_after_two_moves

    @property
    def buffable(self) -> bool:
        """A trigger of its own can give it +1 might for a combat (assumed:rallying-cry, assumed:afar-trigger)."""
        return self.rallying or self.afar


@dataclass(frozen=True)
class Table:
    players: int
    battlefields: int
    units: tuple[Unit, ...]
    #: Who controls each battlefield at the start (NOBODY: open).
    controllers: tuple[int, ...]
    spells: int
    turns: int
    victory_points: int
    #: Where a game starts other than fresh (a table read off an engine game):
    #: the turn player, each player's points, scored marks (p*battlefields+i)
    #: and spell budget; None: seat 0, no points, no marks, ``spells`` each.
    turn_player: int = 0
    points: tuple[int, ...] | None = None
    scored: tuple[bool, ...] | None = None
    spell_budgets: tuple[int, ...] | None = None
    #: Reactions, spells cast on a chain while it waits (assumed:chain-reactions):
    #: each player's budget, or ``reaction_budgets`` per player for a table read
    #: off a game. With none at the table every chain resolves at once.
    reactions: int = 0
    reaction_budgets: tuple[int, ...] | None = None
    #: Spells the turn player may cast in his action phase, outside a showdown
    #: (assumed:action-spells): each player's budget, or ``action_spell_budgets``
    #: per player for a table read off a game. None at the default tables.
    action_spells: int = 0
    action_spell_budgets: tuple[int, ...] | None = None

    @property
    def casts_outside(self) -> bool:
        """Some player may cast a spell in his action phase (assumed:action-spells): the model then holds those spells."""
        return max(self.action_spell_budgets or (self.action_spells,)) > 0

    @property
    def chains_outside(self) -> bool:
        """A spell cast in the action phase may wait on a chain for reactions (assumed:action-spells,
        assumed:chain-reactions): the model then holds a chain outside any showdown."""
        return self.casts_outside and self.reacts

    @property
    def reacts(self) -> bool:
        """Some player may cast a reaction: the model then holds chains that wait (assumed:chain-reactions)."""
        return max(self.reaction_budgets or (self.reactions,)) > 0

    @property
    def chain_depth(self) -> int:
        """The most spells on a chain at once: the one cast by the focus holder (or, outside a
        showdown, by the turn player), then every reaction of the table."""
        return 1 + (sum(self.reaction_budgets) if self.reaction_budgets else self.reactions * self.players)

    @property
    def zones(self) -> int:
        return FIRST_BATTLEFIELD + self.battlefields

    @staticmethod
    def player_name(p: int) -> str:
        return f"P{p + 1}" if p >= 0 else "nobody"

    @staticmethod
    def battlefield_name(i: int) -> str:
        return f"bf{i + 1}"

    def zone_name(self, z: int) -> str:
        return ("hand", "base", "trash")[z] if z < FIRST_BATTLEFIELD else self.battlefield_name(z - FIRST_BATTLEFIELD)

    @cached_property
    def owned(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's units, read once: guards ask for them in every state."""
        return tuple(tuple(u for u, unit in enumerate(self.units) if unit.owner == p) for p in range(self.players))

    def units_of(self, p: int) -> tuple[int, ...]:
        return self.owned[p] if 0 <= p < self.players else ()

    def most_might(self, p: int) -> int:
        """The most combat damage player ``p`` can have to assign: every unit
        of theirs at full might, with its +1 buff (damage.totals)."""
        return sum(max(0, self.units[u].might) + self.units[u].buffable for u in self.units_of(p))

    @cached_property
    def castable(self) -> tuple[tuple[str, int, int], ...]:
        """Every showdown spell of this table as (kind, unit, battlefield; NOBODY
        but for play_unit) (assumed:showdown-spells): recall, stun and move into
        the combat for each unit, play to each battlefield for a unit that starts
        in hand (a unit never goes back to hand)."""
        out = []
        for u, unit in enumerate(self.units):
            out += [("recall", u, NOBODY), ("stun", u, NOBODY), ("move_to_combat", u, NOBODY)]
            if unit.start == HAND:
                out += [("play_unit", u, bf) for bf in range(self.battlefields)]
        return tuple(out)

    def spell_name(self, i: int) -> str:
        """``castable[i]`` as edge names show it: "stun Caitlyn", "play_unit Recruit to bf2"."""
        kind, u, bf = self.castable[i]
        return f"{kind} {self.units[u].name}" + (f" to {self.battlefield_name(bf)}" if bf != NOBODY else "")

    def link_code(self, i: int, caster: Any) -> Any:
        """The code of a chain link: spell ``castable[i]`` cast by ``caster`` (0 is no link)."""
        return 1 + caster + self.players * i

    @property
    def counts_moves(self) -> bool:
        """Some unit's immunity depends on its moves this turn: the model then counts them (Kayn)."""
        return any(u.immune_after_two_moves for u in self.units)

    def plays_with(self, effect: str) -> bool:
        """Some unit here has the when-played trigger ``effect`` (assumed:here-trigger)."""
        return any(u.when_played == effect for u in self.units)

    @property
    def most_damage(self) -> int:
        return max(self.most_might(p) for p in range(self.players))


def default_table(players: int = 2, battlefields: int = 2, spells: int = 1, turns: int = 2, victory_points: int = 2,
                  reactions: int = 0, action_spells: int = 0) -> Table:
    """The table the default bounds check: each player has a Tank or a
    Caitlyn, a second unit with a keyword, and one unit in hand for the
    play spell; P2 starts holding bf1 (so the first turn already has a combat).

    The mix covers every assignment requirement of the damage step (first,
    last, both, cannot be damaged) and the initial chain (rallying units on
    both sides)."""
    first = FIRST_BATTLEFIELD
    units = [
        Unit("Tank Guard", 0, 2, tank=True),
        Unit("Herald", 0, 1, rallying=True),
        Unit("Recruit", 0, 1, start=HAND),
        Unit("Caitlyn", 1, 2, start=first, last=True),
        Unit("Warded Sentry", 1, 1, immune=True, rallying=True),
        Unit("Caitlyn with Tank", 1, 1, start=HAND, tank=True, last=True),
    ]
    if players == 3:
        units += [Unit("Raider", 2, 2), Unit("Scout", 2, 1, start=HAND)]
    controllers = (1,) + (NOBODY,) * (battlefields - 1)
    return Table(players, battlefields, tuple(units), controllers, spells, turns, victory_points, reactions=reactions,
                 action_spells=action_spells)


def nearby_tables(players: int, battlefields: int, spells: int, victory_points: int) -> list[tuple[str, str, Table]]:
    """The tables one change away from the default, over one turn (which keeps
    each search near the default's size), where lint looks for what the
    default table cannot show: (key, label, table). Lint searches at most
    three for one ruling, in this order, and a ruling that play alone keeps
    from applying is searched on every table searched for another: Spark
    Sapper's table comes second, so that its marked damage is reached.

    - a third player: the multiplayer rules (combat.multiplayer,
      assumed:attacker-gone) apply only past two players;
    - Caitlyn at might 0, as an effect may set it (the engine's setups can):
      damage.lethal (line 53) and qa.both-survive (line 106) then disagree on
      what is lethal to her, some damage or none at all;
    - Caitlyn unable to be destroyed, qa.both-survive's own case (line 106);
    - a unit with one of the cards' triggers of the scenarios' pool: P1's
      Recruit deals 1 damage as Spark Sapper does, which leaves damage marked
      before the damage step, or destroys as Grave Reaper does
      (assumed:here-trigger); his Herald rallies from afar as Distant
      Drummer does (assumed:afar-trigger).
      The default tables hold no such card, so the rulings on them apply only
      here."""
    if players != 2:
        return []
    turn = default_table(2, battlefields, spells, 1, victory_points)

    def changed(name: str, **change: Any) -> Table:
        return replace(turn, units=tuple(replace(u, **change) if u.name == name else u for u in turn.units))

    return [
        ("players3-turns1", "a third player sits at the table, over one turn", default_table(3, battlefields, spells, 1, victory_points)),
        ("spark-sapper-turns1", "P1's Recruit deals 1 damage as Spark Sapper does when played, over one turn",
         changed("Recruit", when_played="damage")),
        ("might0-turns1", "an effect has set Caitlyn's might to 0, over one turn", changed("Caitlyn", might=0)),
        ("indestructible-turns1", "Caitlyn cannot be destroyed, over one turn", changed("Caitlyn", indestructible=True)),
        ("grave-reaper-turns1", "P1's Recruit destroys as Grave Reaper does when played, over one turn",
         changed("Recruit", when_played="destroy")),
        ("distant-drummer-turns1", "P1's Herald rallies from afar as Distant Drummer does, over one turn",
         changed("Herald", rallying=False, afar=True)),
    ]
