"""``legal_rag.law``'s front door: every exported name is its submodule's object, and a bare import stays cheap."""

import importlib
import subprocess
import sys

import pytest

import legal_rag.law as law


def test_every_exported_name_is_the_submodules_own_object():
    assert len(law.__all__) == len(set(law.__all__))
    for module, names in law._LAZY.items():
        sub = importlib.import_module(f"legal_rag.law.{module}")
        for name in names:
            assert getattr(law, name) is getattr(sub, name), name
    for name in law.__all__:
        assert getattr(law, name) is not None, name
    # names that are also submodule names are the functions, not the modules
    assert callable(law.align) and callable(law.classify) and callable(law.lookup)
    assert law.analyse.__module__ == "legal_rag.law.question"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError):
        law.no_such_name  # noqa: B018


def test_a_bare_import_loads_none_of_the_lazy_submodules():
    code = ("import sys, legal_rag.law as law; "
            "print(sorted(m for m in law._LAZY if f'legal_rag.law.{m}' in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
