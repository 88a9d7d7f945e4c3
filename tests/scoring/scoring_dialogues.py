"""Hand-built dialogues shared by the scorer tests (imported as ``scoring_dialogues``)."""

from __future__ import annotations

from chatmatch.transcript import Transcript, make_transcript

#: Shaped like the paper's Figure 2 (paper turn k = index k - 1 here): A asks at 1,
#: repeats the question at 3 (B repeats its answer at 4), asks at 5 and repeats it at 7,
#: B answers the repeat inconsistently at 8, A brings back "student" at 9.
FIGURE2 = [
    "What do you do for a living?",              # 0  A  (paper turn 1)
    "I am a student.",                           # 1  B
    "What do you do for a living?",              # 2  A  repeated question of 0
    "I am a student.",                           # 3  B  repetition of 1, not penalised
    "Where do you live?",                        # 4  A
    "I live in a small town near the sea.",      # 5  B
    "Where do you live?",                        # 6  A  repeated question of 4
    "My home is a big city in the mountains.",   # 7  B  inconsistent with 5
    "Being a student must keep you busy.",       # 8  A  memory bonus: "student"
]


def game(texts: list[str], *, seed_first: bool = False, gid: str = "g") -> Transcript:
    return make_transcript(gid, ("A", "B"), texts, seed_first=seed_first)
