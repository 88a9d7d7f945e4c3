"""Meta-evaluation on FED (Mehri & Eskenazi 2020): how well does each chatmatch scorer,
applied to one dialogue, agree with the humans who rated that dialogue?

FED (``fed_data.json``) is a JSON list; items without a ``response`` key are dialogue-level:
``{"context": "User: ...\\nSystem: ...", "system": "Meena"|"Mitsuku"|"Human",
"annotations": {"Coherent": [5 ratings], ...}}``. Ratings that are not numbers (such as
"N/A (no errors)") are skipped; the others are averaged over annotators.

FED dialogues are human-bot chats, so each dialogue becomes a two-speaker transcript
(``User`` and ``System``) and only the system's raw score is used. A dimension whose lower
raw score is better (fluency's perplexity) is negated, so a positive correlation always
means agreement. Dimensions map to FED qualities by :data:`QUALITY_MAP`; every dimension is
also correlated with ``Overall``, and so are two combinations of all chosen dimensions:
the system's game points against its interlocutor (chatmatch's own game score) and the
mean of the z-scored raw scores.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence

import numpy as np

from chatmatch.common.safeio import file_problem, read_text_bounded, why_unreadable
from chatmatch.stats.correlation import Correlation, kendall, pearson, spearman
from chatmatch.errors import ChatmatchError
from chatmatch.records import TIE_TOLERANCE, DimensionScore, nan_to_none
from chatmatch.scoring.points import dimension_winners, result_from_scores
from chatmatch.transcript import Transcript, Turn

USER, SYSTEM = "User", "System"
#: chatmatch dimension -> FED dialogue-level qualities it should track
QUALITY_MAP: dict[str, tuple[str, ...]] = {
    "consistency": ("Consistent",), "diversity": ("Diverse",), "proactivity": ("Inquisitive",),
    "knowledge": ("Informative",), "relevance": ("Coherent", "Understanding"),
}
OVERALL = "Overall"


class FedError(ChatmatchError):
    """A FED file that cannot be read."""


@dataclass(frozen=True)
class FedDialogue:
    index: int  # position in the file
    system: str  # Meena, Mitsuku or Human
    turns: tuple[tuple[str, str], ...]  # (speaker, text)
    ratings: dict[str, float]  # quality -> mean of the numeric annotations

    def transcript(self) -> Transcript:
        return chat_transcript(self.turns, f"fed{self.index:03d}", {"fed_system": self.system})


def chat_transcript(turns: Sequence[tuple[str, str]], game_id: str,
                    meta: dict[str, Any]) -> Transcript:
    """A rated human-bot chat (FED, DSTC9: ``(speaker, text)`` turns, speakers ``User`` and
    ``System``) as a two-player game, whoever spoke first first."""
    first = turns[0][0] if turns else USER
    players = (first, SYSTEM if first == USER else USER)
    return Transcript(game_id, players, tuple(Turn(i, s, t) for i, (s, t) in enumerate(turns)),
                      meta=meta)


def mean_rating(values: Any) -> float | None:
    nums = [float(v) for v in (values if isinstance(values, list) else [values])
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]
    return statistics.fmean(nums) if nums else None


def read_json_list(path: Path, error: type[ChatmatchError], items: str) -> list[Any]:
    """The JSON list in the file ``path`` (a rated dataset: FED, DSTC9); ``error`` with a
    one-line message when it is unreadable or not a list of ``items``."""
    try:
        data = json.loads(read_text_bounded(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {path} ({why_unreadable(exc)})") from None
    except ValueError as exc:
        raise error(f"{path}: not a readable JSON file ({exc})") from None
    if not isinstance(data, list):
        raise error(f"{path}: expected a JSON list of {items}, got {type(data).__name__}")
    return data


def parse_context(context: str) -> tuple[tuple[str, str], ...]:
    """``"User: hi\\nSystem: hello"`` -> turns; a line without a speaker prefix continues
    the previous turn."""
    turns: list[list[str]] = []
    for line in context.splitlines():
        speaker, sep, text = line.partition(": ")
        if sep and speaker in (USER, SYSTEM):
            turns.append([speaker, text.strip()])
        elif turns and line.strip():
            turns[-1][1] = f"{turns[-1][1]} {line.strip()}"
    return tuple((s, t) for s, t in turns)


def load_fed(path: str | Path, limit: int | None = None) -> list[FedDialogue]:
    """The dialogue-level items of a FED file (turn-level items are skipped)."""
    p = Path(path)
    if (why := file_problem(p)) == "no such file":
        raise FedError(f"{p}: FED file not found; get fed_data.json from the FED release "
                       "(Mehri & Eskenazi 2020) and give its path")
    if why:
        raise FedError(f"cannot read {p} ({why})")
    data = read_json_list(p, FedError, "FED items")
    out: list[FedDialogue] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or "response" in item:
            continue
        ctx, ann = item.get("context"), item.get("annotations")
        if not isinstance(ctx, str) or not isinstance(ann, dict):
            raise FedError(f"{p}: item {i} has no 'context' text or no 'annotations' mapping")
        ratings = {q: m for q, v in ann.items() if (m := mean_rating(v)) is not None}
        out.append(FedDialogue(i, str(item.get("system", "?")), parse_context(ctx), ratings))
        if limit is not None and len(out) >= limit:
            break
    if not out:
        raise FedError(f"{p}: no dialogue-level items (items without a 'response' key)")
    return out


@dataclass(frozen=True)
class MetaRow:
    dimension: str
    quality: str
    n: int
    distinct: int  # distinct score values (1: the scorer gave every dialogue the same)
    spearman: Correlation
    pearson: Correlation
    kendall: Correlation


def correlate(dimension: str, quality: str, values: Sequence[float],
              ratings: Sequence[float | None]) -> MetaRow:
    pairs = [(v, r) for v, r in zip(values, ratings) if r is not None and not math.isnan(v)]
    xs, ys = [v for v, _ in pairs], [r for _, r in pairs]
    return MetaRow(dimension, quality, len(pairs), len(set(xs)), spearman(xs, ys), pearson(xs, ys),
                   kendall(xs, ys))


ScoreFn = Callable[[Sequence[Transcript]], list[dict[str, DimensionScore]]]


def system_side(games: Sequence[Mapping[str, DimensionScore]]
                ) -> tuple[dict[str, list[float]], dict[str, bool]]:
    """Per dimension, the System's raw score in every game oriented so that higher is
    better (a dimension whose lower raw score is better, fluency's perplexity, is negated;
    NaN: not applicable), and each dimension's orientation (``higher_is_better``)."""
    dims = list(games[0]) if games else []
    hib = {d: games[0][d].higher_is_better for d in dims}
    per_game: dict[str, list[float]] = {d: [] for d in dims}
    for game in games:
        for d in dims:
            v = float(game[d].raw.get(SYSTEM, math.nan))
            per_game[d].append(v if hib[d] else -v)
    return per_game, hib


