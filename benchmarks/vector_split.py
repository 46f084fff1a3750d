"""The vectorized search with each large level's successors found by two
processes (issue 21, item 4: both cores); writes the section of RESULTS.md.

    python -m benchmarks.vector_split

A level of more than ``SPLIT_ROWS`` states is cut in two halves by state
number: a worker process, forked once when the first such level comes,
finds the successors of the second half (``vector.Expander.successors``),
the keys handed to it and its successors handed back through files in
memory (``/dev/shm`` where there is one), while the search's own process
finds those of the first half.  Successors come in the order of their
predecessors, so the first half's followed by the second's are the level's
in explicit search's order: the states seen (``Visited``) stay in the
search's process, which numbers them as one process does.  The run checks
it: both searches give the same keys, levels and transitions.  (Forking
at each level instead cost more than it saved: the child's first touches of
the parent's objects copy their pages.)

Times: the wall clock of the whole search, which on a shared machine counts
every wait for a core; the CPU seconds of the search's process, and the
worker's (each level's, as it measures them, and its start and end, from
its ``rusage``); and from those the wall clock two free cores would take,
the *critical path*: the search's process's work outside split levels,
plus for each split level the handing over and the longer of the two
halves, plus the worker's start and end.  Whether the search should take a
second process is judged from that path and from what else would use the
second core (the section says).
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Iterator

import numpy as np

from benchmarks.engine import write_section
from benchmarks.vector import NO_MEMORY_BUDGET, NO_STATE_CAP
from checkers import vector
from model import wowtcg

BEGIN, END = "<!-- benchmarks.vector_split: begin -->", "<!-- benchmarks.vector_split: end -->"
INSTANCES = {"--turns 3": {"turns": 3}, "--hand 1": {"hand": 1}}
#: Levels of more states than this are split: on fewer, a fork costs more than half the level's work.
SPLIT_ROWS = 1 << 16


@contextmanager
def two_processes(times: dict[str, float]) -> Iterator[None]:
    """``vector.explore`` with each level of more than ``SPLIT_ROWS`` states
    split over two processes, while the block runs; ``times`` gathers the
    CPU seconds of each part (see the module's doc)."""
    one = vector.Expander.successors
    directory = "/dev/shm" if os.path.isdir("/dev/shm") else None
    workers: dict[int, Worker] = {}

    def successors(self: vector.Expander, keys: np.ndarray, first: int) -> tuple[np.ndarray, ...]:
        started = time.process_time()
        if len(keys) <= SPLIT_ROWS:
            out = one(self, keys, first)
            spent = time.process_time() - started
            times["alone"] += spent
            times["critical"] += spent
            return out
        if id(self) not in workers:
            workers[id(self)] = Worker(lambda k, f: one(self, k, f), directory)
        worker = workers[id(self)]
        half = len(keys) // 2
        worker.send(keys[half:], first + half)
        sent = time.process_time()
        mine = one(self, keys[:half], first)
        done = time.process_time()
        theirs, child_s = worker.receive()
        out = tuple(np.concatenate(pair) for pair in zip(mine, theirs))
        joined = time.process_time()
        times["parent_half"] += done - sent
        times["child"] += child_s
        times["hand_over"] += (sent - started) + (joined - done)
        times["critical"] += (sent - started) + max(done - sent, child_s) + (joined - done)
        times["split_levels"] += 1
        return out

    vector.Expander.successors = successors
    try:
        yield
    finally:
        vector.Expander.successors = one
        for worker in workers.values():
            # The parent waits for it to end: on the critical path.
            spent = worker.stop()
            times["child_start_stop"] += spent
            times["critical"] += spent


class Worker:
    """A forked process that finds the successors of the keys it is handed,
    level after level, through files in memory; its start (the fork) is paid
    once, not once a level."""

    def __init__(self, expand: Any, directory: str | None) -> None:
        self.keys_file = tempfile.NamedTemporaryFile(dir=directory, prefix="chainproof-split-keys-")
        self.out_file = tempfile.NamedTemporaryFile(dir=directory, prefix="chainproof-split-out-")
        to_child, self.to_child = os.pipe()
        self.from_child, from_child = os.pipe()
        self.jobs_s = 0.0
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self.to_child)
            os.close(self.from_child)
            try:
                with os.fdopen(to_child, "rb") as orders, os.fdopen(from_child, "wb") as answers:
                    for line in orders:
                        started = time.process_time()
                        first, words = (int(x) for x in line.split())
                        keys = np.fromfile(self.keys_file.name, np.uint64).reshape(-1, words)
                        with open(self.out_file.name, "wb") as f:
                            for part in expand(keys, first):
                                np.save(f, part)
                        answers.write(f"{time.process_time() - started!r}\n".encode())
                        answers.flush()
            finally:
                os._exit(0)
        os.close(to_child)
        os.close(from_child)
        self.orders = os.fdopen(self.to_child, "wb")
        self.answers = os.fdopen(self.from_child, "rb")

    def send(self, keys: np.ndarray, first: int) -> None:
        keys.tofile(self.keys_file.name)
        self.orders.write(f"{first} {keys.shape[1]}\n".encode())
        self.orders.flush()

    def receive(self) -> tuple[list[np.ndarray], float]:
        line = self.answers.readline()
        if not line:
            raise RuntimeError("the worker process stopped")
        seconds = float(line)
        self.jobs_s += seconds
        with open(self.out_file.name, "rb") as f:
            return [np.load(f) for _ in range(4)], seconds

    def stop(self) -> float:
        """Ends the worker; the CPU seconds it spent outside its levels' work (its start and exit)."""
        self.orders.close()
        _, _, usage = os.wait4(self.pid, 0)
        self.answers.close()
        self.keys_file.close()
        self.out_file.close()
        return usage.ru_utime + usage.ru_stime - self.jobs_s


