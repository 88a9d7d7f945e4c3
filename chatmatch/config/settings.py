"""The blocks of a tournament file that are settings rather than the tournament itself:
:class:`EvalSettings` (``preset``, ``scoring``, ``ranking`` and ``seed``: what judges and
ranks games, read alone by ``chatmatch score``, ``chatmatch validate`` and the readers of a
stored run), :class:`FailurePolicy` (the ``failures`` block) and :class:`RayConfig` (the
``ray`` block). :class:`~chatmatch.config.tournament.TournamentConfig` holds them all.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import AfterValidator, ConfigDict, Field, model_validator

from chatmatch.common.validation import StrictModel
from chatmatch.config.presets import PRESETS, apply_preset, unknown_preset_message
from chatmatch.ranking.config import RankingConfig
from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.scoring.config import ScoringConfig

#: largest ``failures.timeout_s`` (a week; larger values overflow the OS's timers; use
#: ``null`` for no limit)
MAX_TIMEOUT_S = 7 * 24 * 3600.0
#: ``failures.timeout_s`` when the YAML sets none (10 minutes a call)
DEFAULT_TIMEOUT_S = 600.0


class FailurePolicy(StrictModel):
    """What to do when a bot raises, times out, or returns empty or huge text."""

    #: more calls of a failed turn, made only when another call can succeed: a timeout or
    #: connection error, or a bot that is not deterministic (docs/bots.md)
    retries: int = Field(default=2, ge=0, le=100)
    #: forfeit: the failing bot loses that game (reason recorded); abort: stop the run
    #: (finished games are kept; run again to resume).
    on_failure: Literal["forfeit", "abort"] = "forfeit"
    #: seconds one call of a bot may take (a ``reply_batch`` call is one call); None: no
    #: limit. The default stops a hung plugin from hanging the run: raise it for slow models
    timeout_s: float | None = Field(default=DEFAULT_TIMEOUT_S, gt=0, le=MAX_TIMEOUT_S)
    #: an empty or whitespace reply counts as a failure (retried) unless allow_empty
    allow_empty: bool = False
    #: longer replies are cut to this many characters (recorded in the turn's game meta);
    #: at most MAX_TURN_CHARS, the longest turn the scorers take
    max_chars: int = Field(default=2000, ge=1, le=100_000)
    #: ``chatmatch run`` exits with status 3 when a bot forfeited more than this share of
    #: its games (0.0: any forfeit), unless ``--allow-forfeits``; the leaderboard marks it.
    #: It changes what is reported, not what is played.
    max_forfeit_share: float = Field(default=0.0, ge=0.0, le=1.0)


class RayConfig(StrictModel):
    """Where and how the ``ray`` executor runs (see docs/scale.md)."""

    #: None: start a private local Ray instance; "auto" or "ray://host:port": join a cluster
    address: str | None = None
    #: CPUs of the local instance started when ``address`` is None (None: all of them)
    num_cpus: int | None = Field(default=None, ge=1)
    #: GPU fraction reserved by each neural bot's actor when the cluster has GPUs
    gpus_per_bot: float = Field(default=0.0, ge=0.0, le=8.0)
    #: CPUs reserved by each bot actor (0: actors do not hold a CPU between calls)
    cpus_per_bot: float = Field(default=0.0, ge=0.0, le=256.0)
    #: which bots become actors: "auto" = neural (batched) or not thread-safe bots, the
    #: others (rule-based, HTTP) run in the driver; "all" = every bot
    actors: Literal["auto", "all"] = "auto"
    #: Ray workers that score finished games, each holding the scorers' models once (0:
    #: score in the driver, as the local executor does)
    scorers: int = Field(default=1, ge=0, le=1024)
    #: CPUs each scoring worker reserves (it computes while it holds them)
    cpus_per_scorer: float = Field(default=1.0, ge=0.0, le=256.0)
    #: GPU fraction each scoring worker reserves when the cluster has GPUs: its fluency LM
    #: (``device: auto``, the default) then runs there
    gpus_per_scorer: float = Field(default=0.0, ge=0.0, le=8.0)


def _preset_known(v: str | None) -> str | None:
    if v is not None and v not in PRESETS:
        raise ValueError(unknown_preset_message(v))
    return v


#: the ``preset`` key: a name in chatmatch.config.presets.PRESETS, or none
PresetName = Annotated[Optional[str], AfterValidator(_preset_known)]


class EvalSettings(StrictModel):
    """What judges and ranks games, the part of a tournament that ``chatmatch score``,
    ``chatmatch validate`` and the readers of a stored run use: preset, ``scoring``,
    ``ranking`` and ``seed``. :class:`TournamentConfig` is this model with what is played
    added (the four keys declared here only; ``TournamentConfig.settings`` is this model).
    Frozen: settings are read, never changed in place (``model_copy(update=...)`` makes
    another)."""

    model_config = ConfigDict(frozen=True)

    #: a named bundle of settings (chatmatch.config.presets), applied before validation; keys set
    #: in the file win over it
    preset: PresetName = None
    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    ranking: RankingConfig = Field(default_factory=RankingConfig)
    #: the seed of every random choice of scoring and ranking (and of the schedule)
    seed: int = 0
    #: how the models of the scorers and judges run (engine, device, batches, processes,
    #: threads): not part of the scoring fingerprint
    runtime: RuntimeSettings = Field(default_factory=RuntimeSettings)

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:
        return apply_preset(data)

    @model_validator(mode="after")
    def _covariates_scored(self) -> "EvalSettings":
        # a ranking method whose parameters name ``covariates`` (bt-style) reads them from
        # the scored dimensions: one that is not scored is refused before a game is played
        params = self.ranking.params(self.ranking.method)
        missing = [c for c in getattr(params, "covariates", None) or ()
                   if c not in self.scoring.dimensions]
        if missing:
            raise ValueError(f"ranking {self.ranking.method}: covariate(s) {', '.join(missing)} "
                             "not in scoring.dimensions; add them there (with weight 0 in "
                             "scoring.weights, so that they decide no point)")
        return self


#: the keys of a tournament YAML that are :class:`EvalSettings`
SETTINGS_KEYS = tuple(EvalSettings.model_fields)
