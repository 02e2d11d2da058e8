"""Go for the engine's tests: random legal play drawn by Hypothesis, the whole state of a game to
compare before and after, a finished 9x9 record, and ``walls`` (black and white each walling
off its side of a 9x9 board)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.go import GoGame

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SIZE = 19
WINDOW = 6  # most stones go into a 6x6 corner of the board, where it gets crowded


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


def state(game: GoGame) -> tuple:
    """Everything that makes up a game, to compare before and after."""
    return (
        game.board,
        game.captures,
        game.position_hash,
        game.positions,
        game.phase,
        game.to_move_seat,
        game.marking_seat,
        game.proposed_dead,
        game.outcome,
        game.ply,
        game.passes,
        tuple(game.actions),
        game.last_point,
    )


# A finished 9x9 game: black walls column E, white column F (plies 1-18); black passes (19),
# white B5 (20) and black H5 (21) are stones left in the other's area, agreed dead. White
# passes (22), then black (23): white passed first, so white marked them and black accepted.
#
# The count by hand, dead stones removed (one capture each: captures [1, 1]):
#   black: 9 stones on E1..E9 + 36 points of territory (columns A..D) = 45
#   white: 9 stones on F1..F9 + 27 points of territory (columns G..J) + komi 7.5 = 43.5
# Black wins by 1.5.
FINISHED_9X9 = """\
[Game "Go (9x9)"]
[Result "1-0"]
[Dead "B5 H5"]

1. E5 F5 2. E4 F4 3. E6 F6 4. E3 F3 5. E7 F7 6. E2 F2 7. E8 F8 8. E1 F1 9. E9
F9 10. PASS B5 11. H5 PASS 12. PASS 1-0
"""


def walls(komi: float = 7.5) -> GoGame:
    """9x9: black fills column D, white column F (alternating, black first)."""
    game = GoGame(9, komi=komi)
    for y in range(9):
        game.play(3 + 9 * y)
        game.play(5 + 9 * y)
    return game
