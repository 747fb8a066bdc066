"""Metadata filters: act, old/new code, document kind, court, year.

``Filters(act=("BNS",), kind="statute")`` keeps BNS sections; ``Filters(code="old")`` keeps IPC/CrPC/IEA;
``Filters(court="Supreme Court of India", year_from=2000)`` keeps judgments of that court from 2000 on. A court is
matched by the one table of court names (:func:`legal_rag.law.same_court`: "Delhi High Court" keeps the judgments
whose header says "High Court of Delhi"; "High Court" keeps every High Court's); :func:`resolve` turns it into the
indexed courts' own spellings (``court_names``).
The same filter is applied to the dense search (a Chroma ``where`` clause), to the sparse search (an allowed-id
mask) and to section look-ups, so every route obeys it.

The dict form (what ``Pipeline.ask``, the UI and ``POST /api/ask`` take) is read by :meth:`Filters.of`; its keys
are :data:`KEYS` plus the aliases in :data:`ALIASES` (``codes`` is ``code``, ``acts`` is ``act``; ``year`` is one
year, both bounds). Any other key, or a value a key cannot take, raises :class:`~legal_rag.errors.FilterError`
naming it -- never a ``TypeError`` from the constructor, so a caller that sends a misspelt key (``codes`` for
``code``) is told which key.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from typing import Any, Callable, Collection, Mapping

from ..errors import FilterError
from ..law import same_court
from ..types import ACTS

#: the documented keys of the dict form, each a field of :class:`Filters`
KEYS: tuple[str, ...] = ("act", "code", "kind", "court", "year_from", "year_to")
#: other spellings accepted for a key (``year`` sets both bounds)
ALIASES: dict[str, str] = {"acts": "act", "codes": "code", "year": "year"}


def _year(key: str, v: Any) -> int | None:
    if v is None or v == "":
        return None
    if isinstance(v, bool) or not isinstance(v, (int, str)) or not str(v).strip().isascii() \
            or not str(v).strip().isdigit():
        raise FilterError(f"filter {key}={v!r}: must be a year such as 2000")
    return int(v)


@dataclass(frozen=True)
class Filters:
    """``court``: a court as asked (module docstring); ``court_names``: the indexed courts' names it stands for, set
    by :func:`resolve` (empty: matched through the table); years inclusive."""

    act: tuple[str, ...] = ()
    code: str | None = None  # "old" | "new"
    kind: str | None = None  # "statute" | "judgment"
    court: str | None = None
    year_from: int | None = None
    year_to: int | None = None
    court_names: tuple[str, ...] = ()

    def __post_init__(self):
        if self.code not in (None, "old", "new"):
            raise FilterError(f"filter code={self.code!r}: must be 'old' or 'new' (or 'both' for no filter)")
        if self.kind not in (None, "statute", "judgment"):
            raise FilterError(f"filter kind={self.kind!r}: must be 'statute' or 'judgment'")
        bad = [a for a in self.act if a not in ACTS]
        if bad:
            raise FilterError(f"filter act={bad[0]!r}: must be one of {', '.join(ACTS)}")
        if self.court is not None and not isinstance(self.court, str):
            raise FilterError(f"filter court={self.court!r}: must be a court's name")
        if self.year_from is not None and self.year_to is not None and self.year_from > self.year_to:
            raise FilterError(f"filter year_from={self.year_from} is after year_to={self.year_to}: nothing could match")

    @classmethod
    def of(cls, f: "Filters | Mapping[str, Any] | None") -> "Filters | None":
        """Accept a Filters, a plain dict or None.

        ``Filters.of({"act": "BNS"})``, ``Filters.of({"act": ["IPC", "BNS"]})``, ``Filters.of({"codes": "new"}) ==
        Filters(code="new")``, ``Filters.of({"year": 2019}) == Filters(year_from=2019, year_to=2019)``; ``code``
        ``"both"`` (the UI's radio) and empty values mean no filter. Raises :class:`FilterError` naming an unknown
        key (``{"cdoe": "new"}``) or a bad value (``{"act": "XYZ"}``, ``{"code": "newest"}``)."""
        if f is None or isinstance(f, Filters):
            return f
        if not isinstance(f, Mapping):
            raise FilterError(f"filters must be an object with the keys {', '.join(KEYS)}; got {type(f).__name__}")
        d: dict[str, Any] = {}
        for key, value in f.items():
            name = ALIASES.get(key, key)
            if name not in KEYS and name != "year":
                raise FilterError(f"unknown filter key {key!r}: use {', '.join(KEYS)} (or codes, acts, year)")
            if name == "year":
                d["year_from"] = d["year_to"] = _year(key, value)
            elif name in d:
                raise FilterError(f"filter {key!r} given twice (as {name!r} too)")
            else:
                d[name] = value
        act = d.get("act")
        if act is None or act == "":
            d["act"] = ()
        elif isinstance(act, str):
            d["act"] = (act,)
        elif isinstance(act, (list, tuple)) and all(isinstance(a, str) for a in act):
            d["act"] = tuple(act)
        else:
            raise FilterError(f"filter act={act!r}: must be an Act or a list of Acts ({', '.join(ACTS)})")
        if d.get("code") in ("both", "", None):
            d["code"] = None
        for k in ("kind", "court"):
            if d.get(k) == "":
                d[k] = None
        for k in ("year_from", "year_to"):
            d[k] = _year(k, d.get(k))
        return cls(**{k: v for k, v in d.items() if k in {fl.name for fl in fields(cls)}})

    def as_dict(self) -> dict[str, Any]:
        """The dict form with only the keys that filter (``Filters(code="new").as_dict() == {"code": "new"}``)."""
        return {f.name: (list(v) if isinstance(v, tuple) else v) for f in fields(self)
                if f.name in KEYS and (v := getattr(self, f.name)) not in (None, ())}

    def is_empty(self) -> bool:
        return self == Filters()

    def where(self) -> dict | None:
        """The Chroma ``where`` clause (None when empty)."""
        conds: list[dict] = []
        if self.act:
            conds.append({"act": {"$in": list(self.act)}})
        if self.code:
            conds.append({"code": self.code})
        if self.kind:
            conds.append({"kind": self.kind})
        if self.court_names:
            conds.append({"court": {"$in": list(self.court_names)}})
        elif self.court:
            conds.append({"court": self.court})
        if self.year_from is not None:
            conds.append({"year": {"$gte": self.year_from}})
        if self.year_to is not None:
            conds.append({"year": {"$lte": self.year_to}})
        if not conds:
            return None
        return conds[0] if len(conds) == 1 else {"$and": conds}

    def matches(self, meta: Mapping[str, Any]) -> bool:
        """Whether a chunk's metadata (``legal_rag.index.chunk_metadata``) passes."""
        if self.act and meta.get("act") not in self.act:
            return False
        for k in ("code", "kind"):
            want = getattr(self, k)
            if want is not None and meta.get(k) != want:
                return False
        if self.court is not None:
            got = meta.get("court")
            if not got or not (got in self.court_names if self.court_names else same_court(self.court, got)):
                return False
        year = meta.get("year")
        if self.year_from is not None and (year is None or year < self.year_from):
            return False
        if self.year_to is not None and (year is None or year > self.year_to):
            return False
        return True


def constrained(f: Filters | None, court: str | None = None, year_from: int | None = None,
                year_to: int | None = None) -> Filters:
    """``f`` (``None``: no filter) narrowed to judgments of ``court`` from ``year_from`` to ``year_to`` (a judgment
    question's own constraint, :func:`legal_rag.law.read_constraint`): the later lower bound, the earlier upper
    bound; a court ``f`` already names is kept when it is the same court (or a court of the level asked). Raises
    :class:`FilterError` when the two can keep nothing together (two different courts, years that do not meet)."""
    from dataclasses import replace

    f = f or Filters()
    if court is not None and f.court is not None and not (same_court(court, f.court) or same_court(f.court, court)):
        raise FilterError(f"filter court={f.court!r} and the question's court {court!r}: nothing could match")
    lo = max((y for y in (f.year_from, year_from) if y is not None), default=None)
    hi = min((y for y in (f.year_to, year_to) if y is not None), default=None)
    if court is not None and f.court is not None and same_court(court, f.court):
        court = None  # the filter's court is the same, or a court of the level the question asks for
    return replace(f, court=court or f.court, court_names=() if court else f.court_names, year_from=lo, year_to=hi)


def judgments_only(f: Filters | None) -> bool:
    """True when ``f`` can keep judgments only: a court or a year is named (a statute has neither), or
    ``kind="judgment"``."""
    return f is not None and (f.kind == "judgment" or f.court is not None or f.year_from is not None
                              or f.year_to is not None)


def judgments_only_notice(f: Filters) -> str:
    """What an answer that found nothing says when ``f`` keeps judgments only (:func:`judgments_only`)."""
    return f"The filters ({describe(f)}) keep judgments only: no statute was searched."


def describe(f: Filters) -> str:
    """``f`` in words for a message: ``court 'Supreme Court of India', years 2019-2020``."""
    parts = []
    if f.act:
        parts.append("Acts " + ", ".join(f.act))
    if f.code:
        parts.append(f"{f.code} codes")
    if f.kind:
        parts.append(f"{f.kind}s only")
    if f.court:
        parts.append(f"court {f.court!r}")
    if f.year_from is not None or f.year_to is not None:
        lo, hi = f.year_from, f.year_to
        parts.append(f"year {lo}" if lo == hi else f"years {lo if lo is not None else '…'}-{hi if hi is not None else '…'}")
    return ", ".join(parts) or "no filter"


def resolve(f: Filters | None, metadata: Mapping[str, Mapping[str, Any]],
            allowed: Callable[[Filters], Collection[str]] | None = None) -> Filters | None:
    """``f`` checked against the index's chunk metadata (``chunk id -> legal_rag.index.chunk_metadata``).

    A court is matched without regard to case, dots and spacing ("supreme court of india" is the index's "Supreme
    Court of India"), and by the table of court names (:func:`legal_rag.law.same_court`: "SC" and "Supreme Court"
    are the Supreme Court of India, "High Court" is every High Court held); one indexed court becomes ``court``
    itself, several (a level, or one court spelt two ways) ``court_names``. Raises :class:`FilterError`, naming
    the filter and what the index does hold, when the filter can match no indexed chunk: an unknown court (the
    courts in the index are listed, those most passages come from first, twelve at most), years no indexed judgment
    falls in (the span of years held is given), or a combination that keeps nothing. The error is the reason, so an
    empty answer is never blamed on the sources when the filter emptied them. ``allowed(f)``: the ids a filter
    keeps, when the caller keeps them (the served index's
    :meth:`legal_rag.index.Index.allowed_ids`, computed once per filter), instead of a scan of ``metadata``."""
    if f is None or f.is_empty():
        return f
    if f.court is not None:
        held = Counter(m["court"] for m in metadata.values() if m.get("court"))
        courts = sorted(held, key=lambda c: (-held[c], c))  # the courts most passages come from first
        same = [c for c in courts if same_court(f.court, c)]
        if not same:
            shown = "; ".join(courts[:12]) + (f" … ({len(courts)} in all)" if len(courts) > 12 else "")
            raise FilterError(f"filter court={f.court!r}: no indexed judgment is of that court; the courts in the "
                              f"index are: {shown or 'none (no judgment is indexed)'}")
        from dataclasses import replace

        f = replace(f, court=same[0], court_names=()) if len(same) == 1 else replace(f, court_names=tuple(same))
    if not (allowed(f) if allowed is not None else any(f.matches(m) for m in metadata.values())):
        years = sorted(m["year"] for m in metadata.values() if isinstance(m.get("year"), int)
                       and (f.court is None or m.get("court") in (f.court_names or (f.court,))))
        held = f"; indexed judgments{' of that court' if f.court else ''} are from {years[0]}-{years[-1]}" \
            if years else ""
        why = ""
        if judgments_only(f):
            keeps = "kind=judgment" if f.kind == "judgment" and not (f.court or f.year_from or f.year_to) else \
                "a court or year filter"
            why = f"; {keeps} keeps judgments only" + (", and Acts or codes name statutes" if f.act or f.code else "")
        raise FilterError(f"the filters ({describe(f)}) match no indexed passage{held}{why}")
    return f
