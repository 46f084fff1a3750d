"""``chainproof scenarios``: play the scenario files (rulings as data) in each
game's reference engine and report pass, fail or error for each.

Exit codes: 0 every scenario passes, 1 a ruling differs from the expected one
(a scenario marked ``known_failure`` that fails counts too), 2 a scenario file
is malformed or the command was given bad input.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from chainproof import junit
from chainproof.common import check_output, guarded
from chainproof.games import BadInput
from scenarios import runner

STATUS_STYLE = {"pass": "green", "fail": "bold red", "error": "magenta"}


@click.command("scenarios")
@click.option("--game", "games", multiple=True, metavar="GAME",
              help=f"game whose scenarios to run (repeatable; default all: {', '.join(runner.ADAPTERS)})")
@click.option("--path", "paths", multiple=True, metavar="DIR_OR_FILE",
              help="run these scenario files, or every *.yaml under these folders, instead of the shipped ones")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of a table")
@click.option("--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="also write JUnit XML: one test case per scenario (per case of a file of several)")
def scenarios(games: tuple[str, ...], paths: tuple[str, ...], as_json: bool, junit_file: Path | None) -> None:
    """Play every scenario file in the reference engine and check its ruling,
    and, where the model covers the game, follow it in the model step by step.
    Exit 0 when every ruling holds, 1 when one differs, 2 when a file is not a
    scenario (or is of another game than --game)."""

    def run() -> int:
        check_output(junit_file, "--junit")
        for game in games:
            if game not in runner.ADAPTERS:
                raise BadInput(f"unknown game {game!r}; games with scenarios: {', '.join(runner.ADAPTERS)}")
        try:
            results = runner.run_all(paths or None, games or None)
        except FileNotFoundError as exc:
            raise BadInput(f"no such scenario file or folder: {exc}") from None
        if not results:
            raise BadInput("no scenario files found" + (f" under {', '.join(paths)}" if paths else ""))
        counts = runner.summary(results)
        if junit_file is not None:
            junit.write(junit_file, junit.scenario_cases(results))
        if as_json:
            click.echo(json.dumps({"results": [r.to_json() for r in results], "summary": counts}, indent=2))
        else:
            _print(results, counts)
        return 2 if counts["error"] else 1 if counts["fail"] else 0

    guarded(run)


def _print(results: list[runner.Result], counts: dict[str, int]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    if console.is_terminal:
        table = Table(title="chainproof scenarios")
        for column in ("game", "scenario", "rules", "status"):
            table.add_column(column, no_wrap=column in ("game", "status"))
        for r in results:
            style = STATUS_STYLE[r.status]
            table.add_row(r.game, escape(r.scenario), " ".join(r.rules), f"[{style}]{r.status}[/]")
        console.print(table)
    else:
        # Piped into a log: one line per scenario, the short columns first and
        # the rules last, so that no line is padded to the longest name.
        rows = [("game", "status", "scenario", "rules")]
        rows += [(r.game, r.status, r.scenario, " ".join(r.rules)) for r in results]
        widths = [max(len(row[i]) for row in rows) for i in range(2)]
        for game, status, scenario, rules in rows:
            click.echo(f"{game.ljust(widths[0])}  {status.ljust(widths[1])}  {scenario}  {rules}".rstrip())
    for r in results:
        if r.status != "pass":
            click.echo(f"\n{r.status}: {r.scenario}\n{r.detail}")
        elif r.detail != "ok":
            click.echo(f"\nnote: {r.scenario}: {r.detail}")
    click.echo(f"\n{len(results)} scenarios: " + ", ".join(f"{counts[s]} {s}" for s in runner.STATUSES))
    checked = [r for r in results if r.model]
    if checked:
        agree = sum(r.model.startswith("agrees") for r in checked)
        click.echo(f"in the model: {agree} of {len(checked)} agree step by step; the others are not covered "
                   "(cards it does not abstract, or a start it has no choice point for; --json gives each reason)")

