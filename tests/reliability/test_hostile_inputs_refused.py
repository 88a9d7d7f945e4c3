"""Hostile inputs are refused or redone, in one line, before anything is written: an
n-gram or embedding cache with impossible numbers is computed again; a file chatmatch
writes never replaces a link, a named pipe or a device; a key in free text of the
tournament file, a learned model file that is a pipe, an edited stored config, roster or
budget, odd seed categories and log speakers are named; tables never print equal numbers
for points that order them."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from chatmatch.errors import ChatmatchError, StorageError
from chatmatch.rundir.store import atomic_write
from chatmatch.runtime import ngram
from tests.reliability.helpers import run_cli, tournament_yaml

KEY = "sk-proj-Zq81abcdEFGH2345ijkl"


@pytest.mark.parametrize("damage", ["nan-discount", "negative-count", "unsorted-keys"])
def test_an_ngram_cache_with_impossible_numbers_is_trained_again(tmp_path, monkeypatch, damage):
    """7.3: a NaN discount was trusted: every perplexity became null and the ranking flipped."""
    lm = ngram.NgramLM.train(["hello there my friend", "how are you my friend"] * 3)
    arrays = dict(lm.a)
    if damage == "nan-discount":
        arrays["discount"] = np.array(float("nan"))
    elif damage == "negative-count":
        arrays["cont1"] = arrays["cont1"] - 5
    else:
        arrays["tri_keys"] = arrays["tri_keys"][::-1].copy()
    np.savez(tmp_path / ngram.CACHE_NAME, **arrays)
    made = []

    def train(cls, texts, **kw):  # a stand-in: training on the real corpus takes a minute
        made.append(kw)
        return lm

    monkeypatch.setattr(ngram.NgramLM, "train", classmethod(train))
    monkeypatch.setattr(ngram, "chitchat_texts", lambda: ["a b c"])
    got = ngram.chitchat_ngram_lm(tmp_path)
    assert len(made) == 1 and got is lm
    assert all(p is not None and np.isfinite(p) for p in got.perplexities(["hello my friend"]))


def test_a_saved_ngram_model_loads_back(tmp_path):
    lm = ngram.NgramLM.train(["hello there my friend", "how are you my friend"] * 3)
    lm.save(tmp_path / "m.npz")
    again = ngram.NgramLM.load(tmp_path / "m.npz")
    assert again.perplexities(["how are you"]) == lm.perplexities(["how are you"])


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_written_file_never_replaces_a_link_or_a_pipe(tmp_path, kind):
    """3.12: report --out /dev/full replaced the device by a regular file; a link or a named
    pipe given to --out or --export was replaced the same way."""
    target = tmp_path / "target.html"
    target.write_text("mine")
    out = tmp_path / "out.html"
    if kind == "symlink":
        out.symlink_to(target)
    else:
        os.mkfifo(out)
    with pytest.raises(StorageError, match="not a regular file"):
        atomic_write(out, "x")
    assert (out.is_symlink() if kind == "symlink" else out.is_fifo())
    assert target.read_text() == "mine"


def test_report_out_a_link_is_refused_and_left_alone(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=2, exchanges=1))
    assert run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "--yes").returncode == 0
    link = tmp_path / "r.html"
    link.symlink_to(tmp_path / "elsewhere.html")
    r = run_cli("report", str(tmp_path / "run"), "--out", str(link))
    assert r.returncode == 2 and "is a symbolic link, not a regular file" in r.stderr
    assert link.is_symlink() and not (tmp_path / "elsewhere.html").exists()


@pytest.mark.parametrize("where, text, path", [
    ("description", f"description: 'ours, key {KEY}'\n", "description"),
    ("seed", f"seed_utterance: 'Hello {KEY}'\n", "seed_utterance"),
    ("persona", None, "bots.1.params.persona"),
    ("stop", None, "bots.1.params.stop.1"),
    ("name", None, "bots.2.name"),
])
def test_a_key_in_free_text_is_refused_before_anything_is_written(tmp_path, where, text, path):
    """5.5, 5.10, 5.15: a key inside a persona, a stop word, the description, a bot name or
    a seed utterance was written to config.yaml."""
    params = {"persona": f"persona: 'You are kind. {KEY}'",
              "stop": f"stop: ['bye', '{KEY}']"}.get(where, "persona: 'You are kind.'")
    third = KEY if where == "name" else "third"
    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: s\nexchanges: 1\nscoring: {dimensions: [proactivity]}\n" + (text or "")
                   + "bots:\n  - {name: a, adapter: eliza}\n"
                   + f"  - {{name: b, adapter: smollm2, params: {{{params}}}}}\n"
                   + f"  - {{name: {third}, adapter: canned}}\n")
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "--yes")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{path}: holds a word that looks like an API key or password" in r.stderr, r.stderr
    assert "Zq81" not in r.stderr + r.stdout and not (tmp_path / "run").exists()


def test_ordinary_free_text_is_not_taken_for_a_key(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: s\nexchanges: 1\ndescription: basic knowledge, token of thanks\n"
                   "scoring: {dimensions: [proactivity]}\nbots:\n  - {name: a, adapter: eliza}\n"
                   "  - {name: b, adapter: canned}\n")
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "--yes")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_learned_model_file_that_is_a_pipe_or_a_device_is_one_line(tmp_path, kind):
    """3.13 (hang) and 3.14 (MemoryError traceback): the model file was read unbounded."""
    from chatmatch.runtime.errors import ScoringError
    from chatmatch.scoring.learned.model import load_model

    path = tmp_path / "model.json"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    with pytest.raises(ScoringError, match="cannot be read .(a named pipe|a device), not a regular file"):
        load_model(path)


def _scored_run(tmp_path: Path) -> Path:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=2))
    assert run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "--yes").returncode == 0
    return tmp_path / "run"


def test_an_edited_scoring_block_of_the_stored_config_is_named(tmp_path):
    """2.4: weights edited in RUN/config.yaml: rank/show used the old points without a word,
    while run scores again."""
    from chatmatch.run.storedrun import Run

    run = _scored_run(tmp_path)
    assert not Run.load(run).store.warnings
    cfg = run / "config.yaml"
    cfg.write_text(cfg.read_text().replace("weights: {}", "weights: {diversity: 5.0}"))
    for cmd in ("rank", "show"):
        r = run_cli(cmd, str(run))
        assert r.returncode == 0 and "config.yaml: its scoring settings were edited after " \
            "`chatmatch run` wrote it; the points shown are those the games were scored with" in r.stderr


@pytest.mark.parametrize("edited", [10, 4])
def test_the_scheduled_count_comes_from_the_schedule_not_the_manifest(tmp_path, edited):
    """2.5: manifest expected_games edited: '6 of 10 scheduled: INCOMPLETE', or complete
    with 4 expected."""
    import json

    run = _scored_run(tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m["expected_games"] = edited
    (run / "manifest.json").write_text(json.dumps(m))
    r = run_cli("rank", str(run), "--json")
    doc = json.loads(r.stdout)
    assert (doc["games"], doc["expected_games"], doc["complete"]) == (6, 6, True)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_an_embedding_cache_row_of_nan_or_infinite_numbers_is_dropped(tmp_path, monkeypatch, bad):
    """7.5: rows set to NaN vectors were trusted and changed the learned scores."""
    import sqlite3

    from chatmatch.runtime.embed_cache import SWITCH_ENV, EmbeddingStore

    monkeypatch.setenv(SWITCH_ENV, "1")

    path = tmp_path / "e.sqlite"
    good = np.arange(1, 9, dtype=np.float32)
    EmbeddingStore(lambda: "k", path).put({"a": good, "b": good})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE ppl SET value = ?", (np.full(8, bad, dtype="<f4").tobytes(),))
    assert EmbeddingStore(lambda: "k", path).get(["a", "b"]) == {}
    EmbeddingStore(lambda: "k", path).put({"a": np.full(8, bad, dtype=np.float32)})
    assert EmbeddingStore(lambda: "k", path).get(["a"]) == {}  # never written either


def test_seed_categories_that_are_one_name_are_refused(tmp_path):
    """4.5: categories 'q' and a full-width 'ｑ' (one name for bot names) were two categories."""
    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: s\nexchanges: 1\nbots: [eliza, canned]\nscoring: {dimensions: [proactivity]}\n"
                   "seed_utterance:\n  categories:\n    q: ['How are you?']\n"
                   "    \uff51: ['What is new?']\n")
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "--yes")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "seed category '\uff51' is 'q' spelled with other characters" in r.stderr, r.stderr
    assert not (tmp_path / "run").exists()


def test_log_speakers_that_are_one_name_are_refused(tmp_path):
    """4.6: speakers 'ａｌｉｃｅ' and 'alice' were ranked as two speakers."""
    (tmp_path / "a.txt").write_text("alice: hi there\nbob: hello, how are you?\n")
    (tmp_path / "b.txt").write_text("\uff41\uff4c\uff49\uff43\uff45: hi again\nbob: fine thanks\n")
    (tmp_path / "s.yaml").write_text("scoring: {dimensions: [proactivity]}\n")
    r = run_cli("score", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--config",
                str(tmp_path / "s.yaml"))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "'alice' spelled with other characters" in r.stderr, r.stderr


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_score_record_that_is_not_a_file_is_named_and_run_says_the_same(tmp_path, kind):
    """2.11, 3.18: scores/GID.json a folder or a named pipe: rank said "missing or
    unreadable ... scores the game again", then run failed to write there (or replaced it)."""
    run = _scored_run(tmp_path)
    path = run / "scores" / "g002.json"
    path.unlink()
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    what = "a folder" if kind == "folder" else "a named pipe"
    said = f"scores/g002.json is {what}, not a regular file"
    advice = "`chatmatch run` refuses this run directory for it: move scores/g002.json out"
    r = run_cli("rank", str(run))
    assert r.returncode == 0 and said in r.stderr and advice in r.stderr, r.stderr
    r = run_cli("run", str(tmp_path / "t.yaml"), "--out", str(run), "--yes")
    assert r.returncode == 2 and said in r.stderr and advice in r.stderr, r.stderr
    assert path.is_dir() if kind == "folder" else path.is_fifo()


