"""Test-only helpers for the engine tests: set up positions and name points.

``position()`` builds a game whose board holds exactly the given stones, past the opening (the
tournament rule no longer applies) and with the given colour to move. It writes the engine's
private state directly, so it belongs to tests only.
"""

from __future__ import annotations

from games.engine import Game, parse_point, point_name


def pts(names: str) -> list[int]:
    """``pts("K10 L11")`` -> the integer points."""
    return [parse_point(n) for n in names.split()]


def pt(name: str) -> int:
    return parse_point(name)


def names(points) -> set[str]:
    return {point_name(p) for p in points}


def position(
    variant: str = "Pente",
    stones: dict[int, str] | None = None,
    *,
    to_move: int = 1,
    to_move_seat: int | None = None,
    captures: dict[int, int] | None = None,
    plies: int = 20,
    **options,
) -> Game:
    """A game of ``variant`` with ``stones`` ({colour: "K10 L10 ..."}) and ``to_move`` next.

    Opening protocols are skipped (seat i holds colour i); ``captures`` presets capture counts.
    """
    g = Game(variant, **options)
    b = g._board
    for i in range(len(b)):
        b[i] = 0
    for colour, text in (stones or {}).items():
        for p in pts(text):
            assert b[p] == 0, f"{point_name(p)} given twice"
            b[p] = colour
    g._empty = sum(1 for v in b if v == 0)
    g._plies = plies
    g._actions = []
    g._last = None
    g._script = []
    g._pending = None
    for colour, n in (captures or {}).items():
        g._captures[colour] = n
    # pick the entry of the turn cycle where ``to_move`` (or ``to_move_seat``) plays next
    for ci, (seat, colour) in enumerate(g._cycle):
        if colour == to_move and (to_move_seat is None or seat == to_move_seat):
            if g._connect6 and ci % 2:
                continue
            g._ci = ci
            g._seat, g._colour = seat, colour
            break
    else:  # pragma: no cover - a mistake in the test itself
        raise AssertionError(f"colour {to_move} / seat {to_move_seat} never moves")
    return g


def play_all(game: Game, moves: str) -> None:
    """Play the space-separated moves in order."""
    for name in moves.split():
        game.play(name)
