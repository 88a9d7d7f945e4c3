from __future__ import annotations

import pytest

from chatmatch_bots.baseline import DEFAULT_LINES, CannedBot, EchoBot, RandomLineBot
from chatmatch.adapters import create_bot, resolve_adapter
from chatmatch.errors import BotError
from tests.bots.conftest import history


def test_registered_by_short_name() -> None:
    assert resolve_adapter("canned") is CannedBot
    assert resolve_adapter("echo") is EchoBot
    assert resolve_adapter("random-line") is RandomLineBot


def test_canned_cycles_through_its_lines_by_own_turn_count() -> None:
    bot = CannedBot("c", lines=["a", "b", "c"])
    said: list[str] = []
    for _ in range(5):
        said.append(bot.reply(history(["hi"] * (len(said) + 1), said)))
    assert said == ["a", "b", "c", "a", "b"]


def test_canned_defaults_and_ignores_partner() -> None:
    bot = CannedBot("c")
    assert bot.reply(history(["anything"])) == DEFAULT_LINES[0]
    assert bot.reply(history(["something else"])) == DEFAULT_LINES[0]


def test_echo_repeats_partner_and_falls_back_when_silent() -> None:
    bot = EchoBot("e", fallback="Hey.")
    assert bot.reply(history(["first", "second"], ["x"])) == "second"
    assert bot.reply(history([], ["What did you do?"], starter=True)) == "Hey."


def test_random_line_is_seeded_and_draws_from_its_lines() -> None:
    lines = [f"line {i}" for i in range(10)]
    bot = RandomLineBot("r", lines=lines)
    replies = [bot.reply(history(["hi"], seed=s)) for s in range(30)]
    assert replies == [RandomLineBot("r2", lines=lines).reply(history(["hi"], seed=s))
                       for s in range(30)]
    assert set(replies) <= set(lines)
    assert len(set(replies)) > 3


@pytest.mark.parametrize("adapter", ["canned", "random-line"])
@pytest.mark.parametrize("lines, expected", [("just a string", "list of strings"),
                                              ([], "at least one line"),
                                              ([1, 2], "list of strings")])
def test_bad_lines_are_reported(adapter: str, lines: object, expected: str) -> None:
    with pytest.raises(BotError, match=expected) as err:
        create_bot("b", adapter, {"lines": lines})
    assert "Bot 'b'" in str(err.value) and adapter in str(err.value)
