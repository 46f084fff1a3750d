"""The reference engine's random playouts, pinned: for a few seeds, the
number of steps, each player's result and a digest of every `legal_actions()`
list offered (kinds, players, subjects, targets, X, options and labels, in
order) together with the final `str(state)` and history.

Random play picks `random.Random(seed).choice(legal_actions())`, so any change
to what is offered, in what order, or to what an action does shows here. A
speed-up of the engine must leave these unchanged; a deliberate change of
behaviour (a rule fixed, a label reworded) updates them, and the change of
`legal_actions()` is then visible in review: print the new rows with
`trajectory(players, seed)`.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.wowtcg import WowTcgGame

STEP_CAP = 20_000

# (players, seed, steps, results, digest), recorded with the engine before
# its speed-up (the engine of commit 9f6608b gives the same rows); the digests
# were renewed when the history began to record each damage and healing
# packet dealt (407.2), with the same steps and results.
PINNED = [
    (2, 0, 393, ["won", "lost"], "36de0631aa8ebd63215b9572e96aeb54"),
    (2, 1, 363, ["won", "lost"], "58ac8ef0682ad1e3c12457cfa6853079"),
    (2, 2, 784, ["won", "lost"], "a74ef62d097fb4b263ae8b263893b007"),
    (2, 3, 677, ["lost", "won"], "26e5e98f37b6b4cd7057b0bff99b4013"),
    (2, 4, 778, ["won", "lost"], "862d4c6799b5e86aa0822631dba83e47"),
    (3, 0, 1194, ["lost", "won", "lost"], "329631ff308ef2ca79be39db7fb44f72"),
    (4, 0, 2185, ["drew", "drew", "drew", "lost"], "1d60c138a242dbc2fed152543e332c55"),
]


def trajectory(players: int, seed: int) -> tuple[int, list, str]:
    st = WowTcgGame(players=players).new_initial_state(seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    steps = 0
    while not st.is_terminal() and steps < STEP_CAP:
        actions = st.legal_actions()
        digest.update(f"{st.current_player()}|{actions!r}\n".encode())
        st.apply_action(rng.choice(actions))
        steps += 1
    digest.update(f"{st}\n{st.history}\n{st.returns()}".encode())
    return steps, [p.result for p in st.players], digest.hexdigest()[:32]


@pytest.mark.parametrize(("players", "seed", "steps", "results", "digest"), PINNED)
def test_random_playout_is_unchanged(players, seed, steps, results, digest):
    assert trajectory(players, seed) == (steps, results, digest)
