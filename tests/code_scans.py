"""Scans of the project's source for what ``tests/test_architecture.py`` forbids: an
``isinstance`` against an engine class, a comparison of a variant's family, a test module
importing another test module. Each returns ``(line, code)`` of what it found."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "games" / "engine"
# Not the project's own code: virtual environments, caches, built sites, the tests themselves.
SKIPPED = {".venv", "venv", "node_modules", "site", "build", "dist", "tests", ".git"}


def _python_files(root: Path) -> list[Path]:
    return [
        path
        for path in sorted(root.rglob("*.py"))
        if not SKIPPED.intersection(path.relative_to(root).parts[:-1])
        and not any(part.startswith(".") for part in path.relative_to(root).parts[:-1])
    ]


def engine_classes() -> frozenset[str]:
    """The names of the classes ``games/engine`` defines, but its errors (callers catch those
    and tell them apart by design: ``except IllegalMove``)."""
    errors = {"Exception", "ValueError", "TypeError", "KeyError", "LookupError"}
    defined: dict[str, list[str]] = {}
    for path in _python_files(ENGINE):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ClassDef):
                defined[node.name] = [ast.unparse(b).split(".")[-1] for b in node.bases]

    def is_error(name: str, seen: frozenset[str] = frozenset()) -> bool:
        bases = defined.get(name, [])
        return any(b in errors or (b not in seen and is_error(b, seen | {name})) for b in bases)

    return frozenset(name for name in defined if not is_error(name))


def _engine_names(tree: ast.Module, classes: frozenset[str]) -> tuple[dict[str, str], set[str]]:
    """The names a module binds to engine classes ({local name: class}) and to the engine's
    modules (``from games import engine``; ``import games.engine.go as go``)."""
    names: dict[str, str] = {}
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "games.engine" or node.module.startswith("games.engine."):
                for alias in node.names:
                    if alias.name in classes:
                        names[alias.asname or alias.name] = alias.name
                    else:  # a submodule (from games.engine import go)
                        modules.add(alias.asname or alias.name)
            elif node.module == "games":
                modules.update(a.asname or a.name for a in node.names if a.name == "engine")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "games.engine" or alias.name.startswith("games.engine."):
                    modules.add(alias.asname or alias.name)
    return names, modules


def _classes_named(node: ast.expr) -> list[ast.expr]:
    """The class expressions of an ``isinstance`` second argument (a tuple or ``A | B``)."""
    if isinstance(node, ast.Tuple):
        return [c for item in node.elts for c in _classes_named(item)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_classes_named(node.left), *_classes_named(node.right)]
    return [node]


def engine_isinstances(source: str, classes: frozenset[str], filename: str = "<source>"):
    """Every ``isinstance``/``issubclass`` of ``source`` against an engine class: (line, text)."""
    tree = ast.parse(source, filename=filename)
    names, modules = _engine_names(tree, classes)
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):
            continue
        for cls in _classes_named(node.args[1]):
            engine_class = isinstance(cls, ast.Name) and cls.id in names
            if isinstance(cls, ast.Attribute) and cls.attr in classes:
                engine_class = ast.unparse(cls.value) in modules
            if engine_class:
                found.append((node.lineno, ast.unparse(node)))
    return found


def family_comparisons(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """Each comparison of a ``.family`` attribute with ``==``, ``!=``, ``in`` or ``not in``
    (``variant.family == "go"``): a caller asking which family it holds."""
    tree = ast.parse(source, filename)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        if not all(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops):
            continue
        sides = (node.left, *node.comparators)
        if any(isinstance(side, ast.Attribute) and side.attr == "family" for side in sides):
            found.append((node.lineno, ast.unparse(node)))
    return found


def _is_test_module(dotted: str) -> bool:
    return dotted.rpartition(".")[2].startswith("test_")


def imports_of_test_modules(source: str, module: str, filename: str = "<source>"):
    """Each import of ``source`` (the module named ``module``, dotted) that reaches a test
    module (``test_*.py``): a helper or fixture to move to a shared module or a conftest."""
    package = module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        if any(_is_test_module(name) for name in named):
            found.append((node.lineno, ast.unparse(node)))
    return found
