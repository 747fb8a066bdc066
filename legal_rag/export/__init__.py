"""Export an :class:`~legal_rag.types.Answer` with its citations: the front door used by the UI and the CLI.

    export_answer(answer, "bibtex")                   -> bytes (UTF-8 text, or a .docx for "docx")
    write_exports(answer, Path("out"))               -> {"markdown": Path("out/legal-rag-answer.md"), ...}
    turn_of_json(export_answer(answer, "json"))      -> Turn (what a follow-up takes from that answer)

Formats (:data:`FORMATS`): ``markdown``, ``json``, ``csv``, ``ris``, ``bibtex``, ``csl-json`` and ``docx``. Each
holds the answer, its footnoted citations in Indian style (:mod:`.records`) and the supersession notes. Only
citations that :mod:`legal_rag.verify` marked ``supported`` are exported unless ``include_unverified=True``.

Modules: :mod:`.records` (one footnote per ``[n]``), :mod:`.formats` (the text formats) and :mod:`.docx` (Word;
python-docx is imported only when a .docx is written or read, haystack's ``LazyImport``).
"""

from __future__ import annotations

import datetime as dt
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import LegalRagError
from ..law import Turn, answer_turn
from ..types import Answer
from .formats import (ExportDoc, build_doc, doc_from_json, to_bibtex, to_csl_json, to_csv, to_json, to_markdown,
                      to_ris)
from .records import CitationRecord, answer_text, citation_records, judgment_citation, statute_citation


#: characters XML 1.0 cannot hold (python-docx refuses them: "All strings must be XML compatible")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(value: Any) -> Any:
    """``value`` with every character XML 1.0 cannot hold replaced by a space, through strings, tuples and
    (frozen) dataclasses such as :class:`ExportDoc` and its records. A question pasted from Word carries a vertical
    tab, a PDF extract a form feed (BL-54); the front door normalises user text, and this keeps a document's own
    text or an answer read back from JSON from failing the whole .docx."""
    if isinstance(value, str):
        return _NOT_XML.sub(" ", value)
    if isinstance(value, tuple):
        return tuple(xml_safe(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: xml_safe(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value


def to_docx(doc: ExportDoc) -> bytes:
    """``doc`` as a .docx with real Word footnotes (:func:`legal_rag.export.docx.to_docx`); characters XML cannot
    hold become spaces (:func:`xml_safe`). python-docx is imported here, on first use."""
    from .docx import to_docx as write

    return write(xml_safe(doc))


def docx_footnotes(data: bytes) -> dict[int, str]:
    """``{footnote id: text}`` of a .docx written by :func:`to_docx` (python-docx imported on first use)."""
    from .docx import docx_footnotes as read

    return read(data)


def docx_references(data: bytes) -> list[tuple[int, str]]:
    """``[(footnote id, mark shown)]`` of the body of a .docx written by :func:`to_docx`, in reading order
    (python-docx imported on first use)."""
    from .docx import docx_references as read

    return read(data)


@dataclass(frozen=True)
class Format:
    """One export format: file extension (with dot), MIME type and the writer (``ExportDoc -> str | bytes``)."""

    name: str
    ext: str
    mime: str
    write: Callable[[ExportDoc], str | bytes]


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("markdown", ".md", "text/markdown", to_markdown),
    Format("json", ".json", "application/json", to_json),
    Format("csv", ".csv", "text/csv", to_csv),
    Format("ris", ".ris", "application/x-research-info-systems", to_ris),
    Format("bibtex", ".bib", "application/x-bibtex", to_bibtex),
    Format("csl-json", ".csl.json", "application/vnd.citationstyles.csl+json", to_csl_json),
    Format("docx", ".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", to_docx),
)}


def get_format(name: str) -> Format:
    """The :class:`Format` called ``name`` (``md``, ``bib`` and ``csl`` are accepted as aliases)."""
    name = {"md": "markdown", "bib": "bibtex", "csl": "csl-json", "csljson": "csl-json"}.get(name.lower(), name.lower())
    if name not in FORMATS:
        raise LegalRagError(f"unknown export format {name!r}; choose one of {', '.join(FORMATS)}")
    return FORMATS[name]


def export_doc(doc: ExportDoc, fmt: str) -> bytes:
    """``doc`` in format ``fmt`` as bytes (text formats UTF-8 encoded)."""
    out = get_format(fmt).write(doc)
    return out.encode("utf-8") if isinstance(out, str) else out


def export_answer(answer: Answer, fmt: str, include_unverified: bool = False) -> bytes:
    """``answer`` in format ``fmt``; raises :class:`LegalRagError` for an unknown format."""
    return export_doc(build_doc(answer, include_unverified), fmt)


def write_exports(answer: Answer | ExportDoc, directory: Path, formats: tuple[str, ...] | None = None,
                  include_unverified: bool = False, stem: str = "legal-rag-answer") -> dict[str, Path]:
    """Write ``answer`` in each of ``formats`` (default: all) to ``directory/<stem><ext>``; returns
    ``{format: path}``. The directory is created if missing."""
    doc = answer if isinstance(answer, ExportDoc) else build_doc(answer, include_unverified)
    directory.mkdir(parents=True, exist_ok=True)
    out = {}
    for name in formats or tuple(FORMATS):
        f = get_format(name)
        path = directory / f"{stem}{f.ext}"
        path.write_bytes(export_doc(doc, f.name))
        out[f.name] = path
    return out


def turn_of_json(text: str | bytes, name: str = "<json>") -> Turn:
    """The turn a follow-up takes from a previous answer exported as JSON (the JSON export, which the JSON API
    answers with): its question and its head's provisions as structured refs, each with its Act
    (:func:`legal_rag.law.answer_turn`), never its text re-read. Raises :class:`LegalRagError` naming ``name``
    when ``text`` is no such export."""
    doc = doc_from_json(text.decode("utf-8") if isinstance(text, bytes) else text, name)
    return answer_turn(doc.query, doc.head, ranked=bool(doc.suggestions),
                       offence_date=dt.date.fromisoformat(doc.offence_date) if doc.offence_date else None)


__all__ = ["FORMATS", "CitationRecord", "answer_text", "ExportDoc", "Format", "build_doc", "citation_records", "doc_from_json",
           "docx_footnotes", "docx_references", "export_answer", "export_doc", "get_format", "judgment_citation",
           "statute_citation", "turn_of_json", "write_exports"]
