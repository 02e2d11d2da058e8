"""Captures (docs/rules.md, "Captures", "Judging a move", "Keryo-Pente"): brackets of the capture
length, in all eight directions, at edges and corners, never wrapping; several at once; Keryo
triples; capture wins."""

from __future__ import annotations

import pytest

from games.engine import COLUMNS, Game, Outcome, Termination

from .helpers import names, nearly_full, position, pt

CAPTURES = Termination.CAPTURES

CAPTURE_VARIANTS = [
    "Pente",
    "Keryo-Pente",
    "G-Pente",
    "D-Pente",
    "DK-Pente",
    "Poof-Pente",
    "Boat-Pente",
    "O-Pente",
    "Swap2-Pente",
    "Swap2-Keryo",
]
KERYO_VARIANTS = ["Keryo-Pente", "DK-Pente", "O-Pente", "Swap2-Keryo"]
PAIR_ONLY_VARIANTS = [v for v in CAPTURE_VARIANTS if v not in KERYO_VARIANTS]

DIRECTIONS = {
    "east": (1, 0),
    "west": (-1, 0),
    "north": (0, 1),
    "south": (0, -1),
    "north-east": (1, 1),
    "south-west": (-1, -1),
    "south-east": (1, -1),
    "north-west": (-1, 1),
}


def from_k10(dx: int, dy: int, k: int) -> str:
    """The point k steps from K10 in direction (dx, dy); dy counts rows upwards."""
    return f"{COLUMNS[9 + dx * k]}{10 + dy * k}"


@pytest.mark.parametrize("variant", CAPTURE_VARIANTS)
@pytest.mark.parametrize("direction", list(DIRECTIONS))
def test_a_pair_is_captured_in_every_direction(variant, direction):
    dx, dy = DIRECTIONS[direction]
    pair = f"{from_k10(dx, dy, 1)} {from_k10(dx, dy, 2)}"
    g = position(variant, {1: from_k10(dx, dy, 3), 2: pair})
    r = g.play("K10")
    assert names(r.captured) == set(pair.split())
    assert g.board[pt(from_k10(dx, dy, 1))] == 0 and g.board[pt(from_k10(dx, dy, 2))] == 0
    assert g.captures == (2, 0)
    assert g.outcome is None


@pytest.mark.parametrize(
    ("move", "pair", "bracket"),
    [
        ("A1", "A2 A3", "A4"),  # up the left edge from the corner
        ("A1", "B1 C1", "D1"),  # along the bottom edge from the corner
        ("A1", "B2 C3", "D4"),  # diagonal out of the corner
        ("T19", "S18 R17", "Q16"),  # into the opposite corner's diagonal
        ("D1", "C1 B1", "A1"),  # pair ending on the corner
        ("T10", "T11 T12", "T13"),  # along the right edge
        ("K19", "L19 M19", "N19"),  # along the top edge
    ],
)
def test_captures_work_along_edges_and_in_corners(move, pair, bracket):
    g = position("Pente", {1: bracket, 2: pair})
    r = g.play(move)
    assert names(r.captured) == set(pair.split())


def test_captures_never_wrap_around_the_right_edge():
    # T10 is index 189; indices 190, 191 are A9, B9. A wrapping board would capture them.
    g = position("Pente", {1: "C9", 2: "A9 B9"})
    r = g.play("T10")
    assert r.captured == ()
    assert g.captures == (0, 0)


def test_captures_never_wrap_around_the_left_edge():
    # A10 is index 171; 170, 169 are T11, S11 one row up.
    g = position("Pente", {1: "R11", 2: "T11 S11"})
    assert g.play("A10").captured == ()


def test_captures_never_wrap_diagonally():
    # T10 + 20 = B9 and + 40 = D8 would be a "diagonal" if the board wrapped.
    g = position("Pente", {1: "F7", 2: "B9 D8"})
    assert g.play("T10").captured == ()


def test_two_pairs_are_captured_by_one_stone():
    g = position("Pente", {1: "N10 K13", 2: "L10 M10 K11 K12"})
    r = g.play("K10")
    assert names(r.captured) == {"L10", "M10", "K11", "K12"}
    assert g.captures == (4, 0)


def test_three_pairs_are_captured_by_one_stone():
    g = position("Pente", {1: "N10 K13 N13", 2: "L10 M10 K11 K12 L11 M12"})
    assert len(g.play("K10").captured) == 6
    assert g.captures == (6, 0)


@pytest.mark.parametrize("variant", PAIR_ONLY_VARIANTS)
def test_x_o_o_o_x_captures_nothing_in_pair_games(variant):
    g = position(variant, {1: "O10", 2: "L10 M10 N10"})
    assert g.play("K10").captured == ()
    assert g.board[pt("M10")] == 2


@pytest.mark.parametrize("variant", KERYO_VARIANTS)
def test_x_o_o_o_x_captures_the_triple_in_keryo_games(variant):
    g = position(variant, {1: "O10", 2: "L10 M10 N10"})
    r = g.play("K10")
    assert names(r.captured) == {"L10", "M10", "N10"}
    assert g.captures == (3, 0)


