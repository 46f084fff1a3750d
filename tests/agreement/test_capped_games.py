"""Games that stop before the rules end them are named, not passed over: those
the harness stops at its step cap, and those an engine ends by a limit of its
own on a game's length.  Neither is a disagreement."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from click.testing import CliRunner

from agreement.harness import conform
from agreement.riftbound.checker import RiftboundChecker
from agreement.wowtcg.builtin import BuiltinWowAdapter
from agreement.wowtcg.checker import WowChecker
from chainproof.cli import main
from tests.agreement.bad_adapters import ShortRiftbound


def test_games_the_step_cap_stops_are_counted_and_named():
    # A WoW game takes far more than five steps: every game meets the cap.
    report = conform(BuiltinWowAdapter(), WowChecker(), examples=3, shrink=False, most_steps=6)
    assert report.ok and report.games_finished == 0
    assert [c.game for c in report.capped] == [1, 2, 3] == list(range(1, report.games_played + 1))
    assert len({c.setup_seed for c in report.capped}) == 3
    assert all("step cap (6 steps, the setup the first)" in c.cap and c.steps <= 5 for c in report.capped)
    assert sum(c.steps for c in report.capped) == report.steps
    shown = report.as_json()
    assert shown["status"] == "agree" and shown["games_capped"] == 3
    assert shown["capped_games"][0] == {"game": 1, "setup_seed": report.capped[0].setup_seed, "steps": report.capped[0].steps,
                                        "cap": report.capped[0].cap}


def test_games_that_end_are_not_named():
    report = conform(BuiltinWowAdapter(), WowChecker(), examples=2, shrink=False)
    assert report.games_finished == report.games_played == 2 and report.capped == []


def test_a_game_the_engine_ends_by_its_own_length_limit_is_named_not_a_disagreement():
    report = conform(ShortRiftbound(), RiftboundChecker(), examples=3, players=(2,), shrink=False)
    assert report.ok, [str(f) for f in report.findings]
    limited = [c for c in report.capped if "engine's limit" in c.cap]
    assert limited and all("2 turns, assumed:turn-cap" in c.cap for c in limited)
    # A game the engine's limit ended did not end by the rules: it is not counted as ended.
    assert report.games_finished + len(report.capped) == report.games_played


def test_conform_shows_capped_games_in_text_json_and_junit(tmp_path):
    spec = "tests.agreement.bad_adapters:ShortRiftbound"
    text = CliRunner().invoke(main, ["conform", "--engine", spec, "--examples", "2"])
    assert text.exit_code == 0, text.output
    assert "stopped before the rules ended them: 2" in text.output
    assert "game 1 (setup seed " in text.output and "by the engine's limit on a game's length (2 turns, assumed:turn-cap)" in text.output
    shown = CliRunner().invoke(main, ["conform", "--engine", spec, "--examples", "2", "--json"])
    assert json.loads(shown.output)["games_capped"] == 2
    out = tmp_path / "conform.xml"
    assert CliRunner().invoke(main, ["conform", "--engine", spec, "--examples", "2", "--junit", str(out)]).exit_code == 0
    cases = {c.get("name"): c for c in ET.parse(out).getroot().iter("testcase")}
    assert "game 2 stopped before it ended" in cases and cases["game 2 stopped before it ended"].find("failure") is None
    assert "turn-cap" in cases["game 2 stopped before it ended"].find("system-out").text
