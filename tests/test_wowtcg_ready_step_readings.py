"""B17 (docs/findings-wowtcg.md): the basic rules' ready step readies every
card in play, where 501.1a and their own overview ready only the turn
player's; found by ``chainproof lint`` as a source clash and a self-clash of
``ready_step_readies_all``.  The question reads the board alone, so only the
basic rules' reading builds the ready step that readies everyone's cards."""

from __future__ import annotations


from checkers.vector import check, explore
from model import wowtcg
from properties.wowtcg import CATALOGUE
from tests.conftest import source_findings, wowtcg_reading

BASIC = "001@ready_step_readies_all"


build_reading = wowtcg_reading({})


def test_the_basic_rules_ready_every_card_and_contradict_themselves():
    found = source_findings("ready_step_readies_all", {})
    assert sorted(found) == ["self-clash:ready_step_readies_all:001:501.1a+501.1a:all-cards", "source-clash:ready_step_readies_all:001"]
    themselves = found["self-clash:ready_step_readies_all:001:501.1a+501.1a:all-cards"]
    assert {"001_bb13bfcb78a9b116.txt:56", "001_bb13bfcb78a9b116.txt:148"} <= set(themselves.places)
    model_game, reading_game = found["source-clash:ready_step_readies_all:001"].parted
    # Play parts at the second player's ready step: the first player's exhausted hero readies too.
    assert reading_game.steps[-1].edge == "ready_cards" and len(reading_game) > 1
    assert "P1 party" in reading_game.steps[-1].changes and "P1 party" not in model_game.steps[-1].changes


def test_every_property_holds_under_the_basic_ready_step():
    props = {p.name: p for p in CATALOGUE}
    exploration = explore(build_reading(BASIC, {}))
    assert all(check(exploration, p).verdict != "violated" for p in props.values())


def test_an_ally_held_in_its_controllers_ready_step_readies_in_anothers_by_the_basic_rules():
    """Entangling Roots (000:191) holds its ally only in its controller's ready
    step: 501.1a never readies another's cards, the basic ready step does."""
    from dataclasses import replace

    from model.backend import CONCRETE
    from model.wowtcg.board import default_board

    board = default_board(2, 2)
    second = board.parties[1]
    held = replace(board, parties=(board.parties[0], replace(second, allies=(replace(second.allies[0], held_exhausted=True), *second.allies[1:]))))
    for spec, readies_in_p1s in ((None, False), (BASIC, True)):
        m = wowtcg.build(turns=2, hand=0, deck=0, board=held, reading=spec)
        t = m.table
        (c,) = [c for c in range(t.count) if t.characters[c].held_exhausted]
        (ready,) = [e for e in m.edges if e.name == "ready_cards"]
        start = next(iter(m.initial_states()))
        for turn_player, readies in ((0, readies_in_p1s), (1, False)):
            s = start._replace(turn_player=turn_player, exhausted=tuple(x == c for x in range(t.count)))
            assert ready.update(s, CONCRETE)["exhausted"][c] is (not readies)
