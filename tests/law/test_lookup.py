"""Look-up: three code pairs, both directions, section texts attached when given."""

import time

import pytest

from legal_rag.errors import RefError
from legal_rag.law import format_lookup, lookup
from legal_rag.types import Section
from legal_rag.types import StatuteRef as R


def _sec(ref, title):
    return Section(ref, title, f"text of {ref}", "test", (1, 1))


@pytest.mark.parametrize("query, target", [
    ("IPC 420", "BNS 318(4)"), ("BNS 318(4)", "IPC 420"), ("Section 482 CrPC", "BNSS 528"), ("BNSS 528", "CrPC 482"),
    ("65-B of the Evidence Act", "BSA 63"), ("BSA 63", "IEA 65B"),
])
def test_both_directions(conc, query, target):
    r = lookup(query, conc)
    assert r.status == "ok" and target in map(str, r.correspondence.targets)


def test_section_texts_are_attached(conc):
    sections = {R("IPC", "420"): _sec(R("IPC", "420"), "Cheating"), R("BNS", "318"): _sec(R("BNS", "318"), "Cheating")}
    r = lookup(R("IPC", "420"), conc, sections)
    assert r.section.title == "Cheating" and r.counterparts == ((R("BNS", "318", ("4",)), sections[R("BNS", "318")]),)
    assert "BNS 318(4)" in format_lookup(r) and "#453" in format_lookup(r)


def test_ambiguous_lookup_lists_readings(conc):
    r = lookup("302", conc)
    assert r.status == "ambiguous" and [x.ref for x in r.readings][0] == R("IPC", "302")


def test_no_reference_raises(conc):
    with pytest.raises(RefError):
        lookup("hello", conc)


def test_lookup_is_fast_without_a_model(conc):
    t = time.perf_counter()
    for q in ("IPC 420", "BNS 103", "CrPC 438", "IEA 27") * 25:
        lookup(q, conc)
    print(f"\nlookup: {(time.perf_counter() - t) * 10:.2f} ms per query (100 queries)")


def test_an_ambiguous_lookup_gives_its_readings_in_the_order_asked_for_and_says_how(conc):
    """``order`` decides the readings' order and its words end the message (the pipeline passes the case base's)."""
    def order(refs):
        return tuple(sorted(refs, key=lambda r: r.act != "BNS")), "BNS first"
    r = lookup("302", conc, order=order)
    assert r.readings[0].ref == R("BNS", "302") and r.message.endswith(", BNS first")
