"""Importing Pente.org game records as archived games (never playable, unrated)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.db import transaction

from games.clocks.timecontrol import UNTIMED, ClockError, TimeControl
from games.engine import BadRecord, EngineError, Record, Replay, parse_records, replay_record
from games.models import Game, Move, Seat, User
from pente_site.errors import Invalid


def games_import(*, text: str, user: User | None = None) -> list[Game]:
    """Import Pente.org records as archived games (status ``archived``, imported=True, unrated,
    seats without users, names from the headers, the time control from ``TimeControl``). The
    replayed outcome is in end_reason / winner_seats (an unfinished record: end_reason "")."""
    if "\x00" in text:
        # PostgreSQL text and jsonb cannot hold NUL; no real record has one.
        raise Invalid("bad_record", "The text contains a NUL character.")
    try:
        parsed = parse_records(text)
    except BadRecord as exc:
        raise Invalid(
            "bad_record",
            _shortened(exc.detail),
            extra={"line": exc.line, "record_code": exc.code},
        ) from None
    if not parsed:
        raise Invalid("bad_record", "No game record found in the text.")
    created: list[Game] = []
    with transaction.atomic():
        for index, record in enumerate(parsed, start=1):
            try:
                replay = replay_record(record)
            except EngineError as exc:
                detail = getattr(exc, "detail", str(exc))
                raise Invalid(
                    "bad_record",
                    _shortened(f"Record {index}: {detail}"),
                    extra={"record": index, "line": getattr(exc, "line", None)},
                ) from None
            created.append(_archive(record, replay))
    return created


IMPORT_DETAIL_MAX = 300


def _shortened(detail: str) -> str:
    """Error details quote the offending text; keep a huge bad token from flooding the body."""
    if len(detail) <= IMPORT_DETAIL_MAX:
        return detail
    return detail[: IMPORT_DETAIL_MAX - 1] + "…"


def _archive(record: Record, replay: Replay) -> Game:
    """Store one record, replayed once (``records.replay_record``), as an archived game."""
    position = replay.game
    headers = record.header_dict
    seats = position.seats
    outcome = replay.outcome  # None: the record ends before the game does
    reason = outcome.termination.value if outcome is not None else ""
    winners = list(outcome.winners) if outcome is not None else []
    names = []
    for seat in range(1, seats + 1):
        key = seat if position.partners else position.seat_colour(seat)
        name = headers.get(f"Player {key} Name", "")
        # The name column holds 150 characters; a longer recorded name is cut, not refused.
        names.append("" if name in ("?", "-") else name[: Seat._meta.get_field("name").max_length])
    when = _header_date(headers)
    clock = imported_time_control(headers)
    game = Game.objects.create(
        variant=position.variant.name,
        seats=seats,
        partners=position.partners,
        rated=False,
        tournament_rule=position.tournament_rule,
        adjacent_only=position.adjacent_only,
        imported=True,
        headers=headers,
        status=Game.Status.ARCHIVED,
        end_reason=reason,
        winner_seats=winners,
        ply=len(position.actions),
        **clock.fields(),
        category=clock.category,
        started_at=when,
        finished_at=when if reason else None,
    )
    Seat.objects.bulk_create(
        Seat(game=game, seat=i, user=None, name=name) for i, name in enumerate(names, start=1)
    )
    Move.objects.bulk_create(_moves_from_replay(game, replay))
    return game


def _moves_from_replay(game: Game, replay: Replay) -> list[Move]:
    """Move rows for a replayed record's actions, with the seat that took each (no new replay)."""
    rows: list[Move] = []
    for i, (action, seat) in enumerate(zip(replay.game.actions, replay.seats, strict=True), 1):
        if isinstance(action, str):
            rows.append(Move(game=game, ply=i, seat=seat, kind=Move.Kind.DECISION, choice=action))
        else:
            rows.append(Move(game=game, ply=i, seat=seat, kind=Move.Kind.STONE, point=action))
    return rows


_LIVE_TIME_CONTROL = re.compile(r"^(\d{1,3})(?:\s*\+\s*(\d{1,2}))?$", re.ASCII)
_TURN_DAYS = re.compile(r"^(\d{1,2})$", re.ASCII)


def _is_turn_based(headers: dict) -> bool:
    """Pente.org marks turn-based games in the ``Game`` name ("Turn-based Pente") or the
    ``Event`` ("Turn-based Game"); this server's exports write "... Turn-based Game" too."""
    game = str(headers.get("Game") or headers.get("GameType") or "").strip().casefold()
    event = str(headers.get("Event") or "").casefold()
    return game.startswith("turn-based") or "turn-based" in event


def imported_time_control(headers: dict) -> TimeControl:
    """Pente.org's ``TimeControl`` header as a time control: ``initial`` or ``initial+increment``
    (minutes, seconds) for live games, the days per move for turn-based ones (see
    ``games.engine.records``). A missing, placeholder (``-``/``?``) or invalid value (one no
    ``TimeControl`` allows) is untimed: a record is never refused for its clock."""
    raw = str(headers.get("TimeControl") or "").strip()
    try:
        if _is_turn_based(headers):
            match = _TURN_DAYS.match(raw)
            return TimeControl.turn(int(match[1])) if match else UNTIMED
        match = _LIVE_TIME_CONTROL.match(raw)
        return TimeControl.live(int(match[1]), int(match[2] or 0)) if match else UNTIMED
    except ClockError:
        return UNTIMED


def _header_date(headers: dict) -> datetime | None:
    raw = (headers.get("Date") or "").strip()
    if not raw or raw in ("?", "-"):
        return None
    clock = (headers.get("Time") or "").strip()
    for fmt in ("%m/%d/%Y", "%Y.%m.%d", "%Y-%m-%d"):
        try:
            day = datetime.strptime(raw, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
        try:
            t = datetime.strptime(clock, "%H:%M:%S")
            return day.replace(hour=t.hour, minute=t.minute, second=t.second)
        except ValueError:
            return day
    return None
