"""``faulty``: known faults injected at a known rate, reproducibly."""

from __future__ import annotations

from typing import Any, Sequence

import pytest

from chatmatch.bot import History, Message
from chatmatch_bots.faults import FaultyBot, contradict
from chatmatch.adapters import create_bot
from chatmatch.errors import BotError

SEED = "What did you do last week?"
CANNED = {"adapter": "canned", "params": {"lines": ["Fine, thanks.", "I like tea."]}}


def faulty(rate: float, faults: list[str] | None = None, base: dict[str, Any] = CANNED) -> FaultyBot:
    bot = create_bot("f", "faulty", {"base": base, "rate": rate, "faults": faults})
    assert isinstance(bot, FaultyBot)
    bot.load()
    return bot


def hist(*turns: tuple[str, str], seed: int = 0, game: str = "g1") -> History:
    return History(tuple(Message(r, t) for r, t in turns), SEED, game, len(turns), seed)  # type: ignore[arg-type]


# the bot answered turn 1 and turn 3; the partner now asks its first question again
REASKED = (("partner", SEED), ("self", "I went hiking."), ("partner", "Nice. Do you like tea?"),
           ("self", "Yes, I do."), ("partner", "What did you do last week?"))


def many(n: int, *turns: tuple[str, str]) -> list[History]:
    return [hist(*turns, seed=s) for s in range(n)]


def test_rate_zero_is_the_base_bot() -> None:
    bot, base = faulty(0.0), create_bot("c", "canned", CANNED["params"])
    for h in many(50, *REASKED):
        assert bot.reply(h) == base.reply(h)
    assert sum(bot.injected.values()) == 0


def test_each_fault_does_what_it_says() -> None:
    assert {faulty(1.0, ["generic"]).reply(h) for h in many(20, *REASKED)} == {"I don't know."}
    assert {faulty(1.0, ["echo"]).reply(h) for h in many(20, *REASKED)} == {SEED}
    repeats = {faulty(1.0, ["repeat"]).reply(h) for h in many(40, *REASKED)}
    assert repeats == {"I went hiking.", "Yes, I do."}
    contra = {faulty(1.0, ["contradict"]).reply(h) for h in many(20, *REASKED)}
    assert contra == {"Actually, no. I didn't go hiking."}


def test_faults_that_do_not_apply_leave_the_base_reply() -> None:
    base = create_bot("c", "canned", CANNED["params"])
    first_turn = hist(("partner", SEED))
    assert faulty(1.0, ["repeat", "contradict"]).reply(first_turn) == base.reply(first_turn)
    not_reasked = hist(*REASKED[:-1], ("partner", "Where do you live?"))
    assert faulty(1.0, ["contradict"]).reply(not_reasked) == base.reply(not_reasked)
    starter = hist(("self", SEED), ("partner", "I read."))  # the seed is not its own turn
    assert faulty(1.0, ["repeat"]).reply(starter) == base.reply(starter) != SEED


def test_rate_is_respected_and_draws_are_reproducible() -> None:
    hs = [hist(*REASKED, seed=s, game=f"g{s % 7}") for s in range(600)]
    a, b = faulty(0.3, ["generic"]), faulty(0.3, ["generic"])
    replies = a.reply_batch(hs)
    assert replies == [b.reply(h) for h in hs]
    share = sum(r == "I don't know." for r in replies) / len(hs)
    assert 0.25 < share < 0.35
    assert a.injected == {"generic": sum(r == "I don't know." for r in replies)}
    assert a.describe()["injected"] == a.injected


def test_higher_rate_faults_a_superset_of_turns() -> None:
    hs = many(300, *REASKED)
    low = [p is not None for p in map(faulty(0.15, ["generic"]).plan, hs)]
    high = [p is not None for p in map(faulty(0.6, ["generic"]).plan, hs)]
    assert all(h for lo, h in zip(low, high) if lo) and sum(high) > 2 * sum(low)


class Counting:
    def __init__(self) -> None:
        self.seen = 0

    def __call__(self, histories: Sequence[History]) -> list[str]:
        self.seen += len(histories)
        return ["base"] * len(histories)


def test_faulty_turns_do_not_call_the_base_bot() -> None:
    bot = faulty(0.5, ["generic"])
    counter = Counting()
    bot.base.reply_batch = counter  # type: ignore[method-assign]
    replies = bot.reply_batch(many(100, *REASKED))
    assert counter.seen == replies.count("base") and 0 < counter.seen < 100
    assert set(replies) == {"base", "I don't know."}


def test_capabilities_and_description_follow_the_base() -> None:
    bot = faulty(0.2, None, {"adapter": "eliza"})
    assert bot.thread_safe and bot.deterministic and not bot.supports_batch
    d = bot.describe()
    assert d["faults"] == ["repeat", "contradict", "generic", "echo"] and d["rate"] == 0.2
    assert d["base"]["adapter"] == "eliza" and d["base"]["describe"]["adapter"] == "eliza"


@pytest.mark.parametrize("params, message", [
    ({"base": CANNED, "rate": 1.5}, "'rate' must be a number in \\[0, 1\\]"),
    ({"base": CANNED, "rate": 0.1, "faults": ["typo"]}, "'faults' must be a non-empty list"),
    ({"base": {"params": {}}, "rate": 0.1}, "'base' must be a mapping"),
    ({"base": {"adapter": "elizza"}, "rate": 0.1}, "Did you mean: eliza"),
    ({"rate": 0.1}, "missing required parameter.*base"),
])
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message):
        create_bot("f", "faulty", params)


@pytest.mark.parametrize("answer, opposite", [
    ("I went hiking.", "Actually, no. I didn't go hiking."),
    ("I don't like it.", "Actually, no. I do like it."),
    ("Yes, I am happy.", "No, I am not happy."),
    ("I never go out.", "Actually, no. I always go out."),
    ("No.", "Yes."),
    ("Tell me more.", "No, that is not true; I never said that."),
])
def test_contradict(answer: str, opposite: str) -> None:
    assert contradict(answer) == opposite
