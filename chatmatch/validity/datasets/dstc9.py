"""DSTC9 interactive track (Gunasekara et al. 2020) as a lab dataset: 11 systems, 200
human-bot chats each, every chat rated by 2-3 crowd workers on 11 qualities.

The data (``chatbot1.json`` .. ``chatbot11.json``, MIT, see the ``README.md`` beside them)
is read where it lies at run time, never copied. Each file holds one JSON object per
*rating*; rows with the same ``context`` are one chat. Ratings that are not numbers
("N/A") are skipped; a chat's rating of a quality is the mean over its raters.

How the lab uses it (the same choice as FED): every chat is scored as a chatmatch game
between ``User`` and ``System`` and only the ``System`` side counts. Chats are not
re-paired into cross-system games because several dimensions (relevance, consistency,
proactivity's excused answers) depend on the partner: the honest unit is the chat as it
happened. A system's score on a dimension is the mean, over its chats, of the System's raw
score (NaN, "not applicable", left out).

API (small on purpose)::

    from chatmatch.validity.datasets.dstc9 import load_dstc9, score_dstc9
    data = load_dstc9(data_dir / "dstc9")            # Dstc9Data; Dstc9Error if absent
    data = data.sample(50, seed=0)                      # 50 chats per system, seeded
    scores = score_dstc9(data, scorers)                 # scorers: scoring.build.build_scorers(...)
    scores.per_system("proactivity")   # {"chatbot1": 0.41, ...}: mean raw, higher = better
    scores.per_chat["proactivity"]     # one oriented raw value per chat (data.chats order)
    scores.higher_is_better["fluency"] # False: per_chat/per_system are negated for it
    data.human_by_system("inquisitive")  # {"chatbot1": 2.81, ...}: mean of chat means
    data.chats[0].ratings["human (overall)"], data.chats[0].system_words()

``orient`` means: a dimension whose lower raw score is better (fluency's perplexity) is
negated, so "higher = better" holds for every value here, as in the FED lab.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from chatmatch.common.safeio import folder_problem
from chatmatch.validity.datasets.datahelp import data_help
from chatmatch.analysis.fed import SYSTEM, chat_transcript, mean_rating, system_means
from chatmatch.analysis.fed import read_json_list, system_points, system_side
from chatmatch.errors import ChatmatchError
from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import score_games
from chatmatch.transcript import Transcript

OVERALL = "human (overall)"
#: every rated quality, with its scale
QUALITIES = ("consistent", "likeable", "diverse", "informative", "coherent", "understanding",
             "flexible", "topic depth", "error recovery", "inquisitive", OVERALL)
FILE_RE = re.compile(r"^chatbot(\d+)\.json$")
_SPEAKER = re.compile(r"^(User|System):\s?(.*)$")


class Dstc9Error(ChatmatchError):
    """DSTC9 data that is missing or cannot be read."""


@dataclass(frozen=True)
class Dstc9Chat:
    system: str  # "chatbot1" .. "chatbot11" (file name)
    index: int  # position among the system's chats (first appearance in its file)
    turns: tuple[tuple[str, str], ...]  # (speaker, text), speaker User or System
    ratings: Mapping[str, float]  # quality -> mean of the numeric ratings
    raters: int

    def transcript(self) -> Transcript:
        return chat_transcript(self.turns, f"{self.system}#{self.index:03d}",
                               {"dstc9_system": self.system})

    def system_words(self) -> list[int]:
        """Whitespace tokens in each System turn (the length-bias features)."""
        return [len(t.split()) for s, t in self.turns if s == SYSTEM]


@dataclass(frozen=True)
class Dstc9Data:
    chats: tuple[Dstc9Chat, ...]
    source: str
    sampled: str = "all chats"

    @property
    def systems(self) -> list[str]:
        return sorted({c.system for c in self.chats}, key=_system_key)

    def human_by_system(self, quality: str) -> dict[str, float]:
        """System -> mean over its chats of the chat's mean rating (chats without a numeric
        rating of ``quality`` left out)."""
        groups: dict[str, list[float]] = {}
        for c in self.chats:
            if quality in c.ratings:
                groups.setdefault(c.system, []).append(c.ratings[quality])
        return {s: statistics.fmean(v) for s, v in groups.items()}

    def sample(self, per_system: int | None, seed: int = 0) -> "Dstc9Data":
        """At most ``per_system`` chats of each system, drawn without replacement with
        ``numpy.random.default_rng(seed)``, kept in file order. ``None``: all."""
        if per_system is None:
            return self
        if per_system < 1:
            raise Dstc9Error(f"--sample {per_system}: give a number of chats per system >= 1")
        rng = np.random.default_rng(seed)
        keep: list[Dstc9Chat] = []
        for s in self.systems:
            mine = [c for c in self.chats if c.system == s]
            if len(mine) > per_system:
                idx = sorted(rng.choice(len(mine), size=per_system, replace=False).tolist())
                mine = [mine[i] for i in idx]
            keep += mine
        return Dstc9Data(tuple(keep), self.source, f"{per_system} chats a system (seed {seed})")


def _system_key(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)


def parse_context(context: str) -> tuple[tuple[str, str], ...]:
    """``"User: hi\\nSystem: hello"`` -> turns. A line without a speaker prefix continues the
    turn before it (some systems' replies start on the line after ``System:``)."""
    turns: list[list[str]] = []
    for line in context.splitlines():
        m = _SPEAKER.match(line)
        if m:
            turns.append([m.group(1), m.group(2).strip()])
        elif turns and line.strip():
            turns[-1][1] = f"{turns[-1][1]} {line.strip()}".strip()
    return tuple((s, t) for s, t in turns)


def _chats(path: Path, system: str) -> list[Dstc9Chat]:
    rows = read_json_list(path, Dstc9Error, "ratings")
    grouped: dict[str, list[dict[str, Any]]] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("context"), str):
            raise Dstc9Error(f"{path}: rating {i} has no 'context' text; use the DSTC9 "
                             "chatbotN.json files unmodified")
        grouped.setdefault(row["context"], []).append(row)
    out = []
    for k, (ctx, ratings) in enumerate(grouped.items()):
        means = {}
        for q in QUALITIES:  # "N/A" and friends left out
            if (m := mean_rating([r.get(q) for r in ratings])) is not None:
                means[q] = m
        out.append(Dstc9Chat(system, k, parse_context(ctx), means, len(ratings)))
    return out


