"""Position keys for the game-database explorer: one 64-bit number per position, the same for a
position and its mirror images, so that every stored game can be indexed by the positions it
went through and a position reached in any orientation finds them all (``position_key`` says
how a key is built).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from .errors import IllegalMove
from .game import Game
from .go import GoGame, GoMove, GoPhase
from .openings import ALL_DECISIONS
from .outcome import Outcome
from .start import Position, new_game
from .state import MoveResult
from .variants import get_variant

__all__ = [
    "ANTI_TRANSPOSE",
    "FLIP",
    "IDENTITY",
    "KEY_VERSION",
    "MIRROR",
    "ROTATE_90",
    "ROTATE_180",
    "ROTATE_270",
    "SYMMETRIES",
    "SYMMETRY_NAMES",
    "TRANSPOSE",
    "PlyKey",
    "canonical_move",
    "compose",
    "game_keys",
    "inverse",
    "key_of",
    "keys_along",
    "position_key",
    "signed64",
    "to_caller",
    "transform",
    "unsigned64",
]

#: Part of every text hashed into the tables: bump it to change every key (and re-index).
KEY_VERSION = 1

IDENTITY = 0
MIRROR = 1  # left-right: x -> n-1-x
FLIP = 2  # top-bottom: y -> n-1-y
ROTATE_180 = 3
TRANSPOSE = 4  # the main diagonal (top left to bottom right): (x, y) -> (y, x)
ROTATE_90 = 5  # a quarter turn clockwise as drawn: (x, y) -> (n-1-y, x)
ROTATE_270 = 6  # a quarter turn counter-clockwise: (x, y) -> (y, n-1-x)
ANTI_TRANSPOSE = 7  # the other diagonal: (x, y) -> (n-1-y, n-1-x)

#: The eight symmetries of the square board, by index (``IDENTITY`` first).
SYMMETRIES: tuple[int, ...] = tuple(range(8))
SYMMETRY_NAMES: tuple[str, ...] = (
    "identity",
    "mirror",
    "flip",
    "rotate180",
    "transpose",
    "rotate90",
    "rotate270",
    "anti-transpose",
)

_MAX_COLOUR = 6  # the Pente family seats up to 6 colours; Go uses 2
_MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------------- symmetries


def _apply(x: int, y: int, s: int, n: int) -> tuple[int, int]:
    if s & 4:
        x, y = y, x
    if s & 1:
        x = n - 1 - x
    if s & 2:
        y = n - 1 - y
    return x, y


@cache
def _perms(size: int) -> tuple[tuple[int, ...], ...]:
    """``_perms(size)[s][p]``: where symmetry ``s`` takes point ``p``."""
    out = []
    for s in SYMMETRIES:
        row = []
        for p in range(size * size):
            y, x = divmod(p, size)
            tx, ty = _apply(x, y, s, size)
            row.append(tx + size * ty)
        out.append(tuple(row))
    return tuple(out)


def _check_symmetry(symmetry: int) -> None:
    if isinstance(symmetry, bool) or not isinstance(symmetry, int) or not 0 <= symmetry < 8:
        raise ValueError(f"A symmetry is an int 0..7, not {symmetry!r}")


def _check_size(size: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 19:
        raise ValueError(f"The board size must be 1..19, not {size!r}")


def transform(point: int, symmetry: int, size: int) -> int:
    """Where ``symmetry`` takes ``point`` on a ``size`` x ``size`` board."""
    _check_symmetry(symmetry)
    _check_size(size)
    if isinstance(point, bool) or not isinstance(point, int) or not 0 <= point < size * size:
        raise ValueError(f"{point!r} is not a point of a {size}x{size} board")
    return _perms(size)[symmetry][point]


def inverse(symmetry: int) -> int:
    """The symmetry that undoes ``symmetry``: ``transform(transform(p, s, n), inverse(s), n)
    == p``. The mirrors and the half turn undo themselves; the quarter turns undo each other."""
    _check_symmetry(symmetry)
    if not symmetry & 4:
        return symmetry
    return 4 | (symmetry & 1) << 1 | (symmetry & 2) >> 1


@cache
def _compositions() -> tuple[tuple[int, ...], ...]:
    perms = _perms(3)
    index = {perm: s for s, perm in enumerate(perms)}
    return tuple(
        tuple(index[tuple(perms[b][perms[a][p]] for p in range(9))] for b in SYMMETRIES)
        for a in SYMMETRIES
    )


def compose(first: int, then: int) -> int:
    """The symmetry that does ``first`` and then ``then``."""
    _check_symmetry(first)
    _check_symmetry(then)
    return _compositions()[first][then]


def pass_point(size: int) -> int:
    """Go's pass as a ``next_point``: one past the last point of a ``size`` board (the same in
    every orientation)."""
    return size * size


def to_caller(point: int, symmetry: int, size: int) -> int:
    """A point of the canonical orientation (a stored ``next_point``) on the caller's board,
    whose position ``position_key``/``key_of`` gave ``symmetry`` (``pass_point`` as it is)."""
    if point == size * size:
        return point
    return transform(point, inverse(symmetry), size)


# ---------------------------------------------------------------------- the tables


def _random64(*parts: object) -> int:
    """A fixed 64-bit number named by ``parts``: the same in every process and release."""
    text = "|".join(str(part) for part in parts)
    digest = hashlib.blake2b(
        text.encode(), digest_size=8, person=f"positionkey-v{KEY_VERSION}".encode()
    ).digest()
    return int.from_bytes(digest, "little")


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per board size: the permutations and, for every colour and point, the eight numbers a
    stone there adds to the eight hashes (``rows[colour][point][s]``; colour 0: zeros)."""

    perms: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[tuple[int, ...], ...], ...]


