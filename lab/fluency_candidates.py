# lab experiment, 2026-11-27: Which fluency statistic agrees with people across kinds of bot (chose slor + degenerate: worst)?
"""Which fluency statistic agrees with people across kinds of bot (issue 32)?

Every candidate is derived from one SmolLM2 per-token pass (lab/fluency_texts.py
--nll fills the token-NLL cache; texts not in it are computed here). Per turn:

* ``ppl``: log perplexity (the mean token NLL; today's default ranks by its median);
* ``slor-word``: log perplexity minus the log unigram perplexity of the turn's words
  (today's ``aggregation: slor``);
* ``slor``: mean over tokens of LM NLL minus subword unigram NLL (chitchat-dataset counts);
* ``unlikely``: share of tokens whose SLOR is below -log(1000);
* ``worst-token``: the turn's worst token SLOR;
* ``norm-lp``: LM NLL over unigram NLL (Lau et al.'s NormLP, divided);

and each with ``+deg``: degenerate turns (repeat of own turn, echo of the partner,
self-repeating phrase, truncated) count as the worst possible turn. A System's value in a
chat is the median over its turns (lower = more fluent, negated for the tables).

Datasets (read from $CHATMATCH_DATA at run time): USR (per responder and per reply, vs
Natural and Overall), FED (System side, vs Overall and Fluent-like Understanding), DSTC9
(first ``--per-system`` chats a system, vs overall and understanding); plus the construct
check: the median turn value of human-written groups vs bland generated groups.

    CHATMATCH_DATA=/work/shared/data PYTHONPATH=$PWD nice python lab/fluency_candidates.py
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fluency_texts import DATA, stb_human_turns, CONSTRUCT_CAP  # noqa: E402
from scorer_options import dstc9, fed  # noqa: E402

from chatmatch.analysis.fed import SYSTEM  # noqa: E402
from chatmatch.scoring.fluency import Fluency  # noqa: E402
from chatmatch.scoring.fluency_tokens import (SubwordUnigrams, chitchat_subword_unigrams,  # noqa: E402
                                              degenerate)
from chatmatch.runtime.lm.tokens import TokenScorer  # noqa: E402
from chatmatch.common.text import normalise, tokens  # noqa: E402
from chatmatch.scoring.variety import chitchat_unigrams  # noqa: E402
from chatmatch.transcript import Transcript  # noqa: E402
from chatmatch.stats.bootstrap import agreement  # noqa: E402
from chatmatch.validity.datasets.dstc9 import load_dstc9  # noqa: E402
from chatmatch.validity.datasets.usr import load_usr  # noqa: E402

Feature = Callable[[np.ndarray, list[int], str], float]


class Features:
    def __init__(self) -> None:
        lm = Fluency().lm
        self.lm: Any = lm
        self.scorer = TokenScorer(lm)
        tok = lm.tokenizer
        self.uni: SubwordUnigrams = chitchat_subword_unigrams(tok, lm.vocab_size, lm.name)
        self.words = chitchat_unigrams()

    ppl_only = False

    def turn_from_ppl(self, text: str) -> dict[str, float] | None:
        """The candidates a turn's perplexity gives (no per-token NLLs): log ppl, SLOR on
        words and on subword tokens (mean unigram NLL of the tokens), NormLP."""
        (ppl,) = self.lm.perplexities([text])
        if ppl is None:
            return None
        ids = self.ids(text)
        uni = float(np.mean(self.uni.nll[np.asarray(ids) % self.uni.nll.size]))
        lp = math.log(ppl)
        word = self.words.log_perplexity(tokens(text)) or 0.0
        return {"ppl": lp, "slor-word": lp - word, "slor": lp - uni, "norm-lp": lp / max(uni, 1e-6)}

    def ppl_cached(self, texts: Sequence[str]) -> bool:
        todo = list(dict.fromkeys(normalise(t) for t in texts))
        store = self.lm.store
        return store is not None and len(store.get(todo)) == len(todo)

    def ids(self, text: str) -> list[int]:
        return list(self.lm._encode(text))[1:]

    def turn(self, text: str) -> dict[str, float] | None:
        text = normalise(text)
        if self.ppl_only:
            return self.turn_from_ppl(text)
        (nll,) = self.scorer.nlls([text])
        if nll is None or len(nll) == 0:
            return None
        ids = self.ids(text)[-len(nll):]
        uni = self.uni.nll[np.asarray(ids) % self.uni.nll.size]
        s = uni - nll
        lp = float(np.mean(nll))
        word = self.words.log_perplexity(tokens(text)) or 0.0
        return {"ppl": lp, "slor-word": lp - word, "slor": -float(np.mean(s)),
                "unlikely": float(np.mean(s < -math.log(1000.0))),
                "worst-token": -float(np.min(s)), "norm-lp": lp / max(float(np.mean(uni)), 1e-6)}

    def cached(self, texts: Sequence[str]) -> bool:
        """Whether every text's NLLs are in the token cache (or this process's memory)."""
        todo = [normalise(t) for t in texts]
        todo = [t for t in todo if t not in self.scorer._memo]
        if not todo or self.scorer.store is None:
            return not todo
        found = self.scorer.store.get_arrays(todo)
        self.scorer._memo.update(found)
        return len(found) == len(set(todo))

    def prefetch(self, texts: Sequence[str]) -> None:
        todo = [normalise(t) for t in texts]
        for i in range(0, len(todo), 512):
            self.scorer.nlls(todo[i:i + 512])


NAMES = ("ppl", "slor-word", "slor", "unlikely", "worst-token", "norm-lp")
PPL_NAMES = ("ppl", "slor-word", "slor", "norm-lp")


def game_values(f: Features, game: Transcript, side: str = SYSTEM) -> dict[str, float]:
    """Per candidate, the median over ``side``'s turns (lower = more fluent)."""
    names = PPL_NAMES if f.ppl_only else NAMES
    per: dict[str, list[float]] = {n: [] for n in names}
    per.update({n + "+deg": [] for n in names})
    own: list[str] = []
    last_other: str | None = None
    for t in game.turns:
        if t.speaker != side:
            last_other = t.text
            continue
        v = f.turn(t.text)
        deg = degenerate(t.text, own, last_other)
        own.append(t.text)
        if v is None:
            continue
        for n in names:
            per[n].append(v[n])
            per[n + "+deg"].append(math.inf if deg else v[n])
    return {n: (float(statistics.median(x)) if x else math.nan) for n, x in per.items()}


