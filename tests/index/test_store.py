"""SQLite chunk store: upsert, replacement of changed documents, embedding cache by content hash."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from legal_rag.index.store import ChunkStore, content_hash
from legal_rag.types import Chunk, StatuteRef


def _c(cid, section, text, part=0, act="BNS"):
    return Chunk(id=cid, kind="statute", text=text, title="t", source="bns.pdf", pages=(1, 2), part=part,
                 ref=StatuteRef(act, section), meta=(("act", act),))


def test_sync_upserts_and_replaces_whole_documents(tmp_path):
    st = ChunkStore(tmp_path / "s.sqlite")
    rep = st.sync([_c("BNS-318-0-a", "318", "old words"), _c("BNS-318-1-b", "318", "more"), _c("BNS-85-0-c", "85", "x")])
    assert (rep.added, rep.removed, st.count()) == (3, 0, 3)
    # the corrected section now has one chunk with a new id: the two old chunks of s.318 go, s.85 stays
    rep = st.sync([_c("BNS-318-0-d", "318", "corrected words")])
    assert rep.removed == 2 and st.count() == 2
    assert st.get(["BNS-318-0-d"])["BNS-318-0-d"].text == "corrected words"
    assert [c.id for c in st.by_ref("BNS", "318")] == ["BNS-318-0-d"]
    # prune: a full rebuild drops documents that are gone
    st.sync([_c("BNS-85-0-c", "85", "x")], prune=True)
    assert [c.id for c in st.all_chunks()] == ["BNS-85-0-c"]


def test_roundtrip_keeps_every_field(tmp_path):
    st = ChunkStore(tmp_path / "s.sqlite")
    c = Chunk(id="C1-0-abc", kind="judgment", text="para", title="A v B", source="C1.txt", pages=(3, 4), part=0,
              parts=2, case="C1", span=(5, 9), meta=(("court", "SC"), ("year", "1999")))
    s = replace(_c("BNS-318-0-a", "318", "t"), ref=StatuteRef("BNS", "318", ("4",)))
    st.sync([c, s])
    assert st.get(["C1-0-abc", "BNS-318-0-a"]) == {"C1-0-abc": c, "BNS-318-0-a": s}


def test_duplicate_ids_are_refused(tmp_path):
    with pytest.raises(ValueError, match="duplicate"):
        ChunkStore(tmp_path / "s.sqlite").sync([_c("x", "1", "a"), _c("x", "2", "b")])


def test_embedding_cache_by_hash_and_model(tmp_path):
    st = ChunkStore(tmp_path / "s.sqlite")
    a, b = _c("BNS-1-0-a", "1", "alpha"), _c("BNS-2-0-b", "2", "beta")
    st.sync([a, b])
    todo = st.missing_embeddings("m1")
    assert {h for h, _ in todo} == {content_hash(a), content_hash(b)}
    st.put_embeddings("m1", [h for h, _ in todo], np.eye(2, 4, dtype=np.float32))
    assert st.missing_embeddings("m1") == []
    assert len(st.missing_embeddings("m2")) == 2  # another model embeds again
    st.sync([a, replace(b, text="beta corrected")])
    assert [p.endswith("beta corrected") for _, p in st.missing_embeddings("m1")] == [True]
    np.testing.assert_array_equal(st.vectors("m1", ["BNS-1-0-a"]), np.eye(1, 4, dtype=np.float32))
    with pytest.raises(KeyError, match="BNS-2-0-b"):
        st.vectors("m1", ["BNS-2-0-b"])
