"""`python -m benchmarks.engine --baseline REV`: the WoW engine of another
commit is imported beside the current one, and both play the same seeds in
one process, their games compared seed by seed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import engine as bench
from engine.wowtcg import WowTcgGame

ROOT = Path(__file__).resolve().parents[2]


def _in_git() -> bool:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode == 0
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not _in_git(), reason="needs the git history of a checkout")


def test_the_baseline_is_another_package_that_plays_the_same_seeds():
    against = bench.compare(1, "HEAD")
    baseline = sys.modules[f"engine_at_{against.rev}.wowtcg"]
    assert baseline.WowTcgGame is not WowTcgGame and Path(baseline.__file__).parent != ROOT / "engine" / "wowtcg"
    assert (against.baseline.games, against.current.games) == (1, 1)
    assert against.baseline.steps > 0 and against.current.steps > 0
    # The comparison reads whole games: a game cut short is another game.
    st = WowTcgGame(players=2).new_initial_state(0)
    whole = bench.play(WowTcgGame(players=2), 0, bench.Run())
    assert bench.game_record(st) != bench.game_record(whole)


def test_a_revision_git_does_not_know_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        bench.main(["--games", "1", "--baseline", "no-such-revision-here", "--output", "/dev/null"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --baseline no-such-revision-here: ") and "\n" not in err
