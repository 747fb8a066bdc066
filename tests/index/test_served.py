"""Sections reassembled from their chunks (look-up's side-by-side view) and the chunks a served build keeps."""

from __future__ import annotations

from legal_rag.index.served import join_parts, sections_of, served_chunks
from legal_rag.types import Chunk, StatuteRef


def _chunk(i, text, part, pages, ref=StatuteRef("BNS", "318", ("4",))):
    return Chunk(id=f"BNS-318-{part}-{i}", kind="statute", text=text, title="Cheating", source="bns.pdf",
                 pages=pages, part=part, parts=2, ref=ref)


def test_join_parts_drops_the_repeated_overlap():
    assert join_parts(["a b c d", "c d e f"]) == "a b c d e f"
    assert join_parts(["first", "second"]) == "first\nsecond"
    assert join_parts([]) == "" and join_parts(["only"]) == "only"


def test_sections_of_joins_parts_in_order_under_the_whole_section():
    secs = sections_of([_chunk("b", "c d e f", 1, (88, 89)), _chunk("a", "a b c d", 0, (87, 88)),
                        Chunk(id="J-1", kind="judgment", text="x", title="", source="j.txt", pages=(1, 1), case="C1")])
    assert list(secs) == [StatuteRef("BNS", "318")]
    s = secs[StatuteRef("BNS", "318")]
    assert (s.text, s.title, s.source, s.pages) == ("a b c d e f", "Cheating", "bns.pdf", (87, 89))


def test_index_sections_is_cached(small_index):
    idx, _ = small_index
    secs = idx.sections()
    assert idx.sections() is secs
    assert "Cheating" in secs[StatuteRef("IPC", "420")].title


def test_served_chunks_without_a_build_is_empty(settings):
    assert served_chunks(settings, lambda src: True, set()) == []


def test_pipeline_lookup_shows_the_indexed_texts_side_by_side(small_index):
    """The wiring: ``Pipeline.lookup`` reads the section texts from ``Index.sections()``."""
    from legal_rag.pipeline import Pipeline

    _, settings = small_index
    res = Pipeline(settings).lookup("IPC 420")
    assert res.status == "ok" and res.section is not None and "Cheating" in res.section.title
    assert dict(res.counterparts)[StatuteRef("BNS", "318", ("4",))] is not None  # BNS 318 is in the small index
