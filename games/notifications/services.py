"""E-mail notifications: a player's turn in turn-based games, a direct challenge, the end of a
turn-based game.

Who gets which, how a turn is told once (claimed by a DELETE, sent on commit) and the links
that turn a kind off: docs/accounts.md, "E-mail notifications". ``connect`` wires the receivers.
"""

from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts import links
from accounts.mail import email_later
from accounts.models import User
from games.challenges.models import Challenge
from games.challenges.signals import challenge_changed
from games.clocks.timecontrol import Kind, TimeControl
from games.engine import Termination
from games.notifications.models import TurnNotice
from games.play.models import Game, Seat
from games.play.selectors import seats_with_users
from games.play.signals import game_finished
from pente_site.counters import count_requests
from pente_site.errors import Invalid
from pente_site.jobs import enqueue
from pente_site.public import current_site_url, site_name

log = logging.getLogger(__name__)

#: The job that tells a player of their turns (``games.notifications.tasks``).
TURN_EMAILS_TASK = "games.accounts.turn_emails_send"
#: Its sweeper (beat).
TURN_EMAILS_SWEEP_TASK = "games.accounts.turn_emails_sweep"

#: What each kind of e-mail tells, for the settings, the page of a link that turns one off,
#: and the messages' last lines.
EMAIL_KIND_WORDS = {
    "turn": "when it is your turn in a turn-based game",
    "challenge": "when someone challenges you",
    "game_over": "when a turn-based game of yours ends",
}

#: How each ending is said after "X won".
_WON_HOW = {
    Termination.FIVE: "with five in a row",
    Termination.SIX: "with six in a row",
    Termination.CAPTURES: "by captures",
    Termination.SCORE: "on the count",
    Termination.RESIGN: "by resignation",
    Termination.TIMEOUT: "on time",
    Termination.FORFEIT: "by forfeit",
}


def connect() -> None:
    """Receive the signals that lead to e-mails (``GamesConfig.ready``)."""
    uid = "games.notifications.services"
    challenge_changed.connect(on_challenge_changed, dispatch_uid=f"{uid}.challenge")
    game_finished.connect(on_game_finished, dispatch_uid=f"{uid}.game_over")


def wants_email(user: User | None, kind: str) -> bool:
    """Whether ``user`` gets ``kind`` of e-mail (``links.EMAIL_KINDS``): a person's active
    account with a confirmed address that has not turned that kind off."""
    return bool(
        user is not None
        and user.is_active
        and user.deleted_at is None
        and user.bot_level is None
        and user.email
        and user.email_verified
        and getattr(user, links.EMAIL_KINDS[kind])
    )


def _zone(user: User) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _when(moment: datetime | None, user: User) -> str:
    """``moment`` in ``user``'s time zone, named: "Tuesday 4 March 2031, 18:00 (Europe/Paris)"."""
    if moment is None:
        return ""
    zone = _zone(user)
    local = moment.astimezone(zone)
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M} ({zone.key})"


