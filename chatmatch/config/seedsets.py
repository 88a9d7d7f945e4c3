"""Seed sets: the ``seed_utterance`` of a tournament YAML may name a file or give the
utterances by category::

    seed_utterance: {file: seeds/paper_types.csv}     # relative to the YAML
    seed_utterance:
      categories:
        question: ["What did you do last week?"]
        greeting: ["Hi! How are you?"]

Files: ``.txt`` (one utterance a line; blank lines and lines starting with ``#`` skipped;
no categories), ``.csv`` (a header row with a ``seed_utterance``, ``utterance`` or
``text`` column and an optional ``category`` column) and ``.jsonl`` (one object a line
with the same keys). The file is read once, when the YAML is loaded, and the run's
``config.yaml`` holds the utterances themselves, so a run directory does not depend on
the file (and editing the file later makes another tournament, as editing the YAML does).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from chatmatch.common.safeio import read_text_bounded, why_unreadable
from chatmatch.config.checks import holds_secret
from chatmatch.errors import ConfigError

#: column names accepted for the utterance, first match wins
TEXT_COLUMNS = ("seed_utterance", "utterance", "text")
#: a seed-set file larger than this is refused (seeds are a handful of openers)
MAX_FILE_BYTES = 2 * 2**20


def resolve_seed_file(data: dict[str, Any], yaml_file: str | None,
                      line: int | None) -> dict[str, Any]:
    """``data`` (a tournament mapping) with ``seed_utterance: {file: ...}`` replaced by what
    the file holds; a file problem is a :class:`ConfigError` at the key's line."""
    spec = data.get("seed_utterance")
    if not isinstance(spec, dict) or "file" not in spec:
        return data
    extra = sorted(set(spec) - {"file"})
    if extra or not isinstance(spec["file"], str) or not spec["file"].strip():
        why = f"unknown key(s) {', '.join(map(str, extra))} beside 'file'" if extra else \
            "'file' must be a path"
        raise ConfigError(f"{why}; write either {{file: seeds.csv}} or {{categories: ...}}",
                          file=yaml_file, line=line, path="seed_utterance")
    base = Path(yaml_file).parent if yaml_file else Path(".")
    path = (base / Path(spec["file"]).expanduser())
    try:
        value = read_seed_file(path)
    except ConfigError as exc:
        raise ConfigError(exc.message, file=yaml_file, line=line, path="seed_utterance.file") from None
    return {**data, "seed_utterance": value}


def read_seed_file(path: Path) -> list[str] | dict[str, Any]:
    """The ``seed_utterance`` value a seed-set file stands for: a list of utterances (no
    categories) or ``{"categories": {name: [utterance, ...]}}``."""
    fix = "see docs/league.md#seed-sets for the formats"
    try:
        text = read_text_bounded(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"seed file {path} does not exist (the path is relative to "
                          "the tournament YAML)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read seed file {path} ({why_unreadable(exc)})") from None
    suffix = path.suffix.lower()
    if suffix == ".txt":
        rows: list[tuple[int, dict[str, Any]]] = [
            (n, {"text": line.strip()}) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]
    elif suffix == ".csv":
        try:
            reader = csv.DictReader(io.StringIO(text))
            rows = [(reader.line_num, row) for row in reader]  # line_num: the row's last line
        except csv.Error as exc:
            raise ConfigError(f"seed file {path} is not a readable CSV ({exc}); {fix}") from None
    elif suffix == ".jsonl":
        rows = _jsonl_rows(text, path)
    else:
        raise ConfigError(f"seed file {path} must end in .txt, .csv or .jsonl; {fix}")
    return _grouped(rows, path, fix)


def _jsonl_rows(text: str, path: Path) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise ConfigError(f"{path}:{n}: not JSON ({exc})") from None
        if not isinstance(row, dict):
            raise ConfigError(f"{path}:{n}: each line must be a JSON object")
        rows.append((n, row))
    return rows


def _grouped(rows: list[tuple[int, dict[str, Any]]], path: Path,
             fix: str) -> list[str] | dict[str, Any]:
    """``rows`` ((line, row) of the file) as utterances, grouped by category if it has one."""
    if not rows:
        raise ConfigError(f"seed file {path} holds no utterance")
    first = rows[0][1]
    col = next((c for c in TEXT_COLUMNS if c in first), None)
    if col is None:
        raise ConfigError(f"seed file {path} has no utterance column (one of "
                          f"{', '.join(TEXT_COLUMNS)}; its first row has {len(first)} column(s), none of "
                          f"them named so); {fix}")
    has_cat = "category" in first
    groups: dict[str, list[str]] = {}
    for i, (line, row) in enumerate(rows, 1):
        utt, cat = row.get(col), row.get("category", "") if has_cat else ""
        if not isinstance(utt, str) or not utt.strip() or not isinstance(cat, str) or (
                has_cat and not cat.strip()):
            raise ConfigError(f"seed file {path}, row {i} (line {line}): needs a non-empty "
                              f"'{col}'{' and category' if has_cat else ''} (text)")
        if holds_secret(utt) or holds_secret(cat):
            raise ConfigError(f"{path}:{line}: holds a word that looks like an API key or "
                              "password (sk-..., key=..., user:password@...), and the seed "
                              "utterances are copied into the run directory's config.yaml; "
                              "remove it from the seed file")
        groups.setdefault(cat.strip(), []).append(utt.strip())
    if not has_cat:
        return groups[""]
    return {"categories": groups}
