"""Small pictures drawn on the server as inline SVG: a rating's history (a sparkline) and an
elimination bracket.

Pure functions of plain data. Every name that goes into a picture is escaped here
(``xml.sax.saxutils.escape`` for text, ``quoteattr`` for attribute values); only the finished
string is marked safe, so a template may print it as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from django.utils.safestring import SafeString, mark_safe

# --- a rating's history -------------------------------------------------------------------

SPARK_W, SPARK_H, SPARK_PAD = 160, 40, 3
#: The most points a sparkline draws (a long history is thinned to this many).
SPARK_POINTS = 120


def _thin(values: Sequence[float], *, most: int) -> list[float]:
    """At most ``most`` of ``values``, evenly spread, keeping the first and the last."""
    if len(values) <= most:
        return list(values)
    step = (len(values) - 1) / (most - 1)
    return [values[round(i * step)] for i in range(most)]


def rating_sparkline(values: Sequence[float], *, label: str) -> SafeString:
    """A small line chart of ratings in order (oldest first): an ``<svg class="chart">`` with
    one ``<polyline>``; ``label`` is its accessible name. Empty when there is nothing to draw."""
    if not values:
        return mark_safe("")
    points = _thin(values, most=SPARK_POINTS)
    if len(points) == 1:
        points = points * 2
    low, high = min(points), max(points)
    if high - low < 20:  # a flat line in the middle rather than noise blown up
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    inner_w, inner_h = SPARK_W - 2 * SPARK_PAD, SPARK_H - 2 * SPARK_PAD
    last = len(points) - 1
    line = " ".join(
        f"{SPARK_PAD + inner_w * i / last:.1f},{SPARK_PAD + inner_h * (high - v) / (high - low):.1f}"
        for i, v in enumerate(points)
    )
    title = escape(label)
    return mark_safe(
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SPARK_W} {SPARK_H}" '
        f'width="{SPARK_W}" height="{SPARK_H}" style="max-width:{SPARK_W}px" role="img" '
        f"aria-label={quoteattr(label)}>"
        f"<title>{title}</title>"
        f'<polyline fill="none" stroke="#9a4b16" stroke-width="1.5" points="{line}"/></svg>'
    )


# --- an elimination bracket ---------------------------------------------------------------

BOX_W, BOX_H, COL_GAP, ROW_GAP, PAD, HEAD = 168, 44, 36, 12, 12, 22
_SECTIONS = (("W", "Winners' bracket"), ("L", "Losers' bracket"), ("GF", "Grand final"))
_STYLE = (
    "<style>#bracket text{font-family:system-ui,sans-serif;font-size:12px;fill:#222}"
    "#bracket .h{font-weight:600;font-size:13px;fill:#6b6b6b}"
    "#bracket .w{font-weight:700}#bracket .m{fill:#6b6b6b;font-style:italic}"
    "#bracket .void{opacity:.45}#bracket a text{fill:#9a4b16}"
    "#bracket a .w{fill:#2c7a2c}</style>"
)


def _cut(text: str, most: int = 22) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _slot_text(*, player: Any, source: str) -> tuple[str, str | None, bool]:
    """(text, the player's name or None, whether it is a placeholder) of a slot: a player, a
    bye, or the match the player will come from."""
    if isinstance(player, dict):
        return player.get("username", ""), player.get("username", ""), False
    if player == "bye":
        return "(bye)", None, True
    return source, None, True


def _column_positions(*, matches: list[dict], top: float) -> tuple[dict[str, float], float]:
    """The top y of every match box of one section (rounds in columns; a match sits level with
    the matches of the section its players come from), and the section's height."""
    rounds = sorted({m["round"] for m in matches})
    tallest = max(sum(1 for m in matches if m["round"] == r) for r in rounds)
    height = tallest * (BOX_H + ROW_GAP)
    y: dict[str, float] = {}
    for r in rounds:
        column = sorted((m for m in matches if m["round"] == r), key=lambda m: m["index"])
        step = height / len(column)
        for i, m in enumerate(column):
            sources = [y[k] for k in _winner_sources(m) if k in y]
            y[m["key"]] = (
                sum(sources) / len(sources) if sources else top + i * step + (step - BOX_H) / 2
            )
    return y, height


def _winner_sources(m: dict) -> list[str]:
    return [
        label[len("winner of ") :] for label in m.get("from", []) if label.startswith("winner of ")
    ]


def bracket_picture(
    data: dict[str, Any], *, player_url: Callable[[str], str], element_id: str = "bracket"
) -> SafeString:
    """The bracket of ``tournaments.selectors.bracket`` as an inline ``<svg id="bracket">``:
    one column per round, a box per match with both players (the winner in bold, green),
    lines from each match to the one its winner goes on to; for double elimination the
    winners' bracket, then the losers' bracket, then the grand final. ``player_url`` gives the
    page of a player by name. Empty when the bracket is not drawn yet."""
    matches = [m for m in data.get("matches", []) if m.get("bracket") and m.get("round")]
    if not matches:
        return mark_safe("")
    parts: list[str] = []
    lines: list[str] = []
    where: dict[str, tuple[float, float]] = {}
    width = 2 * PAD + BOX_W
    y0 = PAD
    for code, label in _SECTIONS:
        section = [m for m in matches if m["bracket"] == code]
        if not section:
            continue
        if code == "GF" and len(section) > 1:
            # The reset is drawn only when it is played or still may be.
            section = [m for m in section if m["status"] != "void" or m["round"] == 1]
        parts.append(f'<text class="h" x="{PAD}" y="{y0 + 14}">{escape(label)}</text>')
        top = y0 + HEAD
        ys, height = _column_positions(matches=section, top=top)
        rounds = sorted({m["round"] for m in section})
        for m in section:
            x = PAD + rounds.index(m["round"]) * (BOX_W + COL_GAP)
            y = ys[m["key"]]
            where[m["key"]] = (x, y)
            parts.append(_match_box(m=m, x=x, y=y, player_url=player_url))
            width = max(width, x + BOX_W + PAD)
        for m in section:
            x, y = where[m["key"]]
            for source in _winner_sources(m):
                if source in where and source in ys:
                    sx, sy = where[source]
                    mid = sx + BOX_W + COL_GAP / 2
                    lines.append(
                        f'<polyline fill="none" stroke="#b9ad98" points="{sx + BOX_W:.0f},'
                        f"{sy + BOX_H / 2:.0f} {mid:.0f},{sy + BOX_H / 2:.0f} {mid:.0f},"
                        f'{y + BOX_H / 2:.0f} {x:.0f},{y + BOX_H / 2:.0f}"/>'
                    )
        y0 = top + height + PAD
    height_total = int(y0)
    champion = data.get("champion")
    caption = ""
    if isinstance(champion, dict):
        caption = f"Bracket; champion: {champion.get('username', '')}"
    else:
        caption = "Bracket"
    return mark_safe(
        f'<svg id={quoteattr(element_id)} xmlns="http://www.w3.org/2000/svg" '
        f'width="{int(width)}" height="{height_total}" viewBox="0 0 {int(width)} {height_total}" '
        f'role="img" aria-label={quoteattr(caption)}>{_STYLE}'
        f"{''.join(lines)}{''.join(parts)}</svg>"
    )


def _match_box(*, m: dict, x: float, y: float, player_url: Callable[[str], str]) -> str:
    winner = m.get("winner")
    winner_name = winner.get("username") if isinstance(winner, dict) else None
    sources = list(m.get("from") or ["", ""]) + ["", ""]
    rows = []
    for k, player in enumerate((m.get("player1"), m.get("player2"))):
        text, name, placeholder = _slot_text(player=player, source=sources[k])
        won = name is not None and name == winner_name
        ty = y + 17 + k * 20
        if won:
            rows.append(
                f'<rect x="{x + 1:.0f}" y="{y + 1 + k * BOX_H / 2:.0f}" width="{BOX_W - 2}" '
                f'height="{BOX_H / 2 - 1:.0f}" fill="#e4f1e0"/>'
            )
        css = "w" if won else ("m" if placeholder else "")
        label = f'<text x="{x + 6:.0f}" y="{ty:.0f}"' + (f' class="{css}"' if css else "")
        label += f">{escape(_cut(text))}</text>"
        if name:
            label = f"<a href={quoteattr(player_url(name))}>{label}</a>"
        rows.append(label)
    state = m.get("status", "")
    group_class = ' class="void"' if state in ("void", "walkover", "double_forfeit") else ""
    return (
        f"<g data-key={quoteattr(str(m.get('key', '')))} data-status={quoteattr(str(state))}"
        f'{group_class}><rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" height="{BOX_H}" '
        f'rx="4" fill="#fffdf8" stroke="#8a7a66"/>{"".join(rows)}'
        f'<line x1="{x:.0f}" y1="{y + BOX_H / 2:.0f}" x2="{x + BOX_W:.0f}" '
        f'y2="{y + BOX_H / 2:.0f}" stroke="#ddd6c8"/></g>'
    )
