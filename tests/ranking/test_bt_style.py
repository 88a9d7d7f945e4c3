"""bt-style: Bradley-Terry with style covariates held equal (length control)."""

import pytest

from chatmatch.ranking import RankingConfig, rank
from chatmatch.ranking.bt_style import StyleError
from chatmatch.records import GameResult
from chatmatch.scoring.style import Markdown, TurnLength
from chatmatch.transcript import Transcript, Turn

WORDS = {"long": 30.0, "mid": 15.0, "short": 5.0, "terse": 4.0}


def game(gid, a, b, a_wins):
    raw = {a: {"q": 1.0, "turn_length": WORDS[a]}, b: {"q": 0.0, "turn_length": WORDS[b]}}
    pts = {a: {"q": 1.0 if a_wins else 0.0}, b: {"q": 0.0 if a_wins else 1.0}}
    return GameResult(gid, (a, b), raw, pts, {"q": True, "turn_length": True})


def games():
    """Every game is won by the longer side, except terse beats short, mid beats long
    twice in six: once length is held equal, terse and mid look better than short and long."""
    out, n = [], 0
    bots = list(WORDS)
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            for k in range(6):
                longer_wins = not ({a, b} == {"terse", "short"} or ({a, b} == {"long", "mid"} and k < 2))
                a_wins = (WORDS[a] > WORDS[b]) == longer_wins
                out.append(game(f"g{n:03d}", a, b, a_wins) if k % 2 else game(f"g{n:03d}", b, a, not a_wins))
                n += 1
    return out


def cfg(**kw):
    return RankingConfig.model_validate({"method": "bt-style", "bt-style": {"bootstrap": 20, **kw}})


def test_holding_length_equal_changes_who_is_ahead():
    r = rank(games(), list(WORDS), cfg())
    plain = r.meta["uncontrolled"]
    assert max(plain, key=plain.get) == "long"  # the longest side wins most games
    s = {row.bot: row.score for row in r.rows}
    # mid beats long in 2 of 6 games while 15 words shorter: with length held equal it is ahead
    assert r.rows[0].bot == "mid" and s["mid"] > s["long"]
    assert r.meta["covariates"]["turn_length"] > 0  # length by itself wins games
    assert r.method == "bt-style" and r.rows[0].stats is not None


def test_a_covariate_that_was_not_scored_is_a_clear_error():
    with pytest.raises(StyleError, match="covariate markdown is not a scored dimension") as err:
        rank(games(), list(WORDS), cfg(covariates=["markdown"]))
    # a stored run: what to add, and that running the file again re-scores without replaying
    assert "scoring.weights: {markdown: 0}" in str(err.value)
    assert "the stored games are re-scored, not re-played" in str(err.value)


def test_style_scorers_measure_each_side():
    g = Transcript("g", ("a", "b"), (Turn(0, "a", "one two three four"), Turn(1, "b", "- x\n- y"),
                                     Turn(2, "a", "five six"), Turn(3, "b", "ok")))
    assert TurnLength().score_games([g])[0].raw == {"a": 3.0, "b": 2.5}  # "- x" is two words
    assert Markdown().score_games([g])[0].raw == {"a": 0.0, "b": 0.5}
