"""The executors' ``wrap`` hook: called once after loading, games played with what it
returns, the loaded bots (not the wrappers) described and closed."""

from __future__ import annotations

from typing import Any, Sequence

import pytest

from chatmatch.bot import Bot, History
from chatmatch.executors import make_executor
from chatmatch.play.schedule import double_round_robin
from tests.scale.common import make_cfg

BOTS = [("a", "tests.scripted:CountingBot", "{style: rich}"),
        ("b", "tests.scripted:CountingBot", "{style: plain}")]


class Tagged(Bot):
    """Marks every reply, so a transcript shows which bot object answered."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.closed = 0

    def reply(self, history: History) -> str:
        return "[w] " + self.inner.reply(history)

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        return ["[w] " + t for t in self.inner.reply_batch(histories)]

    def describe(self) -> dict[str, Any]:
        return {"wrapper": True}

    def close(self) -> None:
        self.closed += 1


@pytest.mark.parametrize("workers", [1, 2])
def test_games_are_played_with_the_wrapped_bots_and_the_loaded_ones_are_closed(tmp_path, workers):
    cfg = make_cfg(tmp_path, "run", bots=BOTS, exchanges=2, extra=f"workers: {workers}\n")
    calls: list[dict[str, Bot]] = []
    wrappers: dict[str, Tagged] = {}

    def wrap(bots: dict[str, Bot]) -> dict[str, Bot]:
        calls.append(dict(bots))
        wrappers.update({n: Tagged(b) for n, b in bots.items()})
        return dict(wrappers)

    ex = make_executor(cfg, wrap=wrap)
    described = ex.start({"a", "b"})
    assert len(calls) == 1 and sorted(calls[0]) == ["a", "b"]
    loaded = calls[0]
    assert not any(isinstance(b, Tagged) for b in loaded.values())
    assert all(d.get("wrapper") is None for d in described.values())  # the loaded bots' own
    games: list[Any] = []
    ex.play(double_round_robin(["a", "b"], cfg.seed_utterances, cfg.seed), games.append)
    assert len(games) == 2
    bot_turns = [t for g in games for t in g.turns if not t.seed]
    assert bot_turns and all(t.text.startswith("[w] ") for t in bot_turns)
    closed: list[str] = []
    for name, b in loaded.items():
        b.close = lambda name=name: closed.append(name)  # type: ignore[method-assign]
    ex.close()
    assert sorted(closed) == ["a", "b"]  # the loaded bots, once each
    assert all(w.closed == 0 for w in wrappers.values())  # not through the wrappers


def test_given_bots_are_wrapped_but_not_closed(tmp_path):
    cfg = make_cfg(tmp_path, "run", bots=BOTS, exchanges=2)
    from tests.scripted import CountingBot

    given = {"a": CountingBot("a", style="rich"), "b": CountingBot("b")}
    seen: list[dict[str, Bot]] = []
    ex = make_executor(cfg, given, wrap=lambda bots: seen.append(bots) or bots)
    ex.start({"a", "b"})
    assert seen == [given] and seen[0] is not given  # a copy: the caller's dict is left alone
    closed: list[str] = []
    for name, b in given.items():
        b.close = lambda name=name: closed.append(name)  # type: ignore[method-assign]
    ex.close()
    assert closed == []


def test_without_a_hook_the_loaded_bots_play(tmp_path):
    cfg = make_cfg(tmp_path, "run", bots=BOTS, exchanges=2)
    ex = make_executor(cfg)
    try:
        ex.start({"a", "b"})
        assert sorted(ex.bots) == ["a", "b"]
        assert not any(isinstance(b, Tagged) for b in ex.bots.values())
    finally:
        ex.close()
