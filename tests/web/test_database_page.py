"""The game database page: the API's game filters as a form, 50 games a page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.play.models import Game
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _ids(client, **params) -> list[int]:
    response = client.get("/database/", params)
    assert response.status_code == 200, response.content.decode()
    html = response.content.decode()
    table = html[html.index('id="games"') : html.index("</table>", html.index('id="games"'))]
    return [int(n) for n in re.findall(r'<a href="/games/(\d+)/">', table)]


def _api_ids(client, **params) -> list[int]:
    response = client.get("/api/games/", params)
    assert response.status_code == 200
    return [g["id"] for g in response.json()["results"]]


def test_the_database_lists_every_game_newest_first_with_links(client):
    first, second = GameFactory(), GameFactory()
    assert _ids(client) == [second.pk, first.pk]


def test_the_database_finds_the_games_of_a_player(client):
    alice = UserFactory(username="alice")
    hers = GameFactory(players=[alice, UserFactory()])
    GameFactory()
    assert _ids(client, player="alice") == [hers.pk]


def test_the_database_finds_the_games_between_two_players(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    together = GameFactory(players=[alice, bob])
    GameFactory(players=[alice, UserFactory()])
    assert _ids(client, player="alice", opponent="bob") == [together.pk]


def test_the_database_finds_the_wins_of_a_player(client):
    alice = UserFactory(username="alice")
    won = GameFactory(players=[alice, UserFactory()], status=Game.Status.FINISHED, winner_seats=[1])
    GameFactory(players=[alice, UserFactory()], status=Game.Status.FINISHED, winner_seats=[2])
    assert _ids(client, player="alice", result="win") == [won.pk]


def test_the_database_filters_by_game_status_and_rated(client):
    wanted = GameFactory(
        variant="Gomoku", status=Game.Status.FINISHED, rated=True, winner_seats=[1]
    )
    GameFactory(variant="Gomoku", status=Game.Status.IN_PROGRESS, rated=True)
    GameFactory(variant="Pente", status=Game.Status.FINISHED, rated=True, winner_seats=[1])
    GameFactory(variant="Gomoku", status=Game.Status.FINISHED, rated=False, winner_seats=[1])
    assert _ids(client, variant="Gomoku", status="finished", rated="true") == [wanted.pk]


def test_the_database_filters_by_dates(client):
    old = GameFactory(started_at=timezone.now() - timedelta(days=30))
    GameFactory()
    cutoff = (timezone.now() - timedelta(days=10)).date().isoformat()
    assert _ids(client, date_before=cutoff) == [old.pk]


def test_the_database_agrees_with_the_api(client):
    alice = UserFactory(username="alice")
    for _ in range(3):
        GameFactory(players=[alice, UserFactory()], status=Game.Status.FINISHED, winner_seats=[1])
    GameFactory(players=[alice, UserFactory()])
    GameFactory()
    for params in ({}, {"player": "alice"}, {"player": "alice", "status": "finished"}):
        assert _ids(client, **params) == _api_ids(client, **params)


def test_the_database_shows_players_result_and_moves(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    GameFactory(players=[alice, bob], status=Game.Status.FINISHED, winner_seats=[2], ply=23)
    html = client.get("/database/").content.decode()
    row = html[
        html.index("<tr data-game-id=") : html.index("</tr>", html.index("<tr data-game-id="))
    ]
    assert 'href="/players/alice/"' in row and 'href="/players/bob/"' in row
    assert '<span class="name" title="bob">bob</span> won' in row
    assert '<td class="num wide">23</td>' in row


def test_a_long_winners_name_is_cut_like_the_players_so_the_table_fits_a_phone(client):
    """A name with no space would make the result column as wide as itself."""
    long = "W" * 150
    GameFactory(
        players=[UserFactory(username=long), UserFactory()],
        status=Game.Status.FINISHED,
        winner_seats=[1],
    )
    html = client.get("/database/").content.decode()
    assert f'<span class="name" title="{long}">{long}</span> won' in html


def test_the_database_pages_by_50_and_keeps_the_search_in_the_pager(client):
    alice = UserFactory(username="alice")
    games = [GameFactory(players=[alice, UserFactory()]) for _ in range(52)]
    html = client.get("/database/", {"player": "alice"}).content.decode()
    assert len(_ids(client, player="alice")) == 50
    link = re.search(r'id="next-page" href="\?([^"]+)"', html).group(1).replace("&amp;", "&")
    assert link == "player=alice&page=2"
    assert _ids(client, player="alice", page="2") == [games[1].pk, games[0].pk]


def test_the_database_form_keeps_the_search(client):
    html = client.get("/database/", {"player": "alice", "status": "finished"}).content.decode()
    assert 'name="player" id="db-player" value="alice"' in html
    assert '<option value="finished" selected>' in html


def test_a_result_without_a_player_is_refused_with_the_reason(client):
    response = client.get("/database/", {"result": "win"})
    assert response.status_code == 400
    assert "The result filter needs a player" in response.content.decode()


def test_an_unknown_game_is_refused_with_the_reason(client):
    response = client.get("/database/", {"variant": "Chess"})
    assert response.status_code == 400
    assert "There is no game called" in response.content.decode()


def test_an_unknown_game_is_said_beside_the_other_fields_problems(client):
    response = client.get("/database/", {"variant": "Chess", "result": "maybe", "rated": "x"})
    html = response.content.decode()
    assert response.status_code == 400 and html.count('class="error"') == 3
    assert "There is no game called" in html and "result:" in html and "rated:" in html


def test_a_searched_name_with_html_is_escaped(client):
    html = client.get("/database/", {"player": '"><script>alert(1)</script>'}).content.decode()
    assert "<script>alert(1)</script>" not in html


def test_the_import_page_is_linked_from_the_database_and_asks_a_visitor_to_sign_in(client):
    assert 'href="/database/import/"' in client.get("/database/").content.decode()
    response = client.get("/database/import/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_import_page_offers_a_file_or_pasted_text(client):
    client.force_login(UserFactory())
    html = client.get("/database/import/").content.decode()
    assert 'id="import-file"' in html and 'id="import-text"' in html
    assert 'id="import-refusals"' in html
    assert '<script type="module" src="/static/web/import.js"></script>' in html
