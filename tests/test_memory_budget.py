"""The memory budget of explicit search (``--max-memory``): counted from the
search's own data (its arrays' sizes; the plain-value search's cost model),
not read off the process, so the same input stops at the same level on any
machine; a run that reaches it keeps bounded verdicts and says which bounds
to lower."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from chainproof.cli import main
from chainproof.games import get_game
from model import limits
from checkers import explicit, vector

#: Small enough that the default board's search stops after 25 of its levels
#: (5,540 states): how far it gets does not change what the test asks of it.
BUDGET = 8 * 2**20


def test_the_plain_value_search_stops_at_the_first_level_boundary_past_the_budget_and_nowhere_else():
    machine = get_game("wowtcg").machine({})
    first = explicit.explore(machine, max_memory=BUDGET)
    again = explicit.explore(machine, max_memory=BUDGET)
    assert not first.complete and "memory budget of 8 MiB" in first.stopped
    assert (first.states, first.transitions, first.expanded) == (again.states, again.transitions, again.expanded)
    # Every state of the expanded levels was expanded; the last level is whole.
    assert max(first.depth) == first.expanded + 1
    # At the boundary before the last expanded level the search held the
    # states up to that level and the transitions out of the ones before it,
    # and they fitted; the level after it did not.
    held = sum(1 for d in first.depth if d <= first.expanded)
    taken = sum(1 for u, _ in first.graph.edges() if first.depth[u] < first.expanded)
    assert explicit.footprint(held, taken) <= BUDGET < explicit.footprint(first.states, first.transitions)


def test_a_verdict_cut_by_the_budget_is_bounded_and_names_the_bounds_to_lower():
    result = CliRunner().invoke(
        main, ["verify", "--game", "wowtcg", "--hand", "0", "--method", "explicit", "--max-memory", "2M", "--property", "turn_player_first", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    (r,) = out["results"]
    assert r["verdict"] == "holds-to-depth"
    assert "memory budget of 2 MiB" in r["note"] and "--turns 2" in r["note"] and "raise --max-memory" in r["note"]
    assert out["summary"]["games"]["wowtcg"]["stopped"].startswith("at the memory budget")
    # What the guard counted is reported: past the budget, since the search finished the level it was in.
    assert out["summary"]["games"]["wowtcg"]["peak_bytes"] > 2 * 2**20


@pytest.mark.parametrize("size, message", [
    ("12T", "'12T' is not a size"),
    ("lots", "'lots' is not a size"),
    ("1000", "too small for any search"),
])
def test_a_size_that_is_not_one_is_one_line_and_exit_2(size, message):
    result = CliRunner().invoke(main, ["verify", "--game", "hota", "--max-memory", size])
    assert result.exit_code == 2 and message in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("text, size", [("2G", 2 * 2**30), ("2GiB", 2 * 2**30), ("512M", 512 * 2**20), (" 1.5 gb ", 3 * 2**29)])
def test_sizes_read_in_powers_of_1024(text, size):
    assert limits.parse_memory(text) == size


def test_the_search_over_arrays_counts_the_bytes_of_its_arrays():
    machine = get_game("wowtcg").machine({})
    cut = vector.explore(machine, max_memory=2 * 2**20)
    whole = vector.explore(machine)
    assert whole.complete and not cut.complete and "memory budget of 2 MiB" in cut.stopped
    # It keeps the numbering of the whole search, up to the level it stopped after.
    assert (cut.keys == whole.keys[: cut.states]).all() and cut.level_starts == whole.level_starts[: len(cut.level_starts)]
