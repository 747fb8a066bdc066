"""The fact-pattern dev set (bench/factset.jsonl): gold only from the official BPR&D tables, sections that exist,
no AILA test query; and the scoring of legal_rag.eval.factset on hand-made runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from legal_rag.config import Settings
from legal_rag.eval.aila import TEST_QUERIES, load_queries
from legal_rag.eval.factset import era, relevant, run_factset, section_of
from legal_rag.law import load_concordance
from legal_rag.law.refs import parse_ref

ROOT = Path(__file__).resolve().parents[2]
FACTSET = ROOT / "bench" / "factset.jsonl"
#: the last section of each new code as enacted (BNS 358, BNSS 531, BSA 170: the Acts' own final sections)
LAST = {"BNS": 358, "BNSS": 531, "BSA": 170}


@pytest.fixture(scope="module")
def items():
    return [json.loads(line) for line in FACTSET.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def conc():
    return load_concordance(Settings().corpus_path)


def _shingles(text: str, k: int = 8) -> set[str]:
    w = re.findall(r"[a-z0-9]+", text.lower())
    return {" ".join(w[i:i + k]) for i in range(len(w) - k + 1)}


def test_size_shape_and_lengths(items):
    assert len(items) >= 60
    assert len({d["id"] for d in items}) == len(items)
    assert {d["length"] for d in items} == {"short", "long"}
    for d in items:
        assert set(d) >= {"id", "question", "gold", "gold_new", "gold_old", "length", "offence_date", "source", "note"}
        assert d["gold"] == d["gold_new"] + d["gold_old"] and d["gold_old"] and d["gold_new"], d["id"]
        era(d["offence_date"])  # a date is ISO or null
        if d["length"] == "short":
            assert len(d["question"].split()) <= 40, d["id"]
    origins = {d.get("origin") for d in items}
    assert origins >= {"charge_identification", "aila2019_train", "bns_illustration", "field_case"}


def test_every_gold_section_exists_in_its_act(items, conc):
    for d in items:
        for g in d["gold"]:
            found = parse_ref(g, sections=conc.sections)
            assert found.status == "ok" and str(found.ref) == g, (d["id"], g, found.status)
            ref = found.ref
            assert conc.sections.exists(ref.act, ref.section), (d["id"], g)
            if ref.act in LAST:
                assert 1 <= int(re.match(r"\d+", ref.section).group()) <= LAST[ref.act], (d["id"], g)
        assert all(parse_ref(g, sections=conc.sections).ref.act in ("BNS", "BNSS", "BSA") for g in d["gold_new"])
        assert all(parse_ref(g, sections=conc.sections).ref.act in ("IPC", "CrPC", "IEA") for g in d["gold_old"])


def test_new_code_gold_is_the_tables_successor_of_an_old_code_gold(items, conc):
    for d in items:
        succ = set()
        for o in d["gold_old"]:
            c = conc.successors(parse_ref(o, sections=conc.sections).ref)
            assert c.status == "mapped", (d["id"], o, c.status)
            succ |= {str(t) for t in c.targets}
        assert set(d["gold_new"]) == succ, (d["id"], sorted(succ ^ set(d["gold_new"])))


def test_no_aila_test_query_text(items):
    """Neither a question nor the charge-identification fact it retells near-copies AILA Q11-Q50 (word 8-grams);
    AILA items are training queries Q1-Q10 only."""
    root = Settings().corpus_path
    queries = load_queries(root)
    test = {q: _shingles(queries[q]) for q in TEST_QUERIES}
    facts = {}
    for name in ("Test-Doc.jsonl", "Train-Sent.jsonl"):
        for line in (root / "benchmarks" / "charge_identification" / name).read_text(encoding="utf-8").splitlines():
            f = json.loads(line)
            facts[f["factid"]] = " ".join(f["text"])
    for d in items:
        texts = [d["question"]]
        m = re.search(r"factid (\S+)", d["source"])
        if m:
            texts.append(facts[m.group(1)])
        for t in texts:
            s = _shingles(t)
            for q, qs in test.items():
                assert len(s & qs) <= 0.05 * max(1, len(s)), (d["id"], q)
        for q in re.findall(r"AILA_Q(\d+)", d["source"]):
            assert 1 <= int(q) <= 10, d["id"]


def test_era_decides_which_gold_counts():
    d = {"gold_new": ["BNS 318(4)"], "gold_old": ["IPC 420"]}
    assert relevant({**d, "offence_date": "2024-06-30"}) == ["IPC 420"]
    assert relevant({**d, "offence_date": "2024-07-01"}) == ["BNS 318(4)"]
    assert relevant({**d, "offence_date": None}) == ["BNS 318(4)", "IPC 420"]
    assert section_of("BNS 318(4)(a)") == "BNS 318"


def test_run_factset_levels_and_metrics():
    items = [
        {"id": "a", "question": "qa", "gold_new": ["BNS 318(4)"], "gold_old": ["IPC 420"], "length": "short",
         "offence_date": None},
        {"id": "b", "question": "qb", "gold_new": ["BNS 80"], "gold_old": ["IPC 304B"], "length": "long",
         "offence_date": "2024-05-10"},
    ]
    runs = {"qa": ["BNS 111", "BNS 318", "BNS 318(2)", "IPC 420"],  # BNS 318 twice: counted once, at rank 2
            "qb": ["BNS 80", "IPC 304B"]}
    res = run_factset(lambda q, date: runs[q], items)
    sec, sub = res["section"], res["subsection"]
    assert sec["short"]["n"] == 1 and sec["long"]["n"] == 1 and sec["era_old"]["n"] == 1
    # a: section run BNS 111, BNS 318, IPC 420 -> both gold in top 5, first at rank 2
    assert sec["short"]["recall@5"] == 1.0 and sec["short"]["mrr"] == 0.5 and sec["short"]["gold_first"] == 0.0
    # b: old era -> only IPC 304B counts, at rank 2
    assert sec["long"]["mrr"] == 0.5 and sec["era_old"]["new_gold@5"] == 1.0
    # sub-section level: a bare BNS 318 is not BNS 318(4) -> only IPC 420 (rank 4 of a's sub run) is found
    assert sub["short"]["recall@5"] == 0.5 and sub["short"]["mrr"] == 0.25
    assert sec["all"]["mrr"] == pytest.approx(0.5)
    assert [r["top3"] for r in res["items"]] == [["BNS 111", "BNS 318", "IPC 420"], ["BNS 80", "IPC 304B"]]


def test_builder_rules_on_tiny_inputs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_factset", ROOT / "bench" / "build_factset.py")
    b = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(b)
    assert b.first_date("on September 9, 1953, he married") == "1953-09-09"
    assert b.first_date("On 9th May, 2004 and 23.2.1999") == "2004-05-09"
    assert b.first_date("in the year 2001") is None

    class S:  # a stand-in for legal_rag.types.Section
        def __init__(self, title, text):
            self.title, self.text = title, text

    ipc = {"300": S("Murder", "Except in the cases hereinafter excepted, culpable homicide is murder, if the act"),
           "302": S("Punishment for murder", "Whoever commits murder shall be punished with death"),
           "299": S("Culpable homicide", "Whoever causes death by doing an act with the intention")}
    got = b.label_sections({"murder": ["Except in the cases hereinafter excepted, culpable homicide is murder"]}, ipc)
    assert got["murder"][0] == ["300", "302"]
