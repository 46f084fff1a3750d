"""Lint's findings as files other tools read: SARIF 2.1.0 for code-scanning
tools (each finding located at the rule text it concerns), and Markdown, one
page per game, with each finding's note from the known-findings file.

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
    "conflict": "two live rulings answer one question differently under the model's reading, and no precedence rule decides",
    "source-clash": "two source texts answer one question differently in a reachable state",
    "self-clash": "two rulings of one source text answer one question differently in a reachable state, and nothing in that text decides",
    "gap": "a reachable state where a question is asked and no text answers it",
    "dead-ruling": "a ruling that applies in no reachable state where its question is asked",
    "no-assignment": "a configuration with no legal assignment",
    "exclusion": "requirements that exclude each other",
    "loop": "a loop of mandatory actions",
    "dead-edge": "a transition never enabled in a game of any length",
    "dead-rule": "a rule cited only by transitions that are never enabled",
    "variant": "a shipped reading of the rules parts from the model's",
}

_FILE_OF = {s.file: s for s in SOURCES.values()}


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
    text = (Path(__file__).resolve().parent.parent / path).read_text(encoding="utf-8").splitlines()
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
                "properties": {"game": f.game, "key": f.key, "rules": list(f.rules), "sources": list(f.sources), "known": f.known},
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


def markdown(found: linting.Lint, game: str) -> str:
    """One game's findings as a Markdown page: what the tool found, where the
    texts say it, the note the team keeps for it, and the shortest game."""
    mine = [f for f in found.findings if f.game == game]
    lines = [
        f"# Findings of `chainproof lint` for {game}",
        "",
        "Written by `chainproof lint --markdown`: edit the notes in the known-findings file, not this page.",
        "",
    ]
    counts = {k: sum(1 for f in mine if f.kind == k) for k in linting.KINDS}
    lines.append(", ".join(f"{n} {k}" for k, n in counts.items() if n) or "No findings.")
    for f in mine:
        lines += ["", f"## {f.key}", "", f"- Kind: {f.kind} ({KIND_DOCS.get(f.kind, '')})", f"- Rules: {' '.join(f.rules) or '-'}"]
        if f.places:
            lines.append(f"- Texts: {', '.join(f'`{p}`' for p in f.places)}")
        lines.append(f"- Status: {'known' if f.known else 'new'}")
        lines += ["", f.summary]
        if f.note:
            lines += ["", f"Note: {f.note}"]
        if f.transcript is not None:
            lines += ["", "```", *f.transcript.lines(), "```"]
        if f.other is not None:
            lines += ["", f"Under {f.key.removeprefix('variant:')}:", "", "```", *f.other.lines(), "```"]
        if f.parted is not None:
            lines += ["", f"Under {f.reading}, play parts here:", "", "```", *f.parted[1].lines(), "```"]
    return "\n".join(lines) + "\n"
