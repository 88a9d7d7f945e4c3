"""Score chat logs made elsewhere (``chatmatch score``): no bot is run.

Every file (or ParlAI episode) is one game between its two speakers; every speaker found
is ranked. With ``out_dir`` the result is a run directory like the one ``chatmatch run``
writes, so ``chatmatch rank``, ``show``, ``report`` and ``analyze`` accept it.

The optional config file holds the ``scoring``, ``ranking`` and ``seed`` sections of a
tournament YAML (a whole tournament YAML is accepted too; its other keys are ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from chatmatch.config import PresetName, TournamentConfig, error_from_validation
from chatmatch.errors import ChatmatchError, RunDirError, TranscriptError
from chatmatch.importers import load_transcripts
from chatmatch.progress import Reporter
from chatmatch.ranking import Ranking, RankingConfig, rank
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.points import GameResult, result_from_scores
from chatmatch.store import RunDir
from chatmatch.transcript import Transcript
from chatmatch.yamlloc import load_located_yaml


class ScoreConfig(BaseModel):
    """What ``chatmatch score --config`` reads."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: PresetName = None
    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    ranking: RankingConfig = Field(default_factory=RankingConfig)
    seed: int = 0

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:
        from chatmatch.presets import apply_preset

        return apply_preset(data)


#: tournament keys that mean nothing when scoring logs (accepted and ignored)
_IGNORED = set(TournamentConfig.model_fields) - set(ScoreConfig.model_fields)


def load_score_config(path: str | Path | None, preset: str | None = None) -> ScoreConfig:
    """The config file's scoring/ranking/seed sections; ``preset`` (``--preset``) replaces
    the file's ``preset`` key, and the file's explicit keys still win over it."""
    if preset is not None:
        from chatmatch.presets import PRESETS, unknown_preset_message

        if preset not in PRESETS:
            raise ChatmatchError(f"--preset: {unknown_preset_message(preset)}")
    if path is None:
        return ScoreConfig.model_validate({"preset": preset} if preset else {})
    located = load_located_yaml(path)
    data = located.data
    if not isinstance(data, dict):
        from chatmatch.errors import ConfigError

        raise ConfigError("expected a mapping with 'scoring', 'ranking' or 'seed' sections",
                          file=located.file, line=1)
    data = {k: v for k, v in data.items() if k not in _IGNORED}
    if preset is not None:
        data["preset"] = preset
    try:
        return ScoreConfig.model_validate(data)
    except ValidationError as exc:
        raise error_from_validation(exc, located) from None


@dataclass
class ScoredLogs:
    games: list[Transcript]
    results: list[GameResult]
    ranking: Ranking
    speakers: list[str]
    skipped: list[TranscriptError] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        from chatmatch.store import _nan_to_none

        games = [{"file": g.meta.get("file"), "source_id": g.meta.get("source"), "game_id": r.game_id,
                  "players": list(g.players), "raw": r.raw, "points": r.points,
                  "total": r.total, "winner": r.winner, "not_applicable": r.not_applicable}
                 for g, r in zip(self.games, self.results)]
        return _nan_to_none({"games": games, "ranking": [row.to_json() for row in self.ranking.rows],
                             "method": self.ranking.method,
                             "skipped": [str(e) for e in self.skipped]})


def _renumber(games: Sequence[Transcript]) -> list[Transcript]:
    """Give games file-name-safe ids g001, g002, ... and keep where each came from."""
    width = max(3, len(str(len(games))))
    out = []
    for i, g in enumerate(games, 1):
        meta = {**g.meta, "source": g.game_id}
        out.append(Transcript(f"g{i:0{width}d}", g.players, g.turns, g.seed_utterance, meta))
    return out


