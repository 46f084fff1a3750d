"""YAML from files a user hands over: scenarios, known findings, rule registries.

PyYAML's safe loader runs no code, but it still trusts the shape of a file: a
few kilobytes nested a thousand levels deep overflow the composer's recursion,
and a few hundred bytes of anchors and aliases expand to billions of values
when the document is built.  So a file is checked before it is built:

- its size, against ``MAX_BYTES``;
- how deep its mappings and sequences nest, on the event stream (which PyYAML
  parses without recursion), against ``MAX_DEPTH``;
- how many values it holds once every alias is expanded, against
  ``MAX_VALUES``, counted on the composed node graph, where an alias is one
  shared node;
- how long its numbers are, against ``MAX_DIGITS``.

Each breach is a ``YamlRefused`` with the line it starts at; callers put their
own file name and error class around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

#: Far above any rulebook file the project ships (the largest is about 60 KB).
MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_VALUES = 100_000
#: Longer than any count a rulebook holds, and within what Python converts.
MAX_DIGITS = 1_000
_INT_TAG = "tag:yaml.org,2002:int"

#: libyaml's parser where PyYAML was built with it: the same events and nodes,
#: with their lines, about ten times faster than the pure-Python one.
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlRefused(Exception):
    """A document that is not YAML, or that breaks one of the limits above."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def compose(text: str) -> yaml.Node | None:
    """The node graph of ``text``, checked against the limits; None for an empty document."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise YamlRefused(None, f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        node = _compose(text, FAST_LOADER)
    except yaml.YAMLError:
        # libyaml words its errors otherwise and stops deep nesting by a limit
        # of its own, so a refused file is read again by the pure-Python parser,
        # whose line and reason are the ones reported.
        try:
            node = _compose(text, yaml.SafeLoader)
        except yaml.YAMLError as exc:
            raise YamlRefused(*_located(exc)) from None
    if node is not None:
        _check_expansion(node)
    return node


def _compose(text: str, loader: type) -> yaml.Node | None:
    """The node graph of ``text`` by ``loader``, once its nesting is seen to
    stay within ``MAX_DEPTH`` on the event stream (parsed without recursion)."""
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlRefused(event.start_mark.line + 1, f"mappings and lists nest more than {MAX_DEPTH} levels deep")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return yaml.compose(text, Loader=loader)


def special_file(path: Path) -> bool:
    """A device or a pipe where a file is wanted: /dev/zero never ends, and a
    pipe with no writer never opens, so neither is read at all."""
    return path.exists() and not path.is_file() and not path.is_dir()


def read_text(path: Path) -> str:
    """The UTF-8 text of the file at ``path``, read no further than
    ``MAX_BYTES``: OSError and UnicodeDecodeError as ``Path.read_text`` raises
    them, ``YamlRefused`` for a file past the size limit or not a file at all."""
    if special_file(path):
        raise YamlRefused(None, "not a regular file (a device or a pipe)")
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise YamlRefused(None, f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    return data.decode("utf-8")


def compose_file(path: Path) -> yaml.Node | None:
    """``compose`` of the file at ``path``; a file that cannot be read, or is
    not UTF-8 text, is refused too (with no line)."""
    try:
        text = read_text(path)
    except OSError as exc:
        raise YamlRefused(None, f"cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise YamlRefused(None, "the file is not UTF-8 text") from None
    return compose(text)


def load(text: str) -> Any:
    """The Python value of ``text`` (safe types only), checked against the limits."""
    node = compose(text)
    if node is None:
        return None
    try:
        return yaml.SafeLoader("").construct_document(node)
    except yaml.YAMLError as exc:
        raise YamlRefused(*_located(exc)) from None


def _located(exc: yaml.YAMLError) -> tuple[int | None, str]:
    """The line and a one-line reason of a PyYAML error."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context, start = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and start is not None and mark is not None and start.line != mark.line:
        problem += f" ({context} that starts at line {start.line + 1})"
    return (mark.line + 1 if mark else None), f"not valid YAML: {problem}"


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a graph whose aliases expand to more than ``MAX_VALUES`` values.

    Sizes are counted once per node (an alias shares its anchor's node), so
    the count costs the size of the file, not of its expansion.  Nesting is
    already bounded by ``MAX_DEPTH``, so the recursion is too."""
    sizes: dict[int, int] = {}
    inside: set[int] = set()

    def size(node: yaml.Node) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        if id(node) in inside:
            raise YamlRefused(node.start_mark.line + 1, "an alias refers to the value it is part of")
        inside.add(id(node))
        if isinstance(node, yaml.MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(v) for v in node.value)
        else:
            total = 1
            if node.tag == _INT_TAG and len(node.value) > MAX_DIGITS:
                # Python refuses to read so long a number into an int (a guard
                # against quadratic conversion), which would surface as an
                # internal error with no line.
                raise YamlRefused(node.start_mark.line + 1, f"a number with more than {MAX_DIGITS:,} digits")
        if total > MAX_VALUES:
            raise YamlRefused(
                node.start_mark.line + 1,
                f"its anchors and aliases expand to more than {MAX_VALUES:,} values",
            )
        inside.discard(id(node))
        sizes[id(node)] = total
        return total

    size(root)
