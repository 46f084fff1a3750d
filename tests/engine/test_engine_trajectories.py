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
# its speed-up (the engine of commit 9f6608b gives the same rows).
PINNED = [
    (2, 0, 393, ["won", "lost"], "81519139a78647710c9e182f2f7d8aea"),
    (2, 1, 363, ["won", "lost"], "dade5b60d5160e3f1c23d23b580cdb09"),
    (2, 2, 784, ["won", "lost"], "1a17030065008d9adc071117dda0abc3"),
    (2, 3, 677, ["lost", "won"], "7576fc9afe04068e51daf28b95cfbb33"),
    (2, 4, 778, ["won", "lost"], "c2534fb7d659fc23de155e93bd9543c6"),
    (3, 0, 1194, ["lost", "won", "lost"], "ab5e1d1d6f49329f7b650aa36f1f1bf5"),
    (4, 0, 2185, ["drew", "drew", "drew", "lost"], "3e29dab8777db7c3725a79d15fda9e77"),
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
