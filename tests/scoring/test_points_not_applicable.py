"""A dimension that does not apply to a bot (consistency of a bot never asked a repeated
question) gives the point to nobody, and that survives the results file and reweighting."""

from __future__ import annotations

import math
from pathlib import Path

from chatmatch.records import DimensionScore, GameResult, ScoreRecord
from chatmatch.rundir.store import RunDir
from chatmatch.scoring.points import award_points, result_from_scores, reweight
from chatmatch.transcript import make_transcript

NAN = math.nan


def scores(cons_a: float, cons_b: float, na: tuple[str, ...]) -> dict[str, DimensionScore]:
    return {"consistency": DimensionScore("consistency", {"A": cons_a, "B": cons_b}, True, [], na),
            "fluency": DimensionScore("fluency", {"A": 10.0, "B": NAN}, False)}


def test_not_applicable_is_a_tie_while_a_plain_nan_loses() -> None:
    res = result_from_scores("g", ("A", "B"), scores(-1.0, NAN, ("B",)), {})
    # consistency: B was never tested -> nobody wins, though A's -1 is a number
    assert res.points["A"]["consistency"] == 0 and res.points["B"]["consistency"] == 0
    # fluency: B has no score at all (NaN) -> it loses, as before
    assert res.points["A"]["fluency"] == 1 and res.points["B"]["fluency"] == 0
    assert res.not_applicable == {"consistency": ["B"]}
    # without the marker the NaN loses: the tested bot would win
    plain = result_from_scores("g", ("A", "B"), scores(-1.0, NAN, ()), {})
    assert plain.points["A"]["consistency"] == 1 and plain.not_applicable == {}


def test_not_applicable_survives_json_reweighting_and_the_results_file(tmp_path: Path) -> None:
    res = result_from_scores("g", ("A", "B"), scores(-1.0, NAN, ("B",)), {})
    back = GameResult.from_json(res.to_json())
    assert back.not_applicable == {"consistency": ["B"]}
    assert reweight(back, {"consistency": 2.0}).points["A"]["consistency"] == 0
    run = RunDir(tmp_path)
    run.save_transcript(make_transcript("g", ("A", "B"), ["Hi", "Hello"]))  # a consistent run:
    digest = run.save_scores(ScoreRecord(res.game_id, res.players, points=res.points))  # scores too
    run.append_result(res, digest)
    stored = run.results()["g"]
    assert stored.not_applicable == {"consistency": ["B"]} and stored.points == res.points
    # a results line written before this field existed still reads, with nothing N/A
    old = res.to_json()
    del old["not_applicable"]
    assert GameResult.from_json(old).not_applicable == {}


def test_award_points_ignores_bots_not_in_the_game() -> None:
    res = award_points("g", ("A", "B"), {"A": {"c": 0.0}, "B": {"c": -1.0}}, {"c": True}, {},
                       {"c": ["Z"]})
    assert res.points["A"]["c"] == 1 and res.not_applicable == {}
