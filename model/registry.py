"""The rules registry: which rule numbers a game's model covers, and how.

Each game keeps its registry as a YAML file beside its model.  Every entry has a
rule number, a one-line summary in our own words, and a status:

- ``encoded``: cited by an edge, a location or a property;
- ``not-modelled``: deliberately left out, with the reason;
- ``assumed``: our own assumption where the rule text is silent (ids start
  with ``assumed:``), never passed off as a rule; an assumption that only the
  reference engine needs is ``not-modelled``, with why;
- ``abstracted``: what the any-length model (for proofs over games of any
  number of turns) counts coarser than the game does, and why it still has
  every run of the game (ids start with ``abstracted:``);
- ``variant``: encoded only by a rule variant (``model/variants.py``), a
  reading the model does not take by default; ``why`` names the variant.

Rules from the later Comprehensive Rules 7.4 carry the prefix ``CR7.4``; the
basic rules have no numbers, so their sections are ``basic:section-name``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from model import safe_yaml

STATUSES = ("encoded", "not-modelled", "assumed", "abstracted", "variant")
#: Numbered rules (409.4a, CR7.4 709.1), ids of our own (assumed:name), and
#: the ids a rulebook without numbers gives each paragraph (Riftbound:
#: section.topic, where the section is the seed's heading).
_ID = re.compile(r"^(CR7\.4 )?\d{3}(\.\d+[a-z]?)?$|^(assumed|abstracted|basic):[a-z0-9-]+$|^[a-z]+(\.[a-z0-9-]+)+$")


class RegistryError(Exception):
    """The registry file is malformed, or something cites a rule it lacks."""


def read_yaml(path: Path, error: type[Exception], what: str) -> Any:
    """The YAML document in ``path``; ``error`` names the file (and the line of
    a syntax error) when it cannot be read or parsed."""
    try:
        return safe_yaml.load(safe_yaml.read_text(path))
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise error(f"{path}: the {what} is not UTF-8 text") from None
    except safe_yaml.YamlRefused as exc:
        line = f" line {exc.line}" if exc.line else ""
        raise error(f"{path}{line}: {exc.message}") from None


@dataclass(frozen=True)
class Rule:
    id: str
    summary: str
    status: str
    why: str = ""

    @property
    def source(self) -> str:
        if self.id.startswith("CR7.4 "):
            return "CR7.4"
        if self.id.startswith("assumed:"):
            return "assumption"
        if self.id.startswith("abstracted:"):
            return "abstraction"
        if self.id.startswith("basic:"):
            return "basic rules"
        return "seed"

    @property
    def section(self) -> str:
        """The three-digit section a rule belongs to (``409`` for ``409.4a``)."""
        if self.source in ("assumption", "abstraction"):
            return self.status
        if self.source == "basic rules":
            return "basic"
        if not self.id[0].isdigit() and not self.id.startswith("CR7.4"):
            return self.id.split(".", 1)[0]  # a paragraph id: its seed heading
        number = self.id.removeprefix("CR7.4 ")
        return ("CR7.4 " if self.source == "CR7.4" else "") + number[:3]


class Registry:
    def __init__(self, game: str, rules: Iterable[Rule], path: Path | None = None) -> None:
        self.game = game
        self.path = path
        self.rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self.rules:
                raise RegistryError(f"{self._where()}: rule {rule.id} is listed twice")
            self.rules[rule.id] = rule

    def _where(self) -> str:
        return str(self.path) if self.path else f"registry of {self.game}"

    @classmethod
    def load(cls, path: Path) -> "Registry":
        data = read_yaml(path, RegistryError, "rules registry")
        if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
            raise RegistryError(f"{path}: expected a mapping with 'game' and a list 'rules'")
        rules = []
        for i, entry in enumerate(data["rules"], start=1):
            where = f"{path}: rule entry {i}"
            if not isinstance(entry, dict):
                raise RegistryError(f"{where}: expected a mapping, got {entry!r}")
            missing = {"id", "summary", "status"} - set(entry)
            if missing:
                raise RegistryError(f"{where} ({entry.get('id', '?')}): missing {sorted(missing)}")
            rid, status = str(entry["id"]), entry["status"]
            if not _ID.match(rid):
                raise RegistryError(
                    f"{where}: {rid!r} is not a rule number like 409.4a, CR7.4 709.1, basic:name, assumed:name, abstracted:name or section.topic"
                )
            if status not in STATUSES:
                raise RegistryError(f"{where} ({rid}): status {status!r} is not one of {', '.join(STATUSES)}")
            if status != "encoded" and not entry.get("why"):
                raise RegistryError(f"{where} ({rid}): status {status} needs a 'why'")
            for prefixed in ("assumed", "abstracted"):
                # An assumption only the reference engine makes (for a case the
                # model does not reach) is registered as not modelled.
                allowed = (prefixed, "not-modelled") if prefixed == "assumed" else (prefixed,)
                if status == prefixed and not rid.startswith(f"{prefixed}:") or (
                    rid.startswith(f"{prefixed}:") and status not in allowed
                ):
                    raise RegistryError(f"{where} ({rid}): only ids '{prefixed}:...' may have status {prefixed}, and they must")
            rules.append(Rule(rid, str(entry["summary"]), status, str(entry.get("why", ""))))
        return cls(str(data.get("game", path.parent.name)), rules, path)

    def __contains__(self, rule_id: str) -> bool:
        return rule_id in self.rules

    def __getitem__(self, rule_id: str) -> Rule:
        return self.rules[rule_id]

    def require(self, cited: Iterable[str], where: str) -> None:
        """Fail if ``where`` cites a rule the registry lacks or marks not-modelled."""
        for rid in cited:
            rule = self.rules.get(rid)
            if rule is None:
                raise RegistryError(f"{where} cites rule {rid}, which is not in {self._where()}")
            if rule.status == "not-modelled":
                raise RegistryError(f"{where} cites rule {rid}, which {self._where()} marks not-modelled ({rule.why})")

    def uncited(self, cited: set[str]) -> list[Rule]:
        """Rules marked encoded, assumed or abstracted that nothing cites."""
        return [r for r in self.rules.values() if r.status not in ("not-modelled", "variant") and r.id not in cited]

    def by_section(self) -> dict[str, list[Rule]]:
        sections: dict[str, list[Rule]] = {}
        for rule in self.rules.values():
            sections.setdefault(rule.section, []).append(rule)
        return sections
