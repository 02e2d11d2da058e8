"""The player's page: ratings with history charts, recent games, statistics, crowns, and the
challenge link, and ignoring the player."""

from __future__ import annotations

import re

import pytest

from games.play.models import Game
from live.services import ignore_add
from ratings.models import ComputerRating
from tests.factories import GameFactory, UserFactory
from tests.ratings.factories import CrownFactory, RatingFactory, play_set

pytestmark = pytest.mark.django_db


def _section(html: str, element_id: str) -> str:
    """The HTML from the element with ``element_id`` to the end of its table."""
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</table>", start)]


def test_an_unknown_player_is_a_404(client):
    assert client.get("/players/nobody-at-all/").status_code == 404


def test_a_players_page_lists_their_finished_game_with_a_link_to_it(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = GameFactory(players=[alice, bob], status=Game.Status.FINISHED, winner_seats=[1])
    html = client.get("/players/alice/").content.decode()
    recent = _section(html, "recent-games")
    assert f'href="/games/{game.pk}/"' in recent
    assert 'href="/players/bob/"' in recent
    assert "win" in recent


def test_the_recent_games_show_the_result_for_the_player_whose_page_it_is(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    GameFactory(players=[alice, bob], status=Game.Status.FINISHED, winner_seats=[1])
    recent = _section(client.get("/players/bob/").content.decode(), "recent-games")
    assert re.search(r'class="result">loss<', recent)


def test_the_recent_games_are_newest_first(client):
    alice = UserFactory(username="alice")
    older = GameFactory(players=[alice, UserFactory()])
    newer = GameFactory(players=[alice, UserFactory()])
    recent = _section(client.get("/players/alice/").content.decode(), "recent-games")
    assert recent.index(f"/games/{newer.pk}/") < recent.index(f"/games/{older.pk}/")


def test_a_players_page_shows_each_rating_with_its_history_chart(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    play_set(alice, bob, "player1")
    play_set(alice, bob, "player1")
    ratings = _section(client.get("/players/alice/").content.decode(), "ratings")
    assert 'data-game="Pente"' in ratings
    assert '<svg class="chart"' in ratings and "<polyline" in ratings
    assert "2/0/0" in ratings


def test_the_statistics_say_which_totals_count_games_and_which_rated_sets(client):
    """A set won 2-0 and a set drawn 1-1: three games won and one lost, but one rated set won
    and one drawn; each row says which it counts."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    play_set(alice, bob, "player1")
    play_set(alice, bob, "draw")
    stats = _section(client.get("/players/alice/").content.decode(), "stats")
    rows = dict(re.findall(r"<th>(.*?)</th><td[^>]*>(.*?)</td>", stats))
    assert rows == {
        "Games played": "4",
        "Games won / lost / drawn": "3 / 1 / 0",
        "Rated sets played": "2",
        "Rated sets won / lost / drawn": "1 / 0 / 1",
        "Best winning streak (rated sets)": "1",
        "Games aborted by not moving": "0",
    }


def test_a_provisional_rating_is_marked(client):
    RatingFactory(user=UserFactory(username="newcomer"), results=3)
    ratings = _section(client.get("/players/newcomer/").content.decode(), "ratings")
    assert "provisional" in ratings


def test_an_established_rating_is_not_marked_provisional(client):
    RatingFactory(user=UserFactory(username="veteran"), results=40, rating=1812.4)
    ratings = _section(client.get("/players/veteran/").content.decode(), "ratings")
    assert "provisional" not in ratings and "1812" in ratings


def test_a_players_crowns_link_to_their_tournaments(client):
    winner = UserFactory(username="champ")
    CrownFactory(user=winner, tournament_id=41, tournament_name="Winter Cup")
    html = client.get("/players/champ/").content.decode()
    assert 'href="/tournaments/41/"' in html and "Winter Cup" in html


def test_a_signed_in_visitor_sees_a_challenge_link_to_the_play_page(client):
    UserFactory(username="alice")
    client.force_login(UserFactory(username="visitor"))
    html = client.get("/players/alice/").content.decode()
    assert 'href="/play/?invite=alice"' in html and "Challenge alice" in html


def test_a_player_sees_no_challenge_link_on_their_own_page(client):
    alice = UserFactory(username="alice")
    client.force_login(alice)
    assert "?invite=" not in client.get("/players/alice/").content.decode()


def test_a_stranger_sees_no_challenge_link(client):
    UserFactory(username="alice")
    assert "?invite=" not in client.get("/players/alice/").content.decode()


def test_a_crown_name_with_html_is_escaped_on_the_player_page(client):
    winner = UserFactory(username="champ")
    CrownFactory(user=winner, tournament_name="<script>alert(1)</script>")
    html = client.get("/players/champ/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_the_player_name_is_matched_without_regard_to_case(client):
    UserFactory(username="Alice")
    response = client.get("/players/alice/")
    assert response.status_code == 200 and "Alice" in response.content.decode()


def test_a_computer_opponents_page_shows_its_ratings_against_people(client):
    bot = UserFactory(username="computer2", is_computer=True, bot_level=2)
    ComputerRating.objects.create(
        user=bot, variant="Gomoku", category="speed", rating=1650.6, results=1, wins=1
    )
    html = client.get("/players/computer2/").content.decode()
    assert "No rated results yet." not in html
    start = html.index('data-game="Gomoku"', html.index('id="computer-ratings"'))
    row = html[start : html.index("</tr>", start)]
    assert "speed" in row and ">1651<" in row and "1/0/0" in row


def test_a_signed_in_visitor_may_ignore_a_player_from_their_page(client):
    UserFactory(username="troll")
    client.force_login(UserFactory(username="alice"))
    html = client.get("/players/troll/").content.decode()
    button = re.search(r'<button id="ignore"[^>]*>', html).group(0)
    assert 'data-api="me/ignores"' in button and "troll" in button
    assert 'id="challenge"' in html and 'id="ignored-note"' not in html


def test_no_ignore_button_on_ones_own_page_a_computers_or_for_a_stranger(client):
    UserFactory(username="computer2", is_computer=True, bot_level=2)
    alice = UserFactory(username="alice")
    assert 'id="ignore"' not in client.get("/players/alice/").content.decode()
    client.force_login(alice)
    for name in ("alice", "computer2"):
        assert 'id="ignore"' not in client.get(f"/players/{name}/").content.decode()


def test_an_ignored_players_page_says_so_offers_to_undo_it_and_no_challenge(client):
    alice = UserFactory(username="alice")
    UserFactory(username="troll")
    ignore_add(user=alice, username="troll")
    client.force_login(alice)
    html = client.get("/players/troll/").content.decode()
    assert re.search(
        r'<button id="unignore"[^>]*data-api="me/ignores/troll" data-method="DELETE"', html
    )
    assert 'id="ignored-note"' in html and 'id="challenge"' not in html


def test_a_players_page_draws_the_rating_history_chart_with_the_vendored_library(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    play_set(alice, bob, "player1")
    html = client.get("/players/alice/").content.decode()
    history = html[html.index('id="rating-history"') :]
    assert 'data-player="alice"' in history
    assert '<option value="Pente|normal">Pente · normal</option>' in history
    assert 'data-chart="Pente|normal"' in _section(html, "ratings")
    assert '<script src="/static/vendor/uplot/uPlot.iife.min.js"></script>' in html
    assert '<script type="module" src="/static/web/rating_chart.js"></script>' in html
    script = b"".join(client.get("/static/vendor/uplot/uPlot.iife.min.js").streaming_content)
    assert b"uPlot" in script


def test_a_player_without_ratings_loads_no_chart(client):
    UserFactory(username="alice")
    html = client.get("/players/alice/").content.decode()
    assert "uPlot" not in html and 'id="rating-history"' not in html


def test_a_players_page_shows_their_abort_count_and_an_aborted_game_as_aborted(client):
    alice, bob = UserFactory(username="alice", aborts=3), UserFactory(username="bob")
    GameFactory(
        players=[alice, bob],
        status=Game.Status.CANCELLED,
        end_reason="aborted",
        absent_seats=[1],
        finished_at="2025-01-02T10:30:00Z",
    )
    html = client.get("/players/alice/").content.decode()
    assert re.search(r'id="aborts">3<', _section(html, "stats"))
    assert re.search(r'class="result">aborted<', _section(html, "recent-games"))


def test_a_double_forfeit_is_not_called_a_draw(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    GameFactory(
        players=[alice, bob],
        status=Game.Status.FINISHED,
        end_reason="forfeit",
        winner_seats=[],
        finished_at="2025-01-02T10:30:00Z",
    )
    recent = _section(client.get("/players/alice/").content.decode(), "recent-games")
    assert re.search(r'class="result">double forfeit<', recent)
