"""Choosing the governing provision: a section ranker learned from data (fields, signals, features, the fitted
models and the ranking of one question). Front door of the package; ``legal-rag train-ranker`` fits it
(:mod:`legal_rag.rank.training`)."""

from .choose import KEEP, SectionRanker, in_corpus_acts
from .examples import DATA, Example, parse_ref, read_examples, training_files
from .features import LIMB_FEATURES, SECTION_FEATURES, candidates, limb_matrix, section_matrix
from .fields import FIELDS, FieldIndex, Limb, SectionFields, section_fields, split_blocks
from .memory import Memory, build_memory
from .model import OTHER, WEIGHTS, Linear, Ranked, Ranker, Ranking, load_ranker
from .signals import Signals, gather

__all__ = ["DATA", "Example", "Memory", "build_memory", "parse_ref", "read_examples", "training_files", "FIELDS", "KEEP", "LIMB_FEATURES", "OTHER", "SECTION_FEATURES", "WEIGHTS", "FieldIndex", "Limb", "Linear",
           "Ranked", "Ranker", "Ranking", "SectionFields", "SectionRanker", "Signals", "candidates", "gather",
           "in_corpus_acts", "limb_matrix", "load_ranker", "section_fields", "section_matrix", "split_blocks"]
