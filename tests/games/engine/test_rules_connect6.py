"""Connect6: centre stone, then two stones a turn (seats 1, 2, 2, 1, 1, 2, 2, ...), submitted
together; if the first wins the second is not placed; six or more wins; no captures."""

from __future__ import annotations

import pytest

from games.engine import Game, IllegalMove, Outcome, Termination

from .helpers import position, pt

SIX = Termination.SIX


def test_connect6_turn_order_is_1_2_2_1_1_2_2():
    g = Game("Connect6")
    seats = [1]  # the centre stone
    colours = [1]
    points = iter(["A1", "A3", "A5", "A7", "A9", "A11", "A13", "A15", "A17", "C1"])
    while len(seats) < 11:
        seats.append(g.to_move_seat)
        colours.append(g.to_move_colour)
        g.play(next(points))
    assert seats == [1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2]
    assert colours == [1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2]


def test_connect6_turns_take_two_stones_after_the_first():
    g = Game("Connect6")
    assert g.plies == 1
    assert g.stones_this_turn() == 2
    results = g.play_turn(["L10", "M10"], seat=2)
    assert [r.colour for r in results] == [2, 2]
    assert g.to_move_seat == 1 and g.stones_this_turn() == 2
    g.play_turn(["A1", "A2"], seat=1)
    assert g.plies == 5 and g.to_move_seat == 2


def test_connect6_half_a_turn_leaves_one_stone_due():
    g = Game("Connect6")
    g.play("L10")
    assert g.to_move_seat == 2 and g.stones_this_turn() == 1
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["A1", "A2"])
    assert exc.value.code == "wrong_stone_count"
    g.play_turn(["A1"])
    assert g.to_move_seat == 1


@pytest.mark.parametrize("points", [[], ["L10"], ["L10", "M10", "N10"]])
def test_connect6_refuses_a_turn_of_the_wrong_size(points):
    g = Game("Connect6")
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(points)
    assert exc.value.code == "wrong_stone_count"
    assert "2 stones" in exc.value.detail
    assert g.plies == 1


def test_connect6_turn_is_all_or_nothing():
    g = Game("Connect6")
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["L10", "K10"])  # second stone on the centre stone
    assert exc.value.code == "occupied"
    assert g.plies == 1 and g.board[pt("L10")] == 0
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["L10", "L10"])
    assert exc.value.code == "occupied"
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["L10", "Z99"])
    assert exc.value.code in ("bad_coordinate", "off_board")
    assert g.plies == 1


def test_connect6_turn_from_the_wrong_seat_is_refused():
    g = Game("Connect6")
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["L10", "M10"], seat=1)
    assert exc.value.code == "not_your_turn"


def test_connect6_first_stone_wins_and_the_second_is_not_placed():
    g = position("Connect6", {1: "F10 G10 H10 J10 L10"})
    results = g.play_turn(["K10", "A1"])
    assert len(results) == 1 and results[0].finished
    assert g.board[pt("A1")] == 0
    assert g.actions == [pt("K10")]
    assert (g.outcome, g.winner_colour) == (Outcome(SIX, (1,)), 1)


def test_connect6_second_stone_can_win():
    g = position("Connect6", {1: "F10 G10 H10 J10"})
    results = g.play_turn(["K10", "L10"])
    assert len(results) == 2 and results[1].finished and not results[0].finished


def test_connect6_has_no_captures():
    g = position("Connect6", {1: "N10", 2: "L10 M10"})
    results = g.play_turn(["K10", "A1"])
    assert all(r.captured == () for r in results)
    assert g.captures == (0, 0)


def test_other_games_take_exactly_one_point_per_turn():
    g = Game("Pente")
    assert g.stones_this_turn() == 1
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["L10", "M10"])
    assert exc.value.code == "wrong_stone_count"
    (r,) = g.play_turn(["L10"])
    assert r.colour == 2


def test_connect6_replay_of_its_actions_gives_the_same_game():
    g = Game("Connect6")
    g.play_turn(["L10", "M10"])
    g.play_turn(["A1", "A2"])
    again = Game.replay("Connect6", g.actions)
    assert again.board == g.board and again.to_move_seat == g.to_move_seat
