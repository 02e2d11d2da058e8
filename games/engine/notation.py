"""Point names: ``K10`` <-> integer form ``x + size*y`` (x from the left, y from the top).

Columns are ``A``..``T`` without ``I``; rows count from the bottom. Works for 9x9, 13x13 and
19x19 (any size up to 19).
"""

from __future__ import annotations

from functools import cache

from .errors import IllegalMove

COLUMNS = "ABCDEFGHJKLMNOPQRST"
SUPPORTED_SIZES = (9, 13, 19)

_COLUMN_INDEX = {c: i for i, c in enumerate(COLUMNS)}


def _check_size(size: int) -> None:
    if not isinstance(size, int) or not 1 <= size <= len(COLUMNS):
        raise ValueError(f"board size must be between 1 and {len(COLUMNS)}, not {size!r}")


@cache
def _by_name(size: int) -> dict[str, int]:
    """Every point of a ``size`` board by its name as written (``"K10"``), for the fast path."""
    return {point_name(i, size): i for i in range(size * size)}


def parse_point(text: str | int, size: int = 19) -> int:
    """Parse ``"K10"``, ``"k10"`` or the integer form ``"180"`` into a point index."""
    if type(text) is str and type(size) is int and 1 <= size <= len(COLUMNS):
        found = _by_name(size).get(text)
        if found is not None:
            return found
    _check_size(size)
    if isinstance(text, bool):
        raise IllegalMove("bad_coordinate", f"{text!r} is not a point")
    if isinstance(text, int):
        index = text
        if not 0 <= index < size * size:
            raise IllegalMove(
                "off_board", f"{index} is off the {size}x{size} board (0..{size * size - 1})"
            )
        return index
    if not isinstance(text, str):
        raise IllegalMove("bad_coordinate", f"{text!r} is not a point")
    s = text.strip()
    if not s:
        raise IllegalMove("bad_coordinate", "An empty string is not a point; write e.g. K10")
    if s.isdigit():
        index = int(s)
        if index >= size * size:
            raise IllegalMove(
                "off_board", f"{s} is off the {size}x{size} board (0..{size * size - 1})"
            )
        return index
    letter = s[0].upper()
    digits = s[1:]
    if not digits.isdigit() or not letter.isalpha() or not letter.isascii():
        raise IllegalMove(
            "bad_coordinate", f"{text!r} is not a point; write a column letter and a row, e.g. K10"
        )
    if letter == "I":
        raise IllegalMove(
            "bad_coordinate", f"{text!r}: there is no column I (columns skip from H to J)"
        )
    col = _COLUMN_INDEX.get(letter)
    row = int(digits)
    last = COLUMNS[size - 1]
    if col is None or col >= size or not 1 <= row <= size:
        raise IllegalMove(
            "off_board", f"{s.upper()} is off the {size}x{size} board (A1..{last}{size})"
        )
    return col + size * (size - row)


def point_name(index: int, size: int = 19) -> str:
    """Name of a point index, e.g. ``point_name(180) == "K10"``."""
    _check_size(size)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size * size:
        raise IllegalMove(
            "off_board", f"{index!r} is off the {size}x{size} board (0..{size * size - 1})"
        )
    y, x = divmod(index, size)
    return f"{COLUMNS[x]}{size - y}"


@cache
def point_names(size: int = 19) -> tuple[str, ...]:
    """Every point's name by index (``point_names(19)[180] == "K10"``), for code that names
    many points at once."""
    return tuple(point_name(i, size) for i in range(size * size))


#: A point's character in a board's rows: "." when empty, else its colour's digit.
_CELLS = ".123456789"


def board_rows(board, size: int) -> list[str]:
    """The board as ``size`` strings, top row first as stored: "." for an empty point, the
    colour's digit for a stone."""
    text = "".join(map(_CELLS.__getitem__, board))
    return [text[y * size : (y + 1) * size] for y in range(size)]
