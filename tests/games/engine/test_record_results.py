"""The result an archive keeps of a record (``games.engine.records.result``): the moves' when
they end the game, a refusal when the Result header contradicts them, the header's when they
stop before the end (a resignation, a loss on time), none for ``*``; SGF's ``RE`` read as such
a result and written back (``sgf_stated_result``, ``sgf_result_of``). Then the refusals word for
word, with the line of the record they name, and the edges of a stated result: the words for
none in any case, a margin kept only for a win on the count, the ways an ending is said."""

from __future__ import annotations

import pytest

from games.engine import (
    BadRecord,
    Outcome,
    Record,
    StatedResult,
    Termination,
    parse_record,
    record_outcome,
    record_stating,
    replay_record,
    stated_result,
    write_record,
)
from games.engine.records.result import header_margin
from games.engine.sgf import read_sgf, sgf_result_of, sgf_stated_result
from tests.games.engine.go_play import FINISHED_9X9
from tests.games.engine.helpers import third_line

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


def refusal(record: Record) -> BadRecord:
    with pytest.raises(BadRecord) as info:
        record_outcome(record, replay_record(record))
    return info.value


def stated(**headers: str) -> StatedResult | None:
    """The result a two-sided record with ``headers`` states."""
    return stated_result(Record(headers=tuple(headers.items())), colours=2)


# --- refusals, word for word, at the record's line ---------------------------------------------


def test_a_header_and_a_token_that_disagree_are_refused_naming_both():
    error = refusal(third_line(f"{OPEN} 0-1", Result="1-0"))
    assert (error.code, error.line) == ("results_disagree", 3)
    assert error.detail == (
        "The Result header says 1-0 but the move text ends with 0-1: give the record one result."
    )


def test_a_result_header_that_is_no_result_is_refused_showing_how_to_write_one():
    error = refusal(third_line(OPEN, Result="2-0"))
    assert (error.code, error.line) == ("bad_result", 3)
    assert error.detail == (
        "The Result header '2-0' is not a result of a game of 2 sides: write one number per "
        "side (1-0 when the first side won, 1/2-1/2 for a draw), or * for none."
    )


def test_a_result_token_that_is_no_result_is_refused_in_the_words_of_its_sides():
    error = refusal(third_line(f"{OPEN} 1-1", Players="3"))
    assert (error.code, error.line) == ("bad_result", 3)
    assert error.detail == (
        "The result of the move text '1-1' is not a result of a game of 3 sides: write one "
        "number per side (1-0-0 when the first side won, 1/2-1/2-1/2 for a draw), or * for none."
    )


def test_an_end_reason_that_is_no_ending_is_refused_listing_the_endings():
    error = refusal(third_line(OPEN, Result="1-0", End_Reason="boredom"))
    assert (error.code, error.line) == ("bad_header", 3)
    assert error.detail == (
        "End Reason 'boredom' is not a way a game ends here: five, six, captures, draw, score, "
        "resign, timeout, forfeit, recorded."
    )


def test_a_loss_stated_as_a_draw_is_refused_naming_the_draw():
    error = refusal(third_line(OPEN, Result="1/2-1/2", End_Reason="resign"))
    assert (error.code, error.line) == ("bad_header", 3)
    assert (
        error.detail == "End Reason resign needs a winner, but the record states a draw (1/2-1/2)."
    )


def test_a_count_in_a_pente_game_is_refused_naming_the_game():
    error = refusal(third_line(OPEN, Result="1-0", End_Reason="score"))
    assert (error.code, error.line) == ("bad_header", 3)
    assert error.detail == (
        "End Reason score is Go's count; a Pente game does not end on one: give resign, "
        "timeout, forfeit, or no End Reason."
    )


def test_an_ending_the_moves_do_not_reach_is_refused_naming_the_last_move():
    error = refusal(third_line(OPEN, Result="1-0", End_Reason="five"))
    assert (error.code, error.line) == ("result_contradicts_board", 3)
    assert error.detail == (
        "The record says 1-0 by five, but its moves do not end the game (it goes on after move "
        "3): correct its End Reason header, or its moves, and import it again."
    )


def test_a_result_the_board_denies_is_refused_saying_what_the_board_shows():
    error = refusal(third_line(FIVE, Result="0-1"))
    assert (error.code, error.line) == ("result_contradicts_board", 3)
    assert error.detail == (
        "The moves end the game 1-0 by five, but the record says 0-1: correct its Result (or "
        "End Reason) header, or its moves, and import it again."
    )


def test_a_count_the_result_denies_is_refused_pointing_at_the_dead_stones():
    error = refusal(third_line("1. E5 PASS 2. PASS", game="Go (9x9)", Result="0-1"))
    assert (error.code, error.line) == ("result_contradicts_board", 3)
    assert error.detail.startswith(
        "The moves end the game 1-0 by the count, but the record says 0-1: "
    )
    assert error.detail.endswith(
        "the count takes as dead only the stones the record marks dead (an SGF's TB/TW markup, "
        "a record's Dead header): mark them, or correct its Result, and import it again."
    )


