"""A game's moves and engine position, rebuilt from the database and cached between requests
(a pure cache: see ``docs/move-pipeline.md``), and the helpers that read a game row's sides."""

from __future__ import annotations

import json
import logging
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from django.db import DEFAULT_DB_ALIAS

from accounts.models import User
from games import engine
from games.engine import point_names
from games.engine.go import MARK, PASS
from games.engine.records.model import KOMI_HEADER
from games.play.models import Game, Move, Seat
from pente_site.cache import delete_with_text, get_with_text, set_with_text

log = logging.getLogger(__name__)

#: Go's answers to a marking of dead stones (the decisions of a Go game).
GO_DECISIONS = ("accept", "reject")

#: Key prefix of the cached positions (the tests give each test its own).
CACHE_PREFIX = "game-played"
#: How long an untouched game's position stays cached (a turn-based game may wait for days;
#: it is then rebuilt from its moves once).
CACHE_SECONDS = 6 * 3600


class MoveRow(NamedTuple):
    """A played ``Move`` as the game state shows it and the actions read it, its point already
    named and its time already written as the API writes times: cached with the position (a
    tuple of plain values pickles, loads and renders far faster than a model instance)."""

    ply: int
    seat: int
    kind: str
    point: int | None
    name: str | None
    choice: str
    message: str
    created_at: str


def iso_time(moment: datetime) -> str:
    """A time as the API's JSON writes it (ISO 8601, UTC as ``Z``)."""
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def move_row(
    size: int,
    ply: int,
    seat: int,
    kind: str,
    point: int | None,
    choice: str,
    message: str,
    created_at,
) -> MoveRow:
    """A ``MoveRow`` from a Move's columns (``MOVE_FIELDS``) on a board of ``size``."""
    names = point_names(size)
    return MoveRow(
        ply,
        seat,
        str(kind),
        point,
        names[point] if point is not None else None,
        choice,
        message,
        iso_time(created_at),
    )


#: The Move columns ``move_row`` takes, in order.
MOVE_FIELDS = ("ply", "seat", "kind", "point", "choice", "message", "created_at")

#: Callables ``check(game) -> str | None``: a non-empty string forbids cancelling the game and is
#: the reason shown. The tournaments app appends its check (tournament games cannot be cancelled).
CANCEL_FORBIDDEN_CHECKS: list[Callable[[Game], str | None]] = []


#: The columns of a game row ``engine_options`` reads: a query that loads games with
#: ``.only(...)`` for it lists these, or each game costs another query.
ENGINE_OPTION_FIELDS = (
    "variant",
    "seats",
    "partners",
    "tournament_rule",
    "rated",
    "adjacent_only",
    "imported",
    "headers",
)


def engine_options(game: Game) -> dict[str, Any]:
    """Options of the engine position for a game row (``engine.new_game``); a Go record
    imported with its own komi (its ``Komi`` header) is counted with it."""
    options: dict[str, Any] = {
        "seats": game.seats,
        "partners": game.partners,
        "tournament_rule": game.tournament_rule,
        "rated": game.rated,
        "adjacent_only": game.adjacent_only,
    }
    komi = record_komi(game)
    if komi is not None:
        options["komi"] = komi
    return options


def record_komi(game: Game) -> float | None:
    """The komi an imported Go record states (its ``Komi`` header), or None: the engine's."""
    if not game.imported or not engine.get_variant(game.variant).scored_by_area:
        return None
    try:
        return float((game.headers or {}).get(KOMI_HEADER, ""))
    except ValueError:
        return None


def move_action(kind: str, point: int | None, choice: str) -> int | str:
    """The engine action of a Move: its point, its decision, Go's ``PASS`` or ``MARK ...``."""
    if kind == Move.Kind.STONE:
        return point  # type: ignore[return-value]
    if kind == Move.Kind.PASS:
        return PASS
    if kind == Move.Kind.MARK:
        return f"{MARK} {choice}".strip()
    return choice


