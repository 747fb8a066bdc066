"""Users' uploaded documents: a store of their own per owner, never part of the corpus index.

Layout under ``<data_dir>/uploads/``::

    <owner key>/                one folder per owner (:class:`Owner`); ``shared`` is the operator's shared library
        store.sqlite            the owner's chunks and their vectors (:class:`legal_rag.index.ChunkStore`)
        files/<doc id>.pdf      the uploaded file, kept for the source view
        docs/<doc id>.json      what was uploaded (:class:`UploadDoc`); a document is listed once this is written
        write.lock              held while the owner's store is written

Rules (OWASP File Upload Cheat Sheet: a name of the server's choosing, never the client's; the client's name is
kept for display only):

* an upload's chunks are of kind ``"upload"`` and cited as :data:`UPLOAD_LABEL`, whatever the document claims to
  be (its classification, judgment or other document, is kept in ``meta["classified"]``);
* its ``source`` is ``uploads/<doc id>/<file name>`` and its case id ``upload-<doc id>``: no manifest file name
  has a ``/``, so an upload can never replace or shadow a corpus source, and the corpus index is never written;
* the doc id is the first 16 hex digits of the file's sha256: the same file uploaded again by the same owner
  replaces its earlier copy, and two owners' uploads never meet;
* every write holds the owner's lock (:func:`legal_rag.index.manifest.file_lock`) and adds to the store as it is
  after the lock is taken, so two writers never lose each other's uploads.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..config import Settings
from ..errors import LegalRagError
from ..index.manifest import file_lock
from ..ingest.corpus import sha256_of
from ..index.store import ChunkStore
from ..types import UPLOAD_LABEL, Chunk, IngestReport, Problem

#: the owner key of the operator's shared library (``Settings.uploads_shared``)
SHARED = "shared"
_KEY = re.compile(r"^(?:shared|[a-z]+-[0-9a-f]{16})$")
_DOC = re.compile(r"^[0-9a-f]{16}$")
_UNSAFE = re.compile(r"[^\w.\- ()]+")


class UploadError(LegalRagError):
    """An upload that cannot be taken or found; the message is safe to show (no server path)."""


class UploadCancelled(UploadError):
    """The uploader cancelled the ingest; nothing was written."""


@dataclass(frozen=True)
class Owner:
    """Whose uploads: ``key`` names the owner's folder (``user-<16 hex>``, ``session-<16 hex>``, ``local-<16 hex>``
    or ``shared``); ``label`` is what the owner is shown as ("you", a login name)."""

    key: str
    label: str = "you"

    @classmethod
    def of(cls, kind: str, name: str, label: str = "you") -> "Owner":
        """The owner called ``name`` of ``kind`` (``user``: a login name; ``session``: a browser's random
        token; ``local``: the operator at the command line). Raises :class:`UploadError` for an empty name."""
        if not name:
            raise UploadError("an upload needs an owner (a login or a session)")
        digest = hashlib.sha256(f"{kind}\x00{name}".encode()).hexdigest()[:16]
        return cls(f"{kind}-{digest}", label)


#: the operator's shared library (visible to every user only when ``Settings.uploads_shared`` is on)
SHARED_OWNER = Owner(SHARED, "shared library")


def local_owner() -> Owner:
    """The command line's own owner (``legal-rag uploads``, ``legal-rag ask``): the account running it."""
    import getpass

    return Owner.of("local", getpass.getuser(), "local")


@dataclass(frozen=True)
class UploadDoc:
    """One uploaded document as listed to its owner. ``classified``: ``"judgment"`` or ``"document"`` (what the
    text reads as; it is still cited as :data:`UPLOAD_LABEL`); ``uploaded``: ISO time; ``size``: bytes."""

    doc_id: str
    name: str
    title: str
    classified: str
    pages: int
    chunks: int
    size: int
    uploaded: str
    shared: bool = False

    @property
    def source(self) -> str:
        """The ``source`` its chunks carry (``uploads/<doc id>/<name>``), the name ``/source/`` serves it by."""
        return f"uploads/{self.doc_id}/{self.name}"


def safe_name(name: str) -> str:
    """The display name of an uploaded file: its last path part, characters outside letters, digits and ``.-_ ()``
    replaced by ``_``, at most 120 characters, ending in ``.pdf``. ``safe_name("../../x<y>.pdf") -> "x_y_.pdf"``."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = _UNSAFE.sub("_", base).strip(" .") or "upload"
    stem = base[:-4] if base.lower().endswith(".pdf") else base
    return f"{stem[:116]}.pdf"


def parse_source(source: str) -> tuple[str, str] | None:
    """``(doc id, name)`` of an upload's ``source`` (``uploads/<doc id>/<name>``), else None."""
    parts = source.split("/")
    if len(parts) == 3 and parts[0] == "uploads" and _DOC.match(parts[1]) and parts[2]:
        return parts[1], parts[2]
    return None


