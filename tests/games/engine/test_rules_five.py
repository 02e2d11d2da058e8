"""Lines (docs/rules.md, "Five in a row", "Judging a move", "Gomoku", "Connect6"): five or more
wins at once, Gomoku wants exactly five, Connect6 six; lines never wrap; captures are removed
before the line test."""

from __future__ import annotations

import pytest

from games.engine import Game, Outcome, Termination
from games.engine.lines import full_run

from .helpers import names, position, pt

FIVE = Termination.FIVE
SIX = Termination.SIX

FIVE_OR_MORE_VARIANTS = [
    "Pente",
    "Keryo-Pente",
    "G-Pente",
    "D-Pente",
    "DK-Pente",
    "Poof-Pente",
    "Swap2-Pente",
    "Swap2-Keryo",
]

LINES = {
    "horizontal": ("F10 G10 H10 J10", "K10"),
    "vertical": ("K6 K7 K8 K9", "K10"),
    "diagonal": ("F6 G7 H8 J9", "K10"),
    "anti-diagonal": ("F14 G13 H12 J11", "K10"),
    "filled in the middle": ("H10 J10 L10 M10", "K10"),
}


@pytest.mark.parametrize("variant", FIVE_OR_MORE_VARIANTS + ["Gomoku"])
@pytest.mark.parametrize("line", list(LINES))
def test_five_in_a_row_wins_in_every_direction(variant, line):
    four, move = LINES[line]
    g = position(variant, {1: four, 2: "A1 A3 A5 A7"})
    r = g.play(move)
    assert r.finished
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)
    assert g.to_move_seat is None and g.to_move_colour is None


@pytest.mark.parametrize("variant", FIVE_OR_MORE_VARIANTS)
def test_six_in_a_row_wins_pente_games(variant):
    g = position(variant, {1: "F10 G10 H10 J10 L10"})
    g.play("K10")
    assert g.outcome == Outcome(FIVE, (1,))


def test_four_in_a_row_does_not_win():
    g = position("Pente", {1: "G10 H10 J10"})
    g.play("K10")
    assert g.outcome is None


def test_a_gapped_line_does_not_win():
    g = position("Pente", {1: "F10 G10 J10 L10"})
    g.play("K10")  # F G _ J K L
    assert g.outcome is None


def test_lines_never_wrap_around_an_edge():
    # R10 S10 T10 then A9 B9 are consecutive indices but not a line
    g = position("Pente", {1: "R10 S10 T10 A9"})
    g.play("B9")
    assert g.outcome is None


def test_a_five_wins_at_once_even_if_it_could_be_captured_next_move():
    # K10's pair with K11 is open to capture from K12 (O at K9) - no matter in Pente
    g = position("Pente", {1: "F10 G10 H10 J10 K11", 2: "K9"})
    g.play("K10")
    assert g.outcome == Outcome(FIVE, (1,))


def test_the_opponent_wins_by_five_too():
    g = position("Pente", {2: "F10 G10 H10 J10"}, to_move=2)
    g.play("K10")
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (2,)), 2)


def test_five_and_capture_in_one_move_wins_by_five_and_removes_the_pair():
    g = position("Pente", {1: "F10 G10 H10 J10 K13", 2: "K11 K12"})
    r = g.play("K10")
    assert names(r.captured) == {"K11", "K12"}
    assert r.finished and g.outcome == Outcome(FIVE, (1,))
    assert g.captures == (2, 0)


def test_a_capture_is_removed_before_the_five_is_tested():
    # The mover's capture cannot break its own line; the line test sees the board after removal.
    g = position("Pente", {1: "F10 G10 H10 J10 N10", 2: "L10 M10"})
    r = g.play("K10")
    assert names(r.captured) == {"L10", "M10"}
    assert g.outcome == Outcome(FIVE, (1,))


def test_gomoku_overline_does_not_win_and_play_goes_on():
    g = position("Gomoku", {1: "F10 G10 H10 J10 L10"})
    r = g.play("K10")
    assert not r.finished
    assert g.outcome is None and g.to_move_colour == 2


def test_gomoku_exact_five_on_one_line_wins_despite_an_overline_on_another():
    g = position("Gomoku", {1: "F10 G10 H10 J10 L10 K6 K7 K8 K9"})
    g.play("K10")  # six across, exactly five down
    assert g.outcome == Outcome(FIVE, (1,))


def test_gomoku_five_next_to_a_gap_and_a_stone_is_still_exact():
    g = position("Gomoku", {1: "F10 G10 H10 J10 M10"})
    g.play("K10")  # F..K is five, L10 empty, M10 beyond
    assert g.outcome == Outcome(FIVE, (1,))


def test_connect6_needs_six():
    g = position("Connect6", {1: "G10 H10 J10 L10"})
    g.play_turn(["K10", "A1"])
    assert g.outcome is None  # five is not enough
    g = position("Connect6", {1: "G10 H10 J10 L10 M10"})
    results = g.play_turn(["K10", "A1"])
    assert (g.outcome, len(results)) == (Outcome(SIX, (1,)), 1)


def test_connect6_seven_wins():
    g = position("Connect6", {1: "F10 G10 H10 J10 L10 M10"})
    g.play_turn(["K10", "A1"])
    assert g.outcome == Outcome(SIX, (1,))


def test_a_won_game_refuses_further_moves():
    g = position("Pente", {1: "F10 G10 H10 J10"})
    g.play("K10")
    with pytest.raises(Exception) as exc:
        g.play("A1")
    assert exc.value.code == "game_over"
    assert "seat 1 won by five in a row" in exc.value.detail


def test_a_played_out_five():
    g = Game("Pente")
    for move in "A1 L10 A3 M10 A5 N10 A7 O10".split():
        g.play(move)
    assert g.outcome == Outcome(FIVE, (1,)) and g.winner_colour == 1
    assert g.last_point == pt("O10")


def test_a_run_along_the_edge_of_the_board_counts_its_stones_on_the_edge():
    size = 19
    board = [0] * size * size
    row = [x + size * 5 for x in range(5)]  # A..E of one row: from column 0
    column = [10 + size * y for y in range(5)]  # five in one column: from row 0
    for q in row + column:
        board[q] = 1
    assert full_run(board, size, row[2], 0, 1) == tuple(row)
    assert full_run(board, size, column[2], 1, 1) == tuple(column)
