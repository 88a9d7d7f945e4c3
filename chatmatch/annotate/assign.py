"""Which item an annotator gets next, so that every pair of bots gets judgements early and
the judgements spread over the annotators.

Among the items the annotator has not judged, the next is the first by:

1. items judged by fewer than ``overlap`` people come first (``overlap`` people per item
   is the target: two by default, so that annotators can be compared);
2. the pair of bots with the fewest judgements so far (every pair is judged once before
   any pair twice, over all annotators together);
3. an item someone else already judged (it gains the overlap that inter-annotator agreement
   needs) before a fresh one;
4. a seeded random key per annotator and item (the same seed gives the same order).

The choice is made from what is stored, so it needs no state of its own: a restarted
server continues where it stopped.
"""

from __future__ import annotations

import hashlib
from typing import Mapping, Sequence

from chatmatch.annotate.items import Item


def _key(seed: int, annotator: str, item_id: str) -> int:
    digest = hashlib.sha256(f"{seed}\0{annotator}\0{item_id}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def pair_load(items: Sequence[Item], judged_by: Mapping[str, set[str]]) -> dict[tuple[str, str], int]:
    """Judgements so far per pair of bots (an item judged by two people counts twice)."""
    load: dict[tuple[str, str], int] = {}
    for it in items:
        load[it.pair] = load.get(it.pair, 0) + len(judged_by.get(it.item_id, ()))
    return load


def next_item(items: Sequence[Item], annotator: str, judged_by: Mapping[str, set[str]],
              seed: int, overlap: int = 2, limit: int | None = None) -> Item | None:
    """The item ``annotator`` should judge next, or None when they are done (every item,
    or ``limit`` items, judged). ``judged_by``: item id -> who judged it."""
    mine = [it for it in items if annotator in judged_by.get(it.item_id, ())]
    if limit is not None and len(mine) >= limit:
        return None
    load = pair_load(items, judged_by)
    todo = [it for it in items if annotator not in judged_by.get(it.item_id, ())]
    if not todo:
        return None

    def rank(it: Item) -> tuple[bool, int, int, int]:
        count = len(judged_by.get(it.item_id, ()))
        return count >= overlap, load[it.pair], -count, _key(seed, annotator, it.item_id)

    return min(todo, key=rank)
