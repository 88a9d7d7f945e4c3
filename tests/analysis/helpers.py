"""Build run directories from hand-made game results (no bot, no scorer)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping, Sequence

import yaml

from chatmatch.records import DimensionScore, GameResult, Manifest, ScoreRecord
from chatmatch.rundir.store import RunDir
from chatmatch.scoring.points import award_points
from chatmatch.transcript import Transcript, make_transcript

DIMS = ("d1", "d2", "d3", "d4", "d5", "d6", "d7")


def game(gid: str, a: str, b: str, a_wins: Sequence[str] = (), b_wins: Sequence[str] = (),
         dims: Sequence[str] = DIMS, weights: Mapping[str, float] | None = None) -> GameResult:
    """A game in which ``a`` wins the dimensions ``a_wins``, ``b`` wins ``b_wins`` and the
    other dimensions are ties (raw 1 beats raw 0, higher is better)."""
    raw = {a: {d: float(d in a_wins) for d in dims}, b: {d: float(d in b_wins) for d in dims}}
    return award_points(gid, (a, b), raw, {d: True for d in dims}, weights or {})


def won(gid: str, a: str, b: str, a_points: int, b_points: int) -> GameResult:
    """A game where ``a`` wins the first ``a_points`` dimensions and ``b`` the next ``b_points``."""
    return game(gid, a, b, DIMS[:a_points], DIMS[a_points:a_points + b_points])


def write_run(path: Path, bots: Sequence[str], results: Sequence[GameResult], *,
              method: str = "points", seed: int = 0, shuffles: int = 3,
              weights: Mapping[str, float] | None = None,
              transcripts: Sequence[Transcript] = (),
              scores: Mapping[str, dict] | None = None) -> Path:
    """A run directory as the runner writes it, from results made by hand."""
    store = RunDir(path)
    path.mkdir(parents=True, exist_ok=True)
    store.write_manifest(Manifest(name=path.name, bots=tuple(bots), expected_games=len(results)))
    cfg = {"name": path.name, "bots": [{"name": b, "adapter": "canned"} for b in bots],
           "seed": seed, "ranking": {"method": method, "shuffles": shuffles},
           "scoring": {"weights": dict(weights or {})}}
    store.write_config(yaml.safe_dump(cfg, sort_keys=False))
    given = {tr.game_id for tr in transcripts}
    for r in results:  # a run directory is consistent: each result has a transcript and scores
        if r.game_id not in given:
            store.save_transcript(make_transcript(r.game_id, r.players, ["Hi", "Hello"]))
        if r.game_id not in (scores or {}):
            store.save_scores(score_record(r))
        store.append_result(r)
    for tr in transcripts:
        store.save_transcript(tr)
    points = {r.game_id: r.points for r in results}
    for gid, doc in (scores or {}).items():  # the result's points, as the runner records them
        store.save_scores(ScoreRecord.from_json({**doc, "points": points.get(gid, doc.get("points"))}))
    return path


def score_record(r: GameResult) -> ScoreRecord:
    """The score record the runner would have written with result ``r``."""
    if r.forfeit:
        return ScoreRecord(r.game_id, forfeit=r.forfeit)
    dims = {d: DimensionScore(d, {p: r.raw[p][d] for p in r.players}, r.higher_is_better.get(d, True))
            for d in r.raw[r.players[0]]}
    return ScoreRecord.of(r, dims)


def write_yaml(path: Path, data: object) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False) if not isinstance(data, str) else data)
    return path


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path
