"""A machine as a Promela model, for Spin: a peer explicit-state model checker
run on the very same state space as our own searches.

Why: the searches of ``checkers/explicit.py`` and ``checkers/vector.py`` are
timed against Spin on the same model, in the same run (``benchmarks/spin.py``,
issue 21), and Spin's count of reachable states, found by a different
program from a different encoding, cross-checks both of theirs.

The translation is mechanical.  Every variable (the location too) is a
global, a tuple variable an array.  ``init`` sets every slot to one of its
initial values, choosing where a slot has more than one, inside one
``atomic`` block, so that every initial state of the machine is reached and
none of the half-set states in between is stored.  It then loops over one
``d_step`` option per edge, in the machine's order: the edge's guard over
Z3 terms (``SYMBOLIC``), simplified by Z3, written as a Promela expression
and conjoined with its source location, then its update, written likewise.  An update is simultaneous: a slot
whose new value reads another slot the same edge sets is computed into a
``hidden`` temporary (``next_<name>``), which is not part of Spin's state,
before any slot is assigned.  The loop carries an ``end`` label: a state in
which no edge is enabled is where the machine stops, not a deadlock.  A
variable named as a Promela keyword (HotA's ``active``) gets a trailing
underscore.

Spin's counts then relate to the machine's exactly, when ``spin`` is run with
``SPIN_OPTIONS`` (``-o2`` keeps variables that are written but never read,
which Spin would otherwise drop from its state, merging states the machine
tells apart):

- states stored = reachable states + 1: the state before ``init`` has set
  anything (``EXTRA_STATES``);
- transitions = the machine's transitions + its initial states as
  ``Machine.initial_states`` lists them + 1: Spin counts every arrival at a
  state, new or not, the first state's included, and each way through the
  atomic choice arrives once.

``spin_counts`` gives both; ``tests/test_promela.py`` holds Spin to them.
``run_spin`` generates, compiles and runs the verifier and reads its report.
"""

from __future__ import annotations

import re
import resource
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import z3

from model.backend import SYMBOLIC
from model.machine import Domain, Edge, Machine, ModelError, Var

#: Options to ``spin -a``: ``-o2`` keeps write-only variables in the state.
SPIN_OPTIONS = ("-o2",)
#: gcc's optimization of pan.c: -O2 without jump threading, on which gcc
#: spends five minutes of Riftbound's (12 s without) and which gains pan
#: nothing (WoW --turns 3 searched in 1.2 s without it, 1.5 to 1.8 s with it).
OPTIMIZE = ("-O2", "-fno-thread-jumps")
#: How pan.c is compiled: a safety search only (no cycle detection), and no
#: partial-order reduction, which has nothing to reduce in a single process.
PAN_DEFINES = ("-DNOREDUCE", "-DSAFETY")
#: How pan runs: a depth-first stack far deeper than any path of these games
#: (the deepest seen is under a hundred; a deeper one fails ``run_spin``).
PAN_OPTIONS = ("-m100000",)
#: The most times ``run_spin`` runs pan to time a short search.
MAX_RUNS = 20
#: The state Spin stores before ``init`` sets the initial values.
EXTRA_STATES = 1

#: Promela's reserved words that are also Python identifiers (a variable
#: named one of them gets a trailing underscore).
RESERVED = frozenset(
    "active assert atomic bit bool break byte chan d_step do else empty enabled eval false fi for full "
    "get_priority goto hidden if in init inline int len local ltl mtype nempty never nfull notrace np_ od of "
    "pc_value pid printf printm priority proctype provided return run select set_priority short show skip "
    "timeout trace true typedef unless unsigned xr xs".split()
)


class UnsupportedTerm(ModelError):
    """A guard or update uses a Z3 operator with no Promela counterpart here."""


def spin_counts(machine: Machine, states: int, transitions: int) -> tuple[int, int]:
    """The states stored and transitions Spin reports for the Promela of
    ``machine``, whose reachable states and transitions are those given
    (see the module's docstring)."""
    initial = sum(1 for _ in machine.initial_states())
    return states + EXTRA_STATES, transitions + initial + 1


