"""Word export (python-docx): the answer with real Word footnotes for its citations, then the supersession notes.

python-docx 1.2 has no footnote API, so the footnotes part is added the way WordprocessingML defines it
(ECMA-376 Part 1, 17.11 "Footnotes and Endnotes"): a ``/word/footnotes.xml`` part related to the document with
the ``footnotes`` relationship, holding the two separator footnotes (ids -1 and 0) and one ``w:footnote`` per
citation; each ``[n]`` in the text becomes a ``w:footnoteReference``. Word and LibreOffice show them as footnotes.

Each reference and its note carry the answer's own number as a custom mark (``w:customMarkFollows``, 17.11.14):
Word would otherwise number references by their position in the document, so a note cited twice, or a number left
out of a verified-only export, would read differently in Word than on screen and in the Sources list.
"""

from __future__ import annotations

import io

from docx import Document
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.oxml.parser import OxmlElement

from ..text import MARKER, parse_marker
from .formats import ExportDoc, _footnote_text, flag_line

FOOTNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"


def _mark_run(fid: int, reference: bool):
    """A superscript run showing ``fid``: in the text, a ``w:footnoteReference`` to note ``fid`` followed by its
    custom mark; in the note, the mark alone."""
    run = OxmlElement("w:r")
    rpr = OxmlElement("w:rPr")
    va = OxmlElement("w:vertAlign")
    va.set(qn("w:val"), "superscript")
    rpr.append(va)
    run.append(rpr)
    if reference:
        ref = OxmlElement("w:footnoteReference")
        ref.set(qn("w:customMarkFollows"), "1")
        ref.set(qn("w:id"), str(fid))
        run.append(ref)
    t = OxmlElement("w:t")
    t.text = str(fid)
    run.append(t)
    return run


def _footnotes_xml(notes: list[tuple[int, str]]) -> bytes:
    root = parse_xml(
        f"<w:footnotes {nsdecls('w')}>"
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
        "</w:footnote></w:footnotes>")
    for fid, text in notes:
        fn = OxmlElement("w:footnote")
        fn.set(qn("w:id"), str(fid))
        p = OxmlElement("w:p")
        p.append(_mark_run(fid, reference=False))
        run = OxmlElement("w:r")
        t = OxmlElement("w:t")
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        t.text = " " + text
        run.append(t)
        p.append(run)
        fn.append(p)
        root.append(fn)
    from lxml import etree

    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def to_docx(doc: ExportDoc) -> bytes:
    """A .docx (bytes): title, question, the answer with one footnote per exported ``[n]`` (footnote id and mark =
    n, the record's marker), the supersession notes, problems and the Sources list (``[n]`` and the note's text,
    by n). Markers that were not exported stay as plain ``[n]`` text."""
    d = Document()
    d.core_properties.title = "legal_rag answer"
    d.core_properties.subject = doc.query[:255]
    d.add_heading("Answer", level=1)
    q = d.add_paragraph()
    q.add_run("Question: ").bold = True
    q.add_run(doc.query)
    notes = {r.marker: _footnote_text(r) for r in doc.records}
    for block in [b for b in doc.answer.split("\n") if b.strip()]:
        para, pos = d.add_paragraph(), 0
        for m in MARKER.finditer(block):
            para.add_run(block[pos:m.start()])
            for n in parse_marker(m.group(1)):
                if n in notes:
                    para._p.append(_mark_run(n, reference=True))
                else:
                    para.add_run(f"[{n}]")
            pos = m.end()
        para.add_run(block[pos:])
    if doc.flags:
        d.add_heading("Supersession notes", level=2)
        for f in doc.flags:
            d.add_paragraph(flag_line(f), style="List Bullet")
    if doc.problems:
        d.add_heading("Problems", level=2)
        for p in doc.problems:
            d.add_paragraph(p, style="List Bullet")
    d.add_heading("Sources", level=2)
    for r in doc.records:
        d.add_paragraph(f"[{r.marker}] {_footnote_text(r)}")
    if not doc.include_unverified:
        d.add_paragraph("Only verified citations are listed.").runs[0].italic = True
    part = Part(PackURI("/word/footnotes.xml"), FOOTNOTES_CT, _footnotes_xml(sorted(notes.items())), d.part.package)
    d.part.relate_to(part, RT.FOOTNOTES)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def docx_footnotes(data: bytes) -> dict[int, str]:
    """Read back the footnotes of a .docx made by :func:`to_docx`: ``{id: text}``, the text without the note's
    own mark (separators left out)."""
    d = Document(io.BytesIO(data))
    for rel in d.part.rels.values():
        if rel.reltype == RT.FOOTNOTES:
            root = parse_xml(rel.target_part.blob)
            return {int(fn.get(qn("w:id"))): "".join(t.text or "" for r in fn.iter(qn("w:r")) if not _is_mark(r)
                                                     for t in r.iter(qn("w:t"))).strip()
                    for fn in root.iter(qn("w:footnote")) if int(fn.get(qn("w:id"))) > 0}
    return {}


def _is_mark(run) -> bool:
    """Whether ``run`` (a ``w:r``) is a note's mark (:func:`_mark_run`): superscript."""
    va = run.find(f"{qn('w:rPr')}/{qn('w:vertAlign')}")
    return va is not None and va.get(qn("w:val")) == "superscript"


def docx_references(data: bytes) -> list[tuple[int, str]]:
    """The footnote references of the body of a .docx made by :func:`to_docx`, in reading order: ``(footnote id,
    the mark shown)`` each."""
    d = Document(io.BytesIO(data))
    out = []
    for ref in d.element.body.iter(qn("w:footnoteReference")):
        shown = "".join(t.text or "" for t in ref.getparent().iter(qn("w:t")))
        out.append((int(ref.get(qn("w:id"))), shown))
    return out


__all__ = ["docx_footnotes", "docx_references", "to_docx"]
