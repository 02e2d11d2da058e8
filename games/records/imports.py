"""Importing Pente.org game records as archived games (never playable, unrated).

The text is split into records (``split_records``: cheap, no parsing), each record is parsed on
its own (``parsed_records``), and ``records_import`` imports them in batches, one transaction per
batch: a record that cannot be read or replayed is refused with its number, line and reason,
the others are imported. Whatever a caller writes in ``on_batch`` (a job's progress) commits
together with the batch's games, so a run that stops anywhere can resume after the last batch
committed without importing a record twice. The API runs it as a job (``games.records.jobs``);
``games_import`` runs it at once on a text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice
from typing import TypeVar

from django.conf import settings
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from games.clocks.timecontrol import UNTIMED, ClockError, TimeControl
from games.engine import (
    BadRecord,
    EngineError,
    Position,
    Record,
    RecordMoveError,
    Replay,
    parse_record,
    record_from_game,
    replay_record,
    write_record,
)
from games.engine.sgf import read_sgf, sgf_to_game
from games.models import Game, Move, Seat
from games.play.positions import action_fields
from games.records.signals import records_archived
from pente_site.bulk import copy_rows
from pente_site.errors import Invalid

T = TypeVar("T")

IMPORT_DETAIL_MAX = 300
NUL_DETAIL = "The text contains a NUL character."
#: The code of a record skipped because the same record is in the database already.
DUPLICATE = "duplicate"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A record that was not imported: its number in the text (from 1), the line where it
    starts (or where reading it failed), a machine-readable code and a sentence."""

    record: int
    line: int
    code: str
    detail: str

    def as_dict(self) -> dict[str, int | str]:
        return {"record": self.record, "line": self.line, "code": self.code, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class RecordText:
    """The text of one record: its number in the text (from 1) and its first line."""

    number: int
    line: int
    text: str


@dataclass(frozen=True, slots=True)
class ParsedRecord:
    """One record read on its own: the ``Record``, or the ``Refusal`` of its text."""

    number: int
    line: int
    record: Record | Refusal


@dataclass(frozen=True, slots=True)
class Batch:
    """What one batch did: how many records it took, the games it created (record order) and
    the records it refused."""

    records: int
    game_ids: list[int]
    refusals: list[Refusal]

    @property
    def duplicates(self) -> int:
        """Records skipped because they are in the database already (refused as ``duplicate``)."""
        return sum(1 for r in self.refusals if r.code == DUPLICATE)


@dataclass(slots=True)
class ImportReport:
    """The sum of the batches of one ``records_import``."""

    records: int = 0
    game_ids: list[int] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)

    def add(self, batch: Batch) -> None:
        self.records += batch.records
        self.game_ids.extend(batch.game_ids)
        self.refusals.extend(batch.refusals)

    @property
    def duplicates(self) -> int:
        return sum(1 for r in self.refusals if r.code == DUPLICATE)


def split_records(lines: Iterable[str]) -> Iterator[RecordText]:
    """Split lines (``text.splitlines()``: no line ends) into the texts of their records,
    without parsing them, at the places ``games.engine.parse_records`` would: a header line
    starts a new record after move text, or after a blank line that follows headers. Blank and
    comment lines before the first record are dropped; those after a record stay with it, so the
    line numbers of a record's text are its own lines, counted from ``line``."""
    number = start = 0
    chunk: list[str] = []
    headers = in_moves = closed = False
    for lineno, raw in enumerate(lines, start=1):
        if lineno == 1:
            raw = raw.removeprefix("\ufeff")
        line = raw.strip()
        if not line or line.startswith(("%", ";")):
            closed = closed or (headers and not line)
            if chunk:
                chunk.append(raw)
            continue
        is_header = line.startswith("[")
        if chunk and is_header and (in_moves or closed):
            number += 1
            yield RecordText(number, start, "\n".join(chunk))
            chunk = []
        if not chunk:
            start, headers, in_moves, closed = lineno, False, False, False
        headers = headers or is_header
        in_moves = in_moves or not is_header
        chunk.append(raw)
    if chunk:
        yield RecordText(number + 1, start, "\n".join(chunk))


def records_count(*, text: str) -> int:
    """How many records ``text`` holds (``split_records``: cheap, nothing is parsed)."""
    return sum(1 for _ in split_records(text.splitlines()))


def parsed_records(texts: Iterable[RecordText]) -> Iterator[ParsedRecord]:
    """Parse each record's text on its own: a malformed one becomes a ``Refusal`` (line
    numbers counted in the whole text) and the others are still read."""
    for item in texts:
        if "\x00" in item.text:  # PostgreSQL text and jsonb cannot hold NUL
            refusal = Refusal(item.number, item.line, "bad_record", NUL_DETAIL)
            yield ParsedRecord(item.number, item.line, refusal)
            continue
        try:
            record: Record | Refusal = parse_record(item.text)
        except BadRecord as exc:
            record = _refusal(item, exc)
        yield ParsedRecord(item.number, item.line, record)