def test_damaged_result_lines_are_named_in_plain_words(tmp_path):
    """2.6: the reasons were Python internals ('record', 'list indices must be integers or
    slices, not str') and every line was said to name "that game"."""
    run = _scored_run(tmp_path)
    with open(run / "results.jsonl", "ab") as fh:
        fh.write(b'{}\n\x00\x01binary\xff\n[1,2]\n')
    r = run_cli("rank", str(run))
    assert r.returncode == 0 and "Traceback" not in r.stderr
    said = [x for x in r.stderr.splitlines() if "damaged result line" in x]
    assert len(said) == 3 and all("it names no game, and `chatmatch run` removes it" in x
                                  for x in said), said
    assert "(not a result record: no 'record' and 'sha256')" in said[0]
    assert "(not JSON: torn or edited)" in said[1]
    assert "list indices" not in r.stderr and "('record')" not in r.stderr


def test_a_bot_added_to_a_spent_budget_is_named(tmp_path):
    """1.5: a bot added to a league whose budget is spent played no game and was listed last
    without a word."""
    base = ("name: b\nexchanges: 1\nseed: 1\nscoring: {dimensions: [proactivity]}\n"
            "schedule: {method: swiss, games: 4}\nbots: [eliza, echo, canned")
    (tmp_path / "a.yaml").write_text(base + "]\n")
    (tmp_path / "b.yaml").write_text(base + ", random-line]\n")
    out = str(tmp_path / "run")
    assert run_cli("run", str(tmp_path / "a.yaml"), "--out", out, "--yes").returncode == 0
    r = run_cli("run", str(tmp_path / "b.yaml"), "--out", out, "--yes")
    assert r.returncode == 0
    assert ("note: the game budget (schedule.games: 4) is spent, so random-line play(s) no "
            "game") in r.stderr and "raise schedule.games" in r.stderr, r.stderr


