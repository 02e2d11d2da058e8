"""The Game object: whose turn, refusals with their codes, draw on a full board, game over,
replay, copy and the read-only views."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import (
    VARIANTS,
    BadOptions,
    Game,
    IllegalMove,
    MoveResult,
    Outcome,
    Termination,
    UnknownGame,
)

from .helpers import full_board_but, position, pt


def refusal(call, *args, **kw) -> IllegalMove:
    with pytest.raises(IllegalMove) as exc:
        call(*args, **kw)
    return exc.value


# -- turn and seat -------------------------------------------------------------------------


def test_two_player_turns_alternate_after_the_centre_stone():
    g = Game("Pente")
    seen = []
    for move in ["L10", "A1", "M12", "A3"]:
        seen.append((g.to_move_seat, g.to_move_colour))
        r = g.play(move)
        assert r.colour == seen[-1][1]
    assert seen == [(2, 2), (1, 1), (2, 2), (1, 1)]


def test_a_seat_playing_out_of_turn_is_refused_with_who_is_due():
    g = Game("Pente")
    e = refusal(g.play, "L10", seat=1)
    assert e.code == "not_your_turn"
    assert "seat 2" in e.detail
    assert g.plies == 1
    g.play("L10", seat=2)


def test_an_unknown_seat_is_not_your_turn():
    g = Game("Pente")
    assert refusal(g.play, "L10", seat=5).code == "not_your_turn"


def test_an_occupied_point_is_refused_by_name():
    g = Game("Pente")
    e = refusal(g.play, "K10")
    assert (e.code, e.detail) == ("occupied", "K10 is already taken")
    assert refusal(g.play, 180).code == "occupied"


@pytest.mark.parametrize(
    ("point", "code"),
    [
        (361, "off_board"),
        (-1, "off_board"),
        ("U5", "off_board"),
        ("I5", "bad_coordinate"),
        ("xyz", "bad_coordinate"),
        (None, "bad_coordinate"),
        (True, "bad_coordinate"),
        (1.5, "bad_coordinate"),
    ],
)
def test_points_off_the_board_or_malformed_are_refused(point, code):
    g = Game("Pente")
    assert refusal(g.play, point).code == code
    assert refusal(g.check, point).code == code
    assert g.plies == 1


def test_points_may_be_given_by_name():
    g = Game("Pente")
    r = g.play("l10")
    assert r.point == pt("L10") == 181


def test_check_does_not_change_the_game():
    g = Game("Pente")
    before = (g.board, g.plies, g.to_move_seat)
    assert g.check("L10") is None
    assert g.check("L10", seat=2) is None
    assert (g.board, g.plies, g.to_move_seat) == before


def test_unknown_game_and_bad_options_are_refused():
    with pytest.raises(UnknownGame):
        Game("Chess")
    with pytest.raises(BadOptions):
        Game("Go")  # not of the Pente family: engine.new_game plays it
    with pytest.raises(BadOptions):
        Game("Pente", seats=8)


# -- draw and game over --------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["Pente", "Keryo-Pente", "Gomoku", "Poof-Pente", "Boat-Pente"])
def test_a_full_board_without_a_win_is_a_draw(variant):
    g = full_board_but("K10", variant)
    r = g.play("K10")
    assert r.captured == () and r.poofed == ()
    assert r.finished
    assert (g.outcome, g.winner_colour) == (Outcome(Termination.DRAW), None)
    assert g.to_move_seat is None
    assert g.legal_points() == []


def test_a_board_with_one_empty_point_is_not_a_draw():
    g = full_board_but("K10", also_empty="A1")
    g.play("K10")
    assert g.outcome is None


def test_a_win_on_the_last_point_is_a_win_not_a_draw():
    g = full_board_but("K10", colour_1="F10 G10 H10 J10")
    g.play("K10")
    assert g.outcome == Outcome(Termination.FIVE, (1,))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_action_is_refused_once_the_game_is_over(variant):
    line = "F10 G10 H10 J10 L10 M10" if variant == "Connect6" else "F10 G10 H10 J10"
    g = position(variant, {1: line})
    if variant == "Connect6":
        g.play_turn(["K10", "A1"])
    else:
        g.play("K10")
    line_win = Termination.SIX if variant == "Connect6" else Termination.FIVE
    assert g.outcome == Outcome(line_win, (1,))
    assert refusal(g.play, "A2").code == "game_over"
    assert refusal(g.check, "A2").code == "game_over"
    assert refusal(g.play_turn, ["A2"]).code == "game_over"
    assert refusal(g.decide, "keep").code == "game_over"
    assert g.legal_points() == [] and g.stones_this_turn() == 0


# -- views, replay, copy -------------------------------------------------------------------


def test_read_only_views_after_a_few_moves():
    g = Game("Pente")
    g.play("L10")
    g.play("A1")
    assert len(g.board) == 361
    assert g.plies == 3
    assert g.actions == [180, 181, 342]
    assert g.last_point == 342
    assert g.captures == (0, 0)
    assert g.outcome is None and g.winner_colour is None
    rows = g.rows()
    assert len(rows) == 19 and all(len(r) == 19 for r in rows)
    assert rows[9] == "." * 9 + "12" + "." * 8
    assert rows[18] == "1" + "." * 18
    g.actions.append(5)  # a copy: the game is untouched
    assert len(g.actions) == 3


def test_move_results_are_frozen_values():
    r = Game("Pente").play("L10")
    assert r == MoveResult(point=181, colour=2, captured=(), poofed=(), finished=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.point = 3  # type: ignore[misc]


def test_legal_points_lists_every_empty_point():
    g = Game("Pente")
    assert len(g.legal_points()) == 360
    g = Game("Pente", rated=True)
    g.play("A1")
    assert len(g.legal_points()) == 359 - 24  # the 5x5 square minus the centre is closed


def test_copy_is_independent():
    g = Game("Pente")
    g.play("L10")
    h = g.copy()
    h.play("A1")
    assert g.plies == 2 and h.plies == 3
    assert g.board[pt("A1")] == 0
    assert g.to_move_colour == 1 and h.to_move_colour == 2


def test_replay_rebuilds_the_same_game_with_or_without_the_centre_stone():
    g = Game("Keryo-Pente")
    for move in ["L10", "A1", "M10", "N10", "B1"]:
        g.play(move)
    for actions in (g.actions, g.actions[1:]):
        again = Game.replay("Keryo-Pente", actions)
        assert again.board == g.board
        assert again.captures == g.captures
        assert again.to_move_seat == g.to_move_seat
        assert again.actions == g.actions


def test_replay_passes_options_and_raises_on_illegal_actions():
    with pytest.raises(IllegalMove) as exc:
        Game.replay("Pente", ["K10", "A1", "L11"], rated=True)
    assert exc.value.code == "tournament_rule"
    g = Game.replay("D-Pente", ["K10", "A1", "L11", "A2", "swap", "B2"])
    assert g.seat_colour(2) == 1 and g.board[pt("B2")] == 1


def test_seat_colour_refuses_a_seat_that_does_not_exist():
    with pytest.raises(ValueError):
        Game("Pente").seat_colour(3)


# -- setting up a position -----------------------------------------------------------------


def test_from_position_holds_exactly_the_given_stones_with_the_given_colour_to_move():
    g = Game.from_position("Pente", stones={1: "K10 L10", 2: [pt("A1")]}, to_move=2)
    assert sorted(p for p, c in enumerate(g.board) if c) == sorted(
        [pt("K10"), pt("L10"), 0 + 19 * 18]
    )
    assert (g.to_move_colour, g.to_move_seat, g.plies, g.actions) == (2, 2, 20, [])
    assert g.last_point is None and g.outcome is None and g.takeback() is None


def test_from_position_skips_the_opening_protocol_and_the_tournament_rule():
    g = Game.from_position("Swap2-Pente", stones={1: "K10"})
    assert g.pending_decision is None and g.stones_this_turn() == 1
    g = Game.from_position("Pente", stones={1: "K10"}, rated=True, plies=2)
    assert g.tournament_rule
    g.play("L10")  # the third stone, inside the 5x5 square: allowed


def test_from_position_presets_captures_and_picks_the_seat():
    g = Game.from_position(
        "Pente", stones={1: "K10"}, partners=True, to_move_seat=3, captures={1: 8}
    )
    assert (g.to_move_seat, g.to_move_colour, g.captures) == (3, 1, (8, 0))


def test_from_position_refuses_a_point_given_twice_or_a_colour_not_in_play():
    with pytest.raises(ValueError):
        Game.from_position("Pente", stones={1: "K10", 2: "K10"})
    with pytest.raises(ValueError):
        Game.from_position("Pente", stones={3: "K10"})
    with pytest.raises(ValueError):
        Game.from_position("Pente", to_move=3)


# -- outcome -------------------------------------------------------------------------------


def test_termination_values_are_the_words_the_server_stores():
    assert [t.value for t in Termination] == [
        "five",
        "six",
        "captures",
        "draw",
        "score",
        "resign",
        "timeout",
        "forfeit",
        "recorded",
    ]
    assert Termination.FIVE == "five"


def test_outcome_is_a_frozen_value_with_sorted_winners():
    o = Outcome(Termination.FIVE, (3, 1))
    assert o.winners == (1, 3) and not o.is_draw
    assert Outcome(Termination.DRAW).is_draw
    assert Outcome("five", (1,)) == Outcome(Termination.FIVE, (1,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.winners = ()  # type: ignore[misc]


def test_a_game_in_progress_has_no_outcome_and_a_won_one_names_the_seats():
    g = position("Pente", {1: "F10 G10 H10 J10"}, partners=True)
    assert g.outcome is None and g.winner_colour is None
    g.play("K10")
    assert (g.outcome, g.winner_colour) == (Outcome(Termination.FIVE, (1, 3)), 1)


def test_the_outcome_names_the_seat_that_holds_the_winning_colour_after_a_swap():
    g = Game.replay("D-Pente", ["K10", "A1", "L11", "A2", "swap"])
    for move in ["L10", "B1", "M10", "B2", "N10", "B3", "O10"]:
        g.play(move)
    assert g.winner_colour == 1 and g.outcome == Outcome(Termination.FIVE, (2,))
