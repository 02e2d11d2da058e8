"""Reads of the server's computer opponents: who they are, what they play, how long they think,
and how many games a player has going against them."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from accounts.models import User
from games.bots.search import BUDGETS
from games.engine import GAMES
from games.play.models import Game

BOT_LEVELS = range(1, 9)
DEFAULT_MAX_ACTIVE_GAMES = 3


def bot_username(*, level: int) -> str:
    """``computer1`` .. ``computer8``."""
    return f"computer{level}"


def bot_games() -> list[str]:
    """The names of the games a computer opponent plays: every game of the server."""
    return list(GAMES)


def bot_think_seconds(*, level: int) -> float:
    """The time budget per move of a computer opponent of ``level`` (``search.BUDGETS``)."""
    return BUDGETS[level]


def bots_list() -> QuerySet[User]:
    """The computer opponents (accounts with a ``bot_level``), weakest first."""
    return User.objects.filter(bot_level__isnull=False, is_active=True).order_by("bot_level", "id")


def bot_max_active_games() -> int:
    """How many games in progress a player may have against computer opponents at once."""
    return int(getattr(settings, "BOT_MAX_ACTIVE_GAMES", DEFAULT_MAX_ACTIVE_GAMES))


def bot_games_in_progress(*, user: User) -> int:
    """How many games in progress ``user`` plays against a computer opponent."""
    return (
        Game.objects.filter(status=Game.Status.IN_PROGRESS, seat_rows__user=user)
        .filter(seat_rows__user__bot_level__isnull=False)
        .distinct()
        .count()
    )
