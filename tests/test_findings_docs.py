"""The findings pages (``docs/findings-GAME.md``), written by ``chainproof
lint --markdown docs`` from lint's findings and each game's known-findings
file: its ``documented`` entries, their validation, and how a page shows them.

That each committed page is what lint writes is checked against the one lint
run of the suite, in ``tests/test_lint.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chainproof import lint_report
from chainproof.cli import main
from chainproof.games import GAME_NAMES, get_game
from chainproof.linting import KINDS, Documented, Finding, KnownFile, Lint, default_known_file, load_known

ROOT = Path(__file__).parent.parent


def page(game: str) -> str:
    return (ROOT / "docs" / f"findings-{game}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_documented_entry_has_a_status_on_its_page(game: str):
    """Under each entry's heading: the findings that reproduce it, or why none
    does; an entry that names findings is reproduced at lint's default bounds."""
    text = page(game).splitlines()
    documented = load_known(default_known_file(game)).documented
    assert documented
    for d in documented:
        heading = text.index(f"### {d.id}. {d.title}")
        status = text[heading + 2]
        if d.shown_by:
            assert status.startswith("Reproduced by `"), (d.id, status)
        else:
            assert status == f"Not shown by lint. {d.not_shown[0].upper()}{d.not_shown[1:]}.", d.id


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_shown_by_names_a_kind_of_finding_lint_reports(game: str):
    """A key starts with its kind; a variant's key names a variant the game ships."""
    variants = get_game(game).variants
    for d in load_known(default_known_file(game)).documented:
        for prefix in d.shown_by:
            kind, colon, rest = prefix.partition(":")
            assert colon and kind in KINDS, (d.id, prefix)
            if kind == "variant":
                assert rest in variants, (d.id, prefix)


def test_the_documented_entries_keep_the_pages_order_and_ids():
    """One entry per section heading's item, numbered within its letter, none lost."""
    wow = load_known(default_known_file("wowtcg")).documented
    assert [d.id for d in wow][:3] == ["T1", "T2", "T3"] and wow[-1].id == "G2" and len(wow) == 56
    numbers: dict[str, list[int]] = {}
    for d in wow:
        numbers.setdefault(d.id[0], []).append(int(d.id[1:]))
    assert all(n == list(range(1, len(n) + 1)) for n in numbers.values()), numbers
    # R9 was folded into R3, the reading it follows from; an id is never given again.
    assert [d.id for d in load_known(default_known_file("riftbound")).documented] == [f"R{i}" for i in (*range(1, 9), *range(10, 17))]
    assert [d.id for d in load_known(default_known_file("hota")).documented] == [f"H{i}" for i in range(1, 16)]


def test_the_page_puts_each_entry_under_its_section_with_its_status():
    entries = (
        Documented("A1", "Alpha", "shown", "the note of A1", shown_by=("variant:x",)),
        Documented("A2", "Alpha", "asked elsewhere", "the note of A2", shown_by=("gap:elsewhere",)),
        Documented("B1", "Beta", "not shown", "the note of B1", not_shown="not modelled: healing"),
    )
    known = KnownFile(ROOT / "model" / "hota" / "known_findings.yaml", {}, "A title", "The intro.", entries, "- nothing else")
    found = Lint([
        Finding("hota", "variant", "variant:x", ("101.1",), "x parts", known=True, note="read"),
        Finding("hota", "gap", "gap:other", ("101.2",), "nobody answers"),
        Finding("wowtcg", "gap", "gap:elsewhere", ("600.2",), "another game's"),
    ])
    text = lint_report.markdown(found, "hota", known)
    lines = text.splitlines()
    assert lines[0] == "# A title" and "`model/hota/known_findings.yaml`" in lines[2]
    assert "Lint found 2 findings (1 gap, 1 variant); they reproduce 1 of the 3 entries below." in text
    order = [lines.index(x) for x in (
        "The intro.", "## Alpha", "### A1. shown", "Reproduced by `variant:x`.", "#### `variant:x`", "Note: read",
        "#### Reading notes", "the note of A1", "### A2. asked elsewhere",
        "Not reproduced by this run: no finding's key starts with `gap:elsewhere`.", "## Beta", "### B1. not shown",
        "Not shown by lint. Not modelled: healing.", "the note of B1", "## Findings no entry claims", "### `gap:other`",
        "- Known: no (lint fails until the known-findings file lists it)", "## Not confirmed", "- nothing else",
    )]
    assert order == sorted(order)
    assert "variant:x" not in text[text.index("## Findings no entry claims"):]


def test_without_a_known_file_the_page_lists_every_finding():
    found = Lint([Finding("hota", "gap", "gap:other", ("101.2",), "nobody answers")])
    text = lint_report.markdown(found, "hota", None)
    assert text.startswith("# Findings of `chainproof lint` for hota\n")
    assert "lint's findings and no known-findings file" in text and "### `gap:other`" in text


GOOD = "  - {id: X1, section: S, title: T, note: N, not_shown: why}\n"


@pytest.mark.parametrize(
    "items, message",
    [
        ("  - {section: S, title: T, note: N, not_shown: why}\n", "documented item 1 needs a string 'id'"),
        (GOOD + "  - {id: X2, section: S, title: T, note: N}\n", "documented item 2 (X2) needs either 'shown_by'"),
        (
            "  - {id: X1, section: S, title: T, note: N, not_shown: why, shown_by: ['gap:a']}\n",
            "documented item 1 (X1) needs either 'shown_by' (the findings' key prefixes) or 'not_shown' (why no finding shows it), not both",
        ),
        ("  - {id: X1, section: S, title: T, note: N, not_shown: why, status: done}\n", "documented item 1 (X1): unknown key 'status'"),
        ("  - {id: X1, section: S, title: T, note: N, shown_by: ['in_combat:001']}\n", "documented item 1 (X1): shown_by 'in_combat:001' is no finding key's prefix"),
        ("  - {id: X1, section: S, title: T, note: N, shown_by: 'gap:a'}\n", "documented item 1 (X1): 'shown_by' must be a list"),
        ("  - {id: X1, section: S, title: T, note: N, not_shown: ''}\n", "documented item 1 (X1): 'not_shown' must say why"),
        (GOOD + GOOD, "documented item 2 (X1): the id 'X1' is listed twice"),
        ("  - just text\n", "documented item 1 must be a mapping"),
    ],
)
def test_a_malformed_documented_item_is_bad_input_naming_the_file_and_the_item(tmp_path: Path, items: str, message: str):
    known = tmp_path / "known.yaml"
    known.write_text("known: []\ndocumented:\n" + items, encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", "--known", str(known)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"chainproof: error: {known}: ") and message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_an_unknown_top_level_key_is_bad_input(tmp_path: Path):
    known = tmp_path / "known.yaml"
    known.write_text("known: []\nnotes: x\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", "--known", str(known)])
    assert result.exit_code == 2 and "unknown key 'notes'" in result.stderr
