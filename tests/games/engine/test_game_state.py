"""The Game object: whose turn, refusals with their codes, draw on a full board, game over,
replay, copy and the read-only views."""

from __future__ import annotations

import dataclasses
import pickle

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


@pytest.mark.parametrize(
    ("point", "words"),
    [
        (True, "True is not a point"),
        (4.0, "4.0 is not a point"),
        (361, "361 is off the 19x19 board (0..360)"),
        (-1, "-1 is off the 19x19 board (0..360)"),
    ],
)
def test_a_point_off_the_board_or_of_no_kind_is_refused_in_words(point, words):
    assert refusal(Game("Pente").play, point).detail == words


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
    with pytest.raises(BadOptions) as info:
        Game("Go")  # not of the Pente family: engine.new_game plays it
    assert str(info.value) == "Go is not a game of the Pente family (see engine.new_game)"
    with pytest.raises(BadOptions):
        Game("Pente", seats=8)


def test_a_game_is_rated_only_when_asked():
    assert Game("Pente").rated is False and Game("Gomoku", rated=1).rated is True
    assert Game("Pente", rated=True).rated is True


def test_each_opening_refusal_names_the_point_and_the_rule():
    g = Game("Pente", rated=True)
    g.play("A1")
    assert refusal(g.play, "L11").detail == (
        "Tournament rule: player 1's second stone must be at least 3 points from the centre"
        " (outside H8..M12); L11 is too close"
    )
    g = Game("G-Pente")
    g.play("A1")
    assert refusal(g.play, "K6").detail == (
        "In G-Pente player 1's second stone may not be on K6, K7, K13, K14, F10, G10, N10 or"
        " O10; K6 is one of them"
    )
    g = Game("Keryo-Pente", adjacent_only=True)
    assert refusal(g.play, "A1").detail == (
        "A1 touches no stone; with the adjacent-only option every stone must be placed next to"
        " one already on the board"
    )
    g = Game("Swap2-Pente")
    for p in ("K10", "L10", "M10"):
        g.play(p)
    assert refusal(g.play, "A1").detail == (
        "No stone can be placed yet: seat 2 must first choose 'swap' or 'keep' or 'place_two'"
    )


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


def test_a_decision_refused_says_why_and_what_to_choose():
    g = Game("Pente")
    assert refusal(g.decide, "keep").detail == "There is no decision to make now"
    g = Game("Swap2-Pente")
    assert g.pending_decision is None
    for p in ("K10", "L10", "M10"):
        g.play(p)
    assert g.to_move_seat == 2  # seat 2 chooses: swap, keep or place two more
    assert refusal(g.decide, "keep", seat=1).code == "not_your_turn"
    assert refusal(g.act, "keep", seat=1).code == "not_your_turn"
    choices = "'swap' or 'keep' or 'place_two'"
    assert refusal(g.decide, "maybe").detail == f"'maybe' is not a choice now; choose {choices}"
    over = position("Pente", {1: "F10 G10 H10 J10"})
    over.play("K10")
    assert refusal(over.decide, "keep").detail == refusal(over.play, "A1").detail
    assert refusal(over.decide, "keep").detail.startswith("The game is over: ")


def test_act_plays_a_stone_for_the_seat_named_only():
    g = Game("Pente")
    assert refusal(g.act, "L10", seat=1).code == "not_your_turn"
    g.act("L10", seat=2)
    assert g.board[pt("L10")] == 2


def test_a_turn_with_the_wrong_number_of_stones_is_refused_in_words():
    assert refusal(Game("Pente").play_turn, ["A1", "A2"]).detail == (
        "This turn takes 1 stone, not 2"
    )
    g = Game("Connect6")
    assert refusal(g.play_turn, ["A2"]).detail == "This turn takes 2 stones, not 1"
    assert refusal(g.play_turn, ["A2", "A2"]).detail == "A2 is given twice in one turn"


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


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stones": {1: "K10", 2: "K10"}}, "K10 is given twice"),
        ({"stones": {3: "K10"}}, "There is no colour 3 in this game"),
        ({"stones": {0: "K10"}}, "There is no colour 0 in this game"),
        ({"captures": {3: 2}}, "There is no colour 3 in this game"),
        ({"to_move": 3}, "Colour 3 / seat None never starts a turn"),
        ({"to_move": 1, "to_move_seat": 2}, "Colour 1 / seat 2 never starts a turn"),
    ],
)
def test_from_position_refuses_a_point_given_twice_or_a_colour_not_in_play(options, message):
    with pytest.raises(ValueError) as info:
        Game.from_position("Pente", **options)
    assert str(info.value) == message


@pytest.mark.parametrize("plies", [0, 1, 2, 3])
def test_from_position_applies_no_tournament_rule_whatever_the_plies_said(plies):
    g = Game.from_position("G-Pente", stones={1: "K10", 2: "A1"}, plies=plies)
    g.play("L11")  # next to the centre: the rule would refuse player 1's second stone here
    assert g.board[pt("L11")] == 1


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


# -- the words of the game-over refusal ----------------------------------------------------


def over_words(g: Game) -> str:
    return refusal(g.play, "A19").detail


def test_the_game_over_refusal_names_the_winner_and_five_in_a_row():
    g = position("Pente", {1: "F10 G10 H10 J10"})
    g.play("K10")
    assert over_words(g) == "The game is over: seat 1 won by five in a row"


def test_the_game_over_refusal_names_six_in_a_row_in_connect6():
    g = position("Connect6", {1: "F10 G10 H10 J10 L10 M10"})
    g.play_turn(["K10", "A1"])
    assert over_words(g) == "The game is over: seat 1 won by six in a row"


def test_the_game_over_refusal_names_partners_winning_by_captures():
    g = position("Pente", {1: "N10", 2: "L10 M10"}, partners=True, to_move_seat=3, captures={1: 8})
    g.play("K10", seat=3)
    assert over_words(g) == "The game is over: seats 1 and 3 won by captures"


def test_the_game_over_refusal_of_a_drawn_game_says_the_board_is_full():
    g = full_board_but("K10")
    g.play("K10")
    assert refusal(g.play, "K10").detail == "The game is over: it was drawn: the board is full"


def test_a_seat_not_at_the_table_is_named_in_the_refusal():
    with pytest.raises(ValueError) as refused:
        Game("Pente").seat_colour(3)
    assert str(refused.value) == "There is no seat 3 in a 2-seat game"


# -- pickling ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["Keryo-Pente", "Gomoku", "D-Pente"])
def test_a_pickled_game_loads_with_the_shared_tables_and_plays_on_identically(variant):
    g = Game(variant)
    for p in ("K9", "L10", "K11", "M10", "K12", "N10")[: 4 if variant == "D-Pente" else 6]:
        g.play(p)
    loaded = pickle.loads(pickle.dumps(g))
    assert loaded.board == g.board and loaded.actions == g.actions
    assert loaded.variant is g.variant and loaded._t is g._t
    assert loaded._cap_rays == g._cap_rays and (loaded._cap_rays == ()) == (variant == "Gomoku")
    rest = ["keep", "A1"] if variant == "D-Pente" else ["J10", "O10"]  # J10 O10 ... captures
    for game in (g, loaded):
        for action in rest:
            game.act(action)
    assert (loaded.board, loaded.captures, loaded.to_move_seat) == (
        g.board,
        g.captures,
        g.to_move_seat,
    )
