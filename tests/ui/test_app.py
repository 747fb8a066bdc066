"""The UI's presentation helpers and its server (no browser): escaping, banners, look-up rendering, the source
route's refusal of every path outside the corpus, the login guard and the upload limit."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root shim app.py

from legal_rag.ui import html as fmt  # noqa: E402
from legal_rag.config import load_settings  # noqa: E402
from legal_rag.law import flag_superseded, load_concordance, lookup  # noqa: E402
from legal_rag.types import Answer, StatuteRef, SupersessionFlag  # noqa: E402


@pytest.fixture(scope="module")
def conc():
    return load_concordance()


def test_banner_groups_places_and_escapes(conc):
    flags = flag_superseded([StatuteRef("IPC", "420")], "query", concordance=conc) + flag_superseded(
        [StatuteRef("IPC", "420")], "passage:IPC-420-0-x", concordance=conc)
    evil = SupersessionFlag(StatuteRef("IPC", "1"), (), "answer", "", "<script>alert(1)</script>", "", kind="invalid")
    html = fmt.supersession_banner(flags + (evil,), ["<b>bare 302</b>"], names={"IPC-420-0-x": "IPC s. 420 (Cheating)"})
    assert html.count('data-kind="superseded"') == 1
    assert "Found in the question; the passage IPC s. 420 (Cheating)." in html and "IPC-420-0-x" not in html
    assert "BPR&amp;D table, row 453" in html and ".csv" not in html and "IPC 420 → BNS 318(4)" in html
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>bare" not in html
    assert "Invalid: IPC 1" in html
    assert fmt.supersession_banner((), ()) == ""


def test_ambiguous_and_invalid_numbers_are_shown_as_such(conc):
    from legal_rag.law import find_refs

    html = fmt.supersession_banner(flag_superseded(find_refs("punishment under Section 302? and 420 BNS"), "query",
                                                   concordance=conc))
    assert "Ambiguous: " in html and "names no Act" in html
    assert "Invalid: BNS 420" in html


def test_lookup_html(conc):
    ok = fmt.lookup_html(lookup("IPC 420", conc))
    assert "IPC 420 → BNS 318(4)" in ok and "#453" in ok and ok.count('class="lr-section"') == 2
    assert "Text not in the index" in ok  # no sections given: said so, nothing invented
    assert 'class="lr-lookup lr-ambiguous"' in fmt.lookup_html(lookup("302", conc))
    assert "358" in fmt.lookup_html(lookup("BNS 420", conc))


def test_inputs():
    assert fmt.parse_offence_date(" 2024-06-20 ") == dt.date(2024, 6, 20) and fmt.parse_offence_date("") is None
    with pytest.raises(ValueError, match="20/06/2024"):
        fmt.parse_offence_date("20/06/2024")
    with pytest.raises(ValueError) as err:  # a pasted paragraph in the date field is not echoed back whole
        fmt.parse_offence_date("x" * 5000)
    assert len(str(err.value)) < 150 and "5,000 characters" in str(err.value)
    assert fmt.source_url("a b/../c.pdf", 3) == "/source/a%20b%2F..%2Fc.pdf#page=3"


def test_empty_answer_panel():
    assert "No citations" in fmt.citations_panel(Answer("q", "The sources do not answer the question."))
    assert fmt.source_choices(None) == [] and "pick a cited source" in fmt.source_view_html(None, None)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from fastapi.testclient import TestClient

    import app
    from tests.ui.ui_fake import FakePipeline

    s = load_settings(data_dir=tmp_path_factory.mktemp("app"), upload_max_mb=1)
    with TestClient(app.create_server(s, FakePipeline(s))) as c:
        yield c


EVIL = ["/source/..%2F..%2Fetc%2Fpasswd", "/source/%2Fetc%2Fpasswd", "/source/%252e%252e%252fetc%252fpasswd",
        "/source/pyproject.toml", "/source/BNS_2023_gazette_Act45.pdf%00", "/source/..%5C..%5Cetc%5Cpasswd",
        "/source/%2Fwork%2Fshared%2Fcorpora%2Fstatutes%2Fpdf%2FBNS_2023_gazette_Act45.pdf",
        "/gradio_api/file=/etc/passwd", "/gradio_api/file=pyproject.toml", "/gradio_api/file=..%2F..%2Fetc%2Fpasswd"]


def test_source_route_serves_corpus_files_only(client):
    r = client.get("/source/BNS_2023_gazette_Act45.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf" and r.content[:5] == b"%PDF-"
    assert r.headers["x-content-type-options"] == "nosniff"
    for path in EVIL:
        r = client.get(path)
        assert r.status_code in (403, 404), (path, r.status_code)
        assert b"root:" not in r.content and not r.content.startswith(b"%PDF"), path


def test_upload_limit_is_enforced_by_the_server(client):
    big = b"%PDF-1.4\n" + b"0" * (1024 * 1024 + 10)
    r = client.post("/gradio_api/upload", files={"files": ("big.pdf", big, "application/pdf")})
    assert r.status_code == 413


def test_login_guards_sources(tmp_path):
    from fastapi.testclient import TestClient

    import app
    from tests.ui.ui_fake import FakePipeline

    s = load_settings(data_dir=tmp_path, auth_user="advocate", auth_password="s3cret-pass")
    with TestClient(app.create_server(s, FakePipeline(s))) as c:
        assert c.get("/source/BNS_2023_gazette_Act45.pdf").status_code == 401
        assert c.post("/login", data={"username": "advocate", "password": "wrong"}).status_code in (400, 401)
        assert c.post("/login", data={"username": "advocate", "password": "s3cret-pass"}).status_code == 200
        assert c.get("/source/BNS_2023_gazette_Act45.pdf").status_code == 200


def test_half_configured_login_is_refused(tmp_path):
    import app
    from legal_rag.errors import LegalRagError
    from tests.ui.ui_fake import FakePipeline

    s = load_settings(data_dir=tmp_path, auth_user="advocate")
    with pytest.raises(LegalRagError, match="auth_password"):
        app.create_server(s, FakePipeline(s))
