"""Filters checked against the index (issue 16 (c)): a court matched regardless of case; a filter that can match
nothing is refused with the reason, never answered as "not in the sources"."""

import pytest

from legal_rag.errors import FilterError
from legal_rag.retrieve.filters import Filters, describe, judgments_only, resolve

META = {
    "s1": {"kind": "statute", "act": "BNS", "code": "new", "source": "bns.pdf"},
    "s2": {"kind": "statute", "act": "IPC", "code": "old", "source": "ipc.pdf"},
    "j1": {"kind": "judgment", "court": "Supreme Court of India", "year": 2020, "source": "a.pdf"},
    "j2": {"kind": "judgment", "court": "High Court of Delhi", "year": 2024, "source": "b.pdf"},
}


def test_empty_and_plain_filters_pass_unchanged():
    assert resolve(None, META) is None
    assert resolve(Filters(), META) == Filters()
    assert resolve(Filters(act=("BNS",)), META) == Filters(act=("BNS",))


@pytest.mark.parametrize("typed", ["supreme court of india", "SUPREME  COURT OF INDIA", "Supreme Court of India."])
def test_court_matched_regardless_of_case_dots_and_spaces(typed):
    assert resolve(Filters(court=typed), META).court == "Supreme Court of India"


def test_unknown_court_names_the_courts_held():
    with pytest.raises(FilterError) as e:
        resolve(Filters(court="Madras High Court"), META)
    msg = str(e.value)
    assert "court='Madras High Court'" in msg and "High Court of Delhi; Supreme Court of India" in msg


@pytest.mark.parametrize("typed, held", [("Supreme Court", "Supreme Court of India"), ("SC", "Supreme Court of India"),
                                         ("Delhi High Court", "High Court of Delhi"), ("Delhi HC", "High Court of Delhi")])
def test_court_read_by_the_table_of_court_names(typed, held):
    assert resolve(Filters(court=typed), META).court == held


def test_a_level_keeps_every_court_of_it():
    meta = {**META, "j3": {"kind": "judgment", "court": "Allahabad High Court", "year": 2025, "source": "c.txt"}}
    f = resolve(Filters(court="High Court"), meta)
    assert f.court_names == ("Allahabad High Court", "High Court of Delhi")
    assert f.where() == {"court": {"$in": ["Allahabad High Court", "High Court of Delhi"]}}
    assert [k for k, m in meta.items() if f.matches(m)] == ["j2", "j3"]
    assert "court_names" not in f.as_dict()


def test_a_question_s_court_and_years_narrow_the_request_s_filters():
    from legal_rag.retrieve.filters import constrained

    assert constrained(None, "Delhi High Court", 2025, 2025) == Filters(court="Delhi High Court", year_from=2025,
                                                                         year_to=2025)
    # the narrower court and the later / earlier bounds win
    assert constrained(Filters(court="High Court", year_from=2020), "Delhi High Court", 2024, None) == \
        Filters(court="Delhi High Court", year_from=2024)
    assert constrained(Filters(court="Delhi High Court", year_to=2025), "High Court", None, 2024) == \
        Filters(court="Delhi High Court", year_to=2024)
    with pytest.raises(FilterError):
        constrained(Filters(court="Supreme Court of India"), "Delhi High Court")
    with pytest.raises(FilterError):
        constrained(Filters(year_from=2025), None, None, 2020)


def test_unknown_court_lists_the_courts_most_passages_come_from_first():
    """With more courts than are shown (the High Courts of the bulk judgment sources), the twelve that most
    passages come from are named, the rest counted."""
    meta = dict(META, **{f"hc{i}": {"kind": "judgment", "court": f"High Court {chr(65 + i)}", "year": 2024}
                         for i in range(14)})
    meta.update({f"sc{i}": {"kind": "judgment", "court": "Supreme Court of India", "year": 2020} for i in range(3)})
    with pytest.raises(FilterError) as e:
        resolve(Filters(court="Supreme Court of Narnia"), meta)
    msg = str(e.value)
    assert "the courts in the index are: Supreme Court of India; High Court A; High Court B;" in msg
    assert msg.endswith("High Court K … (16 in all)")


def test_years_that_match_nothing_say_what_is_held():
    with pytest.raises(FilterError) as e:
        resolve(Filters(year_from=2021, year_to=2023), META)
    assert "years 2021-2023" in str(e.value) and "from 2020-2024" in str(e.value)
    assert "keeps judgments only" in str(e.value)
    with pytest.raises(FilterError) as e:
        resolve(Filters(court="high court of delhi", year_to=2020), META)
    assert "of that court are from 2024-2024" in str(e.value)
    assert resolve(Filters(year_from=2024), META) == Filters(year_from=2024)


def test_a_combination_that_keeps_nothing():
    with pytest.raises(FilterError, match="Acts BNS, old codes"):
        resolve(Filters(act=("BNS",), code="old"), META)


def test_judgments_only_and_describe():
    assert judgments_only(Filters(year_from=2000)) and judgments_only(Filters(court="x"))
    assert judgments_only(Filters(kind="judgment")) and not judgments_only(Filters(act=("BNS",)))
    assert not judgments_only(None)
    assert describe(Filters(court="Supreme Court of India", year_from=2019, year_to=2019)) == \
        "court 'Supreme Court of India', year 2019"


def test_the_reason_names_the_filter_that_keeps_judgments_only():
    with pytest.raises(FilterError) as e:
        resolve(Filters(act=("BNS",), kind="judgment"), META)
    msg = str(e.value)
    assert "kind=judgment keeps judgments only, and Acts or codes name statutes" in msg
    assert "court or year" not in msg


def test_kept_allowed_ids_give_the_same_verdict_as_the_scan():
    calls = []

    def allowed(f):
        calls.append(f)
        return frozenset(cid for cid, m in META.items() if f.matches(m))

    assert resolve(Filters(court="supreme court of india"), META, allowed=allowed).court == "Supreme Court of India"
    with pytest.raises(FilterError, match="years 2021-2023"):
        resolve(Filters(year_from=2021, year_to=2023), META, allowed=allowed)
    assert calls == [Filters(court="Supreme Court of India"), Filters(year_from=2021, year_to=2023)]
