"""The cited-passage precision functions of ``bench/answers_eval.py`` (issue 14) on hand-made citations."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

from legal_rag.types import Answer, Citation, StatuteRef as R

_SPEC = importlib.util.spec_from_file_location("answers_eval", Path(__file__).parents[2] / "bench" / "answers_eval.py")
ae = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ae)


class Table:
    def query(self, ref):
        rows = {R("BNS", "318", ("4",)): (R("IPC", "420"),), R("IPC", "420"): (R("BNS", "318", ("4",)),)}
        got = rows.get(ref, ())
        return SimpleNamespace(status="mapped" if got else "no_counterpart", targets=got)


def cit(ref, related=False, support="supported", chunk="c"):
    return Citation(1, chunk, ref, "s.pdf", (1, 1), "s", support, related=related)


def test_gold_pairs_and_answering_at_sub_section_precision():
    golds = ae.gold_pairs(["BNS 318(4)"], Table())
    assert golds == [R("BNS", "318", ("4",)), R("IPC", "420")]
    assert ae.answers_gold(R("BNS", "318", ("4",)), golds) and ae.answers_gold(R("BNS", "318"), golds)
    assert ae.answers_gold(R("IPC", "420"), golds)
    assert not ae.answers_gold(R("BNS", "318", ("2",)), golds) and not ae.answers_gold(R("BNS", "111"), golds)
    assert not ae.answers_gold(None, golds)


def test_cited_provisions_before_and_after():
    a = Answer("q", "t", citations=(cit(R("BNS", "318", ("4",))), cit(R("BNS", "318", ("4",))),
                                    cit(R("BNS", "111", ("4",)), related=True),
                                    cit(R("IPC", "316"), support="unsupported"), cit(None, chunk="j1")))
    assert ae.cited_provisions(a, answer_part=False) == [R("BNS", "318", ("4",)), R("BNS", "111", ("4",)), None]
    assert ae.cited_provisions(a, answer_part=True) == [R("BNS", "318", ("4",)), None]
