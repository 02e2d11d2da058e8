"""What several pages share: link prefixes, the word for a game that has no winner yet, and
the time zone a page gives its times in."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.urls import reverse

from games.play.models import Game


def route_prefix(route: str) -> str:
    """The start of a route's path before its one argument (``/games/``): a page links 50
    games and their players, and one ``reverse`` per link costs more than the rest of a line."""
    return reverse(route, args=["0"])[:-2]


def unsettled_word(game: Game) -> str | None:
    """ "in progress", "cancelled", "aborted", "unfinished", "double forfeit" or "draw" for a
    game no one has won; None when someone has."""
    if game.status == Game.Status.IN_PROGRESS:
        return "in progress"
    if game.status == Game.Status.CANCELLED:
        return "aborted" if game.end_reason == Game.EndReason.ABORTED else "cancelled"
    if not game.end_reason:
        return "unfinished"
    if not game.winner_seats:
        return "double forfeit" if game.end_reason == Game.EndReason.FORFEIT else "draw"
    return None


def viewer_zone(user: Any) -> zoneinfo.ZoneInfo:
    """The time zone of the viewer's account (settings), which pages give times in and name;
    UTC for a stranger (or a zone no longer known)."""
    try:
        return zoneinfo.ZoneInfo(getattr(user, "time_zone", "") or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
