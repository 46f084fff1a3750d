"""Rendering results: Rich tables on a terminal, plain text when piped, DOT and SVG for graphs."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from collections import Counter
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from model.machine import Machine
from model.registry import STATUSES
from checkers.results import VERDICTS, Result
from chainproof.games import BadInput
from scenarios import runner as scenario_runner

#: The distribution whose program draws graphs: a port of Graphviz's ``dot`` shipped as a wheel,
#: installed with the `svg` extra (the test extra includes it).
RENDERER = "graphviz-pure"

VERDICT_STYLE = {
    "proved": "bold green",
    "holds-to-depth": "green",
    "violated": "bold red",
    "vacuous": "yellow",
    "unknown": "magenta",
}


@contextmanager
def progress(console: Console, enabled: bool) -> Iterator[Callable[[str, int, int], None]]:
    """A progress bar on a terminal; silence when piped or when printing JSON."""
    if not (enabled and console.is_terminal):
        yield lambda description, done, total: None
        return
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task("starting", total=1)

        def advance(description: str, done: int, total: int) -> None:
            bar.update(task, description=description, completed=done, total=total)

        yield advance


def summary(results: Sequence[Result], seconds: float, stats: dict[str, Any]) -> dict[str, Any]:
    counts = Counter(r.verdict for r in results)
    return {
        "total": len(results),
        "verdicts": {v: counts.get(v, 0) for v in VERDICTS},
        "passing": all(r.passing for r in results),
        "seconds": round(seconds, 3),
        "games": stats,
    }


def _stdout() -> Console:
    return Console(highlight=False, soft_wrap=True)


def print_results(results: Sequence[Result], summary: dict[str, Any]) -> None:
    console = _stdout()
    if console.is_terminal:
        table = Table(title="chainproof verify", show_lines=False)
        # Names and verdicts stay whole; only the rule list wraps on a narrow terminal.
        for column in ("game", "property", "rules", "method", "verdict", "depth", "seconds"):
            table.add_column(
                column, justify="right" if column in ("depth", "seconds") else "left", no_wrap=column != "rules"
            )
        for r in results:
            table.add_row(
                r.game,
                r.property,
                " ".join(r.rules),
                r.method,
                f"[{VERDICT_STYLE[r.verdict]}]{r.verdict}[/]",
                str(r.depth),
                f"{r.seconds:.2f}",
            )
        console.print(table)
    else:
        # One line per result, the rule list last: the columns a log reader
        # scans stay within 100 columns, however many rules a property cites.
        rows = [("game", "property", "verdict", "method", "depth", "seconds", "rules")]
        rows += [(r.game, r.property, r.verdict, r.method, str(r.depth), f"{r.seconds:.2f}", " ".join(r.rules)) for r in results]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        for row in rows:
            click.echo("  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[-1]]).rstrip())
    for r in results:
        if r.counterexample is not None:
            click.echo(f"\n{r.game} {r.property} ({r.method}): violated in {r.depth} steps")
            click.echo(r.counterexample.text())
        elif r.verdict in ("vacuous", "unknown"):
            click.echo(f"\n{r.game} {r.property} ({r.method}): {r.verdict}: {r.note}")
    for game, s in summary["games"].items():
        scope = "reachable states" if s["complete"] else f"states (search stopped {s.get('stopped') or 'short'})"
        click.echo(f"\n{game}: {s['states']} {scope}, {s['transitions']} transitions, explored in {s['exploration_seconds']:.2f}s")
        if (s.get("stopped") or "").startswith("at the memory budget"):
            click.echo("  for more, lower a bound or raise --max-memory")
    if summary.get("variant"):
        click.echo(f"\nrule variant: {summary['variant']} (not the seed's reading)")
    if summary.get("reading"):
        click.echo(f"\nsource reading: {summary['reading']} (the model's reading where it is silent)")
    counts = ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items() if n)
    click.echo(f"{summary['total']} results: {counts} in {summary['seconds']:.1f}s")


def print_explanation(r: Result) -> None:
    """One property's unbounded verdict and, with a proof, the invariant behind it."""
    click.echo(f"{r.game} {r.property} [{' '.join(r.rules)}]: {r.verdict} by {r.method} in {r.seconds:.2f}s")
    click.echo(f"model: games of any length at {', '.join(f'{k}={v}' for k, v in r.bounds.items())}")
    if r.note:
        click.echo(r.note)
    if r.invariant:
        click.echo("\ninductive invariant (holds initially, every edge keeps it, and it implies the property):")
        click.echo(r.invariant)
    if r.counterexample is not None:
        click.echo("")
        click.echo(r.counterexample.text())


