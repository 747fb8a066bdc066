"""The orders-of-the-day splitter (legal_rag.ingest.sc_orders) on a small log written in the source's layout: the
table of contents, a signed order beside its record of proceedings, the same order listed twice, a civil matter,
a Registrar's record; then the reader (legal_rag.ingest.many.read_sc_orders) on the same log, through the one
judgment path."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.ingest.many import COPY_REASON, REGISTRAR, Seen, read_sc_orders
from legal_rag.ingest.sc_orders import (before_registrar, dedupe, order_case_id, order_citation, order_date, order_key,
                                        order_lines, read_toc, segments, short_case_number, split_day, split_pages)
from legal_rag.ingest.scope import CIVIL_REASON, criminal_rule
from legal_rag.types import StatuteRef

SIGNED = """1
IN THE SUPREME COURT OF INDIA
CRIMINAL APPELLATE JURISDICTION
CRIMINAL APPEAL NO.        OF 2026
(Arising out of SLP(CRL.) NO.11108/2024)
NAVEEN VERMA                               Appellant(s)
VERSUS
STATE OF MADHYA PRADESH & OTHERS             Respondent(s)
 O R D E R
1. Leave granted.
2. The appellant seeks bail in FIR No. 12 of 2024 under Sections 318(4) and 61(2) of the Bharatiya Nyaya
Sanhita, 2023.
3. The appeal is allowed.
..........................J.
(SANJAY KAROL)
..........................J.
(PRASANNA B. VARALE)
NEW DELHI;
MAY 18, 2026"""

RECORD = """ITEM NO.39               COURT NO.4               SECTION II-E
               S U P R E M E  C O U R T  O F  I N D I A
                       RECORD OF PROCEEDINGS
Petition for Special Leave to Appeal (Crl.)No(s).  11108/2024
[Arising  out  of  impugned  final  judgment  and  order  dated
07.05.2024 in MCRC No. 30559/2022 passed by the High Court of
Madhya Pradesh Principal Seat at Jabalpur]
NAVEEN VERMA                                     Petitioner(s)
                                VERSUS
STATE OF MADHYA PRADESH & ORS.                   Respondent(s)
Date : 18-05-2026 This matter was called on for hearing today.
CORAM : HON'BLE MR. JUSTICE SANJAY KAROL
         HON'BLE MR. JUSTICE PRASANNA B. VARALE
For Petitioner(s) : Mr. A. Advocate, AOR
                   Mr. B. Advocate, Adv.
For Respondent(s) : Mr. C. Advocate, AOR
          UPON hearing the counsel the Court made the following
                             O R D E R
Leave granted.
The appeal is allowed in terms of the signed order.
(NISHA KHULBEY)                   (AKSHAY KUMAR BHORIA)
COURT MASTER(SH)                    COURT MASTER(NSH)
(Signed order is placed on the file)"""

CIVIL = """ITEM NO.811               COURT NO.7               SECTION III-A
               S U P R E M E  C O U R T  O F  I N D I A
                       RECORD OF PROCEEDINGS
Civil Appeal No(s).7426/2026
M/S. RAMSHIL CONSTRUCTIONS PRIVATE LIMITED         Appellant(s)
                                VERSUS
THE TRUST ASSOCIATION OF CBCNC & ORS.              Respondent(s)
Date : 26-05-2026 This appeal was called on for hearing today.
CORAM : HON'BLE MR. JUSTICE J.B. PARDIWALA
          UPON hearing the counsel the Court made the following
                             O R D E R
1. Para 2 of the order dated 04.05.2026 concerning the sale deed of the land shall be read as under."""

REGISTRAR_RECORD = """ITEM NO.3               REGISTRAR COURT. 1               SECTION II-D
               S U P R E M E  C O U R T  O F  I N D I A
                       RECORD OF PROCEEDINGS
BEFORE THE REGISTRAR SH. VISHAL
Criminal Appeal No(s). 1592/2026
RAKESH                                             Appellant(s)
                                VERSUS
