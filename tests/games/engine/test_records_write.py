"""Writing records (``games.engine.records.write``): the layout of the text, Pente.org's header
block, the result token of a position and the record of a game, header by header.
(``test_records.py`` and ``test_go_records.py`` write whole records and read them back.)"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.engine import Record, game_from_record, parse_record
from games.engine.game import Game
from games.engine.go import GoGame
from games.engine.records.write import (
    record_from_game,
    rejected_header,
    result_token,
    sides,
    standard_headers,
    write_record,
    write_records,
)


def five() -> Game:
    """A Pente game won by colour 1's five on column K."""
    record = parse_record('[Game "Pente"]\n\n1. K10 A1 2. K11 A2 3. K12 A3 4. K13 A4 5. K14\n')
    return game_from_record(record)


# --- the text of a record ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["", 'Na"me', "Name]", "Na]me"], ids=["empty", "quote", "bracket", "inner-bracket"]
)
def test_a_header_name_that_cannot_stand_in_brackets_is_refused(name):
    with pytest.raises(ValueError, match=rf"^header {name!r} cannot be written on one line$"):
        write_record(Record(headers=((name, "x"),)))


@pytest.mark.parametrize("value", ["a\nb", "a\rb"])
def test_a_header_value_of_two_lines_is_refused(value):
    with pytest.raises(ValueError, match=r"^header 'Event' cannot be written on one line$"):
        write_record(Record(headers=(("Event", value),)))


def test_a_record_of_headers_alone_has_no_blank_line():
    assert write_record(Record(headers=(("Game", "Pente"),))) == '[Game "Pente"]\n'


def test_a_record_of_moves_alone_starts_with_them():
    assert write_record(Record(moves=("K10", "L11", "M12"), result="*")) == "1. K10 L11 2. M12 *\n"


def test_an_empty_record_is_an_empty_line():
    assert write_record(Record()) == "\n"


def test_a_result_alone_is_the_move_text():
    assert write_record(Record(result="1-0")) == "1-0\n"


def test_records_are_written_one_blank_line_apart():
    one, two = Record(headers=(("Game", "Pente"),)), Record(moves=("K10",))
    assert write_records([one, two]) == '[Game "Pente"]\n\n1. K10\n'
    assert write_records([]) == ""


@pytest.mark.parametrize(
    ("headers", "numbered"),
    [
        ((("Players", "1"),), "1. A1 B1 2. C1 D1 3. E1 F1"),
        ((("Players", "4"),), "1. A1 B1 C1 D1 2. E1 F1"),
        ((("Partners", "Y"),), "1. A1 B1 2. C1 D1 3. E1 F1"),
    ],
)
def test_moves_are_numbered_by_round_of_colours(headers, numbered):
    record = Record(headers=headers, moves=("A1", "B1", "C1", "D1", "E1", "F1"))
    assert write_record(record).splitlines()[-1] == numbered


def test_a_line_of_79_characters_is_kept_and_a_longer_one_wrapped():
    stones = ("K10", "L11") * 7
    text = " ".join(f"{i + 1}. K10 L11" for i in range(7))  # 76 characters
    assert write_record(Record(moves=stones, result="1-")) == f"{text} 1-\n"  # 79
    assert write_record(Record(moves=stones, result="1-0")) == f"{text}\n1-0\n"  # 80


def test_a_word_longer_than_a_line_stands_alone_on_its_line():
    long = "x" * 90
    assert write_record(Record(moves=("K10",), result=long)) == f"1. K10\n{long}\n"


# --- Pente.org's header block ------------------------------------------------------------------


def test_a_header_block_of_nothing_known_is_pente_org_s_placeholders():
    assert standard_headers(game="Gomoku") == (
        ("Game", "Gomoku"),
        ("Site", "Pente.org"),
        ("Event", "-"),
        ("Round", "-"),
        ("Section", "-"),
        ("Date", "?"),
        ("Time", "?"),
        ("TimeControl", "-"),
        ("Rated", "N"),
        ("Player 1 Name", "?"),
        ("Player 2 Name", "?"),
        ("Player 1 Rating", "?"),
        ("Player 2 Rating", "?"),
        ("Player 1 Type", "?"),
        ("Player 2 Type", "?"),
        ("Result", "?"),
    )


def test_a_header_block_says_every_value_it_is_given():
    headers = dict(
        standard_headers(
            game="Pente",
            site="Elsewhere",
            event="Club",
            round="2",
            section="B",
            played_at=datetime(2024, 3, 7, 8, 5, 9, tzinfo=UTC),
            time_control="10+5",
            rated=True,
            player_names=["ann", "bo"],
            player_ratings=[1500, 1400],
            player_types=["Human", "Computer"],
            result="0-1",
        )
    )
    assert headers == {
        "Game": "Pente",
        "Site": "Elsewhere",
        "Event": "Club",
        "Round": "2",
        "Section": "B",
        "Date": "03/07/2024",
        "Time": "08:05:09",
        "TimeControl": "10+5",
        "Rated": "Y",
        "Player 1 Name": "ann",
        "Player 2 Name": "bo",
        "Player 1 Rating": "1500",
        "Player 2 Rating": "1400",
        "Player 1 Type": "Human",
        "Player 2 Type": "Computer",
        "Result": "0-1",
    }


