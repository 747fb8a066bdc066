"""legal_rag.index.atomic.atomic_dir: a directory is replaced whole, or left as it was when the writer fails."""

from __future__ import annotations

import pytest

from legal_rag.index.atomic import atomic_dir


def test_replaces_whole_and_leaves_no_temporaries(tmp_path):
    target = tmp_path / "cb"
    with atomic_dir(target) as d:
        (d / "a").write_text("1")
    with atomic_dir(target) as d:
        (d / "b").write_text("2")
    assert sorted(p.name for p in target.iterdir()) == ["b"]
    assert [p.name for p in tmp_path.iterdir()] == ["cb"]


def test_a_failing_writer_leaves_the_old_directory(tmp_path):
    target = tmp_path / "cb"
    with atomic_dir(target) as d:
        (d / "a").write_text("1")
    with pytest.raises(RuntimeError):
        with atomic_dir(target) as d:
            (d / "half").write_text("x")
            raise RuntimeError("disk full")
    assert (target / "a").read_text() == "1" and not (target / "half").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["cb"]
