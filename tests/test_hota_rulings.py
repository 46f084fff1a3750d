"""Heroes of Ancients' rulings against their one text, seed 004: every citation
points at the rule it names, the seed's reading is the model's, the clashes the
text leaves (Rewind Portal against 109.5g, 104.4a's draw against the losses of
104.3b-c, 104.2a's one opponent against play going on at three players) and
its silences (101.4's order of several defending players, the turn's draw,
when a player would receive priority, who loses when another wins, what
damage dealt to a player does) occur in reachable states, and a malformed
citation is refused."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from chainproof import source_lint
from checkers import vector
from model.backend import CONCRETE, VECTOR
from model.hota import REGISTRY, build, plays
from model.hota.rulings import CONCESSION, DAMAGE, LAST_STANDING, PRINCIPLES, SEED, loses_at_check
from model.hota.table import ACCEPT, REFUSE, default_table, table_of
from model.rulings import Question, RuleBook, Ruling, is_assumed_rule
from model.sources import SOURCES, SourceError, line_span, path_of
from properties.hota import CATALOGUE
from tests.conftest import reachable_states
from tests.test_hota_model import first_reached

PROPERTIES = {p.name: p for p in CATALOGUE}
GOLDEN = table_of({0: ["Pact of Victory", "Curse of Ruin", "Truce Banner", "Aegis of Immortality", "Silencing Rune"],
                   1: ["Twin Fates", "Gatekeeper", "Ember Bolt"]}, 7)
TOKENS = table_of({0: ["Spirit Caller", "Rewind Portal", "Banishing Gale", "Aegis of Immortality"], 1: ["Tome of Ages"]}, 8)
COUNCIL = table_of({0: ["Council of Elders"], 1: ["Ember Bolt"]}, 8)


@pytest.fixture(scope="module")
def default() -> vector.VectorExploration:
    return vector.explore(build())


@pytest.fixture(scope="module")
def default_states(default: vector.VectorExploration) -> list:
    """The default table's states as plain values, converted once for every test that reads them."""
    return reachable_states(default)


@pytest.fixture(scope="module")
def tokens() -> vector.VectorExploration:
    return vector.explore(build(table=TOKENS))


def _states(exploration: vector.VectorExploration, numbers: np.ndarray) -> object:
    """The states of these numbers as one state of arrays (``VECTOR``)."""
    layout = exploration.layout
    return layout.state(layout.unpack(exploration.key_rows(numbers)))


def _clashes(book: RuleBook, exploration: vector.VectorExploration) -> dict[str, object]:
    """Each question that clashes where the model asks it, with the first state
    where it does: every question asked of all the states at its locations at
    once, as arrays."""
    m = exploration.machine
    found: dict[str, object] = {}
    for q in book.questions.values():
        where = np.flatnonzero(np.isin(exploration.locations(), [m.location_index[x] for x in q.asked_at]))
        if not where.size:
            continue
        s = _states(exploration, where)
        hits = np.zeros(where.size, bool)
        for args in q.arguments:
            hits |= vector.rows(book.clashes(q.name, s, VECTOR, *args), where.size)
        if hits.any():
            found[q.name] = exploration.state(int(where[np.flatnonzero(hits)[0]]))
    return found


# -- the citations ----------------------------------------------------------------------------


def _cited(book: RuleBook) -> list[tuple[str, tuple[str, ...], str]]:
    """(who, rule numbers, place in 004) for every ruling version and sourced default."""
    out = []
    for q in book.declared.values():
        out += [(f"{q.name}/{r.id}", r.rules, r.texts[SEED]) for r in q.rulings if r.texts]
        if q.default_texts:
            out.append((f"{q.name}/default", (), q.default_texts[SEED]))
    return out


def test_every_citation_is_a_line_of_004_that_starts_the_rule_it_names() -> None:
    book = build().rulings
    path = path_of(SEED)
    if path is None:
        pytest.skip("the seed texts are not at hand")
    lines = path.read_text(encoding="utf-8").splitlines()
    cited = _cited(book)
    assert len(cited) >= 20
    for who, rules, at in cited:
        first, last = line_span(at)
        assert 1 <= first <= last <= min(len(lines), SOURCES[SEED].lines), (who, at)
        # The first line cited begins with one of the ruling's numbered rules
        # (a default: with the rule whose case it is the rest of).
        number = re.match(r"^(\d{3}\.\d+[a-z]?)", lines[first - 1])
        assert number is not None, (who, at, lines[first - 1])
        numbered = [x for x in rules if not is_assumed_rule(x)]
        assert not numbered or number.group(1) in numbered, (who, at, number.group(1), numbered)


def test_only_004_is_cited_and_assumptions_cite_only_assumed_rules() -> None:
    book = build().rulings
    assert book.sources() == (SEED,)
    assumptions = {r.id for q in book.declared.values() for r in q.rulings if r.assumption}
    assert assumptions == {"winner-ends-game", "priority-check", "state-action-check", "starting-life", "damage-markers",
                           "leaver-objects", "seat-order", "seat-order-later", "declares-in-seat-order",
                           "declares-later-in-seat-order", "turn-ends", "priority-goes-on", "destroy-moves"}
    for q in book.declared.values():
        for r in q.rulings:
            assert set(r.texts) <= {SEED}
            if r.assumption:
                assert all(x.startswith("assumed:") and REGISTRY[x].status == "assumed" for x in r.rules), r.id
    chosen = {p.id for p in PRINCIPLES if all(is_assumed_rule(x) for x in p.rules)}
    assert chosen == {"return-impossible", "game-over", "draw-replaces-loss", "last-opponent", "last-known-controller",
                      "concession-outside-loops", "token-not-a-card", "value-as-ability", "impossible-action-only",
                      "two-player-by-seats", "declared-count"}