def action_fields(action: int | str) -> dict[str, Any]:
    """The Move columns (``kind``, ``point``, ``choice``) of an engine action: the inverse of
    ``move_action``."""
    if isinstance(action, int):
        return {"kind": Move.Kind.STONE, "point": action, "choice": ""}
    word, _, rest = action.partition(" ")
    if word.upper() == PASS:
        return {"kind": Move.Kind.PASS, "point": None, "choice": ""}
    if word.upper() == MARK:
        return {"kind": Move.Kind.MARK, "point": None, "choice": rest.strip()}
    if action.upper() in ("ACCEPT", "REJECT"):
        action = action.lower()
    return {"kind": Move.Kind.DECISION, "point": None, "choice": action}


def move_actions(moves: Sequence[Move | MoveRow]) -> list[int | str]:
    """Engine actions of Move rows in ply order."""
    return [move_action(m.kind, m.point, m.choice) for m in moves]


def board_size(game: Game) -> int:
    return engine.get_variant(game.variant).size


def move_rows(moves: Sequence[Move], size: int) -> list[MoveRow]:
    """Saved Move rows as ``MoveRow`` values."""
    return [move_row(size, *(getattr(m, f) for f in MOVE_FIELDS)) for m in moves]


def move_json(row: MoveRow, *, show_message: bool) -> str:
    """One move as the game state's JSON writes it (compact, as the API's renderer). Go's
    rejection that names stones (its ``choice`` ``reject C3 D4``) is written ``"choice":
    "reject"`` with ``"disputed": ["C3", "D4"]``."""
    move = {
        "ply": row.ply,
        "seat": row.seat,
        "kind": row.kind,
        "point": row.point,
        "name": row.name,
        "choice": row.choice,
        "message": row.message if show_message else None,
        "message_visible": show_message,
        "created_at": row.created_at,
    }
    if row.kind == Move.Kind.DECISION and " " in row.choice:
        word, *disputed = row.choice.split()
        if word == GO_DECISIONS[1]:
            move["choice"] = word
            move["disputed"] = disputed
    return api_json(move)


def _api_json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso_time(value)
    raise TypeError(f"{type(value).__name__} is not written in a game state")


#: orjson's options for ``api_json``: times through ``_api_json_default`` (``Z``, not
#: ``+00:00``), and keys that are not strings written as strings, as ``json`` writes them.
_API_JSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS


def api_json_bytes(data: Any) -> bytes:
    """``data`` (plain values and times) written as the API's renderer writes it: compact,
    unescaped Unicode but for U+2028 and U+2029, times in ISO 8601 with ``Z``. Written by
    orjson, about six times as fast as ``json`` on a game state (its list of stones is most of
    its length), in the same bytes (but a float under 0.0001: ``1e-7``, not ``1e-07``; a game
    state holds none)."""
    text = orjson.dumps(data, default=_api_json_default, option=_API_JSON_OPTIONS)
    if b"\xe2\x80\xa8" in text or b"\xe2\x80\xa9" in text:
        text = text.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return text


def api_json(data: Any) -> str:
    """``api_json_bytes`` as text."""
    return api_json_bytes(data).decode()


@dataclass(frozen=True, slots=True)
class Played:
    """A game's moves and the engine position after them, as cached between requests.

    The moves are kept as their JSON (``shown``: with their messages; strangers' view of a game
    in progress hides them, ``hidden_messages``), so that the game state's answer splices them
    in whole instead of building and encoding an object per move; ``tail`` keeps the last two
    moves for the actions (a repeat of one's own last action). ``tag`` names the cache entry
    these moves were read from or written to (None: not cached), so that the next turn appends
    its moves to that entry instead of writing them all again."""

    position: engine.Position
    count: int
    tail: tuple[MoveRow, ...]
    shown: str
    tag: str | None = None

    @classmethod
    def of(cls, rows: Sequence[MoveRow], position: engine.Position) -> Played:
        return cls(position, 0, (), "").extended(rows, position)

    def extended(self, rows: Sequence[MoveRow], position: engine.Position) -> Played:
        """These moves followed by ``rows``, ending at ``position`` (not cached yet)."""
        shown = [self.shown] if self.shown else []
        shown += (move_json(r, show_message=True) for r in rows)
        return Played(position, self.count + len(rows), (*self.tail, *rows)[-2:], ",".join(shown))

    def moves_json(self, *, show_messages: bool) -> str:
        """The moves as a JSON array."""
        return f"[{self.shown if show_messages else hidden_messages(self.shown)}]"

    def moves(self, *, show_messages: bool) -> list[dict[str, Any]]:
        return json.loads(self.moves_json(show_messages=show_messages))


