"""Specificity: lexical variety of the bot's text (higher is better).

``method`` chooses the measure (docs/appendix/scoring-measurements.md, "Options chosen by measurement"):

* ``distinct`` (the paper): the mean of Distinct-1 and Distinct-2 pooled over the bot's
  turns (below). A pooled type-token ratio falls as the text grows, so it rewards the bot
  that says less;
* ``mattr`` (default, measured: docs/scoring.md): the same mean of Distinct-1 and Distinct-2, but measured on every window of
  ``window`` (25) consecutive unigrams (bigrams) of the bot's text and averaged
  (:func:`chatmatch.scoring.variety.moving_distinct`): equal-size samples, so length
  stops paying above the window;
* ``nidf``: the mean normalised IDF of the bot's words over a chit-chat corpus (See et al.
  2019; :func:`chatmatch.scoring.variety.mean_nidf`): how rare, so how specific, the words
  are. A bot with no token has no score (NaN, which loses the dimension).

Distinct-n of a bot (Li et al. 2016) = distinct token n-grams / all token n-grams, pooled
over all the bot's turns in the game (n-grams never cross a turn boundary). Tokens are
:func:`chatmatch.common.text.tokens` -- words and emoji, never characters (the authors'
released scorer counted characters). Raw score = (Distinct-1 + Distinct-2) / 2.

A bot with no token at all scores 0; a bot whose turns are all one word has no bigram,
so its Distinct-2 is 0. Details give, per turn, its token count and how many of its
unigrams and bigrams were new for that bot.

Which repetitions (Algorithm 1, :mod:`chatmatch.scoring.diversity`) are left out of the
pool is ``leave_out``:

* ``excused`` (default): the turns diversity finds repeating but does not penalise -- an
  answer repeated because the *partner* repeated its question. Kept in, they would lower
  the Distinct-n of the bot that answered consistently, for its partner's behaviour.
* ``penalised`` (the authors' released scorer): the penalised repetitions. Left out, they
  *raise* the repeater's score, because Distinct-n is higher on fewer tokens: on the
  repeated-questions ladder family the repeater then wins specificity (see
  docs/scoring.md), so this is not the default. Kept in (``excused``), a verbatim repeat
  lowers its own speaker's Distinct-n: it earns nothing.
* ``all``: both; ``none`` (the paper's text): every credited turn is pooled.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Sequence


from chatmatch.records import DimensionScore
from chatmatch.scoring.base import FollowsSigmaR, Needs, Scorer, ScoringContext
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import sigma
from chatmatch.common.text import tokens
from chatmatch.scoring.variety import chitchat_nidf, moving_distinct
from chatmatch.transcript import Transcript


def distinct(ngram_lists: Sequence[Sequence[tuple[str, ...]]]) -> float:
    """Distinct n-grams / all n-grams over several turns (0 when there is none)."""
    total = sum(len(x) for x in ngram_lists)
    return len({g for x in ngram_lists for g in x}) / total if total else 0.0


def ngrams(toks: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)]


class Specificity(Scorer):
    name = "specificity"
    higher_is_better = True
    description = "lexical variety of the bot's tokens (Table 1: Distinct-1/2; or MATTR, NIDF)"

    class Params(FollowsSigmaR):
        #: distinct (the paper's pooled Distinct-1/2), mattr (Distinct-1/2 on equal-size
        #: windows), nidf (mean normalised IDF of the bot's words)
        method: Literal["distinct", "mattr", "nidf"] = "mattr"
        #: window of ``mattr``, in unigrams (bigrams)
        window: ClassVar[int] = 25
        #: which repetitions leave the pool: excused (answers to a repeated question),
        #: penalised (authors' scorer), all, none (paper's text)
        leave_out: Literal["excused", "penalised", "all", "none"] = "excused"

    params: Params

    def needs(self) -> Needs:
        leave_out = self.params.leave_out != "none"
        return Needs(repetitions=frozenset({sigma(self.params.sigma_r)}) if leave_out else frozenset())

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        return [self.score_game(a.game, a) for a in self.context_for(games, context).games]

    def score_game(self, game: Transcript, analysis: GameAnalysis | None = None) -> DimensionScore:
        """``game``'s score; ``analysis``: its repetitions, computed by the engine."""
        analysis = analysis or GameAnalysis.of(game, self.needs().repetitions)
        grams: dict[str, tuple[list[list[tuple[str, ...]]], list[list[tuple[str, ...]]]]] = {
            p: ([], []) for p in game.players}
        seen: dict[str, set[tuple[str, ...]]] = {p: set() for p in game.players}
        details: list[dict[str, Any]] = []
        skip = self.left_out(analysis)
        for turn in (t for t in credited_turns(game) if t.index not in skip):
            toks = tokens(turn.text)
            uni, bi = ngrams(toks, 1), ngrams(toks, 2)
            grams[turn.speaker][0].append(uni)
            grams[turn.speaker][1].append(bi)
            new_uni, new_bi = set(uni) - seen[turn.speaker], set(bi) - seen[turn.speaker]
            seen[turn.speaker].update(uni + bi)
            details.append({"turn": turn.index, "speaker": turn.speaker, "tokens": len(toks),
                            "new_unigrams": len(new_uni), "new_bigrams": len(new_bi)})
        raw = {p: self.value(u, b) for p, (u, b) in grams.items()}
        return DimensionScore(self.name, raw, self.higher_is_better, details)

    def value(self, uni: list[list[tuple[str, ...]]], bi: list[list[tuple[str, ...]]]) -> float:
        """The raw score of one bot from its per-turn unigrams and bigrams."""
        if self.params.method == "distinct":
            return (distinct(uni) + distinct(bi)) / 2
        flat_uni = [g for turn in uni for g in turn]
        if self.params.method == "nidf":
            return chitchat_nidf().mean([g[0] for g in flat_uni])
        flat_bi = [g for turn in bi for g in turn]
        w = self.params.window
        return (moving_distinct(flat_uni, w) + moving_distinct(flat_bi, w)) / 2

    def left_out(self, game: GameAnalysis) -> frozenset[int]:
        """The turns ``leave_out`` takes out of ``game``'s pools."""
        how, sigma_r = self.params.leave_out, sigma(self.params.sigma_r)
        if how == "none":
            return frozenset()
        if how == "penalised":
            return game.penalised(sigma_r)
        every = game.repeated(sigma_r)
        return every if how == "all" else every - game.penalised(sigma_r)
