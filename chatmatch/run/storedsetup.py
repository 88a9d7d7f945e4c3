"""The setup stored in a run directory (its ``config.yaml``), read once and typed, for every
reader: a resume (:mod:`chatmatch.run.tournament`, :mod:`chatmatch.run.league`) and the readers of a
stored run (:class:`chatmatch.run.storedrun.Run`).

``chatmatch run`` writes the resolved tournament there; ``chatmatch score --out`` writes
the settings (``scoring``, ``ranking``, ``seed``) beside its speakers as ``bots``. Both
read back as :class:`~chatmatch.config.settings.EvalSettings` (:attr:`StoredSetup.settings`); a
tournament's also as a :class:`~chatmatch.config.tournament.TournamentConfig`
(:attr:`StoredSetup.tournament`). The file is read on first use, once, and never again
by the same object: make one per run directory and hand it to every reader.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from chatmatch.common.safeio import read_text_bounded
from chatmatch.common.yamlloc import MAX_STORED_YAML_BYTES, LocatedYaml, parse_located_yaml
from chatmatch.config.settings import EvalSettings, FailurePolicy
from chatmatch.config.settingsfile import stored_settings
from chatmatch.config.tournament import TournamentConfig, config_from_data
from chatmatch.config.upgrade import current_setup
from chatmatch.errors import ChatmatchError

#: the file of a run directory that holds its setup
CONFIG = "config.yaml"
#: what reading or parsing the stored config may raise (kept to be reported by a reader)
READ_ERRORS = (OSError, yaml.YAMLError, RecursionError, UnicodeDecodeError)


class StoredSetup:
    """``RUN/config.yaml``, read at most once: :meth:`document` as written, and typed as
    :attr:`settings`, :attr:`tournament` and :attr:`failures` (None when the file does not
    hold them in a form this version accepts)."""

    def __init__(self, run_dir: Path) -> None:
        self.path = Path(run_dir) / CONFIG

    @cached_property
    def _text(self) -> str | BaseException:
        try:
            return read_text_bounded(self.path, MAX_STORED_YAML_BYTES)
        except (OSError, UnicodeDecodeError) as exc:
            return exc

    @cached_property
    def _document(self) -> Any:
        text = self._text
        if isinstance(text, BaseException):
            return text
        try:
            return yaml.safe_load(text) or {}
        except (yaml.YAMLError, RecursionError) as exc:
            return exc

    def document(self) -> Any:
        """The parsed file (``{}`` when empty); raises one of :data:`READ_ERRORS` when it
        cannot be read or parsed."""
        doc = self._document
        if isinstance(doc, BaseException):
            raise doc
        return doc

    @cached_property
    def sha256(self) -> str | None:
        """The sha256 of the file as stored (the manifest's ``config_sha256`` when
        ``chatmatch run`` wrote it); None when unreadable."""
        text = self._text
        return None if isinstance(text, BaseException) else hashlib.sha256(text.encode()).hexdigest()

    @cached_property
    def data(self) -> dict[str, Any] | None:
        """The mapping as written; None when unreadable or not a mapping."""
        doc = self._document
        return doc if isinstance(doc, dict) else None

    @cached_property
    def settings(self) -> EvalSettings | None:
        """The stored ``scoring``, ``ranking`` and ``seed`` (of a tournament or of
        ``score --out``), removed keys dropped (:func:`chatmatch.config.upgrade.
        current_setup`); None when missing from the file or not valid today (e.g. a scorer
        plugin no longer installed)."""
        return stored_settings(current_setup(self.data), str(self.path))

    @cached_property
    def tournament(self) -> TournamentConfig | None:
        """The stored tournament, validated as ``chatmatch run`` validates a file (bots not
        built), removed keys dropped; None when unreadable or not a valid tournament."""
        text = self._text
        if isinstance(text, BaseException):
            return None
        try:
            located = parse_located_yaml(text, str(self.path))
            located = LocatedYaml(current_setup(located.data), located.file, located.lines)
            return config_from_data(located, check_bots=False)
        except ChatmatchError:
            return None

    @cached_property
    def failures(self) -> FailurePolicy | None:
        """The stored ``failures`` block; its ``model_fields_set`` are the keys written (a
        run of an earlier version may lack a later key). None when absent or not valid."""
        block = self.data.get("failures") if self.data is not None else None
        if not isinstance(block, dict):
            return None
        try:
            return FailurePolicy.model_validate(block)
        except ValidationError:
            return None
