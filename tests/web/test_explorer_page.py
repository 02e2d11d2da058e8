"""The explorer's page: a board to click through an opening, the moves played from the position
with their results, the games that reached it, and its refusals."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.explorer.support import record, store
from web.views import explorer as explorer_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def database():
    """After the centre stone: L11 twice (player 1 won the first, player 2 the second), K11
    once, and one game that stopped at the centre stone."""
    return store(
        record("1. K10 L11 2. N13 Resign 1-0", p1="ann", p2="bob", Rated="Y"),
        record("1. K10 L11 2. N10 L9 3. Resign 0-1", p1="cid", p2="ann", Rated="N"),
        record("1. K10 K11 2. N13 Resign 1-0", p1="eve", p2="ann"),
    )


def _page(client, expect: int = 200, **params) -> str:
    response = client.get("/database/explorer/", params)
    assert response.status_code == expect, response.content.decode()[:500]
    return response.content.decode()


def _table(html: str, element_id: str) -> str:
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</table>", start)]


def _moves(html: str) -> dict[str, int]:
    """The next moves' table: {move: games}."""
    rows = re.findall(
        r'<tr data-move="([^"]+)">\s*<td><a[^>]*>[^<]+</a></td>\s*<td class="num">(\d+)</td>',
        _table(html, "explorer-moves"),
    )
    return {name: int(games) for name, games in rows}


def _links(html: str) -> dict[str, str]:
    """The board's links: {point: address}."""
    return {
        point: unescape(href)
        for href, point in re.findall(
            r'<a class="point" href="([^"]+)" data-point="([^"]+)">', html
        )
    }


def test_the_start_shows_the_moves_played_after_the_centre_stone_with_their_games(client, database):
    html = _page(client)
    # L11 and K11 are the stored moves (a game turned or mirrored counts as the same move)
    assert _moves(html) == {"J11": 2, "K11": 1}  # L11 named as its first symmetric twin
    assert re.search(r"3 games: white won 2, black won 1, 0 drawn", html)
    table = _table(html, "games")
    assert sorted(int(n) for n in re.findall(r'<a href="/games/(\d+)/">', table)) == database


def test_every_legal_point_of_the_board_links_one_move_further(client, database):
    links = _links(_page(client))
    assert "K10" not in links  # taken by the centre stone
    assert len(links) == 19 * 19 - 1
    assert links["A1"] == "?game=Pente&moves=A1"
    seen = re.findall(
        r'<a class="point"[^>]*data-point="([^"]+)"><title>[^<]*</title><circle class="seen"',
        _page(client),
    )
    assert sorted(seen) == sorted(_moves(_page(client)))


def test_a_clicked_path_shows_its_position_and_the_way_back(client, database):
    html = _page(client, moves="K10,L11")
    assert _moves(html) == {"N13": 1, "N10": 1}
    assert 'data-point="L11"' in html and 'class="stone colour2"' in html
    back = re.search(r'id="explorer-back" href="([^"]+)"', html)
    assert back and unescape(back.group(1)) == "?game=Pente&moves=K10"
    assert _links(html)["N13"] == "?game=Pente&moves=K10%2CL11%2CN13"


def test_the_filters_narrow_the_figures_and_stay_in_every_link(client, database):
    html = _page(client, player="eve")
    assert _moves(html) == {"K11": 1}
    assert _links(html)["A1"] == "?game=Pente&moves=A1&player=eve"
    assert _moves(_page(client, rated="true")) == {"J11": 1}


def test_an_illegal_move_in_the_address_is_explained_and_the_start_is_shown(client, database):
    html = _page(client, expect=400, moves="K10,K10")
    assert re.search(r'class="error" role="alert">Move 2 \(K10\)', html)
    assert len(_links(html)) == 19 * 19 - 1


def test_an_unknown_game_or_rated_value_is_explained(client):
    assert "There is no game called" in unescape(_page(client, expect=400, game="Chess"))
    assert "rated is true or false." in _page(client, expect=400, rated="maybe")


def test_go_boards_link_their_points_and_offer_a_pass(client):
    html = _page(client, game="Go (9x9)")
    assert len(_links(html)) == 81
    assert re.search(r'href="\?game=Go\+%289x9%29&amp;moves=pass">pass</a>', html)


def test_after_two_passes_a_go_board_offers_no_move_and_says_why(client):
    store(record("D4 F5 PASS PASS", game="Go (9x9)"))
    html = _page(client, game="Go (9x9)", moves="D4,F5,pass,pass")
    assert _links(html) == {} and 'id="explorer-decisions"' not in html
    assert "went on to mark their dead stones" in html
    assert "No stored game went on" not in html


def test_the_games_list_pages_on_to_older_games(client, monkeypatch):
    monkeypatch.setattr(explorer_page, "PAGE_SIZE", 2)
    ids = store(*(record("1. K10 L11 2. N13 Resign 1-0", p1=f"p{i}", p2="q") for i in range(3)))
    html = _page(client)
    older = re.search(r'id="explorer-older" href="([^"]+)"', html)
    assert older
    rest = client.get("/database/explorer/" + unescape(older.group(1))).content.decode()
    shown = [int(n) for n in re.findall(r'<a href="/games/(\d+)/">', _table(rest, "games"))]
    assert shown == [min(ids)]


def test_the_database_page_links_to_the_explorer(client):
    html = client.get("/database/").content.decode()
    assert 'href="/database/explorer/"' in html


def test_a_position_given_by_its_stones_shows_its_games_on_a_board_that_links_nowhere(client):
    # K10 [L10 M10] N10: N10 captures the pair; then O12.
    (game_id,) = store(record("K10 L10 N13 M10 N10 O12", p1="ann", p2="bob"))
    html = _page(client, position="K10,N13,N10/", captures="2,0", to_move="2")
    assert 'id="explorer-stones"' in html and _links(html) == {}
    assert _moves(html) == {}  # the move seen is listed without a link: no moves lead on
    assert re.search(r'<tr data-move="O12">\s*<td>O12</td>', html)
    assert f'<a href="/games/{game_id}/">' in _table(html, "games")


def test_a_capture_count_no_game_has_is_explained_above_the_board(client):
    html = unescape(_page(client, expect=400, position="K10/L11", captures="3,0"))
    assert re.search(r'class="error" role="alert">Pente captures stones in runs of 2', html)
    assert len(_links(html)) == 19 * 19 - 1  # the start, to click through again


def test_captures_without_a_position_are_explained(client):
    html = _page(client, expect=400, moves="K10,L11", captures="2,0")
    assert "captures and to_move go with position." in html


def test_moves_and_a_position_together_are_explained(client):
    html = _page(client, expect=400, moves="K10,L11", position="K10/L11")
    assert "Give either moves or position, not both." in html
