"""The FED/DSTC9 game points follow the tournament's rule: a dimension that does not apply
to one side gives nobody its point, and does not count as firing."""

import math

from chatmatch.records import DimensionScore
from chatmatch.validity.datasets.dstc9 import Dstc9Chat
from chatmatch.validity.lab.fed import evaluate_fed, game_points

CHAT = Dstc9Chat("chatbot1", 0, (("User", "hi ?"), ("System", "hello"), ("User", "hi ?"),
                                 ("System", "hello")), {"human (overall)": 4.0}, 2)


def scores(na: tuple[str, ...]) -> dict[str, DimensionScore]:
    return {"consistency": DimensionScore("consistency", {"System": 1.0, "User": math.nan}, True,
                                          not_applicable=na),
            "proactivity": DimensionScore("proactivity", {"System": 0.0, "User": 2.0}, True)}


def test_not_applicable_gives_nobody_the_point():
    # the User was never asked twice: consistency does not apply to it, so the System,
    # which has a consistency score, must not win that point
    assert game_points([CHAT], [scores(("User",))], {"consistency": 1, "proactivity": 1}) == [0.0]
    report = evaluate_fed([CHAT], [scores(("User",))], {"consistency": 1, "proactivity": 1},
                          dataset="dstc9", overall="human (overall)")
    assert report["dimensions"]["consistency"]["never_fires"]
    assert report["dimensions"]["proactivity"]["fires"] == 1.0
