"""What a document is: an Act's print (statute), a court's judgment or order, or another document.

The judgment parser reads anything that is not a statute, so without this step a one-page private note ("Section
420 IPC: my own notes") would be read as a judgment with no court, title or date. Every judgment source and every
upload is classified here first, and labelled so in the index, citations, exports and the ingest report:

* ``statute`` -- the print of an Act or Bill: the enacting formula ("BE it enacted") followed by numbered sections
  (:func:`legal_rag.ingest.statutes.parse_statute` finds 3 or more), or a Bill's title line. Statutes are indexed
  from the manifest's official texts only, so an uploaded one is refused with that reason.
* ``judgment`` -- the header names a court, and the parties (title) or a date with a reporter/neutral citation or
  case number (:mod:`legal_rag.ingest.judgment_header`). Every judgment of the default corpus has court, title
  and date.
* ``document`` -- anything else: indexed and citable as what it is ("other document", never "judgment").

``read_document(pages, source, hint=None) -> (Judgment, paragraphs, problems)`` parses a non-statute text and
returns its :class:`~legal_rag.types.Judgment` with ``kind`` set; for a document the header warnings (no title,
court, date) give way to one ``info`` Problem saying what it was classified as and why.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..config import Settings
from ..types import DocKind, IngestReport, Judgment, Page, Paragraph, Problem
from .judgments import parse_judgment
from .statutes import _BODY_START, bill_title, parse_statute

#: how many numbered sections an enacting formula must be followed by to make a statute
MIN_SECTIONS = 3
#: what a document of kind ``document`` is called to users (citations, exports, ingest report)
DOCUMENT_LABEL = "other document (not a judgment or statute)"
_JUDGMENT_ONLY = frozenset({"no_title", "no_court", "no_date", "unnumbered"})  # what a judgment may lack


@dataclass(frozen=True)
class Classified:
    """A document's kind and the reason, in words a user can check (``"no court, title or date found"``)."""

    kind: DocKind
    reason: str


def statute_reason(pages: Sequence[Page]) -> str:
    """Why ``pages`` are an Act's (or Bill's) print, or ``""`` when they are not."""
    pages = [p for p in pages if not p.skipped]
    bill = bill_title(pages)
    if bill:
        return f"the print of a Bill ({bill})"
    if not any(_BODY_START.search(p.text) for p in pages[:3]):
        return ""
    sections, _ = parse_statute("?", pages, "?")
    return f"the print of an Act (enacting formula and {len(sections)} numbered sections)" if len(
        sections) >= MIN_SECTIONS else ""


def classify(pages: Sequence[Page], judgment: Judgment | None = None) -> Classified:
    """``statute``, ``judgment`` or ``document`` (see the module docstring). ``judgment`` is what
    :func:`~legal_rag.ingest.judgments.parse_judgment` read from the same pages (read here when not given)."""
    why = statute_reason(pages)
    if why:
        return Classified("statute", why)
    if judgment is None:
        judgment = parse_judgment(tuple(pages), "?")[0]
    found = {"court": judgment.court, "title": judgment.title, "date": judgment.date,
             "citation or case number": judgment.citations or judgment.case_numbers}
    missing = [k for k, v in found.items() if not v]
    numbered = judgment.citations or judgment.case_numbers
    if judgment.court and (judgment.title or (judgment.date and numbered)):  # a court, and parties or date + number
        return Classified("judgment", f"{judgment.court}: {judgment.title}")
    if len(missing) == len(found):
        return Classified("document", "no court, title, date, citation or case number found")
    return Classified("document", f"no {_join(missing)} found")


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def document_title(pages: Sequence[Page], fallback: str) -> str:
    """A document's title: the first line of its first page with text (up to 120 characters, cut at a word), else
    ``fallback``."""
    first = next((ln.strip() for p in pages if not p.skipped for ln in p.text.splitlines() if ln.strip()), "")
    if len(first) > 120:
        first = first[:120].rsplit(" ", 1)[0] + " …"
    return first or fallback


def read_document(pages: Sequence[Page], source: str, hint: str | None = None
                  ) -> tuple[Judgment, tuple[Paragraph, ...], tuple[Problem, ...]]:
    """Parse a non-statute text like a judgment, then classify it: the returned Judgment's ``kind`` is
    ``judgment`` or ``document`` (a statute's print is ``document`` here too, with its reason: callers that take
    statutes check :func:`statute_reason` first). A document's title is its first line when the header found none;
    its problems lose the ``no_title`` / ``no_court`` / ``no_date`` / ``unnumbered`` notes (it has no court to
    miss) and gain one ``info`` Problem ``other_document`` with the reason."""
    judgment, paras, problems = parse_judgment(tuple(pages), source, hint)
    if not paras:
        return judgment, paras, problems
    got = classify(pages, judgment)
    if got.kind == "judgment":
        return judgment, paras, problems
    title = judgment.title or document_title(pages, judgment.case_id)
    note = Problem(source, "other_document", f"classified as {DOCUMENT_LABEL}: {got.reason}; it is cited as a "
                   "document, never as a judgment", severity="info")
    return (dataclasses.replace(judgment, title=title, kind="document"), paras,
            tuple(p for p in problems if p.kind not in _JUDGMENT_ONLY) + (note,))


def read_upload(pages: Sequence[Page], source: str
                ) -> tuple[Judgment | None, tuple[Paragraph, ...], tuple[Problem, ...]]:
    """A user's upload: a statute's print is refused (``error`` Problem ``statute_upload`` with the reason: statutes
    come from the official texts of the manifest, and a second copy of an Act would be cited beside them);
    anything else is :func:`read_document` (a judgment, or a document labelled so)."""
    why = statute_reason(pages)
    if why:
        return None, (), (Problem(source, "statute_upload", f"{why}: statutes are indexed from the official texts "
                                  "listed in corpora/manifest.toml, not from uploads; not indexed", severity="error"),)
    return read_document(pages, source)


def read_upload_file(path: Path, settings: Settings) -> tuple[IngestReport, Judgment | None, tuple[Paragraph, ...]]:
    """A user's uploaded PDF read as :func:`read_upload` reads its pages, with the ingest report for it.

    Returns ``(report, judgment, paragraphs)``: ``report.failed`` names the file when nothing can be indexed (an
    unreadable PDF, no text layer, a statute's print); ``report.judgments`` / ``report.documents`` count what it
    was classified as. The PDF is read in a child with ``settings.pdf_timeout_s`` and ``settings.max_pages``."""
    from .pdf import extract_pages

    path = Path(path)
    res = extract_pages(path, timeout_s=settings.pdf_timeout_s, max_pages=settings.max_pages)
    problems = list(res.problems)
    pages = [p for p in res.pages if not p.skipped]
    judgment, paragraphs = None, ()
    if res.ok and pages:
        judgment, paragraphs, more = read_upload(pages, path.name)
        problems += more
    failed = () if paragraphs else (path.name,)
    kind = judgment.kind if judgment is not None and paragraphs else ""
    report = IngestReport(files=(path.name,), pages=res.page_count, judgments=int(kind == "judgment"),
                          documents=int(kind == "document"), paragraphs=len(paragraphs),
                          problems=tuple(problems), failed=failed)
    return report, judgment, tuple(paragraphs)


__all__ = ["read_upload_file", "Classified", "DOCUMENT_LABEL", "MIN_SECTIONS", "classify", "document_title", "read_document",
           "read_upload", "statute_reason"]
