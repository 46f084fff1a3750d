"""Rulings as data: every shipped scenario passes in the reference engine
(one test per file); malformed files give one located error; a wrong
expectation fails with expected against actual; the ``chainproof scenarios``
command's JSON shape and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import agreement.wowtcg.abstraction
import agreement.wowtcg.builtin
import agreement.wowtcg.follow
import engine.wowtcg.checks
import engine.wowtcg.combat
from chainproof.scenarios_cli import scenarios as scenarios_command
from model import wowtcg
from engine.wowtcg.state import GameState
from scenarios import runner

DATA = Path(__file__).parent / "data" / "scenarios" / "wowtcg"
ROOT = Path(__file__).parent.parent
SHIPPED = runner.discover(games=["wowtcg"])  # Riftbound's: tests/test_riftbound_scenarios.py


def _param(path: Path):
    doc = runner.load_yaml(path)
    marks = ()
    if isinstance(doc, dict) and doc.get("known_failure"):
        # The engine rules this wrongly (see the diagnosis); strict, so a fix is noticed.
        marks = (pytest.mark.xfail(reason=doc["known_failure"], strict=True),)
    return pytest.param(path, id=path.relative_to(runner.SCENARIO_ROOT).as_posix(), marks=marks)


def test_scenarios_are_shipped_for_each_folder() -> None:
    folders = {p.relative_to(runner.SCENARIO_ROOT / "wowtcg").parts[0] for p in SHIPPED}
    assert {"seed-000", "seed-001", "seed-002", "rules"} <= folders


@pytest.mark.parametrize("path", [_param(p) for p in SHIPPED])
def test_shipped_scenario_passes(path: Path) -> None:
    for result in runner.run_cases(path):
        assert result.status == "pass", result.detail


def _shipped_cases() -> list[runner.Scenario]:
    return [scenario for path in SHIPPED for scenario in runner.load_cases(path)[0]]


def test_every_cited_rule_is_registered() -> None:
    missing = {}
    for scenario in _shipped_cases():
        unknown = [r for r in scenario.rules if r not in wowtcg.REGISTRY]
        if unknown:
            missing[scenario.name] = unknown
    assert not missing, f"rules cited by scenarios but missing from the registry: {missing}"


def test_every_shipped_scenario_names_a_source_and_its_own_summary() -> None:
    for scenario in _shipped_cases():
        assert scenario.source.startswith(("000 ", "001 ", "002 ", "own: ")), (scenario.path, scenario.source)
        assert len(scenario.summary.split()) >= 5, (scenario.path, scenario.summary)


# --- several cases in one file -------------------------------------------------------------

CASES = ROOT / "scenarios" / "wowtcg" / "rules" / "410.1b-ironforge-guards-count-only-allies-of-their-name.yaml"


def test_a_file_of_cases_gives_one_result_per_case_each_with_the_shared_situation_varied() -> None:
    results = runner.run_cases(CASES)
    shown = "wowtcg/rules/410.1b-ironforge-guards-count-only-allies-of-their-name.yaml"
    assert [r.scenario for r in results] == [
        f"{shown} [a second copy placed face down as a resource]", f"{shown} [a second copy in the party]"]
    assert [r.status for r in results] == ["pass", "pass"], [r.detail for r in results]
    # A case's rules add to the file's; its situation keys replace the shared ones, the rest is shared.
    assert results[0].rules == ["302.1", "404.2", "409.6b", "410.1b"] and results[1].rules == ["302.1", "404.2", "409.6b"]
    first, second = runner.load_cases(CASES)[0]
    assert first.situation["hands"]["P1"] and "P1" not in second.situation["hands"]
    assert first.situation["resources"] == second.situation["resources"] == {"P2": 4}
    assert second.situation.at("play") > first.situation.at("play")  # the case's own line
    with pytest.raises(ValueError, match="has 2 cases: run it with run_cases"):
        runner.run_file(CASES)
    with pytest.raises(runner.ScenarioFileError, match="several cases"):
        runner.load(CASES)


SHARED = """\
game: wowtcg
name: cases
rules: ["409.4"]
source: "own: 409.4"
summary: the turn player acts first in each window
situation:
  players: [Bragvi Stormstein, Maelen Frostweave]
