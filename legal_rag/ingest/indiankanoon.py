"""Judgments as Indian Kanoon prints them in text, read in place from a tar archive (never unpacked).

Source: ``judgments/indiankanoon_criminal_jits/jits_indiankanoon_criminal_378.tar.gz`` (SOURCES.md): one
``<CATEGORY>_<Indian Kanoon doc id>.txt`` per decision, the text of the Indian Kanoon page. Its layout:

* Indian Kanoon's head, each item a block of its own: ``[Cites 20, Cited by 0]``; the court as Indian Kanoon names
  it (``Allahabad High Court``, ``Delhi High Court - Orders``); ``<title> on <date>`` (``Danish And Another vs State
  Of U.P. on 4 October, 2023``; a long title is cut by Indian Kanoon and ends ``...``); then, where Indian Kanoon
  has them, ``Equivalent citations: AIR 1995 BOM 246, ...``, ``Author: <judge>`` and ``Bench: <judges>``;
* the court's own text after it: typed prose, or the court's print kept line for line (indented).

Indian Kanoon links statute sections and cases; the text keeps each link on a line of its own (``under \\nSections
498-A\\n, \\n304-B\\n IPC``). :func:`join_link_lines` puts those lines back into the sentence they came from, so the
citation grammar reads "under Sections 498-A, 304-B IPC".

``read_archive(path) -> tuple[IKDoc, ...]`` reads every member in archive order; :func:`read_head` reads the head.
The head is what Indian Kanoon says about the document; the court's own text below it is the source of truth where
the two differ (the judgment parser reads case numbers and the decision's form from it).
"""

from __future__ import annotations

import hashlib
import re
import tarfile
from dataclasses import dataclass
from pathlib import Path

from .citations_meta import find_citations, parse_date
from .judgment_court import SC

#: Indian Kanoon's court names -> the court's name as this project writes it (the form
#: :func:`legal_rag.ingest.judgment_header.read_header` gives a court's own print: "High Court of Delhi"). One row per
#: court; an Indian Kanoon name not listed is kept as printed.
IK_COURTS: dict[str, str] = {
    "Supreme Court of India": SC,
    "Allahabad High Court": "High Court of Judicature at Allahabad",
    "Andhra HC (Pre-Telangana)": "High Court of Andhra Pradesh",
    "Andhra Pradesh High Court - Amravati": "High Court of Andhra Pradesh",
    "Bombay High Court": "High Court of Judicature at Bombay",
    "Calcutta High Court": "High Court at Calcutta",
    "Calcutta High Court (Appellete Side)": "High Court at Calcutta",
    "Chattisgarh High Court": "High Court of Chhattisgarh",
    "Delhi High Court": "High Court of Delhi",
    "Delhi High Court - Orders": "High Court of Delhi",
    "Gauhati High Court": "Gauhati High Court",
    "Gujarat High Court": "High Court of Gujarat",
    "Himachal Pradesh High Court": "High Court of Himachal Pradesh",
    "Jammu & Kashmir High Court": "High Court of Jammu & Kashmir and Ladakh",
    "Jharkhand High Court": "High Court of Jharkhand",
    "Karnataka High Court": "High Court of Karnataka",
    "Kerala High Court": "High Court of Kerala",
    "Madhya Pradesh High Court": "High Court of Madhya Pradesh",
    "Madras High Court": "High Court of Judicature at Madras",
    "Orissa High Court": "High Court of Orissa",
    "Patna High Court": "High Court of Judicature at Patna",
    "Patna High Court - Orders": "High Court of Judicature at Patna",
    "Punjab-Haryana High Court": "High Court of Punjab and Haryana",
    "Rajasthan High Court - Jaipur": "High Court of Judicature for Rajasthan",
    "Rajasthan High Court - Jodhpur": "High Court of Judicature for Rajasthan",
    "Tripura High Court": "High Court of Tripura",
    "Uttarakhand High Court": "High Court of Uttarakhand",
    "Bangalore District Court": "District Court, Bengaluru",
    "Delhi District Court": "District Court, Delhi",
}
#: the citation this project gives an Indian Kanoon document: its page's address, as the Indian Kanoon doc id names it
IK_CITATION = "indiankanoon.org/doc/{doc_id}"

_MEMBER = re.compile(r"(?:^|/)(?P<cat>[A-Z0-9_]+?)_(?P<id>\d+)\.txt$")
_CITES = re.compile(r"^\s*\[\s*Cites\s+\d+\s*,\s*Cited\s+by\s+\d+\s*\]\s*$")
_TITLE_ON = re.compile(r"^(?P<title>.+?)\s+on\s+(?P<date>\d{1,2}\s+[A-Za-z]+,?\s+\d{4})\s*$")
_LABEL = re.compile(r"^\s*(?P<label>Equivalent\s+citations|Author|Bench)\s*:\s*(?P<value>.*)$", re.I)
_INDENT = re.compile(r"^(?: {6,}|\t)\S")
_NUMBERED = re.compile(r"^\s*(?:\d{1,3}(?:\.\d{1,2})*\.|\(\d{1,3}\)|\([ivx]{1,6}\))\s+\S")


@dataclass(frozen=True)
class IKDoc:
    """One member of an Indian Kanoon archive: ``member`` (path in the tar), ``doc_id`` (Indian Kanoon's number),
    ``category`` (the collector's query, e.g. ``CRIMINAL_BAIL_IPC498A``), ``text`` (links joined back:
    :func:`join_link_lines`) and ``sha256`` of the member's bytes."""

    member: str
    doc_id: str
    category: str
    text: str
    sha256: str

    @property
    def citation(self) -> str:
        """``indiankanoon.org/doc/101253596`` (:data:`IK_CITATION`)."""
        return IK_CITATION.format(doc_id=self.doc_id)


