"""``chainproof campaign``: a regression matrix run as Dask tasks, each result
kept in SQLite as it arrives; interrupted runs resume, killed workers are
survived, a stored run is the baseline of the next.

One two-worker local cluster, started by the campaign's own code
(``campaign.cluster``), serves the module; the command reaches it with
``--scheduler``.  The cells are small ones of every kind but lint (whose
smallest run takes a quarter of a minute): a property proved and the same
property violated under a reading of the rules, on a one-turn WoW table;
HotA's scenarios; two short HotA conformance runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from chainproof import campaign
from chainproof.cli import main
from chainproof.games import GAME_NAMES
from tests.test_hostile_inputs import REASONS, YAML_FILES, refused_in_one_line

CAMPAIGN = """\
verify:
  - games: [wowtcg]
    properties: [turn_player_first]
    readings: [seed, basic-chain-priority]
    bounds: [{turns: 1, allies: 0}]
    methods: [explicit]
  - games: [wowtcg]
    properties: turn_player_first
    bounds: [{turns: 1, allies: 0}]
scenarios:
  - games: [hota]
conform:
  - games: [hota]
    seeds: [0, 1]
    examples: 3
"""
KEYS = [
    "verify:wowtcg:turn_player_first:reading=seed:turns=1,allies=0:method=explicit",
    "verify:wowtcg:turn_player_first:reading=basic-chain-priority:turns=1,allies=0:method=explicit",
    "verify:wowtcg:turn_player_first:reading=seed:turns=1,allies=0:method=portfolio",
    "scenarios:hota",
    "conform:hota:seed=0:examples=3",
    "conform:hota:seed=1:examples=3",
]
#: The one cell that fails: under the basic rules' reading the turn player does not get priority after a resolution.
VIOLATED = KEYS[1]


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def client():
    with campaign.cluster(2, None) as client:
        yield client


@pytest.fixture(scope="module")
def address(client) -> str:
    return client.scheduler.address


@pytest.fixture(scope="module")
def campaign_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("campaign") / "small.yaml"
    path.write_text(CAMPAIGN, encoding="utf-8")
    return path


@dataclass(frozen=True)
class KilledRun:
    db: Path
    #: How often each cell's result was delivered.
    delivered: Counter
    #: The cells the killed worker held.
    lost: tuple[str, ...]


@pytest.fixture(scope="module")
def killed_run(client, campaign_file: Path, tmp_path_factory: pytest.TempPathFactory) -> KilledRun:
    """The campaign run with one worker process killed once the first result is in, while the others run."""
    defined = campaign.load(campaign_file)
    by_task = {campaign.task_key(c): c.key for c in defined.cells}
    db = tmp_path_factory.mktemp("killed") / "small.db"
    store = campaign.Store(db, defined)
    delivered: Counter = Counter()
    lost: list[str] = []

    def kill_a_busy_worker(cell: campaign.Cell, done: campaign.Finished) -> None:
        delivered[cell.key] += 1
        if sum(delivered.values()) == 1:
            address, tasks = next((a, t) for a, t in sorted(client.processing().items()) if t)
            pid = client.run(os.getpid, workers=[address])[address]
            os.kill(pid, signal.SIGKILL)
            lost.extend(by_task[t] for t in tasks)

    try:
        campaign.execute(client, defined.cells, store, kill_a_busy_worker)
    finally:
        store.close()
    return KilledRun(db, delivered, tuple(lost))


def test_a_killed_worker_costs_no_cell(killed_run: KilledRun) -> None:
    assert killed_run.lost, "no cell was running on the killed worker"
    assert killed_run.delivered == Counter(KEYS), "every cell delivered exactly once"
    rows = campaign.read_rows(killed_run.db)
    assert sorted(rows) == sorted(KEYS)
    outcomes = {key: row.outcome for key, row in rows.items()}
    assert outcomes == {key: campaign.FAIL if key == VIOLATED else campaign.PASS for key in KEYS}
    assert [x["verdict"] for x in rows[VIOLATED].result["results"]] == ["violated"]
    assert rows[KEYS[2]].verdict == "1 proved"


def test_a_cell_gives_the_same_result_on_the_cluster_as_in_this_process(killed_run: KilledRun, campaign_file: Path) -> None:
    stored = campaign.read_rows(killed_run.db)
    cells = {c.key: c for c in campaign.load(campaign_file).cells}
    conform = campaign.run_cell(cells["conform:hota:seed=1:examples=3"]).result
    assert conform["coverage"] == stored["conform:hota:seed=1:examples=3"].result["coverage"]
    assert conform["steps"] == stored["conform:hota:seed=1:examples=3"].result["steps"]
    (violated,) = campaign.run_cell(cells[VIOLATED]).result["results"]
    assert violated["counterexample"] == stored[VIOLATED].result["results"][0]["counterexample"]


def test_an_interrupted_campaign_resumes_without_redoing_finished_cells(
    address: str, campaign_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "small.db"
    record = campaign.Store.record

    def record_then_interrupt(store: campaign.Store, cell: campaign.Cell, done: campaign.Finished) -> None:
        record(store, cell, done)
        if len(store.finished()) == 2:
            raise KeyboardInterrupt  # as Ctrl-C arrives in the client

    monkeypatch.setattr(campaign.Store, "record", record_then_interrupt)
    interrupted = invoke("campaign", campaign_file, "--db", db, "--scheduler", address)
    assert interrupted.exit_code == 130
    assert interrupted.stderr.strip() == f"chainproof: interrupted after 2 of {len(KEYS)} cells; rerun to resume"
    assert "Traceback" not in interrupted.output
    before = campaign.read_rows(db)
    assert len(before) == 2

    monkeypatch.undo()
    resumed = invoke("campaign", campaign_file, "--db", db, "--scheduler", address, "--json")
    assert resumed.exit_code == 1, resumed.output  # the violated cell
    summary = json.loads(resumed.stdout)["summary"]
    assert (summary["run_now"], summary["from_earlier_runs"], summary["fail"]) == (len(KEYS) - 2, 2, 1)
    after = campaign.read_rows(db)
    assert sorted(after) == sorted(KEYS)
    assert {key: after[key].finished_at for key in before} == {key: row.finished_at for key, row in before.items()}

    again = invoke("campaign", campaign_file, "--db", db, "--scheduler", address, "--json")
    assert json.loads(again.stdout)["summary"]["run_now"] == 0
    assert campaign.read_rows(db) == after


def _edit(db: Path, key: str, result: dict, outcome: str) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE cells SET result = ?, outcome = ? WHERE key = ?", (json.dumps(result), outcome, key))


def test_a_baseline_shows_what_changed_and_fails_on_a_regression(killed_run: KilledRun, campaign_file: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.db"
    shutil.copy(killed_run.db, baseline)
    same = invoke("campaign", campaign_file, "--db", killed_run.db, "--baseline", baseline)
    # The violated cell fails in both runs: not a regression.
    assert same.exit_code == 0, same.output
    assert "0 changes, 0 regressions" in same.stdout

    # A baseline in which the property held, that lacks a cell and has one the campaign dropped.
    stored = campaign.read_rows(baseline)[VIOLATED].result
    held = {**stored, "results": [{**stored["results"][0], "verdict": "holds-to-depth", "counterexample": None}]}
    _edit(baseline, VIOLATED, held, campaign.PASS)
    with sqlite3.connect(baseline) as connection:
        connection.execute("UPDATE cells SET key = 'conform:hota:seed=9:examples=3' WHERE key = ?", (KEYS[5],))
    changed = invoke("campaign", campaign_file, "--db", killed_run.db, "--baseline", baseline, "--json")
    assert changed.exit_code == 1, changed.output
    compared = json.loads(changed.stdout)["baseline"]
    assert compared["regressions"] == 1
    assert [(c["key"], c["item"], c["before"], c["after"], c["regression"]) for c in compared["changes"]] == [
        (VIOLATED, "turn_player_first", "holds-to-depth", "violated", True)
    ]
    assert compared["new_cells"] == [KEYS[5]]
    assert compared["gone_cells"] == ["conform:hota:seed=9:examples=3"]
    text = invoke("campaign", campaign_file, "--db", killed_run.db, "--baseline", baseline)
    assert f"REGRESSION  {VIOLATED}  turn_player_first: holds-to-depth -> violated" in text.stdout


def _row(kind: str, result: dict, outcome: str = campaign.PASS) -> campaign.Row:
    return campaign.Row(f"{kind}:hota", kind, "hota", {}, outcome, "", result, 0.0, "")


def test_a_finding_the_baseline_lacks_is_a_regression_and_one_it_had_is_not() -> None:
    finding = {"kind": "dead-rule", "key": "dead-rule:104.2", "known": True}
    new = {"kind": "conflict", "key": "conflict:golden", "known": True}
    lint = campaign.compare({"lint:hota": _row("lint", {"findings": [finding]})},
                            {"lint:hota": _row("lint", {"findings": [new]})})
    assert [(c.item, c.before, c.after, c.regression) for c in lint.changes] == [
        ("conflict:golden", None, "found", True),
        ("dead-rule:104.2", "found", None, False),
    ]

    disagreement = {"kind": "unsound", "rules": ["103.4"], "detail": "a mulligan the model forbids"}
    agree = {"status": "agree", "findings": [], "transcript": ""}
    disagree = {"status": "disagree", "findings": [disagreement], "transcript": "script:\n- P1 mulligans 2\n"}
    conform = campaign.compare({"conform:hota": _row("conform", agree)}, {"conform:hota": _row("conform", disagree, campaign.FAIL)})
    (change,) = conform.changes
    assert change.regression and change.item == "unsound (103.4): a mulligan the model forbids"
    assert change.transcript == disagree["transcript"]
    assert not campaign.compare({"conform:hota": _row("conform", disagree, campaign.FAIL)},
                                {"conform:hota": _row("conform", disagree, campaign.FAIL)}).changes


def test_the_report_shows_a_campaigns_cells(killed_run: KilledRun, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = invoke("report", page, "--campaign", killed_run.db)
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert html.count('<tr data-verdict="') == 3
    # Each row names its cell's reading and bounds: the violated one the variant's, the others the model's own.
    rows = re.findall(r'<tr data-verdict="([^"]+)" data-game="wowtcg" data-reading="([^"]+)" data-bounds="([^"]+)"', html)
    assert sorted((verdict, reading) for verdict, reading, _ in rows) == [
        ("holds-to-depth", "seed"), ("proved", "seed"), ("violated", "basic-chain-priority")
    ]
    bounds = {verdict: set(b.split()) for verdict, _, b in rows}
    assert all("allies=0" in b for b in bounds.values())
    # The proof holds for games of any length: its model counts no turns.
    assert "turns=1" in bounds["holds-to-depth"] and "turns=1" in bounds["violated"]
    assert not any(b.startswith("turns=") for b in bounds["proved"])
    assert f"[{VIOLATED}]" in html


def test_the_shipped_campaign_runs_every_command_on_every_game() -> None:
    shipped = campaign.load(Path(__file__).parent.parent / "campaigns" / "regression.yaml")
    assert {(c.kind, c.game) for c in shipped.cells} == {(kind, game) for kind in campaign.KINDS for game in GAME_NAMES}


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("verify:\n  - games: [wowtcg]\n    propertys: x\n", 3, "unknown key 'propertys' in a verify matrix"),
        ("verify:\n  - games: [wowtcg, chess]\n", 2, "unknown game 'chess'"),
        ("verify:\n  - games: [hota]\n    properties: [nope_*]\n", 3, "no property of hota matches 'nope_*'"),
        ("verify:\n  - games: [wowtcg]\n    readings: [seed, basic]\n", 3, "reading 'basic' is not 'seed', a variant or a source reading"),
        ("verify:\n  - games: [wowtcg]\n    readings: ['001@nope']\n", 3, "no question 'nope'"),
        ("verify:\n  - games: [wowtcg]\n    bounds:\n      - {}\n      - {turns: 99}\n", 5, "--turns 99 is out of range"),
        ("lint:\n  - games: [wowtcg]\n    bounds: [{mulligan: 1}]\n", 3, "unknown key 'mulligan' in a bounds mapping"),
        ("conform:\n  - seeds: [1, x]\n", 2, "a seed must be a whole number"),
        ("scenarios: {games: [hota]}\n", 1, "scenarios must be a list of matrices"),
        ("rlimit: 5\n", 1, "the campaign has no matrix"),
        ("verify: [\n", 2, "not valid YAML"),
    ],
)
def test_a_malformed_campaign_is_refused_in_one_line_naming_file_and_line(tmp_path: Path, text: str, where: int, says: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke("campaign", path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"chainproof: error: {path}:{where}: ")
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "bad.db").exists()


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_a_hostile_campaign_file_is_refused(path: Path, tmp_path: Path) -> None:
    line = refused_in_one_line(invoke("campaign", path, "--db", tmp_path / "hostile.db"), path)
    assert REASONS[path.name] in line


def test_a_database_of_another_definition_or_none_is_refused(campaign_file: Path, tmp_path: Path) -> None:
    db = tmp_path / "small.db"
    campaign.Store(db, campaign.load(campaign_file)).close()
    other = tmp_path / "other.yaml"
    other.write_text("scenarios:\n  - games: [hota]\n", encoding="utf-8")
    refused = invoke("campaign", other, "--db", db)
    assert refused.exit_code == 2
    assert "holds the results of another definition of the campaign" in refused.stderr

    not_a_db = tmp_path / "notes.db"
    not_a_db.write_text("not a database\n", encoding="utf-8")
    for args in (("--db", not_a_db), ("--db", tmp_path / "new.db", "--baseline", not_a_db)):
        result = invoke("campaign", other, *args)
        assert result.exit_code == 2
        assert result.stderr.startswith(f"chainproof: error: {not_a_db}: not a campaign database")
