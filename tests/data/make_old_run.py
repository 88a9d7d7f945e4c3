"""Writes tests/data/old_run/: a small run directory (one bot forfeits some games) and its
rankings by every method, as `chatmatch run` and `chatmatch rank --save` write them. The
committed copy was made by chatmatch before the stage data were typed (commit a42a87f);
tests/test_records.py checks that today's code reads it and writes the same bytes back.

    PYTHONPATH=. python tests/data/make_old_run.py
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from chatmatch.cli import cli

HERE = Path(__file__).parent
CONFIG = """\
name: old-run
bots:
  - {name: ok, adapter: 'tests.scripted:CountingBot', params: {style: rich, ask_every: 1}}
  - {name: plain, adapter: 'tests.scripted:CountingBot', params: {style: plain}}
  - {name: bad, adapter: 'tests.scripted:FlakyBot', params: {mode: raise_after, after: 3}}
exchanges: 3
scoring: {dimensions: [proactivity, specificity, diversity]}
ranking: {method: trueskill, shuffles: 5}
failures: {retries: 0, max_forfeit_share: 1.0, timeout_s: null}
record_timings: false
concurrent_games: 1
seed: 3
"""


def make(folder: Path) -> Path:
    """Write the run into ``folder/old_run`` (paths in it are relative to ``folder``)."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        shutil.rmtree("old_run", ignore_errors=True)
        Path("old_run.yaml").write_text(CONFIG)
        res = CliRunner().invoke(cli, ["run", "old_run.yaml", "--out", "old_run", "-q"])
        assert res.exit_code == 0, res.output
        for method in ("points", "bt", "elo"):
            res = CliRunner().invoke(cli, ["rank", "old_run", "--method", method, "--save"])
            assert res.exit_code == 0, res.output
        Path("old_run.yaml").unlink()
        Path("old_run/.lock").unlink(missing_ok=True)
    finally:
        os.chdir(here)
    return folder / "old_run"


def main() -> None:
    """``--current``: write tests/data/current_run instead, the same run as today's code
    writes it (test_records.py compares a new run with it; regenerate it, and review the
    diff, after an intended change of a default that the run uses)."""
    import sys

    if "--current" not in sys.argv[1:]:
        make(HERE)
        return
    write_current(HERE / "current_run")


def write_current(dest: Path) -> None:
    """Write today's run into ``dest`` as tests/data/current_run holds it: its results.jsonl
    lines without ``scores_sha256`` (test_records.py checks each digest against the new
    run's scores file, then compares the rest of the line with the fixture)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        run = make(Path(tmp))
        results = run / "results.jsonl"
        lines = [json.loads(x) for x in results.read_text(encoding="utf-8").splitlines()]
        for e in lines:
            e.pop("scores_sha256", None)
        results.write_text("".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n"
                                   for e in lines), encoding="utf-8")
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(run, dest)


if __name__ == "__main__":
    main()