def records_import(
    *,
    records: Iterable[ParsedRecord],
    batch_size: int,
    on_batch: Callable[[Batch], None] | None = None,
) -> ImportReport:
    """Import ``records`` in batches of ``batch_size``: each record is replayed once through
    the engine (outside any transaction), then each batch's games are stored and
    ``on_batch(batch)`` is called in one transaction, so both commit or neither does. A record
    that cannot be read, replayed or stored is refused on its own; a record is never stored in
    part; a record already in the database (the same ``record_digest``), or twice in the text,
    is refused as ``duplicate`` after its first copy. Returns the sum of the batches."""
    report = ImportReport()
    for chunk in batches(records, batch_size):
        replays: list[_Replayed] = []
        refusals: list[Refusal] = []
        for item in chunk:
            replayed = _replayed(item)
            if isinstance(replayed, Refusal):
                refusals.append(replayed)
            else:
                replays.append(replayed)
        with transaction.atomic():
            replays, duplicates = _new_records(replays)
            refusals.extend(duplicates)
            game_ids, not_stored = _store(replays)
            refusals = sorted(refusals + not_stored, key=lambda r: r.record)
            batch = Batch(records=len(chunk), game_ids=game_ids, refusals=refusals)
            if on_batch is not None:
                on_batch(batch)
        report.add(batch)
    return report


def batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter), read as they are needed."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def seat_header(headers: dict, position: Position, seat: int, field: str) -> str | None:
    """A record's ``Player N <field>`` header for ``seat`` (``Name``, ``Rating``): N is the
    seat's colour, or the seat itself in Partners (four names for two colours)."""
    number = seat if position.partners else position.seat_colour(seat)
    return headers.get(f"Player {number} {field}")


def is_sgf(text: str) -> bool:
    """Whether ``text`` is an SGF file rather than Pente.org records (SGF opens with ``(;``)."""
    return text.lstrip("\ufeff \t\r\n").startswith("(")


def sgf_as_records(text: str) -> str:
    """The first game of an SGF file (Go) as a Pente.org record's text, so that it is imported
    like any record: the players, the date, ``Komi``, the moves with ``PASS``, the agreed dead
    stones (``Dead``, from the ``TB``/``TW`` markup) and a resignation. An SGF that cannot be
    read is 400 with the reader's code (``bad_sgf``, ``not_go``, ``bad_size``, ...)."""
    try:
        sgf = read_sgf(text)
        game = sgf_to_game(sgf)
    except EngineError as exc:
        raise Invalid(getattr(exc, "code", "bad_sgf"), _shortened(str(exc))) from None
    headers = [
        ("Player 1 Name", sgf.black or "?"),
        ("Player 2 Name", sgf.white or "?"),
        ("Date", (sgf.date or "?")[:10]),
    ]
    resigned = None
    if sgf.result and sgf.result.upper().endswith(("+R", "+RESIGN")) and sgf.winner:
        resigned = 3 - sgf.winner
    return write_record(record_from_game(game, headers, resigned_colour=resigned))


def games_import(*, text: str, batch_size: int | None = None) -> ImportReport:
    """Import the records of ``text`` now, in batches (``settings.IMPORT_BATCH_SIZE``), as
    archived games (status ``archived``, imported=True, unrated, seats without users, names from
    the headers, the time control from ``TimeControl``; the replayed outcome in end_reason /
    winner_seats, an unfinished record with end_reason ""); an SGF file is read as one record
    (``sgf_as_records``). The API imports as a job instead."""
    if is_sgf(text):
        text = sgf_as_records(text)
    return records_import(
        records=parsed_records(split_records(text.splitlines())),
        batch_size=batch_size or settings.IMPORT_BATCH_SIZE,
    )


def _shortened(detail: str) -> str:
    """Error details quote the offending text; keep a huge bad token from flooding the body."""
    if len(detail) <= IMPORT_DETAIL_MAX:
        return detail
    return detail[: IMPORT_DETAIL_MAX - 1] + "…"


def _refusal(item: RecordText | ParsedRecord, exc: EngineError) -> Refusal:
    """The refusal of a record the engine could not read or replay (its line in the text)."""
    code = getattr(exc, "code", None) or "bad_record"
    detail = getattr(exc, "detail", None) or str(exc)
    if isinstance(exc, RecordMoveError):
        detail = f"Move {exc.ply} ({exc.move}): {detail}"
    where = getattr(exc, "line", None)
    line = item.line + where - 1 if where else item.line
    return Refusal(item.number, line, code, _shortened(detail))