@cache
def _tables(size: int) -> _Tables:
    _check_size(size)
    n = size * size
    perms = _perms(size)
    rows: list[tuple[tuple[int, ...], ...]] = [((0,) * 8,) * n]
    for colour in range(1, _MAX_COLOUR + 1):
        z = [_random64("stone", size, colour, q) for q in range(n)]
        rows.append(tuple(tuple(z[perms[s][p]] for s in SYMMETRIES) for p in range(n)))
    return _Tables(perms=perms, rows=tuple(rows))


@lru_cache(maxsize=256)
def _game_term(variant_name: str, seats: int, partners: bool) -> int:
    return _random64("game", variant_name, seats, int(partners))


@lru_cache(maxsize=4096)
def _state_term(to_move: int | None, pending: str | None, captures: tuple[int, ...]) -> int:
    term = _random64("to_move", to_move) if to_move else 0
    if pending is not None:
        term ^= _random64("pending", pending)
    for colour, count in enumerate(captures, 1):
        if count:
            term ^= _random64("captures", colour, count)
    return term


def _hashes(board: Sequence[int], rows: tuple[tuple[tuple[int, ...], ...], ...]) -> list[int]:
    """The eight hashes of a flat board."""
    h0 = h1 = h2 = h3 = h4 = h5 = h6 = h7 = 0
    for p, c in enumerate(board):
        if c:
            r = rows[c][p]
            h0 ^= r[0]
            h1 ^= r[1]
            h2 ^= r[2]
            h3 ^= r[3]
            h4 ^= r[4]
            h5 ^= r[5]
            h6 ^= r[6]
            h7 ^= r[7]
    return [h0, h1, h2, h3, h4, h5, h6, h7]


def _canonical_point(hs: list[int], m: int, s: int, p: int, perms: tuple) -> int:
    """``p`` in the canonical orientation; on a tie the smallest of its images."""
    if hs.count(m) == 1:
        return perms[s][p]
    return min(perms[i][p] for i in SYMMETRIES if hs[i] == m)


# ---------------------------------------------------------------------- keys


