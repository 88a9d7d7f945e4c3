# lab experiment, 2026-12-02: does the combined judge hold the gaming suite? (issue 43 part 3)
"""The gaming suite's games played once, judged by the rule judge (every default), the
learned judge and the combined judge; each recipe's rank under each.

The games are those of ``chatmatch validate --datasets gaming --gaming-exchanges N``
(tournaments/gaming.yaml, its seed); they are kept in ``--games FILE`` (JSON lines, one
game a line) so that judging again does not play again. The verdicts are
:func:`chatmatch.validity.lab.gaming.evaluate_gaming`'s, one ranking seed.

    PYTHONPATH=$PWD nice .venv/bin/python lab/combined_gaming.py --exchanges 6 \\
        --games /tmp/gaming-6.jsonl [--combined-model FILE] [--json out.json] [--no-canned]
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from chatmatch.config.tournament import load_config
from chatmatch.scoring.build import build_scorers
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games
from chatmatch.transcript import Transcript
from chatmatch.validity.lab.gaming import REFERENCE, evaluate_gaming, play_gaming, recipes_of
from chatmatch.validity.lab.games import GameDataset

ap = argparse.ArgumentParser()
ap.add_argument("--gaming", type=Path, default=Path("tournaments/gaming.yaml"))
ap.add_argument("--exchanges", type=int, default=6)
ap.add_argument("--games", type=Path, required=True)
ap.add_argument("--combined-model", default=None)
ap.add_argument("--judges", default="rule,learned,combined")
ap.add_argument("--json", type=Path, default=None)
ap.add_argument("--no-canned", action="store_true",
                help="the rule judge without canned turns (scoring.canned: false), as before 2026-12-04")
ap.add_argument("--weights", default="",
                help="the rule judge's dimension weights, e.g. fluency=2,relevance=2 (default 1)")
args = ap.parse_args()
try:
    rule_weights = {k.strip(): float(v) for k, v in
                    (w.split("=", 1) for w in args.weights.split(",") if w.strip())}
except ValueError:
    ap.error(f"--weights {args.weights!r}: write dimension=number pairs joined by commas, "
             "e.g. fluency=2,relevance=2")

cfg = load_config(args.gaming)
if args.games.is_file():
    games = tuple(Transcript.from_jsonl("\n".join(lines))
                  for lines in json.loads(args.games.read_text()))
    recipes = recipes_of(cfg)
    ds = GameDataset("gaming", games,
                     {REFERENCE: {b: (0.0 if b in recipes else 1.0) for b in cfg.bot_names}},
                     facts={"exchanges": args.exchanges, "seed": cfg.seed, "forfeits": 0,
                            "file": str(args.gaming), "recipes": recipes,
                            "real": [b for b in cfg.bot_names if b not in recipes]})
else:
    ds = play_gaming(args.gaming, args.exchanges)
    args.games.write_text(json.dumps([list(g.to_lines()) for g in ds.games]))

judges = {"rule": ScoringConfig(weights=rule_weights, canned=not args.no_canned),
          "learned": ScoringConfig(dimensions=["learned"]),
          "combined": ScoringConfig(dimensions=["combined"],
                                    params={"combined": {"model": args.combined_model}})}
out = {}
for name in args.judges.split(","):
    sc = judges[name]
    scores = score_games(list(ds.games), build_scorers(sc))
    report = evaluate_gaming(ds, scores, {d: sc.weight(d) for d in sc.dimensions}, cfg.ranking,
                             seed=cfg.seed, seeds=1)
    table = report["gaming"]
    out[name] = {"ranking": report["ranking"], "gaming": table}
    print(f"== {name}: holds={table['holds']} failing={table['failing']} "
          f"real ranks={table['real_ranks']}")
    print("   ranking: " + " > ".join(report["ranking"]))
    for r in table["recipes"]:
        print(f"   {r['recipe']:12s} rank {r['rank']:2d}  win rate {r['win_rate']}  "
              f"wins most: {r['wins_most']}  canned {table['canned'].get(r['recipe'])}")
if args.json:
    args.json.write_text(json.dumps(out, indent=1))