#: A move's message as ``move_json`` writes it shown, empty and not, and hidden.
_EMPTY_SHOWN = '"message":"","message_visible":true'
_MESSAGE_SHOWN = re.compile(r'"message":"(?:[^"\\]|\\.)*","message_visible":true')
_MESSAGE_HIDDEN = '"message":null,"message_visible":false'


def hidden_messages(shown: str) -> str:
    """Moves written by ``move_json`` with their messages shown, as written with them hidden
    (a JSON string holds no bare quote, so the pattern cannot start inside a message)."""
    hidden = shown.replace(_EMPTY_SHOWN, _MESSAGE_HIDDEN)
    if '"message_visible":true' in hidden:
        hidden = _MESSAGE_SHOWN.sub(_MESSAGE_HIDDEN, hidden)
    return hidden


@dataclass(frozen=True, slots=True, eq=False)
class Snapshot:
    """A game as one request holds it, passed to whoever shows it: the row (its seats loaded or
    not), its moves and engine position when the request already has them (``played``: those a
    player's action left, or those the cache gave with the row), and ``memo``, where the state
    selectors keep what they built from them (the state written once, so that the game's live
    event and the answer to the request share it). Nothing here is stored on the row itself.

    ``played`` is only used while it is of the row's ply (an action taken back since is read
    again); its position is read, never played on."""

    game: Game
    played: Played | None = None
    memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def current(self) -> Played:
        """The moves and position of the row as it stands: ``played`` when it is of this ply,
        else read once (``played_of``) and kept in ``memo`` for this ply."""
        game = self.game
        if self.played is not None and self.played.count == game.ply:
            return self.played
        kept = self.memo.get("played")
        if kept is None or kept[0] != game.ply:
            kept = self.memo["played"] = (game.ply, played_of(game))
        return kept[1]


def _cache_key(game: Game) -> str:
    return f"{CACHE_PREFIX}:{game.pk}"


def _stamp(game: Game) -> tuple[Any, ...]:
    return (game.created_at, game.ply, game.updated_at)


#: The Game columns a cached row holds, in the model's order, and a check of that list (an
#: entry written by a release with other columns is not used).
_GAME_FIELDS = tuple(f.attname for f in Game._meta.concrete_fields)
_GAME_FIELDS_CHECK = zlib.crc32(",".join(_GAME_FIELDS).encode())


def _in_model_order(model, names: set[str]) -> tuple[str, ...]:
    """``names`` in the order of the model's columns (the order ``Model.from_db`` reads a
    partial row in)."""
    return tuple(f.attname for f in model._meta.concrete_fields if f.attname in names)


#: The Seat and User columns a cached row holds (a user's other columns are read if needed).
_SEAT_FIELDS = _in_model_order(Seat, {"id", "game_id", "seat", "user_id", "name"})
_USER_FIELDS = _in_model_order(User, {"id", "username", "bot_level", "is_computer"})


