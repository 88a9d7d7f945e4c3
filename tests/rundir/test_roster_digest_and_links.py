"""The run directory's league record is trusted only as written: a reordered roster, a
phantom retired bot or a removed digest is refused (a format 2 run gets its digest when it
goes on); a link among the run's own files is named; a bot with no game is listed, not
ranked; keys in seed files, look-alike speakers and bad learned model files are named
before a run folder is made."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.reliability.helpers import run_cli, tournament_yaml


def _league(tmp_path: Path) -> tuple[Path, Path]:
    """A league that grew (3 bots, then bot3 added, then bot1 retired with `retired: keep`):
    (its run directory, the YAML of its last step)."""
    rd = tmp_path / "run"
    steps = [tournament_yaml(bots=3, exchanges=1), tournament_yaml(bots=4, exchanges=1)]
    kept = tournament_yaml(bots=4, exchanges=1, extra="schedule: {retired: keep}\n")
    steps.append(kept.replace("  - name: bot1\n", "  - name: gone\n", 1).replace(
        "  - name: gone\n    adapter: tests.scripted:SamplingBot\n"
        "    params: {sleep_ms: 0.0, words: 5, ask_every: 1}\n", ""))
    for i, text in enumerate(steps):
        p = tmp_path / f"step{i}.yaml"
        p.write_text(text)
        r = run_cli("run", str(p), "--out", str(rd))
        assert r.returncode == 0, r.stderr
    m = json.loads((rd / "manifest.json").read_text())
    assert m["roster"] == ["bot0", "bot1", "bot2", "bot3"] and list(m["retired"]) == ["bot1"]
    return rd, p


def _small_run(tmp_path: Path) -> tuple[Path, Path]:
    """A 3-bot, 1-exchange run: (its tournament file, its run directory)."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    return p, rd


def _edit_manifest(rd: Path, edit) -> None:  # type: ignore[no-untyped-def]
    m = json.loads((rd / "manifest.json").read_text())
    edit(m)
    (rd / "manifest.json").write_text(json.dumps(m))


