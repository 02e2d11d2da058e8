"""Pente.org's PGN-like game records: read, write, and replay them through the engine.

A record is a block of header lines followed by move text::

    [Game "Pente"]
    [Site "Pente.org"]
    [Event "Turn-based Game"]
    [Round "-"]
    [Section "-"]
    [Date "01/19/2014"]
    [Time "21:22:25"]
    [TimeControl "5"]
    [Rated "Y"]
    [Player 1 Name "alice"]
    [Player 2 Name "bob"]
    [Player 1 Rating "1650"]
    [Player 2 Rating "1600"]
    [Player 1 Type "Human"]
    [Player 2 Type "Human"]
    [Result "1-0"]

    1. K10 M9 2. N10 M7 3. M8 O7 4. L10 J10 5. M10 O10 6. L9 N7 7. L7 P7 8. Q7 L11
    9. L8 L6 10. K8 J9 11. J11 H12 12. J8 N8 13. H8 1-0

Several records may follow one another in one file. The conventions, as Pente.org writes them:

* Header lines are ``[Name "value"]``; names may contain spaces (``Player 1 Name``). The value
  runs from the first to the last double quote, so it needs no escaping. Pente.org writes ``-`` for
  an unknown event/round/section/time control and ``?`` for an unknown name, rating or result.
  ``Date`` is ``MM/DD/YYYY`` (``YYYY.MM.DD`` is read too), ``Time`` is ``HH:MM:SS``;
  ``TimeControl`` is ``initial`` or ``initial+increment`` (minutes, seconds) for live games and
  the days per move for turn-based ones; ``Rated`` is ``Y`` or ``N``.
* ``Game`` is the game's name exactly as Pente.org writes it ("Pente", "Keryo-Pente", "D-Pente",
  "Connect6", ...). Pente.org's ``Speed `` / ``Turn-based `` prefixes ("Speed Pente") are read
  as the plain game.
* Move text: a move number ``N.`` before every other stone, the stones as point names (``K10``;
  the integer form ``180`` is read too), then a result token (``1-0``, ``0-1``, ``1/2-1/2``,
  ``*`` for a game in progress, ``?`` unknown). Lines are wrapped before 80 characters. Every
  stone placed is written, including the automatic centre stone (the first move of the text)
  and stones later captured. In Connect6 every stone is its own token (a turn's two stones are
  two tokens). Move numbers are decoration: the reader ignores them.
* ``Resign`` / ``Forfeit`` may end the move text. **Decision:** such a token stands in the slot
  of the side to move at that point: that side resigned (or forfeited), and the game is over
  with the other side the winner. A resignation made out of turn cannot be written this way;
  ``record_from_game`` then writes no token (the ``Result`` header still says who won, but the
  replay, which never trusts ``Result``, reports the game in progress). With more than two sides
  a Resign token is refused (``BadRecord`` ``resign_multiplayer``).
* "Player 1" in a record is the side that plays colour 1 (moves first): ``Player 1 Name`` plays
  the first colour's stones, ``Result "1-0"`` means that side won, and the replay summary's
  ``winner`` and ``captures`` are by colour.

**Opening decisions** are not tokens of the move text (the stones' colours alternate 1, 2, 1,
2, ... whatever is decided, so the text is the same); they go in headers:

* D-Pente / DK-Pente: Pente.org's ``[Player's Swapped? "Yes"]`` (player 2 took player 1's seat
  after the four opening stones) or ``"No"`` (kept). We write ``"-"`` while the choice has not been
  made. Since the seats swapped, ``Player 1 Name`` names whoever ended up with colour 1.
* Swap2-Pente / Swap2-Keryo (not Pente.org games): ``[Swap2 "swap"]``, ``"keep"``,
  ``"place_two"`` (colour choice still pending), ``"place_two colour1"`` or
  ``"place_two colour2"``: the engine's decision words in order.

A decision is applied when the replay reaches it (also after the last stone, so a D-Pente record
of exactly four stones with ``Yes`` replays the swap); a decision the stones never reach is
ignored.

**Extensions** for games Pente.org's records cannot describe, written only when they differ
from the default: ``[Players "4"]`` (seats, default 2), ``[Partners "Y"]``,
``[Tournament Rule "Y"|"N"]`` (default: on when ``Rated "Y"`` for the games that have it, always
for G-Pente), ``[Adjacent Only "Y"]``, and ``Player N Name/Rating/Type`` for seats 3..6. A
record without a ``Rated`` header is read as unrated. With three or more sides the result is
written ``0-1-0`` (one number per colour; a draw ``1/2-1/2-1/2``).

Replaying (``replay_record``, and ``game_from_record`` / ``replay_summary`` built on it) plays every
stone through the engine with
the game's rules; a rated record is played with the tournament rule. The winner always comes from
the moves, never from the ``Result`` header.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .errors import BadRecord, EngineError, IllegalMove
from .notation import parse_point, point_name

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = [
    "ADJACENT_HEADER",
    "PARTNERS_HEADER",
    "SEATS_HEADER",
    "STANDARD_HEADERS",
    "SWAP2_HEADER",
    "SWAPPED_HEADER",
    "TOURNAMENT_RULE_HEADER",
    "Record",
    "RecordMoveError",
    "Replay",
    "game_from_record",
    "parse_record",
    "parse_records",
    "result_token",
    "record_from_game",
    "replay_record",
    "replay_summary",
    "standard_headers",
    "write_record",
    "write_records",
]

STANDARD_HEADERS: tuple[str, ...] = (
    "Game",
    "Site",
    "Event",
    "Round",
    "Section",
    "Date",
    "Time",
    "TimeControl",
    "Rated",
    "Player 1 Name",
    "Player 2 Name",
    "Player 1 Rating",
    "Player 2 Rating",
    "Player 1 Type",
    "Player 2 Type",
    "Result",
)
SWAPPED_HEADER = "Player's Swapped?"
SWAP2_HEADER = "Swap2"
SEATS_HEADER = "Players"
PARTNERS_HEADER = "Partners"
TOURNAMENT_RULE_HEADER = "Tournament Rule"
ADJACENT_HEADER = "Adjacent Only"

RESIGN = "Resign"
FORFEIT = "Forfeit"
ENDINGS = (RESIGN, FORFEIT)
IN_PROGRESS = "*"
UNKNOWN_RESULT = "?"

_GAME_PREFIXES = ("Speed ", "Turn-based ")
_D_OPENING_GAMES = ("D-Pente", "DK-Pente")
_SWAP2_GAMES = ("Swap2-Pente", "Swap2-Keryo")
_YES = ("Y", "YES", "TRUE", "1")
_NO = ("N", "NO", "FALSE", "0")
_WRAP = 79

_HEADER_RE = re.compile(r'^\[\s*([^"\[\]]*?)\s*"(.*)"\s*\]$')
_NUMBER_RE = re.compile(r"^(\d+)\.+(.*)$")
_STONE_RE = re.compile(r"^(?:[A-Za-z]\d{1,2}|\d{1,3})$")
_RESULT_PART = r"(?:\d+|1/2)"
_RESULT_RE = re.compile(rf"^(?:{_RESULT_PART}(?:-{_RESULT_PART})+|\*|\?)$")


# --------------------------------------------------------------------------- value type


@dataclass(frozen=True)
class Record:
    """One game record: ordered headers, the move-text tokens, and the trailing result token.

    ``moves`` holds stones as written (``"K10"``, ``"180"``) and at most one final ``"Resign"``
    or ``"Forfeit"``; ``result`` is the result token that ends the move text, if any.
    ``line`` is where the record started in the text it was read from (not compared).
    """

    headers: tuple[tuple[str, str], ...] = ()
    moves: tuple[str, ...] = ()
    result: str | None = None
    line: int = field(default=1, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "headers", tuple((str(k), str(v)) for k, v in self.headers))
        object.__setattr__(self, "moves", tuple(self.moves))

    # -- headers
    def header(self, name: str, default: str | None = None) -> str | None:
        """The value of header ``name`` (exact name), or ``default``."""
        for key, value in self.headers:
            if key == name:
                return value
        return default

    @property
    def header_dict(self) -> dict[str, str]:
        return dict(self.headers)

    def with_header(self, name: str, value: str | None) -> Record:
        """A copy with ``name`` set (kept in place if present, else appended); None removes it."""
        out: list[tuple[str, str]] = []
        found = False
        for key, old in self.headers:
            if key == name:
                found = True
                if value is not None:
                    out.append((key, value))
            else:
                out.append((key, old))
        if not found and value is not None:
            out.append((name, value))
        return replace(self, headers=tuple(out))

    # -- derived facts
    @property
    def game_name(self) -> str | None:
        """The ``Game`` header without Pente.org's ``Speed ``/``Turn-based `` prefix."""
        name = self.header("Game") or self.header("GameType")
        if name is None:
            return None
        name = name.strip()
        for prefix in _GAME_PREFIXES:
            if name.startswith(prefix):
                return name[len(prefix) :]
        return name

    @property
    def rated(self) -> bool:
        return _flag(self.header("Rated")) is True

    @property
    def seats(self) -> int:
        value = self.header(SEATS_HEADER)
        if value is None or not value.strip().isdigit():
            return 4 if self.partners else 2
        return int(value)

    @property
    def partners(self) -> bool:
        return _flag(self.header(PARTNERS_HEADER)) is True

    @property
    def tournament_rule(self) -> bool | None:
        """Explicit ``Tournament Rule`` header, or None (the engine's default for ``rated``)."""
        return _flag(self.header(TOURNAMENT_RULE_HEADER))

    @property
    def adjacent_only(self) -> bool:
        return _flag(self.header(ADJACENT_HEADER)) is True

    @property
    def stones(self) -> tuple[str, ...]:
        """The stone tokens (``moves`` without a final Resign/Forfeit)."""
        return tuple(m for m in self.moves if m not in ENDINGS)

    @property
    def ending(self) -> str | None:
        """``"Resign"``, ``"Forfeit"`` or None."""
        if self.moves and self.moves[-1] in ENDINGS:
            return self.moves[-1]
        return None

    @property
    def decisions(self) -> tuple[str, ...]:
        """Opening decisions recorded in the headers, in the engine's words."""
        name = self.game_name
        if name in _D_OPENING_GAMES:
            flag = _flag(self.header(SWAPPED_HEADER))
            if flag is None:
                return ()
            return ("swap",) if flag else ("keep",)
        if name in _SWAP2_GAMES:
            value = self.header(SWAP2_HEADER)
            if not value or value.strip() in ("-", "?"):
                return ()
            return tuple(value.replace(",", " ").split())
        return ()


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    v = value.strip().upper()
    if v in _YES:
        return True
    if v in _NO:
        return False
    return None


