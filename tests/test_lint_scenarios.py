"""Lint findings written out as scenarios on the table they were found on
(``chainproof lint --scenarios``; ``linting.finding_scenario``,
``scenarios/tables.py``): for Riftbound and HotA, a gap's or a clash's game
is replayed in the engine, and ``chainproof scenarios`` passes the file with
the model following every step; for WoW, a clash found with a spell in the
game is searched again on the engine's table with that card; a finding the
engine cannot replay says why.

Each finding here is one lint reports, given by its game (the edges of the
shortest game lint finds to its state), so that no test runs lint."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from chainproof import lint_cli, linting
from chainproof.cli import main
from chainproof.games import get_game
from checkers.results import Transcript
from model.riftbound.table import HAND, Unit, default_table
from model.wowtcg.board import nearby_boards
from scenarios.riftbound import export as riftbound_export
from scenarios.tables import ExportError
from scenarios.wowtcg import export as wowtcg_export

#: (game, key, kind, board, rules, the edges of its game)
FINDINGS = {
    # Nobody says whether the first move of a turn counts as the unit's move (assumed:standard-move).
    "riftbound-gap": ("riftbound", "gap:counts_as_moved", "gap", None, ("assumed:standard-move",),
                      ["move[Tank Guard to bf1]", "start_combat[bf1]", "open_showdown"]),
    # Line 15 applies only past two players: dead on the default table, woken on the table with a third
    # player (its key there is the board's), where P3 has nothing at bf1 once P1's combat there has begun.
    "riftbound-dead": ("riftbound", "dead-ruling:valid_destination:no-destination@003", "dead-ruling", "players3-turns1",
                       ("combat.multiplayer.no-destination",), ["move[Tank Guard to bf1]", "start_combat[bf1]", "open_showdown"]),
    # Whether a unit arriving makes a battlefield contested is asked at the table's start (assumed:contested).
    "riftbound-start": ("riftbound", "gap:contests", "gap", None, ("assumed:contested",), []),
    # Whether the players still in the game lose when another wins: a concession at the shuffle ends it (assumed:winner-ends-game).
    "hota-concession": ("hota", "gap:loses_when_the_game_ends", "gap", None, ("assumed:winner-ends-game",), ["p1_concedes_at_shuffle"]),
    # 004 says no player's life total starts above 30 only by assumption.
    "hota-gap": ("hota", "gap:starting_life_total", "gap", None, ("assumed:starting-life-limit",),
                 ["shuffle_decks", "p1_goes_first", "draw_opening_hands", "declare_mulligan_0", "declare_mulligan_0",
                  "perform_mulligans", "skip_first_draw"]),
    # On the table where P2 also has Rewind Portal, 004's 109.5g and the card's text clash on a token's return.
    "hota-nearby": ("hota", "self-clash:token_returns:004:109.5g+rewind-portal@P2+Rewind-Portal", "self-clash",
                    "P2 also has Rewind Portal", ("101.1", "108.4", "109.5g"),
                    ["shuffle_decks", "p2_goes_first", "draw_opening_hands", "declare_mulligan_0", "declare_mulligan_0",
                     "perform_mulligans", "skip_first_draw", "priority_check_then_priority",
                     "p2_silencing_rune_on_p1s_culling_field", "priority_check_then_priority", "p2_spirit_caller",
                     "priority_check_then_priority"]),
}


def finding(case: str) -> linting.Finding:
    game_name, key, kind, board, rules, edges = FINDINGS[case]
    woken = board if kind == "dead-ruling" else None  # a dead ruling's game is on the board it woke on
    f = linting.Finding(game_name, kind, key, rules, "a finding", places=("004_text.txt:12", "004_text.txt:34"),
                        board=None if woken else board, woken_on=woken)
    m = linting.finding_machine(get_game(game_name), f, {})
    start, path = next(m.initial_states()), []
    for name in edges:
        path.append((m.edge(name), m.apply(path[-1][1] if path else start, m.edge(name))))
    return replace(f, transcript=Transcript.from_path(m, start, path, "the state"))


@pytest.mark.parametrize("case", sorted(FINDINGS))
def test_a_findings_game_replays_in_the_engine_and_the_model(case, tmp_path: Path) -> None:
    f = finding(case)
    written = linting.finding_scenario(get_game(f.game), f, {})
    assert written.yaml is not None, written.why_not
    doc = yaml.safe_load(written.yaml)
    # The header names the finding and the texts' places.
    assert f.key in doc["name"] and "004_text.txt:12" in doc["source"] and "004_text.txt:34" in doc["source"]
    assert doc["rules"] and set(map(str, doc["rules"])) <= set(f.rules)
    path = tmp_path / "finding.yaml"
    path.write_text(written.yaml, encoding="utf-8")
    out = CliRunner().invoke(main, ["scenarios", "--path", str(path), "--json"])
    assert out.exit_code == 0, out.output
    (result,) = json.loads(out.output)["results"]
    # The runner plays a concession outside the model, and a game of no step gives it nothing to check.
    followed = "covered, with nothing to check" if case in ("riftbound-start", "hota-concession") else "agrees over"
    assert result["status"] == "pass" and result["model"].startswith(followed), result


def test_a_nearby_table_is_the_situation(tmp_path: Path) -> None:
    """The table one change away is the one set up: P2 has Rewind Portal too."""
    doc = yaml.safe_load(linting.finding_scenario(get_game("hota"), finding("hota-nearby"), {}).yaml)
    assert "Rewind Portal" in doc["situation"]["table"]["P2"]
    assert "Rewind Portal" not in yaml.safe_load(linting.finding_scenario(get_game("hota"), finding("hota-gap"), {}).yaml)["situation"]["table"]["P2"]


def test_a_dead_rulings_game_is_on_the_table_it_woke_on() -> None:
    """Dead on the default table, line 15's ruling applies where a third player
    sits: its scenario seats three players, and without a board woken on it has none."""
    f = finding("riftbound-dead")
    doc = yaml.safe_load(linting.finding_scenario(get_game("riftbound"), f, {}).yaml)
    assert doc["situation"]["players"] == 3 and "P3" in doc["situation"]["units"]
    assert linting.finding_scenario(get_game("riftbound"), replace(f, woken_on=None), {}).why_not == "no game reaches it"


def test_a_game_the_engine_cannot_follow_says_why() -> None:
    f = finding("riftbound-gap")
    # Not a game of the model: the finding says so, naming nothing written.
    broken = replace(f, transcript=replace(f.transcript, steps=f.transcript.steps[1:]))
    written = linting.finding_scenario(get_game("riftbound"), broken, {})
    assert written.yaml is None and written.why_not.startswith("the engine cannot replay it: the transcript is not a game of its model")
    dead = replace(f, kind="dead-ruling", transcript=None)
    assert linting.finding_scenario(get_game("riftbound"), dead, {}).why_not == "no game reaches it"
    excluded = replace(f, kind="exclusion", transcript=None)
    assert linting.finding_scenario(get_game("riftbound"), excluded, {}).why_not == "its witness is not a game (exclusion): nothing to replay"


def test_a_unit_no_card_can_stand_for_is_named() -> None:
    t = default_table()
    # No card of the pool prints might 4 without a keyword, and a might set by an effect does not last in hand.
    odd = replace(t, units=(*t.units, Unit("Heavy", 0, 4, start=HAND)))
    with pytest.raises(ExportError, match="Heavy starts in hand at might 4, and no card of the engine's pool has its ability at might 4"):
        riftbound_export.situation(odd)


def wow_clash(key: str, board: str) -> linting.Finding:
    question, source = key.split(":")[1], key.split(":")[2].partition("@")[0]
    return linting.Finding("wowtcg", "source-clash", key, ("404.4",), "a finding", places=("000_text.txt:5", "CR7.4_text.txt:9"),
                           reading=f"{source}@{question}", board=board)


def test_a_wow_clash_found_with_a_spell_in_the_game_is_searched_with_the_spell_on_the_engine_table(tmp_path: Path) -> None:
    """Frost Nova in the game (CR7.4's 'can't attack this turn'): the engine's
    table with Frost Nova in each hand, where the readings part as the model's did."""
    f = wow_clash("source-clash:spell_stops_attacks:CR7.4@spell+frost-nova", "Frost Nova is in the game")
    lint_cli._write_scenarios(linting.Lint([f]), tmp_path, 100_000)
    assert f.scenario is not None, f.scenario_note
    doc = yaml.safe_load(Path(f.scenario).read_text(encoding="utf-8"))
    assert f.key in doc["name"] and "CR7.4_text.txt:9" in doc["source"]
    assert all("Frost Nova" in hand for hand in doc["situation"]["hands"].values())
    out = CliRunner().invoke(main, ["scenarios", "--path", f.scenario, "--json"])
    (result,) = json.loads(out.output)["results"]
    assert out.exit_code == 0 and result["status"] == "pass" and result["model"].startswith("agrees over"), result


