"""The home page, the new-game page and a game's page as the server renders them."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from games.clocks.timecontrol import TimeControl
from games.play import actions
from games.play.models import Game
from tests.factories import ChallengeFactory, UserFactory, make_game
from tests.web.pages import embedded_state

pytestmark = pytest.mark.django_db


def embedded_page(response) -> dict:
    match = re.search(
        rb'<script id="game-page" type="application/json">(.*?)</script>', response.content, re.S
    )
    assert match, "the page embeds its page settings"
    return json.loads(match.group(1))


def test_the_home_page_lists_a_game_being_played_with_a_link_to_it(client):
    game = make_game()
    page = client.get("/").content.decode()
    assert f'href="/games/{game.pk}/"' in page


def test_the_home_page_shows_open_challenges_and_accept_buttons_only_to_players(client):
    challenge = ChallengeFactory()
    assert f'data-api="challenges/{challenge.pk}/accept"' not in client.get("/").content.decode()
    client.force_login(UserFactory())
    assert f'data-api="challenges/{challenge.pk}/accept"' in client.get("/").content.decode()


def test_a_challenges_message_is_escaped(client):
    ChallengeFactory(message='<script>alert("x")</script>')
    page = client.get("/").content.decode()
    assert '<script>alert("x")</script>' not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_a_players_own_challenge_offers_cancel_not_accept(client):
    user = UserFactory()
    challenge = ChallengeFactory(created_by=user)
    client.force_login(user)
    page = client.get("/play/").content.decode()
    assert f'data-api="challenges/{challenge.pk}/cancel"' in page
    assert f'data-api="challenges/{challenge.pk}/accept"' not in page


def test_the_new_game_page_offers_every_game_and_the_computers(client):
    client.force_login(UserFactory())
    page = client.get("/play/").content.decode()
    for slug, variant in (
        ("pente", "Pente"),
        ("keryo-pente", "Keryo-Pente"),
        ("connect6", "Connect6"),
        ("go-9", "Go (9x9)"),
    ):
        assert f'<option value="{slug}">{variant}</option>' in page


def test_a_games_page_carries_the_state_the_api_gives(client):
    white, black = UserFactory(), UserFactory()
    game = make_game(players=[white, black])
    actions.move_play(game_id=game.pk, user=black, ply=game.ply, points=["A1"])
    response = client.get(f"/games/{game.pk}/")
    state = embedded_state(response)
    api = client.get(f"/api/games/{game.pk}/").json()
    assert state["ply"] == api["ply"] == 2
    assert state["board"]["rows"] == api["board"]["rows"]
    assert [m["name"] for m in state["moves"]] == ["K10", "A1"]


def test_a_players_seat_is_known_to_their_page_and_not_to_a_spectators(client):
    white, black = UserFactory(), UserFactory()
    game = make_game(players=[white, black])
    client.force_login(black)
    assert b'"my_seats": [2]' in client.get(f"/games/{game.pk}/").content
    client.force_login(UserFactory())
    assert b'"my_seats": []' in client.get(f"/games/{game.pk}/").content


def test_a_spectator_of_a_delayed_game_gets_the_delayed_position(client):
    white, black = UserFactory(), UserFactory()
    game = make_game(players=[white, black], spectator_delay=2)
    ply = game.ply
    for user, point in ((black, "A1"), (white, "K13"), (black, "A3")):
        actions.move_play(game_id=game.pk, user=user, ply=ply, points=[point])
        ply += 1
    assert embedded_state(client.get(f"/games/{game.pk}/"))["ply"] == ply - 2
    client.force_login(white)
    assert embedded_state(client.get(f"/games/{game.pk}/"))["ply"] == ply


def test_an_unknown_game_is_a_page_not_found(client):
    assert client.get("/games/999999/").status_code == 404


@pytest.mark.parametrize("path", ["/no-such-page/", "/games/999999/", "/players/nobody-at-all/"])
def test_a_page_that_does_not_exist_is_the_site_s_own_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    html = response.content.decode()
    assert 'id="not-found"' in html and 'class="top"' in html  # the site's page, its header
    assert path in html


def test_the_api_s_404_stays_json(client):
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_server_error_page_is_the_site_s_own_and_needs_no_request():
    html = render_to_string("500.html")
    assert "Something went wrong" in html and "site.css" in html


def test_a_refusal_page_is_the_site_s_own(rf):
    request = rf.get("/somewhere/")
    request.user = AnonymousUser()
    html = render_to_string("403.html", request=request)
    assert 'id="forbidden"' in html and "signing in may help" in html


@pytest.mark.parametrize(
    ("time_control", "shown"),
    [
        (TimeControl.live(5, 3), "live 5+3"),
        (TimeControl.turn(2), "turn-based, 2 days per move"),
        (TimeControl.untimed(), "untimed"),
    ],
)
def test_a_game_page_names_its_time_control(client, time_control, shown):
    game = make_game(time_control=time_control)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'<span id="time-control">{shown}</span>' in html


@pytest.mark.parametrize(
    ("time_control", "rated", "heading"),
    [
        # Rated Pente is always played with the tournament rule, which the title says too.
        (TimeControl.untimed(), True, "rated · untimed · tournament rule"),
        (TimeControl.turn(2), True, "rated · turn-based, 2 days per move · tournament rule"),
        (TimeControl.live(3, 2), True, "rated speed · live 3+2 · tournament rule"),
        (TimeControl.live(20, 0), True, "rated normal · live 20+0 · tournament rule"),
        (TimeControl.untimed(), False, "untimed"),
    ],
)
def test_a_game_page_title_says_each_fact_once(client, time_control, rated, heading):
    """The rating category is said only where the time control does not already say it (live:
    speed or normal); an untimed rated game is never 'rated untimed · untimed'."""
    game = make_game(time_control=time_control, rated=rated)
    page = client.get(f"/games/{game.pk}/").content.decode()
    title = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", title)).strip()
    assert words == f"Pente #{game.pk} · {heading}"


@pytest.mark.parametrize(
    ("options", "heading"),
    [
        ({"tournament_rule": True}, "untimed · tournament rule"),
        ({"adjacent_only": True}, "untimed · adjacent only"),
        (
            {"tournament_rule": True, "adjacent_only": True},
            "untimed · tournament rule · adjacent only",
        ),
    ],
)
def test_a_game_page_title_says_the_options_chosen_for_the_game(client, options, heading):
    """A player learns the game's rules from its page, not from a move refused."""
    game = make_game(**options)
    page = client.get(f"/games/{game.pk}/").content.decode()
    title = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    assert (
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", title)).strip()
        == f"Pente #{game.pk} · {heading}"
    )


