"""Read transcripts produced elsewhere, for ``chatmatch score``.

Three formats, told apart by content (not by file name):

* **chatmatch JSON Lines** -- a ``{"type": "game", ...}`` header then one line per turn
  (:meth:`chatmatch.transcript.Transcript.from_jsonl`); one file = one game.
* **ParlAI conversations** (what ``parlai self_chat --outfile x`` writes): one JSON object
  per line, ``{"dialog": [[{"id": "bot_a", "text": "..."}, {"id": "bot_b", "text": "..."}],
  ...], "context": [...]}``; every line is one episode = one game, its turns the acts of
  ``dialog`` in order (``context`` acts, such as personas, are not turns). When both
  agents carry the same id (a model chatting with itself), the speakers are told apart by
  position: ``"<id> (1)"`` speaks first, ``"<id> (2)"`` second.
* **plain text** -- a turn starts with a line ``SPEAKER: utterance`` (split at the first
  colon; the utterance may be empty); a line that starts with a space or a tab, or holds
  no colon, continues the turn above (a reply over several lines); blank lines are
  ignored; exactly two speakers, the first to speak starts. One file = one game, its id
  the path without the suffix.

Limits (a file beyond them is skipped with a warning, or refused with ``--strict``): a file
of at most :data:`MAX_FILE_BYTES`, a game of at most :data:`MAX_GAME_TURNS` turns, a turn of
at most :data:`MAX_TURN_CHARS` characters (the scorers' cost grows with the square of a
game's length, and spaCy refuses texts over a million characters).

Imported games have no seed turn: every turn is credited to its speaker. A directory
stands for the files in it (recursively, hidden files skipped, sorted). A file that cannot
be read is reported as a :class:`~chatmatch.errors.TranscriptError` naming the file and
line and skipped (a ParlAI line: only that episode), or raised when ``strict``.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import stat
import unicodedata
from pathlib import Path
from typing import Any, Iterator, Sequence

from chatmatch.common.safeio import read_bounded
from chatmatch.config.names import check_name
from chatmatch.errors import ChatmatchError, TranscriptError
from chatmatch.transcript import MAX_TURN_CHARS, Transcript, Turn, json_line

#: largest transcript file read (a ParlAI file holds many games; split bigger ones)
MAX_FILE_BYTES = 256 * 2**20
#: longest game scored, in turns (the paper plays 200; 50 times that is still scored)
MAX_GAME_TURNS = 10_000


def load_transcripts(paths: Sequence[Path], *, strict: bool) -> tuple[list[Transcript], list[TranscriptError]]:
    """Every game in ``paths``, each file read once (:func:`discover`); with ``strict`` the
    first problem is raised. Two files holding one game id are refused either way: which
    one is meant cannot be guessed."""
    games: list[Transcript] = []
    errors: list[TranscriptError] = []
    seen: dict[str, str] = {}
    for file in discover(paths, errors, strict):
        for item in _read_file(file, strict):
            if isinstance(item, Transcript) and item.game_id in seen:
                raise ChatmatchError(
                    f"{file}: holds the same game id {item.game_id!r} as {seen[item.game_id]}; "
                    "game ids must be unique (a text log's id is its path without the suffix): "
                    "rename or move one of the files")
            if isinstance(item, TranscriptError):
                if strict:
                    raise item
                errors.append(item)
                continue
            seen[item.game_id] = str(file)
            games.append(dataclasses.replace(item, meta={**item.meta, "file": str(file)}))
    return games, errors


def _is_run_dir(path: Path) -> bool:
    """Does ``path`` hold a chatmatch run? False when it cannot be looked into (an
    unreadable folder is then reported as such where its files are listed)."""
    try:
        return (path / "manifest.json").is_file() and (path / "transcripts").is_dir()
    except OSError:
        return False


def discover(paths: Sequence[Path], errors: list[TranscriptError], strict: bool) -> Iterator[Path]:
    """The files to read, in order, each once (by real path: a symlink to a file already
    read, or a folder given twice, adds nothing). A folder stands for the files under it
    (hidden ones skipped, symlinked folders followed once); a chatmatch run directory in it
    (e.g. an earlier ``chatmatch score --out``) is skipped with a warning, never read as
    more logs; a path or folder that cannot be read is reported (raised when ``strict``)."""
    seen: set[str] = set()
    for path in map(Path, paths):
        before, found = len(errors), False
        try:
            for file in _files_under(path, errors, strict, set()):
                found = True
                real = os.path.realpath(file)
                if real not in seen:
                    seen.add(real)
                    yield file
            if not found and len(errors) == before:
                raise TranscriptError("directory holds no transcript files", file=str(path))
        except TranscriptError as problem:
            if strict:
                raise
            errors.append(problem)


def _files_under(path: Path, errors: list[TranscriptError], strict: bool,
                 dirs_seen: set[str]) -> Iterator[Path]:
    try:
        st = path.stat()
    except OSError as exc:
        why = ("a symbolic link loop (the link leads, through other links, back to itself); "
               "fix or remove the link" if exc.errno == errno.ELOOP else
               "no such file or directory" if exc.errno == errno.ENOENT else
               f"cannot read it: {exc.strerror}")
        raise TranscriptError(why, file=str(path)) from None
    if not stat.S_ISDIR(st.st_mode):
        yield path
        return
    if _is_run_dir(path):
        note = TranscriptError("a chatmatch run directory (an earlier `chatmatch run` or "
                               "`score --out`), not more logs; give its transcripts/ folder to "
                               "score its games again", file=str(path))
        errors.append(note)  # a warning even with --strict: nothing is wrong with it
        return
    real = os.path.realpath(path)
    if real in dirs_seen:
        return
    dirs_seen.add(real)
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError as exc:
        raise TranscriptError(f"cannot read the folder: {exc.strerror}", file=str(path)) from None
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            for file in _files_under(Path(entry.path), errors, strict, dirs_seen):
                yield file
        except TranscriptError as problem:
            if strict:
                raise
            errors.append(problem)


def _read_file(path: Path, strict: bool = False) -> list[Transcript | TranscriptError]:
    """The games in one file, or the error that stopped it (ParlAI: per episode);
    ``strict`` also checks the turn indices of a chatmatch transcript."""
    try:
        text = _decode(path)
        first = next((ln for ln in text.splitlines() if ln.strip()), None)
        if first is None:
            raise TranscriptError("the file is empty", file=str(path))
        try:
            head = _json_object(first)
        except TranscriptError as exc:
            raise TranscriptError(exc.message, file=str(path), line=1) from None
        if head is not None and head.get("type") == "game":
            game = _checked(Transcript.from_jsonl(text, file=str(path)), str(path))
            if strict:
                _check_turn_order(text, str(path))
            return [game]
        if head is not None and "dialog" in head:
            return list(_parlai(text, path))
        if head is not None:
            raise TranscriptError("JSON lines that are neither a chatmatch transcript (a "
                                  "'type': 'game' header) nor ParlAI conversations (a 'dialog' "
                                  "key)", file=str(path), line=1)
        return [_checked(_plain_text(text, path), str(path))]
    except TranscriptError as exc:
        return [exc]


def _checked(game: Transcript, file: str, line: int | None = None) -> Transcript:
    """A game to score needs turns from both of its players, and must fit the limits."""
    if not game.turns:
        raise TranscriptError("the game has no turns", file=file, line=line)
    if len(game.turns) > MAX_GAME_TURNS:
        raise TranscriptError(f"the game has {len(game.turns):,} turns, more than the "
                              f"{MAX_GAME_TURNS:,} chatmatch scores in one game; split the log "
                              "into games (one file or episode each)", file=file, line=line)
    long = next((t for t in game.turns if len(t.text) > MAX_TURN_CHARS), None)
    if long is not None:
        raise TranscriptError(f"turn {long.index + 1} has {len(long.text):,} characters, more "
                              f"than the {MAX_TURN_CHARS:,} chatmatch scores in one turn; is this "
                              "really a chat log?", file=file, line=line)
    for p in game.players:  # speakers become leaderboard rows: the one name rule
        try:
            check_name(p, "speaker name")
        except ValueError as exc:
            raise TranscriptError(str(exc), file=file, line=line) from None
    game = _nfc_speakers(game)
    silent = [p for p in game.players if not game.turns_of(p, include_seed=True)]
    if silent:
        speaker = game.other(silent[0])
        raise TranscriptError(f"only one speaker ({speaker!r}); a game needs exactly two",
                              file=file, line=line)
    return game


def _check_turn_order(text: str, file: str) -> None:
    """``--strict``: the turns' ``index`` fields (where given) count 0, 1, 2, ... in file
    order (chatmatch reads turns in file order and renumbers them)."""
    expected = 0
    for n, raw in enumerate(text.splitlines(), 1):
        rec = json.loads(raw) if raw.strip() else None
        if not isinstance(rec, dict) or rec.get("type") != "turn":
            continue
        index = rec.get("index")
        if index is not None and index != expected:
            raise TranscriptError(f"turn index {index!r} out of order (expected {expected}); "
                                  "put the turns in the order they were spoken", file=file, line=n)
        expected += 1


#: leading bytes of packed files people keep logs in
_PACKED = ((b"\x1f\x8b", "gzip-compressed file", "gunzip"), (b"PK\x03\x04", "zip archive", "unzip"),
           (b"BZh", "bzip2-compressed file", "bunzip2"), (b"\xfd7zXZ\x00", "xz-compressed file", "unxz"),
           (b"(\xb5/\xfd", "zstd-compressed file", "unzstd"), (b"7z\xbc\xaf'\x1c", "7z archive", "7z x"))


def _nfc_speakers(game: Transcript) -> Transcript:
    """The game with its speakers' names in NFC form (one name, however it was typed)."""
    nfc = {p: unicodedata.normalize("NFC", p) for p in game.players}
    if all(k == v for k, v in nfc.items()):
        return game
    turns = tuple(dataclasses.replace(t, speaker=nfc.get(t.speaker, t.speaker)) for t in game.turns)
    return dataclasses.replace(game, players=(nfc[game.players[0]], nfc[game.players[1]]), turns=turns)


