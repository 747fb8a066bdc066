"""Hard-negative mining and the five builders of training groups (sources and rules: :mod:`legal_rag.rerank_data`).

``build_groups(corpus_path, seed=13, limits=DEFAULT_LIMITS, embedder=None) -> list[Group]`` is deterministic for a
given seed, corpus and embedder: pools, candidates and samples are all ordered before the seeded shuffle.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Sequence

import numpy as np

from .rerank_data import (QUERY_WORDS, Doc, Forbidden, Group, aila_docs, assert_no_leak, bns_docs, ipc_docs, leaks,
                          load_forbidden, split_illustrations)
from .types import StatuteRef

NEGATIVES = 3  # hard negatives per group
#: groups per source (after the leak filter): 480 groups x 4 pairs = 120 steps of 16 pairs (see bench/results_rerank.md)
DEFAULT_LIMITS = {"aila": 80, "charge": 150, "title": 100, "illustration": 80, "bprd": 70}


class Miner:
    """Ranks a pool of :class:`Doc` for a query by BM25 (``legal_rag.index.SparseIndex``, the legal tokenizer)
    and, with an embedder, by dense cosine; :meth:`negatives` interleaves the two lists (BM25 first)."""

    def __init__(self, docs: Sequence[Doc], embedder=None, mask_title: bool = False):
        from .index import SparseIndex

        self.docs = {d.key: d for d in docs}
        self.keys = sorted(self.docs)
        self.mask = mask_title
        self.sparse = SparseIndex.build(self.keys, [self.docs[k].passage(mask_title) for k in self.keys])
        self.embedder = embedder
        self._vecs = None

    def _dense(self, query: str, n: int) -> list[str]:
        if self.embedder is None:
            return []
        if self._vecs is None:
            self._vecs = self.embedder.embed_passages([self.docs[k].passage(self.mask) for k in self.keys])
        sims = self._vecs @ self.embedder.embed_query(query)
        return [self.keys[i] for i in np.argsort(-sims, kind="stable")[:n]]

    def negatives(self, query: str, exclude: set[str], n: int = NEGATIVES) -> list[Doc]:
        sparse = [k for k, _ in self.sparse.search(query, n + len(exclude) + 5)]
        dense = self._dense(query, n + len(exclude) + 5)
        out: list[str] = []
        for pair in zip(sparse + [None] * len(dense), dense + [None] * len(sparse)):
            for k in pair:
                if k and k not in exclude and k not in out:
                    out.append(k)
        return [self.docs[k] for k in out[:n]]


def query_windows(text: str, size: int = QUERY_WORDS, overlap: int = 20) -> list[str]:
    w = text.split()
    step = size - overlap
    return [" ".join(w[i:i + size]) for i in range(0, max(1, len(w) - overlap), step)] or [text]


def _overlap(a: str, b: str) -> int:
    stop = {"the", "of", "and", "to", "a", "in", "or", "any", "by", "is", "be", "that", "with", "for", "as", "on"}
    return len((set(re.findall(r"[a-z]+", a.lower())) - stop) & set(re.findall(r"[a-z]+", b.lower())))


def _group(query: str, pos: Doc, negs: list[Doc], source: str, mask: bool = False, body=None) -> Group | None:
    if len(negs) < NEGATIVES:
        return None
    txt = body or (lambda d: None)
    return Group(query, pos.passage(mask, txt(pos)), tuple(d.passage(mask, txt(d)) for d in negs), source)


def aila_groups(corpus_path: Path, miner: Miner) -> list[Group]:
    """Q1-Q10 x gold statutes of Task 2 (the test queries Q11-Q50 are never read here)."""
    from .eval.aila import TRAIN_QUERIES, load_qrels, load_queries

    texts, qrels = load_queries(corpus_path), load_qrels(corpus_path, "task2")
    out = []
    for q in TRAIN_QUERIES:
        gold = sorted(f"AILA {s}" for s, rel in qrels.get(q, {}).items() if rel > 0)
        wins = query_windows(texts[q])
        for s in gold:
            if s not in miner.docs:
                continue
            ranked = sorted(wins, key=lambda w: -_overlap(w, miner.docs[s].text))
            for w in ranked[:2]:  # the two windows that share most words with the statute
                g = _group(w, miner.docs[s], miner.negatives(w, set(gold)), f"aila:{q}:{s.split()[1]}")
                out.append(g)
    return [g for g in out if g]


def charge_sections(corpus_path: Path, ipc: dict[str, Doc]) -> dict[str, list[str]]:
    """charge id -> IPC keys whose text quotes a sentence of the charge's definition (``Labels.jsonl``); a
    sentence matches a section when >= 80% of its words occur in that section's text."""
    out: dict[str, list[str]] = {}
    path = Path(corpus_path) / "benchmarks" / "charge_identification" / "Labels.jsonl"
    words = {k: set(re.findall(r"[a-z]+", d.text.lower())) for k, d in ipc.items()}
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        keys: list[str] = []
        for sent in d["text"]:
            sw = set(re.findall(r"[a-z]+", sent.lower()))
            if len(sw) < 5:
                continue
            best = max(sorted(words), key=lambda k: len(sw & words[k]))
            if len(sw & words[best]) >= 0.8 * len(sw) and best not in keys:
                keys.append(best)
        out[d["chargeid"]] = keys
    return out