def system_points(transcripts: Sequence[Transcript],
                  games: Sequence[Mapping[str, DimensionScore]],
                  weights: Mapping[str, float]) -> list[float]:
    """The System's game points against its interlocutor in every game, awarded as a
    tournament awards them under ``weights`` (a dimension that does not apply to either
    side gives nobody its point); NaN where the System is not a player."""
    out = []
    for tr, game in zip(transcripts, games):
        res = result_from_scores(tr.game_id, tr.players, game, weights)
        out.append(res.total.get(SYSTEM, math.nan))
    return out


class _OfSystem(Protocol):
    @property
    def system(self) -> str: ...


def cross_system_rates(chats: Sequence[_OfSystem],
                       games: Sequence[Mapping[str, DimensionScore]],
                       weights: Mapping[str, float]) -> list[float]:
    """Per chat, the win rate of its System side in games against the System sides of the
    other systems' chats (win 1, tie 1/2; each other system weighted equally, each of its
    chats equally); NaN where the System is not a player or no other system has a chat.

    A game between two System sides is awarded as a tournament awards one
    (:func:`chatmatch.scoring.points.award_points` on the two raw scores: the better raw
    score wins the dimension's weight, raw ties and two NaNs give nobody the point, a NaN
    loses to a number, a dimension that does not apply to either side gives nobody its
    point), and won on the sum (:attr:`chatmatch.records.GameResult.winner`). This is the human-bot lab's analogue of a round robin: two
    systems compared side by side, each in its own chats with people, instead of each
    system against the person it talked to, whose own scores follow the system's.
    """
    n = len(games)
    if len(chats) != n:
        raise ValueError(f"{len(chats)} chats but {len(games)} scored games: one game a chat")
    if n == 0:
        return []
    dims = list(games[0])
    if any(set(g) != set(dims) for g in games):
        raise ValueError("every chat must be scored on the same dimensions")
    total = np.zeros((n, n))
    playing = np.array([any(SYSTEM in s.raw for s in g.values()) for g in games])
    for d in dims:
        w = float(weights.get(d, 1.0))
        if w == 0:
            continue
        raw = np.array([float(g[d].raw.get(SYSTEM, math.nan)) for g in games])
        na = np.array([SYSTEM in g[d].not_applicable for g in games])
        verdict = dimension_winners(raw[:, None], raw[None, :], games[0][d].higher_is_better)
        verdict[na[:, None] | na[None, :]] = 0
        total += w * verdict  # my points minus the other's
    outcome = np.where(np.abs(total) <= TIE_TOLERANCE, 0.5, np.where(total > 0, 1.0, 0.0))
    systems = [c.system for c in chats]
    names = sorted(set(systems))
    own = np.array([names.index(s) for s in systems])
    rates = np.full((n, len(names)), np.nan)  # chat i against system t's playing chats
    for t in range(len(names)):
        cols = (own == t) & playing
        if cols.any():
            rates[:, t] = outcome[:, cols].mean(axis=1)
    rates[np.arange(n), own] = np.nan  # not against its own system
    rates[~playing] = np.nan
    out = []
    for row in rates:
        ok = row[~np.isnan(row)]
        out.append(float(ok.mean()) if ok.size else math.nan)
    return out