STATE                                              Respondent(s)
Date : 25-06-2026 This matter was called on for hearing today.
List again on 12.08.2026."""

TOC = """Supreme Court of India
Orders of the Day - 2 June 2026
# Case Reference Page Len.
1 Naveen Verma vs. State of Madhya Pradesh SLP(Crl) No. 11108/2024 3 3
2 Naveen Verma vs. State of Madhya Pradesh SLP(Crl) No. 11108/2024 6 1
3 M/s. Ramshil Constructions Private Limited vs. the Trust Ass C.A. No. 7426/202 7 1
4 Rakesh vs. State Crl.A. No. 1592/2026 8 1"""


def _log(pages: dict[int, str]) -> str:
    return "# Document Log — 2026-06-02\n\n" + "\n\n".join(f"## Page {n}\n\n{t}" for n, t in sorted(pages.items()))


SIGNED_PAGES = SIGNED.split("2. The appellant")
LOG = _log({1: TOC, 2: "", 3: SIGNED_PAGES[0], 4: "2. The appellant" + SIGNED_PAGES[1], 5: RECORD, 6: RECORD,
            7: CIVIL, 8: REGISTRAR_RECORD})


def test_split_pages_and_the_table_of_contents():
    pages = split_pages(LOG)
    assert sorted(pages) == list(range(1, 9)) and pages[2].strip() == ""
    rows = read_toc(pages)
    assert [(r.number, r.first_page, r.pages) for r in rows] == [(1, 3, 3), (2, 6, 1), (3, 7, 1), (4, 8, 1)]
    assert rows[0].listing == "Naveen Verma vs. State of Madhya Pradesh SLP(Crl) No. 11108/2024"
    assert rows[0].last_page == 5


def test_a_reference_cut_into_the_page_number_is_read_by_the_page_that_follows():
    """The listing's reference column is cut at a fixed width and may run into the page number: "331-332/125 4"
    lists page 125 (the page after the row before), not page 332/125."""
    toc = ("# Case Reference Page Len.\n1 Isha Malhotra vs. Abha Arora T.P.(Crl.) No. 745/2025 121 4\n"
           "2 Tikam Singh vs. Rakesh Kumar CONMT.PET.(C) No. 331-332/125 4\n3 Uday Singh vs. State SLP(Crl) No. 7046/2026 129 3")
    rows = read_toc({1: toc, 121: "x"})
    assert [(r.first_page, r.pages) for r in rows] == [(121, 4), (125, 4), (129, 3)]
    assert rows[1].listing == "Tikam Singh vs. Rakesh Kumar CONMT.PET.(C) No. 331-332/"


def test_no_table_of_contents_no_rows():
    assert read_toc({1: "some text", 2: "more"}) == ()


def test_segments_cut_a_matter_into_its_signed_order_and_its_record():
    day = split_day("SC_orders_of_the_day_2026-06-02.md", LOG)
    first = [s for s in day.segments if s.item == 1]
    assert [s.kind for s in first] == ["signed", "record"]
    assert first[0].pages == (3, 4) and first[1].pages == (5, 5)
    assert first[0].text.splitlines()[0] == "1"  # the page number above the heading stays with the order
    assert first[0].listing.startswith("Naveen Verma")
    reportable = segments("d", 1, [(1, "NON-REPORTABLE"), (1, "IN THE SUPREME COURT OF INDIA"), (1, "text")])
    assert [s.kind for s in reportable] == ["signed"] and reportable[0].lines[0] == (1, "NON-REPORTABLE")
    assert segments("d", 1, [(1, "plain lines"), (2, "of a matter")])[0].kind == "record"
    assert segments("d", 1, [(1, "  ")]) == []


def test_order_date_and_key():
    day = split_day("d.md", LOG)
    signed, record = [s for s in day.segments if s.item == 1]
    assert order_date(signed) == "2026-05-18"  # "NEW DELHI; MAY 18, 2026" at its foot
    assert order_date(record) == "2026-05-18"  # "Date : 18-05-2026"
    assert order_key(signed).case == ("slp", "11108", "2024")  # the case the appeal arises out of
    # the record names the High Court's case too ("MCRC No. 30559/2022"), inside the impugned-order bracket: not its own
    assert order_key(record).case == ("slp", "11108", "2024")
    assert order_case_id(order_key(record)) == "SC-ORDER-2026-05-18-SLP-11108-2024"


def test_order_lines_leave_out_counsel_and_court_masters():
    record = [s for s in split_day("d.md", LOG).segments if s.kind == "record"][0]
    text = "\n".join(t for _, t in order_lines(record))
    assert "Advocate" not in text and "COURT MASTER" not in text and "KHULBEY" not in text
    assert "Signed order is placed" not in text
    assert "CORAM" in text and "The appeal is allowed in terms of the signed order." in text


def test_dedupe_keeps_one_order_per_case_and_date_the_signed_copy_first():
    segs = split_day("d.md", LOG).segments
    kept, copies = dedupe(segs)
    keys = [k for _, k in kept]
    assert len(kept) == 3  # Naveen Verma (three copies), the civil appeal, the Registrar's record
    naveen = next((s, k) for s, k in kept if k.case == ("slp", "11108", "2024"))
    assert naveen[0].kind == "signed" and copies[naveen[1]] == 2
    assert sum(copies.values()) == 2 and len(set(keys)) == 3


def test_a_signed_order_and_its_record_are_one_order_however_each_names_the_case():
    """The signed order names the criminal appeal, its record the SLP's Diary number: one listed matter, one date,
    one hearing's order."""
    signed = SIGNED.replace("CRIMINAL APPEAL NO.        OF 2026\n(Arising out of SLP(CRL.) NO.11108/2024)",
                            "CRIMINAL APPEAL NO.3003 OF 2026")
    record = RECORD.replace("Petition for Special Leave to Appeal (Crl.)No(s).  11108/2024",
                            "SPECIAL LEAVE PETITION (CRIMINAL) Diary No(s). 12289/2026")
    segs = segments("d", 1, [(1, ln) for ln in signed.splitlines()] + [(2, ln) for ln in record.splitlines()])
    assert order_key(segs[0]).case != order_key(segs[1]).case
    kept, copies = dedupe(segs)
    assert len(kept) == 1 and kept[0][0].kind == "signed" and sum(copies.values()) == 1


