"""Directories written whole or not at all: a temporary sibling filled, then renamed into place.

Used by the saved case base (:class:`legal_rag.index.casebase.CaseBase`) and the benchmarks' precedent index
(``bench.precedents.search.PrecedentIndex``): a reader never sees a half-written directory, and a crash
leaves the previous directory (or none) plus a ``.<name>.tmp-<pid>`` sibling, removed by the next write.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_dir(path: Path) -> Iterator[Path]:
    """Yield an empty temporary directory beside ``path``; on a normal exit it replaces ``path`` (the old directory
    is moved aside with one rename, then removed), on an exception it is removed and ``path`` is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = None
    if path.exists():
        old = path.with_name(f".{path.name}.old-{os.getpid()}")
        os.replace(path, old)
    os.replace(tmp, path)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


__all__ = ["atomic_dir"]
