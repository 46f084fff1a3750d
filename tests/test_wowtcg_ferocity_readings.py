"""Ferocity on an ally that changes sides (question ``may_attack``, T11):
000's 601.2a (000:451), 002's English (002:28-30) and CR7.4 (:1838-1840,
glossary :3630-3633) let an ally with ferocity attack however long it has
been in its party; 002's Chinese 601.2a makes ferocity the exception only
for the turn an ally enters play (002:34), and by its own example bars an
ally that Mind Control brought over this turn (002:33).  An ally that
joined its party by a change of control keeps the bar there.  The model
follows the seed.  Asked on the board one change away where Mind Control
is in the game, P1's guard has ferocity and P2's last ally slot waits for it."""

from __future__ import annotations

from functools import cache
from typing import Any

from chainproof.source_lint import SourceFinding, lint_sources
from model import wowtcg
from model.backend import CONCRETE
from model.machine import Machine
from model.wowtcg.board import nearby_boards

#: P2 draws his one card in turn 2 and plays it as Mind Control (or as an ally into the free slot).
BOUNDS = {"turns": 2, "hand": 0, "deck": 1}
KEY = "source-clash:may_attack:002zh"
BOARD = dict((key, board) for key, _, board in nearby_boards(2, 2))["P2-mind-control"]


def build(spec: str | None) -> Machine:
    return wowtcg.build(**BOUNDS, board=BOARD, reading=spec)


@cache
def findings() -> dict[str, SourceFinding]:
    found = lint_sources(build(None), lambda spec, more: build(spec), 2_000_000, 2_000_000, questions=("may_attack",))
    return {f.key: f for f in found.findings}


def slots() -> tuple[int, int]:
    """P1's guard, and P2's slot that waits for it."""
    t = build(None).table
    guard, waiting = (c for c in range(t.count) if t.characters[c].name == "guard")
    return guard, waiting


def test_chinese_602_keeps_the_bar_on_a_ferocious_ally_brought_over_by_mind_control():
    found = findings()
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "for P2 guard: 002zh answers no where the model's reading answers yes" in clash.summary
    assert {"002_747842af486db20b.txt:33-34", "000_93427c41005e332f.txt:451"} <= set(clash.places)
    assert clash.transcript.steps[-1].edge.startswith("resolve_ability[take control of P1 guard as P2 guard]")
    ours, theirs = clash.parted
    assert ours.steps[-1].edge == "propose_combat[P2 guard -> P1 hero]"
    assert theirs.steps[-1].edge != ours.steps[-1].edge


def test_only_a_change_of_control_parts_the_readings():
    guard, waiting = slots()
    seed, chinese = build(None), build("002zh@may_attack")
    taken = findings()[KEY].transcript.replay(seed)[-1]
    assert taken.in_play[waiting] and taken.fresh[waiting] and taken.changed_sides[waiting] and not taken.in_play[guard]

    def may_attack(m: Machine, s: Any) -> bool:
        return bool(m.rulings.answer("may_attack", s, CONCRETE, waiting))

    # Taken this turn, new to P2's party: only the seed's reading lets it attack.
    assert may_attack(seed, taken) and not may_attack(chinese, taken)
    # P2's own copy, entering play from hand, is new too, and may attack under both.
    entered = taken._replace(changed_sides=tuple(False for _ in taken.changed_sides))
    assert may_attack(seed, entered) and may_attack(chinese, entered)


def test_the_default_board_tracks_no_change_of_sides():
    m = wowtcg.build(**BOUNDS)
    assert "changed_sides" not in {v.name for v in m.variables}
    assert not m.table.ferocity_changes_sides
