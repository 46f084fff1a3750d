"""``chainproof lint`` and ``chainproof diff`` end to end: the findings on the
shipped rules, the known-findings file, the JSON shape and the exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from chainproof import source_lint, text_lint
from chainproof.cli import main
from chainproof.games import GAME_NAMES
from chainproof.lint_cli import _print_lint
from chainproof.linting import KINDS, Finding, Lint, default_known_file, load_known
from model import wowtcg

FIELDS = {
    "game", "kind", "key", "rules", "summary", "transcript", "other_transcript", "known", "note", "scenario", "scenario_note",
    "places", "sources", "reading", "parted", "board", "woken_on", "setup",
}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where ``lint_all`` writes its SARIF log and findings pages."""
    return tmp_path_factory.mktemp("lint")


@pytest.fixture(scope="module")
def lint_all(reports: Path) -> dict:
    """``chainproof lint --json`` for every game in a process of its own, as a
    user runs it, with its SARIF log and findings pages: about 70 s, the one
    lint of the shipped rules in the suite.  Every game in one process, as
    ``lint --markdown docs`` writes the committed pages.
    Run inside this process (CliRunner) it took much longer, most of the
    difference system time in the portfolio's workers, which fork from deep
    in pytest's stack and there map and unmap CPython 3.11's 16 KiB
    frame-stack chunks on millions of calls."""
    result = subprocess.run(
        [
            sys.executable, "-c", "from chainproof.cli import main; main()", "lint", "--json",
            "--sarif", str(reports / "lint.sarif"), "--markdown", str(reports), "--junit", str(reports / "lint.xml"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def linted(lint_all: dict) -> dict:
    """WoW's findings and checks in that run."""
    return {k: [x for x in lint_all[k] if x["game"] == "wowtcg"] for k in ("findings", "checks")}


def test_every_finding_is_known_and_well_formed(lint_all, linted):
    assert lint_all["summary"] == {"findings": len(lint_all["findings"]), "unknown": 0}
    findings = linted["findings"]
    assert findings
    for f in findings:
        assert set(f) == FIELDS
        assert f["kind"] in KINDS and f["known"] is True and f["note"]
        # A textual finding's rules are the text's own numbers: a dangling citation's is in no registry.
        assert f["rules"] and (f["kind"] in text_lint.KINDS or all(r in wowtcg.REGISTRY for r in f["rules"]))
    # Grouped by kind, in the order of KINDS.
    assert [KINDS.index(f["kind"]) for f in findings] == sorted(KINDS.index(f["kind"]) for f in findings)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_known_file_lists_nothing_lint_no_longer_finds(lint_all, game: str):
    """At default bounds; an entry with ``bounds`` is a finding of a larger table, not of these."""
    known = load_known(default_known_file(game))
    found = {f["key"] for f in lint_all["findings"] if f["game"] == game}
    assert {k for k in known.notes if k not in known.bounds} == found
    assert not found & set(known.bounds)


def test_the_seeds_rules_are_free_of_deadlock_and_clashes_for_games_of_any_length(linted):
    checks = {c["query"]: c for c in linted["checks"]}
    assert checks["no_deadlock"]["verdict"] == "proved"
    agreement = [c for q, c in checks.items() if q.startswith("rulings_agree[") and " under " not in q]
    assert len(agreement) == len(wowtcg.build().rulings.questions) and all(c["verdict"] == "proved" for c in agreement)


def test_600_2_without_600_3_is_a_conflict_named_by_both_rules(linted):
    (conflict,) = [f for f in linted["findings"] if f["kind"] == "conflict"]
    assert conflict["key"] == "conflict:bound_to_attack:600.2+600.3:attack-tax@600.2-without-600.3"
    assert set(conflict["rules"]) == {"600.2", "600.3"}
    assert "no precedence rule decides" in conflict["summary"]
    # The shortest game: into P1's first action phase, where the prowler could attack and he could pay.
    t = conflict["transcript"]
    assert t["final"]["location"] == "action_phase" and len(t["steps"]) == 4


def test_the_rules_only_a_larger_table_uses_are_dead_at_two_players(linted):
    dead = {f["key"] for f in linted["findings"] if f["kind"] in ("dead-edge", "dead-rule")}
    assert dead == {"dead-edge:decked_turn_passes", "dead-edge:turn_player_left", "dead-rule:assumed:turn-player-leaves"}
    # Edges that only the bounds keep unused are checked, not reported.
    checks = {c["query"]: c["verdict"] for c in linted["checks"]}
    assert checks["never_enabled[discard[quest]]"].startswith("not enabled within the bounds")


def test_each_shipped_variant_is_a_finding_with_both_games(linted):
    """A variant that aliases a source reading is found as that source's clash;
    one that brings a board of its own (405.3-as-written) is still diffed there,
    and the variants that add an effect or drop a precedence stay patches."""
    variants = {f["key"].removeprefix("variant:"): f for f in linted["findings"] if f["kind"] == "variant"}
    aliases = {n: v.source_reading for n, v in wowtcg.VARIANTS.items() if v.source_reading and v.board is None}
    assert set(aliases) == {
        "basic-chain-priority", "600.2-chinese", "basic-in-combat", "basic-one-weapon-per-combat",
        "CR7.4-strikes-as-roles-begin", "CR7.4-603.2-checks-in-combat",
    }
    assert set(variants) == set(wowtcg.VARIANTS) - set(aliases)
    assert {n for n, v in wowtcg.VARIANTS.items() if v.patch} == {"602.3b-english", "602.3b-chinese"}
    for f in variants.values():
        assert f["transcript"]["steps"] and f["other_transcript"]["steps"]
    clashes = {f["reading"]: f for f in linted["findings"] if f["kind"] == "source-clash"}
    for reading in aliases.values():
        assert clashes[reading]["parted"]["model"]["steps"] and clashes[reading]["parted"]["reading"]["steps"]


def test_piped_checks_are_one_line_each_with_their_verdict(capsys):
    from chainproof.linting import Check

    _print_lint(Lint(checks=[Check("hota", "gap[loses_game]", "some text answers in every state reached within the bounds", "explicit", 0)]))
    out = capsys.readouterr().out
    assert "hota  explicit  gap[loses_game]: some text answers in every state reached within the bounds" in out.splitlines()


def test_plain_output_marks_known_and_new_findings_with_their_notes(capsys):
    """The plain report: each finding marked [known] (with the known file's note) or [NEW], and the count of unknown ones."""
    found = Lint(
        findings=[
            Finding("wowtcg", "variant", "variant:600.2-without-600.3", ("600.2",), "the obligation clashes", known=False),
            Finding("wowtcg", "variant", "variant:basic-chain-priority", ("409.4a",), "the basic rules' chain", known=True, note="read"),
        ]
    )
    _print_lint(found)
    out = capsys.readouterr().out
    assert "[NEW] wowtcg variant: variant:600.2-without-600.3" in out
    assert "[known] wowtcg variant: variant:basic-chain-priority" in out
    assert "known: read" in out
    assert "2 findings (" in out and "; 1 not known" in out


def test_riftbound_damage_rules_never_strand_the_assigner_and_only_caitlyn_with_tank_clashes(lint_all):
    """damage.*: lint proves that every configuration up to 5 units (might up
    to 6) has a legal assignment, and finds one minimal pattern of requirements
    that exclude each other: the seed's Caitlyn with Tank beside a plain unit."""
    findings = [f for f in lint_all["findings"] if f["game"] == "riftbound"]
    assert len([f for f in findings if f["kind"] in ("no-assignment", "exclusion")]) == 1
    checks = {c["query"]: c for c in lint_all["checks"] if c["game"] == "riftbound"}
    assert checks["a legal damage assignment exists (up to 5 units, might up to 6)"]["verdict"] == "proved"
    assert checks["requirements that exclude each other (up to 5 units, might up to 6)"]["verdict"] == "35 exclusive patterns, 1 minimal"
    (finding,) = [f for f in findings if f["kind"] == "exclusion"]
    assert finding["key"] == "exclusion:none tank&last"
    assert "damage.exclusive" in finding["rules"] and "damage.requirements" in finding["rules"]
    assert finding["key"] in load_known(default_known_file("riftbound")).notes


def test_a_finding_the_known_file_lacks_makes_lint_exit_1(tmp_path: Path, monkeypatch):
    """Whatever lint finds, a key the known file does not list is marked not
    known in the JSON, and the exit status is 1."""
    from chainproof import linting

    def one_finding(games, bounds, budget, known, max_pairs, advance):
        f = Finding("hota", "gap", "gap:somewhere", ("101.1",), "no text answers")
        f.known = f.key in known.get("hota", {})
        return Lint(findings=[f])

    monkeypatch.setattr(linting, "run", one_finding)
    known = tmp_path / "known.yaml"
    known.write_text("known:\n  - key: gap:elsewhere\n    note: read\n", encoding="utf-8")
    result = invoke("lint", "--game", "hota", "--known", str(known), "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["summary"] == {"findings": 1, "unknown": 1} and data["findings"][0]["known"] is False
    known.write_text("known:\n  - key: gap:somewhere\n    note: read\n", encoding="utf-8")
    assert invoke("lint", "--game", "hota", "--known", str(known), "--json").exit_code == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("known: [\n", "line 2: not valid YAML"),
        ("findings: []\n", "expected a mapping with a list 'known'"),
        ("known:\n  - key: x\n", "entry 1 of 'known' needs a string 'key' and a string 'note'"),
        ("known:\n  - {key: x, note: a}\n  - {key: x, note: b}\n", "entry 2: the key 'x' is listed twice"),
        ("known:\n  - {key: x, note: a, bounds: {players: three}}\n", "entry 1: 'bounds' must map bound names to whole numbers"),
        ("known:\n  - {key: x, note: a, where: here}\n", "entry 1 of 'known': unknown key 'where'"),
    ],
)
def test_a_malformed_known_file_is_bad_input_naming_the_file(tmp_path: Path, text: str, message: str):
    known = tmp_path / "known.yaml"
    known.write_text(text, encoding="utf-8")
    result = invoke("lint", "--known", str(known))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"chainproof: error: {known}") and message in result.stderr
    assert "Traceback" not in result.stderr


def test_diff_prints_both_games_side_by_side_and_exits_1():
    result = invoke("diff", "wowtcg", "602.3b-english", "602.3b-chinese")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "602.3b-english against 602.3b-chinese: they part after 13 steps" in out
    assert "602.3b-english: what changes" in out and "602.3b-chinese: what changes" in out
    assert "combat: 602.3b-english P1 guard vs P2 skirmisher | 602.3b-chinese none" in out


def test_diff_json_and_agreement_exit_0():
    result = invoke("diff", "wowtcg", "seed", "basic-chain-priority", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["divergence"]["steps"] == 7 and data["divergence"]["differences"] == {"priority": {"seed": "P1", "basic-chain-priority": "P2"}}
    agree = invoke("diff", "wowtcg", "602.3b-english", "602.3b-chinese", "--hand", "0", "--turns", "1", "--json")
    assert agree.exit_code == 0, agree.output
    assert json.loads(agree.stdout)["complete"] is True


@pytest.mark.parametrize(
    "args, message",
    [
        (("diff", "wowtcg", "seed", "nope"), "unknown variant 'nope'"),
        (("diff", "chess", "seed", "x"), "unknown game 'chess'"),
        (("diff", "wowtcg", "seed", "seed"), "against itself"),
        (("diff", "wowtcg", "seed", "basic-chain-priority", "--players", "9"), "--players 9 is out of range"),
        (("lint", "--timeout", "0"), "--timeout 0.0 is out of range"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


# -- findings as scenarios the engine replays ---------------------------------------------------

VARIANT_SCENARIOS = Path(__file__).parent.parent / "scenarios" / "wowtcg" / "variants"


@pytest.mark.parametrize("path", sorted(VARIANT_SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_shipped_variant_scenario_is_what_lint_writes_and_the_engine_passes_it(path: Path):
    """`chainproof lint --scenarios scenarios/wowtcg/variants` wrote these files:
    the game on the engine's table where the variant or the source's reading
    parts from the seed, which the engine (the seed's reading) and the model
    both replay."""
    from chainproof.games import get_game
    from chainproof.linting import divergence_scenario
    from scenarios.runner import run_file

    name = path.stem.removeprefix("wowtcg-")
    if name not in wowtcg.VARIANTS:  # a source reading: wowtcg-002zh-may_be_proposed
        name = name.replace("-", "@", 1)
    written = divergence_scenario(get_game("wowtcg"), "seed", name, 100_000)
    assert written.yaml == path.read_text(encoding="utf-8")
    result = run_file(path)
    assert result.status == "pass", result.detail
    assert result.model.startswith("agrees"), result.model


def test_every_variant_the_engine_table_can_show_has_a_scenario():
    """The three without one: 405.3 needs a ranged dual wielder the table
    lacks, and no card of the table must attack if able (600.2, 600.3)."""
    shipped = {p.stem.removeprefix("wowtcg-") for p in VARIANT_SCENARIOS.glob("*.yaml")}
    assert set(wowtcg.VARIANTS) - shipped == {"405.3-as-written", "600.2-without-600.3", "600.2-chinese"}


def test_a_source_clash_on_the_default_board_gets_the_scenario_of_its_reading(tmp_path: Path):
    """T9 (002zh's 601.2): diff of the seed against the source's reading writes
    the engine-table game ending in the proposal 002zh forbids; the engine,
    playing the seed's reading, accepts it, and the model agrees.  A reading
    that parts at the table's very first choice has no game to write."""
    from scenarios.runner import run_file

    out = tmp_path / "zh.yaml"
    result = invoke("diff", "wowtcg", "seed", "002zh@may_be_proposed", "--turns", "1", "--scenario", str(out))
    assert result.exit_code == 1, result.output
    text = out.read_text(encoding="utf-8")
    assert "rules: ['601.2', 601.2b]" in text and "002zh first on may_be_proposed" in text
    assert yaml.safe_load(text)["script"][-1] == "P1 proposes Gorrak Bloodfist attacks P2's Maelen Frostweave"
    ran = run_file(out)
    assert ran.status == "pass" and ran.model.startswith("agrees"), (ran.detail, ran.model)
    first = invoke("diff", "wowtcg", "seed", "002zh@may_propose_now", "--turns", "1", "--scenario", str(tmp_path / "y.yaml"), "--json")
    assert json.loads(first.stdout)["scenario"]["why_not"].startswith("they part at the table's first choice")
    assert not (tmp_path / "y.yaml").exists()


def test_diff_writes_its_game_as_a_scenario(tmp_path: Path):
    from scenarios.runner import run_file

    out = tmp_path / "chain.yaml"
    result = invoke("diff", "wowtcg", "seed", "basic-chain-priority", "--scenario", str(out))
    assert result.exit_code == 1, result.output
    assert f"scenario: {out} (on the engine's table they part after" in result.stdout
    assert run_file(out).status == "pass"
    none = invoke("diff", "wowtcg", "seed", "405.3-as-written", "--scenario", str(tmp_path / "x.yaml"), "--json")
    assert json.loads(none.stdout)["scenario"]["why_not"] == "405.3-as-written needs a board of its own, and the engine's table is fixed"
    assert not (tmp_path / "x.yaml").exists()


def test_plain_output_keeps_bracketed_names():
    """Edge and query names carry brackets ([P1 warhammer]); the tables print them whole."""
    result = invoke("diff", "wowtcg", "seed", "basic-in-combat")
    assert "strike[P1 warhammer]" in result.stdout
    assert "resolve_instant[remove defender from combat]@defend_window" in result.stdout


def test_the_sources_disagreements_are_found_with_their_texts_and_games(linted):
    """No per-finding code: 002zh's 600.3 (T3) and the basic rules' order of
    responding (B2) come from comparing every source's reading with the
    model's, each with the texts' file:line and the game where play parts."""
    by_key = {f["key"]: f for f in linted["findings"]}
    tax = by_key["source-clash:bound_to_attack:002zh"]
    assert "002_747842af486db20b.txt:18" in tax["places"] and "000_93427c41005e332f.txt:447" in tax["places"]
    assert tax["reading"] == "002zh@bound_to_attack"
    assert tax["parted"]["model"]["steps"][-1]["action"] == "pass_priority@action_phase"
    assert "002zh answers yes where the model's reading answers no" in tax["summary"]
    chain = by_key["source-clash:priority_after_resolution:001"]
    assert "001_bb13bfcb78a9b116.txt:227-228" in chain["places"]
    assert chain["parted"]["reading"]["final"]["priority"] != chain["parted"]["model"]["final"]["priority"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_committed_findings_page_is_what_lint_writes(lint_all, reports: Path, game: str):
    """docs/findings-GAME.md is generated (``lint --markdown docs``): a change
    to the rules, the model or the known-findings file that changes it must
    rewrite it."""
    written = (reports / f"findings-{game}.md").read_text(encoding="utf-8")
    assert written == (ROOT / "docs" / f"findings-{game}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_documented_entry_that_names_findings_is_reproduced(lint_all, game: str):
    """Each prefix a documented entry names matches a finding of the default run."""
    keys = [f["key"] for f in lint_all["findings"] if f["game"] == game]
    for d in load_known(default_known_file(game)).documented:
        for prefix in d.shown_by:
            assert any(k.startswith(prefix) for k in keys), (d.id, prefix)


def test_the_sarif_log_places_every_finding_at_a_rule_text_or_registry_entry(lint_all, reports: Path):
    log = json.loads((reports / "lint.sarif").read_text(encoding="utf-8"))
    results = log["runs"][0]["results"]
    assert len(results) == len(lint_all["findings"])
    by_key = {r["properties"]["key"]: r for r in results}
    tax = by_key["source-clash:bound_to_attack:002zh"]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for loc in tax["locations"]}
    assert "seeds/002_747842af486db20b.txt" in uris and "reference/wowtcg-comprehensive-rules-7.4.txt" in uris
    deadlock_free = by_key["dead-edge:turn_player_left"]["locations"][0]["physicalLocation"]
    assert deadlock_free["artifactLocation"]["uri"] == "model/wowtcg/rules.yaml"
    assert all(r["level"] == "note" for r in results)


def test_diff_refuses_a_bound_of_another_game_and_a_missing_folder(tmp_path: Path):
    other = invoke("diff", "hota", "seed", "004", "--combats", "2")
    assert other.exit_code == 2 and "--combats is a bound of wowtcg" in other.output
    missing = invoke("diff", "wowtcg", "seed", "basic-chain-priority", "--scenario", str(tmp_path / "nowhere" / "x.yaml"))
    assert missing.exit_code == 2 and "does not exist" in missing.output
    assert not (tmp_path / "nowhere").exists()


def test_a_ruling_the_board_alone_keeps_asleep_is_woken_one_change_away(lint_all):
    """No per-finding code: the basic rules' elusive ruling (B9) and Rewind
    Portal's (H4) apply nowhere on the default board or table, because no
    elusive character protects and nobody holds the Portal; lint finds the
    nearest board where each applies and compares the texts there."""
    by_key = {f["key"]: f for f in lint_all["findings"]}
    b9 = by_key["source-clash:may_protect:001@P1-guard+elusive"]
    assert b9["board"] == "P1's guard gains elusive"
    assert b9["parted"]["model"]["steps"][-1]["action"] == "protect[P1 guard]"
    assert "001_bb13bfcb78a9b116.txt:200" in b9["places"]
    h4 = by_key["self-clash:token_returns:004:109.5g+rewind-portal@P2+Rewind-Portal"]
    assert h4["board"] == "P2 also has Rewind Portal" and h4["rules"] == ["101.1", "108.4", "109.5g"]
    asleep = by_key["dead-ruling:may_protect:elusive:cant-be-attacked@001"]
    assert "where P1's guard gains elusive, it applies" in asleep["summary"]
    # CR7.4's two ranged weapons need a second ranged weapon as well: two changes away.
    assert "no board one change away lets it apply" in by_key["dead-ruling:may_strike_with_both:405.3:ranged-dual-wield@CR7.4"]["summary"]
    # 602.2b's second protector is kept out by play, not by the board: no board is tried.
    assert "board" not in by_key["dead-ruling:may_protect:602.2b:one-protector@000+002en+002zh+CR7.4"]["summary"]


def test_whether_the_board_alone_rules_a_ruling_out_is_asked_of_z3_over_the_whole_domain():
    from chainproof.games import get_game
    from chainproof.linting import board_rules_out

    game = get_game("wowtcg")
    default = game.machine({})
    q = default.rulings.declared["may_protect"]
    elusive = next(k for k, r in enumerate(q.rulings) if r.id == "elusive:cant-be-attacked")
    one_protector = next(k for k, r in enumerate(q.rulings) if r.id == "602.2b:one-protector")
    nearby = {b.key: b for b in game.nearby_boards(game.resolve({}))}
    woken = game.machine({}, **nearby["P1-guard+elusive"].extra)
    assert board_rules_out(default, "may_protect", elusive, 60_000) is True
    assert board_rules_out(woken, "may_protect", elusive, 60_000) is False
    # A ruling that reads the state can apply somewhere in the domains on any board.
    assert board_rules_out(default, "may_protect", one_protector, 60_000) is False


def test_a_ruling_still_asleep_after_the_searches_allowed_says_the_rest_were_not_searched(monkeypatch):
    """Rewind Portal's ruling needs P2's token maker: on the first board Z3
    lets it apply (P1 holds the Portal) it still never applies.  With one
    search allowed, lint says so, and claims nothing of the boards it skipped.

    Lint's steps for the one question, as ``lint_readings`` takes them for
    every question (a ruling or clash of another question wakes only
    findings of its own question, and is not needed here): its findings on
    the default board, the dead rulings woken, then the quiet clashes."""
    from chainproof import linting
    from chainproof.games import get_game
    from checkers import portfolio

    monkeypatch.setattr(linting, "WAKE_SEARCHES", 1)
    game, question, budget = get_game("hota"), "token_returns", portfolio.Budget()
    settings = game.resolve({})
    bounded = game.machine(settings)
    found = source_lint.lint_sources(bounded, None, 100_000, 100_000, questions=[question])
    dead = [f for f in found.findings if f.ruling is not None]
    boards = linting.Boards(game, settings, 100_000, budget.timeout_ms)
    woken = linting.wake_dead_rulings(game, settings, bounded, dead, budget, [], boards)
    seen = {f.key for f in [*found.findings, *woken]}
    woken += linting.wake_quiet_clashes(game, settings, bounded, found.quiet, seen, budget, 100_000, [], boards)
    by_key = {f.key: f for f in found.findings}
    asleep = by_key["dead-ruling:token_returns:rewind-portal@004"].summary
    assert "the first 1 boards one change away that let it apply never reach it" in asleep
    assert "searched: P1 also has Rewind Portal" in asleep and "the others were not searched" in asleep
    # Its own clash is quiet on the default board, and nothing of its question is claimed on a board.
    assert ("self-clash", question, "004") in found.quiet
    assert not any(f.board for f in [*found.findings, *woken])


def test_a_clash_the_table_allows_but_play_never_reaches_is_searched_a_little_further(lint_all):
    """R8: on Riftbound's default table 003's lines 95-97 and 106 could clash
    (Z3 finds a state of the domains where both speak), but no game within its
    bounds gets there; lint searches its nearby bounds (one more showdown spell
    each, over one turn) and finds the clash, keyed and labelled by them."""
    by_key = {f["key"]: f for f in lint_all["findings"]}
    r8 = by_key["self-clash:conquers:003:conquest+defender-keeps@spells2-turns1-points1"]
    assert r8["board"] == "2 showdown spells each, over one turn, won at 1 point"
    assert r8["places"] == ["003_04f893fe0d5f9a25.txt:95-98", "003_04f893fe0d5f9a25.txt:106"]
    assert r8["transcript"]["steps"][-1]["action"] == "deal_damage"
    wake = {c["query"]: c["verdict"] for c in lint_all["checks"] if c["game"] == "riftbound"}
    assert wake["wake[self-clash:conquers:003]"] == "shows with 2 showdown spells each, over one turn, won at 1 point"
    assert wake["wake[self-clash:attacker:003]"] == "not shown with 2 showdown spells each, over one turn, won at 1 point either"
    # Quiet clashes that the table alone rules out, on the default table and
    # on the table with a third player, are not searched for at all.
    assert wake["wake[self-clash:opposing_unit:003]"] == "no board one change away allows it"


def test_rules_for_more_players_wake_on_the_table_with_a_third_player(lint_all):
    """R2 and R5: Riftbound's multiplayer rulings apply only past two players.
    Z3 says the two-player table alone rules out line 15's ruling, so lint
    searches the table with a third player, once, for it and for the assumed
    attacker-gone ruling that play alone keeps asleep at two.  There line 15
    clashes with lines 30-31 (late arrivals), and no text names the attacker or
    defender once the contesting player has left."""
    by_key = {f["key"]: f for f in lint_all["findings"]}
    r2 = by_key["self-clash:valid_destination:003:late-arrival+no-destination@players3-turns1"]
    assert r2["board"] == "a third player sits at the table, over one turn"
    assert r2["places"] == ["003_04f893fe0d5f9a25.txt:30-31", "003_04f893fe0d5f9a25.txt:15"]
    steps = r2["transcript"]["steps"]
    assert steps[-2]["player"] == "P1" and steps[-2]["action"] == "recall[Tank Guard]"  # his only attacker there
    assert "P3" in r2["transcript"]["initial"]
    for question in ("attacker", "defender"):
        gap = by_key[f"gap:{question}@players3-turns1"]
        assert gap["rules"] == ["assumed:attacker-gone"]
        assert "by the assumption attacker-gone" in gap["summary"]
    woken = by_key["dead-ruling:attacker:attacker-gone@assumed"]["summary"]
    assert "play keeps it from applying on the default board: where a third player sits at the table" in woken
    asleep = by_key["dead-ruling:valid_destination:no-destination@003"]["summary"]
    assert "the default board alone rules it out: where a third player sits at the table" in asleep


def test_whether_a_quiet_clash_can_hold_on_a_board_is_asked_of_z3_over_the_whole_domain():
    from chainproof.games import get_game
    from chainproof.linting import clash_possible

    riftbound, wow = get_game("riftbound"), get_game("wowtcg")
    assert clash_possible(riftbound.machine({}), "self-clash", "conquers", "003", 60_000) is True
    # 000's own rulings of who may be proposed never disagree, whatever the state.
    assert clash_possible(wow.machine({}), "self-clash", "may_be_proposed", "000", 60_000) is False
    # The basic rules' elusive and 602.2b can part on who may protect wherever the question is asked.
    assert clash_possible(wow.machine({}), "source-clash", "may_protect", "001", 60_000) is True


def test_the_junit_report_has_a_passing_case_per_known_finding(lint_all, reports):
    """lint --junit: each finding a test case, per game's suite; all known, so none fails."""
    from xml.etree import ElementTree as ET

    root = ET.parse(reports / "lint.xml").getroot()
    names = [c.get("name") for c in root.iter("testcase")]
    assert sorted(names) == sorted(f["key"] for f in lint_all["findings"])
    assert root.get("failures") == "0" and root.get("errors") == "0"
    assert [s.get("name") for s in root] == ["lint wowtcg", "lint riftbound", "lint hota"]


def test_who_may_protect_is_compared_with_a_third_player_at_the_table(lint_all):
    """B4: at two players the basic rules' 'friendly' protector and 602.2's
    'any opponent of the attacker' are the same player, so the clash the texts
    allow stays quiet; lint's nearby bounds seat a third player for one turn,
    where P3 protects P2's hero under 602.2 and may not under 001."""
    by_key = {f["key"]: f for f in lint_all["findings"]}
    b4 = by_key["source-clash:may_protect:001@players3-turns1"]
    assert b4["board"] == "a third player at the table, over one turn"
    assert "for P3 guard: 001 answers no where the model's reading answers yes" in b4["summary"]
    assert b4["transcript"]["final"]["location"] == "protect_point"
    wake = {c["query"]: c["verdict"] for c in lint_all["checks"] if c["game"] == "wowtcg"}
    assert wake["wake[source-clash:may_protect:001]"] == "shows with a third player at the table, over one turn"


def test_the_readmes_lint_figures_are_the_ones_lint_gives(lint_all, reports):
    """The README's paragraph on what lint finds today quotes its counts: the
    findings per game and the documented entries they reproduce, which the
    findings pages this run wrote state."""
    import re

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    per_game = {g: sum(f["game"] == g for f in lint_all["findings"]) for g in ("wowtcg", "riftbound", "hota")}
    said = re.search(r"it finds (\d+), all known: (\d+) for WoW .*?; (\d+) for Riftbound .*?; (\d+) for HotA", text)
    assert said, "the README no longer says what lint finds"
    assert [int(x) for x in said.groups()] == [len(lint_all["findings"]), per_game["wowtcg"], per_game["riftbound"], per_game["hota"]]

    def reproduced(game: str) -> tuple[int, int]:
        page = (reports / f"findings-{game}.md").read_text(encoding="utf-8")
        n, of = re.search(r"they reproduce (\d+) of the (\d+) entries", page).groups()
        return int(n), int(of)

    wow, rift, hota = reproduced("wowtcg"), reproduced("riftbound"), reproduced("hota")
    claim = re.search(r"They reproduce (\d+) of the (\d+) documented WoW disagreements, (?:all )?(\d+) of Riftbound's(?: (\d+))? and (\d+) of HotA's (\d+)", text)
    assert claim, "the README no longer says how many documented entries lint reproduces"
    n_wow, of_wow, n_rift, of_rift, n_hota, of_hota = claim.groups()
    assert (int(n_wow), int(of_wow)) == wow and (int(n_hota), int(of_hota)) == hota
    assert int(n_rift) == rift[0] and int(of_rift or n_rift) == rift[1]


def test_whether_every_game_can_still_end_is_checked_on_games_of_any_length(lint_all):
    """From every reachable state of Riftbound's any-length model and of HotA's
    whole model, some continuation still ends the game; WoW's is too large to
    search whole, and lint says so rather than claim it."""
    verdicts = {c["game"]: c["verdict"] for c in lint_all["checks"] if c["query"] == "every_game_can_still_end"}
    assert verdicts["riftbound"].startswith("holds: from each of the 49,242 states")
    assert verdicts["hota"].startswith("holds: from each of the")
    assert verdicts["wowtcg"] == "not searched: games of any length reach more than 20,000 states"
    assert not any(f["kind"] == "unending" for f in lint_all["findings"])


def test_a_game_nobody_can_win_is_an_unending_finding_with_its_game():
    """Riftbound without its victory edge: no state can end the game, so the
    first one (the start) is the finding, on the rule of the game-over location."""
    from chainproof.games import get_game
    from chainproof.linting import unending

    game = get_game("riftbound")
    checks = []
    found = unending(game, game.any_length_machine({}).without_edge("game_won"), checks)
    assert [c.verdict for c in checks] == ["violated"]
    assert [(f.kind, f.key, f.rules) for f in found] == [("unending", "unending:action_phase", ("assumed:victory",))]
    assert "nobody can ever win" in found[0].summary and len(found[0].transcript) == 0
    # The seed's model itself, where every state can still end, is lint_all's
    # (test_whether_every_game_can_still_end_is_checked_on_games_of_any_length): searched once in the suite, not again here.


def test_a_source_whose_precedence_ranks_each_yes_against_each_no_is_never_searched_for_its_own_clashes():
    """000's rulings of who may be proposed can't clash (elusive's 'can't'
    beats every grant, 103.2), so source lint asks no state of them; the
    basic rules' two rulings on the ready step rank neither above the other (B17)."""
    from chainproof.games import get_game
    from chainproof.source_lint import _ranked

    book = get_game("wowtcg").machine({}).rulings
    alone = book.only("000")
    assert _ranked(alone, alone.questions["may_be_proposed"])
    alone = book.only("001")
    assert not _ranked(alone, alone.questions["ready_step_readies_all"])


def test_whether_a_question_can_go_unanswered_on_a_board_is_asked_of_z3_over_the_whole_domain():
    from chainproof.games import get_game
    from chainproof.linting import gap_possible

    # Riftbound: some state where a conquest's points are asked has no text that answers (gap:conquest_points).
    assert gap_possible(get_game("riftbound").machine({}), "conquest_points", 60_000) is True
    # HotA's rulings of who loses the game answer it wherever it is asked.
    assert gap_possible(get_game("hota").machine({}), "loses_game", 60_000) is False


def test_a_board_searched_a_little_settles_what_the_whole_search_finds_or_is_searched_whole():
    """Arcane Sanctum (HotA, P1 holds it) wakes 108.3 and 'silenced' within
    the first levels, where 004 alone clashes with itself; no gap can hold
    there (Z3), so the short search serves and reports what the whole search
    does.  Asked also of 104.3b, which needs Mind Tether and so never applies
    there, the board is searched whole."""
    from chainproof.games import get_game
    from chainproof.linting import Boards

    game = get_game("hota")
    settings = game.resolve({})
    board = next(b for b in game.nearby_boards(settings) if b.key == "P1+Arcane-Sanctum")
    question = "provides_attribute_value"
    boards = Boards(game, settings, 64_000, 60_000)
    machine = boards.machine(board)
    short = boards.lint_sources(board, [question], [(question, 0), (question, 1)])
    assert not boards.searched(board).complete
    whole = source_lint.lint_sources(machine, None, 64_000, 64_000, questions=[question])
    assert whole.complete and boards.searched(board).states < whole.states
    assert [(f.key, f.summary, f.transcript) for f in short.findings] == [(f.key, f.summary, f.transcript) for f in whole.findings]
    assert [f.kind for f in short.findings] == ["self-clash"]
    assert short.applies_at == whole.applies_at
    again = Boards(game, settings, 64_000, 60_000)
    asleep = again.lint_sources(board, [question, "loses_game"], [(question, 0), ("loses_game", 1)])
    assert again.searched(board).complete and again.searched(board).states == whole.states
    assert ("loses_game", 1) not in asleep.applies_at
