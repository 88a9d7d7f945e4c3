"""The fluency construct check: human-written turns must not score less fluent than bland
generated text (``chatmatch validate --datasets construct``).

A fluency score that measures predictability ranks a generic "I see." above anything a
person writes. This check scores, with the lab's fluency scorer, turns of known kind, each
as a two-turn game (the turn before it, then the turn; the second side is judged):

* **human-written**: people's turns in DSTC9 and FED (the User side), Spot The Bot's human
  speakers, USR's two human replies, and replies from the Chit-Chat corpus that the
  ``retrieval`` bot answers with (``chitchat-dataset``: human-written lines);
* **bland**: generic replies (the ``canned`` bot's four lines, the ``faulty`` adapter's
  "I don't know." and the generic answers dialogue papers list as the blandness problem),
  each answering a person's turn, the ``echo`` bot's move: a person's turn repeated back,
  and a small LM's greedy replies to the same turns (the ``smollm2`` bot,
  :mod:`chatmatch.validity.lab.construct_greedy`). When the fluency scorer's LM is that same
  model, the greedy group's kind is ``scorer's own LM``: it measures self-preference, gets
  its own verdict (``own_lm_holds``) and is left out of the main one.

Each group gets the median of its games' oriented fluency score (higher = more fluent) with
a bootstrap interval over its games. The row **holds** when every human-written group's
median is at least every bland group's; ``tau`` is Kendall's tau-b between the medians and the
known order (human-written 1, bland 0), over those two kinds. Samples are
:data:`PER_GROUP` turns a group, drawn with ``numpy.random.default_rng(seed)`` from the data read at run time (never copied).
"""

from __future__ import annotations

import math
import zipfile
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chatmatch.stats.correlation import kendall
from chatmatch.analysis.fed import SYSTEM, USER, load_fed
from chatmatch.errors import ChatmatchError
from chatmatch.records import DimensionScore, nan_to_none
from chatmatch.scoring.base import Scorer
from chatmatch.transcript import Transcript, Turn
from chatmatch.validity.datasets.cleaning import clean_turn
from chatmatch.validity.lab.construct_greedy import (GROUP, OWN_LM, Generate, cached_replies,
                                                 is_own_lm, smollm2_replies)
from chatmatch.validity.datasets.dstc9 import load_dstc9
from chatmatch.validity.datasets.stb import ZIP_NAME, _jsonl
from chatmatch.validity.datasets.usr import KINDS, load_usr

#: turns sampled from each group
PER_GROUP = 60
HUMAN, BLAND = "human-written", "bland"
#: the canned bot's lines, the faulty adapter's generic reply, and generic replies of the
#: kind dialogue papers list as the blandness problem (Li et al. 2016)
GENERIC = ("That is interesting.", "Tell me more.", "I see.", "What do you mean?",
           "I don't know.", "I'm not sure.", "That's nice.", "Me too.", "Yes.", "OK.",
           "I am fine.", "That is good.", "Thank you.", "Really?", "Cool.", "That's cool.",
           "I don't know what you mean.", "I like it.", "Yeah.", "Sounds good.")

Pair = tuple[str, str]  # (the turn before, the turn)
NOTES = ("fluency alone; each turn scored as a two-turn game after the turn it answers",
         "holds: every human-written group's median >= every bland group's")


def _pairs(turns: Sequence[tuple[str, str]], side: str) -> list[Pair]:
    return [(turns[i - 1][1], t) for i, (s, t) in enumerate(turns) if s == side and i > 0 and t.strip()]


def _stb_human(path: Path) -> list[Pair]:
    out: list[Pair] = []
    with zipfile.ZipFile(path) as zf:
        for member in sorted(n for n in zf.namelist() if n.startswith("sampled-")):
            for rec in _jsonl(zf, member, str(path)):
                kinds = {k: rec.get(f"system_type{k}") for k in (0, 1)}
                if "human" not in kinds.values():
                    continue
                texts = [(str(t.get("id")), clean_turn(str(t.get("text") or ""))[0])
                         for t in rec.get("convo", [])]
                out += _pairs(texts, "human")
    return out


def _chitchat_pairs() -> list[Pair]:
    from chatmatch.runtime.ngram import chitchat_texts

    texts = chitchat_texts()
    return [(a, b) for a, b in zip(texts, texts[1:]) if a.strip() and b.strip()]


def human_groups(data_dir: Path) -> dict[str, list[Pair]]:
    """Group name -> (turn before, human-written turn) pairs, from the data that is there."""
    groups: dict[str, list[Pair]] = {}
    if (data_dir / "dstc9").is_dir() and any((data_dir / "dstc9").glob("chatbot*.json")):
        chats = load_dstc9(data_dir / "dstc9").chats
        groups["DSTC9 people"] = [p for c in chats for p in _pairs(c.turns, USER)]
    if (data_dir / "fed" / "fed_data.json").is_file():
        groups["FED people"] = [p for d in load_fed(data_dir / "fed" / "fed_data.json")
                                for p in _pairs(d.turns, USER)]
    if (data_dir / "stb" / ZIP_NAME).is_file():
        groups["Spot The Bot people"] = _stb_human(data_dir / "stb" / ZIP_NAME)
    if (data_dir / "usr" / "pc_usr_data.json").is_file():
        groups["USR people"] = [(r.turns[0][1] if len(r.turns) > 1 else "", r.turns[-1][1])
                                for r in load_usr(data_dir / "usr") if KINDS[r.system] == "human"]
    groups["retrieval corpus (chitchat)"] = _chitchat_pairs()
    return {k: v for k, v in groups.items() if v}


