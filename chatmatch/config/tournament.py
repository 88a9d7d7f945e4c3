"""Tournament definition: YAML -> validated, typed objects.

Everything is checked before any bot runs: unknown keys, wrong types, duplicate or missing
bots, unknown adapters, bad adapter parameters, unknown dimensions, bad weights. Every
error names the file, the line and the key path::

    tournaments/x.yaml:7: bots.1.adapter: Unknown bot adapter 'elisa'. Did you mean: eliza? ...

A minimal file is just a list of bots; everything else has the defaults of the paper.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic import ValidationInfo

from chatmatch.adapters import BadParam, check_bot
from chatmatch.common.params import ParamsProblem
from chatmatch.common.registry import close_matches
from chatmatch.common.validation import AutoOnOff, StrictModel, problem_of, refuse_bool_for_number
from chatmatch.common.yamlloc import LocatedYaml, load_located_yaml
from chatmatch.config.league import ScheduleConfig, SeedSet, seed_set_or_value
from chatmatch.config.checks import check_duplicate_bots, check_no_literal_secrets, check_seed_lengths
from chatmatch.config.names import check_bot_name, check_visible
from chatmatch.config.seedsets import resolve_seed_file
from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.config.settings import SETTINGS_KEYS, EvalSettings, FailurePolicy, RayConfig
from chatmatch.errors import ChatmatchError, ConfigError

#: The paper's best seed utterance (a question; section 4.4.3).
DEFAULT_SEED_UTTERANCE = "What did you do last week?"
#: the most exchanges a game may have (10,000 turns, the longest game chatmatch scores);
#: also the bound of every command-line option that sets a game's length
MAX_EXCHANGES = 5_000
#: The paper plays 100 exchanges (200 turns) per game.
DEFAULT_EXCHANGES = 100


class BotSpec(StrictModel):
    """One bot: a unique name, an adapter (registered name or ``package.module:Class``),
    and the adapter's parameters."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1)
    adapter: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name_ok(cls, v: str) -> str:
        return check_bot_name(v)  # the one name rule (chatmatch/config/names.py)


