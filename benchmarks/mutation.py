"""Mutation testing of the WoW reference engine with cosmic-ray; update RESULTS.md.

    python -m benchmarks.mutation               # the configured run (benchmarks/mutation.toml)
    python -m benchmarks.mutation --stand-in    # kill with the engine's own turn and combat tests
    python -m benchmarks.mutation --plan        # count the mutants and time one check, run nothing

Needs `pip install -e '.[test,mutation]'`. How strong is the agreement harness
(`chainproof conform`) with the scenarios (`chainproof scenarios`) as a test
suite for an engine? cosmic-ray's core operators make one small change to the
engine's turn, priority, chain and combat code at a time (a mutant); the kill
commands then run against the changed engine, and a mutant survives when they
all exit 0. A mutant whose check outlives the timeout counts as killed, and is
reported apart. The score is killed (timeouts included) / (total - equivalent),
against a target of 90%. Equivalent mutants, which no check could kill, are
listed as data in benchmarks/mutation_survivors.yaml with the reason, beside
the surviving mutants that a stronger check would kill and what that check is.

Mutants are written into copies of the project under .mutation/ (git-ignored),
one per worker, each with its own cosmic-ray session; the working tree is
never changed. Copies hold the tracked and untracked, not ignored, files as
they are when the run starts. The run writes its own section of
benchmarks/RESULTS.md, between HTML comment markers, and leaves the rest of the
file as it is, as every other benchmark does.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import random
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from fnmatch import fnmatch
from pathlib import Path

from benchmarks.engine import update

ROOT = Path(__file__).resolve().parent.parent
CONFIG = Path(__file__).with_name("mutation.toml")
SURVIVORS = Path(__file__).with_name("mutation_survivors.yaml")
WORK = ROOT / ".mutation"
TARGET = 0.90
BEGIN = "<!-- benchmarks.mutation: begin -->"
END = "<!-- benchmarks.mutation: end -->"
TIMEOUT_OUTPUT = "timeout"  # what cosmic-ray records as the output of a check that timed out
PROGRESS_S = 60


def load_config(path: Path = CONFIG) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


# --- the kill command (run by cosmic-ray in a worker's copy) -----------------------

def _resolve(argv: list[str], examples: int) -> list[str]:
    """Put in the number of examples, and use the `chainproof` and `python`
    installed beside this interpreter, so the copy runs in the same environment."""
    argv = [a.replace("{examples}", str(examples)) for a in argv]
    if argv[0] == "python":
        return [sys.executable] + argv[1:]
    beside = Path(sys.executable).parent / argv[0]
    return [str(beside)] + argv[1:] if beside.exists() else argv


def kill_commands(config: dict, stand_in: bool, examples: int | None = None) -> list[list[str]]:
    kill = config["kill"]
    n = kill["examples"] if examples is None else examples
    return [_resolve(argv, n) for argv in (kill["stand_in"] if stand_in else kill["commands"])]


def kill(stand_in: bool, examples: int | None) -> int:
    """Run the kill commands in the current directory; exit 1 at the first to fail."""
    cwd = Path.cwd()
    # A test database carried over from the previous mutant would replay its
    # failing examples: each mutant starts from none.
    shutil.rmtree(cwd / ".hypothesis", ignore_errors=True)
    for argv in kill_commands(load_config(cwd / "benchmarks" / "mutation.toml"), stand_in, examples):
        print("$", shlex.join(argv), flush=True)
        t0 = time.perf_counter()
        code = subprocess.run(argv, stderr=subprocess.STDOUT).returncode
        print(f"exit {code} in {time.perf_counter() - t0:.1f} s", flush=True)
        if code != 0:
            return 1
    return 0


# --- the copies and the sessions --------------------------------------------------

def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def commit_description() -> str:
    try:
        head = _git("rev-parse", "--short", "HEAD").strip()
        dirty = _git("status", "--porcelain")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    paths = sorted({line[3:].split("/", 1)[0] for line in dirty.splitlines() if line.strip()})
    return head + (f" (with uncommitted changes in {', '.join(paths)})" if paths else "")


def make_copies(workers: int) -> list[Path]:
    """The project as it is now (tracked and untracked files, not ignored ones),
    once per worker."""
    shutil.rmtree(WORK, ignore_errors=True)
    first = WORK / "worker-0"
    for rel in _git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0"):
        src = ROOT / rel
        if rel and src.is_file():
            dst = first / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    copies = [first]
    for i in range(1, workers):
        shutil.copytree(first, WORK / f"worker-{i}")
        copies.append(WORK / f"worker-{i}")
    return copies


def worker_env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    # The copy's packages come before the editable install of the working tree.
    env["PYTHONPATH"] = str(copy) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # No bytecode: a mutant written in the same second as the original could
    # otherwise be shadowed by the original's cached bytecode.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def cosmic_ray_config(config: dict, stand_in: bool, examples: int | None, timeout: float) -> str:
    command = [sys.executable, "-m", "benchmarks.mutation", "kill"]
    if stand_in:
        command.append("--stand-in")
    if examples is not None:
        command += ["--examples", str(examples)]
    modules = ", ".join(f'"{m}"' for m in config["mutate"]["modules"])
    return (
        "[cosmic-ray]\n"
        f"module-path = [{modules}]\n"
        f"timeout = {float(timeout)}\n"
        "excluded-modules = []\n"
        f"test-command = {_toml_string(shlex.join(command))}\n"
        "\n[cosmic-ray.distributor]\n"
        'name = "local"\n'
    )


def _toml_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cosmic_ray() -> str:
    beside = Path(sys.executable).parent / "cosmic-ray"
    return str(beside) if beside.exists() else "cosmic-ray"


@dataclass
class Mutant:
    job_id: str
    module: str
    operator: str
    occurrence: int
    line: int
    col: int
    function: str | None
    code: str  # the original source line, stripped

    @property
    def where(self) -> str:
        return f"{self.module}:{self.line}"

    @property
    def op(self) -> str:
        return self.operator.removeprefix("core/")


def in_scope(config: dict, module: str, function: str | None) -> bool:
    patterns = config["mutate"]["functions"].get(module, [])
    return any(fnmatch(function or "<module>", p) for p in patterns)


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the type annotations are, as ((line, col), (end line, end col))."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        found = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node.returns)
            a = node.args
            found += [arg.annotation for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if arg]
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        spans += [((n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset)) for n in found if n is not None]
    return spans


def plan(config: dict, copy: Path, sample_size: int, seed: int) -> tuple[list[Mutant], list[Mutant], list[Mutant]]:
    """Every mutant, the in-scope ones, and the sample (sorted by place).
    Mutants inside type annotations are out of scope: with `from __future__
    import annotations` (both modules) an annotation is never evaluated."""
    from cosmic_ray.work_db import WorkDB, use_db

    session = WORK / "all.sqlite"
    subprocess.run([_cosmic_ray(), "init", str(WORK / "cosmic-ray.toml"), str(session)], cwd=copy, check=True)
    sources = {m: (copy / m).read_text() for m in config["mutate"]["modules"]}
    lines = {m: s.splitlines() for m, s in sources.items()}
    annotations = {m: annotation_spans(s) for m, s in sources.items()}
    everything = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in db.work_items:
            (spec,) = item.mutations
            module = str(spec.module_path)
            line, col = spec.start_pos
            everything.append(Mutant(item.job_id, module, spec.operator_name, spec.occurrence, line, col,
                                     spec.definition_name, lines[module][line - 1].strip()))
    everything.sort(key=lambda m: (m.module, m.line, m.col, m.operator, m.occurrence))
    scoped = [
        m for m in everything
        if in_scope(config, m.module, m.function)
        and not any(start <= (m.line, m.col) < end for start, end in annotations[m.module])
    ]
    # The first `sample_size` of one seeded shuffle: a smaller sample is part
    # of a larger one, so mutants judged in one run keep their judgement.
    order = list(scoped)
    random.Random(seed).shuffle(order)
    sample = order[:sample_size] if 0 < sample_size < len(order) else order
    sample.sort(key=lambda m: (m.module, m.line, m.col, m.operator, m.occurrence))
    return everything, scoped, sample


def split_sessions(sample: list[Mutant], workers: int, seed: int) -> list[Path]:
    """One session per worker: a copy of the full session in which every
    mutant that is not this worker's share is marked skipped."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    order = list(sample)
    random.Random(seed + 1).shuffle(order)  # the shares mix cheap and costly parts of the code
    shares = [{m.job_id for m in order[i::workers]} for i in range(workers)]
    sessions = []
    for i, share in enumerate(shares):
        session = WORK / f"session-{i}.sqlite"
        shutil.copy(WORK / "all.sqlite", session)
        with use_db(str(session), WorkDB.Mode.open) as db:
            others = [item.job_id for item in db.work_items if item.job_id not in share]
            db.set_multiple_results(others, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
        sessions.append(session)
    return sessions


def baseline(copy: Path, stand_in: bool, examples: int | None) -> float:
    """Run the kill commands on the unmutated copy: they must pass."""
    command = [sys.executable, "-m", "benchmarks.mutation", "kill"] + (["--stand-in"] if stand_in else [])
    if examples is not None:
        command += ["--examples", str(examples)]
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=copy, env=worker_env(copy), capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"the kill commands fail on the unmutated engine, so every mutant would count as killed:\n{done.stdout}{done.stderr}")
    return seconds


