"""Dialogue-level families: break a whole game and check the matching dimension notices.

* ``game_repetition``: ``k`` of one speaker's later turns are replaced by verbatim copies of
  their own earlier turns. Diversity (Algorithm 1) should score the speaker lower.
* ``game_contradiction``: the partner asks one of its earlier questions again and the
  speaker answers (only questions first answered by a statement, not a counter-question). In the clean game the speaker repeats their first answer; in the
  broken game they give it negated. Consistency (Algorithm 2) should score the speaker
  lower. Both games hold the same repeated question, so only the answer differs.

A pair is a win when the speaker's raw score is better in the clean game than in the
broken one, a tie when equal; ``lost_point`` is the share of broken games in which the
speaker loses that dimension's point to the partner.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from chatmatch.progress import Reporter
from chatmatch.robustness import edits
from chatmatch.robustness.accuracy import Tally, tally
from chatmatch.robustness.triples import Conversation
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import dimension_winner
from chatmatch.common.text import is_question
from chatmatch.transcript import Transcript, Turn

#: dialogue-level family -> the dimension that must notice it
DIALOGUE_FAMILIES: dict[str, tuple[str, ...]] = {"game_repetition": ("diversity",),
                                                 "game_contradiction": ("consistency",)}
MIN_TURNS, MAX_TURNS, REPEATS = 10, 40, 3


@dataclass(frozen=True)
class GamePair:
    family: str
    source: str
    speaker: str
    clean: Transcript
    broken: Transcript


def _game(conv: Conversation, max_turns: int) -> Transcript | None:
    speakers = list(dict.fromkeys(conv.speakers[:max_turns]))
    if len(speakers) != 2:
        return None
    turns = tuple(Turn(i, s, t) for i, (s, t) in enumerate(zip(conv.speakers[:max_turns],
                                                                 conv.texts[:max_turns])))
    return Transcript(conv.conv_id, (speakers[0], speakers[1]), turns)


def _renumber(turns: Sequence[Turn]) -> tuple[Turn, ...]:
    return tuple(replace(t, index=i) for i, t in enumerate(turns))


def inject_repetition(game: Transcript, speaker: str, rng: random.Random,
                      k: int = REPEATS) -> Transcript | None:
    """``k`` of ``speaker``'s turns (not the first) replaced by copies of earlier own turns."""
    own = [i for i, t in enumerate(game.turns) if t.speaker == speaker and t.text.strip()]
    if len(own) < k + 1:
        return None
    turns = list(game.turns)
    for pos in sorted(rng.sample(own[1:], k)):
        earlier = [turns[i].text for i in own if i < pos and turns[i].text != turns[pos].text]
        if not earlier:
            return None
        turns[pos] = replace(turns[pos], text=rng.choice(earlier))
    return replace(game, turns=tuple(turns))


def inject_contradiction(game: Transcript, speaker: str, rng: random.Random
                         ) -> tuple[Transcript, Transcript] | None:
    """(clean, broken): a partner question asked again, answered the same way / negated."""
    t = game.turns
    asked = [i for i in range(len(t) - 1) if t[i].speaker != speaker and t[i + 1].speaker == speaker
             and is_question(t[i].text) and not is_question(t[i + 1].text)
             and edits.negate(t[i + 1].text) is not None]
    if not asked:
        return None
    q = rng.choice(asked)
    slots = [j for j in range(q + 2, len(t) + 1) if t[j - 1].speaker == speaker]
    if not slots:
        return None
    j = rng.choice(slots)
    partner = game.other(speaker)
    answer, negated = t[q + 1].text, edits.negate(t[q + 1].text) or ""

    def with_answer(text: str) -> Transcript:
        added = [Turn(0, partner, t[q].text), Turn(0, speaker, text)]
        return replace(game, turns=_renumber([*t[:j], *added, *t[j:]]))

    return with_answer(answer), with_answer(negated)


def build_game_pairs(convs: Sequence[Conversation], families: Iterable[str], *, n: int, seed: int,
                     max_turns: int = MAX_TURNS) -> list[GamePair]:
    """Up to ``n`` (clean, broken) game pairs per dialogue-level family, seeded."""
    out: list[GamePair] = []
    for fam in families:
        rng = random.Random(f"{seed}:{fam}")
        order = [c for c in range(len(convs)) if len(convs[c].texts) >= MIN_TURNS]
        rng.shuffle(order)
        kept = 0
        for c in order:
            if kept >= n:
                break
            game = _game(convs[c], max_turns)
            if game is None:
                continue
            speaker = rng.choice(game.players)
            pair = _make(fam, game, speaker, rng)
            if pair is not None:
                out.append(GamePair(fam, game.game_id, speaker, *pair))
                kept += 1
    return out


def _make(fam: str, game: Transcript, speaker: str, rng: random.Random
          ) -> tuple[Transcript, Transcript] | None:
    if fam == "game_repetition":
        broken = inject_repetition(game, speaker, rng)
        return None if broken is None else (game, broken)
    if fam == "game_contradiction":
        return inject_contradiction(game, speaker, rng)
    raise KeyError(fam)


@dataclass(frozen=True)
class DialogueCell:
    tally: Tally
    lost_point: float  # share of broken games where the speaker loses the dimension

    def to_json(self) -> dict[str, object]:
        return {**self.tally.to_json(), "lost_point": self.lost_point}


def evaluate_games(scorers: Sequence[Scorer], pairs: Sequence[GamePair], *,
                   reporter: Reporter | None = None) -> dict[tuple[str, str], DialogueCell]:
    """Every scorer on every pair: (family, dimension) -> cell."""
    if not pairs or not scorers:
        return {}
    games = [g for p in pairs for g in (p.clean, p.broken)]
    results = score_games(games, scorers, reporter=reporter)
    cells: dict[tuple[str, str], DialogueCell] = {}
    for s in scorers:
        for fam in dict.fromkeys(p.family for p in pairs):
            outcomes, lost = [], 0
            for k, p in enumerate(pairs):
                if p.family != fam:
                    continue
                clean, broken = results[2 * k][s.name].raw, results[2 * k + 1][s.name].raw
                outcomes.append(dimension_winner(clean[p.speaker], broken[p.speaker], s.higher_is_better))
                other = p.broken.other(p.speaker)
                lost += dimension_winner(broken[p.speaker], broken[other], s.higher_is_better) == -1
            cells[(fam, s.name)] = DialogueCell(tally(outcomes), lost / len(outcomes))
    return cells
