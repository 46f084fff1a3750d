"""The Heroes of Ancients model: counts pinned as data, every edge exercised,
the golden rules' precedence, the two backends agreeing, loops (104.4b), and
mutants each caught by the property citing the rule they break."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checkers import bmc, explicit, vector
from model.backend import CONCRETE, SYMBOLIC
from model.hota import build
from model.hota.game import NOT_YET, SKIPPED
from checkers.hota_loops import loop_report, prove_mandatory_steps_end
from model.hota.rulings import CONCESSION, DAMAGE, EFFECT, LAST_STANDING
from model.hota.table import Table, TableError, default_table, table_of
from model.machine import Machine
from checkers.results import PROVED, VIOLATED
from properties import Invariant, StepProperty
from properties.hota import CATALOGUE
from tests.conftest import perft_case_id, states_of
from tests.test_backends import binding, bound

PERFT = yaml.safe_load((Path(__file__).parent / "data" / "perft_hota.yaml").read_text())
PROPERTIES = {p.name: p for p in CATALOGUE}

#: Small tables, each for a few rules.
LOOP = table_of({0: ["Spirit Caller", "Culling Field"], 1: ["Echo Chamber", "Silencing Rune"]}, 7)
WHISPER = table_of({0: ["Spirit Caller", "Culling Field"], 1: ["Whispering Echo"]}, 7)
GOLDEN = table_of({0: ["Pact of Victory", "Curse of Ruin", "Truce Banner", "Aegis of Immortality", "Silencing Rune"],
                   1: ["Twin Fates", "Gatekeeper", "Ember Bolt"]}, 7)
TOKENS = table_of({0: ["Spirit Caller", "Rewind Portal", "Banishing Gale", "Aegis of Immortality"], 1: ["Tome of Ages"]}, 8)
COUNCIL = table_of({0: ["Council of Elders"], 1: ["Ember Bolt"]}, 8)
#: The mandatory loop with Warding Sigil beside it (109.5d), which Silencing Rune can silence.
WARDED = table_of({0: ["Spirit Caller", "Culling Field", "Warding Sigil", "Arcane Sanctum"],
                   1: ["Echo Chamber", "Silencing Rune"]}, 7)
TABLES = {"default": default_table(7), "loop": LOOP, "whisper": WHISPER, "golden": GOLDEN, "tokens": TOKENS,
          "council": COUNCIL, "warded": WARDED}


# The tables are searched over arrays, as `verify` searches them: the searches
# over arrays are held to the state-by-state reference search by
# tests/test_vector.py (numbering, verdicts and transcripts on the council
# table; every pinned count of this game), and the reference search of the
# default table alone costs about twenty times as much.
@cache
def explored(table: Table) -> vector.VectorExploration:
    """The whole search of the seed's model on one table, done once for every test that reads it."""
    return vector.explore(build(table=table))


@pytest.fixture(scope="module")
def default_exploration() -> vector.VectorExploration:
    return explored(TABLES["default"])


@pytest.fixture(scope="module")
def explorations() -> dict[str, vector.VectorExploration]:
    return {name: explored(t) for name, t in TABLES.items() if name != "default"}


def first_reached(m: Machine, wanted: Callable[[Any], bool]) -> Any:
    """The first state, in breadth-first order from the start, for which
    ``wanted`` holds: the search stops there rather than exploring the whole
    table, for tests that need one state of a kind to begin from."""
    seen = set(m.initial_states())
    queue = deque(seen)
    while queue:
        state = queue.popleft()
        if wanted(state):
            return state
        for _, post in m.successors(state):
            if post not in seen:
                seen.add(post)
                queue.append(post)
    raise AssertionError("no reachable state is the one wanted")


@pytest.mark.parametrize("case", PERFT, ids=perft_case_id)
def test_counts_are_pinned(case, default_exploration, explorations) -> None:  # noqa: ANN001
    table = case["bounds"]["table"]
    v = default_exploration if table == "default" else explorations[table]
    names = v.machine.location_names
    terminal = Counter(names[i] for i in v.locations() if v.machine.locations[names[i]].terminal)
    assert v.complete
    assert (v.states, v.transitions, v.levels, dict(terminal)) == (case["states"], case["transitions"], case["levels"], case["terminal"])