def record_digest(record: Record) -> str:
    """A record's fingerprint: a hash of it as written back (``write_record``), so that two
    copies that differ only in spacing, line breaks or move numbers are the same record."""
    return hashlib.blake2b(write_record(record).encode(), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class _Replayed:
    number: int
    line: int
    record: Record
    replay: Replay
    digest: str


def _new_records(replays: list[_Replayed]) -> tuple[list[_Replayed], list[Refusal]]:
    """The records of a batch not in the database yet (nor earlier in the batch), and the
    ``duplicate`` refusals of the others."""
    stored = dict(
        Game.objects.filter(record_digest__in=[r.digest for r in replays]).values_list(
            "record_digest", "pk"
        )
    )
    seen: dict[str, int] = {}
    fresh: list[_Replayed] = []
    refusals: list[Refusal] = []
    for item in replays:
        if item.digest in stored:
            where = f"as game {stored[item.digest]}"
        elif item.digest in seen:
            where = f"earlier in this text (record {seen[item.digest]})"
        else:
            seen[item.digest] = item.number
            fresh.append(item)
            continue
        detail = f"The same record is in the database already, {where}: skipped."
        refusals.append(Refusal(item.number, item.line, DUPLICATE, detail))
    return fresh, refusals


def _replayed(item: ParsedRecord) -> _Replayed | Refusal:
    if isinstance(item.record, Refusal):
        return item.record
    try:
        replay = replay_record(item.record)
        return _Replayed(item.number, item.line, item.record, replay, record_digest(item.record))
    except EngineError as exc:
        return _refusal(item, exc)


def _store(replays: list[_Replayed]) -> tuple[list[int], list[Refusal]]:
    """Store a batch's games at once; should the database refuse one of them, store them one by
    one and refuse those it refuses. Returns the ids of the games and the refusals."""
    try:
        with transaction.atomic():
            return [game.pk for game in _archive_all(replays)], []
    except (DataError, IntegrityError):
        pass
    game_ids: list[int] = []
    refusals: list[Refusal] = []
    for item in replays:
        try:
            with transaction.atomic():
                (game,) = _archive_all([item])
            game_ids.append(game.pk)
        except (DataError, IntegrityError) as exc:
            if Game.objects.filter(record_digest=item.digest).exists():  # another import's
                detail = "The same record is in the database already: skipped."
                refusals.append(Refusal(item.number, item.line, DUPLICATE, detail))
                continue
            detail = _shortened(f"The database refused the game: {exc}")
            refusals.append(Refusal(item.number, item.line, "not_stored", detail))
    return game_ids, refusals


def _archive_all(replays: list[_Replayed]) -> list[Game]:
    """Store replayed records as archived games: the games in one INSERT, their seats and moves
    in one bulk write each (``copy_rows``) however many records; then ``records_archived``."""
    built = [_archived(item.record, item.replay) for item in replays]
    games = [game for game, _ in built]
    for game, item in zip(games, replays, strict=True):
        game.record_digest = item.digest
    if connection.features.can_return_rows_from_bulk_insert:
        Game.objects.bulk_create(games)
    else:  # pragma: no cover - SQLite before 3.35
        for game in games:
            game.save()
    copy_rows(
        Seat,
        ("game", "seat", "user", "name"),
        (
            (game.pk, i, None, name)
            for game, names in built
            for i, name in enumerate(names, start=1)
        ),
    )
    now = timezone.now()
    copy_rows(
        Move,
        ("game", "ply", "seat", "kind", "point", "choice", "message", "created_at"),
        (
            row
            for game, item in zip(games, replays, strict=True)
            for row in _move_rows(game.pk, item.replay, now)
        ),
    )
    records_archived.send(sender=Game, games=games, replays=[item.replay for item in replays])
    return games


def _archived(record: Record, replay: Replay) -> tuple[Game, list[str]]:
    """The archived game of one record, replayed once (``records.replay_record``), not saved
    yet, and the names of its seats."""
    position = replay.game
    headers = record.header_dict
    seats = position.seats
    outcome = replay.outcome  # None: the record ends before the game does
    reason = outcome.termination.value if outcome is not None else ""
    winners = list(outcome.winners) if outcome is not None else []
    names = []
    for seat in range(1, seats + 1):
        name = seat_header(headers, position, seat, "Name") or ""
        # The name column holds 150 characters; a longer recorded name is cut, not refused.
        names.append("" if name in ("?", "-") else name[: Seat._meta.get_field("name").max_length])
    when = _header_date(headers)
    clock = imported_time_control(headers)
    game = Game(
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
    return game, names


def _move_rows(game_id: int, replay: Replay, now: datetime) -> Iterator[tuple]:
    """The Move rows (``_archive_all``'s columns) of a replayed record's actions, with the seat
    that took each (no new replay)."""
    for i, (action, seat) in enumerate(zip(replay.game.actions, replay.seats, strict=True), 1):
        fields = action_fields(action)
        yield (game_id, i, seat, str(fields["kind"]), fields["point"], fields["choice"], "", now)


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