def search(machine: Any, split: bool) -> tuple[vector.VectorExploration, dict[str, float]]:
    times = dict.fromkeys(["alone", "parent_half", "child", "hand_over", "child_start_stop", "critical", "split_levels"], 0.0)
    wall, cpu = time.perf_counter(), time.process_time()
    if split:
        with two_processes(times):
            v = vector.explore(machine, max_states=NO_STATE_CAP, max_memory=NO_MEMORY_BUDGET)
    else:
        v = vector.explore(machine, max_states=NO_STATE_CAP, max_memory=NO_MEMORY_BUDGET)
    times["cpu"] = time.process_time() - cpu
    times["wall"] = time.perf_counter() - wall
    # Work outside ``successors`` (the states seen, the transitions kept) is the search process's alone.
    outside = times["cpu"] - times["alone"] - times["parent_half"] - times["hand_over"]
    times["critical"] += outside if split else times["cpu"]
    return v, times


def measure() -> dict:
    rows = {}
    for name, bounds in INSTANCES.items():
        machine = wowtcg.build(**bounds)
        one, one_times = search(machine, split=False)
        two, two_times = search(machine, split=True)
        same = (
            one.level_starts == two.level_starts
            and one.transitions == two.transitions
            and np.array_equal(one.low, two.low)
            and (one.tail is None or (np.array_equal(one.tail, two.tail) and np.array_equal(one.tails, two.tails)))
        )
        if not same:
            raise AssertionError(f"{name}: the search split over two processes found other states than one process")
        rows[name] = {"states": one.states, "transitions": one.transitions, "levels": one.levels, "one": one_times, "two": two_times}
        del one, two
    return {"rows": rows, "load": os.getloadavg()[0]}


def render(m: dict) -> str:
    lines = [
        "## Both cores: the vectorized search's levels split over two processes (`python -m benchmarks.vector_split`)",
        "",
        f"Measured {datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} with {os.cpu_count()} CPUs; load average "
        f"{m['load']:.1f} at the end (other work shared the cores: the wall clock counts the waits for one). Each level of more "
        f"than {SPLIT_ROWS:,} states is cut in two, the second half's successors found by a worker process forked once; both searches find "
        "the same keys, levels and transitions (the run checks it). Seconds are CPU seconds, but for the wall clock's columns; *two free "
        "cores* is the critical path from them: the search's process's work outside split levels, plus for each split level "
        "the handing over and the longer half, plus the worker's start and end.",
        "",
        "| instance | states | levels | one process: CPU s | wall s | two: search process CPU s | worker CPU s (its levels; its start and end) | handing over s "
        "| split levels | wall s | two free cores s | one ÷ two free cores |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    verdicts = []
    for name, row in m["rows"].items():
        one, two = row["one"], row["two"]
        gain = one["cpu"] / two["critical"]
        lines.append(
            f"| {name} | {row['states']:,} | {row['levels']} | {one['cpu']:.2f} | {one['wall']:.1f} | {two['cpu']:.2f} | {two['child']:.2f} "
            f"({two['child_start_stop']:.2f}) | {two['hand_over']:.2f} | {two['split_levels']:.0f} | {two['wall']:.1f} | {two['critical']:.2f} | {gain:.2f}x |"
        )
        verdicts.append(f"{name}: {gain:.2f}x")
    lines += [
        "",
        "By the critical path: " + "; ".join(verdicts) + ". The search stays in one process: `chainproof verify` (the "
        "portfolio) already searches the bounded instance in one worker while the other proves on the any-length model, "
        "so a second process for the search would take the core of those proofs; what is left to gain is a search alone "
        "(`--method explicit`) of tens of millions of states, by the factor above, and the work outside the split levels "
        "(the states seen, the transitions kept), which stays in one process, bounds it.",
    ]
    return "\n".join([BEGIN, *lines, END])


if __name__ == "__main__":
    write_section("benchmarks.vector_split", __doc__, measure, render, BEGIN, END, sys.argv[1:])