@dataclass(frozen=True)
class SpinRun:
    """What Spin's verifier reported on one model, and how long each part took."""

    states: int  # stored
    matched: int
    transitions: int
    state_vector: int  # bytes
    depth: int  # the deepest the depth-first search went
    memory_mb: float  # pan's "total actual memory usage"
    search_s: float  # pan's own "elapsed time"
    spin_s: float  # spin -a: Promela to pan.c
    compile_s: float  # gcc on pan.c
    pan_s: float  # pan's run, wall clock (its hash table's allocation included)
    pan_cpu_s: float  # pan's run, CPU seconds (user and system; allocation included)
    runs: int  # pan's runs the times are the mean of
    output: str  # pan's report (of the first run)

    @property
    def wall_s(self) -> float:
        """From Promela to the verdict: generating, compiling and running the verifier."""
        return self.spin_s + self.compile_s + self.pan_s


class SpinFailed(RuntimeError):
    """Spin, gcc or pan failed, or pan's report says the search was not complete."""


def run_spin(promela: str, directory: Path, optimize: Sequence[str] = OPTIMIZE, min_search_s: float = 0.0) -> SpinRun:
    """Spin's full search of the model ``promela``, built and run in ``directory``.

    pan reports its search time in hundredths of a second: for a search
    shorter than ``min_search_s`` it is run again (at most ``MAX_RUNS``
    times) until the runs add up to that, and the times are their mean.
    """
    (directory / "model.pml").write_text(promela)
    spin_s = _timed(directory, ["spin", "-a", *SPIN_OPTIONS, "model.pml"])[1]
    compile_s = _timed(directory, ["gcc", *optimize, *PAN_DEFINES, "-o", "pan", "pan.c"])[1]
    runs: list[tuple[dict[str, float], float, str]] = []
    cpu: list[float] = []
    while not runs or (sum(r[0]["search_s"] for r in runs) < min_search_s and len(runs) < MAX_RUNS):
        before = _children_cpu_s()
        output, pan_s = _timed(directory, ["./pan", *PAN_OPTIONS])
        cpu.append(_children_cpu_s() - before)
        runs.append((_report(output), pan_s, output))
    counts = ("states", "matched", "transitions", "state_vector", "depth")
    report = runs[0][0]
    return SpinRun(
        **{key: int(report[key]) for key in counts},
        memory_mb=report["memory_mb"],
        search_s=sum(r[0]["search_s"] for r in runs) / len(runs),
        spin_s=spin_s,
        compile_s=compile_s,
        pan_s=sum(r[1] for r in runs) / len(runs),
        pan_cpu_s=sum(cpu) / len(cpu),
        runs=len(runs),
        output=runs[0][2],
    )


#: pan's report: each figure ``run_spin`` reads, and the pattern it is found by.
REPORT = {
    "states": r"(\d+) states, stored",
    "matched": r"(\d+) states, matched",
    "transitions": r"(\d+) transitions \(",
    "state_vector": r"State-vector (\d+) byte",
    "depth": r"depth reached (\d+)",
    "errors": r"errors: (\d+)",
    "memory_mb": r"([\d.]+)\s+total actual memory usage",
    "search_s": r"pan: elapsed time ([\d.e+-]+) seconds",
}


def _report(output: str) -> dict[str, float]:
    found = {key: re.search(pattern, output) for key, pattern in REPORT.items()}
    missing = [key for key, match in found.items() if match is None]
    if missing:
        raise SpinFailed(f"pan's report lacks {', '.join(missing)}:\n{output}")
    # A search cut short (depth limit, memory) still prints its counts.
    if int(found["errors"].group(1)) or "max search depth too small" in output or "Search not completed" in output:
        raise SpinFailed(f"pan's search was not a complete, error-free one:\n{output}")
    return {key: float(match.group(1)) for key, match in found.items()}


