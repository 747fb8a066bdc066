"""Which judgments applied a section (legal_rag.generate.applying) and the answer listing them
(legal_rag.generate.applied), on a small case base and the official correspondence tables."""

from __future__ import annotations

import pytest

from legal_rag.generate.applied import applied_answer, mention_quote
from legal_rag.generate.applying import agrees, counterparts_of, judgments_applying
from legal_rag.index.casebase import CaseBase
from legal_rag.law import JudgmentConstraint, read_constraint
from legal_rag.types import Judgment, Paragraph, StatuteRef

BNS318_4, IPC420 = StatuteRef("BNS", "318", ("4",)), StatuteRef("IPC", "420")


def _j(c, date, court="Supreme Court of India", decision="judgment", cites=()):
    return Judgment(c, f"{c} v. State", court, date, f"{c}.pdf", cites, decision=decision)


def _p(c, number, text, *cites):
    return Paragraph(c, number, text, f"{c}.pdf", (3, 3), cites)


@pytest.fixture
def cb():
    js = [_j("OLD", "2019-05-02", cites=("[2019] 3 S.C.R. 1",)), _j("NEW", "2026-01-20", cites=("2026 INSC 70",)),
          _j("HC", "2025-03-01", "High Court of Delhi", decision="order"), _j("OTHER", "2025-06-01"),
          _j("SUB2", "2025-07-01"), _j("NONE", "2024-01-01"), _j("OLDCODE", "1961", cites=())]
    ps = [_p("OLD", "3", "The FIR was registered under Section 420 IPC.", IPC420),
          _p("OLD", "9", "The ingredients of Section 420 IPC are made out and the conviction stands.", IPC420),
          _p("NEW", "4", "Charges were framed under Section 318(4) of the BNS.", BNS318_4),
          _p("HC", "2", "The applicant seeks bail in an FIR under Section 318 BNS.", StatuteRef("BNS", "318")),
          _p("OTHER", "5", "Section 303 BNS (theft) is attracted.", StatuteRef("BNS", "303")),
          _p("SUB2", "1", "Section 318(2) BNS is invoked.", StatuteRef("BNS", "318", ("2",))),
          _p("NONE", "1", "Nothing statutory here."),
          _p("OLDCODE", "", "Revision under s. 439 of the Code of Criminal Procedure.", StatuteRef("CrPC", "439"))]
    return CaseBase.build(js, ps)


def test_sub_sections_agree_when_one_path_is_a_prefix_of_the_other():
    assert agrees(StatuteRef("BNS", "318"), BNS318_4) and agrees(BNS318_4, StatuteRef("BNS", "318"))
    assert not agrees(StatuteRef("BNS", "318", ("2",)), BNS318_4) and not agrees(IPC420, BNS318_4)


def test_counterparts_by_the_table(conc):
    (cp,) = counterparts_of(BNS318_4, conc)
    assert (cp.ref, cp.of, cp.relation) == (IPC420, BNS318_4, "predecessor") and cp.row.endswith("#453")
    assert [(c.ref, c.relation) for c in counterparts_of(IPC420, conc)] == [(BNS318_4, "successor")]
    assert counterparts_of(StatuteRef("BNS", "111"), conc) == ()  # marked New: no predecessor


def test_direct_and_predecessor_newest_first(cb, conc):
    got = judgments_applying(BNS318_4, cb, conc)
    assert [a.case for a in got.found] == ["NEW", "HC", "OLD"] and got.total == 3  # never SUB2's 318(2), nor 303
    new, hc, old = got.found
    assert new.relation == "direct" and new.cited == BNS318_4
    assert hc.cited == StatuteRef("BNS", "318") and hc.judgment.decision == "order"
    # the paragraph that applies it (ingredients, conviction), not the FIR's recital
    assert old.relation == "predecessor" and old.cited == IPC420 and old.paragraph.number == "9"


def test_the_court_and_years_asked_keep_some(cb, conc):
    got = judgments_applying(BNS318_4, cb, conc, keep=lambda j: j.date[:4] >= "2025")
    assert [a.case for a in got.found] == ["NEW", "HC"] and got.total == 3


def test_a_crpc_section_is_never_the_1898_code_s(cb, conc):
    assert judgments_applying(StatuteRef("CrPC", "439"), cb, conc).found == ()
    assert judgments_applying(StatuteRef("BNSS", "483"), cb, conc).total == 0


