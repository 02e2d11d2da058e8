"""Our engine over GTP version 2 (the Go Text Protocol), so that GUIs and match tools can drive it
and it can play other programs (pure Python, no framework).

``GtpEngine(game_name, level, budget_s).run(stdin, stdout)`` answers one command a line. The
commands and the Pente family's extensions: docs/computer-opponents.md, "The engine over GTP".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from games.engine import (
    COLUMNS,
    GO_VARIANTS,
    GoGame,
    IllegalMove,
    get_variant,
    new_game,
    point_name,
)

from .go_search import go_action
from .search import choose_move

__all__ = ["COMMANDS", "GtpEngine"]

NAME = "pente-server"
VERSION = "0.1.0"
PASS = "pass"

COMMANDS = (
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "decide",
    "gtp_extensions",
)

EXTENSIONS = (
    "Pente family: after clear_board black's first stone is already on K10"
    " (the server places it; D and Swap2 excepted); white is to move; undo keeps it",
    "play COLOUR V1 V2: a Connect6 turn of two stones in one command",
    "genmove COLOUR: on a Connect6 turn of two stones answers V1 V2",
    "decide WORD: make the pending D or Swap2 decision (keep swap place_two colour1 colour2)",
    "genmove COLOUR: while a decision is pending makes it and answers the word",
    "undo: takes back one action (a stone or a decision)",
    "final_score: Pente family, once over: B+five W+captures B+six ... or 0 for a draw",
    "showboard: X is black (colour 1), O is white (colour 2)",
)

_COLOURS = {"b": 1, "black": 1, "w": 2, "white": 2}
_LETTER = {1: "B", 2: "W"}


class GtpError(Exception):
    """A command refused: its text is the answer after ``?``."""


class GtpEngine:
    """One GTP session over one game (see the module's docstring for the commands)."""

    def __init__(self, game_name: str, level: int = 8, budget_s: float = 5.0, *, rng=None) -> None:
        self.variant = get_variant(game_name)
        self.level = level
        self.budget_s = budget_s
        self.rng = rng or random.Random()
        self.komi = 7.5
        self.size = self.variant.size
        self.done = False
        self.game = self._new()
        self._handlers: dict[str, Callable[[list[str]], str]] = {
            name: getattr(self, f"_cmd_{name}") for name in COMMANDS
        }

    @property
    def is_go(self) -> bool:
        return self.variant.family == "go"

    def _new(self):
        if self.is_go:
            return GoGame(self.size, komi=self.komi)
        return new_game(self.variant)

    # ------------------------------------------------------------------ the protocol

    def run(self, stdin: TextIO, stdout: TextIO) -> None:
        """Answer every line of ``stdin`` on ``stdout`` until ``quit`` or the end of input."""
        for line in stdin:
            answer = self.handle(line)
            if answer is None:
                break
            if answer:
                stdout.write(answer)
                stdout.flush()
            if self.done:
                break

    def handle(self, line: str) -> str | None:
        """The answer to one command line (``""`` for an empty or comment line; None once the
        session has ended with ``quit``)."""
        if self.done:
            return None
        text = "".join(
            " " if ch == "\t" else ch for ch in line.split("#", 1)[0] if ch >= " " or ch == "\t"
        )
        words = text.split()
        if not words:
            return ""
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} syntax error: no command\n\n"
        command, args = words[0], words[1:]
        handler = self._handlers.get(command)
        if handler is None:
            return f"?{ident} unknown command\n\n"
        try:
            result = handler(args)
        except GtpError as exc:
            return f"?{ident} {exc}\n\n"
        return f"={ident} {result}\n\n" if result else f"={ident}\n\n"

    # ------------------------------------------------------------------ administrative

    def _cmd_protocol_version(self, args: list[str]) -> str:
        return "2"

    def _cmd_name(self, args: list[str]) -> str:
        return NAME

    def _cmd_version(self, args: list[str]) -> str:
        return f"{VERSION} {self.variant.name} level {self.level}"

    def _cmd_known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self._handlers else "false"

    def _cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def _cmd_gtp_extensions(self, args: list[str]) -> str:
        return "\n".join(EXTENSIONS)

    def _cmd_quit(self, args: list[str]) -> str:
        self.done = True
        return ""

    # ------------------------------------------------------------------ setup

    def _cmd_boardsize(self, args: list[str]) -> str:
        if len(args) != 1 or not args[0].isdigit():
            raise GtpError("syntax error: boardsize SIZE")
        size = int(args[0])
        allowed = (9, 13, 19) if self.is_go else (self.variant.size,)
        if size not in allowed:
            raise GtpError("unacceptable size")
        if self.is_go:
            self.variant = next(v for v in GO_VARIANTS.values() if v.size == size)
            self.size = size
        self.game = self._new()
        return ""

    def _cmd_clear_board(self, args: list[str]) -> str:
        self.game = self._new()
        return ""

    def _cmd_komi(self, args: list[str]) -> str:
        try:
            komi = float(args[0])
        except (IndexError, ValueError):
            raise GtpError("syntax error: komi FLOAT") from None
        self.komi = komi
        if self.is_go:
            self.game = GoGame.replay(self.game.actions, size=self.size, komi=komi)
        return ""

    # ------------------------------------------------------------------ moves

    def _colour(self, args: list[str], n_min: int) -> int:
        if len(args) < n_min or args[0].lower() not in _COLOURS:
            raise GtpError("syntax error: expected a colour (b, w, black, white)")
        colour = _COLOURS[args[0].lower()]
        game = self.game
        if game.pending_decision is None and game.outcome is None:
            if game.to_move_colour is not None and colour != game.to_move_colour:
                raise GtpError("wrong colour")
        return colour

    def _cmd_play(self, args: list[str]) -> str:
        self._colour(args, 2)
        vertices = args[1:]
        game = self.game
        try:
            if self.is_go:
                if len(vertices) != 1:
                    raise GtpError("syntax error: play COLOUR VERTEX")
                if vertices[0].lower() == PASS and game.phase != "playing":
                    return ""  # already counting: a further pass changes nothing
                game.play(vertices[0].upper())
            elif len(vertices) == 2:
                game.play_turn(vertices)
            elif len(vertices) == 1:
                if vertices[0].lower() == PASS:
                    raise GtpError(f"illegal move: there is no passing in {self.variant.name}")
                game.play(vertices[0])
            else:
                raise GtpError("syntax error: play COLOUR VERTEX [VERTEX]")
        except IllegalMove as exc:
            raise GtpError(f"illegal move: {exc.detail}") from None
        return ""

    def _cmd_decide(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("syntax error: decide WORD")
        try:
            self.game.decide(args[0].lower())
        except IllegalMove as exc:
            raise GtpError(f"illegal move: {exc.detail}") from None
        return ""

    def _cmd_genmove(self, args: list[str]) -> str:
        colour = self._colour(args, 1)
        game = self.game
        if self.is_go:
            return self._go_genmove(colour)
        if game.outcome is not None:
            raise GtpError("game over")
        choice = choose_move(
            game, level=self.level, budget_s=self.budget_s, rng=self.rng, mistakes=True
        )
        if choice.decision is not None:
            game.decide(choice.decision)
            return choice.decision
        game.play_turn(choice.points)
        return " ".join(point_name(p, self.size) for p in choice.points)

    def _go_genmove(self, colour: int) -> str:
        game = self.game
        if game.phase != "playing":
            return PASS
        action = go_action(game, level=self.level, budget_s=self.budget_s, rng=self.rng)
        if action.kind != "play" or action.point is None:
            game.pass_turn()
            return PASS
        game.play(action.point)
        return point_name(action.point, self.size)

    def _cmd_undo(self, args: list[str]) -> str:
        try:
            self.game.pop()
        except IllegalMove:
            raise GtpError("cannot undo") from None
        return ""

    # ------------------------------------------------------------------ the board and result

    def _cmd_showboard(self, args: list[str]) -> str:
        s = self.size
        letters = "   " + " ".join(COLUMNS[:s])
        marks = {"0": ".", "1": "X", "2": "O"}
        lines = [letters]
        for y, row in enumerate(self.game.rows()):
            cells = " ".join(marks.get(ch, ch) for ch in row.replace(".", "0"))
            lines.append(f"{s - y:>2} {cells} {s - y}")
        lines.append(letters)
        black, white = self.game.captures[:2]
        lines.append(f"captures: black {black}, white {white}")
        return "\n" + "\n".join(lines)

    def _cmd_final_score(self, args: list[str]) -> str:
        game = self.game
        if self.is_go:
            score = game.score()
            if score.winner is None:
                return "0"
            return f"{_LETTER[score.winner]}+{score.margin:g}"
        outcome = game.outcome
        if outcome is None:
            raise GtpError("not Go")
        if not outcome.winners:
            return "0"
        colour = game.seat_colour(outcome.winners[0])
        return f"{_LETTER.get(colour, colour)}+{outcome.termination.value}"
