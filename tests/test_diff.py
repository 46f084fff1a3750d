"""Rules diff (checkers/diff.py): every shipped variant parts from the seed (or its
twin) on a game of pinned length, the game is a shortest one, and readings
that cannot part agree on every game within the bounds."""

from __future__ import annotations

import pytest

from chainproof.games import BadInput, get_game
from chainproof.linting import default_known_file, diff_variants, load_known
from model import wowtcg
from checkers import explicit
from checkers.diff import DIFFERENT_STATES, ONLY_IN_FIRST, ONLY_IN_SECOND, compare, compare_state_by_state
from model.variants import SEED

GAME = get_game("wowtcg")

#: (first, second) -> (steps, the action where they part, how, what differs)
PINNED = {
    (SEED, "600.2-without-600.3"): (5, "pass_priority@action_phase", ONLY_IN_FIRST, None),
    (SEED, "600.2-chinese"): (17, "play_instant@action_phase", ONLY_IN_FIRST, None),
    (SEED, "basic-chain-priority"): (7, "resolve_top_link@ready_step", DIFFERENT_STATES, "priority"),
    (SEED, "405.3-as-written"): (13, "strike[P2 second bow]", ONLY_IN_FIRST, None),
    (SEED, "basic-in-combat"): (14, "strike[P1 warhammer]", ONLY_IN_SECOND, None),
    (SEED, "basic-one-weapon-per-combat"): (12, "strike[P1 second warhammer]", ONLY_IN_FIRST, None),
    (SEED, "CR7.4-strikes-as-roles-begin"): (7, "resolve_proposal@action_phase[P1 strikes with warhammer]", ONLY_IN_SECOND, None),
    (SEED, "602.3b-english"): (13, "resolve_instant[P2 skirmisher becomes the defender]@defend_window", ONLY_IN_SECOND, None),
    ("602.3b-english", "602.3b-chinese"): (13, "resolve_instant[P2 skirmisher becomes the defender]@defend_window", DIFFERENT_STATES, "combat"),
    (SEED, "CR7.4-603.2-checks-in-combat"): (13, "combat_damage", DIFFERENT_STATES, "combat"),
}


@pytest.mark.parametrize("pair", list(PINNED), ids=lambda p: f"{p[0]}-vs-{p[1]}")
def test_each_variant_parts_where_its_source_says(pair):
    steps, action, how, aspect = PINNED[pair]
    c = diff_variants(GAME, *pair, {}, 2_000_000)
    d = c.divergence
    assert d is not None, c.verdict
    assert (d.length, d.action, d.how) == (steps, action, how)
    if aspect is not None:
        assert list(d.differences) == [aspect]
    # One game up to the step where they part; the step is in the transcript of each reading that allows it.
    assert [s.edge for s in d.first.steps][: steps - 1] == [s.edge for s in d.second.steps][: steps - 1]
    assert (d.first.steps[-1].edge == action) == (how != ONLY_IN_SECOND)
    assert (d.second.steps[-1].edge == action) == (how != ONLY_IN_FIRST)


def test_the_game_found_is_a_shortest_one():
    """Independently of the lockstep search: the seed's states where passing is
    allowed but the variant forbids it first appear after 6 steps, so 7 steps
    (the pass itself) is the least a game that tells them apart can take."""
    small = {"turns": 1, "deck": 0}
    seed = wowtcg.build(**small)
    variant = wowtcg.build(variant="600.2-without-600.3", **small)
    assert compare(seed, variant).divergence.length == PINNED[(SEED, "600.2-without-600.3")][0]
    exploration = explicit.explore(seed)
    depths = [
        exploration.depth[i]
        for i, s in enumerate(exploration.nodes)
        if {e.name for e, _ in seed.successors(s)} != {e.name for e, _ in variant.successors(s)}
    ]
    assert min(depths) + 1 == PINNED[(SEED, "600.2-without-600.3")][0]


def test_two_readings_with_nothing_to_part_on_agree_on_every_game_within_the_bounds():
    """With no card in any hand, no instant resolves: the two 602.3b readings
    never meet their one difference, and the whole product is searched."""
    c = diff_variants(GAME, "602.3b-english", "602.3b-chinese", {"hand": 0, "turns": 1}, 2_000_000)
    assert c.divergence is None and c.complete
    assert "agree on every game within the bounds" in c.verdict


