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

A *stock sentence* is the same test on one sentence of a turn (its own 3-grams, at least
:data:`STOCK_MIN_GRAMS` of them, half of them stock): a turn made new each time (a fresh
number, a place, hashtags of the partner's word) is not canned, but the bank question it ends
on is a stock sentence, and proactivity charges each question in one against its turn
(:func:`stock_sentences`). Both are found in one pass (:func:`canned_and_stock`).

Counting games rather than occurrences keeps a bot with many games (Spot The Bot's
systems have 135 to 225 conversations each) from being charged for phrases it says in a
few of them, the way any speaker does; a recipe bank of 30 lines comes back in about
three games in ten at 10 exchanges and in nearly every game at 100.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from chatmatch.common.text import tokens
from chatmatch.scoring.surface import sentences
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


#: a sentence with fewer own 3-grams than this is never stock (a stock question is short:
#: "which filter would you use?" has three)
STOCK_MIN_GRAMS = 2


@dataclass(frozen=True)
class _Said:
    """One turn of a bot, as the stock test reads it."""

    speaker: str
    game: int
    index: int
    answered: str  # the words of the turn it answers
    own: list[Gram]  # the turn's own 3-grams
    parts: list[tuple[str, list[Gram]]]  # per sentence: its text and its own 3-grams


def _said(games: Sequence[Transcript]) -> tuple[list[_Said], dict[str, set[int]]]:
    """Every turn but the seeds, and the games each bot played."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    items: list[_Said] = []
    played: dict[str, set[int]] = defaultdict(set)
    for gi, game in enumerate(games):
        heard: dict[str, set[str]] = defaultdict(set)
        last = ""
        speakers = set(game.players) | {t.speaker for t in game.turns}
        for turn in game.turns:
            words = _words(turn.text)
            if not turn.seed:
                played[turn.speaker].add(gi)
                theirs = heard[turn.speaker]

                def own(ws: list[str]) -> list[Gram]:
                    return [g for g in zip(ws, ws[1:], ws[2:]) if not theirs.intersection(g)]

                parts = [(s, own(_words(s))) for s in sentences(turn.text)]
                items.append(_Said(turn.speaker, gi, turn.index, " ".join(_words(last)),
                                   own(words), parts))
            content = [w for w in words if w not in ENGLISH_STOP_WORDS]
            for s in speakers:
                if s != turn.speaker:
                    heard[s].update(content)
            last = turn.text
    return items, played


def _find(games: Sequence[Transcript], share: float, stock_games: float, min_grams: int,
          sentence_min_grams: int) -> tuple[list[frozenset[int]], list[dict[int, frozenset[str]]]]:
    """Per game, its canned turns and (turn -> its stock sentences)."""
    items, played = _said(games)
    where: dict[str, dict[Gram, set[tuple[int, str]]]] = defaultdict(lambda: defaultdict(set))
    for it in items:
        for g in it.own:
            where[it.speaker][g].add((it.game, it.answered))
    turns: list[set[int]] = [set() for _ in games]
    stock: list[dict[int, frozenset[str]]] = [{} for _ in games]
    for it in items:
        others = len(played[it.speaker]) - 1
        if others < 1:
            continue
        need, said = stock_games * others, where[it.speaker]

        def is_stock(grams: list[Gram], least: int) -> bool:
            if len(grams) < least:  # too short to tell
                return False
            n = sum(1 for g in grams if len({g2 for g2, a2 in said[g]
                                              if g2 != it.game and a2 != it.answered}) >= need)
            return n >= share * len(grams)

        if is_stock(it.own, min_grams):
            turns[it.game].add(it.index)
        found = frozenset(s for s, grams in it.parts if is_stock(grams, sentence_min_grams))
        if found:
            stock[it.game][it.index] = found
    return [frozenset(s) for s in turns], stock


def canned_turns(games: Sequence[Transcript], share: float = CANNED_SHARE,
                 stock_games: float = STOCK_GAMES,
                 min_grams: int = CANNED_MIN_GRAMS) -> list[frozenset[int]]:
    """Per game (in order), the indices of its canned turns."""
    return _find(games, share, stock_games, min_grams, STOCK_MIN_GRAMS)[0]


def stock_sentences(games: Sequence[Transcript], share: float = CANNED_SHARE,
                    stock_games: float = STOCK_GAMES,
                    min_grams: int = STOCK_MIN_GRAMS) -> list[dict[int, frozenset[str]]]:
    """Per game (in order), turn index -> its *stock sentences* (as
    :func:`~chatmatch.scoring.surface.sentences` splits the turn): sentences at least
    ``share`` of whose own 3-grams (``min_grams`` or more) are stock phrases of the bot."""
    return _find(games, share, stock_games, CANNED_MIN_GRAMS, min_grams)[1]


def canned_and_stock(games: Sequence[Transcript]) -> tuple[list[frozenset[int]],
                                                           list[dict[int, frozenset[str]]]]:
    """:func:`canned_turns` and :func:`stock_sentences` of ``games`` at the defaults, found
    in one pass."""
    return _find(games, CANNED_SHARE, STOCK_GAMES, CANNED_MIN_GRAMS, STOCK_MIN_GRAMS)


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
