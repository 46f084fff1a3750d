"""World of Warcraft TCG: priority fairness, combat, winning and losing, deadlock.

Each property restates a rule in its own terms rather than calling the model's
helpers, so a broken edge cannot hide behind the same broken helper.  They read
only the board's fixed facts (``machine.table``: who owns which character, the
printed stats and keywords).
"""

from __future__ import annotations

from typing import Any

from model.backend import Backend
from model.machine import Machine
from properties import Deadlock, Eventually, Invariant, Property, StepProperty

WINDOW_LOCATIONS = ("ready_step", "draw_step", "action_phase", "end_phase", "attack_window", "defend_window")


def _nobody(m: Machine) -> int:
    return m.bounds["players"]


def _clockwise_after(m: Machine, s: Any, b: Backend, player: Any) -> Any:
    """409.1: the seat after ``player`` going clockwise, skipping players who left (102.2)."""
    n = _nobody(m)
    options = []
    for p in range(n):
        seats = [(p + k) % n for k in range(1, n)]
        result: Any = p
        for q in reversed(seats):
            result = b.If(s.in_game[q], q, result)
        options.append(result)
    return b.select(tuple(options), player, n)


# 409.1, 501.1c, 503.2a, 602.2: a window has exactly one priority holder, a
# player still in the game; outside windows (including the protect point and
# pre-priority processing) nobody holds priority.
priority_exclusive = Invariant(
    "priority_exclusive",
    ("409.1", "409.4", "501.1c", "503.2a", "602.2"),
    "while a window is open exactly one player in the game holds priority; outside windows nobody does",
    holds=lambda m, s, b: b.If(
        m.at(s, *WINDOW_LOCATIONS, b=b),
        b.And(s.priority_holder >= 0, s.priority_holder < _nobody(m), b.select(s.in_game, s.priority_holder, False)),
        s.priority_holder == _nobody(m),
    ),
)

# 409.4, 409.4a: the turn player is first on every window opening and after every resolution.
turn_player_first = StepProperty(
    "turn_player_first",
    ("409.4", "409.4a", "501.1b", "501.2a", "502.1", "503.1"),
    "when a window opens and after a link resolves, the turn player gets priority",
    applies=lambda e: e.has("opens_window") or e.has("resolves"),
    holds=lambda m, pre, post, b: post.priority_holder == post.turn_player,
)

# 409.1, CR7.4 707.1f: adding a link leaves priority with the player who added it.
adder_keeps_priority = StepProperty(
    "adder_keeps_priority",
    ("409.1", "CR7.4 707.1f"),
    "the player who adds a link controls it and gets priority again",
    applies=lambda e: e.has("adds_link"),
    holds=lambda m, pre, post, b: b.And(
        post.priority_holder == pre.priority_holder,
        m.stacks["chain"].top(post, b, "controller") == pre.priority_holder,
    ),
)

# 409.1: passing gives priority to the next player clockwise.
clockwise_passing = StepProperty(
    "clockwise_passing",
    ("409.1",),
    "a pass that neither resolves a link nor closes the window moves priority to the next player clockwise",
    applies=lambda e: e.has("passes") and not (e.has("resolves") or e.has("closes_window")),
    holds=lambda m, pre, post, b: post.priority_holder == _clockwise_after(m, pre, b, pre.priority_holder),
)


def _all_passed(m: Machine, pre: Any, b: Backend) -> Any:
    """Every player in the game passed since the last link was added (the current pass included)."""
    return b.And(
        *(
            b.Implies(pre.in_game[p], b.Or(pre.passed[p], pre.priority_holder == p))
            for p in range(_nobody(m))
        )
    )


# 409.4a and the basic rules' chain section (001, "the chain and responding"):
# a link resolves only after every player has had the chance to respond.
resolution_needs_all_passes = StepProperty(
    "resolution_needs_all_passes",
    ("409.4", "409.4a"),
    "a link resolves only when every player in the game passed in succession since the last link was added",
    applies=lambda e: e.has("resolves"),
    holds=lambda m, pre, post, b: _all_passed(m, pre, b),
)

