"""Spin against our two explicit searches, on the same models in the same run
(issue 21); writes the section of RESULTS.md.

    python -m benchmarks.spin

For each instance: the machine is written as Promela (``checkers/promela.py``),
``spin -a`` generates pan.c, gcc compiles it (``promela.OPTIMIZE`` and
``promela.PAN_DEFINES``) and pan searches every reachable state, in a
temporary directory; then explicit search (``checkers/explicit.py``, its
memory budget lifted as in ``benchmarks/vector.py``) and the vectorized
search (``checkers/vector.py``) explore the same machine in this process.
The run fails unless all three find the same states and transitions (Spin's
up to the relation ``promela.spin_counts`` documents).

Spin's search is timed by pan itself ("elapsed time", in hundredths of a
second: a search shorter than a second is run again until the runs add up to
one, ``SPIN_MIN_SEARCH_S``, and their mean is taken), and its whole way from
machine to verdict by the wall clock: writing the Promela, ``spin -a``, gcc
and one run of pan, its hash table's allocation included.  WoW's ``--hand 1`` is left out:
our searches stop past 2,000,000 states there, so no count can be compared.
Each of our searches runs once; timings vary by a third on a shared machine.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from benchmarks.engine import write_section
from benchmarks.vector import NO_MEMORY_BUDGET
from checkers import explicit, promela, vector
from model import hota, riftbound, wowtcg
from model.machine import Machine

BEGIN, END = "<!-- benchmarks.spin: begin -->", "<!-- benchmarks.spin: end -->"
#: pan's runs on one model add up to this much search time, at least.
SPIN_MIN_SEARCH_S = 1.0
INSTANCES: dict[str, Callable[[], Machine]] = {
    "WoW default": wowtcg.build,
    "WoW --turns 3": lambda: wowtcg.build(turns=3),
    "Riftbound default": riftbound.build,
    "Heroes of Ancients default": hota.build,
}


def measure_instance(machine: Machine) -> dict:
    started = time.perf_counter()
    text = promela.to_promela(machine)
    translate_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="chainproof-spin-") as directory:
        spin = promela.run_spin(text, Path(directory), min_search_s=SPIN_MIN_SEARCH_S)
    e = explicit.explore(machine, max_memory=NO_MEMORY_BUDGET)
    v = vector.explore(machine)
    if not (e.complete and v.complete):
        raise AssertionError(f"{machine.game}: a search of ours stopped short ({e.stopped or v.stopped})")
    if (e.states, e.transitions) != (v.states, v.transitions):
        raise AssertionError(f"{machine.game}: explicit {e.states} states, {e.transitions} transitions; vector {v.states}, {v.transitions}")
    expected = promela.spin_counts(machine, e.states, e.transitions)
    if (spin.states, spin.transitions) != expected:
        raise AssertionError(
            f"{machine.game}: Spin stored {spin.states} states and made {spin.transitions} transitions, "
            f"not the {expected[0]} and {expected[1]} that explicit search's {e.states} and {e.transitions} give"
        )
    return {
        "states": e.states,
        "transitions": e.transitions,
        "promela_chars": len(text),
        "translate_s": translate_s,
        "spin": spin,
        "explicit_s": e.seconds,
        "vector_s": v.seconds,
    }


def measure() -> dict:
    out: dict[str, Any] = {"instances": {name: measure_instance(build()) for name, build in INSTANCES.items()}}
    first = next(iter(out["instances"].values()))["spin"]
    out["spin_version"] = re.search(r"Spin Version ([^ ]+)", first.output).group(1)
    out["gcc_version"] = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True, text=True, check=True).stdout.strip()
    return out


def render(m: dict) -> str:
    lines = [
        "## Spin and our explicit searches, side by side (`python -m benchmarks.spin`)",
        "",
        f"Measured {datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} with {os.cpu_count()} CPUs: "
        f"Spin {m['spin_version']} (`spin -a {' '.join(promela.SPIN_OPTIONS)}`, pan.c compiled by gcc {m['gcc_version']} "
        f"with `{' '.join(promela.OPTIMIZE + promela.PAN_DEFINES)}`, run as `./pan {' '.join(promela.PAN_OPTIONS)}`).",
        "",
        "Each machine is translated to Promela (`checkers/promela.py`) and searched by Spin, by explicit search and by the "
        "vectorized search in one run. All three find the same reachable states and transitions on every instance (the run "
        "checks it: Spin stores one state more, the one before `init` sets the initial values, and counts one transition "
        "more per initial state, plus one). *Spin ÷ ours* is Spin's states a second over ours, both by search time alone. "
        "Spin's memory is mostly its default hash table (128 MB, `-w24`) and depth-first stack.",
        "",
        "| instance | states | transitions | Spin s (pan) | Spin states/s | Spin MB | explicit s | explicit states/s "
        "| vector s | vector states/s | Spin ÷ explicit | Spin ÷ vector |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, r in m["instances"].items():
        spin, states = r["spin"], r["states"]
        lines.append(
            f"| {name} | {states:,} | {r['transitions']:,} | {spin.search_s:.3f} | {states / spin.search_s:,.0f} | {spin.memory_mb:,.0f} "
            f"| {r['explicit_s']:.1f} | {states / r['explicit_s']:,.0f} | {r['vector_s']:.2f} | {states / r['vector_s']:,.0f} "
            f"| {r['explicit_s'] / spin.search_s:.1f}x | {r['vector_s'] / spin.search_s:.1f}x |"
        )
    lines += [
        "",
        "Spin's way from machine to verdict, by the wall clock (our searches need no such step: their time above is all of it):",
        "",
        "| instance | Promela chars | to Promela s | spin -a s | gcc s | pan s (wall) | Spin in all, s | pan runs timed | state vector bytes | deepest |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, r in m["instances"].items():
        spin = r["spin"]
        lines.append(
            f"| {name} | {r['promela_chars']:,} | {r['translate_s']:.2f} | {spin.spin_s:.2f} | {spin.compile_s:.1f} | {spin.pan_s:.2f} "
            f"| {r['translate_s'] + spin.wall_s:.1f} | {spin.runs} | {spin.state_vector} | {spin.depth} |"
        )
    return "\n".join([BEGIN, *lines, END]) + "\n"


if __name__ == "__main__":
    write_section("benchmarks.spin", __doc__, measure, render, BEGIN, END)
