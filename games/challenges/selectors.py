"""Reads of challenges: my incoming, my outgoing, open ones I can take up."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.challenges.services import player_rating, restriction_failure
from games.clocks import category_of_row
from games.models import Challenge, User


def _live(now: datetime) -> QuerySet[Challenge]:
    return (
        Challenge.objects.filter(status=Challenge.Status.OPEN)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .select_related("created_by", "invitee")
        .prefetch_related("entries__user")
    )


def _variant_name(variant: str) -> str | None:
    from games.engine import get_variant
    from games.engine.errors import UnknownGame

    try:
        return get_variant(variant).name
    except UnknownGame:
        return None


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
    """Open challenges ``user`` could take up now: not theirs, not joined, restrictions met."""
    now = now or timezone.now()
    challenges = (
        _live(now)
        .filter(kind=Challenge.Kind.OPEN)
        .exclude(created_by=user)
        .exclude(pk__in=Challenge.objects.filter(entries__user=user).values("pk"))
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
            key = (challenge.variant, category_of_row(challenge))
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
