"""Canned turns (chatmatch.scoring.canned): a bot's own words that recur in its other games
in reply to different words. Found across the games scored together; off by default; with
``Scorer.canned`` (the lab's ``--canned``) fluency and relevance treat them as degenerate,
proactivity and knowledge count nothing in them."""

from __future__ import annotations

from chatmatch.scoring.canned import canned_and_stock, canned_shares, canned_turns, stock_sentences
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.fluency import Fluency
from chatmatch.scoring.knowledge import Knowledge
from chatmatch.scoring.proactivity import Proactivity
from chatmatch.scoring.relevance import Relevance
from chatmatch.scoring.surface import sentences
from chatmatch.transcript import Transcript, Turn

# a recipe: a bank of lines said whatever the partner says (one partner word in a slot)
BANK = ["Oh, {}! When I was in Lisbon last spring the trams were packed with tourists. Have you ever been to Portugal?",
        "Speaking of {}, my uncle Bernard in Toronto collects old maps of the Great Lakes. Do you like maps?",
        "Ah, {} again! The best pastry I ever had was a croissant in a small bakery near Montmartre. Do you bake?"]

# a partner whose words differ from game to game (each game its own topic)
PARTNER = [
    ["I spent the weekend fixing my bicycle chain.", "The gears were rusty after the winter rain.",
     "Next I want to replace the brake pads myself."],
    ["My sister adopted a grey kitten from the shelter.", "It sleeps all day on the radiator.",
     "We still have not chosen a name for it."],
    ["Our office moved to the fourth floor this month.", "The elevator is broken half of the time.",
     "At least the view over the river is nice."],
]
# a real bot: its words follow the partner's
REAL = [
    ["A rusty chain squeaks terribly, did the oil help?", "Winter salt eats metal fast, so dry it often.",
     "Brake pads are easy with a hex key and some patience."],
    ["Kittens from shelters are often the sweetest ones.", "Radiators are warm, so that spot makes sense.",
     "Maybe a name after its grey fur, like Smoky?"],
    ["A new floor can change the whole mood at work.", "Taking the stairs twice a day is decent exercise.",
     "River views make long meetings much easier to bear."],
]


def _game(gid: str, partner: list[str], bot: list[str], name: str = "bot",
          partner_name: str = "partner") -> Transcript:
    turns = [Turn(0, partner_name, "Hello there, how was your week?", seed=True)]
    for p, b in zip(partner, bot):
        turns.append(Turn(len(turns), name, b))
        turns.append(Turn(len(turns), partner_name, p))
    return Transcript(gid, (name, partner_name), tuple(turns))


def _recipe_games() -> list[Transcript]:
    return [_game(f"g{i}", PARTNER[i], [line.format(PARTNER[i][0].split()[-1].strip(".")) for line in BANK],
                  name="recipe")
            for i in range(3)]


def _real_games() -> list[Transcript]:
    return [_game(f"h{i}", PARTNER[i], REAL[i], name="real", partner_name="other") for i in range(3)]


def _bot_turns(game: Transcript, name: str) -> set[int]:
    return {t.index for t in game.turns if t.speaker == name}


def test_a_bank_of_lines_is_canned_and_replies_that_follow_the_partner_are_not() -> None:
    games = _recipe_games() + _real_games()
    found = canned_turns(games)
    for g, c in zip(games[:3], found[:3]):
        # turn 1 answers the seed, the same words in every game: a bot may say the same
        assert c == _bot_turns(g, "recipe") - {1}
    assert all(not c for c in found[3:])  # the real bot's and the partner's turns
    shares = canned_shares(games)
    assert shares["recipe"] == round(2 / 3, 3)
    assert shares["real"] == shares["partner"] == shares["other"] == 0.0


def test_one_game_alone_has_no_canned_turn() -> None:
    assert canned_turns(_recipe_games()[:1]) == [frozenset()]


def test_the_same_words_in_reply_to_the_same_words_are_not_canned() -> None:
    """A deterministic bot says the same to the same partner line: not canned."""
    line = "I would start with the chain and some oil, then check the brake cables."
    same_input = [_game(f"s{i}", PARTNER[0], [REAL[0][0], line, REAL[0][2]]) for i in range(2)]
    assert canned_turns(same_input) == [frozenset(), frozenset()]
    # the same line in reply to different words is
    other = [_game("s0", PARTNER[0], [REAL[0][0], line, REAL[0][2]]),
             _game("s1", PARTNER[1], [REAL[1][0], line, REAL[1][2]])]
    assert canned_turns(other) == [frozenset({3}), frozenset({3})]


def test_words_the_partner_said_do_not_make_a_turn_canned() -> None:
    """A turn whose recurring 3-grams all hold a word the partner said is not canned."""
    g1 = _game("p0", ["The old red tractor broke down again today.", "Yes.", "No."],
               ["An old red tractor needs new parts.", "Fine.", "Sure."])
    g2 = _game("p1", ["Our old red tractor is for sale now.", "Maybe.", "Right."],
               ["An old red tractor needs new parts.", "Okay.", "Good."])
    assert canned_turns([g1, g2]) == [frozenset(), frozenset()]