def test_orders_without_a_case_number_are_told_apart_by_their_listing():
    a = segments("d", 1, [(1, "ITEM NO.1"), (1, "Date : 25-05-2026"), (1, "List after two weeks.")], "A vs. B")
    b = segments("d", 2, [(2, "ITEM NO.2"), (2, "Date : 25-05-2026"), (2, "Dismissed.")], "C vs. D")
    again = segments("d", 3, [(3, "ITEM NO.3"), (3, "Date : 25-05-2026"), (3, "List after two weeks.")], "A vs. B")
    kept, copies = dedupe(a + b + again)
    assert len(kept) == 2 and sum(copies.values()) == 1
    assert order_case_id(kept[0][1]).startswith("SC-ORDER-2026-05-25-")


def test_before_registrar():
    segs = split_day("d.md", LOG).segments
    assert [before_registrar(s) for s in segs] == [False, False, False, False, True]


def test_short_case_numbers_and_the_order_citation():
    assert short_case_number("Petition(s) for Special Leave to Appeal (Crl.) No(s). 1592/2026") == "SLP (Crl.) No. 1592/2026"
    assert short_case_number("CRIMINAL APPEAL NO. 1534 OF 2024") == "Crl.A. No. 1534/2024"
    assert short_case_number("SPECIAL LEAVE PETITION (CRIMINAL) Diary No(s). 30349/2026") == "SLP (Crl.) Diary No. 30349/2026"
    assert short_case_number("Criminal Appeal Nos. 2814 - 2815 of 2024") == "Crl.A. No. 2814-2815/2024"
    assert short_case_number("Writ Petition(s)(Criminal) No(s).195/2026") == "W.P. (Crl.) No. 195/2026"
    assert short_case_number("TRANSFER PETITION(S)(CRIMINAL) NO(S). 943/2025") == "T.P. (Crl.) No. 943/2025"
    assert short_case_number("Civil Appeal No(s).7426/2026") == "C.A. No. 7426/2026"
    assert short_case_number("Contempt   Petition") == "Contempt Petition"
    assert (order_citation("Supreme Court of India", "2026-05-19",
                           "Petition(s) for Special Leave to Appeal (Crl.) No(s). 1592/2026")
            == "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026")
    assert order_citation("Supreme Court of India", "", "") == "Order of the Supreme Court"
    assert order_citation("High Court of Delhi", "2025-05-13", "BAIL APPLN. 482/2025") == \
        "Order of the High Court of Delhi dated 13.05.2025 in BAIL APPLN. 482/2025"


