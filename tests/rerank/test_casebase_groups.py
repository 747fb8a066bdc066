"""Weakly labelled groups from the case base (legal_rag.rerank.training.casebase_groups): masking by the one
citation grammar, positives on both sides of the BPR&D table, negatives never cited in the judgment, the leakage
guard; on a tiny hand-built case base (real concordance) and on the sampled real case base."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.index.casebase import CaseBase
from legal_rag.ingest.statute_cites import find_statute_refs
from legal_rag.rerank.training.casebase_groups import MASK, casebase_groups, mask_citations
from legal_rag.rerank.training.data import Doc, Forbidden, LeakageError, assert_no_leak, load_forbidden, norm
from legal_rag.rerank.training.groups import NEGATIVES
from legal_rag.types import Judgment, Paragraph

PUN = "shall be punished with imprisonment of either description for a term which may extend to seven years, and fine"
DOCS = {k: Doc(k, t, x) for k, t, x in [
    ("IPC 302", "Punishment for murder", "Whoever commits murder shall be punished with death or imprisonment for life"),
    ("IPC 34", "Common intention", "When a criminal act is done by several persons in furtherance of the common "
               "intention of all, each of such persons is liable for that act"),
    ("IPC 498A", "Cruelty by husband", "Whoever, being the husband of a woman, subjects such woman to cruelty " + PUN),
    ("IPC 307", "Attempt to murder", "Whoever does any act with such intention as would cause death " + PUN),
    ("IPC 323", "Hurt", "Whoever voluntarily causes hurt by a knife " + PUN),
    ("IPC 324", "Hurt by dangerous weapons", "Whoever causes hurt by a knife or stabbing the deceased " + PUN),
    ("IPC 326", "Grievous hurt", "Whoever causes grievous hurt by stabbing near the village well " + PUN),
    ("IPC 304", "Culpable homicide", "Whoever commits culpable homicide causing death in the night " + PUN),
    ("IPC 420", "Cheating", "Whoever cheats and dishonestly induces delivery of property " + PUN),
    ("BNS 103", "Punishment for murder", "Whoever commits murder shall be punished with death or imprisonment for life"),
    ("BNS 3", "General explanations", "When a criminal act is done by several persons in furtherance of the common "
              "intention of all, each of such persons is liable"),
    ("BNS 85", "Cruelty", "Whoever, being the husband of a woman, subjects such woman to cruelty " + PUN),
    ("BNS 86", "Cruelty defined", "Cruelty means any wilful conduct that drives the woman to death " + PUN),
    ("BNS 109", "Attempt to murder", "Whoever does any act with such intention as would cause death " + PUN),
    ("BNS 115", "Hurt", "Whoever voluntarily causes hurt by a knife " + PUN),
    ("BNS 118", "Hurt by dangerous weapons", "Whoever causes hurt by a knife or stabbing the deceased " + PUN),
    ("BNS 105", "Culpable homicide", "Whoever commits culpable homicide causing death in the night " + PUN),
    ("BNS 117", "Grievous hurt", "Whoever causes grievous hurt by stabbing near the village well " + PUN),
    ("BNS 318", "Cheating", "Whoever cheats and dishonestly induces delivery of property " + PUN),
]}
STORY = ("the appellant was convicted for causing the death of the deceased by stabbing him with a knife in the night "
         "near the village well and was sentenced to imprisonment for life by the trial court which the High Court "
         "confirmed on appeal")
HELD_OUT = "the accused persuaded the complainant to part with five lakh rupees by promising a government job"


def _j(c: str) -> Judgment:
    return Judgment(c, f"title {c}", "Supreme Court of India", "1999", f"{c}.txt")


def _p(c: str, text: str) -> Paragraph:
    return Paragraph(c, "", text, f"{c}.txt", (0, 0), find_statute_refs(text))


@pytest.fixture(scope="module")
def conc():
    from legal_rag.law import load_concordance

    return load_concordance(Settings().corpus_path)


@pytest.fixture(scope="module")
def tiny():
    ps = [_p("C1", f"In this case {STORY} under Section 302 IPC."),  # eligible: one section
          _p("C1", f"Earlier {STORY}; he was also charged under Section 498A IPC and later acquitted of it."),
          _p("C1", f"Charges were framed under Sections 302, 307, 323 and 324 of the IPC as {STORY}."),  # 4: no
          _p("C1", "The appeal is dismissed."),  # no cite
          _p("C113", f"In the dropped case {STORY} under Section 302 IPC."),  # leak-guard case: never read
          _p("C2", f"It was alleged that {HELD_OUT} and so the charge under Section 420 IPC was framed."),
          ]
    return CaseBase.build([_j("C1"), _j("C113"), _j("C2")], ps)


@pytest.fixture(scope="module")
def forbidden():
    return Forbidden(frozenset({norm(HELD_OUT)}), frozenset(), frozenset())


def test_mask_replaces_whole_citations_by_the_grammar():
    assert mask_citations("convicted under Section 302 IPC and fined") == f"convicted under {MASK} and fined"
    out = mask_citations("charged under Sections 302/34 I.P.C. and Section 482 of the Code was invoked")
    assert "302" not in out and "34" not in out and "482" not in out and "I.P.C" not in out
    assert out.startswith("charged under [SECTION]")
    assert mask_citations("no citation here") == "no citation here"


def test_groups_positives_old_and_new_negatives_never_cited(tiny, conc, forbidden):
    groups, stats = casebase_groups(tiny, Settings().corpus_path, limit=100, seed=1, forbidden=forbidden,
                                    docs=DOCS, conc=conc)
    by = {g.source: g for g in groups}
    # C1#0 cites IPC 302 only -> IPC 302 (old) and its BPR&D successor BNS 103 (new)
    assert {"casebase:C1#0:IPC 302", "casebase:C1#0:BNS 103"} <= set(by)
    old, new = by["casebase:C1#0:IPC 302"], by["casebase:C1#0:BNS 103"]
    assert old.positive.startswith("IPC 302") and new.positive.startswith("BNS 103")
    for g in (old, new):
        assert MASK in g.query and "302" not in g.query and "IPC" not in g.query
        assert len(g.negatives) == NEGATIVES
    # negatives: of the positive's Act, never a section the judgment cites anywhere (302, 498A, 307, 323, 324)
    # nor a successor of one (BNS 103, 85, 86, 109, 115, 118)
    cited_c1 = {"IPC 302", "IPC 498A", "IPC 307", "IPC 323", "IPC 324", "BNS 103", "BNS 85", "BNS 86", "BNS 109",
                "BNS 115", "BNS 118"}
    for g in groups:
        if g.source.startswith("casebase:C1#"):
            heads = {n.split("\n")[0].split(" (")[0] for n in g.negatives}
            assert not heads & cited_c1, (g.source, heads)
            assert all(h.split()[0] == g.positive.split()[0] for h in heads)
    assert not any(":C1#2:" in s or ":C1#3:" in s for s in by)  # four sections / none: not eligible
    assert not any("C113" in s for s in by)  # the leak guard's case is never read
    assert not any("C2#" in s for s in by) and stats["held_out"] == 1  # a held-out question inside the paragraph
    assert stats["eligible"] == 3 and stats["queries"] == 2


def test_deterministic_for_a_seed(tiny, conc, forbidden):
    a, _ = casebase_groups(tiny, Settings().corpus_path, limit=3, seed=7, forbidden=forbidden, docs=DOCS, conc=conc)
    b, _ = casebase_groups(tiny, Settings().corpus_path, limit=3, seed=7, forbidden=forbidden, docs=DOCS, conc=conc)
    assert a == b and len(a) == 3


def test_leak_guard_raises_on_a_held_out_query(tiny, forbidden):
    from legal_rag.rerank.training.data import Group

    with pytest.raises(LeakageError):
        assert_no_leak([Group(f"so {HELD_OUT} under {MASK}", "p", ("n",), "casebase:C9#0:IPC 420")], forbidden)


def test_real_sampled_casebase_gives_groups(real_settings):
    """The sampled real case base (300 AILA judgments + corpus judgments, the tests' cache): groups with real
    section texts on both sides, none held out."""
    from legal_rag.retrieve.casebase_build import ensure_casebase

    cb, _ = ensure_casebase(real_settings, progress=False)
    forbidden = load_forbidden(real_settings.corpus_path)
    groups, stats = casebase_groups(cb, real_settings.corpus_path, limit=200, seed=13, forbidden=forbidden)
    assert stats["specs"] > 200 and len(groups) > 150
    acts = {g.positive.split()[0] for g in groups}
    assert {"IPC", "BNS"} <= acts
    assert all(MASK in g.query for g in groups)
    assert_no_leak(groups, forbidden)