def turn_words(games: Sequence[Transcript]) -> list[float]:
    """The System's mean words per turn in each game (the length-bias feature)."""
    out = []
    for g in games:
        n = [len(t.text.split()) for t in g.turns if t.speaker == SYSTEM]
        out.append(statistics.fmean(n) if n else math.nan)
    return out


def table(title: str, systems: list[str], values: list[dict[str, float]],
          ratings: list[dict[str, float]], qualities: Sequence[str],
          words: Sequence[float]) -> None:
    print(f"\n### {title}\n")
    print("| candidate | " + " | ".join(f"{q}: sys tau [95%] | {q}: rho [95%]" for q in qualities)
          + " | vs turn words: sys tau / rho |")
    print("|---|" + "---|" * (2 * len(qualities) + 1))
    for n in values[0]:
        x = [-v[n] if math.isfinite(v[n]) else -1e9 for v in values]
        tau_w, rho_w, _, _ = agreement(systems, x, list(words), 200, 0)
        cells = []
        for q in qualities:
            x = [-v[n] if math.isfinite(v[n]) else -1e9 for v in values]
            y = [r.get(q, math.nan) for r in ratings]
            tau, rho, _, _ = agreement(systems, x, y, 1000, 0)
            cells += [tau.fmt(), rho.fmt()]
        cells.append(f"{tau_w.value or 0:+.2f} / {rho_w.value or 0:+.2f}")
        print(f"| {n} | " + " | ".join(cells) + " |")


