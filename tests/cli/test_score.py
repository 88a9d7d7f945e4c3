"""`chatmatch score`: score logs made elsewhere, rank every speaker, no bot run."""

import json

from click.testing import CliRunner

from chatmatch.cli import cli

# every question counts (questions: all): these tests check the output, not which questions
# are on topic in two-line logs
CFG = ("scoring:\n  dimensions: [proactivity, specificity, diversity]\n"
       "  params:\n    proactivity: {questions: all}\nranking: {method: points}\n")


def logs(tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    # alice asks 2 questions, bob none; bob's words are all distinct (specificity 1.0)
    (d / "a.txt").write_text("alice: What did you do last week?\nbob: I went to Paris.\n"
                             "alice: Did you like it?\nbob: Yes, very much.\n")
    (d / "b.jsonl").write_text(
        '{"type": "game", "game_id": "x", "players": ["bob", "carol"]}\n'
        '{"type": "turn", "speaker": "bob", "text": "Hello, how are you?"}\n'
        '{"type": "turn", "speaker": "carol", "text": "ok ok ok ok"}\n')
    (d / "c.jsonl").write_text(json.dumps({"dialog": [[{"id": "carol", "text": "Hi?"},
                                                      {"id": "alice", "text": "Hello there"}]]}) + "\n")
    (tmp_path / "cfg.yaml").write_text(CFG)
    return d


def test_json_output_has_games_raw_points_and_ranking(tmp_path):
    d = logs(tmp_path)
    res = CliRunner().invoke(cli, ["score", str(d), "--config", str(tmp_path / "cfg.yaml"), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert len(doc["games"]) == 3 and doc["method"] == "points"
    g = next(x for x in doc["games"] if x["players"] == ["alice", "bob"])
    assert g["file"] == str(d / "a.txt")
    # proactivity is the share of a bot's turns that ask (default since issue 20): alice asks in both
    assert g["raw"]["alice"]["proactivity"] == 1.0 and g["raw"]["bob"]["proactivity"] == 0.0
    assert g["points"]["alice"]["proactivity"] == 1.0 and g["points"]["bob"]["proactivity"] == 0.0
    assert g["raw"]["bob"]["specificity"] == 1.0
    assert {r["bot"] for r in doc["ranking"]} == {"alice", "bob", "carol"}
    assert [r["rank"] for r in doc["ranking"]][0] == 1


def test_out_writes_a_run_directory_that_rank_accepts(tmp_path):
    d = logs(tmp_path)
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["score", str(d), "--config", str(tmp_path / "cfg.yaml"),
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert len(list((out / "transcripts").glob("*.jsonl"))) == 3
    res = CliRunner().invoke(cli, ["rank", str(out), "--method", "trueskill", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["games"] == 3
    res = CliRunner().invoke(cli, ["show", str(out), "a"])  # a.txt keeps its name
    assert res.exit_code == 0 and "question" in res.stdout


def test_malformed_file_is_skipped_with_its_name_and_line_or_refused_with_strict(tmp_path):
    d = logs(tmp_path)
    (d / "bad.txt").write_text("alice: hi\nbob: yo\nNote: a third speaker, not indented\n")
    cfg = str(tmp_path / "cfg.yaml")
    res = CliRunner().invoke(cli, ["score", str(d), "--config", cfg])
    assert res.exit_code == 0
    assert f"warning: skipped {d / 'bad.txt'}:3:" in res.output
    res = CliRunner().invoke(cli, ["score", str(d), "--config", cfg, "--strict"])
    assert res.exit_code == 2 and f"error: {d / 'bad.txt'}:3:" in res.output
    assert "Traceback" not in res.output


def test_nothing_readable_is_a_clear_error(tmp_path):
    (tmp_path / "x.txt").write_text("just one line\n")
    res = CliRunner().invoke(cli, ["score", str(tmp_path / "x.txt")])
    assert res.exit_code == 2 and "no game found" in res.output


def test_bad_config_names_file_and_key(tmp_path):
    d = logs(tmp_path)
    (tmp_path / "bad.yaml").write_text("scoring:\n  dimensions: [proactivty]\n")
    res = CliRunner().invoke(cli, ["score", str(d), "--config", str(tmp_path / "bad.yaml")])
    assert res.exit_code == 2
    assert "bad.yaml:2: scoring.dimensions" in res.output and "Did you mean: proactivity" in res.output


def test_learned_judge_scores_ranks_and_shows_why(tmp_path):
    """The learned judge through score, rank and show: a game is decided by it alone."""
    d = logs(tmp_path)
    (tmp_path / "learned.yaml").write_text("scoring:\n  dimensions: [learned]\n")
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["score", str(d), "--config", str(tmp_path / "learned.yaml"),
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["rank", str(out), "--method", "trueskill", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["games"] == 3
    res = CliRunner().invoke(cli, ["show", str(out), "a"])
    assert res.exit_code == 0, res.output
    assert "learned judge: alice scores" in res.stdout and "most:" in res.stdout
    assert "learned" in res.stdout.split("dimension")[-1]  # the points table names it


def test_games_keep_their_sources_names_and_the_list_shows_the_file(tmp_path):
    d = logs(tmp_path)
    (d / "sub").mkdir()
    (d / "sub" / "a.txt").write_text("dave: hi there\nerin: hello you\n")  # a second 'a'
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["score", str(d), "--config", str(tmp_path / "cfg.yaml"),
                                   "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    ids = {g["file"]: g["game_id"] for g in doc["games"]}
    assert ids == {str(d / "a.txt"): "a", str(d / "b.jsonl"): "x", str(d / "c.jsonl"): "c-1",
                   str(d / "sub" / "a.txt"): "a-2"}
    assert {g["source_id"] for g in doc["games"]} >= {str(d / "a"), "x"}
    res = CliRunner().invoke(cli, ["show", str(out)])
    assert res.exit_code == 0, res.output
    row = next(ln for ln in res.stdout.splitlines() if ln.startswith("c-1 "))
    assert row.rstrip().endswith(f"{d / 'c.jsonl'}:1")
    assert "source" in res.stdout.splitlines()[0]
    res = CliRunner().invoke(cli, ["show", str(out), "a-2"])
    assert res.exit_code == 0 and "dave" in res.stdout


def test_a_reply_over_several_lines_is_one_turn(tmp_path):
    (tmp_path / "chat.txt").write_text(
        "alice: What did you do?\nbob: I went to Paris.\n  It rained: every day.\n"
        "And the food was good\n\nalice: Nice!\n")
    res = CliRunner().invoke(cli, ["score", str(tmp_path / "chat.txt"), "--json", "--strict",
                                   "--config", _cfg(tmp_path)])
    assert res.exit_code == 0, res.output
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["score", str(tmp_path / "chat.txt"), "--config",
                                   _cfg(tmp_path), "--out", str(out)])
    assert res.exit_code == 0, res.output
    turns = [json.loads(ln) for ln in (out / "transcripts" / "chat.jsonl").read_text().splitlines()][1:]
    assert [t["text"] for t in turns] == [
        "What did you do?", "I went to Paris.\nIt rained: every day.\nAnd the food was good",
        "Nice!"]


def test_a_third_name_before_a_colon_says_to_indent_a_continuation(tmp_path):
    (tmp_path / "chat.txt").write_text("alice: hi\nbob: hello\nNote: this is bob's\n")
    res = CliRunner().invoke(cli, ["score", str(tmp_path / "chat.txt"), "--strict"])
    assert res.exit_code == 2
    assert f"{tmp_path / 'chat.txt'}:3: a third speaker 'Note'" in res.output
    assert "indent it" in res.output


def test_score_help_points_to_the_formats_doc():
    res = CliRunner().invoke(cli, ["score", "--help"])
    assert res.exit_code == 0 and "docs/score.md" in res.stdout


def _cfg(tmp_path):
    p = tmp_path / "cfg.yaml"
    p.write_text(CFG)
    return str(p)
