"""What every command shares: the bound options, the one-line error, and the
guard that turns bad input or an internal error into it (exit 2)."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import click

from agreement.adapter import AdapterError
from agreement.trace import TraceFileError
from chainproof import report
from chainproof.games import BadInput
from checkers.invariants import KeptInvariantError
from model import limits
from model.machine import ModelError
from model.registry import RegistryError
from model.sources import SourceError

#: Z3 takes its timeout in milliseconds as a 32-bit number; a day is plenty.
MAX_TIMEOUT = 86_400.0

#: Z3 keeps ``rlimit`` in an unsigned 32-bit parameter: a larger number wraps
#: round (2**32 + 5 allows 5 units, 2**32 none at all), so it is refused.
MAX_RLIMIT = 2**32 - 1


#: The wall-clock guard per solver query, in seconds (``model/limits.py``).
DEFAULT_GUARD_S = limits.GUARD_MS / 1000


def check_rlimit(rlimit: int) -> None:
    """A resource limit that allows some work; from now on every query has it."""
    if rlimit < 1:
        raise BadInput(f"--rlimit {rlimit} allows no work: give at least 1 unit")
    if rlimit > MAX_RLIMIT:
        raise BadInput(f"--rlimit {rlimit} is more than Z3 can count: allowed 1..{MAX_RLIMIT}")
    limits.set_rlimit(rlimit)


def check_timeout(timeout: float) -> None:
    """A solver timeout in seconds Z3 can take (NaN is refused too)."""
    if not 0.001 <= timeout <= MAX_TIMEOUT:
        raise BadInput(f"--timeout {timeout} is out of range: allowed 0.001..{MAX_TIMEOUT:g} seconds")


def check_output(path: Path | None, option: str, folder: bool = False) -> None:
    """Refuse, before any work, an output that could not be written after it:
    a file where a folder is wanted or the reverse, a missing folder to write
    into (a mistyped path is a mistake to report, not folders to make; an
    output folder itself may be new), or one this user may not write."""
    if path is None:
        return
    parent = path if folder and path.is_dir() else path.parent
    if path.exists() and path.is_dir() != folder:
        why = "it is a file, not a folder" if folder else "it is a folder, not a file"
    elif parent.exists() and not parent.is_dir():
        why = f"{parent} is a file, not a folder"
    elif not parent.is_dir():
        why = f"the folder {parent} does not exist"
    elif not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        why = "not writable"
    else:
        return
    raise BadInput(f"{option} {path}: cannot write there: {why}")


def fail(message: str) -> None:
    click.echo(f"chainproof: error: {message}", err=True)
    sys.exit(2)


def interrupted(started: float) -> None:
    """One line, and exit 130 (the shell's code for a run stopped by Ctrl-C).
    Nothing partial is printed as if it were an answer; with ``--json``, stdout
    still holds one JSON object, which says that the run was cut short."""
    after = round(time.monotonic() - started, 1)
    click.echo(f"chainproof: interrupted after {after} s: no result", err=True)
    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("as_json"):
        click.echo(json.dumps({"interrupted": True, "partial": True, "after_seconds": after}))
    sys.exit(130)


def _ctrl_c(signum: int, frame: Any) -> None:
    """Python's own Ctrl-C, except inside a finalizer: a KeyboardInterrupt
    raised in a ``__del__`` (Z3 frees its terms there) is printed as
    "Exception ignored" and lost, and the run went on to the end as if no
    Ctrl-C had come.  There the signal is sent again a moment later."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            threading.Timer(0.05, signal.raise_signal, (signal.SIGINT,)).start()
            return
        frame = frame.f_back
    raise KeyboardInterrupt


def _raised_in(exc: BaseException, function: str) -> bool:
    """Was ``exc`` raised by a function of that name (the last frame of its traceback)?"""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_name == function


def guarded(run: Callable[[], int]) -> None:
    """Turn bad input, a broken model or an internal error into one line and
    exit 2, and Ctrl-C into one line and exit 130.

    ``--debug`` (before the command) lets an internal error raise with its traceback.
    """
    ours = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if not ours:
        _guarded(run)
        return
    signal.signal(signal.SIGINT, _ctrl_c)
    try:
        # A Ctrl-C that stops a Z3 query is recorded, so that only it, never
        # a query cancelled for another cause, is taken for one (model/limits.py).
        with limits.ctrl_c_stops_z3():
            _guarded(run)
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _guarded(run: Callable[[], int]) -> None:
    started = time.monotonic()
    try:
        code = run()
        # What is still buffered goes now, so that a reader gone away is met here.
        sys.stdout.flush()
    except (BadInput, AdapterError, TraceFileError, KeptInvariantError) as exc:
        fail(str(exc))
    except (ModelError, RegistryError) as exc:
        fail(f"the model is ill-formed: {exc}")
    except (report.RenderError, SourceError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        interrupted(started)
    except BrokenPipeError:
        # The reader (``| head``) left: nothing more to say to it, and nothing
        # went wrong with the run; 141 is what a shell reports for SIGPIPE.
        # Python would flush stdout again at exit and complain, so point it nowhere.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (AttributeError, OSError, ValueError):
            pass  # an in-memory stdout (tests) has no descriptor and nothing to flush
        sys.exit(141)
    except SystemExit as exc:
        # Rich meets a reader gone away by pointing stdout nowhere and exiting 1,
        # the code for a finding; the same event gives the same code as above.
        if _raised_in(exc, "on_broken_pipe"):
            sys.exit(141)
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence of a command-line tool
        # Ctrl-C while Z3's ctypes layer converts an argument arrives wrapped.
        if isinstance(exc, ctypes.ArgumentError) and "KeyboardInterrupt" in str(exc):
            interrupted(started)
        if click.get_current_context().find_root().params.get("debug"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (run 'chainproof --debug ...' for the traceback)")
    sys.exit(code)


#: The bounds a user may set on the command line (each game's ``BoundSpec`` checks the value).
BOUND_OPTIONS = (
    ("--players", "players at the table"),
    ("--chain-depth", "most links on the chain at once"),
    ("--turns", "turns explored"),
    ("--hand", "cards of each kind in every starting hand"),
    ("--deck", "most cards in a starting deck"),
    ("--hand-limit", "maximum hand size in the end step"),
    ("--allies", "allies in each party at the start"),
    ("--resources", "resources each player has in play at the start"),
    ("--combats", "combats explored per turn"),
    ("--battlefields", "battlefields on the table (riftbound)"),
    ("--spells", "showdown spells each player may cast (riftbound)"),
    ("--victory-points", "points that win the game (riftbound)"),
)


def bound_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The bound options, passed to the command as keyword arguments."""
    for flag, doc in reversed(BOUND_OPTIONS):
        command = click.option(flag, type=int, help=doc)(command)
    return command