def signed64(key: int) -> int:
    """The key as a signed 64-bit int (a PostgreSQL ``bigint``): the same 64 bits."""
    if not 0 <= key <= _MASK64:
        raise ValueError(f"{key!r} is not an unsigned 64-bit key")
    return key - (1 << 64) if key >> 63 else key


def unsigned64(value: int) -> int:
    """The key back from ``signed64``."""
    if not -(1 << 63) <= value < 1 << 63:
        raise ValueError(f"{value!r} is not a signed 64-bit value")
    return value & _MASK64


def _board_from(stones: Mapping[int, int] | Sequence[int], size: int) -> list[int]:
    n = size * size
    if isinstance(stones, Mapping):
        board = [0] * n
        items: Iterable[tuple[int, int]] = stones.items()
    else:
        if len(stones) != n:
            raise ValueError(f"A {size}x{size} board has {n} points, not {len(stones)}")
        board = [0] * n
        items = enumerate(stones)
    for p, c in items:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
            raise ValueError(f"{p!r} is not a point of a {size}x{size} board")
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= _MAX_COLOUR:
            raise ValueError(f"{c!r} is not a colour (0..{_MAX_COLOUR}) at point {p}")
        board[p] = c
    return board


def position_key(
    *,
    variant: str,
    size: int,
    stones: Mapping[int, int] | Sequence[int],
    captures: Sequence[int],
    to_move: int | None,
    pending: str | None = None,
    seats: int = 2,
    partners: bool = False,
) -> tuple[int, int]:
    """``(key, symmetry)`` of a position given by its parts.

    ``stones``: {point: colour} or the flat board (``board[x + size*y]``, 0 empty);
    ``captures``: stones captured per colour, colour 1 first (missing colours count 0, so
    ``()`` and ``(0, 0)`` are the same); ``to_move``: the colour to play, 0 or None once the
    game is over; ``pending``: a non-stone step due now (an opening decision such as
    ``"d_swap"``, Go's ``"marking"``), else None; ``seats``/``partners``: the game's table.
    ``symmetry`` maps the position to its canonical orientation.

    The key
    -------
    ``key = min(H_0, ..., H_7) ^ G ^ S`` where

    - ``H_s`` is the Zobrist hash of the stones after symmetry ``s`` moved them: the XOR, over the
      stones, of one random 64-bit number per (board size, colour, point the stone lands on);
    - ``G`` names the game: the variant (by name, so a slug and a name give the same key), the
      number of seats and Partners;
    - ``S`` is the state of play that the stones do not show: one number per (colour, capture
      count) for each non-zero capture count, one for the colour to move (none once the game is
      over), and one for a pending non-stone step (an opening decision such as ``"d_swap"``, or
      Go's ``"marking"`` phase).

    ``G`` and ``S`` do not change under a symmetry, so the minimum is taken over the stones only:
    two positions that are mirror images of each other have the same set of eight hashes, hence
    the same minimum, hence the same key. The symmetry that reaches the minimum (the smallest index
    on a tie: a position that is its own mirror image reaches it several times) is the one that
    maps the position to its *canonical orientation*, returned with the key.

    Every random number is cut from ``hashlib.blake2b`` of a text naming it (``"stone|19|1|180"``),
    so the tables are the same in every process and release, whatever ``PYTHONHASHSEED`` is. A
    change to them (or to how a key is put together) changes every stored key: bump
    ``KEY_VERSION``, which is part of every text hashed, and re-index.

    Why captures and the side to move are in it
    -------------------------------------------
    In the capture games the capture count is half of the position: the same stones with 8 pairs
    captured (one capture from winning) and with none are different positions, with different
    best moves. The same stones with the other colour to move are different positions too (in the
    Pente family a position can be reached with either side to move, through captures; in Go,
    through a pass). Folding them into the key means the explorer never mixes them up, and can look
    a position up with one equality test on one indexed column.

    The symmetries -------------- The eight symmetries of the square, as ints (``SYMMETRIES``): bit
    2 swaps x and y (a mirror in the main diagonal), then bit 0 mirrors left-right (x -> n-1-x) and
    bit 1 top-bottom (y -> n-1-y). Points are ``x + size*y`` with y = 0 the top row (``notation``).
    So ``ROTATE_90`` (5) is a quarter turn clockwise as the board is drawn, ``ROTATE_270`` (6)
    counter-clockwise.

    For the explorer
    ----------------
    - ``position_key(...)`` / ``key_of(position)`` -> ``(key, symmetry)``; store ``signed64(key)``
      in a PostgreSQL ``bigint`` (``unsigned64`` reads it back).
    - ``game_keys(game)`` / ``keys_along(variant, actions)`` -> one ``PlyKey(ply, key, symmetry,
      next_point)`` per action: the key of the position before the action and the stone then played,
      moved into the canonical orientation (``pass_point(size)`` for Go's pass, one past the board's
      last point; None for a decision or a marking step). On a self-symmetric position the stone is
      the smallest of its equivalent points, so equivalent moves are counted together.
    - A caller whose position has ``symmetry`` s maps a stored ``next_point`` back to its own board
      with ``to_caller(next_point, s, size)`` (a pass stays a pass): on a self-symmetric position
      that is one of the equivalent points, all of which lead to the same key.

    Not in the key: the move number, the tournament rule (it only ever binds the third stone), Go's
    superko history and komi, the number of passes in a row, and Connect6's half-turn (the stones
    tell it in a game played from the start: the board always holds an odd number of stones
    before a turn's first stone).
    """
    v = get_variant(variant)
    if size != v.size:
        raise ValueError(f"{v.name} is played on {v.size}x{v.size}, not {size!r}")
    board = _board_from(stones, size)
    caps = tuple(captures)
    if len(caps) > _MAX_COLOUR or any(
        isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in caps
    ):
        raise ValueError(f"{captures!r} is not a capture count per colour")
    if to_move is not None and (
        isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move <= 6
    ):
        raise ValueError(f"{to_move!r} is not a colour to move (1..{_MAX_COLOUR}, or 0/None)")
    hs = _hashes(board, _tables(size).rows)
    m = min(hs)
    key = m ^ _game_term(v.name, seats, bool(partners)) ^ _state_term(to_move, pending, caps)
    return key, hs.index(m)