def test_a_search_stopped_short_says_how_far_it_looked():
    c = compare(wowtcg.build(), wowtcg.build(), ("a", "b"), max_pairs=50)
    assert c.divergence is None and not c.complete
    assert f"up to {c.depth} steps" in c.verdict


def _outcome(c):
    d = c.divergence
    found = None if d is None else (
        d.action, d.how, d.length, d.differences, d.first.violation, d.second.violation,
        d.first.initial, d.second.initial, d.first.final, d.second.final, [s.line() for s in d.first.steps], [s.line() for s in d.second.steps],
    )
    return c.pairs, c.depth, c.complete, found


SMALL = {"turns": 1, "deck": 0}


@pytest.mark.parametrize(
    "first, second, max_pairs",
    [
        (SEED, "600.2-without-600.3", 2_000_000),  # only the first reading allows a step
        (SEED, "CR7.4-strikes-as-roles-begin", 2_000_000),  # only the second does
        ("602.3b-english", "602.3b-chinese", 2_000_000),  # the same step leads to states read otherwise
        (SEED, "405.3-as-written", 2_000_000),  # its own board: the two judges read one state otherwise
        (SEED, SEED, 40),  # stopped short at a level boundary
        (SEED, SEED, 2_000_000),  # nothing to part on: the whole product searched
    ],
)
def test_level_by_level_search_finds_what_the_state_by_state_search_finds(first, second, max_pairs):
    """The same game, the same step, the same transcripts, and the same
    count of pairs and depth, whichever way the product is walked."""
    a = GAME.machine(SMALL, None if first == SEED else first)
    b = GAME.machine(SMALL, None if second == SEED else second)
    assert _outcome(compare(a, b, (first, second), max_pairs)) == _outcome(compare_state_by_state(a, b, (first, second), max_pairs))


def test_diff_refuses_a_reading_against_itself_and_unknown_readings():
    with pytest.raises(BadInput, match="against itself"):
        diff_variants(GAME, SEED, SEED, {}, 10)
    with pytest.raises(BadInput, match="unknown variant 'nope'"):
        diff_variants(GAME, SEED, "nope", {}, 10)


def test_every_variant_cites_its_sources_and_a_findings_entry():
    documented = {d.id for d in load_known(default_known_file("wowtcg")).documented}
    for v in GAME.variants.values():
        assert v.sources and all(":" in src for src in v.sources)
        assert v.finding in documented
        for rule in v.rules:
            assert rule in GAME.registry


def test_under_cr74_strikes_the_seeds_strike_timing_property_fails():
    """409.2a (strikes only in the defend window) is the seed's rule: the
    CR7.4 reading strikes as the combat step starts, and verify says so."""
    from checkers.results import VIOLATED
    from properties.wowtcg import strikes_only_in_defend_window

    machine = GAME.machine({"turns": 1, "deck": 0}, "CR7.4-strikes-as-roles-begin")
    found = explicit.check(explicit.explore(machine), strikes_only_in_defend_window)
    assert found.verdict == VIOLATED
    assert found.counterexample.steps[-1].edge.startswith("resolve_proposal@action_phase[")
    seed = GAME.machine({"turns": 1, "deck": 0})
    assert explicit.check(explicit.explore(seed), strikes_only_in_defend_window).verdict != VIOLATED


@pytest.mark.parametrize("name", ["wowtcg", "riftbound", "hota"])
def test_a_source_reading_reads_every_state_as_the_model_does(name):
    """What ``compare(..., one_judge=True)`` relies on when lint compares a
    source's reading with the model's: a reading changes the rulings, never
    how a judge reads a state. Every state of a small search, read by both."""
    from checkers import vector

    game = get_game(name)
    bounds = {"turns": 1, "deck": 0} if name == "wowtcg" else {}
    model = game.machine(bounds)
    exploration = vector.explore(model, max_states=3_000)
    states = [exploration.state(i) for i in range(0, exploration.states, 7)]
    assert len(states) > 100
    for source in model.rulings.sources():
        reading = game.machine(bounds, reading=source)
        assert [reading.aspects(s) for s in states] == [model.aspects(s) for s in states], source
