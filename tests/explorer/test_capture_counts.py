"""The explorer's ``captures`` (with ``position``): a count no position with a colour to move has
is a 400 ``bad_captures`` saying why, one case each; the counts a game can have are taken."""

from __future__ import annotations

import pytest

from tests.explorer.support import explore, explore_error

pytestmark = pytest.mark.django_db


def _refusal(game: str, captures: str, position: str = "K10/L11") -> str:
    body = explore_error(game=game, position=position, captures=captures)
    assert body["code"] == "bad_captures", body
    return body["detail"]


def test_a_negative_count_is_refused():
    assert "whole numbers of stones from 0" in _refusal("Pente", "-2,0")


def test_a_count_that_is_no_number_is_refused():
    assert "'two' is not one" in _refusal("Pente", "two,0")


def test_more_counts_than_colours_are_refused():
    assert _refusal("Pente", "2,0,2") == "captures gives 3 counts for 2 colours."


@pytest.mark.parametrize("game", ["Gomoku", "Connect6"])
def test_captures_in_a_game_without_captures_are_refused(game):
    detail = _refusal(game, "0,2")
    assert detail.startswith(f"{game} has no captures")
    assert detail.endswith("it gives colour 2 2.")


def test_the_pente_capture_target_or_more_is_refused_as_the_end_of_the_game():
    detail = _refusal("Pente", "10,0")
    assert detail == (
        "A Pente game is over once a colour has captured 10 stones (no colour is to move "
        "then), so colour 1 cannot have 10: give at most 8."
    )
    assert "cannot have 99" in _refusal("Pente", "0,99")


def test_an_odd_count_in_pente_is_refused_as_its_captures_are_pairs():
    assert _refusal("Pente", "3,0") == (
        "Pente captures stones in runs of 2, so a colour has captured 0, 2, 4, 6 or 8, "
        "never 3 (colour 1)."
    )


def test_one_stone_in_keryo_pente_is_refused_as_its_runs_are_of_two_or_three():
    assert _refusal("Keryo-Pente", "0,1") == (
        "Keryo-Pente captures stones in runs of 2 or 3, so a colour has captured 0 or 2 to 14, "
        "never 1 (colour 2)."
    )


def test_the_keryo_pente_capture_target_is_refused():
    assert "captured 15 stones" in _refusal("Keryo-Pente", "15,0")


def test_more_captures_than_the_go_board_has_points_are_refused():
    detail = _refusal("Go (9x9)", "82,0", position="D4/E5")
    assert detail == "captures gives colour 1 82 stones: give at most 81."


@pytest.mark.parametrize(
    ("game", "captures"),
    [
        ("Pente", "8,6"),
        ("Keryo-Pente", "3,14"),
        ("Gomoku", "0,0"),
        ("Connect6", ""),
        ("Go (9x9)", "81,0"),
    ],
)
def test_counts_a_game_can_have_are_taken(game, captures):
    position = "D4/E5" if game.startswith("Go") else "K10/L11"
    assert explore(game=game, position=position, captures=captures)["games"] == 0
