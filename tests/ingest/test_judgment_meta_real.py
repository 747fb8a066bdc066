"""The real index carries every judgment's citations, case numbers and printed pages (issue 18): before, none of
the judgments then indexed had a reporter or neutral citation in its chunks."""

from __future__ import annotations

import pytest

from legal_rag.ingest.printed_pages import parse_printed

pytestmark = pytest.mark.slow


def test_every_indexed_judgment_carries_its_header(real_index, capsys):
    by_source: dict[str, list] = {}
    for c in real_index.chunks().values():
        if c.kind == "judgment" and c.case and not c.source.startswith("aila"):
            by_source.setdefault(c.source, []).append(dict(c.meta))
    # the 24 PDFs of judgments/pdf, the 12 of judgments/pdf_sc_2026_criminal and the 43 AILA texts of
    # judgments/sc_ipc_selected the manifest indexes
    pdfs = {s for s in by_source if s.lower().endswith(".pdf")}
    texts = {s for s in by_source if s.endswith(".txt") and s[:1] == "C"}
    assert len(pdfs) == 36 and len(texts) == 43
    cited = {s for s in pdfs if all(m.get("citations") for m in by_source[s])}
    numbered = {s for s in by_source if all(m.get("case_numbers") for m in by_source[s])}
    printed = {s for s in pdfs if all(m.get("printed_pages") for m in by_source[s])}
    with capsys.disabled():
        print(f"\nindexed judgments: {len(cited)}/{len(pdfs)} PDFs carry citations in every chunk, {len(printed)} printed "
              f"pages, {len(numbered)}/{len(by_source)} case numbers")
    # every report print (SCR_*, and the JUDIS print with its AIR/SCR/SCC block) is cited, and every court copy
    # that prints its neutral citation in the margin (the 2026 ones); older court copies print none
    assert cited == ({s for s in pdfs if s.startswith(("SCR_", "SC_2026-"))}
                     | {"SC_1980-07-31_MinervaMills_v_UnionOfIndia_JUDIS.pdf"})
    assert printed == {s for s in pdfs if s.startswith("SCR_")}  # every S.C.R. print maps its pages
    assert not any(m.get("printed_pages") for s in texts for m in by_source[s])  # text: paragraphs only
    anwar = by_source["SCR_2020-08-19_MohdAnwar_v_StateNCTDelhi_2020-7-SCR-150.pdf"]
    assert {m["citations"] for m in anwar} == {"[2020] 7 S.C.R. 150"}
    assert {m["case_numbers"] for m in anwar} == {"Criminal Appeal No. 1551 of 2010"}
    pages = {k: n for m in anwar for k, n in parse_printed(m["printed_pages"]).items()}
    assert pages and all(n == k + 149 for k, n in pages.items())
    frank = by_source["SCR_2024INSC479_FrankVitus_v_NCB.pdf"]
    assert {m["citations"] for m in frank} == {"[2024] 7 S.C.R. 97; 2024 INSC 479"}
