"""Reads of the hills: a hill by its name, the list of hills, a hill's steps with its members'
ratings and hill sets (whose turn), its history, and the kings with their conquests (the crown
shown beside their names)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games.clocks.timecontrol import Kind
from games.engine.variants import GAMES, get_variant
from games.play.models import Game, GameSet
from games.play.positions import played_of
from hills.models import Hill, HillEvent, HillMatch, HillMember
from pente_site.errors import NotFound
from ratings.models import Rating

#: The rating category shown beside the members of a hill of each kind.
RATING_CATEGORY = {Hill.Kind.LIVE: "normal", Hill.Kind.TURN: "turn"}
#: The shades of the crown: one more with each conquest, up to the last.
CROWN_SHADES = 5
#: The hill challenges still open and the hill sets still going (a set cancelled, its first
#: game aborted, gets no result: its match stays ``playing`` but is over).
GOING = Q(status=HillMatch.Status.OPEN) | Q(
    status=HillMatch.Status.PLAYING, game_set__status=GameSet.Status.IN_PROGRESS
)


def hill_of_slug(slug: str) -> tuple[str, str]:
    """The game's name and the kind of a hill's name (``pente-turn``), or 404 ``no_such_hill``."""
    variant_slug, _, kind = str(slug).rpartition("-")
    if kind in Hill.Kind.values:
        try:
            return get_variant(variant_slug).name, kind
        except ValueError:
            pass
    raise NotFound(
        "no_such_hill",
        f"There is no hill {str(slug)[:60]!r}: a hill is named by its game and kind, "
        "e.g. 'pente-turn' or 'go-9-live'.",
    )


def hill_find(*, slug: str) -> Hill | None:
    """The hill named ``slug`` if it has been opened (None if not yet); 404 if no such hill."""
    variant, kind = hill_of_slug(slug)
    return Hill.objects.filter(variant=variant, kind=kind).select_related("king").first()


def member_required(*, user: User, slug: str) -> None:
    """404 ``not_member`` unless ``user`` is on the hill ``slug`` (404 ``no_such_hill`` when
    there is no such hill): who may challenge from it at all."""
    variant, kind = hill_of_slug(slug)
    on_hill = HillMember.objects.filter(
        hill__variant=variant, hill__kind=kind, user_id=getattr(user, "pk", None)
    ).exists()
    if not on_hill:
        raise NotFound("not_member", f"{user.username} is not on the {str(slug)[:60]} hill.")


def hills_list() -> list[dict[str, Any]]:
    """Every hill the server has (every game, live and turn-based), opened or not, with its
    member count and king."""
    opened = {
        (h.variant, h.kind): h
        for h in Hill.objects.select_related("king").annotate(members_count=Count("members"))
    }
    rows = []
    for variant in GAMES.values():
        for kind in Hill.Kind.values:
            hill = opened.get((variant.name, kind))
            rows.append(
                {
                    "slug": f"{variant.slug}-{kind}",
                    "variant": variant.name,
                    "kind": kind,
                    "members_count": hill.members_count if hill else 0,
                    "king": hill.king.username if hill and hill.king else None,
                }
            )
    return rows


def idle_after(kind: str) -> int:
    """Days without a hill set after which a member of a hill of ``kind`` is removed."""
    if kind == Hill.Kind.LIVE:
        return settings.HILL_IDLE_DAYS_LIVE
    return settings.HILL_IDLE_DAYS_TURN


def active_matches_of(*, hill: Hill, user_ids: list[int]) -> dict[int, int]:
    """How many hill challenges and sets each of ``user_ids`` has going on ``hill``."""
    counts: dict[int, int] = defaultdict(int)
    rows = HillMatch.objects.filter(GOING, hill=hill).filter(
        Q(challenger_id__in=user_ids) | Q(challenged_id__in=user_ids)
    )
    for challenger_id, challenged_id in rows.values_list("challenger_id", "challenged_id"):
        counts[challenger_id] += 1
        counts[challenged_id] += 1
    return {user_id: counts[user_id] for user_id in user_ids}


def conquests_of(*, user_ids: list[int]) -> dict[int, int]:
    """How many times each of ``user_ids`` became king of a hill."""
    rows = (
        HillEvent.objects.filter(kind=HillEvent.Kind.CROWNED, user_id__in=user_ids)
        .values("user_id")
        .annotate(n=Count("id"))
    )
    return {row["user_id"]: row["n"] for row in rows}


def kings() -> dict[int, int]:
    """The players who are king of a hill now -> their conquests (every hill conquered)."""
    ruling = list(
        Hill.objects.filter(king__isnull=False).values_list("king_id", flat=True).distinct()
    )
    if not ruling:
        return {}
    conquests = conquests_of(user_ids=ruling)
    return {user_id: max(1, conquests.get(user_id, 0)) for user_id in ruling}


def crown_shade(conquests: int) -> int:
    """The crown's shade, 1..``CROWN_SHADES``: darker with each hill conquered."""
    return max(1, min(CROWN_SHADES, conquests))


