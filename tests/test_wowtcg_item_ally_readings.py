"""An item that becomes an ally (question ``joins_party_as_ally``, V14):
the seed's party is a player's hero, allies and totems (000:408), so CR7.4's
Arcanite Dragonling joins it as its payment makes it an ally, and 302.2 keeps
it from attacking that turn; CR7.4's party is every card in play its player
controls, which a card gaining a type neither joins nor leaves (CR7.4
415.8b, :1538-1543), so it may attack at once.  The model follows the seed.
Asked on the board one change away where P1's last ally is the Dragonling."""

from __future__ import annotations

from functools import cache
from typing import Any

from chainproof.source_lint import SourceFinding, lint_sources
from checkers.vector import explore
from model import wowtcg
from model.machine import Machine
from model.wowtcg.board import nearby_boards
from tests.conftest import reachable_states

#: P1's first turn, no cards in hand: the Dragonling's payment is his one resource.
BOUNDS = {"turns": 1, "hand": 0, "deck": 0}
KEY = "source-clash:joins_party_as_ally:CR7.4"
BOARD = dict((key, board) for key, _, board in nearby_boards(2, 2))["P1-arcanite-dragonling"]


def build(spec: str | None, **bounds: int) -> Machine:
    return wowtcg.build(**{**BOUNDS, **bounds}, board=BOARD, reading=spec)


@cache
def findings() -> dict[str, SourceFinding]:
    found = lint_sources(build(None), lambda spec, more: build(spec, **more), 2_000_000, 2_000_000, questions=("joins_party_as_ally",))
    return {f.key: f for f in found.findings}


@cache
def states(spec: str | None) -> list[Any]:
    return reachable_states(explore(build(spec)))


def dragonling() -> int:
    t = build(None).table
    (c,) = [c for c in range(t.count) if t.item_allies[c]]
    return c


def test_the_seed_has_the_item_join_the_party_where_cr74_has_it_there_all_along():
    found = findings()
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "CR7.4 answers no where the model's reading answers yes" in clash.summary
    assert {"000_93427c41005e332f.txt:408", "wowtcg-comprehensive-rules-7.4.txt:1538-1543"} <= set(clash.places)
    ours, theirs = (game.steps[-1] for game in clash.parted)
    assert ours.edge == theirs.edge and ours.edge.startswith("resolve_power[P1 Arcanite Dragonling becomes an ally]")
    assert ours.changes["P1 party"][1].endswith("Arcanite Dragonling (new)")
    assert theirs.changes["P1 party"][1].endswith("Arcanite Dragonling")


def test_only_cr74s_reading_lets_it_attack_the_turn_it_becomes_an_ally():
    d = dragonling()
    assert not any(s.attacker == d for s in states(None))
    assert any(s.in_play[d] and s.fresh[d] for s in states(None))
    assert any(s.attacker == d for s in states("CR7.4@joins_party_as_ally"))


def test_it_is_an_item_again_as_the_next_turn_begins_and_gone_once_destroyed_as_an_ally():
    d = dragonling()
    spec = "CR7.4@joins_party_as_ally"
    start = build(spec).location_index["ready_step_start"]
    next_turn = [s for s in states(spec) if s.location == start and s.turn_number == 2]
    assert any(s.in_play[d] for s in states(spec))
    assert next_turn and all(not s.in_play[d] for s in next_turn)
    assert any(s.item_in_play[d] for s in next_turn)
    # Destroyed in combat as an ally, the card has left play: no payment brings it back.
    gone = [s for s in states(spec) if not s.item_in_play[d]]
    assert gone and all(not s.in_play[d] for s in gone)


def test_the_default_board_has_no_item_that_becomes_an_ally():
    m = wowtcg.build(**BOUNDS)
    assert "item_in_play" not in {v.name for v in m.variables}
    assert not any("Arcanite Dragonling" in e.name for e in m.edges)
    assert m.rulings.questions["joins_party_as_ally"].arguments == ()
