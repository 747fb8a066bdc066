"""On the real corpus: a statute quoted in an old judgment is the judgment's words of its date; the Indian Evidence
Act (no official print in the sources) is cited without a page; the quotation check pins the court's paragraph, not
the SCR headnote; a judgment's FIR list raises no supersession flag."""

import pytest

from legal_rag.export.formats import build_doc, to_csv, to_markdown
from legal_rag.types import NO_PRINT_NOTE, StatuteRef

pytestmark = pytest.mark.slow

PCA_Q = "What is the punishment for criminal misconduct by a public servant under the Prevention of Corruption Act?"


def test_the_1947_act_quoted_in_a_1968_judgment_is_marked_as_the_judgments_words(real_pipeline):
    ans = real_pipeline.ask(PCA_Q)
    marked = [c for c in ans.citations if c.judgment_words]
    assert marked and all(c.ref is None and c.chunk_id.startswith("C236-") for c in marked)
    assert "1968" in marked[0].judgment_words and "Nani Gopal Mitra" in marked[0].judgment_words
    assert "(The judgment's words of 15 October 1968" in ans.text
    md = to_markdown(build_doc(ans))
    assert "the judgment's words of 15 October 1968" in md


def test_the_evidence_act_is_cited_without_a_page_on_screen_and_in_exports(real_pipeline):
    from legal_rag.ui.html import citations_panel, sources_line

    ans = real_pipeline.ask("What does section 65B of the Indian Evidence Act say?")
    iea = [r for r in build_doc(ans).records if r.act == "IEA"]
    assert iea and all(r.page_note == NO_PRINT_NOTE and r.page_label == "" for r in iea)
    for out in (to_markdown(build_doc(ans)), to_csv(build_doc(ans)), citations_panel(ans), sources_line(ans)):
        assert NO_PRINT_NOTE in out and "p. 0" not in out


def test_quotation_check_pins_the_courts_paragraph_not_the_headnote(real_pipeline):
    ans = real_pipeline.ask("Verify this quotation from Mohd. Anwar v. State (NCT of Delhi): 'The refusal to "
                            "participate in the TIP proceedings and the lack of any reasons on the spot, undoubtedly "
                            "establish the appellant's guilty conscience and ought to be given substantial weight. The "
                            "three-day delay in registration of FIR, as projected by the appellant, is devoid of "
                            "factual basis.'")
    (c,) = ans.citations
    chunk = next(h.chunk for h in ans.passages if h.chunk.id == c.chunk_id)
    assert dict(chunk.meta).get("paras") == "13" and "verbatim (para 13" in ans.text


def test_a_judgments_fir_list_is_flagged_only_where_relied_on(real_pipeline):
    from legal_rag.answer import passage_flags
    from legal_rag.answer.finish import relied_flags
    from legal_rag.verify import answer_refs

    hits = real_pipeline.search("trial court sentenced seven years rigorous imprisonment under Section 397/34 of IPC "
                                "and Section 25 of the Arms Act", {"kind": "judgment"})
    fir = next(h for h in hits if "397/34" in h.chunk.text and "392/34" in h.chunk.text)
    mentioned = {f.old for f in passage_flags(fir, real_pipeline.resources, None)}
    assert {StatuteRef("IPC", "397"), StatuteRef("IPC", "392")} <= mentioned
    assert relied_flags(passage_flags(fir, real_pipeline.resources, None), [fir]) == []
    text = "\u201c" + fir.chunk.text.split("The trial Court, thus,")[1].strip() + "\u201d [1]"
    assert not [f for f in answer_refs(text, [fir]) if f.ref is not None and f.ref.act == "IPC"]
