"""SGF (FF[4], GM[1]): export Go games to, and import them from, the Smart Game Format (the
parsing, escaping and serialising is sgfmill's). ``SgfGame`` says how a game maps to SGF and
what a file may hold.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from sgfmill import sgf_grammar, sgf_properties
from sgfmill.sgf import Sgf_game

from .errors import BadRecord, IllegalMove
from .go import ACCEPT, GO_SIZES, KOMI, MARK, PASS, REJECT, GoGame, GoPhase, is_komi
from .notation import parse_point, point_name
from .outcome import Termination
from .records.result import LOSSES, StatedResult

__all__ = [
    "GAME_INFO",
    "REJECTED_DEAD",
    "SGF_ERROR_CODES",
    "SgfGame",
    "SgfMove",
    "read_sgf",
    "sgf_record",
    "sgf_result",
    "sgf_result_of",
    "sgf_stated_result",
    "sgf_to_actions",
    "sgf_to_game",
    "write_sgf",
]

SGF_ERROR_CODES = frozenset(
    {
        "bad_sgf",
        "not_go",
        "bad_size",
        "sgf_setup_unsupported",
        "sgf_out_of_turn",
        "sgf_illegal_move",
        "bad_result",
    }
)

# Root game-info properties kept as text in ``SgfGame.extra`` (besides the ones with a field).
GAME_INFO = (
    "AN",
    "BR",
    "BT",
    "CP",
    "EV",
    "GN",
    "ON",
    "OT",
    "PC",
    "RO",
    "RU",
    "SO",
    "TM",
    "US",
    "WR",
    "WT",
)

#: The private property of a marking turned down: the stones it proposed (see ``SgfGame``).
REJECTED_DEAD = "REJECTEDDEAD"

_COLOUR_LETTER = {1: "B", 2: "W"}
_RESULT = re.compile(r"[BW]\+(?:R|Resign|T|Time|F|Forfeit|\d+(?:\.\d+)?)?|0|Draw|Void|\?")
_SIZE = re.compile(rb"\s*(\d+)\s*(?::\s*(\d+)\s*)?")
_HOW = {"resign": "R", "time": "T", "forfeit": "F"}
#: A result read (any case): the winner's letter and what follows the ``+``.
_WIN = re.compile(r"([BW])\+(.*)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: What follows a winner's ``+``, by the way the game ended.
_ENDINGS = {
    "": Termination.RECORDED,
    "R": Termination.RESIGN,
    "RESIGN": Termination.RESIGN,
    "T": Termination.TIMEOUT,
    "TIME": Termination.TIMEOUT,
    "F": Termination.FORFEIT,
    "FORFEIT": Termination.FORFEIT,
}
#: ``sgf_result``'s word for each way of ending a ``StatedResult`` may have (a count: "score").
_SGF_HOWS = {
    Termination.RESIGN: "resign",
    Termination.TIMEOUT: "time",
    Termination.FORFEIT: "forfeit",
    Termination.SCORE: "score",
    Termination.RECORDED: "recorded",
}


@dataclass(frozen=True, slots=True)
class SgfMove:
    """One move of a record: its colour (1 black, 2 white) and point (None for a pass)."""

    colour: int
    point: int | None

    @property
    def is_pass(self) -> bool:
        return self.point is None


@dataclass(frozen=True, slots=True)
class SgfGame:
    """What an SGF record of a game of Go carries (see the module's decisions).

    ``moves`` are in play order, black first, colours alternating; ``dead`` (sorted points) are
    the stones agreed dead at the count, and only a ``scored`` record (moves ending with two
    passes) has them; ``rejected`` the markings turned down: the number of moves played before
    each (the last two of them passes) and the points it proposed (sorted; maybe none).
    ``None`` is a property the record does not have.

    Pure Python like the rest of the engine; the parsing, escaping and serialising is sgfmill's. A
    file written here opens in Sabaki, CGoban or KaTrain, and ``read_sgf`` gives back what
    ``write_sgf`` wrote::

        text = write_sgf(game, black="alice", white="bob", date=datetime.date(2024, 5, 1))
        record = read_sgf(text)                    # SgfGame: size, komi, players, moves, dead, ...
        again = sgf_to_game(record)                # GoGame.replay(sgf_to_actions(record), ...)

    Points: SGF writes a point as two letters ``a``.. from the top left, the column from the left
    first, the row from the top second; the engine's point is ``x + size*y`` with ``y`` from the
    top, so ``dc`` is ``3 + size*2``.

    Decisions
    ---------
    - **Setup stones are refused.** A game of the server is a list of actions replayed from an empty
      board (``GoGame.replay``), which has no place for stones set up before the first move; so a
      file with ``AB``/``AW``/``AE`` (handicap stones, problems) is refused with
      ``sgf_setup_unsupported`` rather than imported as another game. Likewise, exporting a game
      made with ``GoGame.from_position`` is refused with the same code.
    - **Moves alternate, black first**, as in the engine; a file where one colour moves twice in a
      row (handicap stones given as moves, ``PL``) is refused with ``sgf_out_of_turn``. Moves the
      engine refuses (suicide, positional superko, an occupied point) are ``sgf_illegal_move``.
    - **Passes** are written ``B[]``/``W[]`` on every size; ``B[tt]`` (FF[3]) is read as a pass too.
      Two passes followed by more moves (play resumed after a disagreement on the dead stones) are
      replayed as a marking turned down (``MARK``, ``REJECT``), as the engine wants them.
    - **A marking turned down** is not a move, and SGF has no property for it: the stones it
      proposed are written in a private property of this server, ``REJECTEDDEAD``
      (``REJECTED_DEAD``: ``REJECTEDDEAD[ce][fd]``, points like ``TB``; ``REJECTEDDEAD[]`` for a
      marking of no stone) on the node of the second pass, the one after which the marking was made.
      SGF readers pass over a property they do not know (sgfmill keeps it). Reading, the marking
      after that move proposes those stones; without the property (another program's file) it
      proposes none. A marking turned down with no move since (the game then ended by a resignation
      or on time) has the property on the last node, and that file is not a counted one. A proposal
      still unanswered comes back as the marking phase with no proposal yet.
    - **Dead stones and territory** are ``TB``/``TW`` on the last node, the usual markup of Go
      programs: ``TB`` holds black's territory (empty points counted for black) and the white stones
      that are dead; ``TW`` the other way round. A dead stone is written in the other colour's
      markup even when its region is not that colour's territory (a dead stone in dame), so that
      the dead stones always come back. Reading, the stones of a colour that lie in the other
      colour's markup are that colour's dead stones; markup on a point of its own colour is ignored.
    - **A record is scored** (``SgfGame.scored``) when its moves end with two passes and the game
      was counted: the last node has ``TB``/``TW`` (written even when empty, as ``TB[]``), or the
      result is a count (``B+3.5``, ``W+12``, ``0``, ``Draw``). A scored record replays to the end:
      the two passes, ``MARK`` of its dead stones (none if the file marks none: every stone on the
      board is alive then), ``ACCEPT``. A game exported in the marking phase, before the dead stones
      were agreed, has neither markup nor result and comes back in the marking phase.
    - **Results** use SGF's syntax: ``B+3.5`` (a count, the margin as the engine counts it), ``W+R``
      (resignation), ``W+T`` (time), ``B+F`` (forfeit), ``B+`` (a win, how not said), ``0`` or
      ``Draw`` (a draw, which in Go is on the count), ``Void`` (no result), ``?`` (unknown); the
      long words (``W+Resign``, ``B+Time``, ``W+Forfeit``) and any case are read too. Export fills
      the result of a counted game itself; any other result is the caller's (``sgf_result`` builds
      it, ``sgf_result_of`` from a ``StatedResult``). Import keeps ``RE`` as written;
      ``sgf_stated_result`` reads it as the result a record states (``records.result``: the moves
      decide where they end the game, and the record is refused where ``RE`` contradicts them). A
      resignation, a loss on time or by forfeit is never a count: a file that says so and ends with
      two passes is not scored, whatever its markup (the game ended while its stones were marked).
    - **Komi**: ``KM`` is always written; a file without one has komi 0 (old games had none).
    - **Main line only**: variations are skipped; only the first game of a collection is read.
    - **Text**: the file is UTF-8 (``CA[UTF-8]``). Bytes are decoded by their ``CA``; without one,
      as UTF-8 if they are valid UTF-8, else ISO-8859-1 (SGF's default). Comments (``C``, ``GC``)
      and other node properties are dropped; the game-info properties of the root named in
      ``GAME_INFO`` (event, round, place, rules, ranks, time, ...) are kept in ``SgfGame.extra``
      and written back.

    Refusal codes (``BadRecord``): ``bad_sgf`` (unreadable, or a ``REJECTEDDEAD`` not after two
    passes or not of points of the board), ``not_go`` (``GM`` is not 1),
    ``bad_size`` (not 9, 13 or 19), ``sgf_setup_unsupported``, ``sgf_out_of_turn``,
    ``sgf_illegal_move``, ``bad_result`` (a result that is not SGF's syntax).
    """

    size: int = 19
    komi: float = KOMI
    black: str | None = None
    white: str | None = None
    date: str | None = None
    result: str | None = None
    moves: tuple[SgfMove, ...] = ()
    dead: tuple[int, ...] = ()
    scored: bool = False
    extra: tuple[tuple[str, str], ...] = ()  # (identifier, text) of GAME_INFO properties
    rejected: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.size not in GO_SIZES:
            raise ValueError(f"Go is played on 9x9, 13x13 or 19x19, not {self.size!r}")
        if not is_komi(self.komi):
            raise ValueError(f"komi must be a finite number of points, not {self.komi!r}")
        if self.scored and not self.ends_with_two_passes:
            raise ValueError("Only a record whose moves end with two passes can be scored")
        if self.dead and not self.scored:
            raise ValueError("Only a scored record has dead stones")
        for identifier, _ in self.extra:
            if identifier not in GAME_INFO:
                raise ValueError(f"{identifier!r} is not one of the kept properties {GAME_INFO}")
        for played, _ in self.rejected:
            if not (2 <= played <= len(self.moves)) or not all(
                move.is_pass for move in self.moves[played - 2 : played]
            ):
                raise ValueError(
                    f"{REJECTED_DEAD} (a marking turned down) follows move {played}, which is"
                    " not a second pass in a row"
                )
        if self.scored and self.rejected and self.rejected[-1][0] == len(self.moves):
            raise ValueError("A record whose last marking was turned down is not scored")

    @property
    def ends_with_two_passes(self) -> bool:
        return len(self.moves) >= 2 and self.moves[-1].is_pass and self.moves[-2].is_pass

    @property
    def winner(self) -> int | None:
        """The colour ``result`` names as the winner (1 black, 2 white), else None."""
        result = (self.result or "").strip().upper()
        if result[1:2] == "+":
            return {"B": 1, "W": 2}.get(result[0])
        return None


# ---------------------------------------------------------------------- results


def sgf_result(winner: int | None, *, margin: float | None = None, how: str = "score") -> str:
    """SGF's result: ``how`` is ``"score"`` (``B+3.5``, or ``0`` with no winner), ``"resign"``
    (``W+R``), ``"time"`` (``W+T``), ``"forfeit"`` (``W+F``), ``"recorded"`` (``B+``, or
    ``Draw`` with no winner: how is not known) or ``"void"`` (``Void``, no winner)."""
    if how == "void":
        if winner is not None:
            raise ValueError("A void game has no winner")
        return "Void"
    if how not in ("score", "recorded", *_HOW):
        raise ValueError(f"{how!r} is not a way a game of Go ends")
    if winner is None:
        if how not in ("score", "recorded"):
            raise ValueError(f"A game that ends by {how} has a winner")
        return "0" if how == "score" else "Draw"
    if winner not in _COLOUR_LETTER:
        raise ValueError(f"There is no colour {winner!r} in Go")
    if how == "recorded":
        return f"{_COLOUR_LETTER[winner]}+"
    if how != "score":
        return f"{_COLOUR_LETTER[winner]}+{_HOW[how]}"
    if margin is None or not margin > 0:
        raise ValueError(f"A win on the count needs a margin above 0, not {margin!r}")
    return f"{_COLOUR_LETTER[winner]}+{_number(margin)}"


def sgf_result_of(stated: StatedResult) -> str:
    """The SGF result of a result stated as ``StatedResult`` (colours 1 black, 2 white): a
    count with its margin (``B+5.5``; ``B+`` without one, ``0`` for a draw), a resignation,
    a loss on time or by forfeit, or ``B+`` / ``Draw`` when it does not say how. The
    inverse of ``sgf_stated_result``."""
    how = _SGF_HOWS.get(stated.how)
    if how is None:
        raise ValueError(f"A game of Go does not end by {stated.how}")
    winner = stated.winners[0] if stated.winners else None
    if how == "score" and winner is not None and stated.margin is None:
        how = "recorded"  # a win on a count whose margin is not known
    return sgf_result(winner, margin=stated.margin, how=how)


def sgf_stated_result(result: str | None) -> StatedResult | None:
    """The result an SGF ``RE`` states (None: none, ``Void`` or ``?``): ``B+R`` a resignation,
    ``W+T`` a loss on time, ``B+F`` by forfeit, ``B+5.5`` a count (its margin kept), ``B+`` a
    win that does not say how (``recorded``), ``0`` or ``Draw`` a draw on the count; the long
    words and any case too. ``BadRecord`` ``bad_result`` for anything else."""
    value = (result or "").strip()
    if value.casefold() in ("", "void", "?"):
        return None
    if value.casefold() in ("0", "draw"):
        return StatedResult((), Termination.SCORE)
    won = _WIN.fullmatch(value)
    if won is not None:
        winner = 1 if won[1].upper() == "B" else 2
        rest = won[2].strip().upper()
        if rest in _ENDINGS:
            return StatedResult((winner,), _ENDINGS[rest])
        if _NUMBER.fullmatch(rest) and float(rest) > 0:
            return StatedResult((winner,), Termination.SCORE, float(rest))
    raise BadRecord(
        "bad_result",
        f"RE[{value[:40]}] is not an SGF result: B+R, W+T, B+F, B+3.5, B+, 0, Draw, Void or ?.",
    )


def _number(x: float) -> str:
    """A count or komi as SGF writes it: ``3.5``, ``7`` (no ``.0``, no exponent)."""
    return sgf_properties.serialise_real(x).decode("ascii")


# ---------------------------------------------------------------------- export


def sgf_record(
    game: GoGame,
    *,
    black: str | None = None,
    white: str | None = None,
    date: datetime.date | str | None = None,
    result: str | None = None,
    extra: Iterable[tuple[str, str]] = (),
) -> SgfGame:
    """The record of ``game`` with these players, date (``YYYY-MM-DD``) and result (a counted
    game's by default; ``sgf_result`` builds the others)."""
    actions = game.actions
    if GoGame.replay(actions, size=game.size, komi=game.komi).board != game.board:
        raise BadRecord(
            "sgf_setup_unsupported",
            "This game starts from a set-up position, which an SGF export does not carry",
        )
    moves = []
    rejected = []
    answers = [*actions[1:], None] if actions else []  # each action's next
    for action, answer in zip(actions, answers, strict=True):
        if type(action) is int or action == PASS:
            colour = 1 if len(moves) % 2 == 0 else 2
            moves.append(SgfMove(colour, action if type(action) is int else None))
        elif str(action).split()[:1] == [MARK] and answer == REJECT:
            dead = sorted(parse_point(name, game.size) for name in str(action).split()[1:])
            rejected.append((len(moves), tuple(dead)))
    scored = game.phase is GoPhase.OVER
    final = game.score() if scored else None
    if result is None and final is not None:
        result = sgf_result(final.winner, margin=final.margin)
    if result is not None and not _RESULT.fullmatch(result):
        raise BadRecord(
            "bad_result",
            f"{result!r} is not an SGF result (B+3.5, W+R, B+T, W+F, 0, Draw, Void or ?)",
        )
    if isinstance(date, datetime.date):
        date = f"{date.year:04d}-{date.month:02d}-{date.day:02d}"
    return SgfGame(
        size=game.size,
        komi=game.komi,
        black=black,
        white=white,
        date=date,
        result=result,
        moves=tuple(moves),
        dead=tuple(sorted(final.dead)) if final is not None else (),
        scored=scored,
        extra=tuple(extra),
        rejected=tuple(rejected),
    )


def write_sgf(
    game: GoGame | SgfGame,
    *,
    black: str | None = None,
    white: str | None = None,
    date: datetime.date | str | None = None,
    result: str | None = None,
    extra: Iterable[tuple[str, str]] = (),
) -> str:
    """The SGF text of ``game``: a ``GoGame`` with the game information given here (see
    ``sgf_record``), or an ``SgfGame`` as it is (then nothing else may be given)."""
    if isinstance(game, SgfGame):
        if black is not None or white is not None or date is not None or result is not None:
            raise TypeError("An SgfGame carries its own game information")
        if tuple(extra):
            raise TypeError("An SgfGame carries its own extra properties")
        record = game
    else:
        record = sgf_record(game, black=black, white=white, date=date, result=result, extra=extra)
    sgf = Sgf_game(record.size, "UTF-8")  # FF[4] GM[1] SZ[..] CA[UTF-8]
    node = sgf.get_root()
    node.set_raw("KM", _number(record.komi).encode("ascii"))
    info = (("PB", record.black), ("PW", record.white), ("DT", record.date), ("RE", record.result))
    for identifier, value in (*info, *record.extra):
        if value is not None:
            node.set_raw(identifier, _text(value))
    turned_down = dict(record.rejected)
    for played, move in enumerate(record.moves, start=1):
        node = node.new_child()
        node.set_raw(_COLOUR_LETTER[move.colour], _sgf_point(move.point, record.size))
        if played in turned_down:
            points = [_sgf_point(p, record.size) for p in turned_down[played]]
            node.set_raw_list(REJECTED_DEAD, points or [b""])
    if record.scored:
        black_area, white_area = _markup(record)
        node.set_raw_list("TB", [_sgf_point(p, record.size) for p in black_area] or [b""])
        node.set_raw_list("TW", [_sgf_point(p, record.size) for p in white_area] or [b""])
    return sgf.serialise().decode("utf-8")


def _text(value: str) -> bytes:
    return sgf_grammar.escape_text(value.encode("utf-8"))


def _sgf_point(point: int | None, size: int) -> bytes:
    if point is None:
        return b""
    y, x = divmod(point, size)
    return bytes((97 + x, 97 + y))


def _markup(record: SgfGame) -> tuple[list[int], list[int]]:
    """(TB, TW) of a scored record: each colour's territory plus the other colour's dead
    stones, sorted."""
    game = _play_moves(record)
    board = game.board
    final = game.score(record.dead)
    black_area = set(final.black_territory)
    white_area = set(final.white_territory)
    for p in record.dead:
        (black_area if board[p] == 2 else white_area).add(p)
    return sorted(black_area), sorted(white_area)


# ---------------------------------------------------------------------- replay


def _move_actions(record: SgfGame) -> Iterator[tuple[int, int | str]]:
    """(move number, action) for the engine: stones, passes, and a marking turned down (of the
    stones ``rejected`` names there, else none) where play goes on after two passes, and where
    ``rejected`` has one after the last move."""
    turned_down = dict(record.rejected)
    passes = 0
    for number, move in enumerate(record.moves, 1):
        if passes == 2:
            yield number, _mark_action(turned_down.get(number - 1, ()), record.size)
            yield number, REJECT
            passes = 0
        passes = passes + 1 if move.is_pass else 0
        yield number, PASS if move.point is None else move.point
    last = len(record.moves)
    if last in turned_down:
        yield last, _mark_action(turned_down[last], record.size)
        yield last, REJECT


def _play_moves(record: SgfGame) -> GoGame:
    """The game after the record's moves (before any count)."""
    game = GoGame(record.size, komi=record.komi)
    for number, action in _move_actions(record):
        try:
            game.act(action)
        except IllegalMove as refusal:
            raise BadRecord(
                "sgf_illegal_move", f"Move {number} cannot be played: {refusal.detail}"
            ) from None
    return game


def _mark_action(dead: Iterable[int], size: int) -> str:
    """The marking as ``GoGame.actions`` lists it."""
    names = " ".join(point_name(p, size) for p in sorted(dead))
    return f"{MARK} {names}" if names else MARK


def sgf_to_actions(record: SgfGame) -> list[int | str]:
    """The engine actions that replay ``record`` (``GoGame.replay(actions, size=record.size,
    komi=record.komi)``): the moves, and for a scored record the marking of its dead stones and
    its acceptance."""
    actions = [action for _, action in _move_actions(record)]
    if record.scored:
        actions += [_mark_action(record.dead, record.size), ACCEPT]
    return actions


def sgf_to_game(record: SgfGame) -> GoGame:
    """``record`` replayed: the game, counted if the record is scored."""
    return GoGame.replay(sgf_to_actions(record), size=record.size, komi=record.komi)


# ---------------------------------------------------------------------- import


def read_sgf(data: str | bytes) -> SgfGame:
    """The first game of an SGF file (text, or bytes in the file's own encoding), main line
    only; ``BadRecord`` (codes in ``SGF_ERROR_CODES``) for what cannot be a game of the server."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    try:
        tree = sgf_grammar.parse_sgf_game(raw)
    except ValueError as error:
        raise BadRecord("bad_sgf", f"This is not an SGF file that can be read: {error}") from None
    properties = tree.sequence[0]
    game_type = properties.get("GM", [b"1"])[0].strip()
    if game_type != b"1":
        raise BadRecord("not_go", f"This SGF file records game {_shown(game_type)}, not Go (GM[1])")
    properties["SZ"] = [str(_size(properties.get("SZ", [b"19"])[0])).encode("ascii")]
    if isinstance(data, str):
        encoding: str | None = "UTF-8"
    elif "CA" in properties:
        encoding = None  # the file's own
    else:
        encoding = "UTF-8" if _is_utf8(raw) else "ISO-8859-1"
    try:
        return _read_game(Sgf_game.from_coarse_game_tree(tree, encoding))
    except BadRecord:
        raise
    except ValueError as error:  # sgfmill's: bad values (KM, AB, TB...), encodings
        why = f": {error}" if str(error) else ""
        raise BadRecord("bad_sgf", f"This SGF file has a value that cannot be read{why}") from None


def _shown(raw: bytes) -> str:
    return raw.decode("ascii", "replace")[:20]


def _size(raw: bytes) -> int:
    match = _SIZE.fullmatch(raw)
    if match is None:
        raise BadRecord("bad_size", f"SZ[{_shown(raw)}] is not a board size")
    size = int(match[1])
    if (match[2] is not None and int(match[2]) != size) or size not in GO_SIZES:
        raise BadRecord(
            "bad_size", f"Go is played here on 9x9, 13x13 or 19x19, not SZ[{_shown(raw)}]"
        )
    return size


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _read_game(sgf: Sgf_game) -> SgfGame:
    size = sgf.get_size()
    root = sgf.get_root()
    moves: list[SgfMove] = []
    rejected: list[tuple[int, tuple[int, ...]]] = []
    node = root
    for node in sgf.main_sequence_iter():
        if any(node.get_setup_stones()):
            raise BadRecord(
                "sgf_setup_unsupported",
                f"Stones set up with AB/AW/AE (after {len(moves)} moves) cannot be imported:"
                " a game here starts from an empty board",
            )
        if node.has_property("B") and node.has_property("W"):
            raise BadRecord("bad_sgf", f"Move {len(moves) + 1} has both a B and a W property")
        try:
            letter, point = node.get_move()
        except ValueError:
            letter, raw = node.get_raw_move()
            raise BadRecord(
                "bad_sgf",
                f"Move {len(moves) + 1}, {letter.upper()}[{_shown(raw)}], is not a point of a"
                f" {size}x{size} board",
            ) from None
        if letter is not None:
            colour = 1 if letter == "b" else 2
            if colour != (1 if len(moves) % 2 == 0 else 2):
                raise BadRecord(
                    "sgf_out_of_turn",
                    f"Move {len(moves) + 1} is {'black' if colour == 1 else 'white'}'s, but the"
                    " colours must alternate from black's first move",
                )
            moves.append(SgfMove(colour, None if point is None else _engine_point(point, size)))
        if node.has_property(REJECTED_DEAD):
            rejected.append((len(moves), _rejected_points(node, size)))

    presenter = sgf.get_property_presenter()
    info = {
        identifier: sgf_properties.interpret_simpletext(root.get_raw(identifier), presenter)
        for identifier in ("PB", "PW", "DT", "RE", *GAME_INFO)
        if root.has_property(identifier)
    }
    result = info.get("RE")
    record = SgfGame(
        size=size,
        komi=_komi(sgf),
        black=info.get("PB"),
        white=info.get("PW"),
        date=info.get("DT"),
        result=result,
        moves=tuple(moves),
        extra=tuple((name, info[name]) for name in GAME_INFO if name in info),
        rejected=tuple(rejected),
    )
    game = _play_moves(record)
    marked = node.has_property("TB") or node.has_property("TW")
    stated = _readable(result)
    counted = stated is not None and stated.how is Termination.SCORE
    lost = stated is not None and stated.how in LOSSES  # not a count, whatever the markup
    if (
        not (record.ends_with_two_passes and (marked or counted))
        or lost
        or game.phase is not GoPhase.MARKING
    ):
        return record
    board = game.board
    dead = set()
    for identifier, colour in (("TB", 2), ("TW", 1)):
        if node.has_property(identifier):
            points = (_engine_point(rc, size) for rc in node.get(identifier))
            dead.update(p for p in points if board[p] == colour)
    return replace(record, dead=tuple(sorted(dead)), scored=True)


def _readable(result: str | None) -> StatedResult | None:
    """``sgf_stated_result``, or None for a result it cannot read (refused on import, not
    here: the file is still read)."""
    try:
        return sgf_stated_result(result)
    except BadRecord:
        return None


def _rejected_points(node, size: int) -> tuple[int, ...]:
    """The points of a node's ``REJECTEDDEAD`` (``[ce][fd]``), sorted."""
    points = []
    for raw in node.get_raw_list(REJECTED_DEAD):
        if not raw:  # REJECTEDDEAD[]: no stone proposed
            continue
        x, y = (raw[0] - 97, raw[1] - 97) if len(raw) == 2 else (-1, -1)
        if not (0 <= x < size and 0 <= y < size):
            raise BadRecord(
                "bad_sgf", f"{REJECTED_DEAD}[{_shown(raw)}] is not a point of a {size}x{size} board"
            )
        points.append(x + size * y)
    return tuple(sorted(set(points)))


def _komi(sgf: Sgf_game) -> float:
    try:
        return sgf.get_komi()
    except ValueError:
        raw = sgf.get_root().get_raw("KM")
        raise BadRecord("bad_sgf", f"KM[{_shown(raw)}] is not a number of points") from None


def _engine_point(row_col: tuple[int, int], size: int) -> int:
    """sgfmill's (row from the bottom, column) as the engine's point."""
    row, col = row_col
    return col + size * (size - 1 - row)