@pytest.mark.parametrize("texts, message", [
    ({"004": "999"}, "past the end"),
    ({"003": "12"}, "unknown source"),
    ({"004": "12-10"}, "ends before it starts"),
])
def test_a_malformed_citation_is_refused(texts: dict[str, str], message: str) -> None:
    bad = Question("q", "?", (Ruling("x", ("104.3a",), True, lambda s, b: True, "d", texts=texts),), ((),))
    with pytest.raises(SourceError, match=message):
        RuleBook((bad,), PRINCIPLES, game="hota")
    # The same ruling with a good line is accepted, so the refusal is the line's.
    RuleBook((Question("q", "?", (Ruling("x", ("104.3a",), True, lambda s, b: True, "d", texts={"004": "137"}),), ((),)),),
             PRINCIPLES, game="hota")


def test_an_assumption_may_not_cite_a_numbered_rule() -> None:
    bad = Question("q", "?", (Ruling("x", ("104.3a",), True, lambda s, b: True, "d"),), ((),))
    with pytest.raises(SourceError, match="assumed"):
        RuleBook((bad,), PRINCIPLES, game="hota")


# -- the reading --------------------------------------------------------------------------------


def test_reading_004_is_the_models_reading(default: vector.VectorExploration) -> None:
    seed = build().rulings
    named = build(reading="004")
    assert {n: [r.id for r in q.rulings] for n, q in named.rulings.questions.items()} == {
        n: [r.id for r in q.rulings] for n, q in seed.questions.items()
    }
    again = vector.explore(named)
    assert (again.states, again.transitions) == (default.states, default.transitions)
    # 004 first on one question is still the same reading: there is no other text.
    assert build(reading="004@token_returns").rulings.reading.precedence_for("token_returns") == (SEED,)
    with pytest.raises(SourceError, match="no source"):
        build(reading="000")
    with pytest.raises(SourceError, match="no question"):
        build(reading="004@no_such_question")


def test_without_still_removes_a_principle() -> None:
    book = build(without=("return-impossible",)).rulings
    assert "return-impossible" not in book.in_force and "101.3" in book.in_force


# -- H4: a clash within 004 ------------------------------------------------------------------------


def test_rewind_portal_against_109_5g_is_a_clash_004_leaves(tokens: vector.VectorExploration) -> None:
    """101.1 puts the Portal's text before the rule it contradicts; 109.5g says
    the token stays. 004 alone does not decide; the model keeps 109.5g. On
    this table 004 alone also clashes over what else of the Portal's
    instruction is done (H13) and over a declared mulligan count (H14)."""
    m = tokens.machine
    alone = m.rulings.only(SEED)
    assert "return-impossible" not in alone.in_force and "101.1" in alone.in_force
    found = _clashes(alone, tokens)
    assert set(found) == {"token_returns", "omits_only_the_impossible_action", "mulligan_as_declared"}
    s = found["token_returns"]
    clash = alone.explain("token_returns", s)
    assert set(clash.core) == {"rewind-portal", "109.5g"} and set(clash.rules) >= {"101.1", "109.5g"}
    assert alone.speaks("token_returns", s, CONCRETE)
    # The model's reading decides it: no clash, and the token does not return.
    assert _clashes(m.rulings, tokens) == {}
    assert m.rulings.answer("token_returns", s, CONCRETE) is False
    # Where the Portal's controller has no token, it has nothing to return: no clash.
    assert not alone.clashes("token_returns", s._replace(tokens=(0, 0)), CONCRETE)


def test_004_alone_decides_the_golden_rules_by_its_own_principles(default: vector.VectorExploration) -> None:
    """H1: Aegis against a concession (101.1's exception) and Gatekeeper against
    104.2a are decided by 004's own words; on the default table 004 alone clashes
    only where both players lose at one check (draw_replaces_losses), over a loop
    that a concession could leave (H6), over the controller of a token that
    left (H10) and over a declared mulligan count (H14), never over them."""
    assert set(_clashes(default.machine.rulings.only(SEED), default)) == {
        "draw_replaces_losses", "loop_is_a_draw", "left_token_has_controller", "mulligan_as_declared"}
    m = build(table=GOLDEN)
    lethal = first_reached(m, lambda s: m.location_of(s) == "priority")._replace(damage=(30, 0))
    alone = m.rulings.only(SEED)
    assert alone.answer("loses_game", lethal, CONCRETE, 0, CONCESSION)
    assert not alone.answer("loses_game", lethal, CONCRETE, 0, DAMAGE)
    assert not alone.clash_in(lethal)


# -- the silences of 004: gaps ---------------------------------------------------------------------


def test_the_seed_never_says_a_turn_begins_with_a_draw(default: vector.VectorExploration, default_states: list) -> None:
    m, book = default.machine, default.machine.rulings
    draws = [s for s in default_states if m.location_of(s) == "draw_step"]
    first = [s for s in draws if s.first_turn]
    later = [s for s in draws if not s.first_turn]
    assert first and later
    # 103.5a speaks on the first turn; on every later one only the default does.
    assert all(book.speaks("draws_at_draw_step", s, CONCRETE) and not book.answer("draws_at_draw_step", s, CONCRETE) for s in first)
    assert all(not book.speaks("draws_at_draw_step", s, CONCRETE) and book.answer("draws_at_draw_step", s, CONCRETE) for s in later)


