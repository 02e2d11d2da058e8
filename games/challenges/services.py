"""Challenge services: create, accept / join, leave, decline, cancel, expire, and the computers
taking up open invitations.

The rules decided here that the rule book leaves open (expiry, rating restrictions, rated
challenges, seats, computers, the abort limit): docs/api.md, "Challenges: the rules the server
decides".
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.guests import refuse_guest
from accounts.models import User, deactivated_by_save
from games.bots.selectors import (
    BOT_LEVELS,
    bot_games_in_progress,
    bot_max_active_games,
    bots_list,
)
from games.challenges.models import Challenge, ChallengeEntry
from games.challenges.selectors import (
    DEFAULT_RATING,
    ignoring,
    player_rating,
    restriction_failure,
)
from games.challenges.signals import challenge_changed
from games.clocks.selectors import abort_limit_until
from games.clocks.timecontrol import UNTIMED, Kind, TimeControl
from games.engine import EngineError, UnknownGame, get_variant, new_game
from games.play.create import game_create, set_create
from pente_site.errors import Conflict, DomainError, Forbidden, Invalid, NotFound
from pente_site.jobs import enqueue

MAX_MESSAGE_LENGTH = 255
EXPIRY_LIVE = timedelta(hours=1)
EXPIRY_TURN = timedelta(days=7)
EXPIRY_UNTIMED = timedelta(days=7)
MAX_EXPIRY_HOURS = 720
MIN_SEATS, MAX_SEATS, PARTNER_SEATS = 2, 6, 4
MAX_COMPUTER_WAIT_SECONDS = 3600
MIN_RESTRICTION_RATING, MAX_RESTRICTION_RATING = 0, 5000
#: The task that lets the computer take an open invitation made with no wait.
COMPUTER_TAKE_TASK = "games.challenges.computer_take"


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
    try:
        name = get_variant(variant).name
    except UnknownGame:
        raise Invalid("unknown_game", f"There is no game called '{variant}'.") from None
    try:
        new_game(
            name,
            seats=seats,
            partners=partners,
            tournament_rule=tournament_rule,
            rated=rated,
            adjacent_only=adjacent_only,
        )
    except (EngineError, ValueError) as exc:
        detail = getattr(exc, "detail", None) or str(exc)
        raise Invalid(
            "unsupported_options", f"{name} cannot be played with these options: {detail}"
        ) from None
    return name


def _engine_takes(variant: str, **options) -> bool:
    try:
        new_game(variant, **options)
    except (EngineError, ValueError):
        return False
    return True


def challenge_options(variant: str) -> dict[str, bool]:
    """Which choices a two-player challenge to ``variant`` has, as the engine answers them (the
    refusals ``challenge_create`` meets): ``tournament_rule``, on or off in an unrated game;
    ``rated_tournament_rule``, whether its rated games are played with it (always, a rated
    challenge cannot turn it off); ``adjacent_only``, in an unrated game."""
    return {
        "tournament_rule": _engine_takes(variant, tournament_rule=True)
        and _engine_takes(variant, tournament_rule=False),
        "rated_tournament_rule": new_game(variant, rated=True).tournament_rule,
        "adjacent_only": _engine_takes(variant, adjacent_only=True),
    }


def challenge_create(
    *,
    creator: User,
    variant: str,
    invitee_username: str | None = None,
    seats: int = 2,
    partners: bool = False,
    rated: bool = False,
    seat_wanted: int | None = None,
    time_control: TimeControl = UNTIMED,
    tournament_rule: bool | None = None,
    adjacent_only: bool = False,
    message: str = "",
    restriction: str = "none",
    restriction_rating: int | None = None,
    expires_in_hours: int | None = None,
    computer_level: int | None = None,
    computer_wait_seconds: int | None = None,
    now: datetime | None = None,
) -> Challenge:
    """Make a challenge: direct when ``invitee_username`` is given, else open. A direct
    challenge to a computer opponent comes back already accepted, with its game; an open one
    with a ``computer_level`` is taken by that computer if no human takes it in time."""
    now = now or timezone.now()
    if partners and seats != PARTNER_SEATS:
        if seats == MIN_SEATS:
            seats = PARTNER_SEATS
        else:
            raise Invalid("bad_seats", "A partners game has exactly 4 seats.")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise Invalid("bad_seats", "A game has 2 to 6 seats.")
    multi = seats > 2
    if rated and multi:
        raise Invalid("rated_multiplayer", "Only two-player games can be rated.")
    if rated and adjacent_only:
        raise Invalid("rated_options", "Rated games are played without the adjacent-only option.")
    _check_aborts(creator, rated=rated, kind=time_control.kind, now=now)
    if seat_wanted is not None and (multi or seat_wanted not in (1, 2)):
        raise Invalid(
            "bad_seat_wanted",
            "The seat wanted is 1, 2 or empty (either), and only in two-player games.",
        )
    tc = time_control
    message = (message or "").strip()
    if len(message) > MAX_MESSAGE_LENGTH:
        raise Invalid("message_too_long", f"A message has at most {MAX_MESSAGE_LENGTH} characters.")
    name = _check_engine_options(
        variant=variant,
        seats=seats,
        partners=partners,
        rated=rated,
        tournament_rule=tournament_rule,
        adjacent_only=adjacent_only,
    )
    if rated and tournament_rule is False and get_variant(name).tournament_rule_allowed:
        raise Invalid(
            "rated_options", f"Rated {name} games are always played with the tournament rule."
        )

    invitee = None
    if invitee_username:
        invitee = User.objects.filter(username__iexact=invitee_username, is_active=True).first()
        if invitee is None:
            raise Invalid("unknown_player", f"There is no player called '{invitee_username}'.")
        if invitee.pk == creator.pk:
            raise Invalid("challenge_self", "You cannot challenge yourself.")
        if ignoring(user_id=invitee.pk, other_id=creator.pk):
            raise Forbidden(
                "not_accepting", f"{invitee.username} does not take challenges from you."
            )
        if multi:
            raise Invalid(
                "direct_multiplayer",
                "Multi-player and partners challenges are open: players join them.",
            )
        if invitee.bot_level is not None and rated:
            raise Invalid("computer_unrated", "Games against the computer are unrated.")
        if invitee.is_guest:
            raise Forbidden(
                "guest_not_allowed",
                f"{invitee.username} is a guest, who plays the computer only.",
            )
    computer = invitee if invitee is not None and invitee.bot_level is not None else None
    if computer is None:
        refuse_guest(creator, what="challenge people")
    computer_wait = _check_computer_invitation(
        level=computer_level,
        wait_seconds=computer_wait_seconds,
        direct=invitee is not None,
        rated=rated,
    )

    if restriction not in Challenge.Restriction.values:
        raise Invalid(
            "bad_restriction",
            "The restriction is one of: " + ", ".join(Challenge.Restriction.values) + ".",
        )
    if invitee is not None and restriction != Challenge.Restriction.NONE:
        raise Invalid(
            "bad_restriction",
            "A restriction says who may take up an open challenge: a direct challenge names "
            "its player already.",
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
        elif not MIN_RESTRICTION_RATING <= restriction_rating <= MAX_RESTRICTION_RATING:
            raise Invalid(
                "bad_restriction",
                f"A rating bound is {MIN_RESTRICTION_RATING} to {MAX_RESTRICTION_RATING}.",
            )
    else:
        restriction_rating = None

    if expires_in_hours is None:
        lifetime = {Kind.LIVE: EXPIRY_LIVE, Kind.TURN: EXPIRY_TURN}.get(tc.kind, EXPIRY_UNTIMED)
    elif 1 <= expires_in_hours <= MAX_EXPIRY_HOURS:
        lifetime = timedelta(hours=expires_in_hours)
    else:
        raise Invalid("bad_expiry", f"A challenge lasts 1 to {MAX_EXPIRY_HOURS} hours.")

    with transaction.atomic():
        if computer is not None or computer_level is not None:
            _check_computer_games(creator)
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
            **tc.fields(),
            restriction=restriction,
            restriction_rating=restriction_rating,
            message=message,
            expires_at=now + lifetime,
            computer_level=computer_level,
            computer_due_at=None if computer_wait is None else now + computer_wait,
        )
        if multi:
            ChallengeEntry.objects.create(challenge=challenge, user=creator)
        challenge_changed.send(sender=Challenge, challenge=challenge, kind="created")
        if computer is not None:
            # The computer accepts at once; if it cannot, nothing is left behind.
            challenge = challenge_accept(challenge_id=challenge.pk, user=computer, now=now)
        elif computer_wait is not None and not computer_wait:
            challenge_id = challenge.pk
            transaction.on_commit(
                lambda: enqueue(COMPUTER_TAKE_TASK, args=(challenge_id,)), robust=True
            )
    return challenge


def _check_computer_invitation(
    *, level: int | None, wait_seconds: int | None, direct: bool, rated: bool
) -> timedelta | None:
    """The wait before the computer of ``level`` takes an open invitation (None: no computer
    asked for); 400 when the invitation cannot be one."""
    if level is None:
        if wait_seconds is not None:
            raise Invalid("bad_computer_wait", "A computer wait needs a computer_level.")
        return None
    if level not in BOT_LEVELS:
        raise Invalid("bad_computer_level", "A computer level is 1 to 8.")
    if direct:
        raise Invalid(
            "bad_computer_level",
            "A direct challenge names its opponent: computer_level is for open invitations "
            "(to play a computer at once, challenge it directly, e.g. computer5).",
        )
    if rated:
        raise Invalid("computer_unrated", "Games against the computer are unrated.")
    if not bots_list().filter(bot_level=level).exists():
        raise Invalid("no_computer", f"This server has no computer opponent of level {level} yet.")
    if wait_seconds is None:
        wait_seconds = settings.BOT_OPEN_WAIT_SECONDS
    if not 0 <= wait_seconds <= MAX_COMPUTER_WAIT_SECONDS:
        raise Invalid(
            "bad_computer_wait",
            f"The computer waits 0 to {MAX_COMPUTER_WAIT_SECONDS} seconds for a human.",
        )
    return timedelta(seconds=wait_seconds)


def _check_computer_games(creator: User) -> None:
    """409 ``too_many_computer_games`` when ``creator`` already has the most games in progress
    against computers. Locks the creator's row so that two challenges at once count right."""
    User.objects.select_for_update().filter(pk=creator.pk).first()
    limit = bot_max_active_games()
    if bot_games_in_progress(user=creator) >= limit:
        raise Conflict(
            "too_many_computer_games",
            f"You already play {limit} games against the computer: finish one first.",
            extra={"limit": limit},
        )


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
        raise NotFound("unknown_challenge", "There is no challenge with that id.")
    return challenge


