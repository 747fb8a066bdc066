"""`legal-rag lookup "BNS 318(4)"` shows the sub-section asked for, not the first 600 characters of the whole
section (issue 14); a counterpart the table names at sub-section level (IPC 420 -> BNS 318(4)) likewise. Real index."""

from __future__ import annotations

import pytest

from legal_rag.law.lookup import format_lookup
from legal_rag.law.pinpoint import layout
from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow


def _sub_text(real_pipeline, act, section, sub):
    sec = real_pipeline.index.sections()[StatuteRef(act, section)]
    a, b = layout(sec.text).sub_span(sub)
    return sec, sec.text[a:b].strip()


def test_lookup_of_a_sub_section_prints_that_sub_section(real_pipeline):
    sec, text = _sub_text(real_pipeline, "BNS", "318", "4")
    assert text.startswith("(4)") and not sec.text.lstrip().startswith("(4)")
    out = format_lookup(real_pipeline.lookup("BNS 318(4)"))
    block = out.split(f"--- BNS 318(4): {sec.title}\n  ", 1)[1]
    assert block.startswith(text[:200])


def test_lookup_of_ipc_420_prints_its_successors_sub_section(real_pipeline):
    sec, text = _sub_text(real_pipeline, "BNS", "318", "4")
    out = format_lookup(real_pipeline.lookup("IPC 420"))
    assert f"--- BNS 318(4): {sec.title}\n  {text[:200]}" in out


def test_lookup_of_a_clause_prints_the_clause(real_pipeline):
    out = format_lookup(real_pipeline.lookup("IPC 376(2)(n)"))
    block = out.split("--- IPC 376(2)(n): ", 1)[1].split("\n", 1)[1].strip()
    assert block.startswith("(n) commits rape repeatedly on the same woman")
