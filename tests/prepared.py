"""The statements prepared on the PostgreSQL server in this test's session
(``pente_site.db.prepared_cursor``), for the tests that check what is prepared."""

from __future__ import annotations

from django.db import connection


def prepared_statements() -> list[str]:
    """The text of every statement prepared in this session."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def reset_prepared_statements() -> None:
    """Start from a session without prepared statements, as a fresh connection would."""
    connection.ensure_connection()
    connection.connection._prepared.clear()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
