"""Reading records (``games.engine.records.parse``): where a record starts and ends, the tokens
of the move text, and every refusal word for word at its line. (``test_records.py`` reads
whole Pente.org files.)"""

from __future__ import annotations

import pytest

from games.engine import BadRecord, parse_record, parse_records
from games.engine.records.model import PASS


def refusal(text: str) -> BadRecord:
    with pytest.raises(BadRecord) as info:
        parse_records(text)
    return info.value


def moves(text: str, game: str = "Pente") -> tuple[str, ...]:
    return parse_record(f'[Game "{game}"]\n\n{text}\n').moves


# --- records and their lines -----------------------------------------------------------------


def test_a_record_starts_at_its_first_line_after_blank_lines_and_comments():
    text = '\n% a comment\n; another\n\n  [Game " Pente "]  \n\n  1. K10 \n'
    (record,) = parse_records(text)
    assert record.line == 5
    assert record.headers == (("Game", "Pente"),) and record.moves == ("K10",)


def test_each_record_keeps_the_line_it_starts_on():
    text = '[Game "Pente"]\n\n1. K10 1-0\n\n[Game "Gomoku"]\n\nK10 0-1\n'
    assert [r.line for r in parse_records(text)] == [1, 5]


def test_a_record_of_moves_alone_starts_at_its_first_move():
    (record,) = parse_records("\n\n1. K10 L11\n")
    assert (record.headers, record.moves, record.line) == ((), ("K10", "L11"), 3)


def test_blank_lines_inside_move_text_keep_one_record():
    (record,) = parse_records("1. K10 L11\n\n2. M12 N13\n")
    assert record.moves == ("K10", "L11", "M12", "N13")


def test_comment_lines_do_not_end_the_headers():
    (record,) = parse_records('[Game "Pente"]\n% note\n; note\n[Rated "Y"]\n\nK10\n')
    assert record.headers == (("Game", "Pente"), ("Rated", "Y"))


def test_a_byte_order_mark_is_no_part_of_the_first_header():
    (record,) = parse_records('\ufeff[Game "Pente"]\n')
    assert record.headers == (("Game", "Pente"),)


def test_a_header_after_moves_starts_the_next_record():
    first, second = parse_records('[Game "Pente"]\nK10\n[Game "Gomoku"]\nK10\n')
    assert first.game_name == "Pente" and second.game_name == "Gomoku"
    assert second.line == 3


def test_headers_after_a_blank_line_start_the_next_record():
    first, second = parse_records('[Game "Pente"]\n\n[Game "Gomoku"]\n')
    assert (first.game_name, second.game_name) == ("Pente", "Gomoku")


def test_parse_record_refuses_two_records_saying_how_many():
    with pytest.raises(BadRecord) as info:
        parse_record('[Game "Pente"]\nK10\n[Game "Pente"]\nK10\n')
    assert (info.value.code, info.value.line) == ("not_one_record", None)
    assert info.value.detail == "Expected one record, found 2."


def test_parse_record_refuses_a_text_without_a_record():
    with pytest.raises(BadRecord) as info:
        parse_record("\n% nothing\n")
    assert info.value.detail == "Expected one record, found 0."


# --- headers -------------------------------------------------------------------------------------


def test_a_header_value_is_kept_without_its_surrounding_spaces():
    (record,) = parse_records('[ Player 1 Name   "  alice b "  ]\n')
    assert record.headers == (("Player 1 Name", "alice b"),)


def test_a_malformed_header_is_quoted_up_to_60_characters():
    line = '[Game "Pente" and a very long tail of words that goes on and on past sixty characters]'
    error = refusal(f"\n{line}\n")
    assert (error.code, error.line) == ("bad_header", 2)
    assert error.detail == f'Malformed header {line[:60]!r}; expected [Name "value"].'


def test_a_header_without_a_name_is_malformed():
    error = refusal('[Game "Pente"]\n[ "x"]\n')
    assert (error.code, error.line) == ("bad_header", 2)
    assert error.detail == 'Malformed header \'[ "x"]\'; expected [Name "value"].'


def test_a_header_given_twice_is_refused_naming_it():
    error = refusal('[Game "Pente"]\n[Rated "Y"]\n[Rated "N"]\n')
    assert (error.code, error.line) == ("duplicate_header", 3)
    assert error.detail == "Header 'Rated' appears twice."


def test_the_same_header_in_two_records_is_no_duplicate():
    assert len(parse_records('[Game "Pente"]\n\n[Game "Pente"]\n')) == 2


# --- move text -------------------------------------------------------------------------------------


def test_move_numbers_with_several_dots_and_glued_to_a_stone_are_dropped():
    assert moves("1. K10 1... L11 2.M12 3...N13") == ("K10", "L11", "M12", "N13")


def test_a_move_number_after_the_result_is_decoration_too():
    record = parse_record('[Game "Pente"]\n\n1. K10 1-0 2.\n')
    assert (record.moves, record.result) == (("K10",), "1-0")


