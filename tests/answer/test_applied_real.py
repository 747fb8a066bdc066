"""Which judgments applied a section, and a judgment question's court and years, through Pipeline.ask on the real
index and case base (slow: the session's real-corpus build). Nothing expected is written here: the section is the
new-code section the Supreme Court's 2026 judgments cite most, and what the answer must list is read from the case
base's paragraphs and the official correspondence tables."""

from __future__ import annotations

from collections import Counter

import pytest

from legal_rag.generate.applied import citation_of, long_date
from legal_rag.law import same_court
from legal_rag.types import NEW_ACTS, StatuteRef

pytestmark = pytest.mark.slow

SC = "Supreme Court of India"


def _agrees(cited: StatuteRef, ref: StatuteRef) -> bool:
    n = min(len(cited.sub), len(ref.sub))
    return (cited.act, cited.section, cited.sub[:n]) == (ref.act, ref.section, ref.sub[:n])


@pytest.fixture(scope="module")
def cb(real_casebase):
    return real_casebase


@pytest.fixture(scope="module")
def ref(cb) -> StatuteRef:
    """The new-code section cited by the most Supreme Court judgments of 2026 (ties: by name)."""
    counts: Counter = Counter()
    for case in cb.cases:
        j = cb.judgment(case)
        if j.date.startswith("2026") and same_court(SC, j.court):
            counts.update({r for r in cb.case_cites(case) if r.act in NEW_ACTS})
    if not counts:
        pytest.skip("no 2026 Supreme Court judgment of the case base cites a new-code section")
    return min(counts, key=lambda r: (-counts[r], str(r)))


@pytest.fixture(scope="module")
def expected(cb, ref, real_pipeline) -> dict:
    """case id -> (judgment, direct?) for every judgment citing ``ref`` or an official counterpart of it (a CrPC
    section only in a judgment decided from 1 April 1974, the 1973 Code's commencement)."""
    targets = [(ref, True), *((c, False) for c in real_pipeline.concordance.counterparts(ref))]
    out: dict = {}
    for case in cb.cases:
        j = cb.judgment(case)
        for p in cb.paragraphs(case):
            for t, direct in targets:
                if t.act == "CrPC" and j.date and j.date[:4] < "1974":
                    continue
                if any(_agrees(r, t) for r in p.cites):
                    out[case] = (j, direct or out.get(case, (j, False))[1])
    return out


def _entries(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln[:1].isdigit() and ". " in ln[:4]]


def test_which_judgments_applied_a_section_newest_first(real_pipeline, ref, expected):
    ans = real_pipeline.ask(f"which judgments applied {ref}?")
    assert ans.model == "judgment-lookup"
    entries = _entries(ans.text)
    newest = sorted((j.date for j, _ in expected.values()), reverse=True)[:10]
    assert len(entries) == len(newest) and f"({len(expected)} found" in ans.text
    shown = [next(j for j, _ in expected.values() if j.title in e and long_date(j.date) in e) for e in entries]
    assert [j.date for j in shown] == newest  # newest first, the newest ten
    for e, j in zip(entries, shown):
        direct = expected[j.case_id][1]
        assert f"({j.court}, {long_date(j.date)}; " in e and ("para " in e or "paragraph " in e)
        assert f"It cites {ref}" in e if direct else "the predecessor of" in e
    # each listed decision with its citation (an order cited as an order) and a quoted paragraph
    assert all(citation_of(j) in e for e, j in zip(entries, shown))
    assert all(("; order)" in e) == (j.decision == "order") for e, j in zip(entries, shown))
    # each entry cites the passage holding its quotation: real citations, all verified
    assert [c.marker for c in ans.citations] == list(range(1, len(entries) + 1))
    assert all(c.support == "supported" and c.quote for c in ans.citations)
    assert {h.chunk.case for h in ans.passages} == {j.case_id for j in shown}


