"""SVG picture of a board position, built with plain strings (no Django, no engine import).

``board_svg(rows, last_point=..., captures=...)`` takes the engine's ``rows()`` (top row first,
"." empty, else the colour digit 1..6); the board's size is the number of rows (9, 13 or 19 for
Go, 19 for the Pente family). ``go=True`` draws Go's colours (1 black, 2 white; the Pente family
has 1 white, 2 black as on Pente.org), and ``count`` (``go_count`` of a counted game's final
position) adds the count: territory squares and the dead stones, faded and crossed at their
points (they left the board at the count).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

COLUMNS = "ABCDEFGHJKLMNOPQRST"

#: Fill and outline of colours 1..6 (white, black as on Pente.org, then red, blue, green, purple).
STONE_COLOURS: dict[int, tuple[str, str]] = {
    1: ("#ffffff", "#222222"),
    2: ("#111111", "#000000"),
    3: ("#d62728", "#7a1516"),
    4: ("#1f5fd6", "#0f2f6b"),
    5: ("#2ca02c", "#165016"),
    6: ("#8e44ad", "#4a2359"),
}
COLOUR_NAMES = {1: "white", 2: "black", 3: "red", 4: "blue", 5: "green", 6: "purple"}
#: Go's colours: 1 black (moves first), 2 white.
GO_STONE_COLOURS: dict[int, tuple[str, str]] = {1: STONE_COLOURS[2], 2: STONE_COLOURS[1]}
GO_COLOUR_NAMES = {1: "black", 2: "white"}

CELL = 24
MARGIN = 30
#: Star points (hoshi) per board size, as (x, y) from the top left: 9x9 C3 G3 E5 C7 G7, 13x13
#: D4 K4 G7 D10 K10, 19x19 the nine of D4 .. Q16.
STAR_POINTS: dict[int, tuple[tuple[int, int], ...]] = {
    9: ((2, 2), (6, 2), (4, 4), (2, 6), (6, 6)),
    13: ((3, 3), (9, 3), (6, 6), (3, 9), (9, 9)),
    19: tuple((x, y) for y in (3, 9, 15) for x in (3, 9, 15)),
}


@dataclass(frozen=True)
class GoCount:
    """What a counted Go game adds to its final picture: the territory (point -> the colour
    owning it), the dead stones taken off at the count (point -> their colour), the score."""

    territory: Mapping[int, int]
    dead: Mapping[int, int]
    black: float
    white: float


def go_count(position: Any) -> GoCount | None:
    """The count of a Go position (a ``GoGame``) that is over and counted, else None (still
    playing or marking, resigned, lost on time; None for None)."""
    if position is None or position.outcome is None or str(position.phase) != "over":
        return None
    score = position.score()
    before = position.copy()
    before.pop()  # the acceptance: the dead stones are back on the board
    board = before.board
    territory = dict.fromkeys(score.black_territory, 1)
    territory.update(dict.fromkeys(score.white_territory, 2))
    return GoCount(
        territory=territory,
        dead={p: board[p] for p in sorted(score.dead)},
        black=score.black,
        white=score.white,
    )


def _fmt(value: float) -> str:
    return f"{value:g}"


def _name(x: int, y: int, size: int) -> str:
    return f"{COLUMNS[x]}{size - y}" if x < len(COLUMNS) else f"{x},{y}"


def _count_marks(count: GoCount, size: int) -> list[str]:
    """Territory squares (owner's colour) and the dead stones, faded with a red cross."""
    out = ['<g class="territory" stroke-width="1">']
    half = CELL * 0.14
    for p in sorted(count.territory):
        colour = count.territory[p]
        y, x = divmod(p, size)
        fill, stroke = GO_STONE_COLOURS[colour]
        out.append(
            f'<rect class="territory {GO_COLOUR_NAMES[colour]}" data-point="{_name(x, y, size)}" '
            f'x="{_fmt(MARGIN + x * CELL - half)}" y="{_fmt(MARGIN + y * CELL - half)}" '
            f'width="{_fmt(2 * half)}" height="{_fmt(2 * half)}" fill="{fill}" stroke="{stroke}"/>'
        )
    out.append("</g>")
    out.append('<g class="dead" stroke-width="1">')
    radius = CELL * 0.45
    arm = CELL * 0.2
    for p, colour in count.dead.items():
        y, x = divmod(p, size)
        cx, cy = MARGIN + x * CELL, MARGIN + y * CELL
        fill, stroke = GO_STONE_COLOURS.get(colour, ("#888888", "#444444"))
        out.append(
            f'<circle class="dead-stone colour{colour}" data-point="{_name(x, y, size)}" '
            f'cx="{cx}" cy="{cy}" r="{_fmt(radius)}" fill="{fill}" stroke="{stroke}" '
            f'opacity="0.45"/>'
            f'<path class="dead-mark" d="M{_fmt(cx - arm)} {_fmt(cy - arm)}'
            f"L{_fmt(cx + arm)} {_fmt(cy + arm)}M{_fmt(cx - arm)} {_fmt(cy + arm)}"
            f'L{_fmt(cx + arm)} {_fmt(cy - arm)}" stroke="#d62728" stroke-width="2"/>'
        )
    out.append("</g>")
    return out


def _link_marks(links: Mapping[int, tuple[str, str]], size: int) -> list[str]:
    out = ['<g class="links">']
    half = CELL / 2
    for point, (href, label) in sorted(links.items()):
        y, x = divmod(point, size)
        cx, cy = MARGIN + x * CELL, MARGIN + y * CELL
        name = _name(x, y, size)
        mark = ""
        if label:
            mark = (
                f'<circle class="seen" cx="{cx}" cy="{cy}" r="{_fmt(CELL * 0.42)}" '
                f'fill="#1f5fd6" fill-opacity="0.8"/>'
                f'<text x="{cx}" y="{cy + 4}" fill="#ffffff" text-anchor="middle" '
                f'font-size="10">{escape(label)}</text>'
            )
        out.append(
            f'<a class="point" href="{escape(href, {chr(34): "&quot;"})}" data-point="{name}">'
            f"<title>{name}</title>{mark}"
            f'<rect x="{_fmt(cx - half)}" y="{_fmt(cy - half)}" width="{CELL}" height="{CELL}" '
            f'fill="#ffffff" fill-opacity="0"/></a>'
        )
    out.append("</g>")
    return out


def board_svg(
    rows: Sequence[str],
    *,
    last_point: int | None = None,
    captures: Sequence[int] = (),
    title: str = "",
    go: bool = False,
    count: GoCount | None = None,
    links: Mapping[int, tuple[str, str]] | None = None,
) -> str:
    """An SVG document of the position: grid, star points, coordinates, stones, last move
    marked, captures; for Go (``go``) its colours and, with ``count``, the count. ``links``:
    point -> (address, label): the point is a link there, its label (if any) written on it
    (the explorer's page: the next moves seen, with their games, and every other legal point)."""
    size = len(rows)
    if size == 0 or any(len(r) != size for r in rows):
        raise ValueError("rows must be a non-empty square grid")
    colours = GO_STONE_COLOURS if go else STONE_COLOURS
    names = GO_COLOUR_NAMES if go else COLOUR_NAMES
    board_px = CELL * (size - 1)
    footer = (28 if captures else 0) + (20 if count is not None else 0)
    width = board_px + 2 * MARGIN
    height = board_px + 2 * MARGIN + footer
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#e8c47c"/>')
    out.append('<g class="grid" stroke="#5a4a2a" stroke-width="1">')
    for i in range(size):
        c = MARGIN + i * CELL
        out.append(
            f'<line x1="{MARGIN}" y1="{c}" x2="{MARGIN + board_px}" y2="{c}"/>'
            f'<line x1="{c}" y1="{MARGIN}" x2="{c}" y2="{MARGIN + board_px}"/>'
        )
    out.append("</g>")
    if size in STAR_POINTS:
        out.append('<g class="stars" fill="#5a4a2a">')
        for x, y in STAR_POINTS[size]:
            out.append(f'<circle cx="{MARGIN + x * CELL}" cy="{MARGIN + y * CELL}" r="2.5"/>')
        out.append("</g>")
    out.append('<g class="coordinates" fill="#3a2f1a" text-anchor="middle">')
    for i in range(size):
        c = MARGIN + i * CELL
        letter = COLUMNS[i] if i < len(COLUMNS) else str(i + 1)
        number = size - i
        out.append(f'<text x="{c}" y="{MARGIN - 14}">{letter}</text>')
        out.append(f'<text x="{c}" y="{MARGIN + board_px + 22}">{letter}</text>')
        out.append(f'<text x="{MARGIN - 16}" y="{c + 4}">{number}</text>')
        out.append(f'<text x="{MARGIN + board_px + 16}" y="{c + 4}">{number}</text>')
    out.append("</g>")
    if count is not None:
        out.extend(_count_marks(count, size))
    out.append('<g class="stones" stroke-width="1">')
    radius = CELL * 0.45
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in ". 0":
                continue
            colour = int(ch)
            fill, stroke = colours.get(colour, ("#888888", "#444444"))
            out.append(
                f'<circle class="stone colour{colour}" data-point="{_name(x, y, size)}" '
                f'cx="{MARGIN + x * CELL}" cy="{MARGIN + y * CELL}" r="{_fmt(radius)}" '
                f'fill="{fill}" stroke="{stroke}"/>'
            )
    out.append("</g>")
    if last_point is not None and 0 <= last_point < size * size:
        y, x = divmod(last_point, size)
        ch = rows[y][x]
        mark = "#d62728" if ch in "12." else "#ffffff"
        out.append(
            f'<circle class="last-move" cx="{MARGIN + x * CELL}" cy="{MARGIN + y * CELL}" '
            f'r="{_fmt(CELL * 0.16)}" fill="{mark}"/>'
        )
    if links:
        out.extend(_link_marks(links, size))
    if captures:
        parts = [f"{names.get(i, f'colour {i}')}: {n}" for i, n in enumerate(captures, start=1)]
        y = height - 10 - (20 if count is not None else 0)
        out.append(
            f'<text class="captures" x="{MARGIN}" y="{y}" fill="#3a2f1a" '
            f'font-size="13">Captures {escape(", ".join(parts))}</text>'
        )
    if count is not None:
        out.append(
            f'<text class="score" x="{MARGIN}" y="{height - 10}" fill="#3a2f1a" font-size="13">'
            f"Count black: {count.black:g}, white: {count.white:g}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
