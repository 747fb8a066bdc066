"""The relevance check and the cross-references on the real index (issue 14, points 1-3), on the field cases.

Expectations are read from the answer's own head and the official tables (``Pipeline.concordance``), not written
from memory: a provision quoted as the answer must be the head's provision, its BPR&D pair or a section the
question names; everything else stands under "Related provisions".
"""

from __future__ import annotations

import pytest

from legal_rag.generate.relevance import RELATED_HEADING, anchors
from legal_rag.retrieve.route import analyse_question
from legal_rag.verify import Failure

pytestmark = pytest.mark.slow

JOB_SCAM = ("My client was cheated of Rs 5 lakh by someone who promised a government job. Which sections apply and "
            "what is the maximum punishment?")


def body(answer):
    """The answer below its head, split into the part quoted as the answer and the related part."""
    text = answer.text.split("\n\n", 1)[1] if answer.head else answer.text
    main, _, related = text.partition(RELATED_HEADING)
    return main, related


def _check_marks(pipe, answer, question, offence_date=None):
    marks = anchors(analyse_question(question, offence_date, concordance=pipe.concordance), answer.head,
                    pipe.concordance)
    assert marks.refs, "the head or the question gives anchors"
    for c in answer.citations:
        if c.ref is not None:
            assert c.related != marks.answers(c.ref), c
    return marks


def test_316_2_bailable_quotes_no_other_acts_316_as_the_answer(real_pipeline):
    q = "Is 316(2) bailable?"
    a = real_pipeline.ask(q)
    marks = _check_marks(real_pipeline, a, q)
    main, related = body(a)
    quoted = [c for c in a.citations if not c.related]
    assert all((c.ref.act, c.ref.section) in {(r.act, r.section) for r in marks.refs} for c in quoted if c.ref)
    # IPC 316 / CrPC 316 (same number, other Acts) and another sub-section of BNS 316 are related, never quoted
    others = [c for c in a.citations if c.ref is not None and (c.ref.act != "BNS" or c.ref.sub[:1] not in ((), ("2",)))]
    assert others and all(c.related for c in others)
    for c in others:
        assert f"{c.ref}" in related and c.quote[:40] not in main
    assert "\u201c" not in related  # withheld, not quoted
    # the CrPC 316 passage's "sections 306 and 307" are CrPC's: no "names no Act" flag from the answer
    assert not [f for f in a.flags if f.kind == "ambiguous" and f.found_in == "answer"]


def test_job_scam_does_not_quote_organised_crime_as_the_answer(real_pipeline):
    a = real_pipeline.ask(JOB_SCAM)
    _check_marks(real_pipeline, a, JOB_SCAM)
    main, related = body(a)
    assert not [c for c in a.citations if c.ref is not None and c.ref.section == "111" and not c.related]
    assert "Organised crime" not in main


def test_job_scam_body_opens_with_the_heads_provision(real_pipeline):
    a = real_pipeline.ask(JOB_SCAM)
    main, _ = body(a)
    assert main.lstrip().startswith(str(a.head[0].ref))  # the body opens with the head's provision


def test_ipc_420_answer_quotes_the_leading_bns_provision_first(real_pipeline):
    q = "What is the punishment under IPC 420?"
    a = real_pipeline.ask(q)
    _check_marks(real_pipeline, a, q)
    lead = a.head[0].ref
    assert lead.act == "BNS" and lead in real_pipeline.concordance.successors(a.head[0].counterparts[0]).targets
    main, _ = body(a)
    lines = main.strip().splitlines()
    assert lines[0].startswith(f"{lead} - ")
    assert any(ln.startswith("IPC 420 - ") for ln in lines[1:])


def test_dowry_death_keeps_the_explanation_naming_the_dowry_prohibition_act(real_pipeline):
    q = "Which section applies to a dowry death?"
    a = real_pipeline.ask(q, offence_date="2024-08-10")
    main, _ = body(a)
    assert "Dowry Prohibition Act" in main and "Explanation" in main
    assert not [p for p in a.problems if "Dowry Prohibition Act" in p and "removed" in p]
    # every heading of the body is followed by its quote: no provision left with a heading and nothing quoted
    lines = main.strip().splitlines()
    for i, ln in enumerate(lines):
        if not ln.startswith("\u201c"):
            assert i + 1 < len(lines) and lines[i + 1].startswith("\u201c"), ln
    assert not [f for f in a.flags if f.kind == "ambiguous"]


def test_a_definition_naming_its_own_acts_section_is_quoted(real_pipeline):
    a = real_pipeline.ask("What is cruelty under section 85 BNS?")
    main, _ = body(a)
    assert "For the purposes of section 85" in main
    assert not [p for p in a.problems if str(Failure("section", "section 85")) in p]  # verify's reason, as shown
