"""Openings (docs/rules.md, "Seats, colours and the first stone", "The tournament rule",
"Opening protocols", "G-Pente", "Adjacent-only")."""

from __future__ import annotations

import pytest

from games.engine import BadOptions, Game, IllegalMove

from .helpers import pt

CENTRE_VARIANTS = [
    "Pente",
    "Keryo-Pente",
    "Gomoku",
    "G-Pente",
    "Poof-Pente",
    "Boat-Pente",
    "O-Pente",
    "Connect6",
]
TR_VARIANTS = ["Pente", "Keryo-Pente", "Poof-Pente", "Boat-Pente", "O-Pente"]


def refused(game, point, code, **kw):
    with pytest.raises(IllegalMove) as exc:
        game.play(point, **kw)
    assert exc.value.code == code, exc.value.detail
    return exc.value


# -- first stone on the centre -------------------------------------------------------------


@pytest.mark.parametrize("variant", CENTRE_VARIANTS)
def test_the_server_places_player_one_first_stone_on_the_centre(variant):
    g = Game(variant)
    assert g.plies == 1
    assert g.actions == [pt("K10")]
    assert g.board[pt("K10")] == 1
    assert g.to_move_seat == 2 and g.to_move_colour == 2


@pytest.mark.parametrize("variant", ["D-Pente", "DK-Pente", "Swap2-Pente", "Swap2-Keryo"])
def test_d_and_swap2_games_start_on_an_empty_board_with_a_free_first_stone(variant):
    g = Game(variant)
    assert g.plies == 0 and g.actions == [] and not any(g.board)
    assert g.to_move_seat == 1 and g.to_move_colour == 1
    g.play("A1")
    assert g.board[pt("A1")] == 1


# -- tournament rule -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", TR_VARIANTS)
@pytest.mark.parametrize("point", ["H8", "M12", "K12", "H10", "L11", "M8"])
def test_tournament_rule_refuses_player_one_second_stone_inside_h8_m12(variant, point):
    g = Game(variant, rated=True)
    g.play("A1")
    e = refused(g, point, "tournament_rule")
    assert "H8..M12" in e.detail and point in e.detail


@pytest.mark.parametrize("variant", TR_VARIANTS)
@pytest.mark.parametrize("point", ["G10", "N13", "K7", "O14", "A19"])
def test_tournament_rule_allows_three_or_more_points_away(variant, point):
    g = Game(variant, rated=True)
    g.play("A1")
    g.play(point)
    assert g.plies == 3


def test_tournament_rule_binds_only_the_third_stone():
    g = Game("Pente", rated=True)
    g.play("L10")  # player 2 may play next to the centre
    g.play("N10")
    g.play("L11")  # player 2 again
    g.play("M12")  # player 1's third stone: free
    assert g.plies == 5


@pytest.mark.parametrize("variant", TR_VARIANTS)
def test_tournament_rule_is_off_in_unrated_games_by_default(variant):
    g = Game(variant)
    assert not g.tournament_rule
    g.play("A1")
    g.play("L11")


@pytest.mark.parametrize("variant", TR_VARIANTS)
def test_tournament_rule_can_be_chosen_for_unrated_games(variant):
    g = Game(variant, tournament_rule=True)
    g.play("A1")
    refused(g, "L11", "tournament_rule")


def test_tournament_rule_can_be_turned_off_in_a_rated_game():
    g = Game("Pente", rated=True, tournament_rule=False)
    g.play("A1")
    g.play("L11")


@pytest.mark.parametrize("variant", ["D-Pente", "DK-Pente", "Gomoku", "Connect6", "Swap2-Pente"])
def test_games_without_the_tournament_rule_ignore_it_when_rated(variant):
    g = Game(variant, rated=True)
    assert not g.tournament_rule
    with pytest.raises(BadOptions):
        Game(variant, tournament_rule=True)


@pytest.mark.parametrize("variant", ["D-Pente", "Gomoku", "Connect6"])
def test_the_tournament_rule_asked_for_where_there_is_none_is_refused_saying_so(variant):
    with pytest.raises(BadOptions, match=f"^{variant} has no tournament rule$"):
        Game(variant, tournament_rule=True)


@pytest.mark.parametrize(
    ("options", "applies"),
    [
        ({}, False),
        ({"rated": True}, True),
        ({"tournament_rule": True}, True),
        ({"rated": True, "tournament_rule": False}, False),
        ({"partners": True}, False),
        ({"partners": True, "rated": True}, True),
        ({"partners": True, "tournament_rule": True}, True),
        ({"seats": 3, "rated": True}, False),
    ],
)
def test_the_tournament_rule_is_true_or_false_for_every_table(options, applies):
    # Partners Pente is a two-colour game: the rule applies to it as to Pente, unlike the
    # multi-player game. The game states the rule as a plain bool (records and the API show it).
    assert Game("Pente", **options).tournament_rule is applies


