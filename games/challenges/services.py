"""Challenge services: create, accept / join, leave, decline, cancel, expire.

Decisions taken here (the rule book leaves them open):

- Invitations expire 1 hour after creation for live games and 7 days after for turn-based and
  untimed ones, unless the creator asks for 1..720 hours. An expired challenge cannot be accepted;
  the ``challenges_expire`` sweeper marks them, and an accept that finds one marks it too.
- Restrictions compare the accepting (or joining) player's rating in the challenge's game and
  rating category. ``rating_above`` / ``rating_below`` take ``restriction_rating`` or, when it is
  not given, the creator's rating when the challenge is made; both bounds are inclusive.
  ``rating_similar`` means within ``SIMILAR_RATING_RANGE`` (100) points of that rating, inclusive.
  A player with no rating counts as ``DEFAULT_RATING`` (1600). ``beginners`` means fewer than
  ``BEGINNER_MAX_RESULTS`` (20) rated results in that game and category, or no rating at all.
  ``not_playing_me`` refuses a player who shares a game in progress with the creator.
- Rated challenges are two-player only and use standard rules: no adjacent-only option (a
  chosen tournament-rule setting is passed on to the set). Computer players may play rated
  games (ratings decide what to do with them).
- A two-player challenge's ``seat_wanted`` is the creator's seat (1 moves first in game 1);
  ``None`` lets a coin decide. Multi-player (3..6 seats) and partners (4 seats) challenges are
  open: players join, the creator holds seat 1 and the rest sit in join order (partners: seats
  1 & 3 against 2 & 4); the game starts when the last seat is taken.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.accounts.selectors import users_playing_together
from games.clocks import ClockError, category_of_row, validate_time_control
from games.clocks import category_of as category_for
from games.models import Challenge, ChallengeEntry, User

SIMILAR_RATING_RANGE = 100
BEGINNER_MAX_RESULTS = 20
DEFAULT_RATING = 1600.0
MAX_MESSAGE_LENGTH = 255
EXPIRY_LIVE = timedelta(hours=1)
EXPIRY_TURN = timedelta(days=7)
EXPIRY_UNTIMED = timedelta(days=7)
MAX_EXPIRY_HOURS = 720
MIN_SEATS, MAX_SEATS, PARTNER_SEATS = 2, 6, 4


class ChallengeRefused(Exception):
    """A refused challenge operation: ``code`` for machines, ``detail`` (a sentence) for people."""

    def __init__(
        self, code: str, detail: str, *, status: int = 400, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.extra = extra or {}


@dataclass(frozen=True)
class TimeControl:
    kind: str = "none"
    initial_minutes: int = 0
    increment_seconds: int = 0
    days_per_move: int = 0

    @property
    def category(self) -> str:
        return category_for(
            time_control=self.kind,
            initial_minutes=self.initial_minutes,
            increment_seconds=self.increment_seconds,
        )


def time_control_check(
    *, time_control: str, initial_minutes: int, increment_seconds: int, days_per_move: int
) -> TimeControl:
    def bad(detail: str) -> ChallengeRefused:
        return ChallengeRefused("bad_time_control", detail)

    numbers = (initial_minutes, increment_seconds, days_per_move)
    if any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
        raise bad("Time control values must be whole numbers.")
    try:
        validate_time_control(
            time_control=time_control,
            initial_minutes=initial_minutes,
            increment_seconds=increment_seconds,
            days_per_move=days_per_move,
        )
    except ClockError as exc:
        raise bad(exc.detail) from None
    if time_control == "live" and days_per_move:
        raise bad("A live game has no days per move.")
    if time_control == "turn" and (initial_minutes or increment_seconds):
        raise bad("A turn-based game has no initial time or increment.")
    if time_control == "none" and any(numbers):
        raise bad("An untimed game has no initial time, increment or days per move.")
    return TimeControl(time_control, initial_minutes, increment_seconds, days_per_move)


def player_rating(*, user: User, variant: str, category: str) -> tuple[float, int] | None:
    """``(rating, rated results)`` from the ratings app; ``(DEFAULT_RATING, 0)`` before the
    first rated result. (``None``, accepted by the callers, also means "no rating".)"""
    from ratings.selectors import rating_or_start

    return rating_or_start(user=user, variant=variant, category=category)


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
            user=user, variant=challenge.variant, category=category_of_row(challenge)
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


def _check_engine_options(
    *,
    variant: str,
    seats: int,
    partners: bool,
    rated: bool,
    tournament_rule: bool | None,
    adjacent_only: bool,
) -> str:
    """Canonical variant name; the engine itself says which options a game supports."""
    from games.engine import Game, get_variant
    from games.engine.errors import EngineError, UnknownGame

    try:
        name = get_variant(variant).name
    except UnknownGame:
        raise ChallengeRefused("unknown_game", f"There is no game called '{variant}'.") from None
    try:
        Game(
            name,
            seats=seats,
            partners=partners,
            tournament_rule=tournament_rule,
            rated=rated,
            adjacent_only=adjacent_only,
        )
    except (EngineError, ValueError) as exc:
        detail = getattr(exc, "detail", None) or str(exc)
        raise ChallengeRefused(
            "unsupported_options", f"{name} cannot be played with these options: {detail}"
        ) from None
    return name


def challenge_create(
    *,
    creator: User,
    variant: str,
    invitee_username: str | None = None,
    seats: int = 2,
    partners: bool = False,
    rated: bool = False,
    seat_wanted: int | None = None,
    time_control: str = "none",
    initial_minutes: int = 0,
    increment_seconds: int = 0,
    days_per_move: int = 0,
    tournament_rule: bool | None = None,
    adjacent_only: bool = False,
    message: str = "",
    restriction: str = "none",
    restriction_rating: int | None = None,
    expires_in_hours: int | None = None,
    now: datetime | None = None,
) -> Challenge:
    now = now or timezone.now()
    if partners and seats != PARTNER_SEATS:
        if seats == MIN_SEATS:
            seats = PARTNER_SEATS
        else:
            raise ChallengeRefused("bad_seats", "A partners game has exactly 4 seats.")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ChallengeRefused("bad_seats", "A game has 2 to 6 seats.")
    multi = seats > 2
    if rated and multi:
        raise ChallengeRefused(
            "rated_multiplayer", "Only two-player games can be rated.", status=400
        )
    if rated and adjacent_only:
        raise ChallengeRefused(
            "rated_options", "Rated games are played without the adjacent-only option."
        )
    if seat_wanted is not None and (multi or seat_wanted not in (1, 2)):
        raise ChallengeRefused(
            "bad_seat_wanted",
            "The seat wanted is 1, 2 or empty (either), and only in two-player games.",
        )
    tc = time_control_check(
        time_control=time_control,
        initial_minutes=initial_minutes,
        increment_seconds=increment_seconds,
        days_per_move=days_per_move,
    )
    message = (message or "").strip()
    if len(message) > MAX_MESSAGE_LENGTH:
        raise ChallengeRefused(
            "message_too_long", f"A message has at most {MAX_MESSAGE_LENGTH} characters."
        )
    name = _check_engine_options(
        variant=variant,
        seats=seats,
        partners=partners,
        rated=rated,
        tournament_rule=tournament_rule,
        adjacent_only=adjacent_only,
    )

    invitee = None
    if invitee_username:
        invitee = User.objects.filter(username__iexact=invitee_username, is_active=True).first()
        if invitee is None:
            raise ChallengeRefused(
                "unknown_player", f"There is no player called '{invitee_username}'."
            )
        if invitee.pk == creator.pk:
            raise ChallengeRefused("challenge_self", "You cannot challenge yourself.")
        if multi:
            raise ChallengeRefused(
                "direct_multiplayer",
                "Multi-player and partners challenges are open: players join them.",
            )

    if restriction not in Challenge.Restriction.values:
        raise ChallengeRefused(
            "bad_restriction",
            "The restriction is one of: " + ", ".join(Challenge.Restriction.values) + ".",
        )
    rating_restrictions = {
        Challenge.Restriction.RATING_ABOVE,
        Challenge.Restriction.RATING_BELOW,
        Challenge.Restriction.RATING_SIMILAR,
    }
    if restriction in rating_restrictions:
        if restriction_rating is None:
            mine = player_rating(user=creator, variant=name, category=tc.category)
            restriction_rating = round(DEFAULT_RATING if mine is None else mine[0])
        elif not 0 <= restriction_rating <= 5000:
            raise ChallengeRefused("bad_restriction", "A rating bound is 0 to 5000.")
    else:
        restriction_rating = None

    if expires_in_hours is None:
        lifetime = {"live": EXPIRY_LIVE, "turn": EXPIRY_TURN}.get(tc.kind, EXPIRY_UNTIMED)
    elif 1 <= expires_in_hours <= MAX_EXPIRY_HOURS:
        lifetime = timedelta(hours=expires_in_hours)
    else:
        raise ChallengeRefused("bad_expiry", f"A challenge lasts 1 to {MAX_EXPIRY_HOURS} hours.")

    with transaction.atomic():
        challenge = Challenge.objects.create(
            created_by=creator,
            kind=Challenge.Kind.DIRECT if invitee else Challenge.Kind.OPEN,
            invitee=invitee,
            variant=name,
            seats=seats,
            partners=partners,
            rated=rated,
            tournament_rule=tournament_rule,
            adjacent_only=adjacent_only,
            seat_wanted=seat_wanted,
            time_control=tc.kind,
            initial_minutes=tc.initial_minutes,
            increment_seconds=tc.increment_seconds,
            days_per_move=tc.days_per_move,
            restriction=restriction,
            restriction_rating=restriction_rating,
            message=message,
            expires_at=now + lifetime,
        )
        if multi:
            ChallengeEntry.objects.create(challenge=challenge, user=creator)
    return challenge


# --- taking up a challenge ---------------------------------------------------------------


def coin_flip() -> bool:
    """True: the creator moves first. (Tests replace this.)"""
    return secrets.randbelow(2) == 0


class _Expired(Exception):
    pass


def _lock(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .filter(pk=challenge_id)
        .select_related("created_by", "invitee")
        .first()
    )
    if challenge is None:
        raise ChallengeRefused(
            "unknown_challenge", "There is no challenge with that id.", status=404
        )
    return challenge


def _check_open(challenge: Challenge, now: datetime) -> None:
    status = challenge.status
    if status == Challenge.Status.ACCEPTED:
        raise ChallengeRefused(
            "already_accepted", "This challenge has already been accepted.", status=409
        )
    if status == Challenge.Status.EXPIRED:
        raise ChallengeRefused("expired", "This challenge has expired.", status=409)
    if status != Challenge.Status.OPEN:
        raise ChallengeRefused(
            "not_open", f"This challenge is no longer open: it was {status}.", status=409
        )
    if challenge.expires_at is not None and challenge.expires_at <= now:
        raise _Expired


def _refuse_expired(challenge_id: int) -> ChallengeRefused:
    Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.OPEN).update(
        status=Challenge.Status.EXPIRED
    )
    return ChallengeRefused("expired", "This challenge has expired.", status=409)


def _check_restriction(challenge: Challenge, user: User) -> None:
    failure = restriction_failure(challenge=challenge, user=user)
    if failure:
        raise ChallengeRefused(
            "restriction_not_met",
            failure,
            status=403,
            extra={"restriction": challenge.restriction},
        )


def _timing(challenge: Challenge) -> dict[str, Any]:
    return {
        "time_control": challenge.time_control,
        "initial_minutes": challenge.initial_minutes,
        "increment_seconds": challenge.increment_seconds,
        "days_per_move": challenge.days_per_move,
    }


def _start_two_player(challenge: Challenge, acceptor: User, now: datetime) -> None:
    from games.services import game_create, set_create

    creator = challenge.created_by
    if challenge.seat_wanted == 1:
        creator_first = True
    elif challenge.seat_wanted == 2:
        creator_first = False
    else:
        creator_first = coin_flip()
    player1, player2 = (creator, acceptor) if creator_first else (acceptor, creator)
    if challenge.rated:
        game_set = set_create(
            player1=player1,
            player2=player2,
            variant=challenge.variant,
            rated=True,
            tournament_rule=challenge.tournament_rule,
            now=now,
            **_timing(challenge),
        )
        challenge.game_set = game_set
        challenge.game = game_set.games.order_by("set_index", "id").first()
    else:
        challenge.game = game_create(
            variant=challenge.variant,
            players=[player1, player2],
            rated=False,
            tournament_rule=challenge.tournament_rule,
            adjacent_only=challenge.adjacent_only,
            now=now,
            **_timing(challenge),
        )


def _start_multi(challenge: Challenge, now: datetime) -> None:
    from games.services import game_create

    players = [
        entry.user for entry in challenge.entries.select_related("user").order_by("joined_at", "id")
    ]
    challenge.game = game_create(
        variant=challenge.variant,
        players=players,
        rated=False,
        partners=challenge.partners,
        tournament_rule=challenge.tournament_rule,
        adjacent_only=challenge.adjacent_only,
        now=now,
        **_timing(challenge),
    )


def challenge_accept(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    """Take up a challenge. Two-player: the game (or rated set) starts at once. Multi-player:
    the same as joining."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            challenge = _lock(challenge_id)
            if challenge.seats > 2:
                return _join_locked(challenge, user, now)
            _check_open(challenge, now)
            if challenge.created_by_id == user.pk:
                raise ChallengeRefused("challenge_self", "You cannot accept your own challenge.")
            if challenge.kind == Challenge.Kind.DIRECT and challenge.invitee_id != user.pk:
                raise ChallengeRefused(
                    "not_invitee", "Only the invited player can accept this challenge.", status=403
                )
            _check_restriction(challenge, user)
            _start_two_player(challenge, user, now)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.save(update_fields=["status", "game", "game_set"])
            return challenge
    except _Expired:
        raise _refuse_expired(challenge_id) from None


