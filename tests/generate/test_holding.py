"""Holdings: the paragraph stating the court's conclusion (legal_rag.generate.holding) and judgments ranked as
wholes (legal_rag.retrieve.judgment_lookup.rank_judgments)."""

from legal_rag.generate.holding import Holding, conclusion, cue_score, holding_text, quote_of
from legal_rag.retrieve.judgment_lookup import case_records, judgments_of, rank_judgments
from legal_rag.types import Chunk, Hit, Judgment


def chunk(case, i, text, meta=()):
    return Chunk(f"{case}-{i}", "judgment", text, f"{case} v. State", "x.pdf", (i + 1, i + 1), part=i, parts=4,
                 case=case, meta=(("case", case), ("court", "Supreme Court of India"), *meta))


A = [chunk("A", 0, "1. The facts are these. The appellant was arrested on 3 May."),
     chunk("A", 1, "12. The learned counsel submitted that the arrest was illegal and that bail must be granted."),
     chunk("A", 2, "20. For the foregoing reasons, we hold that arrest is not mandatory merely because the offence "
                   "is cognizable. The appeal is accordingly allowed."),
     chunk("A", 3, "21. Pending applications, if any, stand disposed of.")]


def test_conclusion_is_the_stated_holding_not_the_last_or_most_similar_paragraph():
    assert cue_score(A[2].text) > cue_score(A[1].text) == 0
    assert conclusion(A, "is arrest mandatory for a cognizable offence").id == "A-2"


def test_quoted_text_of_another_court_is_not_the_conclusion():
    quoting = chunk("B", 0, "In K. Veeraswami the court held as under: we hold that the charge-sheet is a report.")
    own = chunk("B", 1, "15. The appeal is dismissed.")
    assert conclusion([quoting, own], "charge-sheet report").id == "B-1"


def test_quote_cut_around_the_cue():
    long = chunk("C", 0, "x " * 600 + "we hold that the order is bad. " + "y " * 600)
    q = quote_of(long, limit=200)
    assert "we hold that" in q and q.startswith("...") and q.endswith("...") and len(q) <= 210


def test_rank_judgments_aggregates_passages_per_case():
    def hit(c, n):
        return Hit(chunk(c, n, "t"), 0.5, "rrf", 1)
    hits = [hit("B", 0), hit("A", 0), hit("A", 1), hit("A", 2)]
    ranked = rank_judgments(hits, rrf_k=60)
    assert [r.case for r in ranked] == ["A", "B"]  # three good passages beat one look-alike
    assert abs(ranked[1].score - 1 / 61) < 1e-12 and len(ranked[0].hits) == 3


def test_records_merge_meta_casebase_and_id_citations():
    c = Chunk("2024-INSC-479-0", "judgment", "t", "Frank Vitus v. NCB", "f.pdf", (1, 1), case="2024-INSC-479",
              meta=(("citations", "[2024] 7 S.C.R. 97; 2024 INSC 479"), ("court", "Supreme Court of India"),
                    ("date", "2024-07-08")))
    j = Judgment("2024-INSC-479", "Frank Vitus v. NCB", "Supreme Court of India", "2024-07-08", "f.pdf",
                 citations=("(2024) 9 SCC 1",))
    (rec,) = case_records(judgments_of([c]), {"2024-INSC-479": j})
    assert rec.citations == ("[2024] 7 S.C.R. 97", "2024 INSC 479", "(2024) 9 SCC 1")
    assert rec.court == "Supreme Court of India" and rec.date == "2024-07-08"


def test_holding_text_names_the_case_and_citation_first():
    h = Holding("A v. State", "[2020] 7 S.C.R. 150", "Supreme Court of India", "2020-08-19", A[2], quote_of(A[2]))
    text = holding_text([h])
    line = text.splitlines()[1]
    assert line.startswith("1. A v. State, [2020] 7 S.C.R. 150 (Supreme Court of India, 2020-08-19)")
    assert "we hold that arrest is not mandatory" in line and line.endswith("[1]")


def test_citations_of_support_only_quotes_found_in_the_passage():
    from legal_rag.generate.judgment_answer import citations_of

    hits = [Hit(A[2], 1.0, "lookup", 1)]
    good = citations_of("1. A v. State. The court's conclusion: \u201cwe hold that arrest is not mandatory\u201d [1]", hits)
    bad = citations_of("1. A v. State. The court's conclusion: \u201cwe hold that arrest is always mandatory\u201d [1]", hits)
    cut = citations_of("\u201c...we hold that arrest is not mandatory... The appeal is accordingly allowed.\u201d [1]", hits)
    assert [c.support for c in good + bad + cut] == ["supported", "unsupported", "supported"]
    assert good[0].chunk_id == "A-2" and good[0].quote == "we hold that arrest is not mandatory"
    assert citations_of("no such passage [2]", hits) == ()


def test_a_judgment_cited_twice_is_quoted_once():
    from legal_rag.generate.judgment_answer import judgment_answer
    from legal_rag.law.citation_lookup import CaseRecord
    from legal_rag.law.judgment_questions import JudgmentTask

    rec = CaseRecord("A", "A v. State", ("[2024] 7 S.C.R. 97", "2024 INSC 479"), "Supreme Court of India")
    got = judgment_answer(JudgmentTask("citation"), "What did [2024] 7 SCR 97 : 2024 INSC 479 hold?",
                          ("[2024] 7 S.C.R. 97", "2024 INSC 479"), [rec], {"A": A}, top_k=2)
    assert [c.status for c in got.checks] == ["found", "found"]
    assert got.text.count("we hold that arrest") == 1 and len(got.passages) == 2
    assert got.passages[0].chunk.id == "A-2"  # the conclusion first, then the passage nearest the question


def test_cues_inside_quotation_marks_are_another_courts():
    foreign = chunk("D", 0, 'The US Supreme Court held that: \u201cWe hold, however, that the background check is valid.\u201d')
    own = chunk("D", 1, "(i) The decision in M P Sharma is overruled. (ii) The reference is answered accordingly.")
    assert conclusion([own, foreign], "background check privacy").id == "D-1"


def test_rank_cases_fuses_judgments_not_passages():
    from legal_rag.retrieve.judgment_lookup import rank_cases

    def hit(c, n):
        return Hit(chunk(c, n, "t"), 0.5, "rrf", 1)
    # BM25 and dense each put M first through different passages; P is second in both lists
    sparse = [hit("M", 0), hit("M", 1), hit("P", 0)]
    dense = [hit("M", 2), hit("P", 0), hit("P", 1)]
    ranked = rank_cases([sparse, dense], rrf_k=60)
    assert [r.case for r in ranked] == ["M", "P"]
    assert abs(ranked[0].score - 2 / 61) < 1e-12
    assert [h.chunk.id for h in ranked[1].hits] == ["P-0", "P-1"]  # P-0 found by both, listed once


def test_a_law_report_end_note_is_not_quoted_as_the_court_s_words():
    """The Digital Supreme Court Reports print the reporter's end-note after the order ("Headnotes prepared by:
    ... Result of the case: ..."); the quoted conclusion stops before it."""
    end = chunk("D", 3, "25. The appeals are accordingly dismissed. Headnotes prepared by: Ankit Gyan Result of the "
                        "case: Appeals dismissed.")
    assert quote_of(end) == "25. The appeals are accordingly dismissed."
    assert quote_of(end) in end.text  # still a verbatim quote of the passage
    plain = chunk("D", 2, "24. We hold that the result of the case below cannot stand.")
    assert quote_of(plain) == plain.text  # "result of the case" without the note's colon is the court's