def test_check_reports_the_tournament_rule_without_placing():
    g = Game("Pente", rated=True)
    g.play("A1")
    with pytest.raises(IllegalMove) as exc:
        g.check("L11")
    assert exc.value.code == "tournament_rule"
    assert g.plies == 2
    assert pt("L11") not in g.legal_points() and pt("N10") in g.legal_points()


# -- G-Pente -------------------------------------------------------------------------------


@pytest.mark.parametrize("rated", [False, True])
def test_g_pente_always_applies_the_tournament_rule(rated):
    g = Game("G-Pente", rated=rated)
    assert g.tournament_rule
    g.play("A1")
    refused(g, "L11", "tournament_rule")
    with pytest.raises(BadOptions):
        Game("G-Pente", tournament_rule=False)


def test_g_pente_refuses_the_tournament_rule_off_saying_it_always_applies():
    with pytest.raises(BadOptions, match="^In G-Pente the tournament rule always applies$"):
        Game("G-Pente", tournament_rule=False)


@pytest.mark.parametrize("point", ["K6", "K7", "K13", "K14", "F10", "G10", "N10", "O10"])
def test_g_pente_forbids_its_eight_points_for_player_one_second_stone(point):
    g = Game("G-Pente")
    g.play("A1")
    e = refused(g, point, "g_pente_point")
    assert point in e.detail


@pytest.mark.parametrize("point", ["N13", "G7", "P10", "K5", "K15", "E10"])
def test_g_pente_allows_other_points_three_away(point):
    g = Game("G-Pente")
    g.play("A1")
    g.play(point)
    assert g.plies == 3


def test_g_pente_points_are_free_later():
    g = Game("G-Pente")
    g.play("A1")
    g.play("N13")
    g.play("K13")  # player 2 may use them
    g.play("N10")  # and player 1's later stones too
    assert g.plies == 5


# -- adjacent-only -------------------------------------------------------------------------


def test_adjacent_only_refuses_a_stone_that_touches_nothing():
    g = Game("Pente", adjacent_only=True)
    e = refused(g, "A1", "adjacent_only")
    assert "A1" in e.detail


@pytest.mark.parametrize("point", ["J9", "K9", "L9", "J10", "L10", "J11", "K11", "L11"])
def test_adjacent_only_accepts_all_eight_neighbours(point):
    g = Game("Pente", adjacent_only=True)
    g.play(point)


def test_adjacent_only_counts_any_stone_and_not_two_away():
    g = Game("Pente", adjacent_only=True)
    g.play("L10")
    g.play("M11")  # touches L10 (the opponent's stone)
    refused(g, "O10", "adjacent_only")


def test_adjacent_only_leaves_the_first_stone_free_in_d_pente():
    g = Game("D-Pente", adjacent_only=True)
    g.play("A1")
    refused(g, "T19", "adjacent_only")
    g.play("B2")


def test_adjacent_only_applies_to_every_variant_and_to_legal_points():
    g = Game("Keryo-Pente", adjacent_only=True)
    assert sorted(g.legal_points()) == sorted(pt(n) for n in "J9 K9 L9 J10 L10 J11 K11 L11".split())


def test_adjacent_only_connect6_second_stone_may_touch_the_first():
    g = Game("Connect6", adjacent_only=True)
    g.play_turn(["L10", "M10"])
    assert g.plies == 3
    with pytest.raises(IllegalMove) as exc:
        g.play_turn(["J10", "A1"])
    assert exc.value.code == "adjacent_only"
    assert g.plies == 3


def test_adjacent_only_leaves_the_tournament_rule_stone_bound_by_its_distance_alone():
    # Player 2 answers next to the centre: no point 3 or more from the centre touches a stone.
    g = Game("Pente", tournament_rule=True, adjacent_only=True)
    g.play("K9")
    assert g.legal_points()
    g.play("A1")  # far from every stone, and 3 or more from the centre
    refused(g, "T19", "adjacent_only")  # the stones after it touch one again


def test_adjacent_only_still_binds_player_2s_first_stone_under_the_tournament_rule():
    g = Game("Pente", tournament_rule=True, adjacent_only=True)
    refused(g, "A1", "adjacent_only")
