"""Fixtures for the whole suite: a private cache folder, so no test reads or writes the
user's cache (retrieval indexes, ChatterBot databases, the n-gram LM and the AMR judge's
small model are built there once per session)."""

from __future__ import annotations

from typing import Iterator

import pytest

from chatmatch.resources import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``$CHATMATCH_CACHE_DIR`` points at a fresh folder for the whole session."""
    path = str(tmp_path_factory.mktemp("chatmatch-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, path)
        yield path
