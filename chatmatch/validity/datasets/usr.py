"""USR's PersonaChat annotations (Mehri & Eskenazi, ACL 2020) as a lab dataset.

60 PersonaChat contexts, each answered by five responders of three kinds: two people
(``Original Ground Truth``, ``New Human Generated``), a retrieval model (``KV-MemNN``,
which answers with human-written lines) and two generative models (``Seq2Seq``,
``Language Model``). Three annotators rated every reply on Natural (1-3), Overall (1-5),
Maintains Context (1-3), Engaging (1-3), Understandable (0-1) and Uses Knowledge (0-1).

Each reply is scored as a two-turn game: the context's last line (``User``) and the reply
(``System``); only the System side is judged, as for FED and DSTC9. The lab reports, per
dimension, Kendall tau-b over the 5 responders (their mean score against their mean
rating) and Spearman rho over the 300 replies, with bootstrap intervals (replies resampled
within each responder; :mod:`chatmatch.stats.bootstrap`). It is the lab's dataset that
puts human-written, retrieved and generated replies to the same contexts side by side.

The file is read from ``<data>/usr/pc_usr_data.json`` at run time (it has no licence: never
copy it into a repository; cite the paper).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from chatmatch.validity.datasets.datahelp import data_file
from chatmatch.analysis.fed import SYSTEM, USER, chat_transcript, mean_rating, read_json_list
from chatmatch.errors import ChatmatchError
from chatmatch.transcript import Transcript

FILE = "pc_usr_data.json"
OVERALL = "Overall"
QUALITIES = ("Natural", "Overall", "Maintains Context", "Engaging", "Understandable",
             "Uses Knowledge")
#: responder -> kind (the construct the dataset tests)
KINDS = {"Original Ground Truth": "human", "New Human Generated": "human",
         "KV-MemNN": "retrieval", "Seq2Seq": "generative", "Language Model": "generative"}
NOTES = ("each reply scored as a two-turn game (the context's last line, then the reply); "
         "the System side counts",
         "system level has 5 responders: two people, a retrieval model, two generative models")


class UsrError(ChatmatchError):
    """USR data that is missing or cannot be read."""


@dataclass(frozen=True)
class UsrReply:
    system: str  # the responder ("Seq2Seq", ...)
    index: int  # the context's position in the file
    turns: tuple[tuple[str, str], ...]  # (User, last context line), (System, reply)
    ratings: Mapping[str, float]  # quality -> mean over the annotators

    def transcript(self) -> Transcript:
        return chat_transcript(self.turns, f"usr#{self.index:02d}/{self.system}",
                               {"usr_responder": self.system})


def _reply(item: Mapping[str, Any], index: int, response: Any, where: str) -> UsrReply:
    if not isinstance(response, dict) or not isinstance(response.get("response"), str):
        raise UsrError(f"{where}: context {index}: a response without a 'response' text; "
                       "is this USR's pc_usr_data.json?")
    lines = [x.strip() for x in str(item.get("context", "")).splitlines() if x.strip()]
    turns = ((USER, lines[-1]),) if lines else ()
    ratings = {q: m for q in QUALITIES if (m := mean_rating(response.get(q))) is not None}
    return UsrReply(str(response.get("model", "?")), index,
                    turns + ((SYSTEM, response["response"].strip()),), ratings)


def load_usr(path: str | Path) -> list[UsrReply]:
    """Every rated reply of the USR file at ``path`` (the file, or a folder holding it)."""
    p = data_file(path, FILE, UsrError, "usr", f"USR data not found; put USR's {FILE} there "
                  "({help}), or leave usr out with --datasets")
    items = read_json_list(p, UsrError, "contexts with responses")
    out: list[UsrReply] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("responses"), list):
            raise UsrError(f"{p}: item {i} has no 'responses' list; is this USR's {FILE}?")
        out += [_reply(item, i, r, str(p)) for r in item["responses"]]
    if not out:
        raise UsrError(f"{p}: no rated replies in the file")
    return out
