"""How long chunking takes: the 2,914 AILA 2019 judgments and the statutes (issue 13). Usage::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 nice -n 10 .venv/bin/python bench/chunk_time.py \
        [--limit N] [--no-statutes] [--save-ids FILE] [--profile 25]

* **judgments**: :func:`legal_rag.eval.aila.load_casedocs` (the 2,914 SC judgments read in place from the
  corpus tarball; ``--limit N``: the first N) chunked by :func:`legal_rag.ingest.chunk.chunk_corpus` with the
  settings' ``chunk_tokens`` / ``chunk_overlap`` and the settings' embedder as token counter, exactly as
  :func:`legal_rag.eval.runners.run_task1` does.
* **statutes**: every section of the structured statute files (:func:`legal_rag.eval.acts.structured_sections`:
  IPC, CrPC, IEA, BNS, BNSS) and the 197 AILA statutes (:func:`legal_rag.eval.aila.load_statutes`).

Loading is timed apart; the tokenizer is loaded before the clock starts. For each part it prints chunks, wall
seconds, CPU seconds of this process (``time.process_time``: the machine is shared, so wall time depends on the
load, which is printed before and after from ``uptime``), chunks per wall second, and a sha256 digest of every
chunk's full ``repr`` (id, text, span, pages, part, meta...): two versions of the chunker that print the same
digest produced byte-identical chunks. ``--save-ids`` writes ``<id>\\t<start>\\t<end>`` per chunk for a diff.
Tokenizer threads are off (``TOKENIZERS_PARALLELISM=false``, as in the tests) so the CPU figure is one core's.
The figures and the before/after runs are in bench/results_chunking.md.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import os
import pstats
import subprocess
import sys
import time

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def _digest(chunks) -> str:
    h = hashlib.sha256()
    for c in chunks:
        h.update(repr(c).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:16]


def _timed(name: str, fn, profile: int):
    print(f"{name}: start   {_uptime()}", flush=True)
    prof = cProfile.Profile() if profile else None
    w, c = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    chunks = fn()
    if prof:
        prof.disable()
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    print(f"{name}: end     {_uptime()}", flush=True)
    print(f"{name}: {len(chunks)} chunks in {wall:.1f} s wall, {cpu:.1f} s CPU, {len(chunks) / wall:.0f} chunks/s"
          f"; digest {_digest(chunks)}", flush=True)
    if prof:
        pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(profile)
    return chunks


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N judgments")
    ap.add_argument("--no-statutes", action="store_true")
    ap.add_argument("--save-ids", default=None, help="write <id> TAB <start> TAB <end> per chunk here")
    ap.add_argument("--profile", type=int, default=0, help="print the top N functions by cumulative time")
    args = ap.parse_args(argv)

    from legal_rag.config import load_settings
    from legal_rag.eval.acts import structured_sections
    from legal_rag.eval.aila import load_casedocs, load_statutes
    from legal_rag.index.embed import Embedder
    from legal_rag.ingest import chunk as chunk_mod

    settings = load_settings()
    kw = dict(chunk_tokens=settings.chunk_tokens, overlap=settings.chunk_overlap)
    embedder = Embedder.from_settings(settings)
    embedder.tokenizer, embedder.window  # noqa: B018  (loaded before the clock starts)
    print(f"chunker: {chunk_mod.__file__}; chunk_tokens={settings.chunk_tokens} overlap={settings.chunk_overlap}; "
          f"corpus {settings.corpus_path}", flush=True)
    out = []
    t = time.perf_counter()
    judgments, paras = load_casedocs(settings.corpus_path, args.limit)
    print(f"loaded {len(judgments)} judgments, {len(paras)} paragraphs in {time.perf_counter() - t:.1f} s", flush=True)
    by_id = {j.case_id: j for j in judgments}
    out += _timed(f"judgments ({len(judgments)})",
                  lambda: chunk_mod.chunk_corpus((), paras, embedder, judgments=by_id, **kw), args.profile)
    if not args.no_statutes:
        secs = list(structured_sections(settings.corpus_path)) + list(load_statutes(settings.corpus_path))
        out += _timed(f"statutes ({len(secs)} sections)",
                      lambda: chunk_mod.chunk_corpus(secs, (), embedder, **kw), args.profile)
    if args.save_ids:
        with open(args.save_ids, "w", encoding="utf-8") as fh:
            fh.writelines(f"{c.id}\t{c.span[0]}\t{c.span[1]}\n" for c in out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
