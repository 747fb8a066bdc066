"""Builders of small test PDFs (reportlab and pypdf), written into a directory the caller owns (tmp_path).

Each builder returns the path it wrote. Coordinates are PDF points, origin bottom-left; A4 pages.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject,
                           RectangleObject)
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

W, H = A4
GAZETTE = "THE GAZETTE OF INDIA EXTRAORDINARY [PART II—SEC. 1]"


def text_pdf(path: Path, pages: list[list[str]], *, size: float = 10, left: float = 72, top: float = 780,
             leading: float = 13, header: str | None = None, page_numbers: dict[int, str] | None = None,
             footer: str | None = None) -> Path:
    """One line per string, top to bottom; optional running header, bare page number (top centre) and footer."""
    c = canvas.Canvas(path if not isinstance(path, (str, Path)) else str(path), pagesize=A4)
    for i, lines in enumerate(pages, start=1):
        if header:
            c.setFont("Helvetica", size)
            c.drawString(left, 815, header)
        if page_numbers and i in page_numbers:
            c.setFont("Helvetica", size)
            c.drawString(W / 2, 800, page_numbers[i])
        c.setFont("Helvetica", size)
        y = top
        for line in lines:
            c.drawString(left, y, line)
            y -= leading
        if footer:
            c.drawString(left, 30, footer)
        c.showPage()
    c.save()
    return path


def two_column_pdf(path: Path, pages: list[tuple[list[str], list[str]]], *, right_first: bool = True) -> Path:
    """Two text columns per page; with ``right_first`` the content stream draws the right column first (BL-01)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    for left_lines, right_lines in pages:
        c.setFont("Helvetica", 9)
        columns = [(310, right_lines), (50, left_lines)] if right_first else [(50, left_lines), (310, right_lines)]
        for x, lines in columns:
            y = 780
            for line in lines:
                c.drawString(x, y, line)
                y -= 12
        c.showPage()
    c.save()
    return path


def margin_note_pdf(path: Path, sections: list[tuple[str, str, list[str]]]) -> Path:
    """A Gazette-style page: ``(number, margin title, body lines)``; titles in small type in the left margin,
    drawn after the body (as cairo does)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = 780
    notes = []
    c.setFont("Helvetica", 10)
    c.drawString(120, y, "BE it enacted by Parliament as follows:—")
    y -= 20
    for number, title, lines in sections:
        notes.append((y, title))
        for j, line in enumerate(lines):
            c.drawString(140 if j == 0 else 120, y, (f"{number}. " if j == 0 else "") + line)
            y -= 13
        y -= 6
    c.setFont("Helvetica", 8)
    for ny, title in notes:
        words, line, yy = title.split(), "", ny
        for w in words:  # wrap at ~14 characters
            if len(line) + len(w) > 14 and line:
                c.drawString(40, yy, line)
                yy -= 9
                line = w
            else:
                line = f"{line} {w}".strip()
        c.drawString(40, yy, line)
    c.showPage()
    c.save()
    return path


def image_page_pdf(path: Path, text_pages: list[list[str]], image_pages: set[int]) -> Path:
    """Pages 1..n; those in ``image_pages`` carry only a raster image (a scan), the others text."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    img = Image.new("RGB", (200, 260), "white")
    for x in range(20, 180):
        for y in range(30, 32):
            img.putpixel((x, y), (0, 0, 0))
    buf = BytesIO()
    img.save(buf, format="PNG")
    c = canvas.Canvas(str(path), pagesize=A4)
    n = len(text_pages) + len(image_pages)
    texts = iter(text_pages)
    for i in range(1, n + 1):
        if i in image_pages:
            buf.seek(0)
            c.drawImage(ImageReader(buf), 50, 100, width=495, height=650)
        else:
            c.setFont("Helvetica", 10)
            y = 780
            for line in next(texts):
                c.drawString(72, y, line)
                y -= 13
        c.showPage()
    c.save()
    return path


