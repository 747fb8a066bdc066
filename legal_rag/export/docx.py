"""Word export (python-docx): the answer with real Word footnotes for its citations, then the supersession notes.

python-docx 1.2 has no footnote API, so the footnotes part is added the way WordprocessingML defines it
(ECMA-376 Part 1, 17.11 "Footnotes and Endnotes"): a ``/word/footnotes.xml`` part related to the document with
the ``footnotes`` relationship, holding the two separator footnotes (ids -1 and 0) and one ``w:footnote`` per
citation; each ``[n]`` in the text becomes a ``w:footnoteReference``. Word and LibreOffice show them as footnotes.
"""

from __future__ import annotations

import io
import re

from docx import Document
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.oxml.parser import OxmlElement

from .formats import ExportDoc, _footnote_text, flag_line

FOOTNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
_MARK = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


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
        ref_run = OxmlElement("w:r")
        rpr = OxmlElement("w:rPr")
        va = OxmlElement("w:vertAlign")
        va.set(qn("w:val"), "superscript")
        rpr.append(va)
        ref_run.append(rpr)
        ref_run.append(OxmlElement("w:footnoteRef"))
        p.append(ref_run)
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


def _add_reference(paragraph, fid: int) -> None:
    run = paragraph.add_run()
    rpr = OxmlElement("w:rPr")
    va = OxmlElement("w:vertAlign")
    va.set(qn("w:val"), "superscript")
    rpr.append(va)
    run._r.append(rpr)
    ref = OxmlElement("w:footnoteReference")
    ref.set(qn("w:id"), str(fid))
    run._r.append(ref)


def to_docx(doc: ExportDoc) -> bytes:
    """A .docx (bytes): title, question, the answer with one footnote per exported ``[n]`` (footnote id = n),
    the supersession notes and problems. Markers that were not exported stay as plain ``[n]`` text."""
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
        for m in _MARK.finditer(block):
            para.add_run(block[pos:m.start()])
            for n in (int(x) for x in re.split(r"\s*,\s*", m.group(1))):
                if n in notes:
                    _add_reference(para, n)
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
    """Read back the footnotes of a .docx made by :func:`to_docx`: ``{id: text}`` (separators left out)."""
    d = Document(io.BytesIO(data))
    for rel in d.part.rels.values():
        if rel.reltype == RT.FOOTNOTES:
            root = parse_xml(rel.target_part.blob)
            return {int(fn.get(qn("w:id"))): "".join(t.text or "" for t in fn.iter(qn("w:t"))).strip()
                    for fn in root.iter(qn("w:footnote")) if int(fn.get(qn("w:id"))) > 0}
    return {}


__all__ = ["docx_footnotes", "to_docx"]
