"""The user model's move from ``games`` to ``accounts``, run on a database built by the
migrations of before the move: every row, foreign key and permission stays where it was."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.exceptions import InconsistentMigrationHistory
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from accounts.history import BEFORE_THE_MOVE, THE_MOVE, record_user_model_moved
from accounts.models import ApiToken, User
from games.challenges.models import Challenge
from games.play.models import Seat
from live.models import ChatLine
from ratings.models import Rating
from tests import migrations
from tests.migrations import migrate_to
from tournaments.models import Tournament

#: The latest migrations of each app before the move.
BEFORE = [
    ("games", "0028_user_is_guest"),
    ("ratings", "0005_rating_listed"),
    ("live", "0003_main_room"),
    ("tournaments", "0008_double_forfeit"),
]
MOVED = ("user", "apitoken")


@pytest.fixture
def at_latest_afterwards():
    """Whatever the test left, the database migrated to the latest state (the move recorded
    first if the test left a history of before it)."""
    yield
    record_user_model_moved(connection=connection)
    migrations.leave_behind()


def _as_before_the_move():
    """The database as the migrations of before the move left it: no ``accounts`` migration
    recorded, the content types (and their permissions) still labelled ``games``."""
    old = migrate_to(BEFORE)
    MigrationRecorder(connection).record_unapplied(*THE_MOVE)
    ContentType.objects.filter(app_label="accounts", model__in=MOVED).delete()
    for model in MOVED:
        content_type, _ = ContentType.objects.get_or_create(app_label="games", model=model)
        for action in ("add", "change", "delete", "view"):
            Permission.objects.get_or_create(
                content_type=content_type,
                codename=f"{action}_{model}",
                defaults={"name": f"Can {action} {model}"},
            )
    ContentType.objects.clear_cache()
    return old


@pytest.mark.django_db(transaction=True)
def test_the_history_of_before_the_move_is_refused_until_the_move_is_recorded(
    at_latest_afterwards,
):
    _as_before_the_move()
    loader = MigrationLoader(connection)
    with pytest.raises(InconsistentMigrationHistory, match="admin.0001_initial"):
        loader.check_consistent_history(connection)

    assert record_user_model_moved(connection=connection) is True
    MigrationLoader(connection).check_consistent_history(connection)  # consistent now
    assert record_user_model_moved(connection=connection) is False  # once


@pytest.mark.django_db(transaction=True)
def test_a_database_never_migrated_before_records_nothing():
    recorder = MigrationRecorder(connection)
    recorder.record_unapplied(*THE_MOVE)
    recorder.record_unapplied(*BEFORE_THE_MOVE)
    try:
        assert record_user_model_moved(connection=connection) is False
        assert THE_MOVE not in recorder.applied_migrations()
    finally:
        recorder.record_applied(*BEFORE_THE_MOVE)
        recorder.record_applied(*THE_MOVE)


@pytest.mark.django_db(transaction=True)
def test_users_tokens_and_everything_pointing_at_them_survive_the_move(at_latest_afterwards):
    old = _as_before_the_move()
    OldUser = old.get_model("games", "User")
    alice = OldUser.objects.create(username="alice", password="x", email="a@example.com")
    bob = OldUser.objects.create(username="bob", password="y", is_computer=True, bot_level=3)
    old.get_model("games", "ApiToken").objects.create(
        user=alice, name="laptop", prefix="abcd1234", key_hash="h" * 64
    )
    game = old.get_model("games", "Game").objects.create(variant="Pente", status="in_progress")
    OldSeat = old.get_model("games", "Seat")
    OldSeat.objects.create(game=game, seat=1, user_id=alice.pk, name="alice")
    OldSeat.objects.create(game=game, seat=2, user_id=bob.pk, name="bob")
    challenge = old.get_model("games", "Challenge").objects.create(
        kind="direct", created_by_id=alice.pk, invitee_id=bob.pk, variant="Pente"
    )
    old.get_model("ratings", "Rating").objects.create(
        user_id=bob.pk, variant="Pente", category="speed", rating=1712.5, username="bob"
    )
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Spring", organiser_id=alice.pk, start_at=datetime(2026, 4, 1, tzinfo=UTC)
    )
    room = old.get_model("live", "Room").objects.create(title="main")
    old.get_model("live", "ChatLine").objects.create(room=room, author_id=bob.pk, text="hi")
    user_type = ContentType.objects.get(app_label="games", model="user")
    change_user = Permission.objects.get(content_type=user_type, codename="change_user")
    OldUser.user_permissions.through.objects.create(user_id=alice.pk, permission_id=change_user.pk)
    log = LogEntry.objects.create(  # (its table: the same before and after)
        user_id=alice.pk,
        content_type_id=user_type.pk,
        object_id=str(bob.pk),
        object_repr="bob",
        action_flag=1,
        action_time=datetime(2026, 1, 1, tzinfo=UTC),
    )

    call_command("migrate", verbosity=0)  # records the move, then runs it

    connection.check_constraints()  # every foreign key still finds its row
    alice, bob = User.objects.get(pk=alice.pk), User.objects.get(pk=bob.pk)
    assert (alice.username, alice.email, bob.bot_level) == ("alice", "a@example.com", 3)
    assert [t.prefix for t in alice.api_tokens.all()] == ["abcd1234"]
    assert [s.user for s in Seat.objects.filter(game_id=game.pk).order_by("seat")] == [alice, bob]
    assert Challenge.objects.get(pk=challenge.pk).invitee == bob
    assert Rating.objects.get(user=bob).rating == 1712.5
    assert Tournament.objects.get(pk=tournament.pk).organiser == alice
    assert ChatLine.objects.get().author == bob
    # The content types kept their ids under their new label, so do permissions and the log.
    ContentType.objects.clear_cache()
    assert ContentType.objects.get_for_model(User).pk == user_type.pk
    assert not ContentType.objects.filter(app_label="games", model__in=MOVED).exists()
    assert alice.has_perm("accounts.change_user")
    assert LogEntry.objects.get(pk=log.pk).get_edited_object() == bob
    # The moved models work: new rows in the old tables, ids following on.
    carol = User.objects.create_user(username="carol", password="secret")
    assert carol.pk > bob.pk and carol.check_password("secret")
    ApiToken.objects.create(user=carol, prefix="efgh5678", key_hash="k" * 64)
    assert ApiToken.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_rolling_the_move_back_and_forth_keeps_the_content_types(at_latest_afterwards):
    user_type = ContentType.objects.get_for_model(User)
    migrate_to(BEFORE)
    assert ContentType.objects.filter(pk=user_type.pk, app_label="games").exists()
    # What ``post_migrate`` does after a rollback: fresh rows for the label that is left.
    ContentType.objects.create(app_label="accounts", model="user")
    call_command("migrate", verbosity=0)
    ContentType.objects.clear_cache()
    assert ContentType.objects.get_for_model(User).pk == user_type.pk
