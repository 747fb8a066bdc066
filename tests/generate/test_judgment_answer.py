"""Judgment answers from inline data (legal_rag.generate.judgment_answer): each route's text, passages, problems."""

from legal_rag.generate.judgment_answer import judgment_answer
from legal_rag.law.citation_lookup import CaseRecord, MetaRecord
from legal_rag.law.judgment_questions import judgment_task
from legal_rag.types import Chunk


def chunk(case, i, text):
    return Chunk(f"{case}-{i}", "judgment", text, "t", f"{case}.pdf", (i + 1, i + 1), part=i, parts=2, case=case,
                 meta=(("case", case), ("paras", str(i + 1))))


CHUNKS = {"A": (chunk("A", 0, "1. The appellant pleaded that he was of unsound mind at the time of the offence."),
                chunk("A", 1, "2. The plea of insanity was never raised before the trial court. The appeal is "
                              "accordingly dismissed.")),
          "B": (chunk("B", 0, "1. Bail conditions must not be so onerous as to frustrate the order granting bail."),)}
RECS = [CaseRecord("A", "Mohd. Anwar v. State", ("[2020] 7 S.C.R. 150",), "Supreme Court of India", "2020-08-19"),
        CaseRecord("B", "Frank Vitus v. NCB", ("2024 INSC 479",), "Supreme Court of India", "2024-07-08")]
ROW = MetaRecord("X VS Y", "2023-01-05", "C.A. 1/2023", "1/2022", ("2023 INSC 5",))


def ask(q, citations=()):
    return judgment_answer(judgment_task(q, citations), q, citations, RECS, CHUNKS,
                           meta=lambda c: ROW if c == "2023 INSC 5" else None,
                           meta_covers=lambda c: c.startswith("2023 INSC"))


def test_quotation_in_the_judgment_named_by_citation():
    got = ask("Verify this quotation from [2020] 7 SCR 150: 'the plea of insanity was never raised before the trial "
              "court'")
    assert got.quote.verdict == "verbatim" and got.passages[0].chunk.id == "A-1"
    assert got.text.startswith("Mohd. Anwar v. State, [2020] 7 S.C.R. 150: the quotation is there verbatim (para 2")
    assert got.citations[0].support == "supported" and not got.problems


def test_quotation_of_a_judgment_not_indexed_cannot_be_checked():
    got = ask("Verify this quotation from 2023 INSC 5: 'bail conditions must not be onerous at all'")
    assert "exists (X VS Y" in got.text and "cannot be checked" in got.text and not got.passages


def test_quotation_with_no_judgment_named_searches_all():
    got = ask("Check this quotation: 'Bail conditions must not be so onerous as to frustrate the order'")
    assert "all 2 indexed judgments were searched" in got.text and "Frank Vitus v. NCB" in got.text
    assert got.passages[0].chunk.case == "B"


def test_citation_routes():
    found = ask("What did 2024 INSC 479 decide?", ("2024 INSC 479",))
    assert found.text.startswith("2024 INSC 479 is Frank Vitus v. NCB") and found.passages
    gone = ask("What did 2023 INSC 9 decide?", ("2023 INSC 9",))
    assert "no such judgment exists" in gone.text and gone.problems and not gone.passages
    elsewhere = ask("What did 2023 INSC 5 decide?", ("2023 INSC 5",))
    assert "not indexed here" in elsewhere.text and not elsewhere.passages


def test_holding_with_nothing_ranked_says_so():
    got = judgment_answer(judgment_task("Which judgment held that bail is the rule?", ()), "q", (), RECS, CHUNKS)
    from legal_rag.generate.abstain import NOT_IN_SOURCES

    assert got.text.startswith(NOT_IN_SOURCES) and "No indexed judgment matches" in got.text and not got.passages
