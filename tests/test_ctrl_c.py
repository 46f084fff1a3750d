"""Ctrl-C during a Z3 query is an interrupt because a SIGINT was recorded,
never because of how Z3 words the reason it stopped (model/limits.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import z3

from model import limits

ROOT = Path(__file__).resolve().parents[1]


def pigeons(holes: int) -> z3.Solver:
    """``holes + 1`` pigeons, ``holes`` holes, one pigeon a hole: unsat, and
    propositional, so Z3 hands it to its SAT solver, whose effort grows
    exponentially with the holes."""
    sits = [[z3.Bool(f"p{p}h{h}") for h in range(holes)] for p in range(holes + 1)]
    solver = z3.Solver()
    for row in sits:
        solver.add(z3.Or(row))
    for h in range(holes):
        for p in range(holes + 1):
            for q in range(p + 1, holes + 1):
                solver.add(z3.Or(z3.Not(sits[p][h]), z3.Not(sits[q][h])))
    return solver


def test_a_cancelled_query_with_no_ctrl_c_is_unknown_not_an_interrupt():
    # The SAT solver says "canceled" when it reaches its resource limit, the
    # word Ctrl-C had been inferred from: it must read as a limit reached.
    solver = pigeons(8)
    solver.set("rlimit", 2_000)
    assert solver.check() == z3.unknown
    reason = solver.reason_unknown()
    assert "cancel" in reason and not limits.stopped_by_ctrl_c(reason)
    assert "resource limit" in limits.why_unknown(reason, 600_000)


STOPPED_BY_SIGINT = textwrap.dedent(
    """
    import os, signal, threading, time, traceback
    import z3
    from model import limits
    from tests.test_ctrl_c import pigeons

    # A run started in the background by a shell (`... &`) ignores SIGINT,
    # and a child inherits that, so Python would not install its handler:
    # put back what a terminal gives.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    solver = pigeons(13)  # far more work than the test waits for: only the SIGINT can end it
    checking = threading.Event()

    def press_ctrl_c():
        # Counted from the query's start, not the thread's: on a busy machine
        # the main thread may take a while to reach it.
        checking.wait()
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGINT)

    with limits.ctrl_c_stops_z3():
        threading.Thread(target=press_ctrl_c, daemon=True).start()
        try:
            checking.set()
            solver.check()
        except KeyboardInterrupt as stopped:
            # Raised where the query returned, inside Z3's Python layer.
            where = os.path.basename(os.path.dirname(traceback.extract_tb(stopped.__traceback__)[-1].filename))
            print(where, limits._CTRL_C.is_set(), flush=True)
    # Outside, the record is gone and Z3's own handler is back.
    print(limits._CTRL_C.is_set(), z3.get_param("ctrl_c"))
    """
)


def test_ctrl_c_stops_a_running_query_and_is_recorded():
    """A real SIGINT, sent while Z3's SAT solver is deep in a query Z3's own
    handler would have taken: Python raises KeyboardInterrupt from the check
    itself (the query was stopped, not waited for), with the SIGINT recorded."""
    done = subprocess.run([sys.executable, "-c", STOPPED_BY_SIGINT], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["z3", "True", "False", "true"], done.stdout + done.stderr
