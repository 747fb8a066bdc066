"""The sources of the default corpus that hold many decisions, read whole through their readers
(legal_rag.ingest.many, as the index build does): a High Court and a Supreme Court judgment of the Indian Kanoon
archive, an order of the day split out of its day's log with its case number, date and pages, an order printed
twice taken once, a civil order skipped with its reason, and the counts of each source."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from legal_rag.config import Settings
from legal_rag.ingest.chunk import judgment_meta
from legal_rag.ingest.corpus import _ingest_one, hint_rows, load_manifest
from legal_rag.ingest.many import COPY_REASON, DUPLICATE, NOT_A_COURT, SAME_JUDGMENT, Seen, read_indiankanoon, read_sc_orders
from legal_rag.ingest.sc_orders import dedupe, order_citation, order_key, read_logs, split_day
from legal_rag.ingest.scope import CIVIL_REASON
from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow

IK_TAR = "judgments/indiankanoon_criminal_jits/jits_indiankanoon_criminal_378.tar.gz"
ORDERS = "judgments/text/sc_daily_orders_caseciter/"
DAY_0602 = ORDERS + "SC_orders_of_the_day_2026-06-02.md"
DAY_0608 = ORDERS + "SC_orders_of_the_day_2026-06-08.md"
DAYS_21 = ORDERS + "SC_orders_of_the_day_21days_2026-05-25_to_2026-07-01.tar.gz"


def _settings() -> Settings:
    s = Settings()
    if not (s.corpus_path / IK_TAR).is_file():
        pytest.skip(f"real corpus not found at {s.corpus_path}")
    return s


def _source(path: str):
    return next(s for s in load_manifest(Settings().manifest_path) if s.path == path)


@pytest.fixture(scope="module")
def ik():
    """The archive read after the corpus's AILA text C545 (the judgment two of its members copy)."""
    settings = _settings()
    seen = Seen()
    c545 = _source("judgments/sc_ipc_selected/C545.txt")
    _, _, paras, _, _, _ = _ingest_one(c545, settings)
    seen.texts["C545"] = "\n".join(p.text for p in paras)
    src = _source(IK_TAR)
    hints, problems = hint_rows(src, settings)
    assert problems == [] and len(hints) == 378
    got = read_indiankanoon(settings.corpus_path / src.path, src.file_name, hints, settings, seen)
    return got, {j.case_id: j for j in got.judgments}


@pytest.fixture(scope="module")
def days21():
    settings = _settings()
    src = _source(DAYS_21)
    got = read_sc_orders(settings.corpus_path / src.path, src.file_name, {}, settings, Seen())
    return got, {j.case_id: j for j in got.judgments}


def _paras(got, case: str):
    return [p for p in got.paragraphs if p.case == case]


def test_the_archive_counts(ik):
    got, _ = ik
    assert got.read == 378 and len(got.judgments) == 333
    skipped = dict(got.skipped)
    assert sum(n for r, n in skipped.items() if r.startswith(DUPLICATE)) == 41  # byte-identical members
    assert sum(n for r, n in skipped.items() if r.startswith(NOT_A_COURT)) == 2  # Law Commission reports
    assert skipped[f"{SAME_JUDGMENT}: the same judgment as one read before (C545.txt)"] == 2
    assert 333 + 41 + 2 + 2 == 378
    assert all(j.kind == "judgment" and j.court and j.citations[-1].startswith("indiankanoon.org/doc/")
               for j in got.judgments)
    assert sum(bool(j.date) for j in got.judgments) >= 332 and sum(bool(j.title) for j in got.judgments) == 333


def test_an_indian_kanoon_high_court_order(ik):
    got, by_id = ik
    j = by_id["IK-101253596"]
    assert (j.title, j.court, j.date, j.decision, j.bench) == (
        "Danish And Another v. State Of U.P.", "High Court of Judicature at Allahabad", "2023-10-04", "order",
        ("Rajeev Misra",))
    assert j.citations == ("2023:AHC:190732", "indiankanoon.org/doc/101253596")
    assert j.case_numbers == ("CRIMINAL MISC. BAIL APPLICATION No. - 39983 of 2023",)
    assert j.within.endswith("CRIMINAL_101253596.txt") and j.source == Path(IK_TAR).name
    cited = {r for p in _paras(got, j.case_id) for r in p.cites}
    assert {StatuteRef("IPC", "498A"), StatuteRef("IPC", "304B"), StatuteRef("IPC", "302")} <= cited
    meta = judgment_meta(j)
    assert (meta["court"], meta["year"], meta["decision"]) == ("High Court of Judicature at Allahabad", "2023", "order")