def test_the_seed_never_says_how_a_turn_ends(default: vector.VectorExploration) -> None:
    """004 begins the first turn (103.5) and ends none: whether a pass ends the
    turn is the model's assumption in every state, and the turn ends exactly
    where it says so (the edge pass_ends_turn; pass_priority elsewhere)."""
    m, book = default.machine, default.machine.rulings
    held = np.flatnonzero(default.locations() == m.location_index["priority"])
    assert held.size and not vector.rows(book.speaks("turn_ends_on_pass", _states(default, held), VECTOR), held.size).any()
    for edge, ends in (("pass_ends_turn", True), ("pass_priority", False)):
        pre = default.step_pre[default.step_edge == m.edge_index[edge]]
        assert pre.size
        answers = vector.rows(book.answer("turn_ends_on_pass", _states(default, pre), VECTOR), pre.size)
        assert (answers == ends).all(), edge


def test_the_seed_never_says_when_a_player_would_receive_priority(default: vector.VectorExploration, default_states: list) -> None:
    m, book = default.machine, default.machine.rulings
    checks = [s for s in default_states if m.location_of(s) == "check"]
    assert checks
    assert not any(book.speaks("would_receive_priority", s, CONCRETE) for s in checks)
    # Whereas the loss it times is the text's: 104.3c's mark lasts to that check only.
    assert all(book.speaks("empty_library_loss_waits", s, CONCRETE, p) for s in checks for p in (0, 1))


def test_who_loses_when_another_wins_is_the_models_assumption(default: vector.VectorExploration, default_states: list) -> None:
    """H2: a player who neither won nor drew loses when the other wins; 004 says
    only that the game ends (104.1), and Aegis, read alone, would keep its
    controller from losing even then."""
    m, book = default.machine, default.machine.rulings
    ended = [s for s in default_states if m.location_of(s) == "game_over"]
    # P2 (with Aegis) after P1's win, and P1 (without) after P2's.
    p2_loses = [s for s in ended if s.won == (True, False)]
    p1_loses = [s for s in ended if s.won == (False, True)]
    assert p2_loses and p1_loses
    assert all(s.lost == (False, True) and book.answer("loses_when_the_game_ends", s, CONCRETE, 1) for s in p2_loses)
    # Without Aegis only the assumption answers: the rules are silent there.
    assert all(not book.speaks("loses_when_the_game_ends", s, CONCRETE, 0) for s in p1_loses)
    # With Aegis, 004 alone answers the other way, and the model's principle decides.
    alone = book.only(SEED)
    assert not any(alone.answer("loses_when_the_game_ends", s, CONCRETE, 1) for s in p2_loses)


def test_without_the_game_over_principle_aegis_leaves_a_won_game_without_a_loser() -> None:
    m = build(table=GOLDEN, without=("game-over",))
    found = vector.check(vector.explore(m), PROPERTIES["game_outcome_well_defined"])
    assert found.verdict == "violated"
    assert "twin_fates" in found.counterexample.steps[-1].edge


# -- 101.4d and 104.4b ------------------------------------------------------------------------------


def test_a_refusal_against_an_acceptance_calls_for_the_active_players_new_answer() -> None:
    m = build(table=COUNCIL)
    book = m.rulings
    due = [s for s in reachable_states(vector.explore(m))
           if m.location_of(s) == "council" and s.chooser not in (-1, s.active) and s.answer[s.active] == ACCEPT]
    assert due
    assert all(book.answer("active_player_chooses_anew", s, CONCRETE, REFUSE) for s in due)
    assert not any(book.answer("active_player_chooses_anew", s, CONCRETE, ACCEPT) for s in due)


def test_the_loop_draw_is_104_4b_and_a_silenced_piece_stops_it() -> None:
    loop = table_of({0: ["Spirit Caller", "Culling Field"], 1: ["Echo Chamber", "Silencing Rune"]}, 7)
    m = build(table=loop)
    waiting = [s for s in reachable_states(vector.explore(build(table=loop, loop_rule=False)))
               if m.location_of(s) == "triggers"]
    drawn = [s for s in waiting if m.rulings.answer("loop_is_a_draw", s, CONCRETE)]
    assert drawn and len(drawn) < len(waiting)
    assert all(m.rulings.live_concrete("loop_is_a_draw", s, ())[0].id == "104.4b" for s in drawn)
    assert all(any(s.silenced) for s in waiting if s not in drawn)


LOOP = table_of({0: ["Spirit Caller", "Culling Field"], 1: ["Echo Chamber", "Silencing Rune"]}, 7)


def test_a_concession_at_any_time_would_make_every_loop_optional() -> None:
    """H6: 104.4b's second sentence makes a loop with an optional action no
    draw, and 104.3a lets a player concede at any time; 004 alone clashes
    wherever the loop begins. The model takes the concession as leaving the
    loop (assumed:concession-outside-loops); without that, the loop never ends."""
    m = build(table=LOOP)
    alone = m.rulings.only(SEED)
    state = first_reached(m, lambda s: m.location_of(s) == "triggers" and m.rulings.answer("loop_is_a_draw", s, CONCRETE))
    assert "concession-outside-loops" not in alone.in_force
    assert set(alone.explain("loop_is_a_draw", state).core) == {"104.4b", "104.3a-optional"}
    assert not m.rulings.clashes("loop_is_a_draw", state, CONCRETE)
    without = build(table=LOOP, without=("concession-outside-loops",))
    assert not without.rulings.answer("loop_is_a_draw", state, CONCRETE)
    found = vector.check(vector.explore(without), PROPERTIES["mandatory_actions_end"])
    assert found.verdict == "violated", found.note