"""


@pytest.mark.parametrize("cases, line, words", [
    ("cases: []\n", 8, "'cases' is empty"),
    ("script: [P1 passes]\ncases:\n  - {name: a, expect: {priority: P1}}\n", 8, "has no 'script' of its own"),
    ("cases:\n  - {name: a, expect: {priority: P1}}\n  - {name: a, expect: {priority: P1}}\n", 10, "two cases are named 'a'"),
    ("cases:\n  - {name: a, expects: {priority: P1}}\n", 9, "expects"),
    ("cases:\n  - {name: a, script: [P1 passes]}\n", 9, "case 'cases: a' expects nothing"),
    ("cases:\n  - {name: a, situation: {step: lunch}, expect: {priority: P1}}\n", 9, "lunch"),
])
def test_a_malformed_case_is_one_located_error(tmp_path: Path, cases: str, line: int, words: str) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(SHARED + cases, encoding="utf-8")
    (result,) = runner.run_cases(path)
    assert result.status == "error", result.detail
    assert f"cases.yaml:{line}:" in result.detail and words in result.detail, result.detail


# --- malformed files: one located error each -------------------------------------------

@pytest.mark.parametrize("name, line, words", [
    ("bad-yaml.yaml", 7, ["not valid YAML", "flow sequence that starts at line 6"]),
    ("unknown-field.yaml", 7, ["unknown field 'hand' in 'situation'", "hands"]),
    ("wrong-type.yaml", 7, ["'turn' must be a whole number", "'three'"]),
    ("unknown-card.yaml", 8, ["unknown card 'Ashen Recruitt'", "did you mean 'Ashen Recruit'"]),
    ("unknown-step.yaml", 7, ["unknown step 'defend_window'", "ready_step, draw_step, action_phase, end_phase"]),
    ("no-such-action.yaml", 9, ["'P1 passes' matches no legal action", "legal actions now: 'P2 passes'"]),
    ("expects-nothing.yaml", 1, ["expects nothing"]),
    ("start-with-a-mid-game-field.yaml", 8, ["unknown field 'play' in a 'situation' that starts the game", "decks, seed"]),
])
def test_malformed_file_gives_one_located_error(name: str, line: int, words: list[str]) -> None:
    result = runner.run_file(DATA / name)
    assert result.status == "error"
    first, *rest = result.detail.splitlines()
    where, _, _ = first.partition(": ")
    assert where.endswith(f"{name}:{line}"), first
    for word in words:
        assert word in first, first
    assert not rest and "Traceback" not in result.detail


def test_malformed_file_raises_a_file_error_when_loaded() -> None:
    with pytest.raises(runner.ScenarioFileError) as err:
        runner.load(DATA / "unknown-card.yaml")
    assert err.value.line == 8 and err.value.path.name == "unknown-card.yaml"


# --- wrong rulings: fail with expected against actual ---------------------------------------

def test_wrong_expectation_fails_showing_expected_and_actual() -> None:
    result = runner.run_file(DATA / "wrong-ruling.yaml")
    assert result.status == "fail"
    assert "line 17: priority: expected 'P2', got 'P1'" in result.detail
    assert "line 18: P1's Gorrak Bloodfist damage: expected 3, got 2" in result.detail
    assert "state:" in result.detail  # a snapshot to read the failure against


def test_wrong_illegal_rule_fails_naming_both_rules() -> None:
    result = runner.run_file(DATA / "wrong-illegal-rule.yaml")
    assert result.status == "fail"
    assert "expected 'illegal by 405.3', got 'illegal by 303.2c" in result.detail


def test_known_failure_still_fails_and_carries_its_diagnosis() -> None:
    result = runner.run_file(DATA / "known-failure.yaml")
    assert result.status == "fail"
    assert result.known_failure == "test data: the expectation is wrong on purpose"
    assert result.detail.startswith("known failure: test data")


def test_scenario_outside_the_shipped_folders_runs() -> None:
    result = runner.run_file(DATA / "passes.yaml")
    assert (result.status, result.game, result.rules) == ("pass", "wowtcg", ["409.4a"])


# --- the command -------------------------------------------------------------------------------

def _invoke(*args: str):
    return CliRunner().invoke(scenarios_command, list(args))


def test_cli_json_shape_and_exit_0_when_all_pass() -> None:
    result = _invoke("--json", "--path", str(DATA / "passes.yaml"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["summary"] == {"pass": 1, "fail": 0, "error": 0}
    (row,) = data["results"]
    assert set(row) == {"game", "scenario", "rules", "status", "detail", "model"}
    # Arcane Missiles is one of the board's spells (model/wowtcg/board.py): the model follows it.
    assert row["model"] == "agrees over 4 steps and 0 refusals"
    assert row["game"] == "wowtcg" and row["status"] == "pass" and row["rules"] == ["409.4a"]


def test_not_covered_keeps_each_card_name_whole() -> None:
    # Semicolons between names: a name may hold a comma (Barnathrum, Lord of Pain).
    result = runner.run_file(ROOT / "scenarios" / "wowtcg" / "rules" / "CR7.4-709.2d-fireball-returned-to-hand-still-burns-its-last-host.yaml")
    assert result.model == "not covered (cards the model does not abstract: Fireball; Kryton Barleybeard)", result.model


def test_cli_exit_1_on_a_wrong_ruling() -> None:
    result = _invoke("--json", "--path", str(DATA / "passes.yaml"), "--path", str(DATA / "wrong-ruling.yaml"))
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert data["summary"] == {"pass": 1, "fail": 1, "error": 0}
    assert [r["status"] for r in data["results"]] == ["pass", "fail"]


def test_cli_exit_2_on_a_malformed_file() -> None:
    result = _invoke("--json", "--path", str(DATA / "wrong-ruling.yaml"), "--path", str(DATA / "unknown-card.yaml"))
    assert result.exit_code == 2, result.output
    data = json.loads(result.output)
    assert data["summary"] == {"pass": 0, "fail": 1, "error": 1}
    error = next(r for r in data["results"] if r["status"] == "error")
    assert "unknown-card.yaml:8: unknown card 'Ashen Recruitt'" in error["detail"]


def test_cli_bad_input_exits_2_with_one_line() -> None:
    result = _invoke("--game", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    result = _invoke("--path", str(DATA / "no-such-file.yaml"))
    assert result.exit_code == 2
    assert "no such scenario file or folder" in result.output


def test_cli_table_lists_each_scenario_and_the_summary() -> None:
    result = _invoke("--path", str(DATA / "passes.yaml"), "--path", str(DATA / "wrong-ruling.yaml"))
    assert result.exit_code == 1
    assert "passes.yaml" in result.output and "wrong-ruling.yaml" in result.output
    assert "expected 'P2', got 'P1'" in result.output
    assert "2 scenarios: 1 pass, 1 fail, 0 error" in result.output


def test_cli_runs_the_shipped_scenarios_by_default() -> None:
    result = _invoke("--json", "--game", "wowtcg")
    data = json.loads(result.output)
    cases = _shipped_cases()
    assert len(data["results"]) == len(cases) > len(SHIPPED)
    known = sum(bool(case.known_failure) for case in cases)
    assert data["summary"] == {"pass": len(cases) - known, "fail": known, "error": 0}
    assert result.exit_code == (1 if known else 0)


def _counterclockwise(self, player):
    """409.1 broken: priority passes the wrong way round."""
    n = len(self.players)
    return next((q for q in ((player - k) % n for k in range(1, n)) if self.players[q].in_game), player)


def test_a_covered_scenario_is_checked_in_the_model_beyond_its_expectations(monkeypatch) -> None:
    path = DATA / "model-covered.yaml"
    agreed = runner.run_file(path)
    assert agreed.status == "pass" and agreed.model == "agrees over 3 steps and 0 refusals", agreed.model
    # Priority going the wrong way round still ends the phase, so only the model sees it.
    monkeypatch.setattr(GameState, "next_clockwise", _counterclockwise)
    broken = runner.run_file(path)
    assert broken.status == "fail", broken.detail
    assert "the model's reading" in broken.detail and "409.1" in broken.detail, broken.detail


def test_the_shipped_scenarios_the_model_covers_agree_with_it() -> None:
    results = [r for p in SHIPPED for r in runner.run_cases(p)]
    covered = [r for r in results if r.model.startswith("agrees")]
    assert len(covered) >= 95, f"only {len(covered)} scenarios are covered by the model"
    # Issue 23's goal: the model follows at least 60% of the shipped WoW scenarios.
    followed = [r for r in results if r.model.startswith(("agrees over", "covered, with nothing"))]
    assert len(followed) >= 0.6 * len(results), f"the model follows {len(followed)} of {len(results)}"
    assert all(r.model.startswith(("agrees over", "not covered (", "covered, with nothing")) for r in results), {r.scenario: r.model for r in results}



def _enters_exhausted(original):
    """105.1 broken: a card enters play exhausted."""
    def enter_play(self, o, controller, attached_to=None):
        original(self, o, controller, attached_to)
        o.exhausted = True
    return enter_play


def test_equipment_played_from_hand_is_followed_into_the_hero_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    """303.1, 304.1: an armor or weapon played from hand is on the step's board in
    hand, and resolves into its hero zone (resolve_armor, resolve_weapon), not as
    an ally entering the party; one entering exhausted (105.1 broken) is seen."""
    path = ROOT / "scenarios" / "wowtcg" / "rules" / "304.1-armor-and-weapons-enter-the-hero-zone.yaml"
    results = runner.run_cases(path)
    assert [r.status for r in results] == ["pass"] * 3, [r.detail for r in results]
    assert [r.model for r in results] == [f"agrees over {n} steps and 0 refusals" for n in (3, 3, 6)]
    monkeypatch.setattr(GameState, "enter_play", _enters_exhausted(GameState.enter_play))
    broken = runner.run_cases(path)
    assert [r.status for r in broken] == ["fail"] * 3, [r.detail for r in broken]
    for r, word in zip(broken, ("armor", "weapon", "armor")):
        assert "the model's reading of 'P2 passes'" in r.detail and f"nearest model path resolve_{word}[P1" in r.detail, r.detail
        assert f"{word}_exhausted: model" in r.detail and "105.1" in r.detail, r.detail


def test_an_armor_for_a_hero_who_wears_one_is_not_covered(tmp_path: Path) -> None:
    """The model's hero has one armor (304.2): a second played from hand is said to be outside it, naming the card."""
    path = tmp_path / "wowtcg" / "second-armor.yaml"
    path.parent.mkdir()
    path.write_text(
        "name: A second armor\nrules: [\"304.1\"]\nsource: \"own: 304.1\"\nsummary: A hero who wears armor plays another.\n"
        "situation:\n  players: [Bragvi Stormstein, Maelen Frostweave]\n  play:\n    P1: [Leather Jerkin]\n"
        "  hands:\n    P1: [Chain Hauberk]\n  resources: {P1: 3}\n"
        "script:\n  - {player: P1, kind: play, card: Chain Hauberk}\nexpect:\n  hand: {P1: 0}\n",
        encoding="utf-8",
    )
    result = runner.run_file(path)
    assert result.status == "pass", result.detail
    assert result.model == ("not covered (P1 plays Chain Hauberk from hand: the model's hero wears one armor, "
                            "and his is already in play)"), result.model


