"""Dialogue-level families on a hand-built game: the matching dimension must notice."""

from __future__ import annotations

import random

import pytest

from chatmatch.robustness.dialogue import (build_game_pairs, evaluate_games, inject_contradiction,
                                           inject_repetition)
from chatmatch.robustness.triples import Conversation
from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.diversity import Diversity
from chatmatch.transcript import make_transcript

TEXTS = ["hi, how was your weekend?", "Great, I went fishing with my dad.",
         "Do you like fishing?", "I like fishing a lot, we go every summer.",
         "Where do you usually go?", "A lake near our cabin up north.",
         "That sounds relaxing.", "It is, the mornings there are quiet and cold.",
         "What do you do for work?", "I teach math at a middle school.",
         "Do the kids behave?", "Mostly, they are loud but sweet.",
         "Nice talking to you.", "You too, have a good night."]
GAME = make_transcript("hand", ["A", "B"], TEXTS)


def test_inject_repetition_copies_own_earlier_turns() -> None:
    broken = inject_repetition(GAME, "B", random.Random(0), k=3)
    assert broken is not None and len(broken.turns) == len(GAME.turns)
    changed = [i for i, (a, b) in enumerate(zip(GAME.turns, broken.turns)) if a.text != b.text]
    assert len(changed) == 3
    for i in changed:
        assert broken.turns[i].speaker == "B"
        assert broken.turns[i].text in [t.text for t in GAME.turns[:i] if t.speaker == "B"]
    assert inject_repetition(make_transcript("x", ["A", "B"], ["a", "b"]), "B", random.Random(0)) is None


def test_inject_contradiction_same_question_answer_negated() -> None:
    pair = inject_contradiction(GAME, "B", random.Random(0))
    assert pair is not None
    clean, broken = pair
    assert len(clean.turns) == len(broken.turns) == len(GAME.turns) + 2
    diff = [i for i, (a, b) in enumerate(zip(clean.turns, broken.turns)) if a.text != b.text]
    assert len(diff) == 1
    j = diff[0]
    q = clean.turns[j - 1].text
    first = next(i for i, t in enumerate(GAME.turns) if t.text == q)
    assert clean.turns[j].text == GAME.turns[first + 1].text     # same answer again
    assert broken.turns[j].text != clean.turns[j].text and broken.turns[j].speaker == "B"
    assert [t.index for t in broken.turns] == list(range(len(broken.turns)))


def test_repetition_loses_diversity_on_the_hand_game() -> None:
    broken = inject_repetition(GAME, "B", random.Random(0), k=3)
    assert broken is not None
    from chatmatch.robustness.dialogue import GamePair

    cells = evaluate_games([Diversity()], [GamePair("game_repetition", "hand", "B", GAME, broken)])
    cell = cells[("game_repetition", "diversity")]
    assert (cell.tally.wins, cell.tally.ties, cell.tally.losses) == (1, 0, 0) and cell.lost_point == 1.0


def test_consistency_sees_a_contradicting_answer_to_a_repeated_question() -> None:
    from chatmatch.robustness.dialogue import GamePair

    clean = make_transcript("c", ["A", "B"], [*TEXTS[:6], "Do you like fishing?",
                                               "I like fishing a lot, we go every summer."])
    broken = make_transcript("b", ["A", "B"], [*TEXTS[:6], "Do you like fishing?", "No. It bores me."])
    cells = evaluate_games([Consistency(), Diversity()], [GamePair("game_contradiction", "hand", "B",
                                                                  clean, broken)])
    assert cells[("game_contradiction", "consistency")].tally.wins == 1
    assert cells[("game_contradiction", "diversity")].tally.ties == 1


@pytest.mark.parametrize("fam", ["game_repetition", "game_contradiction"])
def test_build_game_pairs_is_seeded(fam: str) -> None:
    convs = [Conversation(f"c{i}", tuple("AB"[k % 2] for k in range(len(TEXTS))), tuple(TEXTS)) for i in range(4)]
    a = build_game_pairs(convs, [fam], n=3, seed=5)
    b = build_game_pairs(convs, [fam], n=3, seed=5)
    assert len(a) >= 2 and [(p.source, p.speaker, p.broken.to_jsonl()) for p in a] == \
        [(p.source, p.speaker, p.broken.to_jsonl()) for p in b]