def test_the_echo_names_the_controller_of_a_token_that_107_3_says_has_none() -> None:
    """H10: Echo Chamber gives the Spirit to "that token's controller", but the
    token has left the battlefield and 107.3 gives a controller only to objects
    on the stack or the battlefield. The model reads the controller it had as it
    left (assumed:last-known-controller); by 107.3 alone the echo makes nothing
    (101.3) and Culling Field with Echo Chamber makes no loop."""
    m = build(table=LOOP)
    alone = m.rulings.only(SEED)
    # The card speaks wherever a trigger waits with the echo in play: the loop turns on the echo to come.
    state = first_reached(m, lambda s: m.location_of(s) == "triggers")
    assert set(alone.explain("left_token_has_controller", state).core) == {"echo", "107.3"}
    assert m.rulings.answer("left_token_has_controller", state, CONCRETE) is True
    # Where the Echo Chamber is silenced only 107.3 speaks: no clash.
    chamber = m.table.holding("Echo Chamber")[0]
    hushed = state._replace(silenced=tuple(e == chamber for e in range(len(m.table.entities))))
    assert not alone.clashes("left_token_has_controller", hushed, CONCRETE)
    without = vector.explore(build(table=LOOP, without=("last-known-controller",)))
    taken = {without.machine.edges[k].name for k in set(without.step_edge.tolist())}
    assert "echo_chamber_creates" in taken and "mandatory_loop_draw" not in taken
    assert "mandatory_loop_draw" in {m.edges[k].name for k in set(vector.explore(m).step_edge.tolist())}


#: P1's Spirit, sent away by P2's Banishing Gale, makes P2's Echo Chamber trigger for P1.
STRANGER = table_of({0: ["Spirit Caller"], 1: ["Echo Chamber", "Banishing Gale"]}, 7)


def test_an_echo_gives_the_spirit_to_its_creator_where_107_2_gives_it_to_the_echos_owner() -> None:
    """H11: the Spirit an echo makes for another player than its owner is the
    creator's by 109.5a and the echo owner's by 107.2 (a card with no owner);
    004 alone does not settle it. The model gives it to its creator
    (assumed:token-not-a-card); without that principle, to the echo's owner."""
    m = build(table=STRANGER)
    echo_for_p1 = m.table.echo_waits
    state = first_reached(m, lambda s: m.location_of(s) == "triggers" and s.waiting == echo_for_p1)
    alone = m.rulings.only(SEED)
    assert set(alone.explain("echo_spirit_to_creator", state).core) == {"109.5a", "107.2"}
    assert m.rulings.answer("echo_spirit_to_creator", state, CONCRETE) is True
    after = {e.name: post for e, post in m.successors(state)}["echo_chamber_creates"]
    assert after.tokens == (state.tokens[0] + 1, state.tokens[1])
    other = build(table=STRANGER, without=("token-not-a-card",))
    after = {e.name: post for e, post in other.successors(state)}["echo_chamber_creates"]
    assert after.tokens == (state.tokens[0], state.tokens[1] + 1)
    # For a token of the echo's owner 107.2 says nothing: no clash.
    assert not alone.clashes("echo_spirit_to_creator", state._replace(waiting=echo_for_p1 + 1), CONCRETE)


#: P1's Arcane Sanctum gives the intelligence P1's Arcane Study requires (106.3); P2 may silence it.
SANCTUM = table_of({0: ["Arcane Sanctum"], 1: ["Silencing Rune"]}, 8, named=({"Arcane Study": 1}, {}))


def test_a_silenced_sanctum_gives_no_point_where_108_3_would_keep_it() -> None:
    """H12: Silencing Rune takes Arcane Sanctum's abilities (109.3); its text
    gives its point as one, while 108.3 lists the attribute values an object
    provides beside its abilities. 004 alone clashes; the model takes the point
    away (assumed:value-as-ability), and without that ruling (108.3 alone)
    the point stays, so Arcane Study can be played."""
    m = build(table=SANCTUM)
    sanctum = m.table.holding("Arcane Sanctum")[0]
    at_priority = first_reached(m, lambda s: m.location_of(s) == "priority" and s.priority == 0)
    state = at_priority._replace(silenced=tuple(e == sanctum for e in range(len(m.table.entities))),
                                 hand_arcane_study=(1, 0))
    alone = m.rulings.only(SEED)
    assert set(alone.explain("provides_attribute_value", state, sanctum).core) == {"silenced", "108.3"}
    study = plays.play_name(0, "Arcane Study")

    def plays_of(machine, s):  # noqa: ANN001, ANN202 - a play that draws is an edge per card it may draw
        return {e.name.split("@")[0] for e, _ in machine.successors(s)}

    assert study not in plays_of(m, state)
    assert study in plays_of(m, at_priority._replace(hand_arcane_study=(1, 0)))
    assert study in plays_of(build(table=SANCTUM, without=("silenced",)), state)


def test_no_reading_comment_is_left_unnamed() -> None:
    names = set(build(table=default_table(7)).rulings.declared)
    for path in (Path(__file__).resolve().parent.parent / "model" / "hota").glob("*.py"):
        for line in path.read_text().splitlines():
            found = re.search(r"#\s*Reading\b(.*)", line)
            if found:
                named = re.match(r"\s*\((\w+)\):", found.group(1))
                assert named and named.group(1) in names, (path.name, line)


