"""The readings of the WoW rules other than the model's, as variants
(``model/variants.py``).  Each cites where its text is and the entry of
``docs/findings-wowtcg.md`` that discusses it; ``chainproof diff wowtcg seed NAME``
shows the shortest game on which it and the model part.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from model.backend import Backend
from model.machine import Machine
from model.variants import Variant
from model.wowtcg.board import Weapon, default_board
from model.wowtcg.table import INSTANT_LINK
from model.wowtcg.windows import resolving, top_link_is

# -- G1/T3: 600.2 without the clause of 600.3 ------------------------------------------------

WITHOUT_600_3 = Variant(
    "600.2-without-600.3",
    "'must attack if able' binds even a character that can't attack unless its controller pays",
    ("600.2", "600.3"),
    ("002_747842af486db20b.txt:18", "002_747842af486db20b.txt:13-17", "wowtcg-comprehensive-rules-7.4.txt:1787-1792"),
    "G1",
    # The 600.3 ruling stays ("can't attack unless he pays"); only the clause
    # that ranks it above 600.2 goes, so the two clash where both apply.
    without=("600.3",),
)


# -- T2: 002's Chinese 600.2, the proposal as the first use of priority ---------------------------

CHINESE_600_2 = Variant(
    "600.2-chinese",
    "a character that must attack if able makes its controller propose it with his priority, before anything else (002's Chinese), not only forbids passing (the English)",
    ("600.2",),
    ("002_747842af486db20b.txt:12", "002_747842af486db20b.txt:9-11", "000_93427c41005e332f.txt:446"),
    "T2",
    # 002zh's ruling on uses_priority_otherwise (model/wowtcg/rulings.py), on that question alone.
    source_reading="002zh@uses_priority_otherwise",
    # An instant in the turn player's hand, to play before the proposal.
    bounds={"hand": 1},
)


# -- B2: the basic rules' order of responding ---------------------------------------------------

BASIC_CHAIN = Variant(
    "basic-chain-priority",
    "after a link resolves, the player who added the new top link responds first (the basic rules), not the turn player (409.4a)",
    ("409.4a", "basic:chain-and-responding"),
    ("001_bb13bfcb78a9b116.txt:223-224", "001_bb13bfcb78a9b116.txt:227-228", "000_93427c41005e332f.txt:349-350"),
    "B2",
    # The basic rules' version of 409.4a (model/wowtcg/rulings.py), on that question alone.
    source_reading="001@priority_after_resolution",
    # Instants in every starting hand, so that both players can add links.
    bounds={"hand": 1},
)


# -- I1: 405.3 as written -----------------------------------------------------------------------


def _ranged_dual_wield_board(bounds: Mapping[str, int]) -> Any:
    """The default board, with the second party's hero given ranged dual wield
    and two bows (405.2), as Nethrak the Bound holds them."""
    board = default_board(bounds["players"], bounds["allies"])
    bows = (Weapon("bow", atk=1, strike_cost=0, melee=False), Weapon("second bow", atk=1, strike_cost=1, melee=False))
    parties = tuple(
        replace(party, weapons=bows, ranged_dual_wield=True) if p % 2 == 1 else party for p, party in enumerate(board.parties)
    )
    return replace(board, parties=parties)


AS_WRITTEN_405_3 = Variant(
    "405.3-as-written",
    "ranged dual wield lets a hero strike with two melee weapons in a combat (405.3's second sentence), not two ranged ones",
    ("405.3", "405.2", "303.2c"),
    ("000_93427c41005e332f.txt:269", "000_93427c41005e332f.txt:268", "wowtcg-comprehensive-rules-7.4.txt:1014-1021"),
    "I1",
    # 000's version of 405.3 on ranged dual wield (model/wowtcg/rulings.py, may_strike_with_both).
    source_reading="000@may_strike_with_both",
    board=_ranged_dual_wield_board,
)


# -- B5: "in combat" in the basic rules ---------------------------------------------------------

BASIC_IN_COMBAT = Variant(
    "basic-in-combat",
    "a hero is in combat while it is attacking or defending (the basic rules), so it may strike after the opposing combatant is removed (602.3c says it may not)",
    ("602.3c", "602.3a", "basic:combat"),
    ("001_bb13bfcb78a9b116.txt:302", "001_bb13bfcb78a9b116.txt:190", "000_93427c41005e332f.txt:484"),
    "B5",
    # 001's version of 602.3c (model/wowtcg/rulings.py, question in_combat).
    source_reading="001@in_combat",
    # An instant in hand removes the defender in the defend window.
    bounds={"hand": 1},
)


# -- B8: one weapon per combat in the basic rules -------------------------------------------

BASIC_ONE_WEAPON = Variant(
    "basic-one-weapon-per-combat",
    "a player strikes with one weapon per combat and dual wield is unknown (the basic rules), not two melee weapons (405.3)",
    ("303.2c", "405.3", "basic:combat"),
    ("001_bb13bfcb78a9b116.txt:102", "001_bb13bfcb78a9b116.txt:190", "000_93427c41005e332f.txt:269"),
    "B8",
    # 001's version of 405.3 (model/wowtcg/rulings.py, may_strike_with_both).
    source_reading="001@may_strike_with_both",
)


# -- T1: 602.3b, a character made to become a defender during a sabotage -----------------------


def _becomes_defender(english: bool):
    """602.3b: an instant resolving in the defend window of a sabotage makes an
    ally of the sabotaged object's controller become a defender.

    English (002:121-123): the ally defends, both are in combat, and the
    sabotage becomes an ordinary combat (damage at conclusion).  Chinese
    (002:124): the combat is not legal, so it is called off: no roles remain
    and nobody deals combat damage.
    """

    def patch(m: Machine) -> Machine:
        t = m.table
        added = []
        for c in range(t.count):
            if t.is_hero[c]:
                continue

            def guard(s: Any, b: Backend, c: int = c) -> Any:
                return b.And(
                    top_link_is(t, s, b, INSTANT_LINK),
                    s.sabotage,
                    s.attacker < t.none,
                    s.in_play[c],
                    b.select(t.owner, s.defender, t.nobody) == t.owner[c],
                )

            if english:
                effect = lambda s, b, c=c: {"defender": c, "sabotage": False}  # noqa: E731
            else:
                effect = lambda s, b: {"attacker": t.none, "defender": t.none, "sabotage": False}  # noqa: E731
            added.append(
                resolving(
                    t,
                    "defend_window",
                    f"resolve_instant[{t.name(c)} becomes the defender]",
                    ("602.3b", "602.3c"),
                    guard,
                    effect,
                    f"an instant resolves and makes {t.name(c)} become a defender of the sabotaged player: "
                    + ("the sabotage becomes an ordinary combat" if english else "the illegal combat is called off"),
                )
            )
        return m.with_edges((*m.edges, *added))

    return patch


_602_3B_SOURCES = ("002_747842af486db20b.txt:121-123", "002_747842af486db20b.txt:124", "000_93427c41005e332f.txt:483")
# A saboteur attacks on its controller's first turn; instants must be in hand by then.
_602_3B_BOUNDS = {"hand": 1}

BECOMES_DEFENDER_ENGLISH = Variant(
    "602.3b-english",
    "a character made to become a defender during a sabotage defends, and the sabotage becomes an ordinary combat",
    ("602.3b",),
    _602_3B_SOURCES,
    "T1",
    patch=_becomes_defender(english=True),
    bounds=_602_3B_BOUNDS,
)
BECOMES_DEFENDER_CHINESE = Variant(
    "602.3b-chinese",
    "a character made to become a defender during a sabotage makes the combat illegal, and it is called off",
    ("602.3b",),
    _602_3B_SOURCES,
    "T1",
    patch=_becomes_defender(english=False),
    bounds=_602_3B_BOUNDS,
)


# -- V1: CR7.4 303.2, 602.1, 602.3: strikes as the wielder becomes attacker or defender ---------

CR74_STRIKES = Variant(
    "CR7.4-strikes-as-roles-begin",
    "a hero strikes only as it becomes the attacker or the defender, without the chain (CR7.4), not with a strike link in the defend window",
    ("303.2", "602.3a", "409.2a", "CR7.4 303.2", "CR7.4 602.1", "CR7.4 602.3"),
    (
        "000_93427c41005e332f.txt:138",
        "000_93427c41005e332f.txt:482",
        "wowtcg-comprehensive-rules-7.4.txt:483-495",
        "wowtcg-comprehensive-rules-7.4.txt:1886-1888",
        "wowtcg-comprehensive-rules-7.4.txt:1911-1918",
    ),
    "V1",
    # CR7.4's version of 303.2 (model/wowtcg/rulings.py, when_weapons_strike).
    source_reading="CR7.4@when_weapons_strike",
)


# -- V2: CR7.4 603.2, pre-priority checks before the roles end ---------------------------------

CR74_CHECKS_BEFORE_ROLES_END = Variant(
    "CR7.4-603.2-checks-in-combat",
    "after combat damage, pre-priority checks run while attacker and defender still hold their roles (CR7.4 603.2-603.3)",
    ("603.2", "CR7.4 603.2", "CR7.4 603.3"),
    ("000_93427c41005e332f.txt:490", "002_747842af486db20b.txt:148-151", "wowtcg-comprehensive-rules-7.4.txt:1963-1969"),
    "V2",
    # CR7.4's version of 603.2 (model/wowtcg/rulings.py, roles_end_before_checks).
    source_reading="CR7.4@roles_end_before_checks",
)


VARIANTS = {
    v.name: v
    for v in (
        WITHOUT_600_3,
        CHINESE_600_2,
        BASIC_CHAIN,
        BASIC_IN_COMBAT,
        BASIC_ONE_WEAPON,
        AS_WRITTEN_405_3,
        BECOMES_DEFENDER_ENGLISH,
        BECOMES_DEFENDER_CHINESE,
        CR74_STRIKES,
        CR74_CHECKS_BEFORE_ROLES_END,
    )
}
