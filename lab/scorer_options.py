# lab experiment, 2026-11-25: Which scorer option agrees best with people, and which merely tracks turn length?
"""Which scorer option agrees best with people, and which merely tracks turn length?

A measuring script for choosing the dimension scorers' defaults (docs/scoring.md,
"Options chosen by measurement"). It scores the *system* side of two human-bot datasets
read from ``../shared/data`` (``$CHATMATCH_DATA``), never copied:

* DSTC9 interactive track (11 systems, 2,200 chats, per-quality ratings; read here by a
  small reader of its own: the validity lab's loader is chatmatch.validity's business);
* FED dialogue level (3 systems, 125 dialogues).

For every variant (a dimension with some params) it prints, per dataset: the system-level
Kendall tau-b between systems ordered by their mean raw score and by people's mean rating
of the matching quality, both over the chats the score applies to (as the lab pairs them),
with a 90 % bootstrap interval (chats resampled within each
system, 200 draws, seed 0); the chat-level Spearman rho with that rating; and the length
bias: Spearman rho of the raw score with the system's mean turn length and with its total
tokens in the chat, next to the same rho for people's rating (people may like long turns
too: a scorer is a length proxy when it tracks length much more than people do); and the
chat-level rho with people once length is held out (partial Spearman: the ranks of mean
turn length and total tokens regressed out of both), i.e. what the score says about the
quality beyond how much the system said.

    PYTHONPATH=$PWD nice python lab/scorer_options.py [--only consistency,specificity]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chatmatch.stats.correlation import kendall, spearman
from chatmatch.analysis.fed import SYSTEM, load_fed, mean_rating, parse_context
from chatmatch.scoring.base import SCORERS
from chatmatch.scoring.engine import score_games
from chatmatch.common.text import tokens
from chatmatch.transcript import Transcript, Turn

DATA = Path(os.environ.get("CHATMATCH_DATA", "../shared/data"))
#: dimension -> (DSTC9 quality, FED dialogue quality, FED turn quality); fluency has no
#: matching DSTC9 or FED-dialogue rating: overall there, "Fluent" on FED's turns
MATCH = {"consistency": ("consistent", "Consistent", "Correct"),
         "specificity": ("diverse", "Diverse", "Specific"),
         "diversity": ("diverse", "Diverse", "Interesting"),
         "knowledge": ("informative", "Informative", "Interesting"),
         "proactivity": ("inquisitive", "Inquisitive", "Engaging"),
         "relevance": ("coherent", "Coherent", "Relevant"),
         "fluency": ("human (overall)", "Overall", "Fluent")}

#: (label, dimension, params): the variants measured; "paper"/"default" rows first
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    ("paper", "consistency", {"similarity": "tfidf", "score": "count", "compare": "original"}),
    ("tfidf (default before)", "consistency", {"similarity": "tfidf"}),
    ("tfidf-specific", "consistency", {"similarity": "tfidf", "questions": "specific"}),
    ("embedding", "consistency", {"similarity": "embedding", "polarity": False}),
    ("embedding-0.6", "consistency", {"similarity": "embedding", "polarity": False, "sigma_c": 0.6}),
    ("embedding-specific", "consistency", {"similarity": "embedding", "polarity": False,
                                           "questions": "specific"}),
    ("embedding+polarity (default before)", "consistency", {"identity": False}),
    ("embedding+polarity+identity (default now)", "consistency", {}),
    ("embedding+polarity+identity+self", "consistency", {"self_contradictions": True}),
    ("identity sigma_r 0.8", "consistency", {"sigma_r": 0.8}),
    ("identity sigma_r 0.6", "consistency", {"sigma_r": 0.6}),
    ("identity-specific sigma_r 0.6", "consistency", {"sigma_r": 0.6, "questions": "specific"}),
    ("embedding+polarity-specific", "consistency", {"questions": "specific"}),
    ("embedding+polarity+self", "consistency", {"self_contradictions": True, "identity": False}),
    ("embedding+self-count", "consistency", {"polarity": False, "self_contradictions": True,
                                              "score": "count"}),
    ("paper", "specificity", {"leave_out": "none"}),
    ("default-before", "specificity", {"method": "distinct"}),
    ("mattr50", "specificity", {"method": "mattr"}),
    ("mattr25", "specificity", {"method": "mattr", "window": 25}),
    ("nidf", "specificity", {"method": "nidf"}),
    ("paper", "knowledge", {}),
    ("entities-per-turn", "knowledge", {"unit": "per_turn"}),
    ("content-words", "knowledge", {"method": "content_words"}),
    ("content-words-per-turn", "knowledge", {"method": "content_words", "unit": "per_turn"}),
    ("entities-per-100-tokens", "knowledge", {"unit": "per_100_tokens"}),
    ("content-words-per-100-tokens", "knowledge", {"method": "content_words",
                                                   "unit": "per_100_tokens"}),
    ("paper", "proactivity", {"skip_repetitions": False, "excuse_answers": False}),
    ("default-before", "proactivity", {}),
    ("share", "proactivity", {"unit": "share"}),
    ("specific", "proactivity", {"questions": "specific"}),
    ("specific-share", "proactivity", {"questions": "specific", "unit": "share"}),
    ("paper", "diversity", {}),
    ("embedding", "diversity", {"similarity": "embedding"}),
    ("embedding-0.9", "diversity", {"similarity": "embedding", "sigma_r": 0.9}),
    ("embedding-0.85", "diversity", {"similarity": "embedding", "sigma_r": 0.85}),
    ("paper", "relevance", {"skip_repetitions": False, "unit": "count"}),
    ("default-before", "relevance", {"unit": "count"}),
    ("per-turn", "relevance", {"unit": "per_turn"}),
    ("per-concept", "relevance", {"unit": "per_concept"}),
    ("per-concept-charged", "relevance", {"unit": "per_concept_charged"}),
    ("turn-share", "relevance", {"unit": "turn_share"}),
    ("turn-sqrt", "relevance", {"unit": "turn_sqrt"}),
    ("turn-sqrt-take-up", "relevance", {"unit": "turn_sqrt", "take_up": True}),
    ("reply-embedding", "relevance", {"method": "reply"}),
    ("reply-discounted", "relevance", {"method": "reply", "restating": "discounted"}),
    ("paper", "fluency", {"backend": "ngram", "aggregation": "authors"}),
    ("default-before", "fluency", {"backend": "ngram"}),
    ("worst", "fluency", {"backend": "ngram", "aggregation": "worst"}),
    ("slor", "fluency", {"backend": "ngram", "aggregation": "slor"}),
    # the default LM (SmolLM2): one model pass serves every aggregation (texts are cached)
    ("lm-median", "fluency", {}),
    ("lm-authors", "fluency", {"aggregation": "authors"}),
    ("lm-mean", "fluency", {"aggregation": "mean"}),
    ("lm-trimmed", "fluency", {"aggregation": "trimmed_mean"}),
    ("lm-worst", "fluency", {"aggregation": "worst"}),
    ("lm-slor", "fluency", {"aggregation": "slor"}),
    ("lm-median-all", "fluency", {"skip_repetitions": False}),
]


def dstc9(per_system: int = 0) -> tuple[list[Transcript], list[str], list[dict[str, float]]]:
    """DSTC9 as games: the first ``per_system`` chats of each system (0: all)."""
    games, systems, ratings = [], [], []
    for k in range(1, 12):
        rows = json.loads((DATA / "dstc9" / f"chatbot{k}.json").read_text())
        by_ctx: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            by_ctx[r["context"]].append(r)
        for i, (ctx, rs) in enumerate(by_ctx.items()):
            if per_system and i >= per_system:
                break
            turns = parse_context(ctx)
            if not any(s == SYSTEM for s, _ in turns):
                continue
            first = turns[0][0]
            players = (first, "User" if first == SYSTEM else SYSTEM)
            games.append(Transcript(f"d{k}-{i}", players,
                                    tuple(Turn(j, s, t) for j, (s, t) in enumerate(turns))))
            systems.append(f"s{k:02d}")
            q: dict[str, float] = {}
            for key in rs[0]:
                if key != "context" and (m := mean_rating([r.get(key) for r in rs])) is not None:
                    q[key] = m
            ratings.append(q)
    return games, systems, ratings


def fed() -> tuple[list[Transcript], list[str], list[dict[str, float]]]:
    ds = load_fed(DATA / "fed" / "fed_data.json")
    return [d.transcript() for d in ds], [d.system for d in ds], [d.ratings for d in ds]


def fed_turns() -> tuple[list[Transcript], list[str], list[dict[str, float]]]:
    """FED's turn-level items: the last context turn and the rated response, one game each."""
    items = json.loads((DATA / "fed" / "fed_data.json").read_text())
    games, systems, ratings = [], [], []
    for i, it in enumerate(x for x in items if "response" in x):
        ctx = parse_context(it["context"])
        last = ctx[-1][1] if ctx else ""
        games.append(Transcript(f"t{i}", ("User", SYSTEM), (Turn(0, "User", last),
                                                            Turn(1, SYSTEM, it["response"]))))
        systems.append(str(it.get("system")))
        ratings.append({q: m for q, v in it["annotations"].items()
                        if (m := mean_rating(v)) is not None})
    return games, systems, ratings


