"""Random positions of the Pente family reached by legal play, for the bot's tests: playouts
of random length biased towards stones near the last one (so that lines, fours, capture threats
and captures happen), some rebuilt with capture counts close to the target."""

from __future__ import annotations

import random

from games.engine import Game, IllegalMove
from games.engine.go import GoGame

SIZE = 19


def _near_last(game: Game, rng: random.Random) -> int:
    """A random legal point, most often within 3 of the last stone (cheap: tried on the
    engine's own check, the full list of legal points only as a last resort)."""
    last = game.last_point
    board = game._board  # read only
    for _ in range(12):
        if last is None or rng.random() < 0.1:
            p = rng.randrange(SIZE * SIZE) if last is None else rng.choice(_NEAR[last])
        else:
            p = rng.choice(_NEAR[last])
        if board[p]:
            continue
        try:
            game.check(p)
        except IllegalMove:
            continue
        return p
    return rng.choice(game.legal_points())


def _near_table() -> list[tuple[int, ...]]:
    out = []
    for p in range(SIZE * SIZE):
        x, y = p % SIZE, p // SIZE
        out.append(
            tuple(
                (x + dx) + SIZE * (y + dy)
                for dx in range(-3, 4)
                for dy in range(-3, 4)
                if (dx or dy) and 0 <= x + dx < SIZE and 0 <= y + dy < SIZE
            )
        )
    return out


_NEAR = _near_table()


def random_game(variant: str, rng: random.Random, **options: object) -> Game:
    """Random legal play from the start (decisions at random too), stopped before the end."""
    game = Game(variant, **options)  # type: ignore[arg-type]
    length = rng.randrange(0, 8) if rng.random() < 0.2 else rng.randrange(0, 80)
    for _ in range(length):
        if game.pending_decision is not None:
            game.decide(rng.choice(game.decisions_available()))
            continue
        game.play(_near_last(game, rng))
        if game.outcome is not None:
            game.pop()
            break
    v = game.variant
    if (
        v.capture_target
        and game.seats == 2
        and game.plies > 4
        and game.pending_decision is None
        and rng.random() < 0.2
    ):
        # the same stones with capture counts near the target: capture wins and defences
        board = game.board
        stones = {c: [p for p, x in enumerate(board) if x == c] for c in (1, 2)}
        caps = {c: rng.randrange(v.capture_target - 4, v.capture_target) for c in (1, 2)}
        to_move = game.to_move_colour
        game = Game.from_position(variant, stones=stones, captures=caps, to_move=to_move)
    return game


def random_go_game(size: int, seed: int) -> GoGame:
    """Random legal stones from the start, sometimes a pass."""
    rng = random.Random(seed)
    game = GoGame(size)
    for _ in range(rng.randrange(0, size * size)):
        if game.phase != "playing":
            break
        legal = game.legal_points()
        if not legal or rng.random() < 0.02:
            game.pass_turn()
        else:
            game.play(rng.choice(legal))
    return game