def test_the_answer_lists_each_with_its_court_date_and_paragraph(cb, conc):
    got = judgments_applying(BNS318_4, cb, conc)
    ans = applied_answer([got], {}, cases=len(cb))
    lines = ans.text.splitlines()
    assert lines[0].startswith("Judgments and orders in the case base that cite BNS 318(4), directly or through its "
                               "official predecessor IPC 420 (BPR&D correspondence table), newest first (3 found)")
    assert lines[1].startswith("1. NEW v. State, 2026 INSC 70 (Supreme Court of India, 20 January 2026; judgment). "
                               "It cites BNS 318(4) (para 4, PDF p. 3): \u201cCharges were framed")
    assert "(High Court of Delhi, 1 March 2025; order)" in lines[2]
    assert "It cites IPC 420, the predecessor of BNS 318(4) (BPR&D table, " in lines[3] and "(para 9, PDF p. 3)" in lines[3]
    assert [c.marker for c in ans.citations] == [1, 2, 3] and all(c.support == "supported" for c in ans.citations)
    # no judgment indexed as chunks: each is cited at its paragraph of the case base
    assert [h.chunk.id for h in ans.passages] == ["casebase:NEW#0", "casebase:HC#0", "casebase:OLD#1"]
    assert all(h.chunk.kind == "judgment" and h.chunk.case for h in ans.passages)


def test_a_cap_says_how_many_more(cb, conc):
    ans = applied_answer([judgments_applying(BNS318_4, cb, conc)], {}, cap=2)
    assert "newest 2 are listed" in ans.text and ans.text.splitlines()[-1].startswith("1 more, older, cite it too")
    assert len(ans.passages) == 2


def test_none_cites_it_said_plainly_never_another_section(cb, conc):
    ans = applied_answer([judgments_applying(StatuteRef("BNS", "111"), cb, conc)], {}, cases=len(cb))
    assert ans.text == "No judgment or order in the case base (7 judgments) cites BNS 111." and not ans.passages
    assert ans.problems == (ans.text,)
    ans = applied_answer([judgments_applying(StatuteRef("BNS", "303", ("1",)), cb, conc)], {}, cases=7)
    assert "OTHER" in ans.text  # 303 itself, named at section level


def test_a_constraint_that_keeps_nothing_says_so(cb, conc):
    c = read_constraint("Delhi High Court decisions in 2019 under BNS 318(4)")
    got = judgments_applying(BNS318_4, cb, conc, keep=lambda j: False)
    ans = applied_answer([got], {}, constraint=c, cases=7)
    assert ans.text.startswith("No judgment or order in the case base, of the Delhi High Court, decided in 2019, cites "
                               "BNS 318(4)") and "Without that constraint, 3 judgments do." in ans.text
    assert [n.kind for n in ans.notices] == ["filters"] and "\u201cDelhi High Court\u201d" in ans.notices[0].text
    assert not ans.passages


def test_orders_asked_for_but_none_held_is_said(cb, conc):
    got = judgments_applying(BNS318_4, cb, conc, keep=lambda j: j.decision != "order")
    ans = applied_answer([got], {}, constraint=JudgmentConstraint(orders=True))
    assert ans.text.splitlines()[-1] == "None of these is recorded as an order: the case base holds them as judgments."


def test_the_quotation_is_cut_around_the_mention():
    text = "word " * 300 + "under Section 498-A IPC the husband " + "tail " * 300
    q = mention_quote(text, StatuteRef("IPC", "498A"), 200)
    assert "498-A" in q and q.startswith("...") and q.endswith("...") and len(q) <= 210
    assert "302" not in mention_quote("s. 302A and " + "x " * 400 + "s. 302", StatuteRef("IPC", "302"), 60)[:20]


def test_a_question_for_orders_is_told_they_are_searched_with_judgments():
    from legal_rag.generate.applied import constraint_notice

    plain = constraint_notice(JudgmentConstraint(), True)
    orders = constraint_notice(JudgmentConstraint(orders=True), True)
    assert plain.startswith("The question asks for judgments")
    assert orders.startswith("The question asks for orders (orders and judgments are searched alike)")
    assert "no judgment or order" in constraint_notice(JudgmentConstraint(orders=True), False, "citing BNS 103")
