"""(history, good turn, broken turn) triples from real conversations, seeded.

Conversations come from the ``chitchat-dataset`` corpus (:func:`chitchat_conversations`)
or from a user's transcript files (:func:`transcript_conversations`, any format
:func:`chatmatch.run.importers.load_transcripts` reads). For each family,
:func:`build_triples` walks the (conversation, turn) positions in one order shuffled by
``random.Random(f"{seed}:positions")`` and keeps the first ``n`` positions where the
family applies; the same seed, corpus and arguments give the same triples on any machine.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

import chitchat_dataset

from chatmatch.common.safeio import read_text_bounded
from chatmatch.errors import ChatmatchError
from chatmatch.robustness.perturb import CLOSED_KINDS, FAMILIES, Context, Sample
from chatmatch.run.importers import load_transcripts
from chatmatch.transcript import Transcript

#: turns of history kept before the good turn (the speaker's raw score is computed on
#: history + reply, so a short window lets the reply move game-level aggregates)
DEFAULT_WINDOW = 6
#: fewest history turns a position needs (the speaker must have spoken once before)
MIN_HISTORY = 2
#: turns of other conversations offered to the off-topic family per sample
POOL_SIZE = 48


class RobustnessError(ChatmatchError):
    """Bad input to the robustness suite."""


@dataclass(frozen=True)
class Conversation:
    conv_id: str
    speakers: tuple[str, ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Triple:
    family: str
    source: str  # "<conversation id>#<turn index>" or "closed:<example id>"
    sample: Sample
    broken: str

    @property
    def context(self) -> Context:
        return self.sample.context

    @property
    def good(self) -> str:
        return self.sample.good

    def to_json(self) -> dict[str, object]:
        c = self.context
        return {"family": self.family, "source": self.source, "history": list(c.history),
                "speakers": list(c.speakers), "speaker": c.speaker, "facts": list(c.facts),
                "good": self.good, "broken": self.broken}


def chitchat_conversations() -> list[Conversation]:
    """The Chit-Chat Challenge corpus (MIT): one message (a sender's consecutive lines,
    joined by a space) is one turn; senders are renamed ``A`` (first) and ``B``."""
    out = []
    for conv_id, conv in chitchat_dataset.Dataset().items():
        names: dict[str, str] = {}
        speakers, texts = [], []
        for message in conv["messages"]:
            text = " ".join(u["text"].strip() for u in message if u["text"].strip())
            sender = message[0]["sender"]
            if sender not in names and len(names) < 2:
                names[sender] = "AB"[len(names)]
            if text and sender in names:  # a rare third sender is left out
                speakers.append(names[sender])
                texts.append(text)
        out.append(Conversation(conv_id, tuple(speakers), tuple(texts)))
    return out


def transcript_conversations(paths: Sequence[Path]) -> list[Conversation]:
    """A user's transcripts (chatmatch JSONL, ParlAI or ``SPEAKER: text`` files)."""
    games, _ = load_transcripts(list(paths), strict=True)
    if not games:
        raise RobustnessError(f"no games found in {', '.join(map(str, paths))}")
    return [conversation_of(g) for g in games]


def conversation_of(game: Transcript) -> Conversation:
    return Conversation(game.game_id, tuple(t.speaker for t in game.turns),
                        tuple(t.text for t in game.turns))


def sample_at(conv: Conversation, i: int, window: int, pool: tuple[str, ...] = ()) -> Sample:
    """The sample whose good turn is ``conv.texts[i]``."""
    lo = max(0, i - window)
    ctx = Context(conv.texts[lo:i], conv.speakers[lo:i], conv.speakers[i])
    following = tuple(t for t, s in zip(conv.texts[i + 1:i + 2], conv.speakers[i + 1:i + 2])
                      if s != conv.speakers[i])
    return Sample(ctx, conv.texts[i], following, pool)


def _positions(convs: Sequence[Conversation]) -> list[tuple[int, int]]:
    return [(c, i) for c, conv in enumerate(convs) for i in range(MIN_HISTORY, len(conv.texts))
            if conv.texts[i].strip() and any(ch.isalpha() for ch in conv.texts[i])]


def _pool(convs: Sequence[Conversation], skip: int, rng: random.Random) -> tuple[str, ...]:
    out: list[str] = []
    if len(convs) < 2:
        return ()
    while len(out) < POOL_SIZE:
        c = rng.randrange(len(convs))
        if c != skip and convs[c].texts:
            out.append(convs[c].texts[rng.randrange(len(convs[c].texts))])
    return tuple(out)


def build_triples(convs: Sequence[Conversation], families: Iterable[str], *, n: int, seed: int,
                  window: int = DEFAULT_WINDOW) -> list[Triple]:
    """Up to ``n`` triples per generated family (closed-ended families: see
    :func:`closed_triples`), fewer when the corpus holds fewer applicable positions. Every
    family walks the same seeded order of positions (so families share samples and can be
    compared pair by pair); the choices inside a family use its own seeded ``rng``."""
    order = _positions(convs)
    random.Random(f"{seed}:positions").shuffle(order)
    triples: list[Triple] = []
    for name in families:
        fam = FAMILIES.get(name)
        if fam.generate is None:
            continue
        rng = random.Random(f"{seed}:{name}")
        kept = 0
        for c, i in order:
            if kept >= n:
                break
            sample = sample_at(convs[c], i, window, _pool(convs, c, rng) if name == "off_topic" else ())
            broken = fam.generate(sample, rng)
            if broken is not None:
                triples.append(Triple(name, f"{convs[c].conv_id}#{i}", sample, broken))
                kept += 1
    return triples


# --- the hand-written closed-ended set -------------------------------------------------------
CLOSED_FILE = "closed_ended.jsonl"


def closed_triples(families: Iterable[str] | None = None, *, path: Path | None = None) -> list[Triple]:
    """Triples from the built-in closed-ended set (or ``path``), one per broken candidate."""
    wanted = set(families) if families is not None else {f"closed_{k}" for k in CLOSED_KINDS}
    text = (read_text_bounded(path) if path is not None else
            resources.files("chatmatch.robustness").joinpath("data", CLOSED_FILE).read_text("utf-8"))
    out = []
    for line_no, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        rec = json.loads(raw)
        fam = f"closed_{rec['kind']}"
        if rec["kind"] not in CLOSED_KINDS:
            raise RobustnessError(f"{path or CLOSED_FILE}:{line_no}: unknown kind {rec['kind']!r}")
        if fam not in wanted:
            continue
        history = tuple(rec["history"])
        speakers = tuple("AB"[k % 2] for k in range(len(history)))
        ctx = Context(history, speakers, "AB"[len(history) % 2], tuple(rec.get("facts", ())))
        for k, broken in enumerate(rec["broken"]):
            out.append(Triple(fam, f"closed:{rec['id']}.{k}", Sample(ctx, rec["good"]), broken))
    return out
