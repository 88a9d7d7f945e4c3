"""Two tournament names never share one folder, a renamed tournament is refused; the
annotation agreement shown lies inside its interval and tied human ranks are marked; the
footer of a ranking says what ``run`` would do with the stored games; credentials in a
``base_url`` are refused in plain words."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from chatmatch.annotate.agreement import summarize
from chatmatch.annotate.report import agreement_rows, summary_text
from chatmatch.config.tournament import load_config
from chatmatch.errors import RunDirError
from chatmatch.run.tournament import run_tournament
from tests.annotate.conftest import judgement
from tests.reliability.helpers import chatmatch_cmd, cli_env, run_cli, tournament_yaml

BOTS = ["a", "b", "c", "d"]


def _named(tmp_path: Path, file: str, name: str, bots: list[str], out: Path | None = None) -> Path:
    cfg = tmp_path / file
    cfg.write_text(f'name: "{name}"\nexchanges: 1\nscoring: {{dimensions: [proactivity]}}\n'
                   + (f"output_dir: {out}\n" if out else "") + "bots:\n"
                   + "".join(f"  - {{name: {b}, adapter: tests.scripted:SamplingBot, "
                             f"params: {{words: {3 + i}}}}}\n" for i, b in enumerate(bots)))
    return cfg


def _files(run: Path) -> dict[str, bytes]:
    return {str(f.relative_to(run)): f.read_bytes() for f in sorted(run.rglob("*"))
            if f.is_file() and f.name != ".lock"}


def _run_in(cwd: Path, cfg: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(chatmatch_cmd("run", str(cfg), "--yes"), cwd=cwd, env=cli_env(),
                          text=True, capture_output=True, timeout=120)


def test_two_names_that_give_one_folder_never_share_it(tmp_path):
    """4.7: "\U0001f600 cup" and "\U0001f642 cup" both give runs/cup; the second run took the
    first's folder over as a league (retiring its bots)."""
    first = _named(tmp_path, "a.yaml", "\U0001f600 cup", ["echo1", "canned1"])
    second = _named(tmp_path, "b.yaml", "\U0001f642 cup", ["eliza1", "canned1"])
    r = _run_in(tmp_path, first)
    assert r.returncode == 0, r.stderr
    run = tmp_path / "runs" / "cup"
    before = _files(run)
    r = _run_in(tmp_path, second)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert ("runs/cup holds the run of tournament '\U0001f600 cup', not of '\U0001f642 cup'"
            in r.stderr and "set output_dir in the YAML or pass --out NEW_DIR" in r.stderr), r.stderr
    assert "to play" not in r.stderr  # no estimate of a league that will not be played
    assert _files(run) == before
    # the same name with a bot added is a league that grows, as before
    grown = _named(tmp_path, "c.yaml", "\U0001f600 cup", ["echo1", "canned1", "eliza1"])
    r = _run_in(tmp_path, grown)
    assert r.returncode == 0 and "4 game(s) played" in r.stderr + r.stdout, r.stderr


def test_a_renamed_tournament_is_refused_in_an_explicit_folder_and_after_a_lost_manifest(tmp_path):
    out = tmp_path / "run"
    run_tournament(load_config(_named(tmp_path, "a.yaml", "one", ["x", "y"], out)), out)
    other = load_config(_named(tmp_path, "b.yaml", "two", ["x", "y"], out))
    with pytest.raises(RunDirError, match="holds the run of tournament 'one', not of 'two'"):
        run_tournament(other, out)
    (out / "manifest.json").unlink()
    with pytest.raises(RunDirError, match="holds the run of tournament 'one', not of 'two'"):
        run_tournament(other, out)


def _numbers(cell: str) -> list[float]:
    return [float(x) for x in re.findall(r"[+-]?\d+\.\d+", cell)]


