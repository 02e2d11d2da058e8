"""Property tests of Go: random legal 19x19 games (crowded into a corner so that captures, kos
and refusals happen) keep every group breathing, the incremental hash right, and ``pop()``
exact, also across passes and marking steps."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.go import GoGame, zobrist_hash
from tests.games.engine.test_go import state

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SIZE = 19
WINDOW = 6  # most stones go into a 6x6 corner of the board, where it gets crowded


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


def _stone(game: GoGame, data: st.DataObject) -> None:
    """Play a legal stone: a drawn point of the corner window, or the next legal one after it
    (in the window, then anywhere); pass if there is none."""
    x = data.draw(st.integers(0, WINDOW - 1), label="x")
    y = data.draw(st.integers(0, WINDOW - 1), label="y")
    window = [(x + i) % WINDOW + SIZE * ((y + (x + i) // WINDOW) % WINDOW) for i in range(36)]
    for p in [*window, *range(SIZE * SIZE)]:
        try:
            game.play(p)
        except IllegalMove as refusal:
            assert refusal.code in {"occupied", "suicide", "superko"}
            continue
        return
    game.play("PASS")


def play_random(game: GoGame, data: st.DataObject, actions: int, after=None) -> GoGame:
    """``actions`` random legal actions: mostly stones, some passes, and in the marking phase a
    random proposal that is mostly rejected; ``after(game)`` after each action."""
    for _ in range(actions):
        if game.phase == "over":
            break
        if game.phase == "marking":
            if game.proposed_dead is None:
                stones = [p for p, c in enumerate(game.board) if c]
                dead = (
                    data.draw(st.lists(st.sampled_from(stones), max_size=4), label="dead")
                    if stones
                    else []
                )
                game.mark_dead(dead)
            elif data.draw(st.integers(0, 9), label="answer") < 8:
                game.reject()
            else:
                game.accept()
        elif data.draw(st.integers(0, 19), label="pass?") == 0:
            game.play("PASS")
        else:
            _stone(game, data)
        if after is not None:
            after(game)
    return game


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
