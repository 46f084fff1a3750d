"""Playing the WoW engine by action labels, as the engine tests do."""

from __future__ import annotations

import pytest

from engine.wowtcg import Action


def labels(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def act(st, label: str, nth: int = 0) -> Action:
    """Apply the `nth` legal action whose label is `label` (two copies of a
    card in hand offer it twice, alike); fail listing the legal labels when
    there is none."""
    found = [a for a in st.legal_actions() if str(a) == label]
    if len(found) <= nth:
        pytest.fail(f"{label!r} is not legal here; legal: {labels(st)}\n{st}")
    st.apply_action(found[nth])
    return found[nth]


def everyone_passes(st) -> None:
    """Each player in the game passes once, starting with the priority holder:
    the top link resolves, or the window closes (409.4a-b)."""
    for _ in range(st.in_game_count()):
        assert st.decision is None and st.priority is not None, f"nobody holds priority:\n{st}"
        act(st, f"P{st.priority + 1} passes")