# -- questions read off 004 section by section -------------------------------------------------------


def test_without_its_principles_004_alone_clashes_over_aegis_and_gatekeeper() -> None:
    """H1: what 004's own principles decide.  Without 101.1's concession
    exception (or 104.2a's override) 101.2 puts Aegis (or Gatekeeper) first;
    without 101.2 as well 004 alone clashes, its core the exception and the
    card; with all of them it answers as the exceptions say.

    H8: the override meets Gatekeeper only where a leaver's Gatekeeper stays
    on the battlefield, which 004 never rules out; the model's
    assumed:leaver-objects takes it away (below), so the questions are asked
    of the model without that assumption."""
    m = build(table=GOLDEN, without=("leaver-objects",))
    state = next(s for s in reachable_states(vector.explore(m)) if m.location_of(s) == "priority")
    alone = state._replace(lost=(False, True))  # P2 has left: P1, whose opponent holds Gatekeeper, stands alone
    for exception, question, s, why, core in (
        ("101.1-concession", "loses_game", state, CONCESSION, {"104.3a", "aegis"}),
        ("104.2a-override", "wins_game", alone, LAST_STANDING, {"104.2a", "gatekeeper"}),
    ):
        book = m.rulings.only(SEED)
        assert not book.clashes(question, s, CONCRETE, 0, why) and book.answer(question, s, CONCRETE, 0, why)
        cant_wins = m.rulings.without((exception,)).only(SEED)
        assert not cant_wins.clashes(question, s, CONCRETE, 0, why) and not cant_wins.answer(question, s, CONCRETE, 0, why)
        undecided = m.rulings.without((exception, "101.2")).only(SEED)
        assert undecided.clashes(question, s, CONCRETE, 0, why)
        assert set(undecided.explain(question, s, 0, why).core) == core
    # With assumed:leaver-objects P2's Gatekeeper has left with P2: P1 wins by
    # 104.2a with no override to need, and the Gatekeeper's ruling is silent.
    model = build(table=GOLDEN)
    assert model.rulings.without(("104.2a-override",)).answer("wins_game", alone, CONCRETE, 0, LAST_STANDING)
    assert not model.rulings.clashes("wins_game", alone, CONCRETE, 0, LAST_STANDING)


def test_104_3b_speaks_of_a_starting_life_limit_that_004_never_defines(default: vector.VectorExploration, default_states: list) -> None:
    """H7: 104.3b's "starting life limit" is read as 103.3's starting life, 30: a gap."""
    m, book = default.machine, default.machine.rulings
    assert book.questions["starting_life_total"].fixed and book.fixed("starting_life_total") == 30
    checks = [s for s in default_states if m.location_of(s) == "check"]
    assert checks and not any(book.speaks("starting_life_total", s, CONCRETE) for s in checks)
    s = checks[0]
    # P2 holds Aegis on the default table: only P1 loses by damage at the limit.
    assert book.answer("loses_game", s._replace(damage=(30, 29)), CONCRETE, 0, DAMAGE)
    assert not book.answer("loses_game", s._replace(damage=(29, 30)), CONCRETE, 0, DAMAGE)


def test_004_never_says_when_state_actions_are_checked(tokens: vector.VectorExploration) -> None:
    """109.5f-g make tokens vanish at a check of state actions, which 004 never
    places; the model's one check is it (assumed:priority-check): a gap."""
    m, book = tokens.machine, tokens.machine.rulings
    assert book.fixed("state_actions_at_check") is True
    checks = [s for s in reachable_states(tokens) if m.location_of(s) == "check"]
    assert not any(book.speaks("state_actions_at_check", s, CONCRETE) for s in checks)
    away = [s for s in checks if any(s.tokens_elsewhere)]
    assert away
    for s in away:
        assert all(t.tokens_elsewhere == (0, 0) for e, t in m.successors(s) if e.has("priority_check"))


def test_104_3e_and_104_4a_settle_an_outcome_as_the_text_says() -> None:
    """A player who wins and loses at once loses (104.3e); players who all lose at
    once draw (104.4a).  Both are asked once, and 004 answers them."""
    m = build(table=GOLDEN)
    book = m.rulings
    assert book.fixed("wins_and_loses_at_once") is True and book.fixed("all_lose_at_once") is True
    priority = [s for s in reachable_states(vector.explore(m)) if m.location_of(s) == "priority"]
    assert all(book.speaks(q, s, CONCRETE) for q in ("wins_and_loses_at_once", "all_lose_at_once") for s in priority)
    # Twin Fates on its own controller: P2 wins and loses at once, so loses, and P1 stands alone (104.2a).
    fates = [t for s in priority for edge, t in m.successors(s) if edge.name == "p2_twin_fates_on_p2"]
    assert fates and all(t.lost == (False, True) and t.won == (True, False) for t in fates)
    # Both players mulliganed from an empty library (a deck of seven): both lose
    # at the first check, with no Aegis on the table, a draw for both.
    d = build(table=table_of({0: ["Ember Bolt"]}, 7))
    both = [s for s in reachable_states(vector.explore(d)) if d.location_of(s) == "check" and s.drew_from_empty == (True, True)]
    assert both
    for s in both:
        [(edge, t)] = [(e, t) for e, t in d.successors(s) if e.has("priority_check")]
        assert edge.name == "priority_check_ends_game" and t.drew == (True, True) and t.lost == (False, False)


