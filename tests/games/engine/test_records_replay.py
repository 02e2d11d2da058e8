"""Replaying records (``games.engine.records.replay``): the game a record's headers set up,
who took each action, how the move text ends, the summary line, and every refusal word for
word with the line or ply it names. (``test_records.py`` and ``test_go_records.py`` replay
whole games.)"""

from __future__ import annotations

import pytest

from games.engine import BadRecord, Outcome, Record, Termination
from games.engine.go import GoGame, GoPhase
from games.engine.records.replay import (
    RecordMoveError,
    Replay,
    game_from_record,
    replay_record,
    replay_summary,
)
from tests.games.engine.helpers import third_line

FIVE = "1. K10 A1 2. K11 A2 3. K12 A3 4. K13 A4 5. K14"


def refusal(record: Record) -> BadRecord:
    with pytest.raises(BadRecord) as info:
        replay_record(record)
    return info.value


def error_line(record: Record) -> dict:
    """The ``error`` of the record's summary line."""
    return replay_summary(record)["error"]


# --- setting a game up from the headers -----------------------------------------------------------


def test_a_record_without_a_game_is_refused():
    record = third_line("K10", game=None, Site="x")
    error = refusal(record)
    assert (error.code, error.line, error.detail) == (
        "missing_game",
        3,
        "The record has no Game header.",
    )
    assert replay_summary(record) == {
        "game": None,
        "error": {
            "ply": None,
            "move": None,
            "code": "missing_game",
            "detail": "The record has no Game header.",
        },
    }


@pytest.mark.parametrize("players", ["1", "7"])
def test_players_past_2_to_6_are_refused(players):
    error = refusal(third_line("K10", Players=players))
    assert (error.code, error.line) == ("bad_header", 3)
    assert error.detail == f"Players must be 2..6, not {players}."


@pytest.mark.parametrize("players", ["2", "6"])
def test_players_from_2_to_6_are_played(players):
    assert replay_record(third_line("K10", Players=players)).game.seats == int(players)


def test_a_player_named_past_the_seats_is_refused_saying_what_to_write():
    error = refusal(third_line("K10", Player_3_Name="carol"))
    assert (error.code, error.line) == ("bad_header", 3)
    assert error.detail == (
        'The record names a Player 3 but has 2 players: give [Players "3"] (or more) for a game '
        "of 3 or more."
    )


def test_the_last_seat_named_past_the_seats_is_refused_too():
    error = refusal(third_line("K10", Players="5", Player_6_Name="f"))
    assert error.detail.startswith("The record names a Player 6 but has 5 players")


def test_a_player_7_header_names_no_seat_and_is_left_alone():
    # No game has seven seats: the header cannot say the record's Players is wrong.
    assert replay_record(third_line("K10", Player_7_Name="g")).game.seats == 2


@pytest.mark.parametrize("unknown", ["?", "-", ""])
def test_a_player_past_the_seats_without_a_name_is_no_player(unknown):
    assert replay_record(third_line("K10", Player_3_Name=unknown)).game.seats == 2


def test_an_unknown_game_is_refused_listing_the_games_played():
    error = refusal(third_line("K10", game="Chess"))
    assert (error.code, error.line) == ("unknown_game", 3)
    assert error.detail == (
        "Unknown game 'Chess'; the engine plays Pente, Keryo-Pente, Gomoku, G-Pente, D-Pente, "
        "DK-Pente, Poof-Pente, Boat-Pente, O-Pente, Swap2-Pente, Swap2-Keryo, Connect6, Go, "
        "Go (13x13), Go (9x9)."
    )


def test_options_the_game_does_not_offer_are_refused_in_the_engine_s_words():
    error = refusal(third_line("K10", game="Gomoku", Players="3"))
    assert (error.code, error.line) == ("bad_options", 3)
    assert error.detail == "3-player games are offered for Pente and Keryo-Pente, not Gomoku"


