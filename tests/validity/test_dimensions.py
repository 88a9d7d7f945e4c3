"""The documented dimension <-> people's quality mapping, and the length-bias rows."""

from dataclasses import dataclass, field

from chatmatch.scoring.config import ScoringConfig
from chatmatch.validity.lab.dimensions import (MATCHES, RANKING, RANKING_CROSS, dimension_rows,
                                               length_rows)
from chatmatch.validity.datasets.dstc9 import QUALITIES
from chatmatch.validity.datasets.usr import QUALITIES as USR_QUALITIES


@dataclass(frozen=True)
class Chat:
    system: str
    turns: tuple
    ratings: dict = field(default_factory=dict)


def test_mapping_names_real_dimensions_and_qualities():
    dims = set(ScoringConfig().dimensions) | {RANKING, RANKING_CROSS}
    for kind, matches in MATCHES.items():
        assert {m.dimension for m in matches} <= dims, kind
        # Spot The Bot's checkboxes and USR's one-reply games rate no match for some
        # dimensions; Spot The Bot's games are bot-bot: no cross-system row
        assert {m.dimension for m in matches} == dims or kind in ("stb", "usr"), kind
        assert (RANKING_CROSS in {m.dimension for m in matches}) == (kind != "stb"), kind
        assert all(m.fit in ("close", "loose") for m in matches)
        assert all(m.note for m in matches if m.fit == "loose"), "say why a match is loose"
    assert {m.quality for m in MATCHES["dstc9"]} <= set(QUALITIES)
    assert {m.quality for m in MATCHES["usr"]} <= set(USR_QUALITIES)


def _chat(system: str, words: int, turns: int, overall: float) -> Chat:
    said = (("User", "hi"), ("System", " ".join(["w"] * words))) * turns
    return Chat(system, said, {"Overall": overall})


def test_length_rows_find_a_pure_length_proxy():
    chats = [_chat("a", 3, 2, 1), _chat("a", 4, 2, 2), _chat("b", 8, 3, 1), _chat("b", 9, 3, 3),
             _chat("c", 20, 5, 2), _chat("c", 21, 5, 1)]
    words = [3.0, 4.0, 8.0, 9.0, 20.0, 21.0]
    per_chat = {"specificity": [-w for w in words], "knowledge": [2 * w for w in words]}
    rows = {r["measure"]: r for r in length_rows(chats, per_chat, ["Overall"], samples=50)}
    assert rows["knowledge"]["turn words"]["system_tau"]["value"] == 1.0
    assert rows["knowledge"]["total words"]["chat_rho"]["value"] == 1.0
    assert rows["specificity"]["turn words"]["system_tau"] == {"value": -1.0, "low": -1.0, "high": -1.0}
    assert "people: Overall" in rows
    assert dimension_rows(chats, per_chat, MATCHES["fed"]) == []  # FED's qualities unrated here