def test_the_agreement_shown_lies_inside_its_interval_shown():
    """0.6: tau printed as +1.000 beside [+0.19, +0.98] (a percentile of few values short
    of the point), and +0.775 beside [+0.00, +0.77] (3 digits against 2)."""
    checked = 0
    for trial in range(120):
        rng = random.Random(trial)
        js = [judgement("ann", f"g{k:03d}", *rng.sample(BOTS, 2), rng.choice("aab"))
              for k in range(rng.randint(4, 10))]
        s = summarize(js, BOTS, "points", {"a": 1, "b": 2, "c": 2, "d": 4}, {}, "t", reps=50)
        for row in agreement_rows(s):
            tau, interval = str(row[3]), str(row[4])
            if "n/a" in (tau, interval):
                continue
            lo, hi = _numbers(interval)
            assert lo <= float(tau) <= hi, (trial, tau, interval)
            assert len(tau.split(".")[1]) == len(interval.split(",")[0].split(".")[1])
            checked += 1
        for r in s.questions[0].rows:
            assert r.low <= r.strength <= r.high and r.rank_low <= r.rank <= r.rank_high
    assert checked > 50


def test_equal_human_ranks_are_marked_like_every_other_ranking():
    js = [judgement("ann", "g001", "a", "b", "a"), judgement("ann", "g002", "a", "c", "a"),
          judgement("ann", "g003", "b", "c", "tie"), judgement("ann", "g004", "c", "b", "tie")]
    s = summarize(js, ["a", "b", "c"], "points", {"a": 1, "b": 2, "c": 3}, {}, "t", reps=0)
    assert [r.rank for r in s.questions[0].rows] == [1, 2, 2]
    table = summary_text(s).split("Human ranking")[1].split("Agreement")[0]
    assert re.search(r"^\s+2=\s+b\s", table, re.M) and re.search(r"^\s+2=\s+c\s", table, re.M), table
    assert re.search(r"^\s+1 \s+a\s", table, re.M), table


def test_the_footer_says_what_run_does_with_swapped_transcripts(tmp_path):
    """2.1: swapped g001/g002: the footer said "run again to finish" while run refuses, and
    "name it g002.jsonl" named a file that is taken."""
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=2))
    run = tmp_path / "run"
    run_tournament(load_config(cfg), run)
    t = run / "transcripts"
    (t / "g001.jsonl").rename(t / "x")
    (t / "g002.jsonl").rename(t / "g001.jsonl")
    (t / "x").rename(t / "g002.jsonl")
    r = run_cli("rank", str(run))
    assert r.returncode == 0
    assert "run again" not in r.stdout + r.stderr and "name it" not in r.stderr
    assert ("INCOMPLETE, `chatmatch run` refuses this run directory until "
            "transcripts/g001.jsonl, transcripts/g002.jsonl are mended or moved out") in r.stdout
    assert "(swapped?); swap the two file names back" in r.stderr
    refused = run_cli("run", str(cfg), "--out", str(run))
    assert refused.returncode == 2 and "swap the two file names back" in refused.stderr


def test_an_unfinished_run_that_run_can_finish_still_says_run_again(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=2))
    run = tmp_path / "run"
    run_tournament(load_config(cfg), run)
    (run / "transcripts" / "g003.jsonl").unlink()
    r = run_cli("rank", str(run))
    assert "INCOMPLETE, run again to finish" in r.stdout, r.stdout


def test_credentials_in_base_url_are_refused_in_plain_words(tmp_path):
    """5.2: the refusal named the host, "(127.0.0.1)", as if it were the credential."""
    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: s\nexchanges: 1\nbots:\n  - name: r\n    adapter: openai-chat\n"
                   "    params: {model: m, base_url: 'http://user:sekrit-passw0rd@127.0.0.1:9/v1'}\n"
                   "  - eliza\n")
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "(127.0.0.1)" not in r.stderr and "sekrit" not in r.stderr and "user:" not in r.stderr.replace("'user:password@'", "")
    assert ("holds a user name or password (the 'user:password@' part before its host); "
            "credentials in a URL are refused") in r.stderr
    assert "params.api_key_env" in r.stderr and not (tmp_path / "run").exists()
