"""SVG picture of a board position, built with plain strings (no Django, no engine import).

``board_svg(rows, last_point=..., captures=...)`` takes the engine's ``rows()`` (top row first,
"." empty, else the colour digit 1..6).
"""

from __future__ import annotations

from collections.abc import Sequence
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

CELL = 24
MARGIN = 30
STAR_POINTS_19 = (3, 9, 15)


def _fmt(value: float) -> str:
    return f"{value:g}"


def board_svg(
    rows: Sequence[str],
    *,
    last_point: int | None = None,
    captures: Sequence[int] = (),
    title: str = "",
) -> str:
    """An SVG document of the position: grid, coordinates, stones, last move marked, captures."""
    size = len(rows)
    if size == 0 or any(len(r) != size for r in rows):
        raise ValueError("rows must be a non-empty square grid")
    board_px = CELL * (size - 1)
    footer = 28 if captures else 0
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
    if size == 19:
        out.append('<g class="stars" fill="#5a4a2a">')
        for y in STAR_POINTS_19:
            for x in STAR_POINTS_19:
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
    out.append('<g class="stones" stroke-width="1">')
    radius = CELL * 0.45
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in ". 0":
                continue
            colour = int(ch)
            fill, stroke = STONE_COLOURS.get(colour, ("#888888", "#444444"))
            name = f"{COLUMNS[x]}{size - y}" if x < len(COLUMNS) else f"{x},{y}"
            out.append(
                f'<circle class="stone colour{colour}" data-point="{name}" '
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
    if captures:
        parts = [
            f"{COLOUR_NAMES.get(i, f'colour {i}')}: {n}" for i, n in enumerate(captures, start=1)
        ]
        out.append(
            f'<text class="captures" x="{MARGIN}" y="{height - 10}" fill="#3a2f1a" '
            f'font-size="13">Captures {escape(", ".join(parts))}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