def test_an_ally_whose_power_the_model_lacks_is_followed_until_the_power_acts() -> None:
    """Goblin Sapper is an ally with sabotage to the model until its trigger goes
    on the chain (603.1): a protection that ends the sabotage (602.2c) is followed
    to the end, a sabotage that concludes is followed up to the trigger, then said
    to be outside the model, naming the card.  Likewise Kaldels' inspire (501.1a)."""
    folder = ROOT / "scenarios" / "wowtcg"
    protected = runner.run_file(folder / "seed-002" / "602.2c-protecting-ends-a-sabotage.yaml")
    assert protected.status == "pass" and protected.model.startswith("agrees over"), protected.model
    concluded = runner.run_file(folder / "rules" / "603.1-sabotage-deals-no-damage.yaml")
    assert concluded.status == "pass", concluded.detail
    assert concluded.model.startswith("not covered (Goblin Sapper's power triggers: the model's chain holds no triggered effects (409.5)) after "), concluded.model
    inspired = runner.run_file(folder / "seed-000" / "501.1a-two-kaldels-inspire-two-allies.yaml")
    assert inspired.status == "pass", inspired.detail
    assert inspired.model.startswith("not covered (P1 readies an ally by inspire: the model readies only the turn player's cards (501.1a))"), inspired.model


def _edited(tmp_path: Path, shipped: Path, old: str, new: str, count: int = -1) -> Path:
    """A copy of a shipped WoW scenario with ``old`` replaced by ``new``, under a wowtcg folder."""
    text = shipped.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "wowtcg" / shipped.name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


# --- an action the rules forbid twice over ---------------------------------------------------

TWICE = ROOT / "scenarios" / "wowtcg" / "rules" / "601.1-a-proposal-forbidden-twice-over.yaml"