def test_edited_play_settings_of_the_stored_config_are_named_before_the_games(tmp_path):
    """Found re-attacking the shape check: exchanges edited in RUN/config.yaml made every
    game "cut short, or copied from a run with other exchanges?"; the edit is named first."""
    run = _scored_run(tmp_path)
    cfg = run / "config.yaml"
    cfg.write_text(cfg.read_text().replace("exchanges: 2", "exchanges: 5"))
    r = run_cli("rank", str(run))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "config.yaml: its play settings (bots, seed utterances, exchanges, seed) were edited " \
        "after `chatmatch run` wrote it" in r.stderr.splitlines()[0], r.stderr


@pytest.mark.parametrize("intercept", [1e5, -11.0])
def test_a_learned_model_with_a_far_intercept_is_refused_not_a_tie_everywhere(intercept):
    """The stop-40 attack's 0.2: a model file whose intercept is 1e5 made every game a tie
    (both sides near 1e5, their difference inside the relative tie tolerance)."""
    import json
    from chatmatch.scoring.learned.model import dump_model, load_model, parse_model
    doc = json.loads(dump_model(load_model()))
    doc["intercept"] = intercept
    with pytest.raises(ChatmatchError, match=r"intercept .* is outside \[-10, \+10\]") as exc:
        parse_model(json.dumps(doc), "m.json")
    assert "\n" not in str(exc.value)
    doc["intercept"] = 9.5  # near the bound is still a model
    assert parse_model(json.dumps(doc), "m.json").intercept == 9.5


