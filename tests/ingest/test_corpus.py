"""Manifest reading, sha256 checks and the batch behaviour of load_corpus (small files copied to tmp_path)."""

from __future__ import annotations

import hashlib
import shutil
import tomllib
from pathlib import Path

import pytest

from legal_rag.config import Settings, load_settings
from legal_rag.errors import CorpusError
from legal_rag.ingest import load_corpus, load_manifest
from legal_rag.ingest.corpus import dense, report_dict, select

SMALL = ("judgments/sc_ipc_selected/C233.txt", "judgments/sc_ipc_selected/C82.txt")
PROJECT_MANIFEST = Path(__file__).resolve().parents[2] / "corpora" / "manifest.toml"


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def tiny_corpus(tmp_path: Path) -> Path:
    """Copy two small judgment texts into tmp_path/corpus and write a manifest for them."""
    src_root = Settings().corpus_path
    if not all((src_root / s).is_file() for s in SMALL):
        pytest.skip("shared corpus not available")
    root = tmp_path / "corpus"
    entries = []
    for rel in SMALL:
        dst = root / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src_root / rel, dst)
        entries.append(f'[[source]]\nname = "{Path(rel).stem}"\nkind = "judgment"\nformat = "text"\n'
                       f'path = "{rel}"\nsha256 = "{_sha(dst)}"\n')
    (tmp_path / "manifest.toml").write_text("version = 1\n\n" + "\n".join(entries))
    return root


def test_sha_mismatch_is_refused_and_the_batch_goes_on(tmp_path):
    root = tiny_corpus(tmp_path)
    victim = root / SMALL[0]
    expected = _sha(victim)
    data = bytearray(victim.read_bytes())
    data[100] ^= 0x01  # alter one byte
    victim.write_bytes(bytes(data))
    s = load_settings(corpus_path=root, manifest_path=tmp_path / "manifest.toml")
    corpus = load_corpus(s, progress=False)
    rep = corpus.report
    bad = [p for p in rep.problems if p.kind == "sha256_mismatch"]
    assert len(bad) == 1 and bad[0].source == SMALL[0] and bad[0].severity == "error"
    assert f"expected {expected}, got {_sha(victim)}" == bad[0].message
    assert rep.failed == (SMALL[0],)
    assert [j.source for j in corpus.judgments] == ["C82.txt"]  # the other file was still ingested
    assert corpus.paragraphs and all(p.source == "C82.txt" for p in corpus.paragraphs)


def test_missing_file_is_reported(tmp_path):
    root = tiny_corpus(tmp_path)
    (root / SMALL[1]).unlink()
    rep = load_corpus(load_settings(corpus_path=root, manifest_path=tmp_path / "manifest.toml"), progress=False).report
    assert [(p.source, p.kind) for p in rep.problems if p.severity == "error"] == [(SMALL[1], "missing")]
    assert rep.judgments == 1 and report_dict(rep)["failed"] == [SMALL[1]]


def test_a_corpus_folder_that_does_not_exist_is_refused_by_name(tmp_path):
    """Every file "missing" means the corpus is elsewhere: one clear error naming the folder and the setting, not 79
    missing files and exit 0 (new-user trial: a clone with no ../shared beside it)."""
    tiny_corpus(tmp_path)
    s = load_settings(corpus_path=tmp_path / "nowhere", manifest_path=tmp_path / "manifest.toml")
    with pytest.raises(CorpusError, match=r"nowhere not found: set LEGAL_RAG_CORPUS_PATH"):
        load_corpus(s, progress=False)


def test_only_selects_and_unknown_name_raises(tmp_path):
    root = tiny_corpus(tmp_path)
    s = load_settings(corpus_path=root, manifest_path=tmp_path / "manifest.toml")
    assert load_corpus(s, only="C82", progress=False).report.files == (SMALL[1],)
    with pytest.raises(CorpusError, match="no such source"):
        load_corpus(s, only="BNS", progress=False)


@pytest.mark.parametrize("text, msg", [
    ("[[source]]\nname = 'a'\nkind = 'judgment'\npath = 'x.txt'\n", "lacks sha256"),
    ("[[source]]\nname = 'a'\nkind = 'poem'\npath = 'x'\nsha256 = '00'\n", "kind 'poem'"),
    ("version = [", "not valid TOML"),
    ("version = 1\n", "no \\[\\[source\\]\\] entries"),
])
def test_bad_manifest_names_the_file(tmp_path, text, msg):
    m = tmp_path / "m.toml"
    m.write_text(text)
    with pytest.raises(CorpusError, match=msg) as exc:
        load_manifest(m)
    assert str(m) in str(exc.value)


