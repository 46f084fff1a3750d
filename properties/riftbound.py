"""Riftbound combat: roles, two players per combat, pending combats, damage
conservation, conquest once per turn, deadlock.

Each property restates its rule from the state's variables and the table's
fixed facts (``machine.table``: owners, might, keywords), without the model's
helpers, so a broken edge cannot hide behind the same broken helper.
"""

from __future__ import annotations

from typing import Any

from model.backend import Backend
from model.machine import Machine
from model.riftbound.rulings import cannot_be_damaged
from properties import Deadlock, Eventually, Invariant, Property, StepProperty
from properties.contradictions import Contradiction, RuleQuery

# Codes of the model's variables (model/riftbound/table.py), restated so that
# this file reads the state without importing the model's helpers.
NOBODY = -1
FIRST_BATTLEFIELD = 3
NO_ROLE, ATTACKER, DEFENDER = 0, 1, 2
COMBAT_LOCATIONS = ("chain", "showdown", "showdown_cleanup", "combat_damage_step", "resolution_step")


def _units(m: Machine) -> range:
    return range(len(m.table.units))


def _owner(m: Machine, u: int) -> int:
    return m.table.units[u].owner


def _on(m: Machine, s: Any, u: int, bf: Any, b: Backend) -> Any:
    """Unit ``u`` stands on battlefield ``bf`` (never on NOBODY's, whose code would be the trash's)."""
    return b.And(bf != NOBODY, s.zone[u] == FIRST_BATTLEFIELD + bf)


def _players_on(m: Machine, s: Any, bf: int, b: Backend) -> Any:
    return b.count([b.Or(*(_on(m, s, u, bf, b) for u in _units(m) if _owner(m, u) == p)) for p in range(m.table.players)])


# showdown.attacker, showdown.defender, showdown.unit-roles, showdown.late-roles,
# resolution.clear-roles: roles exist only in a combat; there the attacker and
# defender are two different players, and a unit with a role belongs to that
# player and stands on the combat's battlefield; in an open showdown every unit
# of theirs there has its role (late arrivals got theirs at the cleanup).
def _roles_consistent(m: Machine, s: Any, b: Backend) -> Any:
    in_combat = m.at(s, *COMBAT_LOCATIONS, b=b)
    outside = b.And(
        s.combat_bf == NOBODY, s.attacker == NOBODY, s.defender == NOBODY, *(s.role[u] == NO_ROLE for u in _units(m))
    )
    inside = [s.combat_bf != NOBODY, s.attacker != NOBODY, s.defender != NOBODY, s.attacker != s.defender]
    for u in _units(m):
        owner = _owner(m, u)
        inside.append(b.Implies(s.role[u] == ATTACKER, b.And(s.attacker == owner, _on(m, s, u, s.combat_bf, b))))
        inside.append(b.Implies(s.role[u] == DEFENDER, b.And(s.defender == owner, _on(m, s, u, s.combat_bf, b))))
        inside.append(
            b.Implies(
                b.And(m.at(s, "showdown", b=b), _on(m, s, u, s.combat_bf, b)),
                b.Or(b.And(s.attacker == owner, s.role[u] == ATTACKER), b.And(s.defender == owner, s.role[u] == DEFENDER)),
            )
        )
    return b.If(in_combat, b.And(*inside), outside)


roles_consistent = Invariant(
    "roles_consistent",
    # A recalled unit leaving its role behind is our assumption (keeps_role).
    ("showdown.attacker", "showdown.defender", "showdown.unit-roles", "showdown.late-roles", "resolution.clear-roles",
     "assumed:showdown-spells"),
    "roles exist only in a combat, attacker and defender differ, and every unit with a role is its player's, on the combat's battlefield",
    holds=_roles_consistent,
)

# combat.two-players, combat.third-player-invalid: no battlefield ever holds
# units of more than two players, and a running combat's battlefield holds
# units of its attacker and defender only.
two_players_per_combat = Invariant(
    "two_players_per_combat",
    ("combat.two-players", "combat.third-player-invalid", "combat.multiplayer.no-destination", "combat.multiplayer.play-to-base"),
    "no battlefield holds units of more than two players, and a combat's battlefield only its attacker's and defender's",
    holds=lambda m, s, b: b.And(
        *(_players_on(m, s, bf, b) <= 2 for bf in range(m.table.battlefields)),
        *(
            b.Implies(_on(m, s, u, s.combat_bf, b), b.Or(s.attacker == _owner(m, u), s.defender == _owner(m, u)))
            for u in _units(m)
        ),
    ),
)

