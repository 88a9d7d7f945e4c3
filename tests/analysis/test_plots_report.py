"""Figures and the HTML report on a hand-made run with transcripts and per-turn details."""

import re

import pytest

from chatmatch.analysis.human import HumanRanking
from chatmatch.analysis.plots import head_to_head_matrix, plot_run
from chatmatch.analysis.report import _num, build_report
from chatmatch.records import ScoreRecord
from chatmatch.run.storedrun import Run
from chatmatch.scoring.details import TurnNote, detail_notes, turn_notes
from chatmatch.transcript import make_transcript
from tests.analysis.helpers import won, write_run

EVIL = "<script>alert('x')</script> & <b>bold</b>"


def scores_doc(gid, players):
    a, b = players
    return {"game_id": gid, "players": list(players), "dimensions": {
        "proactivity": {"raw": {a: 1, b: 0}, "higher_is_better": True, "details": [
            {"turn": 1, "speaker": b, "questions": 0}, {"turn": 2, "speaker": a, "questions": 1}]},
        "diversity": {"raw": {a: 0, b: -1}, "higher_is_better": True, "details": [
            {"turn": 3, "speaker": b, "repeats": [1], "repeated_question_of": None,
             "penalised": True}]},
        "knowledge": {"raw": {a: 1, b: 0}, "higher_is_better": True, "details": [
            {"turn": 2, "speaker": a, "new": [["Paris", "GPE"]], "already_mentioned": []}]},
        "fluency": {"raw": {a: 10.0, b: 12.0}, "higher_is_better": False, "details": [
            {"turn": 1, "speaker": b, "perplexity": 12.0}]},
    }}


@pytest.fixture(scope="module")
def run3(tmp_path_factory):
    bots = ["alpha", "beta", "gamma"]
    games, trs, scores, n = [], [], {}, 0
    for a, b, pa, pb in [("alpha", "beta", 4, 1), ("alpha", "gamma", 5, 0), ("beta", "gamma", 3, 2)]:
        for first, second in ((a, b), (b, a)):
            n += 1
            gid = f"g{n:03d}"
            p = {a: pa, b: pb}
            games.append(won(gid, first, second, p[first], p[second]))
            texts = ["What did you do last week?", f"{EVIL} I stayed home",
                     "I went to Paris. Did you travel?", f"{EVIL} I stayed home"]
            trs.append(make_transcript(gid, (first, second), texts, seed_first=True))
            scores[gid] = scores_doc(gid, (first, second))
    path = write_run(tmp_path_factory.mktemp("rep") / "run", bots, games, method="trueskill",
                     transcripts=trs, scores=scores)
    return Run.load(path)


def test_head_to_head_matrix_sums_game_points(run3):
    m = head_to_head_matrix(list(run3.results), ["alpha", "beta", "gamma"])
    assert m[0, 1] == 8 and m[1, 0] == 2 and m[0, 2] == 10 and m[2, 0] == 0
    assert m[1, 2] == 6 and m[2, 1] == 4


def test_plots_write_png_and_svg(run3, tmp_path):
    human = HumanRanking("h", {"alpha": 1, "beta": 2, "gamma": 3})
    paths = plot_run(run3, tmp_path / "plots", human)
    names = sorted(p.name for p in paths)
    assert names == sorted(f"{n}.{e}" for n in ("ranks", "trueskill", "head_to_head",
                                                  "dimension_wins") for e in ("png", "svg"))
    for p in paths:
        data = p.read_bytes()
        assert len(data) > 2000
        if p.suffix == ".png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
        else:
            assert b"<svg" in data[:2000] and data.rstrip().endswith(b"</svg>")
    # the rank chart labels every bot, every method and the human line (matplotlib writes
    # each text as a comment beside its glyphs)
    svg = (tmp_path / "plots" / "ranks.svg").read_text()
    for label in ("alpha", "beta", "gamma", "humans", "points 3/1/0", "points 2/1/0"):
        assert f"<!-- {label} -->" in svg
    # same run, same bytes
    again = plot_run(run3, tmp_path / "again", human)
    assert [p.read_bytes() for p in again if p.suffix == ".svg"] == \
        [p.read_bytes() for p in paths if p.suffix == ".svg"]


