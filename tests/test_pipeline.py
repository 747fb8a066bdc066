"""End-to-end tests of the wired pipeline over the real corpus (session index, see tests/conftest.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from legal_rag.errors import LegalRagError
from legal_rag.generate import NOT_IN_SOURCES
from legal_rag.pipeline import Pipeline
from legal_rag.types import Answer, StatuteRef

pytestmark = pytest.mark.slow


def test_constructing_the_pipeline_loads_nothing(real_settings):
    p = Pipeline(real_settings)
    assert "index" not in p.__dict__ and "concordance" not in p.__dict__ and "reranker" not in p.__dict__


def test_build_report_covers_the_default_corpus(real_build):
    report, stats = real_build
    sections = dict(report.sections)
    assert sections == {"BNS": 358, "BNSS": 531, "BSA": 170, "IPC": sections["IPC"], "CrPC": sections["CrPC"],
                        "IEA": sections["IEA"]}
    assert sections["IPC"] >= 511 and sections["CrPC"] >= 484 and sections["IEA"] >= 167
    # 79 sources of one decision each, and the fixed sample (real_settings: archive_limit) of each of the four
    # sources holding many (the Indian Kanoon archive, three orders-of-the-day sources)
    sample = {v: n for facet, v, n in report.counts if facet == "source" and n > 1}
    assert sorted(sample.values()) == [40, 40, 40, 40], sample
    assert report.judgments == 79 + 160 and not report.failed
    assert stats["sparse_only"] > 0 and stats["embedded"] <= stats["added"]  # the sample is searched by BM25 only
    assert stats["chunks"] > 5000
    # the First Schedules are parsed by the build (cached), so the first look-up does not wait for them
    assert 900 <= stats["schedules"]["rows"] <= 1000, stats["schedules"]


def test_the_first_lookup_reads_the_schedules_the_build_parsed(real_build, real_settings):
    _, stats = real_build
    p = Pipeline(real_settings)
    res = p.lookup("BNS 318(4)")
    assert len(p.schedule) == stats["schedules"]["rows"]
    assert any(r.ref.section == "318" for r in res.classification)


def test_ipc_420_question_cites_bns_318_4_with_its_page(real_pipeline):
    ans = real_pipeline.ask("What is the BNS equivalent of IPC 420?")
    assert isinstance(ans, Answer)
    q_flags = [f for f in ans.flags if f.found_in == "query" and f.old == StatuteRef("IPC", "420")]
    assert q_flags and q_flags[0].new == (StatuteRef("BNS", "318", ("4",)),)
    assert "BNS_to_IPC" in q_flags[0].source_row
    bns = [c for c in ans.citations if c.ref is not None and c.ref.act == "BNS" and c.ref.section == "318"]
    assert bns, (ans.text, ans.citations)
    # BNS s.318 is printed on pp. 86-87 of the Gazette print (Act 45 of 2023)
    assert all(86 <= c.pages[0] <= 87 for c in bns), [c.pages for c in bns]
    assert StatuteRef("BNS", "318", ("4",)) in {c.ref for c in bns}  # sub-section precision (field case BL-29)
    assert all(c.support == "supported" for c in ans.citations)
    assert ans.index_id == real_pipeline.index.id


def test_every_citation_points_at_a_passage_given_to_the_generator(real_pipeline):
    for q in ("punishment for murder", "What replaced Section 498A IPC?", "anticipatory bail"):
        ans = real_pipeline.ask(q)
        given = {h.chunk.id for h in ans.passages}
        assert ans.citations, q
        assert {c.chunk_id for c in ans.citations} <= given, q


def test_streaming_yields_text_then_the_verified_answer(real_pipeline):
    pieces = list(real_pipeline.ask_stream("punishment for cheating"))
    assert isinstance(pieces[-1], Answer)
    assert all(isinstance(p, str) for p in pieces[:-1]) and len(pieces) > 1


def test_offence_before_the_cut_off_is_still_governed_by_the_ipc(real_pipeline):
    ans = real_pipeline.ask("cheating under section 420 IPC", offence_date=dt.date(2024, 6, 20))
    f = next(f for f in ans.flags if f.found_in == "query" and f.old == StatuteRef("IPC", "420"))
    assert f.applies == "IPC" and f.kind == "saved"
    later = real_pipeline.ask("cheating under section 420 IPC", offence_date=dt.date(2024, 7, 5))
    g = next(f for f in later.flags if f.found_in == "query" and f.old == StatuteRef("IPC", "420"))
    assert g.applies == "BNS" and g.kind == "superseded"


def test_fabricated_citation_is_not_found(real_pipeline):
    ans = real_pipeline.ask("Verify and summarise the judgment reported as (2019) 5 SCC 9999")
    assert "do not contain" in ans.text and not ans.citations


def test_known_judgment_by_citation_is_answered(real_pipeline):
    ans = real_pipeline.ask("What did the Supreme Court hold in 2024 INSC 479 about the bail condition?")
    assert NOT_IN_SOURCES not in ans.text and "do not contain the judgment" not in ans.text
    assert any(h.chunk.kind == "judgment" for h in ans.passages)


def test_pre_2024_judgment_passages_get_supersession_flags(real_pipeline):
    hits = real_pipeline.search("common intention murder section 302 read with 34 IPC",
                                {"kind": "judgment"})
    assert hits and all(h.chunk.kind == "judgment" for h in hits)
    from legal_rag.answer import passage_flags

    flags = [f for h in hits[:5] for f in passage_flags(h, real_pipeline.resources, None)]
    assert any(f.old == StatuteRef("IPC", "302") for f in flags)


def test_lookup_shows_both_texts(real_pipeline):
    res = real_pipeline.lookup("IPC 420")
    text = repr(res)
    assert "318" in text and "Cheating" in text


def test_source_file_serves_only_corpus_files(real_pipeline):
    assert real_pipeline.source_file("BNS_2023_gazette_Act45.pdf").is_file()
    for bad in ("../../etc/passwd", "/etc/passwd", "..%2F..%2Fetc%2Fpasswd", "manifest.toml",
                "BPRD_correspondence_BNS_to_IPC.pdf", ""):
        with pytest.raises(LegalRagError):
            real_pipeline.source_file(bad)
