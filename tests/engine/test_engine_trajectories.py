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
# Kryton Barleybeard joined the pool, so that random decks draw other cards;
# renewed again when sixteen cards joined it (totems, modifiers, prevention,
# zone moves), after checking that the old pool still gives the old rows.
PINNED = [
    (2, 0, 779, ["won", "lost"], "f279a33ead1df2de39b5b0497c198a63"),
    (2, 1, 312, ["won", "lost"], "1757ff81cfdad3e31d75524a183b8bf8"),
    (2, 2, 615, ["lost", "won"], "577ea77c3211f8d006cf28b02b206b9a"),
    (2, 3, 641, ["won", "lost"], "7a41b8822bc6a096a9419fa1728531d9"),
    (2, 4, 711, ["won", "lost"], "3336b03f7af5ee226edc21e9cc31d3b1"),
    (3, 0, 1608, ["lost", "lost", "won"], "bcbfbe44843411053ee78f227abf01bf"),
    (4, 0, 2004, ["lost", "lost", "won", "lost"], "59b7d4d0bdd1fac8fee134105500b949"),
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
