"""Replaying records through the engine: the position, who took each action, the ending."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import BadRecord, EngineError, IllegalMove, UnknownGame
from ..game import Game
from ..notation import parse_point, point_name
from ..outcome import Outcome, Termination
from ..variants import VARIANTS
from .model import FORFEIT, Record
from .write import sides


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
    outcome = replay.outcome
    return {
        "game": game.variant.name,
        "plies": game.plies,
        "status": "in_progress" if outcome is None else "finished",
        "winner": replay.winner,
        "reason": None if outcome is None else outcome.termination.value,
        "captures": list(game.captures),
        "board": list(game.rows()),
    }


def _new_game(record: Record) -> Game:
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
        resigned = game.to_move_colour
    return Replay(game, tuple(seats), record.ending, resigned)


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
