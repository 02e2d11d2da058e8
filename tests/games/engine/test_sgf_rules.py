"""SGF's rules one at a time (games/engine/sgf.py): the record value type's checks, the results
written and read, the words of each refusal, and the edges of reading a file (defaults,
encodings, sizes, the private ``REJECTEDDEAD`` property, markup read as dead stones).
``test_sgf.py`` has the round trips and real records.

Points are ``x + size*y`` with y from the top; on 9x9 ``ee`` is E5, point 40.
"""

from __future__ import annotations

import datetime

import pytest

from games.engine.errors import BadRecord
from games.engine.go import GoGame, GoPhase
from games.engine.outcome import Termination
from games.engine.records.result import StatedResult
from games.engine.sgf import (
    SgfGame,
    SgfMove,
    read_sgf,
    sgf_record,
    sgf_result,
    sgf_result_of,
    sgf_stated_result,
    sgf_to_actions,
    sgf_to_game,
    write_sgf,
)
from tests.games.engine.go_play import walls


def passes(count: int, first: int = 1) -> tuple[SgfMove, ...]:
    """``count`` passes in turn from colour ``first``."""
    return tuple(SgfMove(1 + (first - 1 + i) % 2, None) for i in range(count))


def refusal(text: str | bytes) -> BadRecord:
    with pytest.raises(BadRecord) as info:
        read_sgf(text)
    return info.value


# ---------------------------------------------------------------------- the record value type


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"size": 15}, "Go is played on 9x9, 13x13 or 19x19, not 15"),
        (
            {"size": 9, "moves": (SgfMove(1, 40),), "scored": True},
            "Only a record whose moves end with two passes can be scored",
        ),
        ({"size": 9, "dead": (40,)}, "Only a scored record has dead stones"),
        (
            {"extra": (("PB", "someone"),)},
            "'PB' is not one of the kept properties ('AN', 'BR', 'BT', 'CP', 'EV', 'GN', 'ON',"
            " 'OT', 'PC', 'RO', 'RU', 'SO', 'TM', 'US', 'WR', 'WT')",
        ),
        (
            {"size": 9, "moves": (SgfMove(1, None), SgfMove(2, 40)), "rejected": ((2, ()),)},
            "REJECTEDDEAD (a marking turned down) follows move 2, which is not a second pass in"
            " a row",
        ),
        (
            {"size": 9, "moves": passes(2), "rejected": ((2, ()),), "scored": True},
            "A record whose last marking was turned down is not scored",
        ),
    ],
)
def test_the_record_value_type_says_what_is_wrong(fields, message):
    with pytest.raises(ValueError) as info:
        SgfGame(**fields)
    assert str(info.value) == message


@pytest.mark.parametrize("played", [0, 1, 3])
def test_a_marking_turned_down_must_follow_a_second_pass_of_the_moves(played):
    with pytest.raises(ValueError, match="follows move"):
        SgfGame(size=9, moves=passes(2), rejected=((played, ()),))


def test_a_marking_turned_down_after_a_stone_and_a_pass_is_refused():
    with pytest.raises(ValueError, match="follows move 2"):
        SgfGame(size=9, moves=(SgfMove(1, 40), SgfMove(2, None)), rejected=((2, ()),))


def test_a_marking_turned_down_may_follow_the_last_move_or_an_earlier_second_pass():
    moves = (*passes(2), SgfMove(1, 40), *passes(2, first=2))
    assert SgfGame(size=9, moves=moves, rejected=((2, (40,)), (5, ()))).rejected[1] == (5, ())
    assert SgfGame(size=9, moves=passes(3), rejected=((3, ()),)).rejected == ((3, ()),)


def test_a_record_is_scored_with_an_earlier_marking_turned_down():
    moves = (*passes(2), SgfMove(1, 40), *passes(2, first=2))
    record = SgfGame(size=9, moves=moves, rejected=((2, ()),), scored=True)
    assert record.scored


