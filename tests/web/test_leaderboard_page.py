"""The leaderboards page: one game and category, best first, filters, keyset pages."""

from __future__ import annotations

import re

import pytest

from ratings.models import ComputerRating
from tests.factories import UserFactory
from tests.ratings.factories import RatingFactory

pytestmark = pytest.mark.django_db


def _names(client, **params) -> list[str]:
    response = client.get("/leaderboards/", params)
    assert response.status_code == 200
    html = response.content.decode()
    table = html[html.index('id="leaderboard"') : html.index("</table>")]
    return re.findall(r'<a [^>]*href="/players/[^"]+/">([^<]+)</a>', table)


def _rated(name: str, **fields):
    return RatingFactory(user=UserFactory(username=name), **fields)


def test_the_leaderboard_lists_established_players_best_first(client):
    _rated("second", rating=1900, results=30)
    _rated("first", rating=2100, results=40)
    assert _names(client) == ["first", "second"]


def test_the_leaderboard_shows_rank_rating_games_and_wld(client):
    _rated("first", rating=2100.26, results=40, wins=30, losses=8, draws=2)
    html = client.get("/leaderboards/").content.decode()
    link = html.index('href="/players/first/"')
    row = html[html.rindex("<tr>", 0, link) : html.index("</tr>", link)]
    # Whole points, as everywhere else on the site.
    assert ">1<" in row and ">2100<" in row and ">40<" in row and "30/8/2" in row


def test_the_leaderboard_hides_provisional_players_unless_asked(client):
    _rated("veteran", rating=1900, results=30)
    _rated("newcomer", rating=2500, results=3)
    assert _names(client) == ["veteran"]
    assert _names(client, provisional="1") == ["newcomer", "veteran"]


def test_the_leaderboard_hides_computers_unless_asked(client):
    _rated("human", rating=1900, results=30)
    _rated("robot", rating=2400, results=30, is_computer=True)
    assert _names(client) == ["human"]
    assert _names(client, computers="1") == ["robot", "human"]


def test_the_leaderboard_shows_the_game_and_category_asked_for(client):
    _rated("pente-normal", rating=1900, results=30)
    _rated("keryo-speed", rating=1900, results=30, variant="Keryo-Pente", category="speed")
    assert _names(client, variant="Keryo-Pente", category="speed") == ["keryo-speed"]


def test_the_leaderboard_form_keeps_the_choices_made(client):
    html = client.get(
        "/leaderboards/", {"variant": "Gomoku", "category": "turn", "provisional": "1"}
    ).content.decode()
    assert '<option value="Gomoku" selected>' in html
    assert '<option value="turn" selected>' in html
    assert re.search(r'name="provisional" value="1" id="lb-provisional" checked', html)


def test_the_next_page_link_continues_after_the_last_line(client):
    for i in range(55):
        _rated(f"p{i:02d}", rating=2000 - i, results=30)
    response = client.get("/leaderboards/")
    html = response.content.decode()
    assert len(_names(client)) == 50
    link = re.search(r'id="next-page" rel="next" href="([^"]+)"', html).group(1)
    second = client.get("/leaderboards/" + link.replace("&amp;", "&")).content.decode()
    table = second[second.index('id="leaderboard"') : second.index("</table>")]
    names = re.findall(r'<a [^>]*href="/players/[^"]+/">([^<]+)</a>', table)
    assert names == [f"p{i:02d}" for i in range(50, 55)]
    assert '<td class="num">51</td>' in table
    assert 'id="next-page"' not in second


def test_players_with_equal_ratings_share_a_rank(client):
    _rated("a", rating=1900, results=30)
    _rated("b", rating=1900, results=30)
    html = client.get("/leaderboards/").content.decode()
    assert html.count('<tr><td class="num">1</td>') == 2


def test_an_unknown_game_or_category_is_said_and_answered_400_without_a_board(client):
    _rated("first", rating=2100, results=40)
    for params in ({"variant": "Chess"}, {"category": "blitz"}):
        response = client.get("/leaderboards/", params)
        assert response.status_code == 400
        html = response.content.decode()
        assert 'role="alert"' in html and "There is no" in html
        assert 'id="leaderboard"' not in html and "first" not in html


def test_the_server_computers_ratings_show_when_computers_are_asked_for(client):
    bot = UserFactory(username="computer3", is_computer=True, bot_level=3)
    ComputerRating.objects.create(
        user=bot, variant="Pente", category="normal", rating=1712.4, results=3, wins=2, losses=1
    )
    assert 'id="computer-leaderboard"' not in client.get("/leaderboards/").content.decode()
    html = client.get("/leaderboards/", {"computers": "1"}).content.decode()
    table = html[html.index('id="computer-leaderboard"') :]
    table = table[: table.index("</table>")]
    assert 'href="/players/computer3/">computer3</a>' in table
    assert ">1712<" in table and "2/1/0" in table


def test_a_bad_cursor_shows_the_first_page(client):
    _rated("first", rating=2100, results=40)
    assert _names(client, after="not-a-cursor") == ["first"]


def test_an_empty_leaderboard_says_so(client):
    assert "Nobody is ranked here yet" in client.get("/leaderboards/").content.decode()


def test_a_name_with_html_is_escaped_on_the_leaderboard(client):
    _rated("<em>x", rating=1900, results=30)
    html = client.get("/leaderboards/").content.decode()
    assert "<em>x" not in html
    assert 'title="&lt;em&gt;x" href="/players/%3Cem%3Ex/">&lt;em&gt;x</a>' in html


def test_a_long_name_is_cut_on_the_leaderboard_and_whole_in_its_title(client):
    """``td .name`` (site.css) cuts a name with an ellipsis, so that a long one does not make
    the table scroll sideways on a phone; the title holds it whole."""
    name = "L" * 150
    _rated(name, rating=1900, results=30)
    html = client.get("/leaderboards/").content.decode()
    assert f'<a class="name" title="{name}" href="/players/{name}/">{name}</a>' in html


def test_a_provisional_player_is_marked_when_shown(client):
    _rated("newcomer", rating=1900, results=3)
    html = client.get("/leaderboards/", {"provisional": "1"}).content.decode()
    row = html[
        html.index('href="/players/newcomer/"') : html.index("</tr>", html.index("newcomer"))
    ]
    assert 'class="provisional' in row


def test_untimed_is_the_normal_board_as_in_the_api(client):
    """Untimed games are rated in the normal category: the page takes the word the challenges
    and games give their category, as the API does."""
    _rated("steady", rating=1700, results=30)
    response = client.get("/leaderboards/", {"category": "untimed"})
    assert response.status_code == 200
    assert _names(client, category="untimed") == _names(client, category="normal") == ["steady"]
