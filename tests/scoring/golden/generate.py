"""Golden files for the scorers: every dimension's verdict on a few committed games.

The games in ``transcripts/`` are hand-written (plain text, and one chatmatch JSON Lines
game with a seed turn): repeated questions and answers, an inconsistent answer, a memory
bonus, named entities against "ok", a game with no question at all, emoji and unknown
words, contradictions to repeated questions. Each :data:`CONFIGS` entry scores them on
every dimension with the n-gram fluency backend (no model download), and this script
writes, per game and dimension, the raw values, the points and the winner, the bots the
dimension did not apply to, and the scorer's per-turn details to ``<config>.json``.

``test_golden.py`` recomputes them and compares. After an intended change to a scorer,
regenerate from the repository root, review the diff and commit it::

    python -m tests.scoring.golden.generate

The n-gram model is trained on first use into the cache folder (``CHATMATCH_CACHE_DIR``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from chatmatch.run.importers import load_transcripts
from chatmatch.run.scorelogs import ScoreConfig
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import result_from_scores
from chatmatch.scoring.build import build_scorers

HERE = Path(__file__).resolve().parent
TRANSCRIPTS = HERE / "transcripts"
REGENERATE = "python -m tests.scoring.golden.generate"

_NGRAM = {"scoring": {"params": {"fluency": {"backend": "ngram"}}}}
#: golden file name -> the ``chatmatch score --config`` data it is scored with
CONFIGS: dict[str, dict[str, Any]] = {
    "default": _NGRAM,
    "paper": {"preset": "paper", **_NGRAM},
}


def plain(value: Any) -> Any:
    """``value`` as JSON would give it back (tuples as lists), NaN and infinities as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def compute(config: str) -> dict[str, Any]:
    """The golden document for ``CONFIGS[config]``."""
    return compute_with(CONFIGS[config], REGENERATE)


def compute_with(data: dict[str, Any], regenerate: str) -> dict[str, Any]:
    """The golden document of the committed games scored with ``data`` (a score config)."""
    cfg = ScoreConfig.model_validate(data)
    games, _ = load_transcripts([TRANSCRIPTS], strict=True)
    scorers = build_scorers(cfg.scoring)
    weights = {s.name: cfg.scoring.weight(s.name) for s in scorers}
    out = []
    for game, dims in zip(games, score_games(games, scorers)):
        result = result_from_scores(game.game_id, game.players, dims, weights)
        verdicts = {}
        for name, score in dims.items():
            points = {p: result.points[p][name] for p in game.players}
            winners = [p for p, v in points.items() if v > 0]
            verdicts[name] = {"raw": score.raw, "higher_is_better": score.higher_is_better,
                              "not_applicable": score.not_applicable, "points": points,
                              "winner": winners[0] if len(winners) == 1 else None,
                              "details": score.details}
        out.append({"file": Path(game.meta["file"]).name, "players": game.players,
                    "winner": result.winner, "dimensions": verdicts})
    return plain({"config": data, "regenerate": regenerate, "games": out})


def main() -> None:
    for config in CONFIGS:
        path = HERE / f"{config}.json"
        text = json.dumps(compute(config), indent=1, ensure_ascii=False, allow_nan=False)
        path.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
