"""Each chatmatch dimension against people's rating of the matching quality, and each
dimension's length bias, on the lab's human-bot datasets (DSTC9, FED, and Spot The Bot's per-side checkboxes).

:data:`MATCHES` is the documented mapping. ``fit`` says how close the match is:
``close`` when the people's question asks about what the dimension counts, ``loose`` when
it is the nearest quality the data has but asks something broader or different (say so
when reading the number). ``ranking`` is the whole game score: the System's game points
against its interlocutor under the configured weights, as in the FED lab; ``ranking,
cross-system games`` is the System side's win rate against the other systems' System sides
(human-bot datasets only).

Rows are computed by :func:`chatmatch.stats.bootstrap.agreement` (system-level Kendall
tau-b, chat-level Spearman rho, bootstrap intervals over chats resampled within systems).
The length features of a chat are the System's mean words per turn and total words
(whitespace tokens); a dimension whose raw score follows them closely is a length proxy.
People's own ratings are correlated with length too, for reference: if people also prefer
longer replies, a length correlation is not a fault in itself.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence

from chatmatch.analysis.fed import SYSTEM as SYSTEM  # re-exported (stb_sides)
from chatmatch.stats.bootstrap import SAMPLES, agreement, paired_difference

RANKING = "ranking"
#: the whole ranking from cross-system games (:func:`chatmatch.analysis.fed.cross_system_rates`)
RANKING_CROSS = "ranking, cross-system games"


@dataclass(frozen=True)
class Match:
    dimension: str  # a chatmatch dimension, or RANKING
    quality: str  # the people's rating, as the dataset names it
    fit: str  # "close" or "loose"
    note: str = ""


def _m(dimension: str, quality: str, fit: str, note: str = "") -> Match:
    return Match(dimension, quality, fit, note)


_LOOSE_FLUENCY = "no fluency rating; nearest: does the system understand the user"
_LOOSE_SPEC = "specificity is lexical variety (Distinct-n); people rate variety of content"
_LOOSE_REL = "relevance counts recalled concepts; people rate staying on topic"

#: dataset kind -> the documented mapping (dimension, people's quality, fit, why loose)
MATCHES: dict[str, tuple[Match, ...]] = {
    "dstc9": (
        _m("proactivity", "inquisitive", "close"),
        _m("knowledge", "informative", "close"),
        _m("diversity", "diverse", "close", "DSTC9 rates variety; diversity penalises repeats"),
        _m("specificity", "diverse", "loose", _LOOSE_SPEC),
        _m("specificity", "informative", "loose", "informative is content, not wording"),
        _m("consistency", "consistent", "close", "people rate 0/1: any contradiction"),
        _m("relevance", "coherent", "loose", _LOOSE_REL),
        _m("relevance", "topic depth", "loose", "depth on a topic, not recall of it"),
        _m("fluency", "understanding", "loose", _LOOSE_FLUENCY),
        _m(RANKING, "human (overall)", "close"),
        _m(RANKING_CROSS, "human (overall)", "close"),
    ),
    "fed": (
        _m("proactivity", "Inquisitive", "close"),
        _m("knowledge", "Informative", "close"),
        _m("diversity", "Diverse", "close", "FED rates variety; diversity penalises repeats"),
        _m("specificity", "Diverse", "loose", _LOOSE_SPEC),
        _m("specificity", "Informative", "loose", "informative is content, not wording"),
        _m("consistency", "Consistent", "close"),
        _m("relevance", "Coherent", "loose", _LOOSE_REL),
        _m("relevance", "Depth", "loose", "depth on a topic, not recall of it"),
        _m("fluency", "Understanding", "loose", _LOOSE_FLUENCY),
        _m(RANKING, "Overall", "close"),
        _m(RANKING_CROSS, "Overall", "close"),
    ),
    # USR: one reply per game, five responders of three kinds (chatmatch.validity.datasets.usr)
    "usr": (
        _m("fluency", "Natural", "close"),
        _m("fluency", "Understandable", "loose", "0/1: can the reply be understood"),
        _m("relevance", "Maintains Context", "close"),
        _m("knowledge", "Uses Knowledge", "loose", "uses the persona's facts, not named entities"),
        _m("proactivity", "Engaging", "loose", "engaging, not asking"),
        _m("specificity", "Engaging", "loose", _LOOSE_SPEC),
        _m(RANKING, "Overall", "close"),
        _m(RANKING_CROSS, "Overall", "close"),
    ),
    # Spot The Bot: per-side checkboxes of a segment (chatmatch.validity.lab.stb_sides)
    "stb": (
        _m("fluency", "fluent", "close", "workers saw the first 2-10 turns only"),
        _m("specificity", "specific", "close", "workers saw the first 2-10 turns only"),
        _m("knowledge", "specific", "loose", "specific replies, not named entities"),
        _m("relevance", "sensible", "loose", "sensible replies, not recalled concepts"),
        _m("consistency", "sensible", "loose", "no consistency box; contradictions are not sensible"),
        _m(RANKING, "human", "close", "share of workers judging the side human"),
    ),
}


class RatedChat(Protocol):
    """What a dataset's chat offers (FED's FedDialogue and DSTC9's Dstc9Chat do)."""

    @property
    def system(self) -> str: ...

    @property
    def ratings(self) -> Mapping[str, float]: ...

    @property
    def turns(self) -> tuple[tuple[str, str], ...]: ...


