"""Lint's findings as files other tools read: SARIF 2.1.0 for code-scanning
tools (each finding located at the rule text it concerns), and Markdown, each
game's findings page: the disagreements the team documented in the game's
known-findings file, each with the findings that reproduce it or why none
does, then the findings no entry claims.

A finding that cites rule texts is located at each ``file:line`` (the rule
texts' folder is the base ``RULETEXTS``, so a rules team points it at its
own copy); one that cites none (a deadlock, a gap) is located at its first
rule's entry in the game's registry file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from chainproof import linting
from model.sources import SOURCES, line_span

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

#: What each kind of finding means, for SARIF's rule descriptions.
KIND_DOCS = {
    "deadlock": "a reachable state, not game over, where nobody and no rule can act",
    "unending": "a reachable state from which no continuation ends the game: nobody can ever win",
    "conflict": "two live rulings answer one question differently under the model's reading, and no precedence rule decides",
    "source-clash": "two source texts answer one question differently in a reachable state, or for one setup of the game",
    "self-clash": "two rulings of one source text answer one question differently in a reachable state or for one setup, and nothing in that text decides",
    "gap": "a reachable state, or a setup of the game, where a question is asked and no text answers it",
    "dead-ruling": "a ruling that applies in no reachable state where its question is asked, or to no setup of its domain",
    "no-assignment": "a configuration with no legal assignment",
    "exclusion": "requirements that exclude each other",
    "loop": "a loop of mandatory actions",
    "dead-edge": "a transition never enabled in a game of any length",
    "dead-rule": "a rule cited only by transitions that are never enabled",
    "variant": "a shipped reading of the rules parts from the model's",
    "dangling-reference": "a rule text cites a rule that it does not hold, nor any text of the game that holds that section",
    "misdirected-reference": "a rule text cites one section for words that are another section's title",
    "translation-clash": "the two languages of one rule text state a rule with different numbers or citations",
    "version-clash": "two versions of one rulebook, aligned section by section, state a rule with different numbers or citations",
    "basic-clash": "the basic rules and a comprehensive rule paired with them count one thing (cards, players, phases...) differently, or a list of names lacks one of theirs",
    "self-count": "a text states a count and then lists a different number of the things it counts, or counts one thing with two numbers",
    "glossary-clash": "a glossary entry and the rule it restates count one thing with different figures, or its citation points past that rule (the term is not there, or another rule has the entry's words)",
    "term-clash": "a Chinese rule text renders one game term two ways, or two terms alike, or a rule's Chinese renders another term of the kind its English names, or two translations of one rule name a term differently, or a text's rules write a term of its own term list in other words or lack it",
}

_FILE_OF = {s.file: s for s in SOURCES.values()}
ROOT = Path(__file__).resolve().parent.parent


def _text_location(place: str) -> dict[str, Any]:
    file, _, at = place.rpartition(":")
    first, last = line_span(at)
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": f"{_FILE_OF[file].folder}/{file}", "uriBaseId": "RULETEXTS"},
            "region": {"startLine": first, "endLine": last},
        }
    }


def _registry_location(game: str, rules: Iterable[str]) -> dict[str, Any]:
    path = Path("model") / game / "rules.yaml"
    line = 1
    text = (ROOT / path).read_text(encoding="utf-8").splitlines()
    for rule in rules:
        pattern = re.compile(rf'^\s*-\s*id:\s*"?{re.escape(rule)}"?\s*$')
        hit = next((i for i, row in enumerate(text, start=1) if pattern.match(row)), None)
        if hit is not None:
            line = hit
            break
    return {"physicalLocation": {"artifactLocation": {"uri": path.as_posix(), "uriBaseId": "PROJECT"}, "region": {"startLine": line}}}


def sarif(found: linting.Lint) -> dict[str, Any]:
    """The findings as one SARIF log; a finding already known is a note, a new one a warning."""
    kinds = list(dict.fromkeys(f.kind for f in found.findings))
    results = []
    for f in found.findings:
        locations = [_text_location(p) for p in f.places] or [_registry_location(f.game, f.rules)]
        text = f"{f.game} {f.kind} [{' '.join(f.rules)}]: {f.summary}"
        if f.note:
            text += f" Known: {f.note}"
        results.append(
            {
                "ruleId": f.kind,
                "ruleIndex": kinds.index(f.kind),
                "level": "note" if f.known else "warning",
                "message": {"text": text},
                "locations": locations,
                "partialFingerprints": {"chainproofKey/v1": f"{f.game}:{f.key}"},
                "properties": {
                    "game": f.game, "key": f.key, "rules": list(f.rules), "sources": list(f.sources), "known": f.known,
                    **({"setup": f.setup} if f.setup else {}),
                },
            }
        )
    return {
        "version": "2.1.0",
        "$schema": SARIF_SCHEMA,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "chainproof",
                        "rules": [{"id": k, "shortDescription": {"text": KIND_DOCS.get(k, k)}} for k in kinds],
                    }
                },
                "originalUriBaseIds": {
                    "RULETEXTS": {"description": {"text": "the folder holding the rule texts: seeds/ and reference/"}},
                    "PROJECT": {"description": {"text": "the chainproof project"}},
                },
                "results": results,
            }
        ],
    }


def markdown(found: linting.Lint, game: str, known: linting.KnownFile | None) -> str:
    """One game's findings page: the known-findings file's documented entries
    under their sections, each with the findings that reproduce it (kind,
    rules, texts, note and shortest game) or why none does, and its note;
    then the findings no entry claims, and what could not be confirmed."""
    mine = [f for f in found.findings if f.game == game]
    by_key = {f.key: f for f in mine}
    documented = known.documented if known is not None else ()
    source = f"`{_shown(known.path)}`" if known is not None else "no known-findings file"
    counts = {k: sum(1 for f in mine if f.kind == k) for k in linting.KINDS}
    kinds = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    shown = {d.id: d.shown_in(list(by_key)) for d in documented}
    lines = [
        f"# {known.title if known is not None and known.title else f'Findings of `chainproof lint` for {game}'}",
        "",
        f"Generated by `chainproof lint --markdown` from lint's findings and {source}: "
        "edit the entries, their notes and the findings' notes there, not this page.",
        "",
        (f"Lint found {len(mine)} finding{'s' if len(mine) > 1 else ''} ({kinds})" if mine else "Lint found nothing")
        + (f"; they reproduce {sum(1 for v in shown.values() if v)} of the {len(documented)} entries below." if documented else "."),
    ]
    if known is not None and known.intro:
        lines += ["", known.intro]
    section = None
    for d in documented:
        if d.section != section:
            section = d.section
            lines += ["", f"## {section}"]
        lines += ["", f"### {d.id}. {d.title}", ""]
        if shown[d.id]:
            lines.append(f"Reproduced by {', '.join(f'`{k}`' for k in shown[d.id])}.")
            for k in shown[d.id]:
                lines += ["", f"#### `{k}`", "", *_finding(by_key[k])]
            lines += ["", "#### Reading notes"]
        elif d.shown_by:
            # The entry's findings exist at other bounds, or the rules changed since it was written.
            lines.append(f"Not reproduced by this run: no finding's key starts with {' or '.join(f'`{p}`' for p in d.shown_by)}.")
        else:
            lines.append(f"Not shown by lint. {d.not_shown[0].upper()}{d.not_shown[1:]}.")
        lines += ["", d.note]
    claimed = {k for keys in shown.values() for k in keys}
    others = [f for f in mine if f.key not in claimed]
    if others:
        lines += ["", "## Findings no entry claims", "", "Each with the note the known-findings file keeps for it."]
        for f in others:
            lines += ["", f"### `{f.key}`", "", *_finding(f)]
    if known is not None and known.not_confirmed:
        lines += ["", "## Not confirmed", "", known.not_confirmed]
    return "\n".join(lines) + "\n"


def _finding(f: linting.Finding) -> list[str]:
    """What lint found: its kind, rules and texts, whether it is known, its note and its shortest games."""
    lines = [f"- Kind: {f.kind} ({KIND_DOCS.get(f.kind, '')})", f"- Rules: {' '.join(f.rules) or '-'}"]
    if f.setup:
        lines.append(f"- Setup: {f.setup}")
    if f.places:
        lines.append(f"- Texts: {', '.join(f'`{p}`' for p in f.places)}")
    lines.append(f"- Known: {'yes' if f.known else 'no (lint fails until the known-findings file lists it)'}")
    lines += ["", f.summary]
    if f.note:
        lines += ["", f"Note: {f.note}"]
    if f.transcript is not None:
        lines += ["", "```", *f.transcript.lines(), "```"]
    if f.other is not None:
        lines += ["", f"Under {f.key.removeprefix('variant:')}:", "", "```", *f.other.lines(), "```"]
    if f.parted is not None:
        board = f" on the board where {f.board}" if f.board else ""
        lines += ["", f"Under {f.reading}{board}, play parts here:", "", "```", *f.parted[1].lines(), "```"]
    return lines


def _shown(path: Path) -> str:
    """A file of the project as the project names it; another as given."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()
