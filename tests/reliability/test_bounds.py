"""Family 4 of issue 23 (and two misleading messages of family 7): every input is bounded.
Tournament YAML is read up to 1 MiB (``/dev/zero`` is refused at once, not read for
ever); a seed utterance has at most 10,000 characters; a call of a bot has a default time
limit (``failures.timeout_s``: 600 s), and runs stored before that default resume without
a refusal; Ctrl-C while chatmatch starts ends with one line."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest
import yaml

from chatmatch.common.yamlloc import MAX_YAML_BYTES
from chatmatch.config.settings import DEFAULT_TIMEOUT_S, FailurePolicy
from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from chatmatch.run.tournament import run_tournament
from tests.reliability.helpers import run_cli, tournament_yaml


def test_dev_zero_is_refused_quickly(tmp_path):
    r = run_cli("run", "/dev/zero", "--out", str(tmp_path / "run"), timeout=60)  # a hang fails
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "error: /dev/zero: cannot read the file (a device, not a regular file)" in r.stderr
    assert not (tmp_path / "run").exists()


def test_huge_yaml_file_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("bots: [eliza, echo]\n# " + "x" * MAX_YAML_BYTES + "\n")
    with pytest.raises(ConfigError, match=f"larger than {MAX_YAML_BYTES // 2**20} MiB"):
        load_config(big)


def test_long_seed_is_refused_with_the_limit(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"bots: [eliza, echo]\nseed_utterance: ['Hi', '{'a' * 10_001}']\n")
    with pytest.raises(ConfigError) as err:
        load_config(cfg)
    assert str(err.value) == (
        f"{cfg}:2: seed_utterance.1: seed utterance has 10,001 characters, more than the "
        "10,000 chatmatch accepts (an opening line, not a document); shorten it, or give a "
        "long context to the bots through their params")
    cfg.write_text(f"bots: [eliza, echo]\nseed_utterance: '{'a' * 10_000}'\n")
    assert len(load_config(cfg).seed_utterances[0]) == 10_000


def test_a_call_has_a_default_time_limit():
    assert FailurePolicy().timeout_s == DEFAULT_TIMEOUT_S == 600.0
    assert FailurePolicy(timeout_s=None).timeout_s is None  # explicitly off


def test_run_stored_before_the_default_time_limit_resumes(tmp_path):
    cfg_file = tmp_path / "t.yaml"
    cfg_file.write_text(tournament_yaml(bots=2, exchanges=2))
    run = tmp_path / "run"
    run_tournament(load_config(cfg_file), run)
    stored = yaml.safe_load((run / "config.yaml").read_text())
    stored["failures"]["timeout_s"] = None  # what an older chatmatch wrote
    (run / "config.yaml").write_text(yaml.safe_dump(stored, sort_keys=False))
    s = run_tournament(load_config(cfg_file), run)
    assert (s.games_played, s.games_scored) == (0, 0)


@pytest.mark.parametrize("signal_name, code", [("ctrl-c", 130), ("sigterm", 143)])
def test_ctrl_c_or_sigterm_while_starting_is_one_line(monkeypatch, capsys, signal_name, code):
    import importlib

    import chatmatch.cli as cli_module

    real_import = importlib.import_module
    raised = cli_module.Terminated if signal_name == "sigterm" else KeyboardInterrupt

    def interrupted(name: str, *a: Any, **kw: Any) -> object:
        if name.startswith("chatmatch.cli."):  # a subcommand's module, imported on use
            raise raised
        return real_import(name, *a, **kw)
    monkeypatch.setattr(importlib, "import_module", interrupted)
    with pytest.raises(SystemExit) as exit_:
        cli_module.cli.main(["run", "t.yaml"], standalone_mode=False)
    assert exit_.value.code == code
    assert capsys.readouterr().err == "interrupted while starting; nothing was done\n"


def test_two_document_yaml_says_so(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("bots: [eliza, echo]\n---\nbots: [canned]\n")
    with pytest.raises(ConfigError) as err:
        load_config(cfg)
    assert str(err.value) == (
        f"{cfg}:2: invalid YAML: expected a single document in the stream, but found another "
        "document (a line '---' starts a second one; keep one document per file)")


def test_a_signal_while_the_command_ends_exits_with_its_status_not_a_traceback(monkeypatch):
    """SIGTERM arriving while an error line is printed (after the command's own handler)
    ends the process with 143, not a traceback from the signal handler."""
    import signal as signal_module

    import chatmatch.cli as cli_module

    def ends_under_sigterm(**kw: Any) -> None:
        raise cli_module.Terminated()
    monkeypatch.setattr(cli_module, "cli", ends_under_sigterm)
    for key, value in cli_module.PROCESS_ENV_DEFAULTS.items():  # main() sets them: undone after
        monkeypatch.setenv(key, os.environ.get(key, value))
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = {s: signal_module.getsignal(s) for s in (signal_module.SIGTERM, signal_module.SIGINT)}
    try:
        with pytest.raises(SystemExit) as exit_:
            cli_module.main()
        assert exit_.value.code == 143
    finally:
        for s, handler in before.items():
            signal_module.signal(s, handler)
