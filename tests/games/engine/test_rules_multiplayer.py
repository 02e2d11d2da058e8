"""Multi-player Pente (3-6 seats) and Partners Pente (two teams of two)."""

from __future__ import annotations

import pytest

from games.engine import BadOptions, Game, Outcome, Termination
from games.engine.captures import capture_rays, captured_by_any

from .helpers import names, position, pt

# -- multi-player --------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_multi_player_seats_move_in_order_each_with_its_own_colour(seats):
    g = Game("Pente", seats=seats)
    assert g.board[pt("K10")] == 1 and g.plies == 1
    order = []
    for i in range(2 * seats):
        order.append((g.to_move_seat, g.to_move_colour))
        g.play(f"A{i + 1}")
    expected = [((i + 1) % seats + 1,) * 2 for i in range(2 * seats)]
    assert order == expected
    assert order[seats - 1] == (1, 1)  # back to seat 1 after the last seat
    assert [g.seat_colour(s) for s in range(1, seats + 1)] == list(range(1, seats + 1))
    assert len(g.captures) == seats


def test_multi_player_captures_a_pair_of_two_different_opponents():
    g = position("Pente", {1: "N10", 2: "L10", 3: "M10"}, seats=3)
    r = g.play("K10")
    assert names(r.captured) == {"L10", "M10"}
    assert g.captures == (2, 0, 0)


def test_multi_player_captures_a_pair_of_one_opponent():
    g = position("Pente", {3: "N10", 2: "L10 M10"}, seats=3, to_move=3)
    r = g.play("K10")
    assert len(r.captured) == 2 and g.captures == (0, 0, 2)


def test_multi_player_does_not_capture_when_one_stone_is_the_mover_own():
    g = position("Pente", {1: "N10 M10", 2: "L10"}, seats=3)
    assert g.play("K10").captured == ()


def test_multi_player_pair_needs_the_mover_own_bracket():
    g = position("Pente", {1: "A1", 2: "L10 M10", 3: "N10"}, seats=3)
    assert g.play("K10").captured == ()


def test_multi_player_ten_captured_stones_win_for_the_mover():
    g = position("Pente", {2: "N10", 1: "L10", 3: "M10"}, seats=4, to_move=2, captures={2: 8})
    g.play("K10")
    assert (g.outcome, g.winner_colour) == (Outcome(Termination.CAPTURES, (2,)), 2)


def test_multi_player_five_wins_for_the_mover():
    g = position("Pente", {3: "F10 G10 H10 J10"}, seats=3, to_move=3)
    g.play("K10")
    assert g.outcome == Outcome(Termination.FIVE, (3,))


def test_multi_player_has_no_tournament_rule():
    g = Game("Pente", seats=3, rated=True)
    assert not g.tournament_rule
    g.play("A1")
    g.play("L11")  # the third stone, next to the centre
    with pytest.raises(BadOptions):
        Game("Pente", seats=3, tournament_rule=True)


@pytest.mark.parametrize("seats", [1, 7])
def test_multi_player_needs_two_to_six_seats(seats):
    with pytest.raises(BadOptions):
        Game("Pente", seats=seats)


@pytest.mark.parametrize("seats", [1, 7])
def test_a_refused_seat_count_is_told_a_game_has_two_to_six_seats(seats):
    with pytest.raises(BadOptions, match=f"A game has 2 to 6 seats, not {seats}"):
        Game("Pente", seats=seats)


@pytest.mark.parametrize("variant", ["Gomoku", "D-Pente", "Connect6", "Poof-Pente", "Boat-Pente"])
def test_multi_player_and_partners_are_offered_for_pente_and_keryo_only(variant):
    with pytest.raises(BadOptions):
        Game(variant, seats=3)
    with pytest.raises(BadOptions):
        Game(variant, partners=True)


@pytest.mark.parametrize("variant", ["Gomoku", "D-Pente", "Connect6"])
def test_a_refused_multi_player_or_partners_game_is_told_its_kind_and_the_variant(variant):
    offered = f"games are offered for Pente and Keryo-Pente, not {variant}"
    with pytest.raises(BadOptions, match=f"^3-player {offered}$"):
        Game(variant, seats=3)
    with pytest.raises(BadOptions, match=f"^Partners {offered}$"):
        Game(variant, partners=True)


