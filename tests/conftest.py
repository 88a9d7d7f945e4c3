"""Fixtures for the whole suite: a private cache folder, so no test reads or writes the
user's cache (retrieval indexes, ChatterBot databases, the n-gram LM and the AMR judge's
small model are built there once per session), and the persistent perplexity and embedding caches
off, so that every test computes the values it checks (tests/scoring/test_lm_cache.py,
test_lm_warm.py and test_embed_cache.py turn them on, in a folder of their own)."""

from __future__ import annotations

from typing import Iterator

import pytest

from chatmatch.runtime.embed_cache import SWITCH_ENV as EMBED_SWITCH_ENV
from chatmatch.runtime.lm_cache import SWITCH_ENV
from chatmatch.runtime.resources import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``$CHATMATCH_CACHE_DIR`` points at a fresh folder for the whole session, and
    ``$CHATMATCH_PPL_CACHE`` and ``$CHATMATCH_EMBED_CACHE`` are ``0``."""
    path = str(tmp_path_factory.mktemp("chatmatch-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, path)
        mp.setenv(SWITCH_ENV, "0")
        mp.setenv(EMBED_SWITCH_ENV, "0")
        yield path
