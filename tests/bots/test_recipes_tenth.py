"""The tenth recipe bots (chatmatch_bots/recipes_tenth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re
import zlib

import pytest

from chatmatch.bot import History, Message
from chatmatch.common.text import question_count, tokens
from chatmatch_bots import recipes_tenth as tenth
from chatmatch_bots.recipes_ninth import BUCKET_PLACES
from tests.bots.recipe_family import (assert_deterministic_over_a_game, assert_long_game_varied,
                                      assert_seeds_vary, LONG_GAME, OTHER, PARTNER,
                                      assert_declared, assert_non_empty_and_deterministic,
                                      assert_odd_partner_turns_get_a_short_real_reply,
                                      assert_tournament_follows, history, play)


CLASSES: dict[str, type] = {"tag": tenth.TagBot, "recital": tenth.RecitalBot,
                            "variation": tenth.VariationBot, "telegram": tenth.TelegramBot,
                            "vocab": tenth.VocabBot, "dj": tenth.DjBot,
                            "limerick": tenth.LimerickBot, "influencer": tenth.InfluencerBot}

#: a hiking statement without a question (PARTNER ends on one)
HIKE = "I went hiking in the mountains with my brother last weekend."


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("tenth", CLASSES)


def test_the_tenth_tournament_plays_every_recipe() -> None:
    assert_tournament_follows("tenth", "ninth", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("tenth", short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_odd_partner_turns_get_a_short_real_reply(short: str) -> None:
    assert_odd_partner_turns_get_a_short_real_reply(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_a_long_game_has_no_empty_or_repeated_reply(short: str) -> None:
    assert_long_game_varied(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_different_seeds_vary_the_reply(short: str) -> None:
    assert_seeds_vary(short, CLASSES[short])


def test_the_partners_top_words_come_key_word_first() -> None:
    assert tenth.top_words(PARTNER) == ["mountains", "hiking", "brother"]
    assert tenth.top_words(OTHER) == ["greenhouse", "orchids", "markets"]
    assert tenth.top_words("haha ?!") == [] and tenth.top_words("x" * 5000) == []


# --- tag -----------------------------------------------------------------------------------

def test_tag_works_out_the_tag_from_subject_and_verb() -> None:
    cases = {"you went hiking in the mountains with your brother": "didn't you",
             "your aunt grows orchids in a greenhouse": "doesn't she",
             "your sister just had a baby girl": "didn't she",
             "your brothers went home": "didn't they",
             "you are tired of your job": "aren't you",
             "you had a quiet day at home": "didn't you",
             "you have been there twice": "haven't you",
             "you really love cooking pasta": "don't you",
             "I'm happy": "aren't I", "I'm not sure": "am I",
             "Nothing beats fresh bread": "does it", "You can't rush a good sauce": "can you",
             "You never stop learning": "do you", "Mountains are good for the soul": "aren't they",
             "Beatles is underrated": "isn't it", "A day in the hills does wonders": "doesn't it",
             "Sequels are never quite as good": "are they", "Cats always know": "don't they",
             "A good song can change your day": "can't it"}
    for clause, tag in cases.items():
        assert tenth.tag_for(clause) == tag, clause
    assert tenth.tag_for("") is None and tenth.tag_for("lovely lovely lovely") is None
    assert tenth.tagged("Nothing beats fresh bread.") == "Nothing beats fresh bread, does it?"
    for about, remarks in tenth.TAG_REMARKS.items():  # every canned remark gets its tag
        assert all(tenth.tagged(r) for r in remarks), about


def test_tag_asks_only_in_tags_and_answers_a_repeated_question_the_same_way() -> None:
    out = tenth.TagBot().reply(history(HIKE))
    assert ("you went hiking in the mountains with your brother last weekend, didn't you?"
            in out)
    assert "Mountains are " in out and ", aren't they?" in out
    assert question_count(out) == 3
    # every question it asks is a tag: a statement, a comma, a short tag
    assert all(re.search(r", \w+(?:n't)? (?:I|you|he|she|it|we|they|there)$", q)
               for q in re.findall(r"[^.?!]+(?=\?)", out))
    said = play(tenth.TagBot(), ["Where do you live?", HIKE, "Where do you live?", OTHER,
                                 "Where do you live?"])
    answers = [s.split(".")[0] for s in said[::2]]
    assert len(set(answers)) == 1 and "?" not in answers[0]
    assert len(set(said[::2])) == 3  # the rest of the turn moves on
    aunt = tenth.TagBot().reply(history(OTHER))
    assert "your aunt grows orchids in a greenhouse, doesn't she?" in aunt


# --- recital -------------------------------------------------------------------------------

def test_recital_recites_a_set_of_the_topic_in_order_with_its_mnemonic() -> None:
    out = tenth.RecitalBot().reply(history(HIKE))
    sets = [s for s in tenth.RECITALS["outdoors"] if f"{s[0]}:" in out.lower()
            or f"{s[0]}:" in out]
    assert len(sets) == 1 and "mountains" in out.lower()
    name, members, mnemonic = sets[0]
    assert tenth._and(members) in out and (not mnemonic or mnemonic in out)
    planets = tenth.RecitalBot().reply(history("I have an exam at school tomorrow."))
    study = [s for s in tenth.RECITALS["study"] if tenth._and(s[1]) in planets]
    assert len(study) == 1
    lakes = next(s for s in tenth.RECITALS["outdoors"] if s[0] == "the Great Lakes")
    assert tenth._and(lakes[1]) == "Superior, Michigan, Huron, Erie and Ontario"


def test_recital_never_recites_a_set_twice_and_starts_with_the_topic() -> None:
    total = sum(len(sets) for sets in tenth.RECITALS.values())
    said = play(tenth.RecitalBot(), [HIKE] * total)
    found = [[s[0] for sets in tenth.RECITALS.values() for s in sets if tenth._and(s[1]) in x]
             for x in said]
    assert all(len(f) == 1 for f in found)
    names = [f[0] for f in found]
    assert len(set(names)) == total  # every set once
    assert set(names[:3]) == {s[0] for s in tenth.RECITALS["outdoors"]}  # its topic's first
    assert all(len(x) < 400 for x in said)


# --- variation -----------------------------------------------------------------------------

def test_variation_never_uses_a_synonym_twice_in_a_game() -> None:
    every = [w for words in tenth.THESAURUS.values() for w in words]
    for frame in tenth.VARIATIONS:  # the frames leave all the varying to the slots
        assert not any(tenth._said_word(w, frame) for w in every), frame
    shortest = min(len(words) for words in tenth.THESAURUS.values())
    said = play(tenth.VariationBot(), [HIKE, OTHER] * (shortest // 2))
    for slot, words in tenth.THESAURUS.items():
        per_turn = [[w for w in words if tenth._said_word(w, s)] for s in said]
        assert all(len(used) <= 1 for used in per_turn), (slot, per_turn)
        assert sum(len(used) for used in per_turn) >= len(said) * 3 // 4, slot
        flat = [w for used in per_turn for w in used]
        assert len(set(flat)) == len(flat), slot  # never the same word twice
    # the game goes on into rarer words
    praise = tenth.THESAURUS["a"]
    first = [praise.index(w) for w in praise if tenth._said_word(w, said[0])]
    last = [praise.index(w) for w in praise if tenth._said_word(w, said[-1])]
    assert first[0] < 5 <= last[0]


def test_variation_says_the_same_thing_about_the_partners_word() -> None:
    said = play(tenth.VariationBot(), [HIKE] * 8)
    assert all("mountains" in s.lower() and s.endswith("?") for s in said)
    assert len({s.split("?")[-2].split()[0] for s in said}) > 3  # its frames take turns
    openers = {tenth.varied("a", "", f"game{i}") for i in range(20)}
    assert len(openers) > 2 and openers <= set(tenth.THESAURUS["a"][:5])
    assert tenth.varied("a", "lovely great", "g") not in ("lovely", "great")


# --- telegram ------------------------------------------------------------------------------

def test_telegram_leaves_out_every_function_word() -> None:
    said = play(tenth.TelegramBot(), LONG_GAME)
    for s in said:
        assert not set(tokens(s)) & tenth.FUNCTION_WORDS, s
        assert s.endswith("?")
    assert said[1].startswith("Greenhouse, orchids, markets: ")
    assert "News: " in said[1] and re.search(r"(?i)\bgreenhouse\b[^.:]*\?$", said[1])
    garbled = tenth.TelegramBot().reply(history("Привет, как дела?"))
    assert any(g in garbled for g in tenth.TELEGRAM_GARBLED)


def test_telegram_answers_a_question_the_same_way_all_game() -> None:
    turns = ["Where do you live?", HIKE, "So where do you live?", "Do you like hiking?",
             OTHER, "Do you like hiking?", "Tea or coffee?", "Tea or coffee?"]
    said = play(tenth.TelegramBot(), turns)
    assert said[0].startswith(tenth.TELEGRAM_ANSWERS["home"])
    assert said[0].split(".")[0] == said[2].split(".")[0]  # its home, whatever the wording
    assert said[3].split(".")[0] == said[5].split(".")[0]
    assert said[6].startswith("Choice: ") and said[6].split(".")[0] == said[7].split(".")[0]
    assert any(said[6].startswith(f"Choice: {c}, obviously.") for c in ("Tea", "coffee"))
    assert said[1].startswith("Mountains, hiking, brother: ")
    news = [m.group(1) for s in said for m in [re.search(r"News: ([^.]+)", s)] if m]
    assert len(set(news)) == len(news) >= 2


# --- vocab ---------------------------------------------------------------------------------

def test_vocab_gives_a_rare_word_of_the_topic_with_its_origin_and_meaning() -> None:
    out = tenth.VocabBot().reply(history(HIKE))
    entry = tenth.vocab_word("mountains", "outdoors", "")
    word, origin, meaning = entry
    assert entry in tenth.VOCAB["outdoors"]
    assert f"'{word}'" in out.lower() and origin in out and meaning in out
    assert "mountains" in out.lower() and out.endswith("?")
    food = tenth.VocabBot().reply(history("I baked bread for dinner."))
    assert any(f"'{x}'" in food.lower() for x, _, _ in tenth.VOCAB["food"])


def test_vocab_never_teaches_a_word_twice_and_praises_one_used() -> None:
    total = sum(len(v) for v in tenth.VOCAB.values())
    said = play(tenth.VocabBot(), [HIKE] * total)
    h = History(tuple(m for s in said for m in (Message("partner", HIKE), Message("self", s))),
                HIKE, "g")
    learnt = tenth.taught(h)
    assert len(learnt) == total == len(set(learnt))
    assert set(learnt[:len(tenth.VOCAB["outdoors"])]) == {x for x, _, _ in tenth.VOCAB["outdoors"]}
    first = said[0]
    word = next(x for x, _, _ in tenth.VOCAB["outdoors"] if f"'{x}'" in first.lower())
    again = play(tenth.VocabBot(), [HIKE, f"Ha, I once slipped on the {word} there."])
    assert f"'{word}'" in again[1] and any(p.format(x=word) in again[1]
                                          for p in tenth.VOCAB_PRAISE)
    assert not any(p.format(x=word) in again[0] for p in tenth.VOCAB_PRAISE)


# --- dj ------------------------------------------------------------------------------------

def test_dj_dedicates_a_song_whose_title_holds_the_partners_word() -> None:
    out = tenth.DjBot().reply(history(HIKE))
    assert "'Ain't No Mountain High Enough' by Marvin Gaye and Tammi Terrell" in out
    assert "1967" in out and "for you and your brother." in out and out.endswith("?")
    tom = tenth.DjBot().reply(history("I visited Lisbon with my friend Tom last year."))
    assert "you and your friend Tom" in tom and "Tom last" not in tom
    sister = tenth.DjBot().reply(history("My sister just had a baby girl."))
    assert "'Sisters Are Doin' It for Themselves'" in sister and "1985" in sister
    song, matched = tenth.song_for(["coffee"], "food", "", 0)
    assert song == ("One More Cup of Coffee", "Bob Dylan", 1976) and matched == "coffee"
    song, matched = tenth.song_for(["quiet"], "garden", "", 0)
    assert matched is None and song in tenth.SONGS["garden"]
    assert tenth._stem_match("walking", "Walkin") and not tenth._stem_match("sun", "sunshine")


def test_dj_never_plays_a_song_twice_and_keeps_its_station() -> None:
    said = play(tenth.DjBot(), LONG_GAME * 2, game_id="radio")
    played = [t for s in said for t in (song[0] for song in tenth.ALL_SONGS) if f"'{t}'" in s]
    assert len(played) == len(said) == len(set(played))
    station = tenth.STATIONS[zlib.crc32(b"station|radio") % len(tenth.STATIONS)]
    named = {s for x in said for s in tenth.STATIONS if s in x}
    assert named == {station} and station in said[0]


# --- limerick ------------------------------------------------------------------------------

def test_limerick_has_five_lines_in_a_town_with_the_partners_word() -> None:
    poem = tenth.limerick("mountains", 0, 0, 0)
    lines = poem.split(" / ")
    assert len(lines) == 5 and lines[0] == "There once was a walker from Leeds"
    assert lines[1].rstrip(";,").endswith("needs") and lines[4].rstrip(".").endswith("weeds")
    assert "mountains" in lines[1] and "mountains" in lines[4]
    out = tenth.LimerickBot().reply(history(HIKE))
    assert out.count(" / ") == 4 and "mountains" in out and out.endswith("?")
    assert sum(f"from {t} /" in out for t, _, _ in tenth.TOWNS) == 1
    towns = [t for t, _, _ in tenth.TOWNS]
    assert len(set(towns)) == len(towns)


def test_limerick_never_uses_a_town_twice_and_the_word_picks_the_first() -> None:
    said = play(tenth.LimerickBot(), [HIKE] * len(tenth.TOWNS), game_id="poems")
    towns = [t for s in said for t, _, _ in tenth.TOWNS if f"from {t} /" in s]
    assert len(towns) == len(said) == len(set(towns))
    again = play(tenth.LimerickBot(), [HIKE], game_id="poems", seed=99)[0]
    assert f"from {towns[0]} /" in again  # the same word, the same game: the same town
    firsts = {next(t for t, _, _ in tenth.TOWNS if f"from {t} /" in x) for x in
              (play(tenth.LimerickBot(), [HIKE], game_id=f"g{i}")[0] for i in range(10))}
    assert len(firsts) > 2


# --- influencer ----------------------------------------------------------------------------

def test_influencer_coins_hashtags_from_the_partners_words_never_twice() -> None:
    out = tenth.InfluencerBot().reply(history(HIKE))
    tags = re.findall(r"#\w+", out)
    assert len(tags) == 3 and {t[1:5] for t in tags} == {"moun", "hiki", "brot"}
    assert "you went hiking in the mountains with your brother" in out and out.endswith("?")
    said = play(tenth.InfluencerBot(), [HIKE, OTHER] * 10)
    every = [t for s in said for t in re.findall(r"#\w+", s)]
    assert len(every) == len(set(every)) >= 3 * len(said) - 2
    assert all(tokens(t)[0] == t[1:] for t in every)  # each one token of its own


def test_influencer_alternates_its_post_and_a_sponsor_code_of_the_partners_word() -> None:
    said = play(tenth.InfluencerBot(), [HIKE] * 4, game_id="insta")
    assert re.search(r"\b\d,\d{3} (likes|views|of you)\b", said[0])
    assert any(p in said[0] for p in BUCKET_PLACES["outdoors"])
    code, d = tenth.discount_code("mountains", "Rab", "insta")
    assert code == f"MOUNTAINS{d}" and d in (10, 15, 20, 25, 30)
    assert re.search(r"\bMOUNTAINS(10|15|20|25|30)\b", said[1])
    assert any(b in said[1] for b in tenth.SPONSORS["outdoors"])
    assert not re.search(r"\bMOUNTAINS\d\d\b", said[0] + said[2])
    brand = next(b for b in tenth.SPONSORS["outdoors"] if b in said[1])
    assert tenth.discount_code("mountains", brand, "insta")[0] in said[1]