def _names(names: Sequence[str]) -> str:
    """ "bob", "bob and carol", "bob, carol and dave"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _sides(game: Game, seats: Sequence[Seat], seat: int) -> str:
    """Who ``seat`` plays with and against: "against bob", "with carol against bob and dave"."""
    if game.partners:
        partners = [s.name for s in seats if s.seat != seat and s.seat % 2 == seat % 2]
        others = [s.name for s in seats if s.seat % 2 != seat % 2]
        return f"with {_names(partners)} against {_names(others)}"
    return f"against {_names([s.name for s in seats if s.seat != seat])}"


def _send(*, user: User, kind: str, message: str, site_url: str, context: dict[str, Any]) -> None:
    """Queue the message ``accounts/<message>_subject.txt`` / ``_email.txt`` to ``user`` once
    the transaction commits, ending with the link that turns ``kind`` off (also its
    ``List-Unsubscribe`` header, one click: RFC 8058) and the settings' address."""
    token = links.unsubscribe_token(user=user, kind=kind)
    unsubscribe = site_url + reverse("web:unsubscribe", kwargs={"token": token})
    context = {
        **context,
        "user": user,
        "site_url": site_url,
        "site_name": site_name(site_url),
        "why": EMAIL_KIND_WORDS[kind],
        "unsubscribe_url": unsubscribe,
        "settings_url": site_url + reverse("web:settings"),
    }
    subject = render_to_string(f"accounts/{message}_subject.txt", context)
    email_later(
        subject=" ".join(subject.split()),
        body=render_to_string(f"accounts/{message}_email.txt", context),
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def _game_url(site_url: str, game_id: int) -> str:
    return site_url + reverse("web:game", args=[game_id])


# --- Your turn ---------------------------------------------------------------------------------


def keep_turn_notice(*, game: Game, seat: int) -> TurnNotice | None:
    """In the transaction of the action that gave ``seat`` its turn (``games.play.events``): in a
    turn-based game, the turn of a player who wants to be told of it becomes the game's
    ``TurnNotice`` (replacing the one of an earlier turn), returned for ``send_turn_notice`` once
    the transaction commits, due ``TURN_EMAIL_WAIT_SECONDS`` after the turn started. None: no
    one to tell."""
    if game.time_control != Kind.TURN:
        return None
    player = next((s.user for s in seats_with_users(game) if s.seat == seat), None)
    if player is None or not wants_email(player, "turn"):
        return None
    started = game.turn_started_at or timezone.now()
    due = started + timedelta(seconds=settings.TURN_EMAIL_WAIT_SECONDS)
    notice = TurnNotice(
        game=game,
        ply=game.ply,
        seat=seat,
        user=player,
        due_at=due,
        site_url=current_site_url() or "",
    )
    TurnNotice.objects.bulk_create(
        [notice],
        update_conflicts=True,
        unique_fields=["game"],
        update_fields=["ply", "seat", "user", "due_at", "site_url"],
    )
    return notice


def send_turn_notice(notice: TurnNotice) -> None:
    """Once ``notice`` is committed: the job that tells its player, due when it is (the sweeper
    ``turn_emails_sweep`` runs it again when it was lost)."""
    enqueue(TURN_EMAILS_TASK, args=(notice.user_id,), eta=notice.due_at)


@dataclass(frozen=True)
class WaitingGame:
    """A game of a turn message: its id, game, players, deadline (in the player's time zone)
    and page."""

    id: int
    variant: str
    sides: str
    deadline: str
    url: str


def _claim(notice: TurnNotice) -> bool:
    """Take ``notice`` off the turns to tell (when it is still that turn's): True for the one
    job that did."""
    deleted, _ = TurnNotice.objects.filter(
        game_id=notice.game_id, ply=notice.ply, user_id=notice.user_id
    ).delete()
    return deleted == 1


def turn_emails_send(*, user_id: int, now: datetime | None = None) -> int:
    """Tell player ``user_id``, in one message, of every turn of theirs still untold, once one
    of them is due; returns how many turns the message told (0: none due yet, or none left to
    tell). A turn played meanwhile is dropped untold, and so is every turn of a player who no
    longer wants these e-mails (or when no link can be made: ``PUBLIC_URL`` unset and no
    request behind the turns). Safe to run again, and concurrently: see the module's note."""
    now = now or timezone.now()
    with transaction.atomic():
        notices = list(
            TurnNotice.objects.filter(user_id=user_id).select_related("game", "user").order_by("pk")
        )
        if not any(n.due_at <= now for n in notices):
            return 0
        user = notices[0].user
        newest_first = sorted(notices, key=lambda n: n.due_at, reverse=True)
        site_url = settings.PUBLIC_URL or next((n.site_url for n in newest_first if n.site_url), "")
        if not site_url:
            log.warning("turn e-mail to user %s not sent: PUBLIC_URL is not set", user_id)
        waiting = [
            n for n in notices if n.game.status == Game.Status.IN_PROGRESS and n.game.ply == n.ply
        ]
        if not (site_url and wants_email(user, "turn")):
            waiting = []
        for notice in notices:
            if notice not in waiting:
                _claim(notice)  # dropped untold
        told = [n for n in waiting if _claim(n)]
        if told:
            _send(
                user=user,
                kind="turn",
                message="turn",
                site_url=site_url,
                context={"games": _waiting_games(user, told, site_url)},
            )
    return len(told)


def _waiting_games(user: User, notices: list[TurnNotice], site_url: str) -> list[WaitingGame]:
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=[n.game_id for n in notices]).order_by("seat"):
        seats.setdefault(seat.game_id, []).append(seat)
    games = sorted((n.game for n in notices), key=lambda g: (g.deadline is None, g.deadline, g.pk))
    mine = {n.game_id: n.seat for n in notices}
    return [
        WaitingGame(
            id=game.pk,
            variant=game.variant,
            sides=_sides(game, seats.get(game.pk, []), mine[game.pk]),
            deadline=_when(game.deadline, user),
            url=_game_url(site_url, game.pk),
        )
        for game in games
    ]


def turn_emails_sweep(*, now: datetime | None = None) -> int:
    """Enqueue the job again for every player with a turn untold ``TURN_EMAIL_STALE_SECONDS``
    after its job was due (a lost job); returns how many jobs. The job claims each turn, so a
    job that was merely late tells nothing twice."""
    now = now or timezone.now()
    overdue = now - timedelta(seconds=settings.TURN_EMAIL_STALE_SECONDS)
    players = (
        TurnNotice.objects.filter(due_at__lte=overdue)
        .order_by("user_id")
        .values_list("user_id", flat=True)
        .distinct()
    )
    count = 0
    for user_id in players:
        enqueue(TURN_EMAILS_TASK, args=(user_id,))
        count += 1
    return count