# 409.4b: a window closes only when everyone passed in succession on an empty chain.
window_closes_on_empty_chain = StepProperty(
    "window_closes_on_empty_chain",
    ("409.4b", "502.2"),
    "a priority window closes only with the chain empty and after every player passed in succession",
    applies=lambda e: e.has("closes_window"),
    holds=lambda m, pre, post, b: b.And(pre.chain_len == 0, post.chain_len == 0, _all_passed(m, pre, b)),
)


# 413.7a, 409.4a, CR7.4 709.1: only the top link resolves; the ones under it stay in order.
last_in_first_out = StepProperty(
    "last_in_first_out",
    ("413.7", "413.7a", "409.4a", "CR7.4 709.1"),
    "resolving removes exactly the most recently added link and leaves the others in order",
    applies=lambda e: e.has("resolves"),
    holds=lambda m, pre, post, b: b.And(
        pre.chain_len > 0, post.chain_len == pre.chain_len - 1, m.stacks["chain"].kept(pre, post, b, post.chain_len)
    ),
)

# 413.7a: adding a link puts it on top and disturbs none below.
links_added_on_top = StepProperty(
    "links_added_on_top",
    ("413.7a",),
    "adding a link puts it on top of the chain and leaves the links below unchanged",
    applies=lambda e: e.has("adds_link"),
    holds=lambda m, pre, post, b: b.And(
        post.chain_len == pre.chain_len + 1, m.stacks["chain"].kept(pre, post, b, pre.chain_len)
    ),
)

# 408.1, 409.2b, 410.1a, 502.1: non-instant cards and resources only by the turn
# player, in his non-combat action phase, with priority and an empty chain.
main_phase_only = StepProperty(
    "main_phase_only",
    ("408.1", "409.2b", "410.1a", "502.1", "601.1"),
    "non-instant cards, resources and combat proposals are added only by the turn player with priority in his action phase on an empty chain",
    applies=lambda e: e.has("main_phase_action"),
    holds=lambda m, pre, post, b: b.And(
        m.at(pre, "action_phase", b=b),
        pre.priority_holder == pre.turn_player,
        pre.chain_len == 0,
        b.select(post.chain_controller, 0, -1) == pre.turn_player,
    ),
)

# 410.1: at most one resource per turn.
one_resource_per_turn = StepProperty(
    "one_resource_per_turn",
    ("410.1",),
    "a player places at most one resource per turn",
    applies=lambda e: e.has("places_resource"),
    holds=lambda m, pre, post, b: b.Not(pre.resource_placed),
)

def _drew_one(m: Machine, b: Backend, before: Any, after: Any) -> Any:
    """A card left the deck: one fewer, or in the any-length model, where a deck
    is only empty or not (abstracted:deck-empty-or-not), from a deck that was
    not empty, leaving it no larger."""
    if m.table.any_length:
        return b.And(before >= 1, after <= before)
    return after == before - 1


# 501.2b: only the first turn of the game skips its draw step: no draw, and
# no window either; the action phase begins (502.1).
first_player_skips_first_draw = StepProperty(
    "first_player_skips_first_draw",
    ("501.2b", "501.2a", "502.1"),
    "the draw step, draw and window, is skipped exactly on the first player's first turn",
    applies=lambda e: e.source == "draw_step_start",
    holds=lambda m, pre, post, b: b.If(
        pre.first_turn,
        b.And(
            pre.turn_player == 0,
            b.select(post.deck, pre.turn_player) == b.select(pre.deck, pre.turn_player),
            m.at(post, "action_phase", b=b),
        ),
        b.Or(
            _drew_one(m, b, b.select(pre.deck, pre.turn_player), b.select(post.deck, pre.turn_player)),
            b.Not(b.select(post.in_game, pre.turn_player, True)),
        ),
    ),
)