class TournamentConfig(EvalSettings):
    """A tournament: the :class:`EvalSettings` (preset, ``scoring``, ``ranking``, ``seed``:
    declared there, once) and what is played, where and how failures are handled. The
    YAML written into the run directory keeps its keys in :data:`YAML_ORDER`. Plain,
    frozen data: the bots it names are built by :mod:`chatmatch.play.build`."""

    #: also the default run directory, runs/NAME: no path separators, not '.' or '..'
    name: str = Field(default="tournament", min_length=1, max_length=200)
    description: str = ""
    bots: list[BotSpec]
    #: one utterance, a list used match by match, or a seed set by category
    #: ({categories: {...}} or {file: seeds.csv}; chatmatch.config.seedsets)
    seed_utterance: str | list[str] | SeedSet = DEFAULT_SEED_UTTERANCE
    #: at most 5,000: a game of 10,000 turns is the longest chatmatch scores (as in `score`)
    exchanges: int = Field(default=DEFAULT_EXCHANGES, ge=1, le=MAX_EXCHANGES)
    schedule: ScheduleConfig = Field(default_factory=ScheduleConfig)
    output_dir: str | None = None
    #: games played at once; neural bots answer all waiting games in one batch
    concurrent_games: int = Field(default=8, ge=1, le=4096)
    #: where games are played: "local" (this process) or "ray" (bots as Ray actors)
    executor: Literal["local", "ray"] = "local"
    #: threads stepping games at once, each its share of ``concurrent_games``, sharing the
    #: bot objects; None: 1 for local, one per bot actor for ray
    workers: int | None = Field(default=None, ge=1, le=256)
    ray: RayConfig = Field(default_factory=RayConfig)
    failures: FailurePolicy = Field(default_factory=FailurePolicy)
    #: write each turn's wall time in the transcripts; false writes 0.0, so that two runs
    #: with the same seed and deterministic bots give byte-identical run directories
    record_timings: bool = True
    #: keep each bot reply in RUN/reply_cache.sqlite so a killed or replayed game does not
    #: ask again: auto = bots that call a remote service (openai-chat), on = every bot, off
    reply_cache: AutoOnOff = "auto"

    @field_validator("name")
    @classmethod
    def _name_ok(cls, v: str) -> str:
        if v.strip() in (".", "..") or any(c in v for c in "/\\\0") or not v.strip():
            raise ValueError(f"name {v!r} must be a plain name (it names the run directory "
                             "runs/NAME): no '/' or '\\', not '.' or '..'; set output_dir to "
                             "choose the folder")
        return check_visible(v, "tournament name")

    @field_validator("output_dir")
    @classmethod
    def _output_dir_ok(cls, v: str | None) -> str | None:
        if v is not None and not v.strip():
            raise ValueError("output_dir must not be empty; leave it out for runs/NAME")
        return v

    @field_validator("bots", mode="before")
    @classmethod
    def _shorthand(cls, v: Any) -> Any:
        # "- eliza" is short for "- {name: eliza, adapter: eliza}"
        if isinstance(v, list):
            return [{"name": b, "adapter": b} if isinstance(b, str) else b for b in v]
        return v

    @field_validator("bots")
    @classmethod
    def _bots_ok(cls, v: list[BotSpec]) -> list[BotSpec]:
        if len(v) < 2:
            raise ValueError(f"a tournament needs at least 2 bots, got {len(v)}")
        return v

    @field_validator("schedule")
    @classmethod
    def _budget_ok(cls, v: ScheduleConfig, info: ValidationInfo) -> ScheduleConfig:
        bots = info.data.get("bots")  # declared before: validated already (absent if bad)
        v.check_budget(len(bots) if isinstance(bots, list) else 10_000)
        return v

    @field_validator("seed_utterance", mode="before")
    @classmethod
    def _seed_set(cls, v: Any) -> Any:
        return seed_set_or_value(v)

    @field_validator("seed_utterance")
    @classmethod
    def _seed_ok(cls, v: str | list[str] | SeedSet) -> str | list[str] | SeedSet:
        if isinstance(v, SeedSet):
            return v
        items = [v] if isinstance(v, str) else v
        if not items or any(not s.strip() for s in items):
            raise ValueError("seed utterances must be non-empty text")
        return v

    @property
    def seed_utterances(self) -> list[str]:
        """Every seed utterance (of every category)."""
        v = self.seed_utterance
        if isinstance(v, SeedSet):
            return [s for items in v.categories.values() for s in items]
        return [v] if isinstance(v, str) else list(v)

    @property
    def settings(self) -> EvalSettings:
        """The preset, scoring, ranking and seed of this tournament (already validated)."""
        return EvalSettings.model_construct(**{k: getattr(self, k) for k in SETTINGS_KEYS})

    @property
    def bot_names(self) -> list[str]:
        return [b.name for b in self.bots]

    def default_output_dir(self) -> Path:
        # '~' is expanded here: no shell sees the YAML
        return Path(self.output_dir).expanduser() if self.output_dir else Path("runs") / _slug(self.name)


#: the first keys of the YAML written into a run directory, in the order they always had
#: (the settings keys among them; the rest follow in declaration order), so that a run
#: directory keeps its config bytes (and ``config_sha256``) when it is resumed
YAML_ORDER = ("preset", "name", "description", "bots", "seed_utterance", "exchanges",
              "scoring", "schedule", "ranking", "seed")


def _slug(name: str) -> str:
    out = "".join(c if c.isalnum() or c in "-_." else "-" for c in name.strip())
    return out.strip("-") or "tournament"


# --- loading ------------------------------------------------------------------------------
def load_config(path: str | Path, *, check_bots: bool = True) -> TournamentConfig:
    """Read and validate a tournament YAML; raise :class:`ConfigError` on any problem."""
    located = load_located_yaml(path)
    return config_from_data(located, check_bots=check_bots)


def config_from_data(located: LocatedYaml, *, check_bots: bool = True) -> TournamentConfig:
    data = located.data
    if isinstance(data, list):  # a bare list of bots
        data = {"bots": data}
    if not isinstance(data, dict):
        raise ConfigError("the file must hold a mapping with at least a 'bots' list "
                          f"(got {type(data).__name__})", file=located.file, line=1)
    check_duplicate_bots(located, data)
    data = resolve_seed_file(data, located.file, located.line_of(("seed_utterance",)))
    check_no_literal_secrets(located, data)
    try:
        cfg = TournamentConfig.model_validate(data)
    except ValidationError as exc:
        raise error_from_validation(exc, located) from None
    check_seed_lengths(cfg.seed_utterances, isinstance(cfg.seed_utterance, list), located)
    if check_bots:
        _check_adapters(cfg, located)
    return cfg


def _check_adapters(cfg: TournamentConfig, located: LocatedYaml) -> None:
    """Each bot's adapter exists and takes its ``params`` (the bots are built, once, by
    :mod:`chatmatch.play.build`)."""
    for i, spec in enumerate(cfg.bots):
        try:
            check_bot(spec.name, spec.adapter, dict(spec.params))
        except ChatmatchError as exc:
            raise bot_error(located, cfg, i, exc) from None


