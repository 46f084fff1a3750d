"""Model transcripts written out as scenarios (scenarios/wowtcg/export.py): the
shortest way to each of a sample of edge families on the engine table replays
in the engine as a passing scenario the model agrees with, and a transcript the
engine can't replay gives one error naming the step, its edge and why."""

from __future__ import annotations

import dataclasses
import re
from collections import deque

import pytest
import z3

from agreement.wowtcg import abstraction as ab
from scenarios.wowtcg import export as export_module
from scenarios.wowtcg.export import ExportError, engine_table, scenario_yaml, table_machine
from model.wowtcg import VARIANTS
from scenarios import runner
from scenarios.wowtcg.adapter import RULE

#: Edge families whose first occurrence is exported: proposals, protection,
#: strikes, sabotage, instant resolutions (tracked and not), proposals
#: interrupted, windows closing, combat damage with and without armor, the
#: pre-priority checks and the game's end, resources, allies, the turn's end,
#: the draw and the end step's discard.
SAMPLE = (
    "propose_combat",
    "resolve_proposal@action_phase",
    "protect",
    "no_protection",
    "strike",
    "conclude_without_combat_damage[sabotage]",
    "resolve_top_link@ready_step",
    "resolve_instant[exhaust proposed attacker]@action_phase",
    "interrupt_proposal@action_phase",
    "resolve_instant[remove attacker from combat]@attack_window",
    "resolve_instant[remove defender from combat]@defend_window",
    "close_window@attack_window[no attacker or defender]",
    "close_window@end_phase",
    "combat_damage[defender's armor]",
    "combat_damage[both armors]",
    "pre_priority_batch",
    "game_ends",
    "place_resource[quest]",
    "resolve_resource@action_phase",
    "resolve_ally@action_phase",
    "end_turn",
    "ready_cards",
    "draw_card[quest]",
    "discard[instant]",
)


def shortest_transcripts(machine, families) -> dict[str, list[str]]:
    """Breadth-first from the table's start: for each family, the shortest
    transcript whose last edge is of that family."""
    start = next(machine.initial_states())
    parent = {start: None}
    queue = deque([start])
    found: dict[str, list[str]] = {}
    while queue and len(found) < len(families):
        s = queue.popleft()
        for edge, post in machine.successors(s):
            family = ab.family(edge.name)
            if family in families and family not in found:
                path, at = [edge.name], s
                while parent[at] is not None:
                    at, name = parent[at]
                    path.append(name)
                found[family] = path[::-1]
            if post not in parent:
                parent[post] = (s, edge.name)
                queue.append(post)
    return found


@pytest.fixture(scope="module")
def shortest() -> dict[str, list[str]]:
    return shortest_transcripts(table_machine(engine_table()), set(SAMPLE))


def run_exported(text: str, tmp_path) -> runner.Result:
    path = tmp_path / "exported.yaml"
    path.write_text(text)
    return runner.run_file(path)


def export(setup, transcript: list[str], what: str) -> str:
    rules = [r for r in table_machine(setup).edge(transcript[-1]).rules if RULE.match(r)]
    return scenario_yaml(setup, transcript, name=f"the shortest way to {what}", rules=rules, source="own: export", summary=f"the model's shortest transcript to {what}, replayed")


def test_the_table_machine_starts_at_the_table_within_its_domains():
    machine = table_machine(engine_table(), turns=3)
    (start,) = machine.initial_states()
    assert machine.location_of(start) == "ready_step" and machine.initial_location == "ready_step"
    assert start.priority_holder == 0 and start.first_turn and start.damage[machine.table.hero(1)] == 24
    assert machine.out_of_bounds(start) == [] and machine.bounds["turns"] == 3
    # Symbolic checkers start there too.
    s = machine.symbolic_state("start")
    solver = z3.Solver()
    solver.add(machine.initial_constraint(s), s.passes != start.passes)
    assert solver.check() == z3.unsat


def test_a_variant_starts_at_the_table_and_other_bounds_are_refused():
    setup = engine_table()
    start = table_machine(setup).start
    for name in VARIANTS:
        machine = table_machine(setup, variant=name)
        assert list(machine.initial_states()) == [start], name
        assert list(machine.with_edges(machine.edges).initial_states()) == [start], name
    with pytest.raises(ExportError, match=r"^table_machine: hand can't be set .* set turns, combats, chain_depth, variant or reading$"):
        table_machine(setup, hand=3)


def test_every_family_of_the_sample_is_reached(shortest):
    assert set(shortest) == set(SAMPLE)


