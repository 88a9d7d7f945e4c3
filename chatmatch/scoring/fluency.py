"""Fluency: perplexity of the bot's turns under a language model (lower is better).

Every credited turn (not the seed) is scored by the language model (:mod:`chatmatch.
runtime.lm`): ``backend: transformers`` (default; ``model: smollm2`` = SmolLM2-135M-
Instruct, or any Hugging Face id / local directory / ``.gguf`` file) or ``backend:
ngram`` (a Kneser-Ney trigram model of chit-chat, an approximation; ``model`` ignored).
All the turns of all the games go to the model in one call, so it batches across games
and scores each distinct request once. ``context: previous_turn`` (the default) reads each
turn after the turn before it (:func:`chatmatch.runtime.lm.after`: only the turn's tokens
are scored, its first words predicted from what they answer); ``context: none`` (the
paper's) reads it alone; the n-gram approximation always reads it alone.

A bot's raw score aggregates its turn perplexities by ``aggregation``
(``slor``, the default, is log perplexity minus the log unigram perplexity of the turn's
words, then the median over turns, a word the unigram corpus never saw counting as one
event, "a new word": :meth:`chatmatch.scoring.variety.UnigramTable.log_perplexity`;
``slor_tokens`` the same in the LM's subword units).
``degenerate: worst`` counts a degenerate turn (:func:`chatmatch.scoring.fluency_tokens.
degenerate`: a repeat, an echo, a phrase said twice, a truncated turn) as the least fluent
turn there is (the LM's vocabulary size, in the aggregation's units) and marks it in the
details; ``skip_repetitions: true`` leaves out the turns diversity penalises as
repetitions (marked ``"excluded": "repetition"``). Empty turns have no perplexity and are
left out; a bot with no scoreable turn scores NaN, which loses the dimension to any number
(:func:`chatmatch.scoring.points.dimension_winner`).

Details give each credited turn's perplexity (``null`` for an empty turn) and, where the
turn counts with another value, that value: ``slor`` (the turn's value under ``slor`` and
``slor_tokens``, what the median is taken over), ``counted_as`` (a degenerate turn's
perplexity under a perplexity aggregation), ``capped_at`` (a perplexity over ``cap``);
``dropped`` marks a counted turn the aggregation leaves out (``authors``' worst turn,
``trimmed_mean``'s ends).

A degenerate turn (:func:`chatmatch.scoring.fluency_tokens.degenerate`: a repeat, an echo,
the partner's turn lightly edited or with its content words swapped, the bot's own frame again with a word changed, a phrase
said twice, a truncated turn) counts as degenerate even when diversity also penalises it
as a repetition: left out, a bot that says one fluent line over and over would be judged on
its first saying alone. ``degenerate: share`` (the default) moves the aggregate of the
bot's other turns toward the worst value by the share of its degenerate turns,
``(1 - share) * aggregate + share * worst``: under ``worst`` (each such turn the worst
value, then the median) the median saturates once half a bot's turns are degenerate and
two looping bots tie (docs/validity.md, "Why fluency and consistency fell on bot-bot
games").

Every option, its default and the measurement that chose it: docs/scoring.md
("Fluency") and docs/appendix/validity-measurements.md.
"""

from __future__ import annotations

import math
import random
import statistics
from typing import Any, ClassVar, Literal, Sequence

import numpy as np
from pydantic import Field

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import FollowsSigmaR, Needs, Scorer, ScorerParams, ScoringContext
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import sigma
from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.fluency_tokens import chitchat_subword_unigrams, degenerate_turns
from chatmatch.common.text import normalise, tokens
from chatmatch.runtime.lm import SMOLLM2, LanguageModel, after, get_lm, resolve_model
from chatmatch.runtime.ngram import NgramLM
from chatmatch.runtime.lm.engine import auto_engine, resolved_device
from chatmatch.runtime.lm.warm import WarmLM, warm_alias
from chatmatch.runtime.settings import DEFAULT_RUNTIME, RuntimeSettings
from chatmatch.scoring.variety import chitchat_unigrams
from chatmatch.transcript import Transcript


#: texts per perplexities() call when progress is shown (batching works within a chunk)
PROGRESS_CHUNK = 256


