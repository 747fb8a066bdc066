"""The judges of a decision, where the print names them: one named rule per form, tried in the order of
:data:`BENCH_RULES`, the first that finds a name wins.

* ``coram`` -- the Supreme Court's records of proceedings and many High Court prints: ``CORAM :`` followed by
  ``HON'BLE MR. JUSTICE J.B. PARDIWALA`` lines (``HON'BLE THE CHIEF JUSTICE`` is kept as ``THE CHIEF JUSTICE``);
* ``scr`` -- Digital Supreme Court Reports: ``[Abhay S. Oka* and Ujjal Bhuyan, JJ.]`` under the date;
* ``hon_ble`` -- the Allahabad High Court's orders: ``Hon'ble Rajeev Misra,J.``;
* ``signatures`` -- the Supreme Court's signed copies: the names printed under the ``....J.`` / ``....CJI.`` lines
  at the foot, ``[SANJAY KUMAR]`` or ``(SURYA KANT)``.

Names are as printed (whitespace collapsed, the SCR's author asterisk and a trailing ``J.`` dropped), in printed
order, unique. ``read_bench(head, tail) -> tuple[str, ...]``; ``()`` when no rule finds one.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

_JUSTICE = re.compile(r"HON['’`]?\s*BLE\s+(?:(?:MR|MS|MRS|DR)\.?\s+)?(?:JUSTICE|THE\s+(?P<chief>CHIEF\s+JUSTICE))[ \t]*(?P<name>[^\n]*)",
                      re.I)
_SCR = re.compile(r"^\s*\[(?P<names>[^\[\]]{3,200}?),?\s*(?:JJ?|CJI)\.\s*\]\s*$", re.M)
_HONBLE_J = re.compile(r"^\s*Hon['’`]?ble\s+(?:(?:Mr|Ms|Mrs|Dr)s?\.?\s+)?(?:Justice\s+)?(?P<name>[^,\n]{3,60}?)\s*,\s*J\.?\s*$",
                       re.I | re.M)
_SIGN_LINE = re.compile(r"^\s*[.…]{4,}\s*,?\s*(?:J|CJI)\.?\s*$", re.M)
_SIGN_NAME = re.compile(r"^\s*[\[\(]\s*(?P<name>[A-Z][A-Z .'’-]{2,60}?)\s*[\]\)]\s*$")


def _clean(name: str) -> str:
    name = re.sub(r"\s+", " ", name.replace("*", "")).strip(" .,;:")
    return re.sub(r",?\s*J\.?$", "", name).strip(" .,")


def _unique(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n for n in (_clean(x) for x in names) if n and len(n) >= 3 and n.upper() != "CJI"))


def _coram(head: str, tail: str) -> tuple[str, ...]:
    at = re.search(r"\bCORAM\s*:?", head, re.I)
    if not at:
        return ()
    names = []
    for m in _JUSTICE.finditer(head[at.end():at.end() + 600]):
        names.append("THE CHIEF JUSTICE" if m.group("chief") else m.group("name"))
    return _unique(names)


def _scr(head: str, tail: str) -> tuple[str, ...]:
    m = _SCR.search(head)
    return _unique(re.split(r"\s*,\s*|\s+and\s+", m.group("names"), flags=re.I)) if m else ()


def _hon_ble(head: str, tail: str) -> tuple[str, ...]:
    return _unique([m.group("name") for m in _HONBLE_J.finditer(head)])


def _signatures(head: str, tail: str) -> tuple[str, ...]:
    lines = tail.splitlines()
    names = []
    for i, ln in enumerate(lines):
        if _SIGN_LINE.match(ln):
            for nxt in lines[i + 1:i + 3]:
                m = _SIGN_NAME.match(nxt)
                if m:
                    names.append(m.group("name"))
                    break
    return _unique(names)


#: the bench's forms, in the order tried (module docstring)
BENCH_RULES: tuple[tuple[str, Callable[[str, str], tuple[str, ...]]], ...] = (
    ("coram", _coram), ("scr", _scr), ("hon_ble", _hon_ble), ("signatures", _signatures),
)


def read_bench(head: str, tail: str = "") -> tuple[str, ...]:
    """The judges named in ``head`` (the decision's first lines) or, by its signatures, ``tail`` (its last lines).

    ``read_bench("CORAM :\\n HON'BLE MR. JUSTICE PRASHANT KUMAR MISHRA\\n HON'BLE MR. JUSTICE ATUL S. CHANDURKAR")
    -> ("PRASHANT KUMAR MISHRA", "ATUL S. CHANDURKAR")``; ``read_bench("[Abhay S. Oka* and Ujjal Bhuyan, JJ.]")
    -> ("Abhay S. Oka", "Ujjal Bhuyan")``."""
    for _, rule in BENCH_RULES:
        found = rule(head, tail)
        if found:
            return found
    return ()


__all__ = ["BENCH_RULES", "read_bench"]
