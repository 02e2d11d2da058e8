"""Hints: ``GET /api/games/{id}/hint`` gives the player to move, in an unrated game in progress
against the computer, the engine's move (searched in the request, under ``HINT_SECONDS``) and
its evaluation; every other case is refused with its code, and hints are counted per user."""

from __future__ import annotations

import pytest

from games.bots import analysis
from games.play.actions import game_mark_dead, game_resign, move_play
from tests.clients import client_for
from tests.factories import UserFactory, computer, make_game

pytestmark = pytest.mark.django_db

#: After these, seat 1 (K10, the centre stone) has K10 L10 M10 N10 against seat 2's J10, and is
#: to move at ply 8: O10 wins.
FOUR = ["J10", "L10", "A1", "M10", "A3", "N10", "A5"]


@pytest.fixture(autouse=True)
def _short_hints(settings):
    settings.HINT_SECONDS = 0.05


def played(players, points: list[str], *, variant: str = "Pente", **options):
    """A game of ``players`` (the computers' move tasks never run: nothing commits) with
    ``points`` played from the game's first free ply on, seats alternating."""
    game = make_game(players=players, variant=variant, **options)
    for i, point in enumerate(points):
        ply = game.ply + i
        move_play(game_id=game.pk, user=players[ply % 2], ply=ply, points=[point])
    game.refresh_from_db()
    return game


def hint(user, game_id: int):
    return client_for(user).get(f"/api/games/{game_id}/hint")


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code


def test_the_hint_is_the_winning_move_when_there_is_one():
    human = UserFactory()
    game = played([human, computer()], FOUR)
    response = hint(human, game.pk)
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "game": game.pk,
        "ply": 8,
        "seat": 1,
        "move": "O10",
        "points": ["O10"],
        "decision": None,
        "evaluation": {"cp": 1000, "mate": "win"},
    }


def test_the_hint_blocks_the_computers_four():
    human = UserFactory()
    # The computer (seat 1) has K10 L10 M10 N10 against J10; the human (seat 2) is to move.
    game = played([computer(), human], ["J10", "L10", "A1", "M10", "A3", "N10"])
    body = hint(human, game.pk).json()
    assert (body["seat"], body["ply"], body["points"]) == (2, 7, ["O10"])


def test_a_pending_decision_is_hinted_with_its_word():
    human, bot = UserFactory(), computer()
    game = make_game(players=[bot, human], variant="D-Pente")
    for ply, point in enumerate(["K10", "L11", "M12", "N13"]):  # seat 1 places four stones
        move_play(game_id=game.pk, user=bot, ply=ply, points=[point])
    body = hint(human, game.pk).json()
    assert body["decision"] in ("keep", "swap")
    assert (body["move"], body["points"], body["seat"]) == (body["decision"], [], 2)


def budgets_spent(monkeypatch) -> list[float]:
    """The think times the hint gives the search, one per search, recorded as it runs."""
    spent: list[float] = []
    search = analysis.pente_search

    def recording(position, *, level, budget_s, rng):
        spent.append(budget_s)
        return search(position, level=level, budget_s=budget_s, rng=rng)

    monkeypatch.setattr(analysis, "pente_search", recording)
    return spent


@pytest.mark.parametrize(("setting", "most"), [(0.3, 0.3), (30.0, analysis.HINT_MAX_SECONDS)])
def test_a_hints_searches_share_its_budget_and_never_pass_the_cap(
    settings, monkeypatch, setting, most
):
    # the request's time is the searches' budgets (a wall-clock bound would time the machine)
    settings.HINT_SECONDS = setting
    spent = budgets_spent(monkeypatch)
    human = UserFactory()
    game = played([human, computer()], ["L11", "L9", "M12"])
    response = hint(human, game.pk)
    assert response.status_code == 200 and len(response.json()["points"]) == 1
    assert spent and sum(spent) <= most + 1e-9


def test_the_same_position_is_answered_from_the_cache_without_a_search(monkeypatch):
    human = UserFactory()
    game = played([human, computer()], ["L11"])
    first = hint(human, game.pk).json()

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(analysis, "pente_search", no_search)
    assert hint(human, game.pk).json() == first


