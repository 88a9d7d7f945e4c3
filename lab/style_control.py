# lab experiment, 2026-11-27: Does bt-style (holding length equal) move agreement with people on Spot The Bot?
"""Does holding length (and style) equal move agreement with people? Spot The Bot's bot-bot
games per domain, ranked by plain Bradley-Terry and by bt-style, against the crowd's
win-rate and fooling-rate rankings (Kendall tau-b).

    python lab/style_control.py --data ../shared/data --stb-sample 60 \\
        --cache /work/notes/learn-cache

Games are scored with the learned judge's rule settings (fluency on the n-gram model);
``--stb-sample N`` uses the first N judged conversations of each domain (the crowd's
reference ranking is over all of its judgements). Prints one table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from chatmatch.common.tables import render_table
from chatmatch.ranking import RankingConfig, rank
from chatmatch.records import DimensionScore
from chatmatch.scoring.learned.features import side_stats
from chatmatch.scoring.points import result_from_scores
from chatmatch.validity.lab.games import tau
from chatmatch.validity.training.data import stb_sides
from chatmatch.validity.training.table import rule_scores
from chatmatch.validity.datasets.stb import load_stb

METHODS = {
    "bt": {"method": "bt", "bt": {"bootstrap": 0}},
    "bt-style: length": {"method": "bt-style", "bt-style": {"bootstrap": 0}},
    "bt-style: length, questions, lists": {
        "method": "bt-style",
        "bt-style": {"bootstrap": 0, "covariates": ["turn_length", "proactivity", "markdown"]}},
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--stb-sample", type=int, default=None)
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args()
    sides = stb_sides(args.data, args.stb_sample)
    scores = rule_scores(sides, args.cache)
    refs = {d.domain: d.human_rankings() for d in load_stb(args.data / "stb")}
    rows = []
    for domain in refs:
        games = list({s.game.game_id: s.game for s in sides
                      if s.system.startswith(domain + "/")}.values())
        results = []
        for g in games:
            sc = dict(scores[f"stb:{g.game_id}"])
            for name, stat in (("turn_length", "turn_words"), ("markdown", "list_rate")):
                sc[name] = DimensionScore(name, {p: side_stats(g, p)[stat] for p in g.players}, True)
            w = {d: (0.0 if d in ("turn_length", "markdown") else 1.0) for d in sc}
            results.append(result_from_scores(g.game_id, g.players, sc, w))
        bots = sorted({p for g in games for p in g.players})
        for label, cfg in METHODS.items():
            r = rank(results, bots, RankingConfig.model_validate(cfg)).rank_of()
            rows.append([domain, len(games), label,
                         *(f"{tau(r, refs[domain][k]):+.2f}" for k in ("win rate", "fooling rate"))])
    print(render_table(["domain", "games", "ranking", "tau win rate", "tau fooling rate"], rows))


if __name__ == "__main__":
    main()
