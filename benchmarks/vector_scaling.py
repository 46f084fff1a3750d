"""The vectorized search and Spin as WoW's instances grow (issue 21); writes
the section of RESULTS.md.

    python -m benchmarks.vector_scaling

Each instance of ``INSTANCES`` (players, turns, cards in each opening hand,
cards in each deck) is searched to the end by the vectorized search
(``checkers/vector.py``) and by Spin on the same machine written as Promela
(``checkers/promela.py``, compiled and run as ``benchmarks/spin.py`` runs
it), and the run fails unless both find the same states and transitions.
Our searches run under a memory budget (``SEARCH_BUDGET``); a search it
stops says how far it got, and Spin does not search that instance.
With a card a deck a third turn adds little (the decks run out); with a
card for each turn after the first it makes a longer game.

Each of our searches runs in a process of its own, so that its memory can
be read off the system: bytes a state are given three ways, the arrays held
once the search is over (``VectorExploration.nbytes``), the most the
search's arrays held at a level's end (``peak_bytes``), and the growth of
the process's resident memory during the search (its most, less what it
held once the machine was built).  Spin's is pan's "total actual memory
usage", its 128 MB hash table (``-w24``) included.  Seconds are CPU seconds
(ours ``time.process_time``; pan's, its process's user and system time):
the machine is shared.  An instance whose Spin run would pass ``MEMORY_CAP``
by the bytes a state pan took on the largest instance before it is searched
by us alone, and says so.
"""

from __future__ import annotations

import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.engine import write_section
from benchmarks.spin import SPIN_MIN_SEARCH_S
from benchmarks.vector import NO_STATE_CAP
from checkers import promela, vector
from model import wowtcg

BEGIN, END = "<!-- benchmarks.vector_scaling: begin -->", "<!-- benchmarks.vector_scaling: end -->"
#: (players, turns, hand, deck), smallest first.  The next steps do not fit
#: here: two players, four turns and three cards a deck passed 80 million
#: states at level 84, and 9 GB of resident memory, before its end; three
#: players with three turns, or with a card in each opening hand, had not
#: finished after five minutes of the shared machine's wall clock.
INSTANCES = [
    (2, 2, 0, 1),
    (2, 3, 0, 1),
    (3, 2, 0, 1),
    (2, 3, 0, 2),
    (2, 2, 1, 1),
    (2, 3, 1, 1),
]
#: The most memory one search may take on this shared machine (of 24 GiB).
MEMORY_CAP = 6 * 2**30
#: The budget our searches run under (``--max-memory``: the bytes their
#: arrays hold at a level's end): the process's resident memory, its
#: temporary arrays and the machine's model included, stays near 8 GB.
SEARCH_BUDGET = 4 * 2**30 + 2**29


def bounds(instance: tuple[int, int, int, int]) -> dict[str, int]:
    players, turns, hand, deck = instance
    return {"players": players, "turns": turns, "hand": hand, "deck": deck}


def search_here(instance: tuple[int, int, int, int]) -> dict:
    """Our search of one instance, in this process (``--instance``)."""
    machine = wowtcg.build(**bounds(instance))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started = time.process_time()
    v = vector.explore(machine, max_states=NO_STATE_CAP, max_memory=SEARCH_BUDGET)
    seconds = time.process_time() - started
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    return {
        "states": v.states,
        "transitions": v.transitions,
        "levels": v.levels,
        "expanded": v.expanded,
        "stopped": v.stopped,
        "seconds": seconds,
        "bytes": v.nbytes / v.states,
        "peak_bytes": v.peak_bytes / v.states,
        "rss_bytes": grown / v.states,
    }


