"""Fluency: perplexity of the bot's turns under a language model (lower is better).

Every credited turn (not the seed) is scored by the language model (:mod:`chatmatch.
runtime.lm`): ``backend: transformers`` (default; ``model: smollm2`` = SmolLM2-135M-
Instruct, or any Hugging Face id / local directory / ``.gguf`` file) or ``backend:
ngram`` (a Kneser-Ney trigram model of chit-chat, an approximation; ``model`` ignored).
All the turns of all the games go to the model in one call, so it batches across games
and scores each distinct utterance once.

A bot's raw score aggregates its turn perplexities (``aggregation``):

* ``median`` (the default until the per-quality measurements of docs/scoring.md) -- robust to the few turns a subword LM finds absurdly unlikely
  (a one-word "Yeah" can score 10^6 under SmolLM2);
* ``capped_mean`` -- the authors' released scorer: each turn capped at ``cap`` (50), then
  averaged. Their LM was a character-level news LM; under SmolLM2 the median human
  chit-chat turn is around 300, so a cap of 50 flattens most turns into ties;
* ``mean`` -- the plain mean (Table 1's "sentence perplexity"), dominated by outliers;
* ``trimmed_mean`` -- the mean after dropping the ``trim`` share (default 0.1) of the
  bot's turns from each end (``int(trim * n)`` turns at each end; never all of them);
* ``authors`` -- the rule of the authors' released scorer: each turn capped at ``cap``
  (50), the bot's single worst turn (highest capped perplexity) dropped, the rest
  averaged. A bot with one scoreable turn keeps it;
* ``worst`` (an option, measured against people: docs/scoring.md) -- the bot's worst turns: the ``worst_share`` quantile (default 0.9) of its
  turn perplexities (a bot is as fluent as its clumsy turns);
* ``slor`` -- perplexity relative to word rarity, after SLOR (Lau et al. 2017): per turn,
  ``log(perplexity) - log(unigram perplexity)``, the unigram perplexity of the turn's words
  under chit-chat word frequencies (:class:`chatmatch.scoring.variety.UnigramTable`), then
  the median over the bot's turns (lower is better). A generic reply made of common words
  is predictable to any model; this asks how much *more* predictable the LM finds it than
  its words alone. Approximate under a subword LM (its perplexity is per subword, the
  unigram's per word); exact in units under ``backend: ngram``.

``skip_repetitions: true`` (the default since the validity lab measured it: the ladder's
fluency-alone tau -1.00 -> 0.00, nothing else moved; docs/validity.md) leaves out of the
aggregate every turn that diversity penalises as a repetition (Algorithm 1 at
``sigma_r``, which follows diversity's unless set), as the authors' scorer does: a repetition is penalised once, in diversity, and
should not also win fluency by being easy text. Excluded turns are still listed in the
details, marked ``"excluded": "repetition"``.

Empty turns (no token) have no perplexity and are left out. A bot with no scoreable turn
has no fluency score: NaN, which loses the dimension to any number (see
:func:`chatmatch.scoring.points.dimension_winner`). Details give each turn's perplexity
(``null`` for an empty turn).
"""

from __future__ import annotations

import math
import random
import statistics
from typing import Any, Literal, Sequence

import numpy as np
from pydantic import Field, ValidationInfo, field_validator

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Needs, Scorer, ScorerParams, ScoringContext
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import sigma
from chatmatch.runtime.lm import SMOLLM2, LanguageModel, get_lm
from chatmatch.common.text import normalise, tokens
from chatmatch.scoring.variety import chitchat_unigrams
from chatmatch.transcript import Transcript


#: texts per perplexities() call when progress is shown (batching works within a chunk)
PROGRESS_CHUNK = 256