def test_every_property_holds_on_every_table(default_exploration, explorations) -> None:  # noqa: ANN001
    for name, exploration in {"default": default_exploration, **explorations}.items():
        for prop in CATALOGUE:
            result = vector.check(exploration, prop)
            assert result.verdict in ("holds-to-depth", "vacuous"), f"{name}: {prop.name}: {result.note}"


def test_every_edge_is_exercised_somewhere(default_exploration, explorations) -> None:  # noqa: ANN001
    taken: set[str] = set()
    edges: set[str] = set()
    for exploration in (default_exploration, *explorations.values()):
        taken |= {exploration.machine.edges[k].name for k in set(exploration.step_edge.tolist())}
        edges |= set(exploration.machine.edge_index)
    # An empty hand at the council needs seven council turns: it is checked by hand below.
    assert edges - taken == {"council_skips_the_card"}


def test_an_empty_hand_skips_the_council_card_choice() -> None:
    """101.3: the card choice from an empty hand is impossible, so it is skipped."""
    m = build(table=COUNCIL)
    state = first_reached(m, lambda s: m.location_of(s) == "council" and s.picked == (NOT_YET, NOT_YET)
                          and s.chooser == s.active)
    empty = state._replace(hand=tuple(0 if p == state.active else h for p, h in enumerate(state.hand)))
    assert [e.name for e, _ in m.successors(empty) if "concedes" not in e.name] == ["council_skips_the_card"]
    after = m.apply(empty, m.edge("council_skips_the_card"))
    assert after.picked[state.active] == SKIPPED and after.chooser == state.active
    # The answer still comes from the player whose card choice was skipped (101.4c).
    assert {e.name for e, _ in m.successors(after) if "concedes" not in e.name} == {"council_accepts", "council_refuses"}


# -- the golden rules' precedence ---------------------------------------------------------


def _priority_state(m: Machine, **changes) -> object:  # noqa: ANN003
    return first_reached(m, lambda s: m.location_of(s) == "priority")._replace(**changes)


def test_aegis_beats_the_rules_and_effects_but_not_a_concession() -> None:
    m = build(table=GOLDEN)
    book = m.rulings
    lethal = _priority_state(m, damage=(30, 0))
    assert not book.answer("loses_game", lethal, CONCRETE, 0, DAMAGE)  # 101.1 over 104.3b
    assert not book.answer("loses_game", lethal, CONCRETE, 0, EFFECT)  # 101.2 over 104.3d
    assert book.answer("loses_game", lethal, CONCRETE, 0, CONCESSION)  # 101.1's exception
    assert book.answer("loses_game", lethal, CONCRETE, 1, EFFECT)  # P2 has no Aegis
    aegis = next(e for e, x in enumerate(m.table.entities) if x.card == "Aegis of Immortality")
    silenced = lethal._replace(silenced=tuple(e == aegis for e in range(len(m.table.entities))))
    assert book.answer("loses_game", silenced, CONCRETE, 0, DAMAGE)  # 101.2a: no ability, no protection
    assert not book.clash_in(lethal) and not book.clash_in(silenced)


def test_the_concession_exception_is_what_lets_a_player_with_aegis_concede() -> None:
    """Without 101.1's exception the "can't" of Aegis would beat the concession
    (101.2): the concession would end nothing and the outcome property fails."""
    m = build(table=GOLDEN, without=("101.1-concession",))
    state = _priority_state(m)
    assert not m.rulings.answer("loses_game", state, CONCRETE, 0, CONCESSION)
    found = vector.check(vector.explore(m), PROPERTIES["game_outcome_well_defined"])
    assert found.verdict == VIOLATED
    assert found.counterexample.steps[-1].edge.startswith("p1_concedes")


def test_the_last_player_standing_wins_through_gatekeeper() -> None:
    m = build(table=GOLDEN)
    state = _priority_state(m)
    # P2's Gatekeeper stops P1's win by effect (101.2) but not 104.2a.
    assert not m.rulings.answer("wins_game", state, CONCRETE, 0, EFFECT)
    alone = state._replace(lost=(False, True))
    assert m.rulings.answer("wins_game", alone, CONCRETE, 0, LAST_STANDING)


