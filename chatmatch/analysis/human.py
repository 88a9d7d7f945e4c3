"""Human judgement of a set of bots, read from a small YAML or CSV file.

YAML, one ranking (1 = best)::

    ranking: {blenderbot: 1, dialogpt: 2, eliza: 3}

YAML, several judges whose ranks are averaged, plus optional per-dimension scores
(higher = better, e.g. a mean Likert rating; a list is per-judge scores, averaged)::

    judges:
      alice: {blenderbot: 1, dialogpt: 2, eliza: 3}
      bob:   {blenderbot: 2, dialogpt: 1, eliza: 3}
    dimensions:
      diversity: {blenderbot: 4.5, dialogpt: 3.0, eliza: [1, 2, 2]}

CSV: a ``bot`` and a ``rank`` column, an optional ``judge`` column (one row per judge and
bot; ranks are averaged over judges), and any other column is a dimension score::

    judge,bot,rank,diversity
    alice,blenderbot,1,4.5

Every problem is a :class:`HumanFileError` rendered as ``file:line: message``.
"""

from __future__ import annotations

import csv
import difflib
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml

from chatmatch.errors import ConfigError

_YAML_KEYS = ("ranking", "judges", "dimensions")


class HumanFileError(ConfigError):
    """A human-ranking file that cannot be used (``file:line: message``)."""


@dataclass(frozen=True)
class HumanRanking:
    """Human ranks (1 = best, averaged over judges) and optional per-dimension scores."""

    source: str
    ranks: dict[str, float]
    judges: int = 1
    dimensions: dict[str, dict[str, float]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict, compare=False)  # bot -> first line

    @property
    def bots(self) -> list[str]:
        return sorted(self.ranks, key=lambda b: (self.ranks[b], b))

    def check_bots(self, run_bots: Sequence[str]) -> None:
        """Every bot of the file must be a bot of the run."""
        for bot in self.ranks:
            if bot not in run_bots:
                close = difflib.get_close_matches(bot, list(run_bots), n=1, cutoff=0.6)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise HumanFileError(f"unknown bot '{bot}' (not in the run).{hint} "
                                     f"Bots in the run: {', '.join(run_bots)}",
                                     file=self.source, line=self.lines.get(bot))

    def check_dimensions(self, run_dims: Sequence[str]) -> None:
        for dim in self.dimensions:
            if dim not in run_dims:
                close = difflib.get_close_matches(dim, list(run_dims), n=1, cutoff=0.6)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise HumanFileError(f"unknown dimension '{dim}' (the run scored "
                                     f"{', '.join(run_dims)}).{hint}", file=self.source,
                                     line=self.lines.get(f"dimension:{dim}"))


def load_human(path: str | Path, run_bots: Sequence[str] | None = None) -> HumanRanking:
    """Read a human-ranking file (``.yaml``/``.yml`` or ``.csv``); check its bots against
    ``run_bots`` when given."""
    p = Path(path)
    name = str(path)
    if not p.is_file():
        raise HumanFileError("file not found; give a YAML or CSV file of human ranks "
                             "(see docs/analysis.md)", file=name)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise HumanFileError(f"cannot read the file as UTF-8 text ({exc})", file=name) from None
    if p.suffix.lower() == ".csv":
        human = parse_csv(text, name)
    elif p.suffix.lower() in (".yaml", ".yml"):
        human = parse_yaml(text, name)
    else:
        raise HumanFileError("unknown file type; name it .yaml, .yml or .csv", file=name)
    if run_bots is not None:
        human.check_bots(run_bots)
    return human


# --- numbers and judges ------------------------------------------------------------------
def _number(value: Any, what: str, file: str, line: int | None, *, rank: bool) -> float:
    given = value
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise HumanFileError(f"{what}: expected a number, got {given!r}", file=file, line=line)
    if rank and value < 1:
        raise HumanFileError(f"{what}: a rank must be 1 or more (1 = best), got {value:g}",
                             file=file, line=line)
    return float(value)


