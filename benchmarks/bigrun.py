"""Build a big run directory from an existing run's transcripts (no bot, no scorer): ``bots``
bots and ``games`` games, each a copy of one of the source run's games with the players
renamed and the raw scores jittered (seeded), so the ranking has something to order. The
files are written the way the runner writes them (transcript, score record, checksummed
result line), so every reader's integrity checks pass. Used by benchmarks/bench_view.py.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import yaml

from chatmatch.records import DimensionScore, Manifest, ScoreRecord
from chatmatch.rundir.store import RunDir
from chatmatch.scoring.points import award_points
from chatmatch.transcript import Transcript


def build_big_run(source: Path, out: Path, bots: int = 100, games: int = 2000,
                  seed: int = 0, rank: bool = True) -> Path:
    """Write the run to ``out`` (a new folder) and return it; ``rank``: store its
    ranking in ``rankings/`` as a finished run has it."""
    src = RunDir(source)
    transcripts = [t for t in src.transcripts().values() if t.forfeit is None]
    records = {gid: src.load_scores(gid) for gid in (t.game_id for t in transcripts)}
    pool = [(t, records[t.game_id]) for t in transcripts if records[t.game_id] is not None]
    names = [f"bot{i:03d}" for i in range(bots)]
    skill = {b: i / bots for i, b in enumerate(names)}
    rng = random.Random(seed)
    store = RunDir(out)
    out.mkdir(parents=True)
    store.write_manifest(Manifest(name=out.name, bots=tuple(names), expected_games=games))
    store.write_config(yaml.safe_dump({
        "name": out.name, "bots": [{"name": b, "adapter": "canned"} for b in names],
        "seed": seed, "ranking": {"method": "trueskill", "shuffles": 5}}, sort_keys=False))
    for g in range(games):
        tr, rec = pool[g % len(pool)]
        assert rec is not None
        a, b = rng.sample(names, 2)
        rename = dict(zip(tr.players, (a, b)))
        gid = f"g{g + 1:05d}"
        turns = tuple(replace(t, speaker=rename.get(t.speaker, t.speaker)) for t in tr.turns)
        store.save_transcript(Transcript(gid, (a, b), turns, tr.seed_utterance, dict(tr.meta)))
        dims = {d: DimensionScore(d, {rename[p]: v + rng.gauss(skill[rename[p]], 0.5)
                                      for p, v in s.raw.items()}, s.higher_is_better, s.details)
                for d, s in rec.dimensions.items()}
        raw = {p: {d: dims[d].raw[p] for d in dims} for p in (a, b)}
        result = award_points(gid, (a, b), raw, {d: s.higher_is_better for d, s in dims.items()}, {})
        digest = store.save_scores(ScoreRecord.of(result, dims))
        store.append_result(result, digest)
    if rank:  # a finished run stores its ranking, as `chatmatch run` does
        from chatmatch.run.storedrun import Run
        r = Run.load(out).rank()
        store.save_ranking(r.method, r.to_json(), r.to_csv())
    return out


if __name__ == "__main__":
    import sys
    build_big_run(Path(sys.argv[1]), Path(sys.argv[2]))
    print(json.dumps({"written": sys.argv[2]}))