@pytest.mark.parametrize(
    ("moves", "ends"),
    [
        ((), False),
        (passes(1), False),
        ((SgfMove(1, 40), SgfMove(2, None)), False),
        ((SgfMove(1, None), SgfMove(2, 40)), False),
        (passes(2), True),
        ((SgfMove(1, 40), *passes(2, first=2)), True),
    ],
)
def test_a_record_ends_with_two_passes_only_when_its_last_two_moves_are_passes(moves, ends):
    assert SgfGame(size=9, moves=moves).ends_with_two_passes is ends


def test_a_lone_pass_cannot_be_scored():
    with pytest.raises(ValueError):
        SgfGame(size=9, moves=passes(1), scored=True)


@pytest.mark.parametrize(
    ("result", "winner"),
    [
        ("B+3.5", 1),
        ("W+R", 2),
        (" w+t ", 2),
        ("b+", 1),
        ("B", None),
        ("X+R", None),
        ("0", None),
        ("Draw", None),
        ("", None),
        (None, None),
    ],
)
def test_the_winner_is_the_colour_before_the_plus(result, winner):
    assert SgfGame(result=result).winner == winner


# ---------------------------------------------------------------------- results written


@pytest.mark.parametrize(
    ("winner", "options", "result"),
    [
        (1, {"how": "recorded"}, "B+"),
        (2, {"how": "recorded"}, "W+"),
        (None, {"how": "recorded"}, "Draw"),
        (None, {"how": "score"}, "0"),
        (1, {"margin": 0.5}, "B+0.5"),
        (2, {"margin": 3.0}, "W+3"),
        (None, {"how": "void"}, "Void"),
        (2, {"how": "time", "margin": 4.5}, "W+T"),
    ],
)
def test_sgf_results_of_each_kind(winner, options, result):
    assert sgf_result(winner, **options) == result


@pytest.mark.parametrize(
    ("winner", "options", "message"),
    [
        (1, {"how": "x"}, "'x' is not a way a game of Go ends"),
        (None, {"how": "resign"}, "A game that ends by resign has a winner"),
        (None, {"how": "time"}, "A game that ends by time has a winner"),
        (None, {"how": "forfeit"}, "A game that ends by forfeit has a winner"),
        (3, {"how": "resign"}, "There is no colour 3 in Go"),
        (0, {"how": "recorded"}, "There is no colour 0 in Go"),
        (1, {}, "A win on the count needs a margin above 0, not None"),
        (1, {"margin": 0}, "A win on the count needs a margin above 0, not 0"),
        (2, {"margin": -2.5}, "A win on the count needs a margin above 0, not -2.5"),
    ],
)
def test_a_result_that_cannot_be_is_refused_with_its_reason(winner, options, message):
    with pytest.raises(ValueError) as info:
        sgf_result(winner, **options)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("stated", "result"),
    [
        (StatedResult((1,), Termination.SCORE, 5.5), "B+5.5"),
        (StatedResult((2,), Termination.SCORE), "W+"),
        (StatedResult((), Termination.SCORE), "0"),
        (StatedResult((), Termination.RECORDED), "Draw"),
        (StatedResult((1,), Termination.RECORDED), "B+"),
        (StatedResult((2,), Termination.RESIGN), "W+R"),
        (StatedResult((1,), Termination.TIMEOUT), "B+T"),
        (StatedResult((2,), Termination.FORFEIT), "W+F"),
    ],
)
def test_a_stated_result_is_written_in_sgf(stated, result):
    assert sgf_result_of(stated) == result


def test_a_stated_result_go_cannot_have_is_refused():
    with pytest.raises(ValueError) as info:
        sgf_result_of(StatedResult((1,), Termination.FIVE))
    assert str(info.value) == "A game of Go does not end by five"


# ---------------------------------------------------------------------- results read