def test_the_headers_set_the_game_s_options():
    game = replay_record(
        third_line("K10", game="Keryo-Pente", Partners="Y", Rated="Y", Adjacent_Only="Y")
    ).game
    assert (game.seats, game.partners, game.rated, game.adjacent_only) == (4, True, True, True)
    assert game.tournament_rule is True
    plain = replay_record(third_line("K10", Rated="Y", Tournament_Rule="N")).game
    assert (plain.rated, plain.tournament_rule, plain.adjacent_only) == (True, False, False)


# --- the Pente family's moves --------------------------------------------------------------------------


def test_a_first_stone_off_the_centre_is_refused_at_ply_1():
    with pytest.raises(RecordMoveError) as info:
        replay_record(third_line("L10 K10"))
    error = info.value
    assert (error.code, error.ply, error.move, error.line) == ("not_centre", 1, "L10", None)
    assert error.detail == "The first stone of a Pente game is on the centre K10, not L10."
    assert error.game.plies == 1


def test_a_first_stone_that_is_no_point_is_refused_at_ply_1():
    with pytest.raises(RecordMoveError) as info:
        replay_record(third_line("Z10"))
    assert (info.value.code, info.value.ply, info.value.move) == ("off_board", 1, "Z10")
    assert info.value.detail == "Z10 is off the 19x19 board (A1..T19)"
    assert info.value.game.actions == [180]


def test_the_centre_stone_may_be_written_in_the_integer_form():
    assert replay_record(third_line("180 A19")).game.actions == [180, 0]


def test_a_refused_stone_names_its_ply_and_the_game_before_it():
    with pytest.raises(RecordMoveError) as info:
        replay_record(third_line("K10 A1 K10"))
    error = info.value
    assert (error.code, error.ply, error.move) == ("occupied", 3, "K10")
    assert error.game.plies == 2


def test_each_action_is_credited_to_the_seat_that_took_it():
    replay = replay_record(third_line("K10 A1 A19 K11 A2", Players="3"))
    assert replay.seats == (1, 2, 3, 1, 2)


def test_a_game_without_a_centre_stone_starts_with_the_text_s_first_stone():
    replay = replay_record(third_line("A19 A18 A17", game="D-Pente"))
    assert replay.game.actions == [0, 19, 38] and replay.seats == (1, 1, 1)


def test_an_empty_move_text_keeps_the_centre_stone_of_seat_1():
    replay = replay_record(third_line("*"))
    assert (replay.game.actions, replay.seats) == ([180], (1,))


def test_a_d_pente_decision_is_credited_to_the_seat_that_took_it():
    record = third_line("A1 A19 T1 T19", game="D-Pente").with_header("Player's Swapped?", "Y")
    replay = replay_record(record)
    assert replay.game.actions[-1] == "swap" and replay.seats == (1, 1, 1, 1, 2)


def test_a_decision_the_engine_refuses_names_its_ply_and_choice():
    record = third_line("A19 T19 A1", game="Swap2-Pente", Swap2="colour1")
    with pytest.raises(RecordMoveError) as info:
        replay_record(record)
    assert (info.value.ply, info.value.move, info.value.code) == (4, "colour1", "bad_decision")
    assert (
        info.value.detail == "'colour1' is not a choice now; choose 'swap' or 'keep' or 'place_two'"
    )
    assert info.value.game.pending_decision == "swap2"


# --- the ending ---------------------------------------------------------------------------------------


def test_a_resignation_is_won_by_the_other_colour():
    replay = replay_record(third_line("K10 L11 Resign"))
    assert (replay.ending, replay.resigned_colour, replay.winner) == ("Resign", 1, 2)
    assert replay.outcome == Outcome(Termination.RESIGN, (2,))


def test_a_forfeit_ends_the_game_by_forfeit():
    replay = replay_record(third_line("K10 Forfeit"))
    assert (replay.resigned_colour, replay.winner) == (2, 1)
    assert replay.outcome == Outcome(Termination.FORFEIT, (1,))


def test_a_partner_s_resignation_is_won_by_both_seats_of_the_other_colour():
    replay = replay_record(third_line("K10 Resign", Partners="Y"))
    assert replay.outcome == Outcome(Termination.RESIGN, (1, 3))