def search_apart(instance: tuple[int, int, int, int]) -> dict:
    """Our search of one instance, in a process of its own."""
    argument = ",".join(map(str, instance))
    done = subprocess.run([sys.executable, "-m", "benchmarks.vector_scaling", "--instance", argument], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"the search of {instance} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def measure() -> dict:
    rows = []
    spin_bytes = 0.0  # pan's bytes a state on the largest instance it searched so far
    for instance in INSTANCES:
        ours = search_apart(instance)
        row: dict[str, Any] = {"instance": instance, "ours": ours, "spin": None}
        if ours["stopped"]:
            row["spin_skipped"] = None  # no count to compare with: Spin would search what we did not
        elif spin_bytes and spin_bytes * ours["states"] > MEMORY_CAP:
            row["spin_skipped"] = spin_bytes * ours["states"]
        else:
            machine = wowtcg.build(**bounds(instance))
            with tempfile.TemporaryDirectory(prefix="chainproof-spin-") as directory:
                spin = promela.run_spin(promela.to_promela(machine), Path(directory), min_search_s=SPIN_MIN_SEARCH_S)
            expected = promela.spin_counts(machine, ours["states"], ours["transitions"])
            if (spin.states, spin.transitions) != expected:
                raise AssertionError(f"{instance}: Spin stored {spin.states} states and made {spin.transitions} transitions, not {expected}")
            row["spin"] = {"seconds": spin.pan_cpu_s, "mb": spin.memory_mb, "state_vector": spin.state_vector}
            spin_bytes = spin.memory_mb * 2**20 / ours["states"]
        rows.append(row)
    spin_version = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout
    return {
        "rows": rows,
        "spin_version": re.search(r"Spin Version ([^ ]+)", spin_version).group(1),
        "load": os.getloadavg()[0],
    }


def render(m: dict) -> str:
    lines = [
        "## The vectorized search and Spin as WoW grows (`python -m benchmarks.vector_scaling`)",
        "",
        f"Measured {datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} with {os.cpu_count()} CPUs, Spin {m['spin_version']} "
        f"run as in `benchmarks.spin`; load average {m['load']:.1f} at the end (other work shared the cores). Each row is "
        "searched to the end by both, which find the same states and transitions (the run checks it), but for a row that our "
        f"search's memory budget ({SEARCH_BUDGET / 2**30:.1f} GiB of arrays at a level's end) stopped short. Seconds are CPU "
        "seconds. Our bytes a state: the arrays kept once the search is over, the most its arrays held at a level's end, "
        "and the growth of the process's resident memory during the search. Spin's: pan's total memory (its 128 MB hash "
        "table included, which is most of it on the small rows) over the states. *Ratio* is our states a second over Spin's.",
        "",
        "| players | turns | hand | deck | states | transitions | levels | ours CPU s | ours states/s | ours bytes/state: kept, peak, RSS "
        "| Spin CPU s | Spin states/s | Spin bytes/state | ratio |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for row in m["rows"]:
        players, turns, hand, deck = row["instance"]
        o, s = row["ours"], row["spin"]
        rate = o["states"] / o["seconds"]
        if s is None and row["spin_skipped"] is None:
            spin = "not run: our search stopped short | | |"
        elif s is None:
            spin = f"not run: some {row['spin_skipped'] / 2**30:.0f} GB, past the {MEMORY_CAP // 2**30} GB a run may take here | | |"
        else:
            spin_rate = o["states"] / s["seconds"]
            spin = f"{s['seconds']:.2f} | {spin_rate:,.0f} | {s['mb'] * 2**20 / o['states']:,.0f} | {rate / spin_rate:.2f}"
        # A search stopped short: what it found, and the levels it expanded.
        levels = f"{o['expanded']} expanded, then stopped {o['stopped']}" if o["stopped"] else o["levels"]
        lines.append(
            f"| {players} | {turns} | {hand} | {deck} | {o['states']:,} | {o['transitions']:,} | {levels} | {o['seconds']:.2f} | {rate:,.0f} "
            f"| {o['bytes']:.0f}, {o['peak_bytes']:.0f}, {o['rss_bytes']:.0f} | {spin} |"
        )
    return "\n".join([BEGIN, *lines, END])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--instance"]:
        print(json.dumps(search_here(tuple(int(x) for x in sys.argv[2].split(",")))))
    else:
        write_section("benchmarks.vector_scaling", __doc__, measure, render, BEGIN, END)
