"""The cause title of a judgment ("Arnab Manoranjan Goswami v. The State of Maharashtra"), read from its header.

Two ways the courts print it: the parties set apart by a line of their own (``VERSUS``, ``Vs.``, ``-versus-``),
each with its role (``...APPELLANT(S)``, ``PETITIONER:``), as court copies, the Supreme Court Reports and JUDIS
print it (:func:`title_from_separator`); or one line ``X v. Y`` at the top of a typed text (:func:`title_inline`).
A law report also prints the title in its running heads (:func:`running_title`, an independent witness). The party
names are cleaned by :mod:`legal_rag.law.cases`. Caller: :func:`legal_rag.ingest.judgment_header.read_header`.
"""

from __future__ import annotations

import re

from ..law import ROLE_RE as _ROLE, clean_party, is_versus_line, split_title, versus_in
from ..types import Page
from .citations_meta import find_case_numbers, find_citations
from .judgment_court import HIGH_COURT_LINE

_STOP = re.compile(
    r"^\s*(?:through|coram|date|bench|citation|j\s*u\s*d\s*g|judgment|order|o\s*r\s*d\s*e\s*r|reportable|in\s+the|"
    r"petitioner\s*:|respondent\s*:|with\b|\[|\(|item\s+no|\+|\$~|for\s+(?:petitioner|respondent)|http|"
    r"(?:civil|criminal)\s+(?:appellate|original)|inherent|original\s+jurisdiction)",
    re.I,
)


def _stop(line: str) -> bool:
    s = line.strip()
    return (not s or bool(_STOP.match(s)) or versus_in(s) is not None or bool(find_case_numbers(s)) or bool(find_citations(s))
            or bool(re.fullmatch(r"[\d\s]+", s)) or is_versus_line(s) or bool(HIGH_COURT_LINE.search(s))
            or bool(re.match(r"^\d{1,2}\s+\w+,?\s+\d{4}$|^[A-Z]+\s+\d{1,2},\s+\d{4}$", s)))


def _role_only(line: str) -> bool:
    """Whether ``line`` is a party's role and nothing else (``"...APPELLANT(S)"``, ``"…Respondent"``)."""
    return bool(_ROLE.search(line)) and not re.search(r"[A-Za-z]", _ROLE.sub("", line))


def _name_goes_on(name: str, below: list[str], role: str) -> bool:
    """Whether the line after a role-only line ``role`` carries on the party ``name`` printed above it: the court
    sets the role beside a name that wraps, so the name's second line comes after the role's. The next line must
    be no heading, case number or role, and read as the rest of a name (capitals after capitals; or opening with
    "&", "and" or a small letter)."""
    i = below.index(role)
    nxt = below[i + 1].strip() if i + 1 < len(below) else ""
    if not nxt or _stop(nxt) or _ROLE.search(nxt):
        return False
    return (name.strip().isupper() and nxt.isupper()) or bool(re.match(r"(?:&|and\b|[a-z])", nxt))


def title_from_separator(lines: list[str]) -> str:
    """``"X v. Y"`` from the first versus line of ``lines`` with a party above and below it (up to three lines each,
    ending at a role or a heading, case number, citation or court line); ``""`` if none."""
    for i, ln in enumerate(lines):
        if not is_versus_line(ln):
            continue
        above = lines[max(0, i - 14):i]
        role_idx = [j for j, a in enumerate(above) if _ROLE.search(a)]
        if role_idx:
            end = role_idx[-1]
            start = end
            if end and _role_only(above[end]) and not _stop(above[end - 1]) and not _ROLE.search(above[end - 1]):
                start = end - 1  # "SHRIKRISHNA" / "...APPELLANT(S)": the role on a line of its own, under the name
            while (start > 0 and end - start < 2 and not _stop(above[start - 1]) and not _ROLE.search(above[start - 1])
                   and (above[start - 1].rstrip().endswith((",", "&")) or re.match(r"\s*(?:&|and\b|[a-z])", above[start])
                        or (above[start - 1].isupper() and _ROLE.sub("", above[start]).isupper()))):
                start -= 1
            pet = above[start:end + 1]
        else:
            pet = []
            for a in reversed(above):
                if _stop(a) or len(pet) >= 3:
                    break
                pet.insert(0, a)
        below = [b for b in lines[i + 1:i + 8] if not re.match(r"^\s*RESPONDENT\s*:\s*$", b, re.I)]
        res = []
        for b in below:
            if _stop(b) and not _ROLE.search(b):
                break
            res.append(b)
            if _ROLE.search(b) or len(res) >= 3:
                if len(res) < 3 and _role_only(b) and len(res) > 1 and _name_goes_on(res[-2], below, b):
                    continue  # "THE STATE OF MADHYA" / ".... RESPONDENT(S)" / "PRADESH AND ANOTHER"
                break
        if pet and res:
            return f"{clean_party(pet)} v. {clean_party(res)}"
    return ""


