"""Spin, on the Promela that checkers/promela.py writes, finds exactly the
states and transitions explicit search finds, up to the relation the
module documents (``spin_counts``); a term with no Promela is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from click.testing import CliRunner

from chainproof.cli import main
from checkers import explicit, promela
from model import hota, riftbound, wowtcg
from model.hota.table import table_of
from model.machine import Edge, IntRange, Location, Machine, Var
from model.registry import Registry
from tests.conftest import SMALL
from tests.programs import require_program

#: Combat on the whole default board, one turn, nothing in hand: every
#: combat edge is reachable, in 2,700 states.
ONE_COMBAT = {"players": 2, "chain_depth": 1, "turns": 1, "hand": 0, "deck": 1, "hand_limit": 2, "allies": 2, "combats": 1}


#: Heroes of Ancients with the golden rules' cards, and with the token makers:
#: some 1,100 states each.
GOLDEN = table_of({0: ["Pact of Victory", "Curse of Ruin", "Truce Banner", "Aegis of Immortality", "Silencing Rune"],
                   1: ["Twin Fates", "Gatekeeper", "Ember Bolt"]}, 7)
TOKENS = table_of({0: ["Spirit Caller", "Rewind Portal", "Banishing Gale", "Aegis of Immortality"], 1: ["Tome of Ages"]}, 8)


def spin_search(machine: Machine, directory: Path) -> promela.SpinRun:
    require_program("spin")
    require_program("gcc")
    # Unoptimized: the counts do not depend on it, and gcc -O2 takes minutes
    # over Riftbound's pan.c.
    return promela.run_spin(promela.to_promela(machine), directory, optimize=("-O0",))


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: wowtcg.build(**SMALL), id="wowtcg-small"),
        pytest.param(lambda: wowtcg.build(**ONE_COMBAT), id="wowtcg-one-combat"),
        pytest.param(lambda: hota.build(table=GOLDEN), id="hota-golden"),
        pytest.param(lambda: hota.build(table=TOKENS), id="hota-tokens"),
    ],
)
def test_spin_finds_the_states_and_transitions_explicit_search_finds(build, tmp_path: Path) -> None:  # noqa: ANN001
    machine = build()
    spin = spin_search(machine, tmp_path)
    ours = explicit.explore(machine)
    assert ours.complete
    assert (spin.states, spin.transitions) == promela.spin_counts(machine, ours.states, ours.transitions)


def test_spin_on_what_chainproof_export_writes_finds_what_explicit_search_finds(tmp_path: Path) -> None:
    # The command a user runs, not the module: the bounds reach the machine
    # and the file is the whole model (Riftbound, one turn).
    out = tmp_path / "riftbound.pml"
    result = CliRunner().invoke(main, ["export", "--game", "riftbound", "--turns", "1", "--output", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("/* riftbound at bounds ") and "turns=1" in text.splitlines()[0]
    require_program("spin")
    require_program("gcc")
    spin = promela.run_spin(text, tmp_path, optimize=("-O0",))
    machine = riftbound.build(turns=1)
    ours = explicit.explore(machine)
    assert ours.complete
    assert (spin.states, spin.transitions) == promela.spin_counts(machine, ours.states, ours.transitions)


def test_export_refuses_a_bound_of_another_game_in_one_line() -> None:
    result = CliRunner().invoke(main, ["export", "--game", "riftbound", "--hand", "1"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["chainproof: error: --hand is a bound of wowtcg, not of riftbound"]


def swaps() -> Machine:
    """Two counters that one edge swaps and another raises, and ``last``, which
    records a counter's old value and is never read: its states differ only
    where an update is simultaneous (``a, b = b, a``) and where Spin keeps a
    write-only variable in its state."""
    edges = [
        Edge("swap", "play", "play", (), update=lambda s, b: {"a": s.b, "b": s.a, "last": s.a}, tags=frozenset({"bound"})),
        Edge("raise", "play", "play", (), guard=lambda s, b: s.a < 2, update=lambda s, b: {"a": s.a + 1, "last": s.b}, tags=frozenset({"bound"})),
    ]
    return Machine(
        "swaps",
        [Var("a", IntRange(0, 2), (0,)), Var("b", IntRange(0, 2), (1, 2)), Var("last", IntRange(0, 2), (0,))],
        [Location("play", (), "the only location")],
        "play",
        edges,
        Registry("swaps", []),
        {},
        lambda m, s: {},
    )


def test_updates_are_simultaneous_and_write_only_variables_are_kept(tmp_path: Path) -> None:
    machine = swaps()
    ours = explicit.explore(machine)
    # ``last`` tells apart states with the same counters.
    assert (ours.states, len({(s.a, s.b) for s in ours.nodes})) == (10, 8)
    spin = spin_search(machine, tmp_path)
    assert (spin.states, spin.transitions) == promela.spin_counts(machine, ours.states, ours.transitions)


def test_every_edge_is_an_option_with_its_rules() -> None:
    machine = wowtcg.build(**SMALL)
    text = promela.to_promela(machine)
    for edge in machine.edges:
        cited = f"rules {', '.join(edge.rules)}" if edge.rules else "an exploration bound"
        assert f"/* {edge.name} ({cited}) */" in text
    assert text.count("d_step {") == len(machine.edges)


def test_a_variable_named_a_promela_keyword_is_renamed() -> None:
    text = promela.to_promela(hota.build())
    assert "byte active_;" not in text  # HotA's ``active`` ranges over -1..1
    assert "short active_;" in text and "short priority_;" in text


def test_an_operator_without_promela_is_refused_naming_the_edge() -> None:
    machine = wowtcg.build(**SMALL).replace_edge("skip_first_draw", guard=lambda s, b: s.turn_number % 2 == 0)
    with pytest.raises(promela.UnsupportedTerm, match=r"edge 'skip_first_draw'.*'mod'"):
        promela.to_promela(machine)


def test_a_constant_outside_the_state_is_refused_naming_the_edge() -> None:
    machine = wowtcg.build(**SMALL).replace_edge("skip_first_draw", guard=lambda s, b: s.turn_number == z3.Int("elsewhere"))
    with pytest.raises(promela.UnsupportedTerm, match=r"edge 'skip_first_draw'.*elsewhere, not a variable of the state"):
        promela.to_promela(machine)
