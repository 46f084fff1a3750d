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
up to the relation ``promela.spin_counts`` documents).  WoW's ``--hand 1``
(some 40 million states) is too large for explicit search, which holds about
1.5 KB a state: there Spin and the vectorized search alone are compared.

Spin's search is timed by pan itself ("elapsed time", in hundredths of a
second: a search shorter than a second is run again until the runs add up to
one, ``SPIN_MIN_SEARCH_S``, and their mean is taken) and by the CPU seconds
of its whole run (``promela.SpinRun.pan_cpu_s``), and its whole way from
machine to verdict by the wall clock: writing the Promela, ``spin -a``, gcc
and one run of pan, its hash table's allocation included.  Each of our
searches runs once, timed in CPU seconds (``time.process_time``): the
machine is shared, and pan's elapsed time counts its waits for a core, which
only favours us.  Timings vary by a third on a shared machine.
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
from benchmarks.vector import NO_MEMORY_BUDGET, NO_STATE_CAP, cpu_timed
from checkers import explicit, promela, vector
from model import hota, riftbound, wowtcg
from model.machine import Machine

BEGIN, END = "<!-- benchmarks.spin: begin -->", "<!-- benchmarks.spin: end -->"
#: pan's runs on one model add up to this much search time, at least.
SPIN_MIN_SEARCH_S = 1.0
INSTANCES: dict[str, Callable[[], Machine]] = {
    "WoW default": wowtcg.build,
    "WoW --turns 3": lambda: wowtcg.build(turns=3),
    "WoW --hand 1": lambda: wowtcg.build(hand=1),
    "Riftbound default": riftbound.build,
    "Heroes of Ancients default": hota.build,
}


#: Instances explicit search cannot hold: Spin and the vectorized search only.
TOO_LARGE_FOR_EXPLICIT = {"WoW --hand 1"}


def measure_instance(machine: Machine, with_explicit: bool = True) -> dict:
    started = time.perf_counter()
    text = promela.to_promela(machine)
    translate_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="chainproof-spin-") as directory:
        spin = promela.run_spin(text, Path(directory), min_search_s=SPIN_MIN_SEARCH_S)
    v, vector_s = cpu_timed(vector.explore, machine, max_states=NO_STATE_CAP, max_memory=NO_MEMORY_BUDGET)
    e, explicit_s = cpu_timed(explicit.explore, machine, max_memory=NO_MEMORY_BUDGET) if with_explicit else (v, None)
    if not (e.complete and v.complete):
        raise AssertionError(f"{machine.game}: a search of ours stopped short ({e.stopped or v.stopped})")
    if (e.states, e.transitions) != (v.states, v.transitions):
        raise AssertionError(f"{machine.game}: explicit {e.states} states, {e.transitions} transitions; vector {v.states}, {v.transitions}")
    expected = promela.spin_counts(machine, v.states, v.transitions)
    if (spin.states, spin.transitions) != expected:
        raise AssertionError(
            f"{machine.game}: Spin stored {spin.states} states and made {spin.transitions} transitions, "
            f"not the {expected[0]} and {expected[1]} that our {v.states} and {v.transitions} give"
        )
    return {
        "states": v.states,
        "transitions": v.transitions,
        "promela_chars": len(text),
        "translate_s": translate_s,
        "spin": spin,
        "explicit_s": explicit_s,
        "vector_s": vector_s,
        "vector_bytes": v.nbytes / v.states,
        "vector_peak_bytes": v.peak_bytes / v.states,
    }


def measure() -> dict:
    out: dict[str, Any] = {
        "instances": {name: measure_instance(build(), name not in TOO_LARGE_FOR_EXPLICIT) for name, build in INSTANCES.items()}
    }
    first = next(iter(out["instances"].values()))["spin"]
    out["spin_version"] = re.search(r"Spin Version ([^ ]+)", first.output).group(1)
    out["gcc_version"] = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True, text=True, check=True).stdout.strip()
    out["load"] = os.getloadavg()[0]
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
        "vectorized search in one run (explicit search left out where it cannot hold the states). All find the same "
        "reachable states and transitions on every instance (the run checks it: Spin stores one state more, the one before "
        "`init` sets the initial values, and counts one transition more per initial state, plus one). Our searches are timed "
        "in CPU seconds; Spin by the CPU seconds of pan's whole run (its start, some 0.1 s that allocates its hash table, "
        "included: on the smallest instances that is most of it) and by pan's own search time (wall clock: on a busy "
        "machine it counts pan's waits for a core). *Spin ÷ ours* is Spin's states a second over ours, both in CPU "
        "seconds, and in the last column Spin by its search time. Spin's memory is mostly its default hash table (128 MB, "
        f"`-w24`) and depth-first stack; the vectorized search's, its keys and transitions once it is over, and in brackets "
        f"the most it held during the search (its hash table of the states seen included). Load average {m['load']:.1f} "
        "at the end of the run: other work shared the cores.",
        "",
        "| instance | states | transitions | Spin CPU s | Spin states/s | Spin search s (pan, wall) | Spin MB | explicit CPU s "
        "| explicit states/s | vector CPU s | vector states/s | vector bytes/state (at its peak) | Spin ÷ explicit | Spin ÷ vector "
        "| Spin ÷ vector, by pan's search time |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, r in m["instances"].items():
        spin, states = r["spin"], r["states"]
        explicit_s = r["explicit_s"]
        explicit_cells = f"{explicit_s:.1f} | {states / explicit_s:,.0f}" if explicit_s is not None else "— | —"
        explicit_ratio = f"{explicit_s / spin.pan_cpu_s:.1f}x" if explicit_s is not None else "—"
        lines.append(
            f"| {name} | {states:,} | {r['transitions']:,} | {spin.pan_cpu_s:.3f} | {states / spin.pan_cpu_s:,.0f} | {spin.search_s:.3f} "
            f"| {spin.memory_mb:,.0f} | {explicit_cells} | {r['vector_s']:.2f} | {states / r['vector_s']:,.0f} | {r['vector_bytes']:.0f} ({r['vector_peak_bytes']:.0f}) "
            f"| {explicit_ratio} | {r['vector_s'] / spin.pan_cpu_s:.1f}x | {r['vector_s'] / spin.search_s:.1f}x |"
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
