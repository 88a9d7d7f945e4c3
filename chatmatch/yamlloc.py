"""Load YAML safely and remember the line of every key, for ``file:line: key.path`` errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml

from chatmatch.errors import ConfigError


@dataclass(frozen=True)
class LocatedYaml:
    """Parsed YAML data plus the 1-based line of each key path."""

    data: Any
    file: str
    lines: dict[tuple[Any, ...], int] = field(default_factory=dict)

    def line_of(self, path: Sequence[Any]) -> int | None:
        """Line of the deepest known prefix of ``path`` (so a bad nested value still
        points at its nearest enclosing key)."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), 1)


def load_located_yaml(path: str | Path) -> LocatedYaml:
    name = str(path)
    p = Path(path)
    if not p.exists():
        raise ConfigError("file not found; check the path (tournament files usually live in "
                          "tournaments/)", file=name)
    if p.is_dir():
        raise ConfigError("is a directory, expected a YAML file", file=name)
    try:
        text = p.read_text(encoding="utf-8")
    except PermissionError:
        raise ConfigError("cannot read the file (permission denied)", file=name) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text (bad byte at offset {exc.start}); save the file "
                          "as UTF-8", file=name) from None
    except OSError as exc:
        raise ConfigError(f"cannot read the file ({exc.strerror})", file=name) from None
    return parse_located_yaml(text, name)


def parse_located_yaml(text: str, name: str = "<string>") -> LocatedYaml:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"invalid YAML: {problem}", file=name, line=line) from None
    if node is None:
        raise ConfigError("the file is empty; it needs at least a 'bots' list", file=name, line=1)
    lines: dict[tuple[Any, ...], int] = {(): node.start_mark.line + 1}
    _walk(node, (), lines, name)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:  # composes but does not construct (e.g. bad tag)
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(f"invalid YAML: {getattr(exc, 'problem', exc)}", file=name,
                          line=mark.line + 1 if mark else None) from None
    return LocatedYaml(data=data, file=name, lines=lines)


def _walk(node: yaml.Node, path: tuple[Any, ...], lines: dict[tuple[Any, ...], int],
          name: str) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                dotted = ".".join(str(p) for p in (*path, key))
                raise ConfigError(f"key '{key}' appears twice in the same mapping; keep one",
                                  file=name, line=key_node.start_mark.line + 1, path=dotted)
            seen.add(key)
            lines[(*path, key)] = key_node.start_mark.line + 1
            _walk(value_node, (*path, key), lines, name)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[(*path, i)] = item.start_mark.line + 1
            _walk(item, (*path, i), lines, name)
