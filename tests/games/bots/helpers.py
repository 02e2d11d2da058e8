"""Helpers for the bot's tests: random positions, puzzles turned around the centre, and a
defender that tries every defence against the bot's forcing line."""

from __future__ import annotations

import random

from games.bots import choose_move
from games.bots.search import _Bot, _NodeClock
from games.engine import Game, parse_point, point_name

SIZE = 19


def random_position(variant: str, seed: int, **options: object) -> Game:
    """Random legal play from the start (decisions too), stopped before the game ends."""
    rng = random.Random(seed)
    game = Game(variant, **options)  # type: ignore[arg-type]
    for _ in range(rng.randrange(0, 40)):
        if game.pending_decision is not None:
            game.decide(rng.choice(game.decisions_available()))
            continue
        legal = game.legal_points()
        board = game.board
        near = [p for p in legal if _near_stone(board, p)] or legal
        game.play(rng.choice(near))
        if game.outcome is not None:
            game.pop()
            break
    return game


def _near_stone(board: tuple[int, ...], p: int) -> bool:
    x, y = p % SIZE, p // SIZE
    return any(
        board[(x + dx) + SIZE * (y + dy)]
        for dx in (-2, -1, 0, 1, 2)
        for dy in (-2, -1, 0, 1, 2)
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE
    )


def turned(names: str, symmetry: int) -> str:
    """The points ``names`` under one of the 8 symmetries of the board (0: unchanged)."""
    out = []
    for name in names.split():
        p = parse_point(name, SIZE)
        x, y = p % SIZE - 9, p // SIZE - 9
        if symmetry & 1:
            x = -x
        if symmetry & 2:
            y = -y
        if symmetry & 4:
            x, y = y, x
        out.append(point_name(x + 9 + SIZE * (y + 9), SIZE))
    return " ".join(out)


def node_bot(
    game: Game, level: int, deadline: float, rng: random.Random, mistakes: bool = False
) -> _Bot:
    """A ``_Bot`` on the node clock (``_NODE_S`` a node from 0): its ``deadline`` is counted in
    nodes searched, not in the seconds a loaded machine takes."""
    return _Bot(game, level, deadline, rng, mistakes, clock=_NodeClock())


def act(game: Game, level: int, max_nodes: int, seed: int = 0) -> None:
    """Let the bot act on ``game``; the engine raises if the choice is illegal."""
    choice = choose_move(game, level=level, max_nodes=max_nodes, rng=random.Random(seed))
    if choice.decision is not None:
        game.decide(choice.decision)
    else:
        game.play_turn(choice.points)


def wins_at_once(game: Game) -> bool:
    """Whether the side to move has a stone that wins now (tried on the engine)."""
    colour = game.to_move_colour
    board = game.board
    for p in game.legal_points():
        if not _near_stone(board, p):
            continue
        game.play(p)
        won = game.winner_colour == colour and colour is not None
        game.pop()
        if won:
            return True
    return False


def defences(game: Game) -> list[int]:
    """The defender's stones after which the attacker cannot win at once (maybe none)."""
    out = []
    board = game.board
    for p in game.legal_points():
        if not _near_stone(board, p):
            continue
        game.play(p)
        if game.outcome is None and not wins_at_once(game):
            out.append(p)
        game.pop()
    return out


def bot_wins_against_every_defence(game: Game, moves_left: int) -> bool:
    """Play the bot (colour to move) against every defence, depth first; whether it wins every
    line within ``moves_left`` of its own stones."""
    attacker = game.to_move_colour
    if moves_left == 0:
        return False
    act(game, level=8, max_nodes=300)
    try:
        if game.outcome is not None:
            return game.winner_colour == attacker
        replies = defences(game)
        if not replies:  # nothing defends: any stone, the bot must then win at once
            replies = [game.legal_points()[0]]
            moves_left = 2  # the next call must win with its one stone
        for reply in replies:
            game.play(reply)
            try:
                if game.outcome is not None:
                    return False
                if not bot_wins_against_every_defence(game, moves_left - 1):
                    return False
            finally:
                game.pop()
        return True
    finally:
        game.pop()
