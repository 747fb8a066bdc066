"""Explicit section references in a query, for direct look-up by metadata.

A small local grammar, used until ``legal_rag.law.refs.find_refs`` (the project's full citation grammar) is
available; when it is importable, :func:`query_refs` uses it instead. Only references that name an Act, or
that carry a section marker (``s.``, ``sec``, ``section``, ``u/s``), are returned; a marker without an Act gives
``act=None`` (the section is looked up in every Act that has it). A bare number is never a reference.

``query_refs("punishment under IPC 420") -> [("IPC", "420", ())]``
``query_refs("s. 498-A") -> [(None, "498A", ())]``
``query_refs("BNS 318(4)") -> [("BNS", "318", ("4",))]``
"""

from __future__ import annotations

import re

_ACTS = [
    ("BNSS", r"BNSS|B\.N\.S\.S\.?|Bharatiya\s+Nagarik\s+Suraksha\s+Sanhita"),
    ("BNS", r"BNS|B\.N\.S\.?|Bharatiya\s+Nyaya\s+Sanhita"),
    ("BSA", r"BSA|B\.S\.A\.?|Bharatiya\s+Sakshya\s+Adhiniyam"),
    ("CrPC", r"Cr\.?\s?P\.?\s?C\.?|Code\s+of\s+Criminal\s+Procedure"),
    ("IPC", r"I\.?\s?P\.?\s?C\.?|Indian\s+Penal\s+Code|Penal\s+Code"),
    ("IEA", r"IEA|I\.E\.A\.?|(?:Indian\s+)?Evidence\s+Act"),
]
_ACT = "|".join(f"(?P<{code}>{rx})" for code, rx in _ACTS)
_NUM = r"(?P<num>\d{1,3})(?:\s*-\s*|\s?)(?P<let>[A-Z]{1,2})?(?![\w])(?P<subs>(?:\s?\(\s*\w{1,4}\s*\))*)"
_MARK = r"(?:sections?|secs?\.?|ss?\.|u/s\.?|under\s+section)"
_ACT_FIRST = re.compile(rf"\b(?:{_ACT})\s*,?\s*(?:{_MARK}\s*)?{_NUM}", re.I)
_NUM_FIRST = re.compile(rf"(?:\b{_MARK}\s*)?{_NUM}\s*,?\s*(?:of\s+(?:the\s+)?)?(?:{_ACT})\b", re.I)
_MARKED = re.compile(rf"\b{_MARK}\s*{_NUM}", re.I)


def _ref(m: re.Match) -> tuple[str | None, str, tuple[str, ...]]:
    act = next((code for code, _ in _ACTS if m.group(code)), None) if "IPC" in m.re.groupindex else None
    section = m.group("num") + (m.group("let") or "").upper()
    subs = tuple(s.strip() for s in re.findall(r"\(\s*(\w+)\s*\)", m.group("subs") or ""))
    return act, section, subs


def query_refs(query: str) -> list[tuple[str | None, str, tuple[str, ...]]]:
    """``(act or None, section, sub-section path)`` for each explicit reference, in order of appearance.

    Uses ``legal_rag.law.refs.find_refs`` when it imports (status ``ok`` -> its Act; ``ambiguous`` -> each
    reading), else :func:`local_refs`."""
    try:
        from ..law.refs import find_refs
    except ImportError:
        return local_refs(query)
    out: list[tuple] = []
    for f in find_refs(query):
        if f.status == "ok" and f.ref is not None:
            cands = [(f.ref.act, f.ref.section, tuple(f.ref.sub))]
        elif f.status == "ambiguous":
            cands = [(r.act, r.section, tuple(r.sub)) for r in f.readings]
        else:
            cands = []
        out.extend(c for c in cands if c not in out)
    return out


def local_refs(query: str) -> list[tuple[str | None, str, tuple[str, ...]]]:
    """The local grammar (module docstring)."""
    found: list[tuple[int, tuple]] = []
    taken: list[tuple[int, int]] = []
    for rx in (_ACT_FIRST, _NUM_FIRST, _MARKED):
        for m in rx.finditer(query):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), _ref(m)))
    out: list[tuple] = []
    for _, r in sorted(found):
        if r not in out:
            out.append(r)
    return out
