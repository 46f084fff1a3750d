"""Bear form in the engine's scenarios: the agreement harness carries Maul
(a hero in bear form: Party.bear_form; its end, a trigger link on the chain),
so the clash between the basic rules and CR7.4 on how bear form ends, found
where P1's hero is in bear form, is written out by ``lint --scenarios`` on
the engine's table with Maul in P1's play, and the engine and the model both
replay it; the seed-001 scenario of a hero in bear form is followed too."""

from __future__ import annotations

from pathlib import Path

import yaml

from chainproof import lint_cli, linting
from scenarios.runner import run_file

KEY = "source-clash:bear_form_ends_by_trigger:001@P1-hero+bear-form"
SCENARIOS = Path(__file__).parent.parent / "scenarios" / "wowtcg"


def test_the_bear_form_clash_is_written_on_the_engine_table_with_maul_and_both_replay_it(tmp_path: Path) -> None:
    f = linting.Finding("wowtcg", "source-clash", KEY, ("glossary.bear-form",), "a finding",
                        places=("001_text.txt:198-199", "CR7.4_text.txt:3277-3279"),
                        reading="001@bear_form_ends_by_trigger", board="P1's hero is in bear form")
    lint_cli._write_scenarios(linting.Lint([f]), tmp_path, 100_000)
    assert f.scenario is not None, f.scenario_note
    doc = yaml.safe_load(Path(f.scenario).read_text(encoding="utf-8"))
    assert KEY in doc["name"] and "CR7.4_text.txt:3277-3279" in doc["source"]
    assert "Maul" in doc["situation"]["play"]["P1"] and "Maul" not in doc["situation"]["play"]["P2"]
    assert doc["rules"] == ["CR7.4 703.1", "CR7.4 708.1"]
    # An instant in bear form: by CR7.4 (the engine's and the model's reading) Maul's trigger goes on the chain above it.
    assert doc["expect"]["chain"][-1] == "P1 trigger Maul"
    result = run_file(Path(f.scenario))
    assert result.status == "pass", result.detail
    assert result.model.startswith("agrees"), result.model


#: Maul played from hand: bear form begins during the game.
MAUL_FROM_HAND = """\
game: wowtcg
name: P1 plays Maul from hand
rules: ["602.2"]
source: "own: bear form begun during the game"
summary: Maul resolves and gives P1's hero bear form.
situation:
  players: [Elaria Moonwhisper, Maelen Frostweave]
  turn_player: P1
  play: {P1: [Viking Warhammer], P2: [Scryer Arcanist]}
  hands: {P1: [Maul]}
  resources: {P1: 2}
script:
  - P1 plays Maul
  - everyone passes
expect:
  zones: {P1's Maul: play}
"""


def test_a_hero_in_bear_form_from_the_start_is_followed_and_maul_entering_later_is_not(tmp_path: Path) -> None:
    result = run_file(SCENARIOS / "seed-001" / "bear-form-striking-ends-it.yaml")
    assert result.status == "pass", result.detail
    assert result.model.startswith("agrees"), result.model
    later = tmp_path / "maul.yaml"
    later.write_text(MAUL_FROM_HAND, encoding="utf-8")
    result = run_file(later)
    assert result.status == "pass", result.detail
    assert result.model.startswith("not covered (P1's hero takes bear form during a step"), result.model
