"""The fingerprints of a tournament recorded in its run directory: what is played
(:func:`play_fingerprint`) and how it is scored (:func:`scoring_fingerprint`). A run
directory is resumed only by a setup with the same play fingerprint; another scoring
fingerprint scores the stored games again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from chatmatch.adapters import identity_params
from chatmatch.config.settings import EvalSettings
from chatmatch.config.tournament import TournamentConfig


def stable_hash(obj: Any) -> str:
    """A short sha256 of ``obj`` as sorted JSON (the fingerprints)."""
    blob = json.dumps(obj, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def play_settings(cfg: TournamentConfig) -> dict[str, Any]:
    """The settings that change what is played: bots, seed utterances, exchanges, seed."""
    return cfg.model_dump(include={"bots", "seed_utterance", "exchanges", "seed"})


def play_fingerprint(cfg: TournamentConfig) -> str:
    """Hash of everything that changes what is *played* (not how it is scored); a bot's
    operational params (timeouts, retries: :func:`chatmatch.adapters.operational_params`)
    are not part of it (runs of format 1 hashed them too: :mod:`chatmatch.run.migrations`)."""
    play = play_settings(cfg)
    for bot in play["bots"]:
        bot["params"] = identity_params(bot["adapter"], bot["params"])
    return stable_hash(play)


def scoring_fingerprint(cfg: EvalSettings) -> str:
    """Hash of the ``scoring`` block (every scorer's settings, defaults filled in)."""
    return stable_hash(cfg.scoring.model_dump())
