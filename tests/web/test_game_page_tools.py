"""What a game's page is told, beyond the game's state, for hints, the computer's analysis and
Go's count: whether the viewer is offered hints, whether the game has been analysed, and the
territory and the dead stones (by colour) in the state it embeds."""

from __future__ import annotations

import pytest

from games.bots.models import Analysis
from games.play.actions import game_decide, game_mark_dead, game_resign, move_play
from tests.factories import UserFactory, computer, make_game
from tests.web.pages import embedded_state, page_data

pytestmark = pytest.mark.django_db

#: Black walls off column D, white column F (9x9); then white invades at B5, a stone that
#: cannot live (tests/games/play/test_go_api.py's game).
WALLS = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]


def go_game_marked():
    """A 9x9 game in its marking phase, black (who passed first) proposing B5 dead."""
    black, white = UserFactory(), UserFactory()
    game = make_game(players=[black, white], variant="Go (9x9)")
    users = {1: black, 2: white}
    for i, point in enumerate([*WALLS, "PASS", "B5", "PASS", "PASS"]):
        move_play(game_id=game.pk, user=users[1 + i % 2], ply=i, points=[point])
    game_mark_dead(game_id=game.pk, user=black, ply=22, points=["B5"])
    return game, black, white


def test_a_go_page_carries_the_territory_and_the_dead_stones_by_colour(client):
    game, _black, white = go_game_marked()
    go = embedded_state(client.get(f"/games/{game.pk}/"))["go"]
    assert go["phase"] == "marking" and go["proposed_dead"] == ["B5"]
    # The count as proposed: B5 (still on the board) is a dead white stone in black's area.
    assert (go["score"]["white_dead"], go["score"]["black_dead"]) == (["B5"], [])
    territory = go["score"]["black_territory"]
    assert len(territory) == 27 and "B5" in territory
    assert len(go["score"]["white_territory"]) == 27
    game_decide(game_id=game.pk, user=white, ply=23, choice="accept")
    state = embedded_state(client.get(f"/games/{game.pk}/"))
    assert (state["end_reason"], state["board"]["rows"][4][1]) == ("score", ".")
    # Counted: B5 has left the board, and the state still says it was a white stone.
    assert (state["go"]["score"]["white_dead"], state["go"]["score"]["black_dead"]) == (["B5"], [])
    assert "B5" in state["go"]["score"]["black_territory"]
    assert client.get(f"/api/games/{game.pk}/").json()["go"] == state["go"]


def test_hints_are_offered_to_a_player_against_the_computer_only(client):
    human, bot = UserFactory(), computer()
    game = make_game(players=[human, bot])
    client.force_login(human)
    assert page_data(client, game)["hints"] is True
    client.force_login(UserFactory())  # a spectator
    assert page_data(client, game)["hints"] is False
    client.logout()
    assert page_data(client, game)["hints"] is False
    # Against a person, or in a rated game, the API refuses hints: no button.
    ann, bob = UserFactory(), UserFactory()
    client.force_login(ann)
    assert page_data(client, make_game(players=[ann, bob]))["hints"] is False
    assert page_data(client, make_game(players=[ann, computer(2)], rated=True))["hints"] is False
    # Nor once the game is over.
    game_resign(game_id=game.pk, user=human)
    client.force_login(human)
    assert page_data(client, game)["hints"] is False


def test_a_game_page_says_whether_the_game_was_analysed_and_offers_the_panel(client):
    ann, bob = UserFactory(), UserFactory()
    game = make_game(players=[ann, bob])
    assert page_data(client, game)["analysis"] is None
    game_resign(game_id=game.pk, user=bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert page_data(client, game)["analysis"] is None
    # The panel (shown by the script once the game is over) and where an anonymous viewer
    # signs in to ask for the analysis.
    assert f'data-login="/login/?next=/games/{game.pk}/"' in html
    assert 'id="analysis-note"' in html and 'aria-live="polite"' in html
    Analysis.objects.create(game=game, requested_by=ann, status=Analysis.Status.RUNNING)
    assert page_data(client, game)["analysis"] == "running"


def test_the_page_offers_the_analysis_only_for_games_the_computer_analyses(client):
    ann, bob, cy = UserFactory(), UserFactory(), UserFactory()
    assert page_data(client, make_game(players=[ann, bob]))["analysable"] is True
    assert page_data(client, make_game(players=[ann, bob], variant="Go (9x9)"))["analysable"]
    three = make_game(players=[ann, bob, cy])
    assert page_data(client, three)["analysable"] is False


def test_no_hints_are_offered_in_a_three_player_game_against_computers(client):
    human = UserFactory()
    game = make_game(players=[human, computer(1), computer(2)])
    client.force_login(human)
    assert page_data(client, game)["hints"] is False
    refused = client.get(f"/api/games/{game.pk}/hint")
    assert (refused.status_code, refused.json()["code"]) == (400, "analysis_unavailable")
