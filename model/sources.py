"""The rule texts a ruling can cite, and where a citation points.

Each game's rulings name the texts that state them (``Ruling.texts``): a
source id and the line or lines of its words, so that a reader, ``chainproof
lint`` and a code-scanning tool can all open the rulebook where the ruling
comes from.  A source is one text in one language: the bilingual combat
rules (``002``) are two sources, its English and its Chinese, in one file.

Line counts are kept here as data, so that a citation past the end of its
file is refused when a model is built, whether or not the texts themselves
are at hand (``tests/test_sources.py`` holds the counts to the files).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping


class SourceError(ValueError):
    """A ruling or question cites a source or a place that does not exist."""


@dataclass(frozen=True)
class Source:
    id: str
    #: The file that holds it, and the folder beside the project it is in.
    file: str
    folder: str
    #: Lines as ``grep -n`` counts them: split at line feeds only (the
    #: reference's form feeds do not start lines).
    lines: int
    title: str
    language: str
    #: The rule sections (hundreds such as 409 or 600) the text sets out to
    #: hold, as ranges of section numbers: an excerpt's gap is no fault of
    #: the text, but a rule missing inside these ranges is.  Empty for a
    #: text that numbers no rules.
    covers: tuple[tuple[int, int], ...] = ()
    #: The first line of its numbered rules: the contents before it list
    #: section numbers that are not rules' own headings.
    rules_from: int = 1

    def covers_rule(self, rule: str) -> bool:
        """Does the text set out to hold the rule numbered ``rule`` (``412.3b``)?"""
        section = int(rule.partition(".")[0])
        return any(first <= section <= last for first, last in self.covers)

    def cites_as(self, rule: str) -> str:
        """How the project cites this text's rule ``rule``: the reference's
        numbers carry its id (``CR7.4 709.1``), the seeds' are bare."""
        return f"{self.id} {rule}" if self.folder == _REFERENCE else rule

    def place(self, at: str) -> str:
        """``file:line`` (or ``file:first-last``) for a citation ``at`` of this source."""
        return f"{self.file}:{at}"


_SEEDS, _REFERENCE = "seeds", "reference"

#: Every text, by id.  The precedence among them is a game's declared reading
#: (``model/<game>/rulings.py``), never this order.
SOURCES: Mapping[str, Source] = {
    s.id: s
    for s in (
        # The seeds' README says which sections each holds; 000's contents list 700-803 too, with no text.
        Source("000", "000_93427c41005e332f.txt", _SEEDS, 494, "WoW TCG comprehensive rules, seed translation", "zh",
               covers=((100, 105), (300, 307), (400, 413), (500, 503), (600, 603)), rules_from=90),
        Source("001", "001_bb13bfcb78a9b116.txt", _SEEDS, 331, "WoW TCG encyclopedia and basic rules", "zh"),
        Source("002en", "002_747842af486db20b.txt", _SEEDS, 159, "WoW TCG combat rules 600-603, English", "en", covers=((600, 603),)),
        Source("002zh", "002_747842af486db20b.txt", _SEEDS, 159, "WoW TCG combat rules 600-603, Chinese", "zh", covers=((600, 603),)),
        Source("CR7.4", "wowtcg-comprehensive-rules-7.4.txt", _REFERENCE, 4268, "WoW TCG Comprehensive Rules 7.4", "en",
               covers=((100, 104), (200, 206), (300, 306), (400, 415), (500, 503), (600, 603), (700, 719), (800, 803)), rules_from=53),
        Source("003", "003_04f893fe0d5f9a25.txt", _SEEDS, 110, "Riftbound combat rules", "zh"),
        # Its heading 110 closes the file with no rule under it.
        Source("004", "004_1df466d0e3555139.txt", _SEEDS, 236, "Heroes of Ancients general rules", "zh", covers=((100, 109),), rules_from=79),
    )
}

#: The texts each game's rulings may cite.
GAME_SOURCES: Mapping[str, tuple[str, ...]] = {
    "wowtcg": ("000", "001", "002en", "002zh", "CR7.4"),
    "riftbound": ("003",),
    "hota": ("004",),
}

_AT = re.compile(r"^([1-9][0-9]*)(?:-([1-9][0-9]*))?$")


def line_span(at: str) -> tuple[int, int]:
    """The first and last line of a citation ``"12"`` or ``"12-14"``."""
    m = _AT.match(at)
    if m is None:
        raise SourceError(f"{at!r} is not a line or a range of lines such as 12 or 12-14")
    first = int(m.group(1))
    last = int(m.group(2) or first)
    if last < first:
        raise SourceError(f"the range {at!r} ends before it starts")
    return first, last


def check_texts(game: str, texts: Mapping[str, str], who: str) -> None:
    """Refuse an unknown source, or a place past the end of its file, in the
    texts of ``who`` (a ruling or a question's default, for the message)."""
    allowed = GAME_SOURCES.get(game)
    if allowed is None:
        raise SourceError(f"{who}: no sources are declared for the game {game!r}")
    for source, at in texts.items():
        if source not in allowed:
            raise SourceError(f"{who}: unknown source {source!r} for {game}; sources: {', '.join(allowed)}")
        try:
            _, last = line_span(at)
        except SourceError as exc:
            raise SourceError(f"{who}: {source}: {exc}") from None
        text = SOURCES[source]
        if last > text.lines:
            raise SourceError(f"{who}: {text.file}:{at} is past the end of the file ({text.lines} lines)")


def texts_folder() -> Path | None:
    """Where the rule texts are: ``$CHAINPROOF_TEXTS`` (a folder holding
    ``seeds/`` and ``reference/``), else ``shared/`` beside the project; None
    when neither is there (citations are still checked against the counts).
    A folder named by ``$CHAINPROOF_TEXTS`` without ``seeds/`` is a mistake to
    report, not texts that are absent: the checks that read them would be
    skipped in silence."""
    given = os.environ.get("CHAINPROOF_TEXTS")
    if given:
        if not (Path(given) / _SEEDS).is_dir():
            raise SourceError(f"CHAINPROOF_TEXTS={given}: no folder {_SEEDS}/ there; it names the folder that holds {_SEEDS}/ and {_REFERENCE}/")
        return Path(given)
    beside = Path(__file__).resolve().parent.parent.parent / "shared"
    return beside if (beside / _SEEDS).is_dir() else None


def path_of(source: str) -> Path | None:
    """The file of ``source`` on this machine, if the texts are at hand."""
    folder = texts_folder()
    if folder is None:
        return None
    path = folder / SOURCES[source].folder / SOURCES[source].file
    return path if path.is_file() else None


@lru_cache(maxsize=len(SOURCES))
def lines_of(source: str) -> tuple[str, ...] | None:
    """``source``'s lines as ``grep -n`` counts them, or None when its file is
    not at hand.  A file that is not this text (not UTF-8, cut short, another
    edition) is refused, since every citation's line would then point elsewhere."""
    path = path_of(source)
    if path is None:
        return None
    expected = SOURCES[source].lines
    try:
        lines = tuple(path.read_text(encoding="utf-8").split("\n"))
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not UTF-8 text (byte {exc.start}), so not the rule text {source}") from None
    except OSError as exc:
        raise SourceError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(lines) != expected:
        got = f"{len(lines)} line{'s' if len(lines) != 1 else ''}"
        raise SourceError(f"{path}: {got} where the rule text {source} has {expected}: not the text the rules cite")
    return lines


def place(source: str, at: str) -> str:
    """``file:line`` for a citation."""
    return SOURCES[source].place(at)