def lengths(games: Sequence[Transcript]) -> tuple[list[float], list[float]]:
    mean_len, total = [], []
    for g in games:
        n = [len(tokens(t.text)) for t in g.turns if t.speaker == SYSTEM]
        mean_len.append(statistics.fmean(n) if n else 0.0)
        total.append(float(sum(n)))
    return mean_len, total


def sys_tau(systems: Sequence[str], raw: Sequence[float], human: Sequence[float | None],
            idx: Sequence[int] | None = None) -> float:
    """Kendall tau-b of the systems' mean raw score and mean rating, both over the same
    chats: those where the score applies (not NaN) and people rated the quality, as the
    lab's :func:`chatmatch.stats.bootstrap.agreement` pairs them. (Before 2026-11-27 the
    rating was averaged over all of a system's chats while the score covered only the chats
    where it applied; for consistency on DSTC9, 141 of 2,200 chats, that gave +0.24 where
    the lab gives -0.13 for the same scores.)"""
    idx = range(len(raw)) if idx is None else idx
    a: dict[str, list[float]] = defaultdict(list)
    b: dict[str, list[float]] = defaultdict(list)
    for i in idx:
        if not math.isnan(raw[i]) and human[i] is not None:
            a[systems[i]].append(raw[i])
            b[systems[i]].append(float(human[i]))  # type: ignore[arg-type]
    names = sorted(set(a) & set(b))
    return kendall([statistics.fmean(a[s]) for s in names],
                   [statistics.fmean(b[s]) for s in names], p_value=False).value


