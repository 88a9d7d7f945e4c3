"""``chatmatch validate``: the validity lab (how well chatmatch agrees with people)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import click
from click.core import ParameterSource

from chatmatch.config.tournament import MAX_EXCHANGES
from chatmatch.progress import Reporter
from chatmatch.validity.datasets.datahelp import data_dir as require_data_dir
from chatmatch.validity.lab.core import (DATASETS, GAMING_FILES, Lab, LabError,
                                         default_data_dir, load_lab_config, parse_datasets,
                                         with_ngram_fluency)
from chatmatch.validity.training.data import DATASETS as LEARN_DATASETS
from chatmatch.validity.training.data import load_sides
from chatmatch.validity.training.evaluate import evaluate
from chatmatch.validity.training.table import build_table
from chatmatch.validity.training.train import minilm, table_text
from chatmatch.validity.lab.report import render


def lab_data_dir(given: Path | None, names: Sequence[str], dstc9_dir: Path | None) -> Path:
    """--data, else $CHATMATCH_DATA; an error naming both when a named dataset reads it
    (the ladder reads none, DSTC9 none when --dstc9 says where it is)."""
    reads = set(names) - {"ladder", "gaming"} - ({"dstc9"} if dstc9_dir else set())
    if reads:
        return require_data_dir(given)
    return given or default_data_dir() or Path(".")  # not read


@click.command("validate")
@click.option("--config", "config_file", type=click.Path(path_type=Path),
              help="Tournament YAML whose 'scoring', 'ranking' and 'seed' are used "
                   "(default: the built-in defaults).")
@click.option("--data", "data_dir", type=click.Path(path_type=Path),
              help="Folder holding stb/MongoDump.zip, fed/fed_data.json, "
                   "usr/pc_usr_data.json (and dstc9/chatbotN.json) [default: $CHATMATCH_DATA].")
@click.option("--datasets", default=",".join(DATASETS), show_default=True,
              help="Comma-separated datasets: stb, fed, dstc9, usr, construct, ladder, gaming.")
@click.option("--dstc9", "dstc9_dir", type=click.Path(path_type=Path),
              help="Folder holding DSTC9's chatbot1.json .. chatbot11.json [default: "
                   "DATA/dstc9; skipped with a note when absent, an error when given here].")
@click.option("--sample", type=click.IntRange(1, 100_000),
              help="Score only this many DSTC9 chats per system (seeded by the config's "
                   "seed; default: all 200).")
@click.option("--baseline", "baseline_file", type=click.Path(path_type=Path),
              help="A second config (like --config) to compare with: FED and DSTC9 are scored "
                   "with both, and the per-dimension table adds this config minus the "
                   "baseline, with paired bootstrap intervals.")
@click.option("--bootstrap", type=click.IntRange(1, 100_000), default=1000, show_default=True,
              help="Bootstrap resamples for the per-dimension intervals.")
@click.option("--seeds", type=click.IntRange(1, 1000), default=5, show_default=True,
              help="Ranking seeds for the spread of tau (TrueSkill shuffles depend on it).")
@click.option("--ladder", "ladder_file", type=click.Path(path_type=Path),
              default=Path("tournaments/ladder.yaml"), show_default=True,
              help="The ladder tournament (true order known by construction).")
@click.option("--ladder-exchanges", type=click.IntRange(1, MAX_EXCHANGES),
              help="Play the ladder's games with this many exchanges (cheaper than the file's).")
@click.option("--gaming", "gaming_files", type=click.Path(path_type=Path), multiple=True,
              default=GAMING_FILES, show_default=True,
              help="A gaming suite: recipe bots that must rank below the real bots; repeat "
                   "it for several, each its own dataset (default: the twelve recipe families).")
@click.option("--gaming-exchanges", type=click.IntRange(1, MAX_EXCHANGES),
              help="Play every gaming suite's games with this many exchanges (the files': 10).")
@click.option("--ngram-fluency", is_flag=True,
              help="Score fluency with the fast n-gram model instead of the configured LM.")
@click.option("--learned", is_flag=True,
              help="Also evaluate the learned judge out of sample beside the rule judge on the "
                   "chosen rated datasets (dstc9, fed, stb): leave-dataset-out and "
                   "leave-systems-out, with bootstrap intervals (docs/learned-judge.md).")
@click.option("--learned-cache", type=click.Path(path_type=Path),
              help="Folder (outside the repository) keeping the learned judge's scored "
                   "features between runs.")
@click.option("--stb-sample", type=click.IntRange(1, 100_000),
              help="With --learned: only the first N judged Spot The Bot conversations a domain.")
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def command(config_file: Path | None, data_dir: Path | None, datasets: str,
            dstc9_dir: Path | None, sample: int | None, baseline_file: Path | None,
            bootstrap: int, seeds: int,
            ladder_file: Path, ladder_exchanges: int | None, gaming_files: tuple[Path, ...],
            gaming_exchanges: int | None, ngram_fluency: bool, learned: bool,
            learned_cache: Path | None, stb_sample: int | None, as_json: bool,
            quiet: bool) -> None:
    """Score public human-judged data with the configured scorers and ranking, and print
    how well the ranking agrees with people, per dataset: Kendall tau of the full ranking,
    each dimension alone, minus each dimension, and the spread over ranking seeds. On the
    rated human-bot chats (FED, DSTC9): each dimension against people's rating of the
    matching quality, with bootstrap intervals, and each dimension's length bias.

    \b
    Datasets (docs/validity.md):
      stb     Spot The Bot bot-bot conversations (convai2, dailydialog, empathetic),
              against the crowd's win-rate ranking and the fooling rate
      fed     FED dialogue level: Spearman with Overall, and the 3-system ranking
      dstc9   DSTC9 interactive track: 11 systems' chats with people, 11 rated qualities
      usr     USR PersonaChat: 60 contexts answered by 2 people, a retrieval and 2
              generative models; per responder and per reply vs Natural and Overall
      construct  fluency: human-written turns vs bland generated ones (generic, echo,
                 a small LM's greedy replies)
      ladder  tournaments/ladder.yaml, whose true order is known by construction
      gaming  tournaments/gaming.yaml, gaming-unseen.yaml, gaming-blind.yaml,
              gaming-fourth.yaml, gaming-fifth.yaml, gaming-sixth.yaml,
              gaming-seventh.yaml, gaming-eighth.yaml, gaming-ninth.yaml,
              gaming-tenth.yaml, gaming-eleventh.yaml and gaming-twelfth.yaml (the
              twelve recipe families by default; --gaming FILE, repeatable, for others): recipe bots (a template,
              parroting, entity stuffing, ...) must rank below smollm2 and retrieval;
              one dataset per file

    \b
    Examples:
      chatmatch validate
      chatmatch validate --config tournaments/paper.yaml --seeds 10
      chatmatch validate --datasets stb --ngram-fluency --json
      chatmatch validate --datasets fed,dstc9 --sample 50 --ngram-fluency
      chatmatch validate --datasets fed,dstc9 --config new.yaml --baseline old.yaml
      chatmatch validate --datasets dstc9,fed,stb --learned --sample 20 --stb-sample 60
    """
    names = parse_datasets(datasets)
    named = click.get_current_context().get_parameter_source("datasets") != ParameterSource.DEFAULT
    cfg = load_lab_config(config_file)
    base = load_lab_config(baseline_file) if baseline_file else None
    if ngram_fluency:
        cfg = with_ngram_fluency(cfg)
        base = with_ngram_fluency(base) if base is not None else None
    lab = Lab(cfg, lab_data_dir(data_dir, names, dstc9_dir), names, seeds, ladder_file, ladder_exchanges,
              dstc9_dir=dstc9_dir, sample=sample, bootstrap=bootstrap, baseline=base,
              datasets_named=named, gaming_files=tuple(gaming_files),
              gaming_exchanges=gaming_exchanges)
    lab.check_inputs()
    rated = [n for n in names if n in LEARN_DATASETS]
    if learned and not rated:
        raise LabError("--learned: choose at least one of dstc9, fed, stb in --datasets")
    # no ETA: the steps cost very different times (the LM's pass dominates)
    with Reporter(quiet=quiet).bar("validating", lab.steps_total(), unit="steps",
                                   estimate=False) as bar:
        lab.progress = bar
        report = lab.run()
    text = None
    if learned:
        sides = load_sides(lab.data_dir, rated, sample, stb_sample)
        table = build_table(sides, minilm(), learned_cache)
        report["learned_judge"] = evaluate(table, bootstrap, cfg.seed)
        text = "Learned judge out of sample (docs/learned-judge.md)\n" + table_text(
            report["learned_judge"])
    click.echo(json.dumps(report, indent=2) if as_json else render(report))
    if text and not as_json:
        click.echo("\n" + text)
