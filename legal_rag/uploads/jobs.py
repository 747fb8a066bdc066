"""Upload ingests run as jobs, off the request path: one worker thread for the whole server, so an upload never
holds a request open and never takes more than one core from the people asking questions.

``UploadJobs(run)``: ``submit(owner, path, name) -> Job`` takes a private copy of the file and queues it;
``get(owner, job_id)`` reads a job's progress (an owner sees only their own jobs); ``cancel(owner, job_id)`` asks
it to stop (honoured between steps: :meth:`legal_rag.uploads.library.UploadLibrary.add`); ``close()`` stops the
worker. ``run(owner, path, name, progress, cancelled) -> (IngestReport, UploadDoc | None)`` does the work.

At most :data:`MAX_QUEUED` jobs wait per owner (more are refused) and finished jobs are forgotten after
:data:`KEEP_S` seconds.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Literal

from ..types import IngestReport
from .library import Owner, UploadCancelled, UploadDoc, UploadError

JobState = Literal["queued", "running", "done", "failed", "cancelled"]
#: jobs one owner may have waiting or running at once
MAX_QUEUED = 4
#: how long a finished job's outcome stays readable, in seconds
KEEP_S = 3600.0


@dataclass(frozen=True)
class Job:
    """A snapshot of one upload job. ``step``: what it is doing (``queued``, ``reading``, ``chunking``,
    ``embedding``, ``saving``); ``fraction`` in [0, 1]; ``report`` and ``doc`` once done; ``error`` a message
    safe to show."""

    id: str
    owner: str
    name: str
    state: JobState = "queued"
    step: str = "queued"
    fraction: float = 0.0
    report: IngestReport | None = None
    doc: UploadDoc | None = None
    error: str = ""
    finished: float = 0.0

    @property
    def over(self) -> bool:
        return self.state in ("done", "failed", "cancelled")


@dataclass
class _Slot:
    job: Job
    path: Path
    cancel: threading.Event = field(default_factory=threading.Event)


class UploadJobs:
    """The server's upload queue (module docstring)."""

    def __init__(self, run: Callable[..., tuple[IngestReport, UploadDoc | None]], workdir: Path | None = None):
        self._run = run
        self._slots: dict[str, _Slot] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="legal-rag-upload")
        self._dir = Path(tempfile.mkdtemp(prefix="legal-rag-incoming-", dir=workdir))

    def submit(self, owner: Owner, path: Path, name: str) -> Job:
        """Queue ``path`` (copied now: the caller may delete it) as ``owner``'s upload called ``name``. Raises
        :class:`UploadError` when the owner already has :data:`MAX_QUEUED` jobs waiting or running."""
        self._forget_old()
        with self._lock:
            busy = sum(1 for s in self._slots.values() if s.job.owner == owner.key and not s.job.over)
            if busy >= MAX_QUEUED:
                raise UploadError(f"{busy} of your uploads are still being read; wait for one to finish")
            job = Job(secrets.token_hex(8), owner.key, name)
            copy = self._dir / f"{job.id}.pdf"
            shutil.copyfile(path, copy)
            self._slots[job.id] = _Slot(job, copy)
        self._pool.submit(self._work, job.id, owner)
        return job

    def get(self, owner: Owner, job_id: str) -> Job:
        """The owner's job ``job_id``; :class:`UploadError` for anyone else's or an unknown one."""
        with self._lock:
            slot = self._slots.get(job_id)
            if slot is None or slot.job.owner != owner.key:
                raise UploadError("no such upload job of yours")
            return slot.job

    def cancel(self, owner: Owner, job_id: str) -> Job:
        """Ask the owner's job to stop; a job already over is returned as it is."""
        with self._lock:
            slot = self._slots.get(job_id)
            if slot is None or slot.job.owner != owner.key:
                raise UploadError("no such upload job of yours")
            slot.cancel.set()
            if slot.job.state == "queued":
                slot.job = replace(slot.job, state="cancelled", step="cancelled", finished=time.time())
            return slot.job

    def of(self, owner: Owner) -> tuple[Job, ...]:
        """The owner's jobs still remembered, oldest first."""
        with self._lock:
            return tuple(s.job for s in self._slots.values() if s.job.owner == owner.key)

    def wait(self, owner: Owner, job_id: str, timeout_s: float) -> Job:
        """The job once it is over, or as it is after ``timeout_s`` seconds."""
        deadline = time.monotonic() + timeout_s
        while True:
            job = self.get(owner, job_id)
            if job.over or time.monotonic() >= deadline:
                return job
            time.sleep(0.1)

    def close(self) -> None:
        for s in list(self._slots.values()):
            s.cancel.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self._dir, ignore_errors=True)

    # ---- the worker ---------------------------------------------------------------------------------
    def _set(self, job_id: str, **changes) -> None:
        with self._lock:
            slot = self._slots.get(job_id)
            if slot is not None:
                slot.job = replace(slot.job, **changes)

    def _work(self, job_id: str, owner: Owner) -> None:
        with self._lock:
            slot = self._slots.get(job_id)
        if slot is None or slot.cancel.is_set():
            self._cleanup(job_id)
            return
        self._set(job_id, state="running", step="reading")
        try:
            report, doc = self._run(owner, slot.path, slot.job.name,
                                    progress=lambda step, frac: self._set(job_id, step=step, fraction=frac),
                                    cancelled=slot.cancel.is_set)
            self._set(job_id, state="done" if doc is not None else "failed", step="done", fraction=1.0,
                      report=report, doc=doc, finished=time.time(),
                      error="" if doc is not None else "nothing could be indexed (see the report)")
        except UploadCancelled as exc:
            self._set(job_id, state="cancelled", step="cancelled", error=str(exc), finished=time.time())
        except UploadError as exc:
            self._set(job_id, state="failed", step="failed", error=str(exc), finished=time.time())
        except Exception as exc:  # noqa: BLE001 - a bug: the job says so (type only, no path) and the server lives
            self._set(job_id, state="failed", step="failed", finished=time.time(),
                      error=f"internal error ({type(exc).__name__}); please report it")
        finally:
            self._cleanup(job_id)

    def _cleanup(self, job_id: str) -> None:
        with self._lock:
            slot = self._slots.get(job_id)
        if slot is not None:
            slot.path.unlink(missing_ok=True)

    def _forget_old(self) -> None:
        now = time.time()
        with self._lock:
            for k in [k for k, s in self._slots.items() if s.job.over and now - s.job.finished > KEEP_S]:
                del self._slots[k]


__all__ = ["Job", "JobState", "KEEP_S", "MAX_QUEUED", "UploadJobs"]
