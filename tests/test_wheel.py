"""The package works installed from a wheel, away from the checkout.

The wheel is built from a copy of the project's files (so no ``build/`` is written into the shared checkout) with
the project venv's pip, installed with ``--no-deps --target`` into a temporary directory, and run with the project
venv's interpreter (which has the dependencies) from a directory outside the repository with ``PYTHONPATH`` set to
that target: the checkout's ``legal_rag`` cannot be imported there, and the test asserts that it is not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "README.md", "legal_rag", "prompts", "corpora/manifest.toml")

pytestmark = pytest.mark.slow


def _run(args: list[str], cwd: Path, env: dict, timeout: float = 600) -> subprocess.CompletedProcess:
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, f"{args} exited {out.returncode}\nstdout:\n{out.stdout[-3000:]}\nstderr:\n{out.stderr[-3000:]}"
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(site, env, cwd)``: the wheel installed into ``site``; ``env`` puts it on PYTHONPATH; ``cwd`` is outside
    the checkout."""
    from legal_rag.config import Settings

    tmp = tmp_path_factory.mktemp("wheel")
    src, dist, site, cwd = tmp / "src", tmp / "dist", tmp / "site", tmp / "run"
    for rel in SOURCES:
        a, b = ROOT / rel, src / rel
        b.parent.mkdir(parents=True, exist_ok=True)
        if a.is_dir():
            shutil.copytree(a, b, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(a, b)
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEGAL_RAG_") and k != "PYTHONPATH"}
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(src)],
         cwd=src, env=env)
    wheels = list(dist.glob("legal_rag-*.whl"))
    assert len(wheels) == 1, wheels
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheels[0])],
         cwd=cwd, env=env)
    env |= {"PYTHONPATH": str(site), "LEGAL_RAG_CORPUS_PATH": str(Settings().corpus_path),
            "LEGAL_RAG_DATA_DIR": str(tmp / "data"), "LEGAL_RAG_CONFIG": str(tmp / "absent.toml"),
            "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    return site, env, cwd


def test_the_installed_package_is_the_wheel_and_ships_its_files(installed):
    site, env, cwd = installed
    code = ("import legal_rag, legal_rag.ui.app as ui; from legal_rag.config import Settings; s = Settings(); "
            "print(legal_rag.__file__); print(ui.__file__); print(s.prompts_dir); print(s.manifest_path); "
            "assert (s.prompts_dir / 'answer.txt').is_file() and s.manifest_path.is_file(); "
            "from legal_rag.rank.model import load_ranker; load_ranker(); "
            "from legal_rag.rank.followup import followup_files, load_followup; load_followup(); "
            "assert len(followup_files()) >= 2")
    lines = _run([sys.executable, "-c", code], cwd=cwd, env=env).stdout.split()
    assert all(Path(p).resolve().is_relative_to(site.resolve()) for p in lines), lines
    assert not any(Path(p).resolve().is_relative_to(ROOT) for p in lines), lines


def test_console_script_serve_help_and_lookup(installed):
    site, env, cwd = installed
    script = site / "bin" / "legal-rag"
    assert script.is_file()
    out = _run([str(script), "serve", "--help"], cwd=cwd, env=env)
    assert "chat UI" in out.stdout
    out = _run([str(script), "lookup", "IPC 420"], cwd=cwd, env=env)
    assert "318(4)" in out.stdout, out.stdout
    out = _run([sys.executable, "-m", "legal_rag", "lookup", "IPC 420"], cwd=cwd, env=env)
    assert "318(4)" in out.stdout, out.stdout
