"""The shape of the code: layers that point one way, no import cycles, no hidden imports.

- the import-linter contracts of ``pyproject.toml`` (the apps in layers, most general at the
  bottom, every top-level package placed; pure modules use no framework; selectors, models,
  signals and pure modules never import services; nothing below the web layer imports views,
  serializers, URLs or tasks), matched by wildcard so that a new module is covered;
- no import cycle between the project's modules (counting imports inside functions too);
- no import inside a function, except in ``AppConfig.ready()`` (Django's place for wiring
  signals), so that no cycle can hide behind one;
- no ``isinstance`` against an engine class outside ``games/engine/``: callers ask the
  ``Position`` interface (the scanners are in ``tests/code_scans.py``);
- no comparison of a variant's ``family`` outside ``games/engine/``: callers ask the
  ``Variant``'s hooks;
- no test module importing another (``test_*.py``): shared helpers live in a module of helpers
  or a ``conftest.py``;
- each model imported from the package that owns it, never through ``games.models``.
"""

from __future__ import annotations

import ast
import tomllib
from copy import deepcopy
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract

from tests.code_scans import (
    ENGINE,
    _python_files,
    engine_classes,
    engine_isinstances,
    family_comparisons,
    imports_of_test_modules,
)

ROOT = Path(__file__).resolve().parent.parent
IMPORT_LINTER = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PACKAGES = tuple(IMPORT_LINTER["root_packages"])
#: Top-level folders of Python that are not the project's packages.
NOT_PACKAGES = {"tests", "bench"}


def _top_level_packages() -> set[str]:
    return {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_PACKAGES and not path.parent.name.startswith(".")
    }


def _contract(contract_id: str) -> dict:
    return next(c for c in IMPORT_LINTER["contracts"] if c["id"] == contract_id)


def _layer_names(contract: dict) -> set[str]:
    return {name.strip() for layer in contract["layers"] for name in layer.split("|")}


def _sources() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_the_import_contracts_are_kept(capsys):
    exit_code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    report = capsys.readouterr().out
    assert exit_code == 0, report


def test_the_apps_layers_allow_no_upward_import():
    """An app that must hear of something from an app above it declares a signal; no import is
    let through the layers contract."""
    assert not _contract("apps").get("ignore_imports")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_through_others():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.c", imported="a.d")
    assert _cycles(graph) == [["a.b", "a.c"]]


def _imports_inside_functions(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, function) of every import statement inside a function body, except in an
    ``AppConfig`` subclass's ``ready``."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, function: str | None, in_app_config: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in child.bases}
                visit(child, function, "AppConfig" in bases)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                allowed = in_app_config and child.name == "ready"
                visit(child, None if allowed else child.name, False)
            elif isinstance(child, ast.Import | ast.ImportFrom) and function is not None:
                found.append((child.lineno, function))
            else:
                visit(child, function, in_app_config)

    visit(tree, None, False)
    return found


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_hides_inside_a_function(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    assert _imports_inside_functions(tree) == []


def test_the_function_import_finder_sees_one_and_spares_ready():
    source = (
        "class C(AppConfig):\n    def ready(self):\n        import x\n"
        "def f():\n    from y import z\n"
    )
    assert _imports_inside_functions(ast.parse(source)) == [(5, "f")]


# --- The layers of apps, and the wildcard contracts ----------------------------------------


def test_every_top_level_package_is_linted_and_placed_in_a_layer():
    packages = _top_level_packages()
    assert "accounts" in packages and "games" in packages  # (the scan sees them)
    assert packages <= set(PACKAGES), "add the package to root_packages in pyproject.toml"
    assert packages <= _layer_names(_contract("apps")), "place the app in the layers contract"


def test_the_layer_check_sees_an_unplaced_package():
    contract = {"layers": ["web", "live | explorer", "games"]}
    assert {"ratings", "accounts"} - _layer_names(contract) == {"ratings", "accounts"}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        *PACKAGES,
        include_external_packages=True,
        exclude_type_checking_imports=True,
        cache_dir=None,
    )


def _kept(contract_id: str, graph: grimp.ImportGraph) -> bool:
    options = {k: v for k, v in _contract(contract_id).items() if k not in ("id", "name", "type")}
    kind = LayersContract if _contract(contract_id)["type"] == "layers" else ForbiddenContract
    session = {k: v for k, v in IMPORT_LINTER.items() if k != "contracts"}
    contract = kind(name=contract_id, session_options=session, contract_options=options)
    return contract.check(deepcopy(graph), verbose=False).kept  # (checks change the graph)


def _with_import(graph: grimp.ImportGraph, importer: str, imported: str) -> grimp.ImportGraph:
    changed = deepcopy(graph)
    for module in (importer, imported):
        if module not in changed.modules:
            changed.add_module(module)
    changed.add_import(importer=importer, imported=imported)
    return changed


