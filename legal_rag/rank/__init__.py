"""Choosing the governing provision: a section ranker learned from data (fields, signals, features, the fitted
models and the ranking of one question). Front door of the package; ``legal-rag train-ranker`` fits it
(:mod:`legal_rag.rank.training`)."""

from .choose import KEEP, SectionRanker, in_corpus_acts
from .examples import DATA, Example, asked_files, memory_files, parse_ref, read_examples, training_files
from .features import (LIMB_FEATURES, OUTSIDE_FEATURES, SECTION_FEATURES, candidates, limb_matrix, outside_vector,
                       section_matrix)
from .fields import FIELDS, FieldIndex, Limb, SectionFields, section_fields, split_blocks
from .memory import Memory, build_memory
from .model import OTHER, WEIGHTS, Boosted, Linear, Ranked, Ranker, Ranking, load_ranker, softmax
from .signals import Signals, gather

__all__ = ["DATA", "Example", "asked_files", "memory_files", "Memory", "build_memory", "parse_ref", "read_examples", "training_files", "FIELDS", "KEEP", "LIMB_FEATURES", "OTHER", "OUTSIDE_FEATURES", "SECTION_FEATURES", "WEIGHTS", "Boosted", "FieldIndex", "Limb", "Linear",
           "Ranked", "Ranker", "Ranking", "SectionFields", "SectionRanker", "Signals", "candidates", "gather",
           "in_corpus_acts", "limb_matrix", "load_ranker", "outside_vector", "section_fields", "section_matrix", "softmax",
           "split_blocks"]
