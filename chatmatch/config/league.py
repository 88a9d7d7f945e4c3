"""The league blocks of a tournament YAML: ``seed_utterance`` as a seed set by category
(:class:`SeedSet`; a ``{file: ...}`` is read into it by chatmatch.config.seedsets when the YAML
is loaded) and ``schedule`` (:class:`ScheduleConfig`: which games are played,
chatmatch.play.pairing). See docs/league.md."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from chatmatch.common.validation import StrictModel, validation_message
from chatmatch.config.names import check_name, look_alike, look_alike_text


class SeedSet(StrictModel):
    """Seed utterances by category (``seed_utterance: {categories: {name: [...]}}``; a
    ``{file: ...}`` is read into this form when the YAML is loaded, chatmatch.config.seedsets)."""

    categories: dict[str, list[str]]

    @field_validator("categories")
    @classmethod
    def _categories_ok(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        if not v:
            raise ValueError("give at least one category of seed utterances")
        seen: dict[str, str] = {}
        for name, items in v.items():
            if not name.strip() or not items or any(not s.strip() for s in items):
                raise ValueError(f"category {name!r}: needs a name and non-empty utterances")
            if name != name.strip():  # the same rule as bot names: " q" would print as "q"
                raise ValueError(f"category {name!r}: starts or ends with a space; remove it")
            check_name(name, "seed category")
            for s in items:
                if s in seen and seen[s] != name:
                    raise ValueError(f"utterance {s!r} is in two categories ({seen[s]}, {name}); "
                                     "each utterance belongs to one category")
                seen[s] = name
        pair = look_alike(v)
        if pair is not None:  # one category under two spellings would split its games
            raise ValueError(look_alike_text(pair, "seed category"))
        return v


class ScheduleConfig(StrictModel):
    """Which games a tournament plays (chatmatch.play.pairing). ``round-robin``: every pair twice
    (paper); ``random``, ``swiss``, ``adaptive``: a game budget for big leagues; ``auto``:
    round-robin up to AUTO_ROUND_ROBIN_MAX bots, the best-measured budgeted schedule above."""

    method: Literal["auto", "round-robin", "random", "swiss", "adaptive"] = "auto"
    #: random/swiss/adaptive: games to play at most (None: the default budget,
    #: chatmatch.play.pairing.default_budget); with auto, a budget picks the budgeted method
    games: int | None = Field(default=None, ge=2, le=10_000_000)
    #: retired bots (in the run but no longer in the YAML): drop them from the ranking, or
    #: keep them ranked on the games they played
    retired: Literal["drop", "keep"] = "drop"

    @field_validator("games", mode="before")
    @classmethod
    def _exponent_is_a_number(cls, v: Any) -> Any:
        """YAML reads ``1e6`` (no dot) as text: a whole number written so is taken as one."""
        if isinstance(v, str) and re.fullmatch(r"\s*\d+(\.\d*)?[eE]\+?\d+\s*", v):
            f = float(v)
            return int(f) if f.is_integer() and f < 1e300 else v
        return v

    @model_validator(mode="after")
    def _budget_needs_a_budgeted_method(self) -> "ScheduleConfig":
        if self.method == "round-robin" and self.games is not None:
            raise ValueError("games: a budget needs method random, swiss or adaptive (the "
                             "round-robin plays every pair); remove games or change the method")
        return self

    def check_budget(self, bots: int) -> None:
        """``ValueError`` for a budget the schedule of ``bots`` bots cannot fill exactly:
        an odd one (games are played in matches of two), naming the nearest valid values
        that exist (a round-robin of n bots has n(n-1) games: a budget of that or more plays
        them all)."""
        games, full = self.games, bots * (bots - 1)
        if games is None or not games % 2:
            return
        near = [g for g in (games - 1, games + 1) if 2 <= g <= full] or [full]
        note = f" (the round-robin of {bots} bots has {full} games)" if games + 1 > full else ""
        raise ValueError(f"games: {games} cannot be played to the end: games are played in "
                         f"matches of two (each bot opens once); use {' or '.join(map(str, near))}"
                         f"{note}")


def seed_set_or_value(v: Any) -> Any:
    """``seed_utterance`` before validation: a mapping is a seed set, validated here so
    that its own problem is reported (not the first branch of the str/list/set union)."""
    if not isinstance(v, dict):
        return v
    try:
        return SeedSet.model_validate(v)
    except ValidationError as exc:
        raise ValueError(validation_message(exc) + " (a seed set is "
                         "{categories: {name: [utterance, ...]}} or {file: seeds.csv})") from None