def test_twin_fates_on_oneself_loses_and_the_opponent_wins() -> None:
    """104.3e: winning and losing at once is a loss; 104.2a then gives the game to the other."""
    m = build(table=GOLDEN)
    state = _priority_state(m, priority=1, active=1)
    after = m.apply(state, m.edge("p2_twin_fates_on_p2"))
    assert (after.won, after.lost) == ((True, False), (False, True))
    assert m.location_of(after) == "game_over"


def test_both_players_lethal_at_one_check_is_a_draw() -> None:
    """104.4a: all remaining players lose at the same check: the game is a draw."""
    m = build(table=table_of({0: ["Ember Bolt"], 1: []}, 7))
    state = _priority_state(m)._replace(location=m.location_index["check"], damage=(30, 30))
    (edge, after), = [(e, s) for e, s in m.successors(state) if not e.has("concedes")]
    assert edge.name == "priority_check_ends_game" and after.drew == (True, True)
    assert after.won == (False, False) and after.lost == (False, False)


def test_a_table_the_model_cannot_hold_is_refused_by_name() -> None:
    with pytest.raises(TableError, match="unknown card 'Mana Wyrm'"):
        table_of({0: ["Mana Wyrm"]}, 7)
    with pytest.raises(TableError, match="Echo Chamber or Whispering Echo"):
        table_of({0: ["Echo Chamber"], 1: ["Whispering Echo"]}, 7)
    with pytest.raises(TableError, match="opening hand"):
        Table((), 6)
    with pytest.raises(TableError, match="opening hand"):
        table_of({0: ["Ember Bolt"]}, (9, 6))
    with pytest.raises(TableError, match="one for each of P1, P2"):
        Table((), 9, (7, 8))


def test_each_player_draws_from_a_deck_of_their_own_size() -> None:
    # 100.2a bounds a deck from below only, so two decks may differ; 103.4 draws seven from each.
    ex = explicit.explore(build(table=table_of({0: ["Tome of Ages"], 1: ["Ember Bolt"]}, (7, 9))))
    assert ex.complete and ex.machine.table.sizes == (7, 9)
    assert ex.state(0).library == (7, 9)
    dealt = {ex.state(post).library for _, e, post in ex.steps() if e.name == "draw_opening_hands"}
    assert dealt == {(0, 2)}
    # Equal decks make the same table, given as one size or as each player's.
    assert table_of({0: ["Tome of Ages"]}, (8, 8)) == table_of({0: ["Tome of Ages"]}, 8)


# -- 104.4b ------------------------------------------------------------------------------


def test_mandatory_loops_are_found_and_every_one_is_a_draw() -> None:
    report = loop_report(LOOP)
    assert report.raw_loops, "the rules without 104.4b should loop when Culling Field meets Echo Chamber"
    assert report.holds, report
    assert report.full_mandatory_cycles == 0


def test_a_loop_with_an_optional_action_is_no_draw() -> None:
    report = loop_report(WHISPER)
    assert not report.raw_loops  # Whispering Echo's choice breaks every mandatory cycle
    assert report.optional_cycles > 0 and report.optional_cycles_drawn == 0
    assert report.holds


def test_z3_proves_mandatory_steps_end_and_finds_the_loop_without_104_4b() -> None:
    for table in (default_table(7), LOOP, WHISPER, WARDED):
        assert prove_mandatory_steps_end(build(table=table)).verdict == PROVED
    # At three and four seats a check may take a player out while the others
    # play on (his tokens leaving may wake an echo) and hand the turn on.
    for players in (3, 4):
        assert prove_mandatory_steps_end(build(players=players)).verdict == PROVED
        assert prove_mandatory_steps_end(build(players=players, loop_rule=False)).edge == "culling_field_destroys"
    without = prove_mandatory_steps_end(build(table=LOOP, loop_rule=False))
    assert without.verdict == VIOLATED
    assert without.edge in ("culling_field_destroys", "echo_chamber_creates")
    assert "waiting" in without.state


def test_without_104_4b_the_mandatory_loop_never_ends() -> None:
    machine = build(table=LOOP, loop_rule=False)
    found = vector.check(vector.explore(machine), PROPERTIES["mandatory_actions_end"])
    assert found.verdict == VIOLATED