def _decode(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise TranscriptError(f"the file has {size / 2**20:,.0f} MiB, more than the "
                                  f"{MAX_FILE_BYTES // 2**20} MiB chatmatch reads; split it into "
                                  "smaller files", file=str(path))
        data = read_bounded(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise TranscriptError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    packed = next(((what, tool) for magic, what, tool in _PACKED if data.startswith(magic)), None)
    if packed:
        raise TranscriptError(f"a {packed[0]}, not a text log; unpack it first ({packed[1]} "
                              f"{path.name}) and give the unpacked file(s)", file=str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TranscriptError(f"not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file "
                              "as UTF-8", file=str(path), line=line) from None


def _json_object(line: str) -> dict[str, Any] | None:
    if not line.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return None
    except RecursionError:
        raise TranscriptError("JSON nested too deeply to read", line=1) from None
    return value if isinstance(value, dict) else None


def _game_id(path: Path) -> str:
    return str(path.with_suffix(""))


def _plain_text(text: str, path: Path) -> Transcript:
    """A text log: a line ``SPEAKER: utterance`` starts a turn; a line that starts with a
    space or a tab, or has no colon, continues the turn above (a reply over several lines,
    joined with line breaks); blank lines are skipped."""
    file = str(path)
    turns: list[tuple[str, list[str]]] = []
    players: list[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        speaker, sep, utterance = raw.partition(":")
        if turns and (not sep or raw[:1] in (" ", "\t")):
            turns[-1][1].append(raw.strip())
            continue
        speaker = speaker.strip()
        if not sep or not speaker:
            raise TranscriptError("expected 'SPEAKER: utterance' (the first line of a log "
                                  "starts a turn)", file=file, line=n)
        if speaker not in players:
            if len(players) == 2:
                raise TranscriptError(f"a third speaker {speaker!r}; a game has exactly two "
                                      f"({players[0]!r} and {players[1]!r}); if this line "
                                      "continues the turn above, indent it", file=file, line=n)
            players.append(speaker)
        turns.append((speaker, [utterance.strip()]))
    if len(players) == 1:
        raise TranscriptError(f"only one speaker ({players[0]!r}); a game needs exactly two",
                              file=file)
    return Transcript(_game_id(path), (players[0], players[1]),
                      tuple(Turn(i, who, "\n".join(p for p in parts if p))
                            for i, (who, parts) in enumerate(turns)),
                      meta={"source": file, "format": "text"})


def _parlai(text: str, path: Path) -> Iterator[Transcript | TranscriptError]:
    file = str(path)
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            yield _parlai_episode(raw, f"{_game_id(path)}-{n}", file, n)
        except TranscriptError as exc:
            yield exc


def _parlai_episode(raw: str, game_id: str, file: str, line: int) -> Transcript:
    episode = json_line(raw, file=file, line=line)
    dialog = episode.get("dialog") if isinstance(episode, dict) else None
    if not isinstance(dialog, list) or not all(isinstance(pair, list) for pair in dialog):
        raise TranscriptError("'dialog' must be a list of lists of acts", file=file, line=line)
    acts = [act for pair in dialog for act in pair]
    if not acts:
        raise TranscriptError("the episode has no turns", file=file, line=line)
    for act in acts:
        if not isinstance(act, dict) or not isinstance(act.get("text"), str) or act.get("id") in (None, ""):
            raise TranscriptError("every act needs an 'id' and a 'text' string", file=file, line=line)
    ids = list(dict.fromkeys(str(a["id"]) for a in acts))
    if len(ids) > 2:
        raise TranscriptError(f"{len(ids)} speakers ({', '.join(ids)}); a game has exactly two",
                              file=file, line=line)
    if len(ids) == 1:  # self-chat between two copies of one agent
        names = [f"{ids[0]} (1)", f"{ids[0]} (2)"]
        speakers = [names[i % 2] for i in range(len(acts))]
    else:
        names, speakers = ids, [str(a["id"]) for a in acts]
    turns = tuple(Turn(i, s, a["text"]) for i, (s, a) in enumerate(zip(speakers, acts)))
    return _checked(Transcript(game_id, (names[0], names[1]), turns,
                               meta={"source": file, "line": line, "format": "parlai"}), file, line)