# -- 104.4a's draw against the losses of 104.3b-c -----------------------------------------------------


def _losing(book: RuleBook, exploration: vector.VectorExploration) -> tuple[list[object], list[object]]:
    """The checks reached where both players lose at once, and those where one does."""
    m = exploration.machine
    checks = [s for s in reachable_states(exploration) if m.location_of(s) == "check"]
    losers = [(s, [loses_at_check(book, s, CONCRETE, p) for p in (0, 1)]) for s in checks]
    return [s for s, lose in losers if all(lose)], [s for s, lose in losers if sum(lose) == 1]


def test_004_does_not_say_whether_the_draw_of_104_4a_replaces_the_losses(default: vector.VectorExploration) -> None:
    """104.3b-c say each player loses, 104.4a that the game is a draw, and
    nothing in 004 says which is their result: 004 alone clashes at every check
    of the default table where both lose at once (P2 silenced its own Aegis);
    the model declares the draw, and the check gives both a draw and no loss."""
    m, book = default.machine, default.machine.rulings
    both, one = _losing(book, default)
    assert both and one
    alone = book.only(SEED)
    assert "draw-replaces-loss" not in alone.in_force
    for s in both:
        assert alone.clashes("draw_replaces_losses", s, CONCRETE)
        assert book.answer("draw_replaces_losses", s, CONCRETE) and not book.clashes("draw_replaces_losses", s, CONCRETE)
        [t] = [t for e, t in m.successors(s) if e.has("priority_check")]
        assert t.drew == (True, True) and t.lost == (False, False) and t.won == (False, False)
    assert set(alone.explain("draw_replaces_losses", both[0]).core) == {"104.3b-c", "104.4a"}
    # Where one player loses, no draw arises: 104.4a's own case, not a clash or a gap.
    assert not any(alone.clashes("draw_replaces_losses", s, CONCRETE) for s in one)
    assert all(book.speaks("draw_replaces_losses", s, CONCRETE) for s in one)


def test_without_the_draw_replacing_the_losses_both_players_lose_and_draw() -> None:
    """The model's one-result reading matters: without it the clash leaves both
    players with a loss and a draw (a deck of seven: both mulligan from an empty library)."""
    table = table_of({0: ["Ember Bolt"]}, 7)
    found = vector.check(vector.explore(build(table=table, without=("draw-replaces-loss",))),
                         PROPERTIES["game_outcome_well_defined"])
    assert found.verdict == "violated"
    assert found.counterexample.steps[-1].edge == "priority_check_ends_game"
    assert vector.check(vector.explore(build(table=table)), PROPERTIES["game_outcome_well_defined"]).verdict != "violated"


# -- H7: what damage dealt to a player does --------------------------------------------------------------


def test_004_never_says_that_damage_dealt_to_a_player_puts_markers_on_them() -> None:
    """104.3b counts damage markers and 103.3 gives 30 life, but no rule of
    100-109 says what damage does: only the assumption marks the Bolt's target,
    and without it no damage is ever marked."""
    m = build(table=GOLDEN)
    book = m.rulings
    assert book.questions["damage_becomes_markers"].fixed and book.fixed("damage_becomes_markers") is True
    priority = [s for s in reachable_states(vector.explore(m)) if m.location_of(s) == "priority"]
    assert priority and not any(book.speaks("damage_becomes_markers", s, CONCRETE) for s in priority)
    bolts = [(s, t) for s in priority for e, t in m.successors(s) if e.name == "p2_ember_bolt_on_p1"]
    assert bolts and all(t.damage[0] == min(s.damage[0] + 10, 30) for s, t in bolts)
    unmarked = build(table=GOLDEN, without=("damage-markers",))
    assert unmarked.rulings.fixed("damage_becomes_markers") is False
    assert all(s.damage == (0, 0) for s in reachable_states(vector.explore(unmarked)))


def test_lint_reports_the_new_clash_and_gap_of_004(default: vector.VectorExploration) -> None:
    """What lint's comparison of the texts finds on the default table for the two questions."""
    found = source_lint.lint_sources(default.machine, None, 100_000, 100_000,
                                     questions={"draw_replaces_losses", "damage_becomes_markers"})
    assert found.complete
    keys = {f.key for f in found.findings}
    assert keys == {"self-clash:draw_replaces_losses:004:104.3b-c+104.4a", "gap:damage_becomes_markers"}
    clash = next(f for f in found.findings if f.kind == "self-clash")
    # Its shortest game ends at a check where both players lose at once.
    last = clash.transcript.replay(default.machine)[-1]
    assert all(loses_at_check(default.machine.rulings, last, CONCRETE, p) for p in (0, 1))


# -- 104.2a at a table of more than two ------------------------------------------------------------------


def _wins_clash(m) -> list[tuple[object, int]]:  # noqa: ANN001
    """Where 004 alone clashes on whether a player wins as the last one standing."""
    alone = m.rulings.only(SEED)
    return [(s, p) for s in reachable_states(vector.explore(m)) if m.location_of(s) in ("check", "priority", "game_over")
            for p in range(len(s.won)) if alone.clashes("wins_game", s, CONCRETE, p, LAST_STANDING)]


