from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatmatch.errors import ChatmatchError, TranscriptError
from chatmatch.run.importers import load_transcripts
from chatmatch.transcript import make_transcript


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_chatmatch_jsonl_round_trip(tmp_path: Path) -> None:
    t = make_transcript("g7", ("alice", "bob"), ["What did you do?", "I read 😀", ""], seed_first=True)
    f = write(tmp_path / "g7.jsonl", t.to_jsonl())
    games, errors = load_transcripts([f], strict=True)
    assert errors == [] and games == [t]


def test_plain_text(tmp_path: Path) -> None:
    f = write(tmp_path / "chat.txt", "alice: Hi there: how are you?\n\nbob: Fine.\nalice:\nbob: 😀 ok\n")
    (game,), errors = load_transcripts([f], strict=True)
    assert game.players == ("alice", "bob")
    assert [(t.speaker, t.text) for t in game.turns] == [
        ("alice", "Hi there: how are you?"), ("bob", "Fine."), ("alice", ""), ("bob", "😀 ok")]
    assert game.game_id == str(tmp_path / "chat") and not any(t.seed for t in game.turns)


@pytest.mark.parametrize("text, line, message", [
    ("a: hi\nb: yo\nc: hey\n", 3, "a third speaker 'c'"),
    ("just text\na: hi\n", 1, "expected 'SPEAKER: utterance'"),
    ("a: hi\n: nobody\n", 2, "expected 'SPEAKER: utterance'"),
    ("a: hi\na: hello\n", None, "only one speaker ('a')"),
    ("a: hi\nmore of a's turn\n", None, "only one speaker ('a')"),  # a continuation line
    ("\n\n", None, "the file is empty"),
])
def test_plain_text_errors_name_file_and_line(tmp_path: Path, text: str, line: int | None,
                                              message: str) -> None:
    f = write(tmp_path / "bad.txt", text)
    games, errors = load_transcripts([f], strict=False)
    assert games == [] and len(errors) == 1
    assert errors[0].file == str(f) and errors[0].line == line and message in str(errors[0])
    with pytest.raises(TranscriptError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_transcripts([f], strict=True)


def test_parlai_self_chat(tmp_path: Path) -> None:
    ep1 = {"dialog": [[{"id": "blender", "text": "Hi!"}, {"id": "dialogpt", "text": "Hello."}],
                      [{"id": "blender", "text": "How are you?"}, {"id": "dialogpt", "text": "Good"}]],
           "context": [{"id": "context", "text": "your persona: I like tea."}]}
    ep2 = {"dialog": [[{"id": "model", "text": "a"}, {"id": "model", "text": "b"}],
                      [{"id": "model", "text": "c"}]]}
    f = write(tmp_path / "selfchat.jsonl", json.dumps(ep1) + "\n" + json.dumps(ep2) + "\n")
    games, errors = load_transcripts([f], strict=True)
    assert errors == [] and len(games) == 2
    assert games[0].players == ("blender", "dialogpt") and len(games[0].turns) == 4
    assert games[0].turns[3].text == "Good"
    assert games[1].players == ("model (1)", "model (2)")
    assert [t.speaker for t in games[1].turns] == ["model (1)", "model (2)", "model (1)"]
    assert games[0].game_id != games[1].game_id


def test_parlai_bad_episode_is_skipped_alone(tmp_path: Path) -> None:
    good = {"dialog": [[{"id": "a", "text": "hi"}, {"id": "b", "text": "yo"}]]}
    bad = {"dialog": [[{"id": "a", "text": "hi"}, {"id": "b"}]]}
    three = {"dialog": [[{"id": "a", "text": "1"}, {"id": "b", "text": "2"}, {"id": "c", "text": "3"}]]}
    f = write(tmp_path / "p.jsonl", "\n".join(json.dumps(x) for x in (good, bad, three)) + "\n{oops\n")
    games, errors = load_transcripts([f], strict=False)
    assert len(games) == 1
    assert [(e.line, e.message.split(" (")[0]) for e in errors] == [
        (2, "every act needs an 'id' and a 'text' string"), (3, "3 speakers"), (4, "not valid JSON")]


def test_directory_encoding_missing_and_duplicates(tmp_path: Path) -> None:
    write(tmp_path / "logs" / "1.txt", "a: hi\nb: yo\n")
    write(tmp_path / "logs" / "sub" / "2.txt", "a: hi\nb: yo\n")
    write(tmp_path / "logs" / ".hidden", "garbage")
    write(tmp_path / "logs" / "latin1.txt", "a: ol\xe1\nb: yo\n".encode("latin-1"))
    t = make_transcript("same", ("x", "y"), ["1", "2"])
    write(tmp_path / "logs" / "d1.jsonl", t.to_jsonl())
    (tmp_path / "empty").mkdir()
    games, errors = load_transcripts([tmp_path / "logs", tmp_path / "nope.txt", tmp_path / "empty"],
                                     strict=False)
    assert sorted(Path(g.game_id).name for g in games) == ["1", "2", "same"]
    messages = {Path(e.file or "").name: e for e in errors}
    assert "not UTF-8 text (byte 0xe1)" in str(messages["latin1.txt"])
    assert messages["latin1.txt"].line == 1
    write(tmp_path / "logs" / "d2.jsonl", t.to_jsonl())  # one game id in two files: refused
    with pytest.raises(ChatmatchError, match="d2.jsonl: holds the same game id 'same' as .*d1.jsonl"):
        load_transcripts([tmp_path / "logs"], strict=False)
    assert "no such file or directory" in str(messages["nope.txt"])
    assert "no transcript files" in str(messages["empty"])


def test_unrecognised_json_and_bom(tmp_path: Path) -> None:
    f = write(tmp_path / "x.jsonl", '{"messages": []}\n')
    _, errors = load_transcripts([f], strict=False)
    assert "neither a chatmatch transcript" in str(errors[0])
    bom = write(tmp_path / "bom.txt", "\ufeffa: hi\nb: yo\n".encode("utf-8"))
    (game,), _ = load_transcripts([bom], strict=True)
    assert game.players == ("a", "b")
