"""The computer opponent's Go, in this version a simple legal policy (pure: no framework).

A random legal move that does not fill a one-point eye of the mover's own; a pass when the
opponent has just passed and the count as it stands favours the mover, or when no such move is
left. Marking after two passes: no stone is proposed dead, and a proposal is accepted.
"""

from __future__ import annotations

import random

from games.engine.go import PASS, GoGame


def own_eye(game: GoGame, point: int, colour: int) -> bool:
    """Whether ``point`` is empty with only ``colour``'s stones (or the edge) around it."""
    s = game.size
    board = game.board
    y, x = divmod(point, s)
    around = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
    return all(board[i + s * j] == colour for i, j in around if 0 <= i < s and 0 <= j < s)


def go_move(game: GoGame, rng: random.Random) -> int | str:
    """The point to play, or ``PASS``, for the side to move (``game`` is not changed)."""
    colour = game.to_move_colour
    if game.passes and game.score().winner == colour:
        return PASS
    moves = [p for p in game.legal_points() if not own_eye(game, p, colour)]
    return rng.choice(moves) if moves else PASS
