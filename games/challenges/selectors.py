"""Reads of challenges: my incoming, my outgoing, open ones I can take up."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.accounts.selectors import users_playing_together
from games.challenges.models import Challenge
from games.challenges.signals import ignore_asked, ignores_asked, rating_asked
from games.clocks.timecontrol import TimeControl
from games.engine import UnknownGame, get_variant

SIMILAR_RATING_RANGE = 100
BEGINNER_MAX_RESULTS = 20
DEFAULT_RATING = 1600.0


def player_rating(*, user: User, variant: str, category: str) -> tuple[float, int] | None:
    """``(rating, rated results)`` from the ratings app (``signals.rating_asked``);
    ``(DEFAULT_RATING, 0)`` before the first rated result. ``None``, accepted by the callers,
    means "no rating" (no app answers)."""
    for _receiver, answer in rating_asked.send(
        sender=Challenge, user=user, variant=variant, category=category
    ):
        return answer
    return None


def restriction_failure(
    *, challenge: Challenge, user: User, rating: tuple[float, int] | None | bool = False
) -> str | None:
    """Why ``user`` may not take up ``challenge`` (a sentence), or ``None`` when they may.

    ``rating`` may be passed in (lists check many challenges); ``False`` means look it up.
    """
    restriction = challenge.restriction
    if restriction == Challenge.Restriction.NONE:
        return None
    if restriction == Challenge.Restriction.NOT_PLAYING_ME:
        if users_playing_together(user_a=challenge.created_by, user_b=user):
            return f"{challenge.created_by.username} only accepts players not already playing them."
        return None
    if rating is False:
        rating = player_rating(
            user=user, variant=challenge.variant, category=TimeControl.of(challenge).category
        )
    if restriction == Challenge.Restriction.BEGINNERS:
        if rating is not None and rating[1] >= BEGINNER_MAX_RESULTS:
            return (
                f"Only beginners (fewer than {BEGINNER_MAX_RESULTS} rated results) "
                "may take up this challenge."
            )
        return None
    value = DEFAULT_RATING if rating is None else rating[0]
    bound = challenge.restriction_rating if challenge.restriction_rating is not None else 1600
    if restriction == Challenge.Restriction.RATING_ABOVE and value < bound:
        return f"Only players rated {bound} or more may take up this challenge."
    if restriction == Challenge.Restriction.RATING_BELOW and value > bound:
        return f"Only players rated {bound} or less may take up this challenge."
    if (
        restriction == Challenge.Restriction.RATING_SIMILAR
        and abs(value - bound) > SIMILAR_RATING_RANGE
    ):
        return (
            f"Only players rated within {SIMILAR_RATING_RANGE} points of {bound} "
            "may take up this challenge."
        )
    return None


def restriction_words(challenge: Challenge) -> str | None:
    """Who may take up ``challenge``, in a row's words ("players rated 1800 or more"), or None
    when anyone may (``restriction_failure`` says why one may not)."""
    restriction = challenge.restriction
    bound = challenge.restriction_rating if challenge.restriction_rating is not None else 1600
    words = {
        Challenge.Restriction.NOT_PLAYING_ME: (
            f"players not already playing {challenge.created_by.username}"
        ),
        Challenge.Restriction.BEGINNERS: f"beginners (fewer than {BEGINNER_MAX_RESULTS} rated results)",
        Challenge.Restriction.RATING_ABOVE: f"players rated {bound} or more",
        Challenge.Restriction.RATING_BELOW: f"players rated {bound} or less",
        Challenge.Restriction.RATING_SIMILAR: f"players rated {bound} ± {SIMILAR_RATING_RANGE}",
    }
    return words.get(restriction)


def _live(now: datetime) -> QuerySet[Challenge]:
    return (
        Challenge.objects.filter(status=Challenge.Status.OPEN)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .select_related("created_by", "invitee")
        .prefetch_related("entries__user")
    )


def _variant_name(variant: str) -> str | None:
    try:
        return get_variant(variant).name
    except UnknownGame:
        return None


def ignoring(*, user_id: int, other_id: int) -> bool:
    """Whether the player ``user_id`` ignores ``other_id`` (the ignore lists of ``live``, asked
    by ``signals.ignore_asked``): someone ignored can neither challenge them nor take up or
    join their challenges."""
    answers = ignore_asked.send(sender=Challenge, user_id=user_id, other_id=other_id)
    return any(answer for _receiver, answer in answers)


def _apart_from(user: User) -> Q:
    """The challenges of players ``user`` ignores or is ignored by (``signals.ignores_asked``)."""
    apart = Q()
    for _receiver, user_ids in ignores_asked.send(sender=Challenge, user=user):
        for ids in user_ids:
            apart |= Q(created_by__in=ids)
    return apart


def challenges_incoming(*, user: User, now: datetime | None = None) -> QuerySet[Challenge]:
    """Open direct challenges to ``user``, newest first."""
    return _live(now or timezone.now()).filter(kind=Challenge.Kind.DIRECT, invitee=user)


def challenges_outgoing(*, user: User, now: datetime | None = None) -> QuerySet[Challenge]:
    """Open challenges ``user`` made or joined, newest first."""
    live = _live(now or timezone.now())
    joined = Challenge.objects.filter(entries__user=user).values("pk")
    return live.filter(Q(created_by=user) | Q(pk__in=joined))


def challenges_open(
    *, user: User, variant: str | None = None, now: datetime | None = None
) -> list[Challenge]:
    """Open challenges ``user`` could take up now: not theirs, not joined, restrictions met,
    and not of a player they ignore or who ignores them."""
    now = now or timezone.now()
    challenges = (
        _live(now)
        .filter(kind=Challenge.Kind.OPEN)
        .exclude(created_by=user)
        .exclude(pk__in=Challenge.objects.filter(entries__user=user).values("pk"))
        .exclude(_apart_from(user))
    )
    if variant:
        name = _variant_name(variant)
        if name is None:
            return []
        challenges = challenges.filter(variant=name)
    ratings: dict[tuple[str, str], tuple[float, int] | None] = {}
    result = []
    for challenge in challenges:
        rating: tuple[float, int] | None | bool = False
        if challenge.restriction in (
            Challenge.Restriction.RATING_ABOVE,
            Challenge.Restriction.RATING_BELOW,
            Challenge.Restriction.RATING_SIMILAR,
            Challenge.Restriction.BEGINNERS,
        ):
            key = (challenge.variant, TimeControl.of(challenge).category)
            if key not in ratings:
                ratings[key] = player_rating(user=user, variant=key[0], category=key[1])
            rating = ratings[key]
        if restriction_failure(challenge=challenge, user=user, rating=rating) is None:
            result.append(challenge)
    return result


def challenge_visible(*, user: User, challenge_id: int) -> Challenge | None:
    """A challenge ``user`` may look at: open ones, or any they made, were invited to or joined."""
    challenge = (
        Challenge.objects.filter(pk=challenge_id)
        .select_related("created_by", "invitee")
        .prefetch_related("entries__user")
        .first()
    )
    if challenge is None:
        return None
    if challenge.kind == Challenge.Kind.OPEN:
        return challenge
    involved = {challenge.created_by_id, challenge.invitee_id}
    involved.update(entry.user_id for entry in challenge.entries.all())
    return challenge if user.pk in involved else None


def challenges_open_all(*, limit: int, now: datetime | None = None) -> list[Challenge]:
    """The open challenges anyone may see (the main room's list), newest first."""
    now = now or timezone.now()
    return list(_live(now).filter(kind=Challenge.Kind.OPEN).order_by("-created_at", "-id")[:limit])


def rematch_message(game_id: int) -> str:
    """The message of a rematch's challenge: it tells the opponent which game it follows, and
    marks the challenge as that game's rematch (``rematch_find``)."""
    return f"Rematch of game #{game_id}"


def rematch_find(*, game_id: int, user: User, opponent: User) -> Challenge | None:
    """The rematch of game ``game_id`` between ``user`` and ``opponent`` still open or taken
    up (made by either of them), the newest, or None."""
    return (
        Challenge.objects.filter(
            Q(created_by=user, invitee=opponent) | Q(created_by=opponent, invitee=user),
            kind=Challenge.Kind.DIRECT,
            message=rematch_message(game_id),
            status__in=(Challenge.Status.OPEN, Challenge.Status.ACCEPTED),
        )
        .select_related("created_by", "invitee")
        .order_by("-created_at", "-id")
        .first()
    )
