"""The result an archive keeps of a record (``games.engine.records.result``): the moves' when
they end the game, a refusal when the Result header contradicts them, the header's when they
stop before the end (a resignation, a loss on time), none for ``*``; SGF's ``RE`` read as such
a result and written back (``sgf_stated_result``, ``sgf_result_of``)."""

from __future__ import annotations

import pytest

from games.engine import (
    BadRecord,
    Outcome,
    StatedResult,
    Termination,
    parse_record,
    record_outcome,
    record_stating,
    replay_record,
    stated_result,
    write_record,
)
from games.engine.sgf import read_sgf, sgf_result_of, sgf_stated_result
from tests.games.engine.test_go_records import FINISHED_9X9

#: Player 1 makes five on column K (the centre stone is K10) while player 2 plays on row 1.
FIVE = "1. K10 A1 2. K11 A2 3. K12 A3 4. K13 A4 5. K14"
#: Three stones: no one has won.
OPEN = "1. K10 L11 2. M12"


def pente(moves: str, game: str = "Pente", **headers: str):
    """A record of ``game`` whose move text is ``moves``; ``headers`` by name (``End_Reason``
    for ``End Reason``)."""
    lines = [f'[Game "{game}"]']
    lines += [f'[{name.replace("_", " ")} "{value}"]' for name, value in headers.items()]
    return parse_record("\n".join(lines) + "\n\n" + moves + "\n")


def go(moves: str, **headers: str):
    """A 9x9 Go record, as ``pente``."""
    return pente(moves, game="Go (9x9)", **headers)


def kept(record) -> Outcome | None:
    return record_outcome(record, replay_record(record))


def refused(record) -> BadRecord:
    with pytest.raises(BadRecord) as info:
        kept(record)
    return info.value


# --- the moves end the game: the board decides -----------------------------------------------


def test_a_header_that_agrees_with_the_board_keeps_the_board_s_outcome():
    assert kept(pente(FIVE, Result="1-0")) == Outcome(Termination.FIVE, (1,))


def test_a_header_without_a_result_leaves_the_board_s_outcome():
    assert kept(pente(FIVE, Result="*")) == Outcome(Termination.FIVE, (1,))


def test_a_header_naming_the_other_winner_is_refused_saying_both_results():
    error = refused(pente(FIVE + " 0-1", Result="0-1"))
    assert error.code == "result_contradicts_board"
    assert "1-0 by five" in error.detail and "says 0-1" in error.detail


def test_a_header_calling_a_five_a_draw_is_refused():
    assert refused(pente(FIVE, Result="1/2-1/2")).code == "result_contradicts_board"


def test_an_end_reason_other_than_the_board_s_is_refused():
    error = refused(pente(FIVE, Result="1-0", End_Reason="resign"))
    assert error.code == "result_contradicts_board"
    assert "1-0 by five" in error.detail and "1-0 by resignation" in error.detail


def test_a_header_that_contradicts_a_final_resign_is_refused():
    # Resign stands in player 2's slot: player 2 resigned, player 1 won.
    assert kept(pente(OPEN + " Resign", Result="1-0")) == Outcome(Termination.RESIGN, (1,))
    assert refused(pente(OPEN + " Resign", Result="0-1")).code == "result_contradicts_board"


def test_a_counted_go_record_whose_header_names_the_loser_is_refused():
    wrong = FINISHED_9X9.replace("1-0", "0-1")
    error = refused(parse_record(wrong))
    assert error.code == "result_contradicts_board" and "1-0 by the count" in error.detail
    assert "only the stones the record marks dead" in error.detail  # the likeliest cause


# --- the moves stop before the end: the header's result ---------------------------------------


@pytest.mark.parametrize(
    ("result", "winners"),
    [("1-0", (1,)), ("0-1", (2,)), ("1/2-1/2", ())],
)
def test_a_pente_org_result_after_the_last_stone_is_kept_as_recorded(result, winners):
    assert kept(pente(OPEN, Result=result)) == Outcome(Termination.RECORDED, winners)


def test_the_result_token_alone_states_the_result_too():
    assert kept(pente(f"{OPEN} 0-1")) == Outcome(Termination.RECORDED, (2,))


@pytest.mark.parametrize("how", ["resign", "timeout", "forfeit"])
def test_the_end_reason_header_says_how_the_game_ended(how):
    assert kept(pente(OPEN, Result="0-1", End_Reason=how)) == Outcome(Termination(how), (2,))


def test_a_go_count_the_moves_do_not_reach_keeps_its_margin_in_the_stated_result():
    record = go("1. E5 F5", Result="0-1", End_Reason="score", Margin="5.5")
    assert stated_result(record, colours=2) == StatedResult((2,), Termination.SCORE, 5.5)
    assert kept(record) == Outcome(Termination.SCORE, (2,))


def test_a_multi_player_result_names_the_winning_colour():
    record = pente("1. K10 L11 M12", Players="3", Result="0-0-1")
    assert kept(record) == Outcome(Termination.RECORDED, (3,))


def test_a_partners_result_is_won_by_both_seats_of_the_colour():
    record = pente("1. K10 L11 2. M12 N13", Partners="Y", Result="0-1")
    assert kept(record) == Outcome(Termination.RECORDED, (2, 4))


def test_a_d_pente_result_is_won_by_the_seat_that_plays_the_colour_after_the_swap():
    # Player 2 took colour 1 after the four opening stones: "1-0" is seat 2's win.
    record = pente("1. K10 L11 2. M12 N13 3. O14", game="D-Pente", Result="1-0")
    swapped = record.with_header("Player's Swapped?", "Yes")
    assert kept(swapped) == Outcome(Termination.RECORDED, (2,))


