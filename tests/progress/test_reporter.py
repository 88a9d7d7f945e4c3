"""The progress API (chatmatch.progress): plain lines off a terminal, rich on one, quiet."""

import io
import re
import threading
import time

from chatmatch.progress import Reporter, fmt_duration


def plain() -> tuple[io.StringIO, Reporter]:
    stream = io.StringIO()
    return stream, Reporter(stream, interval_s=0.05, min_step_s=0.1)


def test_a_slow_step_prints_a_start_and_an_end_line_a_quick_one_nothing():
    stream, rep = plain()
    with rep.step("loading quick"):
        pass
    with rep.step("loading smollm2"):
        time.sleep(0.25)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "loading smollm2 ..."
    assert re.fullmatch(r"loading smollm2: 0\.[23]s", lines[1]), lines
    assert len(lines) == 2  # nothing about the quick step


def test_a_bar_prints_sparse_plain_lines_and_a_last_one():
    stream, rep = plain()
    with rep.bar("playing", 40, unit="turns") as bar:
        for i in range(40):
            time.sleep(0.01)
            bar.advance(detail=f"{i // 10}/4 games")
    text = stream.getvalue()
    assert "\r" not in text and "\x1b" not in text  # no redraws, no colours: a log file
    lines = text.splitlines()
    assert 2 <= len(lines) <= 12  # a line per interval, not one per update (40)
    assert re.fullmatch(r"playing: 40/40 turns \(3/4 games\), elapsed 0\.\ds \(done\)", lines[-1])
    assert any("ETA" in line for line in lines[:-1])


def test_a_quick_bar_leaves_no_line():
    stream, rep = plain()
    with rep.bar("scoring 8 games", 3, unit="steps") as bar:
        bar.advance(3)
    assert stream.getvalue() == ""


def test_quiet_prints_nothing_at_all():
    stream = io.StringIO()
    rep = Reporter(stream, quiet=True, min_step_s=0.0)
    with rep.step("loading"):
        time.sleep(0.05)
    with rep.bar("playing", 2) as bar:
        bar.advance(2)
    rep.note("hello")
    assert list(rep.track([1, 2], "x")) == [1, 2]
    assert stream.getvalue() == ""


def test_on_a_terminal_rich_draws_the_steps_and_bars():
    stream = io.StringIO()
    rep = Reporter(stream, terminal=True, min_step_s=0.05)
    with rep.step("loading smollm2"):
        time.sleep(0.1)
    with rep.bar("playing", 4, unit="turns") as bar:
        bar.advance(4, detail="2/2 games")
    out = stream.getvalue()
    assert "loading smollm2" in out and "playing" in out and "4/4" in out and "2/2 games" in out


def test_the_eta_counts_from_the_bar_not_from_work_done_before():
    stream, rep = plain()
    with rep.bar("playing", 10, done=5) as bar:  # 5 done before (a resumed run)
        time.sleep(0.1)
        bar.advance()
        eta = bar.eta()
    # 1 unit in ~0.1 s, 4 left: ~0.4 s (not 0.1 s / 6 units * 4)
    assert eta is not None and 0.3 < eta < 0.8


def test_bars_may_be_moved_from_several_threads():
    stream, rep = plain()
    with rep.bar("playing", 400) as bar:
        threads = [threading.Thread(target=lambda: [bar.advance() for _ in range(100)])
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert bar.done == 400


def test_durations_read_well():
    assert fmt_duration(4.24) == "4.2s"
    assert fmt_duration(185) == "3m05s"
    assert fmt_duration(3723) == "1h02m03s"


def test_a_failed_step_says_so():
    stream, rep = plain()
    try:
        with rep.step("loading broken"):
            raise ValueError("no model")
    except ValueError:
        pass
    assert re.fullmatch(r"loading broken: failed after 0\.0s\n", stream.getvalue())


def test_a_model_scorer_gets_its_own_bar_counting_what_it_scores():
    from chatmatch.scoring.engine import load_scorers, score_games
    from chatmatch.scoring.fluency import Fluency
    from chatmatch.transcript import Transcript, Turn

    class FakeLM:
        name, vocab_size = "fake", 100

        def perplexities(self, texts):
            time.sleep(0.001 * len(texts))
            return [float(len(t)) for t in texts]

    turns = tuple(Turn(i, "ab"[i % 2], f"turn number {i}", 0.0, seed=i == 0) for i in range(600))
    games = [Transcript("g1", ("a", "b"), turns, turns[0].text, {})]
    stream = io.StringIO()
    rep = Reporter(stream, interval_s=0.0, min_step_s=0.0)
    fluency = Fluency(lm=FakeLM())
    load_scorers([fluency], rep)
    (scores,) = score_games(games, [fluency], reporter=rep)
    lines = stream.getvalue().splitlines()
    assert "loading scorer fluency (smollm2): 0.0s" in lines
    sub = [line for line in lines if line.startswith("  fluency:")]
    # 599 credited turns in chunks of 256: the bar moves before the pass ends
    assert any(line.startswith("  fluency: 256/599 texts") for line in sub), lines
    assert sub[-1].startswith("  fluency: 599/599 texts") and sub[-1].endswith("(done)")
    assert scores["fluency"].raw["a"] > 0


def test_a_stalled_bar_still_prints_a_line_per_interval():
    stream, rep = plain()
    with rep.bar("playing", 10, unit="turns"):
        time.sleep(0.4)  # nothing moves (a slow server)
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 3 and all(line.startswith("playing: 0/10 turns") for line in lines)
    assert lines[-1].endswith("(stopped)")
