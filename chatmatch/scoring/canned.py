"""Canned turns: what a bot says whatever its partner says.

A recipe bot's lines, templates, banks and grammars come back from game to game whatever
the partner says; a real bot's words follow the conversation. A turn is *canned* when at
least half of its own word 3-grams are stock phrases of its bot:

* its *own* 3-grams are those without a content word its partner said earlier in the
  game (the partner's words in a template's slots are not the bot's; function words,
  scikit-learn's English stop words, are everybody's: "did i get that right?" is the
  bot's frame even when the partner said "i" and "that");
* a *stock phrase* of a bot is a 3-gram it says in at least a fifth of its other games
  (:data:`STOCK_GAMES`) of the games scored together, in reply to different words (a turn
  that answers the very same words may say the same: a deterministic bot would);
* a turn with fewer than three own 3-grams is never canned (too short to tell), nor is a
  bot's turn when it has no other game.

Counting games rather than occurrences keeps a bot with many games (Spot The Bot's
systems have 135 to 225 conversations each) from being charged for phrases it says in a
few of them, the way any speaker does; a recipe bank of 30 lines comes back in about
three games in ten at 10 exchanges and in nearly every game at 100.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from chatmatch.common.text import tokens
from chatmatch.transcript import Transcript

#: share of a turn's own 3-grams that must be stock phrases for the turn to be canned
CANNED_SHARE = 0.5
#: share of the bot's other games a 3-gram must come back in to be a stock phrase
STOCK_GAMES = 0.2
#: a turn with fewer own 3-grams than this is never canned (too short to tell)
CANNED_MIN_GRAMS = 3

Gram = tuple[str, str, str]


def _words(text: str) -> list[str]:
    return [w.lower() for w in tokens(text) if any(c.isalnum() for c in w)]


def canned_turns(games: Sequence[Transcript], share: float = CANNED_SHARE,
                 stock_games: float = STOCK_GAMES,
                 min_grams: int = CANNED_MIN_GRAMS) -> list[frozenset[int]]:
    """Per game (in order), the indices of its canned turns."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    items: list[tuple[str, int, int, str, list[Gram]]] = []
    played: dict[str, set[int]] = defaultdict(set)
    for gi, game in enumerate(games):
        heard: dict[str, set[str]] = defaultdict(set)
        last = ""
        speakers = set(game.players) | {t.speaker for t in game.turns}
        for turn in game.turns:
            words = _words(turn.text)
            if not turn.seed:
                played[turn.speaker].add(gi)
                own = [g for g in zip(words, words[1:], words[2:])
                       if not heard[turn.speaker].intersection(g)]
                items.append((turn.speaker, gi, turn.index, " ".join(_words(last)), own))
            content = [w for w in words if w not in ENGLISH_STOP_WORDS]
            for s in speakers:
                if s != turn.speaker:
                    heard[s].update(content)
            last = turn.text
    where: dict[str, dict[Gram, set[tuple[int, str]]]] = defaultdict(lambda: defaultdict(set))
    for speaker, gi, _, key, own in items:
        for g in own:
            where[speaker][g].add((gi, key))
    out: list[set[int]] = [set() for _ in games]
    for speaker, gi, index, key, own in items:
        others = len(played[speaker]) - 1
        if len(own) < min_grams or others < 1:
            continue
        need = stock_games * others
        stock = sum(1 for g in own
                    if len({g2 for g2, k2 in where[speaker][g] if g2 != gi and k2 != key}) >= need)
        if stock >= share * len(own):
            out[gi].add(index)
    return [frozenset(s) for s in out]


def canned_shares(games: Sequence[Transcript]) -> dict[str, float]:
    """Per bot, the share of its turns (the seed aside) that are canned among ``games``."""
    said: dict[str, int] = defaultdict(int)
    canned: dict[str, int] = defaultdict(int)
    for game, found in zip(games, canned_turns(games)):
        for turn in game.turns:
            if not turn.seed:
                said[turn.speaker] += 1
                canned[turn.speaker] += turn.index in found
    return {b: round(canned[b] / n, 3) for b, n in sorted(said.items())}
