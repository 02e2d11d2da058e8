"""The game database: search games by player, opponent, game, status, result, rated and
dates, newest first, 50 a page.

The same search as ``GET /api/games/?...``: the API's filter set (``games.play.filters.
GameFilter``) on ``games.play.selectors.games_queryset()``, with the same parameter names, so a
page's address and the API call agree. A refused search (an unknown game, a result without a
player, a malformed date) is shown above the form."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import urlencode

from games.engine import GAMES, UnknownGame, get_variant
from games.play import selectors as play_selectors
from games.play.filters import GameFilter
from games.play.models import Game
from pente_site.errors import DomainError
from web.links import route_prefix, unsettled_word

PAGE_SIZE = 50
#: What ``django.urls.reverse`` leaves unquoted in a path argument.
URL_SAFE = "!$&'()*+,;=~:@"

#: The query parameters of the search (``GameFilter``'s names).
SEARCH_FIELDS = (
    "player",
    "opponent",
    "variant",
    "status",
    "result",
    "rated",
    "date_after",
    "date_before",
)

STATUSES = [
    ("", "Any"),
    (Game.Status.FINISHED, "Finished"),
    (Game.Status.IN_PROGRESS, "In progress"),
    (Game.Status.CANCELLED, "Cancelled"),
    (Game.Status.ARCHIVED, "Imported records"),
]
RESULTS = [("", "Any"), ("win", "Won"), ("loss", "Lost"), ("draw", "Drawn")]
RATED = [("", "Any"), ("true", "Rated"), ("false", "Unrated")]


def _result(*, game: Game, summary: dict[str, Any]) -> tuple[str, list[str]]:
    """The result's word when no one won (a draw, unfinished, ...), else "" and the winners'
    names, which the table cuts like the players' ("<name> won")."""
    word = unsettled_word(game)
    if word is not None:
        return word, []
    return "", [p["name"] for p in summary["players"] if p["seat"] in game.winner_seats]


def game_rows(games: list[Game]) -> list[dict[str, Any]]:
    """The games as the pages' game tables show them (``web/_game_table.html``)."""
    games_at, players_at = route_prefix("web:game"), route_prefix("web:player")
    rows = []
    for game in games:
        summary = play_selectors.game_summary(game)
        players = [
            {
                "name": p["user"]["username"] if p["user"] else p["name"],
                "url": f"{players_at}{quote(p['user']['username'], safe=URL_SAFE)}/"
                if p["user"]
                else None,
            }
            for p in summary["players"]
        ]
        word, winners = _result(game=game, summary=summary)
        rows.append(
            {
                "id": game.pk,
                "url": f"{games_at}{game.pk}/",
                "variant": game.variant,
                "rated": game.rated,
                "players": players,
                "result": word,
                "winners": winners,
                "moves": game.ply,
                "date": game.started_at or game.created_at,
            }
        )
    return rows


def database_page(request: HttpRequest) -> HttpResponse:
    search = {name: request.GET.get(name, "").strip() for name in SEARCH_FIELDS}
    asked = {name: value for name, value in search.items() if value}
    problems: list[str] = []
    if "variant" in asked:
        try:  # checked here, so that it is said beside the other fields' problems
            get_variant(asked["variant"])
        except UnknownGame:
            problems.append(f"There is no game called {asked['variant']!r}.")
    rows: list[dict[str, Any]] = []
    page = None
    found = GameFilter(data=asked, queryset=play_selectors.games_queryset())
    if problems or not found.is_valid():
        for field, errors in found.errors.items():
            problems.extend(f"{field}: {error}" for error in errors)
    else:
        try:
            page = Paginator(found.qs.order_by("-id"), PAGE_SIZE).get_page(request.GET.get("page"))
            games = list(page)
        except DomainError as err:
            problems.append(err.detail)
            page = None
            games = []
        rows = game_rows(games)
    context = {
        "search": search,
        "variants": list(GAMES),
        "statuses": STATUSES,
        "results": RESULTS,
        "rated_choices": RATED,
        "problems": problems,
        "rows": rows,
        "page": page,
        # The search as the pager links' query string prefix (``player=x&...&``).
        "query": urlencode(asked) + "&" if asked else "",
    }
    return render(request, "web/database.html", context, status=400 if problems else 200)
