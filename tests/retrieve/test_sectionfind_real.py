"""Section finding on the real corpus: the session's real index (the six Acts and the corpus judgments) and its case
base (the first ``casebase_limit`` AILA judgments of the test settings plus the corpus judgments), through
:func:`legal_rag.retrieve.sectionfind.find_sections` as the product calls it. Expectations are legal facts
(murder is IPC 302, whose BPR&D successor is BNS 103), never measured figures."""

from __future__ import annotations

import pytest

from legal_rag.retrieve.evidence import section_evidence
from legal_rag.retrieve.sectionfind import find_sections
from legal_rag.types import NEW_ACTS, OLD_ACTS, StatuteRef

MURDER = ("The accused quarrelled with the deceased over a boundary dispute, took out a knife and stabbed him "
          "repeatedly in the chest and abdomen with the intention of killing him; the deceased died on the spot "
          "of the injuries. Which sections apply?")
IPC302, BNS103 = StatuteRef("IPC", "302"), StatuteRef("BNS", "103")


@pytest.fixture(scope="module")
def casebase(real_casebase):
    return real_casebase


def test_murder_facts_get_ipc_302_from_precedents(casebase):
    ev = section_evidence(MURDER, casebase, era="old")
    top = [e.ref for e in ev[:5]]
    assert IPC302 in top, top
    e = ev[top.index(IPC302)]
    assert e.n_cases == len(e.cases) > 0 and all(0 < s <= 1 for _, s in e.cases)


def test_murder_facts_new_era_leads_with_bns_103_and_names_its_predecessor(real_pipeline, real_settings, casebase):
    got = find_sections(MURDER, real_pipeline.index, casebase, real_settings, era="new", limit=5)
    refs = [s.ref for s in got]
    assert BNS103 in refs, refs
    s = got[refs.index(BNS103)]
    assert s.n_cases > 0 and s.cases and IPC302 in s.counterparts
    assert "most similar judgments" in s.why()
    assert all(r.act in NEW_ACTS for r in refs)


def test_job_scam_question_leads_with_cheating(real_pipeline, real_settings, casebase):
    # issue 13's field question: it led with BNS 111 (organised crime) before; cheating is BNS 318 (IPC 420 ->
    # BNS 318(4), BPR&D row #453)
    q = "my client was cheated of Rs 5 lakh by someone who promised a government job - which sections apply?"
    got = find_sections(q, real_pipeline.index, casebase, real_settings, era="new", limit=3)
    assert StatuteRef("BNS", "318") in [s.ref for s in got], got


def test_old_era_and_act_filter(real_pipeline, real_settings, casebase):
    old = find_sections(MURDER, real_pipeline.index, casebase, real_settings, era="old", limit=5)
    assert IPC302 in [s.ref for s in old] and all(s.ref.act in OLD_ACTS for s in old)
    only_bnss = find_sections(MURDER, real_pipeline.index, casebase, real_settings, era="new",
                              filters={"act": ["BNSS"]}, limit=5)
    assert only_bnss and all(s.ref.act == "BNSS" for s in only_bnss)


def test_direct_retrieval_alone_and_bridging_on_the_product_index(real_pipeline, real_settings):
    # no case base: the text of the sections alone; a named old section's successor is reached by the bridge
    got = find_sections("cheating and dishonestly inducing delivery of property", real_pipeline.index, None,
                        real_settings, era="new", limit=10)
    refs = [s.ref for s in got]
    assert StatuteRef("BNS", "318") in refs, refs
    assert all(s.n_cases == 0 and s.direct_rank is not None for s in got)
