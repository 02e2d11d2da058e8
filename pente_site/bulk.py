"""Writing many rows at once: PostgreSQL's ``COPY`` (through psycopg), or one prepared INSERT
run for every row (``executemany``) on other databases. For the bulk paths only (record
imports, the explorer's index), where building a model instance per row would cost more than
the database's own work."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection, models


def copy_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[tuple]) -> int:
    """Insert ``rows`` (tuples of values in the order of ``fields``, model field names; a
    foreign key by its ``*_id`` value) into ``model``'s table; returns how many. Runs in the
    caller's transaction; the database's constraints hold as for any INSERT."""
    meta = model._meta
    table = connection.ops.quote_name(meta.db_table)
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    count = 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    count += 1
            return count
        marks = ", ".join(["%s"] * len(fields))
        batch = list(rows)
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", batch)
        return len(batch)