# combat.start, combat.pending, combat.pending.dropped: play never goes on
# while a combat is pending: by the time the turn player acts again in the
# action phase, no battlefield holds units of two players.
no_pending_combat_in_action_phase = Invariant(
    "no_pending_combat_in_action_phase",
    ("combat.start", "combat.pending", "combat.pending.dropped"),
    "in the action phase no battlefield holds units of two players: every pending combat was resolved or dropped",
    holds=lambda m, s, b: b.And(*(_players_on(m, s, bf, b) <= 1 for bf in range(m.table.battlefields))),
    premise=lambda m, s, b: m.at(s, "action_phase", b=b),
)

# combat.pending.order, combat.pending.dropped: once a cleanup finds a pending
# combat, every run gets back to the action phase (so every pending combat is
# resolved or dropped) or ends the game.
pending_combats_settle = Eventually(
    "pending_combats_settle",
    ("combat.pending", "combat.pending.order", "combat.pending.dropped"),
    "from a cleanup with a pending combat, play always gets back to the action phase or the game ends",
    premise=lambda m, s, b: b.And(
        m.at(s, "cleanup", b=b), b.Or(*(_players_on(m, s, bf, b) >= 2 for bf in range(m.table.battlefields)))
    ),
    goal=lambda m, s, b: m.at(s, *(n for n in ("action_phase", "game_over", "out_of_turns") if n in m.locations), b=b),
)

# showdown.focus, showdown.focus-kept: when the showdown opens (after any
# initial chain), the attacker has focus.
focus_with_attacker_when_showdown_opens = StepProperty(
    "focus_with_attacker_when_showdown_opens",
    ("showdown.focus", "showdown.focus-kept"),
    "when a showdown opens, with or without an initial chain first, the attacker holds focus",
    applies=lambda e: e.source == "chain" and e.target == "showdown",
    holds=lambda m, pre, post, b: post.focus == post.attacker,
)

# showdown.closed: the showdown is open only with the initial chain resolved.
open_showdown_has_no_initial_chain = Invariant(
    "open_showdown_has_no_initial_chain",
    ("showdown.closed", "showdown.initial-chain"),
    "while the showdown is open no trigger of the initial chain is waiting",
    holds=lambda m, s, b: b.Not(b.Or(*(s.trigger[u] for u in _units(m)))),
    premise=lambda m, s, b: m.at(s, "showdown", b=b),
)


def _fighting_might(m: Machine, s: Any, p: Any, role: int, b: Backend) -> Any:
    """damage.totals, qa.both-survive: the might of p's units with ``role`` on
    the combat's battlefield that are not stunned (printed might, +1 if buffed)."""
    return b.total(
        [
            b.If(
                b.And(s.role[u] == role, _on(m, s, u, s.combat_bf, b), b.Not(s.stunned[u]), p == _owner(m, u)),
                m.table.units[u].might + b.If(s.buffed[u], 1, 0),
                0,
            )
            for u in _units(m)
        ]
    )


# damage.assign, damage.totals: each assignment adds exactly the assigner's
# total might to the damage assigned, all of it to the other side's units in the combat.
def _assignment_conserves(m: Machine, pre: Any, post: Any, b: Backend) -> Any:
    attacker_turn = pre.stage == 0
    role = b.If(attacker_turn, ATTACKER, DEFENDER)
    other = b.If(attacker_turn, DEFENDER, ATTACKER)
    assigner = b.If(attacker_turn, pre.attacker, pre.defender)
    added = b.total([post.assigned[u] - pre.assigned[u] for u in _units(m)])
    parts = [added == _fighting_might(m, pre, assigner, role, b)]
    for u in _units(m):
        parts.append(b.Implies(post.assigned[u] != pre.assigned[u], b.And(pre.role[u] == other, _on(m, pre, u, pre.combat_bf, b))))
    return b.And(*parts)


