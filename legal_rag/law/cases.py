"""Case names: the one grammar for "X v. Y" titles and the party names on either side.

Callers: :mod:`legal_rag.ingest.judgment_title` (the title printed at the head of a judgment) and
:func:`legal_rag.law.question.analyse` (the judgments a question names, by title or citation as written:
:func:`case_references`, read once and kept in the analysis for :mod:`legal_rag.generate.abstain`). The words
that carry a full stop inside a name ("Mohd.", "U.P.", "C. V.", "Retd.", "v.") are
:func:`legal_rag.text.is_abbreviation`'s, so that the sentence splitter, which sits below ``law``, never ends a
sentence inside a case name.

Examples::

    find_case_titles("What did Ramesh Kumar Vs. State of Punjab hold?")
        -> (CaseTitle("Ramesh Kumar", "State of Punjab", (9, 42)),)         # "v", "vs", "versus", "v/s", any case
    find_case_titles("IPC v. BNS: what changed?")             -> ()          # a comparison of codes
    find_case_titles("What did Justice C. V. Raman say?")     -> ()          # "V." after an initial is an initial
    split_title("C. V. Raman v. State of U.P.")               -> ("C. V. Raman", "State of U.P.")
    is_versus_line("  VERSUS ")                               -> True
    clean_party(["STATE OF U.P.", "...Respondent"])           -> "State of U.P."
    smart_case("M/S LEGACY FOODS PVT. LTD.")                  -> "M/s Legacy Foods Pvt. Ltd."
    title_in("Ramesh Kumar v. State of Punjab", "Ramesh Kumar v. State of Punjab & Ors.") -> True
    case_references("Summarise (2019) 5 SCC 9999")           -> (CaseReference("citation", "(2019) 5 SCC 9999"),)

A separator is "v", "vs", "versus" or "v/s" (any case, with or without a full stop) between spaces. A single capital
"V" is one only in a title line (:func:`versus_in`, :func:`split_title`: "RAMESH V STATE"), and there not after an
initial ("C. V. Raman") or a division word ("Chapter V", "Part V"); in running text (:func:`find_case_titles`) it is
an initial ("Shri V. D. Sharma").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import is_abbreviation, normalise

_SEP_RE = re.compile(r"(?<=\s)(?i:versus|vs|v/s|v)\.?(?=\s)")
_VERSUS_LINE = re.compile(r"^\s*(?i:versus|vs|v/s|v)\.?\s*$")
#: a capital V after these is a letter of initials or a Roman numeral, not "versus"
_NOT_VERSUS_BEFORE = re.compile(
    r"(?:(?<![\w.])[A-Z]\.?|(?<![A-Za-z])(?i:chapter|part|schedule|order|appendix|table|form|book|vol\.?|volume|title|"
    r"division|article|art\.|section|sec\.|s\.|rule|clause|item|entry|list|annexure|phase|class|grade|standard|std\.))"
    r"\s+\Z")

#: a role printed after a party's name in a judgment header: "...Appellant(s)", "Respondents", "Petitioner"
ROLE_RE = re.compile(
    r"\s*(?:\.{2,}|…+)?\s*\b(?:Appellants?|Petitioners?|Respondents?|Applicants?|Plaintiffs?|Defendants?|Appellant\s*\(s\)|"
    r"Petitioner\s*\(s\)|Respondent\s*\(s\)|Appellant\(s\)|Petitioner\(s\)|Respondent\(s\))\s*(?:\(s\))?\s*$",
    re.I,
)

_WORD = r"(?:[A-Z][\w.'’&/-]*|\[[^\]]{1,40}\])"
#: capitalised words that open a sentence or a question, never a party's name ("In Selvi v. State", "Summarise X v. Y")
_LEAD = (r"(?:in|see|also|cf\.?|per|following|under|as|what|whether|summari[sz]e|explain|apply|discuss|analy[sz]e|"
         r"verify|compare|is|does|did|was|how|why|when|which|who|where|can|could|would|should|will|please|tell|"
         r"describe|give|list|find|show|then|thus|hence|but|or|a|an|this|that|after|before|since|following|distinguish)")
_LINK = r"(?:w/o|s/o|d/o|h/o|of|and|&|the|for|through|thr\.?|alias|@)"
_PARTY = rf"{_WORD}(?:\s+(?:{_WORD}|{_LINK}))*"
_PARTY_RE = re.compile(_PARTY)
_PARTY_AT_END = re.compile(rf"(?:{_PARTY})(?=\s+\Z)")
_CODE_WORDS = frozenset("ipc bns bnss bsa crpc cr p c iea i the indian penal code of criminal procedure evidence act "
                        "bharatiya nyaya nagarik suraksha sanhita sakshya adhiniyam new old law laws section "
                        "sections s sec".split())

ACRONYMS = frozenset({"NCT", "CBI", "NCB", "DTC", "CIT", "ACIT", "DCIT", "ITO", "GE", "LLP", "HSBC", "PI", "ED", "NIA",
                      "SEBI", "RBI", "LIC", "ONGC", "NDPS", "II", "III", "IV", "UP", "MP", "UOI", "NOIDA", "DDA", "MCD",
                      "NHAI", "ICC"})
_SMALL = {"of", "and", "the", "for", "in", "at", "to", "by", "on", "v", "vs"}
#: abbreviations that end a party's name with their full stop even where the print leaves it out ("& Ors")
_ALWAYS_DOTTED = frozenset({"ltd", "ors", "anr", "inc", "co"})


@dataclass(frozen=True)
class CaseTitle:
    """A title "left v. right" found in a text; ``span`` is its ``[start, end)`` (0-based, half-open)."""

    left: str
    right: str
    span: tuple[int, int]

    @property
    def title(self) -> str:
        return f"{self.left} v. {self.right}"


def _separators(text: str, capital_v: bool = True):
    for m in _SEP_RE.finditer(text):
        if m.group(0).rstrip(".") == "V" and (not capital_v or _NOT_VERSUS_BEFORE.search(text, max(0, m.start() - 16),
                                                                                          m.start())):
            continue
        yield m


def versus_in(text: str) -> re.Match | None:
    """The first separator of a title line (``text`` such as a judgment's first line), or ``None``."""
    return next(_separators(text), None)


def is_versus_line(line: str) -> bool:
    """True for a header line that holds only the separator ("V/s.", "VERSUS", "vs")."""
    return _VERSUS_LINE.match(line) is not None


def split_title(line: str) -> tuple[str, str] | None:
    """``(left, right)`` of a title line, split at its first separator (sides as written); ``None`` without one."""
    m = versus_in(line)
    return (line[:m.start()], line[m.end():]) if m else None


def is_statute_name(party: str) -> bool:
    """True when ``party`` is only the name of a code ("IPC", "the Indian Penal Code", "new law")."""
    words = re.findall(r"[a-z]+", normalise(party))
    return bool(words) and all(w in _CODE_WORDS for w in words)


def find_case_titles(text: str) -> tuple[CaseTitle, ...]:
    """Titles "A v. B" in free text (a question), in order: each side a run of capitalised words joined by "of",
    "and", "&", "w/o", "alias"...; words that open a sentence ("In", "See", "Summarise", "The") are dropped from the
    left side and a bracketed citation ("[(2003) 2 SCC 673]") from the right. A single capital "V." is an initial in
    running text ("Shri V. D. Sharma", "Sujata V. Manohar, J."), never the separator. A comparison of codes
    ("IPC vs BNS") is not a title."""
    out: list[CaseTitle] = []
    pos = 0
    for sep in _separators(text, capital_v=False):
        if sep.start() < pos:
            continue
        left_m = _PARTY_AT_END.search(text, pos, sep.start())
        right_start = len(text) - len(text[sep.end():].lstrip())
        right_m = _PARTY_RE.match(text, right_start)
        if not left_m or not right_m:
            continue
        pos = right_m.end()
        left = re.sub(rf"^(?:(?:{_LINK}|{_LEAD})\s+)+", "", left_m.group(0), flags=re.I)
        right = re.sub(r"\s*\[+[^\]]*\d.*$", "", right_m.group(0)).strip()  # "State of Bihar [[2005] 2 SCC 388]"
        if is_statute_name(left) or is_statute_name(right):
            continue
        out.append(CaseTitle(left, right, (left_m.end() - len(left), right_m.start() + len(right))))
    return tuple(out)


@dataclass(frozen=True)
class CaseReference:
    """A judgment named in a question: ``kind`` is ``"citation"`` or ``"title"``; ``text`` as written."""

    kind: str
    text: str


#: a reporter or neutral citation as a question writes it ("(2019) 5 SCC 9999", "2024 INSC 479", "AIR 1980 SC 898",
#: "925 F.3d 1339"); read as written, to be matched exactly against the passages (:func:`case_references`)
CITATION_FORMS = tuple(re.compile(p, re.I) for p in (
    r"\(\s*(?:19|20)\d{2}\s*\)\s*(?:\(\s*\d+\s*\)\s*|\d+\s+|Supp\.?\s*\d*\s*)?(?:SCC|SCR|S\.C\.R\.|SCALE|Cri\.?\s*L\.?J\.?|"
    r"DLT|Bom\.?\s*C\.?R\.?|All\.?\s*L\.?J\.?|KLT|MLJ|CTC)(?:\s*\((?:Cri|Civ|L&S)\))?\s*(?:OnLine\s+\w+\s*)?\d+",
    r"\[\s*(?:19|20)\d{2}\s*\]\s*(?:Supp\.?\s*)?\d*\s*S\.?\s*C\.?\s*R\.?\s*\d+",
    r"\b(?:19|20)\d{2}\s+(?:SCC\s+OnLine\s+\w+|INSC|SCC\s*\(\d+\)|SCR\s*\(\d+\)|AIR|Cri\.?\s*L\.?J\.?)\s+\d+",
    r"\bAIR\s+(?:19|20)\d{2}\s+[A-Z][A-Za-z]*\s+\d+",
    r"\b\d{1,4}\s+(?:F\.\s?(?:2d|3d|4th)|F\.\s?Supp\.(?:\s?[23]d)?|U\.\s?S\.|S\.\s?Ct\.|L\.\s?Ed\.(?:\s?2d)?)\s+\d+",
))


def case_references(text: str, titles: tuple[CaseTitle, ...] | None = None) -> tuple[CaseReference, ...]:
    """The judgments ``text`` names, in order of appearance: citations as written (:data:`CITATION_FORMS`) and
    titles (``titles``, :func:`find_case_titles` of ``text`` when not given; "IPC v. BNS", a comparison of codes,
    is none).

    ``case_references("Summarise (2019) 5 SCC 9999")`` -> ``(CaseReference("citation", "(2019) 5 SCC 9999"),)``
    """
    refs: list[tuple[int, CaseReference]] = []
    for rx in CITATION_FORMS:
        refs += [(m.start(), CaseReference("citation", m.group(0).strip())) for m in rx.finditer(text)]
    found = find_case_titles(text) if titles is None else titles
    refs += [(t.span[0], CaseReference("title", t.title)) for t in found]
    return tuple(r for _, r in sorted(refs, key=lambda p: p[0]))


_LETTER_RUN = re.compile(r"\b[a-z](?:[.\s]+[a-z]\b)+\.?")


def _words(text: str) -> str:
    """Lower-case words of ``text``; a run of single letters is one word however the print spaces or dots it
    ("N.C.T.", "N C T", "NCT" -> "nct"; "U. P." -> "up"; "K.S." / "K S" -> "ks")."""
    t = _LETTER_RUN.sub(lambda m: re.sub(r"[.\s]", "", m.group(0)), normalise(text))
    return " " + re.sub(r"[^a-z0-9]+", " ", t).strip() + " "


def title_in(title: str, heading: str) -> bool:
    """True when both parties of ``title`` ("A v. B") occur, whole-word after normalising case and punctuation, in
    ``heading`` (a judgment's title): an exact match of names, never a fuzzy one. Initials match however they are
    dotted or spaced: ``title_in("Mohd. Anwar v. State (NCT of Delhi)", "Mohd. Anwar v. The State (N.C.T. of
    Delhi)") -> True``; ``title_in("K.S. Puttaswamy v. Union of India", "Justice K S Puttaswamy (Retd.) v. Union
    of India") -> True``."""
    left, _, right = title.partition(" v. ")
    hay = _words(heading)
    return all(_words(p) in hay for p in (left, right))


def has_role(line: str) -> bool:
    """True when ``line`` ends with a party's role ("...Appellant(s)", "Respondents")."""
    return ROLE_RE.search(line) is not None


def smart_case(s: str) -> str:
    """Title-case an ALL-CAPS party name, keeping acronyms: ``"M/S LEGACY FOODS PVT. LTD."`` ->
    ``"M/s Legacy Foods Pvt. Ltd."``; mixed-case input is returned unchanged."""
    if any(c.islower() for c in s):
        return s
    out = []
    for i, w in enumerate(s.split()):
        core = re.sub(r"[^A-Za-z]", "", w)
        if core in ACRONYMS or re.fullmatch(r"(?:[A-Z]\.)+[A-Z]?\.?,?", w):
            out.append(w)
        elif w == "M/S":
            out.append("M/s")
        elif core.lower() in _SMALL and i > 0:
            out.append(w.lower())
        else:
            out.append(re.sub(r"[A-Za-z]+", lambda m: m.group(0).capitalize(), w))
    return " ".join(out)


def clean_party(lines: list[str]) -> str:
    """One party's name from its header lines: roles and "PETITIONER:" labels dropped, spaces joined, a sentence's
    full stop dropped but an abbreviation's kept ("State of U.P.", "Etc.") or added ("& Ors", "Pvt. Ltd" -> "& Ors.",
    "Pvt. Ltd."), ALL CAPS title-cased."""
    s = " ".join(ROLE_RE.sub("", ln).strip() for ln in lines)
    s = re.sub(r"^\s*(?:PETITIONER|RESPONDENT)\s*:\s*", "", s, flags=re.I)
    s = re.sub(r"\s+", " ", s).strip(" ,;:")
    dotted = re.search(r"([\w.'/]+?)\.+$", s)  # the name ends with a full stop: the abbreviation's, or a sentence's
    s = s.rstrip(".")
    last = re.search(r"[\w.'/]+$", s)
    if last and (last.group(0).lower() in _ALWAYS_DOTTED or (dotted and is_abbreviation(dotted.group(1)))):
        s += "."
    s = re.sub(r",\s*&", " &", s.replace(" ,", ","))
    return smart_case(s)


# --- the Indian form of a judgment's citation ------------------------------------------------------------------

_NEUTRAL = re.compile(r"^\d{4} INSC \d+$")
_SCR = re.compile(r"S\.C\.R\.")


def order_citations(citations: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Canonical citations (:func:`legal_rag.ingest.citations_meta.find_citations`) in the order a court cites
    them: the neutral citation first (Supreme Court of India, notice on neutral citations, 2023), other reports
    (SCC, AIR), the Supreme Court Reports last, so that a printed-page pinpoint follows the report it counts in."""
    cites = list(dict.fromkeys(c.strip() for c in citations if c.strip()))
    return tuple(sorted(cites, key=lambda c: 0 if _NEUTRAL.match(c) else 2 if _SCR.search(c) else 1))


def judgment_reference(title: str, citations: tuple[str, ...] | list[str] = (), printed: tuple[int, int] | tuple = (),
                       paras: str = "") -> str:
    """A judgment cited in the Indian form: title, parallel citations joined by ``" : "``, the printed page of the
    report (``"at 156"``, ``"at 156-157"``) where ``printed`` gives it and the report is the Supreme Court Reports,
    then the paragraph(s)::

        judgment_reference("Mohd. Anwar v. The State (N.C.T. of Delhi)", ("[2020] 7 S.C.R. 150",), (156, 156), "16")
            -> "Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150, at 156, para 16"
        judgment_reference("A v. B", ("[2024] 7 S.C.R. 97", "2024 INSC 479"), (100, 101), "4-5")
            -> "A v. B, 2024 INSC 479 : [2024] 7 S.C.R. 97, at 100-101, paras 4-5"

    A judgment without a report's page numbers (a court's copy, a plain-text judgment) is pinpointed by paragraph
    only: no page is named that the reader cannot find in a report."""
    out = title or "Unnamed judgment"
    cites = order_citations(citations)
    if cites:
        out += ", " + " : ".join(cites)
        if printed and _SCR.search(cites[-1]):
            a, b = printed[0], printed[-1]
            out += f", at {a}" if a == b else f", at {a}-{b}"
    if paras:
        out += f", {'paras' if '-' in paras else 'para'} {paras}"
    return out

