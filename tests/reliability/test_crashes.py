"""Crashes and concurrency (issue 8; field cases BL-10, BL-15): SIGKILL of ``legal-rag index`` at seeded random
moments, two writers at once, readers during a rebuild, and an index built with other settings or library versions.

The index command runs as a real subprocess over a small real corpus (the BSA print and three AILA judgments) with
the tiny embedder (``LEGAL_RAG_EMBED_MODEL``; see conftest), so a run is dominated by start-up and ingest, not by
embedding."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from legal_rag.errors import IndexLockedError, IndexMismatchError
from legal_rag.index import build_index, open_index
from legal_rag.index.check import check_index
from legal_rag.index.manifest import current_build, writer_lock
from legal_rag.pipeline import build

from .crashkit import cli_env, settings_for, small_manifest, snapshot, start_index

SOURCES = ["BSA", "AILA-C4", "AILA-C5", "AILA-C12"]
KILLS = 20
SEED = 20261129
RUN_TIMEOUT_S = 300


def _finish(p: subprocess.Popen) -> tuple[int, str, str]:
    out, err = p.communicate(timeout=RUN_TIMEOUT_S)
    return p.returncode, out, err


@pytest.fixture(scope="module")
def small(tmp_path_factory, tiny_model, tiny_embedder):
    """(manifest, reference snapshot): the small corpus built cleanly, in-process, into its own data dir."""
    root = tmp_path_factory.mktemp("crash-ref")
    manifest = small_manifest(root / "manifest.toml", SOURCES)
    ref = settings_for(root / "data", manifest, tiny_model)
    build(ref, progress=False)
    return manifest, snapshot(ref, tiny_embedder)


def _lock_held_by(data_dir: Path, pid: int) -> bool:
    try:
        return (data_dir / "index.lock").read_text().strip() == f"pid {pid}"
    except OSError:
        return False


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume_equals_a_clean_build(tmp_path, small, tiny_model, tiny_embedder):
    """20 SIGKILLs of ``legal-rag index``: after each the index opens (or there is none yet) and passes
    check_index; a final run to completion holds exactly the clean build's chunks, texts and dense/sparse counts.

    The first kills hit an empty data directory (while chunks are embedded and committed); then one run completes
    and the remaining kills hit rebuilds over a served index, which must stay served (the same build, or the new
    one when the kill came after the switch). Most kills fall while the writer holds the lock (store commits,
    Chroma and bm25s writes, the switch), where a crash can do harm; a quarter fall anywhere in the run."""
    manifest, ref = small
    data = tmp_path / "data"
    env = cli_env(data, manifest, tiny_model)
    settings = settings_for(data, manifest, tiny_model)
    rng = random.Random(SEED)
    log: list[dict] = []
    served: str | None = None

    def run(delay: float | None, anywhere: bool) -> tuple[bool, float | None]:
        """Start a run and SIGKILL it ``delay`` s after start (``anywhere``) or after it takes the lock; None:
        let it finish. Returns (killed, seconds the lock was held when it finished)."""
        p = start_index(env, tmp_path)
        t0 = time.monotonic()
        locked_at = None
        while p.poll() is None:
            now = time.monotonic()
            if locked_at is None and _lock_held_by(data, p.pid):
                locked_at = now
            begin = t0 if anywhere else locked_at
            if delay is not None and begin is not None and now - begin >= delay:
                os.killpg(p.pid, signal.SIGKILL)
                _finish(p)
                return True, None
            assert now - t0 < RUN_TIMEOUT_S, "index run hung"
            time.sleep(0.02)
        rc, _, err = _finish(p)
        assert rc == 0, err[-2000:]
        return False, (time.monotonic() - locked_at) if locked_at else None

    window = 20.0  # first runs: embedding every chunk takes most of the locked time
    first_phase = 4
    while sum(e["killed"] for e in log) < KILLS:
        assert len(log) <= 3 * KILLS, f"too few kills landed: {log}"
        if served is None and sum(e["killed"] for e in log) >= first_phase:
            killed, held = run(None, False)  # one complete run: from here on an index is served
            window = max(1.0, held or window)
            rep = check_index(settings, embedder=tiny_embedder)
            assert rep.ok and rep.built, str(rep)
            served = rep.build_id
            continue
        anywhere = rng.random() < 0.25
        delay = rng.uniform(0.0, 20.0) if anywhere else rng.uniform(0.0, 1.2 * window)
        killed, held = run(delay, anywhere)
        if held is not None:  # it finished first: aim the next kills at the lock window this run really had
            window = max(1.0, held)
        rep = check_index(settings, embedder=tiny_embedder)
        assert rep.ok, f"after kill #{len(log) + 1} at {delay:.2f}s: {rep}"
        if served is not None:
            assert rep.built, f"kill #{len(log) + 1} lost the served index: {rep}"
        if rep.built:
            open_index(settings, embedder=tiny_embedder).close()
            switched = served is not None and rep.build_id != served
            served = rep.build_id
        else:
            switched = False
        log.append({"killed": killed, "phase": "run" if anywhere else "lock", "delay_s": round(delay, 2),
                    "built": rep.built, "switched": switched, "orphans": len(rep.orphans)})
    rc, out, err = _finish(start_index(env, tmp_path))
    assert rc == 0, err[-2000:]
    final = snapshot(settings, tiny_embedder)
    assert final.texts == ref.texts
    assert (final.dense, final.sparse) == (ref.dense, ref.sparse) == (len(ref.texts),) * 2
    assert final.corpus == ref.corpus
    assert check_index(settings, embedder=tiny_embedder).ok
    kills = [e for e in log if e["killed"]]
    summary = {"kills": len(kills), "runs_finished_before_kill": len(log) - len(kills),
               "no_index_yet": sum(not e["built"] for e in kills),
               "over_a_served_index": sum(e["built"] for e in kills),
               "switched_before_kill": sum(e["switched"] for e in kills),
               "in_lock_window": sum(e["phase"] == "lock" for e in kills),
               "max_orphan_builds": max(e["orphans"] for e in log)}
    (tmp_path / "kills.json").write_text(json.dumps({"summary": summary, "log": log}, indent=1))
    print(f"\nkill summary: {summary}")
    assert summary["no_index_yet"] >= 1 and summary["over_a_served_index"] >= 10


def _hold_lock(data_dir: str, ready, release) -> None:
    from legal_rag.config import Settings

    with writer_lock(Settings(data_dir=data_dir)):
        ready.set()
        release.wait(300)


@pytest.mark.slow
def test_second_writer_refuses_with_a_clear_message_and_nothing_changes(tmp_path, small, tiny_model, tiny_embedder):
    import multiprocessing as mp

    manifest, ref = small
    data = tmp_path / "data"
    env = cli_env(data, manifest, tiny_model)
    settings = settings_for(data, manifest, tiny_model)
    rc, _, err = _finish(start_index(env, tmp_path))
    assert rc == 0, err[-2000:]
    before = snapshot(settings, tiny_embedder)
    ctx = mp.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(data), ready, release))
    holder.start()
    try:
        assert ready.wait(120)
        rc, _, err = _finish(start_index(env, tmp_path))
    finally:
        release.set()
        holder.join(60)
    assert rc == 1
    msg = err.strip().splitlines()[-1]
    assert msg.startswith("error: ") and "being written by pid" in msg and "one writer at a time" in msg
    assert "Traceback" not in err
    assert snapshot(settings, tiny_embedder) == before
    assert check_index(settings, embedder=tiny_embedder).ok
    with writer_lock(settings):  # released: the in-process API refuses the same way while it is held
        with pytest.raises(IndexLockedError, match="being written"):
            build_index([], settings, embedder=tiny_embedder, wait_s=0.2)


@pytest.mark.slow
def test_two_writers_at_once_serialise_or_refuse_and_nothing_is_corrupted(tmp_path, small, tiny_model, tiny_embedder):
    manifest, ref = small
    data = tmp_path / "data"
    env = cli_env(data, manifest, tiny_model)
    procs = [start_index(env, tmp_path) for _ in range(2)]
    results = [_finish(p) for p in procs]
    for rc, _, err in results:
        assert rc == 0 or (rc == 1 and "being written by pid" in err and "Traceback" not in err), err[-2000:]
    assert any(rc == 0 for rc, _, _ in results)
    settings = settings_for(data, manifest, tiny_model)
    assert check_index(settings, embedder=tiny_embedder).ok
    assert snapshot(settings, tiny_embedder).texts == ref.texts


@pytest.mark.slow
def test_readers_during_a_rebuild_see_the_old_or_the_new_index_never_a_mix(tmp_path, tiny_model, tiny_embedder):
    """A reader thread opens the index over and over while ``legal-rag index`` switches between two corpora; every
    open is self-consistent (manifest, snapshot, Chroma and bm25s agree) and holds exactly one corpus's chunks."""
    m_old = small_manifest(tmp_path / "old.toml", ["AILA-C4", "AILA-C5"])
    m_new = small_manifest(tmp_path / "new.toml", ["AILA-C4", "AILA-C12", "AILA-C16"])
    data = tmp_path / "data"
    refs = {}
    for name, m in (("old", m_old), ("new", m_new)):
        s = settings_for(tmp_path / f"ref-{name}", m, tiny_model)
        build(s, progress=False)
        refs[name] = frozenset(snapshot(s, tiny_embedder).texts)
    assert refs["old"] != refs["new"]
    settings = settings_for(data, m_old, tiny_model)
    build(settings, progress=False)
    seen: dict[str, int] = {"old": 0, "new": 0}
    errors: list[str] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                idx = open_index(settings, embedder=tiny_embedder)
            except Exception as exc:  # an open that fails is reported, not hidden
                errors.append(f"{type(exc).__name__}: {exc}")
                continue
            try:
                ids = frozenset(c.id for c in idx.store.all_chunks())
                assert len(ids) == idx.manifest.chunks == idx.dense.count() == len(idx.sparse), idx.root
                assert frozenset(idx.sparse.ids) == ids, idx.root
                which = [k for k, v in refs.items() if v == ids]
                assert which, f"build {idx.root.name} holds neither corpus ({len(ids)} chunks)"
                seen[which[0]] += 1
            except AssertionError as exc:
                errors.append(f"mix: {exc}")
            finally:
                idx.close()

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        for m in (m_new, m_old, m_new):
            rc, _, err = _finish(start_index(cli_env(data, m, tiny_model), tmp_path))
            assert rc == 0, err[-2000:]
    finally:
        stop.set()
        t.join(60)
    assert not errors, errors[:5]
    assert seen["old"] > 0 and seen["new"] > 0, seen
    print(f"\nreader opens during 3 rebuilds: {seen}")


