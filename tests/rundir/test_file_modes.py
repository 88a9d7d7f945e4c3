"""The files of a run (its own files, the rankings, the plots, the report) get the
permissions of any file the user creates: 0666 less the umask, so colleagues on a shared
server can read them under the usual umask 022, and nobody else can under 077."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.rundir.atomic import atomic_write, current_umask

YAML = """\
name: modes
exchanges: 2
seed: 3
output_dir: {out}
scoring: {{dimensions: [proactivity, diversity]}}
bots:
  - {{name: a, adapter: "tests.scripted:CountingBot", params: {{style: rich, ask_every: 1}}}}
  - {{name: b, adapter: "tests.scripted:CountingBot", params: {{style: plain, ask_every: 2}}}}
  - {{name: c, adapter: "tests.scripted:CountingBot", params: {{style: dull, ask_every: 0}}}}
"""


@pytest.fixture
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o077], indirect=True)
def test_atomic_write_gives_a_new_file_the_umask_mode(tmp_path: Path, umask: int) -> None:
    assert current_umask() == umask
    target = tmp_path / "x.json"
    atomic_write(target, "{}")
    assert _mode(target) == 0o666 & ~umask
    target.chmod(0o600)
    atomic_write(target, "{}")  # rewritten: the umask's mode again, like a new file
    assert _mode(target) == 0o666 & ~umask


@pytest.mark.parametrize("umask", [0o022, 0o077], indirect=True)
def test_run_report_and_plots_follow_the_umask(tmp_path: Path, umask: int) -> None:
    out = tmp_path / "run"
    cfg = tmp_path / "t.yaml"
    cfg.write_text(YAML.format(out=out))
    runner = CliRunner()
    res = runner.invoke(cli, ["run", str(cfg), "--quiet"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["report", str(out)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["plot", str(out)])
    assert res.exit_code == 0, res.output
    files = {p.relative_to(out).as_posix(): _mode(p) for p in out.rglob("*") if p.is_file()}
    for name in ("config.yaml", "manifest.json", "results.jsonl", "report.html"):
        assert name in files
    assert any(n.startswith("rankings/") for n in files)
    assert any(n.startswith("plots/") for n in files), sorted(files)
    wrong = {n: oct(m) for n, m in files.items() if m != 0o666 & ~umask and n != ".lock"}
    assert not wrong