# --- refusals ------------------------------------------------------------------------------


def test_not_your_turn_is_409():
    human = UserFactory()
    game = played([human, computer()], ["J10", "L10"])  # the computer is to move
    refused(hint(human, game.pk), 409, "not_your_turn")


def test_someone_not_playing_is_403_not_a_participant():
    game = played([UserFactory(), computer()], ["J10"])
    refused(hint(UserFactory(), game.pk), 403, "not_a_participant")


def test_a_rated_game_is_403_rated_game():
    human = UserFactory()
    game = make_game(players=[computer(), human], rated=True)
    refused(hint(human, game.pk), 403, "rated_game")


def test_a_game_between_people_is_403_no_computer():
    alice, bob = UserFactory(), UserFactory()
    game = played([alice, bob], ["J10"])
    refused(hint(alice, game.pk), 403, "no_computer")


def test_a_game_over_is_409_game_over():
    human, bot = UserFactory(), computer()
    game = played([human, bot], ["J10"])
    game_resign(game_id=game.pk, user=human)
    refused(hint(human, game.pk), 409, "game_over")


def test_a_go_hint_is_a_point_or_a_pass():
    human = UserFactory()
    game = make_game(players=[human, computer()], variant="Go (9x9)")
    body = hint(human, game.pk).json()
    assert body["seat"] == 1 and body["decision"] is None
    assert body["points"] == [body["move"]] and body["evaluation"]["mate"] is None


#: Go (9x9): black walls off column D, white column F, then B5 and passes (tests/games/play).
WALLS = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]


@pytest.mark.parametrize(
    ("points", "computer_marks"),
    [
        ([*WALLS, "PASS", "B5", "PASS", "PASS"], False),  # the human passed first: they mark
        ([*WALLS, "B5", "PASS", "PASS"], True),  # the computer did: the human answers
    ],
)
def test_no_hint_while_go_s_dead_stones_are_marked_is_409_marking_in_progress(
    points, computer_marks
):
    human, bot = UserFactory(), computer()
    game = played([human, bot], points, variant="Go (9x9)")
    if computer_marks:
        game_mark_dead(game_id=game.pk, user=bot, ply=game.ply, points=[])
    response = hint(human, game.pk)
    refused(response, 409, "marking_in_progress")
    assert "dead stones" in response.json()["detail"]


def test_a_game_of_more_than_two_sides_is_400_analysis_unavailable():
    human = UserFactory()
    game = make_game(players=[computer(1), human, computer(2)])  # seat 2 is to move
    refused(hint(human, game.pk), 400, "analysis_unavailable")


def test_an_unknown_game_is_404_and_a_visitor_must_log_in():
    refused(hint(UserFactory(), 999999), 404, "not_found")
    game = played([UserFactory(), computer()], ["J10"])
    assert client_for().get(f"/api/games/{game.pk}/hint").status_code in (401, 403)


def test_hints_are_counted_per_user(settings, throttle_rates):
    settings.HINT_RATE = "2/min"
    human = UserFactory()
    game = played([human, computer()], ["L11"])
    first = hint(human, game.pk)
    assert first.status_code == 200 and first["RateLimit-Limit"] == "2"
    assert hint(human, game.pk).status_code == 200
    third = hint(human, game.pk)
    refused(third, 429, "throttled")
    assert int(third["Retry-After"]) >= 1
    other = UserFactory()
    refused(hint(other, game.pk), 403, "not_a_participant")  # counted apart, then refused


# --- the schema ----------------------------------------------------------------------------


def test_the_hint_is_in_the_schema_with_its_refusals():
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/games/{id}/hint/"]["get"]
    assert {"200", "400", "403", "404", "409"} <= set(operation["responses"])
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["$ref"].endswith("/Hint")
    properties = schema["components"]["schemas"]["Hint"]["properties"]
    assert set(properties) == {"game", "ply", "seat", "move", "points", "decision", "evaluation"}
