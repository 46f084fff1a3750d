"""When a game's steering searches the model again.

A search for a way to a target family costs more than a checked step, and
one that finds none mostly finds none for a stretch of the game (no spell
in hand, say): after such a search, the game's next one waits ``QUIET`` more
checked steps, doubled after each further search in a row that finds none,
up to ``QUIET << MOST_DOUBLINGS``; the searches between would cover nearly
the same choice points, a step further on.  A search that finds a way
starts the waits again at ``QUIET``.
"""

from __future__ import annotations

QUIET = 4
MOST_DOUBLINGS = 2


class Pace:
    """One game's steps checked and the step before which no search runs."""

    def __init__(self) -> None:
        self.checked = 0  # steps checked in this game
        self.quiet_until = 0  # no search before this many
        self.misses = 0  # searches in a row that found no way

    def may_search(self) -> bool:
        return self.checked >= self.quiet_until

    def searched(self, found: bool) -> None:
        if found:
            self.misses = 0
            return
        self.quiet_until = self.checked + (QUIET << min(self.misses, MOST_DOUBLINGS))
        self.misses += 1
