"""The migration history of a database created while the user model was ``games.User``.

``accounts`` 0001 only takes the model over in Django's state (no table is touched), and it
depends on ``games`` 0001 alone. A database migrated before the move has ``admin`` 0001
applied, which now depends on ``accounts`` 0001 through ``AUTH_USER_MODEL``; Django refuses to
migrate a history where an applied migration's dependency is not applied. Recording
``accounts`` 0001 as applied first, which is what running it would do, makes the history
consistent again; ``migrate`` (``accounts.management.commands.migrate``) does it.
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.recorder import MigrationRecorder

BEFORE_THE_MOVE = ("games", "0001_initial")
THE_MOVE = ("accounts", "0001_initial")


def record_user_model_moved(*, connection: BaseDatabaseWrapper) -> bool:
    """Record ``accounts`` 0001 as applied on a database migrated before it existed; whether
    it did (False on a new database, or one already past the move)."""
    recorder = MigrationRecorder(connection)
    if not recorder.has_table():
        return False
    applied = recorder.applied_migrations()
    if BEFORE_THE_MOVE not in applied or THE_MOVE in applied:
        return False
    recorder.record_applied(*THE_MOVE)
    return True