@pytest.mark.parametrize("numbers, head, text, rule", [
    (("Petition(s) for Special Leave to Appeal (Crl.) No(s). 1592/2026",), "", "", "criminal case type"),
    (("CRIMINAL MISC. BAIL APPLICATION No. - 39983 of 2023",), "", "", "criminal case type"),
    (("APPLICATION U/S 482 No. - 12174 of 2020",), "", "", "criminal case type"),
    ((), "IN THE SUPREME COURT OF INDIA\nCRIMINAL APPELLATE JURISDICTION", "", "criminal jurisdiction"),
    (("Civil Appeal No. 7/2026",), "", "the FIR under Section 420 IPC was quashed", "cites a criminal code"),
    (("Civil Appeal No. 7426/2026",), "CIVIL APPELLATE JURISDICTION", "a sale deed of the land", ""),
    (("Civil Appeal No. 7/2026",), "", "Section 138 of the Negotiable Instruments Act", ""),
])
def test_the_criminal_scope_rule(numbers, head, text, rule):
    assert criminal_rule(numbers, head, text) == rule


def test_the_reader_takes_each_criminal_order_once_and_counts_what_it_skips(tmp_path):
    path = tmp_path / "SC_orders_of_the_day_2026-06-02.md"
    path.write_text(LOG, encoding="utf-8")
    seen = Seen()
    got = read_sc_orders(path, path.name, {}, Settings(corpus_path=tmp_path), seen)
    assert got.read == 5 and len(got.judgments) == 1
    skipped = dict(got.skipped)
    assert skipped == {COPY_REASON: 2, CIVIL_REASON: 1, REGISTRAR: 1}
    j = got.judgments[0]
    assert (j.case_id, j.decision, j.court, j.date) == ("SC-ORDER-2026-05-18-SLP-11108-2024", "order",
                                                         "Supreme Court of India", "2026-05-18")
    assert j.title == "Naveen Verma v. State of Madhya Pradesh & Others"
    assert j.case_numbers[0] == "SLP(CRL.) NO.11108/2024" and j.within == "SC_orders_of_the_day_2026-06-02.md, item 1"
    assert j.bench == ("SANJAY KAROL", "PRASANNA B. VARALE")
    paras = [p for p in got.paragraphs if p.case == j.case_id]
    assert {p.source for p in paras} == {path.name} and paras[0].pages[0] == 3 and paras[-1].pages[1] == 4
    assert any(StatuteRef("BNS", "318", ("4",)) in p.cites for p in paras)
    # a second source holding the same order does not take it again
    again = read_sc_orders(path, "other.md", {}, Settings(corpus_path=tmp_path), seen)
    assert again.judgments == () and ("duplicate: an order already taken from another source of the manifest", 1) in again.skipped


def test_the_reader_takes_a_fixed_sample(tmp_path):
    path = tmp_path / "log.md"
    path.write_text(LOG.replace("Civil Appeal No(s).7426/2026", "Criminal Appeal No(s).7426/2026"), encoding="utf-8")
    got = read_sc_orders(path, path.name, {}, Settings(corpus_path=tmp_path, archive_limit=1), Seen())
    assert len(got.judgments) == 1 and dict(got.skipped)["beyond the sample (Settings.archive_limit)"] == 1