def _refused_as_edited(rd: Path, yaml: Path) -> None:
    before = {f.name: f.read_bytes() for f in (rd / "transcripts").iterdir()}
    for args in (("rank", str(rd)), ("show", str(rd), "g001"), ("run", str(yaml), "--out", str(rd))):
        r = run_cli(*args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "manifest.json: its league record (roster, founders, retired) was edited" in r.stderr
        assert "undo the edit" in r.stderr and "move transcripts" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert {f.name: f.read_bytes() for f in (rd / "transcripts").iterdir()} == before


def test_a_reordered_roster_is_refused_not_blamed_on_genuine_games(tmp_path: Path) -> None:
    """N2: two roster names swapped re-mapped every stored game; rank told the user to move
    ten genuine games out. The league record's digest catches the edit."""
    rd, yaml = _league(tmp_path)

    def swap(m):  # type: ignore[no-untyped-def]
        m["roster"][0], m["roster"][1] = m["roster"][1], m["roster"][0]
    _edit_manifest(rd, swap)
    _refused_as_edited(rd, yaml)


def test_a_phantom_retired_bot_is_refused_not_ranked(tmp_path: Path) -> None:
    """N3: a bot added to the roster and to 'retired' by hand was ranked with games it never
    played."""
    rd, yaml = _league(tmp_path)

    def ghost(m):  # type: ignore[no-untyped-def]
        m["roster"].append("ghost")
        m["retired"]["ghost"] = {"adapter": "echo", "name": "ghost", "params": {}}
    _edit_manifest(rd, ghost)
    _refused_as_edited(rd, yaml)


def test_reordered_bots_of_a_run_that_never_grew_are_refused(tmp_path: Path) -> None:
    """The bots of a run that never grew are its roster: reordering them re-maps its games."""
    p, rd = _small_run(tmp_path)
    _edit_manifest(rd, lambda m: m["bots"].reverse())
    _refused_as_edited(rd, p)


def test_a_removed_league_digest_is_refused(tmp_path: Path) -> None:
    _, rd = _small_run(tmp_path)
    _edit_manifest(rd, lambda m: m.pop("league_sha256"))
    r = run_cli("rank", str(rd))
    assert r.returncode == 2 and "its league record has no league_sha256" in r.stderr, r.stderr


def test_a_format_2_run_has_no_digest_and_gets_one_when_it_goes_on(tmp_path: Path) -> None:
    """Runs written before the digest are trusted as before, and stamped by the next run."""
    p, rd = _small_run(tmp_path)

    def as_format_2(m):  # type: ignore[no-untyped-def]
        m["format"] = 2
        del m["league_sha256"]
    _edit_manifest(rd, as_format_2)
    assert run_cli("rank", str(rd)).returncode == 0
    assert "league_sha256" not in json.loads((rd / "manifest.json").read_text())  # readers never write
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    m = json.loads((rd / "manifest.json").read_text())
    assert m["format"] == 3 and len(m["league_sha256"]) == 64


@pytest.mark.parametrize("command", ["rank", "run"])
def test_a_link_among_the_runs_own_files_says_move_it_away(tmp_path: Path, command: str) -> None:
    """N11: a symbolic link at RUN/rankings/points.json was refused (good) with "give the path
    of a regular file": the user gave no path. The run's own file is named, and its link."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1, extra="ranking: {method: points}\n")
                 .replace("ranking: {method: trueskill, shuffles: 3}\n", ""))
    rd = tmp_path / "run"
    assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    link = rd / "rankings" / "points.json"
    link.unlink()
    link.symlink_to(victim)
    args = ("rank", str(rd), "--save") if command == "rank" else ("run", str(p), "--out", str(rd))
    r = run_cli(*args)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert (f"{link}: is a symbolic link, not a regular file (a link to {victim})" in r.stderr
            and f"move {link} away" in r.stderr), r.stderr
    assert "give the path" not in r.stderr
    assert victim.read_text() == "keep" and link.is_symlink()


def test_a_linked_manifest_is_never_told_to_move_away(tmp_path: Path) -> None:
    """Review 41: moving manifest.json away loses the league record (and then genuine games
    are blamed); the advice for the run's record is to put the real file back."""
    p, rd = _small_run(tmp_path)
    real = tmp_path / "manifest-copy.json"
    (rd / "manifest.json").rename(real)
    (rd / "manifest.json").symlink_to(real)
    before = real.read_bytes()
    r = run_cli("run", str(p), "--out", str(rd))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"cp --remove-destination {real} {rd / 'manifest.json'}" in r.stderr, r.stderr
    assert "away" not in r.stderr
    assert real.read_bytes() == before and (rd / "manifest.json").is_symlink()


@pytest.mark.parametrize("name, text, line", [
    ("n10.csv", "utterance,category\nhello,b\nuse sk-proj-AbCdEf0123456789AbCdEf0123456789XYZ please,a\n", 3),
    ("n10.txt", "# openers\nhello\n\nuse sk-proj-AbCdEf0123456789AbCdEf0123456789XYZ please\n", 4),
    ("n10.jsonl", '{"utterance": "hello"}\n{"utterance": "password=hunter2hunter2 ok"}\n', 2),
    # review 41: phrases the redaction rules catch only whole, not word by word
    ("n11.txt", "hello\nmy password: hunter2secret\n", 2),
    ("n10.csv", "utterance,category\nhello,sk-proj-AbCdEf0123456789AbCdEf0123456789XYZ\n", 2),
])
def test_a_key_in_a_seed_file_names_the_file_and_its_line(tmp_path: Path, name: str, text: str,
                                                           line: int) -> None:
    """N14: a key-shaped word in a seed CSV was reported at the YAML's seed_utterance line
    (`seed_utterance.categories.a.0`), the CSV not named. Nothing is written."""
    (tmp_path / name).write_text(text)
    p = tmp_path / "n10b.yaml"
    p.write_text(f"name: n10b\nbots: [eliza, echo]\nseed_utterance: {{file: {name}}}\n"
                 "exchanges: 1\nscoring: {dimensions: [proactivity]}\n")
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{tmp_path / name}:{line}: holds a word that looks like an API key" in r.stderr, r.stderr
    assert "categories" not in r.stderr and "sk-proj-AbCd" not in r.stderr and "hunter2" not in r.stderr
    assert not (tmp_path / "run").exists()


def test_look_alike_speakers_name_the_log_of_each(tmp_path: Path) -> None:
    """N15: 'ａｌｉｃｅ' in one log and 'alice' in another were refused without naming a log."""
    logs = tmp_path / "logs2"
    logs.mkdir()
    (logs / "a.txt").write_text("alice: hello\nbob: hi\nalice: how\nbob: fine\n")
    (logs / "b.txt").write_text("ａｌｉｃｅ: hello there\ncarol: hi\nａｌｉｃｅ: how are you\ncarol: fine\n")
    (tmp_path / "sc.yaml").write_text("scoring: {dimensions: [proactivity]}\nranking: {method: points}\n")
    r = run_cli("score", str(logs), "--config", str(tmp_path / "sc.yaml"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "speaker 'ａｌｉｃｅ' is 'alice' spelled with other characters" in r.stderr
    assert f"'alice' speaks in {logs / 'a.txt'}, 'ａｌｉｃｅ' in {logs / 'b.txt'}" in r.stderr, r.stderr


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_refusal_for_a_stored_score_record_comes_first_and_the_footer_names_it(
        tmp_path: Path, kind: str) -> None:
    """2.11 / 3.18: with scores/g001.json a folder (or a named pipe), run printed "0 game(s)
    to play ...; nothing to play" before refusing, and rank's INCOMPLETE footer named the
    game's files, not the score record in the way."""
    p, rd = _small_run(tmp_path)
    bad = rd / "scores" / "g001.json"
    bad.unlink()
    bad.mkdir() if kind == "folder" else os.mkfifo(bad)
    r = run_cli("rank", str(rd))
    assert ("INCOMPLETE, `chatmatch run` refuses this run directory until scores/g001.json is "
            "mended or moved out") in r.stdout, r.stdout
    r = run_cli("run", str(p), "--out", str(rd))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "scores/g001.json is " in r.stderr and "to play" not in r.stderr, r.stderr


@pytest.mark.parametrize("model", ["intercept", "fifo"])
def test_a_refused_learned_model_leaves_no_run_folder(tmp_path: Path, model: str) -> None:
    """Re-check 40, other observations: a learned model file refused (intercept out of
    bounds, a named pipe) still left RUN/ with .lock, config.yaml and manifest.json."""
    from chatmatch.scoring.learned.model import load_model
    path = tmp_path / "m.json"
    if model == "fifo":
        os.mkfifo(path)
    else:
        doc = load_model().model_dump(mode="json")
        path.write_text(json.dumps({**doc, "intercept": 1e5}))
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=1, dims=["learned"])
                 + f"  params: {{learned: {{model: {path}}}}}\n")
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"), timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and "m.json" in r.stderr, r.stderr
    assert not (tmp_path / "run").exists()


def test_a_bot_with_no_game_is_listed_not_ranked(tmp_path: Path) -> None:
    """Re-check 40's 1.5: a bot added to a league whose budget is spent plays no game and
    was shown with rank 4 below bots that lost. Its rank is '-' in rank, run and report."""
    budget = "schedule: {method: swiss, games: 4}\nranking: {method: points}\n"
    p = tmp_path / "t.yaml"
    rd = tmp_path / "run"
    for bots in (3, 4):
        p.write_text(tournament_yaml(bots=bots, exchanges=1, extra=budget)
                     .replace("ranking: {method: trueskill, shuffles: 3}\n", ""))
        r = run_cli("run", str(p), "--out", str(rd))
        assert r.returncode == 0, r.stderr
    for text in (r.stdout, run_cli("rank", str(rd)).stdout):
        rows = {line.split()[1]: (line.split()[0], line.split()[2]) for line in text.splitlines()
                if line.split()[1:2] and line.split()[1][3:].isdigit()}
        assert rows.pop("bot3")[0] == "-", text
        # the four games leave bot0 and bot1 level on points: a tie, shown as 2=
        assert sorted(rows.values()) == [("1", "2.00"), ("2=", "1.00"), ("2=", "1.00")], text
    assert run_cli("report", str(rd), "--out", str(tmp_path / "r.html")).returncode == 0
    html = (tmp_path / "r.html").read_text()
    assert "<td class='name'>-</td><td class='name'>" in html and "<td class='name'>4</td>" not in html


@pytest.mark.parametrize("method", ["elo", "trueskill", "bt"])
def test_a_bot_with_no_game_is_last_and_the_others_ranked_among_themselves(
        tmp_path: Path, method: str) -> None:
    """Review 41: with Elo a bot with no game kept its initial rating, sat mid-table and
    left a gap in the ranks ("1=, 1=, -, 4")."""
    budget = "schedule: {method: swiss, games: 4}\n"
    p = tmp_path / "t.yaml"
    rd = tmp_path / "run"
    for bots in (3, 4):
        p.write_text(tournament_yaml(bots=bots, exchanges=1, extra=budget))
        assert run_cli("run", str(p), "--out", str(rd)).returncode == 0
    text = run_cli("rank", str(rd), "--method", method).stdout
    rows = [line.split()[:2] for line in text.splitlines()
            if line.split()[1:2] and line.split()[1][3:].isdigit()]
    assert rows[-1] == ["-", "bot3"], text
    shown = [int(r[0].rstrip("=")) for r in rows[:-1]]
    assert shown[0] == 1 and max(shown) <= 3 and shown == sorted(shown), text


def test_a_bot_named_like_a_number_is_left_aligned(tmp_path: Path) -> None:
    """Re-check 40, other observations: a bot named `-1` was right-aligned in the bot column
    of rank and run tables, as if it were a number."""
    p = tmp_path / "neg.yaml"
    p.write_text('name: neg\nbots:\n  - {name: "-1", adapter: echo}\n  - {name: abcdef, adapter: eliza}\n'
                 '  - {name: "12", adapter: canned}\nseed_utterance: Hi there\nexchanges: 1\n'
                 "scoring: {dimensions: [proactivity]}\nranking: {method: points}\n")
    rd = tmp_path / "run"
    run = run_cli("run", str(p), "--out", str(rd))
    assert run.returncode == 0, run.stderr
    for text in (run.stdout, run_cli("rank", str(rd)).stdout, run_cli("show", str(rd)).stdout):
        lines = text.splitlines()
        head = next(line for line in lines if " bot " in f" {line} " or "players" in line)
        col = head.index("bot") if " bot " in f" {head} " else head.index("players")
        named = [line for line in lines if line[col:col + 2] in ("-1", "12")]
        assert len(named) >= 2, text  # both names start where the column starts


@pytest.mark.parametrize("seed", ["my password: hunter2secret", "api_key = hunter2abcdef12"])
def test_a_secret_phrase_in_the_yaml_is_refused(tmp_path: Path, seed: str) -> None:
    """Review 41: the free-text check went word by word and missed "password: ..." phrases."""
    p = tmp_path / "t.yaml"
    p.write_text(f"name: t\nbots: [eliza, echo]\nseed_utterance: '{seed}'\nexchanges: 1\n"
                 "scoring: {dimensions: [proactivity]}\n")
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "hunter2" not in r.stderr
    assert "looks like an API key or password" in r.stderr, r.stderr
    assert not (tmp_path / "run").exists()
    p.write_text(p.read_text().replace(seed, "what is your password?"))  # a question is fine
    assert run_cli("run", str(p), "--out", str(tmp_path / "run")).returncode == 0