def system_means(chats: Sequence[_OfSystem], values: Sequence[float]) -> dict[str, float]:
    """System -> mean of ``values`` (one per chat) over its chats, NaN left out."""
    groups: dict[str, list[float]] = {}
    for c, v in zip(chats, values):
        if not math.isnan(v):
            groups.setdefault(c.system, []).append(v)
    return {s: statistics.fmean(vs) for s, vs in groups.items()}


def system_scores(dialogues: Sequence[FedDialogue], score: ScoreFn) -> dict[str, list[float]]:
    """Per dimension, the system's oriented raw score (higher = better) in every dialogue,
    plus ``all (game points)`` and ``all (mean z)``."""
    transcripts = [d.transcript() for d in dialogues]
    per_game = score(transcripts)
    out, _ = system_side(per_game)
    if out:
        dims = list(out)
        out["all (game points)"] = system_points(transcripts, per_game, {})
        out["all (mean z)"] = _mean_z([out[d] for d in dims])
    return out


def _mean_z(columns: Sequence[Sequence[float]]) -> list[float]:
    zs = []
    for col in columns:
        ok = [v for v in col if not math.isnan(v)]
        mu = statistics.fmean(ok) if ok else 0.0
        sd = statistics.pstdev(ok) if len(ok) > 1 else 0.0
        zs.append([0.0 if math.isnan(v) or sd == 0 else (v - mu) / sd for v in col])
    return [statistics.fmean(z[i] for z in zs) for i in range(len(columns[0]))]


def meta_evaluate(dialogues: Sequence[FedDialogue], score: ScoreFn) -> list[MetaRow]:
    """Correlations of every scored dimension with its FED qualities and with Overall."""
    values = system_scores(dialogues, score)
    rows = []
    for dim, vals in values.items():
        for q in (*QUALITY_MAP.get(dim, ()), OVERALL):
            rows.append(correlate(dim, q, vals, [d.ratings.get(q) for d in dialogues]))
    return rows


def rows_to_json(rows: Sequence[MetaRow]) -> list[dict[str, Any]]:
    return [{"dimension": r.dimension, "quality": r.quality, "n": r.n, "distinct": r.distinct,
             **{f"{name}": _c(getattr(r, name)) for name in ("spearman", "pearson", "kendall")}}
            for r in rows]


def _c(c: Correlation) -> Mapping[str, float | None]:
    return {"r": nan_to_none(c.value), "p": nan_to_none(c.p_value)}
