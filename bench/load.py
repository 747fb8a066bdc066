"""Bounded load test of the running app's JSON API (issue 8, "Load"): loopback only, stops by itself.

    python bench/load.py --data-dir /tmp/lr_data --clients 20 --duration 60 [--json out.json]

Starts ``app.create_server`` under uvicorn on 127.0.0.1 and a free port in a child process (the index under
``--data-dir`` must have been built by ``legal-rag index``), waits until it answers, warms it with one look-up and
one question, then runs ``--clients`` concurrent clients for ``--duration`` seconds. Each client loops over a
seeded mix of section look-ups (``GET /api/lookup``) and retrieval questions (``POST /api/ask``, extractive
answers), one request at a time. Prints and optionally writes: requests, throughput (requests/s), latency
p50/p95/p99 in ms (all and per kind), errors (non-200 responses and transport failures, with the first few
reasons) and the server's peak resident memory (RSS of the server process and its children, sampled every
0.2 s). Nothing but 127.0.0.1 is ever contacted. Exit status 1 when any request failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only, by construction

LOOKUPS = ["IPC 420", "BNS 318(4)", "s. 498A IPC", "IPC 302", "CrPC 438", "BNSS 482", "IEA 65B", "BSA 63",
           "IPC 124A", "IPC 377", "Section 406 IPC", "BNS 103"]
QUESTIONS = ["What is the punishment for cheating under the BNS?", "What replaced section 420 IPC?",
             "What is the punishment for murder?", "When can anticipatory bail be granted?",
             "What is cruelty by husband or relatives of husband?", "What is criminal breach of trust?",
             "Is an electronic record admissible in evidence?", "What is the punishment for theft?",
             "What is culpable homicide not amounting to murder?", "What is dowry death?"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(data_dir: Path, port: int) -> subprocess.Popen:
    code = ("import sys, uvicorn; sys.path.insert(0, sys.argv[1]); import app; "
            "from legal_rag.config import load_settings; "
            "uvicorn.run(app.create_server(load_settings()), host=sys.argv[2], port=int(sys.argv[3]), "
            "log_level='warning')")
    env = dict(os.environ, LEGAL_RAG_DATA_DIR=str(data_dir), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               GRADIO_ANALYTICS_ENABLED="False", ANONYMIZED_TELEMETRY="False", TOKENIZERS_PARALLELISM="false")
    return subprocess.Popen([sys.executable, "-c", code, str(ROOT), HOST, str(port)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_ready(base: str, server: subprocess.Popen, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"server exited with {server.returncode}: {server.stderr.read()[-2000:]}")
        try:
            if httpx.get(f"{base}/api/lookup", params={"q": "IPC 420"}, timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"server not ready after {timeout_s:g} s")


def rss_tree(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    vs = sorted(values)
    return vs[min(len(vs) - 1, max(0, round(q / 100 * len(vs) + 0.5) - 1))]  # nearest-rank percentile


def run_load(base: str, clients: int, duration_s: float, seed: int) -> list[tuple[str, float, str]]:
    """``(kind, latency s, "ok" | error reason)`` per request of every client, until ``duration_s`` has passed."""
    results: list[tuple[str, float, str]] = []
    lock = threading.Lock()
    deadline = time.monotonic() + duration_s

    def client(i: int) -> None:
        rng = random.Random(seed + i)
        mine = []
        with httpx.Client(base_url=base, timeout=120) as http:
            while time.monotonic() < deadline:
                kind = "lookup" if rng.random() < 0.5 else "ask"
                t0 = time.perf_counter()
                try:
                    if kind == "lookup":
                        r = http.get("/api/lookup", params={"q": rng.choice(LOOKUPS)})
                    else:
                        r = http.post("/api/ask", json={"question": rng.choice(QUESTIONS)})
                    ok = r.status_code == 200 and isinstance(r.json(), dict)
                    why = "ok" if ok else f"HTTP {r.status_code}: {r.text[:120]}"
                except (httpx.HTTPError, ValueError) as exc:
                    why = f"{type(exc).__name__}: {exc}"
                mine.append((kind, time.perf_counter() - t0, why))
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def summarise(results, duration_s: float, peak_rss: int, clients: int) -> dict:
    out = {"clients": clients, "duration_s": duration_s, "requests": len(results),
           "throughput_rps": round(len(results) / duration_s, 2),
           "errors": sum(why != "ok" for _, _, why in results),
           "error_samples": sorted({why for _, _, why in results if why != "ok"})[:5],
           "peak_rss_mib": round(peak_rss / 2**20, 1)}
    for kind in ("all", "lookup", "ask"):
        lat = [t * 1000 for k, t, why in results if kind in ("all", k) and why == "ok"]
        out[kind] = {"n": len(lat), "p50_ms": round(pct(lat, 50), 1), "p95_ms": round(pct(lat, 95), 1),
                     "p99_ms": round(pct(lat, 99), 1), "mean_ms": round(statistics.fmean(lat), 1) if lat else None}
    return out


def server_args(doc: str) -> argparse.ArgumentParser:
    """The options every served-app bench takes: ``--data-dir`` (default ``$LEGAL_RAG_DATA_DIR`` or
    ``.legal_rag``), ``--ready-timeout`` (seconds) and ``--json`` (a path for the figures)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=Path(os.environ.get("LEGAL_RAG_DATA_DIR", ".legal_rag")))
    ap.add_argument("--ready-timeout", type=float, default=300.0)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    return ap


def has_index(data_dir: Path) -> bool:
    """Whether ``data_dir`` holds a published build; says how to make one on stderr when it does not."""
    if (data_dir / "CURRENT").is_file():
        return True
    print(f"no index under {data_dir}: build it with `legal-rag index` first", file=sys.stderr)
    return False


def main(argv: list[str] | None = None) -> int:
    ap = server_args(__doc__)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of load (the run stops by itself)")
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args(argv)
    if not has_index(args.data_dir):
        return 2
    port = free_port()
    base = f"http://{HOST}:{port}"
    server = start_server(args.data_dir, port)
    proc = psutil.Process(server.pid)
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss_tree(proc))
            stop.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        t0 = time.perf_counter()
        wait_ready(base, server, args.ready_timeout)
        httpx.post(f"{base}/api/ask", json={"question": QUESTIONS[0]}, timeout=300).raise_for_status()  # warm-up
        warm_s = time.perf_counter() - t0
        idle_rss = rss_tree(proc)
        results = run_load(base, args.clients, args.duration, args.seed)
    finally:
        stop.set()
        sampler.join(5)
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    summary = summarise(results, args.duration, peak[0], args.clients)
    summary.update(startup_and_warmup_s=round(warm_s, 1), rss_after_warmup_mib=round(idle_rss / 2**20, 1),
                   data_dir=str(args.data_dir), host=HOST)
    text = json.dumps(summary, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
