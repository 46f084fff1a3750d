"""``chainproof campaign FILE``: run a campaign's cells on a Dask cluster, keep
each result in SQLite as it arrives, and compare with a stored run.

Exit codes: 0 every cell passes (with ``--baseline``: no regression), 1 a cell
fails or ends in an error (with ``--baseline``: a regression), 2 bad input
(the campaign file, a database, the cluster), 130 interrupted (a rerun resumes).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Sequence

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from chainproof import campaign, report
from chainproof.common import guarded
from chainproof.games import BadInput
from checkers.results import PASSING

OUTCOME_STYLE = {campaign.PASS: "green", campaign.FAIL: "bold red", campaign.ERROR: "magenta"}


@click.command("campaign")
@click.argument("campaign_file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", "db_file", type=click.Path(dir_okay=False, path_type=Path), metavar="PATH",
              help="the results database (default: FILE with the suffix .db); a rerun resumes it")
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True,
              help="worker processes of the local Dask cluster")
@click.option("--scheduler", metavar="ADDRESS",
              help="run on an existing Dask cluster (tcp://host:8786; workers started with --nthreads 1) instead of a local one")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path), metavar="OLD.db",
              help="compare with a stored run: list what changed; exit 1 only on a regression")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of a table")
def campaign_command(campaign_file: Path, db_file: Path | None, workers: int, scheduler: str | None,
                     baseline_file: Path | None, as_json: bool) -> None:
    """Run the regression matrix declared in FILE (verify, lint, scenarios and
    conform cells) as Dask tasks, each result stored the moment it finishes;
    a rerun does only the cells not yet done.  Exit 0 when every cell passes,
    1 when one does not (with --baseline: 1 only on a regression)."""

    def run() -> int:
        context = click.get_current_context()
        if scheduler is not None and context.get_parameter_source("workers") is not click.core.ParameterSource.DEFAULT:
            raise BadInput("--workers sizes a local cluster and --scheduler names an existing one: give one or the other")
        defined = campaign.load(campaign_file)
        db_path = db_file or campaign.default_db(campaign_file)
        baseline = None
        if baseline_file is not None:
            if db_path.exists() and baseline_file.resolve() == db_path.resolve():
                raise BadInput(f"--baseline {baseline_file} is this campaign's own database: give a stored copy of an earlier run")
            baseline = campaign.read_rows(baseline_file)
        store = campaign.Store(db_path, defined)
        try:
            total = len(defined.cells)
            done = store.finished()
            pending = [c for c in defined.cells if c.key not in done]
            started = time.perf_counter()
            if pending:
                try:
                    _execute(pending, total - len(pending), total, store, workers, scheduler, as_json)
                except KeyboardInterrupt:
                    click.echo(f"chainproof: interrupted after {len(store.finished())} of {total} cells; rerun to resume", err=True)
                    return 130
            stored = store.rows()
        finally:
            store.close()
        rows = [stored[c.key] for c in defined.cells]
        counts = {o: sum(r.outcome == o for r in rows) for o in OUTCOME_STYLE}
        summary = {"cells": total, **counts, "run_now": len(pending), "from_earlier_runs": total - len(pending),
                   "seconds": round(time.perf_counter() - started, 3)}
        comparison = None if baseline is None else campaign.compare(baseline, {r.key: r for r in rows})
        if as_json:
            click.echo(json.dumps({
                "campaign": str(campaign_file), "db": str(db_path), "cells": [r.to_json() for r in rows], "summary": summary,
                "baseline": None if comparison is None else {"db": str(baseline_file), **comparison.to_json()},
            }, indent=2))
        else:
            _print_cells(rows, summary, db_path)
            if comparison is not None:
                _print_comparison(comparison, baseline_file)
        if comparison is not None:
            return 1 if comparison.regressions else 0
        return 0 if counts[campaign.PASS] == total else 1

    guarded(run)


def _execute(cells: Sequence[campaign.Cell], done: int, total: int, store: campaign.Store, workers: int,
             scheduler: str | None, as_json: bool) -> None:
    with report.progress(Console(stderr=True), enabled=not as_json) as advance:
        where = f"connecting to {scheduler}" if scheduler else f"starting {workers} workers"
        advance(escape(f"{where} ({done} of {total} cells done before)"), done, total)
        with campaign.cluster(workers, scheduler) as client:
            def finished(cell: campaign.Cell, result: campaign.Finished) -> None:
                nonlocal done
                done += 1
                advance(escape(f"{cell.key}: {result.outcome}"), done, total)

            campaign.execute(client, cells, store, finished)


def _print_cells(rows: Sequence[campaign.Row], summary: dict, db_path: Path) -> None:
    console = Console(highlight=False, soft_wrap=True)
    if console.is_terminal:
        table = Table(title="chainproof campaign")
        for column in ("cell", "outcome", "verdict", "seconds"):
            table.add_column(column, justify="right" if column == "seconds" else "left", no_wrap=column != "verdict")
        for r in rows:
            table.add_row(escape(r.key), f"[{OUTCOME_STYLE[r.outcome]}]{r.outcome}[/]", escape(r.verdict), f"{r.seconds:.1f}")
        console.print(table)
    else:
        lines = [("cell", "outcome", "seconds", "verdict")] + [(r.key, r.outcome, f"{r.seconds:.1f}", r.verdict) for r in rows]
        widths = [max(len(line[i]) for line in lines) for i in range(3)]
        for line in lines:
            click.echo("  ".join([*(cell.ljust(w) for cell, w in zip(line, widths)), line[3]]).rstrip())
    for r in rows:
        if r.outcome != campaign.PASS:
            click.echo(f"\n{r.outcome}: {r.key}")
            for line in _what_failed(r):
                click.echo(f"  {line}")
    click.echo(
        f"\n{summary['cells']} cells: {summary['pass']} pass, {summary['fail']} fail, {summary['error']} error "
        f"({summary['run_now']} run now, {summary['from_earlier_runs']} from earlier runs) in {summary['seconds']:.1f}s; "
        f"results in {db_path}"
    )


def _what_failed(r: campaign.Row) -> list[str]:
    """A line per item that did not pass (a transcript's lines too): the rest is in the database and in --json."""
    if r.outcome == campaign.ERROR:
        return [r.result["error"], "(an error is no verdict: a rerun tries the cell again)"]
    if r.kind == "verify":
        return [f"{x['property']}: {x['verdict']} ({x['method']}, depth {x['depth']})" + (f": {x['note']}" if x["note"] else "")
                for x in r.result["results"] if x["verdict"] not in PASSING]
    if r.kind == "lint":
        return [f"NEW {f['kind']}: {f['key']} [{' '.join(f['rules'])}]: {f['summary']}" for f in r.result["findings"] if not f["known"]]
    if r.kind == "scenarios":
        return [f"{x['status']}: {x['scenario']}" for x in r.result["results"] if x["status"] != campaign.PASS]
    transcript = r.result["transcript"].splitlines()
    return [*campaign.items(r), *(["the failing game, shrunk:", *transcript] if transcript else [])]


def _print_comparison(comparison: campaign.Comparison, baseline_file: Path | None) -> None:
    regressions = len(comparison.regressions)
    changes = len(comparison.changes)
    click.echo(f"\nagainst {baseline_file}: {changes} change{'s' * (changes != 1)}, {regressions} regression{'s' * (regressions != 1)}")
    for c in comparison.changes:
        mark = "REGRESSION" if c.regression else "changed"
        click.echo(f"  {mark:<10}  {c.key}  {c.item}: {c.before or '(new)'} -> {c.after or '(gone)'}")
        for line in c.transcript.splitlines():
            click.echo(f"      {line}")
    if comparison.new_cells:
        click.echo(f"new cells, not in {baseline_file}: " + ", ".join(comparison.new_cells))
    if comparison.gone_cells:
        click.echo(f"gone cells, only in {baseline_file}: " + ", ".join(comparison.gone_cells))
