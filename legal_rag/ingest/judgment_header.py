"""The header of a judgment: layout, parties (title), court, date, citations and case numbers.

Layouts recognised (``Header.layout``), each as printed in the corpus (``judgments/pdf/index.csv``):

* ``scr_digital`` — Digital Supreme Court Reports (2023-): ``[2024] 7 S.C.R. 97 : 2024 INSC 479``, parties,
  ``(Criminal Appeal No. ...)``, ``08 July 2024``;
* ``scr`` — printed Supreme Court Reports: ``582 SUPREME COURT REPORTS [2020] 1 S.C.R.``, parties,
  ``JANUARY 31, 2020``;
* ``judis`` — old NIC JUDIS print: ``PETITIONER:`` / ``RESPONDENT:`` / ``DATE OF JUDGMENT31/07/1980`` / ``CITATION:``;
* ``sc`` — court-issued Supreme Court copies, orders and records of proceedings (date at the foot:
  ``NEW DELHI; SEPTEMBER 14, 2021`` or ``Date : 14-06-2024``; the neutral citation, ``2026 INSC 12``, in the
  first page's margin);
* ``dhc`` — Delhi High Court (``Judgment delivered on: 07.02.2025``);
* ``text`` — plain-text judgments whose first lines are title, court, date (the AILA 2019 case documents);
* ``indiankanoon`` — a text from Indian Kanoon: its head (court, ``<title> on <date>``, ``Equivalent citations``,
  ``Bench``) is read by :func:`legal_rag.ingest.indiankanoon.read_head`, case numbers and citations (a High Court's
  neutral citation, ``2023:AHC:190732``) from the court's text below it.

Every layout also gives the bench where printed (:func:`legal_rag.ingest.bench.read_bench`) and the decision's form
(:func:`decision_of`: an order or a judgment, as the text calls itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..law import ROLE_RE as _ROLE, clean_party, is_versus_line, split_title, versus_in
from ..types import Decision, Page
from .bench import read_bench
from .furniture import is_furniture
from .citations_meta import find_case_numbers, find_citations, parse_date
from .indiankanoon import read_head as read_ik_head

SC = "Supreme Court of India"

_STOP = re.compile(
    r"^\s*(?:through|coram|date|bench|citation|j\s*u\s*d\s*g|judgment|order|o\s*r\s*d\s*e\s*r|reportable|in\s+the|"
    r"petitioner\s*:|respondent\s*:|with\b|\[|\(|item\s+no|\+|\$~|for\s+(?:petitioner|respondent)|http|"
    r"(?:civil|criminal)\s+(?:appellate|original)|inherent|original\s+jurisdiction)",
    re.I,
)
_HC = re.compile(r"HIGH\s+COURT\s+OF\s+([A-Z][A-Za-z ]+?)(?:\s+AT\s|\s*$|,)", re.I)
_SC = re.compile(r"S\s?U\s?P\s?R\s?E\s?M\s?E\s+C\s?O\s?U\s?R\s?T\s+(?:O\s?F\s+I\s?N\s?D\s?I\s?A|REPORTS)|SUPREME\s+COURT|\bINSC\b|S\.C\.R\.", re.I)
_BODY = re.compile(
    r"^\s*(?:J\s*U\s*D\s*G\s*M\s*E\s*N\s*T|JUDGMENT|O\s*R\s*D\s*E\s*R|ORDER|Judgment\s*/\s*Order\s+of\s+the\s+Supreme\s+Court|"
    r"The\s+Judgment\s+(?:of\s+the\s+Court\s+)?was\s+delivered\s+by\b.*)\s*$",
    re.I,
)
@dataclass(frozen=True)
class Header:
    """What the first pages say about a judgment. ``date`` is ISO or ``""``; ``body_start`` is ``(page, line)``
    (0-based line index into that page's text) of the first line of the judgment proper, or ``None``."""

    layout: str
    title: str
    court: str
    date: str
    citations: tuple[str, ...]
    case_numbers: tuple[str, ...]
    body_start: tuple[int, int] | None
    bench: tuple[str, ...] = ()
    decision: Decision = "judgment"


def detect_layout(pages: tuple[Page, ...]) -> str:
    """One of ``scr_digital``, ``scr``, ``judis``, ``dhc``, ``sc``, ``text``, ``indiankanoon`` (see the module
    docstring)."""
    first = pages[0].text if pages else ""
    if read_ik_head(first).lines:
        return "indiankanoon"
    head = "\n".join(first.splitlines()[:25])
    second = pages[1].text if len(pages) > 1 else ""
    if "JUDIS.NIC.IN" in head.upper() or ("PETITIONER:" in head and "DATE OF JUDGMENT" in head.upper()):
        return "judis"
    if re.search(r"S\.\s?C\.\s?R\.\s*\d+\s*:\s*\d{4}\s+INSC", head) or "Digital Supreme Court Reports" in second:
        return "scr_digital"
    third = pages[2].text if len(pages) > 2 else ""
    if re.search(r"SUPREME\s+COURT\s+REPORTS", first + second + third) or re.match(r"\s*\[\d{4}\]\s*\d+\s*S\.C\.R\.", head):
        return "scr"
    if re.search(r"HIGH\s+COURT\s+OF\s+DELHI", head, re.I):
        return "dhc"
    lines = [ln.strip() for ln in first.splitlines() if ln.strip()][:6]
    if lines and versus_in(lines[0]) and any(_SC.search(ln) or _HC.search(ln) for ln in lines[1:5]):
        return "text"
    return "sc"


def _stop(line: str) -> bool:
    s = line.strip()
    return (not s or bool(_STOP.match(s)) or versus_in(s) is not None or bool(find_case_numbers(s)) or bool(find_citations(s))
            or bool(re.fullmatch(r"[\d\s]+", s)) or is_versus_line(s) or bool(_HC.search(s))
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


def _title_from_separator(lines: list[str]) -> str:
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


def _title_inline(lines: list[str]) -> str:
    for ln in lines[:3]:
        sides = split_title(ln)
        if sides:
            left = re.sub(r"^\d+", "", sides[0])
            return f"{clean_party([left])} v. {clean_party([sides[1]])}"
    return ""


def _scr_from_running_heads(pages: tuple[Page, ...]) -> tuple[str, ...]:
    """``[2020] 11 S.C.R. 896`` from the running head ``898 SUPREME COURT REPORTS [2020] 11 S.C.R.`` on the
    third page (first page = printed page number minus the page's offset in the file)."""
    for i, p in enumerate(pages[:4]):
        m = re.search(r"^\s*(\d{1,4})\s*SUPREME\s+COURT\s+REPORTS\s+\[(\d{4})\]\s*(\d{1,2})\s*S\.\s?C\.\s?R\.", p.text, re.M)
        if m and int(m.group(1)) > i:
            return (f"[{m.group(2)}] {m.group(3)} S.C.R. {int(m.group(1)) - i}",)
    return ()


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
    its next line. The form most pages print wins. An independent witness of :func:`read_header`'s title."""
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


def _court(layout: str, lines: list[str]) -> str:
    if layout in {"scr_digital", "scr", "judis"}:
        return SC
    for i, ln in enumerate(lines[:30]):
        m_hc, m_sc = _HC.search(ln) or _HC_WRAPPED.search(ln), _SC.search(ln)
        if m_hc and (not m_sc or m_hc.start() < m_sc.start()):
            return _high_court(ln, lines[i + 1] if i + 1 < len(lines) else "")
        if m_sc:
            return SC
    return ""


_HC_NAME = re.compile(r"HIGH\s+COURT\s+OF\s+(?:(?P<jud>JUDICATURE\s+(?:AT|FOR)\s+[A-Z][A-Za-z ]*?)|(?P<state>[A-Z][A-Za-z ]*?))"
                      r"\s*(?:,|\bAT\b|\bBENCH\b|\.?$)", re.I)
_HC_WRAPPED = re.compile(r"HIGH\s+COURT\s+OF\s*$", re.I)  # "IN THE HIGH COURT OF" / "PUNJAB AND HARYANA ..."
_CONNECTIVE = {"at", "for", "and", "of"}


def _seat_continues(line: str, nxt: str) -> bool:
    """Whether ``nxt`` is the rest of the court's name that ``line`` wraps ("...JUDICATURE AT" / "ALLAHABAD";
    "...HIGH COURT OF" / "PUNJAB AND HARYANA AT CHANDIGARH"): a short place name, never the parties."""
    if not (_HC.search(line) or _HC_WRAPPED.search(line)):
        return False
    dangling = re.search(r"\b(OF|AT|FOR|JUDICATURE)\s*$", line.strip(), re.I)
    seat = nxt.strip()
    return bool(dangling and re.fullmatch(r"[A-Za-z][A-Za-z .,&-]{1,60}", seat) and not _ROLE.search(seat)
                and not versus_in(seat) and len(seat.split()) <= (6 if dangling.group(1).upper() == "OF" else 3)
                and (seat.isupper() or not line.strip().isupper()))


def _join_court_lines(lines: list[str]) -> list[str]:
    """``lines`` with a wrapped court line and its seat joined into one line, so the seat stays with the court
    and never opens the cause title."""
    out: list[str] = []
    for ln in lines:
        if out and _seat_continues(out[-1], ln):
            out[-1] = f"{out[-1].rstrip()} {ln.strip()}"
        else:
            out.append(ln)
    return out


def _high_court(line: str, nxt: str) -> str:
    """``"IN THE HIGH COURT OF JUDICATURE AT" + "ALLAHABAD" -> "High Court of Judicature at Allahabad"`` (a court
    line that wraps keeps its seat: the next line is joined when this one ends at "OF", "AT", "FOR" or
    "JUDICATURE"); ``"HIGH COURT OF DELHI AT NEW DELHI" -> "High Court of Delhi"`` (a State's court: the seat is
    left out, as the corpus names it)."""
    text = line[re.search(r"HIGH\s+COURT", line, re.I).start():].strip()  # type: ignore[union-attr]
    if _seat_continues(text, nxt):
        text = f"{text} {nxt.strip()}"
    m = _HC_NAME.match(text)
    if not m or not (m.group("jud") or m.group("state")).strip():
        return ""
    words = (m.group("jud") or m.group("state")).split()
    return "High Court of " + " ".join(w.lower() if i and w.lower() in _CONNECTIVE else w.capitalize()
                                       for i, w in enumerate(words))


def _date(layout: str, head: list[str], pages: tuple[Page, ...]) -> str:
    text = "\n".join(head)
    labelled = (r"Judgment\s+pronounced\s+on\s*:?\s*(.+)", r"Judgment\s+delivered\s+on\s*:?\s*(.+)",
                r"DATE\s+OF\s+JUDGMENT\s*:?\s*(.+)", r"^\s*Date\s*:\s*(.+)", r"Decided\s+on\s*:?\s*(.+)")
    for rx in labelled:
        m = re.search(rx, text, re.I | re.M)
        if m and parse_date(m.group(1)):
            return parse_date(m.group(1))
    for ln in head[:40]:
        s = ln.strip()
        if len(s) <= 32 and parse_date(s) and not re.search(r"\d+\s*/\s*\d{4}", s):
            return parse_date(s)
    # the place and date at the foot, in the text or (set at the page's left edge) among the margin notes
    tail = "\n".join([p.text for p in pages[-2:]] + [t for p in pages[-2:] for _, t in p.margin])
    m = None
    for m in re.finditer(r"New\s+Delhi\s*[;,.:]?\s*\n?\s*(.{6,30})", tail, re.I):
        pass
    if m and parse_date(m.group(1)):
        return parse_date(m.group(1))
    lines = [ln.strip() for ln in tail.splitlines() if ln.strip()]
    for s in reversed(lines[-6:]):
        if parse_date(s) and len(s) <= 40:
            return parse_date(s)
    return ""


#: a line ending so wraps onto the next: a heading word on that next line is no heading
_WRAPPED = re.compile(r"(?:IMPUGNED|\bOF\s+THE|\bTHE|\bFINAL)\s*$", re.I)


def body_start(pages: tuple[Page, ...], max_pages: int = 12) -> tuple[int, int] | None:
    """``(page index, line index)`` of the line that opens the judgment proper (``JUDGMENT``, ``ORDER``,
    ``The Judgment was delivered by``), searched in the first ``max_pages`` pages; ``None`` if absent. A word that
    only ends a wrapped line above it is no heading (a record of proceedings lists "EXEMPTION FROM FILING C/C OF
    THE IMPUGNED" / "JUDGMENT")."""
    for pi, p in enumerate(pages[:max_pages]):
        prev = ""
        for li, ln in enumerate(p.text.splitlines()):
            if _BODY.match(ln) and not _WRAPPED.search(prev):
                return pi, li
            prev = ln
    return None


_NEUTRAL = re.compile(r"\d{4} INSC \d+|\d{4}:[A-Z-]+:\d+(?:-DB)?")
#: how a decision calls itself (:func:`decision_of`), first match wins: the heading that opens the text proper, else a
#: line of its foot ("Order Date :- 4.10.2023", the Allahabad High Court's orders)
_ORDER_HEAD = re.compile(r"^\s*(?:O\s*R\s*D\s*E\s*R|ORDER)\b", re.I)
_JUDGMENT_HEAD = re.compile(r"^\s*(?:J\s*U\s*D\s*G\s*M\s*E\s*N\s*T|JUDGMENT|Judgment\s*/\s*Order|The\s+Judgment)", re.I)
_ORDER_FOOT = re.compile(r"^\s*Order\s+Date\s*:", re.I | re.M)


def decision_of(pages: tuple[Page, ...], start: tuple[int, int] | None) -> Decision:
    """``"order"`` when the heading that opens the text proper (``start``, :func:`body_start`) reads ``ORDER`` /
    ``O R D E R``, or, with no heading, a line of the last page opens ``Order Date :``; else ``"judgment"``."""
    if start is not None:
        line = pages[start[0]].text.splitlines()[start[1]]
        if _ORDER_HEAD.match(line):
            return "order"
        if _JUDGMENT_HEAD.match(line):
            return "judgment"
    return "order" if pages and _ORDER_FOOT.search(pages[-1].text) else "judgment"


def _bench(head: list[str], pages: tuple[Page, ...]) -> tuple[str, ...]:
    tail = "\n".join(ln for p in pages[-2:] for ln in p.text.splitlines()[-40:])
    return read_bench("\n".join(head[:80]), tail)


def _read_indiankanoon(pages: tuple[Page, ...], start: tuple[int, int] | None) -> Header:
    """An Indian Kanoon text (module docstring): Indian Kanoon's head, then the court's own first lines for what the
    head lacks (a title Indian Kanoon cut, the court, the date) and for case numbers and neutral citations."""
    first = pages[0].text if pages else ""
    ik = read_ik_head(first)
    lines = [ln.rstrip() for ln in first.splitlines() if ln.strip()]
    body = _join_court_lines([ln for ln in lines[ik.lines:] if not is_furniture(ln)])
    own = _title_from_separator(body[:80])
    title = ik.title
    if own and (not title or title.endswith("...")) and (
            own.split(" v. ")[0].lower()[:12] == title.split(" v. ")[0].lower()[:12]):
        title = own  # Indian Kanoon cut the title; the court's cause title gives it whole
    court = ik.court or _court("indiankanoon", body)
    date = ik.date or _date("indiankanoon", body[:60], pages)
    # the court's own neutral citation in its first lines (a reporter citation there is a case it cites)
    cites = ik.citations + tuple(c for c in find_citations("\n".join(body[:25]))
                                 if _NEUTRAL.fullmatch(c) and c not in ik.citations)
    return Header("indiankanoon", title, court, date, cites, find_case_numbers("\n".join(body[:60])), start,
                  ik.bench or _bench(body, pages), decision_of(pages, start))


def read_header(pages: tuple[Page, ...], hint: str | None = None) -> Header:
    """Read layout, title, court, date, citations, case numbers, bench and the decision's form from the first pages
    (see module docstring)."""
    layout = hint or detect_layout(pages)
    start = body_start(pages)
    if layout == "indiankanoon":
        return _read_indiankanoon(pages, start)
    head_pages = pages[: (start[0] + 1) if start else 2]
    head: list[str] = []
    for i, p in enumerate(head_pages):
        lines = p.text.splitlines()
        if start and i == start[0]:
            lines = lines[: start[1] + 1]
        head.extend(ln.rstrip() for ln in lines if ln.strip())
    head = _join_court_lines(head)
    raw_first = _join_court_lines([ln.rstrip() for ln in (pages[0].text.splitlines() if pages else []) if ln.strip()])
    first = [ln for ln in raw_first if not is_furniture(ln)]
    if layout == "text":
        title = _title_inline(first)
    else:
        # a court copy may set the parties in the first page's left margin ("MD IMRAN" / "VERSUS" / "THE STATE")
        title = (_title_from_separator(first[:60]) or _title_from_separator(head[:120])
                 or _title_from_separator([t for _, t in (pages[0].margin if pages else ())]) or _title_inline(first))
    if layout != "text":
        title = mend_split_words(title, pages)
    if layout == "judis":
        block = re.search(r"CITATION:(.*?)(?:CITATOR INFO|ACT:|HEADNOTE:)", "\n".join(first), re.S)
        cites = find_citations(block.group(1)) if block else ()
    elif layout in {"scr", "scr_digital"}:
        cites = find_citations("\n".join(raw_first[:14])) or _scr_from_running_heads(pages)
    else:
        cites = find_citations("\n".join(first[:15]))
    cut = next((i for i, ln in enumerate(head) if re.match(r"\s*(Headnotes|HEADNOTE:|Case\s+Law\s+Cited)", ln)), len(head))
    case_numbers = find_case_numbers("\n".join(head[:cut][:80]))
    if not case_numbers:  # JUDIS and old prints name the case at "ORIGINAL/APPELLATE JURISDICTION: ..."
        for p in pages[:40]:
            m = re.search(r"JURISDICTION\s*:?\s*((?:.*\n){1,3})", p.text)
            if m and find_case_numbers(m.group(1)):
                case_numbers = find_case_numbers(m.group(1))
                break
    court = _court(layout, first)
    # Court prints may set the court line and the case numbers ("* IN THE HIGH COURT OF DELHI", "+ ITA 202/2022")
    # in the left margin, which the page stage keeps apart from the body (Page.margin): read them there too.
    margin = [t for _, t in (pages[0].margin if pages else ())]
    # The Supreme Court's own copies print the neutral citation ("2026 INSC 12") in the first page's margin.
    cites += tuple(c for c in find_citations("\n".join(margin)) if " INSC " in c and c not in cites)
    if not court and margin:
        court = _court(layout, margin)
    if not case_numbers and margin:
        case_numbers = find_case_numbers("\n".join(margin))
    return Header(layout, title, court, _date(layout, head[:cut] if layout != "text" else first[:6], pages),
                  cites, case_numbers, start, _bench(head, pages), decision_of(pages, start))
