"""Metric functions of ``bench/answers_eval.py`` (gold matching, foreign citations, unsupported punishment
figures, abstention) on hand-made answers; and the abstained-draft fix in :mod:`legal_rag.verify` they exposed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from legal_rag.generate.abstain import CaseReference, missing_case_message
from legal_rag.types import Answer, Citation, Draft, StatuteRef
from legal_rag.verify import verify

from tests.generate.fakes import BNS_318, IPC_420, hits, statute
from tests.statutes import BNS_318_4

_SPEC = importlib.util.spec_from_file_location("answers_eval", Path(__file__).parents[2] / "bench" / "answers_eval.py")
ae = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ae)

BNS = statute("BNS", "318", "Cheating", BNS_318)
IPC = statute("IPC", "420", "Cheating and dishonestly inducing delivery of property", IPC_420)
PASSAGES = tuple(hits(BNS, IPC))


def cit(marker, chunk, ref, quote="", sentence="s"):
    return Citation(marker, chunk.id, ref, chunk.source, chunk.pages, sentence, "supported", quote=quote)


def answer(text, citations=(), passages=PASSAGES):
    return Answer("q", text, citations=tuple(citations), passages=passages)


def test_parse_gold():
    assert ae.parse_gold("BNS 318(4)") == StatuteRef("BNS", "318", ("4",))
    assert ae.parse_gold("IPC 498A") == StatuteRef("IPC", "498A")
    assert ae.parse_gold("BNS 3(5)") == StatuteRef("BNS", "3", ("5",))
    with pytest.raises(ValueError):
        ae.parse_gold("section 420")


def test_gold_strict_needs_the_sub_section_loose_does_not():
    gold = ae.parse_gold("BNS 318(4)")
    whole = cit(1, BNS, StatuteRef("BNS", "318"), quote="Whoever, by deceiving any person, fraudulently ...")
    assert not ae.cites_gold(whole, gold) and ae.cites_gold(whole, gold, strict=False)
    assert ae.cites_gold(cit(1, BNS, StatuteRef("BNS", "318", ("4",))), gold)
    assert not ae.cites_gold(cit(1, BNS, StatuteRef("BNS", "318", ("2",))), gold)
    opens = cit(1, BNS, StatuteRef("BNS", "318"), quote=f"\u201c{BNS_318_4.upto('dishonestly induces')}")
    assert ae.cites_gold(opens, gold)
    mentions = cit(1, BNS, StatuteRef("BNS", "318"), quote="as provided in sub-section (4) of this section")
    assert not ae.cites_gold(mentions, gold)
    assert not ae.cites_gold(cit(1, BNS, StatuteRef("BNS", "319")), gold, strict=False)
    assert not ae.cites_gold(cit(1, BNS, None), gold, strict=False)  # a judgment passage is no section


def test_exported_pinpoint_reads_the_records_not_the_quotes():
    four = StatuteRef("BNS", "318", ("4",))
    quoted = cit(1, BNS, four, quote="(4) Whoever cheats", sentence="\u201c(4) Whoever cheats\u201d")
    heading = cit(1, BNS, StatuteRef("BNS", "318"), sentence="BNS 318 - Cheating")
    # the record keeps the most precise provision of its marker: s. 318(4)
    assert ae.exported_meets_gold(answer("x [1]", [heading, quoted]), ["BNS 318(4)"])
    assert [str(r) for r in ae.exported_pinpoints(answer("x [1]", [heading, quoted]))] == ["BNS 318(4)"]
    # a record at the section does not meet a sub-section gold, whatever its quote opens with
    opens = cit(1, BNS, StatuteRef("BNS", "318"), quote="(4) Whoever cheats", sentence="\u201c(4) Whoever cheats\u201d")
    assert not ae.exported_meets_gold(answer("x [1]", [opens]), ["BNS 318(4)"])
    assert ae.exported_meets_gold(answer("x [1]", [opens]), ["BNS 318"])
    assert not ae.exported_meets_gold(answer("x [1]", [quoted]), ["BNS 318(2)"])


def test_meets_gold_takes_either_code():
    a = answer("x [2].", [cit(2, IPC, StatuteRef("IPC", "420"))])
    assert ae.meets_gold(a, ["BNS 318(4)", "IPC 420"])
    assert not ae.meets_gold(a, ["BNS 318(4)"])


def test_foreign_citations():
    ok = cit(1, BNS, StatuteRef("BNS", "318"))
    other = statute("BNS", "103", "Murder", "Whoever commits murder shall be punished with death.")
    not_given = cit(1, other, StatuteRef("BNS", "103"))
    wrong_marker = cit(1, IPC, StatuteRef("IPC", "420"))  # [1] is BNS 318, not IPC 420
    out_of_range = cit(3, IPC, StatuteRef("IPC", "420"))
    got = ae.foreign_citations(answer("x", [ok, not_given, wrong_marker, out_of_range]))
    assert got == [not_given, wrong_marker, out_of_range]


def test_unsupported_punishments():
    good = "Cheating that induces delivery of property is punishable with up to seven years and fine [2]."
    bad = "Cheating is punishable with imprisonment for life [1]."
    uncited = "Cheating is punishable with ten years."
    got = ae.unsupported_punishments(answer(f"{good} {bad}\n{uncited}"))
    assert got == [("Cheating is punishable with imprisonment for life.", ("life",)),
                   ("Cheating is punishable with ten years.", ("10 year",))]
    marked = "Cheating is punishable with death [1]. \u27e8unsupported: punishment not in the cited text: death\u27e9"
    assert ae.unsupported_punishments(answer(marked)) == []
    assert ae.unsupported_punishments(answer("Up to three years, or fine [1].")) == []


def test_abstains():
    assert ae.abstains(answer("The indexed sources do not contain the answer to this question."))
    assert not ae.abstains(answer("The indexed sources do not contain it. But see [1].",
                                  [cit(1, BNS, StatuteRef("BNS", "318"))]))
    assert not ae.abstains(answer("Section 999 of the BNS deals with cheating."))


def test_pct_nearest_rank():
    assert ae.pct([], 50) == 0.0
    assert ae.pct([3.0, 1.0, 2.0], 50) == 2.0
    assert ae.pct([float(i) for i in range(1, 21)], 95) == 19.0


def test_abstained_draft_ships_whole():
    """Regression: the second sentence of an abstention ("Please check the citation.") cites nothing and was
    removed as an unsupported claim, so the user got half the message and a spurious problem."""
    msg = missing_case_message(CaseReference("citation", "(2019) 5 SCC 9999"))
    v = verify(Draft("What did the Supreme Court hold in (2019) 5 SCC 9999?", msg, abstained=True),
               equivalents=lambda ref: set())
    assert v.text == msg and "Please check the citation." in v.text
    assert not v.removed and {c.status for c in v.checks} == {"abstention"}
    # a model's draft (not abstained) still has every uncited sentence removed
    v = verify(Draft("q", "Please check the citation.", passages=PASSAGES), equivalents=lambda ref: set())
    assert v.removed


def _row(qid, gold=("BNS 318(4)",), model="llama_cpp:m", text="A [1].", supported=1, unsupported=0, abstains=False,
         prompt=900, cached=380):
    return {"id": qid, "question": qid, "gold": list(gold) if gold else None, "ttft_s": 1.0, "total_s": 2.0,
            "supported": supported, "unsupported": unsupported, "recheck_same": True, "foreign": [], "punish": [],
            "abstains": abstains, "text": text, "model": model, "citations": [], "load": 1.0,
            "prompt_tokens": prompt, "cached_tokens": cached, "gold_strict": True, "gold_loose": True,
            "gold_bns": True, "gold_bns_loose": True}


def test_answers_block_counts_own_answers_withheld_and_fallbacks_apart():
    """Issue 17's rows: an answer in the model's own words has a verified sentence of its own; a withheld answer, a
    quoted fallback (`+extractive`) and an abstention are not its own answers; prefilled = prompt - cached."""
    rows = [_row("F1", gold=None, text="The indexed sources do not contain the answer to this question.",
                 supported=0, abstains=True),
            _row("D1", supported=2, unsupported=1),
            _row("D2", text="The indexed sources do not contain the answer to this question. (The generated answer "
                            "was withheld: none of its statements could be verified against the cited passages.)",
                 supported=0, unsupported=2),
            _row("D3", model="llama_cpp:m+extractive", supported=5),
            _row("D4", prompt=1000, cached=0)]
    block = ae.answers_block("qwen-after", "llama_cpp:m", rows)
    assert "| 2/4 (50%) |" in block.split("own words")[1].splitlines()[0]  # D1 and D4
    assert "withheld (none of the model's sentences verified) | 1/4 |" in block
    assert "verified | 3/6 (50.0%) |" in block  # D1 2+1, D2 0+2, D4 1+0; the fallback D3 counts none
    assert "prompt tokens p50 / p95" in block and "; 520 / " in block  # prefilled 520, 520, 520, 1000
    assert block.startswith("<!-- answers:qwen-after:start")
    assert "re-attribution" not in block  # rows of runs before re-attribution have no "moved" count
    rows[1]["moved"] = 1  # D1: one of its two verified sentences was verified only after its marker moved
    for r in rows:
        r.setdefault("moved", 0)
    block = ae.answers_block("qwen-after", "llama_cpp:m", rows)
    assert "verified as the model cited | 1; 2/6 (33.3%) |" in block and "verified | 3/6 (50.0%) |" in block


def test_head_punishment_terms_are_checked_against_the_schedule_rows_they_quote():
    """The composed head cites the First Schedule, not a passage: its terms must be the quoted rows' punishment
    column, and only the body is checked against the cited passages."""
    import dataclasses

    from legal_rag.generate.head import head_text
    from legal_rag.types import HeadLine, ScheduleRow

    row = ScheduleRow("BNSS", "BNS", "318(4)", StatuteRef("BNS", "318", ("4",)),
                      "Cheating and dishonestly inducing delivery of property.", "Imprisonment for 7 years and fine.",
                      True, False, "Magistrate of the first class", "Cognizable.", "Non-bailable.", "bnss.pdf", 183,
                      453)
    good = HeadLine(StatuteRef("BNS", "318", ("4",)), "BNS 318(4) -- Cheating: Imprisonment for 7 years and fine.",
                    rows=(row,))
    bad = dataclasses.replace(good, line="BNS 318(4) -- Cheating: Imprisonment for life.")
    body = "Cheating that induces delivery of property is punishable with up to seven years and fine [2]."
    for head, expected in (((good,), []), ((bad,), [(bad.line, ("life",))])):
        a = dataclasses.replace(answer(f"{head_text(head)}\n\n{body}"), head=head)
        assert ae.unsupported_punishments(a) == expected
        assert ae.body_of(a) == body


def test_replay_backend_returns_the_recorded_reply_for_the_prompt_s_question():
    """``--replay``: the recorded draft for the question in the prompt (the longest question that matches), cut
    where the recorded run was cut; an unrecorded prompt (the warm-up) gets the abstention sentence and is counted."""
    from legal_rag.generate import NOT_IN_SOURCES

    rows = [{"id": "D1", "question": "punishment for murder", "draft": "Murder is punished [1].",
             "model": "llama_cpp:qwen", "prompt_tokens": 800, "cached_tokens": 400, "ttft_s": 8.0, "total_s": 20.0,
             "problems": []},
            {"id": "D2", "question": "punishment for murder by a life convict", "draft": "Death [1]. Under",
             "model": "llama_cpp:qwen", "problems": ["generation stopped at 256 new tokens"]}]
    b = ae.ReplayBackend(rows)
    assert b.name == "llama_cpp:qwen"
    streamed = []
    g = b.chat([("system", "s"), ("user", "Passages...\n\nQuestion: punishment for murder\n\nAnswer")],
               max_new_tokens=256, on_token=streamed.append)
    assert (g.text, g.finish_reason, g.cached_tokens, streamed) == ("Murder is punished [1].", "stop", 400,
                                                                     ["Murder is punished [1]."])
    g = b.chat([("user", "Question: punishment for murder by a life convict\n")], max_new_tokens=256)
    assert (g.text, g.finish_reason) == ("Death [1]. Under", "length")
    assert b.chat([("user", "Question: a warm-up\n")], max_new_tokens=8).text == NOT_IN_SOURCES
    assert len(b.unknown) == 1