def test_104_2a_read_word_for_word_clashes_with_play_going_on_at_three_players() -> None:
    """104.2a makes a player win once "their opponent" has left; 104.4a and
    104.5 let play go on after a player leaves. At two players they never meet;
    at three, 004 alone clashes wherever one player has left and two play on,
    and the model declares that the win waits for the last opponent."""
    assert not _wins_clash(build(table=table_of({0: ["Ember Bolt", "Gatekeeper"]}, 7)))
    m = build(table=table_of({0: ["Ember Bolt"]}, 7, 3))
    book = m.rulings
    alone = book.only(SEED)
    assert "last-opponent" in book.in_force and "last-opponent" not in alone.in_force
    states = [s for s in reachable_states(vector.explore(m)) if m.location_of(s) in ("check", "priority")]
    one_left = [(s, p) for s in states for p in range(3)
                if not (s.lost[p] or s.drew[p]) and sum(s.lost[q] or s.drew[q] for q in range(3)) == 1]
    assert one_left
    for s, p in one_left:
        assert alone.clashes("wins_game", s, CONCRETE, p, LAST_STANDING)
        assert not book.answer("wins_game", s, CONCRETE, p, LAST_STANDING)
    assert set(alone.explain("wins_game", one_left[0][0], one_left[0][1], LAST_STANDING).core) == {"104.2a", "game-goes-on"}
    # Where nobody has left, neither ruling speaks of a win; the game has not ended.
    assert not any(alone.clashes("wins_game", s, CONCRETE, p, LAST_STANDING)
                   for s in states if not any(s.lost) and not any(s.drew) for p in range(3))


def test_004_says_who_chooses_after_the_active_player_only_with_one_defending_player() -> None:
    """101.4: the active player chooses, then "the defending player". With two
    defending players still to choose, 004 names neither: the model's seat
    order answers alone (a gap at three players); with one left, 004 names it."""
    m = build(table=table_of({0: ["Council of Elders"]}, 8, 3), mulligan=0)
    book = m.rulings
    start = next(m.initial_states())
    council = start._replace(location=m.location_index["council"], first=0, active=0, priority=0, library=(0, 1, 1),
                             hand=(8, 7, 7), used=(True,), chooser=1, picked=(1, -1, -1), answer=(1, -1, -1))
    assert not any(book.speaks("chooses_next", council, CONCRETE, p) for p in (1, 2))
    assert [book.answer("chooses_next", council, CONCRETE, p) for p in range(3)] == [False, True, False]
    # P2 accepts after choosing a card: P3, the one defending player left to choose, is named by 004.
    chosen = council._replace(picked=(1, 1, -1))
    [after] = [t for e, t in m.successors(chosen) if e.name == "council_accepts"]
    assert after.chooser == 2 and all(book.speaks("chooses_next", after, CONCRETE, p) for p in range(3))
    # At two players 004 names every chooser: the active player, then the other.
    two = build(table=table_of({0: ["Council of Elders"]}, 8), mulligan=0)
    first = next(two.initial_states())._replace(location=two.location_index["council"], first=0, active=0,
                                                priority=0, hand=(8, 7), used=(True,), chooser=0)
    for picked, answer in (((-1, -1), (-1, -1)), ((1, -1), (1, -1)), ((1, 1), (1, -1))):
        s = first._replace(picked=picked, answer=answer)
        assert all(two.rulings.speaks("chooses_next", s, CONCRETE, p) for p in range(2))


def test_004_says_who_declares_a_mulligan_after_the_first_player_only_with_one_opponent() -> None:
    """103.4: the first player declares, then "their opponent". With two
    opponents yet to declare, 004 names neither (a gap at three players); the
    model goes on in seat order from the first player."""
    m = build(table=table_of({0: ["Ember Bolt"]}, 8, 3), mulligan=0)
    book = m.rulings
    start = next(m.initial_states())._replace(location=m.location_index["mulligan"], first=1, library=(1, 1, 1),
                                              hand=(7, 7, 7))
    assert [book.answer("declares_next", start, CONCRETE, p) for p in range(3)] == [False, True, False]
    assert all(book.speaks("declares_next", start, CONCRETE, p) for p in range(3))
    [after] = [t for e, t in m.successors(start) if e.name == "declare_mulligan_0"]
    assert after.declared == (-1, 0, -1)
    assert not any(book.speaks("declares_next", after, CONCRETE, p) for p in (0, 2))
    [last] = [t for e, t in m.successors(after) if e.name == "declare_mulligan_0"]
    assert last.declared == (-1, 0, 0) and all(book.speaks("declares_next", last, CONCRETE, p) for p in range(3))


def test_004_names_nobody_to_begin_the_first_turn_once_the_first_player_has_left() -> None:
    """103.5: the first player begins the first turn. At three players P1,
    the first player, concedes during the mulligans (104.3a): 004 names
    nobody, and the model's assumption gives the turn to P2, next in seat
    order, as no first player's first turn."""
    m = build(players=3)
    book = m.rulings
    (start,) = list(m.initial_states())
    at_mulligan = start._replace(location=m.location_index["mulligan"], first=0, hand=(7, 7, 7), library=(0, 0, 0),
                                 declared=(-1, 0, 0))
    assert [book.answer("takes_first_turn", at_mulligan, CONCRETE, p) for p in range(3)] == [True, False, False]
    assert all(book.speaks("takes_first_turn", at_mulligan, CONCRETE, p) for p in range(3))
    left = at_mulligan._replace(lost=(True, False, False))
    assert not any(book.speaks("takes_first_turn", left, CONCRETE, p) for p in (1, 2))
    assert [book.answer("takes_first_turn", left, CONCRETE, p) for p in range(3)] == [False, True, False]
    ((edge, after),) = [(e, post) for e, post in m.successors(left) if e.name == "perform_mulligans"]
    assert (after.active, after.first_turn) == (1, False)
    # At two players nobody leaves before the first turn and 103.5 alone answers.
    two = build().rulings.questions["takes_first_turn"]
    assert {r.id for r in two.rulings} == {"103.5", "103.5-others"}


