"""Data migrations of the games app, run forwards (and back) on a real schema."""

from __future__ import annotations

import importlib
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.records.imports import games_import
from tests.explorer.support import record
from tests.migrations import migrate_to, migrate_to_latest

BEFORE = [("games", "0004_constraints")]
AFTER = [("games", "0005_game_status_archived")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_imported_games_become_archived_and_keep_their_outcome(at_latest_afterwards):
    old = migrate_to(BEFORE)
    Game = old.get_model("games", "Game")
    finished = Game.objects.create(
        variant="Pente", imported=True, status="finished", end_reason="five", winner_seats=[1]
    )
    unfinished = Game.objects.create(variant="Pente", imported=True, status="in_progress")
    played = Game.objects.create(variant="Pente", status="in_progress")

    new = migrate_to(AFTER)
    Game = new.get_model("games", "Game")
    assert Game.objects.get(pk=finished.pk).status == "archived"
    assert Game.objects.get(pk=finished.pk).end_reason == "five"
    assert Game.objects.get(pk=unfinished.pk).status == "archived"
    assert Game.objects.get(pk=unfinished.pk).end_reason == ""
    assert Game.objects.get(pk=played.pk).status == "in_progress"

    old = migrate_to(BEFORE)
    Game = old.get_model("games", "Game")
    assert Game.objects.get(pk=finished.pk).status == "finished"
    assert Game.objects.get(pk=unfinished.pk).status == "in_progress"


# --- 0006: turn-based deadlines keep the local time of day --------------------------------

DEADLINES_BEFORE = [("games", "0005_game_status_archived")]
DEADLINES_AFTER = [("games", "0006_turn_deadlines_keep_time_of_day")]
deadlines_migration = importlib.import_module(
    "games.migrations.0006_turn_deadlines_keep_time_of_day"
)
KABUL, TOKYO = ZoneInfo("Asia/Kabul"), ZoneInfo("Asia/Tokyo")


@pytest.mark.parametrize(
    ("start", "days", "zone", "weekend", "deadline"),
    [
        # The old rule's own examples (2025-01-02 is a Thursday): midnights ending working days.
        (datetime(2025, 1, 2, 10, 30, tzinfo=UTC), 3, "UTC", [5, 6], datetime(2025, 1, 7)),
        (datetime(2025, 1, 3, 23, 30, tzinfo=UTC), 1, "UTC", [5, 6], datetime(2025, 1, 6)),
        (datetime(2025, 1, 4, 15, 0, tzinfo=UTC), 1, "UTC", [5, 6], datetime(2025, 1, 7)),
        (datetime(2025, 1, 2, 9, 0, tzinfo=TOKYO), 1, "Asia/Tokyo", [4, 5], datetime(2025, 1, 5)),
        (datetime(2025, 1, 2, 10, 30, tzinfo=UTC), 3, "UTC", [], datetime(2025, 1, 5)),
        (datetime(2025, 1, 6, 9, 0, tzinfo=UTC), 30, "UTC", [5, 6], datetime(2025, 2, 17)),
        (datetime(2025, 1, 2, 10, 30, tzinfo=UTC), 3, "Mars/Olympus", None, datetime(2025, 1, 5)),
        # Friday 23:30 UTC is Saturday in Tokyo: counted from Monday there.
        (datetime(2025, 1, 3, 23, 30, tzinfo=UTC), 1, "Asia/Tokyo", [5, 6], datetime(2025, 1, 7)),
    ],
)
def test_the_frozen_old_rule_gives_the_old_midnights(start, days, zone, weekend, deadline):
    got = deadlines_migration.old_rule_deadline(start, days, zone, weekend)
    tz = ZoneInfo(zone) if zone != "Mars/Olympus" else UTC
    assert got == deadline.replace(tzinfo=tz)
    assert got.tzinfo is UTC


def _turn_game(apps, *, players, start, deadline, points=(180,), days=1, **fields):
    """A turn-based game in progress (seat 1 played the centre stone; stones alternate)."""
    Game, Seat, Move = (apps.get_model("games", name) for name in ("Game", "Seat", "Move"))
    game = Game.objects.create(
        variant="Pente",
        status=fields.pop("status", "in_progress"),
        time_control="turn",
        days_per_move=days,
        category="turn",
        ply=len(points),
        turn_started_at=start,
        deadline=deadline,
        **fields,
    )
    for seat, user in enumerate(players, start=1):
        Seat.objects.create(game=game, seat=seat, user=user, name=user.username)
    for ply, point in enumerate(points, start=1):
        Move.objects.create(game=game, ply=ply, seat=(ply - 1) % 2 + 1, point=point)
    return game


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_turn_deadlines_of_the_old_rule_get_the_new_one(at_latest_afterwards):
    old = migrate_to(DEADLINES_BEFORE)
    User = old.get_model("games", "User")
    kabul = User.objects.create(username="kabul", time_zone="Asia/Kabul", weekend_days=[5, 6])
    tokyo = User.objects.create(username="tokyo", time_zone="Asia/Tokyo", weekend_days=[4, 5])
    utc = User.objects.create(username="utc", time_zone="UTC", weekend_days=[5, 6])
    # Seat 2 (Kabul) to move; begun Thursday 23:51:16 there, old deadline Friday 00:00 there.
    late = datetime(2025, 1, 2, 23, 51, 16, tzinfo=KABUL)
    moved_by_old_rule = _turn_game(
        old, players=[utc, kabul], start=late, deadline=datetime(2025, 1, 3, tzinfo=KABUL)
    )
    # Seat 1 (Tokyo, Friday/Saturday weekend) to move after two stones: Thursday 09:00 + 2
    # days in Tokyo was Monday 00:00 (Thursday, Sunday counted); now Monday 09:00.
    thursday = datetime(2025, 1, 2, 9, 0, tzinfo=TOKYO)
    seat_one = _turn_game(
        old,
        players=[tokyo, utc],
        start=thursday,
        deadline=datetime(2025, 1, 6, tzinfo=TOKYO),
        points=(180, 199),
        days=2,
    )

    new = migrate_to(DEADLINES_AFTER)
    Game = new.get_model("games", "Game")
    assert Game.objects.get(pk=moved_by_old_rule.pk).deadline == late + timedelta(hours=24)
    assert Game.objects.get(pk=seat_one.pk).deadline == datetime(2025, 1, 6, 9, 0, tzinfo=TOKYO)

    migrate_to(DEADLINES_BEFORE)  # reversing does nothing: the new deadlines stay
    Game = old.get_model("games", "Game")
    assert Game.objects.get(pk=moved_by_old_rule.pk).deadline == late + timedelta(hours=24)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_turn_deadlines_the_migration_cannot_trust_are_left_alone(at_latest_afterwards):
    old = migrate_to(DEADLINES_BEFORE)
    User = old.get_model("games", "User")
    p1 = User.objects.create(username="one", time_zone="UTC", weekend_days=[5, 6])
    p2 = User.objects.create(username="two", time_zone="UTC", weekend_days=[5, 6])
    thursday = datetime(2025, 1, 2, 10, 30, tzinfo=UTC)
    old_deadline = datetime(2025, 1, 3, tzinfo=UTC)  # Thursday 10:30 + 1 day, the old rule
    vacation = old_deadline + timedelta(hours=5)
    kept = {
        # Vacation moved the deadline on: it is not the old rule's any more.
        "vacation": _turn_game(old, players=[p1, p2], start=thursday, deadline=vacation),
        # The old rule's deadline, but stones the engine cannot replay (a point off the
        # board): nobody to decide for.
        "unreplayable": _turn_game(
            old, players=[p1, p2], start=thursday, deadline=old_deadline, points=(180, 9999)
        ),
        "finished": _turn_game(
            old,
            players=[p1, p2],
            start=thursday,
            deadline=old_deadline,
            status="finished",
            end_reason="resign",
            finished_at=thursday,
        ),
        # Begun on the weekend: the old and the new rule agree (Tuesday 00:00).
        "weekend": _turn_game(
            old,
            players=[p1, p2],
            start=datetime(2025, 1, 4, 15, 0, tzinfo=UTC),
            deadline=datetime(2025, 1, 7, tzinfo=UTC),
        ),
    }
    stamps = {name: game.updated_at for name, game in kept.items()}

    new = migrate_to(DEADLINES_AFTER)
    Game = new.get_model("games", "Game")
    for name, game in kept.items():
        row = Game.objects.get(pk=game.pk)
        assert (name, row.deadline, row.updated_at) == (name, game.deadline, stamps[name])


# --- 0007: Connect6 games won by a line are won by "six" -----------------------------------

SIX_BEFORE = [("games", "0006_turn_deadlines_keep_time_of_day")]
SIX_AFTER = [("games", "0007_connect6_six_go_score")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_connect6_games_won_by_a_line_become_six_and_other_games_keep_five(at_latest_afterwards):
    old = migrate_to(SIX_BEFORE)
    Game = old.get_model("games", "Game")
    done = {"status": "finished", "winner_seats": [1], "finished_at": datetime.now(UTC)}
    connect6 = Game.objects.create(variant="Connect6", end_reason="five", **done)
    pente = Game.objects.create(variant="Pente", end_reason="five", **done)
    resigned = Game.objects.create(variant="Connect6", end_reason="resign", **done)

    Game = migrate_to(SIX_AFTER).get_model("games", "Game")
    assert Game.objects.get(pk=connect6.pk).end_reason == "six"
    assert Game.objects.get(pk=pente.pk).end_reason == "five"
    assert Game.objects.get(pk=resigned.pk).end_reason == "resign"

    Game = migrate_to(SIX_BEFORE).get_model("games", "Game")
    assert Game.objects.get(pk=connect6.pk).end_reason == "five"


# --- 0018: addresses given before confirmation existed keep working ------------------------


@pytest.mark.django_db(transaction=True)
def test_addresses_given_before_confirmation_existed_count_as_confirmed(at_latest_afterwards):
    User = migrate_to([("games", "0017_user_deleted_at")]).get_model("games", "User")
    with_address = User.objects.create(username="with", email="with@example.org")
    without = User.objects.create(username="without", email="")
    User = migrate_to([("games", "0018_user_email_verified")]).get_model("games", "User")
    assert User.objects.get(pk=with_address.pk).email_verified is True
    assert User.objects.get(pk=without.pk).email_verified is False


# --- 0021: every game over gets its fingerprint ---------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_games_over_get_the_fingerprints_an_import_of_their_records_finds(at_latest_afterwards):
    old = migrate_to([("games", "0019_plural_names")])
    Game, Seat, Move = (old.get_model("games", name) for name in ("Game", "Seat", "Move"))
    started = datetime(2024, 3, 5, 14, 30, tzinfo=UTC)
    played = Game.objects.create(
        variant="Pente",
        status="finished",
        end_reason="resign",
        winner_seats=[1],
        ply=3,
        started_at=started,
        finished_at=started,
    )
    archived = Game.objects.create(
        variant="Pente",
        status="archived",
        imported=True,
        ply=2,
        headers={"Game": "Pente", "Player 1 Name": "cy", "Player 2 Name": "dee", "Result": "0-1"},
    )
    going = Game.objects.create(variant="Pente", ply=2, started_at=started)
    for game, names in ((played, ("ann", "bob")), (archived, ("cy", "dee")), (going, ("e", "f"))):
        for seat, name in enumerate(names, start=1):
            Seat.objects.create(game=game, seat=seat, name=name)
        for ply, point in enumerate((180, 162, 144)[: game.ply], start=1):  # K10, L11, M12
            Move.objects.create(game=game, ply=ply, seat=2 - ply % 2, point=point)

    Game = migrate_to([("games", "0021_fill_game_fingerprints")]).get_model("games", "Game")
    assert Game.objects.get(pk=played.pk).fingerprint
    assert Game.objects.get(pk=archived.pk).fingerprint
    assert Game.objects.get(pk=going.pk).fingerprint is None

    migrate_to_latest()
    again = games_import(
        text=record("K10 L11 M12 Resign 1-0", p1="ann", p2="bob", Date="03/05/2024")
        + "\n"
        + record("K10 L11", p1="cy", p2="dee", Result="0-1")
    )
    assert again.game_ids == []
    assert [r.detail.split(" is ")[0] for r in again.refusals] == [
        f"Game {played.pk}",
        f"Game {archived.pk}",
    ]


# --- 0024: imported records get the result their Result header states ---------------------


@pytest.mark.django_db(transaction=True)
def test_imported_records_the_moves_do_not_end_get_their_header_s_result(at_latest_afterwards):
    old = migrate_to([("games", "0023_end_reason_recorded")])
    Game, Seat, Move = (old.get_model("games", name) for name in ("Game", "Seat", "Move"))
    dated = datetime(2024, 3, 5, tzinfo=UTC)

    def archived(result: str, **fields):
        game = Game.objects.create(
            variant="Pente",
            status="archived",
            imported=True,
            ply=3,
            started_at=dated,
            positions_indexed=True,
            headers={"Game": "Pente", "Result": result},
            **fields,
        )
        for seat, name in ((1, "cy"), (2, "dee")):
            Seat.objects.create(game=game, seat=seat, name=name)
        for ply, point in enumerate((180, 162, 144), start=1):  # K10, L11, M12
            Move.objects.create(game=game, ply=ply, seat=2 - ply % 2, point=point)
        return game

    lost = archived("0-1")
    drawn = archived("1/2-1/2")
    unfinished = archived("*")
    unreadable = archived("2-0")
    resigned = archived("1-0", end_reason="resign", winner_seats=[1], finished_at=dated)

    Game = migrate_to([("games", "0024_imported_results_recorded")]).get_model("games", "Game")
    row = Game.objects.get(pk=lost.pk)
    assert (row.end_reason, row.winner_seats, row.finished_at) == ("recorded", [2], dated)
    assert row.positions_indexed is False  # indexed again, with its result
    row = Game.objects.get(pk=drawn.pk)
    assert (row.end_reason, row.winner_seats) == ("recorded", [])
    for kept in (unfinished, unreadable):
        row = Game.objects.get(pk=kept.pk)
        assert (row.end_reason, row.winner_seats, row.positions_indexed) == ("", [], True)
    assert Game.objects.get(pk=resigned.pk).end_reason == "resign"

    Game = migrate_to([("games", "0023_end_reason_recorded")]).get_model("games", "Game")
    assert Game.objects.get(pk=lost.pk).end_reason == ""
    assert Game.objects.get(pk=resigned.pk).end_reason == "resign"
