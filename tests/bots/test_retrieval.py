"""The retrieval bot on the real Chit-Chat corpus (index built in the test cache folder)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chatmatch_bots import retrieval
from chatmatch.adapters import create_bot, resolve_adapter
from chatmatch_bots.retrieval import IndexKey, RetrievalBot, corpus_pairs, get_index
from chatmatch.errors import BotError
from tests.bots.conftest import history


@pytest.fixture(scope="module")
def bot() -> RetrievalBot:
    b = RetrievalBot("ret")
    b.load()
    return b


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str]]:
    return corpus_pairs(IndexKey(None, 1, 0))


def test_registered_as_retrieval() -> None:
    assert resolve_adapter("retrieval") is RetrievalBot


def test_pairs_are_consecutive_turns_of_the_corpus(pairs: list[tuple[str, str]]) -> None:
    assert len(pairs) > 100_000
    assert pairs[0] == ("Hello How are you doing today?",
                        "whats up MD im doing good how are you doing?")
    two = corpus_pairs(IndexKey(None, 2, 0))
    assert two[1][0] == f"{pairs[0][0]} {pairs[0][1]}" and two[1][1] == pairs[1][1]


def test_answers_with_the_turn_after_the_most_similar_context(
        bot: RetrievalBot, pairs: list[tuple[str, str]]) -> None:
    context, reply = next(p for p in pairs if len(p[0]) > 200 and len(p[1]) > 20)
    assert bot.reply(history([context])) == reply


def test_avoid_repeats_skips_what_it_already_said(bot: RetrievalBot,
                                                  pairs: list[tuple[str, str]]) -> None:
    context, reply = next(p for p in pairs if len(p[0]) > 200 and len(p[1]) > 20)
    h = history(["hello", context], [reply])
    other = bot.reply(h)
    assert other != reply and isinstance(other, str) and other
    repeating = RetrievalBot("rep", avoid_repeats=False)
    repeating.load()
    assert repeating.reply(h) == reply


def test_equal_contexts_are_chosen_by_the_game_seed(bot: RetrievalBot,
                                                    pairs: list[tuple[str, str]]) -> None:
    candidates = {r for c, r in pairs if c.lower().strip(" ?") == "what did you do"}
    got = [bot.reply(history(["What did you do?"], seed=s)) for s in range(12)]
    assert set(got) <= candidates and len(set(got)) > 3
    assert got == [bot.reply(history(["What did you do?"], seed=s)) for s in range(12)]


def test_out_of_vocabulary_turn_gets_a_seeded_corpus_reply(bot: RetrievalBot) -> None:
    index = get_index(bot.key)
    first = bot.reply(history(["zzqxwv \U0001F600"], seed=7))
    assert first in index.replies
    assert bot.reply(history(["zzqxwv \U0001F600"], seed=7)) == first
    assert bot.reply(history([""], seed=7)) in index.replies


def test_index_is_shared_in_process_and_reloaded_from_disk(bot: RetrievalBot, cache_dir: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = Path(cache_dir) / "retrieval" / bot.key.slug()
    assert (folder / "meta.json").exists() and (folder / "contexts.npz").exists()
    built = get_index(bot.key)
    assert get_index(IndexKey(None, 1, 0)) is built
    retrieval._INDEXES.pop(bot.key)

    def no_rebuild(key: IndexKey) -> None:
        raise AssertionError(f"index {key} rebuilt although it is cached on disk")

    monkeypatch.setattr(retrieval, "build_index", no_rebuild)
    loaded = get_index(bot.key)  # read from the cache folder, not built again
    assert get_index(bot.key) is loaded  # and kept in the process from then on
    assert loaded is not built and loaded.replies == built.replies
    assert (loaded.contexts != built.contexts).nnz == 0
    q = "what are you studying at school?"
    assert np.allclose(loaded.vectorizer.transform([q]).toarray(),
                       built.vectorizer.transform([q]).toarray())


def test_subsample_is_seeded() -> None:
    a = get_index(IndexKey(500, 1, 3), use_disk=False)
    b = corpus_pairs(IndexKey(500, 1, 3))
    assert len(a.replies) == 500 and a.replies == tuple(r for _, r in b)
    assert a.replies != get_index(IndexKey(500, 1, 4), use_disk=False).replies


def test_reply_before_load_and_bad_params() -> None:
    with pytest.raises(BotError, match="before load"):
        RetrievalBot("r").reply(history(["hi"]))
    for params in ({"max_pairs": 0}, {"context_turns": "2"}, {"sample_seed": 1.5}):
        with pytest.raises(BotError, match="Bot 'r' \\(adapter 'retrieval'\\)"):
            create_bot("r", "retrieval", params)


def test_describe_reports_corpus_and_params(bot: RetrievalBot) -> None:
    info = bot.describe()
    assert info["corpus"].startswith("chitchat-dataset") and info["pairs"] > 100_000
    assert info["context_turns"] == 1 and info["avoid_repeats"] is True
