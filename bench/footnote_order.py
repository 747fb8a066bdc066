"""Footnote order: over every answer of question sets, the citation markers run 1, 2, 3, ... in order of first
appearance on screen, and every export numbers its notes as the screen does (bench/results_footnotes.md). Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python bench/footnote_order.py --data-dir DIR --set bench/devset.jsonl \
        --set bench/factset.jsonl

Prints one line per answer with a fault (its id and the faults), then one JSON line per set: ``questions``,
``answers`` (a question over the length limit is refused, not answered), ``with_citations``, ``renumbered``
(answers whose markers the pipeline put in reading order: :func:`legal_rag.answer.finish.in_reading_order` changed
them), ``with_unverified`` (answers citing a passage for a sentence not verified, whose verified-only exports leave
that number out), ``out_of_order`` (answers with any fault of :func:`faults`).

What is checked (:func:`faults`, used by ``tests/export/test_footnote_order_real.py``):

* the screen (:mod:`legal_rag.ui.html`): the shown text's markers first appear as 1, 2, ..., k with no gap, the
  citation table's rows are 1..k in that order, and the "Sources:" line lists the table's numbers;
* each export, with every citation (``include_unverified=True``): its records are the screen's rows (same numbers,
  same passages) and its text is the screen's text;
* each export, verified citations only: its records are screen rows under the screen's numbers, in order, and its
  text's markers are theirs, in order;
* in each format: Markdown footnote references and definitions, JSON and CSV markers, RIS / BibTeX / CSL-JSON ids
  ``lr<n>``, the Word body's footnote references (their ids and the marks shown) and its footnotes, all equal to
  the records' numbers.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import os
import re
import sys
import zipfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.export import FORMATS, build_doc, citation_records, docx_references, export_doc  # noqa: E402
from legal_rag.export.records import answer_text  # noqa: E402
from legal_rag.text import MARKER, parse_marker  # noqa: E402
from legal_rag.types import Answer  # noqa: E402
from legal_rag.ui.html import citations_panel, sources_line  # noqa: E402

_NOTE_ID = re.compile(r'<w:footnote w:id="(\d+)"')


def first_seen(numbers) -> list[int]:
    """The distinct ``numbers`` in order of first appearance."""
    return list(dict.fromkeys(numbers))


def consecutive(numbers) -> bool:
    """``numbers`` first appear as 1, 2, ..., k (k may be 0)."""
    seen = first_seen(numbers)
    return seen == list(range(1, len(seen) + 1))


def text_markers(text: str, valid: set[int]) -> list[int]:
    """The citation markers of ``text`` that name one of ``valid``, in reading order."""
    return [n for m in MARKER.finditer(text) for n in parse_marker(m.group(1)) if n in valid]


def sources_numbers(line: str) -> list[int]:
    """The numbers of a "Sources:" line (``"Sources: [1] BNS s. 103, p. 30; [2] A v. B, [2020] 7 S.C.R. 150"`` ->
    ``[1, 2]``), not the years of the law reports it names."""
    return [int(x) for x in re.findall(r"(?:^Sources: |; )\[(\d{1,3})\] ", line)]


def screen_rows(answer: Answer) -> list[int]:
    """The numbers of the screen's citation table, top to bottom."""
    return [int(x) for x in re.findall(r'data-marker="(\d+)"', citations_panel(answer))]


def screen_faults(answer: Answer) -> list[str]:
    """Faults of the screen: the shown text's markers (every marker naming a passage), the citation table's rows
    and the "Sources:" line."""
    shown = text_markers(answer_text(answer), set(range(1, len(answer.passages) + 1)))
    rows = screen_rows(answer)
    out = []
    if not consecutive(shown):
        out.append(f"screen text {first_seen(shown)}")
    if rows != list(range(1, len(rows) + 1)) or rows[:len(set(shown))] != first_seen(shown):
        out.append(f"screen table {rows} vs text {first_seen(shown)}")
    line = sources_numbers(sources_line(answer))
    if line != rows:
        out.append(f"screen sources line {line} vs table {rows}")
    return out


