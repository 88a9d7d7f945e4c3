"""Relevance: how well a bot's turns answer what was just said (higher is better).

``method: reply`` (the default; the ``hf`` extra) scores each credited turn by the
sentence-embedding cosine (all-MiniLM-L6-v2, loaded once per process) with the partner's
turn just before it; a turn earns 0 when the cosine is negative, when it is empty, a
penalised repetition (``skip_repetitions``) or a near-copy of that turn (an echo, at
diversity's ``sigma_r``). Each cosine is multiplied by the share of the turn's content
words that the turn it answers did not hold, so restating the partner earns little. The
bot's raw score is the mean over its turns; details list each turn with the turn it
answers and the cosine, and a turn that earned nothing as a repetition or an echo with
``"excluded": "repetition"`` / ``"echo"``.

``method: recall`` is the paper's rule (Algorithm 3, ``preset: paper``): concepts are the
lemmas of content words from spaCy (the pass is shared with knowledge); the important ones
are the top half of the game's concepts by IDF (used in at least two turns); a turn earns a
bonus when it uses an important concept last mentioned more than one turn back (by either
speaker, the paper's rule). First
mentions, seed turns and penalised repetitions earn nothing (details list each bonus
turn, and a repetition that would have earned one, marked ``"excluded": "repetition"``). ``unit`` says what the raw
score is (``turn_sqrt``, the mean of recalled / sqrt(concepts) per turn, or ``count``, the
paper's, and the others docs/scoring.md lists).

Every option, its default and the measurement that chose it: docs/scoring.md
("Relevance") and docs/appendix/validity-measurements.md ("Relevance on meaning,
restating discounted: the default").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Mapping, Sequence


from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Needs, ScoringContext
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import RepetitionParams, sigma, skipped_turns
from chatmatch.runtime.embed import MINILM, Embedder, get_embedder
from chatmatch.scoring.features import LEMMAS
from chatmatch.scoring.fluency_tokens import RECIPE_TURNS, degenerate_turns
from chatmatch.scoring.knowledge import SpacyParams, SpacyScorer
from chatmatch.transcript import Transcript, Turn


def important_concepts(lemmas: Sequence[Sequence[str]], p: float, min_df: int) -> set[str]:
    """The top ``p`` of the game's concepts by IDF (ties with the last one included)."""
    df = Counter(lemma for turn in lemmas for lemma in set(turn))
    ranked = sorted((lemma for lemma, n in df.items() if n >= min_df), key=lambda x: (df[x], x))
    if not ranked:
        return set()
    cutoff = df[ranked[math.ceil(p * len(ranked)) - 1]]
    return {lemma for lemma in ranked if df[lemma] <= cutoff}


