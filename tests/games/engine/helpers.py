"""Test-only helpers for the engine tests: set up positions and name points.

``position()`` builds a game whose board holds exactly the given stones, past the opening (the
tournament rule no longer applies) and with the given colour to move: ``Game.from_position``.
``third_line()`` reads a record that starts on line 3 of its file (the refusals name lines).
"""

from __future__ import annotations

from games.engine import (
    DECISIONS,
    Game,
    IllegalMove,
    Record,
    parse_point,
    parse_records,
    point_name,
)
from games.engine.tables import tables


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
    return Game.from_position(
        variant,
        stones=stones,
        to_move=to_move,
        to_move_seat=to_move_seat,
        captures=captures,
        plies=plies,
        **options,
    )


def full_board_but(
    last: str, variant: str = "Pente", *, also_empty: str = "", colour_1: str = ""
) -> Game:
    """Every point filled except ``last`` (colour 1 to move there) and ``also_empty``: a pattern
    with runs of at most two, and around ``last`` the opponent on the 8 neighbours and colour 1
    two steps out, so that the last stone makes no five, capture or poof; ``colour_1`` points
    are then set to colour 1."""
    board = {p: 1 + ((p % 19 // 2 + p // 19) % 2) for p in range(19 * 19)}
    p = pt(last)
    for ray in tables(19).rays[p]:
        if ray:
            board[ray[0]] = 2
        if len(ray) > 1:
            board[ray[1]] = 1
    for name in colour_1.split():
        board[pt(name)] = 1
    for name in [last, *also_empty.split()]:
        del board[pt(name)]
    stones = {c: [q for q, v in board.items() if v == c] for c in (1, 2)}
    return Game.from_position(variant, stones=stones, to_move=1)


def nearly_full(variant: str, *, colour_1: str, colour_2: str) -> Game:
    """A board full but K10 (colour 1 to move) and A1, A2, where K10 makes no five and the
    points named are set to each colour."""
    g = full_board_but("K10", variant, also_empty="A1 A2", colour_1=colour_1)
    stones = {c: [p for p, v in enumerate(g.board) if v == c] for c in (1, 2)}
    for name in colour_2.split():
        stones[1].remove(pt(name))
        stones[2].append(pt(name))
    return Game.from_position(variant, stones=stones, to_move=1)


def play_all(game: Game, moves: str) -> None:
    """Play the space-separated moves in order."""
    for name in moves.split():
        game.play(name)


# (variant, options) pairs covering every rule family: captures, Keryo, multi-player, partners,
# poof, boat, Gomoku, Connect6, the D opening and Swap2.
EVERY_SETUP = [
    ("Pente", {}),
    ("Pente", {"rated": True}),
    ("Keryo-Pente", {}),
    ("Gomoku", {}),
    ("G-Pente", {}),
    ("D-Pente", {}),
    ("DK-Pente", {}),
    ("Poof-Pente", {}),
    ("Boat-Pente", {}),
    ("O-Pente", {}),
    ("Swap2-Pente", {}),
    ("Swap2-Keryo", {}),
    ("Connect6", {}),
    ("Pente", {"seats": 3}),
    ("Keryo-Pente", {"seats": 4}),
    ("Pente", {"seats": 6}),
    ("Pente", {"partners": True}),
    ("Keryo-Pente", {"adjacent_only": True}),
]


def random_action(game: Game, choose) -> int | str:
    """A legal action for ``game`` (in progress): a decision when one is pending, else a point,
    mostly close to the stones already on the board so that captures, poofs and fives happen.
    ``choose(options)`` picks one of a list (``random.choice``, or a hypothesis draw)."""
    if game.pending_decision is not None:
        return choose(list(game.decisions_available()))
    board = game.board
    stones = [p for p, c in enumerate(board) if c]
    for _ in range(20):
        if not stones or choose(range(10)) == 0:
            p = choose(range(len(board)))
        else:
            q = choose(stones)
            x = q % 19 + choose(range(-2, 3))
            y = q // 19 + choose(range(-2, 3))
            if not (0 <= x < 19 and 0 <= y < 19):
                continue
            p = x + 19 * y
        try:
            game.check(p)
        except IllegalMove:
            continue
        return p
    return choose(game.legal_points())


_DECISION_WORDS = {c for cs in DECISIONS.values() for c in cs}


def act(game: Game, action: int | str) -> None:
    """Play a stone (a point or its name) or make a decision."""
    if action in _DECISION_WORDS:
        game.decide(action)
    else:
        game.play(action)


def third_line(moves: str, game: str | None = "Pente", **headers: str) -> Record:
    """A record of ``game`` (None: no Game header) that starts on line 3 of its file, after a
    comment and a blank line; ``headers`` by name, ``_`` for a space (``End_Reason``)."""
    lines = ["; exported", ""]
    if game is not None:
        lines.append(f'[Game "{game}"]')
    lines += [f'[{name.replace("_", " ")} "{value}"]' for name, value in headers.items()]
    (record,) = parse_records("\n".join(lines) + "\n\n" + moves + "\n")
    assert record.line == 3
    return record
