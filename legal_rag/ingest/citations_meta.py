"""Dates, law-report citations and case numbers as printed in Indian judgments.

Pure functions over text; no I/O. The forms follow the prints found in the corpus:

* neutral citations of the Supreme Court since 2023: ``2024 INSC 479``;
* Supreme Court Reports: ``[2024] 7 S.C.R. 97``, ``[1994] Supp. 4 SCR 386``, JUDIS ``1981 SCR (1) 206``;
* SCC: ``(1980) 3 SCC 625``, JUDIS ``1980 SCC (3) 625``; AIR: ``AIR 1980 SC 1789``, JUDIS ``1980 AIR 1789``;
* neutral citations of the High Courts since 2023: ``2023:AHC:190732``, ``2023:AHC-LKO:9844``, ``2025:DHC:3771-DB``;
* an Indian Kanoon page, ``indiankanoon.org/doc/101253596`` (how this project cites a text taken from there);
* case numbers: ``Civil Appeal No. 404 of 2024``, ``SLP (Crl.) No. 8057/2024``, ``W.P.(C) 1294/2022``,
  ``ITA 45/2023``.

Every citation comes back in one canonical spelling, so ``normalise_citation("1980 SCC (3) 625") ==
"(1980) 3 SCC 625"`` and two prints of the same citation compare equal.
"""

from __future__ import annotations

import re

from ..law import first_date

def parse_date(text: str) -> str:
    """The first calendar date in ``text`` as ISO ``YYYY-MM-DD``, or ``""``, by the project's one date grammar
    (:mod:`legal_rag.law.dates`).

    Accepts ``12  May  2006``, ``JANUARY 31, 2020``, ``24 February, 2025``, ``07.02.2025``, ``14-06-2024``,
    ``31/07/1980`` (day first, as Indian courts print). Impossible dates (31.02.2024) are skipped.
    """
    d = first_date(text)
    return d.isoformat() if d else ""


# --- citations -------------------------------------------------------------------------------------------------

_CITE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?P<y>(?:19|20)\d{2})\s*INSC\s*(?P<n>\d{1,5})\b"), "{y} INSC {n}"),
    (re.compile(r"\[(?P<y>(?:18|19|20)\d{2})\]\s*(?P<supp>Supp(?:l)?\.?\s*)?(?P<v>\d{1,2})?\s*S\.?\s?C\.?\s?R\.?\s*(?P<p>\d{1,4})\b"),
     "[{y}] {supp}{v} S.C.R. {p}"),
    (re.compile(r"\b(?P<y>(?:19|20)\d{2})\s+SCR\s*\(\s*(?P<v>\d{1,2})\s*\)\s*(?P<p>\d{1,4})\b"), "[{y}] {v} S.C.R. {p}"),
    (re.compile(r"\((?P<y>(?:19|20)\d{2})\)\s*(?P<supp>Supp\.?\s*)?(?P<v>\d{1,2})\s+SCC\s+(?P<p>\d{1,4})\b"),
     "({y}) {supp}{v} SCC {p}"),
    (re.compile(r"\b(?P<y>(?:19|20)\d{2})\s+SCC\s*\(\s*(?P<v>\d{1,2})\s*\)\s*(?P<p>\d{1,4})\b"), "({y}) {v} SCC {p}"),
    (re.compile(r"\bAIR\s+(?P<y>(?:19|20)\d{2})\s+SC\s*(?P<p>\d{1,4})\b"), "AIR {y} SC {p}"),
    (re.compile(r"\b(?P<y>(?:19|20)\d{2})\s+AIR\s+(?P<p>\d{1,4})\b"), "AIR {y} SC {p}"),
    # a High Court's neutral citation (2023 on): "2023:AHC:190732", "2023:AHC-LKO:9844", "2025:DHC:3771-DB"
    (re.compile(r"\b(?P<y>20[2-9]\d)\s?:\s?(?P<c>[A-Z]{2,6}(?:-[A-Z]{2,5})?)\s?:\s?(?P<n>\d{1,6})(?P<db>-DB)?\b"),
     "{y}:{c}:{n}{db}"),
    # an Indian Kanoon page: "https://indiankanoon.org/doc/101253596/"
    (re.compile(r"\bindiankanoon\.org/doc(?:fragment)?/(?P<n>\d{1,12})\b", re.I), "indiankanoon.org/doc/{n}"),
)


