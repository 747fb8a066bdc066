"""A head line's BPR&D table row is a link (issue 14): the chat message ends with the head's table rows as links to
``GET /table-row/{name}/{row}``, which shows that row of the official table as escaped text (404 for any other file
or a row the table does not have). Rows are read from the real tables through the concordance, not typed here."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.law import load_concordance
from legal_rag.types import HeadLine, StatuteRef
from legal_rag.ui.tablerow import head_rows, read_row, row_page, rows_markdown, table_file

IPC420 = StatuteRef("IPC", "420")


def _row_of(ref):
    return load_concordance().successors(ref).rows[0]


def test_head_rows_keep_table_rows_only_in_order_once():
    row = _row_of(IPC420).source_row
    head = (HeadLine(StatuteRef("BNS", "318", ("4",)), "x", sources=("First Schedule, BNSS, p. 183", row)),
            HeadLine(StatuteRef("BNS", "85"), "y", sources=(row, "BPRD_correspondence_BNS_to_IPC_clean.csv#149")))
    name, num = row.split("#")
    assert head_rows(head) == ((name, num), ("BPRD_correspondence_BNS_to_IPC_clean.csv", "149"))
    md = rows_markdown(head)
    assert md.startswith(f"Table rows: [BPR&amp;D table, row {num}](/table-row/{name}/{num}); ")
    assert rows_markdown(()) == ""


def test_row_page_shows_the_row_the_concordance_read_escaped():
    corpus = Settings().corpus_path
    t = _row_of(IPC420)
    name, num = t.source_row.split("#")
    header, rows = read_row(table_file(name, corpus), num)
    assert rows[0][0] == t.row and t.new_cell.replace(" ", "") in "".join(rows[0][1]).replace(" ", "")
    page = row_page(name, num, corpus)
    assert f"BPR&amp;D table, row {num}" in page and "<script" not in page
    bsa = _row_of(StatuteRef("IEA", "65B"))
    bname, bnum = bsa.source_row.split("#")[0], bsa.source_row.split("#")[1]
    assert "65B" in row_page(bname, bnum, corpus)


@pytest.mark.parametrize("name, row", [("../manifest.toml", "2"), ("BNS_2023_gazette_Act45.pdf", "1"),
                                       ("BPRD_correspondence_BNS_to_IPC_clean.csv", "999999"),
                                       ("BPRD_correspondence_BNS_to_IPC_clean.csv", "1; drop"),
                                       ("BPRD_correspondence_BNS_to_IPC_clean.csv", "1")])
def test_anything_else_is_refused(name, row):
    with pytest.raises(ValueError):
        row_page(name, row, Settings().corpus_path)


@pytest.mark.slow
def test_chat_message_links_the_head_row_and_the_route_serves_it(real_pipeline, tmp_path):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_app, create_server

    from tests.ui.ui_drive import run_ask

    name, num = _row_of(IPC420).source_row.split("#")
    demo = create_app(real_pipeline.settings.model_copy(update={"data_dir": tmp_path}), real_pipeline)
    v = run_ask(demo, "What is the BNS equivalent of IPC 420?")
    assert f"[BPR&amp;D table, row {num}](/table-row/{name}/{num})" in v.chat[-1]["content"]
    # the banner's flag names the same row as a link to the same route (issue 14: "the table row as a link")
    assert f'<a class="lr-row" href="/table-row/{name}/{num}"' in v.banner
    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as api:
        r = api.get(f"/table-row/{name}/{num}")
        assert r.status_code == 200 and f"BPR&amp;D table, row {num}" in r.text
        assert r.headers["x-content-type-options"] == "nosniff"
        assert api.get("/table-row/manifest.toml/2").status_code == 404
        assert api.get(f"/table-row/{name}/0").status_code == 404
