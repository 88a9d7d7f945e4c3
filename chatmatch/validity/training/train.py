"""Re-train the learned judge from people's ratings: one command, deterministic.

    python -m chatmatch.validity.training.train --data DATA \\
        --out chatmatch/scoring/learned/learned_judge.json --cache ~/.cache/chatmatch/learn

reads DSTC9, FED and Spot The Bot under ``--data`` (:mod:`chatmatch.validity.training.data`),
scores every game with the seven scorers, embeds the rated sides' turns, fits the model on
every rated side (:mod:`chatmatch.validity.training.fit`) and writes the JSON model file.
``--evaluate FILE`` also writes the out-of-sample evaluation
(:mod:`chatmatch.validity.training.evaluate`) as JSON and prints its table; ``--variants FILE``
the comparison of the fitting recipes (:mod:`chatmatch.validity.training.variants`). The same data gives
the same file, byte for byte. ``--cache`` keeps the scorers' values and the embeddings
between runs (outside the repository); it changes nothing but the time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chatmatch.common.safeio import folder_problem
from chatmatch.common.tables import fmt_estimate
from chatmatch.errors import ChatmatchError
from chatmatch.scoring.learned.model import PACKAGED, dump_model
from chatmatch.validity.datasets.datahelp import data_dir
from chatmatch.validity.training.data import DATASETS, RatedSide, load_sides
from chatmatch.validity.training.evaluate import evaluate, fitted_weights
from chatmatch.validity.training.fit import SHIPPED, fit_model
from chatmatch.validity.training.table import Embed, Table, build_table


def minilm() -> Embed:
    from chatmatch.runtime.embed import get_embedder
    return get_embedder().embed


def rated_sides(data_dir: Path, datasets: Sequence[str], sample: int | None,
                stb_sample: int | None) -> list[RatedSide]:
    """The rated sides a training command fits on; a :class:`ChatmatchError` naming
    ``--data`` when the folder is unusable or holds none."""
    if why := folder_problem(data_dir):
        raise ChatmatchError(f"--data {data_dir}: {why}; give the folder holding "
                             "dstc9/, fed/ and stb/ (or set CHATMATCH_DATA)")
    sides = load_sides(data_dir, datasets, sample, stb_sample)
    if not sides:
        raise ChatmatchError(f"--data {data_dir}: no rated sides in {', '.join(datasets)}")
    return sides


def train(data_dir: Path, out: Path, datasets: Sequence[str] = DATASETS,
          cache: Path | None = None, sample: int | None = None,
          stb_sample: int | None = None, embed: Embed | None = None) -> Table:
    """Fit on every rated side of ``datasets`` and write the model file ``out``."""
    sides = rated_sides(data_dir, datasets, sample, stb_sample)
    table = build_table(sides, embed or minilm(), cache)
    counts = {d: int((table.dataset == d).sum()) for d in datasets}
    model = fit_model(table, np.arange(len(sides)),
                      trained_on={"datasets": counts, "sample": sample,
                                  "stb_sample": stb_sample,
                                  "target": "people's overall rating of the side, "
                                            + ("rank-normalised" if SHIPPED.target == "rank"
                                               else "z-scored") + " per dataset"})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump_model(model), encoding="utf-8")
    return table


def table_text(report: dict[str, Any]) -> str:
    """The evaluation as a plain-text table (one block per dataset)."""
    lines = []
    for name, rows in report.items():
        lines.append(f"{name}: predictor | system tau [95%] | side rho [95%] | side rho with "
                     "length | tau vs rule")
        for label, r in rows.items():
            vs = r.get("vs_rule", {}).get("system_tau")
            lines.append(f"  {label:34s} {fmt_estimate(r['system_tau'])}  {fmt_estimate(r['chat_rho'])}  "
                         f"{fmt_estimate(r['length']['chat_rho'])}  {fmt_estimate(vs) if vs else ''}")
    return "\n".join(lines)


def data_arguments(ap: argparse.ArgumentParser, out: Path) -> None:
    """The options every training command shares: where the data is, where the model file
    goes (default ``out``), which datasets, the cache and the draw."""
    ap.add_argument("--data", type=Path, default=None,
                    help="folder holding dstc9/, fed/ and stb/ (default: $CHATMATCH_DATA)")
    ap.add_argument("--out", type=Path, default=out)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--sample", type=int, default=None,
                    help="DSTC9 chats per system (a seeded draw; default all)")
    ap.add_argument("--stb-sample", type=int, default=None,
                    help="Spot The Bot: the first N judged conversations per domain")


def checked_datasets(args: argparse.Namespace) -> list[str]:
    """``--datasets`` as a list, checked with ``--sample`` and ``--stb-sample``: a
    :class:`ChatmatchError` naming the option otherwise."""
    datasets = [d.strip() for d in args.datasets.split(",") if d.strip()]
    bad = [d for d in datasets if d not in DATASETS]
    if bad or not datasets:
        raise ChatmatchError(f"--datasets: unknown {', '.join(bad) or '(none)'}; choose "
                             f"from {', '.join(DATASETS)}")
    for name in ("sample", "stb_sample"):
        if (v := getattr(args, name)) is not None and v < 1:
            raise ChatmatchError(f"--{name.replace('_', '-')} {v}: give a number >= 1")
    return datasets


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m chatmatch.validity.training.train",
                                 description=__doc__.split("\n")[0])
    data_arguments(ap, Path("chatmatch") / "scoring" / PACKAGED)
    ap.add_argument("--evaluate", type=Path, default=None,
                    help="also write the leave-out evaluation (JSON) here")
    ap.add_argument("--variants", type=Path, default=None,
                    help="also compare the recipes of chatmatch.validity.training.variants out "
                         "of sample (JSON here, table printed)")
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args(argv)
    try:
        datasets = checked_datasets(args)
        table = train(data_dir(args.data), args.out, datasets, args.cache, args.sample, args.stb_sample)
    except ChatmatchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({len(table.y)} rated sides)")
    if args.evaluate:
        report = evaluate(table, args.bootstrap)
        report["fitted_weights"] = fitted_weights(table)
        args.evaluate.write_text(json.dumps(report, indent=1), encoding="utf-8")
        print(table_text({k: v for k, v in report.items() if k != "fitted_weights"}))
        print(f"fitted weights (all rows): {report['fitted_weights']}")
    if args.variants:
        from chatmatch.validity.training.variants import compare, variants_text
        found = compare(table, samples=args.bootstrap)
        args.variants.write_text(json.dumps(found, indent=1), encoding="utf-8")
        print(variants_text(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
