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
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from chatmatch.common.registry import close_matches
from chatmatch.common.safeio import read_text_bounded, why_unreadable
from chatmatch.common.yamlloc import MAX_YAML_BYTES, LocatedYaml, OnDuplicate, parse_located_yaml
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
                close = close_matches(bot, run_bots, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise HumanFileError(f"unknown bot '{bot}' (not in the run).{hint} "
                                     f"Bots in the run: {', '.join(run_bots)}",
                                     file=self.source, line=self.lines.get(bot))

    def check_dimensions(self, run_dims: Sequence[str]) -> None:
        for dim in self.dimensions:
            if dim not in run_dims:
                close = close_matches(dim, run_dims, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise HumanFileError(f"unknown dimension '{dim}' (the run scored "
                                     f"{', '.join(run_dims)}).{hint}", file=self.source,
                                     line=self.lines.get(f"dimension:{dim}"))


def load_human(path: str | Path, run_bots: Sequence[str] | None = None) -> HumanRanking:
    """Read a human-ranking file (``.yaml``/``.yml`` or ``.csv``); check its bots against
    ``run_bots`` when given."""
    p = Path(path)
    name = str(path)
    try:
        text = read_text_bounded(p, MAX_YAML_BYTES)
    except FileNotFoundError:
        raise HumanFileError("file not found; give a YAML or CSV file of human ranks "
                             "(see docs/analysis.md)", file=name) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HumanFileError(f"cannot read the file ({why_unreadable(exc)})", file=name) from None
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
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isinf(value):
        raise HumanFileError(f"{what}: {given!r} is beyond the largest number (about 1.8e308); "
                             "give a rank or score of ordinary size", file=file, line=line)
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
    parsed = csv.reader(text.splitlines())
    try:
        reader = iter(list(parsed))
    except csv.Error as exc:
        raise HumanFileError(f"not a readable CSV ({exc})", file=file,
                             line=max(parsed.line_num, 1)) from None
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise HumanFileError("the file is empty; it needs a header with 'bot' and 'rank'",
                             file=file, line=1) from None
    for col in ("bot", "rank"):
        if col not in header:
            raise HumanFileError(f"missing column '{col}' in the header (have: {', '.join(header)})",
                                 file=file, line=1)
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        raise HumanFileError(f"column(s) {', '.join(map(repr, twice))} appear more than once in "
                             "the header; which one to use cannot be guessed: keep one (a judge "
                             "per row, in a 'judge' column)", file=file, line=1)
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
def _duplicate(file: str) -> OnDuplicate:
    """The message for a key given twice: a bot in a ranking, a judge among the judges."""
    def check(path: tuple[Any, ...], key: str, first: int, line: int) -> None:
        if path == ("judges",):
            raise HumanFileError(f"duplicate judge '{key}' (first on line {first})", file=file,
                                 line=line)
        if path == ("ranking",) or len(path) == 2 and path[0] in ("judges", "dimensions"):
            name = f"judge{path[1] + 1}" if isinstance(path[-1], int) else path[-1]
            what = "ranking" if path == ("ranking",) else f"{path[0]}.{name}"
            raise HumanFileError(f"duplicate bot '{key}' in {what} (first on line {first}); "
                                 "give each bot one entry", file=file, line=line)
    return check


def _value_line(doc: LocatedYaml, path: tuple[Any, ...], value: Any) -> int | None:
    """The line where the value at ``path`` starts (its first item or key, else its key)."""
    if isinstance(value, list) and value:
        return doc.line_of((*path, 0))
    if isinstance(value, dict) and value:
        return doc.line_of((*path, str(next(iter(value)))))
    return doc.line_of(path)


def _bot_values(value: Any, path: tuple[Any, ...], what: str, doc: LocatedYaml,
                lines: dict[str, int], *, rank: bool) -> dict[str, list[float]]:
    """``{bot: number or [numbers]}`` with line numbers."""
    if not isinstance(value, dict):
        raise HumanFileError(f"{what} must be a mapping", file=doc.file,
                             line=_value_line(doc, path, value))
    out: dict[str, list[float]] = {}
    for key, data in value.items():
        bot = str(key)
        line = doc.line_of((*path, bot))
        lines.setdefault(bot, line)
        if data is None:
            raise HumanFileError(f"{what}: no value for '{bot}'; give a number", file=doc.file,
                                 line=line)
        items = data if isinstance(data, list) else [data]
        if not items:
            raise HumanFileError(f"{what}: empty list for '{bot}'", file=doc.file, line=line)
        label = f"{'rank' if rank else what + ' score'} of '{bot}'"
        out[bot] = [_number(v, label, doc.file, line, rank=rank) for v in items]
    return out


def parse_yaml(text: str, file: str = "<yaml>") -> HumanRanking:
    doc = parse_located_yaml(text, file, error=HumanFileError, duplicate=_duplicate(file),
                             empty="the file is empty; it needs a 'ranking' or 'judges' mapping")
    top = doc.data
    if not isinstance(top, dict):
        raise HumanFileError("the file must be a mapping", file=file, line=doc.line_of(()))
    for key in top:
        if key not in _YAML_KEYS:
            raise HumanFileError(f"unknown key '{key}'; allowed: {', '.join(_YAML_KEYS)}",
                                 file=file, line=doc.line_of((str(key),)))
    if ("ranking" in top) == ("judges" in top):
        raise HumanFileError("give exactly one of 'ranking' (bot: rank) or 'judges' "
                             "(judge: {bot: rank})", file=file, line=1)
    lines: dict[str, int] = {}
    per_judge = _yaml_judges(top, doc, lines)
    ranks = _average_judges(per_judge, file, lines)
    dims: dict[str, dict[str, list[float]]] = {}
    if "dimensions" in top:
        if not isinstance(top["dimensions"], dict):
            raise HumanFileError("dimensions must be a mapping", file=file,
                                 line=_value_line(doc, ("dimensions",), top["dimensions"]))
        for key, value in top["dimensions"].items():
            lines[f"dimension:{key}"] = doc.line_of(("dimensions", str(key)))
            dims[str(key)] = _bot_values(value, ("dimensions", str(key)), f"dimensions.{key}",
                                         doc, {}, rank=False)
    return HumanRanking(file, ranks, len(per_judge), _mean_scores(dims), lines)


def _yaml_judges(top: dict[str, Any], doc: LocatedYaml,
                 lines: dict[str, int]) -> dict[str, dict[str, float]]:
    if "ranking" in top:
        vals = _bot_values(top["ranking"], ("ranking",), "ranking", doc, lines, rank=True)
        # a list per bot is that bot's rank from each judge
        counts = {len(v) for v in vals.values()}
        if len(counts) > 1:
            raise HumanFileError("ranking: every bot needs the same number of per-judge ranks",
                                 file=doc.file, line=_value_line(doc, ("ranking",), top["ranking"]))
        k = counts.pop() if counts else 1
        return {f"judge{j + 1}": {b: v[j] for b, v in vals.items()} for j in range(k)}
    judges = top["judges"]
    entries: list[tuple[str, Any, tuple[Any, ...]]]
    if isinstance(judges, list):
        entries = [(f"judge{i + 1}", v, ("judges", i)) for i, v in enumerate(judges)]
    elif isinstance(judges, dict):
        entries = [(str(k), v, ("judges", str(k))) for k, v in judges.items()]
    else:
        raise HumanFileError("judges must be a mapping", file=doc.file,
                             line=_value_line(doc, ("judges",), judges))
    out: dict[str, dict[str, float]] = {}
    for judge, value, path in entries:
        lines[f"judge:{judge}"] = doc.line_of(path)
        vals = _bot_values(value, path, f"judges.{judge}", doc, lines, rank=True)
        for b, v in vals.items():
            if len(v) != 1:
                raise HumanFileError(f"judges.{judge}: give one rank for '{b}', not a list",
                                     file=doc.file, line=lines.get(b))
        out[judge] = {b: v[0] for b, v in vals.items()}
    return out
