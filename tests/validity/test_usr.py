"""USR's PersonaChat replies as a lab dataset (chatmatch.validity.datasets.usr), on a tiny file in
its format; the real file (../shared/data/usr) when it is there."""

import json

import pytest

from chatmatch.analysis.fed import SYSTEM, USER
from chatmatch.validity.datasets.usr import KINDS, UsrError, load_usr
from tests.validity.usr_fixture import RESPONDERS, build
from tests.datafolder import DATA_DIR

REAL = DATA_DIR / "usr"


def test_each_reply_is_a_two_turn_game_with_mean_ratings(tmp_path):
    replies = load_usr(build(tmp_path / "usr"))
    assert len(replies) == 20 and [r.system for r in replies[:5]] == list(RESPONDERS)
    r = replies[6]  # context 1, the second human
    assert r.turns == ((USER, "fine , and you 1 ?"), (SYSTEM, r.turns[1][1]))
    assert r.turns[1][1].startswith("reply 1 of new human generated")
    assert r.ratings["Overall"] == 4 and r.ratings["Natural"] == pytest.approx(8 / 3)
    game = r.transcript()
    assert game.players == (USER, SYSTEM) and game.meta == {"usr_responder": "New Human Generated"}
    assert load_usr(tmp_path / "usr") == replies  # the folder or the file
    assert set(KINDS) == set(RESPONDERS)


@pytest.mark.parametrize("content, message", [
    ("not json", "not a readable JSON file"),
    ('{"a": 1}', "expected a JSON list"),
    ('[{"context": "x"}]', "item 0 has no 'responses' list"),
    ('[{"context": "x", "responses": [{"model": "m"}]}]', "a response without a 'response' text"),
    ("[]", "no rated replies"),
])
def test_bad_files_are_one_line_errors(tmp_path, content, message):
    path = tmp_path / "pc_usr_data.json"
    path.write_text(content)
    with pytest.raises(UsrError, match=message) as info:
        load_usr(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_missing_file_says_where_to_put_it(tmp_path):
    with pytest.raises(UsrError, match="USR data not found.*--datasets"):
        load_usr(tmp_path)


@pytest.mark.skipif(not (REAL / "pc_usr_data.json").is_file(), reason="USR data not present")
def test_real_file_has_300_replies_of_5_responders():
    replies = load_usr(REAL)
    assert len(replies) == 300 and {r.system for r in replies} == set(KINDS)
    assert all({"Natural", "Overall"} <= set(r.ratings) for r in replies)
    assert json.loads((REAL / "pc_usr_data.json").read_text())[0]["responses"][0]["response"].strip() \
        == replies[0].turns[-1][1]