def test_a_court_and_year_constrained_question(real_pipeline, ref, expected):
    ans = real_pipeline.ask(f"Which Supreme Court judgments of 2026 applied {ref}?")
    want = sorted((j for j, _ in expected.values() if j.date.startswith("2026") and same_court(SC, j.court)),
                  key=lambda j: j.date, reverse=True)
    entries = _entries(ans.text)
    assert len(entries) == min(10, len(want)) and f"({len(want)} found" in ans.text
    assert all(f"({SC}, " in e and " 2026; " in e for e in entries)
    what = "Judgments and orders" if any(j.decision == "order" for j in want) else "Judgments"
    assert ans.text.startswith(f"{what} in the case base, of the {SC}, decided in 2026, that cite {ref}")
    assert any(n.kind == "filters" and "decided in 2026" in n.text and "\u201cof 2026\u201d" in n.text
               for n in ans.notices)


def test_a_constraint_nothing_matches_says_so(real_pipeline, ref, expected):
    years = {int(j.date[:4]) for j, _ in expected.values() if j.date[:4].isdigit() and same_court(SC, j.court)}
    year = next(y for y in range(1950, 2027) if y not in years)
    ans = real_pipeline.ask(f"Supreme Court judgments on {ref} in {year}")
    assert ans.text.startswith(f"No judgment or order in the case base, of the {SC}, decided in {year}, cites {ref}")
    assert f"Without that constraint, {len(expected)} judgment" in ans.text
    assert not ans.passages and not ans.citations
    assert [n.kind for n in ans.notices] == ["filters"] and "in the sources is" in ans.notices[0].text


def test_a_holding_question_whose_court_and_years_match_nothing(real_pipeline):
    years = {m["year"] for m in real_pipeline.index.metadata().values() if m.get("kind") == "judgment"
             and isinstance(m.get("year"), int)}
    year = next(y for y in range(1950, 2027) if y not in years)
    ans = real_pipeline.ask(f"Which Supreme Court judgments of {year} held that bail is the rule and jail the "
                            "exception?")
    assert not ans.passages and any(n.kind == "filters" and f"decided in {year}" in n.text for n in ans.notices)


def test_an_order_of_the_day_is_cited_as_an_order(real_pipeline, cb):
    """An order of the Supreme Court's orders of the day, listed as applying a new-code section: its entry says
    "order", and the citation every export gives it is the order's ("Order of the Supreme Court dated ... in ..."),
    never a judgment's; RIS, BibTeX and CSL-JSON type it as an order (``T3``, ``type``, ``genre``) and a judgment
    listed beside it as before."""
    import json

    import bibtexparser
    import rispy

    from legal_rag.export import export_answer

    cited = Counter(r for c in cb.cases if cb.judgment(c).decision == "order"
                    for r in cb.case_cites(c) if r.act in NEW_ACTS)
    if not cited:
        pytest.skip("no order of the case base cites a new-code section")
    ref = min(cited, key=lambda r: (-cited[r], str(r)))
    ans = real_pipeline.ask(f"Which orders applied {ref}?")
    entries = [e for e in _entries(ans.text) if "; order)" in e]
    assert entries, ans.text
    assert all("Order of the Supreme Court dated " in e for e in entries)
    records = json.loads(export_answer(ans, "json"))["citations"]
    orders = [r for r in records if r["decision"] == "order"]
    assert orders and all(r["citation"].startswith("Order of the ") and "judgment" not in r["citation"].lower()
                          for r in orders)
    # every reference format types each decision by what it was issued as, titled by its parties and citation
    decision = {f"lr{r['marker']}": r["decision"] for r in records if r["kind"] == "judgment"}
    ris = {e["id"]: e for e in rispy.loads(export_answer(ans, "ris").decode()) if e["id"] in decision}
    bib = {e.key.split("_")[0]: e for e in bibtexparser.parse_string(export_answer(ans, "bibtex").decode()).entries}
    csl = {e["id"]: e for e in json.loads(export_answer(ans, "csl-json")) if e["id"] in decision}
    assert set(ris) == set(csl) == set(decision) <= set(bib)
    for key, what in decision.items():
        bib_type = getattr(bib[key].fields_dict.get("type"), "value", None)
        typed = (ris[key].get("tertiary_title"), bib_type, csl[key].get("genre"))
        assert (typed == ("Order",) * 3) if what == "order" else (typed == (None,) * 3), (key, typed)
        assert ris[key]["type_of_reference"] == "CASE" and bib[key].entry_type == "jurisdiction"
        assert csl[key]["type"] == "legal_case"
        if what == "order":
            assert " Order of the " in ris[key]["title"] and " Order of the " in csl[key]["title"]
            assert "judgment" not in ris[key]["title"].lower()
