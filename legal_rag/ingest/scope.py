"""Which court decisions of a source holding many the product takes: the criminal ones.

legal_rag answers questions of Indian criminal law, so a decision from a bulk source (the Supreme Court's orders of
the day, the Indian Kanoon archive) is taken when one rule of :data:`SCOPE_RULES` holds, tried in order, and
skipped otherwise with :data:`CIVIL_REASON`, counted in the ingest report:

* ``criminal case type`` -- its own case number is of a criminal type: ``SLP (Crl.)``, ``Criminal Appeal``,
  ``W.P. (Crl.)``, ``T.P. (Crl.)``, a High Court's ``Criminal Misc. Bail Application``, ``Bail Application``,
  ``Application U/S 482``;
* ``criminal jurisdiction`` -- its head prints the Court's criminal jurisdiction (``CRIMINAL APPELLATE
  JURISDICTION``, ``CRIMINAL ORIGINAL JURISDICTION``);
* ``cites a criminal code`` -- the project's one citation grammar
  (:func:`legal_rag.ingest.statute_cites.find_statute_refs`) finds a section of the IPC, CrPC, Indian Evidence Act,
  BNS, BNSS or BSA in its text (a civil appeal about a cheque case that quotes "Section 482 CrPC" is taken).

A matrimonial, service, tax, land or arbitration matter that names none of these is skipped: its law is not the
law this product answers from, and its text would only crowd the criminal decisions in retrieval and the case base.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from .statute_cites import find_statute_refs

#: what the ingest report says of a decision no rule takes
CIVIL_REASON = "civil matter: no criminal case type, no criminal jurisdiction, cites none of the six criminal codes"

_CRIMINAL_TYPE = re.compile(
    r"\((?:Crl|Criminal|CRL)\.?\)|\bCrl\.|\bCRL\.|\bCriminal\b|\bBail\b|\bU/S\s*(?:438|439|482|483|528)\b|"
    r"\bAnticipatory\b|\bCRM-M\b|\bMCRC\b|\bBLAPL\b|\bCRLMC\b|\bCRR\b", re.I)
_CRIMINAL_JURISDICTION = re.compile(r"CRIMINAL\s+(?:APPELLATE|ORIGINAL|MISC(?:ELLANEOUS)?\.?)\s+JURISDICTION", re.I)


def _case_type(case_numbers: Sequence[str], head: str, text: str) -> bool:
    return bool(case_numbers) and bool(_CRIMINAL_TYPE.search(case_numbers[0]))


def _jurisdiction(case_numbers: Sequence[str], head: str, text: str) -> bool:
    return bool(_CRIMINAL_JURISDICTION.search(head))


def _cites(case_numbers: Sequence[str], head: str, text: str) -> bool:
    return bool(find_statute_refs(text))


#: the scope rules, in the order tried (module docstring): ``(name, rule(case_numbers, head, text) -> bool)``
SCOPE_RULES: tuple[tuple[str, Callable[[Sequence[str], str, str], bool]], ...] = (
    ("criminal case type", _case_type),
    ("criminal jurisdiction", _jurisdiction),
    ("cites a criminal code", _cites),
)


def criminal_rule(case_numbers: Sequence[str], head: str, text: str) -> str:
    """The name of the first rule of :data:`SCOPE_RULES` that takes the decision, ``""`` when none does (skip it
    with :data:`CIVIL_REASON`). ``case_numbers``: its own case numbers as printed, the first being the matter's;
    ``head``: its first lines; ``text``: all of it.

    ``criminal_rule(("Petition(s) for Special Leave to Appeal (Crl.) No(s). 1592/2026",), "", "") ->
    "criminal case type"``; ``criminal_rule(("Civil Appeal No. 7426/2026",), "", "a dispute over land") -> ""``."""
    for name, rule in SCOPE_RULES:
        if rule(case_numbers, head, text):
            return name
    return ""


__all__ = ["CIVIL_REASON", "SCOPE_RULES", "criminal_rule"]