def test_turn_notes_highlight_what_scored():
    notes = turn_notes(ScoreRecord.from_json(scores_doc("g", ("a", "b"))))
    assert notes[2] == [TurnNote("proactivity", "question", True, True),
                        TurnNote("knowledge", "entities: Paris (GPE)", True, True)]
    assert notes[3] == [TurnNote("diversity", "repetition of turn 1", True, True)]
    # a measurement: shown by `chatmatch show` and the report, not highlighted
    assert TurnNote("fluency", "ppl 12.0", False, True) in notes[1]
    # a measurement only the report lists
    assert TurnNote("proactivity", "0 questions", False, False) in notes[1]


def test_relevance_notes_for_both_methods():
    # method: reply (the default): the turn it answers and the cosine, a measurement
    assert detail_notes("relevance", {"turn": 4, "speaker": "a", "answers": 3, "similarity": 0.4127}) \
        == [TurnNote("relevance", "answers turn 3, similarity 0.41", False, True)]
    # method: recall: the remembered concepts, a finding
    assert detail_notes("relevance", {"turn": 4, "concepts": [{"lemma": "tea"}]})[0].scored


def test_report_has_every_section_and_escapes_bot_text(run3):
    human = HumanRanking("h", {"alpha": 1, "beta": 2, "gamma": 3})
    page = build_report(run3, human)
    for anchor in ("leaderboard", "dimensions", "head-to-head", "figures", "humans", "transcripts"):
        assert f"id='{anchor}'" in page
    assert page.count("<details") == 6 and "g006: gamma vs beta" in page
    # bot text is escaped, never live markup
    assert "<script>" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    # highlighted turns and their badges
    assert page.count("<tr class='scored'>") == 6 * 2
    assert "repetition of turn 1" in page and "entities: Paris (GPE)" in page
    # self-contained: figures inline, no external resource
    assert page.count("src='data:image/svg+xml;base64,") == 4
    assert not re.search(r"(src|href)=['\"]?(https?:|//)", page)
    assert "Kendall tau-b" in page


def test_report_without_humans_has_no_agreement_section(run3):
    page = build_report(run3)
    assert "id='humans'" not in page and "id='leaderboard'" in page


@pytest.mark.parametrize("method", ["bt", "elo", "points", "trueskill"])
def test_report_leaderboard_has_the_terminal_tables_columns_and_values(tmp_path, method):
    """The report and `chatmatch rank` render one leaderboard: a bt or elo run shows its
    scores and intervals (the report once showed empty points columns for them)."""
    import html as html_mod

    from chatmatch.cli.table import ranking_table
    from chatmatch.common.tables import fmt

    bots = ["alpha", "beta", "gamma"]
    games = [won("g001", "alpha", "beta", 4, 1), won("g002", "beta", "gamma", 5, 0),
             won("g003", "alpha", "gamma", 3, 2), won("g004", "gamma", "alpha", 1, 4)]
    run = Run.load(write_run(tmp_path / "run", bots, games, method=method))
    ranking = run.rank()
    headers, rows = ranking.leaderboard()
    page = build_report(run)
    board = page[page.index("id='leaderboard'"):page.index("id='dimensions'")]
    cells = [html_mod.unescape(re.sub(r"<a [^>]*>(.*?)</a>", r"\1", c))  # a bot name is a link
             for c in re.findall(r"<t[hd](?: [^>]*)?>(.*?)</t[hd]>", board)]
    assert cells[:len(headers)] == headers
    assert {"bt": "log p", "elo": "elo", "points": "pts", "trueskill": "mu"}[method] in headers
    first = cells[len(headers):2 * len(headers)]
    assert first[:2] == [str(rows[0][0]), rows[0][1]]
    for cell, value in zip(first[2:], rows[0][2:]):
        assert cell != "" and cell == (_num(value) if isinstance(value, float) else str(value))
    # the terminal table shows the same columns, formatted its own way
    terminal = ranking_table(ranking).splitlines()
    assert terminal[1].split() == " ".join(headers).split()
    assert terminal[3].split()[:3] == [str(rows[0][0]), rows[0][1], fmt(rows[0][2])]