# 409.6c, 102.1a: drawing from an empty deck loses, and only that loses here.
decked_player_loses = StepProperty(
    "decked_player_loses",
    ("409.6c", "102.1a"),
    "a player leaves the game exactly when he must draw from an empty deck",
    applies=lambda e: e.source == "draw_step_start",
    holds=lambda m, pre, post, b: (
        b.Not(b.select(post.in_game, pre.turn_player, True))
        == b.And(b.Not(pre.first_turn), b.select(pre.deck, pre.turn_player) == 0)
    ),
)

deadlock = Deadlock(
    "deadlock",
    ("409.1", "409.4b", "503.2a", "600.2", "600.3"),
    "every reachable state that is not game over (or the turn bound) has an enabled transition",
)


# -- combat (600-603) ----------------------------------------------------------------


def _at(m: Machine, s: Any, b: Backend, *names: str) -> Any:
    return m.at(s, *names, b=b)


def _proposal_is_legal(m: Machine, s: Any, b: Backend, a: Any, d: Any) -> Any:
    """601.2a-c restated: a ready attacker of the turn player's party, not new to it
    unless it has ferocity; a non-elusive opposing character in play, or for a
    saboteur an opposing player's object; and the 'can attack only' target when
    that target could be proposed."""
    t = m.table

    def opposing(x: Any) -> Any:
        owner = b.select(t.owner, x, -1)
        return b.And(owner >= 0, owner != s.turn_player, b.select(s.in_game, owner, False))

    def defendable(x: Any) -> Any:
        return b.And(
            x < t.none,
            opposing(x),
            b.If(
                x < t.count,
                b.And(b.select(s.in_play, x, False), b.Not(b.select(t.keyword("elusive"), x, False))),
                b.select(t.keyword("sabotage"), a, False),
            ),
        )

    only = b.select(t.attacks_only, a, t.none)
    return b.And(
        a < t.count,
        b.select(t.owner, a, -1) == s.turn_player,
        b.select(s.in_play, a, False),
        b.Not(b.select(s.exhausted, a, True)),
        b.Or(b.Not(b.select(s.fresh, a, True)), b.select(t.keyword("ferocity"), a, False)),
        defendable(d),
        b.Or(only == t.none, d == only, b.Not(defendable(only))),
    )


# 601.3, 601.2a-c: legality is checked again as the proposal resolves; a legal
# proposal starts the combat step, an illegal one is interrupted.
proposal_rechecked = StepProperty(
    "proposal_rechecked",
    ("601.3", "601.2a", "601.2b", "601.2c", "302.2"),
    "a proposal starts a combat as it resolves exactly when it is still legal, and is interrupted otherwise",
    applies=lambda e: e.has("resolves_proposal"),
    holds=lambda m, pre, post, b: _at(m, post, b, "attack_window") == _proposal_is_legal(m, pre, b, pre.attacker, pre.defender),
)

# 602.1: the attacker exhausts as the combat step starts.  It is the one
# proposed, where a proposal came first (601.3); a reading whose declaration
# starts the combat at once (the basic rules' proposal_uses_the_chain) names
# it in the same step.
attacker_exhausts = StepProperty(
    "attacker_exhausts",
    ("602.1",),
    "as a combat step starts, the attacker is exhausted",
    applies=lambda e: e.target == "attack_window" and e.source != "attack_window",
    holds=lambda m, pre, post, b: b.And(
        b.Or(pre.attacker == m.table.none, post.attacker == pre.attacker),
        post.attacker < m.table.none,
        b.select(post.exhausted, post.attacker, False),
    ),
)


def _must_attack_binds(m: Machine, s: Any, b: Backend) -> Any:
    """600.2 with 600.3: an untaxed 'must attack if able' character of the turn
    player could be proposed against something, on an empty chain, with him holding priority."""
    t = m.table
    bound = [a for a, c in enumerate(t.characters) if c.must_attack and c.attack_tax == 0]
    return b.And(
        s.priority_holder == s.turn_player,
        s.chain_len == 0,
        b.Or(*(_proposal_is_legal(m, s, b, a, d) for a in bound for d in range(t.none))),
    )


