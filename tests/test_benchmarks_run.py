"""``python -m benchmarks.run`` writes its own section of RESULTS.md and names
the search each explicit-exploration target measures; nothing here is timed
(the rows are made up, so no search runs)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import run
from benchmarks.engine import update

OTHERS = (
    "<!-- benchmarks.engine: begin -->\n## Reference engine\n\n| a | b |\n<!-- benchmarks.engine: end -->\n\n"
    "<!-- benchmarks.lint: begin -->\n## Lint\ntext  with  spaces \n<!-- benchmarks.lint: end -->\n"
)


def _row(states: int, seconds: float) -> run.ExplicitRow:
    return run.ExplicitRow(states=states, transitions=states + 20, levels=12, seconds=seconds, peak_mib=1.5)


def _section(quick: bool, vector: run.ExplicitRow, reference: run.ExplicitRow) -> str:
    turn = run.BMCRun("turn-only", len(run.TURN_PROPERTIES), {**run.DEFAULTS, **run.TURN_ONLY}, 30, 180.0,
                      {k: 0.1 * k for k in range(31)}, ["holds-to-depth"], True)
    return run.render(quick, {"vector": vector, "reference": reference}, [("Turns", [("turns=2 (default)", vector)])], [turn])


def test_the_section_replaces_only_the_text_between_its_markers(tmp_path: Path):
    results = tmp_path / "RESULTS.md"
    head = "# Benchmarks\n\nEach section is written by its own command.\n\n"
    results.write_text(head + f"{run.BEGIN}\nold figures\n{run.END}\n\n" + OTHERS)
    section = _section(True, _row(100, 0.001), _row(100, 0.01))
    assert section.startswith(run.BEGIN + "\n") and section.endswith(run.END + "\n")
    update(results, section, run.BEGIN, run.END)
    assert results.read_text() == head + section + "\n" + OTHERS
    # Written again, it replaces itself: nothing is appended.
    update(results, section, run.BEGIN, run.END)
    assert results.read_text() == head + section + "\n" + OTHERS


def test_each_search_has_its_own_target_row():
    section = _section(False, _row(150_000, 0.5), _row(150_000, 8.0))
    rows = [line for line in section.splitlines() if line.startswith("| Explicit exploration above")]
    assert len(rows) == 2
    vector_row, reference_row = rows
    assert "`checkers/vector.py`" in vector_row and "verify --method explicit" in vector_row
    assert vector_row.endswith("| 300,000 states/s | met |")
    assert "`checkers/explicit.py`" in reference_row and "reference" in reference_row
    assert reference_row.endswith("| 18,750 states/s | not met |")
    assert "Both find the same states, transitions and levels." in section


def test_searches_that_find_different_states_are_called_out():
    section = _section(True, _row(100, 0.001), _row(101, 0.01))
    assert "**The two searches disagree on the states, transitions or levels.**" in section
