"""Campaigns: a regression matrix of verify, lint, scenarios and conform runs,
declared in a YAML file, each cell a Dask task, each result kept in SQLite.

A campaign file names, per command, one or more matrices; every combination
of a matrix's axes is a *cell* with a stable key::

    rlimit: 400000000                  # optional: Z3 resource units per query
    verify:
      - games: [wowtcg]
        properties: [turn_player_first, "priority_*"]   # names or globs (default "*")
        readings: [seed, basic-chain-priority, "001"]   # as `chainproof diff` names them
        bounds: [{turns: 1, allies: 0}, {}]
        methods: [portfolio, explicit]
    lint:
      - games: [hota]
    scenarios:
      - games: [wowtcg, riftbound, hota]
    conform:
      - games: [riftbound]
        seeds: [0, 1, 2]
        examples: 20

gives cells such as ``verify:wowtcg:turn_player_first:reading=seed:turns=1,allies=0:method=portfolio``
and ``conform:riftbound:seed=2:examples=20``.  Each cell calls what its
command calls (the portfolio or one method, ``linting.run``,
``runner.run_all``, ``harness.conform``), with the command's defaults, and
keeps that command's ``--json`` as its result.

A cell runs in a worker process with one thread: the portfolio keeps its
machines in a module global and Z3 shares one context, so two cells must
never share a process at once; and the portfolio runs its methods in that
process, since the cluster already spreads the work over the cores.  The
client writes each result the moment it arrives (``Store.record``), so an
interrupted campaign loses no finished cell and a rerun does only the rest.
"""

from __future__ import annotations

import hashlib
import json
import signal
import sqlite3
import time
import warnings
from asyncio import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import yaml

from agreement.findings import Finding
from chainproof.games import GAME_NAMES, BadInput, Game, get_game
from checkers.results import PASSING
from model import limits, safe_yaml
from model.sources import GAME_SOURCES
from model.variants import SEED

#: The axes of each command's matrices (``examples`` is one number, not an axis).
AXES = {
    "verify": ("games", "properties", "readings", "bounds", "methods"),
    "lint": ("games", "bounds"),
    "scenarios": ("games",),
    "conform": ("games", "seeds", "examples"),
}
KINDS = tuple(AXES)
PASS, FAIL, ERROR = "pass", "fail", "error"
#: The verify methods a matrix may name (``chainproof verify --method``).
METHODS = ("portfolio", "explicit", "bmc", "both")
#: ``chainproof conform``'s default and range of ``--examples``.
CONFORM_EXAMPLES, MOST_EXAMPLES = 60, 100_000
#: A task that raises is run once more before its error is recorded: a cell is
#: deterministic, but the machine it ran on may have been short of memory.
#: A worker that dies mid-task is a separate matter: the scheduler moves the
#: task to another worker on its own (up to its ``allowed-failures``).
RETRIES = 1
#: How long to wait for an existing scheduler and its first worker.
CONNECT_S = 30


