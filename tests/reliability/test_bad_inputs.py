"""Hostile and broken inputs through the real ingest and index (issue 8; field cases BL-04, BL-05, BL-06, BL-08,
BL-41): every bad file gets a named entry in the ingest report (file, and page where it applies), the rest of the
batch completes within a bounded time (enforced by timeouts, never by timing assertions), and what the index
served for a file that now fails is not lost."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from legal_rag.config import Settings
from legal_rag.injection import contains_instructions
from legal_rag.index import open_index
from legal_rag.index.check import check_index
from legal_rag.ingest import load_corpus
from legal_rag.pipeline import build

from .conftest import write_manifest
from .hostile import good_judgment, hostile_corpus, judgment_lines

#: the whole hostile batch must finish within this (a hang fails the test instead of blocking CI)
BATCH_TIMEOUT_S = 300
PDF_TIMEOUT_S = 30.0


def _bounded(fn, *args, timeout: float = BATCH_TIMEOUT_S, **kw):
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kw).result(timeout=timeout)


def _settings(root: Path, corpus: Path, manifest: Path, tiny_model: Path) -> Settings:
    return Settings(data_dir=root / "data", corpus_path=corpus, manifest_path=manifest, embed_model=str(tiny_model),
                    pdf_timeout_s=PDF_TIMEOUT_S)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, tiny_model):
    root = tmp_path_factory.mktemp("hostile")
    corpus = root / "corpus"
    bad = hostile_corpus(corpus, Settings().max_pages)
    manifest = write_manifest(root / "manifest.toml", corpus,
                              [dict(name=b.name.removesuffix(".pdf"), kind="judgment", path=b.name) for b in bad])
    settings = _settings(root, corpus, manifest, tiny_model)
    report, stats = _bounded(build, settings, progress=False)
    return bad, settings, report, stats


def test_every_bad_file_has_a_named_entry_and_the_batch_completes(hostile):
    bad, settings, report, _ = hostile
    by_file: dict[str, list] = {}
    for p in report.problems:
        by_file.setdefault(p.source, []).append(p)
    failed = {Path(f).name for f in report.failed}
    assert len(report.files) == len(bad)
    for b in bad:
        probs = by_file.get(b.name, [])
        if b.kinds:
            hits = [p for p in probs if p.kind in b.kinds]
            assert hits, f"{b.name} ({b.what}): expected one of {sorted(b.kinds)}, got {[str(p) for p in probs]}"
            if b.page is not None:
                assert any(p.page == b.page for p in hits), (b.name, [str(p) for p in hits])
            assert all(b.name in str(p) for p in hits)  # the message names the file
        else:
            assert not [p for p in probs if p.severity == "error"], (b.name, [str(p) for p in probs])
        if b.fails is not None:
            assert (b.name in failed) is b.fails, (b.name, b.what, [str(p) for p in probs])
    # the good files came through: good, both empty-password encrypted copies, NUL/PUA and the invisible-text one
    assert report.judgments >= 5 and report.paragraphs > 0


def test_password_errors_say_password_and_name_the_file(hostile):
    _, _, report, _ = hostile
    locked = [p for p in report.problems if p.kind == "encrypted"]
    assert {p.source for p in locked} == {"aes_locked.pdf", "rc4_locked.pdf"}
    assert all("password" in p.message for p in locked)


def test_index_holds_only_what_parsed_and_is_consistent(hostile, tiny_embedder):
    bad, settings, report, stats = hostile
    idx = open_index(settings, embedder=tiny_embedder)
    try:
        chunks = idx.store.all_chunks()
        sources = {c.source for c in chunks}
        failed = {Path(f).name for f in report.failed}
        assert sources == {b.name for b in bad} - failed
        assert {"good.pdf", "aes_empty.pdf", "rc4_empty.pdf", "nul_pua.pdf", "invisible.pdf"} <= sources
        # NUL and private-use code points never reach the index (BL-04); the ligature was folded to "fine"
        for c in chunks:
            assert not any(ch == "\x00" or "\ue000" <= ch <= "\uf8ff" for ch in c.text), c.id
        assert any("fine" in c.text.split() for c in chunks if c.source == "nul_pua.pdf")
        # the empty-password copies carry the good file's text
        good_text = " ".join(c.text for c in chunks if c.source == "good.pdf")
        assert " ".join(c.text for c in chunks if c.source == "aes_empty.pdf") == good_text
    finally:
        idx.close()
    rep = check_index(settings, embedder=tiny_embedder)
    assert rep.ok, str(rep)


def test_invisible_instructions_are_flagged_wherever_they_are_extracted(hostile, tiny_embedder):
    """BL-41: pypdf extracts white and render-mode-3 text; the page stage keeps it apart from the body by its
    drawing state (issue 16, kind 4), so no chunk carries it, and a chunk that still carried instructions would be
    marked as containing them (and so never quoted nor counted as support, see test_injection)."""
    _, settings, _, _ = hostile
    idx = open_index(settings, embedder=tiny_embedder)
    try:
        inv = [c for c in idx.store.all_chunks() if c.source == "invisible.pdf"]
    finally:
        idx.close()
    planted = [c for c in inv if "instructions" in c.text.lower() or "json" in c.text.lower()]
    assert inv and not planted
    assert not any(contains_instructions(c.text) for c in inv)


def test_decompression_bomb_stays_bounded_in_memory(tmp_path):
    """The 300 MB Flate bomb: pypdf's output limit stops it (LimitReachedError on page 1); the extractor child's
    peak RSS stays far below the bomb's inflated size. Measured in a fresh interpreter whose only child is the
    extractor, so RUSAGE_CHILDREN is that child's."""
    from .hostile import bomb_pdf

    pdf = bomb_pdf(tmp_path / "bomb.pdf", 300)
    code = ("import json, resource, sys\n"
            "from legal_rag.ingest.pdf import extract_pages\n"
            "r = extract_pages(sys.argv[1], timeout_s=60, cache_dir=None)\n"
            "print(json.dumps({'kinds': [p.kind for p in r.problems], 'pages': [p.page for p in r.problems],\n"
            "  'rss_kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))\n")
    env = {k: v for k, v in __import__("os").environ.items() if k != "LEGAL_RAG_PAGE_CACHE"}
    out = subprocess.run([sys.executable, "-c", code, str(pdf)], capture_output=True, text=True, timeout=180,
                         env=env, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert "page_error" in res["kinds"] and 1 in res["pages"]
    assert res["rss_kb"] < 1024 * 1024, f"extractor child peaked at {res['rss_kb'] // 1024} MiB"
    assert pdf.stat().st_size < 1024 * 1024  # the bomb really is small on disk


def test_a_file_that_now_fails_keeps_what_the_index_served(tmp_path, tiny_model, tiny_embedder):
    """A judgment indexed yesterday whose file is today truncated (or fails its sha256): the batch goes on and
    the served index keeps that judgment's chunks instead of silently dropping it."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    good_judgment(corpus / "a.pdf")
    good_judgment(corpus / "victim.pdf", "Sita Devi v. State of Bihar", "dowry death")
    entries = [dict(name="a", kind="judgment", path="a.pdf"), dict(name="victim", kind="judgment", path="victim.pdf")]
    manifest = write_manifest(tmp_path / "manifest.toml", corpus, entries)
    settings = _settings(tmp_path, corpus, manifest, tiny_model)
    _bounded(build, settings, progress=False)
    idx = open_index(settings, embedder=tiny_embedder)
    before = {c.id: c.text for c in idx.store.all_chunks()}
    idx.close()
    assert any(c.startswith("victim") for c in before)

    # the file is replaced by a truncated copy; the manifest is updated to its bytes (so only parsing fails)
    data = (corpus / "victim.pdf").read_bytes()
    (corpus / "victim.pdf").write_bytes(data[: int(len(data) * 0.6)])
    write_manifest(manifest, corpus, entries)
    report, _ = _bounded(build, settings, progress=False)
    assert "victim.pdf" in report.failed
    idx = open_index(settings, embedder=tiny_embedder)
    after = {c.id: c.text for c in idx.store.all_chunks()}
    idx.close()
    assert after == before
    # and a sha256 mismatch (the file changed behind the manifest's back) keeps it too
    (corpus / "victim.pdf").write_bytes(data + b"\n% tampered\n")
    report, _ = _bounded(build, settings, progress=False)
    assert any(p.kind == "sha256_mismatch" for p in report.problems)
    idx = open_index(settings, embedder=tiny_embedder)
    assert {c.id: c.text for c in idx.store.all_chunks()} == before
    idx.close()
    assert check_index(settings, embedder=tiny_embedder).ok


def test_a_batch_where_every_file_fails_reports_each_and_builds_a_consistent_empty_index(tmp_path, tiny_model):
    """Once a crash: bm25s cannot index zero documents. Now each file is named and the (empty) index checks out."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "empty.pdf").write_bytes(b"")
    (corpus / "html.pdf").write_text("<html><body>Not a PDF</body></html>")
    manifest = write_manifest(tmp_path / "manifest.toml", corpus,
                              [dict(name=n, kind="judgment", path=f"{n}.pdf") for n in ("empty", "html")])
    settings = _settings(tmp_path, corpus, manifest, tiny_model)
    report, stats = _bounded(build, settings, progress=False)
    assert {Path(f).name for f in report.failed} == {"empty.pdf", "html.pdf"}
    assert {(p.source, p.kind) for p in report.problems} >= {("empty.pdf", "empty_file"), ("html.pdf", "not_pdf")}
    assert stats["chunks"] == 0
    check = check_index(settings)
    assert check.ok, check.problems
    from legal_rag.retrieve.search import search

    index = open_index(settings)
    assert search("theft", index, settings) == ()
