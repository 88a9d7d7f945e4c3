"""The people's ratings the learned judge is trained and evaluated on, as rated sides.

A *rated side* is one speaker of one conversation with people's rating of that speaker:

* ``dstc9``: the System side of each DSTC9 chat, rated ``human (overall)`` (1-5, mean of
  2-3 crowd workers); 11 systems;
* ``fed``: the System side of each FED dialogue, rated ``Overall`` (FED dialogue level);
  3 systems (Meena, Mitsuku, Human);
* ``stb``: both sides of each judged Spot The Bot bot-bot conversation, rated by the share
  of workers who judged that side human (the fooling rate's unit); bot versus bot, the
  closest to a chatmatch game. A system's name is prefixed with its domain.

USR's PersonaChat replies (turn level: one reply to a context, not a side of a
conversation) are not used: the learned judge scores a whole side of a game, and a single
reply has no per-side statistics (turn-length spread, repetition, question rate).

Targets are z-scored within each dataset (the scales differ: 1-5, 0-100, a share), so a
model trained on several datasets learns one "how good is this side" score.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from chatmatch.analysis.fed import OVERALL as FED_OVERALL
from chatmatch.analysis.fed import SYSTEM, load_fed
from chatmatch.transcript import Transcript
from chatmatch.validity.datasets.dstc9 import OVERALL as DSTC9_OVERALL
from chatmatch.validity.datasets.dstc9 import load_dstc9
from chatmatch.validity.datasets.stb import load_stb
from chatmatch.validity.lab.stb_sides import HUMAN

DATASETS = ("dstc9", "fed", "stb")


@dataclass(frozen=True)
class RatedSide:
    dataset: str
    system: str  # the rated speaker's system (STB: "domain/system")
    game: Transcript
    side: str  # the rated speaker's name in ``game``
    rating: float  # people's rating on the dataset's own scale
    target: float = math.nan  # the rating z-scored within its dataset


def zscored(sides: Sequence[RatedSide]) -> list[RatedSide]:
    """The same sides with ``target`` set: each dataset's ratings z-scored."""
    out = []
    for name in dict.fromkeys(s.dataset for s in sides):
        mine = [s for s in sides if s.dataset == name]
        vals = [s.rating for s in mine]
        mu, sd = statistics.fmean(vals), statistics.pstdev(vals) or 1.0
        out += [RatedSide(s.dataset, s.system, s.game, s.side, s.rating, (s.rating - mu) / sd)
                for s in mine]
    return out


def dstc9_sides(data_dir: Path, sample: int | None = None, seed: int = 0) -> list[RatedSide]:
    data = load_dstc9(data_dir / "dstc9").sample(sample, seed)
    return [RatedSide("dstc9", c.system, c.transcript(), SYSTEM, c.ratings[DSTC9_OVERALL])
            for c in data.chats if DSTC9_OVERALL in c.ratings and c.turns]


def fed_sides(data_dir: Path) -> list[RatedSide]:
    return [RatedSide("fed", d.system, d.transcript(), SYSTEM, d.ratings[FED_OVERALL])
            for d in load_fed(data_dir / "fed" / "fed_data.json")
            if FED_OVERALL in d.ratings and d.turns]


def stb_sides(data_dir: Path, per_domain: int | None = None) -> list[RatedSide]:
    """Both sides of every judged bot-bot conversation (``per_domain``: only the first so
    many judged conversations of each domain, in the release's order)."""
    out = []
    for dom in load_stb(data_dir / "stb"):
        taken = 0
        by_convo: dict[str, list[tuple[bool | None, bool | None]]] = {}
        for j in dom.judgements:
            by_convo.setdefault(j.convo_id, []).append((j.human0, j.human1))
        for g in dom.games:
            js = by_convo.get(g.game_id)
            if not js or not g.turns or (per_domain is not None and taken >= per_domain):
                continue
            taken += 1
            for k, p in enumerate(g.players):
                share = statistics.fmean(float(j[k] is True) for j in js)
                out.append(RatedSide("stb", f"{dom.domain}/{p}", g, p, share))
    return out


def load_sides(data_dir: Path, datasets: Sequence[str] = DATASETS, sample: int | None = None,
               stb_sample: int | None = None) -> list[RatedSide]:
    """Every rated side of ``datasets`` under ``data_dir`` (the folder holding dstc9/,
    fed/ and stb/), targets z-scored per dataset. ``sample``: DSTC9 chats per system
    (seeded draw); ``stb_sample``: Spot The Bot's first judged conversations per domain."""
    sides: list[RatedSide] = []
    for name in datasets:
        if name == "dstc9":
            sides += dstc9_sides(data_dir, sample)
        elif name == "fed":
            sides += fed_sides(data_dir)
        elif name == "stb":
            sides += stb_sides(data_dir, stb_sample)
        else:
            raise ValueError(f"unknown dataset {name!r}; choose from {', '.join(DATASETS)}")
    return zscored(sides)


__all__ = ["DATASETS", "HUMAN", "RatedSide", "load_sides", "zscored"]
