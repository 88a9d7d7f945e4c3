"""Shared helpers of the reliability tests: tournament YAML, running the real CLI, and
comparing run directories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

REPO = Path(__file__).resolve().parents[2]
FAST_DIMS = ["proactivity", "specificity", "diversity", "consistency"]
SLOWBOT = "tests.scripted:SamplingBot"


def tournament_yaml(*, bots: int = 4, exchanges: int = 4, sleep_ms: float = 0.0,
                    seed: int = 0, concurrent: int = 2, record_timings: bool = True,
                    dims: Sequence[str] = FAST_DIMS, extra: str = "") -> str:
    lines = ["name: reliability", f"exchanges: {exchanges}", f"seed: {seed}",
             f"concurrent_games: {concurrent}", f"record_timings: {str(record_timings).lower()}",
             "seed_utterance: ['What did you do last week?', 'Hello there!']",
             "ranking: {method: trueskill, shuffles: 3}", "bots:"]
    for i in range(bots):
        lines += [f"  - name: bot{i}", f"    adapter: {SLOWBOT}",
                  f"    params: {{sleep_ms: {sleep_ms}, words: {3 + 2 * i}, ask_every: {i}}}"]
    lines += ["scoring:", f"  dimensions: [{', '.join(dims)}]"]
    return "\n".join(lines) + "\n" + extra


def cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def chatmatch_cmd(*args: str) -> list[str]:
    """The real command line (``python -m chatmatch`` is the console script's entry point)."""
    return [sys.executable, "-m", "chatmatch", *args]


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(chatmatch_cmd(*args), cwd=REPO, env=env or cli_env(), text=True,
                          capture_output=True, timeout=timeout)


def transcript_without_timings(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        rec.pop("seconds", None)
        out.append(rec)
    return out


def run_contents(run: Path, *, timings: bool) -> dict[str, Any]:
    """Everything of a run directory that must not depend on how it was produced: the
    transcripts (without ``seconds`` unless ``timings``), scores, rankings, the valid
    result records (by game) and the resolved config."""
    from chatmatch.rundir.store import RunDir, dumps

    doc: dict[str, Any] = {}
    for f in sorted((run / "transcripts").glob("*.jsonl")):
        doc[f"transcripts/{f.name}"] = (f.read_text(encoding="utf-8") if timings
                                        else transcript_without_timings(f))
    for sub in ("scores", "rankings"):
        for f in sorted(x for x in (run / sub).iterdir() if not x.name.startswith(".")):
            doc[f"{sub}/{f.name}"] = f.read_text(encoding="utf-8")
    doc["config.yaml"] = (run / "config.yaml").read_text(encoding="utf-8")
    doc["results"] = {g: dumps(r.to_json()) for g, r in sorted(RunDir(run).results().items())}
    return doc