def _check_aborts(user: User, *, rated: bool, kind: str, now: datetime) -> None:
    """409 ``too_many_aborts``: the player aborted too many live games lately by not making a
    first move (``abort_limit_until``), so may not make or accept rated live challenges."""
    if not rated or kind != Kind.LIVE:
        return
    until = abort_limit_until(user=user, now=now)
    if until is not None:
        raise Conflict(
            "too_many_aborts",
            "Too many of your live games were aborted lately because you did not make a first "
            f"move: you can play rated live games again from {until.astimezone(UTC):%Y-%m-%d %H:%M} UTC.",
        )


def _check_open(challenge: Challenge, now: datetime) -> None:
    status = challenge.status
    if status == Challenge.Status.ACCEPTED:
        raise Conflict("already_accepted", "This challenge has already been accepted.")
    if status == Challenge.Status.EXPIRED:
        raise Conflict("expired", "This challenge has expired.")
    if status != Challenge.Status.OPEN:
        raise Conflict("not_open", f"This challenge is no longer open: it was {status}.")
    if challenge.expires_at is not None and challenge.expires_at <= now:
        raise _Expired


def _refuse_expired(challenge_id: int) -> DomainError:
    _expire(Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.OPEN))
    return Conflict("expired", "This challenge has expired.")


def _expire(challenges: QuerySet[Challenge]) -> int:
    """Mark ``challenges`` expired (one UPDATE) and tell their players; returns how many."""
    with transaction.atomic():
        expiring = list(
            challenges.select_for_update(of=("self",)).select_related("created_by", "invitee")
        )
        Challenge.objects.filter(pk__in=[c.pk for c in expiring]).update(
            status=Challenge.Status.EXPIRED
        )
        for challenge in expiring:
            challenge.status = Challenge.Status.EXPIRED
            challenge_changed.send(sender=Challenge, challenge=challenge, kind="expired")
    return len(expiring)


