"""Figures of a run (matplotlib, Agg backend), each saved as PNG (:data:`PNG_DPI` dots per
inch) and SVG.

* ``ranks``: the paper's Figure 3 -- bots on the x axis, the rank each method (and the
  humans) gives them as lines, rank 1 at the top; a bot the human ranking leaves out is
  marked `` *`` and named in a note under the chart;
* ``trueskill``: TrueSkill mu per bot with +-sigma bars;
* ``head_to_head``: game points each bot (row) scored against each opponent (column),
  the colour scale from 0;
* ``dimension_wins``: per bot, the games in which it won each dimension.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from chatmatch.analysis.agreement import dimension_wins  # noqa: E402
from chatmatch.analysis.methods import method_table  # noqa: E402
from chatmatch.ranking import Ranking  # noqa: E402
from chatmatch.records import GameResult, TrueSkillStats  # noqa: E402
from chatmatch.rundir.store import atomic_write  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

    from chatmatch.analysis.human import HumanRanking
    from chatmatch.run.storedrun import Run

#: fixed salt and no date: the same run gives byte-identical SVG files
_RC: dict[RcKeyType, Any] = {"svg.hashsalt": "chatmatch", "figure.dpi": 100, "font.size": 9}
_META = {"svg": {"Date": None}, "png": {}}
#: resolution of the PNG files (print quality; the SVG files are vector graphics)
PNG_DPI = 200
#: the mark of a bot the human ranking leaves out, on the rank chart's x axis
NO_HUMAN_MARK = " *"


def rank_chart(ranks: Mapping[str, Mapping[str, float]], bots: Sequence[str],
               human: Mapping[str, float] | None = None) -> Figure:
    """Paper Figure 3: one line per method (plus humans, dashed) over the bots."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(bots) + 2), 3.8))
        x = np.arange(len(bots))
        markers, styles = "osD^v<>ph*", ["-", "--", ":", "-."]
        shift = 0.06  # methods that agree would hide each other: nudge each line sideways
        for i, (label, r) in enumerate(ranks.items()):
            ax.plot(x + shift * (i - (len(ranks) - 1) / 2), [r.get(b, np.nan) for b in bots],
                    marker=markers[i % len(markers)], linestyle=styles[i % len(styles)],
                    label=label, linewidth=1.5)
        labels = list(bots)
        if human is not None:
            ax.plot(x, [human.get(b, np.nan) for b in bots], "k--", marker="*", markersize=10,
                    label="humans", linewidth=2)
            labels = [b if b in human else b + NO_HUMAN_MARK for b in bots]
        ax.set_xticks(x, labels, rotation=30, ha="right")
        ax.set_ylim(len(bots) + 0.5, 0.5)
        ax.set_yticks(range(1, len(bots) + 1))
        ax.set_xlabel("bot" + (" (ordered by the human ranking)" if human is not None else ""))
        ax.set_ylabel("rank (1 = best)")
        ax.set_title("Rankings of the bots by each method")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
        missing = missing_from_human(bots, human)
        if missing:
            fig.text(0.01, 0.01, f"{NO_HUMAN_MARK.strip()} not in the human ranking (no human "
                                 f"rank drawn): {', '.join(missing)}", fontsize=7, ha="left",
                     va="bottom")
        fig.tight_layout(rect=(0, 0.05 if missing else 0, 1, 1))
    return fig


def missing_from_human(bots: Sequence[str], human: Mapping[str, float] | None) -> list[str]:
    """The bots a human ranking leaves out (none without a human ranking)."""
    return [b for b in bots if b not in human] if human is not None else []


def trueskill_chart(ranking: Ranking) -> Figure:
    rows = list(ranking.rows)
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(max(5.0, 1.0 * len(rows) + 2), 3.6))
        x = np.arange(len(rows))
        ts = [r.stats if isinstance(r.stats, TrueSkillStats) else None for r in rows]
        mu = [s.mu if s else np.nan for s in ts]
        sd = [s.sigma if s else 0.0 for s in ts]
        ax.errorbar(x, mu, yerr=sd, fmt="o", capsize=5, color="tab:blue", label="mu +- sigma")
        cons = [s.conservative if s else np.nan for s in ts]
        ax.plot(x, cons, "v", color="tab:red", label="mu - k*sigma (rank key)")
        ax.set_xticks(x, [r.bot for r in rows], rotation=30, ha="right")
        ax.set_ylabel("TrueSkill rating")
        ax.set_title(f"TrueSkill ratings ({ranking.meta.get('shuffles', '?')} shuffles averaged)")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
    return fig


