"""A YAML syntax error in plain words: what is wrong, at which line, and how to fix it,
instead of PyYAML's parser jargon (``expected <block end>, but found '<block mapping
start>'``). :func:`plain_yaml_error` is used by every reader of a user's YAML file
(:mod:`chatmatch.common.yamlloc`)."""

from __future__ import annotations

import re
from typing import Callable

import yaml

#: (pattern of PyYAML's ``problem``, what it means in plain words, how to fix it); the
#: first pattern that matches wins. ``{char}``, ``{name}``, ``{close}`` and ``{ctx}`` (the
#: line where the construct began) are filled in from the error.
_RULES: tuple[tuple[str, str, str], ...] = (
    (r"found character '\\t'",
     "a tab character; YAML indents with spaces only",
     "replace the tab with spaces"),
    (r"expected <block end>|expected <block mapping start>|did not find expected key"
     r"|did not find expected '-' indicator",
     "the indentation does not line up: this line is indented differently from the other "
     "keys or list items of the block that starts at line {ctx}",
     "indent every key of one mapping (and every '- ' item of one list) by the same "
     "number of spaces"),
    (r"mapping values are not allowed here",
     "a ': ' where no new key can start: either this line is indented deeper than the key "
     "above it, or a value holds ': '",
     "line the key up with its neighbours, or put the value in quotes "
     "(name: \"my bot: the best\")"),
    (r"could not find expected ':'",
     "a key without ':' (the text that starts at line {ctx} never reaches a ': ')",
     "write `key: value`, a colon and a space after the key; a list item starts with '- '"),
    (r"found unexpected end of stream",
     "a quote opened at line {ctx} is never closed",
     "end the text with the same quote it started with"),
    (r"expected ',' or '(?P<close>[\]}])'",
     "a list [ ... ] or mapping {{ ... }} opened at line {ctx} is not closed where expected, "
     "or two of its items lack a ',' between them",
     "close it with '{close}' on the same line or the lines that follow, and separate its "
     "items with ', '"),
    (r"found undefined alias '(?P<name>[^']*)'",
     "'*{name}' refers to an anchor '&{name}' that is not defined above it",
     "define the anchor first, or put a value that starts with '*' in quotes"),
    (r"found unknown escape character '(?P<char>[^']*)'",
     "'\\{char}' is not an escape sequence YAML knows, in a text in double quotes",
     "use single quotes ('C:\\path') or double the backslash (\"C:\\\\path\")"),
    (r"found character '(?P<char>[^']*)' that cannot start any token",
     "a value cannot start with '{char}' (a character YAML reserves)",
     "put the value in quotes (\"{char}...\")"),
    (r"could not determine a constructor for the tag '(?P<name>[^']*)'",
     "the tag '{name}' is not allowed: the file must hold plain data",
     "remove the tag (the text that starts with '!')"),
    (r"expected alphabetic or numeric character",
     "an anchor '&' or alias '*' without a name",
     "put a value that starts with '&' or '*' in quotes"),
)


def plain_yaml_error(exc: yaml.YAMLError, text: str) -> tuple[str, int | None]:
    """(message, 1-based line) of a PyYAML error in the document ``text``: plain words,
    the line as it reads, and a fix."""
    problem = str(getattr(exc, "problem", None) or str(exc).splitlines()[0])
    mark = getattr(exc, "problem_mark", None)
    ctx_mark = getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    ctx = ctx_mark.line + 1 if ctx_mark is not None else line
    said, fix = _translate(problem, ctx)
    if said is None:
        context = getattr(exc, "context", None)
        said = f"{problem}" + (f" ({context})" if context else "")
        fix = "check the indentation, colons and quotes on this line and the one above"
    if said.startswith(("a quote opened", "a list [")) and ctx is not None:
        line = ctx  # where the unclosed thing began, not the end of the file
    return f"invalid YAML: {said}{_reads(text, line)}; {fix}", line


def _translate(problem: str, ctx: int | None) -> tuple[str | None, str]:
    for pattern, said, fix in _RULES:
        m = re.search(pattern, problem)
        if m:
            fill: Callable[[str], str] = lambda s: s.format(ctx=ctx or "?", **{
                k: v for k, v in m.groupdict().items() if v is not None})
            return fill(said), fill(fix)
    return None, ""


def _reads(text: str, line: int | None) -> str:
    """`` (the line reads: '...')`` for a line of ``text`` that is not blank."""
    lines = text.splitlines()
    if line is None or not 1 <= line <= len(lines) or not lines[line - 1].strip():
        return ""
    shown = lines[line - 1].rstrip()
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return f" (line {line} reads {shown!r})"
