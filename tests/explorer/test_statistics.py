"""A position's statistics counted by hand on a small database, every filter, the games list a
page at a time, and the refusals of bad queries."""

from __future__ import annotations

import pytest

from tests.explorer.support import explore, explore_error, moves_seen, record, store

pytestmark = pytest.mark.django_db


@pytest.fixture
def database():
    """Five records from the opening. After the centre stone, L11, L9 and J11 are one move (a
    diagonal neighbour; named J11, the first of them); K11 is another.

    - g1: L11, then player 2 resigns: player 1 wins. Ratings 1500 / 1700. Rated, speed.
    - g2: L11, then player 1 resigns: player 2 wins. Ratings 1600 / 1900. Rated, normal.
    - g3: L9, player 2 resigns: player 1 wins. Ratings 1550 / 1650. Unrated, event "Club".
    - g4: J11, unfinished, no ratings.
    - g5: K11, player 2 resigns: player 1 wins. Ratings 1400 / 1450.
    """
    return store(
        record(
            "1. K10 L11 2. N13 Resign 1-0",
            p1="ann",
            p2="bob",
            r1=1500,
            r2=1700,
            Rated="Y",
            TimeControl="5",
            Date="2024.03.01",
        ),
        record(
            "1. K10 L11 2. N10 L9 3. Resign 0-1",
            p1="cid",
            p2="ann",
            r1=1600,
            r2=1900,
            Rated="Y",
            TimeControl="20+10",
            Date="2024.06.01",
        ),
        record(
            "1. K10 L9 2. N10 Resign 1-0",
            p1="bob",
            p2="cid",
            r1=1550,
            r2=1650,
            Rated="N",
            Event="Club",
            Date="2025.01.15",
        ),
        record("1. K10 J11 *", p1="dan", p2="eve"),
        record("1. K10 K11 2. N13 Resign 1-0", p1="eve", p2="ann", r1=1400, r2=1450),
    )


def test_the_opening_statistics_are_those_counted_by_hand(database):
    g1, g2, g3, g4, g5 = database
    body = explore(game="Pente", moves="K10")
    assert (body["games"], body["wins"], body["draws"]) == (5, [3, 1], 0)
    diagonal, straight = body["moves"]
    assert diagonal == {
        "move": "J11",
        "point": 160,
        "games": 4,
        "wins": [2, 1],
        "draws": 0,
        "average_rating": 1750.0,  # player 2 chose it: 1700, 1900, 1650 (g4 has none)
        "latest_game": g4,
    }
    assert straight == {
        "move": "K11",
        "point": 161,
        "games": 1,
        "wins": [1, 0],
        "draws": 0,
        "average_rating": 1450.0,
        "latest_game": g5,
    }
    listed = body["game_list"]["results"]
    assert [g["id"] for g in listed] == [g5, g4, g3, g2, g1]
    assert {g["at_ply"] for g in listed} == {1}
    assert listed[0]["players"][0]["name"] == "eve"


def test_a_deeper_position_counts_only_the_games_that_reached_it(database):
    g1, g2, g3, g4, g5 = database
    body = explore(game="Pente", moves="K10 L11")
    # g1 and g2 played L11; g3 (L9) and g4 (J11) reached the same position mirrored; g4 ended
    # there, so it has no next move.
    assert (body["games"], body["wins"]) == (4, [2, 1])
    assert moves_seen(body) == {"N13": 1, "N10": 2}
    n10 = next(m for m in body["moves"] if m["move"] == "N10")
    assert n10["average_rating"] == 1575.0  # player 1 chose it: 1600 and 1550
    assert explore(game="Pente", moves="K10 L11 N13")["game_list"]["results"][0]["id"] == g1


def test_a_player_filter_counts_their_games_in_either_seat(database):
    body = explore(game="Pente", moves="K10", player="ann")
    assert (body["games"], body["wins"]) == (3, [2, 1])
    assert moves_seen(body) == {"J11": 2, "K11": 1}


def test_a_player_and_an_opponent_count_the_games_between_them(database):
    g1, *_ = database
    body = explore(game="Pente", moves="K10", player="ANN", opponent="bob")
    assert [g["id"] for g in body["game_list"]["results"]] == [g1]


