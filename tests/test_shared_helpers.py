"""The helpers that several modules share instead of keeping their own copies:
:class:`chatmatch.bot.BotWrapper`, :func:`chatmatch.records.nan_to_none` and
:func:`chatmatch.common.tables.render_table`'s label columns."""

from __future__ import annotations

import json
import math
from typing import Any

from chatmatch.bot import Bot, BotWrapper, History
from chatmatch.common.tables import render_table
from chatmatch.records import nan_to_none, none_to_nan


class _Inner(Bot):
    supports_batch = True
    remote = True

    def __init__(self) -> None:
        super().__init__("inner")
        self.calls: list[str] = []

    def load(self) -> None:
        self.calls.append("load")

    def reply(self, history: History) -> str:
        return f"reply {history.turn_index}"

    def reply_batch(self, histories: Any) -> list[str]:
        return [f"batch {h.turn_index}" for h in histories]

    def close(self) -> None:
        self.calls.append("close")

    def describe(self) -> dict[str, Any]:
        return {"model": "m"}


class _Locked(BotWrapper):
    thread_safe = True


def test_wrapper_forwards_every_call_and_the_capabilities() -> None:
    inner = _Inner()
    w = _Locked(inner, keep=("thread_safe",))
    h = History((), "hi", turn_index=3)
    assert w.name == "inner" and w.reply(h) == "reply 3" and w.reply_batch([h]) == ["batch 3"]
    w.load()
    w.close()
    assert inner.calls == ["load", "close"] and w.describe() == {"model": "m"}
    assert w.supports_batch and w.remote and w.thread_safe  # kept: the wrapper's own
    assert not BotWrapper(inner).thread_safe  # taken over from the inner bot


def test_nan_to_none_scalars_and_structures() -> None:
    assert nan_to_none(math.nan) is None and nan_to_none(0.123456) == 0.123456
    assert nan_to_none(0.123456, 4) == 0.1235 and nan_to_none(3, 4) == 3
    doc = nan_to_none({"a": [1.0, math.nan, (math.nan, "x")], "b": {"c": math.nan}})
    assert json.dumps(doc) == '{"a": [1.0, null, [null, "x"]], "b": {"c": null}}'
    assert math.isnan(none_to_nan(None)) and none_to_nan("2.5") == 2.5


def test_label_columns_stay_left_aligned() -> None:
    rows = [["12", "1.50"], ["abc", "-"]]
    assert render_table(["bot", "tau"], rows).splitlines()[2:] == [" 12  1.50", "abc     -"]
    assert render_table(["bot", "tau"], rows, left=1).splitlines()[2:] == ["12   1.50",
                                                                           "abc     -"]
