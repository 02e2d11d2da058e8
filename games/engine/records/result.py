"""The result a record states, and the result an archive keeps of a record (``record_outcome``
says how).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..errors import BadRecord
from ..go import GoGame
from ..outcome import Outcome, Termination
from .identity import result_colours
from .model import END_REASON_HEADER, IN_PROGRESS, MARGIN_HEADER, Record
from .replay import Replay
from .write import sides

RESULT_CONTRADICTS_BOARD = "result_contradicts_board"
#: The words of a record that states no result (compared in any case).
NO_RESULT = ("", IN_PROGRESS, "?", "void")
#: Endings only the moves can show.
BOARD_ENDINGS = (Termination.FIVE, Termination.SIX, Termination.CAPTURES, Termination.DRAW)
#: Endings where a side lost (there is a winner).
LOSSES = (Termination.RESIGN, Termination.TIMEOUT, Termination.FORFEIT)
_DRAW = "1/2"


@dataclass(frozen=True, slots=True)
class StatedResult:
    """A result as a record states it: the winning colours (``()``: a draw), how the game
    ended (``RECORDED``: the record does not say) and, for a Go count, its margin."""

    winners: tuple[int, ...]
    how: Termination = Termination.RECORDED
    margin: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "winners", tuple(sorted(self.winners)))
        object.__setattr__(self, "how", Termination(self.how))
        if self.how in LOSSES and not self.winners:
            raise ValueError(f"A game that ends by {self.how} has a winner")
        if self.margin is not None and not (self.how is Termination.SCORE and self.margin > 0):
            raise ValueError("Only a win on the count has a margin, above 0")

    def token(self, colours: int) -> str:
        """The result token: ``1-0``, ``0-1``, ``1/2-1/2``, ``0-1-0``..."""
        if not self.winners:
            return "-".join([_DRAW] * colours)
        return "-".join("1" if c in self.winners else "0" for c in range(1, colours + 1))

    def said(self, colours: int) -> str:
        """The result in a sentence's words: ``0-1``, ``0-1 by resignation``, ``1-0 by five``."""
        token = self.token(colours)
        if self.how is Termination.RECORDED:
            return token
        return f"{token} by {_HOW_SAID.get(self.how, self.how.value)}"


#: Endings as a sentence says them after "by".
_HOW_SAID = {
    Termination.RESIGN: "resignation",
    Termination.TIMEOUT: "time",
    Termination.FORFEIT: "forfeit",
    Termination.SCORE: "the count",
    Termination.DRAW: "a full board",
}


def stated_result(record: Record, *, colours: int) -> StatedResult | None:
    """The result ``record`` states for a game of ``colours`` sides, or None (see the module
    doc). Raises ``BadRecord`` ``bad_result``, ``results_disagree`` or ``bad_header``."""
    header, token = record.header("Result"), record.result
    winners = _winners(header, colours, "The Result header", record.line)
    in_text = _winners(token, colours, "The result of the move text", record.line)
    if winners is not None and in_text is not None and winners != in_text:
        raise BadRecord(
            "results_disagree",
            f"The Result header says {(header or '').strip()} but the move text ends with "
            f"{token}: give the record one result.",
            record.line,
        )
    winners = winners if winners is not None else in_text
    if winners is None:
        return None
    how = _how(record, winners, colours)
    margin = header_margin(record.header_dict, line=record.line)
    if how is not Termination.SCORE or not winners:
        margin = None
    return StatedResult(winners, how, margin)


def header_margin(headers: Mapping[str, object], *, line: int | None = None) -> float | None:
    """The ``Margin`` header as a number above 0, or None without one (``bad_header`` when it
    is not such a number)."""
    value = str(headers.get(MARGIN_HEADER) or "").strip()
    if not value:
        return None
    try:
        margin = float(value)
    except ValueError:
        margin = 0.0
    if not 0 < margin < float("inf"):
        detail = f"Margin {value!r} is not a count's margin: a number of points above 0 (5.5)."
        raise BadRecord("bad_header", detail, line)
    return margin