def test_commas_separate_tokens_in_and_out_of_comments():
    assert moves("K10,L11 {a, comment}M12,N13") == ("K10", "L11", "M12", "N13")


def test_commas_separate_tokens_on_a_line_without_comments():
    assert moves("1. K10,L11 2.,M12,N13") == ("K10", "L11", "M12", "N13")


def test_comments_are_dropped_wherever_they_stand_on_the_line():
    assert moves("{opening} K10 {} L11 {two} {comments} M12 {end}") == ("K10", "L11", "M12")


def test_a_comment_separates_the_moves_on_either_side_of_it():
    assert moves("K10{a comment}L11") == ("K10", "L11")


@pytest.mark.parametrize("token", ["K10", "k10", "A1", "T19", "180", "1", "999"])
def test_a_stone_is_a_letter_and_one_or_two_digits_or_up_to_three_digits(token):
    assert moves(token) == (token,)


@pytest.mark.parametrize("token", ["K100", "1000", "KK10", "K", "10K"])
def test_other_tokens_are_no_stones(token):
    error = refusal(f'[Game "Pente"]\n\n{token}\n')
    assert (error.code, error.line) == ("bad_token", 3)
    assert error.detail == (
        f"{token!r} is not a move (e.g. K10), a move number (e.g. 12.), Resign, Forfeit or a "
        "result (1-0, 0-1, 1/2-1/2, *)."
    )


def test_a_go_record_s_bad_token_offers_pass():
    error = refusal('[Game "Go"]\n\n1. D4 K??\n')
    assert (error.code, error.line) == ("bad_token", 3)
    assert error.detail == (
        "'K??' is not a move (e.g. K10, or PASS), a move number (e.g. 12.), Resign, Forfeit or "
        "a result (1-0, 0-1, 1/2-1/2, *)."
    )


def test_pass_is_a_move_on_every_line_of_a_go_record():
    record = parse_record('[Game "Go (9x9)"]\n\nE5 pass\nPass\n')
    assert record.moves == ("E5", PASS, PASS)


@pytest.mark.parametrize(("token", "ending"), [("resign", "Resign"), ("FORFEIT", "Forfeit")])
def test_an_ending_is_read_in_any_case(token, ending):
    assert moves(f"K10 {token}") == ("K10", ending)


@pytest.mark.parametrize(
    "token", ["1-0", "0-1", "1/2-1/2", "0-0-1", "1/2-1/2-1/2", "2-0", "*", "?"]
)
def test_a_result_token_is_one_number_or_half_per_side_or_a_star_or_a_question_mark(token):
    record = parse_record(f'[Game "Pente"]\n\nK10 {token}\n')
    assert (record.moves, record.result) == (("K10",), token)


@pytest.mark.parametrize("token", ["1-", "-1", "1/3-0", "**"])
def test_near_results_are_bad_tokens(token):
    assert refusal(f'[Game "Pente"]\n\nK10 {token}\n').code == "bad_token"


def test_a_result_may_follow_a_resignation():
    record = parse_record('[Game "Pente"]\n\nK10 L11 Resign 1-0\n')
    assert (record.moves, record.result) == (("K10", "L11", "Resign"), "1-0")


def test_a_move_after_the_result_is_refused_naming_both():
    error = refusal('[Game "Pente"]\n\n1. K10 L11\n1-0 M12\n')
    assert (error.code, error.line) == ("moves_after_result", 4)
    assert error.detail == "'M12' follows the result '1-0'; a record ends with its result."


def test_a_second_result_is_refused_too():
    assert refusal('[Game "Pente"]\n\nK10 1-0 0-1\n').code == "moves_after_result"


def test_a_move_after_a_resignation_is_refused_naming_it():
    error = refusal('[Game "Pente"]\n\n1. K10 Forfeit\nL11\n')
    assert (error.code, error.line) == ("moves_after_end", 4)
    assert error.detail == "'L11' follows Forfeit; the game was over."


def test_a_move_after_a_resignation_late_in_the_game_names_the_resignation():
    error = refusal('[Game "Pente"]\n\nK10 L11 M12 Resign N13\n')
    assert error.detail == "'N13' follows Resign; the game was over."


def test_a_second_ending_is_refused():
    error = refusal('[Game "Pente"]\n\nK10 Resign Resign\n')
    assert error.detail == "'Resign' follows Resign; the game was over."


def test_an_unclosed_comment_is_refused_at_its_line():
    error = refusal('[Game "Pente"]\n\n1. K10 L11 {a note\n')
    assert (error.code, error.line) == ("bad_token", 3)
    assert error.detail == "A comment opened with { is not closed on its line."


def test_a_comment_does_not_run_onto_the_next_line():
    assert refusal('[Game "Pente"]\n\nK10 {a\nnote}\n').line == 3