@pytest.mark.parametrize("key, board, seat, card, gone", [
    # 002's Chinese 602.2c: a combat against a totem is a sabotage; P2's skirmisher is the table's Silvermoon Skirmisher.
    ("source-clash:totem_combat_is_sabotage:002zh@P2-searing-totem", "P2's skirmisher is Searing Totem", "P2", "Searing Totem", "Silvermoon Skirmisher"),
    # CR7.4 306.3a: a totem is no ally, so Frost Nova's "each opposing hero and ally" misses it.
    ("source-clash:totem_is_ally:CR7.4@P2-searing-totem+frost-nova", "P2's skirmisher is Searing Totem and Frost Nova is in the game", "P2",
     "Searing Totem", "Silvermoon Skirmisher"),
    # 001: an elusive character can't be attacked, so it can't protect; P1's guard is Veiled Sentry, in the Tunnel Rat's place.
    ("source-clash:may_protect:001@P1-guard+elusive", "P1's guard gains elusive", "P1", "Veiled Sentry", "Tunnel Rat"),
    # CR7.4's 404.3 example doubles the damage on allies only: P2's hero, doubled from 24, is destroyed only in the seed's reading.
    ("source-clash:doubling_reaches_heroes:CR7.4@spell+barnathrum", "Barnathrum's power is in the game", "P1", "Barnathrum, Lord of Pain", None),
])
def test_a_wow_clash_on_a_board_with_an_engine_card_swapped_in_is_searched_with_that_card(
    key: str, board: str, seat: str, card: str, gone: str | None, tmp_path: Path
) -> None:
    """The model's ally swapped for a character the engine has as a card, or
    given a keyword a card of the engine has with its own, or a spell that is a
    card's payment power: the engine's table with that card in place of the
    ally that plays it there, or in the first player's party."""
    f = wow_clash(key, board)
    lint_cli._write_scenarios(linting.Lint([f]), tmp_path, 100_000)
    assert f.scenario is not None, f.scenario_note
    doc = yaml.safe_load(Path(f.scenario).read_text(encoding="utf-8"))
    assert card in doc["situation"]["play"][seat] and gone not in doc["situation"]["play"][seat]
    out = CliRunner().invoke(main, ["scenarios", "--path", f.scenario, "--json"])
    (result,) = json.loads(out.output)["results"]
    assert out.exit_code == 0 and result["status"] == "pass" and result["model"].startswith("agrees over"), result