def test_without_an_ending_the_outcome_and_winner_are_the_position_s():
    replay = replay_record(third_line(FIVE))
    assert (replay.ending, replay.resigned_colour, replay.winner) == (None, None, 1)
    assert replay.outcome == Outcome(Termination.FIVE, (1,))
    going = replay_record(third_line("K10 A1"))
    assert (going.outcome, going.winner) == (None, None)


def test_a_replay_of_a_game_alone_has_no_ending():
    replay = Replay(GoGame(9))
    assert (replay.seats, replay.ending, replay.resigned_colour, replay.outcome) == (
        (),
        None,
        None,
        None,
    )


def test_a_resignation_in_a_game_of_three_sides_is_refused():
    error = refusal(third_line("K10 A1 Forfeit", Players="3"))
    assert (error.code, error.line) == ("resign_multiplayer", 3)
    assert error.detail == "Forfeit cannot be replayed in a game of more than two sides."


def test_a_resignation_after_the_game_ended_is_refused_at_the_next_ply():
    with pytest.raises(RecordMoveError) as info:
        replay_record(third_line(FIVE + " Resign"))
    error = info.value
    assert (error.code, error.ply, error.move) == ("game_over", 10, "Resign")
    assert error.detail == "Resign follows the end of the game."
    assert error.game.outcome is not None


def test_game_from_record_is_the_position_after_the_last_move():
    assert game_from_record(third_line("K10 A19 Resign")).actions == [180, 0]


# --- summaries ------------------------------------------------------------------------------------


def test_a_pente_summary_says_the_game_its_end_and_its_board():
    summary = replay_summary(third_line(FIVE + " 1-0"))
    board = summary.pop("board")
    assert summary == {
        "game": "Pente",
        "plies": 9,
        "status": "finished",
        "winner": 1,
        "reason": "five",
        "captures": [0, 0],
    }
    assert len(board) == 19 and board[18] == "2" + "." * 18


def test_a_pente_summary_of_a_game_being_played():
    summary = replay_summary(third_line("K10 A1"))
    assert (summary["status"], summary["winner"], summary["reason"]) == ("in_progress", None, None)


def test_a_pente_summary_of_a_resignation_gives_its_reason():
    summary = replay_summary(third_line("K10 A1 Resign"))
    assert (summary["status"], summary["winner"], summary["reason"]) == ("finished", 2, "resign")


def test_a_go_summary_says_the_count():
    summary = replay_summary(third_line("E5 A1 PASS PASS", game="Go (9x9)", Dead="A1"))
    board = summary.pop("board")
    assert summary == {
        "game": "Go (9x9)",
        "plies": 4,
        "status": "finished",
        "captures": [1, 0],
        "dead": ["A1"],
        "score": {"black": 81, "white": 7.5},
        "winner": 1,
    }
    assert board[4] == "....1...." and board[8] == "." * 9


def test_a_go_summary_of_a_game_being_played():
    summary = replay_summary(third_line("E5", game="Go (9x9)"))
    assert (summary["status"], summary["winner"], summary["dead"]) == ("in_progress", None, [])
    assert summary["score"] == {"black": 81, "white": 7.5}


def test_a_summary_of_a_refused_move_names_its_ply_and_move():
    assert error_line(third_line("K10 A1 K10")) == {
        "ply": 3,
        "move": "K10",
        "code": "occupied",
        "detail": "K10 is already taken",
    }


def test_a_summary_of_a_record_that_cannot_be_set_up_has_the_game_and_no_ply():
    summary = replay_summary(third_line("K10", Players="9"))
    assert summary == {
        "game": "Pente",
        "error": {
            "ply": None,
            "move": None,
            "code": "bad_header",
            "detail": "Players must be 2..6, not 9.",
        },
    }


def test_a_speed_go_record_is_replayed_as_go():
    summary = replay_summary(third_line("D4", game="Speed Go (13x13)"))
    assert summary["game"] == "Go (13x13)" and "dead" in summary


# --- Go records ------------------------------------------------------------------------------------


