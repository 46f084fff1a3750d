"""``chainproof damage``: the seed's damage examples from the command line."""

from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner

from chainproof.cli import main
from model import limits

FOUR_PLAIN = ["--unit", "A:3", "--unit", "B:3", "--unit", "C:3", "--unit", "D:3", "--total", "5"]


def invoke(*args: str):
    return CliRunner().invoke(main, ["damage", *args])


def test_the_seeds_five_damage_example_lists_only_three_then_two():
    """damage.lethal-first, damage.no-overkill: 5 damage to four 3-might units."""
    result = invoke(*FOUR_PLAIN, "--json")
    assert result.exit_code == 0, result.output
    legal = json.loads(result.stdout)["legal"]
    assert len(legal) == 12 and all(sorted(a) == [0, 0, 2, 3] for a in legal)


def test_an_illegal_assignment_exits_1_naming_the_rule_it_breaks():
    result = invoke(*FOUR_PLAIN, "--assign", "2,1,1,1")
    assert result.exit_code == 1
    assert result.stdout.startswith("A 2, B 1, C 1, D 1: breaks damage.lethal-first")


def test_tank_first_and_caitlyn_last():
    """damage.requirements: Tank, then the plain unit, then Caitlyn."""
    result = invoke("--unit", "Guard:3:tank", "--unit", "Caitlyn:3:last", "--unit", "Raider:3", "--total", "4", "--json")
    assert json.loads(result.stdout)["legal"] == [[3, 0, 1]]
    wrong = invoke("--unit", "Guard:3:tank", "--unit", "Caitlyn:3:last", "--unit", "Raider:3", "--total", "4", "--assign", "0,3,1")
    assert wrong.exit_code == 1 and "damage.requirements" in wrong.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--unit", "X:9", "--total", "2"], "X: might must be a whole number"),
        (["--unit", "X", "--total", "2"], "write NAME:MIGHT"),
        (["--unit", "X:2:flying", "--total", "2"], "unknown keyword 'flying'"),
        (["--unit", "X:2", "--total", "2", "--assign", "1,1"], "give 1 whole amounts"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def _stopping_on_the(call: int, reason: str, ctrl_c: bool = False):
    """A Z3 check that answers ``unknown`` for ``reason`` from the ``call``-th
    check on; with ``ctrl_c``, as a SIGINT that arrived during it would, recorded."""
    import z3

    real, calls = z3.Solver.check, []

    def check(self, *args):
        calls.append(1)
        if len(calls) < call:
            return real(self, *args)
        if ctrl_c:
            limits._CTRL_C.set()  # what limits.ctrl_c_stops_z3's watcher records
        return z3.unknown

    return check, (lambda self: reason)


@pytest.mark.parametrize("reason, ctrl_c, code, said", [
    ("timeout", False, 2, "the solver stopped before deciding (timeout); no answer is given"),
    # Z3's SAT solver says "canceled" at its resource limit: no Ctrl-C, so no interrupt.
    ("canceled", False, 2, "the solver stopped before deciding (canceled); no answer is given"),
    ("canceled", True, 130, "s: no result"),
])
def test_an_undecided_check_is_never_read_as_the_end_of_the_list(monkeypatch, reason, ctrl_c, code, said):
    """The enumeration stops on unsat only: a solver that gives up, or a
    Ctrl-C that cancels it, after some splits were found prints no list."""
    import z3

    monkeypatch.setattr(limits, "_CTRL_C", threading.Event())
    check, why = _stopping_on_the(4, reason, ctrl_c)
    monkeypatch.setattr(z3.Solver, "check", check)
    monkeypatch.setattr(z3.Solver, "reason_unknown", why)
    result = invoke(*FOUR_PLAIN, "--json")
    assert result.exit_code == code, result.output
    # Interrupted, --json still prints one object: the run was cut short, no list.
    printed = "" if code == 2 else json.dumps({"interrupted": True, "partial": True, "after_seconds": json.loads(result.stdout)["after_seconds"]}) + "\n"
    assert result.stdout == printed and said in result.stderr


def test_an_undecided_check_is_never_read_as_illegal(monkeypatch):
    import z3

    check, why = _stopping_on_the(1, "timeout")
    monkeypatch.setattr(z3.Solver, "check", check)
    monkeypatch.setattr(z3.Solver, "reason_unknown", why)
    result = invoke(*FOUR_PLAIN, "--assign", "2,1,1,1")
    assert result.exit_code == 2 and "breaks" not in result.output


def test_a_list_longer_than_the_cap_is_refused_not_cut_short():
    """The seed's example has twelve legal splits (above): capped at eleven,
    no list is printed at all, since eleven of twelve would read as the
    answer; at twelve it is listed whole."""
    over = invoke(*FOUR_PLAIN, "--max-assignments", "11", "--json")
    assert over.exit_code == 2 and over.stdout == ""
    assert over.stderr.strip() == (
        "chainproof: error: damage: more than 11 legal assignments, so none are listed; --max-assignments raises the cap, or --assign checks one"
    )
    whole = invoke(*FOUR_PLAIN, "--max-assignments", "12", "--json")
    assert whole.exit_code == 0 and len(json.loads(whole.stdout)["legal"]) == 12
