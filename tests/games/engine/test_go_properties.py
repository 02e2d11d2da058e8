"""Property tests of Go: random legal 19x19 games (crowded into a corner so that captures, kos
and refusals happen) keep every group breathing, the incremental hash right, and ``pop()``
exact, also across passes and marking steps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine.go import GoGame, zobrist_hash
from tests.games.engine.go_play import FAST, play_random, state

SIZE = 19


def groups_without_liberties(board: tuple[int, ...], size: int) -> list[set[int]]:
    """Every group on ``board`` with no empty neighbour, found from scratch."""
    seen: set[int] = set()
    found = []
    for start, colour in enumerate(board):
        if not colour or start in seen:
            continue
        group = {start}
        stack = [start]
        free = False
        while stack:
            p = stack.pop()
            y, x = divmod(p, size)
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= nx < size and 0 <= ny < size:
                    q = nx + size * ny
                    if board[q] == 0:
                        free = True
                    elif board[q] == colour and q not in group:
                        group.add(q)
                        stack.append(q)
        seen |= group
        if not free:
            found.append(group)
    return found


@FAST
@given(length=st.integers(20, 150), data=st.data())
def test_random_legal_games_never_leave_a_group_without_liberties(length, data):
    def check(game: GoGame) -> None:
        if game.phase != "over":  # the final count takes dead stones off, nothing else
            assert groups_without_liberties(game.board, SIZE) == []
        stones = sum(1 for c in game.board if c)
        played = sum(1 for a in game.actions if isinstance(a, int))
        assert stones + sum(game.captures) == played

    play_random(GoGame(SIZE), data, length, check)


@FAST
@given(length=st.integers(20, 150), data=st.data())
def test_the_incremental_hash_always_equals_the_hash_from_scratch(length, data):
    def check(game: GoGame) -> None:
        assert game.position_hash == zobrist_hash(game.board, SIZE)
        if game.phase != "over":
            assert game.position_hash in game.positions
        # every stone made a new position; passes and marking steps made none
        stones = sum(1 for a in game.actions if isinstance(a, int))
        assert len(game.positions) == stones + 1

    play_random(GoGame(SIZE), data, length, check)


@FAST
@given(length=st.integers(1, 150), data=st.data())
def test_pop_after_random_actions_returns_to_the_identical_state(length, data):
    states = []
    game = GoGame(SIZE)
    play_random(game, data, length, after=lambda g: states.append(state(g)))
    states.pop()
    start = state(GoGame(SIZE))
    for expected in reversed([start, *states]):
        game.pop()
        assert state(game) == expected
    assert game.position_hash == 0 and game.positions == frozenset({0})


@FAST
@given(length=st.integers(1, 150), data=st.data())
def test_replaying_the_actions_gives_back_the_same_game(length, data):
    game = play_random(GoGame(SIZE), data, length)
    again = GoGame.replay(game.actions, size=SIZE)
    assert state(again) == state(game)