class Fluency(Scorer):
    name = "fluency"
    higher_is_better = False
    description = "aggregated sentence perplexity of the bot's turns (Table 1)"

    class Params(FollowsSigmaR):
        backend: Literal["transformers", "ngram"] = "transformers"
        model: str = Field(default=SMOLLM2, min_length=1)
        aggregation: Literal["median", "capped_mean", "mean", "trimmed_mean", "authors", "worst",
                             "slor", "slor_tokens"] = "slor"
        #: degenerate turns (chatmatch.scoring.fluency_tokens.degenerate: a repeat of the
        #: bot's earlier turn, an echo of the partner, a phrase said twice, a truncated
        #: turn): ``worst`` counts each as the least fluent turn there is (perplexity =
        #: the LM's vocabulary size, a uniform guess), ``keep`` scores it as any turn
        degenerate: Literal["worst", "share", "keep"] = "share"
        #: leave diversity's penalised repetitions out of the aggregate (the authors' scorer)
        skip_repetitions: bool = True
        #: what a turn is read after: ``previous_turn`` (the turn before it, usually the
        #: partner's: its first words are predicted from what they answer) or ``none``
        #: (alone, from the context token; the paper's). The n-gram approximation reads
        #: every turn alone
        context: Literal["previous_turn", "none"] = "previous_turn"
        #: quantile of ``worst``
        worst_share: ClassVar[float] = 0.9
        #: per-turn cap of ``capped_mean`` and ``authors`` (the authors' value)
        cap: ClassVar[float] = 50.0
        #: share of a bot's turns dropped from each end by ``trimmed_mean``
        trim: ClassVar[float] = 0.1
        #: texts longer than this are scored in sliding windows (chatmatch.runtime.lm)
        max_tokens: ClassVar[int] = 512

    params: Params

    def __init__(self, params: ScorerParams | None = None, *, lm: LanguageModel | None = None,
                 runtime: RuntimeSettings = DEFAULT_RUNTIME) -> None:
        super().__init__(params)
        self.runtime = runtime
        self._lm = lm
        self._warm: WarmLM | None = None
        self._engine: str | None = None

    @property
    def lm(self) -> LanguageModel:
        """The language model, loaded on first use (once per process)."""
        if self._lm is None:
            p, r = self.params, self.runtime
            self._lm = get_lm(p.backend, p.model, batch_size=r.batch_size, max_tokens=p.max_tokens,
                              max_batch_tokens=r.max_batch_tokens, device=r.device,
                              processes=r.processes, engine=self.engine, threads=r.threads)
        return self._lm

    @property
    def engine(self) -> str:
        """The engine that computes the perplexities (``runtime.engine``, ``auto`` resolved
        here: :func:`chatmatch.runtime.lm.engine.auto_engine`); ``ngram`` for the n-gram
        backend."""
        if self._engine is None:
            p, r = self.params, self.runtime
            if r.engine != "auto" or p.backend != "transformers":
                self._engine = r.engine if p.backend == "transformers" else "ngram"
            else:
                gguf = resolve_model(p.model)[1] is not None
                self._engine = auto_engine(gguf=gguf, device=resolved_device(r.device))
        return self._engine

    def scoring_lm(self) -> WarmLM | LanguageModel:
        """What scores the turns: the LM behind the machine's perplexity cache
        (:class:`~chatmatch.runtime.lm.warm.WarmLM`: loaded only for a text the cache does
        not hold), or the LM itself (the n-gram backend, an LM given to the scorer)."""
        if self._warm is None and (self._lm is not None or self.params.backend != "transformers"):
            return self.lm
        if self._warm is None:
            p = self.params
            engine = self.engine

            def alias() -> str | None:
                where, gguf = resolve_model(p.model)
                return warm_alias(where, gguf, engine=engine, device=resolved_device(self.runtime.device),
                                  max_tokens=p.max_tokens)

            self._warm = WarmLM(p.model, alias, lambda: self.lm)
        return self._warm

    def load(self) -> None:
        """Check the settings now; load the LM now unless the machine's perplexity cache
        may hold every text (a model file or folder, the cache on: then the first text it
        does not hold loads it)."""
        from chatmatch.runtime.lm import _engine as check_engine
        from chatmatch.runtime.lm.cache import enabled

        p = self.params
        engine = self.engine  # a wrong device, model or engine fails here, before any play
        if p.backend == "transformers":
            check_engine(engine, p.model, self.runtime.device)
        warm = self.scoring_lm() if enabled() and p.backend == "transformers" else None
        if self._lm is None and not (isinstance(warm, WarmLM) and warm.cacheable()):
            self.lm  # noqa: B018 - loads the model (a hub id or a wrong name fails here)

    progress_unit = "texts"  # texts through the language model

    def needs(self) -> Needs:
        p = self.params
        return Needs(repetitions=frozenset({sigma(p.sigma_r)}) if p.skip_repetitions else frozenset(),
                     model="ngram" if p.backend == "ngram" else p.model)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        texts = [text for g in games for text in self.requests(g)]
        progress = context.progress
        lm = self.scoring_lm()
        if progress is None:
            ppl = iter(lm.perplexities(texts))
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
                values.update(zip(chunk, lm.perplexities(chunk)))
                progress(len(values), len(distinct))
            ppl = iter([values[t] for t in texts])
        return [self._score(a, [next(ppl) for _ in credited_turns(a.game)]) for a in context.games]

    def requests(self, game: Transcript) -> list[str]:
        """What the LM is asked for each credited turn: the normalised turn, read after
        the turn before it (:func:`chatmatch.runtime.lm.after`; the seed is read, never
        scored) under ``context: previous_turn`` with the transformers backend."""
        reads_after = self.params.context == "previous_turn" and self.params.backend == "transformers"
        out: list[str] = []
        before = ""
        for turn in game.turns:
            text = normalise(turn.text)
            if not turn.seed:
                out.append(after(before, text) if reads_after and text else text)
            before = text
        return out

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
        if p.aggregation == "worst":  # "higher": no interpolation with a degenerate turn's value
            return float(np.quantile(values, p.worst_share,
                                     method="higher" if self.params.degenerate == "worst" else "linear"))
        if p.aggregation in ("slor", "slor_tokens"):  # values are already log-ratios (_score)
            return float(statistics.median(values))
        if p.aggregation == "trimmed_mean":
            cut = int(p.trim * len(values))
            ordered = sorted(values)
            kept = ordered[cut:len(ordered) - cut] or ordered
            return sum(kept) / len(kept)
        return sum(values) / len(values)

    def _turn_value(self, text: str, perplexity: float) -> float:
        """What a turn contributes to the aggregate: its perplexity, or for ``slor`` its log
        perplexity minus its words' log unigram perplexity, or for ``slor_tokens`` minus
        the mean over its LM tokens of (unigram NLL - LM NLL)."""
        aggregation = self.params.aggregation
        if aggregation == "slor_tokens":
            return math.log(max(perplexity, 1e-12)) - self._unigram_nll(normalise(text))
        if aggregation != "slor":
            return perplexity
        lm = self.scoring_lm()
        # the n-gram LM predicts every word outside its vocabulary as one <unk>: its unigram
        # side prices them as one event too (else gibberish earns the largest rarity credit)
        known = lm.vocab if isinstance(lm, NgramLM) else None
        unigram = chitchat_unigrams().log_perplexity(tokens(text), known)
        return math.log(max(perplexity, 1e-12)) - (unigram or 0.0)

    def _unigram_nll(self, text: str) -> float:
        """Mean subword-unigram NLL of the text's LM tokens (chitchat-dataset counts)."""
        lm: Any = self.lm
        tokenizer = getattr(lm, "tokenizer", None)
        if tokenizer is None:
            raise ScoringError("fluency aggregation 'slor_tokens' needs an LM with a tokenizer "
                               f"(backend: transformers); {lm.name} has none: use aggregation "
                               "'slor' (word unigrams) with backend: ngram")
        table = chitchat_subword_unigrams(tokenizer, lm.vocab_size, lm.name)
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        return float(np.mean(table.nll[np.asarray(ids, dtype=np.int64) % table.nll.size]))

    def _worst_value(self) -> float:
        """A degenerate turn's value: the LM's vocabulary size as perplexity (a uniform
        guess over the tokens), in the aggregation's units."""
        vocab = float(getattr(self.scoring_lm(), "vocab_size", 0) or 50_000)  # no load when warm
        return math.log(vocab) if self.params.aggregation in ("slor", "slor_tokens") else vocab

    def degenerate_turns(self, game: Transcript, canned: frozenset[int] = frozenset()) -> dict[int, str]:
        """Turn index -> why it is degenerate, unless ``degenerate: keep`` (then empty);
        ``canned``: the game's canned turns (:attr:`GameAnalysis.canned`)."""
        return degenerate_turns(game, canned) if self.params.degenerate != "keep" else {}

    def repetitions(self, game: GameAnalysis) -> set[int]:
        """Indices of the turns diversity penalises as repetitions (Algorithm 1)."""
        if not self.params.skip_repetitions:
            return set()
        return set(game.penalised(sigma(self.params.sigma_r)))

    def _score(self, analysis: GameAnalysis, ppl: list[float | None]) -> DimensionScore:
        game = analysis.game
        per_bot: dict[str, list[float]] = {p: [] for p in game.players}
        counted: dict[str, list[dict[str, Any]]] = {p: [] for p in game.players}
        bad = {p: 0 for p in game.players}
        share = self.params.degenerate == "share"
        details: list[dict[str, Any]] = []
        excluded = self.repetitions(analysis)
        degenerate = self.degenerate_turns(game, analysis.canned)
        for turn, value in zip(credited_turns(game), ppl):
            detail: dict[str, Any] = {"turn": turn.index, "speaker": turn.speaker,
                                      "perplexity": None if value is None else round(value, 4)}
            details.append(detail)
            if turn.index in degenerate:  # a repeat counts as the worst turn, not as no turn
                detail["degenerate"] = degenerate[turn.index]
                bad[turn.speaker] += 1
                turn_value = self._worst_value()
                self._explain(detail, turn_value)
                if share:  # mixed in by its share below
                    continue
            elif turn.index in excluded:
                detail["excluded"] = "repetition"
                continue
            elif value is not None:
                turn_value = self._turn_value(turn.text, value)
                self._explain(detail, turn_value)
            else:
                continue
            per_bot[turn.speaker].append(turn_value)
            counted[turn.speaker].append(detail)
        for p, ds in counted.items():
            self._mark_dropped(ds, per_bot[p])
        raw = {p: self._mixed(v, bad[p] if share else 0) for p, v in per_bot.items()}
        return DimensionScore(self.name, raw, self.higher_is_better, details)

    def _explain(self, detail: dict[str, Any], value: float) -> None:
        """Add to a counted turn's detail the value it counts with where that is not its
        perplexity: ``slor`` (in the aggregation's units), ``counted_as`` (a degenerate
        turn's perplexity), ``capped_at`` (a perplexity over the cap)."""
        p = self.params
        if p.aggregation in ("slor", "slor_tokens"):
            detail["slor"] = round(value, 6)  # 4 decimals showed -1.80 for a raw -1.81
        elif "degenerate" in detail:
            detail["counted_as"] = round(value, 4)
        if p.aggregation in ("capped_mean", "authors") and value > p.cap:
            detail["capped_at"] = p.cap

    def _mark_dropped(self, details: list[dict[str, Any]], values: list[float]) -> None:
        """Mark the turns the aggregation leaves out of a bot's counted ones: ``authors``
        drops the worst turn, ``trimmed_mean`` the ``trim`` share at each end."""
        p, n = self.params, len(values)
        if p.aggregation == "authors" and n > 1:
            capped = [min(v, p.cap) for v in values]
            details[capped.index(max(capped))]["dropped"] = "worst turn"
        elif p.aggregation == "trimmed_mean" and 0 < int(p.trim * n) and 2 * int(p.trim * n) < n:
            cut = int(p.trim * n)
            order = sorted(range(n), key=lambda i: values[i])
            for i in order[:cut]:
                details[i]["dropped"] = "trimmed (among the lowest)"
            for i in order[n - cut:]:
                details[i]["dropped"] = "trimmed (among the highest)"

    def _mixed(self, values: list[float], degenerate: int) -> float:
        """The aggregate of a bot's turn values; with ``degenerate: share``, that of its
        other turns moved toward the worst value by the share of its degenerate turns (a
        median saturates at the worst value once half the turns are degenerate: two bots
        that loop tie; the share keeps them apart)."""
        if not degenerate:
            return self.aggregate(values)
        worst = self._worst_value()
        if self.params.degenerate != "share":
            return self.aggregate([*values, *[worst] * degenerate])
        if not values:
            return worst
        share = degenerate / (len(values) + degenerate)
        return (1 - share) * self.aggregate(values) + share * worst

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "params": self.params.model_dump(),
                "lm": getattr(self._lm or self._warm, "name", None), "engine_used": self.engine,
                **self._rules()}


