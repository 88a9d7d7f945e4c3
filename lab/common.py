"""What the lab scripts share: the ``--data`` / ``--ngram-fluency`` arguments and the lab's
default scorers and weights (as ``chatmatch validate`` builds them). Not an experiment."""

from __future__ import annotations

import argparse
import os
import statistics
from collections import defaultdict
from typing import Any, Sequence

from chatmatch.records import GameResult

from chatmatch.scoring.build import build_scorers
from chatmatch.validity.lab.core import LabConfig, load_lab_config, with_ngram_fluency


def parser(doc: str, data_help: str, ngram_flag: bool = True) -> argparse.ArgumentParser:
    """A parser described by the first line of ``doc``, with ``--data`` (default
    ``$CHATMATCH_DATA``) and, unless ``ngram_flag`` is false, ``--ngram-fluency``."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("CHATMATCH_DATA"),
                    help=f"{data_help} (default $CHATMATCH_DATA)")
    if ngram_flag:
        ap.add_argument("--ngram-fluency", action="store_true")
    return ap


def scorers(ap: argparse.ArgumentParser, args: argparse.Namespace,
            ngram: bool) -> tuple[LabConfig, list[Any], dict[str, float]]:
    """The default lab config (fluency on the n-gram model when ``ngram``), its scorers and
    its weights; stops with the parser's message when no data folder was given."""
    if not args.data:
        ap.error("set --data or CHATMATCH_DATA")
    cfg = load_lab_config(None)
    if ngram:
        cfg = with_ngram_fluency(cfg)
    built = build_scorers(cfg.scoring, cfg.settings.runtime)
    return cfg, built, {d: cfg.scoring.weight(d) for d in cfg.scoring.dimensions}


def mean_points(results: Sequence[GameResult], bots: Sequence[str]) -> dict[str, float]:
    """Each bot's mean game points over the games it played (NaN for a bot with none)."""
    per: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for p in r.players:
            per[p].append(r.total[p])
    return {b: statistics.fmean(per[b]) if per[b] else float("nan") for b in bots}
