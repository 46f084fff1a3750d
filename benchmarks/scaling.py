"""How the cost of each checking method grows with the bounds; write SCALING.md and scaling.png.

    python -m benchmarks.scaling            # full run, about 35 minutes on two cores
    python -m benchmarks.scaling --quick    # smoke run on the turn-only model, under a minute

Three sweeps of the WoW TCG model, each from the default bounds with one bound
changed (turns, chain_depth, players), and four methods:

- explicit search: ``checkers.explicit.explore`` then ``explicit.check`` of every
  safety property, on the bounded model;
- BMC: ``checkers.bmc.check_all`` of every safety property to depth 30, on the
  bounded model;
- Spacer: ``checkers.spacer.check`` of each safety property, on the any-length
  model (``Game.any_length_machine``);
- k-induction: ``checkers.induction.check_all`` of every safety property, on the
  any-length model.

Every measurement runs in a fresh process with a hard time limit (the helper
of ``benchmarks/run.py``); a measurement that runs past it is reported as
such, never dropped.  The any-length model ignores ``turns``, ``deck`` and
``combats``, so along the turns sweep it is one and the same machine: Spacer
and k-induction are measured on it once.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import networkx
import z3

from benchmarks.run import _commit, _cpu_model, _in_child, _progress
from model import wowtcg

DEFAULTS = {b.name: b.default for b in wowtcg.BOUNDS}
HERE = Path(__file__).resolve().parent
METHODS = ("explicit", "bmc", "spacer", "k-induction")
TITLES = {"explicit": "explicit", "bmc": "BMC", "spacer": "Spacer", "k-induction": "k-induction"}
BOUNDED = ("explicit", "bmc")  # the methods that check the bounded model; the others the any-length one


@dataclass(frozen=True)
class Config:
    """What one run measures: the sweeps, and the limits of every measurement."""

    base: dict[str, int]
    sweeps: tuple[tuple[str, tuple[int, ...]], ...]
    limit_s: float  # wall-clock limit of one method on one row, in a child process
    max_states: int  # explicit search finishes the BFS level past this many states and stops
    bmc_depth: int
    bmc_query_ms: int  # per solver query (one per depth)
    max_k: int
    induction_query_ms: int  # per inductive query
    spacer_property_ms: int  # per property


FULL = Config(
    base=dict(DEFAULTS),
    sweeps=(("turns", (2, 4, 8, 16)), ("chain_depth", (2, 3, 4, 5, 6)), ("players", (2, 3, 4))),
    limit_s=180.0,
    max_states=1_000_000,
    bmc_depth=30,
    bmc_query_ms=60_000,
    max_k=6,
    induction_query_ms=20_000,  # the module's default
    spacer_property_ms=20_000,  # the module's default
)
#: The turn-only model (no allies, no combat): small enough that every method runs in seconds.
QUICK = Config(
    base={**DEFAULTS, "allies": 0, "combats": 0},
    sweeps=(("turns", (1, 2)), ("chain_depth", (1, 2))),
    limit_s=20.0,
    max_states=50_000,
    bmc_depth=10,
    bmc_query_ms=10_000,
    max_k=3,
    induction_query_ms=5_000,
    spacer_property_ms=2_000,
)


def row_bounds(config: Config, bound: str, value: int) -> dict[str, int]:
    """The bounds of one row: the base with one bound changed.

    Along the turns sweep the deck grows with the turns (up to its maximum, 4),
    to ``ceil(turns / players)`` cards: every count up to ``deck`` is an
    initial state, and a player who draws from an empty deck loses (409.6c),
    so with the default deck of 1 every game ends by turn 5 and turns=8 would
    explore the same game as turns=4.
    """
    bounds = {**config.base, bound: value}
    if bound == "turns":
        top = next(b.hi for b in wowtcg.BOUNDS if b.name == "deck")
        bounds["deck"] = max(config.base["deck"], min(top, math.ceil(value / bounds["players"])))
    return bounds


def _key(method: str, bounds: dict[str, int]) -> str:
    """Rows that build the same machine share a measurement: the any-length
    model has no turns, deck or combats."""
    from chainproof.games import get_game

    if method not in BOUNDED:
        bounds = {k: v for k, v in bounds.items() if k not in get_game("wowtcg").length_bounds}
    return method + " " + ",".join(f"{k}={v}" for k, v in sorted(bounds.items()))


# --- measurements, each in a child process --------------------------------------------


def _safety() -> tuple[Any, list[Any]]:
    import properties
    from chainproof.games import get_game

    game = get_game("wowtcg")
    return game, [p for p in game.properties if not isinstance(p, properties.Eventually)]


def _explicit_child(report: Callable[[Any], None], bounds: dict[str, int], max_states: int) -> None:
    from checkers import explicit

    game, safety = _safety()
    machine = game.machine(bounds)
    ex = explicit.explore(machine, max_states)
    report(dict(states=ex.states, transitions=ex.transitions, levels=ex.levels, expanded=ex.expanded,
                complete=ex.complete, explore_s=ex.seconds))
    started = time.perf_counter()
    verdicts = Counter(explicit.check(ex, p).verdict for p in safety)
    report(dict(verdicts=dict(verdicts), seconds=ex.seconds + time.perf_counter() - started))


def _bmc_child(report: Callable[[Any], None], bounds: dict[str, int], depth: int, query_ms: int) -> None:
    from checkers import bmc

    game, safety = _safety()
    machine = game.machine(bounds)
    started = time.perf_counter()  # before the solver exists, so its setup counts
    results = bmc.check_all(machine, safety, depth=depth, timeout_ms=query_ms,
                            on_depth=lambda k: report(dict(depth=k, seconds=time.perf_counter() - started)))
    report(dict(verdicts=dict(Counter(r.verdict for r in results)), seconds=time.perf_counter() - started))


def _induction_child(report: Callable[[Any], None], bounds: dict[str, int], max_k: int, query_ms: int) -> None:
    from checkers import induction

    game, safety = _safety()
    machine = game.any_length_machine(bounds)
    started = time.perf_counter()
    results = induction.check_all(machine, safety, max_k=max_k, timeout_ms=query_ms)
    report(dict(verdicts=dict(Counter(r.verdict for r in results)), seconds=time.perf_counter() - started))


def _spacer_child(report: Callable[[Any], None], bounds: dict[str, int], property_ms: int) -> None:
    try:
        from checkers import spacer
    except ImportError as exc:
        report(dict(error=f"checkers.spacer not importable ({exc})"))
        return
    game, safety = _safety()
    machine = game.any_length_machine(bounds)
    started = time.perf_counter()
    for p in safety:
        t = time.perf_counter()
        r = spacer.check(machine, p, property_ms)
        report(dict(property=p.name, verdict=r.verdict, seconds=time.perf_counter() - t))
    report(dict(seconds=time.perf_counter() - started))


@dataclass
class Cell:
    """One method on one row."""

    method: str
    bounds: dict[str, int]
    finished: bool = False  # within the time limit
    seconds: float | None = None  # the whole check, when finished
    verdicts: dict[str, int] = field(default_factory=dict)
    states: int | None = None
    transitions: int | None = None
    levels: int | None = None
    complete: bool | None = None
    depth: int | None = None  # BMC: the deepest depth finished
    per_property: list[tuple[str, str, float]] = field(default_factory=list)  # Spacer
    note: str = ""
    limit_s: float = 0.0
    skipped: bool = False  # not run: a smaller row of its sweep already ran past the limit


def measure(method: str, bounds: dict[str, int], config: Config) -> Cell:
    cell = Cell(method, bounds, limit_s=config.limit_s)
    child, args = {
        "explicit": (_explicit_child, (bounds, config.max_states)),
        "bmc": (_bmc_child, (bounds, config.bmc_depth, config.bmc_query_ms)),
        "k-induction": (_induction_child, (bounds, config.max_k, config.induction_query_ms)),
        "spacer": (_spacer_child, (bounds, config.spacer_property_ms)),
    }[method]
    started = time.monotonic()
    try:
        messages, cell.finished = _in_child(child, args, config.limit_s)
    except RuntimeError as exc:  # the child died (out of memory, a crash)
        cell.note = f"failed after {time.monotonic() - started:.0f} s: {exc}"
        return cell
    for m in messages:
        if "error" in m:
            cell.note = m["error"]
        if "states" in m:
            cell.states, cell.transitions, cell.levels = m["states"], m["transitions"], m["levels"]
            cell.complete = m["complete"]
            if not m["complete"]:
                cell.note = f"stopped at {m['states']:,} states (BFS levels 0-{m['expanded']} expanded)"
        if "depth" in m:
            cell.depth = m["depth"]
        if "property" in m:
            cell.per_property.append((m["property"], m["verdict"], m["seconds"]))
            cell.verdicts[m["verdict"]] = cell.verdicts.get(m["verdict"], 0) + 1
        if "verdicts" in m:
            cell.verdicts = m["verdicts"]
    if cell.finished and not cell.note.startswith("checkers.spacer"):
        cell.seconds = messages[-1]["seconds"]
    elif not cell.finished:
        done = f"{len(cell.per_property)} properties done" if method == "spacer" else ""
        done = done or (f"depth {cell.depth} finished" if cell.depth is not None else "")
        if method == "explicit" and cell.states is not None:
            done = f"explored {cell.states:,} states in {messages[0]['explore_s']:.0f} s, checks unfinished"
        cell.note = "; ".join(filter(None, (f"> {config.limit_s:.0f} s", done, cell.note)))
    _progress(f"{method:<11} {_bounds_text(bounds)}: {cell_text(cell)}")
    return cell


# --- running the sweeps --------------------------------------------------------------------


def run(config: Config, methods: tuple[str, ...], cells: dict[str, Cell], save: Callable[[], None]) -> None:
    """Measure every cell not yet in ``cells``, sweep by sweep, smallest value
    first.  A method that ran past the limit on a row is not run on the larger
    rows of the same sweep (they are marked as not run, with the reason)."""
    fresh: set[str] = set()  # measured by this run
    for method in methods:
        for bound, values in config.sweeps:
            over: str | None = None
            for value in values:
                bounds = row_bounds(config, bound, value)
                key = _key(method, bounds)
                stale = key not in fresh and cells[key].note.startswith("checkers.spacer not") if key in cells else False
                if key in cells and not cells[key].skipped and not stale:
                    cell = cells[key]
                elif over is not None:
                    cell = cells[key] = Cell(method, bounds, skipped=True, limit_s=config.limit_s,
                                             note=f"not run: > {config.limit_s:.0f} s already at {over}")
                else:
                    cell = cells[key] = measure(method, bounds, config)
                    fresh.add(key)
                    save()
                if not cell.finished and not cell.note.startswith("failed") and over is None:
                    over = f"{bound}={value}"


def _bounds_text(bounds: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in bounds.items())


def _verdicts_text(verdicts: dict[str, int]) -> str:
    return ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items(), key=lambda kv: -kv[1]))


def cell_text(cell: Cell) -> str:
    if cell.seconds is None:
        return cell.note
    text = f"{cell.seconds:.1f} s"
    if cell.states is not None:
        text += f", {cell.states:,} states" + ("" if cell.complete else " (incomplete)")
    if cell.verdicts:
        text += f"; {_verdicts_text(cell.verdicts)}"
    return text


# --- report --------------------------------------------------------------------------------


def _seconds(cell: Cell | None) -> str:
    if cell is None:
        return "pending"
    if cell.note.startswith("failed"):
        return "failed"
    if cell.skipped:
        return f"> {cell.limit_s:.0f} (not run)"
    if cell.seconds is None:
        return f"> {cell.limit_s:.0f}" if not cell.finished else "—"
    return f"{cell.seconds:.1f}"


def _explicit_cells(cell: Cell | None) -> list[str]:
    if cell is None:
        return ["pending"] * 3
    states = "—" if cell.states is None else f"{cell.states:,}"
    if cell.complete is False:
        complete = f"no: {cell.note}"
    elif cell.complete:
        complete = "yes"
    else:
        complete = cell.note or "—"
    return [states, _seconds(cell), complete]


def _solver_cells(cell: Cell | None, show_depth: bool = False) -> list[str]:
    if cell is None:
        return ["pending", ""]
    notes = [] if cell.skipped else [n for n in (cell.note,) if n and not n.startswith(">")]
    verdicts = _verdicts_text(cell.verdicts)
    if not cell.finished and not cell.skipped:
        verdicts = (verdicts + " so far" if verdicts else "") + (
            f" (depth {cell.depth} finished)" if show_depth and cell.depth is not None else ""
        )
    return [_seconds(cell), "; ".join(filter(None, [verdicts.strip(), *notes])) or "—"]


def _table(config: Config, bound: str, values: tuple[int, ...], cells: dict[str, Cell]) -> list[str]:
    extra = ["deck"] if bound == "turns" else []
    head = [bound, *extra, "explicit states", "explicit s", "complete", "BMC s", "BMC verdicts",
            "Spacer s", "Spacer verdicts", "k-ind. s", "k-induction verdicts"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---:|" * (len(head) - 7) + "---|---:|---|---:|---|---:|---|"]
    for value in values:
        bounds = row_bounds(config, bound, value)
        get = {m: cells.get(_key(m, bounds)) for m in METHODS}
        same = bound == "turns" and value != values[0]  # the any-length model does not depend on turns or deck
        spacer, kind = _solver_cells(get["spacer"]), _solver_cells(get["k-induction"])
        if same:
            spacer = kind = ["same model as turns=" + str(values[0]), ""]
        row = [str(value), *[str(bounds["deck"])] * len(extra), *_explicit_cells(get["explicit"]),
               *_solver_cells(get["bmc"], show_depth=True), *spacer, *kind]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def _spacer_table(config: Config, cells: dict[str, Cell]) -> list[str]:
    """Spacer's seconds and verdict per property, one column per any-length machine measured."""
    columns: list[tuple[str, Cell]] = []
    seen: set[str] = set()
    for bound, values in config.sweeps:
        for value in values:
            key = _key("spacer", row_bounds(config, bound, value))
            cell = cells.get(key)
            if key in seen or cell is None or not cell.per_property:
                continue
            seen.add(key)
            changed = {k: v for k, v in row_bounds(config, bound, value).items() if k not in ("turns", "deck", "combats")}
            base = {k: v for k, v in config.base.items() if k not in ("turns", "deck", "combats")}
            label = ", ".join(f"{k}={v}" for k, v in changed.items() if base[k] != v) or "base bounds"
            columns.append((label, cell))
    if not columns:
        return []
    names = list(dict.fromkeys(name for _, c in columns for name, _, _ in c.per_property))
    short = {"proved": "proved", "violated": "VIOLATED", "unknown": "unknown", "vacuous": "vacuous"}
    lines = [
        "## Spacer, property by property",
        "",
        "Seconds and verdict of each `spacer.check` (an empty cell: not reached before the row's limit).",
        "",
        "| property | " + " | ".join(label for label, _ in columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for name in names:
        row = []
        for _, cell in columns:
            hit = next(((v, sec) for n, v, sec in cell.per_property if n == name), None)
            row.append("" if hit is None else f"{short.get(hit[0], hit[0])} {hit[1]:.1f}")
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines.append("")
    return lines


def _series(config: Config, bound: str, values: tuple[int, ...], cells: dict[str, Cell], method: str) -> list[Cell | None]:
    return [cells.get(_key(method, row_bounds(config, bound, v))) for v in values]


def _ratio_text(xs: list[int], cs: list[Cell | None], bound: str) -> str:
    """The measured seconds along a sweep, for the summary."""
    parts = []
    for x, c in zip(xs, cs):
        if c is None:
            continue
        parts.append(f"{bound}={x}: {_seconds(c)} s" if c.seconds is not None else f"{bound}={x}: {_seconds(c)} s")
    return ", ".join(parts)


def summary(config: Config, cells: dict[str, Cell]) -> list[str]:
    """What the numbers show, from the numbers: per sweep, where each method
    stops fitting in the limit and how its cost grows until then."""
    lines = []
    for bound, values in config.sweeps:
        bits = []
        for method in METHODS:
            series = _series(config, bound, values, cells, method)
            if bound == "turns" and method not in BOUNDED and series[0] is not None and series[0].seconds is not None:
                first = series[0]
                bits.append(
                    f"{TITLES[method]} is constant by construction (the any-length model has no turns or deck): "
                    f"{_seconds(first)} s, measured once"
                )
                continue
            if bound == "turns" and method not in BOUNDED:
                series = series[:1]
            if all(c is None or (c.seconds is None and c.finished) for c in series):
                note = next((c.note for c in series if c is not None and c.note), "not measured")
                bits.append(f"{TITLES[method]}: no numbers ({note})")
                continue
            fits = [(v, c) for v, c in zip(values, series) if c is not None and c.seconds is not None]
            over = next((v for v, c in zip(values, series) if c is not None and not c.finished), None)
            incomplete = next((v for v, c in zip(values, series) if c is not None and c.complete is False), None)
            text = f"{TITLES[method]}: " + ", ".join(f"{c.seconds:.1f} s at {v}" for v, c in fits)
            if len(fits) >= 2 and fits[0][1].seconds and all(c.complete is not False for _, c in fits):
                text += f" (×{fits[-1][1].seconds / fits[0][1].seconds:.1f} from {fits[0][0]} to {fits[-1][0]})"
            if method == "explicit":
                sizes = [(v, c.states) for v, c in zip(values, series) if c is not None and c.states]
                if sizes:
                    text += "; states " + ", ".join(f"{s:,}" for _, s in sizes)
                if incomplete is not None:
                    text += f"; incomplete from {bound}={incomplete} (the {config.max_states:,}-state cap)"
            if over is not None:
                text += f"; past the {config.limit_s:.0f} s limit from {bound}={over}"
            unknown = [v for v, c in zip(values, series) if c is not None and c.verdicts.get("unknown")]
            if unknown:
                text += f"; solver gave up (unknown verdicts) at {', '.join(f'{bound}={v}' for v in unknown)}"
            bits.append(text)
        lines += [f"- **{bound}.** " + "; ".join(bits[:1]) + "."] + [f"  - {b}." for b in bits[1:]]
    return lines


def render(config: Config, quick: bool, cells: dict[str, Cell], started: float, finished: bool,
           reading: list[str], commit: str) -> str:
    command = "python -m benchmarks.scaling" + (" --quick" if quick else "")
    game, safety = _safety()
    elapsed = time.time() - started
    lines = [
        "# Scaling: how each checking method's cost grows with the bounds",
        "",
        f"Written by `{command}`" + ("" if finished else " (in progress: rows marked *pending* are not measured yet)")
        + f"; wall-clock time of the measurements: about {elapsed / 60:.0f} min. The picture is `scaling.png` "
        "(needs the `bench` extra: `pip install -e '.[bench]'`).",
        "",
        "## Machine",
        "",
        f"- Date: {datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Platform: {platform.platform()}",
        f"- CPU: {_cpu_model()}, {os.cpu_count()} logical CPUs (other work shared them during the run: "
        "expect a few tens of percent of noise on any one number)",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- z3: {z3.get_version_string()}",
        f"- networkx: {networkx.__version__}",
        f"- chainproof commit: {commit}",
        "",
        "## What was measured",
        "",
        f"- Base bounds: {_bounds_text(config.base)}. Each sweep changes one bound"
        + (" (turns also raises the deck, below)." if any(b == "turns" for b, _ in config.sweeps) else "."),
        f"- Properties: the {len(safety)} safety properties (`game.properties` without the `Eventually` "
        "ones) when the run was made, the same set for every method of one run.",
        f"- **explicit**: `explicit.explore(machine, max_states={config.max_states:,})` on the bounded model, "
        "then `explicit.check` of each property; *explicit s* is the search plus the checks (building the "
        "machine excluded). *complete* says whether every reachable state was expanded; past the cap the "
        "search finishes its BFS level and stops.",
        f"- **BMC**: `bmc.check_all(machine, props, depth={config.bmc_depth}, timeout_ms={config.bmc_query_ms:,})` "
        "on the bounded model, all properties in one incremental solver; seconds from creating the solver "
        f"to the verdicts at depth {config.bmc_depth}.",
        f"- **Spacer**: `spacer.check(machine, prop, {config.spacer_property_ms:,})` on the any-length model "
        "(`get_game('wowtcg').any_length_machine(bounds)`), one property after another; seconds is their sum.",
        f"- **k-induction**: `induction.check_all(machine, props, max_k={config.max_k}, "
        f"timeout_ms={config.induction_query_ms:,})` on the any-length model.",
        f"- Each method on each row runs in a fresh process, killed after **{config.limit_s:.0f} s**; such a cell "
        f"reads `> {config.limit_s:.0f}`, with what had finished by then. Once a method has run past the limit "
        "on a row, it is not run on the larger rows of that sweep (`> limit (not run)`): every sweep here only "
        "adds behaviour, so those rows are at least as hard.",
        "- The any-length model ignores `turns`, `deck` and `combats`: along the turns sweep it is a single "
        "machine, so Spacer and k-induction are measured once there (the first row) and the other rows say so.",
    ]
    if any(b == "turns" for b, _ in config.sweeps):
        lines += [
            "- **The turns sweep raises the deck with the turns**, to `ceil(turns / players)` cards, at most 4 "
            "(the bound's maximum): every deck size up to `deck` is an initial state, and drawing from an empty "
            "deck loses (409.6c), so at the default deck=1 every game is over by turn 5 and turns=8 or 16 would "
            "explore nothing new. With deck=4 the second player is decked on turn 10 and the first on turn 11, "
            f"so turns=16 explores games of at most 10 turns. `combats` stays at {config.base['combats']}"
            + (
                ", the default: one combat per turn is explored (a further one that a must-attack character would "
                "force stops at `combat_limit`); that ends no turn early, so it does not make the sweep trivial."
                if config.base["combats"]
                else ": the turn-only model, no combat."
            ),
            f"- BMC unrolls {config.bmc_depth} steps whatever the turns bound: one turn with a combat takes about "
            "20 steps (RESULTS.md: two turns with a combat each take 42), so a deeper turns bound changes only "
            "the domains of the turn counter and the deck in its encoding.",
        ]
    if any(b == "players" for b, _ in config.sweeps):
        lines.append(
            f"- The players sweep keeps turns={config.base['turns']}: with 3 or 4 players only the first two take "
            "a turn, but every player holds priority in each window and has a party that can be attacked."
        )
    lines.append("")
    for bound, values in config.sweeps:
        lines += [f"## Sweep: {bound}", ""] + _table(config, bound, values, cells) + [""]
    lines += _spacer_table(config, cells)
    lines += ["## What it shows", ""] + reading + ["", "### The numbers, method by method", ""]
    lines += summary(config, cells) + [""]
    return "\n".join(lines)


# --- picture --------------------------------------------------------------------------------


def plot(config: Config, cells: dict[str, Cell], path: Path) -> None:
    """Log-scale seconds against the bound, one panel per sweep, one line per method."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit(
            "benchmarks.scaling: drawing scaling.png needs matplotlib, from the 'bench' extra: "
            "pip install -e '.[bench]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = {"explicit": ("tab:blue", "o"), "bmc": ("tab:orange", "s"), "spacer": ("tab:green", "D"),
              "k-induction": ("tab:red", "v")}
    fig, axes = plt.subplots(1, len(config.sweeps), figsize=(5 * len(config.sweeps), 4.2), squeeze=False)
    for ax, (bound, values) in zip(axes[0], config.sweeps):
        for method in METHODS:
            colour, marker = styles[method]
            series = _series(config, bound, values, cells, method)
            if bound == "turns" and method not in BOUNDED:
                series = [series[0]] * len(values)  # one machine along the whole sweep
            done = [(v, c.seconds) for v, c in zip(values, series) if c is not None and c.seconds is not None]
            over = [v for v, c in zip(values, series) if c is not None and not c.finished]
            label = TITLES[method] + ("" if method in BOUNDED else " (any-length model)")
            if done:
                ax.plot([v for v, _ in done], [s for _, s in done], color=colour, marker=marker, label=label)
                hollow = [(v, c.seconds) for v, c in zip(values, series) if c is not None and c.complete is False and c.seconds]
                if hollow:
                    ax.plot([v for v, _ in hollow], [s for _, s in hollow], linestyle="none", marker="o",
                            markersize=12, markerfacecolor="none", color=colour)
            if over:
                ax.plot(over, [config.limit_s * 1.15] * len(over), linestyle="none", marker="^", color=colour,
                        label=None if done else label)
        ax.axhline(config.limit_s, color="grey", linestyle=":", linewidth=1)
        ax.text(values[0], config.limit_s * 1.03, f"limit {config.limit_s:.0f} s", color="grey", fontsize=8, va="bottom")
        ax.set_yscale("log")
        ax.set_xticks(values)
        if bound == "turns":
            ax.set_xscale("log", base=2)
            ax.set_xticks(values, [str(v) for v in values])
        ax.set_xlabel(bound + (" (deck raised with it; any-length model: one machine)" if bound == "turns" else ""))
        ax.set_ylabel("seconds (log)")
        ax.set_title(f"sweep: {bound}")
        ax.grid(True, which="both", alpha=0.3)
    handles: dict[str, Any] = {}
    for ax in axes[0]:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.suptitle(
        "WoW TCG model: seconds per method (▲ past the limit; ○ explicit search stopped at its state cap)", fontsize=10
    )
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --- main ----------------------------------------------------------------------------------

#: What the numbers of the committed run show, in words (checked against the
#: tables by hand after that run; the bullets under it are computed).
READING: list[str] = [
    "- **Explicit search is what the bounds break.** At the defaults the whole graph is 146,144 states in 58 BFS "
    "levels, searched and checked in 15 s. Two more turns (turns=4, with the deck of 2 they need) put more than "
    "a million states in levels 0-57, seven times the whole turns=2 graph, and the search stops there at the "
    "1,000,000-state cap. At turns=8 and 16 (deck=4: 25 combinations of starting decks instead of 4) the cap "
    "is hit at level 44: the two rows are the same search, covering runs of up to 44 steps, when two turns with "
    "a combat each already take 42, so the turns the higher bounds allow are never reached. A third or fourth player stops it the same way (levels 56 "
    "and 59). Past the cap its seconds (91-165 s) measure the cap, not the instance.",
    "- **Chain depth costs explicit search nothing here**: with no starting hand and one card per deck no game "
    "holds more than four links at once, as the state counts show: they stop growing at chain_depth=4 "
    "(146,144, 153,504, then 155,232 three times).",
    "- **BMC to depth 30 does not see the turns bound**: 29-44 s at every value, a spread that is this machine's "
    "noise, not a trend. Thirty steps do not finish two turns with a combat (42 steps, RESULTS.md), so a higher "
    "bound only widens the turn counter and the deck in the encoding. It grows with chain depth although the "
    "game does not fill the chain (30-43 s at depths 2-4, 57-58 s at 5 and 6: the encoding carries every slot) and most with players (38, 80, "
    "86 s): each player adds a seat to every priority window and a party to every state. With 3 or 4 players "
    "one property turns vacuous at depth 30: its premise lies further than 30 steps, a limit of the depth and "
    "no finding about the rules.",
    "- **The unbounded methods are constant in turns by construction** (one any-length machine, measured once). "
    "k-induction is broken by no sweep and is the cheapest method on every row: 10-12 s and the same verdicts "
    "(30 of the 34 safety properties proved; 2 not k-inductive up to k=6, 2 vacuous within its base case) at "
    "every chain depth from 2 to 6, and about double per player (10, 23, 44 s; 25 proved with 3 or 4 players).",
    "- **Spacer grows mildly with chain depth (113 s at 2, 145 s at 6), much of it one timeout**: deadlock, "
    "which k-induction proves with the playable-state invariants as lemmas, runs out Spacer's 20 s at every "
    "depth (Spacer here is given no lemmas); combat_damage_equals_atk takes 10-15 s at depths 2-4 and runs out "
    "at 5 and 6. Most others take 1-3 s. Players break it: with 3 players most properties take 2-25 s, and 28 "
    "of the 34 were done (25 proved, 3 unknown) at the 180 s limit, so players=4 was not run.",
    "- **Which sweep breaks which method**: turns break explicit search only (incomplete from turns=4), players "
    "break explicit search and Spacer (from players=3) and roughly double BMC and k-induction; chain depth "
    "breaks none at these bounds. At two players the two unbounded methods together prove all 34 safety "
    "properties: `chainproof verify` runs k-induction to k=4, then Spacer on the 4 it leaves, two at a time, "
    "in about 20 s.",
    "- **Which source each column measured**: explicit search and BMC ran on the bounded model of commit "
    "221e213, with the 30 properties of its catalogue (BMC's verdict counts are of those); the bounded model "
    "has not changed since, but the catalogue has grown by five invariants. Spacer and k-induction ran on the "
    "commit named above, with the 34 safety properties of today's catalogue.",
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scaling", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run on the turn-only model (under a minute)")
    parser.add_argument("--output-dir", type=Path, default=None,
                        help="where SCALING.md and scaling.png go (default: benchmarks/, or a temporary directory with --quick)")
    parser.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated subset of {','.join(METHODS)}")
    parser.add_argument("--raw", type=Path, default=None,
                        help="JSON file of measurements: loaded if it exists (cells in it are not measured again), "
                             "saved after every measurement")
    parser.add_argument("--commit", default=None,
                        help="what to call the source measured (default: the git commit of this checkout)")
    parser.add_argument("--render-only", action="store_true", help="only rewrite SCALING.md and scaling.png from --raw")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else FULL
    methods = tuple(m.strip() for m in args.methods.split(",") if m.strip())
    if unknown := set(methods) - set(METHODS):
        parser.error(f"unknown methods: {', '.join(sorted(unknown))}")
    out = args.output_dir or (Path(tempfile.mkdtemp(prefix="scaling-")) if args.quick else HERE)
    out.mkdir(parents=True, exist_ok=True)

    cells: dict[str, Cell] = {}
    started = time.time()
    if args.raw is not None and args.raw.exists():
        raw = json.loads(args.raw.read_text())
        started -= raw.get("elapsed", 0.0)
        commit = args.commit or raw.get("commit") or _commit()
        cells = {k: Cell(**{**v, "per_property": [tuple(p) for p in v["per_property"]]}) for k, v in raw["cells"].items()}
    else:
        commit = args.commit or _commit()

    def save(finished: bool = False) -> None:
        if args.raw is not None:
            args.raw.write_text(json.dumps({"elapsed": time.time() - started, "commit": commit,
                                            "cells": {k: asdict(c) for k, c in cells.items()}}, indent=1))
        (out / "SCALING.md").write_text(render(config, args.quick, cells, started, finished, READING if not args.quick else [], commit))

    if not args.render_only:
        run(config, methods, cells, save)
    save(finished=True)
    plot(config, cells, out / "scaling.png")
    print(f"wrote {out / 'SCALING.md'} and {out / 'scaling.png'} ({(time.time() - started) / 60:.1f} min)")


if __name__ == "__main__":
    main()
