"""Quoted-text identification of AILA's anonymised statutes (legal_rag.eval.sectionfind.quote_votes /
quoted_text_map): the case-base paragraphs that quote a statute's description vote with the references they cite.
No relevance judgment is read."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from legal_rag.eval.sectionfind import QuoteVotes, StatuteMap, quote_votes, quoted_text_map
from legal_rag.types import Paragraph, Section, StatuteRef

ART = lambda n: StatuteRef("Constitution", n)  # noqa: E731
EQUALITY = ("The State shall not deny to any person equality before the law or the equal protection of the laws "
            "within the territory of India.")
LIBERTY = "No person shall be deprived of his life or personal liberty except according to procedure established by law."
BOILER = "shall be punished with imprisonment of either description for a term which may extend to"


@dataclass
class TinyCaseBase:
    """What quote_votes reads: ``cases`` and ``paragraphs(case)``."""

    paras: dict

    @property
    def cases(self):
        return tuple(self.paras)

    def paragraphs(self, case):
        return self.paras[case]


def para(case, text, *cites):
    return Paragraph(case, "", text, f"{case}.txt", (0, 0), tuple(cites))


def tiny():
    return TinyCaseBase({
        "C1": (para("C1", "Article 14 reads:", ART("14")), para("C1", EQUALITY)),  # cite lent by the paragraph before
        "C2": (para("C2", f"Art. 14 says: {EQUALITY}", ART("14"), ART("21")),),
        "C3": (para("C3", f"It is settled. {EQUALITY.upper()} So Art. 14.", ART("14")),),
        "C4": (para("C4", f"{LIBERTY} (Article 21)", ART("21")), para("C4", f"again {LIBERTY}", ART("21"))),
        "C5": (para("C5", "equality before the law is a phrase", ART("15")),),  # too short a run: no quote
        "C6": (para("C6", f"whoever {BOILER} three years", StatuteRef("IPC", "420")),),  # shared boilerplate
    })


def test_quoting_paragraphs_vote_with_their_cites():
    cb = tiny()
    desc = {"S3": EQUALITY, "S9": LIBERTY, "S20": f"Whoever cheats {BOILER} seven years",
            "S21": f"Whoever steals {BOILER} three years"}
    qv = quote_votes(desc, cb)
    assert qv["S3"].paragraphs == (("C1", 1), ("C2", 0), ("C3", 0))
    assert qv["S3"].votes == ((ART("14"), 3), (ART("21"), 1))
    assert qv["S3"].winner() == ART("14")
    assert qv["S9"].votes == ((ART("21"), 2),) and qv["S9"].winner() is None  # 2 paragraphs < 3
    assert qv["S9"].winner(min_paras=2) == ART("21")
    # the boilerplate run is in two descriptions: it identifies neither
    assert qv["S20"].paragraphs == () and qv["S21"].paragraphs == () and qv["S20"].winner() is None


def test_winner_needs_a_clear_majority_and_no_tie():
    refs = [("C", i) for i in range(5)]
    assert QuoteVotes("S", tuple(refs), ((ART("32"), 3), (ART("226"), 3))).winner() is None  # tie
    assert QuoteVotes("S", tuple(refs), ((ART("22"), 2),)).winner() is None  # too few
    assert QuoteVotes("S", tuple(refs * 2), ((ART("22"), 5),)).winner() is None  # 5 of 10 quoting paragraphs
    assert QuoteVotes("S", tuple(refs), ((ART("22"), 3), (ART("21"), 1))).winner() == ART("22")


def test_quoted_text_map_fills_only_unmatched_statutes():
    cb = tiny()
    sts = [Section(StatuteRef("AILA", "S3"), "Equality before law", EQUALITY, "S3.txt", (0, 0)),
           Section(StatuteRef("AILA", "S2"), "Punishment", EQUALITY + " again", "S2.txt", (0, 0))]
    smap = StatuteMap({"S2": StatuteRef("IPC", "302")}, {"S2": "derived_csv"}, ("S3",))
    out, _ = quoted_text_map(smap, sts, cb)
    assert out.refs["S2"] == StatuteRef("IPC", "302") and out.origin["S2"] == "derived_csv"
    # S2's description repeats S3's words, so those runs are shared boilerplate: nothing quotes S3 alone
    assert out.unmatched == ("S3",)
    out, _ = quoted_text_map(smap, sts[:1], cb)
    assert out.refs["S3"] == ART("14") and out.origin["S3"] == "quoted-text" and out.unmatched == ()


# ---- real corpus: the 2,914 AILA judgments (leakage guard applied), the 197 AILA statutes -------------------------
@pytest.fixture(scope="module")
def real_quoted(real_settings):
    from legal_rag.eval.aila import load_statutes
    from legal_rag.eval.sectionfind import aila_statute_map
    from legal_rag.ingest.casebase import load_casebase

    corpus = real_settings.corpus_path
    if not (corpus / "benchmarks" / "aila2019").is_dir():
        pytest.skip("AILA 2019 data not found")
    judgments, paras, _ = load_casebase(corpus, others=((), ()))
    by: dict = {j.case_id: [] for j in judgments}
    for p in paras:
        by[p.case].append(p)
    sts = load_statutes(corpus)
    smap = aila_statute_map(corpus)
    out, qv = quoted_text_map(smap, sts, TinyCaseBase({c: tuple(ps) for c, ps in by.items()}))
    return smap, out, qv, {s.ref.section: s.title for s in sts}


def test_real_articles_identified_by_the_paragraphs_quoting_them(real_quoted):
    smap, out, qv, titles = real_quoted
    # titles are the dataset's; the Articles they name are the Constitution's (Part III)
    assert titles["S3"] == "Equality before law" and out.refs["S3"] == ART("14") and out.origin["S3"] == "quoted-text"
    assert titles["S9"] == "Protection of life and personal liberty" and out.refs["S9"] == ART("21")
    assert titles["S44"] == "Protection in respect of conviction for offences" and out.refs["S44"] == ART("20")
    # "Power of High Courts to issue certain writs" (Art. 226): too few quoting paragraphs, split 226/32: left out
    assert "S1" in out.unmatched
    # what was mapped before stays, and the quoted-text rule never disagrees with it where it names something
    assert all(out.refs[s] == r and out.origin[s] == smap.origin[s] for s, r in smap.refs.items())
    assert all(qv[s].winner() in (None, r) for s, r in smap.refs.items())
    n = sum(o == "quoted-text" for o in out.origin.values())
    assert 20 <= n <= len(smap.unmatched) and len(out.refs) + len(out.unmatched) == 197