def find_citations(text: str) -> tuple[str, ...]:
    """Every neutral / SCR / SCC / AIR (Supreme Court) citation, High Court neutral citation and Indian Kanoon
    address in ``text``, canonical, in order, unique.

    ``find_citations("[2024] 7 S.C.R. 97 : 2024 INSC 479") -> ("[2024] 7 S.C.R. 97", "2024 INSC 479")``;
    ``find_citations("1980 AIR 1789  1980 SCC (3) 625") -> ("AIR 1980 SC 1789", "(1980) 3 SCC 625")``.
    """
    found: list[tuple[int, str]] = []
    for rx, fmt in _CITE_FORMS:
        for m in rx.finditer(text):
            g = {k: (v or "") for k, v in m.groupdict().items()}
            if "supp" in g and g["supp"]:
                g["supp"] = "Supp. "
            if "v" in g and not g["v"] and not g.get("supp"):
                continue  # "[2020] S.C.R." without a volume is furniture, not a citation
            found.append((m.start(), re.sub(r"\s+", " ", fmt.format(**g)).replace("  ", " ")))
    out: list[str] = []
    for _, c in sorted(found):
        if c not in out:
            out.append(c)
    return tuple(out)


def normalise_citation(text: str) -> str:
    """The canonical spelling of the one citation in ``text`` (``""`` when none is recognised)."""
    cites = find_citations(text)
    return cites[0] if cites else ""


# --- case numbers ----------------------------------------------------------------------------------------------

_KINDS = (
    r"(?:Civil|Criminal|Crl\.?|Cr\.?)\s*Appeals?|Appeal\s*\((?:crl|civil|c)\.?\)|Cr\.?\s*As?\.?|"
    r"Writ\s+Petitions?(?:\s*\(s\))?(?:\s*\((?:Civil|Criminal|Crl\.?|C)\))?|"
    r"(?:Review|Contempt|Curative|Arbitration|Election)\s+Petitions?(?:\s*\(s\))?(?:\s*\((?:Civil|Criminal|Crl\.?|C)\))?|"
    r"Miscellaneous\s+Applications?(?:\s*\(s\))?|"
    r"Special\s+Leave\s+Petitions?(?:\s*\(s\))?(?:\s*\((?:Civil|Criminal|Crl\.?|C)\))?|"
    r"Petition(?:\(s\)|s)?\s+for\s+Special\s+Leave\s+to\s+Appeal\s*\((?:Civil|Crl|Criminal|C)\.?\)|"
    r"S\.?\s?L\.?\s?P\.?\s*[\(\[]\s*(?:Civil|Crl|Criminal|C)\.?\s*[\)\]]|Transfer\s+Petitions?(?:\s*\(s\))?(?:\s*\((?:Civil|Criminal|Crl\.?|C)\))?|"
    # the High Courts' criminal matters: "Criminal Misc. Bail Application No. - 39983 of 2023", "Criminal Petition No.
    # 1234 of 2024", "Criminal Revision Petition", "Application U/S 482 No. - 12174 of 2020", "Bail Application"
    r"(?:Criminal|Crl\.?)\s+(?:Misc(?:ellaneous)?\.?\s+)?(?:Bail\s+)?(?:Applications?|Petitions?|Revisions?(?:\s+Petitions?)?|"
    r"Cases?|References?)|(?:Anticipatory\s+)?Bail\s+Applications?|Application\s+U/S\s+\d+[A-Z]?(?:/\d+[A-Z]?)*"
)
_NUM = r"(?P<n>\d{1,6}(?:\s*[-–]\s*\d{1,6})?)"
_CASE_LONG = re.compile(
    rf"(?P<k>{_KINDS})\s*(?:\(?\s*(?:Diary|D)\.?\s+)?(?:No(?:s|\(s\))?\.?(?:\s*[-–:]\s)?)?\s*{_NUM}(?:\s*(?:,|and|&)\s*\d{{1,6}}(?:\s*[-–]\s*\d{{1,6}})?)*"
    r"\s*(?:of\s+|/)\s*(?P<y>(?:19|20)\d{2})",
    re.I,
)
_CASE_DIARY = re.compile(  # "Review Petition (Civil) Nos      of 2024\n(D No 50281 of 2023)": number not yet given
    rf"(?P<k>{_KINDS})\s*No(?:s|\(s\))?\.?[\s.…]*of\s+\d{{4}}\s*[\(\[]\s*@?\s*D(?:iary)?\.?\s*No\.?\s*(?P<n>\d{{1,6}})\s*"
    r"(?:of\s+|/)\s*(?P<y>(?:19|20)\d{2})",
    re.I,
)
_CASE_SHORT = re.compile(
    rf"\b(?P<k>W\.\s?P\.\s?\((?:C|CRL)\)|ITA|LPA|CRL\.\s?A\.|CRL\.M\.C\.|FAO|RFA|CS\(OS\)|BAIL\s+APPLN\.)\s*(?:No\.?\s*)?{_NUM}\s*/\s*(?P<y>(?:19|20)\d{{2}})\b",
    re.I,
)


