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
    BadOptions,
    Game,
    GoGame,
    IllegalMove,
    get_variant,
    new_game,
    point_name,
)

from .go_search import estimate_dead, go_action
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
    "final_status_list",
    "kgs-genmove_cleanup",
    "tournament_rule",
    "decide",
    "gtp_extensions",
)

EXTENSIONS = (
    "Pente family: black's first stone must be the centre (K10) where the game begins there;"
    " genmove b on the empty board answers it",
    "tournament_rule [on|off]: the rule for player 1's second stone (on by default where rated"
    " games use it); it clears the board; without an argument, the current setting",
    "play COLOUR V1 V2: a Connect6 turn of two stones in one command",
    "genmove COLOUR: on a Connect6 turn of two stones answers V1 V2",
    "decide WORD: make the pending D or Swap2 decision (keep swap place_two colour1 colour2)",
    "genmove COLOUR: while a decision is pending makes it and answers the word",
    "undo: takes back one action (a stone or a decision)",
    "final_score: Pente family, once over: B+five W+captures B+six ... or 0 for a draw",
    "final_score, final_status_list: Go, dead stones estimated by the computer's playouts",
    "genmove: Go, at levels 5 to 8, answers resign when the game is hopeless",
    "showboard: X is black (colour 1), O is white (colour 2)",
)

_COLOURS = {"b": 1, "black": 1, "w": 2, "white": 2}
_LETTER = {1: "B", 2: "W"}
RESIGN = "resign"
#: Go: the levels that resign, below which win rate, once this share of the board holds stones.
RESIGN_LEVEL, RESIGN_WINRATE, RESIGN_AFTER = 5, 0.03, 0.25
#: Go: the budget of ``final_score`` and ``final_status_list`` for the estimate of dead stones,
#: in looks at the clock, not seconds (the same answer on any machine): enough for the search's
#: whole cap of playouts on every board.
COUNT_NODES = 1_000_000


class GtpError(Exception):
    """A command refused: its text is the answer after ``?``."""


