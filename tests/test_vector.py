"""The vectorized search (checkers/vector.py) agrees with explicit search.

Counts: every pinned perft instance of the three games gives the pinned
states, transitions, levels and terminal states, which explicit search gives
(test_perft and the games' model tests hold it to them), with every edge
taken over arrays.  Small instances of each game are also compared with
explicit search state by state: the same numbering, parents and paths, and
the same stop past ``max_states``.

Backends: on samples of reachable states, each edge's guard and update over
``VECTOR`` agree with ``CONCRETE`` on every row (none fails on arrays, so the
search takes no edge row by row).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model import hota, riftbound, wowtcg
from checkers import explicit, vector
from model import backend
from model.backend import CONCRETE, VECTOR
from model.machine import Machine, ModelError
from tests.conftest import SMALL, perft_case_id, reachable_states
from tests.test_hota_model import TABLES

DATA = Path(__file__).parent / "data"


def build(game: str, bounds: dict) -> Machine:
    if game == "hota":
        return hota.build(table=TABLES[bounds["table"]], mulligan=bounds["mulligan"])
    return {"wowtcg": wowtcg.build, "riftbound": riftbound.build}[game](**bounds)


CASES = [
    pytest.param(game, case, id=f"{game}:{perft_case_id(case)}")
    for game in ("wowtcg", "hota", "riftbound")
    for case in yaml.safe_load((DATA / f"perft_{game}.yaml").read_text())
]


@cache
def explored(game: str, bounds: tuple) -> vector.VectorExploration:
    return vector.explore(build(game, dict(bounds)))


@cache
def explored_by_state(game: str, bounds: tuple) -> explicit.Exploration:
    """Explicit search of the same machine as ``explored``'s (one build, so its edges)."""
    return explicit.explore(explored(game, bounds).machine)


@pytest.mark.parametrize(("game", "case"), CASES)
def test_counts_are_the_pinned_ones(game, case):  # noqa: ANN001
    v = explored(game, tuple(case["bounds"].items()))
    names = v.machine.location_names
    terminal = Counter(names[i] for i in v.locations() if v.machine.locations[names[i]].terminal)
    assert v.complete
    assert (v.states, v.transitions, v.levels, dict(terminal)) == (
        case["states"],
        case["transitions"],
        case["levels"],
        case["terminal"],
    )
    assert not v.row_by_row, sorted(v.row_by_row)


#: Small instances compared state by state, one or two per game.
SAME_NUMBERING = [
    ("wowtcg", SMALL),
    ("wowtcg", {"players": 3, "chain_depth": 1, "turns": 3, "hand": 0, "deck": 0, "hand_limit": 2, "allies": 0, "combats": 1}),
    ("hota", {"table": "council", "mulligan": 1}),
    ("riftbound", {"players": 2, "battlefields": 2, "turns": 3, "spells": 0, "victory_points": 2}),
]