def _row_of(game: Game) -> tuple[Any, ...] | None:
    """What a cache entry keeps of the game beside its moves: its seats and their users (to
    show the game; they never change once it exists) and the row's values (a starting point for
    the next turn, whose claim checks in the database every column it relies on), when this
    instance holds them all. None without the seats."""
    seats = game.loaded_seats()
    if seats is None:
        return None
    kept = []
    for seat in seats:
        if seat.user_id is not None and not Seat.user.is_cached(seat):
            return None
        user = seat.user if seat.user_id is not None else None
        kept.append(
            (
                tuple(getattr(seat, f) for f in _SEAT_FIELDS),
                None if user is None else tuple(getattr(user, f) for f in _USER_FIELDS),
            )
        )
    if game.get_deferred_fields():
        return None
    values = tuple(getattr(game, name) for name in _GAME_FIELDS)
    return (_GAME_FIELDS_CHECK, values, tuple(kept))


def _tag(stamp: tuple[Any, ...]) -> str:
    """The cache entry's tag of a row's stamp: the version its moves are appended to."""
    created_at, ply, updated_at = stamp
    return f"{ply}|{updated_at.isoformat()}|{created_at.isoformat()}"


def _cache_read(game_id: int) -> tuple[tuple[Any, ...], Played, Any] | None:
    """The cached stamp, moves and position, and row of a game (``_row_of``), or None."""
    try:
        hit = get_with_text(f"{CACHE_PREFIX}:{int(game_id)}")
    except Exception:
        log.warning("cannot read the cached position of game %s", game_id, exc_info=True)
        return None
    if hit is None:
        return None
    value, tag, text = hit
    try:
        stamp, (position, count, tail), row = value
    except (TypeError, ValueError):  # written by a release that cached something else
        return None
    if tag != _tag(stamp):
        return None
    return stamp, Played(position, count, tail, text, tag), row


def cached_game(game_id: int) -> tuple[Game, Played] | None:
    """The game row with its seats and users, and its moves and position, as the cache last kept
    them (one read, no query), or None. They may be out of date: only the turn's claim
    (``games.play.claim``), which checks the row in the database, may rely on them. The
    position is the caller's."""
    hit = _cache_read(game_id)
    if hit is None or hit[2] is None or hit[2][0] != _GAME_FIELDS_CHECK:
        return None
    stamp, played, (_check, values, seats) = hit
    game = Game.from_db(DEFAULT_DB_ALIAS, _GAME_FIELDS, values)
    if _stamp(game) != stamp:
        return None
    _keep_cached_seats(game, seats)
    return game, played


def _keep_cached_seats(game: Game, seats: tuple[Any, ...]) -> None:
    """Give ``game`` its seats and their users as a cache entry holds them (``_row_of``)."""
    rows = []
    for seat_values, user_values in seats:
        seat = Seat.from_db(DEFAULT_DB_ALIAS, _SEAT_FIELDS, seat_values)
        seat.game = game
        if user_values is not None:
            seat.user = User.from_db(DEFAULT_DB_ALIAS, _USER_FIELDS, user_values)
        rows.append(seat)
    game.keep_seats(rows)


def cached_played(game: Game) -> Played | None:
    """Give ``game``, a row just read without its seats, its seats and users from the cache, and
    return its moves and position, when the cached entry is of the row as read (then showing the
    game needs no other query: seats never change once the game exists, and a seat's user is
    shown by id and name only, which never change either). None, giving nothing, otherwise."""
    hit = _cache_read(game.pk)
    if hit is None or hit[0] != _stamp(game) or hit[2] is None or hit[2][0] != _GAME_FIELDS_CHECK:
        return None
    _cached_stamp, played, (_check, _values, seats) = hit
    _keep_cached_seats(game, seats)
    return played


