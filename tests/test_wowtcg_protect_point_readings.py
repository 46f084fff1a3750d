"""T5 (docs/findings-wowtcg.md): 002's Chinese 602.2 concludes a combat as the
attack window closes unless an attacker and a *defender* remain, where the
English, 000 and CR7.4 name the proposed defender; since a proposed defender
becomes a defender only after the protect point (602.3), read as written no
combat gets past its attack window.  Found by ``chainproof lint`` as a source
clash of ``combat_reaches_protect_point``."""

from __future__ import annotations

from checkers.vector import explore
from tests.conftest import source_findings, wowtcg_reading

#: One turn: P1's first combat is the shortest game to an attack window.
BOUNDS = {"turns": 1}
CHINESE = "002zh@combat_reaches_protect_point"
KEY = "source-clash:combat_reaches_protect_point:002zh"

build_reading = wowtcg_reading(BOUNDS)


def test_the_chinese_602_2_ends_every_combat_at_its_attack_window():
    found = source_findings("combat_reaches_protect_point", BOUNDS)
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "002zh answers no where the model's reading answers yes" in clash.summary
    assert "002_747842af486db20b.txt:85" in clash.places
    assert {"000_93427c41005e332f.txt:471", "002_747842af486db20b.txt:80-84"} <= set(clash.places)
    model_game, reading_game = clash.parted
    assert model_game.steps[-1].edge == "close_window@attack_window"
    assert model_game.steps[-1].changes["location"][1] == "protect_point"


def _taken(spec: str | None) -> set[str]:
    return {key.split("[")[0] for _, _, key in explore(build_reading(spec, {})).graph.edges(keys=True)}


def test_read_by_the_chinese_nobody_protects_or_deals_combat_damage():
    ours, theirs = _taken(None), _taken(CHINESE)
    assert {"close_window@attack_window", "no_protection", "combat_damage"} <= ours
    assert "close_window@attack_window" in theirs
    assert not {"no_protection", "protect", "strike", "combat_damage"} & theirs
