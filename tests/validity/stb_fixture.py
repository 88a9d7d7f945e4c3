"""A tiny Spot The Bot release, built in the format of the authors' MongoDump.zip (nine
JSON Lines files, MongoDB extended JSON), for tests that must not need the real data."""

from __future__ import annotations

import itertools
import json
import zipfile
from pathlib import Path
from typing import Any

from chatmatch.validity.datasets.stb import DOMAINS

#: what each tiny system says, in turn; "good" asks varied questions, "bad" repeats itself
#: and leaves model artefacts in its text
LINES = {
    "good": ["where do you live ?", "i love hiking in colorado , do you hike ?",
             "my sister plays the violin in boston .", "what music do you like ?",
             "i cooked pasta with basil yesterday .", "do you have any pets ?"],
    "mid": ["i like music .", "i have a dog .", "i like music too .", "what ?",
            "i work at a bank .", "ok ."],
    "bad": ["i do not know . < /s >", "i do not know . < /s><pad><pad >", "i do not know .",
            "__unk__ i do not know .", "i do not know . </s>", "i do not know ."],
}
#: the crowd's verdict on each system: judged human on this share of segments
HUMANLIKE = {"good": 1.0, "mid": 0.5, "bad": 0.0}


def _oid(n: int) -> dict[str, str]:
    return {"$oid": f"{n:024x}"}


def conversation(n: int, a: str, b: str, turns: int, domain: str) -> dict[str, Any]:
    convo = []
    for i in range(turns):
        speaker = a if i % 2 == 0 else b
        convo.append({"exchange_nr": i // 2 + 1, "id": speaker, "episode_done": False,
                      "text": LINES[speaker][(i // 2) % len(LINES[speaker])]})
    return {"_id": _oid(n), "domain_name": domain, "system_type0": a, "system_type1": b,
            "system_name0": f"tmp/{a}", "system_name1": f"tmp/{b}",
            "is_human0": False, "is_human1": False, "convo": convo}


def annotation(n: int, convo_id: str, h0: bool | None, h1: bool | None, turn: int) -> dict[str, Any]:
    def side(k: int, h: bool | None) -> dict[str, Any]:
        return {"fluencyValue": True, "sensitivenessValue": bool(h), "specificityValue": bool(h),
                "is_human": h, "decision_turn": turn, "entity_number": k}
    return {"_id": _oid(10_000 + n), "entity0_annotation": side(0, h0),
            "entity1_annotation": side(1, h1), "random_number": {"$numberLong": "1"},
            "convo_id": convo_id, "user_name": "W1", "package_id": "p",
            "start_time": {"$numberLong": "0"}, "end_time": {"$numberLong": "1"},
            "elapsed_time": 1}


def domain_files(domain: str, games_per_pair: int = 2, turns: int = 8) -> dict[str, str]:
    convos, anns = [], []
    n = 0
    for a, b in itertools.permutations(LINES, 2):
        for _ in range(games_per_pair):
            n += 1
            c = conversation(n, a, b, turns, domain)
            convos.append(c)
            for k, turn in enumerate((2, 4, 6)):
                h0 = HUMANLIKE[a] > 0.5 or (HUMANLIKE[a] == 0.5 and k % 2 == 0)
                h1 = HUMANLIKE[b] > 0.5 or (HUMANLIKE[b] == 0.5 and k % 2 == 0)
                anns.append(annotation(len(anns), c["_id"]["$oid"], h0, h1, turn))
    # a human-human reference conversation and its judgement: must be left out
    human = {**conversation(999, "good", "mid", 4, domain), "system_type0": "human",
             "system_type1": "human", "is_human0": True, "is_human1": True}
    human["convo"] = [{**t, "id": "human"} for t in human["convo"]]
    convos.append(human)
    anns.append(annotation(len(anns), human["_id"]["$oid"], True, True, 4))
    lines = lambda recs: "\n".join(json.dumps(r) for r in recs) + "\n"  # noqa: E731
    return {f"sampled-dialogues-full-{domain}.json": lines(convos),
            f"annotated-dialogues-full-{domain}.json": lines(anns),
            f"packed-dialogues-full-{domain}.json": lines([{"_id": _oid(5), "package": []}])}


def build_zip(path: Path, **kw: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for domain in DOMAINS:
            for name, text in domain_files(domain, **kw).items():
                zf.writestr(name, text)
    return path


def build_data_dir(root: Path) -> Path:
    """``root/stb/MongoDump.zip`` and ``root/fed/fed_data.json`` (six FED dialogues)."""
    build_zip(root / "stb" / "MongoDump.zip")
    fed = []
    for i, (system, overall) in enumerate([("Human", 4), ("Meena", 3), ("Mitsuku", 1)] * 2):
        lines = ["User: Hi!"]
        for k in range(3):
            lines.append(f"System: {LINES['good'][k] if overall > 2 else LINES['bad'][k]}")
            lines.append(f"User: answer {k} {i}")
        ann = {"Overall": [overall + (i % 2)] * 3, "Consistent": [1, 1, "N/A"]}
        fed.append({"context": "\n".join(lines), "system": system, "annotations": ann})
    (root / "fed").mkdir(parents=True, exist_ok=True)
    (root / "fed" / "fed_data.json").write_text(json.dumps(fed))
    return root
