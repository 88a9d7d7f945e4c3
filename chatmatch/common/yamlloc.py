"""Load YAML safely and remember the line of every key, for ``file:line: key.path`` errors."""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from chatmatch.common.safeio import read_text_bounded, why_unreadable
from chatmatch.common.yamlwords import plain_yaml_error
from chatmatch.errors import ConfigError


@dataclass(frozen=True)
class LocatedYaml:
    """Parsed YAML data plus the 1-based line of each key path."""

    data: Any
    file: str
    lines: dict[tuple[Any, ...], int] = field(default_factory=dict)

    def line_of(self, path: Sequence[Any]) -> int:
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
        text = read_text_bounded(p, MAX_YAML_BYTES)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise ConfigError(f"the file is larger than {MAX_YAML_BYTES // 2**20} MiB, the most "
                              "chatmatch reads as YAML; is this really a tournament or ranking "
                              "file? (long seed lists belong in a seed file, long texts in files "
                              "the bots read)", file=name) from None
        raise ConfigError(f"cannot read the file ({why_unreadable(exc)})", file=name) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text (bad byte at offset {exc.start}); save the file "
                          "as UTF-8", file=name) from None
    return parse_located_yaml(text, name)


#: largest YAML file a user gives (a tournament of a thousand bots with parameters is under
#: 1 MiB); refused by its size before parsing, which takes seconds a MiB
MAX_YAML_BYTES = 2**20
#: largest ``config.yaml`` of a run directory (it also holds a seed file's utterances)
MAX_STORED_YAML_BYTES = 8 * 2**20
#: deepest nesting of lists and mappings accepted (PyYAML composes recursively: a document
#: nested thousands of levels deep would end in a RecursionError)
MAX_DEPTH = 100
#: most nodes a document may stand for once every alias is expanded (a "billion laughs"
#: document of nested aliases stands for billions; a tournament file for a few hundred)
MAX_EXPANDED_NODES = 100_000


def compose_checked(text: str, name: str, error: type[ConfigError] = ConfigError) -> yaml.Node | None:
    """``yaml.compose`` (safe loader) that refuses, with ``file:line:``, documents nested
    deeper than :data:`MAX_DEPTH`, recursive aliases, and aliases that expand beyond
    :data:`MAX_EXPANDED_NODES` nodes, instead of hanging or overflowing the stack."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=yaml.SafeLoader):  # iterative: safe on any depth
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise error(f"nested more than {MAX_DEPTH} levels deep; flatten the "
                                "document", file=name,
                                line=event.start_mark.line + 1 if event.start_mark else None)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        context = getattr(exc, "context", None) or ""
        if isinstance(exc, yaml.composer.ComposerError) and "single document" in context:
            mark = getattr(exc, "problem_mark", None)
            raise error(f"invalid YAML: {context}, {getattr(exc, 'problem', '')} (a line '---' "
                        "starts a second one; keep one document per file)", file=name,
                        line=mark.line + 1 if mark is not None else None) from None
        msg, line = plain_yaml_error(exc, text)
        raise error(msg, file=name, line=line) from None
    if node is not None:
        _check_expansion(node, name, error)
    return node


def _check_expansion(root: yaml.Node, name: str, error: type[ConfigError]) -> None:
    """Count the nodes the document stands for with every alias expanded (memoised per
    node, so this is linear in the document's size) and refuse recursive aliases."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    # iterative post-order walk: (node, children visited?)
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node)
            sizes[key] = 1 + sum(sizes[id(c)] for c in children)
            if sizes[key] > MAX_EXPANDED_NODES:
                raise error(f"YAML aliases (*name) expand this document beyond "
                            f"{MAX_EXPANDED_NODES} values; write the values out instead of "
                            "nesting aliases", file=name, line=node.start_mark.line + 1)
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise error("a YAML alias refers to a node that contains it (a recursive "
                        "structure); remove the alias", file=name, line=node.start_mark.line + 1)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in sizes)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [x for pair in node.value for x in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


#: ``duplicate(path, key, first_line, line)``: called for a key that appears twice in the
#: mapping at ``path``; it may raise an error of its own (else the generic one is raised)
OnDuplicate = Callable[[tuple[Any, ...], str, int, int], None]


def parse_located_yaml(text: str, name: str = "<string>", *,
                       error: type[ConfigError] = ConfigError,
                       empty: str = "the file is empty; it needs at least a 'bots' list",
                       duplicate: OnDuplicate | None = None) -> LocatedYaml:
    """Parse ``text`` and record the line of every key path; every problem is an
    ``error`` (``file:line: message``); ``empty``: the message for an empty document."""
    node = compose_checked(text, name, error)
    if node is None:
        raise error(empty, file=name, line=1)
    lines: dict[tuple[Any, ...], int] = {(): node.start_mark.line + 1}
    _Walker(name, error, duplicate, lines).walk(node, ())
    try:
        data = yaml.safe_load(text)
    except RecursionError:  # not reached after compose_checked; kept as a last guard
        raise error(f"nested too deeply (more than {MAX_DEPTH} levels)", file=name) from None
    except yaml.YAMLError as exc:  # composes but does not construct (e.g. bad tag)
        msg, line = plain_yaml_error(exc, text)
        raise error(msg, file=name, line=line) from None
    return LocatedYaml(data=data, file=name, lines=lines)


@dataclass
class _Walker:
    """Records the line of every key path. An aliased node is walked once (its first
    place), so nested aliases cost nothing here."""

    name: str
    error: type[ConfigError]
    duplicate: OnDuplicate | None
    lines: dict[tuple[Any, ...], int]
    visited: set[int] = field(default_factory=set)

    def walk(self, node: yaml.Node, path: tuple[Any, ...]) -> None:
        if id(node) in self.visited:
            return
        self.visited.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, value_node in node.value:
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    dotted = ".".join(str(p) for p in path) or "top level"
                    kind = "list" if isinstance(key_node, yaml.SequenceNode) else "mapping"
                    raise self.error(f"a key must be plain text, not a {kind} (in {dotted}); "
                                     "write the key as text", file=self.name, line=line)
                key = key_node.value
                if key in seen:
                    if self.duplicate is not None:
                        self.duplicate(path, key, self.lines[(*path, key)], line)
                    dotted = ".".join(str(p) for p in (*path, key))
                    raise self.error(f"key '{key}' appears twice in the same mapping; keep one",
                                     file=self.name, line=line, path=dotted)
                seen.add(key)
                self.lines[(*path, key)] = line
                self.walk(value_node, (*path, key))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.lines[(*path, i)] = item.start_mark.line + 1
                self.walk(item, (*path, i))