#: A rule number as the reference engines cite it in comments, docstrings and messages:
#: seed numbers (``409.6b``, a section ``404``) and Comprehensive Rules 7.4 ones, each
#: written with its prefix (``CR7.4 709.2a``; a bare ``709.2a`` is read as a seed number).
#: A number may end a sentence (``... 100.4.``); in a range ``601.2c-d`` only the first end counts.
ENGINE_CITATION = re.compile(r"(?<![\w.])(CR7\.4 )?(\d{3}(?:\.\d+[a-z]?)?)(?!\w|\.\w)")
#: Seed file names, as in ``000 404.4 example``: not rules.
SEED_FILES = frozenset({"000", "001", "002", "003", "004"})


def engine_source(game: str) -> list[Path]:
    """The source files of a game's reference engine (``engine/<game>/*.py``); none if it has no engine.

    The package is located without being imported, so reading the citations runs no engine code."""
    try:
        spec = importlib.util.find_spec(f"engine.{game}")
    except ImportError:
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    return sorted(p for folder in spec.submodule_search_locations for p in Path(folder).glob("*.py"))


#: An assumption the engine names (``assumed:turn-end``), registered or not.
ASSUMPTION_CITATION = re.compile(r"(?<![\w.:-])assumed:[a-z0-9-]+(?![\w-])")