def _run_with_categories(tmp_path: Path, names: str) -> Path:
    """A 3-bot, 1-exchange run whose seed set has one utterance per category in ``names``."""
    seeds = tmp_path / "seeds.csv"
    seeds.write_text("utterance,category\n" + "".join(f"u{i},{c}\n" for i, c in enumerate(names)))
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1).replace(
        "seed_utterance: ['What did you do last week?', 'Hello there!']",
        f"seed_utterance: {{file: {seeds}}}"))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    return rd


def test_a_bot_without_games_in_a_seed_category_has_no_rank_there(tmp_path):
    """The stop-40 attack's 1.12: three categories over three matches; a bot that opened no
    game of category ``a`` was ranked 3rd in it. It is not ranked there ("-")."""
    import json
    rd = _run_with_categories(tmp_path, "abc")
    doc = json.loads(run_cli("rank", str(rd), "--json").stdout)
    cats = doc["seed_categories"]
    assert set(cats) == {"a", "b", "c"}
    for cat, ranking in cats.items():
        ranked = {row["bot"] for row in ranking["ranking"]}
        assert len(ranked) == 2, (cat, ranked)  # one match of two bots a category
        assert all(row["games"] > 0 for row in ranking["ranking"]), cat
    text = run_cli("rank", str(rd)).stdout
    rows = [line.split() for line in text.splitlines() if line.split()[:1] in (["bot0"], ["bot1"], ["bot2"])]
    assert rows and all(row[-3:].count("-") == 1 for row in rows[-3:]), text


def test_a_roster_edited_by_hand_is_named_not_blamed_on_genuine_games(tmp_path):
    """The stop-40 attack's 2.15: a bot that never played, added to manifest.json's roster,
    re-mapped the league schedule: rank dropped two genuine games and said to move their
    transcripts out. The manifest's own contradiction is named, by readers and by run."""
    import json
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    m = json.loads((rd / "manifest.json").read_text())
    m["roster"] = [*m["bots"], "ghost"]
    (rd / "manifest.json").write_text(json.dumps(m))
    before = sorted((rd / "transcripts").iterdir())
    for args in (("rank", str(rd)), ("run", str(p), "--out", str(rd))):
        r = run_cli(*args)
        assert r.returncode != 0 and "Traceback" not in r.stderr
        assert "'ghost' in the 'roster' but neither among its 'bots' nor 'retired'" in r.stderr, r.stderr
        assert "move transcripts" not in r.stderr
    assert sorted((rd / "transcripts").iterdir()) == before


def test_a_budget_above_the_round_robin_says_all_games_are_played(tmp_path):
    """The stop-40 attack's 1.3: games: 100 with 3 bots silently played the 6 games of the
    round-robin. Run says so (a budget may leave room for bots added later)."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1, extra="schedule: {method: random, games: 100}\n"))
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"))
    assert r.returncode == 0, r.stderr
    assert ("note: schedule.games: 100 is more than the 6 games of the full round-robin of "
            "these 3 bots, so all 6 are played") in r.stderr
    q = tmp_path / "six.yaml"
    q.write_text(tournament_yaml(bots=3, exchanges=1, extra="schedule: {method: random, games: 6}\n"))
    r = run_cli("run", str(q), "--out", str(tmp_path / "run2"))
    assert r.returncode == 0 and "is more than" not in r.stderr


@pytest.mark.parametrize("base, url", [
    ("http://127.0.0.1:9/v1?x=1", "http://127.0.0.1:9/v1/models?x=1"),
    ("http://h/openai/deployments/d/v1?api-version=2024-06-01",
     "http://h/openai/deployments/d/v1/models?api-version=2024-06-01"),
    ("http://127.0.0.1:9/v1#top", "http://127.0.0.1:9/v1/models"),
    ("http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1/models")])
def test_a_path_is_added_before_the_query_of_base_url(base, url):
    """The stop-40 attack's 5.7: base_url '.../v1?x=1' was accepted and requests went to
    '.../v1?x=1/models' (the path inside the query). A query (Azure's ?api-version=) is kept
    after the path; a fragment is never sent."""
    from chatmatch.endpoints.client import endpoint_url
    assert endpoint_url(base, "models") == url


def test_a_budget_written_with_an_exponent_is_a_number(tmp_path):
    """The stop-40 attack's 1.6: 'games: 1e9' (text to YAML) got 'unable to parse string as
    an integer'. A whole number written with an exponent is taken as that number, so the
    message is about its size; 1e3 works."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1, extra="schedule: {method: random, games: 1e9}\n"))
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "parse string" not in r.stderr and "10000000" in r.stderr, r.stderr
    from chatmatch.config.league import ScheduleConfig
    assert ScheduleConfig(method="random", games="1e3").games == 1000  # type: ignore[arg-type]


def test_points_that_order_a_table_never_print_equal(tmp_path):
    """The stop-40 attack's 0.3: 'rank --points 1e-7/0/0' printed 0.00 in every pts cell
    while the bots got ranks 1, 2, 3=. A value that is not 0 but would print as 0.00 is
    printed with two significant digits."""
    from chatmatch.common.tables import fmt, render_table
    assert fmt(2e-7) == "2e-07" and fmt(0.0) == "0.00" and fmt(1.234) == "1.23"
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=2))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    r = run_cli("rank", str(rd), "--method", "points", "--points", "1e-7/0/0", "--tie-break", "none")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if line.split()[1:2] in (["bot0"], ["bot1"], ["bot2"])]
    assert len(rows) == 3, r.stdout
    # rank, bot, pts, mW, mT, mL, ...: a bot that won a match has points that are not 0,
    # and they are printed so (equal match points are then ordered by game points, as
    # documented)
    assert any(int(row[3]) > 0 for row in rows), r.stdout
    for row in rows:
        assert (row[2] == "0.00") == (int(row[3]) == 0), r.stdout
    assert render_table(["x"], [[1e-7]]).splitlines()[-1].strip() == "1e-07"


