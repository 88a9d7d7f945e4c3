"""Reading the Spot The Bot zip: cleaning, bot-bot games, judgements; the real release
when ../shared/data is present."""

import zipfile

import pytest

from chatmatch.validity.datasets.cleaning import clean_text, clean_turn
from chatmatch.validity.datasets.stb import StbError, load_stb
from tests.validity.stb_fixture import build_zip
from tests.datafolder import DATA_DIR

REAL = DATA_DIR / "stb" / "MongoDump.zip"


@pytest.mark.parametrize("raw, clean", [
    ("hi ! i love to watch shows on netflix . < /s >", "hi ! i love to watch shows on netflix ."),
    ("i like that show too . < /s><pad><pad><pad><pad >", "i like that show too ."),
    ("yes . </s>", "yes ."),
    ("i was on _ _ unk _ _ dy once", "i was on dy once"),
    ("roller__unk _ _ sters", "roller sters"),
    ("a <unk> b [PAD] c __unk__ d", "a b c d"),
    ("< /s >", ""),
])
def test_artefacts_removed(raw, clean):
    assert clean_text(raw) == clean
    assert clean_turn(raw) == (clean, True)


@pytest.mark.parametrize("text", ["i do n't know .", "i ' m from chicago .", "cats > dogs",
                                  "  spaced   out  ", "", "was it good >", "junk food , punk rock"])
def test_ordinary_text_is_not_counted_as_cleaned(text):
    cleaned, changed = clean_turn(text)
    assert not changed and cleaned == " ".join(text.split())


def test_tiny_zip_games_judgements_and_cleaning(tmp_path):
    domains = load_stb(build_zip(tmp_path / "MongoDump.zip"))
    assert [d.domain for d in domains] == ["convai2", "dailydialog", "empathetic"]
    d = domains[0]
    assert d.systems == ["bad", "good", "mid"]
    assert len(d.games) == 12 and d.conversations_total == 13  # the human-human one left out
    assert len(d.judgements) == 36
    assert all(len(g.turns) == 8 and not any(t.seed for t in g.turns) for g in d.games)
    g = d.games[0]
    assert g.players == ("good", "mid") and g.turns[0].speaker == "good"
    # "bad" speaks 4 turns in each of its 8 games; 4 of its 6 lines carry an artefact,
    # and it speaks lines 0-3 (3 with artefacts) per game
    assert d.turns_cleaned == 8 * 3 and d.cleaned_by_system == {"bad": 24}
    assert not any("<" in t.text or "unk" in t.text for g in d.games for t in g.turns)
    win, fool = d.human_rankings()["win rate"], d.human_rankings()["fooling rate"]
    assert sorted(win, key=lambda s: -win[s]) == ["good", "mid", "bad"]
    assert fool == pytest.approx({"good": 1.0, "mid": 2 / 3, "bad": 0.0})


def test_folder_holding_the_zip_is_accepted(tmp_path):
    build_zip(tmp_path / "MongoDump.zip")
    assert len(load_stb(tmp_path)) == 3


def test_corrupt_zip_is_one_clear_error(tmp_path):
    p = tmp_path / "MongoDump.zip"
    p.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(StbError, match="not a readable zip"):
        load_stb(p)


def test_missing_member_and_bad_line(tmp_path):
    p = tmp_path / "MongoDump.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("sampled-dialogues-full-convai2.json", "{not json\n")
    with pytest.raises(StbError, match=r"sampled-dialogues-full-convai2.json:1: not valid JSON"):
        load_stb(p)
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("other.json", "{}\n")
    with pytest.raises(StbError, match="no member 'sampled-dialogues-full-convai2.json'"):
        load_stb(p)


def test_missing_file(tmp_path):
    with pytest.raises(StbError, match="Spot The Bot data not found"):
        load_stb(tmp_path / "nope.zip")


@pytest.mark.skipif(not REAL.is_file(), reason=f"Spot The Bot release not found at {REAL} "
                    "(it lives in ../shared/data/stb; set CHATMATCH_DATA to point elsewhere)")
def test_real_release():
    domains = {d.domain: d for d in load_stb(REAL)}
    conv = domains["convai2"]
    assert len(conv.games) == 675 and conv.systems == sorted(
        ["bert_rank", "huggingface", "kvmemnn", "lost_in_conversation", "model", "suckybot"])
    assert all("human" not in g.players for d in domains.values() for g in d.games)
    assert conv.turns_cleaned > 1000 and conv.cleaned_by_system["lost_in_conversation"] > 1000
    assert not any("</s" in t.text or "<pad" in t.text or "unk _" in t.text
                   for d in domains.values() for g in d.games for t in g.turns)
    win = conv.human_rankings()["win rate"]
    # the order derived from the release (best: 'model', worst: the 'suckybot' baseline)
    assert sorted(win, key=lambda s: -win[s]) == [
        "model", "lost_in_conversation", "kvmemnn", "huggingface", "bert_rank", "suckybot"]
    assert len(domains["dailydialog"].systems) == 4 and len(domains["empathetic"].systems) == 5
