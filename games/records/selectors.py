"""Reads of game records: the Pente.org record of a game, its headers, positions to draw; a
user's import jobs."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import User
from games import engine
from games.clocks.timecontrol import Kind, TimeControl
from games.engine import (
    Record,
    StatedResult,
    Termination,
    record_from_game,
    record_stating,
    standard_headers,
    write_record,
)
from games.engine.records.model import END_REASON_HEADER, MARGIN_HEADER
from games.engine.records.result import header_margin
from games.engine.sgf import sgf_result, sgf_result_of, write_sgf
from games.play.models import Game, Move
from games.play.positions import position_of
from games.play.selectors import seats_with_users, spectator_ply
from games.records.models import ImportJob
from pente_site.errors import Conflict, Invalid, NotFound

#: Terminations where the losing side, not the board, ended the game.
_LOSSES = (Termination.RESIGN, Termination.FORFEIT)


def _moves_shown(game: Game, viewer: User | None) -> list[Move] | None:
    """The moves of a game ``viewer`` may see, when a spectator delay hides its last ones from
    them (``spectator_ply``); None: every move."""
    shown = spectator_ply(game, viewer)
    if shown is None:
        return None
    return list(Move.objects.filter(game=game, ply__lte=shown).order_by("ply"))


def game_rows_at(
    *, game: Game, ply: int | None, viewer: User | None = None
) -> tuple[list[str], int | None, tuple[int, ...]]:
    """Board rows, last point and captures after ``ply`` actions (None: now), as ``viewer``
    may see the game (None: anyone; a spectator delay hides the last plies)."""
    rows, last, captures, _shown = game_position_at(game=game, ply=ply, viewer=viewer)
    return rows, last, captures


def game_position_at(
    *, game: Game, ply: int | None, viewer: User | None = None
) -> tuple[list[str], int | None, tuple[int, ...], int]:
    """``game_rows_at``, and the ply of the position given (``ply``, or the last one
    ``viewer`` sees)."""
    moves = _moves_shown(game, viewer)
    if moves is None:
        moves = list(Move.objects.filter(game=game).order_by("ply"))
    if ply is not None:
        if ply < 0 or ply > len(moves):
            raise Invalid("bad_ply", f"ply must be between 0 and {len(moves)}.")
        moves = moves[:ply]
        if ply == 0:
            size = engine.get_variant(game.variant).size
            return ["." * size] * size, None, (), 0
    position = position_of(game, moves)
    return position.rows(), position.last_point, tuple(position.captures), len(moves)


def _sides(game: Game) -> int:
    """How many colours (and result columns) the game has: partners play two."""
    return 2 if game.partners or game.seats == 2 else game.seats


def record_headers(*, game: Game, position: engine.Position | None = None) -> list[tuple[str, str]]:
    """Pente.org header block of a game (imported games keep their own headers)."""
    if game.imported and game.headers:
        return [(k, str(v)) for k, v in game.headers.items() if k != "Result"]
    position = position if position is not None else position_of(game)
    seats = seats_with_users(game)
    by_seat = {s.seat: s for s in seats}
    sides = _sides(game)
    names: list[str | None] = []
    types: list[str | None] = []
    for colour in range(1, sides + 1):
        holders = [by_seat[s] for s in sorted(by_seat) if position.seat_colour(s) == colour]
        names.append("/".join(h.name for h in holders) or None)
        computer = any(h.user is not None and h.user.is_computer for h in holders)
        types.append(("Computer" if computer else "Human") if holders else None)
    event = "Rated Game" if game.rated else "Unrated Game"
    if game.time_control == Kind.TURN:
        # Pente.org's mark of a turn-based game: its TimeControl is then days per move.
        event = event.replace(" Game", " Turn-based Game")
    return list(
        standard_headers(
            game=game.variant,
            site="pente-server",
            event=event,
            played_at=game.started_at or game.created_at,
            time_control=TimeControl.of(game).header_text,
            rated=game.rated,
            player_names=names,
            player_types=types,
        )
    )


def game_record(*, game: Game, viewer: User | None = None) -> Record:
    """The ``records.Record`` of a game: every stone, decisions in headers, the result (also for
    resignations and losses on time, which the stones alone do not show); a game in progress
    as ``viewer`` may see it (None: anyone; a spectator delay hides the last plies)."""
    position = position_of(game, _moves_shown(game, viewer))
    headers = record_headers(game=game, position=position)
    resigned = None
    forfeit = False
    losers = [s for s in range(1, game.seats + 1) if s not in game.winner_seats]
    if game.end_reason in _LOSSES and game.winner_seats and losers:
        resigned = position.seat_colour(losers[0])
        forfeit = game.end_reason == Termination.FORFEIT
    record = record_from_game(position, headers, resigned_colour=resigned, forfeit=forfeit)
    stated = _stated(game, position)
    if stated is not None:  # a result the moves do not reach: Result, End Reason, Margin
        return record_stating(record, stated, colours=_sides(game))
    # The moves say it all (an imported record's own End Reason and Margin are not needed).
    return record.with_header(END_REASON_HEADER, None).with_header(MARGIN_HEADER, None)


def _stated(game: Game, position: engine.Position) -> StatedResult | None:
    """The result of a game over whose moves do not end it (a resignation out of turn, a loss
    on time, an imported record's ``Result``), as a record states it; None when the moves end
    the game, or it has no result (in progress, cancelled, an unfinished record)."""
    if not game.end_reason or position.outcome is not None or game.status == Game.Status.CANCELLED:
        return None  # an aborted game has an end reason but no result
    if game.end_reason in _LOSSES and not game.winner_seats:
        return None  # a double forfeit: nobody won, and a record has no way to say it
    colours = {position.seat_colour(seat) for seat in game.winner_seats}
    how = Termination(game.end_reason)
    margin = header_margin(game.headers) if game.imported else None
    return StatedResult(tuple(colours), how, margin if how is Termination.SCORE else None)


#: The SGF results of no result an imported record may keep as its ``Result`` header.
_SGF_NO_RESULT = ("Void", "?")


def game_sgf(*, game: Game, viewer: User | None = None) -> str:
    """A Go game as SGF (FF[4]): players, date, komi, result, the moves with passes, and once
    counted the dead stones and territory as ``TB``/``TW`` markup; in progress, as ``viewer``
    may see it (``game_record``). Other games: 409 ``not_go``."""
    if not engine.get_variant(game.variant).writes_sgf:
        raise Conflict("not_go", f"Game {game.pk} is {game.variant}: only Go games have SGF.")
    position = position_of(game, _moves_shown(game, viewer))
    by_seat = {s.seat: s.name for s in seats_with_users(game)}
    stated = _stated(game, position)
    result = None  # a counted game's is its count's (``write_sgf``)
    if stated is not None:
        result = sgf_result_of(stated)
    elif game.status == Game.Status.CANCELLED:
        result = sgf_result(None, how="void")
    elif game.imported and not game.end_reason and game.headers.get("Result") in _SGF_NO_RESULT:
        result = game.headers["Result"]  # an SGF's Void or ? imported
    played = game.started_at or game.created_at
    return write_sgf(
        position,
        black=by_seat.get(1) or None,
        white=by_seat.get(2) or None,
        date=played.date() if played else None,
        result=result,
    )


def game_record_text(*, game: Game, viewer: User | None = None) -> str:
    return write_record(game_record(game=game, viewer=viewer))


_MAX_ID = 2**63 - 1  # the largest BigAutoField value

#: Jobs that hold a place among a user's active imports.
ACTIVE_IMPORT_STATUSES = (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING)


def import_jobs_of(*, owner: User, status: str | None = None) -> QuerySet[ImportJob]:
    """``owner``'s import jobs, newest first (without their texts)."""
    jobs = ImportJob.objects.filter(owner=owner).defer("text").order_by("-created_at", "-id")
    return jobs if status is None else jobs.filter(status=status)


def import_job_get(*, job_id: int | str, owner: User) -> ImportJob:
    """``owner``'s import job ``job_id`` (without its text); anyone else's is not found."""
    job = None
    if 0 < int(job_id) <= _MAX_ID:  # beyond: no row, and no query the database cannot hold
        job = import_jobs_of(owner=owner).filter(pk=int(job_id)).first()
    if job is None:
        raise NotFound("unknown_import", f"You have no import {job_id}.")
    return job


def import_jobs_active_count(*, owner: User) -> int:
    """How many of ``owner``'s imports are queued or running."""
    return ImportJob.objects.filter(owner=owner, status__in=ACTIVE_IMPORT_STATUSES).count()
