"""Statements prepared on the PostgreSQL server, for the few hot statements that ask for it (the
leaderboard and rank reads, the write of a turn): ``prepared_cursor()`` gives Django's cursor
wrapper around a cursor whose statements are prepared once per connection, then only bound and
executed; every other statement stays unprepared, as Django's default has it.

Off with ``PREPARED_STATEMENTS = False`` (a pooler that cannot keep prepared statements, see
docs/operations.md); while queries are logged the usual cursor is used, so that the log shows
each statement with its values.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.db import connection
from django.db.backends.postgresql.base import ServerBindingCursor

#: A prepare threshold no statement reaches by itself: the hot statements ask for preparation
#: explicitly; any other statement stays unprepared, as Django's default (None) has it.
_PREPARE_ONLY_WHEN_ASKED = 2**62


@lru_cache(maxsize=1)
def _prepared_cursor_class() -> type:
    class PreparedCursor(ServerBindingCursor):
        """A server-side binding cursor whose statements are prepared on their first run."""

        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    return PreparedCursor


def prepared_cursor():
    """A cursor whose statements are prepared on the server (see the module's notes); the
    usual cursor off PostgreSQL with psycopg 3, when the settings turn preparation off, and
    while queries are logged."""
    if (
        connection.vendor != "postgresql"
        or not getattr(settings, "PREPARED_STATEMENTS", True)
        or connection.queries_logged
    ):
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if not hasattr(raw, "prepare_threshold"):  # psycopg2: no prepared statements
        return connection.cursor()
    if raw.prepare_threshold is None:
        raw.prepare_threshold = _PREPARE_ONLY_WHEN_ASKED
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        return connection.make_cursor(_prepared_cursor_class()(raw))