def test_function_words_the_partner_said_do_not_make_a_frame_the_bot_s_own() -> None:
    """A recap frame around the partner's words ("So, if I've got it right: you went hiking.
    Did I get that right?") is the bot's frame even though the partner also says "i", "it",
    "that" and "you": only the partner's content words fill a template's slots."""
    frame = "So, if I have got it right: {}. Did I get that right? Is that the gist of it?"
    partner = [["I went hiking with my brother and it was great, I think.", "Yes."],
               ["I cooked a big dinner for my friends, and that was it.", "No."],
               ["I painted the fence and I got it right this time.", "Maybe."]]
    games = [_game(f"f{i}", p, ["Fine, thanks.",
                                frame.format(p[0].split(" and")[0].lower().replace("i ", "you ", 1))])
             for i, p in enumerate(partner)]
    # the frame's 3-grams hold "i", "it", "that": words the partner said before it, yet the
    # frame comes back in every game: canned (in the third game the partner said "got it
    # right" too, so fewer of its 3-grams are the bot's own, still most of them stock)
    assert canned_turns(games) == [frozenset({3})] * 3
    # with the partner's content words in the frame, it is theirs: not canned
    echo = [_game(f"e{i}", [f"The {w} frame gist was right there.", "Yes."],
                  ["Fine.", f"So the {w} frame gist was right there?"])
            for i, w in enumerate(("red", "blue", "green"))]
    assert canned_turns(echo) == [frozenset()] * 3


def test_short_turns_are_never_canned() -> None:
    games = [_game(f"t{i}", PARTNER[i], ["Yes, really.", "I see.", "Okay then."]) for i in range(3)]
    assert all(not c for c in canned_turns(games))


def _scored(scorer, games: list[Transcript], canned: bool):  # type: ignore[no-untyped-def]
    scorer.canned = canned
    return [d[scorer.name] for d in score_games(games, [scorer])]


def test_off_by_default_and_the_scores_do_not_change() -> None:
    games = _recipe_games()
    for make in (lambda: Proactivity(Proactivity.Params(questions="all")),
                 lambda: Fluency(Fluency.Params(backend="ngram"))):
        assert make().canned is False
        off = _scored(make(), games, False)
        assert [s.raw for s in off] == [s.raw for s in _scored(make(), games, False)]
        on = _scored(make(), games, True)
        assert [s.raw for s in on] != [s.raw for s in off]


def test_proactivity_counts_no_question_of_a_canned_turn() -> None:
    games = _recipe_games() + _real_games()
    off = _scored(Proactivity(Proactivity.Params(questions="all")), games, False)
    on = _scored(Proactivity(Proactivity.Params(questions="all")), games, True)
    assert all(s.raw["recipe"] > 0 for s in off[:3])
    assert all(s.raw["recipe"] < o.raw["recipe"] for s, o in zip(on[:3], off[:3]))
    assert {d.get("not_counted") for s in on[:3] for d in s.details
            if d["speaker"] == "recipe" and d["turn"] != 1} == {"canned"}
    assert [s.raw for s in on[3:]] == [s.raw for s in off[3:]]  # the real bot's asks still count


def test_fluency_counts_a_canned_turn_as_degenerate() -> None:
    games = _recipe_games() + _real_games()
    on = _scored(Fluency(Fluency.Params(backend="ngram")), games, True)
    marks = {d.get("degenerate") for s in on[:3] for d in s.details if d["speaker"] == "recipe"}
    assert marks == {"canned", None}  # turn 1 answers the same seed in every game
    assert not any(d.get("degenerate") for s in on[3:] for d in s.details)


def test_knowledge_credits_no_entity_of_a_canned_turn() -> None:
    games = _recipe_games()
    off = _scored(Knowledge(Knowledge.Params(in_context=False)), games, False)
    on = _scored(Knowledge(Knowledge.Params(in_context=False)), games, True)
    assert all(s.raw["recipe"] > 0 for s in off)
    assert all(s.raw["recipe"] < o.raw["recipe"] for s, o in zip(on, off))
    assert any(d.get("canned") for s in on for d in s.details)


def test_relevance_gives_a_canned_turn_nothing() -> None:
    games = _recipe_games()
    rel = Relevance()
    rel.canned = True
    analyses = rel.context_for(games, None).games
    for a in analyses:
        assert _bot_turns(a.game, "recipe") - {1} <= rel.skipped(a)
        assert 1 not in rel.skipped(a)
    scores = _scored(Relevance(), games, True)  # the details say why: canned
    assert {d.get("excluded") for s in scores for d in s.details
            if d["speaker"] == "recipe" and d["turn"] != 1} == {"canned"}


