"""The command line: ``chainproof verify``, ``certify``, ``coverage``, ``graph``, ``export``,
``conform``, ``check-trace``, ``scenarios``, ``lint``, ``diff`` and ``report``.

Exit codes: 0 every verdict holds, 1 a property is violated, vacuous or
unknown, 2 bad input, an ill-formed model or a graph that could not be drawn.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import click
from rich.console import Console

from chainproof import junit, report
# ``guarded`` is also what the commands of the other modules import from here.
from chainproof.common import DEFAULT_GUARD_S, bound_options, check_output, check_rlimit, check_timeout, guarded
from chainproof.games import GAME_NAMES, BadInput, Game, bounds_apply, games_with_reading, games_with_variant, get_game
from model import limits
from checkers import bmc, invariants, portfolio, spacer, vector
from checkers.results import PROVED, Result
from properties import Eventually, select

#: "portfolio" runs every method that applies and keeps the strongest honest
#: verdict per property (checkers/portfolio.py); the others run one method alone.
METHODS = ("portfolio", "explicit", "bmc", "both")
#: Where verify's explicit search stops: past the 40.6 million states of its
#: own default run's largest instance (WoW with a card of each kind in hand);
#: on larger bounds this or the memory guard (``--max-memory``, some 100
#: million states at its default), whichever comes first.
VERIFY_MAX_STATES = 100_000_000
GRAPH_FORMATS = ("dot", "svg")


def _games(names: tuple[str, ...], bounds: dict[str, Any], variant: str | None = None, reading: str | None = None) -> list[Game]:
    if variant is not None and reading is not None:
        raise BadInput("--variant and --reading each name a reading of the rules; give one")
    chosen = [get_game(n) for n in dict.fromkeys(games_with_variant(names, variant) or games_with_reading(names, reading) or GAME_NAMES)]
    bounds_apply(chosen, bounds)
    return chosen


@click.group()
@click.version_option(package_name="chainproof")
@click.option("--debug", is_flag=True, help="let an internal error show its traceback")
def main(debug: bool) -> None:
    """Check trading-card-game rulebooks encoded as state-machine graphs.

    A bound not given is the game's search default, which every command
    builds at, save verify: its default run checks more (verify --help)."""


@main.command()
@click.option("--game", "games", multiple=True, metavar="GAME", help=f"game to check (repeatable; default all: {', '.join(GAME_NAMES)})")
@click.option("--property", "pattern", metavar="GLOB", help="only properties whose name matches this glob")
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="portfolio",
    show_default=True,
    help="every method, strongest verdict per property (proofs for games of any length); or explicit search, Z3 bounded model checking, or both, alone",
)
@click.option("--depth", type=int, default=30, show_default=True, help="deepest unrolling for bounded model checking (1..200)")
@bound_options
@click.option("--variant", metavar="NAME", help="check a named reading of the rules other than the seed's (e.g. 600.2-without-600.3)")
@click.option(
    "--reading",
    metavar="SOURCE[@QUESTION,...]",
    help="check the rules as one source text reads them (e.g. 001, 002zh@bound_to_attack), the model's reading where it is silent",
)
@click.option("--max-states", type=int, default=VERIFY_MAX_STATES, show_default=True, help="explicit search stops at the end of the level where it passes this many states")
@click.option("--max-memory", default="2GiB", show_default=True, metavar="SIZE",
              help="explicit search stops at the end of the level where its arrays pass this many bytes (their sizes: the same on any machine)")
@click.option("--rlimit", type=int, default=limits.DEFAULT_RLIMIT, show_default=True,
              help="Z3 resource units per solver query before that method's answer is unknown (counted work: the same verdict on any machine)")
@click.option("--timeout", type=float, default=DEFAULT_GUARD_S, show_default=True,
              help="seconds per solver query: an outer guard only, for a query that would run for hours (a verdict it cuts says so)")
@click.option("--max-k", type=int, default=portfolio.Budget.max_k, show_default=True, help="portfolio: longest inductive step tried by k-induction (1..50)")
@click.option("--explain", "explain", metavar="PROPERTY", help="prove one property and print the inductive invariant behind the proof")
@click.option("--fresh-proofs", is_flag=True,
              help="portfolio: let Spacer search even where an invariant it found before is kept and re-checks (chainproof certify)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of a table")
@click.option("--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="also write JUnit XML: one test case per property, failing where the property does not pass")
def verify(
    games: tuple[str, ...],
    pattern: str | None,
    method: str,
    depth: int,
    as_json: bool,
    junit_file: Path | None,
    timeout: float,
    rlimit: int,
    max_states: int,
    max_memory: str,
    max_k: int,
    explain: str | None,
    fresh_proofs: bool,
    variant: str | None,
    reading: str | None,
    **bounds: Any,
) -> None:
    """Check every property of every game at the given bounds, else at verify's defaults.

    verify's defaults are larger than those the other commands build at:
    WoW with a card of each kind in every opening hand (--hand 1), Riftbound
    over three turns (--turns 3), Heroes of Ancients as the others; a bound
    given, or set by the variant, replaces them."""

    def run() -> int:
        if not 1 <= max_k <= 50:
            raise BadInput(f"--max-k {max_k} is out of range: allowed 1..50")
        if not 1 <= depth <= 200:
            raise BadInput(f"--depth {depth} is out of range: allowed 1..200")
        if max_states < 1:
            raise BadInput(f"--max-states {max_states} must be at least 1")
        try:
            memory = limits.parse_memory(max_memory)
        except ValueError as exc:
            raise BadInput(f"--max-memory: {exc}") from None
        check_timeout(timeout)
        check_rlimit(rlimit)
        check_output(junit_file, "--junit")
        if explain is not None:
            context = click.get_current_context()
            options = {
                "method": "--method", "pattern": "--property", "max_states": "--max-states", "max_memory": "--max-memory", "depth": "--depth",
                "junit_file": "--junit", "fresh_proofs": "--fresh-proofs",
            }
            ignored = [flag for name, flag in options.items() if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
            if ignored:
                raise BadInput(f"--explain proves one property with the any-length model; {', '.join(ignored)} would be ignored: drop them")
            return _explain(games, explain, variant, reading, bounds, round(timeout * 1000), as_json)
        console = Console(stderr=True)
        started = time.perf_counter()
        jobs = []
        candidates = _games(games, bounds, variant, reading)
        for game in candidates:
            # A pattern need only match in one of the games checked.
            chosen = select(game.properties, pattern)
            if chosen:
                if method == "portfolio" and not fresh_proofs and game.proves_any_length:
                    # A malformed kept-invariants file is bad input: refuse it
                    # before any search, not after the explicit search is done.
                    invariants.load(game.name)
                jobs.append((game, game.machine(game.verify_given(bounds, variant), variant, reading), chosen))
        if not jobs:
            known = ", ".join(p.name for g in candidates for p in g.properties)
            raise BadInput(f"no property of {', '.join(g.name for g in candidates)} matches {pattern!r}; properties: {known}")
        results: list[Result] = []
        stats: dict[str, Any] = {}
        with report.progress(console, enabled=not as_json) as advance:
            if method == "portfolio":
                budget = portfolio.Budget(
                    round(timeout * 1000), max_states, max_k=max_k, depth=depth, max_memory=memory, kept_invariants=not fresh_proofs
                )
                portfolio_jobs = []
                for game, machine, chosen in jobs:
                    given = game.verify_given(bounds, variant)
                    any_length = game.any_length_machine(given, variant, reading) if game.proves_any_length else None
                    portfolio_jobs.append(portfolio.Job(machine, any_length, chosen, game.budget(budget)))
                # The games share one pool of workers: the others' work fills what WoW's bounded search leaves free.
                for (game, _, _), found in zip(jobs, portfolio.verify_games(portfolio_jobs, advance)):
                    results.extend(found.results)
                    stats[game.name] = found.stats
            else:
                for game, machine, chosen in jobs:
                    results.extend(
                        check_by_method(game, machine, chosen, method, depth, round(timeout * 1000), max_states, memory, advance, stats)
                    )
        summary = {**report.summary(results, time.perf_counter() - started, stats), "variant": variant, "reading": reading}
        if junit_file is not None:
            junit.write(junit_file, junit.verify_cases(results))
        if as_json:
            click.echo(json.dumps({"results": [r.to_json() for r in results], "summary": summary}, indent=2))
        else:
            report.print_results(results, summary)
        return 0 if summary["passing"] else 1

    guarded(run)


def _explain(
    games: tuple[str, ...], name: str, variant: str | None, reading: str | None, bounds: dict[str, Any], timeout_ms: int, as_json: bool
) -> int:
    """``verify --explain``: Spacer's inductive invariant for one property of
    games of any length, re-checked by a separate Z3 query before it is shown."""
    candidates = _games(games, bounds, variant, reading)
    game = next((g for g in candidates if any(p.name == name for p in g.properties)), None)
    if game is None:
        known = ", ".join(p.name for g in candidates for p in g.properties)
        raise BadInput(f"--explain: no property named {name!r}; properties: {known}")
    prop = next(p for p in game.properties if p.name == name)
    if isinstance(prop, Eventually):
        raise BadInput(
            f"--explain {name}: a liveness property has no inductive invariant; "
            "'chainproof verify --property' gives its bounded verdict"
        )
    if not game.proves_any_length:
        raise BadInput(f"--explain: {game.name} has no model of games of any length")
    machine = game.any_length_machine(game.verify_given(bounds, variant), variant, reading)
    result = spacer.check(machine, prop, timeout_ms)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        report.print_explanation(result)
    return 0 if result.verdict == PROVED else 1


def check_by_method(
    game: Game,
    machine: Any,
    chosen: list,
    method: str,
    depth: int,
    timeout_ms: int,
    max_states: int,
    max_memory: int,
    advance: Callable[[str, int, int], None],
    stats: dict[str, Any],
) -> Iterator[Result]:
    if method in ("explicit", "both"):
        advance(f"{game.name}: exploring states", 0, 1)
        exploration = vector.explore(machine, max_states, max_memory, watch=chosen)
        stats[game.name] = {
            "complete": exploration.complete,
            "stopped": exploration.stopped or None,
            "states": exploration.states,
            "transitions": exploration.transitions,
            "exploration_seconds": round(exploration.seconds, 3),
            # What the memory guard (--max-memory) counts: the most bytes its arrays held.
            "peak_bytes": exploration.peak_bytes,
        }
        advance(f"{game.name}: explicit checks", 0, len(chosen))
        # In one call: the invariants and liveness properties share a pass over the states.
        yield from vector.check_all(exploration, chosen)
    if method in ("bmc", "both"):
        advance(f"{game.name}: bmc depth 0", 0, depth + 1)
        yield from bmc.check_all(
            machine, chosen, depth, timeout_ms, on_depth=lambda k: advance(f"{game.name}: bmc depth {k}", k + 1, depth + 1)
        )


@main.command()
@click.option("--game", "games", multiple=True, metavar="GAME", help="game (repeatable; default all)")
@click.option("--rlimit", type=int, default=limits.DEFAULT_RLIMIT, show_default=True,
              help="resource limit of each solver query (Z3 rlimit: counted work, the same on any machine)")
@click.option("--timeout", type=float, default=DEFAULT_GUARD_S, show_default=True,
              help="wall-clock guard per solver query in seconds (an outer guard; the resource limit decides first)")
def certify(games: tuple[str, ...], rlimit: int, timeout: float) -> None:
    """Prove each game's properties afresh and keep the invariants Spacer
    finds (checkers/invariants/GAME.json), which verify then re-checks instead
    of searching again: at the default bounds, and at verify's own where its
    any-length model differs (WoW: cards in the opening hands)."""

    def run() -> int:
        check_timeout(timeout)
        check_rlimit(rlimit)
        missing = 0
        for game in _games(games, {}):
            if not game.proves_any_length:
                click.echo(f"{game.name}: no model of games of any length; nothing to keep")
                continue
            for label, given in _certified_bounds(game).items():
                missing += _certify(game, label, given, timeout)
        return 0 if not missing else 1

    guarded(run)


def _certified_bounds(game: Game) -> dict[str, dict[str, int | None]]:
    """The bounds certify proves at, by what it calls them: the default
    bounds, and verify's where they give another any-length model (a kept
    invariant is found for one model: ``invariants.bounds_key``)."""
    chosen: dict[str, dict[str, int | None]] = {game.name: {}}
    verify_given = game.verify_given({})
    if invariants.bounds_key(game.any_length_machine(verify_given)) != invariants.bounds_key(game.any_length_machine({})):
        shown = ", ".join(f"{k}={v}" for k, v in sorted(verify_given.items()))
        chosen[f"{game.name} at verify's bounds ({shown})"] = verify_given
    return chosen


def _certify(game: Game, label: str, given: dict[str, int | None], timeout: float) -> int:
    """Keep the invariants Spacer finds at these bounds; how many properties it was asked about and did not prove."""
    any_length = game.any_length_machine(given)
    budget = game.budget(portfolio.Budget(round(timeout * 1000), VERIFY_MAX_STATES, kept_invariants=False))
    found = portfolio.verify(game.machine(given), any_length, game.properties, budget)
    lemmas = found.stats.get("lemmas", [])
    kept = [k for r in found.results if (k := invariants.from_result(r, lemmas)) is not None]
    by_spacer = [r for r in found.results if any(a.method == "spacer" for a in r.attempts)]
    if not by_spacer:
        click.echo(f"{label}: other methods decide every property; Spacer was asked nothing, so nothing is kept")
        return 0
    if len(kept) < len(by_spacer):
        # A shortfall (a low --rlimit, a proof the model no longer has) must not wipe what was kept before.
        lost = sorted({r.property for r in by_spacer} - {k.property for k in kept})
        click.echo(f"{label}: Spacer proved {len(kept)} of the {len(by_spacer)} properties it was asked about, "
                   f"not {', '.join(lost)}; {invariants.shown(invariants.path_for(game.name))} is left as it was")
        return len(by_spacer) - len(kept)
    path = invariants.save(game.name, any_length, kept)
    click.echo(f"{label}: kept {len(kept)} of the {len(by_spacer)} properties Spacer was asked about, in {invariants.shown(path)}")
    for k in kept:
        click.echo(f"  {k.property}: {k.found}" + (f", assuming {', '.join(k.lemmas)}" if k.lemmas else ""))
    return 0


@main.command()
@click.option("--game", "games", multiple=True, metavar="GAME", help="game (repeatable; default all)")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@click.option("--questions", is_flag=True, help="list the questions the model asks of the rules instead, with their sources and reading")
def coverage(games: tuple[str, ...], as_json: bool, questions: bool) -> None:
    """The rules registry: which rules are encoded, not modelled or assumed, and which the
    reference engine (engine/<game>/) cites; with --questions, the questions the model
    asks of the rules, the sources that rule on each, and the reading it follows."""

    def run() -> int:
        if questions:
            listed = [report.game_questions(game) for game in _games(games, {})]
            if as_json:
                click.echo(json.dumps({"games": listed}, indent=2))
            else:
                report.print_questions(listed)
            return 0
        tables = [report.game_coverage(game) for game in _games(games, {})]
        if as_json:
            click.echo(json.dumps({"games": tables}, indent=2))
        else:
            report.print_coverage(tables)
        return 0 if all(not t["uncited"] for t in tables) else 1

    guarded(run)


def _write(text: str, output: Path | None) -> None:
    """``text`` to stdout, or to the file ``output``."""
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot write {output}: {exc.strerror or exc}") from None


@main.command()
@click.option("--game", default=GAME_NAMES[0], show_default=True, help="game")
@click.option("--format", "fmt", type=click.Choice(GRAPH_FORMATS), default="dot", show_default=True, help="Graphviz DOT, or SVG drawn from it")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="write to this file instead of stdout")
def graph(game: str, fmt: str, output: Path | None) -> None:
    """Print the control-location graph in DOT or SVG, edges labelled with rule numbers."""

    def run() -> int:
        g = get_game(game)
        text = report.dot(g.machine({})) + "\n"
        if fmt == "svg":
            text = report.svg(text)
        _write(text, output)
        return 0

    guarded(run)


EXPORT_FORMATS = ("promela",)


@main.command()
@click.option("--game", default=GAME_NAMES[0], show_default=True, help="game")
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default="promela", show_default=True,
              help="Promela, for Spin: the same machine, states and transitions as our searches explore")
@bound_options
@click.option("--variant", metavar="NAME", help="export a named reading of the rules other than the seed's")
@click.option("--reading", metavar="SOURCE[@QUESTION,...]", help="export the rules as one source text reads them")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="write to this file instead of stdout")
def export(game: str, fmt: str, variant: str | None, reading: str | None, output: Path | None, **bounds: Any) -> None:
    """Write GAME's machine at the given (or default) bounds for another model checker.

    Spin stores one state more than `verify --method explicit` finds (the state
    before `init`); see checkers/promela.py for how the counts relate."""

    def run() -> int:
        from checkers import promela

        check_output(output, "--output")
        (g,) = _games((game,), bounds, variant, reading)
        text = promela.to_promela(g.machine(bounds, variant=variant, reading=reading))
        _write(text if text.endswith("\n") else text + "\n", output)
        return 0

    guarded(run)


def _register_commands() -> None:
    # Commands kept in their own modules, each calling back into guarded().
    from chainproof import agreement_cli, campaign_cli, damage_cli, html_report, lint_cli
    from chainproof.scenarios_cli import scenarios

    agreement_cli.register(main)
    main.add_command(scenarios)
    main.add_command(lint_cli.lint)
    main.add_command(lint_cli.diff)
    main.add_command(damage_cli.damage_command, "damage")
    main.add_command(html_report.report_command)
    main.add_command(campaign_cli.campaign_command)


_register_commands()
