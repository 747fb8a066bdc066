"""Supersession flags in the exports: an old-code citation names its successor by the official rows ("(now BNS
...)"), and the JSON export and the CLI (which prints an export) list each distinct flag once (issue 14): the same
flag found in the query, a passage and the answer is one entry saying where it was found. Flags come from the real
law core over the BPR&D tables, never typed here."""

from __future__ import annotations

import dataclasses
import json

import pytest

from legal_rag.export import build_doc, export_answer, statute_citation
from legal_rag.export.formats import distinct_flags
from legal_rag.law import flag_superseded, load_concordance
from legal_rag.types import Answer, StatuteRef

IPC420, BNS318_4 = StatuteRef("IPC", "420"), StatuteRef("BNS", "318", ("4",))


@pytest.fixture(scope="module")
def conc():
    return load_concordance()


def test_statute_citations_follow_the_official_rows(conc):
    flags = flag_superseded([IPC420, StatuteRef("IPC", "498A"), StatuteRef("IPC", "377")], "answer", concordance=conc)
    succ = {f.old: f.new for f in flags}
    assert statute_citation(BNS318_4) == "Bharatiya Nyaya Sanhita, 2023, s. 318(4)"
    assert statute_citation(IPC420, flags) == "Indian Penal Code, 1860, s. 420 (now BNS s. 318(4))"
    assert succ[IPC420] == (BNS318_4,)
    two = succ[StatuteRef("IPC", "498A")]
    assert statute_citation(StatuteRef("IPC", "498A"), flags) == (
        f"Indian Penal Code, 1860, s. 498A (now BNS ss. {two[0].section} and {two[1].section})")
    assert statute_citation(StatuteRef("IPC", "377"), flags) == "Indian Penal Code, 1860, s. 377 (no counterpart in the BNS)"
    assert statute_citation(IPC420) == "Indian Penal Code, 1860, s. 420"  # no flag: nothing invented


def test_saved_flag_still_names_the_successor(conc):
    flags = flag_superseded([IPC420], "query", "2024-06-20", concordance=conc)
    assert flags[0].applies == "IPC"
    assert statute_citation(IPC420, flags).endswith("(now BNS s. 318(4))")


def _flags():
    conc = load_concordance()
    out = []
    for where, refs in (("query", [StatuteRef("IPC", "420")]),
                        ("passage:IPC-420-0-aaaa", [StatuteRef("IPC", "420")]),
                        ("answer", [StatuteRef("IPC", "420"), StatuteRef("IPC", "304B", ("1",)),
                                    StatuteRef("IPC", "304B")])):
        out += flag_superseded(refs, where, concordance=conc)
    return tuple(out)


def test_each_distinct_flag_once_with_where_it_was_found():
    flags = _flags()
    assert len(flags) == 5
    got = distinct_flags(flags)
    assert [str(f.old) for f in got] == ["IPC 420", "IPC 304B(1)"]
    assert got[0].found_in == "query, passage:IPC-420-0-aaaa, answer"
    assert got[0].note == flags[0].note and got[0].new == flags[0].new


def test_flags_of_another_governing_code_or_kind_stay_apart():
    conc = load_concordance()
    before = flag_superseded([StatuteRef("IPC", "420")], "query", "2024-06-20", concordance=conc)
    after = flag_superseded([StatuteRef("IPC", "420")], "answer", "2024-07-20", concordance=conc)
    assert before[0].applies != after[0].applies
    assert len(distinct_flags(before + after)) == 2


def test_json_export_lists_the_note_once():
    answer = Answer("What is the BNS equivalent of IPC 420?", "IPC 420 is now BNS 318(4).", (), _flags(), (), ())
    data = json.loads(export_answer(answer, "json"))
    assert [f["old"]["section"] for f in data["supersession"]] == ["420", "304B"]
    assert len(build_doc(answer).flags) == 2
    md = export_answer(dataclasses.replace(answer), "markdown").decode()
    assert md.count(_flags()[0].note) == 1
