"""Fixtures for the scorer tests."""

from __future__ import annotations

import pytest
from scoring_dialogues import FIGURE2, game

from chatmatch.transcript import Transcript


@pytest.fixture
def figure2() -> Transcript:
    return game(FIGURE2, gid="figure2")
