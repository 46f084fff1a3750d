"""Weapons and armor that start in hand (303.1, 304.1): on a board built for a
game that plays one, the turn player's non-instant may resolve into his hero
zone, ready (105.1); before that the weapon can't strike (303.2) and the armor
can't prevent (304.2).  The default board holds none."""

from __future__ import annotations

from dataclasses import replace

from checkers import explicit
from model import wowtcg
from model.wowtcg.board import default_board

#: P1's first turn, one card of each kind in hand and one combat: he may play
#: gear and attack P2's hero with it.
SMALL = {"players": 2, "allies": 0, "hand": 1, "turns": 1, "chain_depth": 1, "deck": 0, "combats": 1}


def _explore(p2_armor_in_hand: bool) -> explicit.Exploration:
    """P1's first warhammer and his armor start in hand; P2's armor too, or in play."""
    board = default_board(SMALL["players"], SMALL["allies"])
    first, second = board.parties
    first = replace(first, weapons=(replace(first.weapons[0], from_hand=True), *first.weapons[1:]), armor_from_hand=True)
    second = replace(second, armor_from_hand=p2_armor_in_hand)
    return explicit.explore(wowtcg.build(board=replace(board, parties=(first, second)), **SMALL))


def _armor_uses(x: explicit.Exploration, p: int) -> int:
    return sum(not x.nodes[a].armor_exhausted[p] and x.nodes[b].armor_exhausted[p] for a, b, _ in x.moves)


def test_the_default_board_holds_no_gear_in_hand():
    machine = wowtcg.build()
    assert not machine.table.gear_from_hand
    assert not {"weapon_in_play", "armor_in_play"} & set(machine.State._fields)
    assert not any(e.name.startswith(("resolve_weapon", "resolve_armor")) for e in machine.edges)


def test_gear_in_hand_enters_its_hero_zone_ready_and_only_then_is_used():
    x = _explore(p2_armor_in_hand=True)
    t = x.machine.table
    warhammer = t.weapon(0, 0)
    start = x.nodes[0]
    assert not start.weapon_in_play[warhammer] and start.armor_in_play == (False, False)
    entered = {"weapon": 0, "armor": 0}
    strikes = 0
    for source, target, name in x.moves:
        before, after = x.nodes[source], x.nodes[target]
        if name.startswith(("resolve_weapon", "resolve_armor")):
            gear = "weapon" if name.startswith("resolve_weapon") else "armor"
            i = warhammer if gear == "weapon" else 0
            assert not getattr(before, f"{gear}_in_play")[i] and getattr(after, f"{gear}_in_play")[i], name
            assert not getattr(after, f"{gear}_exhausted")[i], name  # 105.1: it enters ready
            assert after.in_play == before.in_play and after.fresh == before.fresh, name  # no ally joins the party
            entered[gear] += 1
        if name.startswith("strike[P1 warhammer]"):
            assert before.weapon_in_play[warhammer], name  # 303.2: only a weapon in play strikes
            strikes += 1
    assert entered["weapon"] and entered["armor"] and strikes, (entered, strikes)
    # 304.2: P2's armor, still in hand, never prevents P1's attack; in play, it may.
    assert _armor_uses(x, 1) == 0
    assert _armor_uses(_explore(p2_armor_in_hand=False), 1) > 0
