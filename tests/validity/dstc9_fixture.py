"""A tiny DSTC9 folder in the release's format (one JSON object per rating, chats grouped
by ``context``), for tests that must not need the real data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: per system: what it says, and how people rate it (overall 1-5, other qualities 1-3)
SYSTEMS = {
    "chatbot1": (["where do you live ?", "i hike in colorado , do you hike ?",
                  "my sister plays violin in boston . what music do you like ?"], 5, 3),
    "chatbot2": (["i like music .", "what ?", "i have a dog ."], 3, 2),
    "chatbot3": (["ok .", "ok .", "ok ."], 1, 1),
}
USER = ["hi there", "tell me about you", "anything else ?"]


def rating(context: str, overall: Any, quality: Any) -> dict[str, Any]:
    row: dict[str, Any] = {q: quality for q in (
        "likeable", "diverse", "informative", "coherent", "understanding", "flexible",
        "topic depth", "error recovery", "inquisitive")}
    return {**row, "consistent": 1, "human (overall)": overall, "context": context}


def context(lines: list[str], variant: int) -> str:
    out = []
    for u, s in zip(USER, lines):
        out += [f"User: {u} {variant}", f"System: {s}"]
    return "\n".join(out) + "\n"


def build(folder: Path, chats: int = 4) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (lines, overall, quality) in SYSTEMS.items():
        rows = []
        for k in range(chats):
            ctx = context(lines, k)
            rows.append(rating(ctx, overall, quality))
            rows.append(rating(ctx, overall - (k % 2), "N/A"))  # a second rater, no N/A kept
        (folder / f"{name}.json").write_text(json.dumps(rows), encoding="utf-8")
    return folder
