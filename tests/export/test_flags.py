"""The JSON export and the CLI (which prints an export) list each distinct supersession flag once (issue 14): the
same flag found in the query, a passage and the answer is one entry saying where it was found. Flags come from the
real law core over the BPR&D tables."""

from __future__ import annotations

import dataclasses
import json

from legal_rag.export import build_doc, export_answer
from legal_rag.export.formats import distinct_flags
from legal_rag.law import flag_superseded, load_concordance
from legal_rag.types import Answer, StatuteRef


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
