"""Replaying records through the engine: the position, who took each action, the ending
(``replay_record``, which says how Go records are read).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import BadOptions, BadRecord, EngineError, IllegalMove, UnknownGame
from ..game import Game
from ..go import KOMI, GoGame, GoPhase
from ..notation import parse_point, point_name
from ..outcome import Outcome, Termination
from ..variants import VARIANTS
from .model import END_REASON_HEADER, FORFEIT, GO_GAMES, GO_NAMES, KOMI_HEADER, Record
from .write import sides


class RecordMoveError(BadRecord):
    """A record whose move text the engine refuses: ``ply`` (stones, and Go's passes, counted
    from 1) and ``move``.

    ``code``/``detail`` are the engine's ``IllegalMove`` ones (or ``not_centre``); ``game`` is
    the position just before the refused move.
    """

    def __init__(
        self, code: str, detail: str, *, ply: int, move: str, game: Game | GoGame | None
    ) -> None:
        super().__init__(code, detail, None)
        self.ply = ply
        self.move = move
        self.game = game


@dataclass(frozen=True)
class Replay:
    """A record replayed once through the engine.

    ``game`` is the position after the last move (a ``GoGame`` for Go, counted when the record
    ends with two passes; a final Resign/Forfeit token does not change it: the engine has no
    resignation); ``seats`` is the seat that took each of ``game.actions`` (1 for the automatic
    centre stone); ``ending`` is the move text's final ``"Resign"`` / ``"Forfeit"`` token or
    None, and ``resigned_colour`` the colour that resigned or forfeited.
    """

    game: Game | GoGame
    seats: tuple[int, ...] = ()
    ending: str | None = None
    resigned_colour: int | None = None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (a resignation or forfeit, or the position's own outcome), or
        None when the record ends before the game does."""
        if self.resigned_colour is None:
            return self.game.outcome
        how = Termination.FORFEIT if self.ending == FORFEIT else Termination.RESIGN
        game = self.game
        winner = self.winner
        return Outcome(
            how, tuple(s for s in range(1, game.seats + 1) if game.seat_colour(s) == winner)
        )

    @property
    def winner(self) -> int | None:
        """The winning colour (the other side of a resignation), or None."""
        if self.resigned_colour is not None:
            return 2 if self.resigned_colour == 1 else 1
        return self.game.winner_colour


def replay_record(record: Record) -> Replay:
    """Replay ``record`` through the engine once: the position, who took each action, and the
    ending the move text says.

    Raises ``BadRecord`` (``missing_game``, ``unknown_game``, ``resign_multiplayer``, ...) for a
    record that cannot be set up, and ``RecordMoveError`` (a ``BadRecord``) for a refused move.

    Each game has its replayer, chosen by the record's game name (``_replayer``): the Pente family's
    plays every stone and opening decision through ``Game``; Go's (``GO_GAMES``) plays the stones
    and passes through ``GoGame``. Both give a ``Replay`` and a ``replay_summary`` line; the
    ``Resign`` / ``Forfeit`` ending is read the same way for both (see ``model.Record``).

    Go records
    ----------
    - Move tokens are stones (``D4``, or the integer form ``x + size*y``) and ``PASS``; ``Komi``
      (optional) is white's komi, 7.5 when absent.
    - Two passes in a row followed by more moves: the dead stones were not agreed and play resumed
      (the engine's marking, the next group of the ``Rejected Dead`` header, or none past its
      groups, is proposed and rejected), the player who passed first to move, as the alternation
      of the text says anyway. A record that ends with two passes and still has a group of
      ``Rejected Dead`` left was turned down there too, with no move since (it then ended by a
      resignation, or on time): it is not counted.
    - A record ending with two passes is finished: the player who passed first marks the stones of
      the ``Dead`` header (none without the header), the other accepts, they leave the board as
      captures of the other colour, and the board is counted (area scoring, komi to white). The
      ``Dead`` header is read only there: it is ignored in a record that ends otherwise. An
      ``End Reason`` other than ``score`` (a loss on time while the dead stones were marked, see
      ``result``) says the game was not counted: it stays in its marking phase.
    - A record ending with ``Resign`` / ``Forfeit``: the side to move resigned and the other side
      wins; **decision:** its ``score`` is the area count of the board as it stands (no stone dead),
      like that of a record in progress; ``dead`` is empty.
    - A refused move is a ``RecordMoveError`` whose ply counts stones and passes from 1; a ``Dead``
      or ``Rejected Dead`` point that holds no stone (or is no point of the board) is a
      ``BadRecord`` with the engine's code (``bad_dead``, ``off_board``, ``bad_coordinate``); a
      ``Komi`` that is not a number, a ``bad_header``.
    """
    return _replayer(record).replay(record)