def test_a_multi_player_game_asked_for_the_tournament_rule_is_told_it_has_none():
    with pytest.raises(BadOptions, match="^Multi-player games have no tournament rule$"):
        Game("Pente", seats=3, tournament_rule=True)


def test_multi_player_keryo_captures_a_mixed_triple():
    g = position("Keryo-Pente", {1: "O10", 2: "L10 N10", 3: "M10"}, seats=3)
    assert names(g.play("K10").captured) == {"L10", "M10", "N10"}


# -- partners ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "seats", "partners"),
    [
        ({}, 2, False),
        ({"seats": 3}, 3, False),
        ({"partners": True}, 4, True),
        ({"partners": True, "seats": 4}, 4, True),
    ],
)
def test_a_table_states_its_seats_and_whether_it_is_partners(options, seats, partners):
    g = Game("Pente", **options)
    assert g.seats == seats
    assert g.partners is partners


def test_partners_turns_rotate_a1_b1_a2_b2():
    g = Game("Pente", partners=True)
    assert g.seats == 4
    order = [(1, 1)]
    for i in range(7):
        order.append((g.to_move_seat, g.to_move_colour))
        g.play(f"A{i + 1}")
    assert order == [(1, 1), (2, 2), (3, 1), (4, 2), (1, 1), (2, 2), (3, 1), (4, 2)]
    assert [g.seat_colour(s) for s in (1, 2, 3, 4)] == [1, 2, 1, 2]


def test_partners_share_one_capture_count_and_win_together():
    g = position("Pente", {1: "N10", 2: "L10 M10"}, partners=True, to_move_seat=3, captures={1: 8})
    r = g.play("K10", seat=3)  # seat 3's pair on top of seat 1's eight
    assert len(r.captured) == 2
    assert g.captures == (10, 0)
    assert (g.outcome, g.winner_colour) == (Outcome(Termination.CAPTURES, (1, 3)), 1)


def test_partners_a_partner_stone_brackets_a_capture():
    g = Game("Pente", partners=True)  # seat 1: K10
    g.play("L10")  # seat 2
    g.play("A1")  # seat 3
    g.play("M10")  # seat 4
    r = g.play("N10")  # seat 1 brackets with the team's K10
    assert names(r.captured) == {"L10", "M10"}
    assert g.captures == (2, 0)


def test_partners_a_five_of_team_stones_wins_for_both_seats():
    g = position("Pente", {2: "F10 G10 H10 J10"}, partners=True, to_move_seat=4, to_move=2)
    g.play("K10", seat=4)
    assert g.outcome == Outcome(Termination.FIVE, (2, 4))


def test_partners_refuse_the_partner_moving_out_of_turn():
    g = Game("Pente", partners=True)
    g.play("A1", seat=2)
    with pytest.raises(Exception) as exc:
        g.play("A2", seat=1)  # seat 3 is due, not his partner
    assert exc.value.code == "not_your_turn"


def test_partners_need_four_seats():
    with pytest.raises(BadOptions):
        Game("Pente", partners=True, seats=6)


@pytest.mark.parametrize("seats", [3, 6])
def test_partners_with_other_than_four_seats_are_told_partners_is_played_by_four(seats):
    with pytest.raises(BadOptions, match=f"Partners Pente is played by 4 seats, not {seats}"):
        Game("Pente", partners=True, seats=seats)


def test_a_stone_captures_in_every_direction_at_once_when_more_than_two_colours_play():
    # Two rays from the centre, each a pair of other colours (2 then 3) closed by a stone of
    # colour 1: the new stone of colour 1 takes all four, not only the last pair found.
    size, centre = 19, 9 + 19 * 9
    rays = capture_rays(size, (2,))[centre]
    board = [0] * size * size
    first, second = rays[0], rays[-1]
    for ray in (first, second):
        board[ray[0]], board[ray[1]], board[ray[2]] = 2, 3, 1
    taken = captured_by_any(board, rays, 1, (2,))
    assert sorted(taken) == sorted(first[:2] + second[:2])