def test_004_never_says_what_destroying_a_token_does() -> None:
    """Culling Field destroys the token that entered; no rule of 100-109 says
    destroying moves it off the battlefield. Only by the model's assumption
    (assumed:destroy) does it leave, and only then does Echo Chamber trigger."""
    loop = table_of({0: ["Spirit Caller", "Culling Field"], 1: ["Echo Chamber"]}, 7)
    for without, leaves in (((), True), (("destroy-moves",), False)):
        m = build(table=loop, loop_rule=False, without=without)
        (start,) = list(m.initial_states())
        s = start._replace(location=m.location_index["triggers"], first=0, active=0, priority=0, mulligan_done=True,
                           hand=(7, 7), library=(0, 0), tokens=(1, 0), waiting=0)
        assert not m.rulings.speaks("destroyed_token_leaves", s, CONCRETE)
        assert m.rulings.answer("destroyed_token_leaves", s, CONCRETE) is leaves
        ((edge, after),) = [(e, post) for e, post in m.successors(s) if e.name == "culling_field_destroys"]
        assert (after.tokens, after.tokens_elsewhere != (0, 0), after.waiting != -1) == (((0, 0), True, True) if leaves
                                                                                      else ((1, 0), False, False))


def test_101_3_omits_the_impossible_return_alone_where_no_effect_would_keep_the_token() -> None:
    """101.3 omits an impossible action, and says that where the card gives no
    way to handle it, it has no effect. Rewind Portal's return is impossible
    (109.5g): 004 alone clashes over whether the exile is still done. The model
    exiles the token, which Echo Chamber sees leave (assumed:impossible-action-only);
    read as the whole instruction's, the Portal does nothing."""
    table = table_of({0: ["Spirit Caller", "Rewind Portal"], 1: ["Echo Chamber"]}, 7)
    m = build(table=table)
    (start,) = list(m.initial_states())
    s = start._replace(location=m.location_index["priority"], first=0, active=0, priority=0, mulligan_done=True,
                       hand=(7, 7), library=(0, 0), tokens=(1, 0))
    alone = m.rulings.only(SEED)
    assert set(alone.explain("omits_only_the_impossible_action", s).core) == {"101.3-omit", "101.3-no-effect"}
    assert m.rulings.answer("omits_only_the_impossible_action", s, CONCRETE) is True
    # Without a token to exile nothing is asked of 101.3: no clash.
    assert not alone.clashes("omits_only_the_impossible_action", s._replace(tokens=(0, 0)), CONCRETE)
    for without, exiled in (((), True), (("101.3-omit",), False)):
        ((after,),) = [[post for e, post in build(table=table, without=without).successors(s) if e.name == "p1_rewind_portal"]]
        assert (after.tokens, after.tokens_elsewhere, after.waiting != -1) == (
            ((0, 0), (1, 0), True) if exiled else ((1, 0), (0, 0), False))


def test_103_5a_two_player_game_by_seats_or_by_the_players_still_in_it() -> None:
    """103.5a skips the first draw "in a two-player game". At three seats, with
    one player gone before the first turn, 004 alone clashes: by the seats it
    is no two-player game, by the players still in it it is. The model counts
    seats (assumed:two-player-by-seats), so the first player draws; counted by
    the players still in, they would skip it. At two seats the readings agree."""
    m = build(players=3)
    (start,) = list(m.initial_states())
    s = start._replace(location=m.location_index["draw_step"], first=0, active=0, first_turn=True, mulligan_done=True,
                       hand=(7, 7, 0), library=(1, 1, 7), lost=(False, False, True))
    alone = m.rulings.only(SEED)
    assert set(alone.explain("two_player_game", s).core) == {"seats", "players-in-the-game"}
    assert not alone.clashes("two_player_game", s._replace(lost=(False, False, False)), CONCRETE)
    for without, draws in (((), True), (("seats",), False)):
        names = {e.name for e, _ in build(players=3, without=without).successors(s)}
        assert ("draw_for_turn" in names, "skip_first_draw" in names) == (draws, not draws)
    assert {r.id for r in build().rulings.questions["two_player_game"].rulings} == {"seats"}


def test_103_4_declares_a_count_and_then_sets_aside_any_number() -> None:
    """103.4: each player declares how many cards they will mulligan, and a
    mulligan sets aside any number of cards. 004 alone clashes for a player who
    declared a mulligan; the model sets aside the declared count
    (assumed:declared-mulligan-count)."""
    m = build(mulligan=1)
    (start,) = list(m.initial_states())
    s = start._replace(location=m.location_index["mulligan"], first=0, hand=(7, 7), library=(0, 3), declared=(1, 0))
    alone = m.rulings.only(SEED)
    assert alone.clashes("mulligan_as_declared", s, CONCRETE, 0)
    assert not alone.clashes("mulligan_as_declared", s, CONCRETE, 1)
    assert m.rulings.answer("mulligan_as_declared", s, CONCRETE, 0) is True
    ((after,),) = [[post for e, post in m.successors(s) if e.name.startswith("perform_mulligans")]]
    # P1 sets aside the one card declared and draws none from an empty library (104.3c).
    assert (after.hand, after.library, after.drew_from_empty) == ((6, 7), (1, 3), (True, False))