def sample_groups(data_dir: Path, seed: int, per_group: int = PER_GROUP) -> dict[str, tuple[str, list[Pair]]]:
    """Group name -> (kind, sampled pairs): the human-written groups, then the bland ones
    (answering the first human group's sampled turns)."""
    rng = np.random.default_rng(seed)
    out: dict[str, tuple[str, list[Pair]]] = {}
    for name, pairs in human_groups(data_dir).items():
        idx = sorted(rng.choice(len(pairs), size=min(per_group, len(pairs)), replace=False).tolist())
        out[name] = (HUMAN, [pairs[i] for i in idx])
    prompts = [b for _, pairs in out.values() for _, b in pairs]
    if prompts:
        picks = [prompts[i] for i in rng.choice(len(prompts), size=per_group, replace=False
                                                if len(prompts) >= per_group else True)]
        out["generic replies"] = (BLAND, [(p, GENERIC[i % len(GENERIC)]) for i, p in enumerate(picks)])
        out["echo (a person's turn repeated back)"] = (BLAND, [(p, p) for p in picks])
    return out


def add_greedy_group(groups: dict[str, tuple[str, list[Pair]]], fluency: Scorer,
                     progress: Any = None, generate: Generate | None = None) -> str:
    """Add the small LM's greedy replies to the generic group's prompts (kind ``bland``, or
    :data:`OWN_LM` when ``fluency`` scores with that LM); returns a note saying which."""
    generic = groups.get("generic replies")
    if not generic:
        return "no greedy small-LM group: no prompts"
    prompts = [p for p, _ in generic[1]]
    if progress is not None:
        progress.update(detail=f"construct: {GROUP}, {len(prompts)} replies (cached per machine)")
    try:
        replies = cached_replies(prompts, generate or smollm2_replies)
    except ChatmatchError as exc:
        return f"no greedy small-LM group: {exc}"
    own = is_own_lm(fluency.params)
    groups[GROUP] = (OWN_LM if own else BLAND, list(zip(prompts, replies)))
    return (f"{GROUP}: the fluency LM's own greedy text, a check of self-preference with its "
            "own verdict" if own else f"{GROUP}: a bland group")


def games_of(groups: dict[str, tuple[str, list[Pair]]]) -> tuple[list[Transcript], list[str]]:
    games, labels = [], []
    for name, (_, pairs) in groups.items():
        for i, (before, turn) in enumerate(pairs):
            games.append(Transcript(f"construct/{name}/{i}", (USER, SYSTEM),
                                    (Turn(0, USER, before or "..."), Turn(1, SYSTEM, turn))))
            labels.append(name)
    return games, labels


def evaluate_construct(groups: dict[str, tuple[str, list[Pair]]], labels: Sequence[str],
                       scores: Sequence[DimensionScore], samples: int, seed: int) -> dict[str, Any]:
    """Per group: the median oriented fluency of its turns and its bootstrap interval (a
    turn's perplexity has outliers of 10^6: a mean says little); whether the order holds."""
    sign = 1.0 if scores and scores[0].higher_is_better else -1.0
    values = np.array([sign * float(s.raw.get(SYSTEM, math.nan)) for s in scores])
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for name, (kind, _) in groups.items():
        mine = values[[i for i, lab in enumerate(labels) if lab == name]]
        mine = mine[np.isfinite(mine)]
        boot = [float(np.median(rng.choice(mine, mine.size))) for _ in range(samples)] if mine.size else []
        rows.append({"group": name, "kind": kind, "turns": int(mine.size),
                     "median": nan_to_none(float(np.median(mine)) if mine.size else math.nan, 4),
                     "low": nan_to_none(float(np.quantile(boot, 0.025)) if boot else math.nan, 4),
                     "high": nan_to_none(float(np.quantile(boot, 0.975)) if boot else math.nan, 4)})
    scored = [(float(r["median"]), r["kind"]) for r in rows if r["median"] is not None]
    human = [m for m, kind in scored if kind == HUMAN]
    bland = [m for m, kind in scored if kind == BLAND]
    own = [m for m, kind in scored if kind == OWN_LM]
    holds = bool(human and bland and min(human) >= max(bland))
    ordered = [(m, kind) for m, kind in scored if kind in (HUMAN, BLAND)]
    tau = kendall([m for m, _ in ordered], [1.0 if k == HUMAN else 0.0 for _, k in ordered]).value
    return {"dataset": "construct", "kind": "construct", "rows": rows, "holds": holds,
            "own_lm_holds": bool(human and min(human) >= max(own)) if own else None,
            "tau": nan_to_none(tau, 4)}