class CampaignFileError(BadInput):
    """The campaign file is malformed: the message names the file and the line."""

    def __init__(self, path: Path, line: int | None, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


@dataclass(frozen=True)
class Cell:
    """One unit of work: ``params`` are what its function takes, ``key`` names them."""

    key: str
    kind: str
    game: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class Campaign:
    path: Path
    cells: tuple[Cell, ...]

    @property
    def definition(self) -> str:
        """A hash of every cell and its parameters: a comment or the order of keys in the file does not change it."""
        text = json.dumps([[c.key, c.params] for c in self.cells], sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- reading the campaign file -------------------------------------------------------------

#: An axis as written: the key's node and the value's; None where the matrix leaves it out.
Entry = tuple[yaml.Node, yaml.Node] | None
#: A reading as the builders take it: (variant, source reading), None for the seed's.
Builds = tuple[str | None, str | None]


class _Reader:
    """Checks the file's nodes, each error located at its line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, node: yaml.Node | None, message: str) -> CampaignFileError:
        return CampaignFileError(self.path, None if node is None else node.start_mark.line + 1, message)

    def mapping(self, node: yaml.Node, what: str, allowed: Sequence[str]) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """Each key of a mapping with its key and value nodes; an unknown or repeated key is an error."""
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{what} must be a mapping of {', '.join(allowed)}")
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key not in allowed:
                raise self.error(key_node, f"unknown key {key!r} in {what}; allowed: {', '.join(allowed)}")
            if key in out:
                raise self.error(key_node, f"{key!r} appears twice in {what} (first at line {out[key][0].start_mark.line + 1})")
            out[key] = (key_node, value_node)
        return out

    def items(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, f"{what} must be a list" + (" of matrices" if what in KINDS else ""))
        if not node.value:
            raise self.error(node, f"{what} is empty: it would make no cells")
        return list(node.value)

    def word(self, node: yaml.Node, what: str) -> str:
        # As written: a reading such as 001 must not turn into the number 1.
        if not isinstance(node, yaml.ScalarNode) or not node.value:
            raise self.error(node, f"{what} must be a name")
        return node.value

    def words(self, node: yaml.Node, what: str) -> list[tuple[yaml.Node, str]]:
        """A list of names, or one name."""
        nodes = [node] if isinstance(node, yaml.ScalarNode) else self.items(node, what)
        return [(n, self.word(n, f"each of {what}")) for n in nodes]

    def number(self, node: yaml.Node, what: str, allowed: range | None = None) -> int:
        value = yaml.SafeLoader("").construct_object(node) if isinstance(node, yaml.ScalarNode) else None
        # YAML's true and false are Python bools, which are ints too.
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(node, f"{what} must be a whole number")
        if allowed is not None and value not in allowed:
            raise self.error(node, f"{what} {value} is out of range: allowed {allowed.start}..{allowed.stop - 1}")
        return value


def load(path: Path) -> Campaign:
    """The cells of the campaign file at ``path``; CampaignFileError on anything it does not allow."""
    try:
        root = safe_yaml.compose_file(path)
    except safe_yaml.YamlRefused as exc:
        raise CampaignFileError(path, exc.line, exc.message) from None
    if root is None:
        raise CampaignFileError(path, None, f"the file is empty: a campaign names matrices under {', '.join(KINDS)}")
    reader = _Reader(path)
    top = reader.mapping(root, "the campaign", (*KINDS, "rlimit"))
    if not any(kind in top for kind in KINDS):
        raise reader.error(root, f"the campaign has no matrix: give at least one of {', '.join(KINDS)}")
    rlimit = reader.number(top["rlimit"][1], "rlimit", range(1, 2**32)) if "rlimit" in top else limits.DEFAULT_RLIMIT
    cells: dict[str, Cell] = {}
    for kind in KINDS:
        if kind in top:
            for node in reader.items(top[kind][1], kind):
                # Two matrices may overlap: a cell is run once.
                for cell in _expand(reader, kind, node, rlimit):
                    cells.setdefault(cell.key, cell)
    return Campaign(path, tuple(cells.values()))


def _expand(reader: _Reader, kind: str, node: yaml.Node, rlimit: int) -> Iterator[Cell]:
    """The cells of one matrix."""
    axes = reader.mapping(node, f"a {kind} matrix", AXES[kind])
    games = _games(reader, axes.get("games"))
    bounds = _bounds(reader, axes.get("bounds"), games)
    if kind == "verify":
        properties = _properties(reader, axes.get("properties"), games)
        readings = _readings(reader, axes.get("readings"), games)
        methods = _methods(reader, axes.get("methods"))
        for game in games:
            for pattern in properties[game.name]:
                for reading, (variant, source) in readings[game.name].items():
                    for given, bounds_node in bounds:
                        own = _own_bounds(reader, bounds_node, game, given, variant)
                        for method in methods:
                            params = {"properties": pattern, "variant": variant, "reading": source, "bounds": own,
                                      "method": method, "rlimit": rlimit}
                            key = f"verify:{game.name}:{pattern}:reading={reading}:{_bounds_key(own)}:method={method}"
                            yield Cell(key, kind, game.name, params)
    elif kind == "lint":
        for game in games:
            for given, bounds_node in bounds:
                own = _own_bounds(reader, bounds_node, game, given, None)
                yield Cell(f"lint:{game.name}:{_bounds_key(own)}", kind, game.name, {"bounds": own, "rlimit": rlimit})
    elif kind == "scenarios":
        for game in games:
            yield Cell(f"scenarios:{game.name}", kind, game.name, {"rlimit": rlimit})
    else:
        seeds = [reader.number(n, "a seed") for n in reader.items(axes["seeds"][1], "seeds")] if "seeds" in axes else [0]
        examples = CONFORM_EXAMPLES
        if "examples" in axes:
            examples = reader.number(axes["examples"][1], "examples", range(1, MOST_EXAMPLES + 1))
        for game in games:
            for seed in seeds:
                yield Cell(f"conform:{game.name}:seed={seed}:examples={examples}", kind, game.name,
                           {"seed": seed, "examples": examples, "rlimit": rlimit})


def _methods(reader: _Reader, entry: Entry) -> list[str]:
    if entry is None:
        return ["portfolio"]
    chosen = reader.words(entry[1], "methods")
    for node, method in chosen:
        if method not in METHODS:
            raise reader.error(node, f"unknown method {method!r}; methods: {', '.join(METHODS)}")
    return [method for _, method in chosen]


def _games(reader: _Reader, entry: Entry) -> list[Game]:
    if entry is None:
        return [get_game(n) for n in GAME_NAMES]
    chosen = []
    for node, name in reader.words(entry[1], "games"):
        if name not in GAME_NAMES:
            raise reader.error(node, f"unknown game {name!r}; games: {', '.join(GAME_NAMES)}")
        chosen.append(name)
    return [get_game(n) for n in dict.fromkeys(chosen)]


def _properties(reader: _Reader, entry: Entry, games: list[Game]) -> dict[str, list[str]]:
    """Per game, the patterns that select some of its properties; each pattern must select one in some game."""
    from properties import select

    if entry is None:
        return {g.name: ["*"] for g in games}
    out: dict[str, list[str]] = {g.name: [] for g in games}
    for node, pattern in reader.words(entry[1], "properties"):
        matched = [g.name for g in games if select(g.properties, pattern)]
        if not matched:
            known = ", ".join(p.name for g in games for p in g.properties)
            raise reader.error(node, f"no property of {', '.join(g.name for g in games)} matches {pattern!r}; properties: {known}")
        for name in matched:
            out[name].append(pattern)
    return out


def _readings(reader: _Reader, entry: Entry, games: list[Game]) -> dict[str, dict[str, Builds]]:
    """Per game, each reading that applies to it, as the (variant, source reading) the builders take."""
    from chainproof.linting import is_source_reading

    if entry is None:
        return {g.name: {SEED: (None, None)} for g in games}
    out: dict[str, dict[str, Builds]] = {g.name: {} for g in games}
    for node, name in reader.words(entry[1], "readings"):
        applies = False
        for g in games:
            if name == SEED:
                out[g.name][name] = (None, None)
            elif name in g.variants:
                out[g.name][name] = (name, None)
            elif is_source_reading(g, name):
                try:
                    g.machine({}, reading=name)  # a question the source does not answer is refused here
                except BadInput as exc:
                    raise reader.error(node, str(exc)) from None
                out[g.name][name] = (None, name)
            else:
                continue
            applies = True
        if not applies:
            variants = ", ".join(v for g in games for v in g.variants) or "none"
            sources = ", ".join(s for g in games for s in GAME_SOURCES[g.name])
            raise reader.error(node, f"reading {name!r} is not '{SEED}', a variant or a source reading of "
                                     f"{', '.join(g.name for g in games)}; variants: {variants}; sources: {sources}")
    return out


def _bounds(reader: _Reader, entry: Entry, games: list[Game]) -> list[tuple[dict[str, int], yaml.Node | None]]:
    """Each bounds mapping with its node; a bound none of the games has is an error."""
    if entry is None:
        return [({}, None)]
    out = []
    for node in reader.items(entry[1], "bounds"):
        names = sorted({spec.name for g in games for spec in g.bounds})
        # Each game checks the ranges of its own bounds (_own_bounds).
        given = {name: reader.number(value, f"bound {name}")
                 for name, (_, value) in reader.mapping(node, "a bounds mapping", names).items()}
        out.append((given, node))
    return out


def _own_bounds(reader: _Reader, node: yaml.Node | None, game: Game, given: Mapping[str, int], variant: str | None) -> dict[str, int]:
    """The bounds of ``given`` that ``game`` has, in its own order, checked against their ranges."""
    own = {spec.name: given[spec.name] for spec in game.bounds if spec.name in given}
    try:
        game.resolve(own, variant)
    except BadInput as exc:
        raise reader.error(node, str(exc)) from None
    return own


def _bounds_key(bounds: Mapping[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in bounds.items()) or "bounds=default"


# -- running a cell ------------------------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    """What a cell came to: pass or fail by its command's exit code, or an error that is no verdict."""

    outcome: str
    verdict: str  # in a few words: "3 proved, 1 violated", "agree"
    result: Mapping[str, Any]  # the command's --json; {"error": message} for an error
    seconds: float

    @classmethod
    def error(cls, exc: BaseException) -> "Finished":
        return cls(ERROR, ERROR, {"error": f"{type(exc).__name__}: {exc}"}, 0.0)


def run_cell(cell: Cell) -> Finished:
    """Do one cell's work, in whatever process runs it."""
    # The limit is process-wide: each cell sets its own before any query.
    limits.set_rlimit(cell.params["rlimit"])
    started = time.perf_counter()
    passed, verdict, result = _RUNNERS[cell.kind](get_game(cell.game), cell.params)
    return Finished(PASS if passed else FAIL, verdict, result, round(time.perf_counter() - started, 3))


def _quiet(description: str, done: int, total: int) -> None:
    """No progress display inside a cell."""


def _budget() -> Any:
    from checkers import portfolio

    # One process per cell: the cluster, not the portfolio, spreads cells over the cores.
    return portfolio.Budget(workers=1)


def _verify(game: Game, p: Mapping[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    from chainproof import report
    from chainproof.cli import check_by_method  # `verify --method explicit|bmc|both`, the loop the command runs
    from checkers import portfolio
    from properties import select

    started = time.perf_counter()
    machine = game.machine(p["bounds"], p["variant"], p["reading"])
    chosen = select(game.properties, p["properties"])
    budget = _budget()
    stats: dict[str, Any] = {}
    if p["method"] == "portfolio":
        any_length = game.any_length_machine(p["bounds"], p["variant"], p["reading"]) if game.proves_any_length else None
        found = portfolio.verify(machine, any_length, chosen, game.budget(budget))
        results = found.results
        stats[game.name] = found.stats
    else:
        results = list(check_by_method(game, machine, chosen, p["method"], budget.depth, budget.timeout_ms, budget.max_states,
                              budget.max_memory, _quiet, stats))
    summary = {**report.summary(results, time.perf_counter() - started, stats), "variant": p["variant"], "reading": p["reading"]}
    counts = ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items() if n)
    return summary["passing"], counts, {"results": [r.to_json() for r in results], "summary": summary}


def _lint(game: Game, p: Mapping[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    from chainproof import linting
    from checkers.diff import DEFAULT_MAX_PAIRS

    known_file = linting.default_known_file(game.name)
    notes = linting.load_known(known_file).notes if known_file.exists() else {}
    found = linting.run([game], p["bounds"], _budget(), {game.name: notes}, DEFAULT_MAX_PAIRS, _quiet)
    data = {
        "findings": [f.to_json() for f in found.findings],
        "checks": [vars(c) for c in found.checks],
        "summary": {"findings": len(found.findings), "unknown": len(found.unknown)},
    }
    return not found.unknown, f"{len(found.findings)} findings, {len(found.unknown)} not known", data


def _scenarios(game: Game, p: Mapping[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    from scenarios import runner

    results = runner.run_all(None, [game.name])
    counts = runner.summary(results)
    verdict = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    return not (counts["fail"] or counts["error"]), verdict, {"results": [r.to_json() for r in results], "summary": counts}


def _conform(game: Game, p: Mapping[str, Any]) -> tuple[bool, str, dict[str, Any]]:
    from hypothesis.errors import HypothesisDeprecationWarning

    from agreement import harness
    from agreement.games import builtin_adapter, checker_for

    with warnings.catch_warnings():
        # Hypothesis warns when the random module's state moves during a draw: in a
        # Dask worker its own threads draw from it (heartbeat jitter); the games
        # draw only from their own seeded Random, so they are not affected.
        warnings.simplefilter("ignore", HypothesisDeprecationWarning)
        found = harness.conform(builtin_adapter(game.name), checker_for(game.name), p["examples"], p["seed"])
    data = found.as_json()
    return found.ok, data["status"], data


_RUNNERS: dict[str, Callable[[Game, Mapping[str, Any]], tuple[bool, str, dict[str, Any]]]] = {
    "verify": _verify, "lint": _lint, "scenarios": _scenarios, "conform": _conform,
}


# -- the results database -----------------------------------------------------------------

#: Stored as the database's ``user_version``: a file without it is not a campaign's.
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS campaign (
    definition TEXT NOT NULL,  -- Campaign.definition: the cells and their parameters, hashed
    file TEXT NOT NULL,
    cells INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cells (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    outcome TEXT NOT NULL,
    verdict TEXT NOT NULL,
    result TEXT NOT NULL,
    seconds REAL NOT NULL,
    finished_at TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Row:
    """A stored cell."""

    key: str
    kind: str
    game: str
    params: Mapping[str, Any]
    outcome: str
    verdict: str
    result: Mapping[str, Any]
    seconds: float
    finished_at: str

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "game": self.game, "params": self.params, "outcome": self.outcome,
                "verdict": self.verdict, "seconds": self.seconds, "finished_at": self.finished_at, "result": self.result}


def _rows(db: sqlite3.Connection) -> dict[str, Row]:
    query = "SELECT key, kind, game, params, outcome, verdict, result, seconds, finished_at FROM cells"
    return {
        key: Row(key, kind, game, json.loads(params), outcome, verdict, json.loads(result), seconds, finished_at)
        for key, kind, game, params, outcome, verdict, result, seconds, finished_at in db.execute(query)
    }


def _checked(db: sqlite3.Connection, path: Path) -> sqlite3.Connection:
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BadInput(f"{path}: not a campaign database ({exc})") from None
    if version != SCHEMA_VERSION:
        raise BadInput(f"{path}: not a campaign database written by this version of chainproof")
    return db


def read_rows(path: Path) -> dict[str, Row]:
    """Every cell stored in the campaign database at ``path``, by key, opened read-only."""
    if not path.is_file():
        raise BadInput(f"{path}: no such campaign database")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BadInput(f"cannot open {path}: {exc}") from None
    try:
        return _rows(_checked(db, path))
    finally:
        db.close()


class Store:
    """The campaign's database: one row per finished cell, written as each arrives."""

    def __init__(self, path: Path, campaign: Campaign) -> None:
        self.path = path
        fresh = not path.exists()
        try:
            self.db = sqlite3.connect(path)
        except sqlite3.Error as exc:
            raise BadInput(f"cannot open {path}: {exc}") from None
        if fresh:
            self.db.executescript(f"{_SCHEMA}PRAGMA user_version = {SCHEMA_VERSION};")
        try:
            self._claim(campaign)
        except BadInput:
            self.db.close()
            raise

    def _claim(self, campaign: Campaign) -> None:
        """Record the campaign's definition in a new database; refuse one that holds another's."""
        _checked(self.db, self.path)
        stored = self.db.execute("SELECT definition, file, created_at FROM campaign").fetchone()
        if stored is None:
            with self.db:
                self.db.execute("INSERT INTO campaign VALUES (?, ?, ?, ?)",
                                (campaign.definition, str(campaign.path), len(campaign.cells), _now()))
        elif stored[0] != campaign.definition:
            raise BadInput(
                f"{self.path} holds the results of another definition of the campaign ({stored[1]}, started {stored[2]}); "
                "to start over, delete it or give another --db"
            )

    def close(self) -> None:
        self.db.close()

    def rows(self) -> dict[str, Row]:
        return _rows(self.db)

    def finished(self) -> set[str]:
        """The keys of cells with a verdict; a cell that ended in an error is run again."""
        return {key for (key,) in self.db.execute("SELECT key FROM cells WHERE outcome != ?", (ERROR,))}

    def record(self, cell: Cell, done: Finished) -> None:
        # Committed at once: an interruption after this line loses nothing.
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO cells VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (cell.key, cell.kind, cell.game, json.dumps(cell.params), done.outcome, done.verdict,
                 json.dumps(done.result), done.seconds, _now()),
            )


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


# -- running on a cluster ------------------------------------------------------------------


@contextmanager
def cluster(workers: int, scheduler: str | None) -> Iterator[Any]:
    """A Dask client: on a new local cluster of ``workers`` processes, or on the scheduler at ``scheduler``."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler is None:
        # Ctrl-C at a terminal reaches the workers too, and is the client's to
        # handle: each worker ignores it, from its start (an ignored signal stays
        # ignored in a spawned process) and again once restarted (dask_setup).
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            # memory_limit=0: the nanny would kill a worker for the memory explicit search
            # is allowed (--max-memory bounds it by a count, the same on any machine).
            local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, memory_limit=0,
                                 dashboard_address=None, silence_logs=logging.ERROR, preload=[__name__])
        finally:
            signal.signal(signal.SIGINT, previous)
        with local, Client(local) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout=CONNECT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BadInput(f"--scheduler {scheduler}: cannot connect: {exc}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_S)
        except TimeoutError:
            raise BadInput(f"--scheduler {scheduler}: no worker joined within {CONNECT_S} s") from None
        threaded = {address: n for address, n in client.nthreads().items() if n != 1}
        if threaded:
            raise BadInput(
                f"--scheduler {scheduler}: workers {', '.join(sorted(threaded))} run several threads; a cell needs a "
                "process of its own (Z3 and the portfolio are not thread-safe): start them with `dask worker --nthreads 1`"
            )
        yield client


def task_key(cell: Cell) -> str:
    """The cell's task on the cluster: its key, and its parameters hashed, since
    one scheduler may serve campaigns of other resource limits at once."""
    digest = hashlib.sha256(json.dumps(cell.params, sort_keys=True).encode("utf-8")).hexdigest()[:12]
    return f"{cell.key}@{digest}"


def dask_setup(worker: Any) -> None:
    """Run by each worker of the local cluster as it starts (Dask's ``preload``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def execute(client: Any, cells: Iterable[Cell], store: Store, finished: Callable[[Cell, Finished], None]) -> None:
    """Run ``cells`` on the cluster, recording each in ``store`` as it finishes, then telling ``finished``."""
    from distributed import as_completed

    futures = {client.submit(run_cell, cell, key=task_key(cell), retries=RETRIES): cell for cell in cells}
    for future in as_completed(futures):
        cell = futures.pop(future)
        try:
            done = future.result()
        except (Exception, CancelledError) as exc:  # noqa: BLE001 - whatever kept the cell from a verdict
            # A task error after its retries, a task whose workers kept dying
            # (KilledWorker), a lost scheduler: kept as an error, which the next run tries again.
            done = Finished.error(exc)
        store.record(cell, done)
        finished(cell, done)


# -- against a baseline --------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One item of a cell (a property, a finding, a scenario) whose state differs from the baseline's."""

    key: str
    item: str
    before: str | None  # None: the item is new
    after: str | None  # None: the item is gone
    regression: bool
    #: For a new conformance failure: the shrunk game, as a scenario script.
    transcript: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "item": self.item, "before": self.before, "after": self.after,
                "regression": self.regression, "transcript": self.transcript or None}


@dataclass(frozen=True)
class Comparison:
    changes: tuple[Change, ...]
    new_cells: tuple[str, ...]
    gone_cells: tuple[str, ...]

    @property
    def regressions(self) -> list[Change]:
        return [c for c in self.changes if c.regression]

    def to_json(self) -> dict[str, Any]:
        return {"changes": [c.to_json() for c in self.changes], "new_cells": list(self.new_cells),
                "gone_cells": list(self.gone_cells), "regressions": len(self.regressions)}


def items(row: Row) -> dict[str, tuple[str, bool]]:
    """What a stored cell found, item by item: each item's state and whether it passes.

    A lint finding or a conformance disagreement never passes: one that the
    baseline did not have is a regression, one it had is not."""
    r = row.result
    if row.outcome == ERROR:
        return {"error": (r["error"], False)}
    if row.kind == "verify":
        return {x["property"]: (x["verdict"], x["verdict"] in PASSING) for x in r["results"]}
    if row.kind == "lint":
        # A finding's key is stable across runs: the known-findings file lists them by it.
        return {f["key"]: ("found" if f["known"] else "found, not known", False) for f in r["findings"]}
    if row.kind == "scenarios":
        return {x["scenario"]: (x["status"], x["status"] == PASS) for x in r["results"]}
    return {_disagreement(f): (r["status"], False) for f in r["findings"]}


def _disagreement(f: Mapping[str, Any]) -> str:
    """A conformance finding as ``chainproof conform`` prints it (agreement's ``Finding``)."""
    return str(Finding(f["kind"], tuple(f["rules"]), f["detail"]))


def compare(baseline: Mapping[str, Row], current: Mapping[str, Row]) -> Comparison:
    """What changed from ``baseline`` to ``current``, cell by cell and item by item, in ``current``'s order."""
    changes = []
    for key, row in current.items():
        if key not in baseline:
            continue
        before, after = items(baseline[key]), items(row)
        for item, (state, passing) in after.items():
            old = before.get(item)
            if old is None or old[0] != state:
                transcript = row.result.get("transcript", "") if row.kind == "conform" and not passing else ""
                changes.append(Change(key, item, old and old[0], state, not passing and (old is None or old[1]), transcript))
        changes += [Change(key, item, state, None, False) for item, (state, _) in before.items() if item not in after]
    return Comparison(
        tuple(changes),
        tuple(k for k in current if k not in baseline),
        tuple(k for k in baseline if k not in current),
    )


def default_db(campaign_file: Path) -> Path:
    """Next to the campaign file: ``campaigns/regression.yaml`` keeps ``campaigns/regression.db``."""
    return campaign_file.with_suffix(".db")
