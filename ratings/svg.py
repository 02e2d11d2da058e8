"""A rating history as an SVG line chart (pure: no Django)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 32, 40


def history_chart(points: Sequence[tuple[datetime, float]], *, title: str, start: float) -> str:
    """``points`` are (time, rating after) in order; ``start`` the rating before the first.

    The x axis is the result number (0 = before the first result), so bursts of games stay
    readable; the first and last dates label the axis ends.
    """
    label = escape(title, {'"': "&quot;"})
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}">'
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>'
        f'<text x="{WIDTH // 2}" y="20" text-anchor="middle" font-family="sans-serif" '
        f'font-size="14">{escape(title)}</text>'
    )
    if not points:
        return (
            head + f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle" '
            'font-family="sans-serif" font-size="12">No rated results yet</text></svg>'
        )
    values = [start, *(rating for _, rating in points)]
    low, high = min(values), max(values)
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / (len(values) - 1)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts = [
        head,
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" '
        'stroke="#888"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#888"/>',
    ]
    for value in (high, (high + low) / 2, low):
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" '
            f'font-family="sans-serif" font-size="11">{value:.0f}</text>'
        )
    parts.append(
        f'<text x="{LEFT}" y="{HEIGHT - 12}" font-family="sans-serif" font-size="11">'
        f"{points[0][0]:%Y-%m-%d}</text>"
        f'<text x="{LEFT + plot_w}" y="{HEIGHT - 12}" text-anchor="end" '
        f'font-family="sans-serif" font-size="11">{points[-1][0]:%Y-%m-%d}</text>'
    )
    parts.append(f'<polyline fill="none" stroke="#c33" stroke-width="2" points="{line}"/>')
    parts.append("</svg>")
    return "".join(parts)
