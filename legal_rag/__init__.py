"""legal_rag: a citation assistant for Indian criminal law, grounded in the official texts."""

__version__ = "0.1.0"