# -- 109.5d: Warding Sigil ------------------------------------------------------------------


def test_warding_sigil_keeps_every_spirit_out_while_it_has_its_ability() -> None:
    # Nobody here can silence the Sigil: Spirit Caller and Whispering Echo create nothing.
    ex = explicit.explore(build(table=table_of({0: ["Spirit Caller", "Warding Sigil", "Culling Field"],
                                                1: ["Whispering Echo", "Banishing Gale"]}, 8)))
    assert ex.complete
    taken = {e.name for _, e, _ in ex.steps()}
    assert "p1_spirit_caller" in taken
    assert all(ex.state(n).tokens == (0, 0) for n in range(ex.states))
    assert not taken & {"culling_field_destroys", "p2_banishing_gale_on_p1s_spirit"}


def test_a_silenced_warding_sigil_lets_the_loop_begin_and_104_4b_still_ends_it() -> None:
    ex = explicit.explore(build(table=WARDED))
    made = [post for pre, e, post in ex.steps() if e.name == "p1_spirit_caller"
            and ex.state(post).tokens[0] == ex.state(pre).tokens[0] + 1]
    assert made and all(ex.state(n).silenced[2] for n in made)
    report = loop_report(WARDED)
    assert report.raw_loops and report.holds and report.full_mandatory_cycles == 0


# -- the two backends ----------------------------------------------------------------------

SMALL = build(table=table_of({0: ["Ember Bolt", "Council of Elders", "Culling Field"],
                              1: ["Aegis of Immortality", "Spirit Caller", "Echo Chamber", "Twin Fates",
                                  "Silencing Rune"]}, 7))


@cache
def symbolic_terms() -> tuple[Any, Any, list[tuple[Any, dict]], list[Any]]:
    """Each edge's guard and update and each property over states of fresh Z3
    constants, as the solvers build them, once; an example binds the
    constants to its states' values (as tests/test_backends.py does for WoW)."""
    pre, post = SMALL.symbolic_state("pre"), SMALL.symbolic_state("post")
    edges = [(e.guard(pre, SYMBOLIC), e.update(pre, SYMBOLIC)) for e in SMALL.edges]
    props = [p.holds(SMALL, pre, SYMBOLIC) if isinstance(p, Invariant) else
             p.holds(SMALL, pre, post, SYMBOLIC) if isinstance(p, StepProperty) else None for p in CATALOGUE]
    return pre, post, edges, props


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_guards_updates_and_properties_agree_on_both_backends(data) -> None:  # noqa: ANN001
    m = SMALL
    state = data.draw(states_of(m))
    other = data.draw(states_of(m))
    pre, post, edges, props = symbolic_terms()
    model = binding(m, pre, state)
    # A step property reads the second state too: its constants are replaced by that state's values.
    to_other = list(zip(Machine.flatten((post,)), Machine.flatten((m.constant_state(other),))))
    for edge, (guard, update) in zip(m.edges, edges):
        enabled = bool(edge.guard(state, CONCRETE))
        assert enabled == bound(guard, model), edge.name
        if enabled:
            plain = edge.update(state, CONCRETE)
            assert set(plain) == set(update), edge.name
            for var, value in plain.items():
                assert value == bound(update[var], model), f"{edge.name} updates {var} differently"
    for prop, term in zip(CATALOGUE, props):
        if isinstance(prop, Invariant):
            assert bool(prop.holds(m, state, CONCRETE)) == bound(term, model), prop.name
        elif isinstance(prop, StepProperty):
            assert bool(prop.holds(m, state, other, CONCRETE)) == bound(z3.substitute(term, *to_other), model), prop.name


# -- mutants ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    name: str
    rule: str
    caught_by: str
    table: Table
    mutate: Callable[[Machine], Machine]
    broken_edge: str


def wrap_update(m: Machine, edge: str, extra: Callable) -> Machine:
    original = m.edge(edge).update
    return m.replace_edge(edge, update=lambda s, b: {**original(s, b), **extra(s, b)})


def each_check(m: Machine, extra: Callable) -> Machine:
    for e in [e for e in m.edges if e.has("priority_check")]:
        m = wrap_update(m, e.name, extra)
    return m


