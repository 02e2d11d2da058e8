"""The Go search's two paths (``go_kernel`` run as Python on lists, and compiled by numba in
``go_fast``): the same source on the same random stream, so at a budget of nodes they must play
the same playouts, grow the same tree and choose the same action."""

from __future__ import annotations

import random

import pytest

from games.bots import go_kernel, go_search
from games.bots.go_search import go_action
from games.engine import GoGame
from tests.games.bots.playouts import random_go_game

pytestmark = pytest.mark.skipif(not go_search.compiled_available(), reason="numba is not installed")


def _searches(game: GoGame, seed: int) -> tuple[go_search._Search, go_search._Search]:
    out = []
    for compiled in (False, True):
        search = go_search._Search(
            game, 0.0, 10**9, random.Random(seed), clock=go_search._NodeClock(), compiled=compiled
        )
        out.append(search)
    return out[0], out[1]


@pytest.mark.parametrize("seed", range(6))
def test_a_compiled_playout_is_the_pure_playout_on_the_same_random_stream(seed):
    game = random_go_game(9, seed)
    pure, fast = _searches(game, seed)
    for search in (pure, fast):
        search.deadline = 400 * go_search._NODE_S  # some 800 playout moves
        search.sample(game.to_move_colour or 1)
    assert pure.playouts == fast.playouts > 3
    assert list(pure.st) == [int(v) for v in fast.st]  # the random state, the wins, the moves
    assert list(pure.owned) == [int(v) for v in fast.owned]
    assert list(pure.b) == [int(v) for v in fast.b]  # the last playout's final board


@pytest.mark.parametrize("seed", range(8))
def test_the_compiled_and_pure_searches_choose_the_same_move_at_a_budget_of_nodes(seed):
    go_search._TREES.clear()
    game = random_go_game(9, 100 + seed)
    if game.phase != "playing":
        game = GoGame(9)
    actions = [
        go_action(game, level=8, max_nodes=8000, rng=random.Random(seed), compiled=compiled)
        for compiled in (False, True)
    ]
    assert actions[0] == actions[1]


def test_the_compiled_and_pure_trees_are_the_same_node_for_node():
    game = GoGame(9)
    game.play(40)
    pure, fast = _searches(game, 3)
    for search in (pure, fast):
        search.deadline = 20_000 * go_search._NODE_S
        search.search(2, -1)
    used = int(fast.st[go_kernel.S_USED])
    assert used == pure.st[go_kernel.S_USED] > 100
    assert list(pure.ti[: used * go_kernel.TI]) == [int(v) for v in fast.ti[: used * go_kernel.TI]]
    assert list(pure.tf[: used * go_kernel.TF]) == [
        float(v) for v in fast.tf[: used * go_kernel.TF]
    ]
