"""Build the scoring function that meta-evaluation runs, from a list of dimension names."""

from __future__ import annotations

from typing import Sequence

from pydantic import ValidationError

from chatmatch.analysis.fed import ScoreFn
from chatmatch.common.validation import validation_message
from chatmatch.errors import ChatmatchError
from chatmatch.progress import Reporter
from chatmatch.records import DimensionScore
from chatmatch.scoring.base import DIMENSIONS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import load_scorers, score_games
from chatmatch.transcript import Transcript
from chatmatch.scoring.build import build_scorers


def parse_dimensions(text: str) -> list[str]:
    """``"a,b"`` -> ``["a", "b"]``; ``"all"`` -> the seven dimensions of the paper."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    return list(DIMENSIONS) if names == ["all"] else names


def scorer_function(dimensions: str | Sequence[str], reporter: Reporter | None = None) -> ScoreFn:
    """A function scoring transcripts with the default scorers of ``dimensions`` (its
    loading and scoring shown on ``reporter``)."""
    names = parse_dimensions(dimensions) if isinstance(dimensions, str) else list(dimensions)
    try:
        scorers = build_scorers(ScoringConfig(dimensions=names))
    except ValidationError as exc:
        raise ChatmatchError(f"--dimensions: {validation_message(exc, path=False)}") from None

    def score(games: Sequence[Transcript]) -> list[dict[str, DimensionScore]]:
        load_scorers(scorers, reporter)
        return score_games(games, scorers, reporter=reporter)

    return score