def run_sessions(copies: list[Path], sessions: list[Path], total: int) -> float:
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen([_cosmic_ray(), "exec", str(WORK / "cosmic-ray.toml"), str(session)], cwd=copy,
                         env=worker_env(copy), stdout=subprocess.DEVNULL, stderr=(WORK / f"exec-{i}.log").open("w"))
        for i, (copy, session) in enumerate(zip(copies, sessions))
    ]
    last = time.perf_counter()
    while any(p.poll() is None for p in procs):
        time.sleep(1)
        if time.perf_counter() - last < PROGRESS_S:
            continue
        last = time.perf_counter()
        try:
            counts = Counter(o for _, o in read_results(sessions).values())
        except Exception:  # the session is being written: ask again next time
            continue
        _progress(f"{sum(counts.values())}/{total} mutants, {time.perf_counter() - t0:,.0f} s: "
                  + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    for i, p in enumerate(procs):
        if p.returncode != 0:
            sys.exit(f"cosmic-ray exec for worker {i} exited {p.returncode}; see {WORK / f'exec-{i}.log'}")
    return time.perf_counter() - t0


def read_results(sessions: list[Path]) -> dict[str, tuple[object, str]]:
    """job id -> (the WorkResult, outcome) for every mutant that ran."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    out = {}
    for session in sessions:
        with use_db(str(session), WorkDB.Mode.open) as db:
            for job_id, r in db.results:
                if r.worker_outcome == WorkerOutcome.SKIPPED:
                    continue
                if r.worker_outcome != WorkerOutcome.NORMAL:
                    outcome = "error"
                elif r.test_outcome == TestOutcome.SURVIVED:
                    outcome = "survived"
                elif r.test_outcome == TestOutcome.KILLED:
                    outcome = "timeout" if (r.output or "").strip() == TIMEOUT_OUTPUT else "killed"
                else:
                    outcome = "incompetent"
                out[job_id] = (r, outcome)
    return out


# --- judged survivors ------------------------------------------------------------

@dataclass
class Note:
    where: str  # module:line, for the reader; the match uses the rest
    function: str | None
    operator: str
    code: str
    mutated: str
    col: int
    text: str  # the reason it is equivalent, or the check that would kill it
    equivalent: bool

    @property
    def module(self) -> str:
        return self.where.rsplit(":", 1)[0]

    @property
    def line(self) -> int:
        return int(self.where.rsplit(":", 1)[1])


def load_notes(path: Path = SURVIVORS) -> list[Note]:
    import yaml

    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text()) or {}
    notes = []
    for equivalent, key, text in ((True, "equivalent", "reason"), (False, "killable", "suggestion")):
        for e in data.get(key) or []:
            op = e["operator"] if e["operator"].startswith("core/") else "core/" + e["operator"]
            notes.append(Note(e["where"], e.get("function"), op, e["code"], e["mutated"], int(e["col"]), e[text], equivalent))
    return notes


def match_note(m: Mutant, mutated: str, notes: list[Note]) -> Note | None:
    """The note on this mutant: same module, function, operator, source line,
    column and mutated line (one operator may change one place in several
    ways), so it survives edits elsewhere in the file; of several, the nearest
    line."""
    key = (m.module, m.function, m.operator, m.code, m.col, mutated)
    same = [n for n in notes if (n.module, n.function, n.operator, n.code, n.col, n.mutated) == key]
    return min(same, key=lambda n: abs(n.line - m.line)) if same else None


def unjudged_yaml(mutants: list[Mutant], diffs: dict[str, str]) -> str:
    """Entries for the survivors file, to be moved under `equivalent` (with a
    reason) or `killable` (with a suggestion) once the mutant is read."""
    import yaml

    out = []
    for m in mutants:
        before, after = mutation_text(diffs.get(m.job_id, ""))
        entry = {"where": m.where, "function": m.function, "operator": m.op, "col": m.col, "code": m.code,
                 "mutated": after, "reason": "", "suggestion": ""}
        out.append(yaml.safe_dump([entry], sort_keys=False, width=200, allow_unicode=True))
    return "".join(out)


# --- the report -------------------------------------------------------------------

@dataclass
class Report:
    tool: str
    command: str
    kill: list[list[str]]
    stand_in: bool
    timeout: float
    workers: int
    everything: int
    scoped: int
    sample: list[Mutant]
    sample_size: int
    seed: int
    baseline_s: float
    run_s: float
    outcomes: dict[str, str] = field(default_factory=dict)  # job id -> outcome
    diffs: dict[str, str] = field(default_factory=dict)
    notes: dict[str, Note] = field(default_factory=dict)  # job id -> its note
    wrongly_equivalent: list[Mutant] = field(default_factory=list)

    def counts(self) -> Counter:
        c = Counter(self.outcomes.values())
        c["equivalent"] = sum(1 for j, n in self.notes.items() if n.equivalent and self.outcomes.get(j) == "survived")
        return c

    @property
    def total(self) -> int:
        c = self.counts()
        return c["killed"] + c["timeout"] + c["survived"]

    @property
    def score(self) -> float:
        c = self.counts()
        denominator = self.total - c["equivalent"]
        return (c["killed"] + c["timeout"]) / denominator if denominator else 0.0


def mutation_text(diff: str) -> tuple[str, str]:
    """The changed line before and after, from cosmic-ray's unified diff."""
    before = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    after = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    return " / ".join(before), " / ".join(after)


def _cell(s: str) -> str:
    return "`" + s.replace("|", "\\|").replace("`", "'") + "`"


def render(r: Report, machine: str, commit: str, date: str) -> str:
    c = r.counts()
    met = "met" if r.score >= TARGET else "not met"
    kills = " && ".join(shlex.join(_short(argv)) for argv in r.kill)
    sampled = (f"a seeded sample of **{len(r.sample)}** of the {r.scoped} in-scope mutants "
               f"(the first {len(r.sample)} after `random.Random({r.seed}).shuffle` of the in-scope mutants in "
               "file and position order)"
               if len(r.sample) < r.scoped else f"all **{r.scoped}** in-scope mutants")
    lines = [
        BEGIN,
        "## Reference engine: mutation testing",
        "",
        "Written by `python -m benchmarks.mutation` (it replaces only this section).",
        "",
        f"- Date: {date}",
        f"- Machine: {machine}",
        f"- chainproof commit: {commit}",
        f"- Command: `{r.command}`",
        f"- Tool: {r.tool}, core operators, local distributor, one session and one copy of the project per worker "
        f"({r.workers} workers)",
        f"- Kill command{' (the stand-in)' if r.stand_in else ''}: `{kills}`; a mutant is killed when it exits non-zero, "
        f"killed by timeout when it runs over {r.timeout:.0f} s. The unmutated engine passes it in {r.baseline_s:.1f} s.",
        "- Mutated: `engine/wowtcg/state.py` (the functions of priority, windows, the turn, the chain, combat, "
        "the decisions inside a turn and the priority actions, listed in `benchmarks/mutation.toml`) and all of "
        f"`engine/wowtcg/combat.py`, less the mutants inside type annotations (never evaluated under "
        f"`from __future__ import annotations`): {r.scoped} of the {r.everything} mutants cosmic-ray makes of the two files.",
        f"- Run: {sampled}, in {r.run_s / 60:.1f} min.",
        "",
        "| Mutants run | Killed | Killed by timeout | Survived | Equivalent (of the survivors) | Errors | Score | Target | Result |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        f"| {r.total} | {c['killed']} | {c['timeout']} | {c['survived']} | {c['equivalent']} "
        f"| {c['error'] + c['incompetent']} | {r.score:.1%} | {TARGET:.0%} | {met} |",
        "",
        "Score = (killed + killed by timeout) / (mutants run - equivalent). Equivalent mutants and the checks "
        "that would kill the others are judged by reading the code, and kept in `benchmarks/mutation_survivors.yaml`.",
    ]
    if r.wrongly_equivalent:
        lines += ["", "**Listed as equivalent but killed** (the list is wrong about these): "
                  + ", ".join(f"{m.where} {m.op}" for m in r.wrongly_equivalent)]
    by_op = Counter(m.op.split("_")[0] for m in r.sample)
    lines += ["", "Mutants run by operator: " + ", ".join(f"{op} {n}" for op, n in sorted(by_op.items())) + "."]
    survivors = [m for m in r.sample if r.outcomes.get(m.job_id) == "survived"]
    groups = [
        ("Surviving mutants a stronger check would kill", "What would kill it",
         [m for m in survivors if m.job_id in r.notes and not r.notes[m.job_id].equivalent]),
        ("Equivalent surviving mutants", "Why it cannot change what the engine does",
         [m for m in survivors if m.job_id in r.notes and r.notes[m.job_id].equivalent]),
        ("Surviving mutants not yet judged", "", [m for m in survivors if m.job_id not in r.notes]),
    ]
    if not survivors:
        lines += ["", "No mutant survived."]
    for title, column, mutants in groups:
        if not mutants:
            continue
        lines += ["", f"### {title} ({len(mutants)})", "", f"| Where | Function | Operator | Mutation | {column} |",
                  "|---|---|---|---|---|"]
        for m in mutants:
            before, after = mutation_text(r.diffs.get(m.job_id, ""))
            note = r.notes.get(m.job_id)
            why = " ".join(note.text.split()).replace("|", "\\|") if note else ""
            lines.append(f"| {m.where}:{m.col} | `{m.function}` | {m.op} | {_cell(before)} → {_cell(after)} | {why} |")
    lines.append(END)
    return "\n".join(lines) + "\n"


def _short(argv: list[str]) -> list[str]:
    """The command as a reader types it: no interpreter path."""
    if argv and argv[0] == sys.executable:
        return ["python"] + argv[1:]
    return [Path(argv[0]).name] + argv[1:] if argv else argv


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _machine() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{platform.platform()}; {cpu}, {os.cpu_count()} logical CPUs; "
            f"{platform.python_implementation()} {platform.python_version()}")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["kill"]:
        sub = argparse.ArgumentParser(prog="python -m benchmarks.mutation kill")
        sub.add_argument("--stand-in", action="store_true")
        sub.add_argument("--examples", type=int)
        args = sub.parse_args(argv[1:])
        sys.exit(kill(args.stand_in, args.examples))

    config = load_config()
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mutation", description=__doc__.splitlines()[0])
    parser.add_argument("--stand-in", action="store_true",
                        help="kill with the engine's turn and combat tests instead of conform and scenarios")
    parser.add_argument("--examples", type=int, help=f"games per conform run (default {config['kill']['examples']})")
    parser.add_argument("--sample", type=int, default=config["sample"]["size"],
                        help=f"mutants to run, a seeded sample of the in-scope ones; 0 for all (default {config['sample']['size']})")
    parser.add_argument("--seed", type=int, default=config["sample"]["seed"], help="the sample's seed")
    parser.add_argument("--workers", type=int, default=config["run"]["workers"])
    parser.add_argument("--timeout", type=float,
                        help=f"seconds per mutant (default {config['run']['timeout_factor']} times the unmutated run, "
                             f"at least {config['run']['timeout_min']})")
    parser.add_argument("--plan", action="store_true", help="count the mutants and time the kill command once; run no mutant")
    parser.add_argument("--output", type=Path, default=Path(__file__).with_name("RESULTS.md"),
                        help="the file whose section is updated (default: benchmarks/RESULTS.md)")
    parser.add_argument("--report", action="store_true",
                        help="judge the last run again against the survivors file and rewrite its section; run nothing")
    args = parser.parse_args(argv)
    if args.report:
        report_run(json.loads((WORK / "run.json").read_text()), args.output)
        return

    from importlib.metadata import version

    cr_version = version("cosmic-ray")

    t0 = time.perf_counter()
    commit = commit_description()
    copies = make_copies(args.workers)
    base = baseline(copies[0], args.stand_in, args.examples)
    timeout = args.timeout or max(config["run"]["timeout_min"], config["run"]["timeout_factor"] * base)
    (WORK / "cosmic-ray.toml").write_text(cosmic_ray_config(config, args.stand_in, args.examples, timeout))
    everything, scoped, sample = plan(config, copies[0], args.sample, args.seed)
    _progress(f"{len(everything)} mutants, {len(scoped)} in scope, {len(sample)} to run")
    _progress(f"the kill command passes on the unmutated engine in {base:.1f} s, so the timeout is {timeout:.0f} s: "
              f"about {base * len(sample) / args.workers / 60:.0f} min for {len(sample)} mutants "
              f"on {args.workers} workers if all survived (killed mutants stop sooner, timeouts run longer)")
    if args.plan:
        for op, n in sorted(Counter(m.op.split("_")[0] for m in sample).items()):
            print(f"{n:6d} {op}")
        for fn, n in sorted(Counter((m.module, m.function) for m in scoped).items(), key=lambda kv: -kv[1]):
            print(f"{n:6d} {fn[0]} {fn[1]}")
        return

    sessions = split_sessions(sample, args.workers, args.seed)
    run_s = run_sessions(copies, sessions, len(sample))
    run = {
        "tool": f"cosmic-ray {cr_version}",
        "command": "python -m benchmarks.mutation" + (" " + shlex.join(argv) if argv else ""),
        "kill": kill_commands(config, args.stand_in, args.examples), "stand_in": args.stand_in, "timeout": timeout,
        "workers": args.workers, "everything": len(everything), "scoped": len(scoped),
        "sample": [asdict(m) for m in sample], "sample_size": args.sample, "seed": args.seed,
        "baseline_s": base, "run_s": run_s, "commit": commit, "machine": _machine(),
        "date": datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "sessions": [s.name for s in sessions],
    }
    (WORK / "run.json").write_text(json.dumps(run, indent=1))
    report_run(run, args.output)
    print(f"{(time.perf_counter() - t0) / 60:.1f} min in all")


