"""What flows between stages: turns and transcripts (frozen), and their JSON Lines form.

A transcript file (``.jsonl``) holds one header line then one line per turn::

    {"type": "game", "game_id": "g001", "players": ["A", "B"], "seed_utterance": "...", ...}
    {"type": "turn", "index": 0, "speaker": "A", "text": "...", "seconds": 0.0, "seed": true}
    {"type": "turn", "index": 1, "speaker": "B", "text": "...", "seconds": 0.12}

``players[0]`` is the bot that starts the game; turn 0 is the seed utterance, given by the
tournament and spoken on behalf of the starter (``seed: true``). Scorers keep seed turns in
the conversation history but never credit them to the starter: the starter did not write it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from chatmatch.errors import TranscriptError
from chatmatch.records import Forfeit

#: longest turn chatmatch scores, in characters: ``failures.max_chars`` is capped at it, an
#: imported log with a longer turn is skipped, and so is an edited stored transcript (spaCy
#: refuses texts over a million characters; the n-gram and similarity costs grow with it)
MAX_TURN_CHARS = 100_000


@dataclass(frozen=True)
class Turn:
    """One utterance. ``index`` counts from 0 over the whole game."""

    index: int
    speaker: str
    text: str
    seconds: float = 0.0
    seed: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "turn", "index": self.index, "speaker": self.speaker,
                             "text": self.text, "seconds": round(self.seconds, 6)}
        if self.seed:
            d["seed"] = True
        return d


@dataclass(frozen=True)
class Transcript:
    """A finished game (or an imported chat log) between exactly two speakers."""

    game_id: str
    players: tuple[str, str]
    turns: tuple[Turn, ...]
    seed_utterance: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    #: the bot that forfeited the game, and why (stored in the header's ``meta.forfeit``)
    forfeit: Forfeit | None = None

    @property
    def starter(self) -> str:
        return self.players[0]

    def other(self, speaker: str) -> str:
        a, b = self.players
        return b if speaker == a else a

    def turns_of(self, speaker: str, *, include_seed: bool = False) -> list[Turn]:
        return [t for t in self.turns if t.speaker == speaker and (include_seed or not t.seed)]

    @property
    def exchanges(self) -> int:
        return len(self.turns) // 2

    # --- JSON Lines -------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        meta = self.meta if self.forfeit is None else {**self.meta, "forfeit": self.forfeit.to_json()}
        return {"type": "game", "game_id": self.game_id, "players": list(self.players),
                "seed_utterance": self.seed_utterance, "meta": meta}

    def to_lines(self) -> Iterator[str]:
        yield json.dumps(self.header(), ensure_ascii=False, sort_keys=True)
        for t in self.turns:
            yield json.dumps(t.to_json(), ensure_ascii=False, sort_keys=True)

    def to_jsonl(self) -> str:
        return "\n".join(self.to_lines()) + "\n"

    @classmethod
    def from_records(cls, records: Iterable[tuple[int, dict[str, Any]]], *,
                     file: str | None = None) -> "Transcript":
        """Build from ``(line_number, record)`` pairs; errors name the file and line."""
        header: dict[str, Any] | None = None
        turns: list[Turn] = []
        for line, rec in records:
            kind = rec.get("type")
            if kind == "game":
                if header is not None:
                    raise TranscriptError("a second 'game' header; one game per file", file=file, line=line)
                header = rec
                continue
            if kind != "turn":
                raise TranscriptError(f"unknown record type {kind!r}; expected 'game' or 'turn'",
                                      file=file, line=line)
            speaker, text = rec.get("speaker"), rec.get("text")
            if not isinstance(speaker, str) or not speaker:
                raise TranscriptError("turn has no speaker (a non-empty string)", file=file, line=line)
            if not isinstance(text, str):
                raise TranscriptError("turn has no text (a string)", file=file, line=line)
            try:
                seconds = float(rec.get("seconds", 0.0) or 0.0)
            except (TypeError, ValueError):
                raise TranscriptError(f"turn 'seconds' must be a number, got {rec['seconds']!r}",
                                      file=file, line=line) from None
            turns.append(Turn(index=len(turns), speaker=speaker, text=text, seconds=seconds,
                              seed=bool(rec.get("seed", False))))
        if header is None:
            raise TranscriptError("no 'game' header line", file=file, line=1)
        players = header.get("players")
        if (not isinstance(players, list) or len(players) != 2
                or not all(isinstance(p, str) and p for p in players) or players[0] == players[1]):
            raise TranscriptError("header 'players' must be two different names", file=file, line=1)
        if not isinstance(header.get("meta") or {}, dict):
            raise TranscriptError("header 'meta' must be a JSON object", file=file, line=1)
        meta = dict(header.get("meta") or {})
        try:
            forfeit = Forfeit.from_json(meta.pop("forfeit", None))
        except ValueError as exc:
            raise TranscriptError(f"header 'meta.forfeit': {exc}", file=file, line=1) from None
        unknown = {t.speaker for t in turns} - set(players)
        if unknown:
            raise TranscriptError(f"speaker(s) {sorted(unknown)} not among players {players}", file=file)
        return cls(game_id=str(header.get("game_id") or (file or "game")),
                   players=(players[0], players[1]), turns=tuple(turns),
                   seed_utterance=str(header.get("seed_utterance", "")), meta=meta,
                   forfeit=forfeit)

    @classmethod
    def from_jsonl(cls, text: str, *, file: str | None = None) -> "Transcript":
        def records() -> Iterator[tuple[int, dict[str, Any]]]:
            for n, raw in enumerate(text.splitlines(), 1):
                if not raw.strip():
                    continue
                rec = json_line(raw, file=file, line=n)
                if not isinstance(rec, dict):
                    raise TranscriptError("each line must be a JSON object", file=file, line=n)
                yield n, rec
        return cls.from_records(records(), file=file)


def json_line(raw: str, *, file: str | None, line: int) -> Any:
    """One line of a JSON Lines file, parsed; a :class:`TranscriptError` naming the file
    and line when it is not JSON (or nested too deeply to read)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise TranscriptError(f"not valid JSON ({exc.msg})", file=file, line=line) from None
    except RecursionError:
        raise TranscriptError("JSON nested too deeply to read", file=file, line=line) from None


def make_transcript(game_id: str, players: Sequence[str], texts: Sequence[str], *,
                    seed_first: bool = False) -> Transcript:
    """Build a transcript whose turns alternate, starting with ``players[0]`` (handy in tests)."""
    a, b = players
    turns = tuple(Turn(i, a if i % 2 == 0 else b, t, seed=(seed_first and i == 0))
                  for i, t in enumerate(texts))
    return Transcript(game_id, (a, b), turns, seed_utterance=texts[0] if seed_first and texts else "")