# --------------------------------------------------------------------------- reading


def parse_records(text: str) -> list[Record]:
    """Read every record in ``text``. Raises ``BadRecord(code, detail, line)`` on malformed text.

    Codes: ``bad_header``, ``duplicate_header``, ``bad_token``, ``moves_after_result``,
    ``moves_after_end``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    records: list[Record] = []
    builder: _Builder | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if builder is not None and builder.headers:
                builder.closed = True
            continue
        if line.startswith("%") or line.startswith(";"):
            continue
        if line.startswith("["):
            if builder is not None and (builder.in_moves or builder.closed):
                records.append(builder.build())
                builder = None
            if builder is None:
                builder = _Builder(lineno)
            builder.add_header(line, lineno)
        else:
            if builder is None:
                builder = _Builder(lineno)
            builder.add_move_line(line, lineno)
    if builder is not None:
        records.append(builder.build())
    return records


def parse_record(text: str) -> Record:
    """Read exactly one record."""
    records = parse_records(text)
    if len(records) != 1:
        raise BadRecord("not_one_record", f"Expected one record, found {len(records)}.", None)
    return records[0]


class _Builder:
    def __init__(self, line: int) -> None:
        self.line = line
        self.headers: list[tuple[str, str]] = []
        self.names: set[str] = set()
        self.moves: list[str] = []
        self.result: str | None = None
        self.in_moves = False
        self.closed = False

    def add_header(self, line: str, lineno: int) -> None:
        match = _HEADER_RE.match(line)
        if match is None or not match.group(1):
            raise BadRecord(
                "bad_header", f'Malformed header {line[:60]!r}; expected [Name "value"].', lineno
            )
        name, value = match.group(1), match.group(2)
        if name in self.names:
            raise BadRecord("duplicate_header", f"Header {name!r} appears twice.", lineno)
        self.names.add(name)
        self.headers.append((name, value.strip()))

    def add_move_line(self, line: str, lineno: int) -> None:
        self.in_moves = True
        for token in _tokens(line, lineno):
            self._add_token(token, lineno)

    def _add_token(self, token: str, lineno: int) -> None:
        number = _NUMBER_RE.match(token)
        if number is not None:
            token = number.group(2)
            if not token:
                return
        if self.result is not None:
            raise BadRecord(
                "moves_after_result",
                f"{token!r} follows the result {self.result!r}; a record ends with its result.",
                lineno,
            )
        if _RESULT_RE.match(token):
            self.result = token
            return
        ending = _ending(token)
        if self.moves and self.moves[-1] in ENDINGS:
            raise BadRecord(
                "moves_after_end", f"{token!r} follows {self.moves[-1]}; the game was over.", lineno
            )
        if ending is not None:
            self.moves.append(ending)
        elif _STONE_RE.match(token):
            self.moves.append(token)
        else:
            raise BadRecord(
                "bad_token",
                f"{token!r} is not a move (e.g. K10), a move number (e.g. 12.), "
                "Resign, Forfeit or a result (1-0, 0-1, 1/2-1/2, *).",
                lineno,
            )

    def build(self) -> Record:
        return Record(
            headers=tuple(self.headers),
            moves=tuple(self.moves),
            result=self.result,
            line=self.line,
        )


def _ending(token: str) -> str | None:
    for ending in ENDINGS:
        if token.lower() == ending.lower():
            return ending
    return None


def _tokens(line: str, lineno: int) -> list[str]:
    """Split a move-text line into tokens, dropping ``{comments}``."""
    out: list[str] = []
    depth_start = None
    buf = []
    for i, ch in enumerate(line):
        if depth_start is not None:
            if ch == "}":
                depth_start = None
            continue
        if ch == "{":
            depth_start = i
            continue
        buf.append(ch)
    if depth_start is not None:
        raise BadRecord("bad_token", "A comment opened with { is not closed on its line.", lineno)
    out.extend("".join(buf).replace(",", " ").split())
    return out


# --------------------------------------------------------------------------- writing


def write_record(record: Record) -> str:
    """Format one record: headers, a blank line, the numbered move text, a final newline."""
    lines = []
    for name, value in record.headers:
        if "\n" in value or "\r" in value or not name or '"' in name or "]" in name:
            raise ValueError(f"header {name!r} cannot be written on one line")
        lines.append(f'[{name} "{value}"]')
    body = _move_text(record)
    if lines and body:
        lines.append("")
    lines.extend(body)
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record]) -> str:
    """Format several records, separated by a blank line."""
    return "\n".join(write_record(r) for r in records)


def _move_text(record: Record) -> list[str]:
    cycle = 2 if record.partners else max(2, record.seats)
    words: list[str] = []
    for i, token in enumerate(record.moves):
        if i % cycle == 0:
            words.append(f"{i // cycle + 1}.")
        words.append(token)
    if record.result is not None:
        words.append(record.result)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > _WRAP:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def standard_headers(
    *,
    game: str,
    site: str = "Pente.org",
    event: str | None = None,
    round: str | None = None,
    section: str | None = None,
    played_at: datetime | None = None,
    time_control: str | None = None,
    rated: bool = False,
    player_names: Sequence[str | None] = (),
    player_ratings: Sequence[int | None] = (),
    player_types: Sequence[str | None] = (),
    result: str | None = None,
) -> tuple[tuple[str, str], ...]:
    """Pente.org's header block in Pente.org's order, with its placeholders for unknown values.

    ``played_at`` should be an aware UTC datetime (written ``MM/DD/YYYY`` and ``HH:MM:SS``).
    Names/ratings/types are by colour (player 1 first); seats past 2 get ``Player N ...``
    headers after the standard block. ``player_types`` are ``"Human"`` or ``"Computer"``.
    """

    def at(seq: Sequence[Any], i: int) -> Any:
        return seq[i] if i < len(seq) else None

    def text(value: Any, placeholder: str) -> str:
        return placeholder if value in (None, "", 0) else str(value)

    out: list[tuple[str, str]] = [
        ("Game", game),
        ("Site", site),
        ("Event", text(event, "-")),
        ("Round", text(round, "-")),
        ("Section", text(section, "-")),
        ("Date", played_at.strftime("%m/%d/%Y") if played_at else "?"),
        ("Time", played_at.strftime("%H:%M:%S") if played_at else "?"),
        ("TimeControl", text(time_control, "-")),
        ("Rated", "Y" if rated else "N"),
        ("Player 1 Name", text(at(player_names, 0), "?")),
        ("Player 2 Name", text(at(player_names, 1), "?")),
        ("Player 1 Rating", text(at(player_ratings, 0), "?")),
        ("Player 2 Rating", text(at(player_ratings, 1), "?")),
        ("Player 1 Type", text(at(player_types, 0), "?")),
        ("Player 2 Type", text(at(player_types, 1), "?")),
        ("Result", text(result, UNKNOWN_RESULT)),
    ]
    for i in range(2, max(len(player_names), len(player_ratings), len(player_types))):
        out.append((f"Player {i + 1} Name", text(at(player_names, i), "?")))
        out.append((f"Player {i + 1} Rating", text(at(player_ratings, i), "?")))
        out.append((f"Player {i + 1} Type", text(at(player_types, i), "?")))
    return tuple(out)


# --------------------------------------------------------------------------- game <-> record


class RecordMoveError(BadRecord):
    """A record whose move text the engine refuses: ``ply`` (stones counted from 1) and ``move``.

    ``code``/``detail`` are the engine's ``IllegalMove`` ones (or ``not_centre``); ``game`` is
    the position just before the refused move.
    """

    def __init__(self, code: str, detail: str, *, ply: int, move: str, game: Game | None) -> None:
        super().__init__(code, detail, None)
        self.ply = ply
        self.move = move
        self.game = game


def result_token(game: Game) -> str:
    """``1-0`` / ``0-1`` / ``1/2-1/2`` / ``*`` from the position (``0-1-0`` with 3+ sides)."""
    sides = _sides(game)
    if game.status == "draw":
        return "-".join(["1/2"] * sides)
    if game.status == "finished" and game.winner_colour is not None:
        return "-".join("1" if c == game.winner_colour else "0" for c in range(1, sides + 1))
    return IN_PROGRESS


def record_from_game(
    game: Game,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    *,
    resigned_colour: int | None = None,
    forfeit: bool = False,
) -> Record:
    """The record of ``game``: the given headers (``Game``, ``Result``, the decision and the
    extension headers are filled in from the game), every stone, and the result token.

    ``resigned_colour``: the colour that resigned (or forfeited, with ``forfeit=True``); written
    as a final ``Resign``/``Forfeit`` token when that colour is the one to move (see module doc).
    """
    pairs = list(headers.items()) if isinstance(headers, Mapping) else list(headers)
    variant = game.variant
    given = dict(pairs)
    if "Game" in given and _strip_prefix(given["Game"]) != variant.name:
        raise ValueError(f"Game header {given['Game']!r} does not match the game {variant.name!r}")
    if "Game" not in given:
        pairs.insert(0, ("Game", variant.name))

    stones = [point_name(a, game.size) for a in game.actions if isinstance(a, int)]
    decisions = [a for a in game.actions if isinstance(a, str)]
    moves = list(stones)
    result = result_token(game)
    ending = None
    if resigned_colour is not None and game.status == "in_progress":
        if _sides(game) == 2 and game.to_move_colour == resigned_colour:
            ending = FORFEIT if forfeit else RESIGN
            moves.append(ending)
        winner = 2 if resigned_colour == 1 else 1
        result = "1-0" if winner == 1 else "0-1"
        if _sides(game) > 2:
            result = IN_PROGRESS

    record = Record(headers=tuple(pairs), moves=tuple(moves), result=result)
    record = record.with_header("Result", result)
    if variant.name in _D_OPENING_GAMES:
        value = "-"
        if decisions:
            value = "Yes" if decisions[0] == "swap" else "No"
        record = record.with_header(SWAPPED_HEADER, value)
    elif variant.name in _SWAP2_GAMES:
        record = record.with_header(SWAP2_HEADER, " ".join(decisions) if decisions else "-")

    seats, partners = _game_seats(game)
    if partners:
        record = record.with_header(PARTNERS_HEADER, "Y")
        if seats != 4:
            record = record.with_header(SEATS_HEADER, str(seats))
    elif seats != 2:
        record = record.with_header(SEATS_HEADER, str(seats))
    rule = _game_option(game, "tournament_rule")
    if rule is not None:
        default = _default_tournament_rule(game, rated=record.rated)
        if default is not None and bool(rule) != default:
            record = record.with_header(TOURNAMENT_RULE_HEADER, "Y" if rule else "N")
    if _game_option(game, "adjacent_only"):
        record = record.with_header(ADJACENT_HEADER, "Y")
    return record


@dataclass(frozen=True)
class Replay:
    """A record replayed once through the engine.

    ``game`` is the position after the last stone (a final Resign/Forfeit token does not change
    it: the engine has no resignation); ``seats`` is the seat that took each of ``game.actions``
    (1 for the automatic centre stone); ``ending`` is the move text's final ``"Resign"`` /
    ``"Forfeit"`` token or None, and ``resigned_colour`` the colour that resigned or forfeited.
    """

    game: Game
    seats: tuple[int, ...] = ()
    ending: str | None = None
    resigned_colour: int | None = None

    @property
    def status(self) -> str:
        """``"finished"`` (won, drawn, resigned or forfeited) or ``"in_progress"``."""
        if self.resigned_colour is None and self.game.status == "in_progress":
            return "in_progress"
        return "finished"

    @property
    def winner(self) -> int | None:
        """The winning colour (the other side of a resignation), or None."""
        if self.resigned_colour is not None:
            return 2 if self.resigned_colour == 1 else 1
        return self.game.winner_colour

    @property
    def reason(self) -> str | None:
        """``"five"``, ``"captures"``, ``"draw"``, ``"resign"``, ``"forfeit"``, or None."""
        if self.resigned_colour is not None:
            return "forfeit" if self.ending == FORFEIT else "resign"
        return self.game.result_reason


def replay_record(record: Record) -> Replay:
    """Replay ``record`` through the engine once: the position, who took each action, and the
    ending the move text says.

    Raises ``BadRecord`` (``missing_game``, ``unknown_game``, ``resign_multiplayer``, ...) for a
    record that cannot be set up, and ``RecordMoveError`` (a ``BadRecord``) for a refused move.
    """
    return _replay(record)


def game_from_record(record: Record) -> Game:
    """Replay ``record`` through the engine and return the position after its last move.

    Raises as ``replay_record``. A final Resign/Forfeit token does not change the returned
    position (the engine has no resignation); ``replay_summary`` reports it.
    """
    return replay_record(record).game


def replay_summary(record: Record) -> dict[str, Any]:
    """One JSON-ready line for the ``replay`` command.

    ``{"game", "plies", "status": "finished"|"in_progress", "winner": colour|None,
    "reason": "five"|"captures"|"draw"|"resign"|"forfeit"|None, "captures": [by colour 1,
    by colour 2, ...], "board": [rows, top first]}``, or ``{"game", "error": {"ply", "move",
    "code", "detail"}}`` when the record cannot be replayed.
    """
    name = record.game_name
    try:
        replay = replay_record(record)
    except RecordMoveError as exc:
        return {
            "game": name,
            "error": {"ply": exc.ply, "move": exc.move, "code": exc.code, "detail": exc.detail},
        }
    except BadRecord as exc:
        return {
            "game": name,
            "error": {"ply": None, "move": None, "code": exc.code, "detail": exc.detail},
        }
    game = replay.game
    return {
        "game": game.variant.name,
        "plies": game.plies,
        "status": replay.status,
        "winner": replay.winner,
        "reason": replay.reason,
        "captures": list(game.captures),
        "board": list(game.rows()),
    }


# --------------------------------------------------------------------------- replay internals


def _strip_prefix(name: str) -> str:
    for prefix in _GAME_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _sides(game: Game) -> int:
    seats, partners = _game_seats(game)
    return 2 if partners or seats <= 2 else seats


def _game_option(game: Game, name: str) -> Any:
    return getattr(game, name, None)


def _game_seats(game: Game) -> tuple[int, bool]:
    return int(getattr(game, "seats", 2) or 2), bool(getattr(game, "partners", False))


def _default_tournament_rule(game: Game, *, rated: bool) -> bool | None:
    """The tournament rule a game of these options gets when none is chosen (None: unknown)."""
    from .game import Game as GameClass

    seats, partners = _game_seats(game)
    try:
        fresh = GameClass(game.variant, seats=seats, partners=partners, rated=rated)
    except (EngineError, ValueError):
        return None
    return bool(_game_option(fresh, "tournament_rule"))


def _new_game(record: Record) -> Game:
    from .errors import UnknownGame
    from .game import Game
    from .variants import VARIANTS

    name = record.game_name
    if not name:
        raise BadRecord("missing_game", "The record has no Game header.", record.line)
    seats = record.seats
    if not 2 <= seats <= 6:
        raise BadRecord("bad_header", f"Players must be 2..6, not {seats}.", record.line)
    try:
        return Game(
            name,
            seats=seats,
            partners=record.partners,
            tournament_rule=record.tournament_rule,
            rated=record.rated,
            adjacent_only=record.adjacent_only,
        )
    except UnknownGame as exc:
        # One sentence: the engine's own message already names the game and lists the known ones.
        known = ", ".join(VARIANTS)
        detail = f"Unknown game {name!r}; the engine plays {known}."
        raise BadRecord("unknown_game", detail, record.line) from exc
    except (EngineError, ValueError) as exc:
        code = getattr(exc, "code", "bad_options")
        raise BadRecord(code, str(exc), record.line) from exc


def _replay(record: Record) -> Replay:
    game = _new_game(record)
    size = game.size
    stones = list(record.stones)
    decisions = list(record.decisions)
    seats = [1] * len(game.actions)  # the automatic centre stone, if any

    # The automatic centre stone is the first move of the text.
    if game.plies == 1 and stones:
        centre = game.actions[0]
        first = stones[0]
        try:
            point = parse_point(first, size)
        except IllegalMove as exc:
            raise RecordMoveError(exc.code, exc.detail, ply=1, move=first, game=game) from exc
        if point != centre:
            raise RecordMoveError(
                "not_centre",
                f"The first stone of a {game.variant.name} game is on the centre "
                f"{point_name(centre, size)}, not {first}.",
                ply=1,
                move=first,
                game=game,
            )
        stones.pop(0)

    for token in stones:
        _apply_decisions(game, decisions, seats)
        ply = game.plies + 1
        try:
            point = parse_point(token, size)
            seat = game.to_move_seat or 1
            game.play(point)
        except IllegalMove as exc:
            raise RecordMoveError(exc.code, exc.detail, ply=ply, move=token, game=game) from exc
        seats.append(seat)
    _apply_decisions(game, decisions, seats)

    resigned: int | None = None
    if record.ending is not None:
        if _sides(game) != 2:
            raise BadRecord(
                "resign_multiplayer",
                f"{record.ending} cannot be replayed in a game of more than two sides.",
                record.line,
            )
        if game.status != "in_progress":
            raise RecordMoveError(
                "game_over",
                f"{record.ending} follows the end of the game.",
                ply=game.plies + 1,
                move=record.ending,
                game=game,
            )
        resigned = game.to_move_colour
    return Replay(game, tuple(seats), record.ending, resigned)


def _apply_decisions(game: Game, decisions: list[str], seats: list[int]) -> None:
    while game.pending_decision is not None and decisions and game.status == "in_progress":
        choice = decisions.pop(0)
        seat = game.to_move_seat or 1
        try:
            game.decide(choice)
        except IllegalMove as exc:
            raise RecordMoveError(
                exc.code, exc.detail, ply=game.plies + 1, move=choice, game=game
            ) from exc
        seats.append(seat)
