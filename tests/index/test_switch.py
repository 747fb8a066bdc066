"""The build switch keeps what readers may hold: the new build and the one served until now (issue 8)."""

from __future__ import annotations

import os
import time

from legal_rag.config import Settings
from legal_rag.index.manifest import current_build, data_paths, switch_current


def test_switch_keeps_the_previously_served_build_even_when_a_crashed_build_is_newer(tmp_path):
    s = Settings(data_dir=tmp_path)
    builds = data_paths(s)["builds"]
    for name in ("20260101T000000-1-000001", "20260102T000000-1-000001", "20260103T000000-1-000001"):
        (builds / name).mkdir(parents=True)
    switch_current(s, builds / "20260102T000000-1-000001")  # served now; 01 is older, 03 a crashed partial build
    (builds / "20260103T000000-1-000001" / "junk").write_text("x")
    old = time.time() - 3600  # a reader touched nothing; the served build even looks oldest by mtime
    os.utime(builds / "20260102T000000-1-000001", (old, old))
    (builds / "20260104T000000-1-000001").mkdir()
    switch_current(s, builds / "20260104T000000-1-000001")
    assert current_build(s).name == "20260104T000000-1-000001"
    assert sorted(b.name for b in builds.iterdir()) == ["20260102T000000-1-000001", "20260104T000000-1-000001"]


def test_first_switch_keeps_the_newest_other_build(tmp_path):
    s = Settings(data_dir=tmp_path)
    builds = data_paths(s)["builds"]
    for name in ("20260101T000000-1-000001", "20260102T000000-1-000001", "20260103T000000-1-000001"):
        (builds / name).mkdir(parents=True)
    switch_current(s, builds / "20260103T000000-1-000001")  # no CURRENT before: keep=2 keeps one more
    assert sorted(b.name for b in builds.iterdir()) == ["20260102T000000-1-000001", "20260103T000000-1-000001"]