assignment_conserves_might = StepProperty(
    "assignment_conserves_might",
    ("damage.assign", "damage.totals", "qa.both-survive"),
    "each player assigns exactly their unstunned units' total might, all to opposing units in the combat",
    applies=lambda e: e.has("assigns"),
    holds=_assignment_conserves,
)

# damage.assign-not-deal, damage.deal, damage.undamageable: dealing marks on
# every unit exactly what was assigned to it (nothing on a unit that cannot be
# damaged) and leaves nothing assigned.
damage_dealt_as_assigned = StepProperty(
    "damage_dealt_as_assigned",
    # 'Immune units none' is our reading (damage_dealt's self-clash, R3).
    ("damage.assign-not-deal", "damage.deal", "damage.undamageable", "assumed:undamageable-sink"),
    "all assigned damage is dealt at once, each unit taking exactly its assignment (immune units none)",
    applies=lambda e: e.has("deals_damage"),
    holds=lambda m, pre, post, b: b.And(
        *(
            b.And(
                post.damage[u] == pre.damage[u] + b.If(cannot_be_damaged(m.table, pre, u, b), 0, pre.assigned[u]),
                post.assigned[u] == 0,
            )
            for u in _units(m)
        )
    ),
)

# damage.both-present: damage is assigned only while both sides have units there.
damage_needs_both_sides = StepProperty(
    "damage_needs_both_sides",
    ("damage.both-present",),
    "combat damage is assigned only while attacking and defending units are both on the battlefield",
    applies=lambda e: e.has("assigns"),
    holds=lambda m, pre, post, b: b.And(
        *(
            b.Or(*(b.And(pre.role[u] == role, _on(m, pre, u, pre.combat_bf, b)) for u in _units(m)))
            for role in (ATTACKER, DEFENDER)
        )
    ),
)

# resolution.recall: after a combat in which a defender held on, no attacker's
# unit is left on that battlefield.
attackers_recalled_if_defenders_remain = StepProperty(
    "attackers_recalled_if_defenders_remain",
    ("resolution.recall", "qa.both-survive"),
    "when a defending unit is still on the battlefield after damage, every attacking unit there goes back to base",
    applies=lambda e: e.has("resolves_combat"),
    holds=lambda m, pre, post, b: b.Implies(
        b.Or(*(b.And(pre.role[u] == DEFENDER, _on(m, pre, u, pre.combat_bf, b)) for u in _units(m))),
        b.And(*(b.Not(b.And(pre.role[u] == ATTACKER, _on(m, post, u, pre.combat_bf, b))) for u in _units(m))),
    ),
)


# resolution.conquer: a player scores at a battlefield at most once per turn:
# every point comes with a battlefield newly marked as scored this turn, and
# the marks are only wiped when a turn ends.
def _conquest_once(m: Machine, pre: Any, post: Any, b: Backend) -> Any:
    t = m.table
    parts = []
    for p in range(t.players):
        keys = range(p * t.battlefields, (p + 1) * t.battlefields)
        fresh = b.count([b.And(b.Not(pre.scored[k]), post.scored[k]) for k in keys])
        parts.append(post.points[p] - pre.points[p] == fresh)
        parts.extend(b.Implies(pre.scored[k], post.scored[k]) for k in keys)
    return b.And(*parts)


conquest_once_per_battlefield_per_turn = StepProperty(
    "conquest_once_per_battlefield_per_turn",
    ("resolution.conquer", "resolution.control", "assumed:turn-end"),
    "every point scored marks a battlefield the player had not scored at this turn; the marks clear only at the end of a turn",
    applies=lambda e: not e.has("ends_turn"),
    holds=_conquest_once,
)

# resolution.clear-damage, qa.damage-cleared, damage.assign-not-deal: damage
# is marked only when assigned damage is dealt and is gone when the combat's
# cleanup ends, and nothing stays assigned outside the combat damage step.
damage_lasts_only_to_the_combat_cleanup = Invariant(
    "damage_lasts_only_to_the_combat_cleanup",
    ("resolution.clear-damage", "qa.damage-cleared", "damage.assign-not-deal"),
    "units carry marked damage only between dealing it and the combat cleanup, and assigned damage only in the damage step",
    holds=lambda m, s, b: b.And(
        *(b.Implies(b.Not(m.at(s, "resolution_step", b=b)), s.damage[u] == 0) for u in _units(m)),
        *(b.Implies(b.Not(m.at(s, "combat_damage_step", b=b)), s.assigned[u] == 0) for u in _units(m)),
    ),
)

