"""D opening (D-Pente, DK-Pente) and Swap2 (Swap2-Pente, Swap2-Keryo) as explicit decisions."""

from __future__ import annotations

import pytest

from games.engine import Game, IllegalMove, Outcome, Termination
from games.engine.openings import after

from .helpers import pt

D_VARIANTS = ["D-Pente", "DK-Pente"]
SWAP2_VARIANTS = ["Swap2-Pente", "Swap2-Keryo"]


def code_of(call, *args, **kw) -> str:
    with pytest.raises(IllegalMove) as exc:
        call(*args, **kw)
    assert exc.value.detail
    return exc.value.code


def d_opening(variant="D-Pente") -> Game:
    g = Game(variant)
    for move in ["A1", "A3", "A5", "A7"]:
        g.play(move, seat=1)
    return g


# -- D opening -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", D_VARIANTS)
def test_d_opening_player_one_places_four_stones_alternating_colours(variant):
    g = Game(variant)
    colours = []
    for move in ["K10", "L10", "C3", "Q17"]:
        assert g.to_move_seat == 1
        colours.append(g.to_move_colour)
        g.play(move)
    assert colours == [1, 2, 1, 2]
    assert [g.board[pt(m)] for m in ["K10", "L10", "C3", "Q17"]] == [1, 2, 1, 2]


@pytest.mark.parametrize("variant", D_VARIANTS)
def test_d_opening_player_two_may_not_place_the_opening_stones(variant):
    g = Game(variant)
    g.play("A1")
    assert code_of(g.play, "A2", seat=2) == "not_your_turn"


@pytest.mark.parametrize("variant", D_VARIANTS)
def test_d_opening_then_player_two_must_decide(variant):
    g = d_opening(variant)
    assert g.pending_decision == "d_swap"
    assert g.decisions_available() == ("keep", "swap")
    assert g.to_move_seat == 2
    assert g.to_move_colour == 1
    assert g.stones_this_turn() == 0
    assert g.legal_points() == []


@pytest.mark.parametrize("seat", [None, 1, 2])
def test_d_opening_no_stone_while_the_choice_is_pending(seat):
    g = d_opening()
    assert code_of(g.play, "K10", seat=seat) == "decision_pending"
    assert code_of(g.check, "K10") == "decision_pending"
    assert g.plies == 4


def test_d_opening_the_choice_belongs_to_player_two():
    g = d_opening()
    assert code_of(g.decide, "keep", seat=1) == "not_your_turn"
    assert g.pending_decision == "d_swap"


@pytest.mark.parametrize("choice", ["colour1", "place_two", "KEEP", ""])
def test_d_opening_refuses_a_choice_that_is_not_offered(choice):
    g = d_opening()
    assert code_of(g.decide, choice, seat=2) == "bad_decision"


@pytest.mark.parametrize("variant", D_VARIANTS)
def test_d_opening_keep_leaves_seats_and_player_one_plays_the_fifth_stone(variant):
    g = d_opening(variant)
    g.decide("keep", seat=2)
    assert g.pending_decision is None
    assert (g.seat_colour(1), g.seat_colour(2)) == (1, 2)
    assert (g.to_move_seat, g.to_move_colour) == (1, 1)
    assert code_of(g.play, "K10", seat=2) == "not_your_turn"
    g.play("K10", seat=1)
    assert (g.to_move_seat, g.to_move_colour) == (2, 2)
    assert g.actions == [pt("A1"), pt("A3"), pt("A5"), pt("A7"), "keep", pt("K10")]


@pytest.mark.parametrize("variant", D_VARIANTS)
def test_d_opening_swap_gives_player_two_colour_one_and_the_fifth_stone(variant):
    g = d_opening(variant)
    g.decide("swap", seat=2)
    assert (g.seat_colour(1), g.seat_colour(2)) == (2, 1)
    assert (g.to_move_seat, g.to_move_colour) == (2, 1)
    assert code_of(g.play, "K10", seat=1) == "not_your_turn"
    g.play("K10", seat=2)
    assert g.board[pt("K10")] == 1
    assert (g.to_move_seat, g.to_move_colour) == (1, 2)
    g.play("K11", seat=1)
    assert g.board[pt("K11")] == 2


def test_d_opening_after_a_swap_the_winner_is_the_seat_holding_the_colour():
    g = d_opening()
    g.decide("swap")
    for move in "F10 B1 G10 B3 H10 B5 J10 B7 K10".split():
        g.play(move)
    assert g.winner_colour == 1
    assert g.outcome == Outcome(Termination.FIVE, (2,))


def test_d_opening_decision_is_refused_once_made():
    g = d_opening()
    g.decide("keep")
    assert code_of(g.decide, "swap") == "no_decision_pending"


def test_no_decision_is_pending_in_a_centre_game():
    g = Game("Pente")
    assert g.pending_decision is None and g.decisions_available() == ()
    assert code_of(g.decide, "swap") == "no_decision_pending"


def test_d_pente_has_no_tournament_rule_for_the_third_stone():
    g = Game("D-Pente", rated=True)
    g.play("K10")
    g.play("A1")
    g.play("L11")  # would break the tournament rule in Pente
    assert g.plies == 3


# -- Swap2 ---------------------------------------------------------------------------------


def swap2_opening(variant="Swap2-Pente") -> Game:
    g = Game(variant)
    for move in ["K10", "L11", "M10"]:
        g.play(move, seat=1)
    return g


@pytest.mark.parametrize("variant", SWAP2_VARIANTS)
def test_swap2_player_one_places_three_stones_then_player_two_chooses(variant):
    g = Game(variant)
    colours = []
    for move in ["K10", "L11", "M10"]:
        assert g.to_move_seat == 1
        colours.append(g.to_move_colour)
        g.play(move)
    assert colours == [1, 2, 1]
    assert g.pending_decision == "swap2"
    assert g.decisions_available() == ("swap", "keep", "place_two")
    assert g.to_move_seat == 2


