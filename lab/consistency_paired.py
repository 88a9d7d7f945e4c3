# lab experiment, 2026-11-25: Does the embedding consistency option beat the paper's TF-IDF rate on all DSTC9 chats, paired?
"""Consistency options on ALL DSTC9 chats, each against people's "consistent", and paired.

The lab (`chatmatch validate --sample 50`) sees about 40 chats with a repeated question;
this script scores all 2,200 (94 hold one) with every consistency option below, and
prints, with the lab's own statistics (:mod:`chatmatch.stats.bootstrap`: chats
resampled within each system, 1000 resamples, seed 0, 95% intervals): how many chats each
option tests and charges, its system-level tau-b and chat-level rho against people, and
each option minus the paper's TF-IDF rate (the default before issue 20's consistency part)
and minus ``embedding`` without the polarity check, paired on the chats both test.

    CHATMATCH_DATA=../shared/data PYTHONPATH=$PWD nice python lab/consistency_paired.py
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Sequence

from chatmatch.analysis.fed import SYSTEM
from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.engine import score_games
from chatmatch.validity.datasets.dstc9 import load_dstc9
from chatmatch.stats.bootstrap import Estimate, agreement, paired_difference

DATA = Path(os.environ.get("CHATMATCH_DATA", "../shared/data"))

#: label -> consistency params; the first is the baseline of the paired columns
OPTIONS: dict[str, dict[str, Any]] = {
    "tfidf (before)": {"similarity": "tfidf"},
    "tfidf, specific": {"similarity": "tfidf", "questions": "specific"},
    "embedding": {"similarity": "embedding", "polarity": False},
    "embedding, specific": {"similarity": "embedding", "polarity": False, "questions": "specific"},
    "embedding + polarity (default)": {},
    "embedding + polarity, specific": {"questions": "specific"},
}


def fmt(e: Estimate) -> str:
    if e.value is None:
        return "n/a"
    return f"{e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}]"


def measure(systems: Sequence[str], ratings: Sequence[float],
            values: dict[str, list[float]], charged: dict[str, int]) -> None:
    base, meaning = values["tfidf (before)"], values["embedding"]
    print("| option | chats tested | charged | system tau [95%] | chat rho [95%] | "
          "tau - tfidf | rho - tfidf | tau - embedding | rho - embedding |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, vals in values.items():
        tau, rho, _, n = agreement(systems, vals, ratings)
        d1 = paired_difference(systems, base, vals, ratings)
        d2 = paired_difference(systems, meaning, vals, ratings)
        print(f"| {label} | {n} | {charged[label]} | {fmt(tau)} | {fmt(rho)} | {fmt(d1[0])} | "
              f"{fmt(d1[1])} | {fmt(d2[0])} | {fmt(d2[1])} |", flush=True)


def main() -> None:
    data = load_dstc9(DATA / "dstc9")
    games = [c.transcript() for c in data.chats]
    systems = [c.system for c in data.chats]
    ratings = [c.ratings.get("consistent", math.nan) for c in data.chats]
    values: dict[str, list[float]] = {}
    charged: dict[str, int] = {}
    for label, params in OPTIONS.items():
        scorer = Consistency(Consistency.Params.model_validate(params))
        scored = [s["consistency"] for s in score_games(games, [scorer])]
        values[label] = [float(s.raw.get(SYSTEM, math.nan)) for s in scored]
        charged[label] = sum(1 for v in values[label] if not math.isnan(v) and v < 0)
    measure(systems, ratings, values, charged)


if __name__ == "__main__":
    main()
