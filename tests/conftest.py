"""Fixtures for the whole suite: a private cache folder, so no test reads or writes the
user's cache (retrieval indexes, ChatterBot databases, the n-gram LM and the AMR judge's
small model are built there once per session), and the persistent perplexity cache off, so
that every test computes the perplexities it checks (tests/scoring/test_lm_cache.py turns
it on, in a folder of its own)."""

from __future__ import annotations

from typing import Iterator

import pytest

from chatmatch.runtime.resources import CACHE_ENV
from chatmatch.runtime.lm_cache import SWITCH_ENV


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``$CHATMATCH_CACHE_DIR`` points at a fresh folder for the whole session, and
    ``$CHATMATCH_PPL_CACHE`` is ``0``."""
    path = str(tmp_path_factory.mktemp("chatmatch-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, path)
        mp.setenv(SWITCH_ENV, "0")
        yield path
