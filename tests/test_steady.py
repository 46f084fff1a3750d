"""Same input, same verdict: solver work is bounded by Z3's resource limit
(``model/limits.py``), which counts work, so a busy machine changes how long
a query takes and nothing else."""

from __future__ import annotations

import ctypes
import json
import multiprocessing
import subprocess
import sys

import pytest
from click.testing import CliRunner

from chainproof.cli import main
from model import limits

#: A violation BMC finds at depth 7 and a property it leaves unknown at depth
#: 7, where the unrolling runs out of these resources (about 1.2 s on a quiet
#: machine; the least limit, in hundred thousands, that still reaches the
#: violation).  Without allies and combat the same violation costs a seventh
#: of the work it does on the default board, and the two busy cores spin for
#: as long as this query runs.
VERIFY = ["verify", "--game", "wowtcg", "--method", "bmc", "--rlimit", "300000", "--variant", "basic-chain-priority",
          "--property", "t*_player_*", "--hand", "1", "--allies", "0", "--combats", "0", "--json"]


def _spin() -> None:
    while True:
        pass


def _verdicts() -> list[dict]:
    # A process of its own each time, as a user runs it: Z3 reuses the terms a
    # process already built, so a second query in one process does less work.
    result = subprocess.run([sys.executable, "-c", "from chainproof.cli import main; main()", *VERIFY], capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stderr
    return [{k: v for k, v in r.items() if k not in ("seconds", "attempts")} for r in json.loads(result.stdout)["results"]]


@pytest.fixture
def default_rlimit():
    yield
    limits.set_rlimit(limits.DEFAULT_RLIMIT)


def test_two_busy_cores_change_no_verdict_depth_or_counterexample():
    quiet = _verdicts()
    busy = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(2)]
    for p in busy:
        p.start()
    try:
        loaded = _verdicts()
    finally:
        # Reaped here, so the spinners' CPU is counted against this test and
        # not against whichever later test next starts a process.
        for p in busy:
            p.terminate()
            p.join()
    assert [(r["verdict"], r["depth"]) for r in quiet] == [("violated", 7), ("unknown", 7)]
    assert loaded == quiet
    assert "resource limit of 300,000 units" in quiet[1]["note"]


def test_a_resource_limit_that_allows_no_work_is_refused(default_rlimit):
    result = CliRunner().invoke(main, ["verify", "--game", "hota", "--rlimit", "0"])
    assert result.exit_code == 2 and "--rlimit 0 allows no work" in result.output


@pytest.mark.parametrize("reason, said", [
    ("timeout", "wall-clock guard of 1.5 s"),
    ("max. resource limit exceeded", "resource limit of"),
    ("sat.canceled", "resource limit of"),
    ("canceled", "units or the wall-clock guard of 1.5 s"),
    ("smt tactic failed", "Z3 gave up (smt tactic failed)"),
])
def test_each_reason_to_give_up_says_whether_a_rerun_could_differ(reason, said):
    # No Ctrl-C was recorded: a cancelled query is unknown for a limit, never an interrupt.
    assert said in limits.why_unknown(reason, 1500)


@pytest.mark.parametrize("raised", [KeyboardInterrupt(), ctypes.ArgumentError("argument 1: KeyboardInterrupt: ")])
def test_ctrl_c_is_one_line_and_exit_130_even_inside_z3(monkeypatch, raised):
    """Ctrl-C reaches a command plainly, or wrapped by ctypes when Z3 was
    converting an argument: either way one line, exit 130, no traceback."""
    from checkers import portfolio

    def interrupted(*args, **kwargs):
        raise raised

    monkeypatch.setattr(portfolio, "verify_games", interrupted)
    result = CliRunner().invoke(main, ["verify", "--game", "hota"])
    assert result.exit_code == 130
    (line,) = result.output.splitlines()
    assert line.startswith("chainproof: interrupted after ") and line.endswith(" s: no result")


def _spacer_reply(name: str):  # noqa: ANN202
    from chainproof.games import get_game
    from checkers import spacer

    game = get_game("wowtcg")
    machine = game.any_length_machine({})
    prop = next(p for p in game.properties if p.name == name)
    return spacer._ask(spacer._Clauses(machine), spacer._violations(machine, prop), limits.GUARD_MS, {})


def test_a_spacer_query_does_the_same_work_whatever_the_process_did_before():
    # Spacer answers in a process of its own (checkers/spacer_process.py):
    # in the shared process, building Riftbound's model first changed the
    # units one WoW proof cost from 146.6 to 122.7 million.  The proof asked
    # here takes nine levels and 0.35 million units: a real search, at half
    # the cost of priority_exclusive's 2.7 million.
    import z3

    first = _spacer_reply("two_players_until_game_over")
    # Z3 work in this process between the two: the other games' models may
    # already be cached here, so a query of its own makes sure the shared
    # context has moved on (new symbols, a solved search) before the second.
    # The query's one model (x_i = i) follows by propagation alone, so it
    # costs a few hundredths of a second in any context: a pigeonhole query
    # (twenty distinct values below 40 summing to 190) took 0.05 s in a fresh
    # process and over 90 CPU s after the first reply, as the shared context's
    # state steered the solver's search.
    xs = z3.Ints(" ".join(f"between_{i}" for i in range(40)))
    busy = z3.Solver()
    busy.add(z3.Distinct(*xs), *(z3.And(0 <= x, x < 40) for x in xs), *(a < b for a, b in zip(xs, xs[1:])))
    assert busy.check() == z3.sat
    assert [busy.model()[x].as_long() for x in xs] == list(range(40))
    second = _spacer_reply("two_players_until_game_over")
    assert first.verdict == second.verdict == "proved"
    assert first.reply.rlimit > 0
    assert (second.reply.rlimit, second.reply.answer, second.reply.levels) == (first.reply.rlimit, first.reply.answer, first.reply.levels)


def test_a_spacer_process_that_ends_without_an_answer_is_unknown_and_says_why(tmp_path, monkeypatch):
    from checkers import spacer

    broken = tmp_path / "spacer_process.py"
    broken.write_text("import sys\nsys.stderr.write('out of memory\\n')\nsys.exit(3)\n")
    monkeypatch.setattr(spacer, "_PROCESS", broken)
    answer = _spacer_reply("priority_exclusive")
    assert answer.verdict == "unknown"
    assert answer.why == "Spacer's process ended with exit status 3 and no answer: out of memory"
