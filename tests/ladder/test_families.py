"""Ladder families whose true order is known by construction (issue 12).

Each family pits a bot against a copy of it with one fault (``tests.scripted:PersonaBot``)
over 12 games (6 seeds, both starting orders, 30 exchanges), and checks who wins each
dimension's points. Each family is also scored with the paper's rule (``PAPER`` below:
the values that ``preset: paper`` gives these options) and the test shows where that rule
gets the order wrong, so a scorer that regresses to it fails here.

(a) a bot that repeats its questions must lose diversity and must not win proactivity,
    relevance or specificity through its repeats;
(b) a bot that contradicts its earlier answers to repeated questions must lose
    consistency, however often each bot is asked;
(c) a bot whose partner repeats questions must not be penalised for it.
"""

from __future__ import annotations

from typing import Any, Sequence

import pytest

from chatmatch.bot import Bot, History, Message
from chatmatch.config.presets import PRESETS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.diversity import penalised_turns
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript, make_transcript
from tests.scripted import PersonaBot
from chatmatch.scoring.build import build_scorers


def play(a: Bot, b: Bot, exchanges: int, *, game_id: str = "g", seed: int = 0,
         seed_utterance: str = "What did you do last week?") -> Transcript:
    """One game, ``a`` starting with the seed utterance, without the engine."""
    texts = [seed_utterance]
    bots = (a, b)
    for i in range(1, 2 * exchanges):
        me = bots[i % 2]
        msgs = tuple(Message("self" if j % 2 == i % 2 else "partner", t) for j, t in enumerate(texts))
        texts.append(me.reply(History(msgs, seed_utterance, game_id, i, seed)))
    return make_transcript(game_id, (a.name, b.name), texts, seed_first=True)


def games(a: Bot, b: Bot, exchanges: int, seeds: Sequence[int]) -> list[Transcript]:
    """Both starting orders for every seed."""
    return [play(x, y, exchanges, game_id=f"{x.name}-{y.name}-{s}", seed=s)
            for s in seeds for x, y in ((a, b), (b, a))]


DIMS = ["proactivity", "specificity", "diversity", "consistency", "relevance"]


def _paper_params() -> dict[str, dict[str, Any]]:
    """The scorer parameters that ``preset: paper`` sets for these dimensions, taken from
    the preset itself, so that the families test exactly what the preset does."""
    out: dict[str, dict[str, Any]] = {}
    for dotted, value in PRESETS["paper"].items():
        parts = dotted.split(".")
        if parts[:2] == ["scoring", "params"] and parts[2] in DIMS:
            out.setdefault(parts[2], {})[parts[3]] = value
    return out


#: the paper's rule for every option this family tests (docs/scoring.md lists them)
PAPER: dict[str, dict[str, Any]] = _paper_params()
SEEDS = range(6)
EXCHANGES = 30


