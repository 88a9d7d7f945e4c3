# lab experiment, 2026-12-03: Do the people's own scores follow the system's in human-bot chats, so that points against them cancel what the system earned?
"""Does the person's side follow the system's in DSTC9 and FED?

Scores the chats of DSTC9 (a seeded draw of ``--sample`` chats a system, as ``chatmatch
validate --sample`` draws them) and FED with the lab's default scorers, and prints per
dimension the system-level Kendall tau with people's overall rating of:

* the System's raw score (oriented, higher is better: the lab's "alone");
* the User's raw score in the same chats (if people's scores follow the system's, this is
  positive: a person answers a sensible turn sensibly);
* the System's point against the User (what the dimension adds to the lab's points
  against the person);
* the dimension alone in cross-system games (:func:`chatmatch.analysis.fed.cross_system_rates`).

2026-12-03 (SmolLM2, 50 DSTC9 chats a system, seed 0): the User's relevance +0.56,
fluency +0.53, knowledge +0.45, proactivity +0.42 follow the system; the points against the
User fall to about 0 while the System's raw scores and the cross-system games keep their
agreement. The whole ranking: points against the person +0.02, cross-system games +0.49.

    CHATMATCH_DATA=/path/to/data PYTHONPATH=$PWD nice python lab/partner_mirroring.py [--ngram-fluency] [--sample 50]
"""

from __future__ import annotations

import math
from pathlib import Path

import common

from chatmatch.analysis.fed import (SYSTEM, USER, cross_system_rates, load_fed, system_means,
                                    system_points)
from chatmatch.scoring.engine import score_games
from chatmatch.stats.correlation import kendall
from chatmatch.validity.datasets.dstc9 import OVERALL as DSTC9_OVERALL
from chatmatch.validity.datasets.dstc9 import load_dstc9


def side(games, dim, who):
    out = []
    for g in games:
        s = g[dim]
        v = math.nan if who in s.not_applicable else float(s.raw.get(who, math.nan))
        out.append(v if s.higher_is_better else -v)
    return out


def tau(chats, values, people):
    mine = system_means(chats, values)
    systems = sorted(set(mine) & set(people))
    return kendall([mine[s] for s in systems], [people[s] for s in systems]).value


def main() -> None:
    ap = common.parser(__doc__, "the folder holding dstc9/ and fed/")
    ap.add_argument("--sample", type=int, default=50, help="DSTC9 chats a system (default 50)")
    args = ap.parse_args()
    cfg, scorers, weights = common.scorers(ap, args, args.ngram_fluency)
    data = Path(args.data)
    sets = [("dstc9", load_dstc9(data / "dstc9").sample(args.sample, cfg.seed).chats, DSTC9_OVERALL),
            ("fed", load_fed(data / "fed" / "fed_data.json"), "Overall")]
    for name, chats, overall in sets:
        chats = list(chats)
        transcripts = [c.transcript() for c in chats]
        games = score_games(transcripts, scorers)
        people = system_means(chats, [c.ratings.get(overall, math.nan) for c in chats])
        print(f"\n{name}: {len(chats)} chats, {len(people)} systems; system tau with people's {overall}")
        print(f"{'dimension':12s} {'System raw':>10s} {'User raw':>9s} {'point vs User':>13s} "
              f"{'cross-system':>12s} {'System wins':>11s}")
        for dim in cfg.scoring.dimensions:
            only = {d: float(d == dim) for d in cfg.scoring.dimensions}
            points = system_points(transcripts, games, only)
            print(f"{dim:12s} {tau(chats, side(games, dim, SYSTEM), people):+10.2f} "
                  f"{tau(chats, side(games, dim, USER), people):+9.2f} "
                  f"{tau(chats, points, people):+13.2f} "
                  f"{tau(chats, cross_system_rates(chats, games, only), people):+12.2f} "
                  f"{sum(p > 0 for p in points) / len(points):11.0%}")
        print(f"{'whole':12s} {'':>10s} {'':>9s} "
              f"{tau(chats, system_points(transcripts, games, weights), people):+13.2f} "
              f"{tau(chats, cross_system_rates(chats, games, weights), people):+12.2f}")


if __name__ == "__main__":
    main()