@pytest.mark.parametrize("family", SAMPLE)
def test_the_shortest_way_to_a_family_replays_as_a_passing_scenario(family, shortest, tmp_path):
    transcript = shortest[family]
    text = export(engine_table(), transcript, family)
    result = run_exported(text, tmp_path)
    assert result.status == "pass", f"{result.detail}\n{text}"
    assert result.model.startswith("agrees over"), f"{result.model}\n{text}"
    assert f"# {transcript[0]}" in text and transcript[-1] in text


def test_a_protection_by_the_second_opponent_asked_follows_the_first_ones_decline(tmp_path):
    setup = engine_table(4)
    machine = table_machine(setup)
    edges = {e.name for e in machine.edges}

    def one(prefix: str) -> str:
        (name,) = [e for e in edges if e.startswith(prefix)]
        return name

    passes = lambda window: [f"pass_priority@{window}"] * 3  # noqa: E731
    transcript = (
        passes("ready_step") + ["close_window@ready_step", "skip_first_draw"]
        + [one("propose_combat[P1 Gorrak Bloodfist#0 -> P2 Maelen Frostweave")] + passes("action_phase")
        + ["resolve_proposal@action_phase"] + passes("attack_window") + ["close_window@attack_window"]
        + [one("protect[P4 ")]
    )
    text = export(setup, transcript, "P4's protection")
    assert "- P2 does not protect\n- P4 protects with P4's Stonehide Defender  # protect[P4" in text
    result = run_exported(text, tmp_path)
    assert result.status == "pass" and result.model.startswith("agrees over"), f"{result.detail}\n{text}"


def test_an_edge_that_is_not_enabled_is_named_with_its_step():
    transcript = ["pass_priority@ready_step", "close_window@ready_step", "close_window@draw_step"]
    with pytest.raises(ExportError) as caught:
        export(engine_table(), transcript, "nothing")
    message = str(caught.value)
    assert message.startswith("transcript[2] close_window@draw_step: not enabled in the model here (location draw_step")
    assert "\n" not in message


def test_an_unknown_edge_is_named_with_its_step():
    with pytest.raises(ExportError, match=r"^transcript\[1\] fly_away: no edge of that name in the model of this table$"):
        scenario_yaml(engine_table(), ["pass_priority@ready_step", "fly_away"], name="x", rules=["409.4"], source="own: x", summary="a flight")


def test_a_draw_the_deck_cannot_give_is_named_with_its_step(shortest):
    setup = engine_table()
    # The same counts of cards, so the same model; but P2's deck holds no instant.
    only_quests = dataclasses.replace(setup, decks=(setup.decks[0], ("Scout the Barrens",) * len(setup.decks[1])))
    transcript = shortest["draw_card[quest]"][:-1] + ["draw_card[instant]"]
    i = len(transcript) - 1
    with pytest.raises(ExportError, match=rf"^transcript\[{i}\] draw_card\[instant\]: P2's deck holds no instant card left to draw$"):
        export(only_quests, transcript, "a draw")


def test_an_instant_nobody_can_pay_for_is_named_with_its_step():
    broke = dataclasses.replace(engine_table(), resources=(0, 0))
    with pytest.raises(ExportError, match=r"^transcript\[0\] play_instant@ready_step: P1 can pay for no instant card in hand \(the model has no costs, 402.1\)$"):
        export(broke, ["play_instant@ready_step"], "an instant")


def test_a_replay_that_fails_late_names_the_furthest_step_and_gives_up_in_time(monkeypatch):
    # Two instants leave P1 one resource: the model, which has no costs, lets him strike twice.
    setup = dataclasses.replace(engine_table(), resources=(3, 4))
    machine = table_machine(setup)
    first, second = sorted(e.name for e in machine.edges if e.name.startswith("strike[P1 "))
    (attack,) = [e.name for e in machine.edges if e.name.startswith("propose_combat[P1 Gorrak Bloodfist#0 -> P2 Maelen")]
    transcript = (
        ["play_instant@ready_step"] * 2 + ["pass_priority@ready_step", "resolve_top_link@ready_step"] * 2
        + ["pass_priority@ready_step", "close_window@ready_step", "skip_first_draw"]
        + [attack, "pass_priority@action_phase", "resolve_proposal@action_phase", "pass_priority@attack_window", "close_window@attack_window"]
        + ["no_protection", first, second]
    )
    furthest = rf"^transcript\[16\] {re.escape(second)}: the engine offers no action for it \(legal now: P1 passes\)"
    with pytest.raises(ExportError, match=furthest + "$"):
        export(setup, transcript, "a second strike")
    # Every way of playing the two instants fails the same: the search gives up in time.
    monkeypatch.setattr(export_module, "MOST_TRIES", 50)
    with pytest.raises(ExportError, match=furthest + r" \(gave up after 50 engine actions\)$"):
        export(setup, transcript, "a second strike")
