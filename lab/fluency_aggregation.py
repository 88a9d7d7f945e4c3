# lab experiment, 2026-11-23: Which fluency aggregation orders built runs of known order best?
"""Fluency alone on stored runs whose true order is known: Kendall tau per aggregation.

    .venv/bin/python lab/fluency_aggregation.py RUN:best,second,... [RUN:...]
        [--backend ngram]

Each RUN's transcripts are re-scored on fluency only, for every ``aggregation`` with and
without ``skip_repetitions``, and ranked by match points; the tau compares the order of
the named bots (best first, as built: e.g. tournaments/ladder.yaml's base > faulty-20 >
faulty-50 > faulty-80) with chatmatch's. A small, built check, not a human judgement:
the validity lab (``chatmatch validate``) is where the default is chosen.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scipy.stats import kendalltau

from chatmatch.run.scorelogs import ScoreConfig, score_logs

AGGREGATIONS = ("median", "mean", "capped_mean", "trimmed_mean", "authors")


def fluency_tau(run: Path, truth: list[str], backend: str, aggregation: str, exclude: bool) -> float:
    cfg = ScoreConfig.model_validate({"scoring": {"dimensions": ["fluency"], "params": {"fluency": {
        "backend": backend, "aggregation": aggregation, "skip_repetitions": exclude}}},
        "ranking": {"method": "points"}})
    order = [b for b in score_logs([run / "transcripts"], cfg).ranking.order() if b in truth]
    return float(kendalltau([truth.index(b) for b in order], range(len(order))).statistic)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN:bot,bot,...")
    ap.add_argument("--backend", default="ngram", choices=["ngram", "transformers"])
    args = ap.parse_args()
    runs = [(Path(r.split(":")[0]), r.split(":")[1].split(",")) for r in args.runs]
    print(f"{'aggregation':14} {'excl. rep.':10} " + " ".join(f"{p.name:>14}" for p, _ in runs))
    for aggregation in AGGREGATIONS:
        for exclude in (False, True):
            cells = [f"{fluency_tau(p, truth, args.backend, aggregation, exclude):14.2f}"
                     for p, truth in runs]
            print(f"{aggregation:14} {str(exclude):10} " + " ".join(cells))


if __name__ == "__main__":
    main()
