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
# play without its card's powers, 410.1b: Observer's Shield placed there);
# renewed again when six cards joined it (a power watching a card being dealt
# damage, one watching its controller discard, an attachment's own "when
# destroyed", a destroy-an-ability, an ally that can't be destroyed, a hero
# losing dual wield), after checking that the old pool still gives the old rows;
# renewed again when six cards joined it (Readiness, Nalonae's alternate cost,
# a quest with a reward, bear form, Berserker Stance, a prevention lasting
# the turn), after checking that the old pool still gives the old rows.
PINNED = [
    (2, 0, 744, ["lost", "won"], "2315af9427500a16d7c4aa24d534ded8"),
    (2, 1, 847, ["won", "lost"], "b759b6b0a38d7755d3da64d0f344a6a4"),
    (2, 2, 649, ["lost", "won"], "b431c7e1bdb53803b90821e7b4ce3be0"),
    (2, 3, 839, ["won", "lost"], "82ea433375b93d14ab68296752d1c8fd"),
    (2, 4, 467, ["won", "lost"], "87b3c70116b79b6ab81d6a68b2d0a20c"),
    (3, 0, 1472, ["lost", "lost", "won"], "758c2168d87c165d3e7f1b754b75b0e0"),
    (4, 0, 3463, ["lost", "won", "lost", "lost"], "6e02f38b7ed47e7da1d5bb19100d3e60"),
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
