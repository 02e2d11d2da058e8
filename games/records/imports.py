"""Importing Pente.org game records as archived games (never playable, unrated).

The text is split into records (``split_records``: cheap, no parsing), each record is parsed on
its own (``parsed_records``), and ``records_import`` imports them in batches, one transaction per
batch: a record that cannot be read or replayed, or whose Result its moves contradict
(``result_contradicts_board``), is refused with its number, line and reason, the others are
imported. Whatever a caller writes in ``on_batch`` (a job's progress) commits
together with the batch's games, so a run that stops anywhere can resume after the last batch
committed without importing a record twice. The API runs it as a job (``games.records.jobs``);
``games_import`` runs it at once on a text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from itertools import islice
from typing import TypeVar

from django.conf import settings
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from games.clocks.timecontrol import UNTIMED, ClockError, TimeControl
from games.engine import (
    BadRecord,
    EngineError,
    Outcome,
    Position,
    Record,
    RecordMoveError,
    Replay,
    Termination,
    parse_record,
    record_from_game,
    record_outcome,
    record_stating,
    replay_record,
    write_record,
)
from games.engine.positionkey import signed64
from games.engine.sgf import read_sgf, sgf_stated_result, sgf_to_game
from games.play.models import Game, Move, Seat
from games.play.positions import action_fields
from games.records.fingerprints import fingerprint, fingerprints_fill, recorded_day
from games.records.signals import records_archived
from pente_site.bulk import copy_rows
from pente_site.errors import Invalid

T = TypeVar("T")

IMPORT_DETAIL_MAX = 300
NUL_DETAIL = "The text contains a NUL character."
#: The code of a record skipped because the same game is in the database already (or earlier
#: in the same text): see ``_new_records``.
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
        """Records skipped because their games are here already (refused as ``duplicate``)."""
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
    part; a record of a game already in the database, or earlier in the text, is refused as
    ``duplicate`` (``_new_records``). Returns the sum of the batches."""
    fingerprints_fill()  # games over whose fingerprint's job was lost
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
    stones (``Dead``, from the ``TB``/``TW`` markup), and the result ``RE`` states
    (``sgf_stated_result``): a resignation or forfeit in turn as the final ``Resign`` /
    ``Forfeit``, the rest as ``Result``, ``End Reason`` and ``Margin`` (a count the moves do
    not reach), ``Void`` and ``?`` as they are; the import then keeps it, or refuses a record
    whose result the moves contradict. An SGF that cannot be read is 400 with the reader's code
    (``bad_sgf``, ``not_go``, ``bad_size``, ``bad_result``, ...)."""
    try:
        sgf = read_sgf(text)
        game = sgf_to_game(sgf)
        stated = sgf_stated_result(sgf.result)
    except EngineError as exc:
        raise Invalid(getattr(exc, "code", "bad_sgf"), _shortened(str(exc))) from None
    headers = [
        ("Player 1 Name", sgf.black or "?"),
        ("Player 2 Name", sgf.white or "?"),
        ("Date", (sgf.date or "?")[:10]),
    ]
    resigned, forfeit = None, False
    if stated is not None and stated.how in (Termination.RESIGN, Termination.FORFEIT):
        resigned, forfeit = 3 - stated.winners[0], stated.how is Termination.FORFEIT
    record = record_from_game(game, headers, resigned_colour=resigned, forfeit=forfeit)
    if stated is not None and game.outcome is not None:  # counted: the board has the margin
        stated = replace(stated, margin=None)
    record = record_stating(record, stated, colours=2)
    if stated is None and sgf.result:  # Void, ?: no result, in the file's word
        record = record.with_header("Result", sgf.result.strip())
    return write_record(record)


def games_import(*, text: str, batch_size: int | None = None) -> ImportReport:
    """Import the records of ``text`` now, in batches (``settings.IMPORT_BATCH_SIZE``), as
    archived games (status ``archived``, imported=True, unrated, seats without users, names from
    the headers, the time control from ``TimeControl``; the outcome ``record_outcome`` keeps in
    end_reason / winner_seats: the moves', else the Result header's, a record refused where
    they contradict each other; a record with neither has end_reason ""); an SGF file is read
    as one record (``sgf_as_records``). The API imports as a job instead."""
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


@dataclass(frozen=True, slots=True)
class _Replayed:
    """A record replayed: the outcome kept (``record_outcome``), its seats' names (as stored),
    its game's fingerprint and its day."""

    number: int
    line: int
    record: Record
    replay: Replay
    outcome: Outcome | None
    names: list[str]
    fingerprint: str
    day: date | None