def _average_judges(per_judge: dict[str, dict[str, float]], file: str,
                    lines: dict[str, int]) -> dict[str, float]:
    if not per_judge:
        raise HumanFileError("no ranks found; give at least two bots with a rank", file=file, line=1)
    names = list(per_judge)
    first = set(per_judge[names[0]])
    for judge in names[1:]:
        have = set(per_judge[judge])
        if have != first:
            missing = sorted(first - have) or sorted(have - first)
            who = judge if first - have else names[0]
            raise HumanFileError(f"judge '{who}' does not rank {', '.join(missing)}; every judge "
                                 "must rank the same bots", file=file, line=lines.get(f"judge:{who}"))
    if len(first) < 2:
        raise HumanFileError(f"only {len(first)} bot ranked; a ranking needs at least two",
                             file=file, line=1)
    return {b: sum(per_judge[j][b] for j in names) / len(names) for b in sorted(first)}


def _mean_scores(acc: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, float]]:
    return {d: {b: sum(v) / len(v) for b, v in per_bot.items() if v} for d, per_bot in acc.items()}


# --- CSV ---------------------------------------------------------------------------------
def parse_csv(text: str, file: str = "<csv>") -> HumanRanking:
    reader = csv.reader(text.splitlines())
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise HumanFileError("the file is empty; it needs a header with 'bot' and 'rank'",
                             file=file, line=1) from None
    for col in ("bot", "rank"):
        if col not in header:
            raise HumanFileError(f"missing column '{col}' in the header (have: {', '.join(header)})",
                                 file=file, line=1)
    dims = [h for h in header if h not in ("bot", "rank", "judge")]
    per_judge: dict[str, dict[str, float]] = defaultdict(dict)
    scores: dict[str, dict[str, list[float]]] = {d: defaultdict(list) for d in dims}
    lines: dict[str, int] = {}
    seen: dict[tuple[str, str], int] = {}
    for n, row in enumerate(reader, 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise HumanFileError(f"{len(row)} cells but the header has {len(header)}",
                                 file=file, line=n)
        cells = {h: c.strip() for h, c in zip(header, row)}
        bot, judge = cells["bot"], cells.get("judge", "")
        if not bot:
            raise HumanFileError("empty 'bot' cell", file=file, line=n)
        if (judge, bot) in seen:
            by = f" for judge '{judge}'" if judge else ""
            raise HumanFileError(f"duplicate bot '{bot}'{by} (first on line {seen[judge, bot]}); "
                                 "give each bot one rank per judge", file=file, line=n)
        seen[judge, bot] = n
        lines.setdefault(bot, n)
        lines.setdefault(f"judge:{judge}", n)
        per_judge[judge][bot] = _number(cells["rank"], f"rank of '{bot}'", file, n, rank=True)
        for d in dims:
            if cells[d]:
                scores[d][bot].append(_number(cells[d], f"{d} score of '{bot}'", file, n, rank=False))
    for d in dims:
        lines[f"dimension:{d}"] = 1
    ranks = _average_judges(dict(per_judge), file, lines)
    return HumanRanking(file, ranks, len(per_judge), _mean_scores(scores), lines)


# --- YAML --------------------------------------------------------------------------------
def _mapping_items(node: yaml.Node, what: str, file: str) -> list[tuple[yaml.Node, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        raise HumanFileError(f"{what} must be a mapping", file=file, line=node.start_mark.line + 1)
    return list(node.value)


def _bot_values(node: yaml.Node, what: str, file: str, lines: dict[str, int], *,
                rank: bool) -> dict[str, list[float]]:
    """``{bot: number or [numbers]}`` with duplicate-bot checks and line numbers."""
    out: dict[str, list[float]] = {}
    first: dict[str, int] = {}
    for key, value in _mapping_items(node, what, file):
        bot, line = str(key.value), key.start_mark.line + 1
        if bot in first:
            raise HumanFileError(f"duplicate bot '{bot}' in {what} (first on line {first[bot]}); "
                                 "give each bot one entry", file=file, line=line)
        first[bot] = line
        lines.setdefault(bot, line)
        try:
            data = yaml.safe_load(yaml.serialize(value))
        except yaml.YAMLError:
            data = None
        if data is None:
            raise HumanFileError(f"{what}: no value for '{bot}'; give a number", file=file,
                                 line=line)
        items = data if isinstance(data, list) else [data]
        if not items:
            raise HumanFileError(f"{what}: empty list for '{bot}'", file=file, line=line)
        label = f"{'rank' if rank else what + ' score'} of '{bot}'"
        out[bot] = [_number(v, label, file, line, rank=rank) for v in items]
    return out


def parse_yaml(text: str, file: str = "<yaml>") -> HumanRanking:
    from chatmatch.yamlloc import compose_checked

    root = compose_checked(text, file, HumanFileError)  # bounded depth and aliases
    if root is None:
        raise HumanFileError("the file is empty; it needs a 'ranking' or 'judges' mapping",
                             file=file, line=1)
    top: dict[str, yaml.Node] = {}
    lines: dict[str, int] = {}
    for key, value in _mapping_items(root, "the file", file):
        if key.value not in _YAML_KEYS:
            raise HumanFileError(f"unknown key '{key.value}'; allowed: {', '.join(_YAML_KEYS)}",
                                 file=file, line=key.start_mark.line + 1)
        top[key.value] = value
    if ("ranking" in top) == ("judges" in top):
        raise HumanFileError("give exactly one of 'ranking' (bot: rank) or 'judges' "
                             "(judge: {bot: rank})", file=file, line=1)
    per_judge = _yaml_judges(top, file, lines)
    ranks = _average_judges(per_judge, file, lines)
    dims: dict[str, dict[str, list[float]]] = {}
    if "dimensions" in top:
        for key, value in _mapping_items(top["dimensions"], "dimensions", file):
            lines[f"dimension:{key.value}"] = key.start_mark.line + 1
            dims[str(key.value)] = _bot_values(value, f"dimensions.{key.value}", file, {}, rank=False)
    return HumanRanking(file, ranks, len(per_judge), _mean_scores(dims), lines)


def _yaml_judges(top: dict[str, yaml.Node], file: str,
                 lines: dict[str, int]) -> dict[str, dict[str, float]]:
    if "ranking" in top:
        vals = _bot_values(top["ranking"], "ranking", file, lines, rank=True)
        # a list per bot is that bot's rank from each judge
        counts = {len(v) for v in vals.values()}
        if len(counts) > 1:
            raise HumanFileError("ranking: every bot needs the same number of per-judge ranks",
                                 file=file, line=top["ranking"].start_mark.line + 1)
        k = counts.pop() if counts else 1
        return {f"judge{j + 1}": {b: v[j] for b, v in vals.items()} for j in range(k)}
    node = top["judges"]
    entries: list[tuple[str, yaml.Node, int]]
    if isinstance(node, yaml.SequenceNode):
        entries = [(f"judge{i + 1}", n, n.start_mark.line + 1) for i, n in enumerate(node.value)]
    else:
        entries = [(str(k.value), v, k.start_mark.line + 1)
                   for k, v in _mapping_items(node, "judges", file)]
    out: dict[str, dict[str, float]] = {}
    for judge, n, line in entries:
        if judge in out:
            raise HumanFileError(f"duplicate judge '{judge}' (first on line {lines[f'judge:{judge}']})",
                                 file=file, line=line)
        lines[f"judge:{judge}"] = line
        vals = _bot_values(n, f"judges.{judge}", file, lines, rank=True)
        for b, v in vals.items():
            if len(v) != 1:
                raise HumanFileError(f"judges.{judge}: give one rank for '{b}', not a list",
                                     file=file, line=lines.get(b))
        out[judge] = {b: v[0] for b, v in vals.items()}
    return out