def record_outcome(record: Record, replay: Replay) -> Outcome | None:
    """The outcome an archive keeps of ``record``, replayed as ``replay``: the board's when
    its moves end the game, else the stated result's, else None (see below). Raises
    ``BadRecord`` as ``stated_result``, and ``result_contradicts_board``.

    A record states its result in its ``Result`` header and in the result token that ends its move
    text (``1-0``, ``0-1``, ``1/2-1/2``; one number per colour with three or more sides, ``0-1-0``;
    ``*``, ``?`` and an SGF's ``Void`` state none). Two headers of this server's say more, written
    only where the moves do not show it:

    * ``[End Reason "timeout"]``: how the game ended, in the words the server stores (``resign``,
      ``timeout``, ``forfeit``, ``score``); without it a stated result is ``recorded``: the record
      does not say how (Pente.org's records never do);
    * ``[Margin "5.5"]``: Go, the margin of a win on a count the moves do not reach (an SGF's
      ``B+5.5`` after the last stone, as professional records end).

    **Decisions** (``record_outcome``, which the import keeps):

    * When the moves end the game (a five, a six, captures, a full board, Go's count after two
      passes, a final ``Resign``/``Forfeit`` token), the board decides. A stated result that
      disagrees (another winner, a draw, or another way of ending in ``End Reason``) is refused
      with ``result_contradicts_board``: the archive cannot tell which of the two is true, and it
      keeps no result it knows one of them to deny. (Keeping the board's and warning would store
      a record whose own header says otherwise, and an export that no longer says what was sent.)
    * When they do not, a stated result is the game's: its winners, ended the way ``End Reason``
      says (``recorded`` without one; a draw, which a full board alone makes ``draw``, is
      ``recorded`` too). An ``End Reason`` the board would show (``five``, ``six``, ``captures``,
      ``draw``) contradicts moves that do not show it, and is refused the same way.
    * No stated result: the game has none (an unfinished record).

    The header and the token are one statement: when both name a result and they differ, the
    record is refused (``results_disagree``); one naming a result and the other none (``*``) is
    the result. A ``Result`` that is neither a result nor one of the words for none is
    ``bad_result``; an ``End Reason`` or ``Margin`` that cannot be read, ``bad_header``.
    """
    game = replay.game
    colours = sides(game)
    stated = stated_result(record, colours=colours)
    board = replay.outcome
    if board is not None:
        won = tuple(sorted({game.seat_colour(seat) for seat in board.winners}))
        if stated is not None and (
            stated.winners != won or stated.how not in (Termination.RECORDED, board.termination)
        ):
            said = StatedResult(won, board.termination).said(colours)
            fix = "correct its Result (or End Reason) header, or its moves, and import it again."
            if board.termination is Termination.SCORE:  # Go: most often dead stones not marked
                fix = (
                    "the count takes as dead only the stones the record marks dead (an SGF's "
                    "TB/TW markup, a record's Dead header): mark them, or correct its Result, "
                    "and import it again."
                )
            raise BadRecord(
                RESULT_CONTRADICTS_BOARD,
                f"The moves end the game {said}, but the record says {stated.said(colours)}: "
                + fix,
                record.line,
            )
        return board
    if stated is None:
        return None
    if stated.how in BOARD_ENDINGS:
        raise BadRecord(
            RESULT_CONTRADICTS_BOARD,
            f"The record says {stated.said(colours)}, but its moves do not end the game (it "
            f"goes on after move {len(record.stones)}): correct its End Reason header, or its "
            "moves, and import it again.",
            record.line,
        )
    if stated.how is Termination.SCORE and not isinstance(game, GoGame):
        raise BadRecord(
            "bad_header",
            f"End Reason score is Go's count; a {game.variant.name} game does not end on one: "
            "give resign, timeout, forfeit, or no End Reason.",
            record.line,
        )
    seats = tuple(s for s in range(1, game.seats + 1) if game.seat_colour(s) in stated.winners)
    return Outcome(stated.how, seats)


def record_stating(record: Record, stated: StatedResult | None, *, colours: int) -> Record:
    """``record`` stating ``stated`` (None: no result, ``*``): its ``Result`` header and
    token, ``End Reason`` (none for ``recorded``, nor when the move text ends with the
    ``Resign``/``Forfeit`` that says it) and ``Margin``."""
    token = IN_PROGRESS if stated is None else stated.token(colours)
    how = None
    if stated is not None and stated.how is not Termination.RECORDED and record.ending is None:
        how = stated.how.value
    margin = None if stated is None or stated.margin is None else f"{stated.margin:g}"
    record = replace(record, result=token).with_header("Result", token)
    return record.with_header(END_REASON_HEADER, how).with_header(MARGIN_HEADER, margin)


def _winners(text: str | None, colours: int, where: str, line: int) -> tuple[int, ...] | None:
    """The winning colours ``text`` names (``()``: a draw), None when it states no result."""
    value = (text or "").strip()
    if value.casefold() in NO_RESULT:
        return None
    winners = result_colours(value, colours=colours)
    if winners is None:
        win, draw = StatedResult((1,)).token(colours), StatedResult(()).token(colours)
        raise BadRecord(
            "bad_result",
            f"{where} {value!r} is not a result of a game of {colours} sides: write one "
            f"number per side ({win} when the first side won, {draw} for a draw), or * for "
            "none.",
            line,
        )
    return winners


def _how(record: Record, winners: tuple[int, ...], colours: int) -> Termination:
    value = (record.header(END_REASON_HEADER) or "").strip()
    if not value:
        return Termination.RECORDED
    try:
        how = Termination(value.lower())
    except ValueError:
        words = ", ".join(t.value for t in Termination)
        detail = f"End Reason {value!r} is not a way a game ends here: {words}."
        raise BadRecord("bad_header", detail, record.line) from None
    if how in LOSSES and not winners:
        detail = (
            f"End Reason {how} needs a winner, but the record states a draw "
            f"({StatedResult(()).token(colours)})."
        )
        raise BadRecord("bad_header", detail, record.line)
    return how
