"""Campaign throughput: the shipped campaign's cells on a two-worker local Dask
cluster against a plain loop over the same cells in one process; write the
section of RESULTS.md.

    python -m benchmarks.campaign

The campaign is ``campaigns/regression.yaml`` (minutes in all).  The loop
calls ``campaign.run_cell`` on each cell in turn; the cluster run is what
``chainproof campaign`` does (``campaign.cluster``, ``campaign.execute``, each
result written to a database as it arrives), its seconds counted from the
cluster's start to its close.  Cells differ in size, so two workers cannot
finish before the longest cell does, nor in less than half the cells' own
seconds: the section gives that bound beside the measured time.  Timings vary
by a third on a shared machine.
"""

from __future__ import annotations

import os
import platform
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from benchmarks.engine import write_section
from chainproof import campaign

BEGIN, END = "<!-- benchmarks.campaign: begin -->", "<!-- benchmarks.campaign: end -->"
CAMPAIGN = Path(__file__).resolve().parent.parent / "campaigns" / "regression.yaml"
WORKERS = 2


def measure() -> dict:
    defined = campaign.load(CAMPAIGN)
    # The load average over each run: other work on a shared machine slows both.
    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    in_turn = {cell.key: campaign.run_cell(cell) for cell in defined.cells}
    loop_s = time.perf_counter() - started
    loads.append(os.getloadavg()[0])

    with tempfile.TemporaryDirectory() as folder:
        store = campaign.Store(Path(folder) / "campaign.db", defined)
        started = time.perf_counter()
        with campaign.cluster(WORKERS, None) as client:
            start_s = time.perf_counter() - started
            campaign.execute(client, defined.cells, store, lambda cell, done: None)
        cluster_s = time.perf_counter() - started
        loads.append(os.getloadavg()[0])
        stored = store.rows()
        store.close()

    longest = max(defined.cells, key=lambda c: stored[c.key].seconds)
    return {
        "cells": len(defined.cells),
        "kinds": Counter(c.kind for c in defined.cells),
        "loop_s": loop_s,
        "cluster_s": cluster_s,
        "start_s": start_s,
        "cell_s": sum(r.seconds for r in stored.values()),
        "longest": (longest.key, stored[longest.key].seconds),
        "same": all((stored[k].outcome, stored[k].verdict) == (d.outcome, d.verdict) for k, d in in_turn.items()),
        "outcomes": Counter(r.outcome for r in stored.values()),
        "loads": loads,
    }


def render(r: dict) -> str:
    per_minute = lambda seconds: r["cells"] * 60 / seconds  # noqa: E731
    key, longest_s = r["longest"]
    bound_s = max(longest_s, r["cell_s"] / WORKERS)
    kinds = ", ".join(f"{n} {kind}" for kind, n in r["kinds"].items())
    lines = [
        BEGIN,
        "## Campaign throughput (`python -m benchmarks.campaign`)",
        "",
        f"Measured {datetime.now():%Y-%m-%d %H:%M} on {platform.machine()} with {os.cpu_count()} CPUs: "
        f"`campaigns/regression.yaml`, {r['cells']} cells ({kinds}).  Load average (1 minute) before the loop "
        f"{r['loads'][0]:.1f}, after it {r['loads'][1]:.1f}, after the cluster run {r['loads'][2]:.1f}: "
        "the loop keeps one core busy, the cluster two.",
        "",
        "| run | seconds | cells per minute |",
        "| --- | --- | --- |",
        f"| a plain loop over the cells in one process | {r['loop_s']:.1f} | {per_minute(r['loop_s']):.1f} |",
        f"| `chainproof campaign`: a {WORKERS}-worker LocalCluster, its start ({r['start_s']:.1f} s) and close included "
        f"| {r['cluster_s']:.1f} | {per_minute(r['cluster_s']):.1f} |",
        "",
        f"Speed-up {r['loop_s'] / r['cluster_s']:.2f}x.  On the cluster the cells' own seconds add up to {r['cell_s']:.1f}; "
        f"the longest is `{key}` ({longest_s:.1f} s), so {WORKERS} workers cannot finish in under {bound_s:.1f} s.  "
        f"Outcomes: {', '.join(f'{n} {o}' for o, n in sorted(r['outcomes'].items()))}; the same outcome and verdict "
        f"for every cell in both runs: {'yes' if r['same'] else 'NO'}.",
        END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_section("benchmarks.campaign", __doc__, measure, render, BEGIN, END, argv)


if __name__ == "__main__":
    main()
