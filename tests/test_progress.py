"""The progress API (chatmatch.progress): plain lines off a terminal, rich on one, quiet."""

import io
import math
import threading
import time
import types
from typing import Callable

import pytest

from chatmatch import progress
from chatmatch.progress import Reporter, fmt_duration


class Clock:
    """What the reporter reads as ``time.monotonic()``: moved by the test, not by sleeping.
    (Its background lines still come after real ``min_step_s`` and ``interval_s`` waits.)"""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(progress, "time", types.SimpleNamespace(monotonic=c.monotonic))
    return c


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Poll until ``condition()`` (a background line was written), at most 30 s."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def plain(interval_s: float = 0.05) -> tuple[io.StringIO, Reporter]:
    stream = io.StringIO()
    return stream, Reporter(stream, interval_s=interval_s, min_step_s=0.1)


def test_a_slow_step_prints_a_start_and_an_end_line_a_quick_one_nothing(clock):
    stream, rep = plain()
    with rep.step("loading quick"):
        pass
    with rep.step("loading smollm2"):
        wait_for(lambda: stream.getvalue(), "the start line")
        clock.now += 0.3
    assert stream.getvalue().splitlines() == ["loading smollm2 ...", "loading smollm2: 0.3s"]


def test_a_bar_prints_sparse_plain_lines_and_a_last_one(clock):
    stream, rep = plain(interval_s=3600)
    with rep.bar("playing", 40, unit="turns") as bar:
        for i in range(40):
            clock.now += 0.01
            bar.advance(detail=f"{i // 10}/4 games")
            if i == 19:  # half way: the first line comes once the bar has lasted min_step_s
                wait_for(lambda: stream.getvalue(), "the first line")
    text = stream.getvalue()
    assert "\r" not in text and "\x1b" not in text  # no redraws, no colours: a log file
    # a line per interval (one here) and a last one, not one per update (40)
    first, last = text.splitlines()
    assert first.startswith("playing: ") and ", ETA " in first, first
    assert last == "playing: 40/40 turns (3/4 games), elapsed 0.4s (done)"


def test_a_quick_bar_leaves_no_line():
    stream, rep = plain()
    with rep.bar("scoring 8 games", 3, unit="steps") as bar:
        bar.advance(3)
    assert stream.getvalue() == ""


def test_quiet_prints_nothing_at_all(clock):
    stream = io.StringIO()
    rep = Reporter(stream, quiet=True, min_step_s=0.0)
    with rep.step("loading"):
        clock.now += 0.05
    with rep.bar("playing", 2) as bar:
        bar.advance(2)
    rep.note("hello")
    assert list(rep.track([1, 2], "x")) == [1, 2]
    assert stream.getvalue() == ""


def test_on_a_terminal_rich_draws_the_steps_and_bars(clock):
    stream = io.StringIO()
    rep = Reporter(stream, terminal=True, min_step_s=0.05)
    with rep.step("loading smollm2"):
        clock.now += 0.1
    with rep.bar("playing", 4, unit="turns") as bar:
        bar.advance(4, detail="2/2 games")
    out = stream.getvalue()
    assert "loading smollm2" in out and "playing" in out and "4/4" in out and "2/2 games" in out


def test_the_eta_counts_from_the_bar_not_from_work_done_before(clock):
    stream, rep = plain()
    with rep.bar("playing", 10, done=5) as bar:  # 5 done before (a resumed run)
        clock.now += 0.1
        bar.advance()
        eta = bar.eta()
    # 1 unit in 0.1 s, 4 left: 0.4 s (not 0.1 s / 6 units * 4)
    assert eta == pytest.approx(0.4)


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
    assert fmt_duration(20, about=True) == "under a minute"
    assert fmt_duration(300, about=True) == "about 5 min"
    assert fmt_duration(7500, about=True) == "about 2h05m"
    assert fmt_duration(3 * 86400 + 4 * 3600, about=True) == "about 3d04h"