def head_to_head_matrix(results: Sequence[GameResult], bots: Sequence[str]) -> np.ndarray:
    """``m[i, j]``: game points bot i scored in its games against bot j (summed)."""
    pos = {b: i for i, b in enumerate(bots)}
    m = np.full((len(bots), len(bots)), np.nan)
    for r in results:
        a, b = r.players
        for me, other in ((a, b), (b, a)):
            i, j = pos[me], pos[other]
            m[i, j] = (0.0 if np.isnan(m[i, j]) else m[i, j]) + r.total[me]
    return m


def head_to_head_chart(results: Sequence[GameResult], bots: Sequence[str]) -> Figure:
    m = head_to_head_matrix(results, bots)
    with plt.rc_context(_RC):
        size = max(4.0, 0.8 * len(bots) + 2)
        fig, ax = plt.subplots(figsize=(size + 1, size))
        im = ax.imshow(np.ma.masked_invalid(m), cmap="RdYlGn", vmin=0.0)  # the scale from 0
        for i in range(len(bots)):
            for j in range(len(bots)):
                if not np.isnan(m[i, j]):
                    ax.text(j, i, f"{m[i, j]:g}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(bots)), list(bots), rotation=30, ha="right")
        ax.set_yticks(range(len(bots)), list(bots))
        ax.set_xlabel("opponent")
        ax.set_ylabel("bot")
        ax.set_title("Game points scored against each opponent")
        fig.colorbar(im, ax=ax, shrink=0.8)
        fig.tight_layout()
    return fig


def dimension_wins_chart(results: Sequence[GameResult], bots: Sequence[str]) -> Figure:
    wins = dimension_wins(results, bots)
    dims = list(wins)
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(bots) + 2), 3.8))
        x = np.arange(len(bots))
        width = 0.8 / max(1, len(dims))
        for k, d in enumerate(dims):
            ax.bar(x - 0.4 + width * (k + 0.5), [wins[d][b] for b in bots], width, label=d)
        ax.set_xticks(x, list(bots), rotation=30, ha="right")
        ax.set_ylabel("games won on the dimension")
        ax.set_title("Dimension wins per bot")
        ax.legend(fontsize=7, ncol=min(4, max(1, len(dims))))
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
    return fig


def save(fig: Figure, out_dir: Path, name: str) -> list[Path]:
    """Write ``name.png`` and ``name.svg`` and close the figure."""
    paths = []
    try:
        for ext in ("png", "svg"):  # written as every file of chatmatch: never through a link
            p = out_dir / f"{name}.{ext}"
            atomic_write(p, _render(fig, ext))
            paths.append(p)
    finally:
        plt.close(fig)
    return paths


def _render(fig: Figure, fmt: str) -> bytes:
    buf = io.BytesIO()
    with plt.rc_context(_RC):
        fig.savefig(buf, format=fmt, metadata=_META[fmt], dpi=PNG_DPI if fmt == "png" else "figure")
    return buf.getvalue()


def to_bytes(fig: Figure, fmt: str = "svg") -> bytes:
    """The figure in ``fmt``, closed."""
    data = _render(fig, fmt)
    plt.close(fig)
    return data


def run_figures(data: "Run", human: "HumanRanking | None" = None) -> dict[str, Figure]:
    """Every figure of a run, by file stem."""
    variants = method_table(data)
    order = list(data.bots)
    if human is not None:
        order.sort(key=lambda b: (human.ranks.get(b, float("inf")), b))
    else:
        order = variants[0].order()
    figs = {"ranks": rank_chart({v.label: v.ranks for v in variants}, order,
                                human.ranks if human is not None else None)}
    ts = data.rank(method="trueskill")
    figs["trueskill"] = trueskill_chart(ts)
    figs["head_to_head"] = head_to_head_chart(list(data.results), ts.order())
    figs["dimension_wins"] = dimension_wins_chart(list(data.results), ts.order())
    return figs


def plot_run(data: "Run", out_dir: Path, human: "HumanRanking | None" = None) -> list[Path]:
    """Write every figure of a run as PNG and SVG into ``out_dir``."""
    paths: list[Path] = []
    for name, fig in run_figures(data, human).items():
        paths += save(fig, out_dir, name)
    return paths
