"""A small opening book for the first free stones of the Pente family (pure, no framework).

Offsets from the centre turned by the board's 8 symmetries; ``book_move`` offers only legal
points. Which stones it plays: docs/computer-opponents.md, "The opening book".
"""

from __future__ import annotations

import random

from games.engine import Game

__all__ = ["book_move"]

SIZE = 19
CENTRE = 9 + SIZE * 9

# player 2's reply to the lone centre stone
_REPLY = ((1, 0), (1, 1))
# player 1's second stone with the tournament rule: 3 away, on a line with the centre
_FAR = ((3, 0), (0, 3), (-3, 0), (0, -3), (3, 3), (3, -3), (-3, 3), (-3, -3))
# player 1's second stone without it: a step from the centre
_NEAR = ((1, 1), (1, -1), (-1, 1), (-1, -1), (2, 0), (0, 2), (-2, 0), (0, -2))


def _point(dx: int, dy: int) -> int:
    return CENTRE + dx + SIZE * dy


def _offset(p: int) -> tuple[int, int]:
    return p % SIZE - 9, p // SIZE - 9


def book_move(game: Game, rng: random.Random) -> int | None:
    """A book stone for the side to move in ``game``, or None when the book has nothing."""
    v = game.variant
    if v.opening != "centre" or game.seats != 2 or game.pending_decision is not None:
        return None
    if game.outcome is not None or any(game.captures):
        return None
    board = game.board
    if board[CENTRE] != 1:
        return None
    stones = [p for p, c in enumerate(board) if c]
    legal = set(game.legal_points())
    if len(stones) == 1 and game.to_move_colour == 2:
        options = [
            _point(sx * dx, sy * dy) for dx, dy in _REPLY for sx in (1, -1) for sy in (1, -1)
        ]
        options += [
            _point(sy * dy, sx * dx) for dx, dy in _REPLY for sx in (1, -1) for sy in (1, -1)
        ]
        options = sorted({p for p in options if p in legal})
        return rng.choice(options) if options else None
    if len(stones) == 2 and game.to_move_colour == 1:
        other = next(p for p in stones if p != CENTRE)
        if board[other] != 2:
            return None
        ox, oy = _offset(other)
        table = _FAR if game.plies == 2 and game.tournament_rule else _NEAR
        scored = []
        for dx, dy in table:
            p = _point(dx, dy)
            if p not in legal:
                continue
            away = dx * ox + dy * oy  # negative: on the far side from player 2's stone
            in_line = ox * dy - oy * dx == 0  # on player 2's line through the centre
            # 3 points along a row or column, never the far diagonal (3, 3) while one is open:
            # against Pente.org's level 8 the diagonal lost 13 games of 13, the row 3 of 7
            diagonal = abs(dx) == abs(dy) and table is _FAR
            scored.append((away + (4 if in_line else 0) + (8 if diagonal else 0), p))
        if not scored:
            return None
        scored.sort()
        best = [p for s, p in scored if s == scored[0][0]]
        return rng.choice(best)
    return None