def system_words(chat: RatedChat) -> list[int]:
    return [len(t.split()) for s, t in chat.turns if s == SYSTEM]


def length_features(chat: RatedChat) -> dict[str, float]:
    words = system_words(chat)
    return {"turn words": statistics.fmean(words) if words else math.nan,
            "total words": float(sum(words))}


def _row(systems: Sequence[str], values: Sequence[float], other: Sequence[float],
         samples: int, seed: int) -> dict[str, Any]:
    tau, rho, n_sys, n_chats = agreement(systems, values, other, samples, seed)
    return {"systems": n_sys, "chats": n_chats, "system_tau": tau.to_json(),
            "chat_rho": rho.to_json()}


def dimension_rows(chats: Sequence[RatedChat], per_chat: Mapping[str, Sequence[float]],
                   matches: Sequence[Match], samples: int = SAMPLES, seed: int = 0,
                   baseline: Mapping[str, Sequence[float]] | None = None) -> list[dict[str, Any]]:
    """One row per match whose dimension was scored and whose quality the data rates
    (``per_chat`` holds oriented values, the whole ranking's game points under
    :data:`RANKING` and its cross-system win rates under :data:`RANKING_CROSS`). A dimension that never applies gets a row of n/a. With ``baseline``
    (the same chats scored by another configuration) each row also gets ``vs_baseline``:
    this tau and rho minus the baseline's, on the same resamples."""
    systems = [c.system for c in chats]
    rated = {q for c in chats for q in c.ratings}
    rows = []
    for m in matches:
        if m.dimension not in per_chat or m.quality not in rated:
            continue
        ratings = [c.ratings.get(m.quality, math.nan) for c in chats]
        row = {"dimension": m.dimension, "quality": m.quality, "fit": m.fit, "note": m.note,
               **_row(systems, per_chat[m.dimension], ratings, samples, seed)}
        if baseline is not None and m.dimension in baseline:
            dtau, drho = paired_difference(systems, baseline[m.dimension], per_chat[m.dimension],
                                           ratings, samples, seed)
            row["vs_baseline"] = {"system_tau": dtau.to_json(), "chat_rho": drho.to_json()}
        rows.append(row)
    return rows


def length_rows(chats: Sequence[RatedChat], per_chat: Mapping[str, Sequence[float]],
                people: Sequence[str], samples: int = SAMPLES,
                seed: int = 0) -> list[dict[str, Any]]:
    """Each measurement (every dimension, the ranking, and people's ``people`` ratings)
    against the System's mean turn length and total words."""
    systems = [c.system for c in chats]
    feats = [length_features(c) for c in chats]
    measures: dict[str, Sequence[float]] = dict(per_chat)
    for q in people:
        measures[f"people: {q}"] = [c.ratings.get(q, math.nan) for c in chats]
    rows = []
    for name, values in measures.items():
        row: dict[str, Any] = {"measure": name}
        for feat in ("turn words", "total words"):
            row[feat] = _row(systems, values, [f[feat] for f in feats], samples, seed)
        rows.append(row)
    return rows