def game_from_record(record: Record) -> Game | GoGame:
    """Replay ``record`` through the engine and return the position after its last move.

    Raises as ``replay_record``. A final Resign/Forfeit token does not change the returned
    position (the engine has no resignation); ``replay_summary`` reports it.
    """
    return replay_record(record).game


def replay_summary(record: Record) -> dict[str, Any]:
    """One JSON-ready line for the ``replay`` command.

    The Pente family: ``{"game", "plies", "status": "finished"|"in_progress", "winner":
    colour|None, "reason": "five"|"captures"|"draw"|"resign"|"forfeit"|None, "captures": [by
    colour 1, by colour 2, ...], "board": [rows, top first]}``. Go: ``{"game", "plies" (passes
    included), "status", "captures": [by black, by white] (the dead stones removed at the count
    included), "board", "dead": [points, top row first], "score": {"black", "white"} (area
    count, komi included), "winner": 1|2|None}``. Either game: ``{"game", "error": {"ply",
    "move", "code", "detail"}}`` when the record cannot be replayed.
    """
    name = record.game_name
    replayer = _replayer(record)
    try:
        replay = replayer.replay(record)
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
    return replayer.summary(replay)


def _status(replay: Replay) -> str:
    return "in_progress" if replay.outcome is None else "finished"


def _pente_summary(replay: Replay) -> dict[str, Any]:
    game = replay.game
    outcome = replay.outcome
    return {
        "game": game.variant.name,
        "plies": game.plies,
        "status": _status(replay),
        "winner": replay.winner,
        "reason": None if outcome is None else outcome.termination.value,
        "captures": list(game.captures),
        "board": list(game.rows()),
    }


def _go_summary(replay: Replay) -> dict[str, Any]:
    game = replay.game
    score = game.score()  # the final count once over; else the board as it stands, none dead
    return {
        "game": GO_NAMES[game.size],
        "plies": game.plies,
        "status": _status(replay),
        "captures": list(game.captures),
        "board": game.rows(),
        "dead": [point_name(p, game.size) for p in sorted(score.dead)],
        "score": {"black": score.black, "white": score.white},
        "winner": replay.winner,
    }


def _new_game(record: Record) -> Game:
    name = record.game_name
    if not name:
        raise BadRecord("missing_game", "The record has no Game header.", record.line)
    seats = record.seats
    if not 2 <= seats <= 6:
        raise BadRecord("bad_header", f"Players must be 2..6, not {seats}.", record.line)
    for n in range(seats + 1, 7):  # a name past the seats: the game was not of ``seats``
        if record.header(f"Player {n} Name", "?") not in ("?", "-", ""):
            raise BadRecord(
                "bad_header",
                f"The record names a Player {n} but has {seats} players: give "
                f'[Players "{n}"] (or more) for a game of {n} or more.',
                record.line,
            )
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
        known = ", ".join([*VARIANTS, *GO_GAMES])
        detail = f"Unknown game {name!r}; the engine plays {known}."
        raise BadRecord("unknown_game", detail, record.line) from exc
    except (EngineError, ValueError) as exc:
        code = getattr(exc, "code", "bad_options")
        raise BadRecord(code, str(exc), record.line) from exc


