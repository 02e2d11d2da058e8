"""One engine interface: every family is a ``Position``, and no code outside the engine asks
which family it holds (no ``isinstance`` against a class of ``games/engine``)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from games.engine import (
    Game,
    GoGame,
    GoPhase,
    IllegalMove,
    Position,
    get_variant,
    new_game,
    replay_game,
)

ROOT = Path(__file__).resolve().parents[3]
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


FAMILIES = [
    pytest.param("Pente", id="pente"),
    pytest.param("Connect6", id="connect6"),
    pytest.param("D-Pente", id="d-pente"),
    pytest.param("Go (9x9)", id="go"),
]


def test_every_family_implements_the_whole_interface():
    assert issubclass(Game, Position) and issubclass(GoGame, Position)
    for family in (Game, GoGame):
        assert not inspect.isabstract(family), family.__abstractmethods__


@pytest.mark.parametrize("variant", FAMILIES)
def test_a_new_game_is_a_position_answering_every_question(variant):
    position = new_game(variant)
    assert isinstance(position, Position)
    assert position.variant == get_variant(variant)
    assert position.size == get_variant(variant).size
    assert len(position.board) == position.size**2
    assert position.outcome is None and position.winner_colour is None
    assert position.to_move_seat in (1, 2)
    assert position.seat_colour(1) == 1
    assert len(position.rows()) == position.size
    assert all(c == 0 for c in position.captures)
    assert position.score() is None or position.marks_dead
    assert position.decision_due == position.pending_decision
    assert position.decision_choices() == position.decisions_available()


@pytest.mark.parametrize("variant", FAMILIES)
def test_play_turn_then_pop_gives_the_position_back(variant):
    position = new_game(variant)
    if position.decision_due is not None:
        pytest.skip("opens with a protocol")
    before = (position.board, position.actions, position.to_move_seat, position.plies)
    due = position.stones_this_turn()
    points = position.legal_points()[:due]
    results = position.play_turn(points)
    assert [r.point for r in results] == points
    assert position.plies == before[3] + due
    for _ in points:
        position.pop()
    assert (position.board, position.actions, position.to_move_seat, position.plies) == before


@pytest.mark.parametrize("variant", FAMILIES)
def test_act_replays_the_actions_a_position_lists(variant):
    position = new_game(variant)
    for _ in range(6):
        if position.decision_due is not None:
            position.act(position.decision_choices()[0])
        else:
            position.play(position.legal_points()[-1])
    again = replay_game(variant, [])
    for action in again.without_automatic(position.actions):
        again.act(action)
    assert again.board == position.board and again.actions == position.actions


def test_only_go_passes_and_marks_dead_stones():
    pente, go = new_game("Pente"), new_game("Go (9x9)")
    assert not pente.marks_dead and pente.phase is None and pente.komi is None
    assert not pente.can_pass() and pente.parse_move("K10") == pente.parse_point("K10")
    with pytest.raises(IllegalMove):
        pente.parse_move("PASS")
    with pytest.raises(IllegalMove) as refused:
        pente.mark_dead([])
    assert refused.value.code == "not_marking"
    assert go.marks_dead and go.phase is GoPhase.PLAYING and go.komi == 7.5
    assert go.can_pass() and go.parse_move(" pass ") is None
    go.play_turn([None])
    go.play_turn(["PASS"])
    assert go.phase is GoPhase.MARKING and not go.can_pass()
    assert go.decision_due is None and go.decision_choices() == ()
    go.mark_dead([])
    assert go.decision_due == "dead_stones" and go.decision_choices() == ("accept", "reject")
    assert go.pending_decision is None and go.decisions_available() == ()
    assert go.decide("reject", disputed=[]) == "reject"
    assert go.phase is GoPhase.PLAYING


def test_go_refuses_two_stones_a_turn_and_answers_only_accept_or_reject():
    go = new_game("Go (9x9)")
    with pytest.raises(IllegalMove) as refused:
        go.play_turn(["C3", "D4"])
    assert refused.value.code == "wrong_stone_count"
    with pytest.raises(IllegalMove) as refused:
        go.decide("keep")
    assert refused.value.code == "bad_decision"


def test_go_decide_returns_the_rejection_with_the_stones_it_disputes():
    go = replay_game("Go (9x9)", ["C3", "D4", "PASS", "PASS", "MARK C3"])
    # in board order (rows from the top), each stone once, as the record of moves keeps it
    assert go.decide("reject", disputed=["C3", "D4", "C3"]) == "reject D4 C3"
    assert go.disputed == {go.parse_point("C3"), go.parse_point("D4")}


def test_pente_decide_returns_the_choice_and_act_plays_a_word_not_due_as_a_stone():
    game = new_game("D-Pente")
    for point in ("K10", "L10", "M10", "N10"):
        game.act(point)
    assert game.decision_due is not None
    choice = game.decision_choices()[0]
    assert game.act(choice) == choice and game.decision_due is None
    with pytest.raises(IllegalMove) as refused:
        game.act(choice)  # no decision due: a word is no stone
    assert refused.value.code != "no_decision_pending"