class Relevance(SpacyScorer):
    name = "relevance"
    higher_is_better = True
    description = "turns that bring back an important earlier concept (Algorithm 3)"
    spacy_needs = frozenset({LEMMAS})

    class Params(SpacyParams, RepetitionParams):
        #: method recall: the share of the game's concepts that are important (the paper's
        #: p), the distance a mention must go back (the paper's d), the least turns a
        #: concept is used in
        p: ClassVar[float] = 0.5
        d: ClassVar[int] = 1
        min_df: ClassVar[int] = 2
        #: a concept last mentioned by the bot itself earns a bonus too (the paper's rule;
        #: false measured worse: docs/scoring.md, "Removed parameters")
        own_concepts: ClassVar[bool] = True
        #: reply (the default: the mean over the bot's turns of the sentence-embedding
        #: cosine with the partner's turn just before) or recall (Algorithm 3, in ``unit``)
        method: Literal["recall", "reply"] = "reply"
        #: ``method: reply`` multiplies a turn's cosine by the share of its content words
        #: not taken from the turn it answers (a reflection or an agreeing echo earns little)
        restating: ClassVar[str] = "discounted"
        #: the sentence embedding model of ``method: reply`` (packaged)
        model: ClassVar[str] = MINILM
        #: turn_sqrt (mean over turns of recalled / sqrt(concepts)), count (the paper),
        #: per_turn, per_concept, per_concept_charged or turn_share (module docstring)
        unit: Literal["turn_sqrt", "count", "per_turn", "per_concept", "per_concept_charged",
                      "turn_share"] = "turn_sqrt"
        #: ``zero`` (default): a turn that repeats the bot's own turn or frame, or echoes
        #: the partner's turn verbatim or lightly edited (chatmatch.scoring.surface) earns
        #: nothing (but the same answer to a question the partner asked again);
        #: ``keep`` (the paper) scores it as any turn
        degenerate: Literal["zero", "keep"] = "zero"

    params: Params

    def __init__(self, params: Params | None = None, *, embedder: Embedder | None = None) -> None:
        super().__init__(params)
        self._embedder = embedder

    @property
    def embedder(self) -> Embedder | None:
        """The sentence embedder of ``method: reply`` (None for recall)."""
        if self.params.method != "reply":
            return None
        if self._embedder is None:
            self._embedder = get_embedder(self.params.model)
        return self._embedder

    def load(self) -> None:
        if self.params.method == "reply":
            self.embedder  # noqa: B018 - loads the model
        else:
            super().load()

    def needs(self) -> Needs:
        p = self.params
        reps = p.repetitions_needed()
        if p.degenerate == "zero":
            reps |= {sigma(p.sigma_r)}
        if p.method == "reply":
            return Needs(repetitions=reps, model=p.model)
        return Needs(spacy=self.spacy_need(), repetitions=reps)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        if self.embedder is not None:
            vectors = self.embedder.embed([t.text for g in games for t in g.turns])
            out, start = [], 0
            for a in context.games:
                n = len(a.game.turns)
                reasons = self.skip_reasons(a)
                raw, details = reply_similarity(a.game, vectors[start:start + n],
                                                frozenset(reasons),
                                                sigma(self.params.sigma_r),
                                                self.params.restating == "discounted", reasons)
                out.append(DimensionScore(self.name, raw, self.higher_is_better, details))
                start += n
            return out
        texts = [t.text for g in games for t in g.turns]
        feats = iter(context.spacy_features(texts, self.spacy_need()))
        return [self._score(a, [next(feats).lemmas or () for _ in a.game.turns])
                for a in context.games]

    def skipped(self, analysis: GameAnalysis) -> frozenset[int]:
        """The turns that earn nothing: left-out repetitions, and with ``degenerate: zero``
        the repeats, frames and echoes of :data:`RECIPE_TURNS`, except an answer to a
        repeated question that Algorithm 1 excuses (the partner asked again; answering
        the same is no fault of the bot's)."""
        return frozenset(self.skip_reasons(analysis))

    def skip_reasons(self, analysis: GameAnalysis) -> dict[int, str]:
        """:meth:`skipped`'s turns, each with why (``repetition``, or the degenerate kind:
        ``frame``, ``echo``, ``canned``, ...), as the details say."""
        why = {t: "repetition" for t in skipped_turns(analysis, self.params)}
        if self.params.degenerate == "keep":
            return why
        s = sigma(self.params.sigma_r)
        excused = analysis.repeated(s) - analysis.penalised(s)
        found = degenerate_turns(analysis.game, analysis.canned)
        return {**{t: kind for t, kind in found.items() if kind in RECIPE_TURNS and t not in excused},
                **why}

    def _score(self, analysis: GameAnalysis, lemmas: list[tuple[str, ...]]) -> DimensionScore:
        p, game = self.params, analysis.game
        reasons = self.skip_reasons(analysis)
        marks, details = recall_marks(game, lemmas, frozenset(reasons), p, reasons)
        return DimensionScore(self.name, unit_scores(game, marks, p.unit), self.higher_is_better,
                              details)


@dataclass(frozen=True)
class Mark:
    """One credited turn's part in relevance: its speaker, how many distinct concepts it
    holds, and how many of them it brings back under the rule (0 for a left-out
    repetition)."""

    speaker: str
    concepts: int
    recalled: int