def test_an_empty_name_and_a_rating_of_0_are_unknown():
    headers = dict(standard_headers(game="Pente", player_names=["", None], player_ratings=[0]))
    assert headers["Player 1 Name"] == headers["Player 2 Name"] == "?"
    assert headers["Player 1 Rating"] == headers["Player 2 Rating"] == "?"


def test_seats_past_the_second_follow_the_block_in_seat_order():
    headers = standard_headers(
        game="Pente",
        player_names=["a", "b", "c"],
        player_ratings=[1, 2, 3, 4],
        player_types=["Human"],
    )
    assert headers[16:] == (
        ("Player 3 Name", "c"),
        ("Player 3 Rating", "3"),
        ("Player 3 Type", "?"),
        ("Player 4 Name", "?"),
        ("Player 4 Rating", "4"),
        ("Player 4 Type", "?"),
    )


def test_two_players_give_no_header_past_the_block():
    assert len(standard_headers(game="Pente", player_types=["Human", "Human"])) == 16


# --- the result token of a position ---------------------------------------------------------------


def test_a_game_being_played_has_the_in_progress_token():
    assert result_token(Game("Pente")) == "*"


def test_a_five_of_colour_1_is_1_0():
    assert result_token(five()) == "1-0"


def test_a_three_sided_win_names_the_winning_colour():
    record = parse_record(
        '[Game "Pente"]\n[Players "3"]\n\nK10 A1 A19 K11 A2 A18 K12 A3 A17 K13 A4 A16 K14\n'
    )
    game = game_from_record(record)
    assert game.winner_colour == 1
    assert result_token(game) == "1-0-0"
    shifted = parse_record(
        '[Game "Pente"]\n[Players "3"]\n\nK10 A1 A19 C1 A2 A18 D1 A3 A17 E1 A4 A16 G1 A5\n'
    )
    assert result_token(game_from_record(shifted)) == "0-1-0"


def test_a_go_count_with_no_winner_is_a_draw_for_each_side():
    game = GoGame(9, komi=0)
    for move in ("PASS", "PASS"):
        game.play(move)
    game.mark_dead(())
    game.accept()
    assert result_token(game) == "1/2-1/2"


@pytest.mark.parametrize(
    ("game", "count"),
    [
        (Game("Pente"), 2),
        (Game("Pente", seats=3), 3),
        (Game("Pente", seats=4), 4),
        (Game("Pente", partners=True), 2),
        (GoGame(9), 2),
    ],
)
def test_a_game_has_a_side_per_colour(game, count):
    assert sides(game) == count


# --- the record of a game ---------------------------------------------------------------------------


def test_a_game_header_of_another_game_is_refused_naming_both():
    with pytest.raises(
        ValueError, match=r"^Game header 'Pente' does not match the game 'Keryo-Pente'$"
    ):
        record_from_game(Game("Keryo-Pente"), {"Game": "Pente"})


def test_a_game_header_with_pente_org_s_prefix_is_kept_as_given():
    record = record_from_game(Game("Pente"), [("Site", "x"), ("Game", "Speed Pente")])
    assert record.headers == (("Site", "x"), ("Game", "Speed Pente"), ("Result", "*"))


def test_the_game_header_is_put_first_when_not_given():
    record = record_from_game(Game("Gomoku"), {"Site": "x"})
    assert record.headers == (("Game", "Gomoku"), ("Site", "x"), ("Result", "*"))


def test_a_resignation_out_of_turn_is_written_in_the_result_alone():
    record = record_from_game(Game("Pente"), resigned_colour=1)
    assert (record.moves, record.result, record.header("Result")) == (("K10",), "0-1", "0-1")


def test_a_forfeit_of_the_side_to_move_is_written_as_a_token():
    record = record_from_game(Game("Pente"), resigned_colour=2, forfeit=True)
    assert (record.moves, record.result) == (("K10", "Forfeit"), "1-0")


def test_a_resignation_after_the_game_ended_changes_nothing():
    game = five()
    record = record_from_game(game, resigned_colour=1)
    assert record.moves[-1] != "Resign" and record.result == "1-0"


def test_a_resignation_in_a_game_of_three_sides_leaves_it_without_a_result():
    record = record_from_game(Game("Pente", seats=3), resigned_colour=2)
    assert (record.moves, record.result, record.header("Result")) == (("K10",), "*", "*")


def test_a_d_pente_game_keeping_its_colours_says_no():
    game = Game("D-Pente")
    for point in (0, 18, 342, 360):
        game.play(point)
    game.decide("keep")
    assert record_from_game(game).header("Player's Swapped?") == "No"