def score_logs(paths: Sequence[Path], cfg: ScoreConfig, *, strict: bool = False,
               out_dir: Path | None = None, reporter: Reporter | None = None) -> ScoredLogs:
    """Score and rank the games in ``paths``; ``reporter`` shows what is about to be scored
    (one line, before the long part starts) and the scoring progress."""
    from chatmatch.scoring.engine import load_scorers, score_games

    rep = reporter or Reporter.off()
    if out_dir is not None:  # refuse before the long part, not after it
        _check_out_dir(Path(out_dir))
    games, skipped = load_transcripts(list(paths), strict=strict)
    if not games:
        detail = "".join(f"\n  {e}" for e in skipped[:5])
        if len(skipped) > 5:
            detail += f"\n  ... and {len(skipped) - 5} more"
        raise ChatmatchError(f"no game found in {', '.join(map(str, paths))}; give transcript "
                             "files (chatmatch JSON Lines, 'SPEAKER: text' lines, or ParlAI JSON "
                             "Lines) or folders of them" + (f". Could not read:{detail}" if detail else ""))
    games = _renumber(games)
    speakers = sorted({p for g in games for p in g.players})
    turns = sum(len(g.turns) for g in games)
    rep.note(f"scoring {len(games):,} game(s), {turns:,} turns, between {len(speakers)} "
             f"speaker(s) on {len(cfg.scoring.dimensions)} dimension(s)"
             + (f" ({len(skipped)} file(s) skipped)" if skipped else ""))
    scorers = cfg.scoring.build_scorers()
    weights = {s.name: cfg.scoring.weight(s.name) for s in scorers}
    load_scorers(scorers, rep)
    per_game = score_games(games, scorers, reporter=rep)
    results = [result_from_scores(g.game_id, g.players, dims, weights)
               for g, dims in zip(games, per_game)]
    ranking = rank(results, speakers, cfg.ranking, cfg.seed)
    out = ScoredLogs(games, results, ranking, speakers, skipped)
    if out_dir is not None:
        _write_run(out_dir, cfg, out, per_game, [s.describe() for s in scorers])
    return out


def _check_out_dir(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise RunDirError(f"{path}: is a file; give a new --out folder")
    if path.is_dir() and any(path.iterdir()):
        raise RunDirError(f"{path} already exists and is not empty; give a new --out folder")


def _write_run(out_dir: Path, cfg: ScoreConfig, scored: ScoredLogs, per_game: list[dict[str, Any]],
               scorers: list[dict[str, Any]]) -> None:
    import yaml

    store = RunDir(Path(out_dir))
    _check_out_dir(store.path)
    try:
        store.path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from chatmatch.errors import StorageError

        raise StorageError.from_os_error(exc, store.path, "create the folder") from None
    config = {"name": f"scored logs ({len(scored.games)} games)",
              "bots": [{"name": s, "adapter": "imported-log"} for s in scored.speakers],
              "scoring": cfg.scoring.model_dump(mode="json"),
              "ranking": cfg.ranking.model_dump(mode="json"), "seed": cfg.seed}
    store.write_config(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    for g, r, dims in zip(scored.games, scored.results, per_game):
        store.save_transcript(g)
        store.save_scores(g.game_id, {"game_id": g.game_id, "players": list(g.players),
                                      "source": g.meta.get("source"),
                                      "dimensions": {d: s.to_json() for d, s in dims.items()},
                                      "points": r.points, "total": r.total, "winner": r.winner})
        store.append_result(r)
    manifest = store.note_event({"name": config["name"], "bots": scored.speakers,
                                 "expected_games": len(scored.games), "source": "chatmatch score",
                                 "files": sorted({str(g.meta.get("source")) for g in scored.games}),
                                 "scorers": {d["name"]: d for d in scorers}}, "scored logs")
    store.write_manifest(manifest)
    for method in dict.fromkeys([cfg.ranking.method, "points"]):
        r = rank(scored.results, scored.speakers, cfg.ranking, cfg.seed, method=method,
                 expected_games=len(scored.games))
        store.save_ranking(method, r.to_json(), r.to_csv())