def test_a_margin_that_is_not_a_number_is_refused_at_the_record_s_line():
    error = refusal(third_line("1. E5 F5", game="Go (9x9)", Result="0-1", Margin="lots"))
    assert (error.code, error.line) == ("bad_header", 3)
    assert error.detail == (
        "Margin 'lots' is not a count's margin: a number of points above 0 (5.5)."
    )


# --- the words a result is stated in -------------------------------------------------------------


@pytest.mark.parametrize("none", ["*", "?", "", "  ", "void", "Void", "VOID"])
def test_the_words_for_no_result_state_none_in_any_case(none):
    assert stated(Result=none) is None


def test_a_result_header_is_read_without_its_surrounding_spaces():
    assert stated(Result=" 0-1 ") == StatedResult((2,))


def test_a_result_header_with_spaces_that_disagrees_with_the_token_is_quoted_without_them():
    record = Record(headers=(("Result", " 1-0 "),), result="0-1", line=7)
    with pytest.raises(BadRecord) as info:
        stated_result(record, colours=2)
    assert info.value.detail.startswith("The Result header says 1-0 but")
    assert info.value.line == 7


def test_the_token_alone_states_the_result_when_the_header_says_none():
    record = Record(headers=(("Result", "*"),), result="1/2-1/2")
    assert stated_result(record, colours=2) == StatedResult(())


@pytest.mark.parametrize(("words", "how"), [("RESIGN", "resign"), (" Timeout ", "timeout")])
def test_an_end_reason_is_read_in_any_case_and_without_its_spaces(words, how):
    assert stated(Result="1-0", **{"End Reason": words}) == StatedResult((1,), Termination(how))


def test_an_end_reason_of_spaces_says_nothing():
    assert stated(Result="1-0", **{"End Reason": "  "}) == StatedResult((1,))


def test_a_refused_end_reason_is_quoted_as_written():
    with pytest.raises(BadRecord) as info:
        stated(Result="1-0", **{"End Reason": " Boredom "})
    assert info.value.detail.startswith("End Reason 'Boredom' is not a way")


@pytest.mark.parametrize("how", ["timeout", "forfeit"])
def test_every_loss_needs_a_winner(how):
    with pytest.raises(BadRecord) as info:
        stated(Result="1/2-1/2", **{"End Reason": how})
    assert info.value.code == "bad_header"
    assert info.value.detail.startswith(f"End Reason {how} needs a winner")


def test_a_draw_may_say_how_it_ended_when_that_is_no_loss():
    assert stated(Result="1/2-1/2", **{"End Reason": "score"}) == StatedResult((), "score")


# --- the margin of a count ------------------------------------------------------------------------


def test_a_margin_is_kept_only_for_a_win_on_the_count():
    margin = {"Margin": "5.5"}
    assert stated(Result="0-1", **{"End Reason": "score"}, **margin).margin == 5.5
    assert stated(Result="0-1", **{"End Reason": "timeout"}, **margin).margin is None
    assert stated(Result="0-1", **margin).margin is None
    assert stated(Result="1/2-1/2", **{"End Reason": "score"}, **margin).margin is None


def test_a_margin_that_cannot_be_read_is_refused_even_where_it_is_not_kept():
    with pytest.raises(BadRecord) as info:
        stated(Result="0-1", Margin="lots")
    assert info.value.code == "bad_header"


@pytest.mark.parametrize(("value", "margin"), [("5.5", 5.5), (" 12 ", 12.0), ("0.5", 0.5)])
def test_a_margin_is_a_number_of_points(value, margin):
    assert header_margin({"Margin": value}) == margin


@pytest.mark.parametrize("value", [None, "", "   "])
def test_no_margin_is_none(value):
    assert header_margin({"Margin": value}) is None
    assert header_margin({}) is None


@pytest.mark.parametrize("value", ["0", "-2.5", "inf", "nan", "lots", "1e400"])
def test_a_margin_not_above_0_or_not_finite_is_refused(value):
    with pytest.raises(BadRecord) as info:
        header_margin({"Margin": value}, line=9)
    assert (info.value.code, info.value.line) == ("bad_header", 9)
    assert info.value.detail == (
        f"Margin {value!r} is not a count's margin: a number of points above 0 (5.5)."
    )


def test_a_margin_refused_without_a_line_names_none():
    with pytest.raises(BadRecord) as info:
        header_margin({"Margin": "0"})
    assert info.value.line is None


# --- a stated result as a value ---------------------------------------------------------------------


def test_a_stated_result_sorts_its_winners_and_reads_its_ending_from_words():
    result = StatedResult((3, 1), "timeout")
    assert result.winners == (1, 3) and result.how is Termination.TIMEOUT


