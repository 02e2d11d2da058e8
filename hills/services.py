"""Writes of the hills: opening a hill, joining and leaving it, challenging a member, and the
rules that move members between steps (a hill set's result, a declined challenge, inactivity).

Every change to a hill's steps locks the hill's row, then its members in id order, so the
changes of one hill apply one after the other (two sets ending at once for the same player
both count, in order); a set's result is applied once (``HillMatch.applied_at``), in the
transaction that finishes the set, after its rating change (``set_finished``). The steps stay
compact (no empty step) and the king is the member alone on the top step above others.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.guests import refuse_guest
from accounts.models import User, deactivated_by_save
from games.challenges.models import Challenge
from games.challenges.services import challenge_create
from games.clocks.timecontrol import Kind, TimeControl
from games.play.models import GameSet
from hills.models import Hill, HillEvent, HillMatch, HillMember
from hills.selectors import (
    GOING,
    active_matches_of,
    hill_of_slug,
    idle_since,
)
from live.bus import publish
from live.channels import room_channel
from live.models import Room
from pente_site.errors import Conflict, Forbidden, Invalid, NotFound

HILL_CHANGED = "hill_changed"


@dataclass
class _Locked:
    """A hill locked for a change: its members (by user id) and their steps when locked."""

    hill: Hill
    members: dict[int, HillMember]
    steps_before: dict[int, int]
    king_before: int | None
    events: list[HillEvent]
    now: datetime

    def add(self, kind: str, user_id: int, before: int | None, after: int | None, **extra) -> None:
        self.events.append(
            HillEvent(
                hill=self.hill,
                user_id=user_id,
                kind=kind,
                step_before=before,
                step_after=after,
                created_at=self.now,
                **extra,
            )
        )


def hill_open(*, slug: str) -> Hill:
    """The hill named ``slug`` (``pente-turn``), opened with its room on first use."""
    variant, kind = hill_of_slug(slug)
    hill = Hill.objects.filter(variant=variant, kind=kind).first()
    if hill is None:
        try:
            with transaction.atomic():
                hill = Hill.objects.create(variant=variant, kind=kind)
        except IntegrityError:  # opened meanwhile
            hill = Hill.objects.get(variant=variant, kind=kind)
    title = f"King of the Hill: {variant} ({'turn-based' if kind == Hill.Kind.TURN else 'live'})"
    Room.objects.get_or_create(name=hill.room_name, defaults={"title": title})
    return hill


def _lock(hill_id: int, now: datetime) -> _Locked:
    hill = Hill.objects.select_for_update().get(pk=hill_id)
    members = {
        m.user_id: m
        for m in HillMember.objects.select_for_update().filter(hill_id=hill_id).order_by("id")
    }
    return _Locked(
        hill=hill,
        members=members,
        steps_before={user_id: m.step for user_id, m in members.items()},
        king_before=hill.king_id,
        events=[],
        now=now,
    )


def _king_of(members: Iterable[HillMember]) -> int | None:
    """The member alone on the top step, when there is a step below it."""
    members = list(members)
    if not members:
        return None
    top = max(m.step for m in members)
    on_top = [m for m in members if m.step == top]
    return on_top[0].user_id if top > 1 and len(on_top) == 1 else None


def _settle(locked: _Locked, reason: str) -> None:
    """Remove the empty steps, crown the new king, write what changed and tell the hill's room
    once the transaction commits."""
    members = locked.members
    used = sorted({m.step for m in members.values()})
    compact = {step: i + 1 for i, step in enumerate(used)}
    changed = []
    for user_id, member in members.items():
        member.step = compact[member.step]
        if member.step != locked.steps_before.get(user_id):
            changed.append(member)
    for event in locked.events:  # the steps after, once compacted
        member = members.get(event.user_id)
        if event.step_after is not None and member is not None:
            event.step_after = member.step
    king = _king_of(members.values())
    hill = locked.hill
    if king != locked.king_before:
        hill.king_id = king
        hill.save(update_fields=["king"])
        if king is not None:
            step = members[king].step
            locked.add(HillEvent.Kind.CROWNED, king, step, step)
    if changed:
        HillMember.objects.bulk_update(changed, ["step"])
    HillEvent.objects.bulk_create(locked.events)
    publish(
        channel=room_channel(hill.room_name),
        kind=HILL_CHANGED,
        data={"hill": hill.slug, "reason": reason},
    )


def _member_or_refuse(locked: _Locked, user: User, *, code: str = "not_member") -> HillMember:
    member = locked.members.get(user.pk)
    if member is None:
        raise NotFound(code, f"{user.username} is not on the {locked.hill.slug} hill.")
    return member


def hill_join(*, user: User, slug: str, now: datetime | None = None) -> HillMember:
    """``user`` joins the hill on its bottom step (409 ``already_member``)."""
    refuse_guest(user, what="join a hill")
    if user.is_computer:
        raise Forbidden("computer_not_allowed", "The computers play no rated sets.")
    now = now or timezone.now()
    hill = hill_open(slug=slug)
    with transaction.atomic():
        locked = _lock(hill.pk, now)
        if user.pk in locked.members:
            raise Conflict("already_member", f"You are already on the {hill.slug} hill.")
        member = HillMember.objects.create(
            hill=hill, user=user, step=1, joined_at=now, active_at=now
        )
        locked.members[user.pk] = member
        locked.steps_before[user.pk] = 1
        locked.add(HillEvent.Kind.JOINED, user.pk, None, 1)
        _settle(locked, "joined")
    return member


def hill_leave(*, user: User, slug: str, now: datetime | None = None) -> None:
    """``user`` leaves the hill (404 ``not_member``). Their hill sets still count for the
    other player when they end."""
    now = now or timezone.now()
    variant, kind = hill_of_slug(slug)
    hill = Hill.objects.filter(variant=variant, kind=kind).first()
    if hill is None:
        raise NotFound("not_member", f"{user.username} is not on the {slug} hill.")
    with transaction.atomic():
        locked = _lock(hill.pk, now)
        member = _member_or_refuse(locked, user)
        member.delete()
        del locked.members[user.pk]
        locked.add(HillEvent.Kind.LEFT, user.pk, member.step, None)
        _settle(locked, "left")


def hills_of_deactivated_leave(*, user: User, now: datetime | None = None) -> int:
    """A deactivated (banned or deleted) account leaves every hill it is on: nobody can win a
    step from a player who will never play. Returns how many hills it left."""
    now = now or timezone.now()
    left = 0
    for hill_id in HillMember.objects.filter(user=user).values_list("hill_id", flat=True):
        with transaction.atomic():
            locked = _lock(hill_id, now)
            member = locked.members.pop(user.pk, None)
            if member is None:  # left meanwhile
                continue
            member.delete()
            locked.add(HillEvent.Kind.LEFT, user.pk, member.step, None)
            _settle(locked, "left")
            left += 1
    return left


def on_user_saved(sender, instance: User, created: bool, update_fields=None, **kwargs) -> None:
    """``post_save`` receiver of ``User``: an account deactivated leaves its hills."""
    if deactivated_by_save(instance, created=created, update_fields=update_fields):
        hills_of_deactivated_leave(user=instance)


def hill_challenge(
    *,
    user: User,
    slug: str,
    opponent: str,
    time_control: TimeControl,
    message: str = "",
    now: datetime | None = None,
) -> HillMatch:
    """``user`` challenges the member ``opponent`` to a rated set of the hill's game: both on
    the hill, ``opponent`` at most ``HILL_REACH_STEPS`` steps above, the time control of the
    hill's kind, and on a turn-based hill neither with ``HILL_MAX_TURN_SETS`` hill sets (or
    challenges) going already."""
    now = now or timezone.now()
    variant, kind = hill_of_slug(slug)
    hill = Hill.objects.filter(variant=variant, kind=kind).first()
    if hill is None:
        raise NotFound("not_member", f"{user.username} is not on the {slug} hill.")
    wanted = Kind.TURN if kind == Hill.Kind.TURN else Kind.LIVE
    if time_control.kind is not wanted:
        raise Invalid(
            "hill_time_control",
            f"The sets of this hill are {'turn-based' if wanted is Kind.TURN else 'live'}.",
        )
    with transaction.atomic():
        locked = _lock(hill.pk, now)
        mine = _member_or_refuse(locked, user)
        other = User.objects.filter(username__iexact=opponent).first()
        theirs = locked.members.get(other.pk) if other is not None else None
        if theirs is None:
            raise NotFound("not_member", f"{opponent[:150]} is not on the {hill.slug} hill.")
        if theirs.user_id == user.pk:
            raise Invalid("challenge_self", "You cannot challenge yourself.")
        reach = settings.HILL_REACH_STEPS
        if theirs.step > mine.step + reach:
            raise Forbidden(
                "out_of_reach",
                f"You may challenge players up to {reach} steps above yours.",
                extra={"reach_steps": reach},
            )
        if kind == Hill.Kind.TURN:
            most = settings.HILL_MAX_TURN_SETS
            going = active_matches_of(hill=hill, user_ids=[user.pk, theirs.user_id])
            for user_id, count in going.items():
                if count >= most:
                    who = "You have" if user_id == user.pk else f"{other.username} has"
                    raise Conflict(
                        "too_many_hill_sets",
                        f"{who} {count} hill sets going: at most {most} at once.",
                        extra={"max_sets": most},
                    )
        challenge = challenge_create(
            creator=user,
            variant=hill.variant,
            invitee_username=other.username,
            rated=True,
            time_control=time_control,
            message=message,
            now=now,
        )
        match = HillMatch.objects.create(
            hill=hill, challenge=challenge, challenger=user, challenged=other
        )
        publish(
            channel=room_channel(hill.room_name),
            kind=HILL_CHANGED,
            data={"hill": hill.slug, "reason": "challenge"},
        )
    return match


def _touch(locked: _Locked, user_ids: Iterable[int]) -> None:
    """The members among ``user_ids`` played now (one UPDATE)."""
    touched = [locked.members[u] for u in user_ids if u in locked.members]
    for member in touched:
        member.active_at = locked.now
    if touched:
        HillMember.objects.filter(pk__in=[m.pk for m in touched]).update(active_at=locked.now)


def hill_apply_set(*, match_id: int, game_set: GameSet, now: datetime | None = None) -> bool:
    """Move the players of a finished hill set, once: the winner up a step, the loser down one
    (not below the bottom); a draw moves nobody. A player who left the hill meanwhile is not
    moved, the other still is. True when this call applied it."""
    now = now or timezone.now()
    with transaction.atomic():
        hill_id = HillMatch.objects.values_list("hill_id", flat=True).get(pk=match_id)
        locked = _lock(hill_id, now)
        match = HillMatch.objects.select_for_update().get(pk=match_id)
        if match.applied_at is not None:
            return False
        players = (game_set.player1_id, game_set.player2_id)
        match.status = HillMatch.Status.FINISHED
        match.applied_at = now
        match.game_set_id = game_set.pk
        match.save(update_fields=["status", "applied_at", "game_set"])
        _touch(locked, players)
        winner_id = game_set.winner_id
        if winner_id is None:  # a draw
            return True
        loser_id = players[1] if winner_id == players[0] else players[0]
        winner = locked.members.get(winner_id)
        if winner is not None:
            winner.step += 1
            locked.add(
                HillEvent.Kind.UP,
                winner_id,
                winner.step - 1,
                winner.step,
                game_set=game_set,
                opponent_id=loser_id,
            )
        loser = locked.members.get(loser_id)
        if loser is not None:
            before = loser.step
            loser.step = max(1, loser.step - 1)
            locked.add(
                HillEvent.Kind.DOWN,
                loser_id,
                before,
                loser.step,
                game_set=game_set,
                opponent_id=winner_id,
            )
        _settle(locked, "set")
    return True


def on_set_finished(sender, game_set: GameSet, **kwargs) -> None:
    """``games.play.signals.set_finished`` receiver, in the finishing transaction."""
    if not game_set.rated:
        return
    match_id = (
        HillMatch.objects.filter(game_set_id=game_set.pk, applied_at__isnull=True)
        .values_list("pk", flat=True)
        .first()
    )
    if match_id is not None:
        hill_apply_set(match_id=match_id, game_set=game_set)


def on_challenge_changed(sender, challenge: Challenge, kind: str, **kwargs) -> None:
    """``games.challenges.signals.challenge_changed`` receiver, in the challenge's transaction:
    a hill challenge accepted starts its set; declined, cancelled or expired, it is closed, and
    declining one of a long turn-based timeout costs the invitee a step."""
    if kind == "created":
        return
    match = (
        HillMatch.objects.filter(challenge_id=challenge.pk, status=HillMatch.Status.OPEN)
        .values_list("pk", "hill_id")
        .first()
    )
    if match is None:
        return
    match_id, hill_id = match
    now = timezone.now()
    locked = _lock(hill_id, now)
    if kind == "accepted":
        HillMatch.objects.filter(pk=match_id).update(
            status=HillMatch.Status.PLAYING, game_set=challenge.game_set_id
        )
        _touch(locked, (challenge.created_by_id, challenge.invitee_id))
        _settle(locked, "set_started")
        return
    HillMatch.objects.filter(pk=match_id).update(status=HillMatch.Status.CLOSED)
    penalty = (
        kind == Challenge.Status.DECLINED
        and challenge.time_control == Kind.TURN
        and challenge.days_per_move >= settings.HILL_DECLINE_PENALTY_DAYS
    )
    member = locked.members.get(challenge.invitee_id) if penalty else None
    if member is not None and member.step > 1:
        member.step -= 1
        locked.add(
            HillEvent.Kind.DECLINED,
            member.user_id,
            member.step + 1,
            member.step,
            opponent_id=challenge.created_by_id,
        )
    _settle(locked, "challenge_closed")


def hills_sweep_idle(*, now: datetime | None = None) -> int:
    """Remove the members who played no hill set for ``HILL_IDLE_DAYS_LIVE`` (live hills) or
    ``HILL_IDLE_DAYS_TURN`` days (turn-based) and have none going. Idempotent; returns how many
    were removed."""
    now = now or timezone.now()
    removed = 0
    for hill in Hill.objects.order_by("id"):
        since = idle_since(kind=hill.kind, now=now)
        if not HillMember.objects.filter(hill=hill, active_at__lt=since).exists():
            continue
        with transaction.atomic():
            locked = _lock(hill.pk, now)
            busy = set()
            for row in HillMatch.objects.filter(GOING, hill=hill).values_list(
                "challenger_id", "challenged_id"
            ):
                busy.update(row)
            idle = [
                m for m in locked.members.values() if m.active_at < since and m.user_id not in busy
            ]
            if not idle:
                continue
            HillMember.objects.filter(pk__in=[m.pk for m in idle]).delete()
            for member in idle:
                del locked.members[member.user_id]
                locked.add(HillEvent.Kind.IDLE, member.user_id, member.step, None)
            _settle(locked, "idle")
            removed += len(idle)
    return removed
