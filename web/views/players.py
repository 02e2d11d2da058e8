"""A player's page: ratings (each with a small history chart), statistics, crowns, recent
games, and a challenge link; for one of the server's computer opponents, its own ratings
(``ratings.selectors.computer_ratings``).

The reads are the API's: ``GET /api/players/{name}/`` (``player_get``, the game counts of
``player_page``), ``/stats`` (``ratings.selectors.player_stats``), ``/ratings/history``
(``rating_history``) and the player's latest games (``games.play.selectors.games_queryset``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import selectors as account_selectors
from accounts.models import User
from games.accounts import selectors as games_of_accounts
from games.play import selectors as play_selectors
from games.play.models import Game
from live.selectors import ignoring
from ratings import selectors as rating_selectors
from web.charts import rating_sparkline
from web.links import route_prefix, unsettled_word

#: Recent games shown on the page, newest first.
RECENT_GAMES = 20
#: What ``django.urls.reverse`` leaves unquoted in a path argument.
URL_SAFE = "!$&'()*+,;=~:@"
#: The latest rating changes a history chart draws.
HISTORY_POINTS = 100


def _history(*, user: User, variant: str, category: str) -> list[float]:
    """The rating before the latest ``HISTORY_POINTS`` changes, then the rating after each."""
    latest = list(
        rating_selectors.rating_history(user=user, variant=variant, category=category)
        .order_by("-created_at", "-id")
        .values_list("rating_before", "rating_after")[:HISTORY_POINTS]
    )
    if not latest:
        return []
    latest.reverse()
    return [latest[0][0], *(after for _, after in latest)]


def _ratings(*, user: User, stats: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for row in stats["ratings"]:
        values = _history(user=user, variant=row["game"], category=row["category"])
        label = f"{user.username}: {row['game']} {row['category']} rating history"
        rows.append({**row, "chart": rating_sparkline(values, label=label)})
    return rows


def _result_for(*, game: Game, seats: set[int]) -> str:
    """The game's result for the player sitting in ``seats``: win, loss, draw, or its state."""
    word = unsettled_word(game)
    if word is not None:
        return word
    return "win" if seats & set(game.winner_seats) else "loss"


def _recent_games(*, user: User) -> list[dict[str, Any]]:
    """The player's latest games, newest first (the games of ``GET /api/games/?player=<name>``
    that this account played, imported records left out)."""
    found = play_selectors.games_played_by(user=user, limit=RECENT_GAMES)
    games, players = route_prefix("web:game"), route_prefix("web:player")
    rows = []
    for game in found:
        seats = play_selectors.seats_with_users(game)
        mine = {s.seat for s in seats if s.user_id == user.pk}
        rows.append(
            {
                "id": game.pk,
                "url": f"{games}{game.pk}/",
                "variant": game.variant,
                "rated": game.rated,
                "opponents": [
                    {
                        "name": s.user.username if s.user else s.name,
                        "url": f"{players}{quote(s.user.username, safe=URL_SAFE)}/"
                        if s.user
                        else None,
                    }
                    for s in seats
                    if s.seat not in mine
                ],
                "result": _result_for(game=game, seats=mine),
                "date": game.finished_at or game.started_at or game.created_at,
            }
        )
    return rows


def player_page(request: HttpRequest, username: str) -> HttpResponse:
    user = account_selectors.player_get(username=username)
    if user is None:
        raise Http404("There is no such player.")
    stats = rating_selectors.player_stats(user=user)
    viewer = request.user
    context = {
        "player": user,
        "games": games_of_accounts.player_game_counts(user=user),
        "totals": stats["totals"],
        "ratings": _ratings(user=user, stats=stats),
        "crowns": stats["crowns"],
        "recent": _recent_games(user=user),
        "can_challenge": viewer.is_authenticated and viewer.pk != user.pk and not user.bot_level,
        # Ignoring someone (their chat hidden, their challenges refused) and undoing it.
        "can_ignore": viewer.is_authenticated and viewer.pk != user.pk and not user.bot_level,
        "ignored": viewer.is_authenticated and ignoring(user_id=viewer.pk, other_id=user.pk),
        # The server's computer opponents are rated apart (against people, who are not rated
        # by those games): their own table, as on the leaderboard page.
        "computer_ratings": list(rating_selectors.computer_ratings(user=user))
        if user.bot_level
        else [],
    }
    return render(request, "web/player.html", context)
