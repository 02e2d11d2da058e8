"""No hidden attributes on model instances: what a request has computed travels in a value
object passed to whoever needs it, never in a private attribute set on an ORM instance from
outside its class (a reader cannot see where such an attribute comes from, nor when it is
stale)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("accounts", "explorer", "games", "live", "pente_site", "ratings", "tournaments", "web")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _model_names() -> set[str]:
    return {model.__name__ for model in apps.get_models()}


def _models_in(tree: ast.Module, models: set[str]) -> set[str]:
    """The model classes a module names: those it imports from a ``models`` module or defines
    (another class of the same name, e.g. the engine's ``Game``, is not one)."""
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "models":
            named |= {alias.asname or alias.name for alias in node.names if alias.name in models}
        elif isinstance(node, ast.ClassDef) and node.name in models:
            if any(ast.unparse(base).endswith("Model") for base in node.bases):
                named.add(node.name)
    return named


class _Finder(ast.NodeVisitor):
    """Assignments of a ``_private`` attribute to what is taken for a model instance: a name or
    attribute annotated with, built by or named after a model class (``game: Game``,
    ``game = Game.objects.get(...)``, ``Game.from_db(...)``, ``game``, ``loaded.game``),
    outside the body of that model's own class."""

    def __init__(self, models: set[str]) -> None:
        self.models = models
        self.model_words = {_snake(m) for m in models}
        self.typed: list[set[str]] = [set()]  # names known to hold a model, per function
        self.classes: list[str] = []
        self.found: list[tuple[int, str]] = []

    # -- what holds a model ------------------------------------------------------------
    def _names_model(self, node: ast.AST | None) -> bool:
        """An annotation or a call that gives a model instance."""
        if node is None:
            return False
        text = ast.unparse(node)
        head = re.split(r"[.\[( |]", text, maxsplit=1)[0]
        if head in self.models:
            return not text.startswith(f"{head}.objects.filter") and ".values" not in text
        return False

    def _is_model(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            if node.id == "self":
                return bool(self.classes) and self.classes[-1] in self.models
            return node.id in self.typed[-1] or node.id in self.model_words
        if isinstance(node, ast.Attribute):
            return node.attr in self.model_words
        return False

    def _inside_own_class(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == "self" and bool(self.classes)

    # -- scopes ------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        typed = set()
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            if self._names_model(arg.annotation):
                typed.add(arg.arg)
        self.typed.append(typed)
        self.generic_visit(node)
        self.typed.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    # -- assignments -------------------------------------------------------------------
    def _targets(self, target: ast.AST, value: ast.AST | None) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._targets(element, None)
            return
        if isinstance(target, ast.Name) and self._names_model(value):
            self.typed[-1].add(target.id)
        if (
            isinstance(target, ast.Attribute)
            and target.attr.startswith("_")
            and not target.attr.startswith("__")
            and self._is_model(target.value)
            and not self._inside_own_class(target.value)
        ):
            self.found.append((target.lineno, f"{ast.unparse(target)} = ..."))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._targets(target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and self._names_model(node.annotation):
            self.typed[-1].add(node.target.id)
        self._targets(node.target, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._targets(node.target, None)
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self._targets(node.target, node.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and node.args[1].value.startswith("_")
            and self._is_model(node.args[0])
            and not self._inside_own_class(node.args[0])
        ):
            self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)


def hidden_attributes(source: str, models: set[str]) -> list[tuple[int, str]]:
    """(line, code) of each private attribute ``source`` sets on a model instance."""
    tree = ast.parse(source)
    finder = _Finder(_models_in(tree, models))
    finder.visit(tree)
    return finder.found


def _sources() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


#: Files allowed to set a private attribute on a model instance, and which: none. What a request
#: has computed (the replayed position, the state written once) travels in
#: ``games.play.positions.Snapshot``. Kept as a list so that a case that cannot be avoided is
#: named here, where a reviewer sees it.
NOT_YET: dict[str, set[str]] = {}


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_attribute_is_set_on_a_model_instance(path):
    where = str(path.relative_to(ROOT))
    found = hidden_attributes(path.read_text(), _model_names())
    allowed = NOT_YET.get(where, set())
    new = [(line, code) for line, code in found if code.split(" =")[0] not in allowed]
    assert not new, "\n".join(f"{where}:{line}: {code}" for line, code in new)
    gone = allowed - {code.split(" =")[0] for _line, code in found}
    assert not gone, f"{where} no longer sets {sorted(gone)}: take them off NOT_YET"


SPOTTED = """
from games.models import Game, GameSet, Seat
def annotated(*, game: Game, played) -> None:
    game._replayed = played

def built():
    row = Game.objects.select_for_update().get(pk=1)
    row._memo, other = 1, 2

def by_name(game_set, loaded):
    game_set._kept = []
    loaded.game._state_head = b""
    setattr(loaded.seat, "_clock_seat", 2)

def from_db(values):
    g = Seat.from_db("default", [], values)
    g._x += 1
"""

SPARED = """
from games.models import Game
class Game(models.Model):
    def keep(self, seats):
        self._kept_seats = seats

class Helper:
    def __init__(self):
        self._cache = {}

def not_models(request, connection, game):
    request._ratelimit_counts = {}
    connection._gathered = ()
    game.ply = 3
    setattr(game, field, None)
    rows = Game.objects.filter(pk=1).values("pk")
    rows._x = 1
"""


def test_the_finder_sees_private_attributes_set_on_model_instances():
    found = hidden_attributes(SPOTTED, {"Game", "Seat", "GameSet"})
    assert [line for line, _code in found] == [4, 8, 11, 12, 13, 17]


def test_the_finder_spares_the_models_own_class_and_other_objects():
    assert hidden_attributes(SPARED, {"Game", "Seat"}) == []


def test_the_finder_spares_a_class_of_a_models_name_not_from_the_models():
    engine = "class Game:\n    pass\n\ndef copy(g: Game):\n    g._board = []\n"
    assert (
        hidden_attributes(engine, {"Game"})
        == []
        != hidden_attributes(
            "from games.models import Game\n" + engine.split("\n\n", 1)[1], {"Game"}
        )
    )
