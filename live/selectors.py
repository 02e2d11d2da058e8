"""Reads of the live app: rooms, who is online (with their ratings), chat lines as one viewer
sees them, ignores, reports and spectator counts."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.urls import reverse

from accounts.models import User
from games.challenges.models import Challenge
from games.play.models import Game
from games.play.selectors import seats_with_users
from live.channels import game_channel
from live.models import MAIN_ROOM, ChatLine, Ignore, Presence, Room
from pente_site.errors import NotFound
from ratings.models import Rating
from tournaments.models import Match, Tournament
from tournaments.selectors import match_round_label

TOURNAMENT_ROOM = re.compile(r"^tournament-([0-9]{1,18})$")


def tournament_room_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def game_origin(*, game: Game) -> dict[str, int | None]:
    """Where a game came from: the challenge it was made from (a rated set's two games share
    theirs) and the tournament it is played in, each an id or None."""
    made = Q(game_id=game.pk)
    if game.game_set_id is not None:
        made |= Q(game_set_id=game.game_set_id)
    challenge = Challenge.objects.filter(made).values_list("pk", flat=True).first()
    tournament = None
    if game.game_set_id is not None:
        tournament = (
            Match.objects.filter(match_sets__game_set_id=game.game_set_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    return {"challenge": challenge, "tournament": tournament}


def tournament_game_brief(*, game: Game) -> dict[str, Any] | None:
    """What a player is told of a tournament game that starts (None for any other game): the
    tournament's id and name, the round, the game's page and ``start_by``, the time by which
    each player must have placed a stone of their own (the end of the start window; a player
    who has not by then forfeits the game)."""
    if game.game_set_id is None:
        return None
    match = (
        Match.objects.filter(match_sets__game_set_id=game.game_set_id)
        .select_related("tournament", "round")
        .first()
    )
    if match is None:
        return None
    return {
        "id": match.tournament_id,
        "name": match.tournament.name,
        "round": match_round_label(match),
        "match": match.key,
        "url": reverse("web:game", kwargs={"pk": game.pk}),
        "start_by": start_window_end(game),
    }


def start_window_end(game: Game) -> datetime | None:
    """When the start window of the seat to move first closes (a live game's deadline holds
    it; a turn-based game's first move is due by its deadline)."""
    return game.deadline


def room_tournament_id(name: str) -> int | None:
    """The tournament of a room's name (``tournament-<id>``), or None."""
    found = TOURNAMENT_ROOM.match(name)
    return int(found.group(1)) if found else None


def room_may_exist(*, name: str) -> Tournament | None | bool:
    """Whether ``name`` names a room that exists or may be opened: True for an existing room,
    the tournament for a tournament's room not opened yet, False otherwise."""
    if Room.objects.filter(name=name).exists():
        return True
    tournament_id = room_tournament_id(name)
    if tournament_id is not None:
        found = Tournament.objects.filter(pk=tournament_id).first()
        if found is not None:
            return found
    return False


def no_such_room(name: str) -> NotFound:
    return NotFound(
        "no_such_room",
        f"There is no room {name[:60]!r}: the main room is 'main', a tournament's is "
        "'tournament-<id>'.",
    )


def rooms_list() -> QuerySet[Room]:
    """The main room, then the rooms of tournaments not finished, newest first."""
    return (
        Room.objects.filter(Q(name=MAIN_ROOM) | ~Q(tournament__status=Tournament.Status.FINISHED))
        .select_related("tournament")
        .order_by(F("tournament_id").asc(nulls_first=True), "-id")
    )


def online_counts(*, places: list[str]) -> dict[str, int]:
    """How many people (users, and anonymous readers one each) follow each place."""
    rows = (
        Presence.objects.filter(place__in=places)
        .values("place")
        .annotate(users=Count("user", distinct=True), anonymous=Count("id", filter=Q(user=None)))
    )
    return {r["place"]: r["users"] + r["anonymous"] for r in rows}


def user_ratings(*, user_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each user's ratings with at least one rated result, best first."""
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (
        Rating.objects.filter(user_id__in=user_ids, results__gt=0)
        .order_by("user_id", "-rating")
        .values("user_id", "variant", "category", "rating", "results")
    )
    for row in rows:
        found[row["user_id"]].append(
            {
                "variant": row["variant"],
                "category": row["category"],
                "rating": round(row["rating"]),
                "results": row["results"],
            }
        )
    return found


def people_brief(users: list[User]) -> list[dict[str, Any]]:
    """``{"id", "username", "ratings"}`` of each user, in the order given."""
    ratings = user_ratings(user_ids=[u.pk for u in users])
    return [{"id": u.pk, "username": u.username, "ratings": ratings.get(u.pk, [])} for u in users]


def online_in(*, place: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
    """The users following ``place`` (any stream when None), by name, with their ratings."""
    rows = Presence.objects.filter(user__isnull=False)
    if place is not None:
        rows = rows.filter(place=place)
    ids = rows.values("user_id").distinct()
    users = list(
        User.objects.filter(pk__in=ids, bot_level__isnull=True).order_by("username")[:limit]
    )
    return people_brief(users)


def spectators_count(*, game_id: int) -> int:
    """The people following a game who are not seated in it."""
    counts = Presence.objects.filter(place=game_channel(game_id), spectator=True).aggregate(
        users=Count("user", distinct=True), anonymous=Count("id", filter=Q(user=None))
    )
    return counts["users"] + counts["anonymous"]


def ignored_ids(*, user: User | None) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(Ignore.objects.filter(user=user).values_list("ignored_id", flat=True))


def ignoring(*, user_id: int, other_id: int) -> bool:
    """Whether the player ``user_id`` ignores ``other_id``: someone ignored can neither
    challenge them nor take up or join their challenges (the answer to
    ``games.challenges.signals.ignore_asked``)."""
    return Ignore.objects.filter(user_id=user_id, ignored_id=other_id).exists()


def ignores_around(*, user: User) -> tuple[QuerySet[Ignore], QuerySet[Ignore]]:
    """The ids (querysets, for a subquery) of the players ``user`` ignores and of those who
    ignore ``user`` (the answer to ``games.challenges.signals.ignores_asked``)."""
    ignored = Ignore.objects.filter(user=user).values("ignored_id")
    ignoring_user = Ignore.objects.filter(ignored=user).values("user_id")
    return ignored, ignoring_user


def on_ignore_asked(sender, *, user_id: int, other_id: int, **kwargs) -> bool:
    return ignoring(user_id=user_id, other_id=other_id)


def on_ignores_asked(sender, *, user: User, **kwargs) -> tuple[QuerySet, QuerySet]:
    return ignores_around(user=user)


def on_presence_asked(sender, *, game_id: int, **kwargs) -> QuerySet[Presence]:
    """The ids (a queryset, for a subquery) of the players who have game ``game_id`` open now
    (a stream of it: the page); the answer to ``games.clocks.signals.presence_asked``."""
    return Presence.objects.filter(
        place=game_channel(game_id), spectator=False, user__isnull=False
    ).values_list("user_id", flat=True)


def ignores_of(*, user: User) -> QuerySet[Ignore]:
    return Ignore.objects.filter(user=user).select_related("ignored").order_by("ignored__username")


def seated_ids(game: Game) -> set[int]:
    return {s.user_id for s in seats_with_users(game) if s.user_id is not None}


def sees_spectator_lines(*, game: Game, viewer: User | None) -> bool:
    """Whether ``viewer`` sees the spectators' lines hidden from the players: everyone but the
    players of the game while it is in progress."""
    if game.status != Game.Status.IN_PROGRESS or viewer is None or not viewer.is_authenticated:
        return True
    return viewer.pk not in seated_ids(game)


def chat_lines(
    *,
    viewer: User | None,
    room: Room | None = None,
    game: Game | None = None,
    before: int | None = None,
    limit: int = 50,
) -> list[ChatLine]:
    """The last ``limit`` lines of a room or game (before the line ``before``), oldest first,
    as ``viewer`` sees them: without removed lines, lines of the people they ignore, and, for a
    player of a rated game in progress, the spectators' lines."""
    rows = ChatLine.objects.filter(removed=False).select_related("author", "room")
    rows = rows.filter(room=room) if room is not None else rows.filter(game=game)
    ignored = ignored_ids(user=viewer)
    if ignored:
        rows = rows.exclude(author_id__in=ignored)
    if game is not None and not sees_spectator_lines(game=game, viewer=viewer):
        rows = rows.exclude(hidden_from_players=True)
    if before is not None:
        rows = rows.filter(id__lt=before)
    return list(reversed(rows.order_by("-id")[:limit]))


def chat_line_get(*, line_id: int | str) -> ChatLine:
    line = (
        ChatLine.objects.filter(pk=line_id, removed=False).select_related("author", "room").first()
    )
    if line is None:
        raise NotFound("no_such_line", "There is no such chat line.")
    return line


def last_line_of(*, author: User, room: Room | None, game: Game | None) -> ChatLine | None:
    rows = ChatLine.objects.filter(author=author)
    rows = rows.filter(room=room) if room is not None else rows.filter(game=game)
    return rows.order_by("-id").first()


def line_data(line: ChatLine) -> dict[str, Any]:
    """A chat line as the API and the streams show it."""
    return {
        "id": line.pk,
        "room": line.room.name if line.room_id is not None else None,
        "game": line.game_id,
        "author": {"id": line.author_id, "username": line.author.username},
        "text": line.text,
        "spectator": line.spectator,
        "hidden_from_players": line.hidden_from_players,
        "created_at": line.created_at,
    }


def anonymous_count(*, place: str) -> int:
    return Presence.objects.filter(place=place, user__isnull=True).count()


def spectators_of(*, game_id: int) -> list[dict[str, Any]]:
    """The logged-in people following a game who are not seated in it, with their ratings."""
    ids = Presence.objects.filter(place=game_channel(game_id), spectator=True, user__isnull=False)
    users = User.objects.filter(pk__in=ids.values("user_id")).order_by("username")[:500]
    return people_brief(list(users))


def room_find(*, name: str) -> Room | None:
    """The room of that name if it exists (no tournament room is opened by looking)."""
    return Room.objects.filter(name=name).first()