@dataclass(frozen=True)
class IKHead:
    """What Indian Kanoon's head says: court (:data:`IK_COURTS` form), title (``"A v. B"``, ``...`` kept when
    Indian Kanoon cut it), ISO date, bench (judges as printed), citations (canonical, from ``Equivalent
    citations``) and ``lines``: how many of the document's first non-blank lines the head takes."""

    court: str = ""
    title: str = ""
    date: str = ""
    bench: tuple[str, ...] = ()
    citations: tuple[str, ...] = ()
    lines: int = 0


def _joiner(before: str, after: str) -> str:
    """What goes between a line and the next that continues it: nothing where either side is blank or punctuation
    meets the word (``"Sections 498-A" + ", "``, ``"Section 3" + "/"``), one space between two words."""
    a, b = before[-1:], after[:1]
    if not a or not b or a.isspace() or b.isspace():
        return ""
    return " " if a.isalnum() and b.isalnum() else ""


def join_link_lines(text: str) -> str:
    """``text`` with Indian Kanoon's link lines joined back into their sentence.

    Blocks are separated by blank lines. In a block of the court's print kept line for line (a third or more of its
    lines indented by 6+ spaces or a tab), an indented line starts a printed line and any other line continues the
    one before; in a block of prose every line continues the one before, except one that opens a numbered paragraph
    (``2.``, ``(iii)``) after a sentence end. ``join_link_lines("under \\nSections 498-A\\n, \\n304-B\\n IPC") ->
    "under Sections 498-A, 304-B IPC"``.
    """
    out: list[str] = []
    for block in re.split(r"\n(?:[ \t\u00a0]*\n)+", text.replace("\r\n", "\n").replace("\r", "\n")):
        lines = block.split("\n")
        printed = sum(bool(_INDENT.match(ln)) for ln in lines) >= max(1, 0.3 * len(lines))
        joined: list[str] = []
        for ln in lines:
            starts = (printed and bool(_INDENT.match(ln))) or (
                not printed and bool(_NUMBERED.match(ln)) and joined and joined[-1].rstrip()[-1:] in ".:;")
            if not joined or starts:
                joined.append(ln)
            else:
                joined[-1] += _joiner(joined[-1], ln) + ln
        out.append("\n".join(joined))
    return "\n\n".join(b for b in out if b.strip())


def _names(value: str) -> tuple[str, ...]:
    parts = re.split(r"\s*,\s*|\s+and\s+|\s*&\s*", value.strip())
    return tuple(dict.fromkeys(re.sub(r"\s+", " ", p).strip(" .") for p in parts if p.strip(" .")))


def read_head(text: str) -> IKHead:
    """Indian Kanoon's head of ``text`` (links joined). ``IKHead()`` (all empty, ``lines=0``) when ``text`` does not
    open with Indian Kanoon's ``[Cites n, Cited by m]`` line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()][:12]
    if not lines or not _CITES.match(lines[0]):
        return IKHead()
    court, title, date, bench, cites, used = "", "", "", (), (), 1
    for i, ln in enumerate(lines[1:], 1):
        m = _TITLE_ON.match(ln)
        lab = _LABEL.match(ln)
        if lab:
            name = lab.group("label").lower()
            if name.startswith("equivalent"):
                cites = find_citations(lab.group("value"))
            elif name == "bench":
                bench = _names(lab.group("value"))
            elif name == "author" and not bench:
                bench = _names(lab.group("value"))
            used = i + 1
        elif m and not title and parse_date(m.group("date")):
            title, date, used = m.group("title"), parse_date(m.group("date")), i + 1
        elif not court and not title and len(ln) <= 80:
            court, used = IK_COURTS.get(ln, ln), i + 1
        else:
            break
    title = re.sub(r"\s+vs\.?\s+", " v. ", title, count=1)
    return IKHead(court, title, date, bench, cites, used)


def doc_id_of(member: str) -> tuple[str, str]:
    """``("CRIMINAL_BAIL_IPC498A", "1005706")`` from a member name ``.../CRIMINAL_BAIL_IPC498A_1005706.txt``;
    ``("", "")`` for another name."""
    m = _MEMBER.search(member)
    return (m.group("cat"), m.group("id")) if m else ("", "")


def read_archive(path: Path) -> tuple[IKDoc, ...]:
    """Every ``*.txt`` member of the tar at ``path`` with an Indian Kanoon doc id in its name, in archive order,
    read in place (UTF-8; undecodable bytes replaced). Raises ``FileNotFoundError`` / ``tarfile.TarError``."""
    docs: list[IKDoc] = []
    with tarfile.open(path, "r:*") as tf:
        for m in tf:
            if not m.isfile():
                continue
            cat, doc_id = doc_id_of(m.name)
            if not doc_id:
                continue
            raw = tf.extractfile(m).read()  # type: ignore[union-attr]
            docs.append(IKDoc(m.name, doc_id, cat, join_link_lines(raw.decode("utf-8", errors="replace")),
                              hashlib.sha256(raw).hexdigest()))
    return tuple(docs)


__all__ = ["IKDoc", "IKHead", "IK_CITATION", "IK_COURTS", "doc_id_of", "join_link_lines", "read_archive", "read_head"]
