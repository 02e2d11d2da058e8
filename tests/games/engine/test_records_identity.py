"""A record's values and a game's identity (``game_fingerprint``): the same game is found twice
whatever form it came in, and a game differing in any one fact is another game."""

from __future__ import annotations

import pytest

from games.engine.records.identity import game_fingerprint
from games.engine.records.model import Record

GAME = {
    "variant": "Pente",
    "seats": 2,
    "partners": False,
    "actions": [180, 181, "keep"],
    "names": ["alice", "bob"],
    "seat_colours": [1, 2],
    "winners": [1],
}


def test_a_record_keeps_its_headers_as_text_pairs_and_its_moves_as_a_tuple():
    record = Record(headers=[["Round", 3], ("White", "alice")], moves=["K10", "L10"])
    assert record.headers == (("Round", "3"), ("White", "alice"))
    assert record.moves == ("K10", "L10") and isinstance(record.moves, tuple)
    assert hash(record) == hash(
        Record(headers=(("Round", "3"), ("White", "alice")), moves=("K10", "L10"))
    )


def test_a_fingerprint_is_32_hex_digits_and_the_same_for_the_same_game():
    print_ = game_fingerprint(**GAME)
    assert len(print_) == 32 and int(print_, 16) >= 0
    assert game_fingerprint(**GAME) == print_
    # a word in any case, the winners in any order: the same game
    same = GAME | {"actions": [180, 181, "KEEP"]}
    assert game_fingerprint(**same) == print_


@pytest.mark.parametrize(
    "change",
    [
        {"variant": "Keryo-Pente"},
        {"seats": 3, "names": ["alice", "bob", ""], "seat_colours": [1, 2, 3]},
        {"partners": True},
        {"actions": [180, 181]},
        {"actions": [181, 180, "keep"]},
        {"names": ["bob", "alice"]},
        {"seat_colours": [2, 1]},
        {"names": ["alice", ""]},
        {"winners": [2]},
        {"winners": []},
        {"winners": None},
    ],
    ids=[
        "variant",
        "seats",
        "partners",
        "fewer-actions",
        "other-order",
        "players-swapped",
        "colours-swapped",
        "a-name-unknown",
        "other-winner",
        "a-draw",
        "no-result",
    ],
)
def test_a_game_differing_in_one_fact_has_another_fingerprint(change):
    assert game_fingerprint(**(GAME | change)) != game_fingerprint(**GAME)


def test_partners_names_are_joined_by_colour_in_seat_order():
    four = GAME | {"seats": 4, "partners": True, "seat_colours": [1, 2, 1, 2]}
    together = game_fingerprint(**(four | {"names": ["a", "b", "c", "d"]}))
    assert game_fingerprint(**(four | {"names": ["c", "b", "a", "d"]})) != together
    assert game_fingerprint(**(four | {"names": ["a", "d", "c", "b"]})) != together
    winners_any_order = four | {"names": ["a", "b", "c", "d"], "winners": [2, 1]}
    assert game_fingerprint(**winners_any_order) == game_fingerprint(
        **(four | {"names": ["a", "b", "c", "d"], "winners": [1, 2]})
    )


def test_a_fingerprint_never_changes_for_games_already_stored():
    # The database keeps each game's fingerprint to find a record imported again later: the
    # way the facts are written down (names joined by "/", words in capitals, the text as
    # written, compact JSON) is part of it, and this value must stay the same across releases.
    fingerprint = game_fingerprint(
        variant="Pente",
        seats=4,
        partners=True,
        actions=[180, 181, "resign"],
        names=["Zoë", "bob", "Åsa", "dan"],
        seat_colours=[1, 2, 1, 2],
        winners=[2],
    )
    assert fingerprint == "8b8e126333be701059944c0f0b2d3ffa"


def test_a_fingerprint_wants_a_colour_for_every_name():
    with pytest.raises(ValueError):
        game_fingerprint(**(GAME | {"names": ["alice", "bob", "carol"]}))
