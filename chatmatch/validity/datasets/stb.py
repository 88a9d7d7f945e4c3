"""Spot The Bot (Deriu et al., EMNLP 2020) as a lab dataset, read from ``MongoDump.zip``.

The zip (the authors' ``data_dump/MongoDump.zip``, no licence: read in place, never
copied) holds, per domain, JSON Lines files of conversations
(``sampled-dialogues-full-DOMAIN.json``) and crowd judgements of their segments
(``annotated-dialogues-full-DOMAIN.json``). Only bot-bot conversations are used: those
with a ``human`` participant (human-human reference conversations) are left out, from the
chatmatch games and from the human ranking alike, as the authors do (``ignore_humans``).

Each conversation becomes one chatmatch game between ``system_type0`` (who speaks first)
and ``system_type1``. No turn is a seed: the first speaker's opening was its own output.
Model artefacts are removed (:mod:`chatmatch.validity.datasets.cleaning`) and counted.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from chatmatch.validity.datasets.datahelp import data_file
from chatmatch.errors import ChatmatchError
from chatmatch.transcript import Transcript, Turn
from chatmatch.validity.datasets.cleaning import clean_turn
from chatmatch.validity.datasets.human_stb import Judgement, fooling_rates, judgement_from_record, win_rate_scores

DOMAINS = ("convai2", "dailydialog", "empathetic")
ZIP_NAME = "MongoDump.zip"
HUMAN = "human"


class StbError(ChatmatchError):
    """A Spot The Bot release that cannot be read."""


@dataclass(frozen=True)
class StbDomain:
    """The bot-bot conversations of one domain, their judgements and what cleaning did."""

    domain: str
    games: tuple[Transcript, ...]
    judgements: tuple[Judgement, ...]
    conversations_total: int  # bot-bot and with humans
    turns_total: int  # turns of the bot-bot conversations
    turns_cleaned: int  # turns from which an artefact was removed
    empty_turns: int  # turns with no text after cleaning
    cleaned_by_system: dict[str, int] = field(default_factory=dict)

    @property
    def systems(self) -> list[str]:
        return sorted({p for g in self.games for p in g.players})

    def human_rankings(self) -> dict[str, dict[str, float]]:
        """Reference name -> system -> score (higher is better)."""
        return {"win rate": win_rate_scores(self.judgements),
                "fooling rate": fooling_rates(self.judgements)}


def _jsonl(zf: zipfile.ZipFile, member: str, where: str) -> Iterator[dict[str, Any]]:
    try:
        raw = zf.read(member)
    except KeyError:
        raise StbError(f"{where}: no member {member!r} in the zip; use the authors' "
                       "data_dump/MongoDump.zip, unmodified") from None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:  # CRC errors, truncation
        raise StbError(f"{where}: {member} cannot be read ({exc}); the zip is damaged, "
                       "fetch MongoDump.zip again") from None
    for n, line in enumerate(raw.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise StbError(f"{where}: {member}:{n}: not valid JSON ({exc.msg}); the zip is "
                           "damaged or not the Spot The Bot release") from None
        if not isinstance(rec, dict):
            raise StbError(f"{where}: {member}:{n}: expected a JSON object per line")
        yield rec


def _oid(rec: dict[str, Any]) -> str:
    v = rec.get("_id")
    return str(v.get("$oid")) if isinstance(v, dict) else str(v)


def _transcript(rec: dict[str, Any]) -> tuple[Transcript, int, int, dict[str, int]]:
    a, b = str(rec["system_type0"]), str(rec["system_type1"])
    turns, cleaned, empty = [], 0, 0
    by_system: dict[str, int] = {}
    for i, t in enumerate(rec["convo"]):
        speaker = str(t["id"])
        if speaker not in (a, b):
            raise KeyError(f"turn {i} spoken by {speaker!r}, not {a!r} or {b!r}")
        text, changed = clean_turn(str(t.get("text") or ""))
        cleaned += changed
        empty += not text
        if changed:
            by_system[speaker] = by_system.get(speaker, 0) + 1
        turns.append(Turn(i, speaker, text))
    return Transcript(_oid(rec), (a, b), tuple(turns), meta={"source": "spot-the-bot"}), cleaned, empty, by_system


def load_domain(zf: zipfile.ZipFile, domain: str, where: str) -> StbDomain:
    games: list[Transcript] = []
    bot_bot: dict[str, dict[str, Any]] = {}
    total = turns = cleaned = empty = 0
    by_system: dict[str, int] = {}
    member = f"sampled-dialogues-full-{domain}.json"
    for rec in _jsonl(zf, member, where):
        total += 1
        try:
            a, b = rec["system_type0"], rec["system_type1"]
            if HUMAN in (a, b) or rec.get("is_human0") or rec.get("is_human1") or a == b:
                continue
            tr, c, e, per = _transcript(rec)
        except (KeyError, TypeError, ValueError) as exc:
            raise StbError(f"{where}: {member}: conversation {_oid(rec)} is malformed ({exc}); "
                           "use the authors' data_dump/MongoDump.zip, unmodified") from None
        games.append(tr)
        bot_bot[tr.game_id] = rec
        turns += len(tr.turns)
        cleaned += c
        empty += e
        for s, k in per.items():
            by_system[s] = by_system.get(s, 0) + k
    judgements = []
    member = f"annotated-dialogues-full-{domain}.json"
    for rec in _jsonl(zf, member, where):
        convo = bot_bot.get(str(rec.get("convo_id")))
        if convo is None:  # a judgement of a conversation with a human participant
            continue
        try:
            judgements.append(judgement_from_record(rec, convo))
        except (KeyError, TypeError, ValueError) as exc:
            raise StbError(f"{where}: {member}: annotation {_oid(rec)} is malformed ({exc}); "
                           "use the authors' data_dump/MongoDump.zip, unmodified") from None
    if not games or not judgements:
        raise StbError(f"{where}: domain {domain} has {len(games)} bot-bot conversation(s) and "
                       f"{len(judgements)} judgement(s) of them; need both")
    return StbDomain(domain, tuple(games), tuple(judgements), total, turns, cleaned, empty,
                     by_system)


def load_stb(path: str | Path, domains: tuple[str, ...] = DOMAINS) -> list[StbDomain]:
    """Every requested domain of the Spot The Bot zip at ``path`` (the zip, or a folder
    holding ``MongoDump.zip``)."""
    p = data_file(path, ZIP_NAME, StbError, "stb", "Spot The Bot data not found; put the "
                  "authors' MongoDump.zip there ({help}) or pass --data")
    try:
        with zipfile.ZipFile(p) as zf:
            return [load_domain(zf, d, str(p)) for d in domains]
    except zipfile.BadZipFile as exc:
        raise StbError(f"{p}: not a readable zip ({exc}); fetch MongoDump.zip again") from None
    except OSError as exc:
        raise StbError(f"{p}: cannot be read ({exc.strerror or exc})") from None
