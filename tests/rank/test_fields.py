"""A section's fields and limbs (:mod:`legal_rag.rank.fields`) on BNS 318's printed words."""

from __future__ import annotations

import pytest

from legal_rag.rank import FieldIndex, section_fields, split_blocks
from legal_rag.rank.fields import SectionFields, limbs_of
from legal_rag.types import ScheduleRow, Section, StatuteRef
from tests.statutes import BNS_318_1, BNS_318_2, BNS_318_3, BNS_318_4, BNS_318_EXPLANATION

ILLUSTRATION = ("Illustrations.\n(a) A, by falsely pretending to be in the Civil Service, intentionally deceives Z, "
                "and thus dishonestly induces Z to let him have on credit goods for which he does not mean to pay. "
                "A cheats.")
TEXT = "\n".join([BNS_318_1, BNS_318_EXPLANATION, ILLUSTRATION, BNS_318_2, BNS_318_3, BNS_318_4])
BNS318 = StatuteRef("BNS", "318")


def row(sub, offence):
    return ScheduleRow("BNSS", "BNS", "318", StatuteRef("BNS", "318", (sub,)), offence, "", True, False, "", "", "",
                       "s", 183, 1)


class Rows:
    def section_rows(self, act, section):
        return (row("2", "Cheating"), row("4", "Cheating and thereby dishonestly inducing delivery of property"))


def test_blocks_keep_explanations_and_illustrations_apart_from_the_operative_words():
    b = split_blocks(TEXT)
    assert "is said to cheat" in b["operative"] and "seven years" in b["operative"]
    assert "dishonest concealment" in b["explanation"] and "dishonest concealment" not in b["operative"]
    assert "Civil Service" in b["illustration"] and "Civil Service" not in b["operative"]
    assert split_blocks("(1) Whoever ...") == {"operative": "(1) Whoever ...", "explanation": "", "illustration": ""}


def test_limbs_are_the_printed_sub_sections_with_their_schedule_rows():
    sec = Section(BNS318, "Cheating", TEXT, "BNS.pdf", (86, 87))
    limbs = limbs_of(sec, Rows().section_rows("BNS", "318"), {StatuteRef("BNS", "318", ("4",)): "Cheating subject"})
    assert [lb.ref.sub for lb in limbs] == [("1",), ("2",), ("3",), ("4",)]
    assert limbs[3].text.startswith("(4) Whoever cheats") and "seven years" in limbs[3].text
    assert limbs[3].schedule.startswith("Cheating and thereby") and limbs[3].subject == "Cheating subject"
    assert limbs[0].schedule == "" and limbs[1].schedule == "Cheating"


def test_fields_and_their_search():
    sections = {BNS318: Section(BNS318, "Cheating", TEXT, "BNS.pdf", (86, 87)),
                StatuteRef("BNS", "303"): Section(StatuteRef("BNS", "303"), "Theft",
                                                  "(1) Whoever, intending to take dishonestly any movable property "
                                                  "out of the possession of any person ... is said to commit theft.",
                                                  "BNS.pdf", (80, 80)),
                StatuteRef("IPC", "420"): Section(StatuteRef("IPC", "420"), "Cheating", "Whoever cheats ...",
                                                  "IPC.pdf", (1, 1))}
    f = section_fields(sections, Rows(), None)
    assert set(f) == {BNS318, StatuteRef("BNS", "303")}          # new-code sections only
    assert f[BNS318].get("title") == "Cheating" and "Civil Service" in f[BNS318].get("illustration")
    idx = FieldIndex(f)
    assert idx.search("title", "theft") == {StatuteRef("BNS", "303"): 1.0}
    assert BNS318 in idx.search("illustration", "civil service credit goods")
    assert idx.search("illustration", "theft") == {}
    limbs = f[BNS318].limbs
    scores = idx.limb_scores("delivery of property", limbs)
    assert max(scores, key=scores.get) == StatuteRef("BNS", "318", ("4",))


def test_title_cover_is_the_share_of_each_title_the_question_states_and_of_the_question_in_it():
    def sec(n, title):
        return StatuteRef("BNS", n), SectionFields(StatuteRef("BNS", n), (("title", title),))

    idx = FieldIndex(dict([sec("303", "Theft"), sec("305", "Theft in a dwelling house, or means of transportation"),
                           sec("64", "Punishment for rape"), sec("63", "Rape")]))
    got = idx.title_cover("punishment for theft")                # words: punish, theft
    assert got[StatuteRef("BNS", "303")] == (1.0, 0.5)
    assert got[StatuteRef("BNS", "305")] == pytest.approx((1 / 5, 0.5))   # theft, dwell, hous, mean, transport
    assert got[StatuteRef("BNS", "64")] == (0.5, 0.5) and StatuteRef("BNS", "63") not in got
    assert idx.title_cover("punishment for rape")[StatuteRef("BNS", "64")] == (1.0, 1.0)
    assert idx.title_cover("") == {} and idx.title_cover("bail") == {}


def test_summaries_are_embedded_once_and_scored_by_cosine(tmp_path):
    import numpy as np

    from legal_rag.rank.fields import summary

    sections = {BNS318: Section(BNS318, "Cheating", TEXT, "BNS.pdf", (86, 87))}
    idx = FieldIndex(section_fields(sections, Rows(), None))
    assert idx.summary_scores(np.ones(2)) == {}                 # nothing embedded yet
    assert summary(idx.fields[BNS318]).startswith("Cheating Cheating Cheating and thereby")
    calls = []

    def embed(texts):
        calls.append(list(texts))
        return np.array([[3.0, 4.0]] * len(texts))

    idx.embed_summaries(embed, tmp_path, "m")
    idx.embed_summaries(embed, tmp_path, "m")
    assert len(calls) == 1
    assert idx.summary_scores(np.array([0.6, 0.8])) == {BNS318: pytest.approx(1.0)}
