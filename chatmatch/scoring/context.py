"""What a scorer declares it needs, and what the engine hands it: computed once per game.

A scorer says what it needs in :meth:`chatmatch.scoring.base.Scorer.needs` (a
:class:`Needs`): a spaCy pass (:class:`SpacyNeed`), Algorithm 1's repetitions at some
``sigma_r``, the game's TF-IDF similarities, the model it loads. The engine reads every
scorer's needs, builds one :class:`ScoringContext` for the union (one spaCy pass over the
distinct texts of all games; each game's TF-IDF vectors fit once and its repetitions found
once per ``sigma_r``) and passes it to each scorer's ``score_games(games, context)``.
A scorer called on its own (``scorer.score_games(games)``) builds the context of its own
needs. Nothing here outlives the scoring call: loaded models live in
:data:`chatmatch.runtime.resources.RESOURCES`, analyses of games only here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from chatmatch.progress import Progress
from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.canned import canned_and_stock
from chatmatch.scoring.features import GameSimilarity, TurnFeatures, spacy_table
from chatmatch.scoring.repetitions import Repetition, find_repetitions, penalised, repeated
from chatmatch.common.text import normalise
from chatmatch.transcript import Transcript

@dataclass(frozen=True)
class SpacyNeed:
    """A spaCy pass: the pipeline, the features wanted (``entities``, ``lemmas``) and how
    to run it (worker processes, 0 = automatic; batch size)."""

    model: str
    features: frozenset[str]
    n_process: int = 0
    batch_size: int = 256


@dataclass(frozen=True)
class Needs:
    """What a scorer needs before it scores (:meth:`~chatmatch.scoring.base.Scorer.needs`)."""

    #: a spaCy pass over every turn (knowledge, relevance)
    spacy: SpacyNeed | None = None
    #: the ``sigma_r`` values at which the scorer reads Algorithm 1's repetitions (TF-IDF)
    repetitions: frozenset[float] = frozenset()
    #: the game's TF-IDF similarities themselves (consistency compares answers with them)
    similarity: bool = False
    #: the model the scorer loads, named while it loads (``loading scorer fluency (smollm2)``)
    model: str | None = None
    #: the canned turns of every game (:mod:`chatmatch.scoring.canned`: found across the
    #: games scored together); set by the engine from :attr:`Scorer.canned`
    canned: bool = False


@dataclass(frozen=True)
class GameAnalysis:
    """One game and what the scorers asked to know of it, computed once."""

    game: Transcript
    #: Algorithm 1's verdicts (turn index -> :class:`Repetition`) by ``sigma_r``
    repetitions_at: Mapping[float, Mapping[int, Repetition]] = field(default_factory=dict)
    tfidf: GameSimilarity | None = None
    #: the turns the bot says whatever its partner says (:mod:`chatmatch.scoring.canned`),
    #: found across the games scored together; empty unless a scorer asked (``Needs.canned``)
    canned: frozenset[int] = frozenset()
    #: turn index -> its stock sentences (:func:`chatmatch.scoring.canned.stock_sentences`:
    #: said whatever the partner says), found with the canned turns
    stock: Mapping[int, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Transcript, sigmas: Iterable[float] = (), similarity: bool = False) -> GameAnalysis:
        """Fit the game's TF-IDF vectors once (when needed) and find its repetitions at
        each of ``sigmas``; keep the vectors when ``similarity``."""
        sigmas = sorted(set(sigmas))
        sim = GameSimilarity([t.text for t in game.turns]) if sigmas or similarity else None
        reps = {s: find_repetitions(game, s, sim) for s in sigmas}
        return cls(game, reps, sim if similarity else None)

    def repetitions(self, sigma_r: float) -> Mapping[int, Repetition]:
        """Algorithm 1's verdicts at ``sigma_r`` (a scorer declares it in ``Needs.repetitions``)."""
        try:
            return self.repetitions_at[sigma_r]
        except KeyError:
            raise ScoringError(f"repetitions at sigma_r {sigma_r} were not computed for game "
                               f"{self.game.game_id}: the scorer reading them must declare "
                               f"{sigma_r} in its needs() (Needs.repetitions)") from None

    def penalised(self, sigma_r: float) -> frozenset[int]:
        """The turns Algorithm 1 penalises at ``sigma_r``."""
        return penalised(self.repetitions(sigma_r))

    def repeated(self, sigma_r: float) -> frozenset[int]:
        """Every turn but the seed that repeats an earlier one at ``sigma_r``, penalised or not."""
        return repeated(self.game, self.repetitions(sigma_r))

    def similarity(self) -> GameSimilarity:
        """The game's TF-IDF similarities (a scorer declares ``Needs.similarity``)."""
        if self.tfidf is None:
            raise ScoringError(f"TF-IDF similarities were not computed for game {self.game.game_id}: "
                               "the scorer reading them must declare Needs(similarity=True)")
        return self.tfidf


@dataclass(frozen=True)
class ScoringContext:
    """What the engine hands every scorer of one scoring call: the per-game analyses (in
    the order of the games), the spaCy features of the turn texts, and where a slow scorer
    reports progress."""

    games: tuple[GameAnalysis, ...]
    #: spaCy model -> normalised text -> what spaCy found in it
    spacy: Mapping[str, Mapping[str, TurnFeatures]] = field(default_factory=dict)
    progress: Progress | None = None

    @classmethod
    def build(cls, games: Sequence[Transcript], needs: Iterable[Needs]) -> ScoringContext:
        """Compute, once, the union of ``needs`` over ``games``."""
        needs = list(needs)
        sigmas = frozenset().union(*(n.repetitions for n in needs))
        similarity = any(n.similarity for n in needs)
        analyses = tuple(GameAnalysis.of(g, sigmas, similarity) for g in games)
        if any(n.canned for n in needs):
            canned, stock = canned_and_stock(games)
            analyses = tuple(dataclasses.replace(a, canned=c, stock=st)
                             for a, c, st in zip(analyses, canned, stock))
        passes: dict[str, SpacyNeed] = {}
        for n in needs:
            if n.spacy is not None:  # one pass per pipeline, run as its first scorer asks
                first = passes.setdefault(n.spacy.model, n.spacy)
                passes[n.spacy.model] = dataclasses.replace(first, features=first.features | n.spacy.features)
        texts = [t.text for g in games for t in g.turns]
        spacy = {model: spacy_table(texts, model, p.features, n_process=p.n_process,
                                    batch_size=p.batch_size) for model, p in passes.items()}
        return cls(analyses, spacy)

    def for_games(self, games: Sequence[Transcript]) -> ScoringContext:
        """This context, checked to be about ``games`` (the same games, in the same order)."""
        if len(games) != len(self.games) or any(a.game is not g and a.game != g
                                                for a, g in zip(self.games, games)):
            raise ValueError("the scoring context was built for other games; build it with "
                             "ScoringContext.build(games, needs) for the games scored")
        return self

    def spacy_features(self, texts: Sequence[str], need: SpacyNeed) -> list[TurnFeatures]:
        """What spaCy found in each (normalised) text: from the shared pass, and for texts
        it did not cover (or features it did not find) from a pass over those alone."""
        table = self.spacy.get(need.model, {})
        extra = spacy_table(texts, need.model, need.features, n_process=need.n_process,
                            batch_size=need.batch_size, known=table)
        return [extra[normalise(t)] for t in texts]