def successors(keys: Sequence[str], conc) -> list[str]:
    """BNS section keys succeeding IPC keys by the BPR&D table (``Concordance.successors``)."""
    out = []
    for k in keys:
        c = conc.successors(StatuteRef("IPC", k.split()[1]))
        out.extend(f"BNS {t.section}" for t in c.targets if t.act == "BNS")
    return list(dict.fromkeys(out))


def charge_groups(corpus_path: Path, miners: dict[str, Miner], conc, rng: random.Random) -> list[Group]:
    charge = charge_sections(corpus_path, miners["IPC"].docs)
    path = Path(corpus_path) / "benchmarks" / "charge_identification" / "Train-Sent.jsonl"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fact = json.loads(line)
        all_ipc = [k for lab in fact["doc_labels"] for k in charge.get(lab, [])]
        excl = set(all_ipc) | set(successors(all_ipc, conc))
        for lab in sorted(fact["doc_labels"]):
            sents = [s for s, labs in zip(fact["text"], fact["sent_labels"]) if lab in labs]
            query = " ".join(" ".join(sents).split()[:QUERY_WORDS])
            ipc = charge.get(lab, [])
            cands = [("IPC", k) for k in ipc] + [("BNS", k) for k in successors(ipc, conc)]
            cands = [(a, k) for a, k in cands if k in miners[a].docs]
            if not query or not cands:
                continue
            act, key = rng.choice(cands)
            out.append(_group(query, miners[act].docs[key], miners[act].negatives(query, excl), f"charge:{fact['factid']}:{lab}"))
    return [g for g in out if g]


def title_groups(miners: dict[str, Miner]) -> list[Group]:
    out = []
    for act in ("BNS", "IPC"):
        m = miners[act + "-masked"]
        for k in m.keys:
            d = m.docs[k]
            if len(d.title.split()) >= 2 and len(d.text.split()) >= 20:
                out.append(_group(d.title, d, m.negatives(d.title, {k}), f"title:{k}", mask=True))
    return [g for g in out if g]


def illustration_groups(miners: dict[str, Miner]) -> list[Group]:
    m = miners["BNS"]
    bodies = {k: split_illustrations(d.text) for k, d in m.docs.items()}
    out = []
    for k in m.keys:
        for ill in bodies[k][1]:
            out.append(_group(ill, m.docs[k], m.negatives(ill, {k}), f"illustration:{k}",
                              body=lambda d: bodies[d.key][0]))
    return [g for g in out if g]


def bprd_groups(miners: dict[str, Miner], conc, forbidden: Forbidden) -> list[Group]:
    """Subject of a BNS<->IPC row -> the BNS section and the IPC section it pairs (rows a dev item was written
    from are skipped)."""
    out, seen = [], set()
    for p in conc.pairs:
        if (p.row.file != "BPRD_correspondence_BNS_to_IPC_clean.csv" or not p.row.subject or p.new is None
                or p.old is None or f"{p.row.file}#{p.row.row}" in forbidden.rows):
            continue
        subj = p.row.subject.strip()
        pair_keys = {f"BNS {p.new.section}", f"IPC {p.old.section}"}
        for act, key in (("BNS", f"BNS {p.new.section}"), ("IPC", f"IPC {p.old.section}")):
            if key in miners[act].docs and (subj, key) not in seen and len(subj.split()) >= 2:
                seen.add((subj, key))
                out.append(_group(subj, miners[act].docs[key], miners[act].negatives(subj, pair_keys),
                                  f"bprd:{p.row.file}#{p.row.row}:{key}"))
    return [g for g in out if g]


def build_groups(corpus_path: Path, *, seed: int = 13, limits: dict[str, int] | None = None, embedder=None,
                 forbidden: Forbidden | None = None, log=lambda m: None) -> list[Group]:
    """Training groups from every source, at most ``limits[source]`` each (seeded sample), leak-filtered, then
    shuffled with ``seed``. Raises :class:`LeakageError` if a held-out query is still present."""
    from .law import load_concordance

    limits = dict(DEFAULT_LIMITS if limits is None else limits)
    forbidden = forbidden or load_forbidden(corpus_path)
    rng = random.Random(seed)
    bns, ipc = bns_docs(corpus_path), ipc_docs(corpus_path)
    conc = load_concordance(corpus_path)
    miners = {"BNS": Miner(list(bns.values()), embedder), "IPC": Miner(list(ipc.values()), embedder)}
    by_source: dict[str, list[Group]] = {}
    if limits.get("aila"):
        by_source["aila"] = aila_groups(corpus_path, Miner(list(aila_docs(corpus_path).values()), embedder))
    if limits.get("charge"):
        by_source["charge"] = charge_groups(corpus_path, miners, conc, rng)
    if limits.get("title"):
        miners["BNS-masked"] = Miner(list(bns.values()), mask_title=True)  # BM25 only: saves ~900 embeddings
        miners["IPC-masked"] = Miner(list(ipc.values()), mask_title=True)
        by_source["title"] = title_groups(miners)
    if limits.get("illustration"):
        by_source["illustration"] = illustration_groups(miners)
    if limits.get("bprd"):
        by_source["bprd"] = bprd_groups(miners, conc, forbidden)
    out: list[Group] = []
    for src in sorted(by_source):
        gs = list(dict.fromkeys(g for g in by_source[src] if not leaks(g.query, forbidden)))
        dropped = len(by_source[src]) - len(gs)
        gs = rng.sample(gs, min(limits[src], len(gs)))
        log(f"{src}: {len(by_source[src])} groups, {dropped} dropped as held-out overlap, {len(gs)} kept")
        out.extend(gs)
    rng.shuffle(out)
    assert_no_leak(out, forbidden)
    return out
