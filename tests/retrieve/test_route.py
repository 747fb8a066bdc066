"""Routing by the question analysis (issue 13): the routed filter, and on the real index the idiom look-up, the
procedural question that must reach BNSS before BNS, and dates read from the question feeding the flags."""

from legal_rag.law.question import analyse
from legal_rag.retrieve import Filters
from legal_rag.retrieve.route import analyse_question, route_filters
from legal_rag.types import StatuteRef as S

import pytest


@pytest.fixture(scope="module")
def conc():
    from legal_rag.config import Settings
    from legal_rag.law import load_concordance

    if not (Settings().corpus_path / "mappings").is_dir():
        pytest.skip("shared corpus not found")
    return load_concordance()


def test_route_filters_follow_the_acts_first_within_the_users_filter():
    a = analyse("punishment for theft")
    assert route_filters(a, None) == Filters(act=("BNS", "IPC"))
    assert route_filters(a, Filters(code="old")) == Filters(act=("IPC",), code="old")
    assert route_filters(a, Filters(act=("BSA",))) is None  # the user's filter leaves none of them
    assert route_filters(a, Filters(kind="judgment")) is None
    assert route_filters(a, Filters(court="Supreme Court of India")) is None
    assert route_filters(analyse("What did the Supreme Court hold in this judgment?"), None) is None
    assert route_filters(None, None) is None


# ---- the real index ---------------------------------------------------------------------------------------------

def _sections(hits):
    return [str(h.chunk.ref.base) for h in hits if h.chunk.ref is not None]


def test_438_application_retrieves_bnss_482_first(real_pipeline):
    hits = real_pipeline.search("a 438 application for my client")
    assert _sections(hits)[0] == "BNSS 482"
    assert "CrPC 438" in _sections(hits)[:10]
    assert "BNSS 438" not in _sections(hits)[:5]  # the revision power is not what the idiom names


def test_bl48_false_premise_retrieves_the_corrected_section_first(real_pipeline):
    hits = real_pipeline.search("What are the conditions for anticipatory bail under Section 438 BNSS?")
    assert _sections(hits)[0] == "BNSS 482"


def test_procedure_question_returns_bnss_before_any_bns_section(real_pipeline):
    secs = _sections(real_pipeline.search("what is the procedure for recording a confession"))
    bnss = [i for i, s in enumerate(secs) if s.startswith("BNSS ")]
    bns = [i for i, s in enumerate(secs) if s.startswith("BNS ")]
    assert bnss and (not bns or bnss[0] < bns[0])
    assert secs[0].startswith(("BNSS ", "CrPC "))


def test_fact_statement_does_not_lead_with_procedure(real_pipeline):
    secs = _sections(real_pipeline.search("My client was cheated of Rs 5 lakh by someone who promised a government "
                                          "job. Which sections apply?"))
    assert secs[0].startswith(("BNS ", "IPC "))
    assert not any(s.startswith(("BNSS ", "CrPC ")) for s in secs[:5])


def test_offence_date_in_the_text_makes_the_old_code_govern(real_pipeline):
    q = "My client cheated a buyer on 20 June 2024 by selling him a fake gold chain. Which sections apply?"
    a = analyse_question(q, concordance=real_pipeline.concordance)
    assert a.offence_date is not None and a.offence_date.isoformat() == "2024-06-20" and a.era == "old"
    ans = real_pipeline.ask(q)
    assert ans.flags, "an IPC or BNS passage must carry a flag for a dated offence"
    assert any(f.applies == "IPC" and f.kind in ("saved", "predates_new_code", "new_offence_retroactive")
               for f in ans.flags)
    assert not any(f.kind == "superseded" and f.old.act == "IPC" for f in ans.flags)


def test_undated_offence_question_leads_with_the_law_in_force(real_pipeline):
    secs = _sections(real_pipeline.search("punishment for theft"))
    assert secs[0].startswith("BNS ")  # era first: no date, the BNS leads, its IPC predecessor beside it
    assert S("BNS", "303") in [S(*s.split()) for s in secs[:5]]


def _hit(act, section, i):
    from legal_rag.types import Chunk, Hit

    return Hit(Chunk(f"{act}-{section}-{i}", "statute", "text", "", "x.pdf", (1, 1), ref=S(act, section)), 1.0, "rrf", i)


def test_era_order_pairs_puts_the_counterpart_of_the_era_first(conc):
    from legal_rag.retrieve.route import era_order

    # IPC 420's table successor is BNS 318 (section level); BNS 303 is unrelated and keeps its place
    assert S("BNS", "318") in {t.base for t in conc.successors(S("IPC", "420")).targets}
    hits = [_hit("IPC", "420", 1), _hit("BNS", "303", 2), _hit("BNS", "318", 3), _hit("IPC", "379", 4)]
    new = era_order(hits, analyse("punishment for cheating", concordance=conc), "pairs", conc)
    assert [str(h.chunk.ref) for h in new] == ["BNS 318", "IPC 420", "BNS 303", "IPC 379"]
    old = analyse("he cheated me on 3 March 2024; punishment?", concordance=conc)
    assert old.acts_first[0] == "IPC"
    # the old code leads: BNS 303's predecessor IPC 379 (by the table) moves before it
    assert S("IPC", "379") in {t.base for t in conc.predecessors(S("BNS", "303")).targets}
    assert [str(h.chunk.ref) for h in era_order(hits, old, "pairs", conc)] == ["IPC 420", "IPC 379", "BNS 303",
                                                                              "BNS 318"]
    assert era_order(hits, old, "none", conc) == hits


def test_statutes_ahead_keeps_every_judgment_in_its_place():
    from legal_rag.retrieve.route import statutes_ahead
    from legal_rag.types import Chunk, Hit

    j = Hit(Chunk("J-1", "judgment", "text", "A v. B", "j.pdf", (1, 1), case="J"), 1.0, "rrf", 2)
    ipc, bns, bnss = _hit("IPC", "420", 1), _hit("BNS", "318", 3), _hit("BNSS", "482", 9)
    out = statutes_ahead([ipc, j, bns], [bns, bnss])
    assert [h.chunk.id for h in out] == ["BNS-318-3", "J-1", "BNSS-482-9", "IPC-420-1"]