def find_files(path: str | Path) -> list[Path]:
    """The ``chatbotN.json`` files in ``path``, by N. Raises :class:`Dstc9Error` (with what
    to do) when the folder or the files are missing."""
    p = Path(path)
    why = folder_problem(p)
    if why == "no such folder":
        raise Dstc9Error(f"{p}: DSTC9 folder not found; give --dstc9 a folder "
                         f"holding chatbot1.json .. chatbot11.json ({data_help('dstc9', p)})")
    if why:  # the example is the file's own folder, absolute (a relative one read "e.g. .")
        example = f"e.g. {p.resolve().parent}; " if why == "a file, not a folder" else ""
        raise Dstc9Error(f"{p}: {'is ' * why.startswith('a ')}{why}; give --dstc9 the folder "
                         f"holding chatbot1.json .. chatbot11.json ({example}"
                         f"{data_help('dstc9', p.parent)})")
    files = sorted((f for f in p.iterdir() if FILE_RE.match(f.name)),
                   key=lambda f: int(FILE_RE.match(f.name).group(1)))  # type: ignore[union-attr]
    if not files:
        raise Dstc9Error(f"{p}: no chatbotN.json files; give --dstc9 the folder that holds "
                         "the DSTC9 ratings (chatbot1.json .. chatbot11.json)")
    return files


def load_dstc9(path: str | Path) -> Dstc9Data:
    """Every chat of every ``chatbotN.json`` in the folder ``path``."""
    chats: list[Dstc9Chat] = []
    for f in find_files(path):
        chats += _chats(f, f.stem)
    return Dstc9Data(tuple(chats), str(path))


@dataclass(frozen=True)
class Dstc9Scores:
    """The System side of every chat, per dimension, oriented so higher is better."""

    data: Dstc9Data
    per_chat: Mapping[str, Sequence[float]]  # dimension -> one value per chat (NaN: n/a)
    higher_is_better: Mapping[str, bool]
    points: Sequence[float] = field(default=())  # System's game points against the User

    def per_system(self, dimension: str) -> dict[str, float]:
        return system_means(self.data.chats, self.per_chat[dimension])

    def points_by_system(self) -> dict[str, float]:
        return system_means(self.data.chats, self.points)


def score_dstc9(data: Dstc9Data, scorers: Sequence[Scorer],
                weights: Mapping[str, float] | None = None,
                games: Sequence[Mapping[str, DimensionScore]] | None = None) -> Dstc9Scores:
    """Score every chat with ``scorers`` (or take ``games``, scores already computed in
    ``data.chats`` order) and keep the System side; ``points`` are the System's game points
    against the User under ``weights`` (default: all 1)."""
    transcripts = [c.transcript() for c in data.chats]
    scored = list(games) if games is not None else score_games(transcripts, scorers)
    per_chat, hib = system_side(scored)
    w = dict(weights or {d: 1.0 for d in hib})
    return Dstc9Scores(data, per_chat, hib, tuple(system_points(transcripts, scored, w)))
