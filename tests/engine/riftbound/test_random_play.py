"""Random playouts of the Riftbound engine, in the OpenSpiel spirit: random
tables from `random_setup`, uniformly random legal actions until the game is
over or a step cap, with the invariants below checked after every step.

- Every state returned waits for the current player's choice: legal actions
  exist and all belong to `current_player()` (or the game is over and none do).
- combat.two-players: no battlefield ever holds units of three players, and a
  combat has two different players.
- Roles exist only in a combat, at its battlefield, matching the unit's owner
  (showdown.unit-roles); after every cleanup in a combat no unit of its two
  players stands there without a role (showdown.late-roles). Buffs only in a combat.
- The step and the combat agree: "cleanup" iff combats are pending and none
  is running; "showdown"/"chain"/"damage" iff a combat runs; in the action phase no
  battlefield is contested (assumed:uncontested-control) and none pending.
- A chain is on the table only while a player with a reaction left is asked
  to act on it (step "chain", assumed:chain-reactions), and only in a
  showdown, which is closed then and open otherwise (showdown.closed);
  without reactions at the table no game ever stops on a chain.
- No unit outside the trash holds lethal damage, and damage is never left
  marked between actions (resolution.clear-damage; nothing else deals damage).
- Points never go down and only through a first conquest of a battlefield in
  the turn (resolution.conquer); spells and reactions never go below 0; units are neither
  created nor lost.
- The observation is what `to_dict` promises, and `clone()` is independent.
"""

from __future__ import annotations

import random

import pytest

from engine.riftbound import IllegalAction, RiftboundGame
from engine.riftbound.game import MAX_TURNS

STEP_CAP = 250


class Where:
    """The failure message, built only when an assertion fails."""

    def __init__(self, st, seed: int, step: int):
        self.st, self.seed, self.step = st, seed, step

    def __repr__(self) -> str:
        return f"seed {self.seed}, step {self.step}\n{self.st}\n" + "\n".join(self.st.history[-10:])


def check(st, before: dict | None, seed: int, step: int) -> None:
    d = st.to_dict()
    where = Where(st, seed, step)
    acts = st.legal_actions()
    if st.is_terminal() and d["winner"] is None:
        # assumed:turn-cap: a game nobody won ends at the cap, every player at 0.
        assert not acts and d["turn"] > st.max_turns and "turn cap" in st.history[-1], where
        assert st.current_player() == -4 and st.returns() == [0.0] * st.num_players
    elif st.is_terminal():
        assert not acts and d["step"] == "game_over", where
        assert st.current_player() == -4 and sorted(st.returns()) == [-1.0] * (st.num_players - 1) + [1.0]
    else:
        assert acts, where
        assert all(a.player == st.current_player() for a in acts), where
        assert len({st.action_label(a) for a in acts}) == len(acts), ("two actions share a label", where)
    for bf in range(len(d["battlefields"])):
        owners = {x["owner"] for x in d["units"] if x["zone"] == "battlefield" and x["battlefield"] == bf}
        assert len(owners) <= 2, where
    c = d["combat"]
    if d["step"] in ("showdown", "chain", "damage"):
        assert c is not None and c["attacker"] != c["defender"], where
        assert d["to_choose"] == []
        assert c["closed"] == (d["step"] == "chain"), where
    else:
        assert c is None, where
    assert (d["step"] == "chain") == bool(d["chain"]), where
    if d["step"] == "chain":
        assert d["reactions"][st.current_player()] > 0, where
    assert (d["step"] == "cleanup") == bool(d["to_choose"]), where
    if d["step"] == "action":
        assert all(b["contested_by"] is None for b in d["battlefields"]), where
    sapper = any(u.card.name == "Spark Sapper" and u.zone != "hand" for u in st.units)
    for x in d["units"]:
        if x["role"] is not None:
            assert c is not None and x["zone"] == "battlefield" and x["battlefield"] == c["battlefield"], where
            assert x["owner"] == (c["attacker"] if x["role"] == "attacker" else c["defender"]), where
        if c is not None and x["zone"] == "battlefield" and x["battlefield"] == c["battlefield"]:
            assert x["role"] is not None, ("a unit without a role in the combat", where)
        if x["buffed"]:
            assert c is not None, where
        # Damage outside the damage step comes only from Spark Sapper (assumed:here-trigger)
        # and is never lethal there: the cleanup after its spell destroys (assumed:destroy-lethal).
        assert x["damage"] == 0 or (sapper and 0 < x["damage"] < x["might"]), where
        assert (x["zone"] == "battlefield") == (x["battlefield"] is not None), where
    assert all(s >= 0 for s in d["spells"] + d["reactions"])
    if before is not None:
        assert len(d["units"]) == len(before["units"])
        assert [x["id"] for x in d["units"]] == [x["id"] for x in before["units"]]
        for p, (old, new) in enumerate(zip(before["points"], d["points"])):
            assert new in (old, old + 1, old + 2, old + 3), where
            if new > old and d["turn"] == before["turn"]:
                newly = sum(d["scored"][p]) - sum(before["scored"][p])
                assert newly == new - old, ("a point without a first conquest", where)


