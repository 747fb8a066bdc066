"""Filters.of: the documented keys, their aliases, and a named error for anything else (BL-53: the UI sent
``codes`` while the class took ``code``, and every use crashed with a TypeError)."""

from __future__ import annotations

import pytest

from legal_rag.errors import FilterError, LegalRagError
from legal_rag.retrieve import Filters
from legal_rag.retrieve.filters import ALIASES, KEYS


def test_documented_keys_and_aliases():
    assert Filters.of({"codes": "new"}) == Filters.of({"code": "new"}) == Filters(code="new")
    assert Filters.of({"acts": ["IPC", "BNS"]}) == Filters.of({"act": ("IPC", "BNS")}) == Filters(act=("IPC", "BNS"))
    assert Filters.of({"act": "BNS"}) == Filters(act=("BNS",))
    assert Filters.of({"year": 2019}) == Filters(year_from=2019, year_to=2019)
    assert Filters.of({"year_from": "2000", "year_to": 2010}) == Filters(year_from=2000, year_to=2010)
    assert Filters.of({"kind": "judgment", "court": "Supreme Court of India"}) == \
        Filters(kind="judgment", court="Supreme Court of India")
    assert Filters.of({"code": "both", "act": [], "kind": ""}).is_empty()  # the UI's "both": no filter
    assert Filters.of(None) is None and Filters.of(Filters(code="old")) == Filters(code="old")
    assert set(KEYS) == {"act", "code", "kind", "court", "year_from", "year_to"} and ALIASES["codes"] == "code"


@pytest.mark.parametrize("bad, named", [
    ({"cdoe": "new"}, "'cdoe'"),
    ({"section": "420"}, "'section'"),
    ({"act": "XYZ"}, "act='XYZ'"),
    ({"act": ["BNS", 3]}, "act="),
    ({"code": "newest"}, "code='newest'"),
    ({"codes": "newest"}, "code='newest'"),
    ({"kind": "order"}, "kind='order'"),
    ({"year_from": "last year"}, "year_from='last year'"),
    ({"year": True}, "year=True"),
    ({"year_to": "२०२०"}, "year_to="),  # non-ASCII digits are not a year here either
    ({"code": "new", "codes": "old"}, "given twice"),
    (["code", "new"], "must be an object"),
    ({"year_from": 2020, "year_to": 2010}, "year_from=2020 is after year_to=2010"),
])
def test_bad_filters_are_refused_by_name(bad, named):
    with pytest.raises(FilterError, match=None) as info:
        Filters.of(bad)
    assert named in str(info.value)
    assert isinstance(info.value, LegalRagError)


def test_as_dict_round_trips():
    f = Filters(act=("IPC",), code="old", kind="statute", year_from=1990)
    assert f.as_dict() == {"act": ["IPC"], "code": "old", "kind": "statute", "year_from": 1990}
    assert Filters.of(f.as_dict()) == f