# --- A direct challenge, a game over -----------------------------------------------------------


def on_challenge_changed(sender, challenge: Challenge, kind: str, **kwargs) -> None:
    """``challenge_changed`` receiver (inside the transaction): a direct challenge made is
    e-mailed to the player challenged, if they want it."""
    if kind != "created" or challenge.kind != Challenge.Kind.DIRECT:
        return
    invitee = challenge.invitee
    if not wants_email(invitee, "challenge") or not _challenge_email_allowed(challenge):
        return
    site_url = current_site_url()
    if site_url is None:
        log.warning("challenge e-mail to user %s not sent: PUBLIC_URL is not set", invitee.pk)
        return
    context = {
        "challenger": challenge.created_by.username,
        "variant": challenge.variant,
        "rated": challenge.rated,
        "time_control": str(TimeControl.of(challenge)),
        "message": challenge.message,
        "expires": _when(challenge.expires_at, invitee),
        "home_url": site_url + reverse("web:home"),
    }
    _send(user=invitee, kind="challenge", message="challenge", site_url=site_url, context=context)


def _challenge_email_allowed(challenge: Challenge) -> bool:
    """Whether the invitee may get one more challenge e-mail: at most
    ``CHALLENGE_EMAILS_PER_CHALLENGER`` an hour from one challenger and
    ``CHALLENGE_EMAILS_PER_HOUR`` from everyone (counted together, atomically), so that nobody
    can flood a player's mailbox with challenges."""
    invitee, sender = challenge.invitee_id, challenge.created_by_id
    per_sender = f"{settings.CHALLENGE_EMAILS_PER_CHALLENGER}/hour"
    per_invitee = f"{settings.CHALLENGE_EMAILS_PER_HOUR}/hour"
    counted = count_requests(
        [
            ("challenge_email_pair", f"{sender}>{invitee}", per_sender),
            ("challenge_email", str(invitee), per_invitee),
        ]
    )
    return all(allowed for allowed, *_rest in counted)


def _result(game: Game, seats: Sequence[Seat], seat: int) -> str:
    """How the game ended, said to the player of ``seat``."""
    if game.status == Game.Status.CANCELLED:
        return "The game was cancelled."
    if not game.winner_seats and game.end_reason == Termination.FORFEIT:
        return "Nobody won: both sides forfeited."
    if not game.winner_seats:
        full = game.end_reason == Termination.DRAW
        return "The game is a draw: the board is full." if full else "The game is a draw."
    if seat in game.winner_seats:
        winners = "You"
    else:
        winners = _names([s.name for s in seats if s.seat in game.winner_seats])
    how = _WON_HOW.get(game.end_reason)
    return f"{winners} won {how}." if how else f"{winners} won."


def on_game_finished(sender, game: Game, seats: list[Seat] | None = None, **kwargs) -> None:
    """``game_finished`` receiver (inside the transaction): the end of a turn-based game is
    e-mailed to each of its players who want it."""
    if game.time_control != Kind.TURN or game.imported:
        return
    seats = seats if seats is not None else seats_with_users(game)
    players = [s for s in seats if wants_email(s.user, "game_over")]
    if not players:
        return
    site_url = current_site_url()
    if site_url is None:
        log.warning("game-over e-mails of game %s not sent: PUBLIC_URL is not set", game.pk)
        return
    for seat in players:
        context = {
            "game": game,
            "sides": _sides(game, seats, seat.seat),
            "result": _result(game, seats, seat.seat),
            "game_url": _game_url(site_url, game.pk),
        }
        _send(
            user=seat.user,
            kind="game_over",
            message="game_over",
            site_url=site_url,
            context=context,
        )


# --- Turning one kind off by its link ----------------------------------------------------------


def email_unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the kind of e-mail a link in one was made for (``links.unsubscribe_token``),
    without signing in; returns the account and the kind. 400 ``bad_unsubscribe_link`` for a
    token not made here (or cut short), or an account gone. Turning it off again changes
    nothing."""
    found = links.unsubscribe_user(token=token)
    if found is None:
        raise Invalid(
            "bad_unsubscribe_link",
            "This link does not work: it was not made here, or was copied in part. Choose your "
            "e-mails in your settings.",
        )
    user, kind = found
    field = links.EMAIL_KINDS[kind]
    User.objects.filter(pk=user.pk).update(**{field: False})
    setattr(user, field, False)
    return user, kind
