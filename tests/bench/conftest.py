"""Tests of the benchmarks' own modules (``bench/``), imported as the bench scripts import them: the repository
root on ``sys.path``, then ``bench.…`` (a package of the checkout, not of the installed ``legal_rag``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
