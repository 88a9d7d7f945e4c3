# lab experiment, 2026-11-27: (helper of fluency_candidates) the texts measured, and the per-token NLL pass over them.
"""The texts of the fluency measurements (benchmarks/fluency_tokens.py), by dataset and
side, read from ``$CHATMATCH_DATA`` (default ``../shared/data``) at run time, never copied.

    PYTHONPATH=$PWD nice python lab/fluency_texts.py --nll   # the per-token pass

``--nll`` runs SmolLM2's per-token pass (chatmatch.runtime.lm.tokens) over every text,
smallest datasets first, and fills the machine's token-NLL cache.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zipfile
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scorer_options import DATA, dstc9, fed  # noqa: E402

from chatmatch.analysis.fed import SYSTEM  # noqa: E402
from chatmatch.common.text import normalise  # noqa: E402
from chatmatch.validity.datasets.cleaning import clean_turn  # noqa: E402


#: human turns kept for the construct check (the first ones, in file order)
CONSTRUCT_CAP = 200


def usr_replies() -> list[tuple[str, str]]:
    """(responder, reply) of USR's 300 rated replies."""
    data = json.loads((DATA / "usr" / "pc_usr_data.json").read_text())
    return [(r["model"], r["response"].strip()) for item in data for r in item["responses"]]


def stb_human_turns() -> list[str]:
    """Turns of Spot The Bot's human speakers (conversations with a human side)."""
    out: list[str] = []
    with zipfile.ZipFile(DATA / "stb" / "MongoDump.zip") as zf:
        for name in zf.namelist():
            if not name.startswith("sampled-"):
                continue
            for line in zf.read(name).decode().splitlines():
                if not line.strip():
                    continue
                rec = json.loads(line)
                humans = {rec.get(f"system_type{k}") for k in (0, 1)} & {"human"}
                if not humans:
                    continue
                ids = {k: rec.get(f"system_type{k}") for k in (0, 1)}
                for turn in rec.get("convo", []):
                    side = turn.get("id")
                    if side == "human" or ids.get(side) == "human":
                        out.append(clean_turn(str(turn.get("text", "")))[0])
    return [t for t in out if t.strip()]


def side_texts(per_system: int = 50, first: int = 15) -> Iterator[tuple[str, list[str]]]:
    """(dataset-side label, texts) in the order the pass runs them: the small rated sets,
    DSTC9's System turns of the ``first`` chats a system, the construct check's human
    samples, then DSTC9's other chats. DSTC9 goes chat k of every system before chat k + 1
    of any, so that a pass cut short still covers every system evenly."""
    yield "usr", [r for _, r in usr_replies()]
    games, _, _ = fed()
    yield "fed-system", [t.text for g in games for t in g.turns if t.speaker == SYSTEM]
    dgames, _, _ = dstc9(per_system)
    humans = [t.text for g in dgames for t in g.turns if t.speaker != SYSTEM][:CONSTRUCT_CAP]
    dgames = sorted(dgames, key=lambda g: (int(g.game_id.split("-")[1]), g.game_id))
    early = [g for g in dgames if int(g.game_id.split("-")[1]) < first]
    yield "dstc9-system-early", [t.text for g in early for t in g.turns if t.speaker == SYSTEM]
    yield "fed-human", [t.text for g in games for t in g.turns if t.speaker != SYSTEM][:CONSTRUCT_CAP]
    yield "stb-human", stb_human_turns()[:CONSTRUCT_CAP]
    yield "dstc9-human", humans
    late = [g for g in dgames if int(g.game_id.split("-")[1]) >= first]
    yield "dstc9-system-late", [t.text for g in late for t in g.turns if t.speaker == SYSTEM]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nll", action="store_true")
    ap.add_argument("--per-system", type=int, default=50)
    args = ap.parse_args()
    from chatmatch.scoring.fluency import Fluency
    from chatmatch.runtime.lm.tokens import TokenScorer

    scorer = TokenScorer(Fluency().lm) if args.nll else None
    for label, texts in side_texts(args.per_system):
        texts = [normalise(t) for t in texts]
        start = time.time()
        if scorer is not None:
            for i in range(0, len(texts), 128):
                scorer.nlls(texts[i:i + 128])
                print(f"  {label}: {min(i + 128, len(texts))}/{len(texts)} {time.time() - start:.0f} s", flush=True)
        print(f"{label}: {len(texts)} texts, {len(set(texts))} distinct, {time.time() - start:.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
