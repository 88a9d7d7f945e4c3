"""Bad tournament YAML: one clear message naming file, line and key path; exit status 2."""

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.tournament import DEFAULT_EXCHANGES, DEFAULT_SEED_UTTERANCE, load_config
from chatmatch.errors import ConfigError
from chatmatch.ranking.trueskill_rank import DEFAULT_SHUFFLES

GOOD_BOTS = """bots:
  - name: a
    adapter: eliza
  - name: b
    adapter: canned
"""


def write(tmp_path, text, name="t.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def error_of(path):
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return str(info.value)


def test_minimal_yaml_of_just_bots_gets_paper_defaults(tmp_path):
    cfg = load_config(write(tmp_path, "bots: [eliza, canned]\n"))
    assert cfg.bot_names == ["eliza", "canned"]
    assert cfg.exchanges == DEFAULT_EXCHANGES == 100
    assert cfg.seed_utterances == [DEFAULT_SEED_UTTERANCE]
    # the paper's 3 shuffles are in `preset: paper`; the default is measured (tests/config/test_presets.py)
    assert cfg.ranking.method == "trueskill" and cfg.ranking.shuffles == DEFAULT_SHUFFLES
    assert (cfg.ranking.points.win, cfg.ranking.points.tie, cfg.ranking.points.loss) == (3, 1, 0)
    assert len(cfg.scoring.dimensions) == 7


def test_bare_list_of_bots(tmp_path):
    assert load_config(write(tmp_path, "- eliza\n- canned\n")).bot_names == ["eliza", "canned"]


@pytest.mark.parametrize("text,expected", [
    # 1 unknown key, with a suggestion
    (GOOD_BOTS + "exchange: 10\n",
     "t.yaml:6: exchange: unknown key 'exchange'; did you mean 'exchanges'? Allowed: bots, "
     "concurrent_games, description, exchanges, executor, failures, name, output_dir, preset, "
     "ranking, ray, record_timings, reply_cache, runtime, schedule, scoring, seed, seed_utterance, workers"),
    # 2 wrong type
    (GOOD_BOTS + "exchanges: many\n",
     "t.yaml:6: exchanges: Input should be a valid integer, unable to parse string as an "
     "integer (got 'many')"),
    # 3 missing bots
    ("name: x\n", "t.yaml:1: bots: missing required key 'bots'"),
    # 4 duplicate bot name
    (GOOD_BOTS + "  - name: a\n    adapter: echo\n",
     "t.yaml:6: bots.2.name: duplicate bot name 'a' (first defined as bots.0); give every bot "
     "a unique name"),
    # 5 one bot only
    ("bots: [eliza]\n", "t.yaml:1: bots: a tournament needs at least 2 bots, got 1"),
    # 6 YAML syntax
    ("bots: [eliza, canned\nname: x\n", "t.yaml:2: invalid YAML: expected ',' or ']', but got ':'"),
    # 7 nested unknown key
    (GOOD_BOTS + "ranking:\n  method: points\n  shufles: 3\n",
     "t.yaml:8: ranking.shufles: unknown key 'shufles'; did you mean 'shuffles'? Allowed: "
     "bt, elo, method, points, shuffles, ties, trueskill"),
    # 8 bad points rule
    (GOOD_BOTS + "ranking:\n  points: {win: 0, tie: 1, loss: 0}\n",
     "t.yaml:7: ranking.points: need win >= tie >= loss, got 0.0/1.0/0.0"),
    # 9 unknown ranking method
    (GOOD_BOTS + "ranking: {method: trueskil}\n",
     "t.yaml:6: ranking.method: Unknown ranking method 'trueskil'. Did you mean: trueskill? "
     "Available: bt, bt-style, elo, points, trueskill"),
    # 10 duplicate YAML key
    (GOOD_BOTS + "exchanges: 5\nexchanges: 6\n",
     "t.yaml:7: exchanges: key 'exchanges' appears twice in the same mapping; keep one"),
    # 11 empty seed utterance
    (GOOD_BOTS + "seed_utterance: '  '\n",
     "t.yaml:6: seed_utterance: seed utterances must be non-empty text"),
    # 12 zero exchanges
    (GOOD_BOTS + "exchanges: 0\n",
     "t.yaml:6: exchanges: Input should be greater than or equal to 1 (got 0)"),
    # 13 empty file
    ("", "t.yaml:1: the file is empty; it needs at least a 'bots' list"),
    # 14 not a mapping
    ("just text\n", "t.yaml:1: the file must hold a mapping with at least a 'bots' list (got str)"),
])
def test_bad_yaml_messages(tmp_path, text, expected):
    path = write(tmp_path, text)
    assert error_of(path) == f"{tmp_path}/{expected}"


def test_unreadable_files(tmp_path):
    assert error_of(tmp_path / "nope.yaml") == (
        f"{tmp_path}/nope.yaml: file not found; check the path (tournament files usually live "
        "in tournaments/)")
    assert error_of(tmp_path) == f"{tmp_path}: is a directory, expected a YAML file"
    p = tmp_path / "bin.yaml"
    p.write_bytes(b"bots: [\xff\xfe]\n")
    assert error_of(p) == f"{p}: not UTF-8 text (bad byte at offset 7); save the file as UTF-8"


def test_cli_exit_status_2_and_nothing_played(tmp_path):
    path = write(tmp_path, GOOD_BOTS + f"exchange: 10\noutput_dir: {tmp_path / 'run'}\n")
    res = CliRunner().invoke(cli, ["run", str(path)])
    assert res.exit_code == 2
    assert "error: " in res.output and "unknown key 'exchange'" in res.output
    assert "Traceback" not in res.output
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("scoring, bot_params, line, path, words", [
    ("    diversity:\n      sigma_r: 2\n", "", 4, "scoring.params.diversity.sigma_r",
     "scorer 'diversity': bad parameters: parameter 'sigma_r' must be a number, got 2"),
    ("    diversity:\n      sigma: 0.5\n", "", 4, "scoring.params.diversity.sigma",
     "scorer 'diversity': unknown parameter(s) 'sigma' (did you mean 'sigma_r'?)"),
    ("", "      lines: 3\n", 10, "bots.1.params.lines",
     "Bot 'b' (adapter 'canned'): bad parameters: parameter 'lines' must be a list of strings or null, got 3"),
    ("", "      line: [hi]\n", 10, "bots.1.params.line",
     "Bot 'b' (adapter 'canned'): unknown parameter(s) 'line' (did you mean 'lines'?)"),
])
def test_scorer_and_bot_params_fail_in_the_same_words_at_the_parameter_line(
        tmp_path, scoring, bot_params, line, path, words):
    params = f"    params:\n{bot_params}" if bot_params else ""
    text = ("scoring:\n  params:\n" + (scoring or "    diversity: {}\n")
            + GOOD_BOTS + params)
    msg = error_of(write(tmp_path, text))
    assert f"t.yaml:{line}: {path}: {words}" in msg and "Accepted parameters:" in msg
