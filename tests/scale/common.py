"""Tournament configs and run-directory comparisons shared by the scale tests."""

from __future__ import annotations

from pathlib import Path

from chatmatch.config.tournament import TournamentConfig, load_config

#: every kind of bot the executors treat differently: stateful (not thread-safe), batched,
#: thread-safe rule-based, and one whose replies depend on the seeded random stream
BOTS = [
    ("counter", "tests.scripted:CountingBot", "{style: rich, ask_every: 2}"),
    ("batcher", "tests.scripted:BatchBot", "{}"),
    ("echo", "echo", "{}"),
    ("sampler", "tests.scripted:SamplingBot", "{words: 5, ask_every: 3}"),
]
DIMS = "[proactivity, specificity, diversity]"


def make_cfg(tmp_path: Path, run: str, *, extra: str = "", exchanges: int = 4,
             bots: list[tuple[str, str, str]] | None = None) -> TournamentConfig:
    lines = ["name: scale", f"exchanges: {exchanges}", "seed: 11", "record_timings: false",
             "seed_utterance: ['What did you do last week?', 'Hello there!']",
             f"output_dir: {tmp_path / run}", f"scoring: {{dimensions: {DIMS}}}", "bots:"]
    for name, adapter, params in bots or BOTS:
        lines += [f"  - name: {name}", f"    adapter: {adapter}", f"    params: {params}"]
    path = tmp_path / f"{run}.yaml"
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return load_config(path)


def transcript_files(run: Path) -> dict[str, str]:
    """Every transcript file of a run, byte for byte (timings are not recorded)."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((run / "transcripts").glob("*.jsonl"))}


def ranking_file(run: Path, method: str = "trueskill") -> str:
    return (run / "rankings" / f"{method}.json").read_text(encoding="utf-8")
