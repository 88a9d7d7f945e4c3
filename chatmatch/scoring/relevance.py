"""Relevance: memory bonuses (Algorithm 3 of the paper; higher is better).

Concepts are the lemmas of content words -- nouns, proper nouns, verbs, adjectives that
are not stop words -- from spaCy (``spacy_model``; the pass is shared with knowledge).
The *IDF list* ranks the game's concepts by IDF over the game's turns (every turn, the
seed included, is a document), rarest first. Only concepts used in at least ``min_df``
turns (default 2) enter the list: a concept used once can never be remembered, and with
the long tail of one-off words in a chat the top ``p`` of an unfiltered list would be all
one-off words, so no turn could ever earn a bonus. The important concepts are the first
``ceil(p * size)`` of the list (default ``p = 0.5``, the top 50%), and every concept
tied in IDF with the last of them.

Turn ``t`` earns one bonus (at most one per turn) when it uses an important concept whose
previous mention is more than ``d`` turns back (default ``d = 1``: echoing the turn just
before is not memory). With ``own_concepts: true`` (the default, the paper's rule) a
previous mention by either speaker counts. With ``own_concepts: false`` the concept must
not be the bot's own: the latest earlier mention of the concept, by anyone, must be by the
partner or the seed (so after the bot has used a concept itself, it earns nothing for it
again until the partner uses it again). The validity lab measured both
(docs/validity.md): ``false`` made relevance alone rank Spot The Bot's convai2 systems
about at random (tau -0.07, ``true`` +0.60) and lose the ladder's known order (0.00,
``true`` +1.00), so the paper's rule is the default.

A first mention earns nothing. Seed turns earn nothing but count as mentions. Turns that
diversity penalises as repetitions earn nothing either (``skip_repetitions``, default true;
the paper credited them), though they still count as mentions. Details list each bonus
turn with the concepts, where they were last mentioned and by whom. ``unit`` says what
the raw score is: ``count`` (the paper) the number of bonus turns; ``per_turn`` that
count over the bot's credited turns (a rate: the same scale in a 10-turn chat and a
200-turn game, but longer turns hold more concepts and earn bonuses more often).
``per_concept`` (an option) is the share of the concepts in the bot's
credited turns (each turn's distinct concepts, summed) that bring back an important
earlier concept under the rule above (in turns that earn a bonus): a rate that grows neither with the
number of turns nor with their length, since a long turn that recalls one concept among
many new ones is mostly new content. Measured on DSTC9 (docs/validity.md, "Length-free
rates"): the count follows a system's total words (rho +0.77), the per-turn rate its turn
length (+0.53), the share of concepts neither (+0.20 / +0.14) and still agrees with
people's "coherent" (system tau +0.31); but it ranked two known orders wrong (the fault
ladder alone, the repeated-questions family with the other rates), so ``count`` stays
the default.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Literal, Sequence

from pydantic import Field

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Needs, ScoringContext
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import RepetitionParams, skipped_turns
from chatmatch.scoring.features import LEMMAS
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
        p: float = Field(default=0.5, gt=0.0, le=1.0)
        d: int = Field(default=1, ge=0)
        min_df: int = Field(default=2, ge=1)
        #: a concept last mentioned by the bot itself earns a bonus too (the paper: true)
        own_concepts: bool = True
        #: count (the paper), per_turn (the count over the bot's credited turns) or
        #: per_concept (recalled important concepts over all the bot's concepts)
        unit: Literal["count", "per_turn", "per_concept"] = "count"

    params: Params

    def needs(self) -> Needs:
        return Needs(spacy=self.spacy_need(), repetitions=self.params.repetitions_needed())

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        texts = [t.text for g in games for t in g.turns]
        feats = iter(context.spacy_features(texts, self.spacy_need()))
        return [self._score(a, [next(feats).lemmas or () for _ in a.game.turns])
                for a in context.games]

    def _score(self, analysis: GameAnalysis, lemmas: list[tuple[str, ...]]) -> DimensionScore:
        p, game = self.params, analysis.game
        important = important_concepts(lemmas, p.p, p.min_df)
        skip = skipped_turns(analysis, p)
        turns = game.turns
        raw = zero_raw(game)
        recalled, used = zero_raw(game), zero_raw(game)
        last_seen: dict[str, int] = {}
        details: list[dict[str, Any]] = []
        for t, (turn, found) in enumerate(zip(turns, lemmas)):
            concepts = sorted(set(found))
            hits = [{"lemma": c, "previous_turn": last_seen[c]} for c in concepts
                    if c in important and c in last_seen and t - last_seen[c] > p.d
                    and (p.own_concepts or not _own(turns[last_seen[c]], turn))]
            if not turn.seed:
                used[turn.speaker] += len(concepts)
            if hits and not turn.seed and t not in skip:
                raw[turn.speaker] += 1
                recalled[turn.speaker] += len(hits)
                details.append({"turn": t, "speaker": turn.speaker, "concepts": hits})
            last_seen.update((c, t) for c in concepts)
        if p.unit == "per_turn":
            n = {q: sum(1 for x in turns if x.speaker == q and not x.seed) for q in game.players}
            raw = {q: v / n[q] if n[q] else 0.0 for q, v in raw.items()}
        elif p.unit == "per_concept":
            raw = {q: recalled[q] / used[q] if used[q] else 0.0 for q in raw}
        return DimensionScore(self.name, raw, self.higher_is_better, details)


def _own(previous: Turn, turn: Turn) -> bool:
    """The previous mention was the bot's own turn (the seed is nobody's own)."""
    return previous.speaker == turn.speaker and not previous.seed
