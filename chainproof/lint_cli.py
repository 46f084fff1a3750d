"""``chainproof lint`` and ``chainproof diff``: contradictions and rule variants.

Exit codes: ``lint`` 0 when every finding is known, 1 when one is not; ``diff``
0 when the readings agree within the bounds, 1 when they part; both 2 on bad
input (a malformed known-findings file, an unknown game or variant).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from chainproof import common, junit, lint_report, linting, report
from chainproof.games import GAME_NAMES, BadInput, bounds_apply, get_game
from model import limits
from checkers import portfolio
from checkers.diff import DEFAULT_MAX_PAIRS, Comparison
from checkers.results import Transcript
from model.sources import GAME_SOURCES, lines_of
from model.variants import SEED
from scenarios.tables import ExportError, nearby_scenario_table, table_export


def _console() -> Console:
    # Piped output keeps whole lines: a transcript is read, not wrapped.
    console = Console(highlight=False, soft_wrap=True)
    return console if console.is_terminal else Console(highlight=False, width=200, soft_wrap=True)


#: How far a rules diff searches (lint runs one per variant).
max_pairs_option = click.option(
    "--max-pairs", type=int, default=DEFAULT_MAX_PAIRS, show_default=True, help="rules diff: pairs of states compared before it stops"
)


def _check_max_pairs(max_pairs: int) -> None:
    if max_pairs < 1:
        raise BadInput(f"--max-pairs {max_pairs} must be at least 1")


@click.command()
@click.option("--game", "games", multiple=True, metavar="GAME", help=f"game to lint (repeatable; default all: {', '.join(GAME_NAMES)})")
@common.bound_options
@click.option(
    "--known",
    "known_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="known-findings file (default: each game's model/<game>/known_findings.yaml)",
)
@click.option("--rlimit", type=int, default=limits.DEFAULT_RLIMIT, show_default=True,
              help="Z3 resource units per solver query (counted work: the same findings on any machine)")
@click.option("--timeout", type=float, default=common.DEFAULT_GUARD_S, show_default=True,
              help="seconds per solver query: an outer guard only")
@max_pairs_option
@click.option(
    "--scenarios",
    "scenario_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="write each finding's game the engine can replay as a scenario file in this folder (WoW: variants and source clashes, searched on the engine's table; Riftbound, HotA: each clash's and gap's own game, and a dead ruling's on the table one change away where it applies)",
)
@click.option("--sarif", "sarif_file", type=click.Path(dir_okay=False, path_type=Path), help="also write the findings as SARIF 2.1.0, located at the rule texts")
@click.option(
    "--markdown",
    "markdown_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="also write each game's findings page (findings-GAME.md) in this folder, e.g. docs: the known-findings file's documented entries, each with the findings that reproduce it or why none does, then the findings no entry claims",
)
@click.option("--json", "as_json", is_flag=True, help='print {"findings": [...], "checks": [...]}')
@click.option("--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="also write JUnit XML: one test case per finding, failing where it is not in the known-findings file")
def lint(
    games: tuple[str, ...],
    known_file: Path | None,
    timeout: float,
    rlimit: int,
    max_pairs: int,
    scenario_dir: Path | None,
    sarif_file: Path | None,
    markdown_dir: Path | None,
    as_json: bool,
    junit_file: Path | None,
    **bounds: Any,
) -> None:
    """Find where each game's rules contradict themselves: deadlocks, conflicts
    between rules that no precedence rule settles, dead rules, and where each
    shipped rule variant parts from the seed's reading.  Exit 1 when a finding
    is not listed in the known-findings file."""

    def run() -> int:
        common.check_timeout(timeout)
        common.check_rlimit(rlimit)
        _check_max_pairs(max_pairs)
        # Lint runs for minutes: an output it could not write is refused first.
        common.check_output(junit_file, "--junit")
        common.check_output(sarif_file, "--sarif")
        common.check_output(markdown_dir, "--markdown", folder=True)
        common.check_output(scenario_dir, "--scenarios", folder=True)
        chosen = [get_game(n) for n in dict.fromkeys(games or GAME_NAMES)]
        bounds_apply(chosen, bounds)
        # A rule text at hand that is not the one cited is refused before minutes of search, not after.
        for g in chosen:
            for source in GAME_SOURCES.get(g.name, ()):
                lines_of(source)
        known = {
            g.name: linting.load_known(known_file or linting.default_known_file(g.name))
            for g in chosen
            if known_file is not None or linting.default_known_file(g.name).exists()
        }
        console = Console(stderr=True)
        budget = portfolio.Budget(round(timeout * 1000))
        with report.progress(console, enabled=not as_json) as advance:
            found = linting.run(chosen, bounds, budget, {n: k.notes for n, k in known.items()}, max_pairs, advance)
        if scenario_dir is not None:
            _write_scenarios(found, scenario_dir, max_pairs, bounds)
        if sarif_file is not None:
            _write(sarif_file, json.dumps(lint_report.sarif(found), indent=2) + "\n")
        if junit_file is not None:
            junit.write(junit_file, junit.lint_cases(found.findings))
        if markdown_dir is not None:
            for g in chosen:
                _write(markdown_dir / f"findings-{g.name}.md", lint_report.markdown(found, g.name, known.get(g.name)))
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "findings": [f.to_json() for f in found.findings],
                        "checks": [vars(c) for c in found.checks],
                        "summary": {"findings": len(found.findings), "unknown": len(found.unknown)},
                    },
                    indent=2,
                )
            )
        else:
            _print_lint(found)
        return 1 if found.unknown else 0

    common.guarded(run)




def _write(path: Path, text: str) -> None:
    try:
        # An output folder may be new; the folder it is in was checked first (common.check_output).
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None


def _write_scenarios(found: linting.Lint, folder: Path, max_pairs: int, bounds: dict[str, Any] | None = None) -> None:
    """Each finding's game the engine can replay, as a scenario file: for
    Riftbound and HotA, whose model tables are engine tables, the finding's
    own game on its own table (``linting.finding_scenario``); for WoW, each
    variant's and each source clash's game searched again on the engine's
    table (named after the variant that aliases its reading, if one does),
    with the change one away the clash was found with where the engine has
    it (a third player, a spell card in hand, an engine card in an ally's
    place: ``scenarios/wowtcg/export.py``, ``nearby_table``).  The others
    say why they have none."""
    for f in found.findings:
        game = get_game(f.game)
        if f.setup is not None:
            f.scenario_note = "a question of the game's setup: its witness is a setup, not a game"
            continue
        if table_export(f.game) is not None:
            written = linting.finding_scenario(game, f, bounds or {})
            name = f.key.replace("@", "-").replace(":", "-")
        else:
            reading = f.reading if f.kind == "source-clash" else None
            if f.kind != "variant" and reading is None:
                f.scenario_note = (
                    "no game reaches it" if f.transcript is None
                    else "its game is on the model's board, whose cards the engine does not have"
                )
                continue
            table = None
            if f.board is not None:
                # Found one change away: searched again on the engine's table with that change, where it has one.
                try:
                    table = nearby_scenario_table(f.game, *linting.found_on(game, f, bounds or {}))
                except ExportError as exc:
                    f.scenario_note = f"found where {f.board}, which the engine's table cannot be made: {exc}"
                    continue
            alias = next(
                (n for n, v in game.variants.items() if f.board is None and reading is not None and v.board is None and v.source_reading == reading), None
            )
            name = alias or reading or f.key.removeprefix("variant:")
            # The default board's files are those of `chainproof diff --scenario` (scenarios/wowtcg/variants);
            # one made one change away names the finding it shows.
            written = linting.divergence_scenario(game, SEED, name, max_pairs, table, f if f.board is not None else None)
            name = (f.key.rpartition("@")[2] + "-" if f.board is not None else "") + name.replace("@", "-")
        if written.yaml is None:
            f.scenario_note = written.why_not
            continue
        path = folder / f"{f.game}-{name}.yaml"
        _write(path, written.yaml)
        f.scenario = str(path)


def _print_lint(found: linting.Lint) -> None:
    console = _console()
    if console.is_terminal:
        checks = Table(title="chainproof lint: what was checked", show_lines=False)
        for column in ("game", "query", "verdict", "method"):
            checks.add_column(column, no_wrap=column != "verdict")
        for c in found.checks:
            # Query names carry brackets, which Rich would read as markup.
            checks.add_row(*(escape(x) for x in (c.game, c.query, c.verdict, c.method)))
        console.print(checks)
    else:
        # Piped into a log: one line per check, whole, whatever its length.
        console.print("chainproof lint: what was checked", markup=False)
        for c in found.checks:
            console.print(f"{c.game}  {c.method}  {c.query}: {c.verdict}", markup=False)
    by_kind: dict[str, list[linting.Finding]] = {}
    for f in found.findings:
        by_kind.setdefault(f.kind, []).append(f)
    for kind in linting.KINDS:
        for f in by_kind.get(kind, []):
            mark = "known" if f.known else "NEW"
            console.print(f"\n[{mark}] {f.game} {kind}: {f.key}  [{' '.join(f.rules)}]", markup=False)
            console.print(f"  {f.summary}", markup=False)
            if f.setup:
                console.print(f"  setup: {f.setup}", markup=False)
            if f.places:
                console.print(f"  texts: {', '.join(f.places)}", markup=False)
            if f.note:
                console.print(f"  known: {f.note}", markup=False)
            if f.scenario:
                console.print(f"  scenario: {f.scenario}", markup=False)
            elif f.scenario_note:
                console.print(f"  no scenario: {f.scenario_note}", markup=False)
            if f.other is not None and f.transcript is not None:
                _side_by_side(console, f.transcript, f.other, (SEED, f.key.removeprefix("variant:")))
            elif f.transcript is not None:
                console.print("\n".join(f"  {line}" for line in f.transcript.lines()), markup=False)
            if f.parted is not None:
                how = f"on the board where {f.board}" if f.board else f"chainproof diff {f.game} {SEED} {f.reading}"
                console.print(f"  where play parts ({how}):", markup=False)
                _side_by_side(console, f.parted[0], f.parted[1], (SEED, f.reading or "reading"))
    counts = {kind: len(by_kind.get(kind, [])) for kind in linting.KINDS}
    console.print(
        f"\n{len(found.findings)} findings ({', '.join(f'{n} {k}' for k, n in counts.items())}); "
        f"{len(found.unknown)} not known",
        markup=False,
    )


def _side_by_side(console: Console, first: Transcript, second: Transcript, names: Sequence[str]) -> None:
    """Both games step by step: the common actions, and what each step changed under each reading.
    On a terminal a table; piped, each step on its own line and each reading's
    changes on one line under it, so that no column is cut or padded out."""
    rows = []
    for i in range(max(len(first), len(second))):
        a = first.steps[i] if i < len(first) else None
        b = second.steps[i] if i < len(second) else None
        step = a or b
        assert step is not None
        cells = [
            ("; ".join(f"{k}: {x} -> {y}" for k, (x, y) in s.changes.items()) or "no change") if s else "(not allowed)"
            for s in (a, b)
        ]
        if a is not None and b is not None and cells[0] == cells[1]:
            cells[1] = "(the same)"
        rows.append((str(step.index), step.actor, step.edge, *cells))
    if console.is_terminal:
        table = Table(show_lines=False, box=None, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column("player")
        table.add_column("action")
        for name in names:
            table.add_column(f"{name}: what changes")
        for row in rows:
            table.add_row(*row[:2], *(escape(c) for c in row[2:]))
        console.print(table)
    else:
        lines = [f"{'#':>3}  player  action", *(f"       {name}: what changes" for name in names)]
        for index, actor, edge, *cells in rows:
            lines += [f"{index:>3}  {actor}  {edge}", *(f"       {name}: {c}" for name, c in zip(names, cells))]
        console.print("\n".join(lines), markup=False)
    console.print(f"  both start: {'; '.join(f'{k}: {v}' for k, v in first.initial.items())}", markup=False)
    console.print(f"  parted: {first.violation}", markup=False)


@click.command()
@click.argument("game_name", metavar="GAME")
@click.argument("first", metavar="READING_A")
@click.argument("second", metavar="READING_B")
@common.bound_options
@max_pairs_option
@click.option(
    "--scenario",
    "scenario_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="also search the engine's own table and write the game found there as a scenario file",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def diff(
    game_name: str, first: str, second: str, max_pairs: int, scenario_file: Path | None, as_json: bool, **bounds: Any
) -> None:
    """The shortest game on which two readings of GAME's rules part, as both
    transcripts side by side.  A reading is 'seed' (the model as encoded), a
    variant's name, or a source text read first ('001', '002zh@bound_to_attack').  Exit 1 when they part, 0 when they agree within the bounds."""

    def run() -> int:
        _check_max_pairs(max_pairs)
        game = get_game(game_name)
        bounds_apply([game], bounds)
        common.check_output(scenario_file, "--scenario")
        comparison = linting.diff_variants(game, first, second, bounds, max_pairs)
        scenario: dict[str, Any] | None = None
        if scenario_file is not None:
            written = linting.divergence_scenario(game, first, second, max_pairs)
            if written.yaml is not None:
                _write(scenario_file, written.yaml)
            on_table = written.comparison.verdict if written.comparison else "not searched"
            scenario = {"file": str(scenario_file) if written.yaml else None, "on_the_engine_table": on_table, "why_not": written.why_not or None}
        if as_json:
            click.echo(json.dumps({**_diff_json(game_name, comparison), "scenario": scenario}, indent=2))
        else:
            _print_diff(comparison)
            if scenario is not None:
                if scenario["file"]:
                    click.echo(f"scenario: {scenario['file']} (on the engine's table {scenario['on_the_engine_table']})")
                else:
                    click.echo(f"no scenario written: {scenario['why_not']}")
        return 1 if comparison.divergence else 0

    common.guarded(run)


def _diff_json(game: str, c: Comparison) -> dict[str, Any]:
    d = c.divergence
    return {
        "game": game,
        "first": c.first,
        "second": c.second,
        "verdict": c.verdict,
        "pairs": c.pairs,
        "complete": c.complete,
        "seconds": round(c.seconds, 3),
        "divergence": None
        if d is None
        else {
            "action": d.action,
            "how": d.how,
            "steps": d.length,
            "differences": {k: {c.first: a, c.second: b} for k, (a, b) in d.differences.items()},
            "first": d.first.to_json(),
            "second": d.second.to_json(),
        },
    }


def _print_diff(c: Comparison) -> None:
    console = _console()
    console.print(f"{c.first} against {c.second}: {c.verdict} ({c.pairs} pairs of states, {c.seconds:.1f} s)", markup=False)
    d = c.divergence
    if d is None:
        return
    _side_by_side(console, d.first, d.second, (c.first, c.second))
    for k, (a, b) in d.differences.items():
        console.print(f"  {k}: {c.first} {a} | {c.second} {b}", markup=False)