# 600.2, 600.3: while a character must attack and can, its controller can't pass.
must_attack_if_able = StepProperty(
    "must_attack_if_able",
    ("600.2", "600.3"),
    "the turn player never passes in his action phase on an empty chain while a character of his that must attack if able (and owes no attack cost) could attack",
    applies=lambda e: e.has("passes") and e.source == "action_phase",
    holds=lambda m, pre, post, b: b.Not(_must_attack_binds(m, pre, b)),
)

# 602.2b: one protector per combat, never the proposed defender itself.
one_protector_per_combat = StepProperty(
    "one_protector_per_combat",
    ("602.2", "602.2b"),
    "at most one character protects in a combat, and a proposed defender never protects itself",
    applies=lambda e: e.has("protects"),
    holds=lambda m, pre, post, b: b.And(b.Not(pre.protected), post.defender != pre.defender),
)

# 602.2a: no protection against a stealthy attacker.
no_protection_against_stealth = StepProperty(
    "no_protection_against_stealth",
    ("602.2a",),
    "no character protects while the attacker has stealth",
    applies=lambda e: e.has("protects"),
    holds=lambda m, pre, post, b: b.Not(b.select(m.table.keyword("stealth"), pre.attacker, False)),
)


# 602.2c: a character that protects turns a sabotage into a normal combat.
protection_ends_sabotage = StepProperty(
    "protection_ends_sabotage",
    ("602.2c",),
    "after a character protects, the combat is not a sabotage (the protector takes damage as any defender)",
    applies=lambda e: e.has("protects"),
    holds=lambda m, pre, post, b: b.And(b.Not(post.sabotage), post.defender < m.table.count),
)


def _hero_in_combat(m: Machine, s: Any, b: Backend, player: Any) -> Any:
    hero = player * m.table.slots
    return b.And(s.attacker < m.table.none, s.defender < m.table.none, b.Or(s.attacker == hero, s.defender == hero))


# 602.3a, 409.2a: strikes only in the defend window, by a player whose hero is in combat.
strikes_only_in_defend_window = StepProperty(
    "strikes_only_in_defend_window",
    ("602.3a", "409.2a", "303.2"),
    "a weapon strikes only while the defend window is open and its controller's hero is in combat",
    applies=lambda e: e.has("strikes"),
    holds=lambda m, pre, post, b: b.And(
        _at(m, pre, b, "defend_window"), _hero_in_combat(m, pre, b, pre.priority_holder)
    ),
)


def _weapons_struck_are_allowed(m: Machine, s: Any, b: Backend) -> Any:
    """303.2c, 405.3: each player struck with at most one weapon this combat, or two melee weapons with dual wield."""
    t = m.table
    checks = []
    for p, party in enumerate(t.board.parties):
        flags = [s.struck[t.weapon(p, w)] for w in range(len(party.weapons))]
        melee_pair = b.And(
            party.dual_wield,
            *(b.Implies(f, weapon.melee) for f, weapon in zip(flags, party.weapons)),
            b.count(flags) <= 2,
        )
        checks.append(b.Or(b.count(flags) <= 1, melee_pair))
    return b.And(*checks)


one_weapon_per_combat = Invariant(
    "one_weapon_per_combat",
    ("303.2c", "405.3"),
    "a player strikes with at most one weapon per combat, or with two melee weapons if his hero has dual wield",
    holds=_weapons_struck_are_allowed,
)


def _damage_of(s: Any, b: Backend, c: Any) -> Any:
    return b.select(s.damage, c, 0)