deadlock = Deadlock(
    "no_deadlock",
    ("assumed:turn-end", "assumed:showdown-focus"),
    "every reachable state that is not the end of the game or of the explored turns has a legal next step",
)

CATALOGUE: tuple[Property, ...] = (
    roles_consistent,
    two_players_per_combat,
    no_pending_combat_in_action_phase,
    pending_combats_settle,
    focus_with_attacker_when_showdown_opens,
    open_showdown_has_no_initial_chain,
    assignment_conserves_might,
    damage_dealt_as_assigned,
    damage_needs_both_sides,
    attackers_recalled_if_defenders_remain,
    conquest_once_per_battlefield_per_turn,
    damage_lasts_only_to_the_combat_cleanup,
    deadlock,
)

#: The invariants the deadlock proof rests on (lint and verify give them to
#: the solvers as lemmas): who fights whom, and that no stale damage or
#: assignment is left to leave an assigner without an edge.
PLAYABLE_PROPERTIES: tuple[Property, ...] = (
    roles_consistent,
    two_players_per_combat,
    open_showdown_has_no_initial_chain,
    damage_lasts_only_to_the_combat_cleanup,
)


# -- the damage assignment rules alone (model/riftbound/damage.py) ---------------------------------

#: The configurations the damage queries cover: up to this many opposing units, of might up to this.
DAMAGE_UNITS, DAMAGE_MIGHT = 5, 6


def damage_assignment_queries(timeout_ms: int) -> list[RuleQuery]:
    """damage.*: (1) every configuration within the bounds has a legal
    assignment, so the assigner is never stuck; (2) the requirement patterns
    whose requirements exclude each other (damage.exclusive: the seed lets the
    assigner apply one), one finding per minimal pattern, naming every
    exclusive pattern that contains it."""
    from model.riftbound import damage

    bounds = f"up to {DAMAGE_UNITS} units, might up to {DAMAGE_MIGHT}"
    existence = damage.prove_assignment_exists(DAMAGE_UNITS, DAMAGE_MIGHT, timeout_ms=timeout_ms)
    stuck = ()
    if existence.verdict == "counterexample" and existence.alternative is None:
        stuck = (Contradiction("stuck", damage.RULE_IDS, existence.message),)
    out = [
        RuleQuery(
            f"a legal damage assignment exists ({bounds})",
            {"proved": "proved", "counterexample": "violated" if stuck else "witness not legal"}.get(existence.verdict, "unknown"),
            "Z3 (one query over every configuration)",
            "no-assignment",
            stuck,
        )
    ]
    exclusions = damage.exclusive_requirements(DAMAGE_UNITS, DAMAGE_MIGHT, timeout_ms=timeout_ms)
    found = []
    for minimal in (x for x in exclusions if x.minimal):
        wider = [x for x in exclusions if _contains(x.pattern, minimal.pattern)]
        found.append(
            Contradiction(
                " ".join(kind.replace("+", "&") for kind in minimal.pattern),
                tuple(dict.fromkeys(("damage.exclusive", *minimal.core))),
                f"{minimal.describe()}; the seed lets the assigner apply one requirement (damage.exclusive). "
                f"{len(wider)} of the {len(exclusions)} exclusive patterns ({bounds}) contain this one: "
                + "; ".join(" + ".join(x.pattern) for x in wider),
            )
        )
    out.append(
        RuleQuery(
            f"requirements that exclude each other ({bounds})",
            f"{len(exclusions)} exclusive patterns, {len(found)} minimal",
            "Z3 (exists-forall per pattern, unsat core)",
            "exclusion",
            tuple(found),
        )
    )
    return out


def _contains(pattern: tuple[str, ...], part: tuple[str, ...]) -> bool:
    rest = list(pattern)
    for kind in part:
        if kind not in rest:
            return False
        rest.remove(kind)
    return True
