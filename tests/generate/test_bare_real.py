"""A bare number read against practice on the real pipeline: a number that names an offence in both the
IPC and the BNS ("Is 323 cognizable?") is answered for both, each with its classification, in the order of how
many judgments of the case base cite the number in each sense, with a notice saying so; a number only one code's
schedule lists, a named Act or an offence date gives one reading. Expectations are read from the real schedules,
correspondence tables and case base (the test index samples 300 judgments), never written here."""

from __future__ import annotations

import pytest

from legal_rag.law import classify
from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow


def _readings(pipe, number: str) -> list[StatuteRef]:
    """The IPC and BNS sections of ``number`` the First Schedules list, most cited in the case base first."""
    cb = pipe.casebase
    refs = [StatuteRef(a, number) for a in ("IPC", "BNS") if pipe.schedule.section_rows(a, number)]
    return sorted(refs, key=lambda r: -cb.section_df(r))


def _lead(pipe, ref: StatuteRef) -> tuple[StatuteRef, ...]:
    """The head line's provision for ``ref`` with no date: the law in force today (an IPC section's successors)."""
    return pipe.concordance.counterparts(ref) if ref.act == "IPC" else (ref,)


@pytest.mark.parametrize("question, number", [("Is 323 cognizable?", "323"), ("Is 304 bailable?", "304"),
                                              ("Which court tries 324?", "324"),
                                              ("Is section 148 bailable?", "148")])
def test_a_number_both_codes_schedule_is_answered_both_ways_in_the_case_bases_order(real_pipeline, question,
                                                                                    number):
    pipe = real_pipeline
    want = _readings(pipe, number)
    ipc, bns = StatuteRef("IPC", number), StatuteRef("BNS", number)
    assert set(want) == {ipc, bns}  # both First Schedules list a section of this number (different offences)
    cited = {r: pipe.casebase.section_df(r) for r in want}
    assert cited[ipc] > cited[bns]  # in practice the number means the IPC offence: the order is not "newer first"
    answer = pipe.ask(question)
    (notice,) = [n for n in answer.notices if n.kind == "reading"]
    assert notice.text.startswith(f'"{number}" names a section in more than one code; both readings are given: '
                                  f'{want[0]} (')
    assert f"cited in {cited[ipc]} judgment" in notice.text and f"then {want[1]} (" in notice.text
    assert "Ordered by how many judgments of the case base cite the number in each sense" in notice.text
    first, second = answer.head[:2]
    for i, (line, ref) in enumerate(((first, want[0]), (second, want[1])), 1):
        assert line.line.startswith(f'Reading {i} of 2 of "{number}" ({ref}, cited in {cited[ref]} judgment')
        assert line.ref in _lead(pipe, ref)
        rows = classify(line.ref, pipe.schedule)
        assert rows and rows[0].court.rstrip(". ") in line.line and f"p. {rows[0].page}]" in line.line
    assert answer.text.startswith(first.line)


def test_a_procedure_number_is_read_in_both_procedure_codes_by_the_case_base(real_pipeline):
    pipe = real_pipeline
    crpc, bnss = StatuteRef("CrPC", "161"), StatuteRef("BNSS", "161")
    assert pipe.casebase.section_df(crpc) > pipe.casebase.section_df(bnss)
    answer = pipe.ask("What is the procedure under section 161?")
    assert [n.kind for n in answer.notices].count("reading") == 1
    assert [h.line.split(":")[0] for h in answer.head[:2]] == [
        f'Reading 1 of 2 of "161" (CrPC 161, cited in {pipe.casebase.section_df(crpc)} judgments of the case base)',
        f'Reading 2 of 2 of "161" (BNSS 161, cited in {pipe.casebase.section_df(bnss)} judgment'
        + ("" if pipe.casebase.section_df(bnss) == 1 else "s") + ' of the case base)']
    assert answer.head[0].ref in pipe.concordance.counterparts(crpc)  # today's law for CrPC 161 (BNSS 180)


@pytest.mark.parametrize("question, number", [("Is 376 bailable?", "376"), ("Is 406 bailable?", "406"),
                                              ("Is section 506 cognizable?", "506"), ("Is 498A bailable?", "498A"),
                                              ("Which court tries 304B?", "304B")])
def test_a_number_one_code_schedules_is_read_one_way(real_pipeline, question, number):
    pipe = real_pipeline
    assert pipe.schedule.section_rows("IPC", number) and not pipe.schedule.section_rows("BNS", number)
    answer = pipe.ask(question)
    assert not [n for n in answer.notices if n.kind == "reading"]
    assert not answer.head[0].line.startswith("Reading ")
    assert answer.head[0].ref in pipe.concordance.counterparts(StatuteRef("IPC", number))


@pytest.mark.parametrize("question, ref", [("Is IPC 323 cognizable?", StatuteRef("IPC", "323")),
                                           ("Is BNS 323 cognizable?", StatuteRef("BNS", "323")),
                                           ("Is section 323 of the BNS bailable?", StatuteRef("BNS", "323"))])
def test_a_number_with_its_act_is_not_ambiguous(real_pipeline, question, ref):
    answer = real_pipeline.ask(question)
    assert not [n for n in answer.notices if n.kind == "reading"]
    assert answer.head[0].ref in _lead(real_pipeline, ref) and not answer.head[0].line.startswith("Reading ")
    assert len(answer.head) == len(_lead(real_pipeline, ref))


def test_an_offence_date_reads_the_code_in_force_on_it(real_pipeline):
    answer = real_pipeline.ask("Which court tries 324?", offence_date="2023-05-01")
    assert not [n for n in answer.notices if n.kind == "reading"]
    assert answer.head[0].ref == StatuteRef("IPC", "324") and len(answer.head) == 1


@pytest.mark.parametrize("number", ["323", "307"])
def test_a_bare_number_looked_up_lists_its_readings_in_the_case_bases_order(real_pipeline, number):
    """The look-up (UI's Look up tab, ``legal-rag lookup``) orders the readings as an answer does: most cited in the
    case base first, the counts said in the message."""
    pipe = real_pipeline
    res = pipe.lookup(number)
    refs = [r.ref for r in res.readings]
    counts = [pipe.casebase.section_df(r) for r in refs]
    assert res.status == "ambiguous" and len(refs) >= 2
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    assert "ordered by how many judgments of the case base cite each" in res.message
    assert f"{refs[0]}: {counts[0]}" in res.message


def test_the_quotes_follow_the_readings_in_order(real_pipeline):
    """Reading 1's provision (or its official pair) is quoted before reading 2's: the body follows the head."""
    answer = real_pipeline.ask("Is 323 cognizable?")
    lines = [h for h in answer.head]
    assert len(lines) == 2
    first = {(r.act, r.section) for r in (lines[0].ref, *lines[0].counterparts)}
    second = {(r.act, r.section) for r in (lines[1].ref, *lines[1].counterparts)}
    quoted = [(c.ref.act, c.ref.section) for c in answer.citations if c.ref is not None and not c.related]
    assert quoted, answer.text
    at = [0 if q in first else 1 if q in second else 2 for q in quoted]
    assert at == sorted(at) and 2 not in at, (quoted, answer.text)
