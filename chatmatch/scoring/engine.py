"""Run scorers over games: ``score_games(games, scorers)`` -> one dict per game.

Scorers that run spaCy declare what they need (``spacy_request()``); the engine runs one
``nlp.pipe`` pass per pipeline for the union of those needs before any scorer, so the
knowledge and relevance dimensions share it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from chatmatch.progress import Reporter
from chatmatch.scoring.analysis import prefetch
from chatmatch.scoring.base import Scorer
from chatmatch.stages import DimensionScore
from chatmatch.transcript import Transcript


def prefetch_for(games: Sequence[Transcript], scorers: Sequence[Scorer]) -> None:
    """Run spaCy once over every turn, for every feature any scorer will ask for."""
    needs: dict[str, set[str]] = defaultdict(set)
    options: dict[str, tuple[int, int]] = {}
    for s in scorers:
        request = getattr(s, "spacy_request", None)
        if request is not None:
            model, need = request()
            needs[model] |= need
            options.setdefault(model, (s.params.n_process, s.params.batch_size))  # type: ignore[attr-defined]
    texts = [t.text for g in games for t in g.turns]
    for model, need in needs.items():
        n_process, batch_size = options[model]
        prefetch(texts, model, need, n_process=n_process, batch_size=batch_size)


def load_scorers(scorers: Sequence[Scorer], reporter: Reporter | None = None) -> None:
    """Load every scorer's models now (``loading scorer fluency (smollm2)`` on ``reporter``)."""
    rep = reporter or Reporter.off()
    for s in scorers:
        backend = getattr(s.params, "backend", None)  # fluency and the model judges
        model = "ngram" if backend == "ngram" else getattr(s.params, "model", None)
        with rep.step(f"loading scorer {s.name}" + (f" ({model})" if model else "")):
            s.load()


def score_games(games: Sequence[Transcript], scorers: Sequence[Scorer], *,
                reporter: Reporter | None = None) -> list[dict[str, DimensionScore]]:
    """Every scorer's verdict on every game, keyed by dimension name; ``reporter`` shows a
    bar over the dimensions (the spaCy pass first) with the one being scored."""
    games = list(games)
    rep = reporter or Reporter.off()
    out: list[dict[str, DimensionScore]] = [{} for _ in games]
    label = f"scoring {len(games)} game{'s' if len(games) != 1 else ''}"
    # steps cost very different times (the LM's pass is most of it): no ETA from counting
    # them; the model's own bar (texts) shows one
    with rep.bar(label, len(scorers) + 1, unit="steps", estimate=False) as bar:
        bar.update(detail="spaCy")
        prefetch_for(games, scorers)
        bar.advance()
        for scorer in scorers:
            bar.update(detail=scorer.name)
            _score_one(scorer, games, out, rep)
            bar.advance()
    return out


def _score_one(scorer: Scorer, games: list[Transcript], out: list[dict[str, DimensionScore]],
               rep: Reporter) -> None:
    if scorer.progress_unit:  # a model: its own bar (e.g. texts through the LM)
        with rep.bar(f"  {scorer.name}", None, unit=scorer.progress_unit) as sub:
            def progress(done: int, total: int) -> None:
                sub.total = total
                sub.update(done)

            results = scorer.score_games(games, progress=progress)  # type: ignore[call-arg]
    else:
        results = scorer.score_games(games)
    if len(results) != len(games):
        raise RuntimeError(f"scorer {scorer.name} returned {len(results)} results for {len(games)} games")
    for slot, result in zip(out, results):
        slot[scorer.name] = result
