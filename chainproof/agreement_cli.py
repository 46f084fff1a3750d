"""``chainproof conform`` and ``chainproof check-trace``: an engine against the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from agreement import harness
from chainproof import common, junit
from chainproof.games import BadInput
from agreement.adapter import load_adapter
from agreement.games import GAMES, builtin_adapter, checker_for
from agreement.trace import check_trace


@click.command()
@click.option("--game", type=click.Choice(GAMES), default=GAMES[0], show_default=True, help="game whose model the engine is checked against")
@click.option("--engine", "engine_spec", metavar="MODULE:FACTORY", help="an engine adapter (default: the game's built-in engine)")
@click.option("--examples", type=click.IntRange(1, 100_000), default=60, show_default=True, help="games to play")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the games (the same seed plays the same games)")
@click.option("--shrink/--no-shrink", default=True, show_default=True,
              help="shrink a failing game to a short one before reporting it (replays it many times; minutes)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="also write JUnit XML: one test case for the engine's run, failing on a disagreement")
def conform(game: str, engine_spec: str | None, examples: int, seed: int, shrink: bool, as_json: bool,
            junit_file: Path | None) -> None:
    """Play an engine and check every step against the game's model: soundness,
    completeness, offered actions accepted, forbidden ones refused, determinism.
    Exit 0 when they agree, 1 on a disagreement, 2 on an adapter error."""
    from chainproof.cli import guarded

    given_game = click.get_current_context().get_parameter_source("game") is not click.core.ParameterSource.DEFAULT

    def run() -> int:
        common.check_output(junit_file, "--junit")
        adapter = load_adapter(engine_spec) if engine_spec else builtin_adapter(game)
        if given_game and adapter.game != game:
            raise BadInput(f"--engine {engine_spec} plays {adapter.game}, and --game asked for {game}: give one or the other")
        report = harness.conform(adapter, checker_for(adapter.game), examples, seed, shrink=shrink)
        if junit_file is not None:
            junit.write(junit_file, junit.conform_cases(report))
        if as_json:
            click.echo(json.dumps(report.as_json(), indent=2))
        else:
            _print_conform(report, shrink)
        return 0 if report.ok else 1

    guarded(run)


def _print_conform(report: harness.Report, shrunk: bool) -> None:
    console = Console(highlight=False, markup=False, soft_wrap=not sys.stdout.isatty())
    title = f"{report.game}: model edges exercised by the engine ({report.steps} steps, {report.examples} games)"
    rows = [(name, str(report.edges.get(name, 0)), ", ".join(rules)) for name, rules in sorted(report.reachable.items())]
    rows += [(name, str(report.edges[name]), "(beyond the default bounds)") for name in sorted(set(report.edges) - set(report.reachable))]
    if console.is_terminal:
        table = Table(highlight=False, title=title)
        table.add_column("edge")
        table.add_column("times", justify="right")
        table.add_column("rules")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    else:
        # Piped into a log: one line per edge, no box drawing, the rule list last.
        console.print(title)
        lines = [("edge", "times", "rules"), *rows]
        widths = [max(len(line[i]) for line in lines) for i in range(2)]
        for edge, times, rules in lines:
            console.print(f"{edge.ljust(widths[0])}  {times.rjust(widths[1])}  {rules}".rstrip())
    covered = len(set(report.reachable) & set(report.edges))
    console.print(f"edges reachable at the default bounds exercised: {covered}/{len(report.reachable)}")
    if report.missed:
        console.print("not exercised: " + ", ".join(report.missed))
    console.print(f"rules exercised: {len(report.rules)}; offered actions tried on copies: {report.offered_tried}; forbidden actions asked about: {report.forbidden_tried}")
    console.print(f"games played: {report.games_played}; ended: {report.games_finished}; stopped before the rules ended them: {len(report.capped)}")
    for game in report.capped:
        console.print(f"  {game}")
    for note in report.skipped:
        console.print(f"skipped: {note}")
    if report.ok:
        console.print("the engine agrees with the model", style="green")
        return
    console.print("the engine disagrees with the model:", style="red")
    for f in report.findings:
        console.print(f"  {f}")
    if report.transcript:
        console.print("shortest game found (its script can be pasted into a scenario):" if shrunk
                      else "the failing game as played, not shrunk (its script can be pasted into a scenario):")
        click.echo(report.transcript)


@click.command("check-trace")
@click.argument("trace", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def check_trace_command(trace: Path, as_json: bool) -> None:
    """Check a log of an engine in any language (JSON Lines of observed states and
    actions) against the model; report the first step the rules do not allow.
    Exit 0 when it agrees, 1 when a step is not allowed, 2 when the file is not a trace."""
    from chainproof.cli import guarded

    def run() -> int:
        result = check_trace(trace)
        if as_json:
            click.echo(json.dumps(result.as_json(), indent=2))
        elif result.ok:
            click.echo(f"{trace}: {result.steps} steps, every one allowed by the {result.game} model"
                       + ("" if result.completeness_checked else " (completeness not checked: some states list no offered actions)"))
        else:
            f = result.finding
            click.echo(f"{trace}:{result.line}: step {result.steps} ({result.label or 'unlabelled action'}) is not allowed: {f.kind}"
                       + (f" ({', '.join(f.rules)})" if f.rules else ""))
            click.echo(f"  {f.detail}")
        return 0 if result.ok else 1

    guarded(run)


def register(main: Any) -> None:
    main.add_command(conform)
    main.add_command(check_trace_command)
