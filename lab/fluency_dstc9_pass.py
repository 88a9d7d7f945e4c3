# lab experiment, 2026-11-27: (helper of fluency_candidates) fills the perplexity cache with DSTC9's System turns.
"""Fill the machine's perplexity cache with the default LM's perplexities of DSTC9's System
turns, chat k of every system before chat k + 1 of any (a pass cut short covers every
system evenly), through the fluency scorer's own path (the values ``chatmatch validate``
reads back). lab/fluency_candidates.py --ppl then measures the chats it reached.

    CHATMATCH_DATA=../shared/data PYTHONPATH=$PWD nice python lab/fluency_dstc9_pass.py
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from chatmatch.analysis.fed import SYSTEM
from chatmatch.scoring.fluency import Fluency
from chatmatch.common.text import normalise
from chatmatch.validity.datasets.dstc9 import load_dstc9

DATA = Path(os.environ.get("CHATMATCH_DATA", "../shared/data"))


def main() -> None:
    chats = sorted(load_dstc9(DATA / "dstc9").chats, key=lambda c: (c.index, c.system))
    lm = Fluency().lm
    start = time.time()
    for k in range(0, len(chats), 11):
        texts = [normalise(t) for c in chats[k:k + 11] for s, t in c.turns if s == SYSTEM]
        lm.perplexities(texts)
        print(f"chat {k // 11 + 1} of every system: {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