class Fluency(Scorer):
    name = "fluency"
    higher_is_better = False
    description = "aggregated sentence perplexity of the bot's turns (Table 1)"

    class Params(ScorerParams):
        backend: Literal["transformers", "ngram"] = "transformers"
        model: str = Field(default=SMOLLM2, min_length=1)
        aggregation: Literal["median", "capped_mean", "mean", "trimmed_mean", "authors", "worst",
                             "slor"] = "median"
        #: quantile of ``worst``
        worst_share: float = Field(default=0.9, ge=0.5, le=1.0)
        #: per-turn cap of ``capped_mean`` and ``authors`` (the authors' value: 50)
        cap: float = Field(default=50.0, gt=0.0, allow_inf_nan=False)
        #: share of a bot's turns dropped from each end by ``trimmed_mean``
        trim: float = Field(default=0.1, ge=0.0, lt=0.5)
        #: leave diversity's penalised repetitions out of the aggregate (the authors' scorer)
        skip_repetitions: bool = True
        #: Algorithm 1's threshold for ``skip_repetitions`` (None: diversity's)
        sigma_r: float | None = Field(default=None, ge=0.0, le=1.0)
        #: texts a batch (auto: 16 on a CPU, 256 on a GPU; chatmatch.runtime.lm.CPU_BATCH)
        batch_size: int | Literal["auto"] = "auto"
        #: texts longer than this are scored in sliding windows (chatmatch.runtime.lm)
        max_tokens: int = Field(default=512, ge=2)
        #: a batch holds at most this many padded tokens (and at most batch_size texts;
        #: auto: 2,048 on a CPU, 32,768 on a GPU)
        max_batch_tokens: int | Literal["auto"] = "auto"
        #: what runs the LM (docs/scale.md, "Fluency engines"): torch (float32 or
        #: ``precision``, CPU or GPU), llama-cpp (the GGUF's quantised weights as shipped,
        #: CPU only; needs llama-cpp-python) or onnxruntime (the GGUF as an ONNX float32
        #: graph: torch's float32 values for ~0.8x the CPU; CPU only; needs the ``onnx`` extra)
        engine: Literal["torch", "llama-cpp", "onnxruntime"] = "torch"
        #: llama-cpp's and onnxruntime's threads (auto: one a usable core, at most 8)
        threads: int | Literal["auto"] = "auto"
        #: torch engine: fp32 (exact), bf16, bf16-mixed (bfloat16 matrix products, the rest
        #: float32), or int8 (dynamic quantisation, CPU only): see docs/scoring.md
        precision: Literal["fp32", "bf16", "bf16-mixed", "int8"] = "fp32"
        #: cpu, cuda, cuda:N, or auto (a GPU when torch sees one)
        device: str = Field(default="auto", pattern=r"^(auto|cpu|cuda(:\d+)?|mps)$")
        #: processes scoring the LM batches on a CPU (auto: one a core, one torch thread
        #: each, for large calls); the perplexities are the same for any number
        processes: int | Literal["auto"] = "auto"

        @field_validator("threads", "processes", mode="before")
        @classmethod
        def _count_or_auto(cls, value: Any, info: ValidationInfo) -> Any:
            if value == "auto" or (type(value) is int and 1 <= value <= 256):
                return value
            raise ValueError(f"got {value!r}; give a number of {info.field_name} from 1 to 256, "
                             "or 'auto'")

        @field_validator("batch_size", "max_batch_tokens", mode="before")
        @classmethod
        def _size_or_auto(cls, value: Any, info: ValidationInfo) -> Any:
            low, high = (1, 4096) if info.field_name == "batch_size" else (2, 10**7)
            if value == "auto" or (type(value) is int and low <= value <= high):
                return value
            raise ValueError(f"got {value!r}; give {info.field_name} as a number from {low} to "
                             f"{high}, or 'auto' (its default for the device)")

    params: Params

    def __init__(self, params: ScorerParams | None = None, *, lm: LanguageModel | None = None) -> None:
        super().__init__(params)
        self._lm = lm

    @property
    def lm(self) -> LanguageModel:
        """The language model, loaded on first use (once per process)."""
        if self._lm is None:
            p = self.params
            self._lm = get_lm(p.backend, p.model, batch_size=p.batch_size, max_tokens=p.max_tokens,
                              max_batch_tokens=p.max_batch_tokens, device=p.device,
                              precision=p.precision, processes=p.processes,
                              engine=p.engine, threads=p.threads)
        return self._lm

    def load(self) -> None:
        self.lm  # noqa: B018 - loads the model

    progress_unit = "texts"  # texts through the language model

    def needs(self) -> Needs:
        p = self.params
        return Needs(repetitions=frozenset({sigma(p.sigma_r)}) if p.skip_repetitions else frozenset(),
                     model="ngram" if p.backend == "ngram" else p.model)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        texts = [normalise(t.text) for g in games for t in credited_turns(g)]
        progress = context.progress
        if progress is None:
            ppl = iter(self.lm.perplexities(texts))
        else:  # in chunks, so that a long scoring pass shows how far it is; the distinct
            # texts sorted by length, so a chunk's batches pad as little as one call's would.
            # The chunks go in a fixed shuffled order, so that the texts done so far cost
            # what the average text does and the bar's ETA is fair (short texts first would
            # make it far too low)
            distinct = sorted(dict.fromkeys(texts), key=len)
            starts = list(range(0, len(distinct), PROGRESS_CHUNK))
            random.Random(0).shuffle(starts)
            values: dict[str, float | None] = {}
            for i in starts:
                chunk = distinct[i:i + PROGRESS_CHUNK]
                values.update(zip(chunk, self.lm.perplexities(chunk)))
                progress(len(values), len(distinct))
            ppl = iter([values[t] for t in texts])
        return [self._score(a, [next(ppl) for _ in credited_turns(a.game)]) for a in context.games]

    def aggregate(self, values: Sequence[float]) -> float:
        p = self.params
        if not values:
            return math.nan  # no defined score: loses to any number (chatmatch.scoring.points)
        if p.aggregation == "median":
            return float(statistics.median(values))
        if p.aggregation == "capped_mean":
            return sum(min(v, p.cap) for v in values) / len(values)
        if p.aggregation == "authors":
            capped = sorted(min(v, p.cap) for v in values)
            kept = capped[:-1] if len(capped) > 1 else capped  # drop the worst turn
            return sum(kept) / len(kept)
        if p.aggregation == "worst":
            return float(np.quantile(values, p.worst_share))
        if p.aggregation == "slor":  # values are already log-ratios (see _score)
            return float(statistics.median(values))
        if p.aggregation == "trimmed_mean":
            cut = int(p.trim * len(values))
            ordered = sorted(values)
            kept = ordered[cut:len(ordered) - cut] or ordered
            return sum(kept) / len(kept)
        return sum(values) / len(values)

    def _turn_value(self, text: str, perplexity: float) -> float:
        """What a turn contributes to the aggregate: its perplexity, or for ``slor`` its log
        perplexity minus its words' log unigram perplexity."""
        if self.params.aggregation != "slor":
            return perplexity
        unigram = chitchat_unigrams().log_perplexity(tokens(text))
        return math.log(max(perplexity, 1e-12)) - (unigram or 0.0)

    def repetitions(self, game: GameAnalysis) -> set[int]:
        """Indices of the turns diversity penalises as repetitions (Algorithm 1)."""
        if not self.params.skip_repetitions:
            return set()
        return set(game.penalised(sigma(self.params.sigma_r)))

    def _score(self, analysis: GameAnalysis, ppl: list[float | None]) -> DimensionScore:
        game = analysis.game
        per_bot: dict[str, list[float]] = {p: [] for p in game.players}
        details: list[dict[str, Any]] = []
        excluded = self.repetitions(analysis)
        for turn, value in zip(credited_turns(game), ppl):
            detail: dict[str, Any] = {"turn": turn.index, "speaker": turn.speaker,
                                      "perplexity": None if value is None else round(value, 4)}
            if turn.index in excluded:
                detail["excluded"] = "repetition"
            elif value is not None:
                per_bot[turn.speaker].append(self._turn_value(turn.text, value))
            details.append(detail)
        raw = {p: self.aggregate(v) for p, v in per_bot.items()}
        return DimensionScore(self.name, raw, self.higher_is_better, details)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "params": self.params.model_dump(),
                "lm": getattr(self._lm, "name", None)}
