"""BL-54: a question or passage holding characters XML cannot hold (Word's vertical tab, pdftotext's form feed,
NUL) still gives a .docx; python-docx refuses them ("All strings must be XML compatible")."""

from __future__ import annotations

import io

from docx import Document

from legal_rag.export import build_doc, export_answer, xml_safe
from legal_rag.types import Answer, Chunk, Citation, Hit, StatuteRef


def test_docx_is_written_whatever_control_characters_the_text_holds():
    ref = StatuteRef("BNS", "85")
    chunk = Chunk("BNS-85-0-aaaa", "statute", "Whoever\x0c being the husband\x0b subjects\x00 a woman to cruelty",
                  "Cruelty\x1f", "BNS_2023_gazette_Act45.pdf", (25, 25), 0, 1, ref)
    answer = Answer("What replaced Section 498A IPC?\x0bThe wife was harassed for dowry.\x0c",
                    "BNS 85 punishes cruelty\x0b by the husband [1].",
                    (Citation(1, chunk.id, ref, chunk.source, chunk.pages, "BNS 85 punishes cruelty [1].",
                              "supported", "subjects\x00 a woman to cruelty"),),
                    problems=("odd\x01 problem",), passages=(Hit(chunk, 1.0, "lookup", 1),))
    data = export_answer(answer, "docx")
    body = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
    assert "What replaced Section 498A IPC? The wife was harassed for dowry." in body
    assert "cruelty  by the husband" in body and "odd  problem" in body
    doc = xml_safe(build_doc(answer))
    assert "\x00" not in repr(doc) and doc.records[0].quote == "subjects  a woman to cruelty"
