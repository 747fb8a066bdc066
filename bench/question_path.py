"""The path of one question through ``Pipeline.ask``: which modules of ``legal_rag`` the question is handed to, in
call order, and how often that path comes back to a module it had already left.

A call *carries the question* when one of its arguments is the question's text (a string holding the normalised
question, or held by it when at least 12 characters long), or an object whose ``question``, ``text``, ``asked`` or
``analysis`` attribute carries it (one level down: ``Question``, ``QuestionAnalysis``, ``Turn``, a draft). The
calls that carry it are traced with :func:`sys.setprofile` and :func:`threading.setprofile` (the generator runs on
a worker thread) during one ``Pipeline.ask``, after one warm-up question so that lazy loading is not counted. Each
call site (calling function and line -> called function) counts once, as in the code: a loop over sentences or
passages, or a generator resumed for each streamed piece, is one step, not one per item. The sequence of the
called modules, consecutive repeats merged, is the path. **Modules entered**: the distinct modules on the path.
**Returns**: the steps of the path into a module that is already on it earlier (A -> B -> A counts one return).

    HF_HUB_OFFLINE=1 .venv/bin/python bench/question_path.py --data-dir .legal_rag-test/index-KEY \\
        "What is the punishment for cheating under the IPC?" "Is it bailable?"

Prints, per question, the path (``--path``) and the two counts.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import threading
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ATTRS = ("question", "text", "asked", "analysis")
MIN_PART = 12
GENERATOR_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def module_of(filename: str, pkg: str) -> str | None:
    """``<pkg>/law/question.py`` -> ``law/question``; None outside the package folder ``pkg``."""
    if not filename.startswith(pkg):
        return None
    return filename[len(pkg):].removesuffix(".py")


def carries(value, question: str, depth: int = 1) -> bool:
    """Whether ``value`` carries the question (module docstring)."""
    if isinstance(value, str):
        return question in value or (len(value) >= MIN_PART and value in question)
    if depth and not isinstance(value, (int, float, bytes, dict, list, tuple, set, frozenset)):
        for a in ATTRS:
            try:
                got = object.__getattribute__(value, a)
            except Exception:  # noqa: BLE001 - a property that fails, a slot never set: not carried
                continue
            if not callable(got) and carries(got, question, depth - 1):
                return True
    return False


def trace(pipe, question: str, **kw) -> list[str]:
    """The path (module docstring) of ``question`` through ``pipe.ask(question, **kw)``."""
    import legal_rag

    pkg = os.path.dirname(legal_rag.__file__) + os.sep
    needle = pipe.read_input(question)
    path: list[str] = []
    sites: set = set()
    started: set = set()
    lock = threading.Lock()

    def profile(frame, event, arg):
        if event != "call":
            return
        mod = module_of(frame.f_code.co_filename, pkg)
        if mod is None:
            return
        code = frame.f_code
        if code.co_flags & GENERATOR_FLAGS:  # a generator resumed is no new call
            if id(frame) in started:
                return
            started.add(id(frame))
        back = frame.f_back
        site = (back.f_code, back.f_lineno, code) if back is not None else (None, 0, code)
        if site in sites:
            return
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        loc = frame.f_locals
        if any(carries(loc.get(n), needle) for n in names if n in loc):
            with lock:
                sites.add(site)
                if not path or path[-1] != mod:
                    path.append(mod)

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        pipe.ask(question, **kw)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return path


def counts(path: list[str]) -> tuple[int, int]:
    """(modules entered, returns) of a path."""
    seen: set[str] = set()
    returns = 0
    for m in path:
        returns += m in seen
        seen.add(m)
    return len(seen), returns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("questions", nargs="+")
    ap.add_argument("--data-dir", type=Path, required=True, help="a built index (legal-rag index)")
    ap.add_argument("--casebase-limit", type=int, default=None, help="as the index was built (tests: 300)")
    ap.add_argument("--path", action="store_true", help="print each path")
    args = ap.parse_args(argv)
    from legal_rag.config import Settings
    from legal_rag.pipeline import Pipeline

    extra = {} if args.casebase_limit is None else {"casebase_limit": args.casebase_limit}
    pipe = Pipeline(Settings(data_dir=args.data_dir, **extra))
    pipe.ask("What is the punishment for theft?")  # warm-up: models, index and tables loaded before tracing
    previous = None
    for q in args.questions:
        path = trace(pipe, q, previous=previous)
        entered, returns = counts(path)
        print(f"{q!r}: {entered} modules entered, {returns} returns ({len(path)} steps)")
        if args.path:
            print("  " + " -> ".join(path))
        previous = q
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
