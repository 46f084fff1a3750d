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

    def place(self, at: str) -> str:
        """``file:line`` (or ``file:first-last``) for a citation ``at`` of this source."""
        return f"{self.file}:{at}"


_SEEDS, _REFERENCE = "seeds", "reference"

#: Every text, by id.  The precedence among them is a game's declared reading
#: (``model/<game>/rulings.py``), never this order.
SOURCES: Mapping[str, Source] = {
    s.id: s
    for s in (
        Source("000", "000_93427c41005e332f.txt", _SEEDS, 494, "WoW TCG comprehensive rules, seed translation", "zh"),
        Source("001", "001_bb13bfcb78a9b116.txt", _SEEDS, 331, "WoW TCG encyclopedia and basic rules", "zh"),
        Source("002en", "002_747842af486db20b.txt", _SEEDS, 159, "WoW TCG combat rules 600-603, English", "en"),
        Source("002zh", "002_747842af486db20b.txt", _SEEDS, 159, "WoW TCG combat rules 600-603, Chinese", "zh"),
        Source("CR7.4", "wowtcg-comprehensive-rules-7.4.txt", _REFERENCE, 4268, "WoW TCG Comprehensive Rules 7.4", "en"),
        Source("003", "003_04f893fe0d5f9a25.txt", _SEEDS, 110, "Riftbound combat rules", "zh"),
        Source("004", "004_1df466d0e3555139.txt", _SEEDS, 236, "Heroes of Ancients general rules", "zh"),
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
    when neither is there (citations are still checked against the counts)."""
    given = os.environ.get("CHAINPROOF_TEXTS")
    candidates = [Path(given)] if given else [Path(__file__).resolve().parent.parent.parent / "shared"]
    for folder in candidates:
        if (folder / _SEEDS).is_dir():
            return folder
    return None


def path_of(source: str) -> Path | None:
    """The file of ``source`` on this machine, if the texts are at hand."""
    folder = texts_folder()
    if folder is None:
        return None
    path = folder / SOURCES[source].folder / SOURCES[source].file
    return path if path.is_file() else None


def place(source: str, at: str) -> str:
    """``file:line`` for a citation."""
    return SOURCES[source].place(at)