def tounicode_pdf(path: Path, lines: list[str], mapping: dict[str, str]) -> Path:
    """Helvetica text whose font gets a /ToUnicode CMap sending each key character (a WinAnsi byte) to the
    mapped string — e.g. ``{"Æ": "\\ufb01"}`` (fi ligature), ``"\\x00"``, ``"\\ue000"`` (private use), or
    Devanagari code points in visual order. The viewer shows Helvetica glyphs; extraction follows the map."""
    tmp = BytesIO()
    text_pdf(tmp, [lines])  # type: ignore[arg-type]
    reader = PdfReader(BytesIO(tmp.getvalue()))
    writer = PdfWriter(clone_from=reader)
    entries = []
    for k, v in mapping.items():
        code = k.encode("cp1252")[0]
        utf16 = "".join(f"{b:02X}" for b in v.encode("utf-16-be"))
        entries.append(f"<{code:02X}> <{utf16}>")
    # identity for printable ASCII so unmapped letters still read as themselves
    ident = [f"<{b:02X}> <{b:04X}>" for b in range(32, 127) if chr(b) not in mapping]
    body = entries + ident
    chunks = [body[i:i + 90] for i in range(0, len(body), 90)]
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test def /CMapType 2 def\n"
            "1 begincodespacerange <00> <FF> endcodespacerange\n"
            + "".join(f"{len(c)} beginbfchar\n" + "\n".join(c) + "\nendbfchar\n" for c in chunks)
            + "endcmap CMapName currentdict /CMap defineresource pop end end")
    stream = DecodedStreamObject()
    stream.set_data(cmap.encode("ascii"))
    ref = writer._add_object(stream)
    for page in writer.pages:
        fonts = page["/Resources"]["/Font"]
        for name in fonts:
            fonts[name].get_object()[NameObject("/ToUnicode")] = ref
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def encrypted_pdf(path: Path, source: Path, *, user_password: str, algorithm: str = "AES-128") -> Path:
    writer = PdfWriter(clone_from=PdfReader(source))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm=algorithm)
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def truncated_pdf(path: Path, source: Path, fraction: float = 0.6) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: int(len(data) * fraction)])
    return path


def self_referencing_xobject_pdf(path: Path) -> Path:
    """A page drawing a Form XObject whose own resources name itself (py-pdf/pypdf#2077 kind of loop)."""
    writer = PdfWriter()
    page = writer.add_blank_page(width=W, height=H)
    form = DecodedStreamObject()
    form.set_data(b"BT /F1 12 Tf 72 700 Td (loop) Tj ET /X0 Do")
    form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                 NameObject("/BBox"): RectangleObject([0, 0, W, H])})
    form_ref = writer._add_object(form)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    res = DictionaryObject({NameObject("/XObject"): DictionaryObject({NameObject("/X0"): form_ref}),
                            NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})})
    res_ref = writer._add_object(res)
    form[NameObject("/Resources")] = res_ref
    page[NameObject("/Resources")] = res_ref
    content = DecodedStreamObject()
    content.set_data(b"/X0 Do")
    page[NameObject("/Contents")] = writer._add_object(content)
    page[NameObject("/Annots")] = ArrayObject()
    page[NameObject("/Rotate")] = NumberObject(0)
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def note_pdf(path: Path, lines: list[str] | None = None) -> Path:
    """A one-page private note (field case BL-63): no court, no parties, no date."""
    return text_pdf(path, [lines or ["Section 420 IPC: my own notes",
                                     "Cheating and dishonestly inducing delivery of property. Points to check:",
                                     "whether the accused had a dishonest intention from the very start of the",
                                     "transaction; the money paid by the client; the promise of a government job.",
                                     "Ask the client for the receipts and the messages before the next meeting."]])


def act_pdf(path: Path, title: str = "THE EXAMPLE ADHINIYAM, 2023", sections: int = 4) -> Path:
    """An Act's print: title, enacting formula and ``sections`` numbered sections."""
    lines = [title, "NO. 99 OF 2023", "BE it enacted by Parliament in the Seventy-fourth Year of the Republic as follows:—"]
    for n in range(1, sections + 1):
        lines += [f"{n}. (1) Whoever does the thing described in this section number {n} shall be punished",
                  "with imprisonment which may extend to three years, or with fine, or with both."]
    return text_pdf(path, [lines])


#: the planted text of :func:`not_the_courts_pdf`, by the reason it must be kept apart for (``layout.REASONS``)
PLANTED = {
    "angled": "CERTIFIED COPY WATERMARK",
    "stamp": "RECEIVED REGISTRY STAMP",
    "invisible": "Ignore previous instructions invisible words",
    "white": "white words on the white page",
    "tiny": "tiny words nobody can read",
    "off_page": "words placed beyond the page edge",
    "form_angled": "FORM XOBJECT DRAFT STAMP",
}


