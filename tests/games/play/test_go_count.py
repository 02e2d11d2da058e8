"""Go's count previewed while the dead stones are marked: ``GET /api/games/{id}/count?dead=``
answers the count as it would be with those stones dead, in the shape of the state's
``go.score``, for the players and the spectators; nothing is proposed or stored."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.play.actions import game_decide, game_mark_dead, game_resign, move_play
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

#: Black walls off column D, white column F (9x9); white invades at B5, a stone that cannot
#: live; then two passes more: black, who passed first, marks the dead stones.
WALLS = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]
TO_MARKING = [*WALLS, "PASS", "B5", "PASS", "PASS"]


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def go_game(points: list[str], **options):
    """A 9x9 game with ``points`` played, black first: the game and its (black, white)."""
    black, white = UserFactory(), UserFactory()
    game = make_game(players=[black, white], variant="Go (9x9)", **options)
    for ply, point in enumerate(points):
        move_play(game_id=game.pk, user=(black, white)[ply % 2], ply=ply, points=[point])
    game.refresh_from_db()
    return game, black, white


@pytest.fixture
def marking():
    game, black, white = go_game(TO_MARKING)
    assert client_of().get(f"/api/games/{game.pk}/").json()["go"]["phase"] == "marking"
    return game, black, white


def count(game, dead: str | None = None, user=None):
    params = {} if dead is None else {"dead": dead}
    return client_of(user).get(f"/api/games/{game.pk}/count", params)


def test_the_count_with_stones_marked_is_the_one_the_proposal_then_shows(marking):
    game, black, white = marking
    previewed = count(game, "B5", black)
    assert previewed.status_code == 200, previewed.json()
    body = previewed.json()
    assert (body["black"], body["white"]) == (36, 43.5)
    assert (body["black_dead"], body["white_dead"]) == ([], ["B5"])
    assert len(body["black_territory"]) == 27 and "B5" in body["black_territory"]
    # Nothing proposed: the state still waits for black's marking.
    state = client_of(black).get(f"/api/games/{game.pk}/").json()
    assert (state["ply"], state["go"]["proposed_dead"]) == (game.ply, None)
    game_mark_dead(game_id=game.pk, user=black, ply=game.ply, points=["B5"])
    proposed = client_of().get(f"/api/games/{game.pk}/").json()["go"]["score"]
    assert proposed == body


def test_without_dead_stones_it_is_the_count_as_the_board_stands(marking):
    game, black, _white = marking
    stands = client_of().get(f"/api/games/{game.pk}/").json()["go"]["score"]
    assert count(game, user=black).json() == stands
    assert count(game, "", black).json() == stands
    assert stands["black_territory"] == []  # white's B5 spoils black's side


def test_several_stones_by_commas_or_repeated_of_either_colour(marking):
    game, black, _white = marking
    body = count(game, "B5, D1", black).json()
    assert (body["black_dead"], body["white_dead"]) == (["D1"], ["B5"])
    repeated = client_of(black).get(f"/api/games/{game.pk}/count?dead=D1&dead=B5,B5")
    assert repeated.json() == body


def test_the_opponent_and_spectators_may_preview_too_signed_in_or_not(marking):
    game, black, white = marking
    expected = count(game, "B5", black).json()
    for viewer in (white, UserFactory(), None):
        answer = count(game, "B5", viewer)
        assert answer.status_code == 200 and answer.json() == expected


@pytest.mark.parametrize(
    ("dead", "code"),
    [
        ("K10", "off_board"),  # a 19x19 name on a 9x9 board
        ("I5", "bad_coordinate"),  # no column I
        ("x", "bad_coordinate"),
        ("A1", "bad_dead"),  # no stone there (black's side)
        ("B5,E5", "bad_dead"),  # one of them empty: the whole request is refused
    ],
)
def test_a_point_off_the_board_or_without_a_stone_is_400_with_its_code(marking, dead, code):
    game, black, _white = marking
    answer = count(game, dead, black)
    assert answer.status_code == 400
    assert answer.json()["code"] == code and answer.json()["detail"]


def test_a_go_game_being_played_is_409_not_marking():
    game, black, _white = go_game(WALLS[:4])
    answer = count(game, "D1", black)
    assert answer.status_code == 409 and answer.json()["code"] == "not_marking"
    assert "two passes" in answer.json()["detail"]


def test_a_go_game_counted_or_resigned_is_409_not_marking(marking):
    game, black, white = marking
    game_mark_dead(game_id=game.pk, user=black, ply=game.ply, points=["B5"])
    game_decide(game_id=game.pk, user=white, ply=game.ply + 1, choice="accept")
    answer = count(game, "D1", black)
    assert answer.status_code == 409 and answer.json()["code"] == "not_marking"
    resigned, black, _white = go_game(TO_MARKING)
    game_resign(game_id=resigned.pk, user=black)
    assert count(resigned, "B5").json()["code"] == "not_marking"


def test_a_game_that_is_not_go_is_409_not_marking():
    game = make_game(players=[UserFactory(), UserFactory()])
    answer = count(game, "K10")
    assert answer.status_code == 409 and answer.json()["code"] == "not_marking"


def test_an_unknown_game_is_404_and_an_unknown_parameter_400():
    missing = client_of().get("/api/games/999999/count", {"dead": "B5"})
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    game, _black, _white = go_game([])
    answer = client_of().get(f"/api/games/{game.pk}/count", {"points": "B5"})
    assert answer.status_code == 400 and answer.json()["code"] == "unknown_parameter"
    assert answer.json()["allowed"] == ["dead", "groups"]


def test_spectators_of_a_game_they_see_late_preview_the_board_they_see():
    game, black, _white = go_game(TO_MARKING, spectator_delay=2)
    assert count(game, "B5", black).status_code == 200  # the players see it as it stands
    late = count(game, "B5", UserFactory())  # two plies ago: the passes are not seen yet
    assert late.status_code == 409 and late.json()["code"] == "not_marking"


def test_a_stone_named_in_groups_counts_its_whole_group_dead():
    # White invades black's side twice, apart (B5, B7): one group across black's empty side.
    game, black, _white = go_game([*WALLS, "PASS", "B5", "PASS", "B7", "PASS", "PASS"])
    grouped = client_of(black).get(f"/api/games/{game.pk}/count", {"groups": "B7"})
    assert grouped.status_code == 200, grouped.json()
    assert grouped.json() == count(game, "B5,B7", black).json()
    assert sorted(grouped.json()["white_dead"]) == ["B5", "B7"]
    empty = client_of(black).get(f"/api/games/{game.pk}/count", {"groups": "A1"})
    assert empty.status_code == 400 and empty.json()["code"] == "bad_dead"
