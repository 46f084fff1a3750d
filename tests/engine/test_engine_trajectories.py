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
# renewed again when twenty-four cards joined it (totems, modifiers, prevention,
# zone moves), after checking that the old pool still gives the old rows (the
# 3- and 4-player ones changed with the fix that a face-down resource enters
# play without its card's powers, 410.1b: Observer's Shield placed there).
PINNED = [
    (2, 0, 667, ["won", "lost"], "168c6c0e1ee4046c09e8a63842434726"),
    (2, 1, 947, ["won", "lost"], "81a10a4c2ec44aafcb7c63688076d684"),
    (2, 2, 767, ["drew", "drew"], "a733390125b4728d551f283687616afc"),
    (2, 3, 641, ["won", "lost"], "1e10c96a6f95658329c91534b956b5e6"),
    (2, 4, 904, ["lost", "won"], "f1fe7c40e410ba09326222cdaab373e1"),
    (3, 0, 1662, ["lost", "won", "lost"], "589691c2c6fe6dd3d69c8d7ba6e1d2f6"),
    (4, 0, 1582, ["lost", "lost", "won", "lost"], "f26a0bc6217745cf3941fc840832868a"),
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
