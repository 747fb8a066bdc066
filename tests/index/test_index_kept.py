"""The served index's bounded caches: sections read once until :data:`SECTIONS_KEPT` others push them out, query
vectors' pools kept up to :data:`POOLS_KEPT` and forgotten by ``clear_query_cache``."""

from __future__ import annotations

import numpy as np

from legal_rag.index import POOLS_KEPT, SECTIONS_KEPT, Index


class _Store:
    def __init__(self):
        self.asked: list[tuple[str, str]] = []

    def by_ref(self, act, section):
        self.asked.append((act, section))
        return [f"{act}-{section}-0", f"{act}-{section}-1"]


class _Dense:
    def __init__(self):
        self.asked = 0

    def count(self) -> int:
        return 10

    def search(self, vector, candidates, where=None):
        self.asked += 1
        return [("c0", 1.0)]


def _index(store=None, dense=None) -> Index:
    return Index(root=None, manifest=None, store=store, dense=dense, sparse=None, embedder=None)


def test_by_ref_reads_a_section_once_until_pushed_out_oldest_first():
    store = _Store()
    index = _index(store=store)
    first = index.by_ref("BNS", "1")
    assert first == ["BNS-1-0", "BNS-1-1"]
    first.append("changed")  # a new list each call
    assert index.by_ref("BNS", "1") == ["BNS-1-0", "BNS-1-1"] and len(store.asked) == 1
    for n in range(2, SECTIONS_KEPT + 2):
        index.by_ref("BNS", str(n))
    assert len(index._by_ref) == SECTIONS_KEPT
    index.by_ref("BNS", str(SECTIONS_KEPT + 1))  # the newest: still kept
    assert len(store.asked) == SECTIONS_KEPT + 1
    index.by_ref("BNS", "1")  # the oldest: forgotten, read again
    assert len(store.asked) == SECTIONS_KEPT + 2


def test_pools_are_bounded_and_cleared():
    dense = _Dense()
    index = _index(dense=dense)
    for i in range(POOLS_KEPT + 5):
        index.dense_search(np.full(4, i, dtype=np.float32), 1)
    assert len(index._pools) == POOLS_KEPT and dense.asked == POOLS_KEPT + 5
    index.dense_search(np.full(4, POOLS_KEPT + 4, dtype=np.float32), 1)
    assert dense.asked == POOLS_KEPT + 5  # kept
    index.clear_query_cache()
    assert len(index._pools) == 0


def test_a_users_view_keeps_at_most_64_filter_sets_of_allowed_ids():
    from legal_rag.retrieve.filters import Filters
    from legal_rag.uploads.view import IndexView

    class _Build:
        asked = 0

        def allowed_ids(self, filters):
            _Build.asked += 1
            return frozenset({f"c{filters.year_from}"})

    view = IndexView(_Build(), (), np.zeros((0, 4), dtype=np.float32))
    sets = [Filters(year_from=1950 + i) for i in range(65)]
    assert view.allowed_ids(sets[0]) == frozenset({"c1950"}) and view.allowed_ids(sets[0]) == frozenset({"c1950"})
    assert _Build.asked == 1                                       # read once while kept
    for f in sets[1:]:
        view.allowed_ids(f)
    view.allowed_ids(sets[0])                                      # the oldest was forgotten: read again
    assert _Build.asked == 66 and len(view._allowed) <= 64