def test_a_d_pente_game_before_its_decision_says_it_is_not_known():
    assert record_from_game(Game("DK-Pente")).header("Player's Swapped?") == "-"


def test_swap2_decisions_are_written_in_order():
    game = Game("Swap2-Pente")
    for point in (0, 18, 342):
        game.play(point)
    assert record_from_game(game).header("Swap2") == "-"
    game.decide("place_two")
    game.play(1)
    game.play(2)
    game.decide("colour1")
    record = record_from_game(game)
    assert record.header("Swap2") == "place_two colour1"
    assert record.moves == ("A19", "T19", "A1", "B19", "C19")


def test_a_game_of_another_family_gets_no_decision_header():
    record = record_from_game(Game("Pente"))
    assert record.headers == (("Game", "Pente"), ("Result", "*"))


def test_a_game_of_three_seats_says_so():
    assert record_from_game(Game("Keryo-Pente", seats=3)).header("Players") == "3"


def test_partners_say_so_without_the_number_of_seats():
    record = record_from_game(Game("Pente", partners=True))
    assert record.headers == (("Game", "Pente"), ("Result", "*"), ("Partners", "Y"))


def test_the_tournament_rule_is_written_only_where_it_is_not_the_default():
    assert (
        record_from_game(Game("Pente", rated=True), {"Rated": "Y"}).header("Tournament Rule")
        is None
    )
    assert record_from_game(Game("Pente", tournament_rule=True)).header("Tournament Rule") == "Y"
    unrated_by_header = record_from_game(Game("Pente", rated=True))  # no Rated header: unrated
    assert unrated_by_header.header("Tournament Rule") == "Y"
    off = record_from_game(Game("Pente", rated=True, tournament_rule=False), {"Rated": "Y"})
    assert off.header("Tournament Rule") == "N"
    assert record_from_game(Game("Pente")).header("Tournament Rule") is None


def test_a_game_whose_tournament_rule_always_applies_writes_none():
    game = Game("G-Pente")
    assert game.tournament_rule
    assert record_from_game(game).header("Tournament Rule") is None


def test_adjacent_only_is_written_only_when_set():
    assert record_from_game(Game("Gomoku", adjacent_only=True)).header("Adjacent Only") == "Y"
    assert record_from_game(Game("Gomoku")).header("Adjacent Only") is None


def test_a_go_game_s_komi_is_written_only_when_not_7_5():
    assert record_from_game(GoGame(9, komi=0)).header("Komi") == "0"
    assert record_from_game(GoGame(9, komi=6.5)).header("Komi") == "6.5"
    assert record_from_game(GoGame(19)).headers == (("Game", "Go"), ("Result", "*"))


def test_a_go_game_s_dead_stones_are_written_top_row_first():
    game = GoGame(9)
    for move in ("E5", "A1", "F5", "J9", "PASS", "PASS"):
        game.play(move)
    game.mark_dead(["A1", "J9"])
    game.accept()
    assert record_from_game(game).header("Dead") == "J9 A1"


def test_a_go_game_in_its_marking_has_no_dead_header():
    game = GoGame(9)
    for move in ("E5", "A1", "PASS", "PASS"):
        game.play(move)
    game.mark_dead(["A1"])
    assert record_from_game(game).header("Dead") is None


# --- the Rejected Dead header --------------------------------------------------------------------


def test_no_marking_turned_down_is_no_header():
    assert rejected_header([]) is None
    assert rejected_header([40, "PASS", "PASS", "MARK C3", "ACCEPT"]) is None


def test_markings_turned_down_are_listed_in_order():
    actions = [40, "PASS", "PASS", "MARK C3 D4", "REJECT", 41, "PASS", "PASS", "MARK", "REJECT"]
    assert rejected_header(actions) == "C3 D4; -"


def test_a_reject_without_a_marking_before_it_is_no_marking():
    assert rejected_header(["PASS", "REJECT", "MARKED", "REJECT"]) is None


def test_a_third_player_named_alone_gets_the_placeholders_of_the_rest():
    assert standard_headers(game="Pente", player_names=["a", "b", "c"])[16:] == (
        ("Player 3 Name", "c"),
        ("Player 3 Rating", "?"),
        ("Player 3 Type", "?"),
    )


def test_a_third_player_s_type_alone_gives_the_third_player_s_headers():
    assert standard_headers(game="Pente", player_types=["Human", "Human", "Computer"])[16:] == (
        ("Player 3 Name", "?"),
        ("Player 3 Rating", "?"),
        ("Player 3 Type", "Computer"),
    )


@pytest.mark.parametrize(
    "game",
    [Game("Pente", seats=3, rated=True), Game("Keryo-Pente", partners=True, rated=True)],
    ids=["three-seats", "partners"],
)
def test_a_rated_game_s_default_tournament_rule_is_that_of_its_seats(game):
    # Rated, three seats have no tournament rule and partners have it: both the default.
    record = record_from_game(game, {"Rated": "Y"})
    assert record.header("Tournament Rule") is None