class UploadLibrary:
    """The uploads under ``settings.data_dir / "uploads"``. Cheap to make; every call opens and closes what it
    uses, so nothing is held between calls (no file handle, thread or connection per upload)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.root = Path(settings.data_dir) / "uploads"

    # ---- reading ----------------------------------------------------------------------------------
    def _dir(self, owner: Owner) -> Path:
        if not _KEY.match(owner.key):
            raise UploadError("not an upload owner")
        return self.root / owner.key

    def owners_for(self, owner: Owner | None) -> tuple[Owner, ...]:
        """The owners whose documents ``owner`` is answered from: their own, and the shared library when the
        operator enabled it (``Settings.uploads_shared``)."""
        out = [owner] if owner is not None else []
        if self.settings.uploads_shared and SHARED_OWNER not in out:
            out.append(SHARED_OWNER)
        return tuple(out)

    def list(self, owner: Owner) -> tuple[UploadDoc, ...]:
        """The owner's documents, newest first."""
        docs = self._dir(owner) / "docs"
        if not docs.is_dir():
            return ()
        out = []
        for f in docs.glob("*.json"):
            try:
                out.append(UploadDoc(**json.loads(f.read_text())))
            except (OSError, ValueError, TypeError):
                continue  # a half-written or foreign file is not a document
        return tuple(sorted(out, key=lambda d: (d.uploaded, d.doc_id), reverse=True))

    def version(self, owners: tuple[Owner, ...]) -> tuple:
        """A value that changes whenever any of ``owners`` adds or removes a document (for caches)."""
        out = []
        for o in owners:
            docs = self._dir(o) / "docs"
            try:
                out.append((o.key, docs.stat().st_mtime_ns, tuple(sorted(p.name for p in docs.iterdir()))))
            except OSError:
                out.append((o.key, 0, ()))
        return tuple(out)

    def chunks(self, owners: tuple[Owner, ...], model: str) -> tuple[tuple[Chunk, ...], np.ndarray | None]:
        """Every listed chunk of ``owners`` and their vectors under embedding model ``model`` (rows in chunk
        order; ``None`` when there are none). Chunks of a document not (or no longer) listed are left out."""
        chunks: list[Chunk] = []
        vecs: list[np.ndarray] = []
        for o in owners:
            listed = {d.doc_id for d in self.list(o)}
            path = self._dir(o) / "store.sqlite"
            if not listed or not path.is_file():
                continue
            store = ChunkStore(path)
            try:
                mine = [c for c in store.all_chunks() if (parse_source(c.source) or ("",))[0] in listed]
                if mine:
                    vecs.append(store.vectors(model, [c.id for c in mine]))
                    chunks += mine
            finally:
                store.close()
        return tuple(chunks), (np.concatenate(vecs) if vecs else None)

    def file(self, owners: tuple[Owner, ...], doc_id: str) -> Path:
        """The uploaded file ``doc_id`` of one of ``owners``; :class:`UploadError` for any other (never a path)."""
        if _DOC.match(doc_id or ""):
            for o in owners:
                path = self._dir(o) / "files" / f"{doc_id}.pdf"
                if (self._dir(o) / "docs" / f"{doc_id}.json").is_file() and path.is_file() \
                        and not path.is_symlink():
                    return path
        raise UploadError("no such upload of yours")

    # ---- writing ----------------------------------------------------------------------------------
    def add(self, owner: Owner, path: Path, name: str, embedder, *,
            progress: Callable[[str, float], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> tuple[IngestReport, UploadDoc | None]:
        """Read the PDF at ``path`` (a file the caller has already checked is the user's upload) as
        ``name``, chunk and embed it, and add it to ``owner``'s store.

        ``progress(step, fraction)`` is told each step (``reading``, ``embedding``, ``saving``); ``cancelled()``
        is asked between steps and between embedding batches, and a true answer raises :class:`UploadCancelled`
        with nothing written. Limits: ``settings.upload_max_mb`` (before the file is read) and
        ``settings.upload_max_pages`` (read from the PDF's page tree in the reading child, before any page). Returns ``(report, doc)``; ``doc`` is None when the file failed (the report
        says why, by file and page) and then nothing is kept."""
        from ..ingest.chunk import chunk_judgment
        from ..ingest.doctype import read_upload_file

        def step(what: str, frac: float) -> None:
            if cancelled is not None and cancelled():
                raise UploadCancelled("cancelled; nothing was added")
            if progress is not None:
                progress(what, frac)

        name = safe_name(name)
        path = Path(path)
        size = path.stat().st_size
        limit = self.settings.upload_max_mb * 1024 * 1024
        if size > limit:
            return _refused(name, "too_large", f"{size / 2**20:.1f} MiB, more than the "
                            f"{self.settings.upload_max_mb:g} MiB an upload may have"), None
        step("reading", 0.0)
        digest = sha256_of(path)
        doc_id = digest[:16]
        cid, source = f"upload-{doc_id}", f"uploads/{doc_id}/{name}"
        settings = self.settings.model_copy(update={"max_pages": self.settings.upload_max_pages})
        report, judgment, paragraphs = read_upload_file(path, settings)
        report = _renamed(report, path.name, name)
        if report.failed or judgment is None:
            return report, None
        classified = judgment.kind
        # an upload whose header names no title is called by its file name, never by its internal id
        judgment = dataclasses.replace(judgment, case_id=cid, source=source, title=judgment.title or name)
        paragraphs = tuple(dataclasses.replace(p, case=cid, source=source) for p in paragraphs)
        step("chunking", 0.1)
        chunks = chunk_judgment(paragraphs, embedder, judgment=judgment, chunk_tokens=self.settings.chunk_tokens,
                                overlap=self.settings.chunk_overlap)
        chunks = tuple(dataclasses.replace(c, kind="upload", meta=tuple(sorted((*c.meta, ("classified", classified)))))
                       for c in chunks)
        from ..injection import index_text

        texts = [index_text(c) for c in chunks]
        vecs = []
        batch = 32
        for i in range(0, len(texts), batch):
            step("embedding", 0.15 + 0.8 * i / max(1, len(texts)))
            vecs.append(embedder.embed_passages(texts[i:i + batch]))
        step("saving", 0.95)
        doc = UploadDoc(doc_id=doc_id, name=name, title=judgment.title or name, classified=classified,
                        pages=report.pages, chunks=len(chunks), size=size, uploaded=time.strftime("%Y-%m-%dT%H:%M:%S"),
                        shared=owner.key == SHARED)
        self._write(owner, doc, path, chunks, np.concatenate(vecs) if vecs else np.zeros((0, embedder.dim)),
                    embedder.model_id)
        return report, doc

    def _write(self, owner: Owner, doc: UploadDoc, path: Path, chunks, vecs: np.ndarray, model: str) -> None:
        """Add ``doc`` under the owner's lock: chunks and vectors, then the file, then its listing (the last
        step makes it visible; a crash before it leaves nothing listed, and the next write of the same document
        replaces the leftovers)."""
        from ..index.store import content_hash

        home = self._dir(owner)
        (home / "files").mkdir(parents=True, exist_ok=True)
        (home / "docs").mkdir(parents=True, exist_ok=True)
        with file_lock(home / "write.lock", wait_s=self.settings.upload_lock_wait_s):
            store = ChunkStore(home / "store.sqlite")
            try:
                store.sync(chunks)
                store.put_embeddings(model, [content_hash(c) for c in chunks], vecs)
            finally:
                store.close()
            tmp = home / "files" / f".{doc.doc_id}.{os.getpid()}.tmp"
            shutil.copyfile(path, tmp)
            os.replace(tmp, home / "files" / f"{doc.doc_id}.pdf")
            listing = home / "docs" / f".{doc.doc_id}.{os.getpid()}.tmp"
            listing.write_text(json.dumps(dataclasses.asdict(doc), ensure_ascii=False))
            os.replace(listing, home / "docs" / f"{doc.doc_id}.json")

    def remove(self, owner: Owner, doc_id: str) -> UploadDoc:
        """Delete the owner's document ``doc_id`` (listing, chunks, file). Raises :class:`UploadError` when the
        owner has no such document: one owner can never remove another's."""
        if not _DOC.match(doc_id or ""):
            raise UploadError("no such upload of yours")
        home = self._dir(owner)
        listing = home / "docs" / f"{doc_id}.json"
        if not listing.is_file():
            raise UploadError("no such upload of yours")
        with file_lock(home / "write.lock", wait_s=self.settings.upload_lock_wait_s):
            try:
                doc = UploadDoc(**json.loads(listing.read_text()))
            except (OSError, ValueError, TypeError):
                doc = UploadDoc(doc_id, "", "", "", 0, 0, 0, "")
            listing.unlink(missing_ok=True)
            store = ChunkStore(home / "store.sqlite")
            try:
                store.delete_docs([f"case:upload-{doc_id}"])
            finally:
                store.close()
            (home / "files" / f"{doc_id}.pdf").unlink(missing_ok=True)
        return doc


def _refused(name: str, kind: str, why: str) -> IngestReport:
    return IngestReport(files=(name,), problems=(Problem(name, kind, f"{why}; not indexed", severity="error"),),
                        failed=(name,))


def _renamed(report: IngestReport, old: str, new: str) -> IngestReport:
    """``report`` with the temporary file name ``old`` replaced by the display name ``new``."""
    if old == new:
        return report
    return dataclasses.replace(
        report, files=tuple(new if f == old else f for f in report.files),
        failed=tuple(new if f == old else f for f in report.failed),
        problems=tuple(dataclasses.replace(p, source=new) if p.source == old else p for p in report.problems))


__all__ = ["SHARED", "SHARED_OWNER", "UPLOAD_LABEL", "Owner", "UploadCancelled", "UploadDoc", "UploadError",
           "UploadLibrary", "local_owner", "parse_source", "safe_name"]
