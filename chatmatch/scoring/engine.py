"""Run scorers over games: ``score_games(games, scorers)`` -> one dict per game.

Every scorer declares what it needs (:meth:`~chatmatch.scoring.base.Scorer.needs`); the
engine builds one :class:`~chatmatch.scoring.context.ScoringContext` for the union before
any scorer runs -- one ``nlp.pipe`` pass per pipeline (shared by knowledge and relevance),
each game's TF-IDF vectors and Algorithm 1's repetitions once per game -- and hands it to
every scorer.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from chatmatch.progress import Reporter
from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.context import ScoringContext
from chatmatch.transcript import Transcript


def build_context(games: Sequence[Transcript], scorers: Sequence[Scorer]) -> ScoringContext:
    """Compute once what the scorers need of ``games`` (the spaCy pass, the repetitions)."""
    return ScoringContext.build(games, [s.full_needs() for s in scorers])


def load_scorers(scorers: Sequence[Scorer], reporter: Reporter | None = None) -> None:
    """Load every scorer's models now (``loading scorer fluency (smollm2)`` on ``reporter``)."""
    rep = reporter or Reporter.off()
    for s in scorers:
        model = s.needs().model
        with rep.step(f"loading scorer {s.name}" + (f" ({model})" if model else "")):
            s.load()


def score_games(games: Sequence[Transcript], scorers: Sequence[Scorer], *,
                reporter: Reporter | None = None) -> list[dict[str, DimensionScore]]:
    """Every scorer's verdict on every game, keyed by dimension name; ``reporter`` shows a
    bar over the dimensions (the shared analyses, spaCy's pass first) with the one being
    scored."""
    games = list(games)
    rep = reporter or Reporter.off()
    out: list[dict[str, DimensionScore]] = [{} for _ in games]
    label = f"scoring {len(games)} game{'s' if len(games) != 1 else ''}"
    # steps cost very different times (the LM's pass is most of it): no ETA from counting
    # them; the model's own bar (texts) shows one
    with rep.bar(label, len(scorers) + 1, unit="steps", estimate=False) as bar:
        bar.update(detail="spaCy")
        context = build_context(games, scorers)
        bar.advance()
        for scorer in scorers:
            bar.update(detail=scorer.name)
            _score_one(scorer, games, context, out, rep)
            bar.advance()
    return out


def _score_one(scorer: Scorer, games: list[Transcript], context: ScoringContext,
               out: list[dict[str, DimensionScore]], rep: Reporter) -> None:
    if scorer.progress_unit:  # a model: its own bar (e.g. texts through the LM)
        with rep.bar(f"  {scorer.name}", None, unit=scorer.progress_unit) as sub:
            def progress(done: int, total: int) -> None:
                sub.total = total
                sub.update(done)

            results = scorer.score_games(games, dataclasses.replace(context, progress=progress))
    else:
        results = scorer.score_games(games, context)
    if len(results) != len(games):
        raise RuntimeError(f"scorer {scorer.name} returned {len(results)} results for {len(games)} games")
    for slot, result in zip(out, results):
        slot[scorer.name] = result
