"""Named phases of the index writer, and a fault-injection hold for crash tests.

The writer (:func:`legal_rag.index.build_index`, :func:`legal_rag.index.manifest.switch_current`) calls
:func:`checkpoint` as it passes each phase of :data:`PHASES`. In normal runs this does nothing. When the
environment names a phase in ``LEGAL_RAG_FAULT_HOLD`` (``"<phase>"`` or ``"<phase>#<n>"`` for its n-th pass,
1-based), the writer, on reaching it, writes the phase to the file named by ``LEGAL_RAG_FAULT_MARK`` and waits
there. A crash test watches for that file and then SIGKILLs the writer, so every kill lands at a known point of
the run however fast or loaded the machine is (no wall-clock guesses).

A hold gives up after ``LEGAL_RAG_FAULT_HOLD_S`` seconds (default 600) by raising :class:`RuntimeError`, so a
test that forgets to kill never leaves a writer hanging for ever.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

#: Phases in the order a full ``build_index`` passes them. ``before-lock``: ingest and chunking done, the lock
#: not yet asked for; ``locked``: lock held, nothing written; ``synced``: the store's chunk rows committed;
#: ``embedded``: one batch of vectors committed (once per batch); ``snapshot``: the new build's chunk snapshot
#: written; ``dense-begun``: the Chroma collection created, no vector added; ``dense``: every vector upserted;
#: ``sparse``: the bm25s index saved; ``manifest``: the build's manifest written, not yet served;
#: ``switching``: ``CURRENT.tmp`` written, not yet renamed; ``switched``: the new build served, older builds not
#: yet removed.
PHASES = ("before-lock", "locked", "synced", "embedded", "snapshot", "dense-begun", "dense", "sparse", "manifest",
          "switching", "switched")

HOLD_ENV = "LEGAL_RAG_FAULT_HOLD"
MARK_ENV = "LEGAL_RAG_FAULT_MARK"
HOLD_S_ENV = "LEGAL_RAG_FAULT_HOLD_S"

_passes: dict[str, int] = {}


def checkpoint(phase: str) -> None:
    """Record that the writer reached ``phase`` (one of :data:`PHASES`); hold there when the environment asks.

    Raises ValueError for a phase not in :data:`PHASES`, and RuntimeError when a hold is not ended by a kill
    within ``LEGAL_RAG_FAULT_HOLD_S`` seconds."""
    if phase not in PHASES:
        raise ValueError(f"unknown writer phase {phase!r}; known: {', '.join(PHASES)}")
    want = os.environ.get(HOLD_ENV)
    if not want:
        return
    _passes[phase] = n = _passes.get(phase, 0) + 1
    name, _, nth = want.partition("#")
    if name != phase or n != int(nth or 1):
        return
    mark = os.environ.get(MARK_ENV)
    if mark:
        tmp = Path(mark).with_name(Path(mark).name + ".tmp")
        tmp.write_text(f"{phase}#{n} pid {os.getpid()}")
        os.replace(tmp, mark)
    deadline = time.monotonic() + float(os.environ.get(HOLD_S_ENV, "600"))
    while time.monotonic() < deadline:
        time.sleep(0.05)
    raise RuntimeError(f"held at writer phase {phase}#{n} and never killed")
