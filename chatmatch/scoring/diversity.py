"""Diversity: minus the number of repetitions (Algorithm 1 of the paper; higher is better).

``Sim`` is the TF-IDF cosine of two turns, the vectorizer fit on the game
(:class:`chatmatch.scoring.analysis.GameSimilarity`; only same-speaker pairs are computed,
in bounded blocks, so memory grows linearly with the game). For each turn ``t`` (never
the first turn, which has no history):

1. ``Rep(t)`` = the earlier turns of the *same speaker* (the seed utterance counts as the
   starter's) with ``Sim(t, u) >= sigma_r`` (default 0.95).
2. If ``Rep(t)`` is empty, ``t`` is not a repetition.
3. If ``t`` is a question (:func:`chatmatch.scoring.text.is_question`) and ``Rep(t)`` holds
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

from dataclasses import dataclass
from typing import Any, Iterator, Literal, Sequence

from pydantic import Field

from chatmatch.resources import RESOURCES
from chatmatch.scoring.analysis import game_similarity
from chatmatch.scoring.base import Scorer, ScorerParams
from chatmatch.scoring.common import credited_turns, zero_raw
from chatmatch.scoring.embed import MINILM, Embedder, EmbeddingSimilarity, get_embedder
from chatmatch.scoring.text import is_question
from chatmatch.stages import DimensionScore
from chatmatch.transcript import Transcript, Turn

DEFAULT_SIGMA_R = 0.95


@dataclass(frozen=True)
class Repetition:
    """Algorithm 1's verdict on one turn with a non-empty ``Rep(t)``."""

    turn: int
    speaker: str
    of: tuple[int, ...]
    question_of: int | None  # the original question when the turn is a repeated question
    penalised: bool
    #: when the turn is a repeated question: every earlier question of ``Rep(t)``
    questions: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "speaker": self.speaker, "repeats": list(self.of),
                "repeated_question_of": self.question_of, "penalised": self.penalised}


def find_repetitions(game: Transcript, sigma_r: float,
                     embedder: Embedder | None = None) -> dict[int, Repetition]:
    """Algorithm 1 over a whole game: turn index -> :class:`Repetition` (kept by the game's
    turns and ``sigma_r`` in ``RESOURCES.repetitions``, so every scorer that asks shares
    one computation). With ``embedder``, ``Sim`` is the cosine of sentence embeddings
    instead of TF-IDF (diversity's ``similarity: embedding``)."""
    kind = "tfidf" if embedder is None else f"embedding:{id(embedder)}"
    key = (tuple((t.speaker, t.text, t.seed) for t in game.turns), float(sigma_r), kind)
    reps: dict[int, Repetition] | None = RESOURCES.repetitions.get(key)
    if reps is None:  # computed outside the lock: games are scored side by side
        reps = RESOURCES.repetitions.put(key, _find_repetitions(game, sigma_r, embedder))
    return reps


def _find_repetitions(game: Transcript, sigma_r: float,
                      embedder: Embedder | None = None) -> dict[int, Repetition]:
    turns = game.turns
    questions = [is_question(t.text) for t in turns]
    groups: dict[str, list[int]] = {}
    for i, turn in enumerate(turns):
        groups.setdefault(turn.speaker, []).append(i)
    texts = [t.text for t in turns]
    sim = game_similarity(texts) if embedder is None else EmbeddingSimilarity(texts, embedder)
    found: dict[int, tuple[tuple[int, ...], int | None, tuple[int, ...]]] = {}
    for t, earlier, sims in sim.earlier(list(groups.values())):
        hit = sims >= sigma_r
        if not hit.any():
            continue
        rep = tuple(int(u) for u in earlier[hit])
        original: int | None = None
        asked: tuple[int, ...] = ()
        if questions[t]:
            asked = tuple(u for u, v in zip(rep, sims[hit]) if questions[u])
            scored = [(float(v), u) for u, v in zip(rep, sims[hit]) if questions[u]]
            original = max(scored)[1] if scored else None
        found[t] = (rep, original, asked)
    out: dict[int, Repetition] = {}
    for t in sorted(found):
        rep, original, asked = found[t]
        prev = out.get(t - 1)
        after_repeated_question = prev is not None and prev.question_of is not None
        penalised = (original is not None or not after_repeated_question) and not turns[t].seed
        out[t] = Repetition(t, turns[t].speaker, rep, original, penalised, asked)
    return out


def penalised_turns(game: Transcript, sigma_r: float | None = None) -> frozenset[int]:
    """Indices of the turns Algorithm 1 penalises (``sigma_r`` None: the default 0.95).

    A scorer that credits turns calls it to leave them out, so that a repetition is
    penalised once, in diversity, and rewarded nowhere else."""
    sigma = DEFAULT_SIGMA_R if sigma_r is None else sigma_r
    return frozenset(t for t, r in find_repetitions(game, sigma).items() if r.penalised)


def repeated_turns(game: Transcript, sigma_r: float | None = None) -> frozenset[int]:
    """Indices of every turn Algorithm 1 finds repeating an earlier turn of its speaker,
    penalised or not (an answer repeated because the question was repeated is excused by
    diversity but says nothing new either)."""
    sigma = DEFAULT_SIGMA_R if sigma_r is None else sigma_r
    return frozenset(t for t, r in find_repetitions(game, sigma).items() if not game.turns[t].seed)


class RepetitionParams(ScorerParams):
    """Parameters of a scorer that leaves out penalised repetitions (:func:`scored_turns`)."""

    #: leave out Algorithm 1's penalised turns (the paper's scorers: false, they counted)
    skip_repetitions: bool = True
    #: what a repetition is; None: the same as diversity's sigma_r (0.95 unless configured)
    sigma_r: float | None = Field(default=None, ge=0.0, le=1.0)


def skipped_turns(game: Transcript, params: ScorerParams) -> frozenset[int]:
    """The turns a scorer with :class:`RepetitionParams` leaves out of ``game``."""
    if not getattr(params, "skip_repetitions", False):
        return frozenset()
    return penalised_turns(game, getattr(params, "sigma_r", None))


def scored_turns(game: Transcript, params: ScorerParams) -> Iterator[Turn]:
    """The credited turns (seed excluded) that are not left out as repetitions."""
    skip = skipped_turns(game, params)
    return (t for t in credited_turns(game) if t.index not in skip)


class Diversity(Scorer):
    name = "diversity"
    higher_is_better = True
    description = "minus the number of repetitions (Algorithm 1)"

    class Params(ScorerParams):
        sigma_r: float = Field(default=DEFAULT_SIGMA_R, ge=0.0, le=1.0)
        #: tfidf (the paper) or embedding (repetition of meaning; all-MiniLM-L6-v2). The
        #: scorers that leave repetitions out keep TF-IDF's repetitions either way.
        similarity: Literal["tfidf", "embedding"] = "tfidf"
        #: the sentence embedding model: minilm (packaged) or a local folder
        model: str = Field(default=MINILM, min_length=1)

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

    def score_games(self, games: Sequence[Transcript]) -> list[DimensionScore]:
        if self.embedder is not None:  # every turn embedded in one batched call
            self.embedder.embed([t.text for g in games for t in g.turns])
        return [self.score_game(g) for g in games]

    def score_game(self, game: Transcript) -> DimensionScore:
        reps = find_repetitions(game, self.params.sigma_r, self.embedder)
        raw = zero_raw(game)
        for r in reps.values():
            if r.penalised:
                raw[r.speaker] -= 1
        details = [r.to_json() for r in reps.values()]
        return DimensionScore(self.name, raw, self.higher_is_better, details)