def test_swap2_no_stone_while_the_choice_is_pending():
    g = swap2_opening()
    assert code_of(g.play, "A1", seat=2) == "decision_pending"
    assert code_of(g.play, "A1", seat=1) == "decision_pending"


def test_swap2_the_first_choice_belongs_to_player_two():
    g = swap2_opening()
    assert code_of(g.decide, "swap", seat=1) == "not_your_turn"
    assert code_of(g.decide, "colour1", seat=2) == "bad_decision"


@pytest.mark.parametrize("variant", SWAP2_VARIANTS)
def test_swap2_swap_player_two_takes_colour_one_and_player_one_plays_the_fourth_stone(variant):
    g = swap2_opening(variant)
    g.decide("swap", seat=2)
    assert (g.seat_colour(1), g.seat_colour(2)) == (2, 1)
    assert (g.to_move_seat, g.to_move_colour) == (1, 2)
    assert code_of(g.play, "A1", seat=2) == "not_your_turn"
    g.play("A1", seat=1)
    assert g.board[pt("A1")] == 2
    assert (g.to_move_seat, g.to_move_colour) == (2, 1)


@pytest.mark.parametrize("variant", SWAP2_VARIANTS)
def test_swap2_keep_player_two_keeps_colour_two_and_plays_the_fourth_stone(variant):
    g = swap2_opening(variant)
    g.decide("keep", seat=2)
    assert (g.seat_colour(1), g.seat_colour(2)) == (1, 2)
    assert (g.to_move_seat, g.to_move_colour) == (2, 2)
    g.play("A1", seat=2)
    assert g.board[pt("A1")] == 2
    assert (g.to_move_seat, g.to_move_colour) == (1, 1)


@pytest.mark.parametrize("variant", SWAP2_VARIANTS)
def test_swap2_place_two_player_two_places_stones_four_and_five(variant):
    g = swap2_opening(variant)
    g.decide("place_two", seat=2)
    assert g.pending_decision is None
    assert (g.to_move_seat, g.to_move_colour) == (2, 2)
    assert code_of(g.play, "A1", seat=1) == "not_your_turn"
    g.play("A1", seat=2)
    assert (g.to_move_seat, g.to_move_colour) == (2, 1)
    g.play("A3", seat=2)
    assert [g.board[pt("A1")], g.board[pt("A3")]] == [2, 1]
    assert g.pending_decision == "swap2_colour"
    assert g.decisions_available() == ("colour1", "colour2")
    assert g.to_move_seat == 1
    assert code_of(g.play, "A5", seat=1) == "decision_pending"


def test_swap2_colour_choice_belongs_to_player_one():
    g = swap2_opening()
    g.decide("place_two")
    g.play("A1")
    g.play("A3")
    assert code_of(g.decide, "colour1", seat=2) == "not_your_turn"
    assert code_of(g.decide, "swap", seat=1) == "bad_decision"


def test_swap2_colour1_player_one_keeps_colour_one_and_player_two_plays_the_sixth_stone():
    g = swap2_opening()
    g.decide("place_two")
    g.play("A1")
    g.play("A3")
    g.decide("colour1", seat=1)
    assert (g.seat_colour(1), g.seat_colour(2)) == (1, 2)
    assert (g.to_move_seat, g.to_move_colour) == (2, 2)
    g.play("A5", seat=2)
    assert g.board[pt("A5")] == 2


def test_swap2_colour2_player_one_takes_colour_two_and_plays_the_sixth_stone():
    g = swap2_opening()
    g.decide("place_two")
    g.play("A1")
    g.play("A3")
    g.decide("colour2", seat=1)
    assert (g.seat_colour(1), g.seat_colour(2)) == (2, 1)
    assert (g.to_move_seat, g.to_move_colour) == (1, 2)
    g.play("A5", seat=1)
    assert g.board[pt("A5")] == 2
    assert (g.to_move_seat, g.to_move_colour) == (2, 1)
    assert g.actions == [
        pt("K10"),
        pt("L11"),
        pt("M10"),
        "place_two",
        pt("A1"),
        pt("A3"),
        "colour2",
        pt("A5"),
    ]


def test_swap2_decisions_do_not_count_as_plies():
    g = swap2_opening()
    g.decide("keep")
    assert g.plies == 3


def test_swap2_replay_reproduces_every_branch():
    for actions in (
        ["K10", "L11", "M10", "swap", "A1"],
        ["K10", "L11", "M10", "keep", "A1"],
        ["K10", "L11", "M10", "place_two", "A1", "A3", "colour1", "A5"],
        ["K10", "L11", "M10", "place_two", "A1", "A3", "colour2", "A5"],
    ):
        g = Game.replay("Swap2-Pente", actions)
        assert len(g.actions) == len(actions)


@pytest.mark.parametrize(
    ("decision", "choice", "next_colour"),
    [
        ("d_swap", "keep", 1),
        ("d_swap", "swap", 1),
        ("swap2", "swap", 2),
        ("swap2", "keep", 2),
        ("swap2_colour", "colour1", 2),
        ("swap2_colour", "colour2", 2),
    ],
)
def test_a_decision_that_ends_the_protocol_names_the_colour_of_the_next_stone(
    decision, choice, next_colour
):
    # D ends after four stones (the fifth is colour 1); Swap2 after three stones or, with
    # place_two, five (the next is colour 2). The game reads next_colour to pick whose turn it is.
    then = after(decision, choice, (0, 1, 2))
    assert then.script == ()
    assert then.next_colour == next_colour