# 603.1a: defenders deal no combat damage to a long-range attacker.
long_range_attacker_takes_no_combat_damage = StepProperty(
    "long_range_attacker_takes_no_combat_damage",
    ("603.1a",),
    "an attacker with long-range takes no combat damage",
    applies=lambda e: e.has("deals_combat_damage"),
    holds=lambda m, pre, post, b: b.Implies(
        b.select(m.table.keyword("long_range"), pre.attacker, False),
        _damage_of(post, b, pre.attacker) == _damage_of(pre, b, pre.attacker),
    ),
)

# 603.1: a sabotage deals no combat damage.
sabotage_deals_no_combat_damage = StepProperty(
    "sabotage_deals_no_combat_damage",
    ("603.1",),
    "a sabotage combat concludes without combat damage to anyone",
    applies=lambda e: e.has("concludes_combat"),
    holds=lambda m, pre, post, b: b.Implies(pre.sabotage, b.And(*(a == c for a, c in zip(post.damage, pre.damage)))),
)


def _combat_atk(m: Machine, s: Any, b: Backend, c: Any) -> Any:
    """An ally's printed ATK; a hero's is the ATK of the weapons it struck with this combat (303.2a)."""
    t = m.table
    values = []
    for x, character in enumerate(t.characters):
        if x % t.slots:
            values.append(character.atk)
            continue
        p = x // t.slots
        weapons = t.board.parties[p].weapons
        values.append(character.atk + b.total(tuple(b.If(s.struck[t.weapon(p, w)], wp.atk, 0) for w, wp in enumerate(weapons))))
    return b.select(tuple(values), c, 0)


def _packet_landed(m: Machine, pre: Any, post: Any, b: Backend, target: Any, amount: Any) -> Any:
    """The target's damage grew by the packet, or for a hero by the packet less at most his armor's DEF (304.2)."""
    t = m.table
    owner = b.select(t.owner, target, -1)
    armor = b.select(tuple(party.armor_def for party in t.board.parties), owner, 0)
    before, after = _damage_of(pre, b, target), _damage_of(post, b, target)
    exact = after == before + amount
    is_hero = b.And(target < t.count, target == owner * t.slots)
    return b.If(is_hero, b.And(after <= before + amount, after >= before + amount - armor, after >= before), exact)


# 603.1, 304.2: simultaneous packets equal to each side's ATK (less a hero's armor).
combat_damage_equals_atk = StepProperty(
    "combat_damage_equals_atk",
    ("603.1", "603.1a", "304.2", "407.2a"),
    "combat damage is each side's ATK, dealt at once to the other (a hero's armor may prevent up to its DEF)",
    applies=lambda e: e.has("deals_combat_damage"),
    holds=lambda m, pre, post, b: b.And(
        _packet_landed(m, pre, post, b, pre.defender, _combat_atk(m, pre, b, pre.attacker)),
        _packet_landed(
            m,
            pre,
            post,
            b,
            pre.attacker,
            b.If(b.select(m.table.keyword("long_range"), pre.attacker, False), 0, _combat_atk(m, pre, b, pre.defender)),
        ),
    ),
)

# 602.4, 603: a combat step always goes on to its conclusion, whatever leaves it.
every_combat_concludes = Eventually(
    "every_combat_concludes",
    ("602.4", "603.1", "603.2"),
    "every combat step that starts reaches its conclusion (or the game ends first)",
    premise=lambda m, s, b: _at(m, s, b, "attack_window"),
    goal=lambda m, s, b: _at(m, s, b, "combat_conclusion", *m.terminal_locations),
)

# 603.1: nobody has priority during combat conclusion.
no_priority_in_conclusion = Invariant(
    "no_priority_in_conclusion",
    ("603.1",),
    "nobody holds priority during combat conclusion",
    premise=lambda m, s, b: _at(m, s, b, "combat_conclusion"),
    holds=lambda m, s, b: s.priority_holder == _nobody(m),
)

