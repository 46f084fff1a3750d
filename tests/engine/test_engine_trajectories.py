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
# renewed again when seventeen cards joined it (totems, modifiers, prevention,
# zone moves), after checking that the old pool still gives the old rows.
PINNED = [
    (2, 0, 664, ["lost", "won"], "cf31d946755c60a61ab599c2ee9e144d"),
    (2, 1, 988, ["won", "lost"], "29663be71a106c7f8426f20616fe39c7"),
    (2, 2, 952, ["lost", "won"], "ac68360ea3878c5824b252d158d7ab8f"),
    (2, 3, 685, ["lost", "won"], "371269cd892a9f77daf25dbbd1c96723"),
    (2, 4, 744, ["won", "lost"], "989631c47ca77884f4f58da20a94fbd4"),
    (3, 0, 1369, ["won", "lost", "lost"], "efce83ae937799f3c0dc13efb0d3be14"),
    (4, 0, 2081, ["lost", "lost", "lost", "won"], "22f416272295f8d616e6419de839be2c"),
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