@pytest.mark.parametrize("rule, status, words", [
    ('["601.1", "601.2a"]', "pass", "ok"),
    ('["601.2a", "601.1"]', "pass", "ok"),
    ('"601.1"', "pass", "ok"),
    ('["601.2a", "409.2"]', "fail", "expected 'illegal by 601.2a or 409.2', got \"illegal by 601.1"),
    ("[]", "error", "'rule' is an empty list"),
    ('["601.1", "six-oh-one"]', "error", "rule number 'six-oh-one' is not written like"),
])
def test_an_illegal_step_may_accept_any_of_several_rules(tmp_path: Path, rule: str, status: str, words: str) -> None:
    """601.1 and 601.2a both forbid proposing an exhausted ally in the end phase;
    the engine names 601.1. A list accepts any of its rules, and says which it
    expected when the engine names another."""
    result = runner.run_file(_edited(tmp_path, TWICE, 'rule: ["601.1", "601.2a"]', f"rule: {rule}"))
    assert result.status == status and words in result.detail, result.detail


@pytest.mark.parametrize("resources, status, words", [
    ("{P1: {ready: 1, exhausted: 3}}", "pass", "ok"),
    ("{P1: {ready: 1, spent: 3}}", "error", "unknown field 'spent' in P1's resources"),
    ("{P1: {ready: 1, exhausted: -1}}", "error", "P1's resources can't be negative"),
])
def test_resources_may_start_exhausted(tmp_path: Path, resources: str, status: str, words: str) -> None:
    """402.4a: exhausted resources pay nothing; a situation may put some in play exhausted."""
    shipped = ROOT / "scenarios" / "wowtcg" / "rules" / "402.4a-exhausted-resources-pay-nothing.yaml"
    result = runner.run_file(_edited(tmp_path, shipped, "{P1: {ready: 1, exhausted: 3}}", resources))
    assert result.status == status and words in result.detail, result.detail


@pytest.mark.parametrize("entry, status, words", [
    ("{token: Wisp, as: Wisp A}", "pass", "ok"),
    ("{token: Wispp, as: Wisp A}", "error", "unknown token 'Wispp': no card of the pool creates it (did you mean 'Wisp'?)"),
    ("{token: Wisp, card: Ashen Recruit, as: Wisp A}", "error", "unknown field 'card'"),
])
def test_a_token_may_start_in_play(tmp_path: Path, entry: str, status: str, words: str) -> None:
    """403.2: a token set up in play is the one a card of the pool creates (Tyrande's Wisp)."""
    shipped = ROOT / "scenarios" / "wowtcg" / "rules" / "403.2-a-token-in-play-from-the-start.yaml"
    result = runner.run_file(_edited(tmp_path, shipped, "{token: Wisp, as: Wisp A}", entry))
    assert result.status == status and words in result.detail, result.detail


def test_an_owner_other_than_the_controller_is_a_player_of_the_game(tmp_path: Path) -> None:
    """401.2: 'owner' names the player whose card it is; it must be a player at the table."""
    shipped = ROOT / "scenarios" / "wowtcg" / "rules" / "401.2-a-card-controlled-by-another-player-goes-to-its-owners-graveyard.yaml"
    assert runner.run_file(shipped).status == "pass"
    result = runner.run_file(_edited(tmp_path, shipped, "owner: P2", "owner: P3"))
    assert result.status == "error" and ":11:" in result.detail and "P3" in result.detail, result.detail


def test_a_player_concedes_at_any_time_and_the_model_says_it_stops_following(tmp_path: Path) -> None:
    """102.1b: 'P2 concedes' in a script, even while P1 holds priority; the model,
    which has no concession, follows up to it and then says why it stops."""
    shipped = ROOT / "scenarios" / "wowtcg" / "rules" / "102.1b-a-player-concedes-while-his-opponent-holds-priority.yaml"
    result = runner.run_file(shipped)
    assert result.status == "pass", result.detail
    assert result.model == "not covered (P2 concedes: the model has no concession (102.1b)) after 1 agreeing steps"
    # A player who has left can't concede again: the engine refuses it, citing 102.1b.
    twice = runner.run_file(_edited(tmp_path, shipped, "  - P2 concedes\n", "  - P2 concedes\n  - P2 concedes\n"))
    assert twice.status == "fail" and "illegal by 102.1b: P2 is not in the game" in twice.detail, twice.detail


@pytest.mark.parametrize("old, new, status, words", [
    ('violations: ["100.1"]', 'violations: []', "fail", "expected [], got ['100.1']"),
    ("format: sealed, cards: {Ashen Recruit: 29}", "format: draft, cards: {Ashen Recruit: 29}", "error", "unknown deck format 'draft'"),
    ("cards: {Ashen Recruit: 29}", "cards: {Ashen Recruit: -1}", "error", "can't be negative"),
])
def test_a_deck_legality_expectation_is_judged_by_the_engines_deck_check(tmp_path: Path, old: str, new: str, status: str,
                                                                          words: str) -> None:
    """100.1-100.4 as expectations: the rules a deck breaks, [] for a legal one."""
    shipped = ROOT / "scenarios" / "wowtcg" / "rules" / "100.1-deck-building-size-copies-and-traits.yaml"
    assert all(r.status == "pass" for r in runner.run_cases(shipped))
    first = runner.run_cases(_edited(tmp_path, shipped, old, new, 1))[0]
    assert first.status == status and words in first.detail, first.detail


# --- a crash is reported against the side that raised it ------------------------------------

FOLLOWED = ROOT / "scenarios" / "wowtcg" / "rules" / "409.1-passing-goes-clockwise.yaml"


