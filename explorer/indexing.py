"""Writing the explorer's position index (``PositionRow``).

A game is indexed once it is over: a finished game (``game_finished`` enqueues
``explorer.index_games`` on commit, one job for the games a transaction finished) or an imported
record (in the import's own batch transaction, through ``records_archived``, so that a record is
never in the database without its positions). ``Game.positions_indexed`` says which games are in; the sweeper
(``explorer.sweep``, beat) indexes any game over that is not (a task lost with a worker, games
from before the index existed), and ``manage.py explorer_rebuild`` rebuilds the whole index
(``index_clear``, then ``index_batch`` over ``game_batches``).

Indexing is idempotent: ``games_index`` locks the games it takes, skips those already indexed,
replaces their rows and sets the flag in one transaction.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from django.db import connection, transaction

from explorer.models import PositionRow
from games.engine import Position, replay_game
from games.engine.positionkey import game_keys, key_of, signed64
from games.engine.records import Replay
from games.play.models import Game, Move, Seat
from games.play.positions import engine_options, move_action
from games.play.signals import game_finished
from games.records.imports import seat_header
from games.records.signals import records_archived
from pente_site.bulk import copy_rows
from pente_site.commit import on_commit_gather
from pente_site.jobs import enqueue
from ratings.models import Rating

INDEX_TASK = "explorer.index_games"
#: Games indexed per transaction by the sweeper and the rebuild.
BATCH_SIZE = 500
#: The columns ``copy_rows`` writes, in the order of ``_rows``' tuples.
ROW_FIELDS = (
    "key",
    "game",
    "ply",
    "next_point",
    "winner",
    "rating",
    "rating_low",
    "rating_high",
    "rated",
    "imported",
    "category",
    "played_on",
)
_OVER = (Game.Status.FINISHED, Game.Status.ARCHIVED)
_RATING_MAX = 32767  # a smallint


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What every row of one game copies: the colour that won (0: a draw; None: no result),
    each seat's rating, and the game's filters."""

    game_id: int
    winner: int | None
    seat_ratings: dict[int, int | None]
    rated: bool
    imported: bool
    category: str
    played_on: date | None


def connect() -> None:
    """Index games as they finish and as records are imported (``ExplorerConfig.ready``)."""
    game_finished.connect(_on_game_finished, dispatch_uid="explorer.game_finished")
    records_archived.connect(_on_records_archived, dispatch_uid="explorer.records_archived")


def _on_game_finished(sender, game: Game, **kwargs) -> None:
    if game.status == Game.Status.FINISHED:
        on_commit_gather(INDEX_TASK, [game.pk], _enqueue_index)


def _enqueue_index(game_ids: list[int]) -> None:
    """One job per ``BATCH_SIZE`` games finished in a transaction (the timeout sweeper may
    finish thousands at once)."""
    for start in range(0, len(game_ids), BATCH_SIZE):
        enqueue(INDEX_TASK, args=(game_ids[start : start + BATCH_SIZE],))


def _on_records_archived(sender, games: Sequence[Game], replays: Sequence[Replay], **kwargs):
    """Index records as they are stored, in the same transaction."""
    rows: list[tuple] = []
    for game, replay in zip(games, replays, strict=True):
        facts = _facts(game, replay.game, _header_ratings(game, replay.game))
        rows.extend(_rows(facts, replay.game, replay.seats))
    _write(rows, game_ids=[g.pk for g in games])


def games_index(*, game_ids: Iterable[int]) -> int:
    """Index the games among ``game_ids`` that are over and not indexed yet (locked, so two runs
    never index a game twice); returns how many were indexed."""
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk__in=list(game_ids), positions_indexed=False, status__in=_OVER)
            .order_by("pk")
        )
        if not games:
            return 0
        ids = [g.pk for g in games]
        actions: dict[int, list[int | str]] = defaultdict(list)
        movers: dict[int, list[int]] = defaultdict(list)
        moves = (
            Move.objects.filter(game_id__in=ids)
            .order_by("game_id", "ply")
            .values_list("game_id", "seat", "kind", "point", "choice")
        )
        for game_id, seat, kind, point, choice in moves:
            actions[game_id].append(move_action(kind, point, choice))
            movers[game_id].append(seat)
        ratings = _seat_ratings(games)
        # A guest's games (against the computer, deleted with the guest) are marked indexed
        # but give no row: they count in no statistics.
        guests = set(
            Seat.objects.filter(game_id__in=ids, user__is_guest=True).values_list(
                "game_id", flat=True
            )
        )
        rows: list[tuple] = []
        for game in games:
            if game.pk in guests:
                continue
            position = replay_game(game.variant, actions[game.pk], **engine_options(game))
            if game.imported:
                seat_ratings = _header_ratings(game, position)
            else:
                seat_ratings = ratings[game.pk]
            rows.extend(_rows(_facts(game, position, seat_ratings), position, movers[game.pk]))
        PositionRow.objects.filter(game_id__in=ids).delete()
        _write(rows, game_ids=ids)
        return len(games)


def _write(rows: list[tuple], *, game_ids: list[int]) -> None:
    """Store the index rows of these games and mark them indexed (in the caller's
    transaction)."""
    copy_rows(PositionRow, ROW_FIELDS, rows)
    Game.objects.filter(pk__in=game_ids).update(positions_indexed=True)


