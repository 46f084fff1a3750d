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
# packet dealt (407.2), with the same steps and results; all were renewed
# when the first player's first turn lost its draw step window (501.2b):
# the random choices shift from the first turn on; and renewed again when
# Kryton Barleybeard joined the pool, so that random decks draw other cards.
PINNED = [
    (2, 0, 954, ["drew", "drew"], "b5fbc64ba6ec99b15d67a4f48e9852ad"),
    (2, 1, 290, ["won", "lost"], "b84cdf5275cab8a41607367c719da362"),
    (2, 2, 948, ["lost", "won"], "1c5697ba2c03f1f4c4d29ac9bc328a4c"),
    (2, 3, 778, ["lost", "won"], "6f9d1a0def086f0ca9c86789bfe011dc"),
    (2, 4, 484, ["won", "lost"], "705d087ee7515cb83b87569d7983db38"),
    (3, 0, 1419, ["lost", "lost", "won"], "b92fef862199615c1c1eeba31b40083c"),
    (4, 0, 1965, ["lost", "lost", "won", "lost"], "a311f781f7f7a911471328cae422ca3e"),
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
