"""BM25 over chunks (bm25s, persisted), with a tokenizer that keeps statute numbers intact.

Tokenizer rules (field case BL-25; DESIGN.md "Sparse"):

* ``498A``, ``498-A``, ``498 A``, ``s. 498A`` -> ``498a`` (a space before a letter joins only when the letter is
  a capital standing alone, as printed in section numbers);
* ``318(4)``, ``318 (4)``, ``318(4).`` -> ``318`` and ``318(4)``; ``302(1)(b)`` -> ``302``, ``302(1)``,
  ``302(1)(b)``; ``3(5)`` -> ``3``, ``3(5)``;
* a bare ``(4)`` or ``(b)`` with no number before it gives no token (it would match every section);
* single digits are kept (``"5"`` -> ``5``);
* words are lower-cased, English stop words and the markers ``section``/``sec``/``sub``/``clause`` dropped
  (they are in almost every legal text and would let "Section 498A" match any section) and Snowball-stemmed (PyStemmer); Devanagari words are
  kept whole (not stemmed);
* text is NFKC-normalised first, so ligatures (``ﬁne``) become plain letters (BL-04).

``legal_tokenize("Section 498-A IPC; 318 (4) BNS") -> ["498a", "ipc", "318", "318(4)", "bns"]``
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..kept import Kept

_TOKEN = re.compile(
    r"(?P<num>(?<![\w.(])\d+(?:\s*-\s*|\s(?=[A-Z](?![A-Za-z])))?(?P<let>(?<=\d|-|\s)[A-Za-z]{1,2}(?![A-Za-z]))?)"
    r"(?P<subs>(?:\s?\(\s*(?:\d{1,3}[A-Za-z]?|[a-z]{1,4})\s*\))*)"
    r"|(?P<word>(?:[^\W\d_]|[\u0900-\u097F])+)"
)
LEGAL_STOPWORDS = frozenset({"section", "sections", "sec", "secs", "sub", "clause", "clauses"})
_SUB = re.compile(r"\(\s*(\w+)\s*\)")
_SEP = re.compile(r"[\s-]+")


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer  # PyStemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN) | LEGAL_STOPWORDS


def legal_tokenize(text: str) -> list[str]:
    """Tokens of ``text`` for BM25 (rules in the module docstring). ``legal_tokenize("") -> []``."""
    text = unicodedata.normalize("NFKC", text)
    stem, stop = _stemmer(), _stopwords()
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        if m.group("word"):
            w = m.group("word").lower()
            if w in stop or (len(w) == 1 and w.isascii()):
                continue
            out.append(w if not w.isascii() else stem.stemWord(w))
            continue
        num = m.group("num")
        if not num:
            continue
        base = _SEP.sub("", num).lower()
        if not base[0].isdigit():
            continue
        out.append(base)
        subs = _SUB.findall(m.group("subs") or "")
        acc = base
        for s in subs:
            acc += f"({s.lower()})"
            out.append(acc)
    return out


class SparseIndex:
    """bm25s index over chunk passages; ``ids[i]`` is the chunk id of document ``i``.

    Scores are BM25 (Lucene variant, bm25s defaults k1=1.5, b=0.75); a document with score 0 holds no query
    token and is never returned.
    """

    def __init__(self, bm25, ids: Sequence[str], avgdl: float | None = None):
        self.bm25 = bm25
        self.ids = list(ids)
        #: mean document length in tokens (None: not recorded by the build that wrote it)
        self.avgdl = avgdl
        self._pos = {cid: i for i, cid in enumerate(self.ids)}
        self._masks: Kept[frozenset[str], np.ndarray] = Kept(16)

    @classmethod
    def build(cls, ids: Sequence[str], passages: Sequence[str]) -> "SparseIndex":
        import bm25s

        if len(ids) != len(passages):
            raise ValueError(f"{len(ids)} ids for {len(passages)} passages")
        if not ids:  # bm25s cannot index an empty corpus (every file failed): an empty index that finds nothing
            return cls(None, ())
        bm25 = bm25s.BM25()
        tokens = [legal_tokenize(p) for p in passages]
        bm25.index(tokens, show_progress=False)
        return cls(bm25, ids, avgdl=sum(map(len, tokens)) / len(tokens))

    def save(self, path: Path) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        if self.bm25 is not None:
            self.bm25.save(str(path), show_progress=False)
        (path / "ids.json").write_text(json.dumps(self.ids))
        if self.avgdl is not None:
            (path / "stats.json").write_text(json.dumps({"avgdl": self.avgdl}))

    @classmethod
    def load(cls, path: Path) -> "SparseIndex":
        import bm25s

        ids = json.loads((Path(path) / "ids.json").read_text())
        stats = Path(path) / "stats.json"
        avgdl = json.loads(stats.read_text())["avgdl"] if stats.is_file() else None
        return cls(bm25s.BM25.load(str(path), show_progress=False) if ids else None, ids, avgdl)

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query: str, candidates: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """Up to ``candidates`` ``(chunk id, score)`` pairs, best first, only positive scores; ``allowed``
        restricts the result to those chunk ids (metadata filters). Ties break by chunk id."""
        if self.bm25 is None or not self.ids:
            return []
        vocab = self.bm25.vocab_dict
        toks = [t for t in legal_tokenize(query) if t in vocab]
        if not toks:
            return []
        mask = None if allowed is None else self._mask(allowed)
        scores = np.asarray(self.bm25.get_scores(toks, weight_mask=mask), dtype=np.float64)
        pos = np.flatnonzero(scores > 0)
        if len(pos) > candidates:  # only scores >= the candidates-th best can place (ties kept for the id order)
            cut = np.partition(scores[pos], len(pos) - candidates)[len(pos) - candidates]
            pos = pos[scores[pos] >= cut]
        order = sorted(pos.tolist(), key=lambda i: (-scores[i], self.ids[i]))[:candidates]
        return [(self.ids[i], float(scores[i])) for i in order]

    def score_outside(self, query: str, docs: Sequence[Sequence[str]], avgdl: float) -> np.ndarray:
        """BM25 scores of ``query`` for documents that are not in this index (``docs``: their
        :func:`legal_tokenize` tokens), as this index would score them: its document frequencies and count, the
        mean length ``avgdl``, the same Lucene formula and parameters (Kamphuis et al., ECIR 2020; bm25s's
        ``method="lucene"``). A query token this index has never seen counts with document frequency 0. Shape
        ``(len(docs),)``, float64."""
        import math

        toks = legal_tokenize(query)
        out = np.zeros(len(docs), dtype=np.float64)
        if not toks or not docs:
            return out
        n = int(self.bm25.scores["num_docs"]) if self.bm25 is not None else 0
        indptr = self.bm25.scores["indptr"] if self.bm25 is not None else None
        vocab = self.bm25.vocab_dict if self.bm25 is not None else {}
        k1, b = (self.bm25.k1, self.bm25.b) if self.bm25 is not None else (1.5, 0.75)
        avgdl = avgdl or 1.0
        from collections import Counter

        for t, times in Counter(toks).items():  # a repeated query token counts each time, as bm25s counts it
            tid = vocab.get(t)
            df = int(indptr[tid + 1] - indptr[tid]) if tid is not None else 0
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            for i, d in enumerate(docs):
                tf = d.count(t)
                if tf:
                    out[i] += times * idf * tf / (k1 * ((1 - b) + b * len(d) / avgdl) + tf)
        return out

    def _mask(self, allowed: Iterable[str]) -> np.ndarray:
        """A 0/1 weight mask over the documents for a set of chunk ids; kept per frozen set (the index's
        :meth:`legal_rag.index.Index.allowed_ids` hands the same set for the same filter), at most 16."""
        key = allowed if isinstance(allowed, frozenset) else None
        got = self._masks.get(key) if key is not None else None
        if got is not None:
            return got
        mask = np.zeros(len(self.ids), dtype=np.float32)
        for cid in allowed:
            i = self._pos.get(cid)
            if i is not None:
                mask[i] = 1.0
        mask.setflags(write=False)
        return self._masks.put(key, mask) if key is not None else mask