def games_pending(*, limit: int) -> list[int]:
    """Ids of up to ``limit`` games over and not in the index, oldest first."""
    return list(
        Game.objects.filter(positions_indexed=False, status__in=_OVER)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )


def index_sweep(*, seconds: float = 20.0) -> int:
    """Index the games over that are not in the index, a batch at a time, for about
    ``seconds`` at most (beat runs it again); returns how many were indexed."""
    done = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until and (pending := games_pending(limit=BATCH_SIZE)):
        indexed = games_index(game_ids=pending)
        done += indexed
        if not indexed:  # every pending game is locked by another run
            break
    return done


def index_clear() -> None:
    """Empty the index and mark every game not indexed (``explorer_rebuild`` then indexes them
    again, batch by batch: ``game_batches`` and ``index_batch``)."""
    with transaction.atomic():
        _empty_index()
        Game.objects.filter(positions_indexed=True).update(positions_indexed=False)


def game_batches(*, batch_size: int = BATCH_SIZE) -> Iterator[list[int]]:
    """The ids of every game over, ``batch_size`` at a time, in id order."""
    after = 0
    while True:
        ids = list(
            Game.objects.filter(pk__gt=after, status__in=_OVER)
            .order_by("pk")
            .values_list("pk", flat=True)[:batch_size]
        )
        if not ids:
            return
        after = ids[-1]
        yield ids


def index_batch(game_ids: list[int]) -> int:
    """``games_index`` of one batch (a module-level function: a worker process can run it)."""
    return games_index(game_ids=game_ids)


def _empty_index() -> None:
    """Remove every row of the index: PostgreSQL's TRUNCATE (a DELETE would leave millions of
    dead entries in the indexes, each one checked again by the rows written back), else a
    DELETE."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(PositionRow._meta.db_table)
        with connection.cursor() as cursor:
            # Foreign keys are checked at commit: rows written earlier in this transaction (a
            # caller's) leave checks pending, which TRUNCATE refuses to run over.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {table}")
    else:
        PositionRow.objects.all().delete()


def games_over_count() -> int:
    return Game.objects.filter(status__in=_OVER).count()


# ---------------------------------------------------------------------- rows


def _rows(facts: GameFacts, position: Position, movers: Sequence[int]) -> list[tuple]:
    """The index rows of a game whose last position is ``position``: one per position before
    an action that can be taken back (``game_keys``), and one for the last position."""
    ratings = facts.seat_ratings
    known = [r for r in ratings.values() if r is not None]
    low, high = (min(known), max(known)) if known else (None, None)
    common = (facts.winner,)
    tail = (low, high, facts.rated, facts.imported, facts.category, facts.played_on)
    rows = []
    for item in game_keys(position):
        seat = movers[item.ply] if item.ply < len(movers) else None
        rating = ratings.get(seat) if seat is not None else None
        rows.append(
            (signed64(item.key), facts.game_id, item.ply, item.next_point, *common, rating, *tail)
        )
    key, _ = key_of(position)
    rows.append((signed64(key), facts.game_id, len(position.actions), None, *common, None, *tail))
    return rows


def _facts(game: Game, position: Position, seat_ratings: dict[int, int | None]) -> GameFacts:
    winner: int | None = None
    if game.end_reason:
        seats = game.winner_seats or []
        winner = position.seat_colour(seats[0]) if seats else 0
    rated = game.rated
    if game.imported:
        rated = str(game.headers.get("Rated", "")).strip().upper() in ("Y", "YES", "1", "TRUE")
    moment = game.started_at or (None if game.imported else game.created_at)
    return GameFacts(
        game_id=game.pk,
        winner=winner,
        seat_ratings=seat_ratings,
        rated=rated,
        imported=game.imported,
        category=game.category,
        played_on=moment.date() if moment else None,
    )


def _rating(value: object) -> int | None:
    try:
        number = round(float(str(value).strip()))
    except (TypeError, ValueError, OverflowError):
        return None
    return number if 0 < number <= _RATING_MAX else None


def _header_ratings(game: Game, position: Position) -> dict[int, int | None]:
    """An imported record's ratings by seat (its ``Player N Rating`` headers)."""
    headers = game.headers or {}
    return {
        seat: _rating(seat_header(headers, position, seat, "Rating"))
        for seat in range(1, game.seats + 1)
    }


def _seat_ratings(games: Sequence[Game]) -> dict[int, dict[int, int | None]]:
    """For the games played here: each seat's rating in the game's variant and category (as
    it is when the game is indexed, just after it ended); None without one."""
    played = [g for g in games if not g.imported]
    out: dict[int, dict[int, int | None]] = {g.pk: {} for g in games}
    if not played:
        return out
    seats = list(
        Seat.objects.filter(game_id__in=[g.pk for g in played]).values_list(
            "game_id", "seat", "user_id"
        )
    )
    users = {user for _, _, user in seats if user is not None}
    ratings = {
        (user, variant, category): rating
        for user, variant, category, rating in Rating.objects.filter(user_id__in=users).values_list(
            "user_id", "variant", "category", "rating"
        )
    }
    by_id = {g.pk: g for g in played}
    for game_id, seat, user in seats:
        game = by_id[game_id]
        out[game_id][seat] = _rating(ratings.get((user, game.variant, game.category)))
    return out
