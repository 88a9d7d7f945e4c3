"""The one loader of a YAML file's settings block (``preset``, ``scoring``, ``ranking``,
``seed``: :class:`~chatmatch.config.settings.EvalSettings`), for every reader:

- ``chatmatch validate`` (:func:`chatmatch.validity.lab.core.load_lab_config`):
  ``others="check"``, the whole file validated as ``chatmatch run`` validates a tournament
  (its bots optional, never built);
- ``chatmatch score --config`` (:func:`chatmatch.run.scorelogs.load_score_config`):
  ``others="ignore"``, a tournament's other keys (bots, exchanges, ...) accepted and left
  out, ``--preset`` given as ``preset``;
- a stored run directory (:class:`chatmatch.run.storedsetup.StoredSetup`):
  :func:`stored_settings`, the settings written there resolved (the ``preset`` key is not
  applied again), None rather than an error when they are not valid today.

``chatmatch run`` reads them as part of the tournament (:func:`chatmatch.config.tournament.
load_config`, the same model and the same ``file:line: key.path`` errors).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from chatmatch.common.yamlloc import LocatedYaml, load_located_yaml
from chatmatch.config.presets import PRESETS, unknown_preset_message
from chatmatch.config.settings import SETTINGS_KEYS, EvalSettings
from chatmatch.config.tournament import TournamentConfig, config_from_data, error_from_validation
from chatmatch.errors import ChatmatchError, ConfigError

#: the settings keys a stored config holds resolved (its ``preset`` is not applied again:
#: the values it set are written out)
STORED_KEYS = ("scoring", "ranking", "seed")
#: tournament keys that are not settings (``others="ignore"`` leaves them out)
TOURNAMENT_ONLY = frozenset(TournamentConfig.model_fields) - set(SETTINGS_KEYS)
#: the bots a settings file without any is checked with (``others="check"``): never built
_PLACEHOLDER_BOTS = ["settings-a", "settings-b"]


def load_settings(source: str | Path | LocatedYaml | None, *,
                  others: Literal["check", "ignore"] = "check",
                  preset: str | None = None, resolved: bool = False) -> EvalSettings:
    """The settings of ``source`` (a path, an already read file, or None: the defaults);
    :class:`ConfigError` with file and line on any problem.

    ``others``: what to do with a tournament's other keys: ``check`` them as ``chatmatch
    run`` does, or ``ignore`` them. ``preset`` (``--preset``) replaces the file's
    ``preset`` key (the file's explicit keys still win). ``resolved``: read only the keys
    a run directory stores resolved (:data:`STORED_KEYS`)."""
    if preset is not None and preset not in PRESETS:
        raise ChatmatchError(f"--preset: {unknown_preset_message(preset)}")
    if source is None:
        return EvalSettings.model_validate({"preset": preset} if preset else {})
    located = source if isinstance(source, LocatedYaml) else load_located_yaml(source)
    data = located.data
    if isinstance(data, list):  # a bare list of bots: a tournament with default settings
        data = {"bots": data}
    if not isinstance(data, dict):
        raise ConfigError("expected a mapping with 'scoring', 'ranking' or 'seed' sections "
                          f"(got {type(data).__name__})", file=located.file, line=1)
    if resolved:
        data = {k: data[k] for k in STORED_KEYS if k in data}
    if preset is not None:
        data = {**data, "preset": preset}
    if others == "check" and not resolved:
        whole = LocatedYaml({"bots": _PLACEHOLDER_BOTS, **data}, located.file, located.lines)
        return config_from_data(whole, check_bots=False).settings
    data = {k: v for k, v in data.items() if k not in TOURNAMENT_ONLY}
    if isinstance(data.get("seed"), bool) and not resolved:  # `score` has always read `seed: true` as 1
        data["seed"] = int(data["seed"])
    try:
        return EvalSettings.model_validate(data)
    except ValidationError as exc:
        raise error_from_validation(exc, located) from None


def stored_settings(data: dict[str, Any] | None, file: str) -> EvalSettings | None:
    """The settings a run directory's ``config.yaml`` (``data``, parsed) holds resolved;
    None when it holds none or they are not valid today (e.g. a scorer plugin no longer
    installed): a reader of a stored run never fails on them."""
    if data is None:
        return None
    try:
        return load_settings(LocatedYaml(data, file), others="ignore", resolved=True)
    except ChatmatchError:
        return None
