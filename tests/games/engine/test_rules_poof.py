"""Poofs (Poof-Pente, O-Pente): playing into a bracket is suicide; poofed stones count for the
opponent; capture wins need strictly more captured stones than the opponent."""

from __future__ import annotations

import pytest

from games.engine import Outcome, Termination

from .helpers import names, nearly_full, position, pt

CAPTURES = Termination.CAPTURES

POOF_VARIANTS = ["Poof-Pente", "O-Pente"]


@pytest.mark.parametrize("variant", POOF_VARIANTS)
def test_playing_into_a_bracket_poofs_the_pair(variant):
    g = position(variant, {1: "L10", 2: "J10 M10"})
    r = g.play("K10")
    assert names(r.poofed) == {"K10", "L10"}
    assert r.captured == ()
    assert g.board[pt("K10")] == 0 and g.board[pt("L10")] == 0
    assert g.captures == (0, 2)  # poofed stones count for the opponent
    assert g.outcome is None and g.to_move_colour == 2
    assert g.last_point == pt("K10")


@pytest.mark.parametrize(
    ("own", "brackets", "move"),
    [
        ("K11", "K9 K12", "K10"),  # vertical
        ("L11", "J9 M12", "K10"),  # diagonal
        ("J11", "L9 H12", "K10"),  # anti-diagonal
        ("J10", "H10 L10", "K10"),  # the new stone at the far end
    ],
)
def test_poofs_happen_along_every_line(own, brackets, move):
    g = position("Poof-Pente", {1: own, 2: brackets})
    r = g.play(move)
    assert names(r.poofed) == {own, move}


def test_no_poof_when_one_end_is_open():
    g = position("Poof-Pente", {1: "L10", 2: "J10"})
    assert g.play("K10").poofed == ()
    assert g.board[pt("K10")] == 1


def test_no_poof_when_the_pair_runs_into_the_edge_of_the_board():
    """The board's edge is no bracket: only an opponent's stone at each end poofs."""
    g = position("Poof-Pente", {1: "A10", 2: "C10"})
    assert g.play("B10").poofed == ()
    assert g.board[pt("A10")] == 1 and g.board[pt("B10")] == 1


def test_no_poof_when_the_bracket_is_the_mover_own():
    g = position("Poof-Pente", {1: "L10 M10", 2: "J10"})
    assert g.play("K10").poofed == ()


def test_poof_pente_does_not_poof_a_triple():
    g = position("Poof-Pente", {1: "L10 M10", 2: "J10 N10"})
    assert g.play("K10").poofed == ()


@pytest.mark.parametrize("variant", POOF_VARIANTS)
def test_poof_and_capture_by_one_stone_are_both_removed(variant):
    # row: poof of K10 L10 between J10 and M10; column: K10 captures K11 K12 against K13
    g = position(variant, {1: "L10 K13", 2: "J10 M10 K11 K12"})
    r = g.play("K10")
    assert names(r.captured) == {"K11", "K12"}
    assert names(r.poofed) == {"K10", "L10"}
    assert g.captures == (2, 2)


def test_poof_and_capture_are_found_on_the_board_before_removal():
    # K10 captures H10 J10 (against G10) although J10 is one end of the bracket that poofs it
    g = position("Poof-Pente", {1: "G10 L10", 2: "H10 J10 M10"})
    r = g.play("K10")
    assert names(r.captured) == {"H10", "J10"}
    assert names(r.poofed) == {"K10", "L10"}
    assert g.captures == (2, 2)


def test_a_stone_poofed_along_two_lines_counts_once():
    g = position("Poof-Pente", {1: "L10 K11", 2: "J10 M10 K9 K12"})
    r = g.play("K10")
    assert names(r.poofed) == {"K10", "L10", "K11"}
    assert len(r.poofed) == 3
    assert g.captures == (0, 3)


def test_a_poofed_stone_does_not_complete_a_five():
    g = position("Poof-Pente", {1: "F10 G10 H10 J10 K11", 2: "K9 K12"})
    r = g.play("K10")
    assert names(r.poofed) == {"K10", "K11"}
    assert g.outcome is None
    assert g.board[pt("J10")] == 1


def test_equal_counts_at_the_target_play_on():
    # X 8, O 8: X captures a pair (10) and poofs a pair (O 10) -> 10-10, the game goes on
    g = position("Poof-Pente", {1: "L10 K13", 2: "J10 M10 K11 K12"}, captures={1: 8, 2: 8})
    r = g.play("K10")
    assert g.captures == (10, 10)
    assert not r.finished and g.outcome is None


def test_after_ten_ten_the_next_capture_wins():
    g = position("Poof-Pente", {1: "L10 M10", 2: "N10"}, captures={1: 10, 2: 10}, to_move=2)
    g.play("K10")
    assert g.captures == (10, 12)
    assert (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (2,)), 2)


def test_twelve_twelve_plays_on():
    g = position("Poof-Pente", {1: "L10 M10", 2: "N10"}, captures={1: 12, 2: 10}, to_move=2)
    g.play("K10")
    assert g.captures == (12, 12) and g.outcome is None


def test_playing_into_a_losing_poof_hands_the_opponent_the_win():
    g = position("Poof-Pente", {1: "L10", 2: "J10 M10"}, captures={1: 0, 2: 8})
    r = g.play("K10")
    assert r.finished
    assert (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (2,)), 2)


def test_a_poof_that_ties_the_leader_does_not_win():
    g = position("Poof-Pente", {1: "L10", 2: "J10 M10"}, captures={1: 10, 2: 8})
    g.play("K10")
    assert g.captures == (10, 10) and g.outcome is None


def test_reaching_the_target_with_more_captures_wins():
    g = position("Poof-Pente", {1: "N10", 2: "L10 M10"}, captures={1: 8, 2: 6})
    g.play("K10")
    assert (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (1,)), 1)


def test_o_pente_poofs_a_triple_from_its_end():
    g = position("O-Pente", {1: "L10 M10", 2: "J10 N10"})
    r = g.play("K10")
    assert names(r.poofed) == {"K10", "L10", "M10"}
    assert g.captures == (0, 3)


def test_o_pente_poofs_a_triple_by_its_middle_stone():
    g = position("O-Pente", {1: "K10 M10", 2: "J10 N10"})
    r = g.play("L10")
    assert names(r.poofed) == {"K10", "L10", "M10"}


def test_o_pente_does_not_poof_four():
    g = position("O-Pente", {1: "L10 M10 N10", 2: "J10 O10"})
    assert g.play("K10").poofed == ()


def test_o_pente_needs_fifteen():
    g = position("O-Pente", {1: "L10", 2: "J10 M10"}, captures={2: 12})
    g.play("K10")
    assert g.captures == (0, 14) and g.outcome is None
    g = position("O-Pente", {1: "L10 M10", 2: "J10 N10"}, captures={2: 12})
    g.play("K10")
    assert (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (2,)), 2)


@pytest.mark.parametrize("variant", POOF_VARIANTS)
def test_stones_poofed_on_a_nearly_full_board_leave_room_and_no_draw(variant):
    # K10 poofs itself and L10 between J10 and M10: four empty points again.
    g = nearly_full(variant, colour_1="L10", colour_2="M10")
    r = g.play("K10")
    assert names(r.poofed) == {"K10", "L10"} and r.captured == ()
    assert g.outcome is None
