"""PairEval (Park et al. 2024): the judge compares two responses and its preference is read
from the probabilities of the label words "A" and "B".

* P("A") and P("B") of the first answer token are **renormalised over the two labels**
  (p_A / (p_A + p_B)); the mass that was on them is kept in the details.
* Every comparison is asked twice, with the two sides swapped, and the two probabilities
  that X is better are averaged (the paper's position-swap). When the two orders prefer
  different sides the judge showed **position bias**; how often that happened is recorded
  per game (``details``) and for the run (``RUN/judges/paireval.json``).

Levels and modes (``params``):

* ``level: turn, mode: head_to_head`` (default): the k-th judged reply of one bot is
  compared with the k-th judged reply of the other, each shown with its own history (the
  paper's prompt holds two conversations, so different histories are fine). A bot's raw
  score is its mean probability of having the better reply.
* ``level: turn, mode: reference``: every judged reply is compared with ``comparisons``
  fixed human examples (default 3, drawn with ``comparison_seed`` from chitchat-dataset):
  the paper's absolute score, mean P(reply beats example).
* ``level: game``: the whole dialogue (first ``dialogue_turns`` turns) is shown with the
  speakers named A and B, and the judge says which speaker is better; swapped by renaming.
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

from pydantic import Field

from chatmatch.judges.backends import renormalise
from chatmatch.judges.base import JudgeParams, JudgeScorer, mean_or_nan
from chatmatch.judges.corpus import Example, comparison_examples
from chatmatch.judges.prompts import PAIREVAL_GAME, PAIREVAL_TURN
from chatmatch.records import DimensionScore, none_to_nan
from chatmatch.scoring.base import ScoringContext
from chatmatch.transcript import Transcript, Turn

LABELS = ("A", "B")


def preference(probs: dict[str, float] | None, side: str) -> float | None:
    """P(the item shown as ``side`` is better), renormalised over "A" and "B"."""
    if probs is None:
        return None
    total = probs.get("A", 0.0) + probs.get("B", 0.0)
    return None if total <= 0 else probs.get(side, 0.0) / total


def swap_average(x_first: dict[str, float] | None,
                 x_second: dict[str, float] | None) -> tuple[float | None, bool | None]:
    """P(X better) averaged over the two orders (X shown as A, then as B), and whether the
    two orders disagree about which side is better (None when an order is missing)."""
    p1, p2 = preference(x_first, "A"), preference(x_second, "B")
    got = [p for p in (p1, p2) if p is not None]
    if not got:
        return None, None
    if p1 is None or p2 is None:
        return got[0], None
    return (p1 + p2) / 2, _side(p1) != _side(p2)


def _side(p: float) -> int:
    return 0 if abs(p - 0.5) < 1e-12 else (1 if p > 0.5 else -1)


class PairEval(JudgeScorer):
    name = "paireval"
    description = "PairEval pairwise judge (mean probability of the better response)"
    templates = (PAIREVAL_TURN, PAIREVAL_GAME)

    class Params(JudgeParams):
        level: Literal["turn", "game"] = "turn"
        mode: Literal["head_to_head", "reference"] = "head_to_head"
        comparisons: int = Field(default=3, ge=1, le=50)
        comparison_seed: int = 0
        dialogue_turns: int = Field(default=20, ge=2)

    params: Params

    def __init__(self, params: Params | None = None) -> None:
        super().__init__(params)
        self._bias: dict[str, list[int]] = {}
        self._examples: list[Example] | None = None

    def bind_run_dir(self, path: Any) -> None:
        super().bind_run_dir(path)
        self._bias = {**self.read_record().get("position_bias", {}).get("games", {}), **self._bias}
        self.write_record()

    def run_facts(self) -> dict[str, Any]:
        pairs = sum(v[0] for v in self._bias.values())
        flips = sum(v[1] for v in self._bias.values())
        facts: dict[str, Any] = {"position_bias": {
            "games": self._bias, "pairs": pairs, "disagreements": flips,
            "rate": flips / pairs if pairs else None,
            "meaning": "share of comparisons whose two orders (A/B swapped) preferred different sides"}}
        if self.params.mode == "reference" and self.params.level == "turn":
            facts["comparison_examples"] = [e.__dict__ for e in self.examples()]
        return facts

    def examples(self) -> list[Example]:
        if self._examples is None:
            p = self.params
            self._examples = comparison_examples(p.comparisons, p.comparison_seed, p.context_turns)
        return self._examples

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        out = super().score_games(games, context)
        self.write_record()
        return out

    def _ask(self, prompt: str, prefix: str) -> dict[str, float] | None:
        return renormalise(self.backend.label_probs(prompt, LABELS, prefix))

    def _compare(self, x: tuple[str, str], y: tuple[str, str]) -> dict[str, Any]:
        """Both orders of (history, reply) pair x against y."""
        def ask(a: tuple[str, str], b: tuple[str, str]) -> dict[str, float] | None:
            return self._ask(*PAIREVAL_TURN.render(context_a=a[0], response_a=a[1],
                                                   context_b=b[0], response_b=b[1]))
        first, second = ask(x, y), ask(y, x)
        p, flip = swap_average(first, second)
        return {"p_x_better": p, "x_first": first, "x_second": second, "orders_disagree": flip}

    def _score(self, game: Transcript) -> DimensionScore:
        a, b = game.players
        if self.params.level == "game":
            rows = [self._game_level(game)]
            p_a = rows[0]["p_x_better"]
            raw = {a: none_to_nan(p_a), b: none_to_nan(None if p_a is None else 1 - p_a)}
        elif self.params.mode == "reference":
            rows, raw = self._reference(game)
        else:
            rows = self._head_to_head(game)
            raw = {a: mean_or_nan([r["p_x_better"] for r in rows]),
                   b: mean_or_nan([None if r["p_x_better"] is None else 1 - r["p_x_better"]
                                   for r in rows])}
        flags = [r["orders_disagree"] for r in rows if r["orders_disagree"] is not None]
        self._bias[game.game_id] = [len(flags), sum(flags)]
        summary = {"judge": "paireval", "level": self.params.level, "mode": self.params.mode,
                   "prompt_version": (PAIREVAL_GAME if self.params.level == "game"
                                      else PAIREVAL_TURN).version,
                   "position_bias": {"pairs": len(flags), "disagreements": sum(flags)},
                   "renormalised_over": list(LABELS)}
        return DimensionScore(self.name, raw, True, [summary, *rows])

    def _head_to_head(self, game: Transcript) -> list[dict[str, Any]]:
        a, b = game.players
        rows = []
        for ta, tb in zip(self.judged_replies(game, a), self.judged_replies(game, b)):
            r = self._compare(self._side(game, ta), self._side(game, tb))
            rows.append({"x": a, "x_turn": ta.index, "y": b, "y_turn": tb.index, **r})
        return rows

    def _reference(self, game: Transcript) -> tuple[list[dict[str, Any]], dict[str, float]]:
        rows, raw = [], {}
        refs = [("\n".join(f"Person {1 + (len(e.context) - 1 - i) % 2}: {t}"
                           for i, t in enumerate(e.context)), e.reply) for e in self.examples()]
        for bot in game.players:
            scores = []
            for turn in self.judged_replies(game, bot):
                for ex, ref in zip(self.examples(), refs):
                    r = self._compare(self._side(game, turn), ref)
                    rows.append({"x": bot, "x_turn": turn.index, "y": ex.source, **r})
                    scores.append(r["p_x_better"])
            raw[bot] = mean_or_nan(scores)
        return rows, raw

    def _side(self, game: Transcript, turn: Turn) -> tuple[str, str]:
        return self.context_of(game, turn), turn.text

    def _game_level(self, game: Transcript) -> dict[str, Any]:
        a, _ = game.players
        turns = game.turns[: self.params.dialogue_turns]

        def ask(a_name: str) -> dict[str, float] | None:
            text = "\n".join(f"{'A' if t.speaker == a_name else 'B'}: {t.text}" for t in turns)
            return self._ask(*PAIREVAL_GAME.render(dialogue=text))
        first, second = ask(a), ask(game.other(a))
        p, flip = swap_average(first, second)
        return {"x": a, "p_x_better": p, "x_first": first, "x_second": second,
                "orders_disagree": flip, "turns_shown": len(turns)}
