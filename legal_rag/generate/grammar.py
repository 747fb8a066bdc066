"""A GBNF grammar (llama.cpp's grammar format) for an answer made only of ``[n]``-cited sentences.

``cited_sentences(numbers, max_sentences=6, abstain=NOT_IN_SOURCES) -> str``. The grammar admits either the
abstention sentence of ``prompts/system.txt`` rule 3, word for word, or one to ``max_sentences`` sentences, each
ending with one or more markers naming only the passages given (``[1]``, ``[2][3]``) and then a full stop. So the
decoder cannot:

* write a sentence without a marker, or with more than two (every sentence then reaches :mod:`legal_rag.verify` with the passage it claims
  to rest on; a sentence without a marker would be an unsupported claim);
* cite a passage that was not given (``[7]`` when five were);
* run past the answer's length rule (``max_sentences``; ``prompts/system.txt`` rule 5) or into JSON, code or
  headings (no newline, no braces).

A sentence ends ``... fine [1].`` or ``... fine. [1]``; inside it a full stop must be followed by a letter or
digit (``s.318``, ``U.P.``, ``Rs.500``), so a sentence ends only at its markers. The grammar constrains form only: what a sentence says is still checked against
the passage it cites, and the punishment-terms check still applies.

Grammar syntax: llama.cpp ``grammars/README.md`` (GBNF: alternatives, character classes, ``{m,n}`` repetition).
"""

from __future__ import annotations

from collections.abc import Sequence

from .abstain import NOT_IN_SOURCES


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cited_sentences(numbers: Sequence[int], *, max_sentences: int = 6, abstain: str = NOT_IN_SOURCES) -> str:
    """The GBNF text for ``numbers`` (the passage markers given, 1-based). Raises ValueError when ``numbers`` is
    empty (nothing could be cited) or ``max_sentences`` < 1."""
    nums = sorted({int(n) for n in numbers})
    if not nums or nums[0] < 1:
        raise ValueError(f"cited_sentences: no passage numbers to cite ({list(numbers)!r})")
    if max_sentences < 1:
        raise ValueError("cited_sentences: max_sentences must be at least 1")
    marker = " | ".join(_literal(f"[{n}]") for n in nums)
    return "\n".join([
        f"root ::= abstain | sentence (\" \" sentence){{0,{max_sentences - 1}}}",
        f"abstain ::= {_literal(abstain)}",
        # a sentence: words, then one or two markers and its full stop ("... fine [1]." or "... fine. [1]")
        "sentence ::= [A-Za-z0-9\"'(\\u201c] body end",
        "end ::= \" \" cite cite? \".\" | \". \" cite cite?",
        "body ::= piece{1,600}",
        # any character but a newline, brackets, braces or a full stop; a full stop only inside a token (s.318)
        "piece ::= [^\\n\\[\\]{}.] | \".\" [A-Za-z0-9]",
        f"cite ::= {marker}",
    ]) + "\n"


__all__ = ["cited_sentences"]