MUTANTS = [
    Mutant("tokens off the battlefield stay", "109.5f", "tokens_only_on_battlefield_at_priority", TOKENS,
           lambda m: each_check(m, lambda s, b: {"tokens_elsewhere": s.tokens_elsewhere}), "priority_check_then_priority"),
    Mutant("a token off the battlefield comes back at the check", "109.5g", "tokens_never_return", TOKENS,
           lambda m: each_check(m, lambda s, b: {
               "tokens": tuple(s.tokens[p] + s.tokens_elsewhere[p] for p in (0, 1)), "tokens_elsewhere": (0, 0)}),
           "priority_check_then_priority"),
    Mutant("a bolt's damage loses at once", "104.3b", "losses_wait_for_priority_check", GOLDEN,
           lambda m: wrap_update(m, "p2_ember_bolt_on_p2", lambda s, b: {"lost": (False, True)}),
           "p2_ember_bolt_on_p2"),
    Mutant("the check forgets the empty library", "104.3c", "checked_before_priority", TOKENS,
           lambda m: each_check(m, lambda s, b: {"drew_from_empty": s.drew_from_empty}), "priority_check_then_priority"),
    Mutant("winning and losing at once wins", "104.3e", "nobody_wins_and_loses", GOLDEN,
           lambda m: wrap_update(m, "p2_twin_fates_on_p2", lambda s, b: {"won": (False, True), "lost": (False, True)}),
           "p2_twin_fates_on_p2"),
    Mutant("the defender chooses first", "101.4", "choices_active_player_first", COUNCIL,
           lambda m: wrap_update(m, "p1_council_of_elders", lambda s, b: {"chooser": 1 - s.active}),
           "council_"),
    Mutant("a refusal does not ask the active player again", "101.4d", "refusal_restarts_with_active_player", COUNCIL,
           lambda m: wrap_update(m, "council_refuses", lambda s, b: {"rechoosing": False, "chooser": -1}),
           "council_refuses"),
    Mutant("the first player draws on the first turn", "103.5a", "first_player_skips_first_draw", COUNCIL,
           lambda m: m.replace_edge("skip_first_draw", update=lambda s, b: {
               "priority": s.active, "hand": b.store(s.hand, s.active, b.select(s.hand, s.active) + 1),
               "library": b.store(s.library, s.active, b.select(s.library, s.active) - 1)}),
           "skip_first_draw"),
    Mutant("a second mulligan", "103.4", "mulligan_once_and_together", COUNCIL,
           lambda m: m.replace_edge("perform_mulligans", guard=lambda s, b: b.And(*(d != NOT_YET for d in s.declared)),
                                    target="mulligan"),
           "perform_mulligans"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_is_caught_by_the_property_citing_the_broken_rule(mutant: Mutant) -> None:
    prop = PROPERTIES[mutant.caught_by]
    assert mutant.rule in prop.rules, f"{prop.name} does not cite {mutant.rule}"
    faithful = explored(mutant.table)  # the table's own search, shared with the pinned counts
    assert vector.check(faithful, prop).verdict == "holds-to-depth"
    machine = mutant.mutate(faithful.machine)
    found = vector.check(vector.explore(machine), prop)
    assert found.verdict == VIOLATED
    transcript = found.counterexample
    assert transcript.steps[-1].edge.startswith(mutant.broken_edge), transcript.text()
    by_solver = bmc.check_all(machine, [prop], depth=found.depth)[0]
    assert by_solver.verdict == VIOLATED, by_solver.note
    assert by_solver.depth == found.depth, "search and BMC disagree on the shortest counterexample"



# -- three and four players (102.1, 104.5, assumed:leaver-objects) ----------------------------------


def test_the_default_table_seats_three_and_every_property_holds() -> None:
    """``--players 3``: the default cards with a third player; the two-player
    counts above are untouched by the seats a table can have."""
    exploration = vector.explore(build(players=3))
    assert exploration.complete and len(exploration.keys) == 11_542
    for prop in CATALOGUE:
        result = vector.check(exploration, prop)
        assert result.verdict in ("holds-to-depth", "vacuous"), f"{prop.name}: {result.note}"


def _three(cards: dict[int, list[str]], **changes) -> tuple[Machine, object]:  # noqa: ANN003
    m = build(table=table_of(cards, 9, players=3))
    state = first_reached(m, lambda s: m.location_of(s) == "priority" and s.active == 0 and s.priority == 0
                          and s.passes == 0)
    return m, state._replace(**changes)


def test_a_leaver_takes_their_gatekeeper_and_the_others_play_on() -> None:
    """104.5, assumed:leaver-objects: P1 concedes with Gatekeeper; P2's Pact of
    Victory now wins (104.2b), where before the Gatekeeper stopped it (101.2)."""
    m, state = _three({0: ["Gatekeeper"], 1: ["Pact of Victory"], 2: []}, priority=1)
    assert [e.name for e, _ in m.successors(state) if e.name.startswith("p2_pact")] == ["p2_pact_of_victory_stopped"]
    gone = m.apply(state, m.edge("p1_concedes_at_priority_turn_passes_on"))
    assert gone.lost == (True, False, False) and m.location_of(gone) == "draw_step" and gone.active == 1
    assert m.rulings.answer("leaves_with_its_player", gone, CONCRETE, 0)
    held = gone._replace(location=m.location_index["priority"], priority=1)
    assert [e.name for e, _ in m.successors(held) if e.name.startswith("p2_pact")] == ["p2_pact_of_victory"]


def test_priority_goes_round_the_players_still_in_the_game() -> None:
    """assumed:priority, assumed:seat-order: a pass goes to the next player still
    in the game; the turn ends when all of them have passed in succession."""
    m, state = _three({0: [], 1: [], 2: ["Ember Bolt"]})
    after = m.apply(state, m.edge("pass_priority"))
    assert (after.priority, after.passes) == (1, 1)
    held = after._replace(location=m.location_index["priority"])
    # P3 leaves before passing: P1's pass stands, and P2's now ends the turn.
    left = m.apply(held, m.edge("p3_concedes_at_priority_and_play_goes_on"))
    assert (left.priority, left.passes, left.lost) == (1, 1, (False, False, True))
    end = m.apply(left, m.edge("pass_ends_turn"))
    assert m.location_of(end) == "draw_step" and end.active == 1
    # P1, who has passed, leaves while P2 holds priority: that pass no longer counts.
    gone = m.apply(held._replace(active=2), m.edge("p1_concedes_at_priority_and_play_goes_on"))
    assert (gone.priority, gone.passes) == (1, 0)


# -- Mind Tether: control moves, ownership stays (107.1, 107.2, 108.4, 109.2) -------------------------


def test_a_taken_aegis_protects_its_new_controller_and_only_they_activate_a_taken_bolt() -> None:
    m = build(table=table_of({0: ["Mind Tether"], 1: ["Aegis of Immortality", "Ember Bolt"]}, 8))
    exploration = vector.explore(m)
    assert exploration.complete
    for prop in CATALOGUE:
        result = vector.check(exploration, prop)
        assert result.verdict in ("holds-to-depth", "vacuous"), f"{prop.name}: {result.note}"
    state = _priority_state(m, priority=0, active=0, damage=(30, 30))
    assert m.rulings.answer("loses_game", state, CONCRETE, 0, DAMAGE)  # P2's Aegis is P2's
    taken = m.apply(state, m.edge("p1_mind_tether_on_p2s_aegis_of_immortality"))
    assert taken.controller == (0, 0, 1)  # the Aegis is P1's to control; P2 still owns it (107.1)
    assert not m.rulings.answer("loses_game", taken, CONCRETE, 0, DAMAGE)  # 108.4: its "you" is P1 now
    assert m.rulings.answer("loses_game", taken, CONCRETE, 1, DAMAGE)
    # 109.2: the Bolt answers to its controller only.
    bolt = m.apply(state, m.edge("p1_mind_tether_on_p2s_ember_bolt"))._replace(location=m.location_index["priority"])
    assert {e.name for e, _ in m.successors(bolt) if "ember_bolt" in e.name} == {"p1_p2_s_ember_bolt_on_p1",
                                                                              "p1_p2_s_ember_bolt_on_p2"}
    assert not [e for e, _ in m.successors(bolt._replace(priority=1)) if "ember_bolt" in e.name]