def test_project_manifest_lists_the_default_corpus():
    sources = load_manifest(PROJECT_MANIFEST)
    acts = {s.act for s in sources if s.kind == "statute"}
    assert acts == {"BNS", "BNSS", "BSA", "IPC", "CrPC", "IEA"}
    assert sum(s.kind == "judgment" and s.format == "pdf" for s in sources) == 36
    assert sum(s.kind == "judgment" and s.format == "text" for s in sources) == 43
    # the sources holding many decisions: the Indian Kanoon archive and three orders-of-the-day sources, all read
    # by BM25 and the case base only (dense = false)
    many = [s for s in sources if s.kind == "judgment" and s.format in ("indiankanoon", "sc_orders")]
    assert [s.format for s in many] == ["indiankanoon", "sc_orders", "sc_orders", "sc_orders"]
    assert not any(dense(s) for s in many) and all(dense(s) for s in sources if s not in many)
    assert any(s.kind == "mapping" for s in sources)
    bsa = next(s for s in sources if s.act == "BSA")
    # the enacted text, not the Bill (issue 16, kind 7)
    assert bsa.name == "BSA" and bsa.path == "statutes/pdf/BSA_2023_gazette_Act47.pdf"
    assert "Act 47 of 2023" in dict(bsa.meta)["edition"] and "Bill" not in dict(bsa.meta)["edition"]
    assert not any("bill" in s.path.lower() for s in sources if s.kind == "statute")
    for s in sources:
        assert len(s.sha256) == 64 and dict(s.meta).get("licence"), s.name
    assert len(select(sources, "judgment")) == 83


@pytest.mark.slow
def test_project_manifest_hashes_match_the_shared_corpus():
    root = Settings().corpus_path
    if not root.is_dir():
        pytest.skip("shared corpus not available")
    raw = tomllib.loads(PROJECT_MANIFEST.read_text())
    wrong = [e["path"] for e in raw["source"] if _sha(root / e["path"]) != e["sha256"]]
    wrong += [e["hints"] for e in raw["source"] if e.get("hints") and _sha(root / e["hints"]) != e["hints_sha256"]]
    assert wrong == []


def test_a_source_holding_many_decisions_is_counted_by_source_court_year_and_form(tmp_path):
    """The ingest report of a corpus with one judgment text and one orders-of-the-day log (the small log of
    test_sc_orders): decisions read, taken and skipped with the reason, by source, court, year and form; a derived
    index named beside a source but not there is a warning, and the source is read without it."""
    from legal_rag.cli.common import decision_lines
    from tests.ingest.test_sc_orders import LOG

    root = tiny_corpus(tmp_path)
    log = root / "judgments" / "orders" / "SC_orders_of_the_day_2026-06-02.md"
    log.parent.mkdir(parents=True)
    log.write_text(LOG, encoding="utf-8")
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(manifest.read_text() + (
        f'\n[[source]]\nname = "orders"\nkind = "judgment"\nformat = "sc_orders"\ndense = false\n'
        f'path = "judgments/orders/{log.name}"\nsha256 = "{_sha(log)}"\n'
        f'hints = "judgments/orders/index.csv"\nhints_sha256 = "{"0" * 64}"\n'))
    sources = load_manifest(manifest)
    assert [dense(s) for s in sources] == [True, True, False]
    rep = load_corpus(load_settings(corpus_path=root, manifest_path=manifest), progress=False).report
    assert rep.judgments == 3 and not rep.failed
    counts = {(f, v): n for f, v, n in rep.counts}
    assert counts[("read", log.name)] == 5 and counts[("source", log.name)] == 1
    assert counts[("court", "Supreme Court of India")] == 3 and counts[("decision", "order")] == 1
    assert counts[("year", "2026")] == 1
    assert {(s, r, n) for s, r, n in rep.skipped} == {
        (log.name, "duplicate: a copy of an order kept once (its record beside the signed order, the matter listed "
         "twice, the order printed again in a later day's log)", 2),
        (log.name, "civil matter: no criminal case type, no criminal jurisdiction, cites none of the six criminal "
         "codes", 1),
        (log.name, "a Registrar's record of proceedings (listing and service of a matter), no order of a bench", 1)}
    hint = [p for p in rep.problems if p.source == "judgments/orders/index.csv"]
    assert [(p.kind, p.severity) for p in hint] == [("missing", "warning")]
    data = report_dict(rep)
    assert data["decisions"]["source"][log.name] == 1 and len(data["skipped"]) == 3
    lines = decision_lines(rep)
    assert lines[0] == f"decisions {log.name}: read 5, taken 1" and lines[1].startswith("  skipped ")
    assert "decisions by form: judgment 2, order 1" in lines
