"""The project's exceptions. The CLI turns any :class:`LegalRagError` into one line and exit code 1;
anything else is a bug and keeps its traceback."""


class LegalRagError(Exception):
    """Base class of every error the user can act on."""


class ConfigError(LegalRagError):
    """A setting is invalid; the message names the field and the value."""


class CorpusError(LegalRagError):
    """A corpus file is missing or its sha256 does not match the manifest."""


class PdfError(LegalRagError):
    """A PDF could not be read (encrypted with a password, truncated, not a PDF, timed out)."""

    def __init__(self, source: str, kind: str, message: str, page: int | None = None):
        self.source, self.kind, self.page = source, kind, page
        where = source + (f" p.{page}" if page is not None else "")
        super().__init__(f"{where}: {kind}: {message}")


class IndexMismatchError(LegalRagError):
    """The index on disk was built with other settings (model, dimension, chunking, format)."""


class IndexLockedError(LegalRagError):
    """Another writer holds the index lock."""


class RefError(LegalRagError):
    """A statute reference is invalid (e.g. a section beyond an Act's last one)."""


class FilterError(LegalRagError, ValueError):
    """A metadata filter names an unknown key or a value it cannot take; the message names the key and the value."""


class InputTooLongError(LegalRagError):
    """A question or look-up is longer than ``Settings.question_max_chars``; the message states the limit."""


def corpus_missing(path) -> CorpusError:
    """The error for a corpus folder that does not exist, naming the setting that moves it (every command that reads
    the corpus says the same: ``index``, ``lookup``, the correspondence tables)."""
    return CorpusError(f"corpus folder {path} not found: set LEGAL_RAG_CORPUS_PATH (or corpus_path in legal_rag.toml) "
                       "to the folder holding statutes/, judgments/ and mappings/, for every command (export it in the "
                       "shell); with neither set, ../shared/corpora beside the checkout is read, else ./corpora-data")
