"""The Supreme Court's judgment index (legal_rag.ingest.sc_metadata): an inline table, and the real archive read in
place."""

import pytest

from legal_rag.config import Settings
from legal_rag.ingest.sc_metadata import ScMetadata, archive_path, load_sc_metadata, parse_table

TABLE = """# Supreme Court Judgments - PDF Repository

|   Serial Number | Diary Number   | Case Number   | Petitioner / Respondent   | Petitioner/Respondent Advocate | Bench | Judgment By | Judgment |
|----------------:|:---------------|:--------------|:--------------------------|:-----|:-----|:-----|:-----|
|               1 | 270/2012       | C.A. No.-002525-002525 - 2018 | CHAIRMAN, C.P.T. VS M/S AREBEE STAR | V. K. MONGA | HON'BLE MR. JUSTICE R F NARIMAN | X | [05-08-2020(English) ,05-08-2020(Hindi) 2020 INSC 476(English) ,2020 INSC 476(Hindi)](https://api.sci.gov.in/a.pdf) |
|               2 | 11/1949        | - 0           | PROVINCE OF BOMBAY VS KUSALDAS S. ADVANI | __ | | | [15-09-1950(English)](https://api.sci.gov.in/jonew/judis/1242.pdf) |
"""


def test_parse_table_reads_parties_date_and_neutral_citation():
    rows = list(parse_table(TABLE))
    assert len(rows) == 2
    assert rows[0].title == "CHAIRMAN, C.P.T. VS M/S AREBEE STAR" and rows[0].date == "2020-08-05"
    assert rows[0].citations == ("2020 INSC 476",) and rows[0].diary == "270/2012"
    assert rows[1].citations == () and rows[1].date == "1950-09-15"
    meta = ScMetadata([r for r in rows if r.citations], total=2)
    assert meta.by_citation("2020  INSC 476".replace("  ", " ")) == rows[0]
    assert meta.by_citation("2020 INSC 477") is None
    assert not meta.covers("2020 INSC 477")  # one citation of 2020 is no coverage of that year
    assert not meta.covers("(2019) 5 SCC 9999")
    assert meta.by_title("Chairman, C.P.T. v. M/s Arebee Star") == (rows[0],)
    assert meta.by_title("Arebee Star v. Province of Bombay") == ()


def test_real_archive_in_place_and_cached(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    if archive_path(settings) is None:
        pytest.skip("no Supreme Court judgment index in the corpus")
    meta = load_sc_metadata(settings)
    assert meta.total > 20_000 and len(meta) > 9_000  # 20,595 judgments, about 10,000 neutral citations
    row = meta.by_citation("2024 INSC 363")
    assert row is not None and "SHARIF" in row.title and row.date == "2024-05-01"
    assert meta.covers("2024 INSC 9999") and meta.by_citation("2024 INSC 9999") is None
    assert not meta.covers("[2020] 7 S.C.R. 150")
    assert list((tmp_path / "data" / "sc_metadata").glob("*.json.gz"))  # the parsed form, not the archive
    again = load_sc_metadata(settings)
    assert again.total == meta.total and again.by_citation("2024 INSC 363") == row