def recall_marks(game: Transcript, lemmas: Sequence[Sequence[str]], skip: frozenset[int],
                 p: Relevance.Params, reasons: Mapping[int, str] | None = None
                 ) -> tuple[list[Mark], list[dict[str, Any]]]:
    """Every credited turn's :class:`Mark`, and the details (the bonus turns); ``reasons``:
    why a turn of ``skip`` earns nothing (default ``repetition``)."""
    important = important_concepts(lemmas, p.p, p.min_df)
    turns = game.turns
    last_seen: dict[str, int] = {}
    marks: list[Mark] = []
    details: list[dict[str, Any]] = []
    for t, (turn, found) in enumerate(zip(turns, lemmas)):
        concepts = sorted(set(found))
        hits = [{"lemma": c, "previous_turn": last_seen[c]} for c in concepts
                if c in important and c in last_seen and t - last_seen[c] > p.d
                and (p.own_concepts or not _own(turns[last_seen[c]], turn))]
        if not turn.seed:
            credited = bool(hits) and t not in skip
            marks.append(Mark(turn.speaker, len(concepts), len(hits) if credited else 0))
            if hits:
                details.append({"turn": t, "speaker": turn.speaker, "concepts": hits,
                                **({} if credited else {"excluded": (reasons or {}).get(t, "repetition")})})
        last_seen.update((c, t) for c in concepts)
    return marks, details


def unit_scores(game: Transcript, marks: Sequence[Mark], unit: str) -> dict[str, float]:
    """Each player's raw score in ``unit`` from the marks of its turns."""
    raw = zero_raw(game)
    for q in raw:
        mine = [m for m in marks if m.speaker == q]
        bonus = sum(1 for m in mine if m.recalled)
        if unit == "count":
            raw[q] = float(bonus)
        elif unit == "per_turn":
            raw[q] = bonus / len(mine) if mine else 0.0
        elif unit == "per_concept":
            used = sum(m.concepts for m in mine)
            raw[q] = sum(m.recalled for m in mine) / used if used else 0.0
        elif unit == "per_concept_charged":  # a concept-less turn: one unrecalled concept
            used = sum(max(m.concepts, 1) for m in mine)
            raw[q] = sum(m.recalled for m in mine) / used if used else 0.0
        else:  # turn_share / turn_sqrt: a mean over the bot's turns (empty ones: 0)
            power = 1.0 if unit == "turn_share" else 0.5
            raw[q] = (sum(m.recalled / m.concepts ** power for m in mine if m.recalled) / len(mine)
                      if mine else 0.0)
    return raw


def reply_similarity(game: Transcript, vectors: Any, skip: frozenset[int],
                     echo: float, discount: bool = False, reasons: Mapping[int, str] | None = None
                     ) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """``method: reply``: each player's mean over its credited turns of the cosine of the
    turn's vector with the partner's turn just before it (0 when negative, for a skipped
    repetition, an empty turn, or a near-copy of that turn: cosine >= ``echo``); with
    ``discount``, times the share of the turn's content words not in that turn."""
    total, turns = zero_raw(game), Counter[str]()
    details: list[dict[str, Any]] = []
    for t, turn in enumerate(game.turns):
        if turn.seed:
            continue
        turns[turn.speaker] += 1
        before = _turn_before(game.turns, t)
        if before is None or not turn.text.strip():
            continue
        where = {"turn": t, "speaker": turn.speaker, "answers": before}
        if t in skip:
            details.append({**where, "excluded": (reasons or {}).get(t, "repetition")})
            continue
        cos = float(vectors[t] @ vectors[before])
        if 0.0 < cos < echo:
            new = new_share(turn.text, game.turns[before].text) if discount else 1.0
            total[turn.speaker] += cos * new
            details.append({**where, "similarity": round(cos, 4),
                            **({"new_words": round(new, 4)} if discount else {})})
        elif cos >= echo:
            details.append({**where, "similarity": round(cos, 4), "excluded": "echo"})
    return {q: v / turns[q] if turns[q] else 0.0 for q, v in total.items()}, details


def new_share(text: str, answered: str) -> float:
    """The share of ``text``'s content words (not stop words) absent from ``answered``;
    1 when it has none (nothing restated)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    words = [w for w in _words(text) if w not in ENGLISH_STOP_WORDS]
    if not words:
        return 1.0
    taken = set(_words(answered))
    return sum(w not in taken for w in words) / len(words)


def _turn_before(turns: Sequence[Turn], t: int) -> int | None:
    """The partner's turn just before turn ``t`` (the seed is nobody's own turn)."""
    return next((u for u in range(t - 1, -1, -1)
                 if turns[u].speaker != turns[t].speaker or turns[u].seed), None)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _own(previous: Turn, turn: Turn) -> bool:
    """The previous mention was the bot's own turn (the seed is nobody's own)."""
    return previous.speaker == turn.speaker and not previous.seed