# 603.2: after conclusion the turn player has priority in his action phase, roles gone.
turn_player_priority_after_combat = StepProperty(
    "turn_player_priority_after_combat",
    ("603.2",),
    "when a combat step ends the turn player has priority in his action phase on an empty chain, with no combat roles left",
    applies=lambda e: e.has("ends_combat_step"),
    holds=lambda m, pre, post, b: b.And(
        _at(m, post, b, "action_phase"),
        post.priority_holder == post.turn_player,
        post.chain_len == 0,
        post.attacker == m.table.none,
        post.defender == m.table.none,
    ),
)

# 409.5, 409.6b, 404.2: lethal damage destroys before anyone gets priority.
lethal_damage_destroys_before_priority = Invariant(
    "lethal_damage_destroys_before_priority",
    ("409.5", "409.6b", "404.2"),
    "whenever a player holds priority, no character in play carries lethal damage",
    holds=lambda m, s, b: b.Implies(
        s.priority_holder < _nobody(m),
        b.And(*(b.Or(b.Not(s.in_play[c]), s.damage[c] < h) for c, h in enumerate(m.table.health))),
    ),
)

# 102.1a, 102.2: a player whose hero is destroyed is out of the game by the next priority.
destroyed_hero_loses = Invariant(
    "destroyed_hero_loses",
    ("102.1a", "102.2", "409.5"),
    "whenever a player holds priority, every player still in the game has his hero in play",
    holds=lambda m, s, b: b.Implies(
        s.priority_holder < _nobody(m),
        b.And(*(b.Implies(s.in_game[p], s.in_play[p * m.table.slots]) for p in range(_nobody(m)))),
    ),
)

# 102.1, 102.1a: a finished game has one winner, or none when all lost at once (a draw).
game_ends_with_one_winner_or_a_draw = Invariant(
    "game_ends_with_one_winner_or_a_draw",
    ("102.1", "102.1a"),
    "when the game is over at most one player remains in it: the winner, or nobody in a draw",
    premise=lambda m, s, b: _at(m, s, b, "game_over"),
    holds=lambda m, s, b: b.count(s.in_game) <= 1,
)


# -- what keeps every state playable ---------------------------------------------------
#
# The facts the game's freedom from deadlock rests on: with them (and the
# properties above) every state that is not game over has a move, which is how
# k-induction proves ``deadlock`` for games of any length.  Each restates a rule.


def _link_kind(m: Machine, label: str) -> int:
    """The number of a link kind, read from the chain's declared labels."""
    return m.var["chain_kind"].domain.labels.index(label)


def _settling(m: Machine, s: Any, b: Backend) -> Any:
    """Pre-priority processing (409.5): a batch may have just destroyed a hero
    whose player has not yet left the game (409.6, 102.1a)."""
    return _at(m, s, b, "pre_priority_checks")


# 102.1, 102.2: the game ends as soon as at most one player remains.
two_players_until_game_over = Invariant(
    "two_players_until_game_over",
    ("102.1", "102.2", "409.5"),
    "until the game is over at least two players remain in it (pre-priority processing aside, where the losers of a batch are settled)",
    premise=lambda m, s, b: b.Not(_at(m, s, b, "game_over", "pre_priority_checks")),
    holds=lambda m, s, b: b.count(s.in_game) >= 2,
)

# 102.1a, 102.2, 409.6: a hero leaves play only in a batch of pre-priority
# checks, and the same processing takes his player out of the game.
hero_in_play_while_in_game = Invariant(
    "hero_in_play_while_in_game",
    ("102.1a", "102.2", "409.5", "409.6"),
    "outside pre-priority processing every player still in the game has his hero in play",
    premise=lambda m, s, b: b.Not(_settling(m, s, b)),
    holds=lambda m, s, b: b.And(*(b.Implies(s.in_game[p], s.in_play[p * m.table.slots]) for p in range(_nobody(m)))),
)


def _chain_is_its_links(m: Machine, s: Any, b: Backend) -> Any:
    empty, nobody = _link_kind(m, "empty"), _nobody(m)
    return b.And(
        s.chain_len >= 0,
        *(
            b.If(
                i < s.chain_len,
                b.And(kind != empty, controller >= 0, controller < nobody),
                b.And(kind == empty, controller == nobody),
            )
            for i, (controller, kind) in enumerate(zip(s.chain_controller, s.chain_kind))
        ),
    )


