from __future__ import annotations

import pytest
from scoring_dialogues import game

from chatmatch.scoring.knowledge import Knowledge, entity_key


def score(texts: list[str], seed_first: bool = False, **params: object) -> tuple[dict, list]:
    params = {"unit": "count", **params}  # the count: the algorithm (the default is per turn)
    s = Knowledge(Knowledge.Params(**params)).score_games([game(texts, seed_first=seed_first)])[0]
    return s.raw, s.details


def test_first_mention_is_credited() -> None:
    raw, details = score([
        "I visited Paris with Barack Obama last week.",      # A: Paris, Barack Obama (+ DATE)
        "Paris is lovely. Did you see the Eiffel Tower?",    # B: Paris again, Eiffel Tower
        "I work for Microsoft in Seattle.",                  # A: Microsoft, Seattle
        "Microsoft is big. I like Seattle too.",             # B: both already mentioned
    ])
    # A: Paris, Barack Obama, Microsoft, Seattle = 4; B: the Eiffel Tower = 1
    assert raw == {"A": 4, "B": 1}
    assert details[1] == {"turn": 1, "speaker": "B", "new": [["the Eiffel Tower", "LOC"]],
                          "already_mentioned": [["Paris", "GPE"]]}
    assert details[3]["new"] == [] and len(details[3]["already_mentioned"]) == 2


def test_dates_times_numbers_are_left_out_by_default() -> None:
    texts = ["I have two dogs and I went to London on Monday.", "I was born in 1990 and finished first."]
    # default: only London (GPE) counts; two (CARDINAL), Monday/1990 (DATE), first (ORDINAL) don't
    assert score(texts)[0] == {"A": 1, "B": 0}


def test_seed_entities_are_history_not_credit() -> None:
    raw, _ = score(["Have you been to London?", "Yes, London and Paris.", "Paris is nice."],
                   seed_first=True)
    # London was in the seed: nobody gets it; B introduces Paris
    assert raw == {"A": 0, "B": 1}


def test_entity_identity_ignores_case_and_leading_the() -> None:
    assert entity_key("The  Beatles") == entity_key("beatles") == "beatles"


def test_empty_emoji_non_english_one_word_and_ties() -> None:
    raw, details = score(["", "😀", "Ich wohne in Berlin.", "I read Harry Potter 😀 in Germany 🇩🇪",
                          "lol", "", "London", "Berlin"])
    # A: Berlin (a German sentence, still tagged GPE), then the one-word "London" -> 2;
    # B: Harry Potter, Germany -> 2; B's one-word "Berlin" was already mentioned. A tie.
    assert raw == {"A": 2, "B": 2}
    assert [(d["turn"], len(d["new"]), len(d["already_mentioned"])) for d in details] == [
        (2, 1, 0), (3, 2, 0), (6, 1, 0), (7, 0, 1)]
    tie, _ = score(["I live in Paris.", "I live in Rome."])
    assert tie == {"A": 1, "B": 1}


def test_removed_options_are_refused_with_what_to_write() -> None:
    from chatmatch.scoring.config import ScoringConfig

    assert Knowledge.Params().exclude_labels == ("DATE", "TIME", "ORDINAL", "CARDINAL")
    for key, hint in (("exclude_labels", "never count"), ("include_labels", "every other"),
                      ("per_100_exchanges", "unit: per_turn"), ("min_nidf", "0.35"),
                      ("n_process", "automatically"), ("batch_size", "automatically")):
        with pytest.raises(ValueError, match=f"parameter '{key}' was removed: .*{hint}"):
            ScoringConfig(params={"knowledge": {key: 1}})


def test_content_words_count_informative_lemmas_first_mentioned() -> None:
    raw, details = score(["I think it is good.", "Aluminum was used in early propulsion engines.",
                          "I think engines are good."], method="content_words")
    # A: "think", "good" are common chit-chat words (low NIDF): nothing; B brings aluminum,
    # propulsion, engine (and use/early if rare enough); A's "engine" was B's first
    assert raw["A"] == 0 and raw["B"] >= 3
    assert any(w[0] == "aluminum" for w in details[0]["new"])


def test_per_turn_unit() -> None:
    raw, _ = score(["I visited Paris and Rome.", "ok", "I love Berlin.", "fine"], unit="per_turn")
    assert raw == {"A": 1.5, "B": 0.0}  # 3 entities over A's 2 turns


def test_per_100_tokens_unit() -> None:
    # A: 3 entities in 5 + 3 = 8 tokens ("i visited paris and rome", "i love berlin") -> 37.5
    raw, _ = score(["I visited Paris and Rome.", "ok", "I love Berlin.", "fine"],
                   unit="per_100_tokens")
    assert raw == {"A": pytest.approx(300 / 8), "B": 0.0}
    # the same entities said at greater length are a lower density
    long_raw, _ = score(["I visited Paris and Rome last summer with all of my old friends.",
                         "ok", "I love Berlin.", "fine"], unit="per_100_tokens")
    assert long_raw["A"] < raw["A"]
