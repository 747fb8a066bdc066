"""The tuning split for product rules (bench/leadtune.jsonl, bench/build_factset.py --leadtune): nothing in it is a
dev or test question or comes from a source line the dev sets use, no AILA test query text, gold only from the
official BPR&D tables."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from legal_rag.config import Settings
from legal_rag.eval.aila import TEST_QUERIES, load_queries
from legal_rag.law import load_concordance
from legal_rag.law.refs import parse_ref

ROOT = Path(__file__).resolve().parents[2]
LEADTUNE = ROOT / "bench" / "leadtune.jsonl"
CHARGE = "benchmarks/charge_identification"


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _shingles(text: str, k: int = 8) -> set[str]:
    w = _norm(text).split()
    return {" ".join(w[i:i + k]) for i in range(len(w) - k + 1)}


def _fact_key(source: str) -> tuple[str, str] | None:
    """``(file, factid)`` of a charge-identification source, else None."""
    m = re.search(r"charge_identification/(\S+)#line \d+ factid (\S+)", source)
    return (m.group(1), m.group(2)) if m else None


@pytest.fixture(scope="module")
def tune():
    return _load(LEADTUNE)


@pytest.fixture(scope="module")
def dev():
    return _load(ROOT / "bench" / "devset.jsonl")


@pytest.fixture(scope="module")
def fact():
    return _load(ROOT / "bench" / "factset.jsonl")


@pytest.fixture(scope="module")
def conc():
    return load_concordance(Settings().corpus_path)


@pytest.fixture(scope="module")
def builder():
    spec = importlib.util.spec_from_file_location("build_factset", ROOT / "bench" / "build_factset.py")
    b = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(b)
    return b


def test_size_kinds_and_shape(tune):
    assert len(tune) >= 40
    assert len({d["id"] for d in tune}) == len(tune) and all(d["id"].startswith("T-") for d in tune)
    words = [len(d["question"].split()) for d in tune]
    # short lay wording, statute-title questions and long statements, all present
    assert sum(w < 15 for w in words) >= 10 and sum(15 <= w <= 40 for w in words) >= 10
    assert sum(w > 40 for w in words) >= 10
    assert {d["origin"] for d in tune} == {"charge_identification", "bns_illustration", "bprd_title"}
    for d in tune:
        assert set(d) >= {"id", "question", "gold", "gold_new", "gold_old", "length", "offence_date", "source"}
        assert d["gold"] == d["gold_new"] + d["gold_old"] and d["gold_new"] and d["gold_old"], d["id"]
        if d["length"] == "short":
            assert len(d["question"].split()) <= 40, d["id"]


def test_no_question_shared_with_the_dev_sets_or_the_tests(tune, dev, fact):
    held = [d["question"] for d in dev + fact]
    held_norm = {_norm(q) for q in held}
    held_grams = [_shingles(q) for q in held if len(_norm(q).split()) >= 8]
    for d in tune:
        q = _norm(d["question"])
        assert q not in held_norm, d["id"]
        assert not any(q in h or h in q for h in held_norm if min(len(q), len(h)) > 40), d["id"]
        g = _shingles(d["question"])
        for h in held_grams:
            assert len(g & h) <= 0.05 * max(1, len(g)), d["id"]
    # no test file quotes a tuning question (the statute-title ones are a few words: only longer ones checked)
    tests = "\n".join(_norm(p.read_text(encoding="utf-8")) for p in (ROOT / "tests").rglob("*.py")
                      if p.name != Path(__file__).name)
    for d in tune:
        q = _norm(d["question"])
        if len(q.split()) >= 8:
            assert q not in tests, d["id"]


def test_no_source_line_shared_with_the_dev_sets(tune, dev, fact, builder):
    fact_lines = {_fact_key(d["source"]) for d in fact} - {None}
    fact_ills = {re.sub(r"#record \d+ ", "#", d["source"]) for d in fact if d.get("origin") == "bns_illustration"}
    dev_rows = {d["source_row"] for d in dev if d.get("source_row")}
    assert fact_lines and fact_ills and dev_rows
    seen = set()
    for d in tune:
        key = _fact_key(d["source"])
        if d["origin"] == "charge_identification":
            assert key is not None and key[0] == "Train-Sent.jsonl", d["id"]  # training facts only
            assert key not in fact_lines and key not in seen, d["id"]
            assert key[1] not in builder.CASEBASE_COPIES, d["id"]  # its own judgment is not in the case base
            seen.add(key)
        elif d["origin"] == "bns_illustration":
            assert re.sub(r"#record \d+ ", "#", d["source"]) not in fact_ills, d["id"]
            assert d["source"] not in seen, d["id"]
            seen.add(d["source"])
        else:
            assert d["source"].startswith("mappings/BPRD_correspondence_BNS_to_IPC_clean.csv#"), d["id"]
            assert d["source"] not in dev_rows and d["source"] not in seen, d["id"]
            seen.add(d["source"])


def test_no_aila_test_query_text(tune):
    root = Settings().corpus_path
    queries = load_queries(root)
    test = {q: _shingles(queries[q]) for q in TEST_QUERIES}
    facts = {}
    for name in ("Test-Doc.jsonl", "Train-Sent.jsonl"):
        for line in (root / CHARGE / name).read_text(encoding="utf-8").splitlines():
            f = json.loads(line)
            facts[f["factid"]] = " ".join(f["text"])
    for d in tune:
        assert "AILA" not in d["source"], d["id"]
        texts = [d["question"]]
        key = _fact_key(d["source"])
        if key:
            texts.append(facts[key[1]])
        for t in texts:
            s = _shingles(t)
            for q, qs in test.items():
                assert len(s & qs) <= 0.05 * max(1, len(s)), (d["id"], q)


def test_gold_comes_from_the_table(tune, conc):
    import csv

    for d in tune:
        succ = set()
        for o in d["gold_old"]:
            found = parse_ref(o, sections=conc.sections)
            assert found.status == "ok" and found.ref.act == "IPC", (d["id"], o)
            c = conc.successors(found.ref)
            assert c.status == "mapped", (d["id"], o, c.status)
            succ |= {str(t) for t in c.targets}
        assert set(d["gold_new"]) == succ, (d["id"], sorted(succ ^ set(d["gold_new"])))
        for g in d["gold"]:
            ref = parse_ref(g, sections=conc.sections).ref
            assert conc.sections.exists(ref.act, ref.section), (d["id"], g)
    # a statute-title question is the row's subject verbatim, its gold the row's own pair
    path = Settings().corpus_path / "mappings" / "BPRD_correspondence_BNS_to_IPC_clean.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        rows = {n: r for n, r in enumerate(csv.DictReader(fh), 2)}
    titles = [d for d in tune if d["origin"] == "bprd_title"]
    assert len(titles) >= 10
    for d in titles:
        r = rows[int(d["source"].split("#")[1])]
        assert d["question"] == r["subject"].strip().rstrip(".")
        assert d["gold_old"] == [str(parse_ref("IPC " + r["ipc_section"].strip(), sections=conc.sections).ref)]
        bns = str(parse_ref("BNS " + r["bns_section"].replace(" ", ""), sections=conc.sections).ref)
        assert any(g == bns or g.startswith(bns + "(") or bns.startswith(g + "(") for g in d["gold_new"]), d["id"]


def test_builder_refuses_fact_set_lines_and_case_base_copies(builder):
    assert not ({(n, f) for n, f, _ in builder.TUNE_SHORT} | set(builder.TUNE_LONG)) & (
        {(n, f) for n, f, _ in builder.SHORT} | set(builder.LONG))
    assert not {f for _, f, _ in builder.TUNE_SHORT} & builder.CASEBASE_COPIES
    assert not {f for _, f in builder.TUNE_LONG} & builder.CASEBASE_COPIES

    class CB:  # a stand-in for legal_rag.index.casebase.CaseBase
        cases = ("C1", "C2")

        def paragraphs(self, case):
            class P:
                text = ("the accused snatched the gold chain from her neck and ran away into the crowd near the bus "
                        "stand" if case == "C2" else "an unrelated paragraph about land revenue")
            return [P()]

    facts = {"f1": "The accused snatched the gold chain from her neck and ran away into the crowd near the bus stand.",
             "f2": "A wholly different story about a forged will and a sale deed of the family land."}
    assert builder.casebase_copies(CB(), facts) == {"f1": (1.0, "C2")}
