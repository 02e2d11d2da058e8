"""The compiled search (``games.bots.fastboard``, numba) and the pure-Python one are the same
search: the compiled mirror answers every question exactly as the pure one, and at a fixed node
budget both choose the same move in every position tried. Without numba the search runs pure."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from celery.signals import worker_init, worker_process_init

from games.bots import choose_move, fastboard, tasks
from games.bots.board import Mirror, N
from games.engine import Game

from .helpers import node_bot, random_position

pytestmark = pytest.mark.skipif(not fastboard.COMPILED, reason="numba does not import here")

ROOT = Path(__file__).resolve().parents[3]
#: every two-colour game of five in a row: the games the compiled mirror serves
GAMES = (
    "Pente",
    "Keryo-Pente",
    "Gomoku",
    "G-Pente",
    "Poof-Pente",
    pytest.param("Boat-Pente", marks=pytest.mark.slow),
    pytest.param("O-Pente", marks=pytest.mark.slow),
)


@pytest.fixture
def compiled_on():
    before = fastboard.use_compiled(True)
    yield
    fastboard.use_compiled(before)


def _same_answers(fast: Mirror, pure: Mirror) -> None:
    assert fast.board == pure.board and fast.hash == pure.hash and fast.stones == pure.stones
    assert fast.pattern == pure.pattern and fast.waiting == pure.waiting
    assert fast.candidates() == pure.candidates()
    assert fast.hot == pure.hot
    for c in (1, 2):
        assert fast.line_points(c) == pure.line_points(c)
        assert fast.line_points(c, 2) == pure.line_points(c, 2)
        assert fast.open_threes(c) == pure.open_threes(c)
        assert fast.balance(c) == pure.balance(c) == pure.pattern[c] - pure.waiting[3 - c]
        assert fast.capture_points(c) == pure.capture_points(c)
        assert fast.five_on_board(c) == pure.five_on_board(c)
        cands = pure.candidates()
        assert fast.move_scores(cands, c) == pure.move_scores(cands, c)


@pytest.mark.parametrize("lengths", [(), (2,), (2, 3)])
def test_the_compiled_mirror_answers_as_the_pure_one_stone_by_stone(lengths):
    rng = random.Random(len(lengths))
    kw = {"line": 5, "exact": not lengths, "colours": 2, "capture_lengths": lengths}
    kw["tuned"] = bool(lengths)  # the tuned windows where level 8 reads them
    fast, pure = fastboard.FastMirror([0] * N, **kw), Mirror([0] * N, **kw)
    placed: list[int] = []
    for step in range(160):
        if placed and rng.random() < 0.3:  # take a stone off, as an undone capture does
            p = placed.pop(rng.randrange(len(placed)))
            fast.remove(p)
            pure.remove(p)
        else:
            p = rng.choice([q for q in pure.candidates() if not pure.board[q]] or [N // 2])
            c = 1 + step % 2
            fast.add(p, c)
            pure.add(p, c)
            placed.append(p)
        if step % 8 == 0:
            _same_answers(fast, pure)
    _same_answers(fast, pure)


def _choices(game: Game, level: int, nodes: int, seed: int, mistakes: bool) -> list:
    out = []
    for on in (False, True):
        before = fastboard.use_compiled(on)
        try:
            choice = choose_move(
                game, level=level, max_nodes=nodes, rng=random.Random(seed), mistakes=mistakes
            )
        finally:
            fastboard.use_compiled(before)
        out.append(choice)
    return out


@pytest.mark.parametrize("variant", GAMES)
def test_compiled_and_pure_search_choose_the_same_move_at_a_fixed_node_budget(variant):
    tried = 0
    for seed in range(6):
        game = random_position(variant, seed + 40)
        if game.outcome is not None or game.pending_decision is not None:
            continue
        level = (8, 5, 7)[seed % 3]
        pure, fast = _choices(game, level, 600, seed, mistakes=seed % 2 == 1)
        assert fast == pure, (variant, seed)
        tried += 1
    assert tried >= 4


def test_the_search_uses_the_compiled_mirror_where_it_serves(compiled_on):
    kw = {"exact": False, "colours": 2, "capture_lengths": (2,)}
    assert isinstance(fastboard.new_mirror([0] * N, line=5, **kw), fastboard.FastMirror)
    connect6 = fastboard.new_mirror([0] * N, line=6, **kw)
    assert not isinstance(connect6, fastboard.FastMirror)
    fastboard.use_compiled(False)
    assert not isinstance(fastboard.new_mirror([0] * N, line=5, **kw), fastboard.FastMirror)


def test_without_numba_the_search_runs_pure_and_still_answers():
    code = (
        "import random\n"
        "from games.bots import fastboard, choose_move\n"
        "from games.engine import Game\n"
        "assert not fastboard.COMPILED and not fastboard.warm()\n"
        "c = choose_move(Game('Pente'), level=8, max_nodes=200, rng=random.Random(1))\n"
        "print(len(c.points))\n"
    )
    env = {**os.environ, "PENTE_BOTS_PURE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "1"


@pytest.mark.parametrize("variant", ["Pente", "Keryo-Pente", "Gomoku"])
def test_the_compiled_move_order_and_evaluation_are_the_pure_ones(variant):
    for seed in range(12):
        game = random_position(variant, seed)
        if game.outcome is not None or game.to_move_colour is None:
            continue
        bots = []
        for on in (False, True):
            before = fastboard.use_compiled(on)
            try:
                bots.append(node_bot(game.copy(), 8, 1.0, random.Random(0)))
            finally:
                fastboard.use_compiled(before)
        pure, fast = bots
        assert isinstance(fast.mirror, fastboard.FastMirror)
        assert not isinstance(pure.mirror, fastboard.FastMirror)
        cands = pure.mirror.candidates()
        for c in (1, 2):
            assert fast._ordered(cands, c) == pure._ordered(cands, c), (seed, c)
        assert fast.evaluate() == pure.evaluate()


def test_a_bots_worker_and_each_of_its_processes_load_the_compiled_search_as_they_start(
    monkeypatch,
):
    def uids(signal) -> set[object]:
        return {key[0] for key, _ in signal.receivers}

    assert "games.bots.warm" in uids(worker_init)
    assert "games.bots.warm_child" in uids(worker_process_init)
    calls: list[int] = []
    monkeypatch.setattr(fastboard, "warm", lambda: calls.append(1) or True)
    tasks.warm_search()
    assert calls == [1]
