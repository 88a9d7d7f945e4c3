"""A tournament's configuration is plain, frozen data: no bot object, no cache, equal by
value; building its bots is play's job (chatmatch.play.build), and chatmatch.config imports
nothing from the stages that come after it."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
from pydantic import BaseModel, ValidationError

from chatmatch.bot import Bot
from chatmatch.config.tournament import TournamentConfig, load_config

REPO = Path(__file__).resolve().parents[2]


def _values(obj: Any) -> Iterator[Any]:
    """``obj`` and everything inside it: model fields, private attributes, lists, dicts."""
    yield obj
    if isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from _values(getattr(obj, name))
        yield from _values(dict(obj.__pydantic_private__ or {}))
        yield from _values(dict(obj.model_extra or {}))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _values(k)
            yield from _values(v)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            yield from _values(v)


@pytest.mark.parametrize("name", ["demo.yaml", "paper.yaml", "custom.yaml"])
def test_a_loaded_config_holds_no_bot_and_is_equal_by_value(name: str) -> None:
    cfg = load_config(REPO / "tournaments" / name)
    assert not [v for v in _values(cfg) if isinstance(v, Bot)]
    assert not cfg.__pydantic_private__  # no cache beside the fields
    assert cfg == load_config(REPO / "tournaments" / name)
    assert pickle.loads(pickle.dumps(cfg)) == cfg == copy.deepcopy(cfg)
    assert TournamentConfig.model_validate(cfg.model_dump()) == cfg  # its dump is all of it


def test_a_config_is_frozen() -> None:
    cfg = load_config(REPO / "tournaments" / "demo.yaml")
    with pytest.raises(ValidationError, match="frozen"):
        cfg.exchanges = 3
    with pytest.raises(ValidationError, match="frozen"):
        cfg.bots[0].adapter = "eliza"
    assert cfg.model_copy(update={"exchanges": 3}).exchanges == 3  # another config


def test_config_imports_nothing_of_play_executors_or_run() -> None:
    code = ("import sys, chatmatch.config.tournament, chatmatch.config.settingsfile\n"
            "late = sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['chatmatch', 'play'], ['chatmatch', 'executors'], ['chatmatch', 'run']))\n"
            "print(late); sys.exit(1 if late else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
