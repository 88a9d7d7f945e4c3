"""What every model judge shares: the backend, turn selection, dialogue formatting, and the
run-directory record (``RUN/judges/<judge>.json``: prompts with versions, backend, params,
plus judge-specific run-level facts such as PairEval's position-bias counts).

A judge is a :class:`~chatmatch.scoring.base.Scorer`: ``scoring.dimensions: [paireval]``
makes it the whole game judge; listed next to the seven dimensions it is one more dimension.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, ClassVar, Sequence

from pydantic import Field

from chatmatch.common.safeio import read_text_bounded
from chatmatch.judges.backends import Backend, BackendParams, make_backend
from chatmatch.judges.prompts import PromptTemplate
from chatmatch.records import DimensionScore
from chatmatch.rundir.store import atomic_write, dumps
from chatmatch.scoring.base import Needs, Scorer, ScoringContext
from chatmatch.transcript import Transcript, Turn


#: the endpoint judges' call cache, in RUN/judges/ (key: the URL and the whole request)
CALL_CACHE = "calls.sqlite"


class JudgeParams(BackendParams):
    #: judge at most this many replies of each bot per game, evenly spaced over the game
    #: (None: every reply). Model judges are slow; the choice is recorded in the details.
    max_turns: int | None = Field(default=4, ge=1)
    #: turns of history shown before a judged reply
    context_turns: int = Field(default=4, ge=1, le=200)


class JudgeScorer(Scorer):
    """Base of the model judges."""

    higher_is_better = True
    judge = True
    has_preflight = True
    templates: ClassVar[tuple[PromptTemplate, ...]] = ()

    class Params(JudgeParams):
        pass

    params: JudgeParams

    def __init__(self, params: JudgeParams | None = None) -> None:
        super().__init__(params)
        self._backend: Backend | None = None
        self.run_dir: Path | None = None

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = make_backend(self.params)
        return self._backend

    # --- run directory -------------------------------------------------------------------
    def bind_run_dir(self, path: Path) -> None:
        self.run_dir = Path(path)
        self.write_record()  # RUN/judges/NAME.json: the folder exists from here on
        # endpoint judges: every call kept in the run directory (local ones: nothing)
        self.backend.use_cache(self.run_dir / "judges" / CALL_CACHE)

    def preflight(self) -> None:
        """Endpoint judges: the server answers and serves the model (one test request of
        one token); the runner calls it before any model loads. Local judges: nothing."""
        self.backend.preflight()

    def record_path(self) -> Path | None:
        return None if self.run_dir is None else self.run_dir / "judges" / f"{self.name}.json"

    def read_record(self) -> dict[str, Any]:
        path = self.record_path()
        if path is None or not path.exists():
            return {}
        try:
            data = json.loads(read_text_bounded(path))
        except (OSError, ValueError):
            return {}
        # facts gathered under other parameters or prompts do not carry over
        return data if data.get("fingerprint") == self.fingerprint() else {}

    def fingerprint(self) -> str:
        import hashlib

        blob = json.dumps([self.params.model_dump(), [t.sha256 for t in self.templates]],
                          sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def run_facts(self) -> dict[str, Any]:
        """Judge-specific run-level facts kept in the record (override)."""
        return {}

    def write_record(self) -> None:
        path = self.record_path()
        if path is None:
            return
        atomic_write(path, dumps({**self.describe(), "fingerprint": self.fingerprint(),
                                  **self.run_facts()}) + "\n", own=True)

    def describe(self) -> dict[str, Any]:
        backend = (self._backend.describe() if self._backend is not None
                   else {"backend": self.params.backend, "model": self.params.model})
        return {**super().describe(), "backend": backend,
                "prompts": [t.record() for t in self.templates]}

    # --- scoring -------------------------------------------------------------------------
    progress_unit = "games"  # model calls per reply: a bar counts the games scored

    def needs(self) -> Needs:
        return Needs(model=self.params.model)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        progress = None if context is None else context.progress
        out = []
        for g in games:
            out.append(self._score(g))
            if progress is not None:
                progress(len(out), len(games))
        return out

    def _score(self, game: Transcript) -> DimensionScore:
        raise NotImplementedError

    def rate_replies(self, game: Transcript, rate: Callable[[Transcript, str, Turn], list[dict[str, Any]]]
                     ) -> tuple[dict[str, float], list[dict[str, Any]]]:
        """Rows from ``rate(game, bot, turn)`` for every judged reply of each bot, and each
        bot's raw score: the mean of its rows' ``score`` (NaN when every one is missing)."""
        raw: dict[str, float] = {}
        rows: list[dict[str, Any]] = []
        for bot in game.players:
            got = [row for turn in self.judged_replies(game, bot) for row in rate(game, bot, turn)]
            rows += got
            raw[bot] = mean_or_nan([r["score"] for r in got])
        return raw, rows

    # --- helpers -------------------------------------------------------------------------
    def judged_replies(self, game: Transcript, speaker: str) -> list[Turn]:
        replies = [t for t in game.turns if t.speaker == speaker and not t.seed and t.index > 0]
        return evenly_spaced(replies, self.params.max_turns)

    def context_of(self, game: Transcript, turn: Turn) -> str:
        before = game.turns[max(0, turn.index - self.params.context_turns): turn.index]
        return format_turns(before, responder=turn.speaker)


def evenly_spaced(items: Sequence[Any], n: int | None) -> list[Any]:
    """At most ``n`` items, evenly spaced (first and last included), in order."""
    if n is None or len(items) <= n:
        return list(items)
    if n == 1:
        return [items[len(items) // 2]]
    idx = sorted({round(i * (len(items) - 1) / (n - 1)) for i in range(n)})
    return [items[i] for i in idx]


def format_turns(turns: Sequence[Turn], responder: str) -> str:
    """History lines with speaker-neutral names: the responder is "Person 2"."""
    return "\n".join(f"{'Person 2' if t.speaker == responder else 'Person 1'}: {t.text}"
                     for t in turns) or "(no earlier turns)"


def mean_or_nan(values: Sequence[float | None]) -> float:
    """Mean of the defined values; NaN (missing, never 0) when there are none."""
    ok = [v for v in values if v is not None and not math.isnan(v)]
    return sum(ok) / len(ok) if ok else math.nan