def test_a_wow_clash_on_a_board_of_the_models_own_characters_says_why_it_has_no_scenario(tmp_path: Path) -> None:
    f = wow_clash("source-clash:heals_lethal_damage:001@P2-keeps-hero+flash-heal", "P2's skirmisher says 'your hero can't be destroyed'")
    lint_cli._write_scenarios(linting.Lint([f]), tmp_path, 100_000)
    assert f.scenario is None and f.scenario_note.startswith("found where P2's skirmisher says 'your hero can't be destroyed', which the engine's table cannot be made")
    assert "the model's own (stats, not engine cards)" in f.scenario_note
    assert not list(tmp_path.iterdir())


def test_a_hero_given_ranged_dual_wield_is_a_hero_card_with_both_dual_wields() -> None:
    """The board where P1's hero gains ranged dual wield (405.2) is the engine's
    table with Draka Twinshot, dual wield and ranged dual wield, as P1's hero."""
    (board,) = [b for key, _, b in nearby_boards(2, 2) if key == "P1-hero+ranged_dual_wield"]
    table = wowtcg_export.nearby_table(board, 2, 2)
    assert table.heroes == ("Draka Twinshot", wowtcg_export.engine_table(2).heroes[1])
    assert {"dual_wield", "ranged_dual_wield"} <= wowtcg_export._adapter().pool["Draka Twinshot"].keywords
