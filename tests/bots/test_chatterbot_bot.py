"""ChatterBot really trained on chatterbot-corpus English, offline (network calls fail)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmatch_bots import chatterbot_bot
from chatmatch_bots.chatterbot_bot import (DEFAULT_CORPUS, DEFAULT_FALLBACK, SPACY_MODEL, ChatterBotBot,
                                 database_path)
from chatmatch.adapters import create_bot, resolve_adapter
from chatmatch.errors import BotError
from tests.bots.conftest import history


def _corpus() -> list[list[str]]:
    from chatterbot.corpus import list_corpus_files, load_corpus

    files = list_corpus_files(DEFAULT_CORPUS[0])
    return [conv for corpus, _, _ in load_corpus(*files) for conv in corpus]


def test_registered_as_chatterbot() -> None:
    assert resolve_adapter("chatterbot") is ChatterBotBot


def test_trained_offline_on_the_english_corpus(trained: ChatterBotBot) -> None:
    bot = trained
    statements = {s for conv in _corpus() for s in conv}
    assert database_path(DEFAULT_CORPUS).exists()
    assert bot._bot.storage.count() >= len(statements) // 2
    assert bot._bot.tagger.nlp.meta["name"] == SPACY_MODEL.removeprefix("en_")


def test_known_input_gets_a_corpus_answer(trained: ChatterBotBot) -> None:
    bot = trained
    for said in ("Hello", "Tell me a joke", "What is AI?"):
        answers = {conv[i + 1] for conv in _corpus() for i in range(len(conv) - 1)
                   if conv[i] == said}
        assert answers and bot.reply(history([said])) in answers


def test_no_answer_gives_a_seeded_fallback(trained: ChatterBotBot) -> None:
    bot = trained
    got = [bot.reply(history(["qqq zzzz xxxx"], seed=s)) for s in range(20)]
    assert set(got) <= set(DEFAULT_FALLBACK) and len(set(got)) > 1
    assert got == [bot.reply(history(["qqq zzzz xxxx"], seed=s)) for s in range(20)]
    assert bot.reply(history([], ["seed"], starter=True)) in DEFAULT_FALLBACK


def test_read_only_no_per_game_learning(trained: ChatterBotBot) -> None:
    bot = trained
    before = bot._bot.storage.count()
    first = bot.reply(history(["Do you like movies?"]))
    bot.reply(history(["Do you like movies?", "I love pizza with pineapple"], [first]))
    assert bot._bot.storage.count() == before
    assert bot.reply(history(["Do you like movies?"])) == first


def test_second_load_reuses_the_trained_database(trained: ChatterBotBot,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db = database_path(DEFAULT_CORPUS)
    mtime = db.stat().st_mtime_ns

    def no_training(*args: Any) -> None:
        raise AssertionError("trained again although the database is cached")

    monkeypatch.setattr(chatterbot_bot, "train_database", no_training)
    again = create_bot("cb2", "chatterbot", {})
    again.load()
    try:
        assert db.stat().st_mtime_ns == mtime
        assert again.reply(history(["Hello"])) == trained.reply(history(["Hello"]))
    finally:
        again.close()


def test_bad_corpus_is_a_clear_error_and_leaves_no_files(cache_dir: str) -> None:
    bot = ChatterBotBot("bad", corpus=["chatterbot.corpus.klingon"])
    with pytest.raises(BotError, match="training on chatterbot.corpus.klingon failed"):
        bot.load()
    assert not list(Path(cache_dir, "chatterbot").glob("*.tmp*"))


def test_bad_params() -> None:
    with pytest.raises(BotError, match="maximum_similarity_threshold"):
        create_bot("c", "chatterbot", {"maximum_similarity_threshold": 2})
    with pytest.raises(BotError, match="fallback_lines"):
        create_bot("c", "chatterbot", {"fallback_lines": []})
    with pytest.raises(BotError, match="before load"):
        ChatterBotBot("c").reply(history(["hi"]))
