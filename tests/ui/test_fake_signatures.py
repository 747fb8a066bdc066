"""The UI tests' stand-in (``tests/ui/ui_fake.py``) answers through the same calls as the real
:class:`legal_rag.pipeline.Pipeline`: every public method the fake defines exists on ``Pipeline`` with the same
parameters (names, kinds and defaults, :func:`inspect.signature`), so a UI call that works on the fake works on the
real pipeline. Compared generically: whatever methods the two define today."""

from __future__ import annotations

import inspect

import pytest

from legal_rag.pipeline import Pipeline

from tests.ui.ui_fake import FakePipeline


def _public_methods(cls) -> dict[str, object]:
    """``name -> function`` for the public methods ``cls`` defines itself (properties and attributes excluded)."""
    return {n: f for n, f in vars(cls).items() if not n.startswith("_") and inspect.isfunction(f)}


def _shape(fn) -> list[tuple[str, str, object]]:
    """The parameters that decide how a method is called: (name, kind, default); annotations are not compared."""
    return [(p.name, p.kind.name, p.default) for p in inspect.signature(fn).parameters.values()]


FAKE = _public_methods(FakePipeline)


def test_the_fake_defines_public_methods():
    assert {"ask", "ask_stream", "search", "lookup"} <= set(FAKE)  # what the UI calls


@pytest.mark.parametrize("name", sorted(FAKE))
def test_each_public_method_of_the_fake_has_the_pipelines_signature(name):
    real = getattr(Pipeline, name, None)
    assert real is not None and callable(real), f"Pipeline has no method {name!r}: the fake's is not the API"
    assert _shape(FAKE[name]) == _shape(real)
