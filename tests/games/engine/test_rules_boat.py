"""Boat (Boat-Pente, O-Pente): a five wins only if it cannot be captured across on the next move;
a five still standing after the opponent's reply wins then."""

from __future__ import annotations

import pytest

from games.engine import Outcome, Termination

from .helpers import names, position, pt

FIVE, CAPTURES = Termination.FIVE, Termination.CAPTURES

BOAT_VARIANTS = ["Boat-Pente", "O-Pente"]

# X: F10 G10 H10 J10 + K10 makes five; H10-H11 is a pair O can take from H9 (O holds H12).
BREAKABLE = {1: "F10 G10 H10 J10 H11", 2: "H12"}


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_a_five_that_cannot_be_broken_wins_at_once(variant):
    g = position(variant, {1: "F10 G10 H10 J10", 2: "A1"})
    r = g.play("K10")
    assert r.finished
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_a_five_that_can_be_captured_across_does_not_win_yet(variant):
    g = position(variant, BREAKABLE)
    r = g.play("K10")
    assert not r.finished
    assert g.outcome is None and g.to_move_colour == 2


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_judging_whether_a_five_can_be_broken_leaves_every_stone_in_place(variant):
    """The check takes the pair off the board to look, and puts it back as it was."""
    g = position(variant, BREAKABLE)
    before = list(g.board)
    g.play("K10")
    before[pt("K10")] = 1
    assert list(g.board) == before


def test_the_same_five_wins_at_once_in_pente():
    g = position("Pente", BREAKABLE)
    assert g.play("K10").finished


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_a_broken_five_does_not_win_and_play_goes_on(variant):
    g = position(variant, BREAKABLE)
    g.play("K10")
    r = g.play("H9")
    assert names(r.captured) == {"H10", "H11"}
    assert g.outcome is None and g.to_move_colour == 1
    g.play("A1")  # the broken five never wins later
    assert g.outcome is None


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_a_five_still_standing_after_the_reply_wins_then(variant):
    g = position(variant, BREAKABLE)
    g.play("K10")
    r = g.play("A1", seat=2)
    assert r.finished
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)
    assert g.board[pt("A1")] == 2  # the reply was placed


def test_a_standing_five_beats_a_reply_that_reaches_the_capture_target():
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11 B2 C2", 2: "H12 D2"}, captures={2: 8})
    g.play("K10")
    r = g.play("A2")  # O captures B2 C2: 10 stones
    assert len(r.captured) == 2 and g.captures == (0, 10)
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)


def test_a_standing_five_beats_a_five_made_by_the_reply():
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11", 2: "H12 A1 A2 A3 A4"})
    g.play("K10")
    g.play("A5")  # O's own five
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)


def test_after_a_broken_five_the_reply_is_judged_normally():
    g = position("Boat-Pente", BREAKABLE, captures={2: 8})
    g.play("K10")
    g.play("H9")  # breaks the five and reaches 10
    assert (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (2,)), 2)


def test_taking_the_end_stone_of_a_six_breaks_nothing():
    # F10..L10 is six; only F10 (with F11, O at F12) can be captured: G10..L10 still five
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 L10 F11", 2: "F12"})
    assert g.play("K10").finished
    assert g.outcome == Outcome(FIVE, (1,))


def test_taking_the_end_stone_of_a_five_breaks_it():
    g = position("Boat-Pente", {1: "G10 H10 J10 L10 G11", 2: "G12"})
    assert not g.play("K10").finished


def test_one_stone_capturing_two_pairs_across_a_seven_breaks_it():
    # E10..L10 is seven; F10 alone or K10 alone may go and five stay, but H12 takes both
    g = position("Boat-Pente", {1: "E10 F10 G10 H10 J10 L10 G11 J11", 2: "E9 L9"})
    assert not g.play("K10").finished
    r = g.play("H12")
    assert names(r.captured) == {"G11", "F10", "J11", "K10"}
    assert g.outcome is None


def test_captures_never_wrap_when_judging_a_five():
    # T6..T10 five; S10 (O) T10 A9 (X) B9 would be a capture only on a wrapping board
    g = position("Boat-Pente", {1: "T6 T7 T8 T9 A9", 2: "S10"})
    assert g.play("T10").finished


def test_two_fives_at_once_win_unless_one_move_breaks_both():
    # the row F10..K10 can be broken (H10-H11 from H9), the column K6..K10 cannot
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11 K6 K7 K8 K9", 2: "H12"})
    assert g.play("K10").finished


# X makes two fives with K10: the row F10..K10 and the column K6..K10. One O stone, J9, would
# break both (it takes K10 and L11 against M12), so neither wins at once; H9 breaks the row
# alone (it takes H10 and H11 against H12).
TWO_FIVES = {1: "F10 G10 H10 J10 H11 K6 K7 K8 K9 L11", 2: "H12 M12"}


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_two_fives_one_stone_could_break_wait_for_the_reply(variant):
    g = position(variant, TWO_FIVES)
    assert not g.play("K10").finished


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_a_reply_that_breaks_one_of_two_fives_loses_to_the_other(variant):
    g = position(variant, TWO_FIVES)
    g.play("K10")
    r = g.play("H9")
    assert names(r.captured) == {"H10", "H11"}  # the row is broken, the column stands
    assert r.finished and (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)


@pytest.mark.parametrize("variant", BOAT_VARIANTS)
def test_a_reply_that_breaks_both_fives_plays_on(variant):
    g = position(variant, TWO_FIVES)
    g.play("K10")
    r = g.play("J9")
    assert names(r.captured) == {"K10", "L11"}
    assert not r.finished and g.outcome is None


def test_o_pente_counts_a_threat_to_capture_a_triple():
    stones = {1: "F10 G10 H10 J10 H11 H12", 2: "H13"}
    g = position("O-Pente", stones)
    assert not g.play("K10").finished  # H9 would take H10 H11 H12
    g = position("Boat-Pente", stones)
    assert g.play("K10").finished  # no pair capture across the five


def test_a_breakable_five_that_reaches_the_capture_target_wins_by_captures():
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11 K13", 2: "H12 K11 K12"}, captures={1: 8})
    r = g.play("K10")
    assert r.finished and (g.outcome, g.winner_colour) == (Outcome(CAPTURES, (1,)), 1)


# X: F10 G10 H10 J10 + K10 makes five; H10 H11 H12 is a triple that O, holding H9, can take by
# playing H13: three points from the five, as far as a triple capture reaches.
TRIPLE_ACROSS = {1: "F10 G10 H10 J10 H11 H12", 2: "H9"}


def test_in_o_pente_a_threat_to_capture_a_triple_across_a_five_stops_it_winning_at_once():
    g = position("O-Pente", TRIPLE_ACROSS)
    r = g.play("K10")
    assert not r.finished and g.outcome is None
    r = g.play("H13")
    assert names(r.captured) == {"H10", "H11", "H12"}
    assert g.outcome is None  # the five is broken


def test_in_boat_pente_a_triple_is_no_threat_so_the_same_five_wins_at_once():
    g = position("Boat-Pente", TRIPLE_ACROSS)
    assert g.play("K10").finished
    assert (g.outcome, g.winner_colour) == (Outcome(FIVE, (1,)), 1)