def test_the_home_rankings_table_is_not_styled_as_the_site_header(client):
    from tests.ratings.factories import RatingFactory

    RatingFactory(user=UserFactory(username="leader"), rating=2000, results=30)
    html = client.get("/").content.decode()
    assert 'href="/players/leader/"' in html
    assert '<table class="top">' not in html and '<table class="top-board">' in html


def test_every_page_links_the_sites_own_favicon_which_is_served(client):
    page = client.get("/").content.decode()
    assert '<link rel="icon" type="image/svg+xml" href="/static/web/favicon.svg">' in page
    svg = b"".join(client.get("/static/web/favicon.svg").streaming_content)
    assert svg.startswith(b"<svg") and b"<circle" in svg


def test_your_games_say_whose_turn_and_the_time_left_my_turn_first(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    theirs = make_game(players=[alice, bob], time_control=TimeControl.live(5))
    mine = make_game(players=[bob, alice], time_control=TimeControl.turn(3))
    client.force_login(alice)
    page = client.get("/").content.decode()
    rows = re.findall(r'<li data-game-id="(\d+)"[^>]*>(.*?)</li>', page.split('id="my-games"')[1])
    assert [int(game_id) for game_id, _row in rows[:2]] == [mine.pk, theirs.pk]
    assert "Your turn" in rows[0][1] and re.search(r"\d days left", rows[0][1])
    assert "bob&#x27;s turn" in rows[1][1] and re.search(r">(4:[0-5]\d|5:00)<", rows[1][1])


def test_a_games_page_offers_its_players_a_rematch_and_nobody_else(client):
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    script = '<script type="module" src="/static/web/rematch.js"></script>'
    assert script not in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(UserFactory())
    assert script not in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert script in page and 'id="rematch"' in page
    assert embedded_page(client.get(f"/games/{game.pk}/"))["rematch"] is True


def test_an_imported_records_page_offers_no_rematch(client):
    alice = UserFactory()
    game = make_game(players=[alice, UserFactory()])
    Game.objects.filter(pk=game.pk).update(imported=True, status=Game.Status.ARCHIVED)
    client.force_login(alice)
    assert "rematch.js" not in client.get(f"/games/{game.pk}/").content.decode()