def test_seed_categories_that_open_no_match_are_named(tmp_path):
    """The stop-40 attack's 1.13: five categories over three matches; the per-category table
    had no word about the two categories that opened no match."""
    import json
    rd = _run_with_categories(tmp_path, "abcde")
    doc = json.loads(run_cli("rank", str(rd), "--json").stdout)
    idle = doc["seed_categories_without_a_match"]
    assert len(idle) == 2 and not set(idle) & set(doc["seed_categories"])
    assert set(idle) | set(doc["seed_categories"]) == set("abcde")
    text = run_cli("rank", str(rd)).stdout
    assert f"note: seed categories {', '.join(idle)} open no match" in text


def test_a_refused_resume_prints_no_header_or_count_first(tmp_path):
    """The stop-40 attack's 2.12: a resume that run refuses (the seed set changed) first
    printed '4 bots, 6 matches, 12 games ... 0 game(s) to play; nothing to play'."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    p.write_text(tournament_yaml(bots=3, exchanges=1).replace("Hello there!", "Hi again!"))
    r = run_cli("run", str(p), "--out", str(rd))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Tournament 'reliability'" not in r.stderr and "to play" not in r.stderr, r.stderr
    assert r.stderr.strip().startswith("error:"), r.stderr


def test_the_footer_of_a_run_refused_for_a_score_record_names_the_game_not_its_transcript(tmp_path):
    """The re-check of stop 40 (2.11): with scores/g001.json a folder, the warning named it
    but the INCOMPLETE footer said run refuses 'until transcripts/g001.jsonl is mended'."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    (rd / "scores" / "g001.json").unlink()
    (rd / "scores" / "g001.json").mkdir()
    r = run_cli("rank", str(rd))
    assert "scores/g001.json" in r.stderr and "transcripts/g001.jsonl" not in r.stdout, r.stdout
    assert "until scores/g001.json is mended or moved out" in r.stdout, r.stdout


def test_plot_never_writes_through_a_link_in_its_folder(tmp_path):
    """The re-check of stop 40 (N9): with pl/ranks.svg a symbolic link to another file,
    `plot --out pl` overwrote that file with the SVG, silently. Plots are written like
    every other file: a link is refused and the file it points to is left as it was."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    out = tmp_path / "pl"
    assert run_cli("plot", str(rd), "--out", str(out)).returncode == 0
    names = sorted(f.name for f in out.iterdir())
    assert "ranks.svg" in names and "ranks.png" in names
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (out / "ranks.svg").unlink()
    (out / "ranks.svg").symlink_to(victim)
    r = run_cli("plot", str(rd), "--out", str(out))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "ranks.svg: is a symbolic link, not a regular file" in r.stderr, r.stderr
    assert victim.read_text() == "keep me"


def test_a_seed_category_with_surrounding_spaces_is_refused(tmp_path):
    """The re-check of stop 40 (N5): categories ' q' and 'q' were two columns that both
    printed as 'q'. A category name follows the bot-name rule: no surrounding spaces."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1).replace(
        "seed_utterance: ['What did you do last week?', 'Hello there!']",
        "seed_utterance: {categories: {' q': [u1], q: [u2]}}"))
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "category ' q': starts or ends with a space; remove it" in r.stderr, r.stderr
    assert not (tmp_path / "run").exists()
