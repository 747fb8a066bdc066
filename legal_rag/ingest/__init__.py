"""Ingest: files -> pages -> statute sections and judgment paragraphs. Front door: :func:`load_corpus`."""

from .corpus import Corpus, Source, corpus_file, load_corpus, load_manifest, verify
from .judgments import pages_from_text, parse_judgment

__all__ = ["Corpus", "Source", "corpus_file", "load_corpus", "load_manifest", "verify", "parse_judgment", "pages_from_text"]
