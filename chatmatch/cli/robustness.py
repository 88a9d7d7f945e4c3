"""``chatmatch robustness``: do the scorers and judges notice broken replies?"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click

from chatmatch.progress import Reporter
from chatmatch.robustness.evaluators import DimensionEvaluator, as_evaluator, builtin_judge, load_object
from chatmatch.robustness.suite import all_families, render, run_suite
from chatmatch.robustness.triples import (RobustnessError, chitchat_conversations,
                                          transcript_conversations)
from chatmatch.common.validation import validation_message
from chatmatch.scoring.base import DIMENSIONS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.build import build_scorers


def _split(values: tuple[str, ...]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def _scorer_evaluators(names: list[str], fluency_backend: str | None) -> list[Any]:
    builtin = [n for n in names if ":" not in n]
    params = {"fluency": {"backend": fluency_backend}} if fluency_backend and "fluency" in builtin else {}
    try:
        scorers = iter(build_scorers(ScoringConfig(dimensions=builtin, params=params, canned=False)) if builtin else [])
    except ValueError as exc:  # pydantic ValidationError: an unknown dimension
        raise RobustnessError(f"--scorers: {validation_message(exc, path=False)}") from None
    return [as_evaluator(load_object(n), n) if ":" in n else DimensionEvaluator(next(scorers))
            for n in names]


def _judge_evaluators(names: list[str]) -> list[Any]:
    return [as_evaluator(load_object(n), n) if ":" in n else builtin_judge(n) for n in names]


@click.command("robustness")
@click.option("--scorers", "-s", multiple=True,
              help="Dimensions to test (comma-separated; default all seven), or an import path "
                   "package.module:Class of your own scorer.")
@click.option("--judges", "-j", multiple=True,
              help="Judges to test (comma-separated): paireval, geval, amr_judge, aspect_judge, "
                   "or an import path package.module:Class.")
@click.option("--n", "n", type=click.IntRange(1, None), default=200, show_default=True,
              help="Triples (and broken games) per family.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--families", "-f", multiple=True, help="Families to run (comma-separated; default all).")
@click.option("--from", "sources", multiple=True, type=click.Path(path_type=Path),
              help="Build triples from these transcript files/folders instead of chitchat-dataset.")
@click.option("--window", type=click.IntRange(1, None), default=6, show_default=True,
              help="History turns kept before the reply.")
@click.option("--tolerance", type=click.FloatRange(0, None), default=0.25, show_default=True,
              help="Paraphrase family: stable when the score moves by at most this many sd.")
@click.option("--fluency-backend", type=click.Choice(["transformers", "ngram"]),
              help="Language model of the fluency scorer (default: the scorer's, transformers).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress (loading, evaluating).")
def command(scorers: tuple[str, ...], judges: tuple[str, ...], n: int, seed: int,
            families: tuple[str, ...], sources: tuple[Path, ...], window: int, tolerance: float,
            fluency_backend: str | None, as_json: bool, quiet: bool) -> None:
    """Build (history, good reply, broken reply) triples from real conversations and check
    that every scorer and judge prefers the good reply: repetition, speaker mix-ups,
    contradiction, negation, changed numbers and entities, off-topic, dull, echo, shuffled
    words, collapsed vocabulary, a paraphrase that should not move the score, the built-in
    closed-ended set, and whole games with injected repetition or contradiction.

    \b
    Examples:
      chatmatch robustness --n 200
      chatmatch robustness -s diversity,specificity -f repetition,dull --n 50 --seed 1
      chatmatch robustness --fluency-backend ngram --from runs/demo/games
      chatmatch robustness -s diversity -j paireval --n 50
      chatmatch robustness -s mypkg.metric:MyScorer -j mypkg.judge:MyJudge --json
    """
    names = _split(scorers) or ([] if judges else list(DIMENSIONS))
    evaluators = _scorer_evaluators(names, fluency_backend) + _judge_evaluators(_split(judges))
    rep = Reporter(quiet=quiet)
    with rep.step("reading conversations"):
        convs = transcript_conversations(list(sources)) if sources else chitchat_conversations()
    source = ", ".join(map(str, sources)) if sources else "chitchat-dataset"
    report = run_suite(evaluators, convs, families=_split(families) or all_families(), n=n,
                       seed=seed, window=window, tolerance=tolerance, source=source, reporter=rep)
    if as_json:
        click.echo(json.dumps(_clean(report.to_json()), indent=2))
    else:
        click.echo(render(report))


def _clean(x: Any) -> Any:
    """NaN -> null so the output is strict JSON."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x