@pytest.mark.parametrize(("game", "bounds"), SAME_NUMBERING, ids=[f"{g}:{perft_case_id({'bounds': b})}" for g, b in SAME_NUMBERING])
def test_states_are_numbered_as_explicit_search_numbers_them(game, bounds):  # noqa: ANN001
    v = explored(game, tuple(bounds.items()))
    e = explored_by_state(game, tuple(bounds.items()))
    assert [v.state(i) for i in range(v.states)] == e.nodes
    assert [None if p < 0 else (int(p), v.machine.edges[k].name) for p, k in zip(v.parent, v.edge)] == [
        None if step is None else (step[0], step[1].name) for step in e.parent
    ]
    assert [v.level_starts[d] for d in range(v.levels + 1)] == [e.depth.index(d) for d in range(e.levels + 1)]
    names = [edge.name for edge in v.machine.edges]
    assert list(zip(v.step_pre.tolist(), v.step_post.tolist(), (names[k] for k in v.step_edge.tolist()))) == e.moves
    for node in (0, v.states // 3, v.states - 1):
        assert v.path_to(node) == e.path_to(node)


def test_a_search_past_max_states_stops_where_explicit_search_does():
    machine = wowtcg.build(**SMALL)
    v, e = vector.explore(machine, max_states=4000), explicit.explore(machine, max_states=4000)
    assert not v.complete and not e.complete
    assert (v.states, v.transitions, v.levels, v.expanded) == (e.states, e.transitions, e.levels, e.expanded)


def test_dead_ends_are_the_states_explicit_search_finds_with_no_step():
    """A state outside a terminal location that enables no edge is a deadlock:
    none in the model, and exactly explicit search's ones once an edge is gone."""
    whole = wowtcg.build(turns=1, deck=0)
    assert not len(vector.explore(whole).dead_ends)
    broken = whole.with_edges(e for e in whole.edges if e.name != "close_window@ready_step")
    expected = [
        i for i, s in enumerate(explicit.explore(broken).nodes)
        if not broken.is_terminal(s) and not any(True for _ in broken.steps_from(s))
    ]
    assert expected and sorted(vector.explore(broken).dead_ends.tolist()) == expected


def test_a_level_expanded_and_added_a_block_at_a_time_is_searched_as_in_one_go(monkeypatch):  # noqa: ANN001
    """A large level is expanded, its successors added to the states seen,
    and once over its targets split, a block at a time: the same keys,
    numbers and transitions as in one go."""
    machine = wowtcg.build(turns=1, deck=0)
    whole = vector.explore(machine)
    monkeypatch.setattr(vector, "FRONTIER_ROWS", 29)
    monkeypatch.setattr(vector, "ADD_KEYS", 17)
    monkeypatch.setattr(vector, "SPLIT_TARGETS", 8)
    blocks = vector.explore(machine)
    assert whole.level_starts == blocks.level_starts and max(np.diff(whole.level_starts)) > 29
    for name in ("low", "tail", "tails", "step_first", "step_seen", "often", "seen_often", "seen_code", "enables", "set_edges", "dead_ends"):
        assert np.array_equal(getattr(whole, name), getattr(blocks, name)), name


def test_targets_reached_at_least_so_often_are_counted_by_blocks_first():
    rng = np.random.default_rng(1)
    seen = np.concatenate([rng.integers(0, 5000, 3000), np.repeat([7, 8, 4095, 4999], [40, 3, 25, 60])]).astype(np.uint16)
    counts = np.bincount(seen, minlength=5000)
    for least in (1, 4, 25, 61):
        targets, times = vector._reached_at_least(seen, 5000, least)
        assert targets.tolist() == np.flatnonzero(counts >= least).tolist() and times.tolist() == counts[targets].tolist()


def test_an_edge_that_fails_on_arrays_is_taken_row_by_row():
    """A guard that tests its state with Python's ``if`` cannot run on arrays:
    the search takes that edge state by state over plain values, and finds
    what explicit search finds."""
    machine = wowtcg.build(**SMALL)
    edge = machine.edges[machine.edge_index["ready_cards"]]
    plain = machine.replace_edge("ready_cards", guard=lambda s, b: edge.guard(s, b) if s.turn_number else False)
    v, e = vector.explore(plain), explicit.explore(plain)
    assert v.row_by_row == {"ready_cards"}
    assert [v.state(i) for i in range(v.states)] == e.nodes and v.transitions == e.transitions


def test_an_update_that_leaves_its_domain_is_reported():
    machine = wowtcg.build(**SMALL).replace_edge("ready_cards", update=lambda s, b: {"turn_number": s.turn_number + 9})
    with pytest.raises(ModelError, match="edge 'ready_cards' takes turn_number out of its declared domain"):
        vector.explore(machine)


def test_a_finished_search_holds_its_keys_and_transitions_and_counted_more_at_its_peak():
    """Once over, the search gives back its hash table and keeps no parents:
    they are the first transitions to reach each state, as explicit search's are."""
    v = explored("wowtcg", tuple(SMALL.items()))
    sets = v.enables.nbytes + v.set_edges.nbytes + v.set_sizes.nbytes
    seen = v.step_seen.nbytes + v.often.nbytes + v.seen_often.nbytes + v.seen_code.nbytes
    assert v.nbytes == v.low.nbytes + v.tail.nbytes + v.tails.nbytes + v.step_first.nbytes + seen + sets
    # A target is kept only for a transition that is not the first to reach it.
    assert len(v.seen) == v.transitions - (v.states - v.level_starts[1])
    # A state's transitions are one for each edge of its set, in the machine's order.
    degree = v.set_sizes[v.enables]
    assert len(v.enables) == v.states and int(degree.sum()) == v.transitions
    assert all((np.diff(v.step_edge[a:b].astype(int)) > 0).all() for a, b in zip(np.cumsum(degree) - degree, np.cumsum(degree)))
    assert v.peak_bytes > v.nbytes + 4 * v.states  # a hash slot a state at least, besides
    first = {}
    for i, (pre, post) in enumerate(zip(v.step_pre.tolist(), v.step_post.tolist())):
        first.setdefault(post, (pre, int(v.step_edge[i])))
    initial = v.level_starts[1]
    assert [(int(p), int(e)) for p, e in zip(v.parent[initial:], v.edge[initial:])] == [first[i] for i in range(initial, v.states)]
    assert (v.parent[:initial] == -1).all()


def test_targets_often_reached_again_are_kept_as_a_byte_where_that_saves_bytes(monkeypatch):  # noqa: ANN001
    """HotA's concessions all lead to a dozen game-over states: their targets
    are kept as a byte and a bit; WoW's few repeated targets are kept in full."""
    hota_v = explored("hota", (("table", "default"), ("deck", 7), ("mulligan", 1)))
    assert 0 < len(hota_v.often) <= vector.OFTEN and len(hota_v.seen_code) > len(hota_v.step_seen)
    wow = explored("wowtcg", tuple(SMALL.items()))
    assert not len(wow.often) and wow.seen is wow.step_seen
    # Split and put back: the same targets, in order, whichever way they are kept.
    rng = np.random.default_rng(0)
    for seen in (rng.integers(0, 1000, 5000), np.concatenate([rng.integers(0, 30000, 50), rng.integers(0, 5, 5000)])):
        # (A few targets a block: the targets kept as numbers are moved to the start block by block.)
        monkeypatch.setattr(vector, "SPLIT_TARGETS", 64)
        split = vector._often_reached(seen.astype(np.uint16), 30000)
        assert vector._reached_again(*split).tolist() == seen.tolist()
    # The second: five targets reached again most of the time, each kept as a byte.
    assert {0, 1, 2, 3, 4} <= set(split[1].tolist()) and split[3].dtype == np.uint8 and len(split[0]) <= 50


@settings(max_examples=60, deadline=None)
@given(batches=st.lists(st.lists(st.integers(0, 50), min_size=1, max_size=40), min_size=1, max_size=6))
def test_visited_numbers_each_new_key_once_in_order(batches):  # noqa: ANN001
    # Few distinct keys and a small table: duplicates within and across
    # batches, probing past collisions, and rehashing as the table grows.
    visited, first_seen = vector.Visited(words=2), {}
    for batch in batches:
        keys = np.array([(k % 7, k) for k in batch], np.uint64).reshape(-1, 2)
        expected = []
        for i, k in enumerate(batch):
            if k not in first_seen:
                first_seen[k] = len(first_seen)
                expected.append(i)
        new, number = visited.add(keys)
        assert new.tolist() == expected
        assert number.tolist() == [first_seen[k] for k in batch]
    assert [tuple(map(int, key)) for key in visited.keys[: visited.count]] == [(k % 7, k) for k in first_seen]


def test_a_table_grown_a_few_keys_at_a_time_finds_every_key_it_holds(monkeypatch):  # noqa: ANN001
    """A grown table takes its numbers back a slice of keys at a time (and its
    keys grow in place): every key added is then found under its number."""
    monkeypatch.setattr(vector, "REHASH_KEYS", 5)
    visited = vector.Visited(words=2)
    keys = np.array([(k % 3, k * 7919) for k in range(5000)], np.uint64)
    for batch in np.array_split(keys, 7):
        visited.add(batch)
    new, number = visited.add(keys[::-1])
    assert visited.count == len(keys) and not new.size
    assert number.tolist() == list(range(len(keys)))[::-1]
    assert (visited.keys[: visited.count] == keys).all()



def test_runs_that_pass_the_tables_end_go_on_from_its_start(monkeypatch):  # noqa: ANN001
    """Keys whose first slots are the table's last few: their runs pass its
    end, in ``add`` and when a grown table places its numbers again (a
    slice of keys at a time), and every key is still found under its number."""
    monkeypatch.setattr(vector, "REHASH_KEYS", 7)
    monkeypatch.setattr(vector.Visited, "_home", lambda self, keys: (len(self.slots) - 3 + (keys[:, 1] % np.uint64(5)).astype(np.int64)) % len(self.slots))
    visited = vector.Visited(words=2)
    visited.slots = np.zeros(16, np.int32)  # a small table (all free), grown several times
    keys = np.array([(k % 2, k * 31) for k in range(300)], np.uint64)
    for batch in np.array_split(keys, 5):
        visited.add(batch)
    assert len(visited.slots) >= len(keys) / vector.FILL
    assert (visited.slots[:100] != 0).all()  # the runs went on from the start (no slot free)
    new, number = visited.add(keys[::-1])
    assert not new.size and number.tolist() == list(range(len(keys)))[::-1]


def test_keys_of_several_words_are_held_as_their_first_word_and_the_number_of_their_other_words_row(monkeypatch):  # noqa: ANN001
    """A key is held as its first word and the number of its other words' row,
    numbered as the states that have them are first met, a few keys at a
    time; the numbers widen as rows come, and keys come back as they were."""
    monkeypatch.setattr(vector, "ADD_KEYS", 7)
    keys = np.array([(k, k % 300, k % 3) for k in range(600)], np.uint64)
    states = vector.States(3)
    new, number = states.add(np.concatenate([keys[:40], keys[:40], keys[40:]]))
    assert new.tolist() == list(range(40)) + list(range(80, 640)) and number.tolist() == list(range(40)) * 2 + list(range(40, 600))
    assert states.count == 600 and states.tail.dtype == np.uint16 and states.tails.count == 300
    assert (states.low[:600] == keys[:, 0]).all() and (states.rows(0, 600) == keys).all()
    assert list(dict.fromkeys(states.tail[:600].tolist())) == list(range(300))


@settings(max_examples=40, deadline=None)
@given(
    index=st.lists(st.integers(-2, 4), min_size=1, max_size=12),
    seed=st.integers(0, 2**16),
    default=st.sampled_from([0, 3, False, True]),
    booleans=st.booleans(),
)
def test_select_and_store_over_arrays_agree_with_plain_values(index, seed, default, booleans):  # noqa: ANN001
    """Over arrays, ``select`` and ``store`` choose by arithmetic on the rows
    (on many rows; here on any number) or by ``where``, out-of-range
    positions included; a slot no row writes is handed back."""
    for branchless_rows in (0, 2**62):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(backend, "_BRANCHLESS_ROWS", branchless_rows)
            _select_and_store_agree(index, seed, default, booleans)



def test_select_with_a_default_per_row_over_many_rows():
    """A default that is itself an array (one per row, as the turn player) is
    chosen where the position is out of range, past the branchless threshold too."""
    rng = np.random.default_rng(7)
    rows_ = backend._BRANCHLESS_ROWS + 5
    index = rng.integers(-1, 4, rows_).astype(np.int32)
    seq = [rng.integers(0, 5, rows_).astype(np.int32) for _ in range(3)]
    default = rng.integers(0, 5, rows_).astype(np.int32)
    chosen = VECTOR.select(seq, index, default)
    expected = [CONCRETE.select([int(x[r]) for x in seq], int(i), int(default[r])) for r, i in enumerate(index)]
    assert chosen.tolist() == expected

def _select_and_store_agree(index: list[int], seed: int, default: object, booleans: bool) -> None:
    rng = np.random.default_rng(seed)
    seq = [rng.integers(0, 2 if booleans else 6, len(index)) for _ in range(3)]
    seq = [x.astype(bool) if booleans else x.astype(np.int32) for x in seq]
    at = np.array(index, np.int32)
    chosen = VECTOR.select(seq, at, default)
    assert chosen.tolist() == [CONCRETE.select([int(x[r]) for x in seq], i, default) for r, i in enumerate(index)]
    value = seq[0] if booleans else np.int32(5) + seq[0]
    stored = VECTOR.store(seq, at, value)
    for r, i in enumerate(index):
        plain = CONCRETE.store([int(x[r]) for x in seq], i, int(value[r]))
        assert [int(x[r]) for x in stored] == list(plain)
    for slot, x in enumerate(seq):
        if slot not in index:
            assert stored[slot] is x


# -- the backends agree -------------------------------------------------------------

#: Instances whose reachable states the agreement is checked on: between them
#: they take every edge the pinned perft instances take (combat, chains,
#: three and four players; every HotA table but the largest).
SAMPLED = {
    "wowtcg": [
        SMALL,
        {"players": 2, "chain_depth": 1, "turns": 1, "hand": 1, "deck": 0, "hand_limit": 3, "allies": 2, "combats": 1},
        {"players": 2, "chain_depth": 1, "turns": 2, "hand": 0, "deck": 1, "hand_limit": 2, "allies": 2, "combats": 1},
        {"players": 4, "chain_depth": 1, "turns": 4, "hand": 0, "deck": 1, "hand_limit": 0, "allies": 0, "combats": 0},
        {"players": 3, "chain_depth": 1, "turns": 3, "hand": 0, "deck": 0, "hand_limit": 2, "allies": 0, "combats": 1},
    ],
    "hota": [{"table": t, "mulligan": 1} for t in ("loop", "whisper", "golden", "tokens", "council")],
    "riftbound": [
        {"players": 2, "battlefields": 1, "turns": 1, "spells": 1, "victory_points": 2},
        {"players": 2, "battlefields": 2, "turns": 3, "spells": 0, "victory_points": 2},
    ],
}


def disagreements(v: vector.VectorExploration, numbers: list[int]) -> tuple[list[str], set[str]]:
    """Where VECTOR and CONCRETE differ on the states ``numbers``, and the
    edges whose guard or update failed on arrays."""
    m, layout = v.machine, v.layout
    keys = v.keys[sorted(set(numbers))]
    values = layout.unpack(keys)
    found, failed = [], set()
    for location in np.unique(values[0]):
        here = values[0] == location
        batch, plain = values[:, here], [layout.concrete(k) for k in keys[here]]
        n = len(plain)
        for edge in m.edges_leaving(plain[0]):
            try:
                enabled = np.flatnonzero(vector.rows(edge.guard(layout.state(batch), VECTOR), n))
                changes = edge.update(layout.state(batch[:, enabled]), VECTOR) if enabled.size else {}
                columns = {
                    name: [vector.rows(x, enabled.size) for x in (value if isinstance(value, tuple) else (value,))]
                    for name, value in changes.items()
                }
            except Exception:  # noqa: BLE001 - the search takes such an edge row by row
                failed.add(edge.name)
                continue
            if enabled.tolist() != [i for i, s in enumerate(plain) if edge.guard(s, CONCRETE)]:
                found.append(f"guard of {edge.name}")
            for row, i in enumerate(enabled):
                expected = edge.update(plain[i], CONCRETE)
                got = {name: tuple(int(c[row]) for c in cols) for name, cols in columns.items()}
                want = {name: tuple(map(int, x if isinstance(x, tuple) else (x,))) for name, x in expected.items()}
                if got != want:
                    found.append(f"update of {edge.name} in {m.describe(plain[i])}")
    return found, failed


@pytest.mark.parametrize("game", SAMPLED)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_guards_and_updates_agree_on_reachable_states(game, data):  # noqa: ANN001
    bounds = data.draw(st.sampled_from(SAMPLED[game]))
    v = explored(game, tuple(bounds.items()))
    numbers = data.draw(st.lists(st.integers(0, v.states - 1), min_size=1, max_size=60))
    found, failed = disagreements(v, numbers)
    assert not found, found
    assert not failed, sorted(failed)


def _verdict(r) -> dict:  # noqa: ANN001
    out = r.to_json()
    del out["seconds"]
    return out


@pytest.mark.parametrize(("game", "bounds"), SAME_NUMBERING, ids=[f"{g}:{perft_case_id({'bounds': b})}" for g, b in SAME_NUMBERING])
def test_every_property_gets_explicit_searchs_verdict_and_counterexample(game, bounds, monkeypatch):  # noqa: ANN001
    """The portfolio and ``verify --method explicit`` check properties over
    arrays (``vector.check_all``, the invariants and liveness properties in one
    pass over the states): the same verdict, depth, note and transcript as
    ``explicit.check`` on the same states, for every property of the catalogue,
    on the instances whose states both searches number alike (the default
    ones' counts are pinned by ``test_counts_are_the_pinned_ones``)."""
    from chainproof.games import get_game

    properties = get_game(game).properties
    plain, arrays = explored_by_state(game, tuple(bounds.items())), explored(game, tuple(bounds.items()))
    expected = [_verdict(explicit.check(plain, p)) for p in properties]
    assert [_verdict(r) for r in vector.check_all(arrays, properties)] == expected
    # The step properties decided during the search, as the portfolio has
    # them decided: on every level, and on the larger levels only (the others' steps asked afterwards).
    for rows in (0, 50):
        monkeypatch.setattr(vector, "WATCH_ROWS", rows)
        watching = vector.explore(arrays.machine, watch=properties)
        assert bool(watching.unwatched) == bool(rows)
        assert [_verdict(r) for r in vector.check_all(watching, properties)] == expected
    # And with each level expanded, and its successors added, a few at a time.
    monkeypatch.setattr(vector, "FRONTIER_ROWS", 40)
    monkeypatch.setattr(vector, "ADD_KEYS", 33)
    assert [_verdict(r) for r in vector.check_all(vector.explore(arrays.machine, watch=properties), properties)] == expected


def test_the_transitions_of_some_edges_are_found_from_the_sets_of_enabled_edges():
    """``transitions_of`` finds a step property's transitions and their
    sources from each state's set of enabled edges: the transitions whose
    edge is one of those asked, as every transition's edge and source say;
    ``edges_taken``, the edges some transition takes."""
    v = explored("wowtcg", tuple(SMALL.items()))
    edges = len(v.machine.edges)
    for asked in ([], [0], [3, 17], list(range(0, edges, 3)), list(range(edges))):
        numbers, sources = v.transitions_of(asked)
        expected = np.flatnonzero(np.isin(v.step_edge, asked))
        assert numbers.tolist() == expected.tolist() and sources.tolist() == v.step_pre[expected].tolist()
    assert v.edges_taken().tolist() == sorted(set(v.step_edge.tolist()))


#: Mutants of small instances, one of each kind of property they break.
VIOLATED_BY = ["a hand exactly at the limit can neither discard nor end the turn", "the bottom link resolves first",
               "a player keeps priority into combat conclusion", "a proposal resolves without its legality checked again"]


@pytest.mark.parametrize("name", VIOLATED_BY)
def test_a_violation_is_the_shortest_one_explicit_search_finds(name, monkeypatch):  # noqa: ANN001
    from tests.test_mutants import BY_MUTANT_NAME, PROPERTIES

    mutant = BY_MUTANT_NAME[name]
    machine = mutant.mutate(wowtcg.build(**mutant.bounds))
    prop = PROPERTIES[mutant.caught_by]
    found = vector.check(vector.explore(machine), prop)
    assert found.verdict == "violated"
    assert _verdict(found) == _verdict(explicit.check(explicit.explore(machine), prop))
    # Watched by the search (a step property decided as its edges are
    # taken), on every level or on the larger ones only: the same run.
    for rows in (0, 20):
        monkeypatch.setattr(vector, "WATCH_ROWS", rows)
        assert _verdict(vector.check(vector.explore(machine, watch=[prop]), prop)) == _verdict(found)


def test_a_liveness_violation_is_the_same_lasso(small_machine):  # noqa: ANN001
    from tests.conftest import closes
    from tests.test_liveness import endless_passing

    machine = endless_passing(small_machine)
    prop = closes("action_phase")
    found = vector.check(vector.explore(machine), prop)
    assert found.verdict == "violated" and found.counterexample.loop_start == 4
    assert _verdict(found) == _verdict(explicit.check(explicit.explore(machine), prop))


def test_whether_a_goal_may_be_missed_forever_is_decided_as_the_graph_search_decides_it(small_machine):  # noqa: ANN001
    """Liveness first asks, over the transition arrays, whether any run can
    miss the goal for good (stuck, or round a cycle) and builds a graph only
    when one can: that answer must be the graph search's, on properties that
    hold, on a lasso and on a dead end, over both searches' explorations."""
    from properties import Eventually
    from tests.conftest import closes
    from tests.test_liveness import WINDOWS, endless_passing

    draw_opens = Eventually(
        "draw_step_opens", ("501.2a",), "a deliberately false claim: once a turn reaches its draw, the draw step's window opens",
        premise=lambda m, s, b: m.at(s, "draw_step_start", b=b), goal=lambda m, s, b: m.at(s, "draw_step", b=b),
    )
    # The searches of SMALL are the ones test_states_are_numbered_as_explicit_search_numbers_them makes (cached).
    small = tuple(SMALL.items())
    assert explored("wowtcg", small).machine.bounds == small_machine.bounds
    passing = endless_passing(small_machine)
    searches = {
        "small": (explored("wowtcg", small), explored_by_state("wowtcg", small)),
        "passing": (vector.explore(passing), explicit.explore(passing)),
    }
    # Each search's states as plain values, listed once for all the properties asked of it.
    states = {name: [reachable_states(v), e.nodes] for name, (v, e) in searches.items()}
    cases = [("small", closes(w)) for w in WINDOWS] + [("passing", closes("action_phase")), ("small", draw_opens)]
    answers = []
    for name, prop in cases:
        for exploration, listed in zip(searches[name], states[name]):
            machine = exploration.machine
            premise = np.array([bool(prop.premise(machine, s, CONCRETE)) for s in listed])
            missed = np.array([not prop.goal(machine, s, CONCRETE) for s in listed])
            fast = explicit._goal_may_be_missed_forever(exploration, premise, missed)
            assert fast == (explicit._shortest_run_missing_the_goal(exploration, premise, missed)[0] is not None), prop.name
        answers.append(fast)
    assert answers == [False] * len(WINDOWS) + [True, True]


@pytest.mark.parametrize("build", [wowtcg.build, riftbound.build, hota.build], ids=["wowtcg", "riftbound", "hota"])
def test_the_rule_book_answers_over_arrays_as_state_by_state(build):
    """Over arrays a question is its rulings' conditions and a look-up in a
    table of which apply (``RuleBook._truth``): every answer, both verdicts
    and every clash of each question the states ask, on 40 states spread over
    the first levels, is the one CONCRETE gives state by state."""
    _asks_alike(build())


@pytest.mark.parametrize("limit", ["TABLED_RULINGS", "TABLED_ROWS"])
def test_a_question_of_too_many_rulings_or_rows_for_a_table_is_asked_ruling_by_ruling(monkeypatch, limit):
    from model import rulings

    monkeypatch.setattr(rulings, limit, 0)
    machine = hota.build()
    few_rows = machine.State(*([np.zeros(3, np.int32)] * len(machine.State._fields)))
    assert not any(machine.rulings._tabled(name, few_rows) for name in machine.rulings.questions)
    _asks_alike(machine)


def _asks_alike(machine: Machine) -> None:
    book = machine.rulings
    v = vector.explore(machine, max_states=3000)
    numbers = np.linspace(0, v.states - 1, 40).astype(np.int64)
    arrays = v.layout.state(v.layout.unpack(v.key_rows(numbers)))
    plain = [v.state(int(i)) for i in numbers]
    asked = 0
    for q in book.questions.values():
        if q.fixed:  # asked of the board as the model is built, never of a state
            continue
        for args in q.arguments:
            ways = [lambda s, b: book.answer(q.name, s, b, *args), lambda s, b: book.clashes(q.name, s, b, *args)]
            if not q.valued:
                ways += [lambda s, b: book.verdicts(q.name, s, b, *args)[0], lambda s, b: book.verdicts(q.name, s, b, *args)[1]]
            for way in ways:
                over_arrays = np.broadcast_to(np.asarray(way(arrays, VECTOR)), numbers.shape)
                assert [int(x) for x in over_arrays] == [int(way(s, CONCRETE)) for s in plain], (q.name, args)
                asked += 1
    assert asked > 200