@pytest.mark.parametrize(
    ("re", "stated"),
    [
        (" B+R ", StatedResult((1,), Termination.RESIGN)),
        ("DRAW", StatedResult((), Termination.SCORE)),
        ("w+resign", StatedResult((2,), Termination.RESIGN)),
        ("W+ 7.5 ", StatedResult((2,), Termination.SCORE, 7.5)),
        ("b+FORFEIT", StatedResult((1,), Termination.FORFEIT)),
        ("B+Time", StatedResult((1,), Termination.TIMEOUT)),
        ("W+0.5", StatedResult((2,), Termination.SCORE, 0.5)),
    ],
)
def test_sgf_results_are_read_in_any_case_and_spacing(re, stated):
    assert sgf_stated_result(re) == stated


@pytest.mark.parametrize("re", ["VOID", " ? ", "  "])
def test_no_result_in_any_spelling_states_none(re):
    assert sgf_stated_result(re) is None


def test_an_unreadable_sgf_result_is_refused_with_its_first_forty_characters():
    with pytest.raises(BadRecord) as info:
        sgf_stated_result(" " + "x" * 39 + "yz ")
    assert info.value.code == "bad_result"
    assert info.value.detail == (
        "RE[" + "x" * 39 + "y] is not an SGF result: B+R, W+T, B+F, B+3.5, B+, 0, Draw, Void or ?."
    )


@pytest.mark.parametrize("re", ["B+0.0", "W+-3", "B+3.5.5", "B+Rx"])
def test_a_win_by_nothing_or_by_no_number_is_refused(re):
    with pytest.raises(BadRecord):
        sgf_stated_result(re)


# ---------------------------------------------------------------------- export


def test_a_set_up_position_is_refused_with_its_reason():
    game = GoGame.from_position(9, {1: "E5"}, to_move=2)
    with pytest.raises(BadRecord) as info:
        sgf_record(game)
    assert info.value.detail == (
        "This game starts from a set-up position, which an SGF export does not carry"
    )


def test_a_result_that_is_not_sgfs_is_refused_with_the_results_it_may_be():
    with pytest.raises(BadRecord) as info:
        sgf_record(walls(), result="B+3.5 ")
    assert info.value.code == "bad_result"
    assert info.value.detail == (
        "'B+3.5 ' is not an SGF result (B+3.5, W+R, B+T, W+F, 0, Draw, Void or ?)"
    )


@pytest.mark.parametrize("result", ["B+3.5", "W+Resign", "B+", "0", "Draw", "Void", "?", "W+12"])
def test_every_sgf_result_may_be_given_to_the_export(result):
    assert sgf_record(walls(), result=result).result == result


def test_a_date_is_written_with_four_digits_of_year_and_two_of_month_and_day():
    assert sgf_record(GoGame(9), date=datetime.date(812, 3, 4)).date == "0812-03-04"


def test_a_result_given_for_a_counted_game_is_kept():
    game = walls()
    game.play("PASS")
    game.play("PASS")
    game.mark_dead([])
    game.accept()
    assert sgf_record(game).result == "W+7.5"
    assert sgf_record(game, result="B+F").result == "B+F"


def test_the_moves_alternate_black_first_and_a_pass_has_no_point():
    game = GoGame(9)
    for action in ("E5", "PASS", "D4", "PASS"):
        game.play(action)
    assert sgf_record(game).moves == (
        SgfMove(1, 40),
        SgfMove(2, None),
        SgfMove(1, 3 + 9 * 5),
        SgfMove(2, None),
    )


def test_a_marking_accepted_or_unanswered_is_not_a_marking_turned_down():
    game = walls()
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(["D5"])
    assert sgf_record(game).rejected == ()
    game.accept()
    assert sgf_record(game).rejected == ()


def test_game_information_is_written_and_nothing_for_what_is_not_given():
    text = write_sgf(GoGame(13, komi=6), white="bob", extra=[("EV", "Cup")])
    assert "KM[6]" in text and "PW[bob]" in text and "EV[Cup]" in text and "SZ[13]" in text
    assert "PB" not in text and "DT" not in text and "RE" not in text


