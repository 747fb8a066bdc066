"""System rule 7 with verify's section check (grammar ``legal_rag.law.refs``): a sub-section stated in a sentence must
be one the cited chunk prints -- "section 316(5)" on the chunk printing (4) and (5) verifies; "section 316(4)" with
(5)'s words and punishment is removed -- and (a known gap, strict xfail) the part its words come from.

The tests read chunks of the session's real-corpus index (``real_index``, slow)."""

from __future__ import annotations

import pytest

from legal_rag.config import load_settings
from legal_rag.generate.prompt import build_prompt, passage_label
from legal_rag.generate.window import shown_sub, shown_texts
from legal_rag.types import Draft, Hit, StatuteRef
from legal_rag.verify import verify

from tests.real_chunks import given, part
from tests.real_chunks import no_equivalents as none


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=(
    "check 1 accepts any sub-section the cited chunk prints, whatever part the sentence's words come from: "
    "'section 479(2)' with 479(1)'s proviso's words verifies (a sub-section stated must be the part described)"))
def test_real_a_sub_section_the_words_do_not_describe_is_removed(real_index):
    c, p = part(real_index, "BNSS", "479", 1), part(real_index, "BNSS", "479", 0)
    build = build_prompt("How long can an undertrial be detained?", [Hit(c, 1.0, "rrf", 1), Hit(p, 0.9, "rrf", 2)],
                         load_settings().prompts_dir, compact=False)
    claim = ("Under section 479(2) of the BNSS, no such person shall in any case be detained during the period of "
             "investigation, inquiry or trial for more than the maximum period of imprisonment provided for the said "
             "offence under that law")
    v = verify(Draft("q", f"{claim} [1].", passages=build.passages), equivalents=none, sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported"

W316_5 = ("whoever, being in any manner entrusted with property in his capacity of a public servant or in the way of "
          "his business as a banker, merchant or agent commits criminal breach of trust in respect of that property, "
          "shall be punished with imprisonment for life, or with imprisonment of either description for a term which "
          "may extend to ten years, and shall also be liable to fine")

@pytest.mark.slow
def test_real_rule_7_sub_section_named_as_the_label_verifies_and_a_wrong_one_is_removed(real_index):
    """Guard: BNS 316's last chunk prints (4) (clerk or servant: seven years) and (5) (public servant, banker ...:
    life or ten years). "Under section 316(5) ..." with (5)'s words verifies; "Under section 316(4) ..." with the
    same words and punishment is removed, the answer withheld."""
    c6 = part(real_index, "BNS", "316", 6)
    assert "(4) Whoever" in c6.text and "(5) Whoever" in c6.text
    right = verify(Draft("q", f"Under section 316(5) of the BNS, {W316_5} [1].", passages=given(c6)),
                   sections=real_index.by_ref)
    assert right.checks[0].status == "supported", right.problems
    wrong = verify(Draft("q", f"Under section 316(4) of the BNS, {W316_5} [1].", passages=given(c6)),
                   sections=real_index.by_ref)
    assert wrong.checks[0].status == "unsupported" and "withheld" in wrong.text
    assert [(f.check, f.where) for f in wrong.checks[0].failures] == [("punishment part", "BNS 316(4)")]
    # the label the model is told when the composed head names 316(5): "BNS 316(5)", over (5) alone
    t = shown_texts([c6], "criminal breach of trust by a public servant or banker",
                    focus=(StatuteRef("BNS", "316", ("5",)),))[0]
    assert t.startswith("(5) Whoever") and "(4) Whoever" not in t
    assert passage_label(c6, shown_sub(c6, t)).startswith("BNS 316(5) ")