def _join_locked(challenge: Challenge, user: User, now: datetime) -> Challenge:
    _check_open(challenge, now)
    if challenge.entries.filter(user=user).exists():
        raise ChallengeRefused(
            "already_joined", "You have already joined this challenge.", status=409
        )
    _check_restriction(challenge, user)
    try:
        with transaction.atomic():
            ChallengeEntry.objects.create(challenge=challenge, user=user)
    except IntegrityError:
        raise ChallengeRefused(
            "already_joined", "You have already joined this challenge.", status=409
        ) from None
    if challenge.entries.count() >= challenge.seats:
        _start_multi(challenge, now)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.save(update_fields=["status", "game"])
    return challenge


def challenge_join(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    """Take a seat in a multi-player / partners challenge (two-player: the same as accepting)."""
    return challenge_accept(challenge_id=challenge_id, user=user, now=now)


def challenge_leave(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    now = now or timezone.now()
    try:
        with transaction.atomic():
            challenge = _lock(challenge_id)
            _check_open(challenge, now)
            if challenge.created_by_id == user.pk:
                raise ChallengeRefused(
                    "creator_cannot_leave",
                    "The creator cannot leave their own challenge; cancel it instead.",
                    status=409,
                )
            deleted, _ = challenge.entries.filter(user=user).delete()
            if not deleted:
                raise ChallengeRefused(
                    "not_joined", "You have not joined this challenge.", status=409
                )
            return challenge
    except _Expired:
        raise _refuse_expired(challenge_id) from None


def challenge_decline(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    return _close(
        challenge_id=challenge_id,
        now=now or timezone.now(),
        status=Challenge.Status.DECLINED,
        allowed=lambda c: c.kind == Challenge.Kind.DIRECT and c.invitee_id == user.pk,
        refusal=ChallengeRefused(
            "not_invitee", "Only the invited player can decline this challenge.", status=403
        ),
    )


def challenge_cancel(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    return _close(
        challenge_id=challenge_id,
        now=now or timezone.now(),
        status=Challenge.Status.CANCELLED,
        allowed=lambda c: c.created_by_id == user.pk,
        refusal=ChallengeRefused(
            "not_creator", "Only the creator can cancel this challenge.", status=403
        ),
    )


def _close(
    *,
    challenge_id: int,
    now: datetime,
    status: str,
    allowed: Callable[[Challenge], bool],
    refusal: ChallengeRefused,
) -> Challenge:
    """Give an open challenge its final ``status``; ``refusal`` when not ``allowed`` (checked
    before whether it is still open)."""
    try:
        with transaction.atomic():
            challenge = _lock(challenge_id)
            if not allowed(challenge):
                raise refusal
            _check_open(challenge, now)
            challenge.status = status
            challenge.save(update_fields=["status"])
            return challenge
    except _Expired:
        raise _refuse_expired(challenge_id) from None


def challenges_expire_due(*, now: datetime | None = None) -> int:
    """Mark every open challenge whose time is up as expired; returns how many."""
    now = now or timezone.now()
    return Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED
    )