def _game_of(position: Position) -> int:
    """The term naming the game of an engine position: variant, seats, Partners."""
    return _game_term(position.variant.name, position.seats, position.partners)


def _state_of(position: Position) -> int:
    """The term of an engine position's colour to move, pending step and capture counts."""
    if isinstance(position, GoGame):
        pending = "marking" if position.phase is GoPhase.MARKING else None
        return _state_term(position.to_move_colour, pending, position.captures)
    return _state_term(position.to_move_colour, position.pending_decision, position.captures)


def key_of(position: Position) -> tuple[int, int]:
    """``(key, symmetry)`` of an engine position (``Game`` or ``GoGame``): its board, capture
    counts (Go: prisoners), colour to move and pending decision, variant and table."""
    hs = _hashes(position.board, _tables(position.size).rows)
    m = min(hs)
    return m ^ _game_of(position) ^ _state_of(position), hs.index(m)


def canonical_move(position: Position, point: int) -> int:
    """``point``, a stone about to be played on ``position``, in the canonical orientation, as
    ``game_keys`` stores it (on a self-symmetric position the smallest equivalent point)."""
    size = position.size
    t = _tables(size)
    if isinstance(point, bool) or not isinstance(point, int) or not 0 <= point < size * size:
        raise ValueError(f"{point!r} is not a point of a {size}x{size} board")
    hs = _hashes(position.board, t.rows)
    m = min(hs)
    return _canonical_point(hs, m, hs.index(m), point, t.perms)


class PlyKey(NamedTuple):
    """One row of the explorer's index: the position before action ``ply`` (its index in the
    game's ``actions``), its key and canonical symmetry, and the stone then played in the
    canonical orientation (``pass_point`` for Go's pass; None for a decision or a marking
    step)."""

    ply: int
    key: int
    symmetry: int
    next_point: int | None


