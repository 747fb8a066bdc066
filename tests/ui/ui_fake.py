"""A stand-in for :class:`legal_rag.pipeline.Pipeline` for the UI tests, with the same public methods (same
parameters: ``tests/ui/test_fake_signatures.py``).

What is fake: retrieval and generation (the answer text, its citations and their support marks are fixed
here; the quotes are copied from the real PDFs at the cited pages). What is real: the supersession flags and
the section look-up (``legal_rag.law`` over the BPR&D tables in the corpus), the section texts shown by the
look-up (read with pypdf from the official PDFs), the files served by ``source_file`` (real corpus PDFs, found
through ``settings.corpus_path``) and the page count of an uploaded PDF.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PdfReadError

from legal_rag.errors import LegalRagError, PdfError
from legal_rag.law import find_refs, flag_superseded, load_concordance, lookup
from legal_rag.types import Answer, Chunk, Citation, Hit, IngestReport, Problem, Section, StatuteRef

from tests.statutes import BNS_318_4, SEVEN_YEARS_AND_FINE

FILES = {
    "BNS_2023_gazette_Act45.pdf": "statutes/pdf/BNS_2023_gazette_Act45.pdf",
    "IPC_1860_legislative_dept_2019.pdf": "statutes/pdf/IPC_1860_legislative_dept_2019.pdf",
    "SCR_2020-01-31_SushilSethi_v_StateOfArunachalPradesh_2020-1-SCR-582.pdf":
        "judgments/pdf/SCR_2020-01-31_SushilSethi_v_StateOfArunachalPradesh_2020-1-SCR-582.pdf",
}
BNS318_4, IPC420 = StatuteRef("BNS", "318", ("4",)), StatuteRef("IPC", "420")
OPENING_318_4 = BNS_318_4.upto("to deliver any property").removeprefix("(4) ")

BNS_CHUNK = Chunk("BNS-318-3-5c1f0a2b", "statute", "(4) Whoever cheats and thereby dishonestly induces the person "
                  "deceived to deliver any property to any person ... shall be punished with imprisonment of either "
                  "description for a term which may extend to seven years, and shall also be liable to fine.",
                  "Cheating", "BNS_2023_gazette_Act45.pdf", (87, 87), 3, 4, BNS318_4,
                  meta=(("act", "BNS"), ("code", "new"), ("section", "318")))
IPC_CHUNK = Chunk("IPC-420-0-9d2e4c11", "statute", "420. Cheating and dishonestly inducing delivery of property.—"
                  "Whoever cheats and thereby dishonestly induces the person deceived to deliver any property ...",
                  "Cheating and dishonestly inducing delivery of property", "IPC_1860_legislative_dept_2019.pdf",
                  (96, 96), 0, 1, IPC420, meta=(("act", "IPC"), ("code", "old"), ("section", "420")))
CASE_CHUNK = Chunk("sushil-sethi-7-2b9a0e77", "judgment", "the complainant is required to show that the accused had "
                   "fraudulent or dishonest intention at the time of making promise or representation.",
                   "Sushil Sethi v. State of Arunachal Pradesh",
                   "SCR_2020-01-31_SushilSethi_v_StateOfArunachalPradesh_2020-1-SCR-582.pdf", (15, 15), 7, 12,
                   case="sushil-sethi", meta=(("citations", "[2020] 1 S.C.R. 582"), ("court", "Supreme Court of India"),
                                              ("date", "2020-01-31"), ("paras", "7.2")))


def _cite(marker: int, chunk: Chunk, sentence: str, support: str, quote: str, weight: float | None) -> Citation:
    return Citation(marker, chunk.id, chunk.ref, chunk.source, chunk.pages, sentence, support, quote, weight)


class FakePipeline:
    """``ask_stream`` answers two kinds of question: anything naming IPC 420 (section question) and anything
    else (plain-language question about being cheated). ``calls`` records each call's arguments."""

    def __init__(self, settings, generators: tuple[str, ...] = ("extractive", "qwen2.5-1.5b")):
        self.settings = settings
        self.corpus = Path(settings.corpus_path)
        self.calls: list[dict] = []
        self.uploads: list[Path] = []
        self.owners: list = []
        self._docs: dict = {}
        self._generators = generators
        self.concordance = load_concordance(self.corpus)

    # ---- the Pipeline API -----------------------------------------------------------------------
    def generators(self) -> tuple[str, ...]:
        return self._generators

    def source_file(self, name: str) -> Path:
        if name not in FILES:
            raise LegalRagError(f"not a corpus file: {name!r}")
        return self.corpus / FILES[name]

    def search(self, query: str, filters: dict | None = None, dense_query: str | None = None,
               analysis=None) -> tuple[Hit, ...]:
        return tuple(Hit(c, 1.0 / (i + 1), "rrf", i + 1) for i, c in enumerate((BNS_CHUNK, IPC_CHUNK, CASE_CHUNK)))

    def lookup(self, text: str):
        return lookup(text, self.concordance, sections=self._section_texts())

    def ingest_upload(self, path: Path, owner=None) -> IngestReport:
        return self.add_upload(owner, path)[0]

    def add_upload(self, owner, path: Path, name: str | None = None, progress=None, cancelled=None):
        """The page count of the PDF is real; the document is listed for ``owner`` (no index is written)."""
        from legal_rag.uploads import UploadDoc

        self.uploads.append(Path(path))
        name = name or Path(path).name
        try:
            pages = len(PdfReader(path).pages)
        except (PdfReadError, ValueError) as exc:
            raise PdfError(name, "not_pdf", f"cannot be read as a PDF ({exc})") from None
        report = IngestReport(files=(name,), pages=pages, judgments=1, paragraphs=0,
                              problems=(Problem(name, "no_text_layer", "page has no text layer (fake report)", 1),))
        doc = UploadDoc(f"{len(self.uploads):016x}", name, name, "judgment", pages, 1, Path(path).stat().st_size,
                        f"2026-01-01T00:00:{len(self.uploads) % 60:02d}")
        self._docs.setdefault(getattr(owner, "key", None), {})[doc.doc_id] = (doc, Path(path).read_bytes())
        return report, doc

    def for_owner(self, owner):
        self.owners.append(owner)
        return self

    def list_uploads(self, owner) -> tuple:
        return tuple(d for d, _ in self._docs.get(getattr(owner, "key", None), {}).values())

    def remove_upload(self, owner, doc_id: str):
        from legal_rag.uploads import UploadError

        try:
            return self._docs.get(getattr(owner, "key", None), {}).pop(doc_id)[0]
        except KeyError:
            raise UploadError("no such upload of yours") from None

    def upload_file(self, owner, doc_id: str) -> Path:
        from legal_rag.uploads import UploadError

        raise UploadError("no such upload of yours")  # the fake keeps no files

    def ask(self, question: str, offence_date: dt.date | None = None, filters: dict | None = None,
            generator: str | None = None, previous=None) -> Answer:
        return [p for p in self.ask_stream(question, offence_date, filters, generator, previous)
                if isinstance(p, Answer)][-1]

    def ask_stream(self, question: str, offence_date: dt.date | None = None, filters: dict | None = None,
                   generator: str | None = None, previous=None) -> Iterator[str | Answer]:
        self.calls.append({"question": question, "offence_date": offence_date, "filters": filters,
                           "generator": generator, "previous": previous})
        if "420" in question:
            text = ("Cheating and dishonestly inducing delivery of property, formerly IPC 420, is now BNS 318(4) [1]. "
                    "It is punishable with imprisonment up to seven years and fine [1]. "
                    "The IPC text was the same [2]. It is always a bailable offence [2].")
            cits = (_cite(1, BNS_CHUNK, "Cheating ... is now BNS 318(4) [1].", "supported", OPENING_318_4, 0.71),
                    _cite(1, BNS_CHUNK, "It is punishable with imprisonment up to seven years and fine [1].",
                          "supported", str(SEVEN_YEARS_AND_FINE), 0.71),
                    _cite(2, IPC_CHUNK, "The IPC text was the same [2].", "supported",
                          "Cheating and dishonestly inducing delivery of property", 0.22),
                    _cite(2, IPC_CHUNK, "It is always a bailable offence [2].", "unsupported", "", 0.22))
            hits = (BNS_CHUNK, IPC_CHUNK)
        else:
            text = ("Inducing someone by deception to hand over property is cheating under BNS 318(4) [1]. "
                    "The complainant must show dishonest intention at the time of the promise [2].")
            cits = (_cite(1, BNS_CHUNK, text.split(". ")[0] + ".", "supported", OPENING_318_4, None),
                    _cite(2, CASE_CHUNK, "The complainant must show dishonest intention at the time of the promise [2].",
                          "supported", "the complainant is required to show that the accused had fraudulent or "
                          "dishonest intention at the time of making promise or representation", None))
            hits = (BNS_CHUNK, CASE_CHUNK, IPC_CHUNK)
        flags = flag_superseded(find_refs(question), "query", offence_date, concordance=self.concordance)
        for c in hits:
            if c.ref is not None:
                flags += flag_superseded([c.ref], f"passage:{c.id}", offence_date, concordance=self.concordance)
        for word in text.split(" "):
            yield word + " "
        yield Answer(question, text, cits, flags, (), tuple(Hit(c, 1.0 / (i + 1), "rrf", i + 1)
                                                            for i, c in enumerate(hits)),
                     model=generator or self._generators[0], index_id="fake",
                     offence_date=dt.date.fromisoformat(offence_date) if isinstance(offence_date, str) else offence_date)

    # ---- helpers --------------------------------------------------------------------------------
    def _section_texts(self) -> dict[StatuteRef, Section]:
        """IPC 420 and BNS 318 as printed in the official PDFs (pages 96 and 86-87)."""
        if not hasattr(self, "_sections"):
            ipc = PdfReader(self.source_file("IPC_1860_legislative_dept_2019.pdf")).pages[95].extract_text()
            bns = "".join(PdfReader(self.source_file("BNS_2023_gazette_Act45.pdf")).pages[i].extract_text()
                          for i in (85, 86))
            ipc_text = ipc[ipc.index("420. Cheating and"):ipc.index("Of Fraudulent Deeds")]
            bns_text = bns[bns.index("318. (1)"):bns.index("319. (1)")]
            self._sections = {
                IPC420: Section(IPC420, "Cheating and dishonestly inducing delivery of property.", ipc_text,
                                "IPC_1860_legislative_dept_2019.pdf", (96, 96)),
                StatuteRef("BNS", "318"): Section(StatuteRef("BNS", "318"), "Cheating.", bns_text,
                                                  "BNS_2023_gazette_Act45.pdf", (86, 87)),
            }
        return self._sections