def play(game: RiftboundGame, seed: int, reactions: bool) -> tuple[int, bool]:
    rng = random.Random(seed)
    st = game.new_initial_state(game.random_setup(rng, reactions))
    before = None
    for step in range(STEP_CAP):
        check(st, before, seed, step)
        if st.is_terminal():
            return step, True
        before = st.to_dict()
        acts = st.legal_actions()
        action = rng.choice(acts)
        if step % 10 == 0:  # clone independence
            twin = st.clone()
            twin.apply_action(action)
            assert st.to_dict() == before
        st.apply_action(action)
    return STEP_CAP, False


@pytest.mark.parametrize("players, games, reactions", [(2, 200, False), (3, 120, False), (2, 100, True), (3, 60, True)])
def test_random_games_keep_the_invariants(players, games, reactions):
    game = RiftboundGame(players=players, victory_points=4)
    ended = sum(play(game, seed, reactions)[1] for seed in range(games))
    # Units stay at the battlefields they reach, so many random games stall
    # (ending turns to the step cap); enough of them end to exercise victory.
    assert ended >= games // 20, f"only {ended} of {games} games ended"


def test_random_games_reach_every_kind_of_action_and_step():
    kinds, steps = set(), set()
    for players in (2, 3):
        game = RiftboundGame(players=players, victory_points=4)
        for seed in range(80):
            rng = random.Random(seed)
            # Reactions on one table in four: the others never stop on a chain.
            st = game.new_initial_state(game.random_setup(rng, reactions=seed % 4 == 3))
            for _ in range(STEP_CAP):
                steps.add(st.to_dict()["step"])
                if st.is_terminal():
                    break
                a = rng.choice(st.legal_actions())
                kinds.add(a.kind)
                st.apply_action(a)
    assert kinds == {"move", "end_turn", "start_combat", "pass", "recall", "stun", "move_to_combat", "play", "assign"}
    assert steps == {"action", "cleanup", "showdown", "chain", "damage", "game_over"}


def test_every_offered_action_is_accepted_and_others_are_refused():
    game = RiftboundGame(players=3, victory_points=4)
    for seed in range(30):
        rng = random.Random(seed)
        st = game.new_initial_state(game.random_setup(rng, reactions=seed % 2 == 1))
        for _ in range(60):
            if st.is_terminal():
                break
            acts = st.legal_actions()
            for a in acts:
                st.clone().apply_action(a)
            other = (st.current_player() + 1) % 3
            for a in acts[:3]:
                wrong = type(a)(a.kind, other, a.unit, a.battlefield, a.assignment)
                with pytest.raises(IllegalAction):
                    st.clone().apply_action(wrong)
            st.apply_action(rng.choice(acts))


@pytest.mark.parametrize("players", [2, 3])
def test_with_a_turn_cap_every_random_game_ends(players):
    """assumed:turn-cap: a game still going at the cap ends there with no
    winner, and the invariants hold through it (random games at 4 points take
    up to 13 turns: a cap of 5 ends some of them)."""
    game = RiftboundGame(players=players, victory_points=4, max_turns=5)
    capped = 0
    for seed in range(60):
        rng = random.Random(seed)
        st = game.new_initial_state(game.random_setup(rng))
        before = None
        for step in range(5_000):
            check(st, before, seed, step)
            if st.is_terminal():
                break
            before = st.to_dict()
            st.apply_action(rng.choice(st.legal_actions()))
        assert st.is_terminal(), f"seed {seed}: not over after 5,000 steps and {st.turn} turns"
        capped += st.to_dict()["winner"] is None
    assert capped, "no game reached the cap: the test no longer shows it"


def test_a_table_where_nobody_can_ever_score_ends_at_the_default_cap():
    """No unit and no battlefield held: the seed has no way for this game to
    end (a gap), and without the cap it would go on for ever."""
    st = RiftboundGame(players=2).new_initial_state({"units": [], "battlefields": [{}, {}]})
    while not st.is_terminal():
        (end,) = [a for a in st.legal_actions() if a.kind == "end_turn"]
        st.apply_action(end)
    assert st.turn == MAX_TURNS + 1 and st.to_dict()["winner"] is None and st.points == [0, 0]


def test_an_action_after_the_turn_cap_is_refused_naming_it():
    game = RiftboundGame(players=2, victory_points=4, max_turns=1)
    st = game.new_initial_state({"units": [], "battlefields": [{}, {}]})
    (end,) = [a for a in st.legal_actions() if a.kind == "end_turn"]
    st.apply_action(end)
    assert st.is_terminal() and st.legal_actions() == [] and st.returns() == [0.0, 0.0]
    with pytest.raises(IllegalAction) as refused:
        st.apply_action(end)
    assert "assumed:turn-cap" in str(refused.value) and "reached 1 turns with no winner" in str(refused.value)