@pytest.mark.parametrize(
    "given",
    [{"black": "a"}, {"white": "b"}, {"date": "2024-01-01"}, {"result": "B+R"}],
)
def test_an_sgf_game_takes_no_game_information_besides_its_own(given):
    record = sgf_record(GoGame(9))
    with pytest.raises(TypeError) as info:
        write_sgf(record, **given)
    assert str(info.value) == "An SgfGame carries its own game information"


def test_an_sgf_game_takes_no_extra_properties_besides_its_own():
    with pytest.raises(TypeError) as info:
        write_sgf(sgf_record(GoGame(9)), extra=[("EV", "Cup")])
    assert str(info.value) == "An SgfGame carries its own extra properties"


def test_a_dead_stone_of_each_colour_is_written_in_the_other_colours_markup():
    game = walls()
    game.play("H5")  # black inside white's side
    game.play("B5")  # white inside black's side
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(["H5", "B5"])
    game.accept()
    record = sgf_record(game)
    text = write_sgf(record)
    black_area = text.split("TB")[1].split("TW")[0]
    white_area = text.split("TW")[1]
    assert "[be]" in black_area and "[be]" not in white_area
    assert "[he]" in white_area and "[he]" not in black_area
    assert read_sgf(text).dead == (1 + 9 * 4, 7 + 9 * 4)


# ---------------------------------------------------------------------- import: the file


@pytest.mark.parametrize(
    ("text", "code", "detail"),
    [
        ("(;GM[2]SZ[19];B[pd])", "not_go", "This SGF file records game 2, not Go (GM[1])"),
        (
            "(;GM[" + "7" * 25 + "];B[pd])",
            "not_go",
            "This SGF file records game " + "7" * 20 + ", not Go (GM[1])",
        ),
        (
            "(;GM[1]SZ[15];B[pd])",
            "bad_size",
            "Go is played here on 9x9, 13x13 or 19x19, not SZ[15]",
        ),
        (
            "(;GM[1]SZ[19:9];B[pd])",
            "bad_size",
            "Go is played here on 9x9, 13x13 or 19x19, not SZ[19:9]",
        ),
        ("(;GM[1]SZ[big];B[ee])", "bad_size", "SZ[big] is not a board size"),
        (
            "hello",
            "bad_sgf",
            "This is not an SGF file that can be read: no SGF data found",
        ),
        ("(;GM[1]SZ[9]KM[lots];B[ee])", "bad_sgf", "KM[lots] is not a number of points"),
        ("(;GM[1]SZ[9];B[ee]W[cc])", "bad_sgf", "Move 1 has both a B and a W property"),
        ("(;GM[1]SZ[9];B[ee];W[cc]B[dd])", "bad_sgf", "Move 2 has both a B and a W property"),
        ("(;GM[1]SZ[9];B[zz])", "bad_sgf", "Move 1, B[zz], is not a point of a 9x9 board"),
        ("(;GM[1]SZ[13];B[ee];W[zz])", "bad_sgf", "Move 2, W[zz], is not a point of a 13x13 board"),
        (
            "(;GM[1]SZ[9];B[ee];W[cc];B[];W[]TB[zz])",
            "bad_sgf",
            "This SGF file has a value that cannot be read",
        ),
        (
            b"(;GM[1]SZ[9]CA[no-such-charset]PB[x];B[ee])",
            "bad_sgf",
            "This SGF file has a value that cannot be read: unknown encoding: no-such-charset",
        ),
        (
            "(;GM[1]SZ[19]AB[dd][pp];W[dp])",
            "sgf_setup_unsupported",
            "Stones set up with AB/AW/AE (after 0 moves) cannot be imported: a game here starts"
            " from an empty board",
        ),
        (
            "(;GM[1]SZ[9];B[ee];W[cc];AE[cc];B[gg])",
            "sgf_setup_unsupported",
            "Stones set up with AB/AW/AE (after 2 moves) cannot be imported: a game here starts"
            " from an empty board",
        ),
        (
            "(;GM[1]SZ[9];B[cc];B[gg])",
            "sgf_out_of_turn",
            "Move 2 is black's, but the colours must alternate from black's first move",
        ),
        (
            "(;GM[1]SZ[9];W[ee])",
            "sgf_out_of_turn",
            "Move 1 is white's, but the colours must alternate from black's first move",
        ),
        (
            "(;GM[1]SZ[9];B[ee];W[cc];W[gg])",
            "sgf_out_of_turn",
            "Move 3 is white's, but the colours must alternate from black's first move",
        ),
        (
            "(;GM[1]SZ[9];B[ee];W[dd];B[ee])",
            "sgf_illegal_move",
            "Move 3 cannot be played: E5 is already taken",
        ),
        (
            "(;GM[1]SZ[9];B[];W[]REJECTEDDEAD[ja];B[ee])",
            "bad_sgf",
            "REJECTEDDEAD[ja] is not a point of a 9x9 board",
        ),
    ],
)
def test_each_refusal_of_a_file_says_why(text, code, detail):
    error = refusal(text)
    assert (error.code, error.detail) == (code, detail)