def test_a_go_record_without_komi_gives_white_7_5():
    assert replay_record(third_line("E5", game="Go (9x9)")).game.komi == 7.5


def test_a_komi_header_is_a_number_of_points():
    assert replay_record(third_line("E5", game="Go (9x9)", Komi="0")).game.komi == 0


@pytest.mark.parametrize("komi", ["x", "nan"])
def test_a_komi_that_is_no_number_is_refused(komi):
    error = refusal(third_line("E5", game="Go (9x9)", Komi=komi))
    assert (error.code, error.line) == ("bad_header", 3)
    assert error.detail == f"Komi must be a number of points, not {komi!r}."


def test_a_go_record_credits_each_action_to_its_seat():
    replay = replay_record(third_line("E5 PASS PASS", game="Go (9x9)"))
    # black, white, black; white passed first, marks; black accepts.
    assert replay.game.actions[:3] == [40, "PASS", "PASS"]
    assert replay.seats == (1, 2, 1, 2, 1)


def test_a_refused_go_move_names_its_ply_counting_passes():
    with pytest.raises(RecordMoveError) as info:
        replay_record(third_line("E5 PASS E5", game="Go (9x9)"))
    assert (info.value.code, info.value.ply, info.value.move) == ("occupied", 3, "E5")
    assert info.value.game.plies == 2


def test_a_marking_turned_down_credits_its_seats():
    replay = replay_record(third_line("E5 PASS PASS D4", game="Go (9x9)"))
    assert replay.game.actions[3:5] == ["MARK", "REJECT"]
    assert replay.seats == (1, 2, 1, 2, 1, 2)


def test_a_rejected_dead_point_without_a_stone_is_refused_at_the_record_s_line():
    error = refusal(third_line("E5 PASS PASS D4", game="Go (9x9)", Rejected_Dead="A1"))
    assert (error.code, error.line) == ("bad_dead", 3)
    assert error.detail == "Rejected Dead header: A1 holds no stone to mark dead."


def test_a_dead_point_without_a_stone_is_refused_at_the_record_s_line():
    error = refusal(third_line("E5 PASS PASS", game="Go (9x9)", Dead="A1"))
    assert (error.code, error.line) == ("bad_dead", 3)
    assert error.detail == "Dead header: A1 holds no stone to mark dead."


def test_a_marking_turned_down_at_the_end_of_the_record_is_not_counted():
    record = third_line("E5 A1 PASS PASS", game="Go (9x9)", Rejected_Dead="A1")
    replay = replay_record(record)
    assert replay.game.actions[4:] == ["MARK A1", "REJECT"] and replay.outcome is None
    assert replay.seats == (1, 2, 1, 2, 1, 2)


@pytest.mark.parametrize("how", ["score", "Score", " SCORE "])
def test_two_passes_are_counted_when_the_end_reason_is_the_count(how):
    record = Record(
        headers=(("Game", "Go (9x9)"), ("End Reason", how)), moves=("E5", "PASS", "PASS")
    )
    assert replay_record(record).game.phase is GoPhase.OVER


@pytest.mark.parametrize("how", ["timeout", "resign"])
def test_two_passes_stay_in_the_marking_when_the_game_ended_otherwise(how):
    record = third_line("E5 PASS PASS", game="Go (9x9)", End_Reason=how)
    replay = replay_record(record)
    assert replay.game.phase is GoPhase.MARKING and replay.outcome is None


def test_a_go_resignation_after_two_passes_is_not_counted():
    replay = replay_record(third_line("E5 PASS PASS Resign", game="Go (9x9)"))
    assert replay.game.phase is GoPhase.MARKING
    assert replay.outcome == Outcome(Termination.RESIGN, (1,))


def test_markings_of_the_header_past_the_record_s_are_left_when_play_goes_on():
    record = third_line("E5 PASS PASS D4", game="Go (9x9)", Rejected_Dead="E5; E5")
    replay = replay_record(record)
    assert replay.game.actions == [40, "PASS", "PASS", "MARK E5", "REJECT", 48]
    assert replay.seats == (1, 2, 1, 2, 1, 2)