@pytest.mark.parametrize(
    ("contract_id", "importer", "imported"),
    [
        # An app importing one above it, old modules or new.
        ("apps", "accounts.models", "games.models"),
        ("apps", "games.newpart.selectors", "tournaments.models"),
        ("apps", "pente_site.api", "accounts.models"),
        ("apps", "live.newmodule", "explorer.selectors"),
        # Reads importing writes, in a module no contract names.
        ("reads-below-writes", "games.newpart.selectors", "games.newpart.services"),
        ("reads-below-writes", "ratings.models", "tournaments.services"),
        # Below the web layer, importing the web layer.
        ("web-on-top", "games.newpart.services", "games.newpart.views"),
        ("web-on-top", "tournaments.selectors", "tournaments.tasks"),
        ("web-on-top", "accounts.models", "accounts.serializers"),
    ],
)
def test_each_contract_breaks_on_an_import_against_it(graph, contract_id, importer, imported):
    assert _kept(contract_id, graph)
    assert not _kept(contract_id, _with_import(graph, importer, imported))


def test_no_isinstance_against_an_engine_class_outside_the_engine():
    classes = engine_classes()
    found = []
    for path in _python_files(ROOT):
        if path.is_relative_to(ENGINE):
            continue
        text = path.read_text()
        if "engine" not in text:
            continue
        for line, call in engine_isinstances(text, classes, str(path)):
            found.append(f"{path.relative_to(ROOT)}:{line}: {call}")
    assert not found, "ask the Position interface instead:\n" + "\n".join(found)


def test_the_scan_sees_every_way_of_naming_an_engine_class():
    classes = engine_classes()
    assert {"Game", "GoGame", "Position", "Variant"} <= classes
    assert "IllegalMove" not in classes and "EngineError" not in classes
    source = """
from games import engine
from games.engine import GoGame as Go
from games.engine.go import GoScore
import games.engine.game as pente
from games.models import Game
isinstance(p, engine.GoGame)
isinstance(p, (int, Go))
isinstance(p, str | GoScore)
issubclass(k, pente.Game)
isinstance(g, Game)
isinstance(e, engine.IllegalMove)
"""
    found = [line for line, _ in engine_isinstances(source, classes)]
    assert found == [7, 8, 9, 10]  # the model ``Game`` and the engine's error are not flagged


def test_no_family_comparison_outside_the_engine():
    """Callers ask the variant's hooks (``scored_by_area``, ``table_options``,
    ``positions_recur``, ``black_first``, ``writes_sgf``), never which family it is."""
    found = []
    for folder in (*PACKAGES, "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(ENGINE):
                continue
            for line, code in family_comparisons(path.read_text(), str(path)):
                found.append(f"{path.relative_to(ROOT)}:{line}: {code}")
    assert not found, "ask a hook of the engine's Variant instead:\n" + "\n".join(found)


def test_the_family_scan_sees_each_way_of_comparing_a_family():
    source = """
if variant.family == "go": pass
x = get_variant(name).family != "pente"
y = "go" == v.family
z = v.family in ("go",)
w = v.family
n = v.name == "go"
"""
    assert [line for line, _ in family_comparisons(source)] == [2, 3, 4, 5]


def test_no_test_module_imports_another():
    """A helper or fixture two test modules share lives in a module of helpers (``servers.py``,
    ``support.py``) or a ``conftest.py``, never in one of them: running or changing one test
    file must not depend on another."""
    tests = ROOT / "tests"
    found = []
    for path in sorted(tests.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for line, code in imports_of_test_modules(path.read_text(), module, str(path)):
            found.append(f"{path.relative_to(ROOT)}:{line}: {code}")
    assert not found, "move what is shared out of the test module:\n" + "\n".join(found)


def test_the_test_import_scan_sees_each_way_of_importing_a_test_module():
    source = """
from tests.live.test_streams import account
from tests.web import test_browser_tournament
import tests.resilience.test_redis_down
from .test_api import client_for
from . import test_api as api
from tests.servers import free_port
from tests.web import conftest as web
from .support import record
"""
    found = [line for line, _ in imports_of_test_modules(source, "tests.games.challenges.x")]
    assert found == [2, 3, 4, 5, 6]


# --- Models imported from the package that owns them ---------------------------------------


def _imports_of_games_models(tree: ast.Module) -> list[int]:
    """Lines importing ``games.models`` (Django's list of the games app's models) instead of the
    package that owns the model (``games.play.models``, ``games.challenges.models``, ...)."""
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level:
            named = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            named = {a.name for a in node.names}
        else:
            continue
        if any(n == "games.models" or n.startswith("games.models.") for n in named):
            found.append(node.lineno)
    return found


def test_models_are_imported_from_the_package_that_owns_them():
    paths = [
        path
        for folder in (*PACKAGES, *NOT_PACKAGES)
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts and path != ROOT / "games" / "models.py"
    ]
    assert ROOT / "games" / "play" / "models.py" in paths  # (the scan sees the apps)
    offenders = {
        str(path.relative_to(ROOT)): lines
        for path in paths
        if (lines := _imports_of_games_models(ast.parse(path.read_text(), filename=str(path))))
    }
    assert offenders == {}, "import each model from its package (see games/models.py)"


def test_the_games_models_scan_sees_every_way_of_importing_it():
    source = (
        "from games.models import Game\nfrom games import models\nimport games.models\n"
        "from games.models.gone import Seat\nfrom games.play.models import Move\n"
        "from games import engine\n"
    )
    assert _imports_of_games_models(ast.parse(source)) == [1, 2, 3, 4]
