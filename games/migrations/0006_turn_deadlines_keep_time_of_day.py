"""Turn-based deadlines under the rule book's new rule (data only).

Deadlines used to be the local midnight that ends the N-th working day of the player to move;
they now keep the local time of day the turn started at (``games.clocks.rules.turn_deadline``).
Every in-progress turn-based game whose deadline is still the one the old rule gave for its
``turn_started_at`` and the player to move (no vacation has moved it) gets the new rule's
deadline. The new deadline is never earlier than the old one (it is the same moment or later
on the same landing day), so nobody becomes late. Games the migration cannot decide about (no
start, moves the engine cannot replay, nobody to move, a deadline that does not match the old
rule) are left unchanged. Reversing does nothing: the old deadlines are not restored.

The old rule is frozen below, so this keeps working whatever the rule's code becomes. The new
one is the rule's own pure function (no Django in it): a copy would be a second place to keep in
step with the rule book, and the point of the migration is to put games on the current rule.
A timeout task already queued for an old deadline fires early and does nothing; the sweeper
queues the later deadline when it comes near.
"""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import migrations

from games import engine
from games.clocks.rules import turn_deadline


def old_rule_deadline(start, days, time_zone, weekend_days):
    """The deadline the rule before this migration gave (a frozen copy of it, in UTC).

    Days count working days of the zone (its weekend days never count): the day the turn
    starts, or the first working day after a weekend start, is the first; the deadline is the
    midnight ending the ``days``-th, moved to the end of a weekend that it would start."""
    try:
        tz = ZoneInfo(time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    weekend = {int(d) for d in (weekend_days or ()) if 0 <= int(d) <= 6}
    if len(weekend) == 7:  # no working day at all: the weekend was ignored
        weekend = set()
    one_day = timedelta(days=1)
    day = start.astimezone(tz).date()
    counted = 0
    while True:
        if day.weekday() not in weekend:
            counted += 1
        if counted == days:
            break
        day += one_day
    day += one_day
    while day.weekday() in weekend:
        day += one_day
    return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)


def seat_to_move(game, moves):
    """The seat to move after ``moves`` (kind, point, choice), from a replay by the engine."""
    actions = [point if kind == "stone" else choice for kind, point, choice in moves]
    position = engine.Game.replay(
        game.variant,
        actions,
        seats=game.seats,
        partners=game.partners,
        tournament_rule=game.tournament_rule,
        rated=game.rated,
        adjacent_only=game.adjacent_only,
    )
    return position.to_move_seat


def new_deadline(game, moves, users_by_seat, user_zones):
    """The new rule's deadline for ``game``, or None to leave the game unchanged."""
    try:
        seat = seat_to_move(game, moves)
    except (engine.EngineError, ValueError, TypeError, KeyError, IndexError):
        return None  # moves the engine cannot replay (today): not decided
    if seat is None or seat not in users_by_seat:
        return None
    # A seat whose user was deleted: the clock services use UTC and no weekend, likewise here.
    time_zone, weekend_days = user_zones.get(users_by_seat[seat], (None, None))
    days, start = game.days_per_move, game.turn_started_at
    try:
        if game.deadline != old_rule_deadline(start, days, time_zone, weekend_days):
            return None  # vacation (or anything else) moved it: keep it
        new = turn_deadline(start=start, days=days, time_zone=time_zone, weekend_days=weekend_days)
    except (ValueError, TypeError):  # weekend days that are not numbers
        return None
    return new if new > game.deadline else None


def recompute_turn_deadlines(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    Seat = apps.get_model("games", "Seat")
    User = apps.get_model("games", "User")
    games = Game.objects.filter(
        status="in_progress",
        time_control="turn",
        days_per_move__gte=1,
        deadline__isnull=False,
        turn_started_at__isnull=False,
    ).order_by("pk")
    user_zones = {}
    now = datetime.now(UTC)
    for game in games.iterator():
        moves = list(
            Move.objects.filter(game_id=game.pk)
            .order_by("ply")
            .values_list("kind", "point", "choice")
        )
        users_by_seat = dict(Seat.objects.filter(game_id=game.pk).values_list("seat", "user_id"))
        missing = {u for u in users_by_seat.values() if u is not None} - user_zones.keys()
        for pk, time_zone, weekend_days in User.objects.filter(pk__in=missing).values_list(
            "pk", "time_zone", "weekend_days"
        ):
            user_zones[pk] = (time_zone, weekend_days)
        new = new_deadline(game, moves, users_by_seat, user_zones)
        if new is not None:
            Game.objects.filter(pk=game.pk, deadline=game.deadline).update(
                deadline=new, updated_at=now
            )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_status_archived"),
    ]

    operations = [
        migrations.RunPython(recompute_turn_deadlines, migrations.RunPython.noop, elidable=True),
    ]