def format_numbers(name: str, data: bytes) -> tuple:
    """The note numbers format ``name`` wrote in ``data``: a pair (references in the text, first seen; the notes)
    for Markdown and Word, else the records' numbers in order."""
    if name == "docx":
        refs = docx_references(data)
        notes = [int(x) for x in _NOTE_ID.findall(zipfile.ZipFile(io.BytesIO(data)).read(
            "word/footnotes.xml").decode("utf-8")) if int(x) > 0]
        if any(str(fid) != shown for fid, shown in refs):
            return ("marks", refs)
        return first_seen(fid for fid, _ in refs), notes
    text = data.decode("utf-8")
    if name == "markdown":
        return (first_seen(int(x) for x in re.findall(r"\[\^(\d+)\](?!:)", text)),
                [int(x) for x in re.findall(r"^\[\^(\d+)\]:", text, re.M)])
    if name == "json":
        return tuple(c["marker"] for c in json.loads(text)["citations"])
    if name == "csv":
        return tuple(int(r["marker"]) for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    return tuple(first_seen(int(x) for x in re.findall(r"\blr(\d+)", text)))  # ris, bibtex, csl-json


def export_faults(answer: Answer, include_unverified: bool) -> list[str]:
    """Faults of each export format of ``answer`` (``include_unverified`` as the export option) against the
    screen."""
    doc = build_doc(answer, include_unverified)
    screen = {r.marker: r.chunk_id for r in citation_records(answer, include_unverified=True)}
    recs = [r.marker for r in doc.records]
    tag = "all" if include_unverified else "verified"
    out = []
    if any(screen.get(r.marker) != r.chunk_id for r in doc.records) or recs != sorted(recs):
        out.append(f"{tag} records {[(r.marker, r.chunk_id) for r in doc.records]} vs screen {screen}")
    if include_unverified and (recs != list(screen) or doc.answer != answer_text(answer)):
        out.append(f"{tag} records {recs} or text differ from the screen's {list(screen)}")
    body = first_seen(text_markers(doc.answer, set(recs)))
    if body != recs:
        out.append(f"{tag} body {body} vs records {recs}")
    for name in FORMATS:
        got = format_numbers(name, export_doc(doc, name))
        want = (recs, recs) if name in ("docx", "markdown") else tuple(recs)
        if got != want:
            out.append(f"{tag} {name} {got} vs records {recs}")
    return out


def faults(answer: Answer) -> list[str]:
    """Every footnote-order fault of ``answer``: on screen and in each export, verified citations only and all."""
    return [*screen_faults(answer), *export_faults(answer, False), *export_faults(answer, True)]


def _counting_renumbering() -> list[int]:
    """Count the answers :func:`legal_rag.answer.finish.in_reading_order` changes (one entry per change)."""
    finish = importlib.import_module("legal_rag.answer.finish")  # the package exports its function finish

    changed, real = [], finish.in_reading_order

    def counted(answer: Answer) -> Answer:
        out = real(answer)
        if out is not answer:
            changed.append(1)
        return out

    finish.in_reading_order = counted
    return changed


def main(argv: list[str] | None = None) -> int:
    from legal_rag.config import load_settings
    from legal_rag.errors import InputTooLongError
    from legal_rag.pipeline import Pipeline

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--set", type=Path, action="append", required=True)
    ap.add_argument("--casebase-limit", type=int, default=None,
                    help="the index's case-base sample (300 for the test index of tests/conftest.py)")
    args = ap.parse_args(argv)
    extra = {} if args.casebase_limit is None else {"casebase_limit": args.casebase_limit}
    pipe = Pipeline(load_settings(data_dir=args.data_dir, **extra))
    changed = _counting_renumbering()
    for path in args.set:
        items = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        n = cited = bad = left_out = 0
        before = len(changed)
        for it in items:
            try:
                a = pipe.ask(it["question"], offence_date=it.get("offence_date"))
            except InputTooLongError:
                continue
            n += 1
            cited += bool(a.citations)
            left_out += any(c.support != "supported" for c in a.citations)
            got = faults(a)
            bad += bool(got)
            if got:
                print(it["id"], "; ".join(got), flush=True)
        print(json.dumps({"set": path.name, "questions": len(items), "answers": n, "with_citations": cited,
                          "renumbered": len(changed) - before, "with_unverified": left_out, "out_of_order": bad}),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