def _check_restriction(challenge: Challenge, user: User) -> None:
    """The challenge's rating or rank restriction, and the creator's ignores (an open
    challenge's: a player invited by name may accept whatever the creator ignores)."""
    if challenge.kind == Challenge.Kind.OPEN and ignoring(
        user_id=challenge.created_by_id, other_id=user.pk
    ):
        raise Forbidden(
            "not_accepting", "The player who made this challenge does not take challenges from you."
        )
    failure = restriction_failure(challenge=challenge, user=user)
    if failure:
        raise Forbidden(
            "restriction_not_met",
            failure,
            extra={"restriction": challenge.restriction},
        )


def _start_two_player(challenge: Challenge, acceptor: User, now: datetime) -> None:
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
            time_control=TimeControl.of(challenge),
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
            time_control=TimeControl.of(challenge),
        )


def _start_multi(challenge: Challenge, now: datetime) -> None:
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
        time_control=TimeControl.of(challenge),
    )


def challenge_accept(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    """Take up a challenge. Two-player: the game (or rated set) starts at once. Multi-player:
    the same as joining. Not a guest (403 ``guest_not_allowed``)."""
    refuse_guest(user, what="take up challenges")
    now = now or timezone.now()
    try:
        with transaction.atomic():
            challenge = _lock(challenge_id)
            if challenge.seats > 2:
                return _join_locked(challenge, user, now)
            _check_open(challenge, now)
            if challenge.created_by_id == user.pk:
                raise Invalid("challenge_self", "You cannot accept your own challenge.")
            if challenge.kind == Challenge.Kind.DIRECT and challenge.invitee_id != user.pk:
                raise Forbidden("not_invitee", "Only the invited player can accept this challenge.")
            _check_restriction(challenge, user)
            _check_aborts(user, rated=challenge.rated, kind=challenge.time_control, now=now)
            _start_two_player(challenge, user, now)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.save(update_fields=["status", "game", "game_set"])
            challenge_changed.send(sender=Challenge, challenge=challenge, kind="accepted")
            return challenge
    except _Expired:
        raise _refuse_expired(challenge_id) from None


def challenge_computer_take(*, challenge_id: int, now: datetime | None = None) -> bool:
    """The computer named by an open invitation takes it, when it is still open and its
    ``computer_due_at`` has come: two-player, the game starts; multi-player, computers fill every
    empty seat and the game starts. False when nothing was taken (taken by a human meanwhile,
    not due, expired, or the creator at the limit of games against computers: then no computer
    will take it and it stays open for humans). Safe to run any number of times."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            challenge = (
                Challenge.objects.select_for_update(of=("self",))
                .filter(pk=challenge_id)
                .select_related("created_by")
                .first()
            )
            if (
                challenge is None
                or challenge.status != Challenge.Status.OPEN
                or challenge.computer_level is None
                or challenge.computer_due_at is None
                or challenge.computer_due_at > now
            ):
                return False
            _check_open(challenge, now)
            try:
                _check_computer_games(challenge.created_by)
            except Conflict:
                challenge.computer_due_at = None
                challenge.save(update_fields=["computer_due_at"])
                return False
            computers = _computers_for(challenge)
            if computers is None:
                return False
            if challenge.seats > 2:
                ChallengeEntry.objects.bulk_create(
                    ChallengeEntry(challenge=challenge, user=user) for user in computers
                )
                _start_multi(challenge, now)
            else:
                _start_two_player(challenge, computers[0], now)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.computer_due_at = None
            challenge.save(update_fields=["status", "game", "game_set", "computer_due_at"])
            challenge_changed.send(sender=Challenge, challenge=challenge, kind="accepted")
            return True
    except _Expired:
        _refuse_expired(challenge_id)
        return False


def _computers_for(challenge: Challenge) -> list[User] | None:
    """The computers that take the empty seats of ``challenge``: its level first, then the
    nearest levels (the stronger on a tie); None when there are not enough of them."""
    level = challenge.computer_level
    assert level is not None
    seated = (
        set(challenge.entries.values_list("user_id", flat=True)) if challenge.seats > 2 else set()
    )
    empty = challenge.seats - (len(seated) if challenge.seats > 2 else 1)
    bots = sorted(
        (bot for bot in bots_list() if bot.pk not in seated),
        key=lambda bot: (abs(bot.bot_level - level), -bot.bot_level),
    )
    return bots[:empty] if len(bots) >= empty else None


def challenges_computer_take_due(*, now: datetime | None = None) -> int:
    """Let the computers take every open invitation whose wait is over; returns how many they
    took (beat runs it every ``BOT_OPEN_POLL_SECONDS``)."""
    now = now or timezone.now()
    due = Challenge.objects.filter(
        status=Challenge.Status.OPEN, computer_due_at__lte=now
    ).values_list("pk", flat=True)
    return sum(challenge_computer_take(challenge_id=pk, now=now) for pk in list(due))


def _join_locked(challenge: Challenge, user: User, now: datetime) -> Challenge:
    _check_open(challenge, now)
    if challenge.entries.filter(user=user).exists():
        raise Conflict("already_joined", "You have already joined this challenge.")
    _check_restriction(challenge, user)
    try:
        with transaction.atomic():
            ChallengeEntry.objects.create(challenge=challenge, user=user)
    except IntegrityError:
        raise Conflict("already_joined", "You have already joined this challenge.") from None
    if challenge.entries.count() >= challenge.seats:
        _start_multi(challenge, now)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.save(update_fields=["status", "game"])
        challenge_changed.send(sender=Challenge, challenge=challenge, kind="accepted")
    else:
        challenge_changed.send(sender=Challenge, challenge=challenge, kind="joined")
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
                raise Conflict(
                    "creator_cannot_leave",
                    "The creator cannot leave their own challenge; cancel it instead.",
                )
            deleted, _ = challenge.entries.filter(user=user).delete()
            if not deleted:
                raise Conflict("not_joined", "You have not joined this challenge.")
            challenge_changed.send(sender=Challenge, challenge=challenge, kind="left")
            return challenge
    except _Expired:
        raise _refuse_expired(challenge_id) from None


def challenge_decline(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    return _close(
        challenge_id=challenge_id,
        now=now or timezone.now(),
        status=Challenge.Status.DECLINED,
        allowed=lambda c: c.kind == Challenge.Kind.DIRECT and c.invitee_id == user.pk,
        refusal=Forbidden("not_invitee", "Only the invited player can decline this challenge."),
    )


def challenge_cancel(*, challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    return _close(
        challenge_id=challenge_id,
        now=now or timezone.now(),
        status=Challenge.Status.CANCELLED,
        allowed=lambda c: c.created_by_id == user.pk,
        refusal=Forbidden("not_creator", "Only the creator can cancel this challenge."),
    )


def challenges_between_close(*, user: User, other: User, now: datetime | None = None) -> int:
    """``user`` ignores ``other`` from now on: ``other``'s open direct challenges to ``user`` are
    declined and ``user``'s to ``other`` cancelled. The number closed."""
    now = now or timezone.now()
    closed = 0
    pending = Challenge.objects.filter(
        Q(created_by=other, invitee=user) | Q(created_by=user, invitee=other),
        kind=Challenge.Kind.DIRECT,
        status=Challenge.Status.OPEN,
    ).values_list("pk", "created_by_id")
    for challenge_id, creator_id in list(pending):
        close = challenge_cancel if creator_id == user.pk else challenge_decline
        try:
            close(challenge_id=challenge_id, user=user, now=now)
        except DomainError:  # accepted, expired or closed meanwhile
            continue
        closed += 1
    return closed


def _close(
    *,
    challenge_id: int,
    now: datetime,
    status: str,
    allowed: Callable[[Challenge], bool],
    refusal: DomainError,
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
            challenge_changed.send(sender=Challenge, challenge=challenge, kind=status)
            return challenge
    except _Expired:
        raise _refuse_expired(challenge_id) from None


def challenges_of_deactivated_close(*, user: User) -> int:
    """A deactivated (banned) account's open challenges are cancelled, the direct challenges
    to it declined, and it leaves the multi-player challenges it joined: nobody can take up a
    game it will never play. Returns how many challenges were closed. Safe to run again."""
    with transaction.atomic():
        closing = list(
            Challenge.objects.select_for_update(of=("self",))
            .filter(Q(created_by=user) | Q(kind=Challenge.Kind.DIRECT, invitee=user))
            .filter(status=Challenge.Status.OPEN)
            .select_related("created_by", "invitee")
            .order_by("id")
        )
        for challenge in closing:
            mine = challenge.created_by_id == user.pk
            challenge.status = Challenge.Status.CANCELLED if mine else Challenge.Status.DECLINED
            challenge.save(update_fields=["status"])
            challenge_changed.send(sender=Challenge, challenge=challenge, kind=challenge.status)
        ChallengeEntry.objects.filter(user=user, challenge__status=Challenge.Status.OPEN).delete()
    return len(closing)


def on_user_saved(sender, instance: User, created: bool, update_fields=None, **kwargs) -> None:
    """``post_save`` receiver of ``User``: an account deactivated closes its challenges."""
    if deactivated_by_save(instance, created=created, update_fields=update_fields):
        challenges_of_deactivated_close(user=instance)


def challenges_expire_due(*, now: datetime | None = None) -> int:
    """Mark every open challenge whose time is up as expired; returns how many."""
    now = now or timezone.now()
    return _expire(Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now))