def test_a_failed_step_says_so(clock):
    stream, rep = plain()
    try:
        with rep.step("loading broken"):
            raise ValueError("no model")
    except ValueError:
        pass
    assert stream.getvalue() == "loading broken: failed after 0.0s\n"


def test_a_model_scorer_gets_its_own_bar_counting_what_it_scores(clock):
    from chatmatch.scoring.engine import load_scorers, score_games
    from chatmatch.scoring.fluency import Fluency
    from chatmatch.transcript import Transcript, Turn

    stream = io.StringIO()

    class FakeLM:
        name, vocab_size = "fake", 100
        chunks = 0

        def perplexities(self, texts):
            if self.chunks == 1:  # the bar has moved before the pass ends
                wait_for(lambda: "  fluency: 256/599 texts" in stream.getvalue(), "256/599")
            self.chunks += 1
            return [float(len(t)) for t in texts]

    turns = tuple(Turn(i, "ab"[i % 2], f"turn number {i}", 0.0, seed=i == 0) for i in range(600))
    games = [Transcript("g1", ("a", "b"), turns, turns[0].text, {})]
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
    assert math.isfinite(scores["fluency"].raw["a"])  # slor: a log ratio, any sign


def test_a_stalled_bar_still_prints_a_line_per_interval(clock):
    stream, rep = plain()
    with rep.bar("playing", 10, unit="turns"):  # nothing moves (a slow server)
        wait_for(lambda: len(stream.getvalue().splitlines()) >= 3, "three lines")
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 3 and all(line.startswith("playing: 0/10 turns") for line in lines)
    assert lines[-1].endswith("(stopped)")


def test_a_bar_of_unequal_steps_shows_no_eta_rather_than_a_wrong_one(clock):
    stream, rep = plain(interval_s=3600)
    with rep.bar("scoring 42 games", 8, unit="steps", estimate=False) as bar:
        clock.now += 1.0
        bar.advance()  # a quick step first: counting steps would promise 7 s more
        assert bar.eta() is None
        assert "ETA" not in bar.line()
    with rep.bar("  fluency", 10, unit="texts") as sub:  # units of one kind keep theirs
        clock.now += 1.0
        sub.advance()
        assert sub.eta() == pytest.approx(9.0)
        assert "ETA 9.0s" in sub.line()


def test_the_scoring_steps_bar_shows_no_eta_the_lm_bar_does(clock):
    from chatmatch.scoring.engine import score_games
    from chatmatch.scoring.fluency import Fluency
    from chatmatch.transcript import Transcript, Turn

    stream = io.StringIO()

    class SlowLM:  # each chunk of texts takes 10 (fake) seconds
        name, vocab_size = "slow", 100
        calls = 0

        def perplexities(self, texts):
            self.calls += 1
            if self.calls > 1:  # the first chunk done: the fluency bar has an ETA
                wait_for(lambda: "ETA" in stream.getvalue(), "a line of the fluency bar")
            clock.now += 10.0
            return [float(len(t)) for t in texts]

    turns = tuple(Turn(i, "ab"[i % 2], f"turn number {i}", 0.0, seed=i == 0) for i in range(600))
    games = [Transcript("g1", ("a", "b"), turns, turns[0].text, {})]
    rep = Reporter(stream, interval_s=0.0, min_step_s=0.0)
    score_games(games, [Fluency(lm=SlowLM())], reporter=rep)
    lines = stream.getvalue().splitlines()
    steps = [line for line in lines if line.startswith("scoring 1 game")]
    assert steps and not any("ETA" in line for line in steps), lines
    assert any(line.startswith("  fluency:") and "ETA" in line for line in lines), lines


def test_the_cli_does_not_import_tqdm_before_main_sets_tqdm_disable():
    # tqdm reads TQDM_DISABLE once, on import: imported before main() sets it, transformers'
    # "Converting and de-quantizing GGUF tensors" bar would print under --quiet
    import subprocess
    import sys

    code = "import sys, chatmatch.cli; print('tqdm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