# 413.7, 413.7a: the chain is its links, each added on top by a player.
chain_holds_its_links = Invariant(
    "chain_holds_its_links",
    ("413.7", "413.7a"),
    "the chain holds exactly its links: each has a kind and a player controlling it, and nothing lies above the top one",
    holds=_chain_is_its_links,
)


def _main_phase_links_at_bottom(m: Machine, s: Any, b: Backend) -> Any:
    kinds = [_link_kind(m, k) for k in ("non_instant", "resource", "proposal")]
    parts = []
    for i, (controller, kind) in enumerate(zip(s.chain_controller, s.chain_kind)):
        main = b.Or(*(kind == k for k in kinds))
        if i == 0:
            parts.append(b.Implies(main, b.And(_at(m, s, b, "action_phase"), controller == s.turn_player)))
        else:
            parts.append(b.Not(main))
    return b.And(*parts)


# 408.1, 409.2b, 410.1a, 601.1: non-instant cards, resources and combat
# proposals go on an empty chain, by the turn player in his action phase, and
# nothing else ends the action phase's window while they are on it (409.4b).
main_phase_links_at_bottom = Invariant(
    "main_phase_links_at_bottom",
    ("408.1", "409.2b", "410.1a", "601.1", "409.4b"),
    "a non-instant card, a resource or a combat proposal is only ever the bottom link of the chain, the turn player's, in his action phase",
    holds=_main_phase_links_at_bottom,
)

# 402.1, 410.1a, 501.1a: costs are paid by exhausting ready resources in
# play, and the ready step readies them all.
exhausted_resources_in_play = Invariant(
    "exhausted_resources_in_play",
    ("402.1", "410.1a", "501.1a"),
    "a player's exhausted resources are resources he has in play: never more than he has, never fewer than none",
    holds=lambda m, s, b: b.And(
        *(
            b.And(s.resources_exhausted[p] >= 0, s.resources_exhausted[p] <= s.resources[p])
            for p in range(_nobody(m))
        )
    ),
)


#: Turn, priority and chain: checked with or without combat.
TURN_PROPERTIES: tuple[Property, ...] = (
    priority_exclusive,
    turn_player_first,
    adder_keeps_priority,
    clockwise_passing,
    resolution_needs_all_passes,
    window_closes_on_empty_chain,
    last_in_first_out,
    links_added_on_top,
    main_phase_only,
    one_resource_per_turn,
    first_player_skips_first_draw,
    decked_player_loses,
)
#: Combat and what follows it: vacuous on an instance without combat.
COMBAT_PROPERTIES: tuple[Property, ...] = (
    proposal_rechecked,
    attacker_exhausts,
    must_attack_if_able,
    one_protector_per_combat,
    no_protection_against_stealth,
    protection_ends_sabotage,
    strikes_only_in_defend_window,
    one_weapon_per_combat,
    long_range_attacker_takes_no_combat_damage,
    sabotage_deals_no_combat_damage,
    combat_damage_equals_atk,
    every_combat_concludes,
    no_priority_in_conclusion,
    turn_player_priority_after_combat,
    lethal_damage_destroys_before_priority,
    destroyed_hero_loses,
    game_ends_with_one_winner_or_a_draw,
)
#: What every state keeps, with or without combat: the lemmas of deadlock's proof.
PLAYABLE_PROPERTIES: tuple[Property, ...] = (
    two_players_until_game_over,
    hero_in_play_while_in_game,
    chain_holds_its_links,
    main_phase_links_at_bottom,
    exhausted_resources_in_play,
)
CATALOGUE: tuple[Property, ...] = (*TURN_PROPERTIES, *COMBAT_PROPERTIES, *PLAYABLE_PROPERTIES, deadlock)