def bot_error(located: LocatedYaml, cfg: TournamentConfig, index: int,
              exc: ChatmatchError) -> ConfigError:
    """``exc``, raised checking or building bot ``index`` of ``cfg``, at its line of the
    file (a bad parameter's own line when it names one)."""
    spec = cfg.bots[index]
    at: tuple[Any, ...] = ("bots", index)
    if isinstance(exc, BadParam) and exc.param in spec.params:
        at = ("bots", index, "params", exc.param)
    return ConfigError(str(exc), file=located.file, line=located.line_of(at),
                       path=".".join(map(str, at)))


def _key_order(err: Any) -> int:
    """Where ``err``'s top-level key is in the file's order (:data:`YAML_ORDER`, then the
    other keys as declared; unknown keys last), so that the first problem reported is the
    first in that order, not the settings' (declared first, by :class:`EvalSettings`)."""
    keys = list(dict.fromkeys((*YAML_ORDER, *TournamentConfig.model_fields)))
    top = err["loc"][0] if err["loc"] else None
    if top is None:
        return -1
    return keys.index(top) if top in keys else len(keys)


def error_from_validation(exc: ValidationError, located: LocatedYaml) -> ConfigError:
    """Every problem of ``exc``, in the file's order, one ``file:line: key.path: message``
    line each; the error's own line and path are the first problem's."""
    problems: dict[str, tuple[int, str]] = {}
    for err in sorted(exc.errors(), key=_key_order):
        path, line, msg = _one_problem(err, exc, located)
        problems.setdefault(path, (line, msg))  # a union's branches: one problem a key
    (path, (line, msg)), *rest = problems.items()
    msg += "".join(f"\n  and {located.file}:{ln}: {p + ': ' if p else ''}{m}"
                   for p, (ln, m) in rest)
    return ConfigError(msg, file=located.file, line=line, path=path or None)


def _one_problem(err: Any, exc: ValidationError, located: LocatedYaml) -> tuple[str, int, str]:
    """(key path, line, message) of one entry of ``exc.errors()``."""
    loc, msg = problem_of(err)
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, ParamsProblem):  # a scorer's params: at the parameter's line
        loc = (*loc, *cause.path)
    if err["type"] == "extra_forbidden":
        msg = f"unknown key '{loc[-1]}'" + _key_hint(loc, exc)
    elif err["type"] == "missing":
        msg = f"missing required key '{loc[-1]}'"
    elif err["msg"].startswith("Value error, "):
        pass
    else:
        msg = f"{msg} (got {err.get('input')!r})" if "input" in err and not isinstance(
            err.get("input"), (dict, list)) else msg
    return ".".join(str(p) for p in loc), located.line_of(loc), msg


def _key_hint(loc: tuple[Any, ...], exc: ValidationError) -> str:
    allowed = _allowed_keys(loc[:-1])
    if not allowed:
        return ""
    close = close_matches(str(loc[-1]), allowed, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"{hint} Allowed: {', '.join(allowed)}"


def _allowed_keys(parent: tuple[Any, ...]) -> list[str]:
    model: Any = TournamentConfig
    for part in parent:
        if isinstance(part, int):
            continue
        field = getattr(model, "model_fields", {}).get(part)
        if field is None:
            return []
        ann = field.annotation
        inner = getattr(ann, "__args__", None)
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            model = ann
        elif inner and isinstance(inner[0], type) and issubclass(inner[0], BaseModel):
            model = inner[0]
        else:
            return []
    return sorted(getattr(model, "model_fields", {}))


def dump_config(cfg: TournamentConfig) -> str:
    """The resolved config (all defaults filled in) as YAML, for the run directory. The
    ``schedule`` and ``runtime`` blocks are left out at their defaults, so that a run directory of an earlier
    version keeps its config bytes (and ``config_sha256``) when it is resumed."""
    return yaml.safe_dump(config_data(cfg), sort_keys=False, allow_unicode=True)


def config_data(cfg: TournamentConfig) -> dict[str, Any]:
    """What :func:`dump_config` writes, as a mapping."""
    dumped = cfg.model_dump(mode="json")
    data = {k: dumped[k] for k in YAML_ORDER} | dumped
    if data.get("schedule") == ScheduleConfig().model_dump(mode="json"):
        del data["schedule"]
    if data.get("runtime") == RuntimeSettings().model_dump(mode="json"):
        del data["runtime"]
    return data
