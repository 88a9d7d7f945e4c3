# lab experiment, 2026-12-03: In Spot The Bot's games, which dimensions decide each pair of systems, against the people's win rate?
"""Which dimensions decide Spot The Bot's games, pair by pair?

Scores every bot-bot conversation of each Spot The Bot domain with the lab's default
scorers (as ``chatmatch validate`` does) and counts, for each pair of systems and each
dimension, the games each side won and the ties. Printed beside the people's win rate of
each system, it shows which dimensions put a pair in the opposite order to people's
(2026-12-02: the retrieval bot ``bert_rank`` wins specificity in 43 of 45 games against
``huggingface`` in convai2, and proactivity in 27, where people prefer ``huggingface``).

    CHATMATCH_DATA=/path/to/data PYTHONPATH=$PWD nice python lab/stb_pair_wins.py [--ngram-fluency]

Fluency under the default SmolLM2 reads every turn (about an hour cold on 2 cores; the
perplexity cache keeps them); ``--ngram-fluency`` uses the n-gram approximation instead.
"""

from __future__ import annotations

import collections
import os

import common

from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import result_from_scores
from chatmatch.validity.datasets.stb import load_stb


def main() -> None:
    ap = common.parser(__doc__, "the folder holding stb/MongoDump.zip")
    args = ap.parse_args()
    _, scorers, _ = common.scorers(ap, args, args.ngram_fluency)
    for dom in load_stb(os.path.join(args.data, "stb")):
        wins = dom.human_rankings()["win rate"]
        print(dom.domain, "people's win rate:",
              ", ".join(f"{s} {wins[s]:.2f}" for s in sorted(wins, key=lambda s: wins[s], reverse=True)))
        table: dict[tuple[str, str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for game, scores in zip(dom.games, score_games(dom.games, scorers)):
            a, b = sorted(game.players)  # the points as a game awards them (a tie: nobody's)
            points = result_from_scores(game.game_id, (a, b), scores, {}).points
            for dim in scores:
                pa, pb = points[a][dim], points[b][dim]
                table[(a, b, dim)]["a" if pa > pb else "b" if pb > pa else "tie"] += 1
        for (a, b, dim), c in sorted(table.items()):
            print(f"  {a:22s} vs {b:22s} {dim:12s} {a} {c['a']:3d}  {b} {c['b']:3d}  tie {c['tie']:3d}")


if __name__ == "__main__":
    main()