def boot(systems: Sequence[str], raw: Sequence[float], human: Sequence[float | None],
         draws: int = 200) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    groups: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(systems):
        groups[s].append(i)
    vals = []
    for _ in range(draws):
        idx = [int(j) for g in groups.values() for j in rng.choice(g, size=len(g))]
        vals.append(sys_tau(systems, raw, human, idx))
    return float(np.nanpercentile(vals, 5)), float(np.nanpercentile(vals, 95))


def rho(x: Sequence[float], y: Sequence[float | None]) -> float:
    pairs = [(a, b) for a, b in zip(x, y) if b is not None and not math.isnan(a)]
    if len(pairs) < 3:
        return math.nan
    return spearman([p[0] for p in pairs], [float(p[1]) for p in pairs], p_value=False).value


def partial_rho(x: Sequence[float], y: Sequence[float | None],
                controls: Sequence[Sequence[float]]) -> float:
    """Spearman rho of x and y with the controls' ranks regressed out of both (partial)."""
    keep = [i for i, (a, b) in enumerate(zip(x, y)) if b is not None and not math.isnan(a)]
    if len(keep) < 5:
        return math.nan
    from scipy.stats import rankdata
    z = np.column_stack([np.ones(len(keep))] + [rankdata([c[i] for i in keep]) for c in controls])
    res = []
    for v in (x, y):
        r = rankdata([float(v[i]) for i in keep])  # type: ignore[arg-type]
        res.append(r - z @ np.linalg.lstsq(z, r, rcond=None)[0])
    return float(np.corrcoef(res[0], res[1])[0, 1])


def measure(name: str, data: tuple[list[Transcript], list[str], list[dict[str, float]]],
            variants: list[tuple[str, str, dict[str, Any]]], col: int,
            also: Sequence[str] = ()) -> list[str]:
    games, systems, ratings = data
    mean_len, total = lengths(games)
    rows = []
    for label, dim, params in variants:
        cls = SCORERS.get(dim)
        try:
            scorer = cls(cls.Params.model_validate(params))
        except ValueError as exc:  # an option this checkout does not have
            print(f"| {name} | {dim} | {label} | skipped: {str(exc).splitlines()[0]} |", flush=True)
            continue
        scored = score_games(games, [scorer])
        raw = []
        for s in scored:
            v = float(s[dim].raw.get(SYSTEM, math.nan))
            raw.append(v if s[dim].higher_is_better else -v)
        for quality in [MATCH[dim][col], *[q for q in also if q != MATCH[dim][col]]]:
            human = [r.get(quality) for r in ratings]
            if not any(h is not None for h in human):
                continue
            lo, hi = boot(systems, raw, human)
            h_len = rho(mean_len, human)
            rows.append(f"| {name} | {dim} | {label} | {quality} | {sys_tau(systems, raw, human):+.2f} "
                        f"[{lo:+.2f}, {hi:+.2f}] | {rho(raw, human):+.2f} | "
                        f"{rho(raw, mean_len):+.2f} / {rho(raw, total):+.2f} | {h_len:+.2f} | "
                        f"{partial_rho(raw, human, (mean_len, total)):+.2f} | "
                        f"{sum(1 for v in raw if not math.isnan(v))} |")
            print(rows[-1], flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated dimensions")
    ap.add_argument("--datasets", default="dstc9,fed")
    ap.add_argument("--labels", default="", help="comma-separated variant labels")
    ap.add_argument("--per-system", type=int, default=0, help="DSTC9: the first N chats a system")
    ap.add_argument("--also", default="", help="comma-separated extra people's qualities to "
                    "compare every variant with (e.g. understanding,Fluent)")
    args = ap.parse_args(argv)
    dims = set(filter(None, args.only.split(",")))
    labels = set(filter(None, args.labels.split(",")))
    chosen = [v for v in VARIANTS if (not dims or v[1] in dims) and (not labels or v[0] in labels)]
    print("| data | dimension | variant | people's quality | system tau [90% CI] | chat rho | "
          "rho with mean turn length / total tokens | people's rho with turn length | "
          "chat rho, length held out | chats scored |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for ds in args.datasets.split(","):
        data = {"dstc9": lambda: dstc9(args.per_system), "fed": fed, "fed-turns": fed_turns}[ds]()
        measure(ds, data, chosen, ["dstc9", "fed", "fed-turns"].index(ds),
                list(filter(None, args.also.split(","))))


if __name__ == "__main__":
    main()