def _games_in_progress(matches: list[HillMatch]) -> dict[int, Game]:
    set_ids = [m.game_set_id for m in matches if m.game_set_id]
    games: dict[int, Game] = {}
    for game in Game.objects.filter(
        game_set_id__in=set_ids, status=Game.Status.IN_PROGRESS
    ).prefetch_related("seat_rows__user"):
        games.setdefault(game.game_set_id, game)
    return games


def _set_brief(match: HillMatch, game: Game | None) -> dict[str, Any]:
    to_move = None
    if game is not None:
        seat = played_of(game).position.to_move_seat
        users = {s.seat: s.user for s in game.seat_rows.all()}
        mover = users.get(seat)
        to_move = mover.username if mover is not None else None
    return {
        "game_set": match.game_set_id,
        "game": game.pk if game is not None else None,
        "challenger": match.challenger.username,
        "challenged": match.challenged.username,
        "to_move": to_move,
    }


def hill_detail(*, variant: str, kind: str, hill: Hill | None) -> dict[str, Any]:
    """A hill's steps, top first, each with its members (rating, king, conquests, days left
    before the inactivity rule, hill sets in progress and whose turn in them)."""
    members: list[HillMember] = []
    matches: list[HillMatch] = []
    if hill is not None:
        members = list(hill.members.select_related("user").order_by("-step", "joined_at", "id"))
        matches = list(
            HillMatch.objects.filter(
                hill=hill,
                status=HillMatch.Status.PLAYING,
                game_set__status=GameSet.Status.IN_PROGRESS,
            )
            .select_related("challenger", "challenged")
            .order_by("id")
        )
    user_ids = [m.user_id for m in members]
    ratings = {
        r.user_id: r
        for r in Rating.objects.filter(
            user_id__in=user_ids, variant=variant, category=RATING_CATEGORY[kind]
        )
    }
    conquests = conquests_of(user_ids=user_ids)
    games = _games_in_progress(matches)
    sets_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for match in matches:
        brief = _set_brief(match, games.get(match.game_set_id))
        sets_of[match.challenger_id].append(brief)
        sets_of[match.challenged_id].append(brief)
    steps: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for m in members:
        rating = ratings.get(m.user_id)
        steps[m.step].append(
            {
                "username": m.user.username,
                "step": m.step,
                "rating": round(rating.rating) if rating else None,
                "king": hill is not None and hill.king_id == m.user_id,
                "conquests": conquests.get(m.user_id, 0),
                "joined_at": m.joined_at,
                "active_at": m.active_at,
                "sets": sets_of.get(m.user_id, []),
            }
        )
    v = get_variant(variant)
    return {
        "slug": f"{v.slug}-{kind}",
        "variant": v.name,
        "kind": kind,
        "room": f"hill-{v.slug}-{kind}",
        "king": hill.king.username if hill is not None and hill.king else None,
        "members_count": len(members),
        "rules": hill_rules(kind=kind),
        "steps": [{"step": s, "members": steps[s]} for s in sorted(steps, reverse=True)],
    }


def hill_rules(*, kind: str) -> dict[str, Any]:
    """The settings a hill of ``kind`` plays by."""
    return {
        "idle_days": idle_after(kind),
        "reach_steps": settings.HILL_REACH_STEPS,
        "max_sets": settings.HILL_MAX_TURN_SETS if kind == Hill.Kind.TURN else None,
        "decline_penalty_days": settings.HILL_DECLINE_PENALTY_DAYS
        if kind == Hill.Kind.TURN
        else None,
        "time_control": Kind.TURN.value if kind == Hill.Kind.TURN else Kind.LIVE.value,
    }


def hill_history(*, hill: Hill | None) -> QuerySet[HillEvent]:
    """The hill's history, newest first."""
    if hill is None:
        return HillEvent.objects.none()
    return hill.events.select_related("user", "opponent").order_by("-created_at", "-id")


def idle_since(*, kind: str, now: datetime) -> datetime:
    return now - timedelta(days=idle_after(kind))


def kings_by_name() -> dict[str, int]:
    """The players who are king of a hill now, by username -> their conquests."""
    ruling = kings()
    names = User.objects.filter(pk__in=list(ruling)).values_list("pk", "username")
    return {username: ruling[pk] for pk, username in names}