@pytest.mark.parametrize("change", [
    {"embed_model": "other"}, {"chunk_tokens": 128}, {"chunk_overlap": 16}, {"hnsw_ef_search": 64},
    {"hnsw_max_neighbors": 16}, {"hnsw_space": "l2"}, {"libraries": {"chromadb": "0.4.24"}},
    {"libraries": {"bm25s": "0.1.0"}},
])
def test_index_built_with_other_settings_or_libraries_is_refused_with_the_rebuild_command(
        tmp_path, tiny_model, tiny_embedder, change):
    from typer.testing import CliRunner

    from legal_rag.cli import app
    from legal_rag.ingest.chunk import chunk_section
    from legal_rag.types import Section, StatuteRef

    settings = settings_for(tmp_path / "data", Path("unused.toml"), tiny_model)
    sec = Section(StatuteRef("BNS", "318"), "Cheating.", "Whoever cheats shall be punished with imprisonment.",
                  "BNS.pdf", (1, 1))
    build_index(chunk_section(sec, tiny_embedder), settings, embedder=tiny_embedder)
    embedder = tiny_embedder
    if "libraries" in change:  # the index on disk was written by other library versions
        mpath = current_build(settings) / "manifest.json"
        man = json.loads(mpath.read_text())
        man["libraries"] = {**man["libraries"], **change["libraries"]}
        mpath.write_text(json.dumps(man))
        other = settings
    elif "embed_model" in change:
        from legal_rag.index.embed import Embedder

        other_dir = tmp_path / "other-model"
        import shutil

        shutil.copytree(tiny_model, other_dir)
        other = settings.model_copy(update={"embed_model": str(other_dir)})
        embedder = Embedder(str(other_dir))
    else:
        other = settings.model_copy(update=change)
    with pytest.raises(IndexMismatchError) as err:
        open_index(other, embedder=embedder)
    msg = str(err.value)
    cmd = re.search(r"`legal-rag ([a-z-]+)`", msg)
    assert cmd, msg
    assert CliRunner().invoke(app, [cmd.group(1), "--help"]).exit_code == 0  # the command named really exists
    key = next(iter(change))
    assert ("hnsw" if key.startswith("hnsw") else "embed_model" if key == "embed_model" else key) in msg
    assert check_index(other, embedder=embedder).ok is False  # the check says so too
