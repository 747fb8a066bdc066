"""Metadata filters: act, old/new code, document kind, court, year.

``Filters(act=("BNS",), kind="statute")`` keeps BNS sections; ``Filters(code="old")`` keeps IPC/CrPC/IEA;
``Filters(court="Supreme Court of India", year_from=2000)`` keeps judgments of that court from 2000 on.
The same filter is applied to the dense search (a Chroma ``where`` clause), to the sparse search (an allowed-id
mask) and to section look-ups, so every route obeys it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Filters:
    act: tuple[str, ...] = ()
    code: str | None = None  # "old" | "new"
    kind: str | None = None  # "statute" | "judgment"
    court: str | None = None
    year_from: int | None = None
    year_to: int | None = None

    def __post_init__(self):
        if self.code not in (None, "old", "new"):
            raise ValueError(f"filter code={self.code!r}: must be 'old' or 'new'")
        if self.kind not in (None, "statute", "judgment"):
            raise ValueError(f"filter kind={self.kind!r}: must be 'statute' or 'judgment'")

    @classmethod
    def of(cls, f: "Filters | Mapping[str, Any] | None") -> "Filters | None":
        """Accept a Filters, a plain dict (``{"act": "BNS"}`` or ``{"act": ["IPC", "BNS"]}``) or None."""
        if f is None or isinstance(f, Filters):
            return f
        d = dict(f)
        if isinstance(d.get("act"), str):
            d["act"] = (d["act"],)
        elif "act" in d:
            d["act"] = tuple(d["act"])
        return cls(**d)

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
        if self.court:
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
        for k in ("code", "kind", "court"):
            want = getattr(self, k)
            if want is not None and meta.get(k) != want:
                return False
        year = meta.get("year")
        if self.year_from is not None and (year is None or year < self.year_from):
            return False
        if self.year_to is not None and (year is None or year > self.year_to):
            return False
        return True
