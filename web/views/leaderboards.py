"""The leaderboards page: one game and category, best rating first, 50 a page; the same read as
``GET /api/leaderboards/`` (``ratings.selectors``, keyset pages), with the computer opponents'
ratings in a table of their own. An unknown game or category is said above the form and
answered 400.

The lines are written here rather than by the template engine, which cost several times the
read itself: every text in them is escaped with ``html.escape`` or made of numbers and dates.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe

from games.engine import GAMES, UnknownGame, get_variant
from hills.templatetags.hill_crowns import crown_html, request_kings
from pente_site.errors import Invalid
from ratings import selectors as rating_selectors
from ratings.cursors import decode_cursor, encode_cursor
from ratings.elo import CATEGORY_OF_SET, ESTABLISHED_RESULTS

PAGE_SIZE = 50
#: What ``django.urls.reverse`` leaves unquoted in a path argument.
URL_SAFE = "!$&'()*+,;=~:@"
_PROVISIONAL = (
    ' <abbr class="provisional muted" title="Provisional: fewer than 20 rated results">(p)</abbr>'
)
CATEGORIES = ("speed", "normal", "turn")
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


def _decode_cursor(text: str) -> tuple[float, int, int, int] | None:
    """The cursor of the "Next page" link; None (the first page) for any other text."""
    try:
        return decode_cursor(text)
    except Invalid:
        return None


def _flag(request: HttpRequest, *, name: str) -> bool:
    return request.GET.get(name, "").strip().lower() in TRUE_WORDS


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    problems: list[str] = []
    asked = request.GET.get("variant", "").strip() or "Pente"
    try:
        variant = get_variant(asked).name
    except UnknownGame:
        problems.append(f"There is no game called {asked!r}.")
        variant = "Pente"
    category = request.GET.get("category", "").strip().lower() or "normal"
    if category not in CATEGORY_OF_SET:
        problems.append(f"There is no category {category!r}: choose speed, normal or turn-based.")
        category = "normal"
    category = CATEGORY_OF_SET[category]  # untimed games count as normal, as in the API
    board = rating_selectors.BoardFilter(
        variant=variant,
        category=category,
        provisional=_flag(request, name="provisional"),
        computers=_flag(request, name="computers"),
    )
    cursor = _decode_cursor(request.GET.get("after", "").strip())
    if cursor is not None:
        prev_rating, last_id, rank, position = cursor
        after: tuple[float, int] | None = (prev_rating, last_id)
    else:
        prev_rating, rank, position, after = None, 0, 0, None
    if problems:
        rows = []
    else:
        rows = rating_selectors.leaderboard_page(board=board, after=after, limit=PAGE_SIZE + 1)
    more = len(rows) > PAGE_SIZE
    lines: list[str] = []
    append = lines.append
    player_prefix = reverse("web:player", args=["-"])[:-2]  # "/players/"
    kings = request_kings(request)  # a crown beside the kings of hills
    for _id, rating, results, wins, losses, draws, last_played_at, name in rows[:PAGE_SIZE]:
        position += 1
        if rating != prev_rating:
            rank, prev_rating = position, rating
        shown = escape(name)
        href = escape(player_prefix + quote(name, safe=URL_SAFE) + "/")
        marker = _PROVISIONAL if results < ESTABLISHED_RESULTS else ""
        if name in kings:
            marker = crown_html(kings[name]) + marker
        played = "—" if last_played_at is None else f"{last_played_at:%Y-%m-%d}"
        append(
            f'<tr><td class="num">{rank}</td>'
            f'<td><a class="name" title="{shown}" href="{href}">{shown}</a>{marker}</td>'
            f'<td class="num">{rating:.0f}</td><td class="num wide">{results}</td>'
            f'<td class="num">{wins}/{losses}/{draws}</td><td class="wide">{played}</td></tr>'
        )
    query = {"variant": variant, "category": category}
    if board.provisional:
        query["provisional"] = "1"
    if board.computers:
        query["computers"] = "1"
    next_url = None
    if more:
        last_id, last_rating = rows[PAGE_SIZE - 1][:2]
        token = encode_cursor(rating=last_rating, row_id=last_id, rank=rank, position=position)
        next_url = "?" + urlencode({**query, "after": token})
    context = {
        "board": board,
        "variants": list(GAMES),
        "categories": CATEGORIES,
        # Every text in it is escaped above (``html.escape``): safe to print as it is.
        "rows_html": mark_safe("\n".join(lines)),
        "next_url": next_url,
        "first_url": "?" + urlencode(query) if cursor is not None else None,
        "problems": problems,
        "computers": rating_selectors.computer_leaderboard(variant=variant, category=category)
        if board.computers and not problems
        else None,
    }
    return render(request, "web/leaderboard.html", context, status=400 if problems else 200)
