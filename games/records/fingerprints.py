"""Fingerprints of the games in the database (``Game.fingerprint``), so that an import refuses
a record of a game that is here already (``games.records.imports``).

A fingerprint is ``games.engine.records.identity.game_fingerprint`` of the game's kind, actions,
players and result (``fingerprint``); the date is compared apart (``recorded_day``). Every game
over has one: an imported record from its import, a game played here once it is over (finished
or cancelled; ``game_finished`` enqueues ``games.records.fingerprint_games`` on commit) and,
should that job be lost, from the catch-up every import runs first (``fingerprints_fill``);
games stored before fingerprints existed got theirs from a data migration. A game in progress
has none: its record, imported, is a game of its own. A game that cannot be replayed (none
should) gets "", which no record matches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, Protocol

from django.db import transaction

from games.engine import EngineError, Position, replay_game
from games.engine.records.identity import game_fingerprint, result_colours
from games.play.models import Game, Move, Seat
from games.play.positions import ENGINE_OPTION_FIELDS, engine_options, move_action
from games.play.signals import game_finished
from pente_site.commit import on_commit_gather
from pente_site.jobs import enqueue

#: The Celery task that fingerprints games just over (defined in ``games.records.tasks``).
FINGERPRINT_TASK = "games.records.fingerprint_games"
#: Games fingerprinted per transaction.
BATCH_SIZE = 500
#: The statuses of the games played here that are over (an imported record is fingerprinted
#: when it is stored).
PLAYED_OVER = (Game.Status.FINISHED, Game.Status.CANCELLED)
#: The fingerprint of a game that cannot be replayed: no record has it.
UNREPLAYABLE = ""


class StoredGame(Protocol):
    """What ``fingerprints_of`` reads of a game row (a ``Game``, or the migrations' own)."""

    pk: int
    variant: str
    seats: int
    partners: bool
    tournament_rule: bool
    rated: bool
    adjacent_only: bool
    imported: bool
    end_reason: str
    winner_seats: list[int]
    headers: dict


def fingerprint(
    *,
    position: Position,
    names: Sequence[str],
    end_reason: str,
    winner_seats: Iterable[int],
    imported: bool,
    headers: Mapping[str, Any],
) -> str:
    """The fingerprint of a game whose last position is ``position``, its seats' ``names``
    (seat 1 first, as ``Seat.name`` holds them) and its result as stored: the winning seats
    when it has an ``end_reason``; otherwise, for an imported record, its ``Result`` header
    (a game lost on time in the archive it comes from); otherwise (cancelled) none."""
    colours = [position.seat_colour(seat) for seat in range(1, position.seats + 1)]
    winners: tuple[int, ...] | None = None
    if end_reason:
        winners = tuple(sorted({position.seat_colour(seat) for seat in winner_seats}))
    elif imported:
        winners = result_colours(str(headers.get("Result") or ""), colours=max(colours))
    return game_fingerprint(
        variant=position.variant.name,
        seats=position.seats,
        partners=position.partners,
        actions=position.actions,
        names=names,
        seat_colours=colours,
        winners=winners,
    )


def recorded_day(
    *, imported: bool, started_at: datetime | None, created_at: datetime
) -> date | None:
    """The day a game was played, as its record says it (``Date``): an imported record's own
    date (None: it has none), a game played here the day it started (UTC)."""
    moment = started_at or (None if imported else created_at)
    return moment.date() if moment is not None else None


def fingerprints_of(
    games: Iterable[StoredGame],
    *,
    move_rows: Iterable[tuple[int, str, int | None, str]],
    seat_rows: Iterable[tuple[int, int, str]],
) -> dict[int, str]:
    """The fingerprints of stored games, by id: ``move_rows`` are their moves' ``(game_id,
    kind, point, choice)`` in ply order, ``seat_rows`` their seats' ``(game_id, seat, name)``.
    Each game is replayed once through the engine."""
    actions: dict[int, list[int | str]] = defaultdict(list)
    for game_id, kind, point, choice in move_rows:
        actions[game_id].append(move_action(kind, point, choice))
    names: dict[int, dict[int, str]] = defaultdict(dict)
    for game_id, seat, name in seat_rows:
        names[game_id][seat] = name
    out: dict[int, str] = {}
    for game in games:
        try:
            position = replay_game(game.variant, actions[game.pk], **engine_options(game))
        except EngineError:
            out[game.pk] = UNREPLAYABLE
            continue
        out[game.pk] = fingerprint(
            position=position,
            names=[names[game.pk].get(seat, "") for seat in range(1, position.seats + 1)],
            end_reason=game.end_reason,
            winner_seats=game.winner_seats,
            imported=game.imported,
            headers=game.headers or {},
        )
    return out


def games_fingerprint(*, game_ids: Iterable[int]) -> int:
    """Fingerprint the games among ``game_ids`` that are over and have no fingerprint yet (in
    one transaction; games another run holds are left to it); returns how many."""
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk__in=list(game_ids), fingerprint__isnull=True)
            .exclude(status=Game.Status.IN_PROGRESS)
            .only(*_FIELDS)
            .order_by("pk")
        )
        if not games:
            return 0
        ids = [game.pk for game in games]
        found = fingerprints_of(
            games,
            move_rows=Move.objects.filter(game_id__in=ids)
            .order_by("game_id", "ply")
            .values_list("game_id", "kind", "point", "choice"),
            seat_rows=Seat.objects.filter(game_id__in=ids).values_list("game_id", "seat", "name"),
        )
        for game in games:
            game.fingerprint = found[game.pk]
        Game.objects.bulk_update(games, ["fingerprint"])
        return len(games)


def fingerprints_fill() -> int:
    """Fingerprint every game played here that is over and has none (its job was lost), a
    batch at a time; returns how many. Imports run it before they look for duplicates."""
    done = 0
    after = 0
    while ids := list(
        Game.objects.filter(pk__gt=after, fingerprint__isnull=True, status__in=PLAYED_OVER)
        .order_by("pk")
        .values_list("pk", flat=True)[:BATCH_SIZE]
    ):
        done += games_fingerprint(game_ids=ids)
        after = ids[-1]
    return done


def connect() -> None:
    """Fingerprint games as they end (``GamesConfig.ready``)."""
    game_finished.connect(_on_game_finished, dispatch_uid="games.records.fingerprints")


def _on_game_finished(sender, game: Game, **kwargs) -> None:
    on_commit_gather(FINGERPRINT_TASK, [game.pk], _enqueue)


def _enqueue(game_ids: list[int]) -> None:
    """One job per ``BATCH_SIZE`` games ended in a transaction (the timeout sweeper may end
    thousands at once)."""
    for start in range(0, len(game_ids), BATCH_SIZE):
        enqueue(FINGERPRINT_TASK, args=(game_ids[start : start + BATCH_SIZE],))


#: The columns ``fingerprints_of`` reads (``StoredGame``).
_FIELDS = (*ENGINE_OPTION_FIELDS, "end_reason", "winner_seats", "status", "fingerprint")
