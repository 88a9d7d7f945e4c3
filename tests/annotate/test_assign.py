"""Which item an annotator gets next: every pair of bots first, then overlap, seeded."""

from __future__ import annotations

import itertools

from chatmatch.annotate.assign import next_item, pair_load
from chatmatch.annotate.items import build_items
from tests.analysis.helpers import game
from tests.annotate.conftest import items_of

BOTS = ["a", "b", "c", "d"]
# a double round-robin of four bots: each pair twice
ITEMS = items_of([p for x, y in itertools.combinations(BOTS, 2) for p in ((x, y), (y, x))])


def _simulate(annotators, rounds, seed=0, overlap=2, limit=None):
    """Annotators take turns judging their next item; returns the judging order."""
    judged_by: dict[str, set[str]] = {}
    order = []
    for _ in range(rounds):
        for who in annotators:
            it = next_item(ITEMS, who, judged_by, seed, overlap, limit)
            if it is not None:
                judged_by.setdefault(it.item_id, set()).add(who)
                order.append((who, it))
    return order, judged_by


def test_every_pair_is_judged_before_any_pair_twice():
    for annotators in (["ann"], ["ann", "bob"], ["ann", "bob", "cy"]):
        order, _ = _simulate(annotators, 6)
        first = [it.pair for _, it in order[:6]]
        assert sorted(first) == sorted(itertools.combinations(BOTS, 2)), annotators


def test_items_get_overlap_people_before_a_third():
    _, judged_by = _simulate(["ann", "bob", "cy"], 8)  # 24 judgements, 12 items, overlap 2
    counts = sorted(len(judged_by.get(it.item_id, ())) for it in ITEMS)
    # at the very end an annotator may have judged the last half-done item already
    assert counts[0] >= 1 and counts.count(2) >= 10, counts
    loads = pair_load(ITEMS, judged_by).values()
    assert max(loads) - min(loads) <= 1  # balanced over the pairs


def test_one_annotator_sees_every_item_once_then_is_done():
    order, _ = _simulate(["ann"], 13)
    assert len(order) == 12 and len({it.item_id for _, it in order}) == 12


def test_limit_per_annotator():
    order, _ = _simulate(["ann", "bob"], 10, limit=3)
    assert [who for who, _ in order].count("ann") == 3


def test_the_seed_fixes_the_order_and_changes_it():
    a, _ = _simulate(["ann", "bob"], 6, seed=1)
    b, _ = _simulate(["ann", "bob"], 6, seed=1)
    c, _ = _simulate(["ann", "bob"], 6, seed=2)
    ids = lambda o: [it.item_id for _, it in o]  # noqa: E731
    assert ids(a) == ids(b) and ids(a) != ids(c)


def test_speaker_a_is_drawn_per_item_and_forfeits_are_left_out():
    from chatmatch.records import Forfeit
    import dataclasses

    results = [game(f"g{i:03d}", x, y) for i, (x, y) in
               enumerate([p for x, y in itertools.combinations(BOTS, 2) for p in ((x, y), (y, x))])]
    results[0] = dataclasses.replace(results[0], forfeit=Forfeit("a", "timeout"))
    items = build_items(results, {r.game_id for r in results}, "game", seed=0)
    assert "g000" not in {it.item_id for it in items} and len(items) == 11
    starters_as_a = sum(it.a.bot == r.players[0] for it, r in zip(items, results[1:]))
    assert 0 < starters_as_a < 11  # not always the starter
    assert items == build_items(results, {r.game_id for r in results}, "game", seed=0)
    pairs = build_items(results, {r.game_id for r in results}, "pairs", seed=0)
    assert len(pairs) == 6 * 2  # each pair of bots, each of the two common opponents
    assert all(it.a.game_id != it.b.game_id for it in pairs)