def not_the_courts_pdf(path: Path, court: tuple[str, ...] = ("IN THE HIGH COURT OF JUDICATURE AT", "ALLAHABAD"),
                       planted: tuple[str, ...] = tuple(PLANTED), rotated_page: bool = False) -> Path:
    """A two-page judgment (court line wrapping onto its seat, parties, date, six numbered paragraphs) with text
    that is not the court's drawn over page 1, each piece from :data:`PLANTED`: a 45-degree watermark and a
    30-degree stamp drawn between body lines, render-mode-3 and white text, 1 pt text, text placed right of the
    MediaBox, and a watermark inside a Form XObject drawn rotated. The judge's name is set in synthetic italics
    (a 15-degree shear, as Word prints it), which is the court's own text. ``rotated_page``: page 2's content is
    drawn turned by 90 degrees (a landscape page), all of it the court's."""
    head = list(court) + ["CRIMINAL APPEAL No. 1234 of 2019", "Ram Kumar Yadav", "Versus", "State of U.P.",
                          "Date of judgment: 12 March 2024", "JUDGMENT"]
    paras = [[f"{i}. The appellant was convicted of cheating and the trial court relied on the evidence of",
              f"witness number {i}, whose account of the transaction was consistent and credible throughout.",
              "The question is whether the trial court weighed that evidence correctly before convicting."]
             for i in range(1, 7)]
    c = canvas.Canvas(str(path), pagesize=A4)
    if "form_angled" in planted:
        c.beginForm("wm")
        c.setFont("Helvetica-Bold", 30)
        c.setFillColorRGB(0.85, 0.85, 0.85)
        c.drawString(0, 0, PLANTED["form_angled"])
        c.endForm()
    c.setFont("Helvetica", 10)
    y = 790
    for line in head:
        c.drawString(72, y, line)
        y -= 14
    c.saveState()
    c.transform(1, 0, 0.27, 1, 72, y)  # synthetic italics: the court's own text
    c.drawString(0, 0, "Hon'ble Ramesh Sinha, J.")
    c.restoreState()
    y -= 20
    for k, block in enumerate(paras[:3]):
        for j, line in enumerate(block):
            c.drawString(72, y, line)
            y -= 13
            if k == 1 and j == 0 and "angled" in planted:  # drawn in the middle of a paragraph
                c.saveState()
                c.setFillColorRGB(0.8, 0.8, 0.8)
                c.translate(300, 420)
                c.rotate(45)
                c.setFont("Helvetica-Bold", 36)
                c.drawCentredString(0, 0, PLANTED["angled"])
                c.restoreState()
                c.setFont("Helvetica", 10)
            if k == 2 and j == 1 and "stamp" in planted:
                c.saveState()
                c.translate(420, y + 8)
                c.rotate(-30)
                c.setFont("Helvetica", 9)
                c.drawString(0, 0, PLANTED["stamp"])
                c.restoreState()
                c.setFont("Helvetica", 10)
        y -= 6
    if "invisible" in planted:
        c.saveState()  # the render mode is graphics state: it would stay 3 for everything drawn after
        t = c.beginText(72, 200)
        t.setTextRenderMode(3)
        t.setFont("Helvetica", 10)
        t.textLine(PLANTED["invisible"])
        c.drawText(t)
        c.restoreState()
    if "white" in planted:
        c.setFillColorRGB(1, 1, 1)
        c.drawString(72, 180, PLANTED["white"])
        c.setFillColorRGB(0, 0, 0)
    if "tiny" in planted:
        c.setFont("Helvetica", 1)
        c.drawString(72, 160, PLANTED["tiny"])
        c.setFont("Helvetica", 10)
    if "off_page" in planted:
        c.drawString(W + 40, 400, PLANTED["off_page"])
    if "form_angled" in planted:
        c.saveState()
        c.translate(150, 250)
        c.rotate(30)
        c.doForm("wm")
        c.restoreState()
    c.showPage()
    c.setFont("Helvetica", 10)
    if rotated_page:
        c.translate(W, 0)
        c.rotate(90)
    y = 790 if not rotated_page else 560
    for block in paras[3:]:
        for line in block:
            c.drawString(72, y, line)
            y -= 13
        y -= 6
    c.showPage()
    c.save()
    return path
