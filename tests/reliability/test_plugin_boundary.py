"""Family 3 of issue 23: every call into a bot's own code goes through one guarded
boundary (chatmatch/play/botcall.py) that names the bot and the method: construction and load
stop the run with one line (exit 2); reply failures of any kind (a broken __str__,
GeneratorExit, sys.exit) follow the failure policy; describe and close failures are
warnings and the games are scored; text that cannot be stored is made storable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ChatmatchError
from chatmatch.play.build import load_tournament
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.reliability.helpers import run_cli


def _yaml(tmp_path: Path, where: str, how: str, extra: str = "") -> Path:
    p = tmp_path / "t.yaml"
    p.write_text("name: evil\nexchanges: 2\nscoring: {dimensions: [proactivity]}\n"
                 "failures: {retries: 0}\n" + extra + "bots:\n"
                 "  - name: evil\n    adapter: tests.reliability.evilbots:Evil\n"
                 f"    params: {{where: {where}, how: {how}}}\n  - eliza\n")
    return p


@pytest.mark.parametrize("how, text", [
    ("raise", "__init__() failed: RuntimeError: plugin bug"),
    ("exit", "__init__() failed: SystemExit: 7; a bot must not exit the process"),
    ("badstr", "__init__() failed: _BadStr: <its message could not be read: __str__ raised>"),
])
def test_constructor_failure_names_bot_and_method_not_bad_parameters(tmp_path, how, text):
    with pytest.raises(ChatmatchError) as err:  # the bots are built once, as the file is read
        load_tournament(_yaml(tmp_path, "init", how))
    msg = str(err.value)
    assert "t.yaml:6: bots.0:" in msg  # at the bot's entry
    assert "bot 'evil' (adapter 'tests.reliability.evilbots:Evil')" in msg and text in msg
    assert "bad parameters" not in msg


def test_load_oserror_is_named_through_the_cli(tmp_path):
    r = run_cli("run", str(_yaml(tmp_path, "load", "oserror")), "--out", str(tmp_path / "run"), "-q")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert ("error: bot 'evil' (adapter 'tests.reliability.evilbots:Evil'): load() failed: "
            "FileNotFoundError: [Errno 2] No such file or directory") in r.stderr


@pytest.mark.parametrize("how, reason", [
    ("badstr", "_BadStr: <its message could not be read: __str__ raised>"),
    ("genexit", "raised GeneratorExit (a bot must return a reply or raise an Exception)"),
    ("exit", "raised SystemExit: 7 (a bot must return a reply or raise an Exception)"),
    ("zero-width", "ValueError: empty reply (nothing visible in it)"),
    ("nbsp", "ValueError: empty reply"),
])
def test_reply_failures_of_every_kind_are_forfeits(tmp_path, how, reason):
    run = tmp_path / "run"
    s = run_tournament(load_config(_yaml(tmp_path, "reply", how)), run)
    assert s.games_played == 2 and s.ranking.games == 2
    (f,) = s.forfeits
    assert f.bot == "evil" and len(f.games) == 2
    assert all(reason in r.forfeit.reason for r in RunDir(run).results().values()), \
        [r.forfeit for r in RunDir(run).results().values()]


def test_lone_surrogate_is_stored_as_replacement_character_and_resumes(tmp_path):
    cfg, run = load_config(_yaml(tmp_path, "reply", "surrogate")), tmp_path / "run"
    s = run_tournament(cfg, run)
    assert s.games_played == 2 and not s.forfeits
    text = (run / "transcripts" / "g001.jsonl").read_text(encoding="utf-8")
    assert "hi \ufffd there" in text
    again = run_tournament(cfg, run)
    assert (again.games_played, again.games_scored) == (0, 0)


@pytest.mark.parametrize("where, warning", [
    ("close", "bot 'evil': close() failed: RuntimeError: plugin bug; ignored (the games are kept and scored)"),
    ("describe", "bot 'evil': describe() failed: RuntimeError: plugin bug; the manifest records its class only"),
])
def test_close_and_describe_failures_are_warnings_and_games_are_scored(tmp_path, where, warning):
    run = tmp_path / "run"
    r = run_cli("run", str(_yaml(tmp_path, where, "raise")), "--out", str(run), "-q")
    assert r.returncode == 0, r.stderr
    assert warning in r.stderr and "Traceback" not in r.stderr
    assert len(RunDir(run).results()) == 2
    assert (run / "rankings" / "points.json").exists()
    if where == "describe":
        desc = json.loads((run / "manifest.json").read_text())["bots_described"]["evil"]
        assert desc["class"] == "tests.reliability.evilbots:Evil" and "describe_error" in desc
