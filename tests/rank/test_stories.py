"""No shipped training question retells a story a measured question was written from (:mod:`bench.ranker.leakage`:
the stories named in each row's ``source``)."""

from __future__ import annotations

import json

from bench.ranker.leakage import MEASURED_SETS, measured_stories, shares_a_story, stories
from legal_rag.rank import asked_files, training_files


def test_the_stories_a_source_names():
    assert stories("charge_identification Test-Doc factid 1959_N_10") == {("fact", "1959_N_10")}
    assert stories("BNS s.308 Illustration (e) retold; s.308(5) text (BPR&D table: IPC 386)") == {
        ("illustration", "BNS", "308", "(e)")}
    assert stories("statutes/structured/bns_sections_kaggle_cmrit.csv#record 351 (BNS 351 illustration)") == {
        ("illustration", "BNS", "351", "")}
    assert stories("benchmarks/aila2019/Query_doc.txt#AILA_Q4; relevance_judgments_statutes.txt") == {("aila", "4")}
    assert stories("cases/field-cases.md#BL-31") == {("field case", "31")}
    assert stories("BSA s.111 text") == set() and stories("") == set()


def test_the_measured_sets_name_their_stories():
    told = measured_stories()
    assert {k[0] for k in told} == {"fact", "illustration", "aila", "field case"}
    assert all(p.exists() for p in MEASURED_SETS) and not any("ask_" in p.name for p in MEASURED_SETS)


def test_no_training_question_retells_a_measured_story():
    for p in [*training_files(), *asked_files()]:
        rows = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
        found = shares_a_story(rows)
        assert not found, (p.name, [rows[i]["source"] for i in found[:5]])


def test_a_retold_story_is_found():
    told = sorted(measured_stories())
    fact = next(k for k in told if k[0] == "fact")
    rows = [{"source": f"charge_identification Train-Sent factid {fact[1]}"}, {"source": "BNS s.303 text"}, {}]
    assert shares_a_story(rows) == [0]