def test_a_crash_in_the_model_check_is_an_internal_error_not_a_wrong_ruling(monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 23: an ObservationError of the model check once read as a failed
    ruling. A crash whose innermost frame of ours is in agreement/ or model/ is an
    error that says so; it is neither a fail nor 'not covered'."""
    monkeypatch.setattr(agreement.wowtcg.follow, "observe_action", None)  # called by the follower: a TypeError there
    result = runner.run_file(FOLLOWED)
    assert result.status == "error", result.detail
    assert "internal error in the model check: TypeError" in result.detail, result.detail


def test_a_crash_in_the_engine_fails_the_ruling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.wowtcg.checks, "check_uniqueness", None)  # called by the engine's state
    result = runner.run_file(FOLLOWED)
    assert result.status == "fail", result.detail
    assert "the engine raised TypeError" in result.detail, result.detail


def _scenario(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / "wowtcg" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return path


def test_a_tax_on_attacking_is_the_models_printed_tax_and_a_proposal_that_skips_it_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """600.3: Reluctant Conscript is the model's character with attack_tax 1, so
    the model exhausts a resource as it is proposed; an engine that forgets the
    tax (and its own expectation says nothing of resources) is caught by the model."""
    path = _scenario(tmp_path, "taxed.yaml", (
        "name: A taxed attack\nrules: [\"600.3\"]\nsource: \"own: 600.3\"\nsummary: The taxed ally attacks the hero.\n"
        "situation:\n  players: [Gorrak Bloodfist, Bragvi Stormstein]\n  turn_player: P2\n"
        "  play:\n    P2: [Reluctant Conscript]\n  resources: {P1: 1, P2: 1}\n"
        "script:\n  - P2 proposes Reluctant Conscript attacks P1's Gorrak Bloodfist\n"
        "  - everyone passes\n  - everyone passes\n  - everyone passes\n"
        "expect:\n  damage: {P1's Gorrak Bloodfist: 2}\n"))
    agreed = runner.run_file(path)
    assert agreed.status == "pass" and agreed.model.startswith("agrees over"), (agreed.detail, agreed.model)
    monkeypatch.setattr(engine.wowtcg.combat, "attack_tax", lambda o: 0)
    broken = runner.run_file(path)
    assert broken.status == "fail", broken.detail
    assert "the model's reading of \"P2 proposes" in broken.detail and "resources_exhausted: model (0, 1), engine (0, 0)" in broken.detail, broken.detail
    assert "600.3" in broken.detail, broken.detail


def test_an_ally_whose_atk_changes_during_a_step_ends_the_following(tmp_path: Path) -> None:
    """Tracker Gallen's ATK counts his controller's allies (CR7.4 704): each step is
    checked on a board with the ATK he has, and a step in which it changes (an ally
    joins) is one the model, whose stats are constants, does not follow."""
    path = _scenario(tmp_path, "gallen.yaml", (
        "name: Gallen gains a friend\nrules: [\"CR7.4 704\"]\nsource: \"own: CR7.4 704\"\nsummary: An ally joins Gallen.\n"
        "situation:\n  players: [Bragvi Stormstein, Gorrak Bloodfist]\n  play:\n    P1: [Tracker Gallen]\n"
        "  hands:\n    P1: [Ashen Recruit]\n  resources: {P1: 3}\n"
        "script:\n  - {player: P1, kind: play, card: Ashen Recruit}\n  - everyone passes\n"
        "expect:\n  cards: {P1's Tracker Gallen: {atk: 0}}\n"))
    result = runner.run_file(path)
    assert result.status == "pass", result.detail
    assert result.model == ("not covered (Tracker Gallen's atk changes from 1 to 2 during a step: "
                            "the model's stats are constants of its board) after 2 agreeing steps"), result.model


def test_a_card_whose_one_power_is_triggered_is_followed_until_it_triggers() -> None:
    """Brigg is an ally with his stats to the model until his trigger waits (409.5):
    against an undamaged ally it never does, and the game is followed to the end;
    against a damaged one the model stops there, naming him."""
    results = runner.run_cases(ROOT / "scenarios" / "wowtcg" / "rules" / "CR7.4-703.4-brigg-judges-the-ally-before-his-damage.yaml")
    assert [r.status for r in results] == ["pass", "pass"], [r.detail for r in results]
    undamaged, damaged = (r.model for r in results)
    assert undamaged.startswith("agrees over"), undamaged
    assert damaged.startswith("not covered (Brigg's power triggers: the model's chain holds no triggered effects (409.5)) after "), damaged


def test_a_card_the_model_lacks_stops_the_following_only_once_it_is_played() -> None:
    """The model counts cards in hand by kind and cost (408): Fireball held in hand
    leaves an Arcane Missiles game followed to its end; played, it is named.
    Emberward Sentinel (no fire damage, 404.5) is followed while no damage the
    model deals is fire: Fireball is no spell of the model's board."""
    fire, arcane = runner.run_cases(ROOT / "scenarios" / "wowtcg" / "rules" / "404.5-no-fire-packet-for-a-fire-immune-ally.yaml")
    assert (fire.status, arcane.status) == ("pass", "pass"), (fire.detail, arcane.detail)
    assert fire.model == "not covered (cards the model does not abstract are played or enter play: Fireball)", fire.model
    assert arcane.model.startswith("agrees over"), arcane.model


def test_an_ally_immune_to_a_damage_type_is_not_covered_beside_damage_of_that_type(tmp_path: Path) -> None:
    """Goblin Sapper deals fire combat damage: the model, whose damage has no type,
    would deal it to Emberward Sentinel, so the game is not covered, naming her."""
    path = _scenario(tmp_path, "fire.yaml", (
        "name: Fire beside a fire-immune ally\nrules: [\"404.5\"]\nsource: \"own: 404.5\"\nsummary: Sapper against Sentinel.\n"
        "situation:\n  players: [Gorrak Bloodfist, Bragvi Stormstein]\n  play:\n    P1: [Goblin Sapper]\n    P2: [Emberward Sentinel]\n"
        "script:\n  - P1 passes\n"
        "expect:\n  priority: P2\n"))
    result = runner.run_file(path)
    assert result.status == "pass", result.detail
    assert result.model == "not covered (cards the model does not abstract: Emberward Sentinel)", result.model


def test_a_prelude_is_followed_where_the_model_waits_before_it() -> None:
    """Green Whelp Armor's prelude stops at the armor's choice, which the model
    folds into combat (304.2): the model follows from before the prelude, and its
    trigger (409.5) is named where it acts."""
    results = runner.run_cases(ROOT / "scenarios" / "wowtcg" / "rules" / "407.3b-green-whelp-armor-sends-the-attacker-home.yaml")
    assert [r.status for r in results] == ["pass"] * 3, [r.detail for r in results]
    paid, unpaid, prevented = (r.model for r in results)
    for m in (paid, unpaid):
        assert m.startswith("not covered (Green Whelp Armor's power triggers: the model's chain holds no triggered effects (409.5)) after "), m
    assert prevented.startswith("agrees over"), prevented


def test_a_card_in_hand_the_model_lacks_that_cannot_be_played_is_no_disagreement(tmp_path: Path) -> None:
    """The model owes a play of any kind of card its player can pay for (408); with
    Polymorph (no ally to target, 400.1a) the only such card, the engine rightly
    offers none, and the model says it can't tell rather than disagree."""
    path = _scenario(tmp_path, "polymorph.yaml", (
        "name: Polymorph with no ally to aim at\nrules: [\"409.2\"]\nsource: \"own: 409.2\"\nsummary: Nobody to polymorph.\n"
        "situation:\n  players: [Gorrak Bloodfist, Bragvi Stormstein]\n  hands:\n    P1: [Polymorph]\n  resources: {P1: 3}\n"
        "script:\n  - P1 passes\n"
        "expect:\n  priority: P2\n"))
    result = runner.run_file(path)
    assert result.status == "pass", result.detail
    assert result.model == ("not covered (P1 holds Polymorph, which the model does not abstract, and may play no non-instant "
                            "card here: the model plays any card of a kind he can pay for)"), result.model


def test_a_totem_is_the_models_totem_that_defends_and_never_attacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """306.3a: Searing Totem is observed among the allies as a totem, and the model's
    character for it is one: its proposal as an attacker is refused in both, and its
    combat as a defender is followed step by step.  Read as a plain 0-ATK ally, the
    model would let it attack, and the refusal is caught."""
    path = ROOT / "scenarios" / "wowtcg" / "rules" / "306.3a-a-totem-defends-but-never-attacks.yaml"
    refused, attacked = runner.run_cases(path)
    assert (refused.status, attacked.status) == ("pass", "pass"), (refused.detail, attacked.detail)
    assert refused.model == "agrees over 0 steps and 1 refusals", refused.model
    assert attacked.model.startswith("agrees over"), attacked.model
    plain = agreement.wowtcg.abstraction._character
    monkeypatch.setattr(agreement.wowtcg.abstraction, "_character", lambda *a, **k: plain(*a[:7]))
    agreement.wowtcg.abstraction._view.cache_clear()
    try:
        (wrong, _) = runner.run_cases(path)
    finally:
        agreement.wowtcg.abstraction._view.cache_clear()
    assert wrong.status != "pass" and "propose_combat[" in wrong.detail, (wrong.status, wrong.detail, wrong.model)


def test_a_card_whose_one_power_is_a_payment_power_the_model_lacks_is_followed_until_it_is_used() -> None:
    """CR7.4 701: the model's power links are Barnathrum's doubling, Boris's flip and
    Inventor's Focal Sword's move.  Kaal Soulreaper is an ally to it while his power
    is only offered (the offer is no choice the model reads); where P1 uses it, the
    following stops, naming him.  The Focal Sword's move of an Entangling Roots
    changes which ally is held exhausted, and the following stops there instead."""
    rules = ROOT / "scenarios" / "wowtcg" / "rules"
    kaal = runner.run_cases(rules / "CR7.4-703.3c-kaal-soulreaper-and-watcher-mal-wi.yaml")
    assert all(r.status == "pass" for r in kaal), [r.detail for r in kaal]
    assert all(r.model.startswith("not covered (Kaal Soulreaper's payment power is used: the model's power links are a doubling, "
                                  "a hero's flip that heals, and a weapon's move of an attachment (CR7.4 701.2))") for r in kaal), [r.model for r in kaal]
    (moved,) = runner.run_cases(rules / "409.3-what-goes-on-the-chain.yaml")
    assert moved.status == "pass" and moved.model.startswith(
        "not covered (Ashen Recruit's held exhausted changes from True to False during a step"), moved.model


def test_a_weapons_power_that_moves_an_attachment_is_a_power_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """CR7.4 701.2: Inventor's Focal Sword's "(2), exhaust it" is the model's
    use_power on the weapon; with no other ally for the Roots its link changes
    nothing the model tracks (400.4a example), and the ruling is followed to its
    end.  Read as costing nothing, the payment is caught."""
    path = ROOT / "scenarios" / "wowtcg" / "seed-000" / "400.4a-entangling-roots-stays-without-another-ally.yaml"
    (stays,) = runner.run_cases(path)
    assert stays.status == "pass" and stays.model.startswith("agrees over"), (stays.detail, stays.model)
    read = agreement.wowtcg.builtin.payment_power
    monkeypatch.setattr(agreement.wowtcg.builtin, "payment_power", lambda card: read(card) and {**read(card), "cost": 0})
    (free,) = runner.run_cases(path)
    assert free.status != "pass" and "resources_exhausted: model" in free.detail, free.detail


def test_a_heros_flip_is_a_power_link_used_once_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """301.2, CR7.4 701.1: Boris flips on his own turn, once a game, for an X the
    model does not count, and his link heals, which it does not track; both rulings
    are followed to their end.  Observed as never flipped, the model would let him
    flip again where the engine offers no such power, and says so."""
    rules, seed = ROOT / "scenarios" / "wowtcg" / "rules", ROOT / "scenarios" / "wowtcg" / "seed-000"
    (paid,) = runner.run_cases(rules / "406.2-boris-flips-for-an-x-he-can-pay.yaml")
    (zero,) = runner.run_cases(seed / "406.2-boris-flipped-for-zero-heals-nothing.yaml")
    assert paid.status == zero.status == "pass", (paid.detail, zero.detail)
    assert paid.model.startswith("agrees over") and zero.model.startswith("agrees over"), (paid.model, zero.model)
    observe = agreement.wowtcg.follow.observe

    def unflipped(st):
        obs = observe(st)
        return {**obs, "players": [{**pl, "hero": {**pl["hero"], "flipped": False} if "flipped" in pl["hero"] else pl["hero"]}
                                   for pl in obs["players"]]}

    monkeypatch.setattr(agreement.wowtcg.follow, "observe", unflipped)
    (again,) = runner.run_cases(rules / "406.2-boris-flips-for-an-x-he-can-pay.yaml")
    assert again.status != "pass" and "use_power_x[P1 Boris Brightbeard" in again.detail, again.detail


def test_barnathrums_power_is_a_power_link_on_the_models_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """CR7.4 701.2: Barnathrum's "(1), exhaust him" is the model's use_power, which
    pays, exhausts him and puts a power link on the chain; as it resolves it doubles
    the damage on each character (404.3 example).  Its offer is a choice the model
    reads (the offer-only case agrees too); read with no cost, the payment is caught."""
    rules, seed = ROOT / "scenarios" / "wowtcg" / "rules", ROOT / "scenarios" / "wowtcg" / "seed-000"
    (offered,) = runner.run_cases(rules / "CR7.4-701.2-a-power-is-used-from-play-by-its-controller.yaml")
    (used,) = runner.run_cases(seed / "404.3-barnathrum-puts-damage-on.yaml")
    assert offered.status == used.status == "pass", (offered.detail, used.detail)
    assert offered.model.startswith("agrees over 1 steps") and used.model.startswith("agrees over"), (offered.model, used.model)
    read = agreement.wowtcg.builtin.payment_power
    monkeypatch.setattr(agreement.wowtcg.builtin, "payment_power", lambda card: read(card) and {**read(card), "cost": 0})
    (free,) = runner.run_cases(seed / "404.3-barnathrum-puts-damage-on.yaml")
    assert free.status != "pass" and "resources_exhausted: model" in free.detail, free.detail


def test_a_ring_that_adds_to_an_attacking_hero_is_followed_until_he_attacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """407.3c: Mason's Fraternity Ring is an item to the model while its hero defends;
    proposed as an attacker, his +1 ATK is one the model's hero lacks, so the
    following stops there, and without that stop the model disagrees on the damage."""
    path = ROOT / "scenarios" / "wowtcg" / "seed-000" / "407.3c-mason-ring-and-annihilator-deal-four-unpreventable.yaml"
    attacking, defending = runner.run_cases(path)
    assert (attacking.status, defending.status) == ("pass", "pass"), (attacking.detail, defending.detail)
    assert attacking.model.startswith("not covered (P1's hero attacks with Mason's Fraternity Ring in play"), attacking.model
    assert defending.model.startswith("agrees over"), defending.model
    monkeypatch.setattr(agreement.wowtcg.follow, "ring_attacks", lambda st, action: "")
    unstopped, _ = runner.run_cases(path)
    assert unstopped.status != "pass" and "damage: model" in unstopped.detail, (unstopped.status, unstopped.detail)


def test_a_non_instant_ability_that_exhausts_and_draws_is_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Charge is the board's 'exhaust and draw' ability: as it resolves its target
    exhausts and its caster draws (105.1, 413.4a), or loses from an empty deck
    (409.6c), or, its target gone, it is interrupted (CR7.4 709.2a); each case is
    followed to its end.  Read as a heal the model leaves untracked, the exhaustion
    and the draw are caught."""
    path = ROOT / "scenarios" / "wowtcg" / "rules" / "CR7.4-709.2a-charge-draws-unless-interrupted.yaml"
    results = runner.run_cases(path)
    assert [r.status for r in results] == ["pass"] * 3, [r.detail for r in results]
    assert all(r.model.startswith("agrees over") for r in results), [r.model for r in results]
    read = agreement.wowtcg.builtin.ability
    monkeypatch.setattr(agreement.wowtcg.builtin, "ability", lambda card: read(card) and {**read(card), "effect": "heal"})
    resolved, _, decked = runner.run_cases(path)
    assert resolved.status != "pass" and "exhausted: model" in resolved.detail and "hand_" in resolved.detail, resolved.detail
    assert decked.status != "pass" and "game_over" in decked.detail, decked.detail


def test_a_non_instant_heal_is_followed_with_its_damage_left_untracked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shelter the Flock and Soothing Touch heal (406.2), which the model does not
    track: their link leaves the chain (resolve_ability[heal]) and the harness
    lets damage change there, and only there."""
    seed, rules = ROOT / "scenarios" / "wowtcg" / "seed-000", ROOT / "scenarios" / "wowtcg" / "rules"
    (shelter,) = runner.run_cases(seed / "406.2-hide-of-the-wild-adds-one-to-shelter-the-flock.yaml")
    (interrupted,) = runner.run_cases(rules / "CR7.4-709.2a-a-card-whose-only-target-is-gone-is-interrupted.yaml")
    assert shelter.status == interrupted.status == "pass", (shelter.detail, interrupted.detail)
    assert shelter.model.startswith("agrees over") and interrupted.model.startswith("agrees over"), (shelter.model, interrupted.model)
    framed = agreement.wowtcg.abstraction.frame
    monkeypatch.setattr(agreement.wowtcg.abstraction, "frame",
                        lambda edge, pre, m: frozenset() if edge.name.startswith("resolve_ability[heal]") else framed(edge, pre, m))
    (unframed,) = runner.run_cases(seed / "406.2-hide-of-the-wild-adds-one-to-shelter-the-flock.yaml")
    assert unframed.status != "pass" and "damage: model" in unframed.detail, unframed.detail


def test_chain_lightnings_further_packets_are_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chain Lightning is a spell with further packets chosen as it resolves, never
    to a totem (306.3a example): both cases are followed to their end, and read as
    a spell of one packet the model disagrees on the damage.  Where Ironforge
    Guards, whose health counts the others, die in batches (409.6b example), the
    following stops, naming why."""
    seed = ROOT / "scenarios" / "wowtcg" / "seed-000"
    path = seed / "306.3a-chain-lightning-targets-a-totem-but-chooses-no-totem.yaml"
    results = runner.run_cases(path)
    assert [r.status for r in results] == ["pass"] * 2, [r.detail for r in results]
    assert all(r.model.startswith("agrees over") for r in results), [r.model for r in results]
    (guards,) = runner.run_cases(seed / "409.6b-chain-lightning-kills-guards-in-three-batches.yaml")
    assert guards.status == "pass" and guards.model.startswith("not covered (Ironforge Guards leaves play during a step"), guards.model
    read = agreement.wowtcg.builtin.spell
    monkeypatch.setattr(agreement.wowtcg.builtin, "spell", lambda card: read(card) and {k: v for k, v in read(card).items() if k != "further"})
    single, _ = runner.run_cases(path)
    assert single.status != "pass" and "damage: model" in single.detail, single.detail


def test_an_ally_brought_back_from_the_graveyard_resolves_as_an_ally_entering_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resurrection (306.3a example): the ally it brings back enters play as the
    model's resolve_ally puts one there, ready and new (302.1, 105.1); one it can't
    pay for stays, and the link resolves with nothing entering.  An ally entering
    exhausted (105.1 broken) is caught by the model at that step."""
    path = ROOT / "scenarios" / "wowtcg" / "seed-000" / "306.3a-resurrection-targets-no-totem.yaml"
    results = runner.run_cases(path)
    assert [r.status for r in results] == ["pass"] * 2, [r.detail for r in results]
    assert all(r.model.startswith("agrees over") for r in results), [r.model for r in results]
    monkeypatch.setattr(GameState, "enter_play", _enters_exhausted(GameState.enter_play))
    broken, _ = runner.run_cases(path)
    assert broken.status == "fail" and "the model's reading of 'P2 passes'" in broken.detail, broken.detail
    assert "nearest model path resolve_ally[P1 Ashen Recruit" in broken.detail and "exhausted: model" in broken.detail, broken.detail


def test_an_ally_held_by_entangling_roots_stays_exhausted_in_the_models_ready_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entangling Roots on an ally is that ally's "doesn't ready" to the model
    (Character.held_exhausted; its text over 501.1a, 103.1): the ready step that
    readies the rest of its controller's cards is followed.  Observed without the
    hold, the model readies the ally and disagrees with the engine."""
    path = ROOT / "scenarios" / "wowtcg" / "rules" / "501.1a-the-ready-step-readies-the-turn-players-cards.yaml"
    (held,) = runner.run_cases(path)
    assert held.status == "pass" and held.model.startswith("agrees over"), (held.detail, held.model)
    observe = agreement.wowtcg.follow.observe

    def unheld(st):
        obs = observe(st)
        return {**obs, "players": [{**pl, "allies": [{k: v for k, v in a.items() if k != "held_exhausted"} for a in pl["allies"]]}
                                   for pl in obs["players"]]}

    monkeypatch.setattr(agreement.wowtcg.follow, "observe", unheld)
    (wrong,) = runner.run_cases(path)
    assert wrong.status != "pass" and "exhausted: model" in wrong.detail and "501.1a" in wrong.detail, wrong.detail


def test_mind_control_moves_the_ally_to_its_casters_party_new(monkeypatch: pytest.MonkeyPatch) -> None:
    """401.3, 302.2: Mind Control moves the ally to its caster's party, the same
    card in a slot of each party, new there; P2 then can't propose it (002's
    601.2a note), in the model too.  On a totem, no ally, it falls off and the
    totem comes back new (409.6d example).  Observed as not new after the move,
    the model disagrees."""
    path = ROOT / "scenarios" / "wowtcg" / "seed-002" / "601.2a-a-controlled-ally-cannot-attack-this-turn.yaml"
    (taken,) = runner.run_cases(path)
    (totem,) = runner.run_cases(ROOT / "scenarios" / "wowtcg" / "seed-000" / "409.6d-mind-control-on-a-totem-falls-off.yaml")
    assert taken.status == totem.status == "pass", (taken.detail, totem.detail)
    assert taken.model == "agrees over 3 steps and 1 refusals" and totem.model.startswith("agrees over"), (taken.model, totem.model)
    observe = agreement.wowtcg.follow.observe

    def never_new(st):
        obs = observe(st)
        return {**obs, "players": [{**pl, "allies": [{**a, "new": False} for a in pl["allies"]]} for pl in obs["players"]]}

    monkeypatch.setattr(agreement.wowtcg.follow, "observe", never_new)
    (wrong,) = runner.run_cases(path)
    assert wrong.status != "pass" and "take control of P1 Stonehide Defender" in wrong.detail and "fresh: model" in wrong.detail, wrong.detail