def game_keys(game: Position) -> Iterator[PlyKey]:
    """A ``PlyKey`` for every action of ``game`` that can be taken back (all but the server's
    automatic centre stone), in the order played; ``game`` is not changed.

    A Pente-family game is walked backwards on a copy, taking each action back (``pop``, far
    cheaper than playing it again) and updating the eight hashes at the points the action
    changed; Go is replayed from its start."""
    if isinstance(game, Game):
        return iter(_walk_back(game.copy()))
    start = game.copy()
    undone: list[int | str] = []
    while True:
        try:
            undone.append(start.pop())
        except IllegalMove:
            break
    undone.reverse()
    return _walk(start, undone)


def _walk_back(game: Game) -> list[PlyKey]:
    """``game_keys`` of a Pente-family game by taking its actions back (changing ``game``)."""
    t = _tables(game.size)
    rows = t.rows
    perms = t.perms
    board = list(game.board)
    hs = _hashes(board, rows)
    term = _game_of(game)
    log = game._log
    out: list[PlyKey] = []
    while len(log) > game._automatic:
        entry = log[-1]
        action = game.pop()
        now = game._board
        if type(action) is str:  # a decision: recount the whole board, should it change
            changed: Iterable[int] = range(len(board)) if list(now) != board else ()
        else:
            changed = (action, *entry[2], *(entry[3] if len(entry) > 4 else ()))
        for q in changed:
            was, is_now = board[q], now[q]
            if was != is_now:
                a, b = rows[was][q], rows[is_now][q]
                hs = [h ^ x ^ y for h, x, y in zip(hs, a, b, strict=True)]
                board[q] = is_now
        m = min(hs)
        sym = hs.index(m)
        key = m ^ term ^ _state_of(game)
        nxt = None if type(action) is str else _canonical_point(hs, m, sym, action, perms)
        out.append(PlyKey(len(log), key, sym, nxt))
    out.reverse()
    return out


def keys_along(variant: str, actions: Iterable[int | str], **options: object) -> Iterator[PlyKey]:
    """A ``PlyKey`` for every action of a game of ``variant`` started with ``options`` (those
    of ``new_game``), the actions as records and ``replay_game`` take them (a leading centre
    stone the server places itself is skipped, as ``Game.replay`` does)."""
    start = new_game(variant, **options)  # type: ignore[arg-type]
    items = start.without_automatic(actions)
    return _walk(start, items)


def _walk(position: Position, actions: list) -> Iterator[PlyKey]:
    """Play ``actions`` on ``position`` (changing it), keeping the eight hashes up to date."""
    size = position.size
    t = _tables(size)
    rows = t.rows
    perms = t.perms
    board = list(position.board)
    hs = _hashes(board, rows)
    go = isinstance(position, GoGame)
    game = _game_of(position)
    ply = len(position.actions)
    for action in actions:
        m = min(hs)
        s = hs.index(m)
        key = m ^ game ^ _state_of(position)
        if go:
            done = position.act(action)
        elif isinstance(action, str) and action in ALL_DECISIONS:
            done = position.decide(action)
        else:
            done = position.play(action)
        nxt = None
        if go and isinstance(done, GoMove) and done.point is None:
            nxt = pass_point(size)
        elif isinstance(done, MoveResult | GoMove) and done.point is not None:
            p = done.point
            nxt = _canonical_point(hs, m, s, p, perms)
            r = rows[done.colour][p]
            hs = [a ^ b for a, b in zip(hs, r, strict=True)]
            board[p] = done.colour
            for q in (*done.captured, *done.poofed):
                r = rows[board[q]][q]
                hs = [a ^ b for a, b in zip(hs, r, strict=True)]
                board[q] = 0
        elif isinstance(done, Outcome):  # Go's count took the dead stones off
            board = list(position.board)
            hs = _hashes(board, rows)
        yield PlyKey(ply, key, s, nxt)
        ply += 1