@pytest.mark.parametrize("how", ["resign", "timeout", "forfeit"])
def test_a_loss_without_a_winner_is_no_stated_result(how):
    with pytest.raises(ValueError, match=f"^A game that ends by {how} has a winner$"):
        StatedResult((), how)


def test_a_win_on_the_count_may_have_a_margin_below_1():
    assert StatedResult((1,), "score", 0.5).margin == 0.5


@pytest.mark.parametrize(
    ("how", "margin"),
    [("score", 0.0), ("score", -1.0), ("recorded", 2.5), ("resign", 2.5)],
)
def test_only_a_win_on_the_count_has_a_margin_above_0(how, margin):
    with pytest.raises(ValueError, match=r"^Only a win on the count has a margin, above 0$"):
        StatedResult((1,), how, margin)


@pytest.mark.parametrize(
    ("result", "colours", "token"),
    [
        (StatedResult((1,)), 2, "1-0"),
        (StatedResult((2,)), 2, "0-1"),
        (StatedResult(()), 2, "1/2-1/2"),
        (StatedResult((2,)), 3, "0-1-0"),
        (StatedResult((1, 3)), 4, "1-0-1-0"),
        (StatedResult(()), 3, "1/2-1/2-1/2"),
    ],
)
def test_a_stated_result_s_token_has_one_number_per_side(result, colours, token):
    assert result.token(colours) == token


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("recorded", "0-1"),
        ("resign", "0-1 by resignation"),
        ("timeout", "0-1 by time"),
        ("forfeit", "0-1 by forfeit"),
        ("score", "0-1 by the count"),
        ("five", "0-1 by five"),
        ("six", "0-1 by six"),
        ("captures", "0-1 by captures"),
    ],
)
def test_a_stated_result_says_how_the_game_ended(how, said):
    assert StatedResult((2,), how).said(2) == said


def test_a_full_board_is_said_as_such():
    assert StatedResult((), "draw").said(2) == "1/2-1/2 by a full board"


# --- the outcome kept ----------------------------------------------------------------------------------


def test_a_stated_win_is_kept_for_every_seat_of_the_winning_colour():
    record = parse_record(f'[Game "Pente"]\n[Players "3"]\n[Result "0-1-1"]\n\n{OPEN}\n')
    assert record_outcome(record, replay_record(record)) == Outcome(Termination.RECORDED, (2, 3))


def test_a_go_win_on_a_count_the_moves_do_not_reach_is_kept():
    record = third_line("1. E5 F5", game="Go (9x9)", Result="1-0", End_Reason="score")
    assert record_outcome(record, replay_record(record)) == Outcome(Termination.SCORE, (1,))


def test_a_stated_draw_of_a_full_board_the_moves_do_not_show_is_refused():
    error = refusal(third_line(OPEN, Result="1/2-1/2", End_Reason="draw"))
    assert error.code == "result_contradicts_board"
    assert error.detail.startswith("The record says 1/2-1/2 by a full board, but")


@pytest.mark.parametrize("how", ["six", "captures"])
def test_every_ending_only_the_board_shows_is_refused_when_it_does_not(how):
    assert refusal(third_line(OPEN, Result="1-0", End_Reason=how)).code == (
        "result_contradicts_board"
    )


def test_a_stated_result_that_says_how_the_board_ended_is_kept():
    record = third_line(FIVE, Result="1-0", End_Reason="five")
    assert record_outcome(record, replay_record(record)) == Outcome(Termination.FIVE, (1,))


def test_a_stated_draw_against_a_five_is_refused_saying_both():
    error = refusal(third_line(FIVE, Result="1/2-1/2"))
    assert error.detail.startswith(
        "The moves end the game 1-0 by five, but the record says 1/2-1/2:"
    )


# --- a record stating a result ---------------------------------------------------------------------


def test_stating_no_result_writes_the_in_progress_token_and_drops_the_ending_headers():
    record = Record(
        headers=(("Result", "0-1"), ("End Reason", "timeout"), ("Margin", "3")), result="0-1"
    )
    written = record_stating(record, None, colours=2)
    assert written.result == "*" and written.header("Result") == "*"
    assert written.header("End Reason") is None and written.header("Margin") is None


def test_stating_a_count_writes_its_ending_and_margin():
    result = StatedResult((2,), "score", 12.0)
    written = record_stating(Record(), result, colours=2)
    assert written.headers == (("Result", "0-1"), ("End Reason", "score"), ("Margin", "12"))
    assert written.result == "0-1"


def test_stating_a_resignation_the_moves_show_writes_no_end_reason():
    record = Record(moves=("K10", "L11", "Forfeit"))
    written = record_stating(record, StatedResult((1,), "forfeit"), colours=2)
    assert written.header("End Reason") is None and written.header("Result") == "1-0"
