"""One position, however it was reached and in whichever of the board's 8 symmetries: found as
one, with the next moves named on the caller's board; and positions that differ only in
captures or in who is to move are different."""

from __future__ import annotations

import pytest

from games.engine import parse_point, point_name
from games.engine.positionkey import SYMMETRIES, transform
from tests.explorer.support import explore, moves_seen, record, store, turned

pytestmark = pytest.mark.django_db

# Player 1: K10, N13, N10; player 2: L11, L9 -- in two move orders, then different next moves.
ORDER_A = "K10 L11 N13 L9 N10"
ORDER_B = "K10 L9 N10 L11 N13"


def test_the_same_position_reached_by_two_move_orders_is_one_position():
    first, second = store(record(f"{ORDER_A} O12"), record(f"{ORDER_B} H10"))
    body = explore(game="Pente", moves=ORDER_A)
    assert body["games"] == 2
    assert moves_seen(body) == {"O12": 1, "H10": 1}
    assert {g["id"] for g in body["game_list"]["results"]} == {first, second}
    assert explore(game="Pente", moves=ORDER_B)["key"] == body["key"]


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_a_game_is_found_from_each_of_the_8_symmetries_with_its_next_move_mapped_back(symmetry):
    store(record(f"{ORDER_A} O12"))
    body = explore(game="Pente", moves=turned(ORDER_A, symmetry))
    assert body["games"] == 1
    expected = point_name(transform(parse_point("O12"), symmetry, 19))
    assert moves_seen(body) == {expected: 1}
    assert body["moves"][0]["point"] == parse_point(expected)


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_a_game_stored_in_any_symmetry_is_found_from_the_original_orientation(symmetry):
    store(record(turned(f"{ORDER_A} O12", symmetry)))
    body = explore(game="Pente", moves=ORDER_A)
    assert moves_seen(body) == {"O12": 1}


def test_equivalent_next_moves_of_a_symmetric_position_are_counted_together():
    # After the centre stone alone every diagonal neighbour is the same move.
    store(*(record(f"K10 {reply}") for reply in ("L11", "L9", "J9", "J11", "K11")))
    body = explore(game="Pente", moves="K10")
    assert body["games"] == 5
    assert moves_seen(body) == {"J11": 4, "K11": 1}


def test_the_centre_stone_may_be_left_out_of_the_moves():
    store(record(f"{ORDER_A} O12"))
    assert explore(game="Pente", moves="")["games"] == 1
    assert explore(game="Pente", moves=ORDER_A.removeprefix("K10 "))["games"] == 1


# K10 [L10 M10] N10: player 1's N10 captures the pair; player 1 then holds K10, N13, N10.
CAPTURE = "K10 L10 N13 M10 N10"


def test_a_position_given_by_its_stones_finds_the_games_that_reached_it():
    store(record(f"{CAPTURE} O12"))
    body = explore(game="Pente", position="K10,N13,N10/", captures="2,0", to_move=2)
    assert body["games"] == 1
    assert moves_seen(body) == {"O12": 1}
    assert body["key"] == explore(game="Pente", moves=CAPTURE)["key"]


def test_the_same_stones_with_other_capture_counts_are_another_position():
    store(record(f"{CAPTURE} O12"))
    assert explore(game="Pente", position="K10,N13,N10/", captures="0,0", to_move=2)["games"] == 0
    assert explore(game="Pente", position="K10,N13,N10/", captures="4,0", to_move=2)["games"] == 0


def test_the_same_stones_with_the_other_side_to_move_are_another_position():
    store(record(f"{CAPTURE} O12"))
    same = explore(game="Pente", position="K10,N13,N10/", captures="2,0", to_move=2)
    other = explore(game="Pente", position="K10,N13,N10/", captures="2,0", to_move=1)
    assert other["games"] == 0 and other["key"] != same["key"]


def test_the_same_moves_in_another_game_are_another_position():
    store(record(f"{ORDER_A} O12"))
    assert explore(game="Keryo-Pente", moves=ORDER_A)["games"] == 0
    assert explore(game="Gomoku", moves=ORDER_A)["games"] == 0


def test_go_games_are_indexed_too():
    store(record("D4 F5 C6 PASS", game="Go (9x9)"))
    body = explore(game="Go (9x9)", moves="D4,F5")
    assert moves_seen(body) == {"C6": 1}
    # The same game turned a quarter: C6 is then C4's image.
    turned_body = explore(game="Go (9x9)", moves=turned("D4 F5", 5, 9))
    assert turned_body["games"] == 1
    assert moves_seen(turned_body) == {point_name(transform(parse_point("C6", 9), 5, 9), 9): 1}


def test_a_go_pass_is_a_next_move_of_its_position():
    store(record("D4 F5 PASS C6", game="Go (9x9)"), record("D4 F5 C6", game="Go (9x9)"))
    body = explore(game="Go (9x9)", moves="D4,F5")
    assert moves_seen(body) == {"pass": 1, "C6": 1}
    (passed,) = [m for m in body["moves"] if m["move"] == "pass"]
    assert passed["point"] is None
    # the same position turned a quarter: the pass is still a pass
    assert moves_seen(explore(game="Go (9x9)", moves=turned("D4 F5", 5, 9)))["pass"] == 1
    assert explore(game="Go (9x9)", moves="D4,F5,pass")["games"] == 1
