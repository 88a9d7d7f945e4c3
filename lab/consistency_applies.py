# lab experiment, 2026-11-27: In how many games of a 100-exchange tournament of the offline bots does consistency apply, and decide the point?
"""How often does consistency apply in a 100-exchange tournament of the offline bots?

Plays a double round-robin of ``chatterbot``, ``retrieval``, ``eliza`` and ``canned`` (the
paper tournament's bots less ``smollm2``, whose generation costs minutes a game on a CPU)
at 100 exchanges, as ``chatmatch run`` plays it (in memory), and scores consistency with
each variant: the share of games where it *applies* (some bot was tested) and where it
is *played* (both bots tested: when either is untested nobody wins the point, a tie) and
where it *decides* the point (both tested, scores differ).

    PYTHONPATH=$PWD nice python lab/consistency_applies.py [--exchanges 100]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from chatmatch.config.tournament import load_config
from chatmatch.executors.local import LocalExecutor
from chatmatch.play.schedule import double_round_robin
from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import dimension_winner
from chatmatch.transcript import Transcript

TOURNAMENT = """name: applies
bots:
  - {name: chatterbot, adapter: chatterbot}
  - {name: retrieval, adapter: retrieval}
  - {name: eliza, adapter: eliza}
  - {name: canned, adapter: canned}
seed_utterance: What did you do last week?
exchanges: %d
seed: 2022
"""
VARIANTS = {"answers to repeated questions (before issue 32)": {"identity": False,
                                                                 "self_contradictions": False},
            "+ identity (default of issue 32's round two)": {"self_contradictions": False},
            "+ identity + self, polarity": {"contradiction": "polarity"},
            "+ identity + self, same predicate (default now)": {},
            "default, sigma_r 0.8": {"sigma_r": 0.8},
            "default, sigma_r 0.6": {"sigma_r": 0.6}}


def play(exchanges: int) -> list[Transcript]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.yaml"
        path.write_text(TOURNAMENT % exchanges)
        cfg = load_config(path)
    games: list[Transcript] = []
    executor = LocalExecutor(cfg)
    try:
        executor.start(set(cfg.bot_names))
        executor.play(double_round_robin(cfg.bot_names, cfg.seed_utterances, cfg.seed), games.append)
    finally:
        executor.close()
    return [g for g in games if g.forfeit is None]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--exchanges", type=int, default=100)
    args = ap.parse_args()
    games = play(args.exchanges)
    print(f"{len(games)} games of {args.exchanges} exchanges\n")
    print("| variant | a bot tested | both tested (the point is played) | decides (scores differ) "
          "| tested / game | inconsistent |")
    print("|---|---|---|---|---|---|")
    for label, params in VARIANTS.items():
        scores = [s["consistency"] for s in score_games(games, [Consistency(Consistency.Params(**params))])]
        applies = sum(len(s.not_applicable) < len(s.raw) for s in scores)
        both = sum(not s.not_applicable for s in scores)
        decides = sum(not s.not_applicable and dimension_winner(*s.raw.values(), True) != 0
                      for s in scores)
        tested = sum(1 for s in scores for d in s.details) / len(scores)
        bad = sum(1 for s in scores for d in s.details if d.get("inconsistent"))
        print(f"| {label} | {applies}/{len(scores)} | {both}/{len(scores)} | {decides}/{len(scores)} "
              f"| {tested:.1f} | {bad} |",
              flush=True)


if __name__ == "__main__":
    main()
