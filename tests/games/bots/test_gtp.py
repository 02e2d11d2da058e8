"""The GTP front end: protocol basics, Pente-family and Go play through GTP commands, and the
``gtp`` management command."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command

from games.bots.gtp import COMMANDS, GtpEngine
from games.engine import GoGame, new_game

REQUIRED = (
    "protocol_version name version known_command list_commands quit boardsize clear_board"
    " komi play genmove undo showboard final_score"
).split()


def ok(answer: str | None) -> str:
    assert answer is not None and answer.startswith("=") and answer.endswith("\n\n"), answer
    return answer[1:].strip()


def test_protocol_basics():
    e = GtpEngine("Pente", 1, max_nodes=50)
    assert e.handle("12 protocol_version") == "=12 2\n\n"
    assert e.handle("name") == "= pente-server\n\n"
    assert ok(e.handle("version"))
    assert e.handle("3 frobnicate") == "?3 unknown command\n\n"
    assert e.handle("known_command genmove") == "= true\n\n"
    assert e.handle("known_command frobnicate") == "= false\n\n"
    listed = ok(e.handle("list_commands")).split("\n")
    assert set(REQUIRED) <= set(listed) and listed == list(COMMANDS)
    assert e.handle("") == "" and e.handle("# a comment") == ""
    assert "decide WORD" in ok(e.handle("gtp_extensions"))
    assert e.handle("9 quit") == "=9\n\n"
    assert e.handle("name") is None


def board_of(e: GtpEngine) -> list[str]:
    """The rows ``showboard`` draws (top first), as strings of ``.``, ``X`` and ``O``."""
    lines = ok(e.handle("showboard")).split("\n")
    return ["".join(line.split()[1:-1]) for line in lines if line[:2].strip().isdigit()]


def stones_shown(e: GtpEngine) -> int:
    return sum(row.count("X") + row.count("O") for row in board_of(e))


def test_clear_board_gives_an_empty_board_and_genmove_black_answers_the_centre():
    e = GtpEngine("Pente", 3, max_nodes=100, rng=random.Random(1))
    ok(e.handle("clear_board"))
    assert stones_shown(e) == 0
    assert ok(e.handle("genmove black")) == "K10"
    assert stones_shown(e) == 1


def test_play_black_on_the_centre_is_the_first_move_and_elsewhere_is_refused():
    e = GtpEngine("Pente", 3, max_nodes=100, rng=random.Random(1))
    assert (
        e.handle("play black K12") == "? illegal move: black's first stone is the centre, K10\n\n"
    )
    assert stones_shown(e) == 0
    ok(e.handle("play black K10"))
    mirror = new_game("Pente", tournament_rule=True)  # K10 already placed by the engine
    assert e.game.board == mirror.board
    assert e.handle("play w K10").startswith("? illegal move: ")
    assert e.handle("play w Z99").startswith("? illegal move: ")
    ok(e.handle("play w L11"))
    mirror.play("L11")
    for colour in "bwbw":
        vertex = ok(e.handle(f"genmove {colour}"))
        mirror.play(vertex)  # legal for an independent copy of the rules
    assert e.game.board == mirror.board
    assert "? not Go" in e.handle("final_score")


def test_the_tournament_rule_is_on_by_default_where_rated_games_use_it():
    e = GtpEngine("Pente", 1, max_nodes=50)
    assert ok(e.handle("tournament_rule")) == "on"
    for line in ("play b K10", "play w A1"):
        ok(e.handle(line))
    assert e.handle("play b L10").startswith("? illegal move: ")  # too near the centre
    ok(e.handle("tournament_rule off"))  # clears the board
    assert stones_shown(e) == 0 and ok(e.handle("tournament_rule")) == "off"
    for line in ("play b K10", "play w A1", "play b L10"):
        ok(e.handle(line))
    assert ok(GtpEngine("Gomoku", 1, max_nodes=50).handle("tournament_rule")) == "off"
    assert GtpEngine("Gomoku", 1, max_nodes=50).handle("tournament_rule on").startswith("? ")
    assert GtpEngine("G-Pente", 1, max_nodes=50).handle("tournament_rule off").startswith("? ")
    assert (
        GtpEngine("Pente", 1, max_nodes=50).handle("tournament_rule maybe").startswith("? syntax")
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_genmove_keeps_player_1s_second_stone_three_away_from_the_centre(seed):
    e = GtpEngine("Pente", 8, max_nodes=50, rng=random.Random(seed))
    ok(e.handle("genmove b"))
    ok(e.handle("play w L11"))
    second = e.game.parse_point(ok(e.handle("genmove b")))
    centre = e.game.parse_point("K10")
    (y, x), (cy, cx) = divmod(second, 19), divmod(centre, 19)
    assert max(abs(y - cy), abs(x - cx)) >= 3


def test_a_stone_out_of_turn_sets_up_a_position_and_undo_takes_it_back():
    e = GtpEngine("Pente", 2, max_nodes=50, rng=random.Random(5))
    ok(e.handle("play white L11"))  # white first: a set-up stone, black to move
    assert board_of(e)[8][10] == "O" and stones_shown(e) == 1
    ok(e.handle("play white M12"))  # and another
    vertex = ok(e.handle("genmove black"))
    assert e.game.parse_point(vertex) is not None and stones_shown(e) == 3
    for _ in range(3):
        ok(e.handle("undo"))
    assert stones_shown(e) == 0
    assert ok(e.handle("genmove b")) == "K10"  # the centre is black's first stone again


def test_undo_takes_back_every_stone_and_then_refuses():
    e = GtpEngine("Pente", 2, max_nodes=50)
    ok(e.handle("genmove b"))
    ok(e.handle("play w K11"))
    ok(e.handle("genmove b"))
    for _ in range(3):
        ok(e.handle("undo"))
    assert stones_shown(e) == 0
    assert e.handle("undo") == "? cannot undo\n\n"
    ok(e.handle("play b K10"))
    ok(e.handle("clear_board"))
    assert stones_shown(e) == 0


def test_connect6_turn_and_decisions_extensions():
    e = GtpEngine("Connect6", 2, max_nodes=50)
    assert ok(e.handle("genmove b")) == "K10"  # Connect6's first turn is one stone
    ok(e.handle("play w K11 L11"))
    two = ok(e.handle("genmove b")).split()
    assert len(two) == 2 and e.game.to_move_colour == 2
    d = GtpEngine("D-Pente", 2, max_nodes=50)
    for colour, vertex in (("b", "K10"), ("w", "K11"), ("b", "L12"), ("w", "M12")):
        ok(d.handle(f"play {colour} {vertex}"))
    assert d.game.pending_decision == "d_swap"
    word = ok(d.handle("genmove w"))
    assert word in ("keep", "swap") and d.game.pending_decision is None
    ok(d.handle("undo"))
    assert d.handle("decide maybe").startswith("? illegal move: ")
    ok(d.handle("decide keep"))


def test_final_score_of_a_won_pente_game():
    e = GtpEngine("Gomoku", 1, max_nodes=50)
    ok(e.handle("play b K10"))
    for w, b in (("A1", "L10"), ("A3", "M10"), ("A5", "N10"), ("A7", "O10")):
        ok(e.handle(f"play w {w}"))
        ok(e.handle(f"play b {b}"))
    assert ok(e.handle("final_score")) == "B+five"
    assert e.handle("genmove w") == "? game over\n\n"


def test_boardsize():
    go = GtpEngine("Go", 1, max_nodes=200)
    ok(go.handle("boardsize 9"))
    assert go.game.size == 9 and go.variant.name == "Go (9x9)"
    assert go.handle("boardsize 15") == "? unacceptable size\n\n"
    ok(go.handle("boardsize 13"))
    assert go.game.size == 13
    pente = GtpEngine("Pente", 1, max_nodes=50)
    ok(pente.handle("boardsize 19"))
    assert pente.handle("boardsize 9") == "? unacceptable size\n\n"


def test_showboard_rows():
    pente = GtpEngine("Pente", 1, max_nodes=50)
    rows = board_of(pente)
    assert len(rows) == 19 and "X" not in "".join(rows)
    ok(pente.handle("play b K10"))
    assert board_of(pente)[9][9] == "X"
    go = GtpEngine("Go (9x9)", 1, max_nodes=200)
    ok(go.handle("play b E5"))
    rows = board_of(go)
    assert len(rows) == 9 and rows[4][4] == "X"


def controller(game: str, size: int, *, level: int = 1, max_nodes: int = 20, seed: int = 0):
    """A small standard GTP controller: two engines told ``boardsize`` and ``clear_board``,
    then ``genmove`` of the colour to move asked of one and ``play`` of its answer sent to the
    other, black first, until a resignation, two passes in a row or the end of the game (the
    engine asked answers ``? game over``). Every answer is also played on a referee, an
    independent copy of the rules. Each move is searched on ``max_nodes`` nodes, so the game
    is the same on any machine. The two engines, the referee and the last answer."""
    engines = {
        "b": GtpEngine(game, level, rng=random.Random(seed), max_nodes=max_nodes),
        "w": GtpEngine(game, level, rng=random.Random(seed + 1), max_nodes=max_nodes),
    }
    for e in engines.values():
        ok(e.handle(f"boardsize {size}"))
        ok(e.handle("clear_board"))
    rule = engines["b"].tournament_rule
    referee = GoGame(size) if engines["b"].is_go else new_game(game, tournament_rule=rule)
    colour, passes, first, vertex = "b", 0, True, ""
    for _ in range(600):
        answer = engines[colour].handle(f"genmove {colour}")
        if answer == "? game over\n\n":
            break
        vertex = ok(answer)
        if vertex == "resign":
            break
        other = engines["w" if colour == "b" else "b"]
        ok(other.handle(f"play {colour} {vertex}"))
        if referee.variant.family == "go":
            referee.play(vertex.upper())
        elif first:
            assert vertex == "K10"  # the referee placed it itself
        else:
            referee.play_turn(vertex.split())
        first = False
        passes = passes + 1 if vertex == "pass" else 0
        if passes == 2:
            break
        colour = "w" if colour == "b" else "b"
    return engines["b"], engines["w"], referee, vertex


@pytest.mark.parametrize("game", ["Pente", "Connect6"])
def test_a_standard_controller_runs_a_whole_game_between_two_engines(game):
    black, white, referee, _ = controller(game, 19)
    assert black.game.board == white.game.board == referee.board
    assert referee.outcome is not None
    assert ok(black.handle("final_score")) == ok(white.handle("final_score"))


def test_a_standard_controller_runs_a_whole_game_of_go():
    black, white, referee, last = controller("Go (9x9)", 9, max_nodes=200, seed=3)
    assert black.game.board == white.game.board == referee.board
    assert referee.phase != "playing" or last == "resign"
    for e in (black, white):
        score = ok(e.handle("final_score"))
        assert score == "0" or (score[:2] in ("B+", "W+") and float(score[2:]) > 0)


def go_position(black: str, white: str, *, komi: float = 0.5, max_nodes: int = 200) -> GtpEngine:
    """A 9x9 engine with these stones set up by ``play`` of either colour, searching each move
    on ``max_nodes`` nodes."""
    e = GtpEngine("Go (9x9)", 8, rng=random.Random(7), max_nodes=max_nodes)
    ok(e.handle(f"komi {komi}"))
    for colour, points in (("b", black), ("w", white)):
        for point in points.split():
            ok(e.handle(f"play {colour} {point}"))
    return e


WALLS = " ".join(f"E{row}" for row in range(1, 10)), " ".join(f"F{row}" for row in range(1, 10))


def test_final_status_list_names_a_lone_stone_in_the_others_area_dead():
    black, white = WALLS
    e = go_position(black, white + " B5")
    assert ok(e.handle("final_status_list dead")) == "B5"
    alive = ok(e.handle("final_status_list alive")).split()
    assert "B5" not in alive and len(alive) == 18
    assert ok(e.handle("final_status_list seki")) == ""
    assert e.handle("final_status_list maybe").startswith("? syntax")


def test_final_score_counts_with_the_dead_stones_removed():
    black, white = WALLS
    e = go_position(black, white + " B5")
    # Black: columns A to E (45 points, B5 taken as a prisoner's point); white F to J (36).
    assert ok(e.handle("final_score")) == "B+8.5"
    assert e.game.score().winner == 2  # counted with every stone alive, white would win


#: Nodes for the resignation test: some hundreds of playouts.
RESIGN_NODES = 20_000


def test_a_hopeless_game_is_resigned_at_the_levels_that_resign():
    walls = " ".join(f"{col}{row}" for col in "BDFH" for row in range(1, 10))
    # Resigning asks for a win rate measured over enough playouts: a budget of nodes that
    # gives it some hundreds on any machine.
    e = go_position("", walls, komi=7.5, max_nodes=RESIGN_NODES)
    assert ok(e.handle("genmove b")) == "resign"
    assert e.game.board.count(1) == 0
    weak = GtpEngine("Go (9x9)", 2, rng=random.Random(7), max_nodes=200)
    for point in walls.split():
        ok(weak.handle(f"play w {point}"))
    assert ok(weak.handle("genmove b")) != "resign"


def test_go_pass_when_ahead_after_opponent_pass():
    e = GtpEngine("Go (9x9)", 1, rng=random.Random(3), max_nodes=200)
    ok(e.handle("komi 0.5"))
    ok(e.handle("play b E5"))
    ok(e.handle("play w pass"))
    assert ok(e.handle("genmove b")) == "pass"
    assert ok(e.handle("final_score")) == "B+80.5"
    assert ok(e.handle("final_status_list dead")) == ""


def test_management_command():
    out = io.StringIO()
    stdin = io.StringIO("1 name\n2 play w K11\n3 genmove b\n4 quit\n5 name\n")
    call_command(
        "gtp", "--game", "Pente", "--level", "1", "--budget", "0.05", stdin=stdin, stdout=out
    )
    answers = out.getvalue().split("\n\n")
    assert answers[:2] == ["=1 pente-server", "=2"]
    assert answers[2].startswith("=3 ") and answers[3] == "=4" and "=5" not in out.getvalue()


def test_management_command_unknown_game():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("gtp", "--game", "Chess", stdin=io.StringIO(""), stdout=io.StringIO())
