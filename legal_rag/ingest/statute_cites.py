"""Statute sections cited in a judgment paragraph.

Uses ``legal_rag.law.refs.find_refs`` (the project's citation grammar, statuses ``ok`` only); when that module or
its section lists are unavailable a local pattern covers the common forms: "Section 302/34 IPC", "s. 437(3) of the CrPC", "u/s 498-A I.P.C.",
"Sections 406 and 420 of the Indian Penal Code", "Section 27 of the Evidence Act", "BNSS s.482" is not covered
(act before number). Only references naming one of the six Acts of :data:`legal_rag.types.ACTS` are kept, and a
section above the Act's last one (IPC 511, CrPC 484, IEA 167, BNS 358, BNSS 531, BSA 170) is dropped.
"""

from __future__ import annotations

import re

from ..errors import LegalRagError
from ..types import StatuteRef

LAST_SECTION = {"IPC": 511, "CrPC": 484, "IEA": 167, "BNS": 358, "BNSS": 531, "BSA": 170}

_ACT = (
    r"(?P<act>I\.?\s?P\.?\s?C\b\.?|Indian\s+Penal\s+Code|Penal\s+Code|Cr\.?\s?P\.?\s?C\b\.?|Code\s+of\s+Criminal\s+Procedure"
    r"|Criminal\s+Procedure\s+Code|(?:Indian\s+)?Evidence\s+Act|BNSS\b|BNS\b|BSA\b|Bharatiya\s+Nyaya\s+Sanhita"
    r"|Bharatiya\s+Nagarik\s+Suraksha\s+Sanhita|Bharatiya\s+Sakshya\s+Adhiniyam)"
)
_N = r"\d{1,3}\s?-?\s?[A-Z]{0,2}\b(?:\s?\(\s?\w{1,4}\s?\))*"
_REF = re.compile(
    rf"\b(?:Sections?|Secs?\.?|Ss?\.|u/ss?\.?|under)\s*(?P<list>{_N}(?:\s*(?:,|/|and|&|or|r/w|read\s+with)\s*"
    rf"(?:Sections?\s*|Ss?\.\s*)?{_N})*)\s*\.?\s*(?:of\s+(?:the\s+)?)?{_ACT}",
    re.I,
)
_ONE = re.compile(r"(\d{1,3})\s?-?\s?([A-Z]{0,2})\b((?:\s?\(\s?\w{1,4}\s?\))*)", re.I)


def _act_code(name: str) -> str:
    n = re.sub(r"[^a-z]", "", name.lower())
    if n in {"ipc", "indianpenalcode", "penalcode"}:
        return "IPC"
    if n in {"crpc", "codeofcriminalprocedure", "criminalprocedurecode"}:
        return "CrPC"
    if n.endswith("evidenceact"):
        return "IEA"
    return {"bns": "BNS", "bnss": "BNSS", "bsa": "BSA", "bharatiyanyayasanhita": "BNS",
            "bharatiyanagariksurakshasanhita": "BNSS", "bharatiyasakshyaadhiniyam": "BSA"}.get(n, "")


def _local_refs(text: str) -> tuple[StatuteRef, ...]:
    out: list[StatuteRef] = []
    for m in _REF.finditer(text):
        act = _act_code(m.group("act"))
        if not act:
            continue
        for n in _ONE.finditer(m.group("list")):
            num, letters, subs = int(n.group(1)), n.group(2).upper(), n.group(3)
            if letters in {"OF", "OR", "AN", "R", "RW"} or not 1 <= num <= LAST_SECTION[act]:
                continue
            sub = tuple(re.findall(r"\(\s?(\w{1,4})\s?\)", subs))
            ref = StatuteRef(act, f"{num}{letters}", sub)
            if ref not in out:
                out.append(ref)
    return tuple(out)


def find_statute_refs(text: str) -> tuple[StatuteRef, ...]:
    """Distinct :class:`StatuteRef` cited in ``text`` (status ``ok`` only: an Act is named), in order of first
    mention. ``find_statute_refs("offence under Section 420 read with Section 120B IPC") ->
    (StatuteRef("IPC", "420"), StatuteRef("IPC", "120B"))``.
    """
    try:
        from ..law.refs import find_refs, refs_of
    except ImportError:  # the citation grammar is not installed: local pattern
        return _local_refs(text)
    try:
        return refs_of(find_refs(text))
    except LegalRagError:  # section lists unreadable (corpus elsewhere): local pattern
        return _local_refs(text)