#: the adapters that generate with a causal LM named by ``params.model`` (smollm2: SmolLM2)
_LM_ADAPTERS = {"smollm2": SMOLLM2, "causal-lm": None}


def scores_with(backend: str, model: str, other: str) -> bool:
    """Whether a fluency scorer with ``backend``/``model`` scores with the LM ``other``."""
    if backend == "ngram":
        return False
    try:
        return resolve_model(model) == resolve_model(other)
    except Exception:  # noqa: BLE001 - a model that does not resolve is not that LM
        return False


def fluency_lm(params: ScorerParams) -> tuple[str, str]:
    """``(backend, model)`` of a fluency scorer's parameters ("" where a setting is absent):
    the one place that reads which LM fluency scores with."""
    return str(getattr(params, "backend", "")), str(getattr(params, "model", ""))


def bots_on_the_fluency_lm(params: ScorerParams, bots: Sequence[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """Names of the bots (``(name, adapter, params)``) that generate with the LM fluency
    scores with: an LM finds its own greedy text the most predictable text there is, so
    fluency favours them (docs/scoring.md, "Fluency"; the lab's construct check measures it)."""
    backend, model = fluency_lm(params)
    out = []
    for name, adapter, bot_params in bots:
        if adapter not in _LM_ADAPTERS:
            continue
        bot_model = bot_params.get("model") or _LM_ADAPTERS[adapter]
        if isinstance(bot_model, str) and scores_with(backend, model, bot_model):
            out.append(name)
    return out