def test_an_indian_kanoon_supreme_court_judgment(ik):
    got, by_id = ik
    j = by_id["IK-108319924"]
    assert (j.court, j.date, j.decision) == ("Supreme Court of India", "2023-10-10", "judgment")
    assert j.title.startswith("Kamal Prasad v. State Of M.P.")
    assert "2023 INSC 895" in j.citations and j.bench == ("Hrishikesh Roy", "Sanjay Karol")
    assert j.case_numbers[0] == "CRIMINAL APPEAL No.1578 OF 2012"
    numbered = [p for p in _paras(got, j.case_id) if p.number]
    assert len(numbered) >= 15


def test_an_order_of_the_day_split_out_of_its_log(days21):
    got, by_id = days21
    j = by_id["SC-ORDER-2026-05-19-SLP-1592-2026"]
    assert (j.court, j.date, j.decision, j.kind) == ("Supreme Court of India", "2026-05-19", "order", "judgment")
    assert j.title == "Rajesh @ Rajesh Malik v. The State of Haryana & Anr."
    assert j.case_numbers[0] == "Petition(s) for Special Leave to Appeal (Crl.) No(s). 1592/2026"
    assert j.within == "archive/2026-05-25.md, item 66" and j.bench == ("PRASHANT KUMAR MISHRA", "N.V. ANJARIA")
    paras = _paras(got, j.case_id)
    assert (paras[0].pages[0], paras[-1].pages[1]) == (557, 560)  # its pages in the day's log
    assert any(StatuteRef("BNS", "318", ("4",)) in p.cites for p in paras)
    assert any("quash the FIR No. 816" in p.text for p in paras) and not any("AOR" in p.text for p in paras)
    assert order_citation(j.court, j.date, j.case_numbers[0]) == \
        "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026"
    # the source's derived index (a witness, not gold) lists the same order on the same page of that day
    with open(_settings().corpus_path / ORDERS / "new_code_orders_index_DERIVED.csv", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if "1592/2026" in r["case"] and r["archive_file"] == "2026-05-25.md"]
    assert [(r["start_page"], r["date"]) for r in rows] == [("557", "19-05-2026")]


def test_the_orders_of_the_21_days(days21):
    got, _ = days21
    skipped = dict(got.skipped)
    assert got.read == 8635  # copies of orders in the 21 logs (signed orders and records)
    assert 2500 <= len(got.judgments) <= 3500 and skipped[CIVIL_REASON] >= 4000 and skipped[COPY_REASON] >= 500
    assert len(got.judgments) + sum(skipped.values()) == got.read
    assert all(j.decision == "order" and j.court == "Supreme Court of India" for j in got.judgments)
    assert sum(bool(j.date) for j in got.judgments) >= 0.99 * len(got.judgments)
    assert sum(bool(j.case_numbers) for j in got.judgments) >= 0.97 * len(got.judgments)


def test_an_order_printed_twice_is_taken_once():
    """2 June 2026 lists Criminal Appeal No. 3003 of 2026 twice (rows 4 and 5), each with its signed order and its
    record: four copies, one order."""
    settings = _settings()
    ((day, text),) = read_logs(settings.corpus_path / DAY_0602)
    segs = [s for s in split_day(day, text).segments if s.item in (4, 5)]
    assert [s.kind for s in segs] == ["signed", "record", "signed", "record"]
    kept, copies = dedupe(segs)
    assert len(kept) == 1 and sum(copies.values()) == 3 and kept[0][0].item == 4
    src = _source(DAY_0602)
    got = read_sc_orders(settings.corpus_path / src.path, src.file_name, {}, settings, Seen())
    assert [j.case_id for j in got.judgments].count("SC-ORDER-2026-05-27-CRIMINAL-APPEAL-3003-2026") == 1
    assert got.read == 1086 and dict(got.skipped)[COPY_REASON] >= 600


def test_a_civil_order_is_skipped_and_counted():
    """8 June 2026, row 18: M/s Ramshil Constructions v. the Trust Association, Civil Appeal No. 7426 of 2026 (a sale
    deed): no criminal case type or jurisdiction, no section of a criminal code."""
    settings = _settings()
    src = _source(DAY_0608)
    ((day, text),) = read_logs(settings.corpus_path / src.path)
    civil = [s for s in split_day(day, text).segments if s.item == 18]
    assert order_key(civil[0]).case == ("civil appeal", "7426", "2026")
    got = read_sc_orders(settings.corpus_path / src.path, src.file_name, {}, settings, Seen())
    assert not any("7426" in "".join(j.case_numbers) for j in got.judgments)
    assert got.read == 154 and len(got.judgments) == 66
    assert dict(got.skipped) == {CIVIL_REASON: 61, COPY_REASON: 27}
