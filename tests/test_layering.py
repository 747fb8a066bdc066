"""The layer order of DESIGN.md, read from the code (an AST walk; nothing is imported).

:func:`check_layering` reads every import of every module -- at module level, inside functions, under
``if TYPE_CHECKING:`` -- with relative imports resolved, and reports:

(a) ``layer``: an import from a layer above the module's own, or from another unit of the same layer (a *unit* is
    one entry of a layer: a top-level module or a subpackage; modules of one unit may import each other);
    ``unassigned``: a module no layer names;
(b) ``cycle``: modules that import each other, directly or round a longer circle (however well hidden inside a
    function);
(c) ``library``: a third-party library imported outside its one home (``typer`` only in ``cli/``; ``gradio``,
    ``fastapi`` and the web server pieces only in ``ui/``);
(d) ``private``: a name starting with ``_`` (not a dunder) imported or used as an attribute by a module of the
    public-API-only units (``bench/``: finding 3 of notes/restructure.md).

:func:`front_door_bypasses` reads the same imports for one more rule: a module outside a package with a front
door (``legal_rag.law``) imports its names from the package itself, never from one of its submodules.

The same function runs on the real package (and ``bench/`` as the top layer) and on small planted packages that
break each rule, so a checker that silently sees nothing fails too.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Bottom to top. Adapted from notes/restructure.md where the code argues otherwise:
#: * ``errors`` sits below ``types/config/text``: ``config`` raises ``ConfigError`` (a same-layer import otherwise);
#: * ``types`` sits below ``config/text`` (it imports nothing of the package): ``config`` types its settings with the
#:   vocabulary's ``Literal`` kinds (``GeneratorName``, ``UnsupportedClaims``, ``Stage``; finding 4);
#: * ``cli`` sits above ``ui``: ``legal-rag serve`` starts the UI (``cli`` -> ``ui.app.main``), and nothing in ``ui``
#:   imports ``cli``; ``python -m legal_rag`` (``legal_rag.__main__``) runs the CLI, so it sits above ``cli``;
#: * the package's own ``__init__`` (the version) is at the bottom and may import nothing; ``kept`` (the bounded
#:   caches) imports nothing of the package either, so it sits there too and every layer may use it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("legal_rag", "legal_rag.errors", "legal_rag.kept"),
    ("legal_rag.types",),
    ("legal_rag.config", "legal_rag.text"),
    ("legal_rag.injection", "legal_rag.law"),
    ("legal_rag.ingest", "legal_rag.index"),
    ("legal_rag.retrieve", "legal_rag.rerank", "legal_rag.generate", "legal_rag.cite", "legal_rag.export",
     "legal_rag.uploads"),
    # rank/: choosing the governing provision (fields, signals, features, the fitted models)
    ("legal_rag.rank",),
    # verify/: the claim and its evidence, the checks of one table, then statuses, re-attribution and shipping,
    # then the draft's verification and the answer after it; the front door (its __init__) on top
    ("legal_rag.verify.result", "legal_rag.verify.claim"),
    ("legal_rag.verify.scope", "legal_rag.verify.verdict", "legal_rag.verify.equivalents"),
    ("legal_rag.verify.checks", "legal_rag.verify.status", "legal_rag.verify.ship", "legal_rag.verify.finish"),
    ("legal_rag.verify.reattribute",),
    ("legal_rag.verify.draft",),
    ("legal_rag.verify",),
    ("legal_rag.resources", "legal_rag.build"),
    ("legal_rag.answer",),
    ("legal_rag.pipeline",),
    ("legal_rag.eval",),
    ("legal_rag.rerank.training",),
    ("legal_rag.ui",),
    ("legal_rag.cli",),
    ("legal_rag.__main__",),
    ("bench",),
)
#: third-party top-level package -> the only unit that may import it
HOMES: dict[str, str] = {"typer": "legal_rag.cli", "gradio": "legal_rag.ui", "fastapi": "legal_rag.ui",
                         "starlette": "legal_rag.ui", "uvicorn": "legal_rag.ui"}
#: units that may use only public names of the package
PUBLIC_ONLY = ("bench",)


@dataclass(frozen=True)
class Violation:
    kind: str  # "layer" | "unassigned" | "cycle" | "library" | "private"
    module: str
    detail: str


@dataclass(frozen=True)
class Imports:
    """Internal edges (module -> modules it imports), third-party top-level names and private names used."""

    edges: dict[str, set[str]]
    external: dict[str, set[str]]
    private: dict[str, set[str]]


def _modules(roots: Mapping[str, Path]) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is package ``__init__``) for every ``.py`` under each root (``name -> directory``)."""
    out = {}
    for name, root in roots.items():
        for path in sorted(Path(root).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts = parts[:-1]
            out[".".join([name, *parts])] = (path, is_pkg)
    return out


def _known(name: str, modules: Mapping[str, object]) -> str | None:
    """``name`` or its longest prefix that is a known module."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def read_imports(roots: Mapping[str, Path]) -> Imports:
    modules = _modules(roots)
    edges: dict[str, set[str]] = {m: set() for m in modules}
    external: dict[str, set[str]] = {m: set() for m in modules}
    private: dict[str, set[str]] = {m: set() for m in modules}
    internal_tops = {m.split(".")[0] for m in modules}
    for mod, (path, is_pkg) in modules.items():
        package = mod if is_pkg else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                    if not base or node.level - 1 > len(package.split(".")) - 1:
                        raise ValueError(f"{path}: relative import beyond the top package")
                    base_name = ".".join(base + ([node.module] if node.module else []))
                else:
                    base_name = node.module or ""
                for a in node.names:
                    sub = f"{base_name}.{a.name}"
                    targets.append(sub if sub in modules else base_name)
                    if a.name.startswith("_") and not a.name.startswith("__") and base_name.split(".")[0] in internal_tops:
                        private[mod].add(f"{base_name}.{a.name}")
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                private[mod].add(f"<attribute>.{node.attr}")
            for t in targets:
                if t.split(".")[0] in internal_tops:
                    hit = _known(t, modules)
                    if hit is None:
                        raise ValueError(f"{path}: imports {t}, which is no module of the scanned roots")
                    if hit != mod:
                        edges[mod].add(hit)
                else:
                    external[mod].add(t.split(".")[0])
    return Imports(edges, external, private)


def _unit(module: str, layers: Sequence[Sequence[str]], top: str) -> tuple[str, int] | None:
    """The unit (longest layer entry that is ``module`` or a package above it) and its layer index. The top
    package's own entry matches only its ``__init__``."""
    best = None
    for i, layer in enumerate(layers):
        for u in layer:
            if module == u or (u != top and module.startswith(u + ".")):
                if best is None or len(u) > len(best[0]):
                    best = (u, i)
    return best


def _cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check_layering(roots: Mapping[str, Path], layers: Sequence[Sequence[str]] = LAYERS,
                   homes: Mapping[str, str] = HOMES, public_only: Sequence[str] = PUBLIC_ONLY,
                   top: str = "legal_rag") -> list[Violation]:
    """Every violation of rules (a)-(d) above in the modules under ``roots`` (``{"legal_rag": Path(...)}``)."""
    imp = read_imports(roots)
    found: list[Violation] = []
    for mod in sorted(imp.edges):
        own = _unit(mod, layers, top)
        if own is None:
            found.append(Violation("unassigned", mod, "no layer names this module"))
            continue
        for dep in sorted(imp.edges[mod]):
            other = _unit(dep, layers, top)
            if other is None or other[0] == own[0]:
                continue  # an unassigned module is reported on its own; one unit may import itself freely
            if other[1] > own[1]:
                found.append(Violation("layer", mod, f"imports {dep} from a layer above ({other[0]})"))
            elif other[1] == own[1]:
                found.append(Violation("layer", mod, f"imports {dep} from the same layer ({other[0]})"))
        for lib in sorted(imp.external[mod]):
            home = homes.get(lib)
            if home is not None and not (mod == home or mod.startswith(home + ".")):
                found.append(Violation("library", mod, f"imports {lib} outside {home}"))
        if any(own[0] == u for u in public_only):
            found += [Violation("private", mod, f"uses private name {p}") for p in sorted(imp.private[mod])]
    found += [Violation("cycle", c[0], " <-> ".join(c)) for c in _cycles(imp.edges)]
    return found


#: packages whose ``__init__`` is the only door other modules may import from
FRONT_DOORS = ("legal_rag.law",)
#: modules (or packages, with their submodules) still importing a submodule of a front-door package, until their
#: owners switch them; an entry that no longer does is reported too
FRONT_DOOR_ALLOWED: tuple[str, ...] = ()


def front_door_bypasses(roots: Mapping[str, Path], doors: Sequence[str] = FRONT_DOORS) -> list[tuple[str, str]]:
    """``(module, imported)`` for every import, anywhere in a module outside ``doors`` (inside functions and
    ``if TYPE_CHECKING:`` too, relative imports resolved), of a submodule of a ``doors`` package: ``from
    ..law.refs import parse_ref`` and ``import legal_rag.law.refs`` are reported, ``from ..law import parse_ref``
    and ``from legal_rag import law`` are not."""
    out: list[tuple[str, str]] = []
    for mod, (path, is_pkg) in _modules(roots).items():
        if any(mod == d or mod.startswith(d + ".") for d in doors):
            continue
        package = mod if is_pkg else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                    names = [".".join(base + ([node.module] if node.module else []))]
                else:
                    names = [node.module or ""]
            out += [(mod, n) for n in names if any(n.startswith(d + ".") for d in doors)]
    return sorted(set(out))


# ------------------------------------------------------------------------------------------------------- tests

REAL_ROOTS = {"legal_rag": ROOT / "legal_rag", "bench": ROOT / "bench"}


def test_the_package_keeps_the_layer_order_has_no_cycle_and_keeps_libraries_home():
    violations = check_layering(REAL_ROOTS)
    assert violations == [], "\n".join(f"{v.kind}: {v.module}: {v.detail}" for v in violations)


def test_the_product_never_imports_the_benchmarks():
    """``bench/`` (research such as precedent search, :mod:`bench.precedents`) sits above the product: no module of
    ``legal_rag`` imports it, at module level or inside a function."""
    imp = read_imports(REAL_ROOTS)
    reach = {m: sorted(d for d in deps if d == "bench" or d.startswith("bench."))
             for m, deps in imp.edges.items() if m == "legal_rag" or m.startswith("legal_rag.")}
    assert {m: d for m, d in reach.items() if d} == {}
    assert "bench.precedents.search" in imp.edges["bench.precedents"]  # the walk sees the bench package


def test_the_walk_sees_imports_inside_functions_and_type_checking_blocks():
    """Guards against a checker that passes because it reads nothing."""
    imp = read_imports(REAL_ROOTS)
    assert "legal_rag.ui.app" in imp.edges["legal_rag.cli"]  # `serve`: an import inside a function
    assert "legal_rag.index" in imp.edges["legal_rag.pipeline"]  # lazy and TYPE_CHECKING imports
    assert "legal_rag.rerank.base" in imp.edges["legal_rag.rerank.maxsim"]  # relative import resolved
    assert "legal_rag.generate.backends.llama_cpp" in imp.edges["legal_rag.generate.backends"]  # lazy registry
    assert "typer" in imp.external["legal_rag.cli.common"] and "gradio" in imp.external["legal_rag.ui.app"]
    assert any(m.startswith("bench.") for m in imp.edges)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")


FAKE_LAYERS = (("fake", "fake.base"), ("fake.low", "fake.low2"), ("fake.mid",), ("fake.high",), ("fake.ui",),
               ("fake.cli",), ("top",))
FAKE_HOMES = {"typer": "fake.cli", "gradio": "fake.ui", "fastapi": "fake.ui"}


def _fake(tmp_path: Path, files: dict[str, str]) -> list[Violation]:
    base = {"fake/__init__.py": "", "fake/base.py": "X = 1\n", "fake/cli/__init__.py": "import typer\n",
            "fake/ui/__init__.py": "", "fake/ui/app.py": "import gradio\nfrom fastapi import FastAPI\n"}
    _write(tmp_path, base | files)
    return check_layering({"fake": tmp_path / "fake", "top": tmp_path / "top"}, FAKE_LAYERS, FAKE_HOMES,
                          public_only=("top",), top="fake")


def test_a_clean_planted_package_passes(tmp_path):
    assert _fake(tmp_path, {"fake/low.py": "from .base import X\n",
                            "fake/mid/__init__.py": "from ..low import *\nfrom . import inner\n",
                            "fake/mid/inner.py": "from .. import base\nfrom fake.low import thing\n",
                            "fake/high.py": "def f():\n    from .mid import inner\n",
                            "top/run.py": "from fake.high import f\n"}) == []


def test_planted_violations_are_each_reported(tmp_path):
    found = _fake(tmp_path, {
        # upward import, hidden in a function, relative two levels up
        "fake/mid/__init__.py": "def f():\n    from ..high import g\n",
        "fake/high.py": "from .mid import f\ndef g():\n    pass\n",
        # a cycle between two modules of one unit, one side under TYPE_CHECKING
        "fake/low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .low2 import Y\nimport typer\n",
        "fake/low2.py": "from fake.low import TYPE_CHECKING\nY = 2\n",
        # same-layer import between units; fastapi outside ui
        "fake/base2.py": "",
        "fake/lib.py": "",
        "top/run.py": "from fake.base import _private\ndef h(p):\n    return p._with_successors()\n",
    })
    got = {(v.kind, v.module) for v in found}
    details = "\n".join(f"{v.kind}: {v.module}: {v.detail}" for v in found)
    assert ("layer", "fake.mid") in got, details  # upward, inside a function
    cycles = {v.detail for v in found if v.kind == "cycle"}
    assert "fake.high <-> fake.mid" in cycles, details  # fake.high -> fake.mid -> (in a function) fake.high
    assert "fake.low <-> fake.low2" in cycles, details  # one side under TYPE_CHECKING
    assert ("layer", "fake.low") in got and ("layer", "fake.low2") in got, details  # same layer, other unit
    assert ("library", "fake.low") in got, details  # typer outside cli
    assert ("unassigned", "fake.base2") in got and ("unassigned", "fake.lib") in got, details
    assert ("private", "top.run") in got, details
    assert sum(v.kind == "private" for v in found) == 2, details  # the import and the attribute


def test_a_library_outside_its_home_and_a_same_layer_import_are_reported(tmp_path):
    found = _fake(tmp_path, {"fake/low.py": "from fastapi import FastAPI\n", "fake/low2.py": "from . import low\n",
                             "fake/cli/x.py": "import gradio\n"})
    got = {(v.kind, v.module, v.detail) for v in found}
    assert ("library", "fake.low", "imports fastapi outside fake.ui") in got
    assert ("library", "fake.cli.x", "imports gradio outside fake.ui") in got
    assert ("layer", "fake.low2", "imports fake.low from the same layer (fake.low)") in got


def _allowed(module: str) -> bool:
    return any(module == u or module.startswith(u + ".") for u in FRONT_DOOR_ALLOWED)


def test_other_modules_import_law_only_through_its_front_door():
    found = front_door_bypasses(REAL_ROOTS)
    bad = [f"{m} imports {n}" for m, n in found if not _allowed(m)]
    assert bad == [], "\n".join(bad)
    stale = [u for u in FRONT_DOOR_ALLOWED if not any(m == u or m.startswith(u + ".") for m, _ in found)]
    assert stale == [], f"these import only through the front door now: remove them from FRONT_DOOR_ALLOWED: {stale}"


def test_a_planted_bypass_is_reported_and_the_front_door_is_not(tmp_path):
    _write(tmp_path, {
        "fake/__init__.py": "",
        "fake/law/__init__.py": "from .refs import parse\n",
        "fake/law/refs.py": "from . import helpers\nfrom .helpers import x\ndef parse():\n    pass\n",
        "fake/law/helpers.py": "x = 1\n",
        "fake/door.py": "from .law import parse\nfrom . import law\nimport fake.law\n",
        "fake/deep.py": "from .law.refs import parse\n",
        "fake/sub/__init__.py": "",
        "fake/sub/lazy.py": "def f():\n    from ..law.helpers import x\n",
        "fake/plain.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import fake.law.refs\n",
    })
    found = front_door_bypasses({"fake": tmp_path / "fake"}, doors=("fake.law",))
    assert found == [("fake.deep", "fake.law.refs"), ("fake.plain", "fake.law.refs"),
                     ("fake.sub.lazy", "fake.law.helpers")], found
