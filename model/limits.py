"""How much work one solver query may do.

A verdict must not depend on how busy the machine is, so every Z3 query
(a BMC depth, a k-induction step, a Spacer property, a rank proof, a damage
query) is bounded by Z3's resource limit, ``rlimit``: a count of the solver's
own steps, the same on any machine and under any load.  The wall-clock
timeout stays as an outer guard against a query that would run for hours;
when it is the guard that stops a query, the verdict says so, since only
then could a quieter machine have answered.

The limit is a process-wide setting, as Z3's own parameters are
(``set_rlimit``, from ``--rlimit``); the portfolio's workers are forked and
inherit it.
"""

from __future__ import annotations

import re
import signal
import socket
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import z3

#: Resource units per query.  The largest query of ``chainproof verify`` at
#: default bounds, Spacer's proof of WoW's combat_damage_equals_atk, takes
#: 180.7 million asked alone (``verify --explain``; since an instant may
#: destroy a defender, 601.2f, 602.4: about 27 million before), and 95.7
#: million in ``verify``, where the invariants k-induction proved are its
#: lemmas.  Spacer answers each query in a process of its own
#: (``checkers/spacer_process.py``), so those figures are the same whatever
#: else ran first; in the shared process they had ranged from 100 to 147
#: million.  The limit leaves twice the larger for other Z3 releases: some
#: two minutes of one core.
DEFAULT_RLIMIT = 400_000_000

_rlimit = DEFAULT_RLIMIT

#: The wall-clock guard per query, in milliseconds: far above what the
#: resource limit allows even on a busy machine, so that the resource limit,
#: not the clock, decides.
GUARD_MS = 600_000


def set_rlimit(units: int) -> None:
    """The resource limit of every query from now on (``--rlimit``)."""
    global _rlimit
    if units < 1:
        raise ValueError(f"a resource limit of {units} units allows no work; give at least 1")
    _rlimit = units


def rlimit() -> int:
    return _rlimit


def limit(solver: Any, timeout_ms: int) -> Any:
    """``solver`` (a Solver or a Fixedpoint) bounded by the resource limit, with
    the wall-clock timeout as the outer guard; returned for chaining."""
    solver.set("rlimit", _rlimit)
    solver.set("timeout", timeout_ms)
    return solver


#: What Z3 says when a query used up its resource limit: the generic solver
#: names it; the finite-domain (SAT) solver says "sat.canceled", or nothing
#: at all once it has been used incrementally.
_OUT_OF_RESOURCES = ("resource", "sat.canceled", "no reason given")

#: Set when this process received SIGINT (Ctrl-C) while ``ctrl_c_stops_z3``
#: was in force: the record that a cancelled query was the user's doing.
_CTRL_C = threading.Event()

#: Z3's own name for a query its SIGINT handler stopped (where that handler
#: is on, outside ``ctrl_c_stops_z3``).
_Z3_CTRL_C = "interrupted from keyboard"


def stopped_by_ctrl_c(reason: str) -> bool:
    """Did Ctrl-C stop the query that answered unknown for ``reason``?  Only a
    SIGINT that really arrived says so, never the wording of the reason alone:
    Z3 says "canceled" when the SAT solver reaches its resource limit too."""
    return _CTRL_C.is_set() or reason == _Z3_CTRL_C


@contextmanager
def ctrl_c_stops_z3() -> Iterator[None]:
    """Ctrl-C stops a running Z3 query at once and is recorded as such.

    Z3 installs a SIGINT handler of its own around each query and takes the
    first Ctrl-C for itself, so Python would never learn of it.  Here Z3's
    handler is off; Python's own handler writes each signal to a socket (its
    wakeup fd) even while Z3 holds the main thread, and a watcher thread
    records the SIGINT and interrupts Z3's context, so the query returns and
    Python raises KeyboardInterrupt as it does.  Main thread only."""
    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    before = signal.set_wakeup_fd(theirs.fileno(), warn_on_full_buffer=False)
    _CTRL_C.clear()
    z3_handler = z3.get_param("ctrl_c")
    z3.set_param("ctrl_c", False)

    def watch() -> None:
        while signals := ours.recv(64):
            if signal.SIGINT in signals:
                _CTRL_C.set()
                z3.main_ctx().interrupt()

    watcher = threading.Thread(target=watch, name="ctrl-c-watcher", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(before)
        z3.set_param("ctrl_c", z3_handler)
        theirs.close()  # ends the watcher: its socket reads end-of-file
        watcher.join()
        ours.close()
        _CTRL_C.clear()


def why_unknown(reason: str, timeout_ms: int) -> str:
    """Why a query came back unknown, in words that say whether a rerun could
    differ; a query Ctrl-C stopped is no answer at all (KeyboardInterrupt)."""
    if stopped_by_ctrl_c(reason):
        raise KeyboardInterrupt
    if reason == "timeout":
        return (f"the wall-clock guard of {timeout_ms / 1000:g} s stopped it before its resource limit "
                "(an outer guard: a busy machine reaches it sooner; raise --timeout)")
    if any(mark in reason for mark in _OUT_OF_RESOURCES):
        return f"the resource limit of {_rlimit:,} units was reached (counted work: the same on any machine; raise --rlimit)"
    if "cancel" in reason:
        # The SAT solver says "canceled" at its resource limit, and a timer
        # may say it too: either limit, not Ctrl-C (that is recorded above).
        return (f"Z3 cancelled it: the resource limit of {_rlimit:,} units or the wall-clock guard of "
                f"{timeout_ms / 1000:g} s was reached (raise --rlimit, or --timeout on a busy machine)")
    return f"Z3 gave up ({reason})"


#: What explicit search may hold, in bytes, unless ``--max-memory`` says
#: otherwise: some 100 million states of WoW's model in the vectorized
#: search's arrays (1.2 million by the state-by-state search's cost model).
DEFAULT_MAX_MEMORY = 2 * 2**30

_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*([KMG]?)(?:I?B)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def parse_memory(text: str) -> int:
    """``--max-memory``'s value in bytes: a number with an optional unit
    (``512M``, ``2GiB``, ``4G``; powers of 1024)."""
    size = _SIZE.fullmatch(text)
    if size is None:
        raise ValueError(f"{text!r} is not a size; write it as 512M, 2G or 2GiB")
    value = int(float(size.group(1)) * _UNITS[size.group(2).upper()])
    if value < 2**20:
        raise ValueError(f"a memory budget of {text!r} is too small for any search; give at least 1M")
    return value


def show_memory(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"