def _cache_store(game: Game, played: Played, *, base: Played | None = None) -> str | None:
    """Cache ``played`` for the game row as it stands, appending its moves to those of ``base``
    (what it extends, as read from the cache) when ``base`` came from there; returns the entry's
    tag (None: not cached)."""
    stamp = _stamp(game)
    tag = _tag(stamp)
    value = (stamp, (played.position, played.count, played.tail), _row_of(game))
    text, base_tag = played.shown, None
    if base is not None and base.tag is not None and base.count < played.count:
        if played.shown.startswith(base.shown):  # what it extends: append the rest
            text, base_tag = played.shown[len(base.shown) :], base.tag
    try:
        stored = set_with_text(
            _cache_key(game),
            value,
            tag=tag,
            text=text,
            timeout=CACHE_SECONDS,
            base_tag=base_tag,
        )
    except Exception:  # a cache outage costs a replay, never a move
        log.warning("cannot cache the position of game %s", game.pk, exc_info=True)
        return None
    return tag if stored else None


def cache_played(game: Game, played: Played, *, base: Played | None = None) -> Played:
    """Cache ``played`` (the game's moves and position as just written; ``base``: the moves it
    extends, as read) for the next request; returns it with the tag of its cache entry."""
    return replace(played, tag=_cache_store(game, played, base=base))


def forget_played(game: Game) -> None:
    """Drop the cached moves and position (the moves were taken back)."""
    try:
        delete_with_text(_cache_key(game))
    except Exception:
        log.warning("cannot drop the cached position of game %s", game.pk, exc_info=True)


def played_of(game: Game) -> Played:
    """The game's moves and the engine position after them: from the cache when they match the
    row, otherwise one SELECT and a replay (then cached). The position is the caller's own:
    acting on it changes nothing cached."""
    hit = _cache_read(game.pk)
    if hit is not None and hit[0] == _stamp(game):
        return hit[1]
    # Read without the row lock, the moves may already hold a move committed after this row was
    # read: take those up to the row's ply, so the moves match the row they are stamped with.
    size = board_size(game)
    rows = [
        move_row(size, *row)
        for row in Move.objects.filter(game=game, ply__lte=game.ply)
        .order_by("ply")
        .values_list(*MOVE_FIELDS)
    ]
    played = Played.of(rows, position_of(game, rows))
    if len(rows) == game.ply:  # fewer: taken back meanwhile; right now, not worth keeping
        played = replace(played, tag=_cache_store(game, played))
    return replace(played, position=played.position.copy())


def played_upto(game: Game, ply: int) -> Played:
    """The game's first ``ply`` moves and the position after them (one SELECT and a replay; not
    cached: the view of spectators of a game with a spectator delay)."""
    size = board_size(game)
    rows = [
        move_row(size, *row)
        for row in Move.objects.filter(game=game, ply__lte=min(ply, game.ply))
        .order_by("ply")
        .values_list(*MOVE_FIELDS)
    ]
    return Played.of(rows, position_of(game, rows))


def position_of(game: Game, moves: Sequence[Move | MoveRow] | None = None) -> engine.Position:
    """The engine position after ``moves`` (default: all the game's moves, one SELECT)."""
    if moves is None:
        moves = list(game.moves.order_by("ply"))
    return engine.replay_game(game.variant, move_actions(moves), **engine_options(game))


def seat_to_move(game: Game, moves: Sequence[Move] | None = None) -> int | None:
    """The seat to move now, from a replay of the game's moves."""
    return position_of(game, moves).to_move_seat


def team_of(game: Game, seat: int) -> tuple[int, ...]:
    """Seats on the same side as ``seat`` (partners: 1&3, 2&4; otherwise the seat alone)."""
    if game.partners:
        return (1, 3) if seat in (1, 3) else (2, 4)
    return (seat,)


def opponents_of(game: Game, seat: int) -> list[int]:
    team = team_of(game, seat)
    return [s for s in range(1, game.seats + 1) if s not in team]


def cancel_forbidden_reason(game: Game) -> str | None:
    """Why the game cannot be cancelled (None when it can)."""
    if game.status == Game.Status.ARCHIVED:
        return "The game is an imported record."
    if game.status != Game.Status.IN_PROGRESS:
        return "The game is over."
    for check in CANCEL_FORBIDDEN_CHECKS:
        reason = check(game)
        if reason:
            return str(reason)
    return None