def engine_citations(game: str, paragraph_ids: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each rule a game's reference engine cites, with where (``state.py:319``)
    it does: rule numbers, assumptions, and the registry's paragraph ids
    (``damage.lethal-first``, for a rulebook without numbers), which are
    found by name because code is full of other dotted words."""
    paragraphs = [re.compile(r"(?<![\w.:-])" + re.escape(rid) + r"(?![\w-])") for rid in paragraph_ids]
    cited: dict[str, list[str]] = {}
    for path in engine_source(game):
        text = path.read_text(encoding="utf-8")
        found = [(m.start(), (m.group(1) or "") + m.group(2)) for m in ENGINE_CITATION.finditer(text) if m.group(2) not in SEED_FILES]
        found += [(m.start(), m.group(0)) for m in ASSUMPTION_CITATION.finditer(text)]
        found += [(m.start(), m.group(0)) for pattern in paragraphs for m in pattern.finditer(text)]
        for start, rule in sorted(found):
            cited.setdefault(rule, []).append(f"{path.name}:{text.count(chr(10), 0, start) + 1}")
    return dict(sorted(cited.items()))


def coverage(game: Any, cited: set[str], engine: set[str] | None = None, scenario: set[str] | None = None) -> dict[str, Any]:
    """The registry of one game, by section, with the share of each status, of the rules
    its reference engine cites (``engine``: the rule numbers the engine's source cites)
    and of the rules a shipped scenario names (``scenario``)."""
    engine = engine or set()
    scenario = scenario or set()
    sections = []
    for name, rules in game.registry.by_section().items():
        counts = Counter(r.status for r in rules)
        sections.append(
            {
                "section": name,
                "rules": len(rules),
                **{status: counts.get(status, 0) for status in STATUSES},
                "engine": sum(r.id in engine for r in rules),
                "scenario": sum(r.id in scenario for r in rules),
            }
        )
    rules = list(game.registry.rules.values())
    counts = Counter(r.status for r in rules)
    return {
        "game": game.name,
        "rules": len(rules),
        **{status: counts.get(status, 0) for status in STATUSES},
        "engine": sum(r.id in engine for r in rules),
        "scenario": sum(r.id in scenario for r in rules),
        "sections": sections,
        "entries": [
            {
                "id": r.id,
                "status": r.status,
                "summary": r.summary,
                "why": r.why,
                "cited": r.id in cited,
                "engine": r.id in engine,
                "scenario": r.id in scenario,
            }
            for r in rules
        ],
        "uncited": [r.id for r in game.registry.uncited(cited)],
        # Rule numbers the engine cites that the registry lacks (tests/test_engine_registry.py fails on them).
        "engine_unregistered": sorted(engine - set(game.registry.rules)),
    }


def game_coverage(game: Any) -> dict[str, Any]:
    """``chainproof coverage``'s table of one game: its registry against what
    its models and properties cite, what its reference engine's source cites
    and what its shipped scenarios name."""
    paragraphs = [rid for rid in game.registry.rules if "." in rid and ":" not in rid and not rid[0].isdigit()]
    try:
        named = scenario_runner.rules_named(game.name) if game.name in scenario_runner.ADAPTERS else set()
    except scenario_runner.ScenarioFileError as exc:
        raise BadInput(f"a shipped scenario is malformed, so the rules it names are unknown: {exc}") from None
    return coverage(game, game.cited_rules(), set(engine_citations(game.name, paragraphs)), named)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def print_coverage(tables: Sequence[dict[str, Any]]) -> None:
    console = _stdout()
    columns = (*STATUSES, "engine", "scenario")
    for t in tables:
        rows = [(s["section"], str(s["rules"]), *(f"{s[k]} ({_pct(s[k], s['rules'])})" for k in columns)) for s in t["sections"]]
        rows.append(("all", str(t["rules"]), *(f"{t[k]} ({_pct(t[k], t['rules'])})" for k in columns)))
        if console.is_terminal:
            table = Table(title=f"{t['game']} rules registry")
            for column in ("section", "rules", *columns):
                table.add_column(column, justify="left" if column == "section" else "right")
            for row in rows:
                table.add_row(*row)
            console.print(table)
        else:
            # Piped: plain columns, whole headers, about 90 columns wide.
            console.print(f"{t['game']} rules registry", markup=False)
            lines = [("section", "rules", *columns), *rows]
            widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
            for line in lines:
                cells = [line[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(line[1:], widths[1:]))]
                console.print("  ".join(cells), markup=False)
        console.print(
            "+ encoded, - not-modelled, ? assumed, ~ abstracted, v only in a rule variant; "
            "e: cited by the reference engine; s: named by a shipped scenario",
            markup=False,
        )
        for e in t["entries"]:
            mark = {"encoded": "+", "not-modelled": "-", "assumed": "?", "abstracted": "~", "variant": "v"}[e["status"]]
            flags = ("e" if e["engine"] else " ") + ("s" if e["scenario"] else " ")
            why = f"  ({e['why']})" if e["why"] else ""
            console.print(f" {mark} {flags} {e['id']:<28} {e['summary']}{why}", markup=False)
        if t["uncited"]:
            console.print(f"rules marked encoded or assumed that nothing cites: {', '.join(t['uncited'])}", markup=False)
        if t["engine_unregistered"]:
            console.print(
                f"rules the reference engine cites that the registry lacks: {', '.join(t['engine_unregistered'])}",
                markup=False,
            )


def game_questions(game: Any) -> dict[str, Any]:
    """``chainproof coverage --questions``: each question the game's model asks
    of the rules, which sources rule on it, and the declared reading it
    follows (issue: readings declared, not coded)."""
    book = game.machine({}).rulings
    reading = book.reading
    rows = []
    for q in book.declared.values():
        own = reading.questions.get(q.name)
        rows.append({
            "question": q.name,
            "doc": " ".join(q.doc.split()),
            "sources": list(q.sources),
            "rulings": len(q.rulings),
            "assumptions": sum(r.assumption for r in q.rulings) + (0 if q.default_texts else 1),
            "read_by": list(reading.precedence_for(q.name)),
            "why": own[1] if own is not None else reading.why,
            "asked_at": list(q.asked_at),
        })
    return {"game": game.name, "reading": reading.name, "precedence": list(reading.precedence), "why": reading.why, "questions": rows}


def print_questions(tables: Sequence[dict[str, Any]]) -> None:
    """One line per question: whatever the width, so that piped output keeps every column."""
    console = _stdout()
    for t in tables:
        console.print(f"{t['game']}: {len(t['questions'])} questions; the model reads {' > '.join(t['precedence'])} ({t['why']})", markup=False)
        width = max(len(q["question"]) for q in t["questions"])
        for q in t["questions"]:
            own = q["read_by"] != t["precedence"]
            order = f"; read by {' > '.join(q['read_by'])} ({q['why']})" if own else ""
            assumed = f", {q['assumptions']} by assumption (no text)" if q["assumptions"] else ""
            counted = f"{q['rulings']} ruling{'' if q['rulings'] == 1 else 's'}"
            console.print(f"  {q['question']:<{width}}  {counted} from {', '.join(q['sources']) or 'no text'}{assumed}{order}", markup=False)


def edge_family(name: str) -> str:
    """Edges that differ only in their bracketed choice form a family:
    ``propose_combat[P1 hero -> P2 hero]`` belongs to ``propose_combat[...]``;
    the ``@location`` suffix is kept."""
    base, bracket, rest = name.partition("[")
    if not bracket:
        return name
    return f"{base}[...]{rest.partition(']')[2]}"


def edge_families(machine: Machine) -> dict[tuple[str, str], dict[str, tuple[str, ...]]]:
    """For each pair of joined locations, each edge family and the rules its members cite (in order, once each)."""
    grouped: dict[tuple[str, str], dict[str, dict[str, None]]] = {}
    for e in machine.edges:
        rules = grouped.setdefault((e.source, e.target), {}).setdefault(edge_family(e.name), {})
        rules.update(dict.fromkeys(e.rules))
    return {pair: {family: tuple(rules) for family, rules in families.items()} for pair, families in grouped.items()}


def dot(machine: Machine) -> str:
    """The control-location graph in Graphviz DOT, each edge labelled with its rules."""
    lines = [f'digraph "{machine.game}" {{', "  rankdir=TB;", '  node [shape=box, style=rounded, fontname="Helvetica"];']
    for name, loc in machine.locations.items():
        shape = ", shape=doubleoctagon" if loc.terminal else ""
        lines.append(f'  "{name}" [label="{name}\\n{" ".join(loc.rules)}"{shape}];')
    # Edges joining the same two locations share one arrow, one line per edge
    # family, so the self-loops of a priority window stay legible.
    for (source, target), families in edge_families(machine).items():
        label = "".join(f"{family}  {' '.join(rules)}\\l" for family, rules in families.items())
        lines.append(f'  "{source}" -> "{target}" [label="{label}", fontsize=9];')
    lines.append("}")
    return "\n".join(lines)


class RenderError(Exception):
    """The SVG renderer is not installed or could not draw the graph."""


def _renderer() -> Path:
    """The program of the installed renderer distribution.

    Found through its metadata rather than PATH, which lacks the environment's
    scripts directory when chainproof runs from a virtual environment that is not activated.
    """
    try:
        files = metadata.distribution(RENDERER).files or []
    except metadata.PackageNotFoundError:
        raise RenderError(
            f"cannot draw SVG: {RENDERER} is not installed (pip install 'chainproof[svg]'), or use --format dot"
        ) from None
    for file in files:
        if file.name in (RENDERER, f"{RENDERER}.exe"):
            return Path(file.locate())
    raise RenderError(f"cannot draw SVG: the {RENDERER} distribution has no {RENDERER} program")


def svg(dot_source: str) -> str:
    """The graph laid out and drawn as SVG by the renderer."""
    try:
        process = subprocess.run(
            [_renderer(), "-Tsvg"], input=dot_source, capture_output=True, encoding="utf-8", check=False
        )
    except OSError as exc:
        raise RenderError(f"cannot draw SVG: {RENDERER} did not start: {exc}") from None
    if process.returncode != 0:
        reason = " ".join(process.stderr.split()) or "no message"
        raise RenderError(f"cannot draw SVG: {RENDERER} exited with status {process.returncode}: {reason}")
    return process.stdout