def test_a_value_that_is_not_ascii_is_shown_with_replacement_characters():
    error = refusal("(;GM[1]SZ[9é];B[ee])".encode("latin-1"))
    assert error.detail == "SZ[9\ufffd] is not a board size"


def test_a_file_without_gm_or_sz_is_a_19x19_game_of_go():
    record = read_sgf("(;KM[5];B[ss])")
    assert record.size == 19 and record.moves == (SgfMove(1, 18 + 19 * 18),)


def test_spaces_around_the_game_and_the_size_are_read():
    assert read_sgf("(;GM[ 1 ]SZ[ 13 ];B[mm])").size == 13
    assert read_sgf("(;GM[1]SZ[ 9 : 9 ];B[ii])").moves == (SgfMove(1, 80),)


def test_a_text_is_read_as_utf8_whatever_its_ca_says():
    assert read_sgf("(;GM[1]SZ[9]CA[ISO-8859-1]PB[李昌镐];B[ee])").black == "李昌镐"


def test_bytes_are_read_in_the_encoding_their_ca_names():
    data = "(;GM[1]SZ[9]CA[Big5]PB[李昌鎬];B[ee])".encode("big5")
    assert read_sgf(data).black == "李昌鎬"


def test_a_file_without_komi_has_none_and_a_komi_is_read():
    assert read_sgf("(;GM[1]SZ[9];B[ee])").komi == 0
    assert read_sgf("(;GM[1]SZ[9]KM[6.5];B[ee])").komi == 6.5


def test_game_information_is_read_from_the_root():
    record = read_sgf(
        "(;GM[1]SZ[9]PB[a]PW[b]DT[2024-05-01]RE[B+R]RO[3]EV[Cup]AN[x]WT[team];B[ee]EV[no])"
    )
    assert (record.black, record.white, record.date, record.result) == (
        "a",
        "b",
        "2024-05-01",
        "B+R",
    )
    assert record.extra == (("AN", "x"), ("EV", "Cup"), ("RO", "3"), ("WT", "team"))


# ---------------------------------------------------------------------- import: REJECTEDDEAD


def test_a_rejected_marking_reads_points_of_the_board_sorted_once_each():
    record = read_sgf("(;GM[1]SZ[9];B[aa];W[ia];B[ai];W[];B[]REJECTEDDEAD[ia][ai][][ia][aa];W[ee])")
    assert record.rejected == ((5, (0, 8, 72)),)
    assert sgf_to_actions(record)[5:7] == ["MARK A9 J9 A1", "REJECT"]


@pytest.mark.parametrize("raw", ["ja", "aj", "a", "abc", "`a", "a`"])
def test_a_rejected_marking_off_the_board_is_refused(raw):
    error = refusal(f"(;GM[1]SZ[9];B[];W[]REJECTEDDEAD[{raw}];B[ee])")
    assert error.code == "bad_sgf"
    assert error.detail == f"REJECTEDDEAD[{raw}] is not a point of a 9x9 board"


