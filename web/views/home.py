"""The home page: games being played, open challenges, the top of the Pente leaderboards,
tournaments, the main room's chat; for a signed-in player also their games and challenges."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.challenges import selectors as challenge_selectors
from games.play import selectors as play_selectors
from live import selectors as live_selectors
from live.models import MAIN_ROOM
from ratings.selectors import BoardFilter, leaderboard_page
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from web.challenges import challenge_rows

#: The leaderboards the home page shows the top of: Pente's, each category, provisional
#: players included (a new server has few established ones).
HOME_BOARDS = (("Pente", "speed"), ("Pente", "normal"), ("Pente", "turn"))
TOP = 5


def _brief(game) -> dict:
    summary = play_selectors.game_summary(game)
    return {**summary, "names": " vs ".join(p["name"] for p in summary["players"])}


def time_left_words(ms: int | None, *, live: bool) -> str:
    """The time left as a row says it: a live clock as 4:05 (1:02:03 past an hour), a
    turn-based deadline in days, hours or minutes."""
    if ms is None:
        return ""
    seconds = max(0, ms) // 1000
    if live:
        hours, rest = divmod(seconds, 3600)
        minutes, secs = divmod(rest, 60)
        return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
    if seconds >= 2 * 86400:
        return f"{seconds // 86400} days"
    if seconds >= 3600:
        return f"{seconds // 3600} h"
    return f"{max(1, seconds // 60)} min" if seconds else "0 min"


def _my_game(row: dict) -> dict:
    live = row["time_control"] == "live"
    mover = row["to_move"]
    if row["my_turn"]:
        turn = "Your turn"
    elif mover is not None:
        turn = f"{mover['name']}'s turn"
    else:
        turn = ""
    return {
        **row,
        "names": " vs ".join(p["name"] for p in row["players"]),
        "turn": turn,
        "left": time_left_words(row["time_left_ms"], live=live),
        "live": live,
    }


def home(request: HttpRequest) -> HttpResponse:
    user = request.user if request.user.is_authenticated else None
    boards = []
    for variant, category in HOME_BOARDS:
        rows = leaderboard_page(
            board=BoardFilter(variant=variant, category=category, provisional=True), limit=TOP
        )
        if rows:
            boards.append({"variant": variant, "category": category, "rows": rows})
    running = tournament_selectors.tournaments_queryset().filter(
        status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING]
    )[:8]
    room = live_selectors.room_find(name=MAIN_ROOM)
    context = {
        "live_games": [_brief(g) for g in play_selectors.games_in_progress(limit=12)],
        "open_challenges": challenge_rows(challenge_selectors.challenges_open_all(limit=12), user),
        "boards": boards,
        "tournaments": list(running),
        "chat": live_selectors.chat_lines(viewer=user, room=room, limit=30) if room else [],
        "my_games": [_my_game(g) for g in play_selectors.my_games_by_urgency(user=user, limit=20)]
        if user
        else [],
        "incoming": challenge_rows(challenge_selectors.challenges_incoming(user=user), user)
        if user
        else [],
    }
    return render(request, "web/home.html", context)