def _replay_pente(record: Record) -> Replay:
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

    return Replay(game, tuple(seats), record.ending, _resigned(record, game))


def _resigned(record: Record, game: Game | GoGame) -> int | None:
    """The colour whose slot the final Resign/Forfeit token is in (None without one)."""
    if record.ending is None:
        return None
    if sides(game) != 2:
        raise BadRecord(
            "resign_multiplayer",
            f"{record.ending} cannot be replayed in a game of more than two sides.",
            record.line,
        )
    if game.outcome is not None:
        raise RecordMoveError(
            "game_over",
            f"{record.ending} follows the end of the game.",
            ply=game.plies + 1,
            move=record.ending,
            game=game,
        )
    return game.to_move_colour


def _replay_go(record: Record) -> Replay:
    game = _new_go_game(record)
    seats: list[int] = []

    def act(action: Callable[..., object], *args: object) -> None:
        seat = game.to_move_seat
        action(*args)
        seats.append(seat or 1)

    rejected = list(record.rejected)

    def turn_down() -> None:
        """The marking turned down here: the next of ``Rejected Dead`` (none: no stone)."""
        try:
            act(game.mark_dead, rejected.pop(0) if rejected else ())
        except IllegalMove as exc:
            detail = f"Rejected Dead header: {exc.detail}."
            raise BadRecord(exc.code, detail, record.line) from exc
        act(game.reject)

    for token in record.stones:
        if game.phase is GoPhase.MARKING:  # two passes, then more moves: play resumed
            turn_down()
        ply = game.plies + 1
        try:
            act(game.play, token)
        except IllegalMove as exc:
            raise RecordMoveError(exc.code, exc.detail, ply=ply, move=token, game=game) from exc
    if game.phase is GoPhase.MARKING and rejected:  # turned down, and no move since
        turn_down()
    resigned = _resigned(record, game)
    if resigned is None and game.phase is GoPhase.MARKING and _counted(record):
        try:
            act(game.mark_dead, record.dead)
        except IllegalMove as exc:
            detail = f"Dead header: {exc.detail}."
            raise BadRecord(exc.code, detail, record.line) from exc
        act(game.accept)
    return Replay(game, tuple(seats), record.ending, resigned)


def _counted(record: Record) -> bool:
    """Whether a Go record that ends with two passes was counted: unless its ``End Reason``
    says it ended otherwise (on time while the dead stones were being marked, ...)."""
    how = (record.header(END_REASON_HEADER) or "").strip().lower()
    return how in ("", Termination.SCORE)


def _new_go_game(record: Record) -> GoGame:
    value = record.header(KOMI_HEADER)
    try:
        return GoGame(
            GO_GAMES[record.game_name or ""], komi=KOMI if value is None else float(value)
        )
    except (BadOptions, ValueError) as exc:
        detail = f"Komi must be a number of points, not {value!r}."
        raise BadRecord("bad_header", detail, record.line) from exc


def _apply_decisions(game: Game, decisions: list[str], seats: list[int]) -> None:
    while game.pending_decision is not None and decisions and game.outcome is None:
        choice = decisions.pop(0)
        seat = game.to_move_seat or 1
        try:
            game.decide(choice)
        except IllegalMove as exc:
            raise RecordMoveError(
                exc.code, exc.detail, ply=game.plies + 1, move=choice, game=game
            ) from exc
        seats.append(seat)


@dataclass(frozen=True, slots=True)
class _Replayer:
    """How the records of some games are replayed and summed up."""

    replay: Callable[[Record], Replay]
    summary: Callable[[Replay], dict[str, Any]]


_PENTE_FAMILY = _Replayer(_replay_pente, _pente_summary)
_REPLAYERS = dict.fromkeys(GO_GAMES, _Replayer(_replay_go, _go_summary))


def _replayer(record: Record) -> _Replayer:
    """The replayer of the record's game: Go's by its names, else the Pente family's."""
    return _REPLAYERS.get(record.game_name or "", _PENTE_FAMILY)
