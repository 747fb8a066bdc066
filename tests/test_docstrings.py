"""Docstrings and comments of ``legal_rag/`` state contracts, not history: no module names a work session, an issue
number or a live run in any string or comment (results belong in ``bench/results*.md``, incidents in commit
messages). The source text is read as is; nothing is excluded."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: "session 7", "Session-4", "issue 18", "issue #13", "live run" (any case; a line break, or a line break and a
#: comment's ``#``, may stand between the word and its number)
HISTORY = re.compile(r"\b(?:session|issue)[\s#-]*\d+|\blive\s+runs?\b", re.IGNORECASE)


@dataclass(frozen=True)
class HistoryMark:
    path: str
    line: int
    text: str


def history_marks(root: Path) -> list[HistoryMark]:
    """Every match of :data:`HISTORY` in the ``.py`` files under ``root``, as ``(path relative to root's parent,
    1-based line, matched text)``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        out += [HistoryMark(str(path.relative_to(root.parent)), text.count("\n", 0, m.start()) + 1, m.group(0))
                for m in HISTORY.finditer(text)]
    return out


def test_no_module_of_the_package_carries_history():
    found = history_marks(ROOT / "legal_rag")
    assert found == [], "\n".join(f"{m.path}:{m.line}: {m.text}" for m in found)


def test_the_scan_finds_history_in_docstrings_comments_and_strings(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text('"""Chosen in Session 5."""\nX = 1  # see issue #13\n', encoding="utf-8")
    (pkg / "sub" / "b.py").write_text('MSG = "measured in a live run"\nY = "issue-18"\n# as in issue\n# 14\n',
                                      encoding="utf-8")
    (pkg / "clean.py").write_text('"""A session cookie names the owner; tissue 5 is no issue."""\n', encoding="utf-8")
    got = [(m.path, m.line, m.text.lower()) for m in history_marks(pkg)]
    assert got == [("pkg/a.py", 1, "session 5"), ("pkg/a.py", 2, "issue #13"), ("pkg/sub/b.py", 1, "live run"),
                   ("pkg/sub/b.py", 2, "issue-18"), ("pkg/sub/b.py", 3, "issue\n# 14")]
