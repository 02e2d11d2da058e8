"""The bracket as an SVG picture: one column per bracket round, a box per match with both
players (the winner in bold), winners' bracket on top, losers' bracket and finals below."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

BOX_W, BOX_H, COL_GAP, ROW_GAP, PAD = 170, 44, 40, 14, 20


def bracket_svg(data: dict[str, Any], *, title: str = "") -> str:
    matches = data.get("matches", [])
    sections: list[tuple[str, list[dict]]] = []
    for bracket, label in (("W", "Winners"), ("L", "Losers"), ("GF", "Final")):
        ms = [m for m in matches if m["bracket"] == bracket and m["status"] != "void"]
        if ms:
            sections.append((label, ms))
    parts: list[str] = []
    y0 = PAD + (24 if title else 0)
    width = PAD * 2
    for label, ms in sections:
        rounds = sorted({m["round"] for m in ms})
        tallest = max(sum(1 for m in ms if m["round"] == r) for r in rounds)
        height = tallest * (BOX_H + ROW_GAP)
        parts.append(f'<text x="{PAD}" y="{y0 + 12}" class="h">{escape(label)}</text>')
        top = y0 + 22
        for col, r in enumerate(rounds):
            col_ms = sorted((m for m in ms if m["round"] == r), key=lambda m: m["index"])
            x = PAD + col * (BOX_W + COL_GAP)
            step = height / max(1, len(col_ms))
            for i, m in enumerate(col_ms):
                y = top + i * step + (step - BOX_H) / 2
                parts.append(_box(x, y, m))
            width = max(width, x + BOX_W + PAD)
        y0 = top + height + PAD
    header = f'<text x="{PAD}" y="{PAD + 6}" class="t">{escape(title)}</text>' if title else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{int(y0)}" '
        f'viewBox="0 0 {width} {int(y0)}">'
        "<style>text{font-family:sans-serif;font-size:12px}.h{font-weight:bold}"
        ".t{font-size:16px;font-weight:bold}.w{font-weight:bold}</style>"
        f'<rect width="100%" height="100%" fill="#fff"/>{header}{"".join(parts)}</svg>'
    )


def _name(player) -> str:
    if player is None:
        return "?"
    if player == "bye":
        return "(bye)"
    return player["username"]


def _box(x: float, y: float, m: dict) -> str:
    winner = m.get("winner")
    rows = []
    for k, player in enumerate((m["player1"], m["player2"])):
        won = winner not in (None, "bye") and isinstance(player, dict) and player == winner
        cls = ' class="w"' if won else ""
        rows.append(f'<text x="{x + 6}" y="{y + 16 + k * 20}"{cls}>{escape(_name(player))}</text>')
    return (
        f'<g data-key="{escape(m["key"])}"><rect x="{x}" y="{y}" width="{BOX_W}" '
        f'height="{BOX_H}" fill="#f6f6f6" stroke="#555"/>'
        f'<line x1="{x}" y1="{y + BOX_H / 2}" x2="{x + BOX_W}" y2="{y + BOX_H / 2}" '
        f'stroke="#bbb"/>{"".join(rows)}</g>'
    )
