"""Family 3 of issue 35: every path chatmatch reads goes through the bounded reader
(chatmatch.common.safeio), seed files and ``--human`` files included: a named pipe, a
device (or a link to one) is refused at once with the true reason, never read for ever;
and (family 8) a seed file saved with a byte-order mark reads, a 10 MB seed is refused by
its size before it is parsed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from tests.config.test_seedsets import write_yaml
from tests.reliability.helpers import run_cli, tournament_yaml


def _special(tmp_path: Path, kind: str, name: str) -> Path:
    p = tmp_path / name
    if kind == "fifo":
        os.mkfifo(p)
    else:
        p.symlink_to("/dev/zero")
    return p


@pytest.mark.parametrize("kind, reason", [("fifo", "a named pipe, not a regular file"),
                                          ("zero", "a device, not a regular file")])
def test_a_seed_file_that_is_a_pipe_or_dev_zero_is_refused_at_once(tmp_path, kind, reason):
    _special(tmp_path, kind, "seeds.txt")
    path = write_yaml(tmp_path, "seed_utterance: {file: seeds.txt}")
    r = run_cli("run", str(path), timeout=60)  # it blocked (pipe) or filled memory (zero)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"seed_utterance.file: cannot read seed file {tmp_path / 'seeds.txt'} ({reason})" \
        in r.stderr, r.stderr


@pytest.mark.parametrize("kind, reason", [("fifo", "a named pipe, not a regular file"),
                                          ("zero", "a device, not a regular file")])
def test_a_human_file_that_is_a_pipe_or_dev_zero_says_so(tmp_path, kind, reason):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=2, exchanges=2, concurrent=1))
    assert run_cli("run", str(cfg), "--out", str(tmp_path / "run")).returncode == 0
    human = _special(tmp_path, kind, "h.csv")
    r = run_cli("compare", str(tmp_path / "run"), "--human", str(human), timeout=60)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert reason in r.stderr and "not found" not in r.stderr, r.stderr


def test_a_csv_seed_file_with_a_byte_order_mark_reads(tmp_path):
    (tmp_path / "s.csv").write_bytes("\ufeffcategory,text\nq,What now?\n".encode("utf-8"))
    cfg = load_config(write_yaml(tmp_path, "seed_utterance: {file: s.csv}"), check_bots=False)
    assert cfg.seed_utterance.model_dump() == {"categories": {"q": ["What now?"]}}


def test_a_10_mb_seed_is_refused_by_its_size_before_parsing(tmp_path):
    """It took 37 s of parsing before the seed's length was checked."""
    path = write_yaml(tmp_path, "seed_utterance: ['" + "x" * 10_000_000 + "']")
    with pytest.raises(ConfigError, match="larger than 1 MiB.*seed file"):
        load_config(path, check_bots=False)
