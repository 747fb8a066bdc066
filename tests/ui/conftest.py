"""Fixtures of the UI tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def demo(real_pipeline, tmp_path_factory):
    """The UI over the real pipeline, one per test module; its export files go to a temporary folder (the index is
    read only)."""
    from legal_rag.ui.app import create_app

    settings = real_pipeline.settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("ui-real")})
    return create_app(settings, real_pipeline)