@pytest.mark.parametrize("result", ["*", "?", ""])
def test_no_stated_result_leaves_the_record_unfinished(result):
    assert kept(pente(OPEN, Result=result)) is None


def test_a_record_without_a_result_header_or_token_is_unfinished():
    assert kept(pente(OPEN)) is None


def test_an_end_reason_only_the_board_shows_is_refused_when_the_board_does_not():
    error = refused(pente(OPEN, Result="1-0", End_Reason="five"))
    assert error.code == "result_contradicts_board"
    assert "1-0 by five" in error.detail and "after move 3" in error.detail


# --- statements that cannot be read ------------------------------------------------------------


def test_a_header_and_a_token_naming_different_results_are_refused():
    error = refused(pente(f"{OPEN} 0-1", Result="1-0"))
    assert error.code == "results_disagree" and "1-0" in error.detail and "0-1" in error.detail


@pytest.mark.parametrize("result", ["2-0", "1-0-0", "white", "1-1/2"])
def test_a_result_that_is_no_result_is_refused(result):
    assert refused(pente(OPEN, Result=result)).code == "bad_result"


@pytest.mark.parametrize(
    "headers",
    [
        {"End_Reason": "boredom"},
        {"End_Reason": "score"},  # a Pente game has no count
        {"End_Reason": "timeout", "Result": "1/2-1/2"},  # a loss on time has a winner
    ],
)
def test_an_end_reason_that_cannot_be_is_refused(headers):
    assert refused(pente(OPEN, **{"Result": "1-0", **headers})).code == "bad_header"


def test_a_margin_that_is_not_a_number_of_points_is_refused():
    record = go("1. E5 F5", Result="0-1", End_Reason="score", Margin="lots")
    assert refused(record).code == "bad_header"


# --- writing the result a record states --------------------------------------------------------


@pytest.mark.parametrize(
    "stated",
    [
        StatedResult((1,)),
        StatedResult(()),
        StatedResult((2,), Termination.TIMEOUT),
        StatedResult((1,), Termination.SCORE, 2.5),
    ],
)
def test_a_stated_result_written_reads_back_the_same(stated):
    written = record_stating(go("1. E5 F5"), stated, colours=2)
    assert stated_result(parse_record(write_record(written)), colours=2) == stated


def test_a_recorded_result_is_written_without_an_end_reason():
    text = write_record(record_stating(pente(OPEN), StatedResult((2,)), colours=2))
    assert '[Result "0-1"]' in text and "End Reason" not in text
    assert text.rstrip().endswith("0-1")


def test_a_resignation_the_move_text_shows_is_written_without_an_end_reason():
    stated = StatedResult((1,), Termination.RESIGN)
    text = write_record(record_stating(pente(OPEN + " Resign"), stated, colours=2))
    assert "End Reason" not in text and text.rstrip().endswith("Resign 1-0")


# --- Go: a record ending with two passes that was not counted --------------------------------


def test_a_go_record_lost_on_time_while_marking_is_not_counted():
    # Two passes end the moves; white ran out of time before the dead stones were agreed.
    record = go("1. E5 F5 2. PASS PASS", Result="1-0", End_Reason="timeout")
    assert replay_record(record).outcome is None
    assert kept(record) == Outcome(Termination.TIMEOUT, (1,))


def test_a_go_record_ending_with_two_passes_without_an_end_reason_is_counted():
    record = go("1. E5 F5 2. PASS PASS")
    assert replay_record(record).outcome is not None


# --- SGF's RE ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("re", "stated"),
    [
        ("B+R", StatedResult((1,), Termination.RESIGN)),
        ("W+Resign", StatedResult((2,), Termination.RESIGN)),
        ("W+T", StatedResult((2,), Termination.TIMEOUT)),
        ("b+time", StatedResult((1,), Termination.TIMEOUT)),
        ("B+F", StatedResult((1,), Termination.FORFEIT)),
        ("W+Forfeit", StatedResult((2,), Termination.FORFEIT)),
        ("B+5.5", StatedResult((1,), Termination.SCORE, 5.5)),
        ("W+12", StatedResult((2,), Termination.SCORE, 12.0)),
        ("B+", StatedResult((1,), Termination.RECORDED)),
        ("0", StatedResult((), Termination.SCORE)),
        ("Draw", StatedResult((), Termination.SCORE)),
    ],
)
def test_an_sgf_result_is_read_as_the_result_it_states(re, stated):
    assert sgf_stated_result(re) == stated


@pytest.mark.parametrize("re", [None, "", "Void", "?"])
def test_an_sgf_without_a_result_states_none(re):
    assert sgf_stated_result(re) is None


@pytest.mark.parametrize("re", ["Black wins", "B+0", "X+R", "B+R+"])
def test_an_sgf_result_that_cannot_be_read_is_refused(re):
    with pytest.raises(BadRecord) as info:
        sgf_stated_result(re)
    assert info.value.code == "bad_result"


@pytest.mark.parametrize("re", ["B+R", "W+T", "B+F", "W+5.5", "B+", "0", "Draw"])
def test_an_sgf_result_written_back_reads_the_same(re):
    stated = sgf_stated_result(re)
    assert sgf_stated_result(sgf_result_of(stated)) == stated


def test_a_win_on_a_count_without_its_margin_is_written_as_a_win_that_does_not_say_how():
    assert sgf_result_of(StatedResult((2,), Termination.SCORE)) == "W+"


def test_an_sgf_resigned_after_two_passes_is_not_scored_whatever_its_markup():
    text = "(;GM[1]SZ[9]KM[7.5]RE[W+R];B[ee];W[];B[]TB[aa]TW[ii])"
    assert not read_sgf(text).scored
    assert read_sgf(text.replace("W+R", "W+3.5")).scored