def construct(f: Features) -> None:
    """Median turn value per group: human-written vs bland generated."""
    from chatmatch_bots.baseline import DEFAULT_LINES
    from chatmatch_bots.faults import GENERIC_REPLY

    usr = load_usr(DATA / "usr")
    games, _, _ = dstc9(50)
    fgames, _, _ = fed()
    groups: dict[str, list[str]] = {
        "human: dstc9 people": [t.text for g in games for t in g.turns if t.speaker != SYSTEM][:CONSTRUCT_CAP],
        "human: fed people": [t.text for g in fgames for t in g.turns if t.speaker != SYSTEM],
        "human: stb people": stb_human_turns()[:CONSTRUCT_CAP],
        "human: usr people": [r.turns[-1][1] for r in usr if r.system in ("Original Ground Truth", "New Human Generated")],
        "retrieval: usr KV-MemNN": [r.turns[-1][1] for r in usr if r.system == "KV-MemNN"],
        "bland: canned lines": list(DEFAULT_LINES),
        "bland: generic replies": [GENERIC_REPLY, *GENERIC],
        "generated: usr seq2seq": [r.turns[-1][1] for r in usr if r.system == "Seq2Seq"],
        "generated: usr LM": [r.turns[-1][1] for r in usr if r.system == "Language Model"],
    }
    print("\n### construct: median turn value per group (lower = more fluent)\n")
    print("| group | turns | " + " | ".join(NAMES) + " |")
    print("|---|---|" + "---|" * len(NAMES))
    for name, texts in groups.items():
        if not f.ppl_only:
            f.prefetch(texts)
        vals = [v for v in (f.turn(t) for t in texts) if v is not None]
        cells = [f"{statistics.median(v[n] for v in vals):.3f}" if n in vals[0] else "-" for n in NAMES]
        print(f"| {name} | {len(vals)} | " + " | ".join(cells) + " |")


#: generic replies of the kind dialogue papers list as the bland-response problem
GENERIC = ("I don't know what you mean.", "I'm not sure.", "That's nice.", "Me too.", "Yes.",
           "No.", "OK.", "I am fine.", "I like it.", "That is good.", "Thank you.", "lol",
           "I don't know.", "What?", "Really?", "Cool.", "I'm good, how are you?",
           "That's cool.", "I see.", "Yeah.")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-system", type=int, default=0)
    ap.add_argument("--only", default="usr,fed,dstc9,construct")
    ap.add_argument("--ppl", action="store_true", help="only the candidates a perplexity gives, "
                    "from the perplexity cache (DSTC9: the chats whose System turns are cached)")
    args = ap.parse_args()
    only = args.only.split(",")
    f = Features()
    f.ppl_only = args.ppl
    if "usr" in only:
        usr = load_usr(DATA / "usr")
        f.prefetch([t for r in usr for _, t in r.turns])
        vals = [game_values(f, r.transcript()) for r in usr]
        table("USR: 5 responders, 300 replies", [r.system for r in usr], vals,
              [dict(r.ratings) for r in usr], ("Natural", "Overall"),
              turn_words([r.transcript() for r in usr]))
    if "usr-context" in only:  # the reply given the context's last line vs the reply alone
        usr = load_usr(DATA / "usr")
        joined = [normalise(r.turns[0][1]) + "\n" + normalise(r.turns[-1][1]) for r in usr]
        f.prefetch(joined)
        f.prefetch([r.turns[-1][1] for r in usr])
        vals = []
        for r, j in zip(usr, joined):
            reply = normalise(r.turns[-1][1])
            (alone,), (both,) = f.scorer.nlls([reply]), f.scorer.nlls([j])
            n = len(alone) if alone is not None else 0
            given = float(np.mean(both[-n:])) if both is not None and n else math.nan
            lone = float(np.mean(alone)) if n else math.nan
            vals.append({"in context": given, "pmi (given - alone)": given - lone,
                         "alone": lone})
        table("USR: the reply given the context's last line (PMI-like)", [r.system for r in usr],
              vals, [dict(r.ratings) for r in usr], ("Natural", "Overall"),
              turn_words([r.transcript() for r in usr]))
    if "fed" in only:
        games, systems, ratings = fed()
        f.prefetch([t.text for g in games for t in g.turns if t.speaker == SYSTEM])
        table("FED: 3 systems", systems, [game_values(f, g) for g in games], ratings,
              ("Overall", "Understanding"), turn_words(games))
    if "dstc9" in only:
        chats = load_dstc9(DATA / "dstc9").chats
        if args.per_system:
            chats = tuple(c for c in chats if c.index < args.per_system)
        games = [c.transcript() for c in chats]
        systems = [c.system for c in chats]
        ratings = [dict(c.ratings) for c in chats]
        cached = f.ppl_cached if args.ppl else f.cached
        keep = [i for i, g in enumerate(games)
                if cached([t.text for t in g.turns if t.speaker == SYSTEM])]
        games, systems, ratings = ([x[i] for i in keep] for x in (games, systems, ratings))
        table(f"DSTC9: 11 systems, the {len(games)} chats whose System turns the LM pass "
              "reached", systems,
              [game_values(f, g) for g in games], ratings, ("human (overall)", "understanding"),
              turn_words(games))
    if "construct" in only:
        construct(f)


if __name__ == "__main__":
    main()