def _kind_key(kind: str) -> str:
    k = re.sub(r"[^a-z]", "", kind.lower())
    if "specialleave" in k:
        return "slp"
    for stem, key in (("review", "review petition"), ("contempt", "contempt petition"), ("curative", "curative petition"),
                      ("arbitration", "arbitration petition"), ("election", "election petition"),
                      ("miscellaneous", "miscellaneous application"), ("slp", "slp"), ("writ", "writ petition"),
                      ("wpc", "writ petition"), ("wpcrl", "writ petition"), ("transfer", "transfer petition"),
                      ("ita", "ita"), ("lpa", "lpa")):
        if k.startswith(stem):
            return key
    if "appeal" in k or k in {"cra", "cras", "crla"}:
        return ("criminal appeal" if k.startswith(("cr", "appealcrl")) else
                "civil appeal" if k.startswith(("civil", "appealc")) else "appeal")
    return k


def find_case_numbers(text: str) -> tuple[str, ...]:
    """Case numbers in ``text`` as printed (whitespace collapsed), in order, unique by :func:`case_number_key`.

    ``find_case_numbers("CIVIL APPEAL NO.  5700 OF 2021") -> ("CIVIL APPEAL NO. 5700 OF 2021",)``.
    """
    hits = sorted([(m.start(), m) for rx in (_CASE_DIARY, _CASE_LONG, _CASE_SHORT) for m in rx.finditer(text)], key=lambda t: t[0])
    out: list[str] = []
    keys: set[tuple[str, str, str]] = set()
    for _, m in hits:
        key = case_number_key(m.group(0))
        if key and key not in keys:
            keys.add(key)
            out.append(re.sub(r"\s+", " ", m.group(0)).strip())
    return tuple(out)


def case_number_key(text: str) -> tuple[str, str, str] | None:
    """``(kind, first number, year)`` of the first case number in ``text``, for comparing two spellings.

    ``case_number_key("Criminal Appeal Nos. 2814-2815 of 2024") -> ("criminal appeal", "2814", "2024")``;
    ``case_number_key("SLP (Crl.) No. 8057/2024") == case_number_key("Petition(s) for Special Leave to Appeal
    (Crl.) No(s). 8057/2024")``.
    """
    ms = [m for rx in (_CASE_DIARY, _CASE_LONG, _CASE_SHORT) for m in [rx.search(text)] if m]
    if not ms:
        return None
    m = min(ms, key=lambda m: m.start())
    first = re.split(r"\s*[-–]\s*", m.group("n"))[0]
    return _kind_key(m.group("k")), first, m.group("y")