def test_a_marking_turned_down_after_the_last_move_replays_rejected():
    record = read_sgf("(;GM[1]SZ[9];B[ee];W[];B[]REJECTEDDEAD[ee])")
    assert record.rejected == ((3, (40,)),)
    assert sgf_to_actions(record) == [40, "PASS", "PASS", "MARK E5", "REJECT"]
    assert sgf_to_game(record).phase is GoPhase.PLAYING


def test_two_passes_then_play_replays_a_marking_of_no_stone_turned_down():
    record = read_sgf("(;GM[1]SZ[9];B[ee];W[];B[];W[];B[cc])")
    assert sgf_to_actions(record) == [40, "PASS", "PASS", "MARK", "REJECT", "PASS", 20]


def test_three_passes_in_a_row_then_two_more_replay_two_markings_turned_down():
    record = read_sgf("(;GM[1]SZ[9];B[];W[];B[];W[];B[])")
    assert sgf_to_actions(record) == [
        "PASS",
        "PASS",
        "MARK",
        "REJECT",
        "PASS",
        "PASS",
        "MARK",
        "REJECT",
        "PASS",
    ]


# ---------------------------------------------------------------------- import: the count


@pytest.mark.parametrize(
    ("markup", "dead"),
    [
        ("TB[cc]", (20,)),  # a white stone in black's markup
        ("TW[ee]", (40,)),  # a black stone in white's markup
        ("TB[ee]TW[cc]", ()),  # each colour's stone in its own markup: alive
        ("TB[cc]TW[ee]", (20, 40)),
    ],
)
def test_the_stones_in_the_other_colours_markup_are_the_dead_ones(markup, dead):
    record = read_sgf(f"(;GM[1]SZ[9];B[ee];W[cc];B[];W[]{markup})")
    assert record.scored and record.dead == dead


@pytest.mark.parametrize("re", ["B+3.5", "0", "Draw", "w+12"])
def test_a_counted_result_scores_a_file_that_ends_with_two_passes(re):
    record = read_sgf(f"(;GM[1]SZ[9]RE[{re}];B[ee];W[];B[])")
    assert record.scored and record.dead == ()


@pytest.mark.parametrize("re", ["B+", "B+R", "W+T", "B+F", "Void", "?", "B wins"])
def test_a_result_that_is_not_a_count_does_not_score_a_file_without_markup(re):
    assert not read_sgf(f"(;GM[1]SZ[9]RE[{re}];B[ee];W[];B[])").scored


@pytest.mark.parametrize("re", ["W+T", "B+F"])
def test_a_loss_on_time_or_by_forfeit_is_never_counted_whatever_the_markup(re):
    assert not read_sgf(f"(;GM[1]SZ[9]RE[{re}];B[ee];W[];B[]TB[cc])").scored


def test_markup_scores_a_file_whatever_its_result():
    assert read_sgf("(;GM[1]SZ[9]RE[B+];B[ee];W[];B[]TW[])").scored


def test_markup_before_two_passes_does_not_score():
    assert not read_sgf("(;GM[1]SZ[9];B[ee];W[]TB[aa])").scored
    assert not read_sgf("(;GM[1]SZ[9];B[];W[ee]TB[aa])").scored


def test_a_marking_turned_down_after_the_last_two_passes_is_not_counted_whatever_its_markup():
    record = read_sgf("(;GM[1]SZ[9];B[ee];W[];B[]REJECTEDDEAD[]TB[aa])")
    assert not record.scored and record.dead == ()


def test_a_scored_record_with_a_komi_of_true_is_refused_before_it_is_counted():
    # True is not one point: the record refuses it when made, before any count is written.
    with pytest.raises(ValueError) as info:
        SgfGame(size=9, komi=True, moves=passes(2), scored=True)
    assert str(info.value) == "komi must be a finite number of points, not True"