def _new_records(replays: list[_Replayed]) -> tuple[list[_Replayed], list[Refusal]]:
    """The records of a batch whose games are not in the database yet (nor earlier in the
    text), and the ``duplicate`` refusals of the others, naming the game here (or the record
    of the text) they repeat. A record is the same game as a stored one with its fingerprint
    (the same kind, actions, players and result) and the same day, when both have a day: a
    record without a date is the same game as any of them, whatever its date (and a stored
    game without a date as any record). Called in the batch's transaction: the fingerprints
    are locked first, so that two imports of one game at once look it up one after the
    other."""
    _lock_fingerprints([item.fingerprint for item in replays])
    stored: dict[str, list[tuple[int, date | None]]] = {}
    rows = (
        Game.objects.filter(fingerprint__in={item.fingerprint for item in replays})
        .order_by("pk")
        .values_list("fingerprint", "pk", "imported", "started_at", "created_at")
    )
    for digest, pk, imported, started_at, created_at in rows:
        day = recorded_day(imported=imported, started_at=started_at, created_at=created_at)
        stored.setdefault(digest, []).append((pk, day))
    seen: dict[str, list[tuple[int, date | None]]] = {}
    fresh: list[_Replayed] = []
    refusals: list[Refusal] = []
    for item in replays:
        here = _same_day(stored.get(item.fingerprint, ()), item.day)
        earlier = _same_day(seen.get(item.fingerprint, ()), item.day)
        if here is not None:
            detail = (
                f"Game {here} is this game already (the same game, players, moves, result "
                "and date): not imported again."
            )
        elif earlier is not None:
            detail = f"Record {earlier} of this text is the same game: imported once."
        else:
            seen.setdefault(item.fingerprint, []).append((item.number, item.day))
            fresh.append(item)
            continue
        refusals.append(Refusal(item.number, item.line, DUPLICATE, detail))
    return fresh, refusals


def _same_day(candidates: Iterable[tuple[int, date | None]], day: date | None) -> int | None:
    """The first of ``candidates`` (an id or record number, and a day) on ``day``, where
    neither day is unknown; else None."""
    for number, other in candidates:
        if day is None or other is None or other == day:
            return number
    return None


def _lock_fingerprints(digests: Iterable[str]) -> None:
    """PostgreSQL: take this transaction's advisory lock of each fingerprint, in order (two
    batches that share some never deadlock), so that a second import of a game waits for the
    first to commit, and then finds its game. SQLite needs none: a transaction there holds the
    only write lock from its start (``transaction_mode`` ``IMMEDIATE``)."""
    if connection.vendor != "postgresql":
        return
    keys = sorted({signed64(int(digest[:16], 16)) for digest in digests})
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_advisory_xact_lock(k)) FROM "
            "(SELECT unnest(%s::bigint[]) AS k ORDER BY k) AS ordered",
            [keys],
        )


def _replayed(item: ParsedRecord) -> _Replayed | Refusal:
    if isinstance(item.record, Refusal):
        return item.record
    record = item.record
    try:
        replay = replay_record(record)
        outcome = record_outcome(record, replay)
    except EngineError as exc:
        return _refusal(item, exc)
    headers = record.header_dict
    names = _seat_names(headers, replay.game)
    digest = fingerprint(
        position=replay.game,
        names=names,
        end_reason=outcome.termination.value if outcome is not None else "",
        winner_seats=outcome.winners if outcome is not None else (),
        imported=True,
        headers=headers,
    )
    when = _header_date(headers)
    day = when.date() if when is not None else None
    return _Replayed(item.number, item.line, record, replay, outcome, names, digest, day)


def _seat_names(headers: dict, position: Position) -> list[str]:
    """The names of a record's seats, seat 1 first, as ``Seat.name`` holds them: "" for an
    unknown one (``?``, ``-``), a name longer than the column cut (not refused)."""
    names = []
    for seat in range(1, position.seats + 1):
        name = seat_header(headers, position, seat, "Name") or ""
        names.append("" if name in ("?", "-") else name[: Seat._meta.get_field("name").max_length])
    return names


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
            detail = _shortened(f"The database refused the game: {exc}")
            refusals.append(Refusal(item.number, item.line, "not_stored", detail))
    return game_ids, refusals


def _archive_all(replays: list[_Replayed]) -> list[Game]:
    """Store replayed records as archived games: the games in one INSERT, their seats and moves
    in one bulk write each (``copy_rows``) however many records; then ``records_archived``."""
    games = [_archived(item) for item in replays]
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
            for game, item in zip(games, replays, strict=True)
            for i, name in enumerate(item.names, start=1)
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


def _archived(item: _Replayed) -> Game:
    """The archived game of one replayed record, not saved yet."""
    position = item.replay.game
    headers = item.record.header_dict
    outcome = item.outcome  # None: the record states no result its moves do not reach
    reason = outcome.termination.value if outcome is not None else ""
    winners = list(outcome.winners) if outcome is not None else []
    when = _header_date(headers)
    clock = imported_time_control(headers)
    game = Game(
        variant=position.variant.name,
        seats=position.seats,
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
        fingerprint=item.fingerprint,
    )
    return game


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