@pytest.mark.parametrize("variant", KERYO_VARIANTS)
def test_keryo_games_still_capture_pairs(variant):
    g = position(variant, {1: "N10", 2: "L10 M10"})
    assert names(g.play("K10").captured) == {"L10", "M10"}


def test_keryo_captures_a_triple_and_a_pair_at_once():
    g = position("Keryo-Pente", {1: "O10 K13", 2: "L10 M10 N10 K11 K12"})
    r = g.play("K10")
    assert len(r.captured) == 5
    assert g.captures == (5, 0)


def test_keryo_does_not_capture_four_in_a_row():
    g = position("Keryo-Pente", {1: "P10", 2: "L10 M10 N10 O10"})
    assert g.play("K10").captured == ()


@pytest.mark.parametrize(
    "variant",
    ["Pente", "Keryo-Pente", "G-Pente", "D-Pente", "Boat-Pente", "Swap2-Pente", "Swap2-Keryo"],
)
def test_moving_into_a_bracket_is_safe(variant):
    # X O _ X: O fills the gap; the bracketed pair is not captured (only the placed stone captures)
    g = position(variant, {1: "K10 N10", 2: "L10"}, to_move=2)
    r = g.play("M10")
    assert r.captured == () and r.poofed == ()
    assert g.board[pt("L10")] == 2 and g.board[pt("M10")] == 2
    assert g.captures == (0, 0)


def test_only_the_stone_just_placed_captures():
    g = position("Pente", {1: "K10 N10", 2: "L10 M10"})
    assert g.play("A1").captured == ()
    assert g.board[pt("L10")] == 2


def test_own_stones_and_open_ends_are_not_captured():
    g = position("Pente", {1: "L10 M10 N11", 2: "N10"})
    assert g.play("K10").captured == ()
    g = position("Pente", {2: "L11 M12"})
    assert g.play("K10").captured == ()  # nothing brackets the far end


@pytest.mark.parametrize("variant", ["Gomoku", "Connect6"])
def test_games_without_captures_never_capture(variant):
    g = position(variant, {1: "N10", 2: "L10 M10"})
    assert g.play("K10").captured == ()
    assert g.board[pt("L10")] == 2


def test_captured_points_are_empty_and_playable_again():
    g = position("Pente", {1: "N10", 2: "L10 M10"})
    g.play("K10")
    r = g.play("L10")
    assert r.colour == 2
    assert g.board[pt("L10")] == 2


@pytest.mark.parametrize(
    ("variant", "before", "after_pair"),
    [("Pente", 8, 10), ("G-Pente", 8, 10), ("D-Pente", 8, 10), ("Swap2-Pente", 8, 10)],
)
def test_ten_captured_stones_win_pair_games(variant, before, after_pair):
    g = position(variant, {1: "N10", 2: "L10 M10"}, captures={1: before})
    r = g.play("K10")
    assert r.finished
    assert g.captures[0] == after_pair
    assert (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (1,)), 1)


def test_eight_captured_stones_do_not_win_pente():
    g = position("Pente", {1: "N10", 2: "L10 M10"}, captures={1: 6})
    g.play("K10")
    assert g.outcome is None and g.captures == (8, 0)


@pytest.mark.parametrize("variant", ["Keryo-Pente", "DK-Pente", "Swap2-Keryo"])
def test_keryo_games_need_fifteen_stones(variant):
    g = position(variant, {1: "N10", 2: "L10 M10"}, captures={1: 8})
    g.play("K10")
    assert g.outcome is None  # 10 is not enough in Keryo
    g = position(variant, {1: "O10", 2: "L10 M10 N10"}, captures={1: 12})
    g.play("K10")
    assert (g.outcome, g.captures[0]) == (Outcome(CAPTURES, (1,)), 15)


def test_the_opponent_captures_with_its_own_colour():
    g = position("Pente", {2: "N10", 1: "L10 M10"}, to_move=2)
    r = g.play("K10")
    assert r.colour == 2 and len(r.captured) == 2
    assert g.captures == (0, 2)


def test_captures_in_a_played_out_game():
    g = Game("Pente")  # K10 (1)
    for move in ["L10", "A1", "M10", "N10"]:  # 2, 1, 2, then 1 brackets L10 M10 from N10
        g.play(move)
    assert g.captures == (2, 0)
    assert g.board[pt("L10")] == 0 and g.board[pt("M10")] == 0


@pytest.mark.parametrize(
    "variant", ["Pente", "Keryo-Pente", "Poof-Pente", "O-Pente", "Boat-Pente", "G-Pente"]
)
def test_stones_captured_on_a_nearly_full_board_leave_room_and_no_draw(variant):
    # K10 takes L10 M10 (with N10): four empty points after it, not a full board.
    g = nearly_full(variant, colour_1="N10", colour_2="M10")
    r = g.play("K10")
    assert names(r.captured) == {"L10", "M10"} and r.poofed == ()
    assert g.outcome is None