def report_run(run: dict, output: Path) -> None:
    """Judge the run's results against the survivors file, write the section
    and print the counts; the survivors not yet judged go to .mutation/unjudged.yaml."""
    results = read_results([WORK / s for s in run["sessions"]])
    notes = load_notes()
    fields = {k: run[k] for k in ("tool", "command", "kill", "stand_in", "timeout", "workers", "everything", "scoped",
                                  "sample_size", "seed", "baseline_s", "run_s")}
    report = Report(sample=[Mutant(**m) for m in run["sample"]], **fields)
    for m in report.sample:
        if m.job_id not in results:
            continue
        result, outcome = results[m.job_id]
        report.outcomes[m.job_id] = outcome
        report.diffs[m.job_id] = result.diff or ""
        note = match_note(m, mutation_text(report.diffs[m.job_id])[1], notes)
        if note is not None:
            report.notes[m.job_id] = note
            if note.equivalent and outcome in ("killed", "timeout"):
                report.wrongly_equivalent.append(m)
    update(output, render(report, run["machine"], run["commit"], run["date"]), BEGIN, END)

    c = report.counts()
    print(f"{report.total} mutants run: {c['killed']} killed, {c['timeout']} killed by timeout, {c['survived']} survived "
          f"({c['equivalent']} equivalent), {c['error'] + c['incompetent']} errors")
    print(f"score {report.score:.1%} (target {TARGET:.0%}: {'met' if report.score >= TARGET else 'not met'})")
    unjudged = [m for m in report.sample if report.outcomes.get(m.job_id) == "survived" and m.job_id not in report.notes]
    if unjudged:
        print(f"{len(unjudged)} surviving mutants not yet judged in {SURVIVORS.name}; "
              f"entries to complete: {(WORK / 'unjudged.yaml').relative_to(ROOT)}")
    (WORK / "unjudged.yaml").write_text(unjudged_yaml(unjudged, report.diffs))

if __name__ == "__main__":
    main()