class GtpEngine:
    """One GTP session over one game (see the module's docstring for the commands).

    In the games that begin with the centre stone the engine places it itself; over GTP the
    board starts empty and that stone is *hidden* until black plays it (``play b K10``, or
    ``genmove b``, which answers it). ``_undo`` says how to take back each action: ``"move"``
    (the engine's own undo), ``"reveal"`` (hide the centre stone again) or the game as it was
    before a set-up stone (a stone played out of turn, which GTP allows). ``max_nodes``, in
    place of ``budget_s``: each move searched on a budget of nodes, the same answer on any
    machine (tests).
    """

    def __init__(
        self,
        game_name: str,
        level: int = 8,
        budget_s: float = 5.0,
        *,
        rng=None,
        max_nodes: int | None = None,
    ) -> None:
        self.variant = get_variant(game_name)
        self.level = level
        self.budget_s = budget_s
        self.max_nodes = max_nodes
        self.rng = rng or random.Random()
        self.komi = 7.5
        self.size = self.variant.size
        self.tournament_rule = self.variant.tournament_rule_allowed
        self.done = False
        self._handlers: dict[str, Callable[[list[str]], str]] = {
            name: getattr(self, f"_cmd_{name.replace('-', '_')}") for name in COMMANDS
        }
        self._new()

    @property
    def is_go(self) -> bool:
        """Whether Go's commands apply (passes, komi, final_score, 9/13/19 boards): the game
        ends by an area count."""
        return self.variant.scored_by_area

    def _new(self) -> None:
        if self.is_go:
            self.game: Game | GoGame = GoGame(self.size, komi=self.komi)
        else:
            self.game = new_game(self.variant, tournament_rule=self.tournament_rule)
        first = self.game.actions
        automatic = bool(first) and not self.game.without_automatic(first)
        self.centre: int | None = first[0] if automatic else None
        self.hidden = automatic
        self._undo: list[object] = []
        self._before: tuple[Game | GoGame, bool] | None = None
        self._dead: frozenset[int] | None = None

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
        self._new()
        return ""

    def _cmd_clear_board(self, args: list[str]) -> str:
        self._new()
        return ""

    def _cmd_komi(self, args: list[str]) -> str:
        try:
            komi = float(args[0])
        except (IndexError, ValueError):
            raise GtpError("syntax error: komi FLOAT") from None
        if self.is_go:
            if any(not isinstance(step, str) for step in self._undo):
                raise GtpError("komi must be set before stones are set up out of turn")
            self.game = GoGame.replay(self.game.actions, size=self.size, komi=komi)
            self._undo = ["move"] * len(self.game.actions)
            self._dead = None
        self.komi = komi
        return ""

    def _cmd_tournament_rule(self, args: list[str]) -> str:
        if not args:
            return "on" if self.tournament_rule else "off"
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            raise GtpError("syntax error: tournament_rule on|off")
        wanted = args[0].lower() == "on"
        if self.is_go or not self.variant.tournament_rule_allowed:
            if wanted:
                raise GtpError(f"{self.variant.name} has no tournament rule")
            return ""
        try:
            new_game(self.variant, tournament_rule=wanted)
        except BadOptions as exc:
            raise GtpError(str(exc)) from None
        self.tournament_rule = wanted
        self._new()
        return ""

    # ------------------------------------------------------------------ moves

    def _colour(self, args: list[str], n_min: int) -> int:
        if len(args) < n_min or args[0].lower() not in _COLOURS:
            raise GtpError("syntax error: expected a colour (b, w, black, white)")
        return _COLOURS[args[0].lower()]

    def _to_move(self) -> int | None:
        """The colour to move as GTP sees it (black while the centre stone is hidden)."""
        return 1 if self.hidden else self.game.to_move_colour

    def _take_turn(self, colour: int) -> None:
        """Let ``colour`` act next. GTP lets either colour play at any time (to set up a
        position); a stone out of turn makes a position of the stones on the board with
        ``colour`` to move (the opening and its rules are over then). The game as it was is
        kept in ``_before`` until the stone is played (``_moved``) or refused (``_refused``)."""
        self._before = None
        game = self.game
        if game.pending_decision is not None or game.outcome is not None:
            return
        if self.is_go and game.phase != "playing":
            return
        if self._to_move() in (None, colour):
            return
        board = list(game.board)
        if self.hidden and self.centre is not None:
            board[self.centre] = 0
        stones: dict[int, list[int]] = {}
        for p, c in enumerate(board):
            if c:
                stones.setdefault(c, []).append(p)
        captures = dict(enumerate(game.captures[:2], start=1))
        if self.is_go:
            position = GoGame.from_position(
                self.size, stones, to_move=colour, captures=captures, komi=self.komi
            )
        else:
            position = Game.from_position(
                self.variant, stones=stones, to_move=colour, captures=captures
            )
        self._before = (game, self.hidden)
        self.game, self.hidden = position, False

    def _refused(self, text: str) -> GtpError:
        """A stone refused: a position set up for it is dropped."""
        if self._before is not None:
            self.game, self.hidden = self._before
            self._before = None
        return GtpError(text)

    def _reveal(self, vertex: str | int) -> bool:
        """Black's first stone while the centre is hidden: only the centre (then shown)."""
        if not self.hidden:
            return False
        point = self.game.parse_point(vertex) if isinstance(vertex, str) else vertex
        if point != self.centre:
            name = point_name(self.centre, self.size)
            raise GtpError(f"illegal move: black's first stone is the centre, {name}")
        self.hidden = False
        self._undo.append("reveal")
        return True

    def _cmd_play(self, args: list[str]) -> str:
        colour = self._colour(args, 2)
        vertices = args[1:]
        if self.is_go and len(vertices) != 1:
            raise GtpError("syntax error: play COLOUR VERTEX")
        if not self.is_go and len(vertices) not in (1, 2):
            raise GtpError("syntax error: play COLOUR VERTEX [VERTEX]")
        if not self.is_go and vertices[0].lower() == PASS:
            raise GtpError(f"illegal move: there is no passing in {self.variant.name}")
        self._take_turn(colour)
        game = self.game
        try:
            if self.is_go:
                if vertices[0].lower() == PASS and game.phase != "playing":
                    return ""  # already counting: a further pass changes nothing
                game.play(vertices[0].upper())
            elif self.hidden and len(vertices) == 1:
                self._reveal(vertices[0].upper())
                return ""
            elif len(vertices) == 2:
                game.play_turn(vertices)
            else:
                game.play(vertices[0])
        except IllegalMove as exc:
            raise self._refused(f"illegal move: {exc.detail}") from None
        self._moved()
        return ""

    def _moved(self) -> None:
        """One action done: ``undo`` takes it back (with the set-up it needed, if any)."""
        self._undo.append(self._before if self._before is not None else "move")
        self._before = None
        self._dead = None

    def _cmd_decide(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("syntax error: decide WORD")
        try:
            self.game.decide(args[0].lower())
        except IllegalMove as exc:
            raise GtpError(f"illegal move: {exc.detail}") from None
        self._moved()
        return ""

    def _cmd_genmove(self, args: list[str]) -> str:
        colour = self._colour(args, 1)
        self._take_turn(colour)
        game = self.game
        if self.is_go:
            return self._go_genmove()
        if game.outcome is not None:
            raise self._refused("game over")
        if self.hidden:
            self._reveal(self.centre)
            return point_name(self.centre, self.size)
        choice = choose_move(
            game,
            level=self.level,
            budget_s=self.budget_s,
            rng=self.rng,
            mistakes=True,
            max_nodes=self.max_nodes,
        )
        if choice.decision is not None:
            game.decide(choice.decision)
            self._moved()
            return choice.decision
        game.play_turn(choice.points)
        self._moved()
        return " ".join(point_name(p, self.size) for p in choice.points)

    def _cmd_kgs_genmove_cleanup(self, args: list[str]) -> str:
        """KGS's clean-up move: the search already removes dead stones it sees before passing."""
        return self._cmd_genmove(args)

    def _go_genmove(self) -> str:
        game = self.game
        if game.phase != "playing":
            return PASS
        action = go_action(
            game,
            level=self.level,
            budget_s=self.budget_s,
            rng=self.rng,
            max_nodes=self.max_nodes,
        )
        if (
            self.level >= RESIGN_LEVEL
            and action.winrate < RESIGN_WINRATE
            and sum(1 for c in game.board if c) >= RESIGN_AFTER * self.size * self.size
        ):
            self._refused("")  # no stone: a position set up for it is dropped
            return RESIGN
        if action.kind != "play" or action.point is None:
            game.pass_turn()
            self._moved()
            return PASS
        game.play(action.point)
        self._moved()
        return point_name(action.point, self.size)

    def _cmd_undo(self, args: list[str]) -> str:
        if not self._undo:
            raise GtpError("cannot undo")
        last = self._undo[-1]
        if isinstance(last, str) and last == "move":
            try:
                self.game.pop()
            except IllegalMove:
                raise GtpError("cannot undo") from None
        elif isinstance(last, str):
            self.hidden = True
        else:
            self.game, self.hidden = last  # type: ignore[misc]
        self._undo.pop()
        self._dead = None
        return ""

    # ------------------------------------------------------------------ the board and result

    def _cmd_showboard(self, args: list[str]) -> str:
        s = self.size
        letters = "   " + " ".join(COLUMNS[:s])
        marks = {"0": ".", "1": "X", "2": "O"}
        lines = [letters]
        rows = self.game.rows()
        if self.hidden and self.centre is not None:
            y, x = divmod(self.centre, s)
            rows = [row if i != y else row[:x] + "." + row[x + 1 :] for i, row in enumerate(rows)]
        for y, row in enumerate(rows):
            cells = " ".join(marks.get(ch, ch) for ch in row.replace(".", "0"))
            lines.append(f"{s - y:>2} {cells} {s - y}")
        lines.append(letters)
        black, white = self.game.captures[:2]
        lines.append(f"captures: black {black}, white {white}")
        return "\n" + "\n".join(lines)

    def _go_dead(self) -> frozenset[int]:
        """The dead stones of the Go board as the computer's playouts see them (kept until the
        board changes)."""
        if self._dead is None:
            self._dead = estimate_dead(self.game, max_nodes=COUNT_NODES, rng=self.rng)
        return self._dead

    def _cmd_final_score(self, args: list[str]) -> str:
        game = self.game
        if self.is_go:
            score = game.score(dead=self._go_dead())
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

    def _cmd_final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0].lower() not in ("dead", "alive", "seki"):
            raise GtpError("syntax error: final_status_list dead|alive|seki")
        if not self.is_go:
            raise GtpError("not Go")
        status = args[0].lower()
        if status == "seki":
            return ""  # no seki is told apart: its stones count as alive
        dead = self._go_dead()
        board = self.game.board
        chosen = [p for p, c in enumerate(board) if c and (p in dead) == (status == "dead")]
        return " ".join(point_name(p, self.size) for p in chosen)
