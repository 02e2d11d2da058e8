"""The one write of a turn: claim the game row at the version it was read and insert the turn's
moves, in one statement on PostgreSQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone

from games.play.models import Game, Move, Seat
from pente_site.db import prepared_cursor

#: What a claim finds unchanged since the row was read, besides every column it writes. Every
#: write of a game row sets ``updated_at`` (``save`` and the sweeper's bulk update) except the
#: clock's correction of a guessed deadline, hence ``deadline``; ``ply`` and ``status`` are what
#: a turn depends on most.
CLAIM_COLUMNS = ("ply", "status", "updated_at", "deadline")

#: The Move columns a turn inserts, in order.
_MOVE_COLUMNS = ("ply", "seat", "kind", "point", "choice", "message", "created_at")


def row_values(game: Game) -> dict[str, Any]:
    """The columns of ``game`` as it holds them now (JSON lists and dicts copied, so that a
    change made in place later still shows against them)."""
    return {
        f.attname: _copied(getattr(game, f.attname))
        for f in Game._meta.concrete_fields
        if not f.primary_key
    }


def _copied(value: Any) -> Any:
    return (
        list(value)
        if isinstance(value, list)
        else dict(value)
        if isinstance(value, dict)
        else value
    )


def changed_columns(game: Game, as_read: Mapping[str, Any]) -> list[str]:
    """The columns of ``game`` that differ from ``as_read``."""
    return [name for name, value in as_read.items() if getattr(game, name) != value]


def claim_turn(
    *,
    game: Game,
    as_read: Mapping[str, Any],
    seat: int,
    user_id: int,
    moves: Sequence[Move],
) -> bool:
    """Write the columns of ``game`` that changed since ``as_read`` (and ``updated_at``) and
    insert ``moves`` (numbered, unsaved), provided the row still holds, as read, the columns
    written and ``CLAIM_COLUMNS``, and ``seat`` is still ``user_id``'s: True when written
    (``game.updated_at`` is then the written one), False (nothing written) when the row had
    moved on. So a row read from the cache decides nothing the database does not confirm.

    PostgreSQL: one statement, the UPDATE with RETURNING feeding the INSERT (prepared on the
    server: a few shapes, each planned once per connection). Elsewhere: the UPDATE, then the
    INSERT when it matched, in one transaction."""
    game.updated_at = now = timezone.now()
    for move in moves:
        move.game = game
        if move.created_at is None:
            move.created_at = now
    changed = [c for c in changed_columns(game, as_read) if c != "updated_at"] + ["updated_at"]
    held = {c: as_read[c] for c in (*CLAIM_COLUMNS, *changed)}
    update, params = _update(game, changed, held, seat=seat, user_id=user_id)
    if connection.vendor != "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(update, params)
                written = cursor.rowcount == 1
            if written:
                Move.objects.bulk_create(moves)
        return written
    return _update_and_insert(update, params, moves)


def _update(
    game: Game, changed: Sequence[str], held: Mapping[str, Any], *, seat: int, user_id: int
) -> tuple[str, list[Any]]:
    """The claim's UPDATE and its parameters: ``changed`` set to the game's values where the
    row holds ``held`` and the seat is the user's."""
    sql = _update_sql(tuple(changed), tuple((name, held[name] is None) for name in held))
    params: list[Any] = [
        _FIELDS[name].get_db_prep_save(getattr(game, name), connection) for name in changed
    ]
    params.append(game.pk)
    params += [
        _FIELDS[name].get_db_prep_value(value, connection, prepared=False)
        for name, value in held.items()
        if value is not None
    ]
    params += [seat, user_id]
    return sql, params


_FIELDS = {f.attname: f for f in Game._meta.concrete_fields}


@lru_cache(maxsize=256)
def _update_sql(changed: tuple[str, ...], held: tuple[tuple[str, bool], ...]) -> str:
    """The claim's UPDATE for one shape (the columns written; the columns held, and which of
    them are NULL): a few shapes, each written once per process."""
    qn = connection.ops.quote_name
    table = qn(Game._meta.db_table)
    sets = ", ".join(f"{qn(_FIELDS[name].column)} = %s" for name in changed)
    where = [f"{table}.{qn(Game._meta.pk.column)} = %s"]
    where += [
        f"{table}.{qn(_FIELDS[name].column)} " + ("IS NULL" if null else "= %s")
        for name, null in held
    ]
    seat_table = qn(Seat._meta.db_table)
    game_id, seat_no, user = (qn(Seat._meta.get_field(f).column) for f in ("game", "seat", "user"))
    where.append(
        f"EXISTS (SELECT 1 FROM {seat_table} s WHERE s.{game_id} = {table}.{qn(Game._meta.pk.column)}"
        f" AND s.{seat_no} = %s AND s.{user} = %s)"
    )
    return f"UPDATE {table} SET {sets} WHERE {' AND '.join(where)}"


def _update_and_insert(update: str, params: list[object], moves: Sequence[Move]) -> bool:
    """PostgreSQL: ``update`` and, only when it matched, the INSERT of ``moves``, in one
    statement; True when the row matched."""
    qn = connection.ops.quote_name
    fields = {f.attname: f for f in Move._meta.concrete_fields}
    columns = [fields[name] for name in _MOVE_COLUMNS]
    # Every value cast to its column's type (text for strings: a cast to varchar(n) would cut a
    # longer value instead of refusing it), so that the rows' UNION has the columns' types.
    casts = ["text" if isinstance(f, models.CharField) else f.db_type(connection) for f in columns]
    selects = []
    for move in moves:
        values = ", ".join(f"CAST(%s AS {cast})" for cast in casts)
        selects.append(f"SELECT g.id, {values} FROM g")
        params += [f.get_db_prep_save(getattr(move, f.attname), connection) for f in columns]
    names = ", ".join(qn(c) for c in [fields["game_id"].column, *(f.column for f in columns)])
    table = qn(Game._meta.db_table)
    sql = (
        f"WITH g AS ({update} RETURNING {table}.{qn(Game._meta.pk.column)} AS id) "
        f"INSERT INTO {qn(Move._meta.db_table)} ({names}) {' UNION ALL '.join(selects)}"
    )
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == len(moves)