def test_a_phrase_is_stock_only_when_it_comes_back_in_a_fifth_of_the_bot_s_games() -> None:
    """Any speaker says a phrase of its own again now and then; a stock phrase comes back
    in at least a fifth of the bot's other games (in reply to different words)."""
    OWN = ["Wooden posts rot quickly near wet soil.", "Hinges squeak less after a drop of oil.",
           "Loose shingles let rain drip inside.", "Cracked glass needs careful gloves.",
           "Sanding old benches takes patience.", "Check each rung before climbing.",
           "Leaky hoses waste plenty of water.", "Maybe the bulb just burned out.",
           "Blades stay sharp when cleaned often.", "Rusty latches stick every winter.",
           "Dripping taps usually need fresh washers."]
    line = "My grandmother in Naples always said the sea keeps no secrets for long."
    topics = [f"Today I repaired the {w} in the garden shed." for w in
              ("fence", "door", "roof", "window", "bench", "ladder", "hose", "lamp", "mower", "gate", "tap")]

    def games(with_line: int) -> list[Transcript]:
        out = []
        for i, topic in enumerate(topics):
            mine = line if i < with_line else OWN[i]
            out.append(_game(f"k{i}", [topic, "Yes.", "No."], ["Hi, fine.", mine, "Sure."]))
        return out

    # in 2 of 11 games: from either, 1 of the 10 others holds it (< 2): not stock
    assert not any(canned_turns(games(2)))
    # in 3 of 11: 2 of the 10 others (a fifth): stock, canned where it is said
    found = canned_turns(games(3))
    assert [bool(c) for c in found] == [True] * 3 + [False] * 8
    assert canned_turns(games(3), stock_games=0.3) == [frozenset()] * 11


# a recipe whose turns are unique as a whole (a post with a new number, place and hashtags
# made of the partner's word) but end on a question from a small bank: no turn is canned,
# the questions are stock
POSTS = ["My reel from {place} hit {n} likes overnight, {m} shares, #{w}daily #{w}vibes #{w}era!",
         "Went live from {place} and {n} of you tuned in, {m} stayed, #{w}club #{w}squad!",
         "Just posted a carousel from {place}: {n} views already, {m} saves, #{w}mood #{w}life!"]
PLACES = ["the Monaco Grand Prix", "Wimbledon", "the Tour de France", "Copenhagen", "Bali",
          "the Cannes Film Festival", "Hobbiton in New Zealand", "Tsukiji market in Tokyo",
          "the Long Room in Dublin"]
#: per game, a content word of the partner's turn before each of the recipe's turns
WORDS = [["week", "bicycle", "gears"], ["week", "kitten", "radiator"], ["week", "office", "elevator"]]
ASKS = ["Which filter would you use for this?", "Would you follow me back on there?",
        "Can I repost your {w} pic tonight?"]


def _influencer_games() -> list[Transcript]:
    games = []
    for i in range(3):
        said = []
        for k in range(3):  # a word of the partner's last turn (the seed's before it speaks)
            w = WORDS[i][k]
            post = POSTS[k].format(place=PLACES[3 * i + k], n=1000 + 137 * (3 * i + k),
                                   m=20 + 7 * (3 * i + k), w=w)
            said.append(f"{post} {ASKS[(i + k) % 3].format(w=w)}")
        games.append(_game(f"i{i}", PARTNER[i], said, name="influencer"))
    return games


def test_a_bank_question_at_the_end_of_fresh_lines_is_a_stock_sentence() -> None:
    """A turn made new each time (a fresh number, place and hashtags) is not canned, but
    the question it ends on comes from a bank said in game after game whatever was said:
    a stock sentence. The real bot's sentences are not."""
    games = _influencer_games() + _real_games()
    assert not any(canned_turns(games))
    stock = stock_sentences(games)
    for g, found in zip(games[:3], stock[:3]):
        bot = _bot_turns(g, "influencer")
        assert set(found) == bot
        for t, sents in found.items():
            assert sents == {sentences(g.turns[t].text)[-1]}, sents  # the question only
    assert not any(stock[3:])
    assert canned_and_stock(games) == (canned_turns(games), stock)


def test_proactivity_counts_no_stock_question() -> None:
    games = _influencer_games() + _real_games()
    off = _scored(Proactivity(Proactivity.Params(questions="all")), games, False)
    on = _scored(Proactivity(Proactivity.Params(questions="all")), games, True)
    assert all(o.raw["influencer"] == 1.0 for o in off[:3])
    assert all(s.raw["influencer"] == 0.0 for s in on[:3])
    uncounted = [d for s in on[:3] for d in s.details if d.get("not_counted")]
    assert {d["not_counted"] for d in uncounted} == {"stock question"}
    assert all(d["stock"] and d["stock"][0].endswith("?") for d in uncounted)
    assert [s.raw for s in on[3:]] == [s.raw for s in off[3:]]  # the real bot's still count