def _children_cpu_s() -> float:
    """CPU seconds of this process's finished children: on a shared machine,
    pan's time apart from its waits for a core."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(directory: Path, command: list[str]) -> tuple[str, float]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SpinFailed(f"{' '.join(command)} exited with {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout, seconds


def promela_type(domain: Domain) -> str:
    """The smallest Promela type that holds every value of ``domain``."""
    if domain.is_bool:
        return "bool"
    if 0 <= domain.lo and domain.hi <= 255:
        return "byte"
    if -(2**15) <= domain.lo and domain.hi < 2**15:
        return "short"
    return "int"


def identifier(name: str) -> str:
    """The Promela name of the variable ``name``."""
    return f"{name}_" if name in RESERVED else name


def to_promela(machine: Machine) -> str:
    """The Promela model of ``machine`` (see the module's docstring)."""
    pre = machine.symbolic_state("pre")
    names = {"location": identifier("location"), **{v.name: identifier(v.name) for v in machine.variables}}
    if len(set(names.values())) != len(names):
        raise ModelError(f"two variables of {machine.game} get the same Promela name: {sorted(names.values())}")
    slots = dict(_slots(machine, pre, names))
    writer = _Writer({term.get_id(): lvalue for lvalue, term in slots.items()})
    options = [_option(machine, edge, pre, names, writer) for edge in machine.edges]

    location_type = promela_type(Domain(0, len(machine.location_names) - 1))
    lines = [
        f"/* {machine.game} at bounds {', '.join(f'{k}={v}' for k, v in machine.bounds.items())}:",
        "   generated by checkers/promela.py, run with spin " + " ".join(SPIN_OPTIONS) + " */",
        "",
        "/* " + ", ".join(f"{i} {name}" for i, name in enumerate(machine.location_names)) + " */",
        f"{location_type} {names['location']};",
    ]
    for v in machine.variables:
        lines.append(f"{promela_type(v.domain)} {names[v.name]}{_length(v)};" + (f" /* {v.doc} */" if v.doc else ""))
    for v in machine.variables:
        if v.name in writer.temporaries:
            # Spin cannot hide a bool: its temporary is a byte.
            kind = "byte" if v.domain.is_bool else promela_type(v.domain)
            lines.append(f"hidden {kind} next_{names[v.name]}{_length(v)};")
    lines += ["", "init {", "    atomic {", f"        {names['location']} = {machine.location_index[machine.initial_location]};"]
    for v in machine.variables:
        for i, lvalue in enumerate(_lvalues(v, names)):
            values = [v.start[i]] if v.start is not None else list(v.initial)
            if len(values) == 1:
                lines.append(f"        {lvalue} = {_constant(values[0])};")
            else:
                lines.append("        if " + " ".join(f":: {lvalue} = {_constant(x)}" for x in values) + " fi;")
    lines += ["    };", "end:", "    do"]
    lines += options
    lines += ["    od", "}", ""]
    return "\n".join(lines)


def _length(v: Var) -> str:
    return "" if v.length is None else f"[{v.length}]"


def _lvalues(v: Var, names: dict[str, str]) -> list[str]:
    name = names[v.name]
    return [name] if v.length is None else [f"{name}[{i}]" for i in range(v.length)]


def _slots(machine: Machine, state: Any, names: dict[str, str]) -> Iterator[tuple[str, Any]]:
    """Each slot's Promela lvalue and its term in ``state``, location first."""
    yield names["location"], state.location
    for v in machine.variables:
        terms = getattr(state, v.name)
        yield from zip(_lvalues(v, names), terms if v.length is not None else (terms,))


def _constant(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value >= 0 else f"({value})"
    raise TypeError(f"not a constant: {value!r}")


def _option(machine: Machine, edge: Edge, pre: Any, names: dict[str, str], writer: "_Writer") -> str:
    """The loop's option for ``edge``: one ``d_step`` with its guard and update."""
    updates = dict(edge.update(pre, SYMBOLIC))
    unknown = set(updates) - set(machine.var)
    if unknown:
        raise ModelError(f"edge {edge.name!r} updates unknown variables {sorted(unknown)}")
    # (variable, lvalue, new value) for every slot the edge changes.
    changed: list[tuple[str, str, Any]] = []
    if edge.target != edge.source:
        changed.append(("location", names["location"], machine.location_index[edge.target]))
    for name, value in updates.items():
        v = machine.var[name]
        olds = getattr(pre, name) if v.length is not None else (getattr(pre, name),)
        news = value if v.length is not None else (value,)
        for lvalue, old, new in zip(_lvalues(v, names), olds, map(_simplified, news)):
            if not (z3.is_expr(new) and new.eq(old)):
                changed.append((name, lvalue, new))
    written = {lvalue for _, lvalue, _ in changed}
    staged, direct = [], []
    for name, lvalue, new in changed:
        text = writer.text(new, edge)
        if writer.reads(new) & (written - {lvalue}):
            writer.temporaries.add(name)
            staged.append((f"next_{lvalue}", lvalue, text))
        else:
            direct.append(f"{lvalue} = {text}")
    # Staged values are computed before any slot changes; the other slots
    # read no changed slot but their own, so they can be set in any order.
    steps = [f"{temp} = {text}" for temp, _, text in staged] + direct + [f"{lvalue} = {temp}" for temp, lvalue, _ in staged]
    guard = f"{names['location']} == {machine.location_index[edge.source]} && {writer.text(_simplified(edge.guard(pre, SYMBOLIC)), edge)}"
    rules = f"rules {', '.join(edge.rules)}" if edge.rules else "an exploration bound"
    body = "; ".join(steps) if steps else "skip"
    return f"    :: /* {edge.name} ({rules}) */\n       d_step {{ {guard} -> {body} }}"


def _simplified(term: Any) -> Any:
    """``term`` as Z3 simplifies it.  The backends build terms for every case
    (``select`` is a chain of ifs over every slot, however constant the
    index): unsimplified, the Promela is 2 to 18 times longer (HotA's 5 MB,
    its longest guard 568,000 characters, against 0.27 MB)."""
    return z3.simplify(term) if z3.is_expr(term) else term


class _Writer:
    """Z3 terms over one symbolic state as Promela expressions.  Terms are
    shared within a guard or update (a DAG); each is written once, by its id.
    The memos hold the terms themselves too: Z3 reuses the id of a term
    that has been freed."""

    BINARY = {
        z3.Z3_OP_EQ: "==",
        z3.Z3_OP_LE: "<=",
        z3.Z3_OP_LT: "<",
        z3.Z3_OP_GE: ">=",
        z3.Z3_OP_GT: ">",
    }
    CHAINED = {z3.Z3_OP_AND: "&&", z3.Z3_OP_OR: "||", z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_MUL: "*"}

    def __init__(self, slots: dict[int, str]) -> None:
        self.slots = slots
        self._text: dict[int, tuple[z3.ExprRef, str]] = {}
        self._reads: dict[int, tuple[z3.ExprRef, frozenset[str]]] = {}
        #: Variables some edge's update stages in a ``next_`` temporary.
        self.temporaries: set[str] = set()

    def reads(self, term: Any) -> frozenset[str]:
        """The slots (Promela lvalues) ``term`` reads."""
        if not z3.is_expr(term):
            return frozenset()
        key = term.get_id()
        if key not in self._reads:
            read = frozenset((self.slots[key],)) if key in self.slots else frozenset().union(*map(self.reads, term.children()))
            self._reads[key] = term, read
        return self._reads[key][1]

    def text(self, term: Any, edge: Edge) -> str:
        if not z3.is_expr(term):
            return _constant(term)
        key = term.get_id()
        if key not in self._text:
            self._text[key] = term, self._write(term, edge)
        return self._text[key][1]

    def _write(self, term: z3.ExprRef, edge: Edge) -> str:
        if term.get_id() in self.slots:
            return self.slots[term.get_id()]
        kind = term.decl().kind()
        args = [self.text(c, edge) for c in term.children()]
        if kind == z3.Z3_OP_TRUE:
            return "true"
        if kind == z3.Z3_OP_FALSE:
            return "false"
        if kind == z3.Z3_OP_ANUM and z3.is_int_value(term):
            return _constant(term.as_long())
        if kind in self.BINARY and len(args) == 2:
            return f"({args[0]} {self.BINARY[kind]} {args[1]})"
        if kind in self.CHAINED and args:
            return "(" + f" {self.CHAINED[kind]} ".join(args) + ")"
        if kind == z3.Z3_OP_NOT:
            return f"(!{args[0]})"
        if kind == z3.Z3_OP_UMINUS:
            return f"(-{args[0]})"
        if kind == z3.Z3_OP_IMPLIES:
            return f"(!{args[0]} || {args[1]})"
        if kind == z3.Z3_OP_ITE:
            return f"({args[0]} -> {args[1]} : {args[2]})"
        if kind == z3.Z3_OP_DISTINCT:
            return "(" + " && ".join(f"{a} != {b}" for i, a in enumerate(args) for b in args[i + 1 :]) + ")"
        what = f"the constant {term}, not a variable of the state" if z3.is_const(term) else f"the operator {term.decl().name()!r}"
        raise UnsupportedTerm(f"edge {edge.name!r}: no Promela for {what} in {str(term)[:200]}")