def points(gs: list[Transcript], params: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Dimension points won over the games, per bot. Without canned turns: the families'
    scripted bots say the same lines in every game whatever the partner says (every one of
    them would be canned), and these tests look at each dimension's own check."""
    scorers = build_scorers(ScoringConfig(dimensions=DIMS, params=params, canned=False))
    total: dict[str, dict[str, float]] = {}
    for g, scores in zip(gs, score_games(gs, scorers)):
        res = result_from_scores(g.game_id, g.players, scores, {})
        for p in g.players:
            for d in DIMS:
                total.setdefault(p, dict.fromkeys(DIMS, 0.0))[d] += res.points[p][d]
    return total


def per_game(gs: list[Transcript], dimension: str, params: dict[str, Any] | None = None) -> list[Any]:
    scorers = build_scorers(ScoringConfig(dimensions=[dimension], params={dimension: params or {}}))
    return [scores[dimension] for scores in score_games(gs, scorers)]


# --- (a) a bot that repeats its questions ----------------------------------------------
@pytest.fixture(scope="module")
def repeater_games() -> list[Transcript]:
    base = PersonaBot("base", persona="ann")
    repeater = PersonaBot("repeater", persona="bob", reask=0.4, offset=3)
    return games(base, repeater, EXCHANGES, SEEDS)


def test_a_the_repeater_really_repeats(repeater_games: list[Transcript]) -> None:
    for g in repeater_games:
        repeats = {g.turns[t].speaker for t in penalised_turns(g)}
        assert repeats == {"repeater"}, g.game_id


def test_a_repeats_earn_nothing_and_lose_diversity(repeater_games: list[Transcript]) -> None:
    pts = points(repeater_games, {})
    n = len(repeater_games)
    assert pts["base"]["diversity"] == n and pts["repeater"]["diversity"] == 0
    # the persona bots ask their questions out of the blue, so the default's on-topic test
    # credits few of either side's: the repeats are compared with every own question counted
    specific = points(repeater_games, {"proactivity": {"questions": "specific"}})
    assert specific["repeater"]["proactivity"] <= specific["base"]["proactivity"]
    assert pts["repeater"]["relevance"] < pts["base"]["relevance"]
    assert pts["repeater"]["specificity"] < pts["base"]["specificity"]
    # no penalised turn is credited anywhere (the details list it as left out: proactivity
    # with "not_counted", relevance with "excluded")
    for dim in ("proactivity", "relevance"):
        for g, s in zip(repeater_games, per_game(repeater_games, dim)):
            credited = {d["turn"] for d in s.details
                        if "not_counted" not in d and "excluded" not in d}
            assert not credited & penalised_turns(g), (dim, g.game_id)
            if dim == "relevance":  # every turn is listed, a left-out repetition too
                left_out = {d["turn"] for d in s.details if d.get("excluded") == "repetition"}
                assert left_out >= penalised_turns(g), g.game_id


def test_a_the_papers_rule_lets_the_repeater_win_proactivity(repeater_games: list[Transcript]) -> None:
    pts = points(repeater_games, PAPER)
    # every re-asked question is a proactivity credit: the repeater wins every game
    assert pts["repeater"]["proactivity"] == len(repeater_games)
    assert pts["base"]["proactivity"] == 0


# --- (b) a bot that contradicts its earlier answers ------------------------------------
@pytest.mark.parametrize("base_asks, contra_asks", [(0.2, 0.2), (0.05, 0.4)],
                         ids=["equal-exposure", "contradictor-asks-more"])
def test_b_the_contradictor_loses_consistency(base_asks: float, contra_asks: float) -> None:
    # both bots say a fact in other words on 20% of their answers (a consistent answer
    # that TF-IDF may flag); the contradictor also contradicts on 80% of its answers to a
    # question asked before
    base = PersonaBot("base", persona="ann", paraphrase=0.2, reask=base_asks)
    contra = PersonaBot("contra", persona="bob", paraphrase=0.2, contradict=0.8,
                        reask=contra_asks, offset=3)
    gs = games(base, contra, EXCHANGES, SEEDS)
    pts = points(gs, {})
    assert pts["base"]["consistency"] > 2 * pts["contra"]["consistency"]
    paper = points(gs, PAPER)
    if base_asks == contra_asks:
        assert paper["base"]["consistency"] > paper["contra"]["consistency"]
    else:
        # the paper's count charges the bot that is asked more: the contradictor, asked
        # rarely, wins consistency
        assert paper["contra"]["consistency"] > paper["base"]["consistency"]


def test_b_every_earlier_answer_is_compared() -> None:
    base = PersonaBot("base", persona="ann", reask=0.3)
    contra = PersonaBot("contra", persona="bob", contradict=0.5, reask=0.3, offset=3)
    gs = games(base, contra, EXCHANGES, SEEDS)
    compared = [len(d["compared"]) for s in per_game(gs, "consistency") for d in s.details]
    assert max(compared) > 1  # a question asked three times: both earlier answers
    only = [len(d["compared"]) for s in per_game(gs, "consistency", {"compare": "original"})
            for d in s.details]
    assert set(only) == {1}


# --- (c) a bot whose partner repeats questions ------------------------------------------
@pytest.fixture(scope="module")
def asked_games() -> list[Transcript]:
    # the answerer is consistent, but says a fact in other words on half of its answers
    answerer = PersonaBot("answerer", persona="ann", paraphrase=0.5)
    repeater = PersonaBot("repeater", persona="bob", reask=0.4, offset=3)
    return games(answerer, repeater, EXCHANGES, SEEDS)


def test_c_the_partner_of_a_repeater_is_not_penalised(asked_games: list[Transcript]) -> None:
    pts = points(asked_games, {})
    assert pts["repeater"]["consistency"] == 0
    assert pts["answerer"]["diversity"] == len(asked_games)
    for s in per_game(asked_games, "diversity"):
        assert s.raw["answerer"] == 0  # answering a repeated question again is no fault
    for g, s in zip(asked_games, per_game(asked_games, "consistency")):
        assert s.not_applicable == ("repeater",), g.game_id  # never asked a repeated question


def test_c_the_papers_rule_charges_the_answerer(asked_games: list[Transcript]) -> None:
    paper = points(asked_games, PAPER)
    # the repeater is never tested (count 0) and wins consistency in every game where the
    # answerer's wording varied
    assert paper["repeater"]["consistency"] >= len(asked_games) - 1
    assert paper["answerer"]["consistency"] == 0