def title_inline(lines: list[str]) -> str:
    """``"X v. Y"`` from the first of the first three ``lines`` that reads as a whole title (``"Ram v. State"``;
    a leading number dropped); ``""`` if none."""
    for ln in lines[:3]:
        sides = split_title(ln)
        if sides:
            left = re.sub(r"^\d+", "", sides[0])
            return f"{clean_party([left])} v. {clean_party([sides[1]])}"
    return ""


_SCR_HEAD = re.compile(r"^\s*(?:\d{1,4}\s+)?\[\d{4}\]\s*\d{1,2}\s*S\.C\.R\.\s*(?:\d{1,4})?\s*$")


def mend_split_words(title: str, pages: tuple[Page, ...]) -> str:
    """``title`` with a word that the PDF's letter spacing split in two joined again, where the judgment's own text
    prints it whole: ``"Justice K S Putt Aswamy (Retd.)"`` -> ``"Justice K S Puttaswamy (Retd.)"`` (the 2017 SCR
    print sets ``PUTT ASWAMY`` in the cause title and ``Puttaswamy`` in the text). Two words are joined only when
    the joined form occurs in the text as a whole word and the split form nowhere outside the title, and each is
    letters only (initials and names printed apart, "K S", "Ram Kumar", stay apart). For PDF prints only: a typed
    text judgment has no letter spacing to undo ("Tamil Nadu" stays, though its text also spells "Tamilnadu")."""
    words = title.split(" ")
    if len(words) < 2:
        return title
    text = "\n".join(p.text for p in pages)
    out = [words[0]]
    for w in words[1:]:
        a, b = out[-1], w
        if re.fullmatch(r"[A-Za-z]{2,}", a) and re.fullmatch(r"[A-Za-z]{2,}", b):
            joined = len(re.findall(rf"(?i)\b{a}{b}\b", text))
            split = len(re.findall(rf"(?i)\b{a}\s+{b}\b", text)) - 1  # the title's own occurrence
            if joined and split <= 0:
                out[-1] = a + b.lower()
                continue
        out.append(w)
    return " ".join(out)


def running_title(pages: tuple[Page, ...]) -> str:
    """The cause title a law report prints in its running heads, as printed (whitespace collapsed), or ``""``.

    Digital SCR prints it under the odd pages' head (``[2024] 6 S.C.R.  87`` / ``Sharif Ahmed and Another v. State
    of Uttar Pradesh and Another``, in the text or the margin); printed SCR at the top of the odd pages in capitals
    (``ARNAB MANORANJAN GOSWAMI v.`` / ``THE STATE OF MAHARASHTRA``). A title that wraps after ``v.`` is joined with
    its next line. The form most pages print wins. An independent witness of
    :func:`legal_rag.ingest.judgment_header.read_header`'s title."""
    found: list[str] = []
    for p in pages[1:]:
        for lines in ([t for _, t in p.margin], [ln for ln in p.text.splitlines() if ln.strip()][:4]):
            for i, ln in enumerate(lines[:-1]):
                after_head = _SCR_HEAD.match(ln) is not None
                top = i == 0 and re.sub(r"\sv\.\s*$", "", ln).isupper() and re.search(r"\sv\.\s*$", ln) is not None
                if not (after_head or top):
                    continue
                cand = lines[i + 1] if after_head else ln
                nxt = lines[i + 2] if after_head and i + 2 < len(lines) else lines[i + 1] if top else ""
                if re.search(r"\sv\.\s*$", cand) and nxt:
                    cand = f"{cand.strip()} {nxt.strip()}"
                if versus_in(cand) and not re.search(r"\d", cand):
                    found.append(re.sub(r"\s+", " ", cand).strip())
                break
    return max(dict.fromkeys(found), key=found.count) if found else ""
