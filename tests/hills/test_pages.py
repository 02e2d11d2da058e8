"""The hill pages, and the crown beside a king's name on the hill, the leaderboard, the
player's page, the game page and the tournament page."""

from __future__ import annotations

import json
import re

import pytest

from games.play.models import Game
from tests.clients import page_client_for
from tests.factories import UserFactory
from tests.hills.helpers import members, play, start_set
from tests.tournaments.support import make_tournament
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_the_hills_page_lists_every_hill():
    page = page_client_for().get("/hills/")
    assert page.status_code == 200
    assert b'data-hill="pente-turn"' in page.content and b'data-hill="go-9-live"' in page.content


def test_a_hill_page_draws_the_staircase_top_first_with_the_king_crowned():
    alice, bob, carol = members(1, 1, 1)
    play(alice, bob)
    page = page_client_for(carol).get("/hills/pente-turn/").content.decode()
    assert page.index('data-step="2"') < page.index('data-step="1"')
    top = page[page.index('data-step="2"') : page.index('data-step="1"')]
    assert alice.username in top and 'class="crown crown-1"' in top
    # Carol may challenge Alice (one step up) and Bob; not herself.
    assert f'data-opponent="{alice.username}"' in page
    assert f'data-opponent="{carol.username}"' not in page
    assert 'id="hill-leave"' in page
    steps = page_client_for().get("/hills/pente-turn/steps/").content.decode()
    assert steps.lstrip().startswith("<ol") and "crown" in steps


def test_a_stranger_sees_the_join_button_and_no_challenges():
    members(1, 1)
    page = page_client_for(UserFactory()).get("/hills/pente-turn/").content.decode()
    assert 'id="hill-join"' in page and "data-opponent" not in page


def test_an_unknown_hill_is_a_404_page():
    assert page_client_for().get("/hills/pente-weekly/").status_code == 404


def test_the_crown_on_the_leaderboard_the_player_page_and_the_game_page():
    alice, bob = members(1, 1)
    play(alice, bob)
    board = page_client_for().get("/leaderboards/?variant=Pente&category=turn&provisional=1")
    assert board.status_code == 200
    line = next(row for row in board.content.decode().split("<tr") if alice.username in row)
    assert "crown" in line
    assert "crown" not in next(r for r in board.content.decode().split("<tr") if bob.username in r)
    assert 'class="crown' in page_client_for().get(f"/players/{alice.username}/").content.decode()
    home = page_client_for().get("/").content.decode()  # the top of Pente's turn-based rankings
    assert re.search(rf">{alice.username}</a><span class=\"crown crown-1\"", home)
    assert not re.search(rf">{bob.username}</a><span class=\"crown", home)
    game_set = start_set(bob, alice)
    game = Game.objects.filter(game_set=game_set).first()
    page = page_client_for().get(f"/games/{game.pk}/").content.decode()
    start = page.index('id="game-page"')
    data = json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])
    assert data["crowns"] == {alice.username: 1}


def test_the_crown_beside_a_kings_name_on_a_tournament_page():
    alice, bob = members(1, 1)
    play(alice, bob)
    t = make_tournament(players=1, start=False)
    for user in (alice, bob):
        tournament_services.tournament_join(tournament_id=t.pk, user=user)
    page = page_client_for().get(f"/tournaments/{t.pk}/").content.decode()
    assert re.search(rf">{alice.username}</a><span class=\"crown crown-1\"", page)
    assert not re.search(rf">{bob.username}</a><span class=\"crown", page)
