"""Diversity: minus the number of repetitions (Algorithm 1 of the paper; higher is better).

``Sim`` is the TF-IDF cosine of two turns, the vectorizer fit on the game
(:class:`chatmatch.scoring.features.GameSimilarity`; only same-speaker pairs are computed,
in bounded blocks, so memory grows linearly with the game). For each turn ``t`` (never
the first turn, which has no history):

1. ``Rep(t)`` = the earlier turns of the *same speaker* (the seed utterance counts as the
   starter's) with ``Sim(t, u) >= sigma_r`` (default 0.95).
2. If ``Rep(t)`` is empty, ``t`` is not a repetition.
3. If ``t`` is a question (:func:`chatmatch.common.text.is_question`) and ``Rep(t)`` holds
   a question, ``t`` is a *repeated question* and is penalised; its *original* is the most
   similar such question (the latest one on a tie).
4. Otherwise ``t`` is penalised unless the turn just before it is a repeated question
   (answering a repeated question with the same answer is no fault: turn 4 of Figure 2).

The paper's pseudo-code says ``len(Rep(t)) >= 0``, which is always true; we read it as
``> 0``. A turn with no token (empty, punctuation only) has similarity 0 with everything,
so it is never a repetition. A seed turn is never penalised. Raw score: minus the number of
penalised turns. Details list every turn with a non-empty ``Rep(t)``.

A penalised repetition is penalised once, here, and earns nothing anywhere else: the
scorers that credit turns (proactivity, relevance, specificity, fluency) leave out
:func:`penalised_turns` unless their ``skip_repetitions`` is false (the paper's scorers
counted them). Their parameters derive from :class:`RepetitionParams`.
"""

from __future__ import annotations

from typing import ClassVar, Iterator, Literal, Mapping, Sequence

from pydantic import Field

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import FollowsSigmaR, Needs, Scorer, ScorerParams, ScoringContext
from chatmatch.scoring.common import credited_turns, zero_raw
from chatmatch.scoring.context import GameAnalysis
from chatmatch.runtime.embed import MINILM, Embedder, EmbeddingSimilarity, get_embedder
from chatmatch.scoring.repetitions import Repetition, find_repetitions, penalised
from chatmatch.transcript import Transcript, Turn

DEFAULT_SIGMA_R = 0.95


def sigma(sigma_r: float | None) -> float:
    """The ``sigma_r`` a scorer uses: its own, or (None) diversity's default."""
    return DEFAULT_SIGMA_R if sigma_r is None else sigma_r


def penalised_turns(game: Transcript, sigma_r: float | None = None) -> frozenset[int]:
    """Indices of the turns Algorithm 1 penalises (``sigma_r`` None: the default 0.95).

    A scorer that credits turns leaves them out (it reads them from its context:
    :meth:`~chatmatch.scoring.context.GameAnalysis.penalised`), so that a repetition is
    penalised once, in diversity, and rewarded nowhere else."""
    return penalised(find_repetitions(game, sigma(sigma_r)))


class RepetitionParams(FollowsSigmaR):
    """Parameters of a scorer that leaves out penalised repetitions (:func:`scored_turns`);
    what a repetition is follows diversity's ``sigma_r``."""

    #: leave out Algorithm 1's penalised turns (the paper's scorers: false, they counted)
    skip_repetitions: bool = True

    def repetitions_needed(self) -> frozenset[float]:
        """The ``sigma_r`` whose repetitions :func:`skipped_turns` reads (for ``Needs``)."""
        return frozenset({sigma(self.sigma_r)}) if self.skip_repetitions else frozenset()


def skipped_turns(game: GameAnalysis, params: RepetitionParams) -> frozenset[int]:
    """The turns a scorer with :class:`RepetitionParams` leaves out of ``game``."""
    if not params.skip_repetitions:
        return frozenset()
    return game.penalised(sigma(params.sigma_r))


def scored_turns(game: GameAnalysis, params: RepetitionParams) -> Iterator[Turn]:
    """The credited turns (seed excluded) that are not left out as repetitions."""
    skip = skipped_turns(game, params)
    return (t for t in credited_turns(game.game) if t.index not in skip)


class Diversity(Scorer):
    name = "diversity"
    higher_is_better = True
    description = "minus the number of repetitions (Algorithm 1)"

    class Params(ScorerParams):
        sigma_r: float = Field(default=DEFAULT_SIGMA_R, ge=0.0, le=1.0)
        #: tfidf (the paper) or embedding (repetition of meaning; all-MiniLM-L6-v2). The
        #: scorers that leave repetitions out keep TF-IDF's repetitions either way.
        similarity: Literal["tfidf", "embedding"] = "tfidf"
        #: the sentence embedding model (packaged)
        model: ClassVar[str] = MINILM

    params: Params

    def __init__(self, params: ScorerParams | None = None, *, embedder: Embedder | None = None) -> None:
        super().__init__(params)
        self._embedder = embedder

    @property
    def embedder(self) -> Embedder | None:
        """The sentence embedder of ``similarity: embedding`` (None for TF-IDF)."""
        if self.params.similarity != "embedding":
            return None
        if self._embedder is None:
            self._embedder = get_embedder(self.params.model)
        return self._embedder

    def load(self) -> None:
        self.embedder  # noqa: B018 - loads the model when one is needed

    def needs(self) -> Needs:
        tfidf = self.params.similarity == "tfidf"
        return Needs(repetitions=frozenset({self.params.sigma_r}) if tfidf else frozenset(),
                     model=self.params.model)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        if self.embedder is not None:  # every turn embedded in one batched call
            self.embedder.embed([t.text for g in games for t in g.turns])
        return [self.score_game(a.game, a) for a in context.games]

    def score_game(self, game: Transcript, analysis: GameAnalysis | None = None) -> DimensionScore:
        """``game``'s score; ``analysis``: its repetitions, computed by the engine."""
        reps: Mapping[int, Repetition]
        if self.embedder is not None:
            texts = [t.text for t in game.turns]
            reps = find_repetitions(game, self.params.sigma_r, EmbeddingSimilarity(texts, self.embedder))
        else:
            analysis = analysis or GameAnalysis.of(game, self.needs().repetitions)
            reps = analysis.repetitions(self.params.sigma_r)
        raw = zero_raw(game)
        for r in reps.values():
            if r.penalised:
                raw[r.speaker] -= 1
        details = [r.to_json() for r in reps.values()]
        return DimensionScore(self.name, raw, self.higher_is_better, details)