def test_rated_only_counts_the_records_rated_so(database):
    assert explore(game="Pente", moves="K10", rated="true")["games"] == 2
    assert explore(game="Pente", moves="K10", rated="false")["games"] == 3


def test_the_category_filter(database):
    assert explore(game="Pente", moves="K10", category="normal")["games"] == 1
    assert explore(game="Pente", moves="K10", category="turn")["games"] == 0


def test_a_rating_range_keeps_games_whose_players_are_all_inside_it(database):
    g1, g2, g3, g4, g5 = database
    body = explore(game="Pente", moves="K10", rating_min=1500, rating_max=1700)
    assert {g["id"] for g in body["game_list"]["results"]} == {g1, g3}
    assert explore(game="Pente", moves="K10", rating_min=1800)["games"] == 0


def test_a_date_range(database):
    g1, g2, g3, *_ = database
    body = explore(game="Pente", moves="K10", date_after="2024-05-01", date_before="2024-12-31")
    assert [g["id"] for g in body["game_list"]["results"]] == [g2]


def test_an_event_filter_matches_the_records_event(database):
    g1, g2, g3, *_ = database
    body = explore(game="Pente", moves="K10", event="club")
    assert [g["id"] for g in body["game_list"]["results"]] == [g3]


def test_imported_archives_or_games_played_here(database):
    assert explore(game="Pente", moves="K10", imported="true")["games"] == 5
    assert explore(game="Pente", moves="K10", imported="false")["games"] == 0


def test_the_games_come_a_page_at_a_time(database, client):
    g1, g2, g3, g4, g5 = database
    first = explore(game="Pente", moves="K10", page_size=2)
    assert [g["id"] for g in first["game_list"]["results"]] == [g5, g4]
    second = client.get(first["game_list"]["next"]).json()
    assert [g["id"] for g in second["game_list"]["results"]] == [g3, g2]
    third = client.get(second["game_list"]["next"]).json()
    assert [g["id"] for g in third["game_list"]["results"]] == [g1]
    assert third["game_list"]["next"] is None
    assert third["games"] == 5  # the statistics do not change with the page


def test_an_empty_database_answers_with_nothing_found():
    body = explore(game="Pente", moves="K10 L11")
    assert (body["games"], body["moves"], body["game_list"]["results"]) == (0, [], [])


@pytest.mark.parametrize(
    ("params", "code", "named"),
    [
        (
            {"game": "Pente", "moves": "K10", "position_after": "3"},
            "unknown_parameter",
            "position_after",
        ),
        ({"game": "Pente", "rated": "maybe"}, "invalid", "rated"),
        ({"game": "Pente", "rating_min": "high"}, "invalid", "rating_min"),
        ({"game": "Pente", "date_after": "yesterday"}, "invalid", "date_after"),
        ({"game": "Pente", "category": "blitz"}, "invalid", "category"),
        ({"moves": "K10"}, "invalid", "game"),
        ({"game": "Chess", "moves": "e4"}, "unknown_game", None),
        ({"game": "Pente", "moves": "K10 L11 L11"}, "illegal_move", None),
        ({"game": "Pente", "moves": "K10 Z99"}, "illegal_move", None),
        ({"game": "Pente", "moves": "K10", "position": "K10/"}, "bad_request", None),
        ({"game": "Pente", "position": "K10/L11/M12"}, "bad_position", None),
        ({"game": "Pente", "position": "K10,K10/"}, "bad_position", None),
        ({"game": "Pente", "position": "K10/", "captures": "x"}, "bad_captures", None),
        ({"game": "Pente", "opponent": "bob"}, "missing_parameter", None),
        ({"game": "Pente", "rating_min": 1800, "rating_max": 1700}, "bad_request", None),
    ],
)
def test_a_bad_query_is_a_400_that_says_what_is_wrong(params, code, named):
    body = explore_error(**params)
    assert body["code"] == code, body
    assert body["detail"]
    if named is not None:
        assert named in body.get("fields", {}), body
