"""Build hook (the project is configured in pyproject.toml): a wheel ships ``prompts/`` and
``corpora/manifest.toml`` as package data under ``legal_rag/resources/``, so an installed package finds them
without a checkout (``legal_rag.config.project_file``). A checkout (editable install, ``make run``) reads the files
in place and never these copies."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
RESOURCES = ("prompts", "corpora/manifest.toml")  # paths relative to the checkout, kept as such under resources/


class BuildPyWithResources(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout itself
        target = Path(self.build_lib) / "legal_rag" / "resources"
        for rel in RESOURCES:
            src, dst = HERE / rel, target / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True)
            else:
                shutil.copyfile(src, dst)


setup(cmdclass={"build_py": BuildPyWithResources})
