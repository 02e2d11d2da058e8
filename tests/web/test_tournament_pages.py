"""The tournament pages: the list, the new-tournament form, and a tournament's page with its
buttons, standings, rounds and bracket picture."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.support import (
    finish_match_games,
    jobs_run,
    make_tournament,
    nobody_comes,
)
from tournaments import services
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def _page(client, t: Tournament) -> str:
    response = client.get(f"/tournaments/{t.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _form(**extra) -> dict[str, str]:
    start = timezone.now() + timedelta(days=2)  # UTC: the time zone of a new user
    return {
        "name": "Spring Swiss",
        "variant": "Pente",
        "format": "swiss",
        "rated": "on",
        "time_control": "turn",
        "days_per_move": "3",
        "start_at": start.strftime("%Y-%m-%dT%H:%M"),
        "cycles": "1",
        "min_rated_results": "0",
        "spectator_delay": "0",
        **extra,
    }


# --- the list -----------------------------------------------------------------------------


def test_the_list_links_each_tournament_with_its_game_format_and_status(client):
    t = make_tournament(players=0, start=False, name="Autumn Open", format="round_robin")
    html = client.get("/tournaments/").content.decode()
    table = html[html.index('id="tournaments"') : html.index("</table>")]
    assert f'href="/tournaments/{t.pk}/">Autumn Open</a>' in table
    assert "Pente" in table and "Round Robin" in table and "Registration" in table


def test_the_list_gives_a_started_tournament_s_start_not_the_one_planned(client):
    planned = timezone.now() + timedelta(days=3)
    t = make_tournament(players=2, name="Early Bird", start_at=planned)  # started now
    html = client.get("/tournaments/").content.decode()
    row = html[html.index("Early Bird") :]
    row = row[: row.index("</tr>")]
    assert t.started_at.strftime("%Y-%m-%d %H:%M") in row
    assert planned.strftime("%Y-%m-%d") not in row


def test_the_list_keeps_one_status_when_asked(client):
    make_tournament(players=0, start=False, name="Still Open")
    make_tournament(players=2, name="Under Way")
    html = client.get("/tournaments/", {"status": "running"}).content.decode()
    assert "Under Way" in html and "Still Open" not in html


def test_a_signed_in_visitor_sees_the_new_tournament_link(client):
    client.force_login(UserFactory())
    assert 'href="/tournaments/new/"' in client.get("/tournaments/").content.decode()


def test_a_stranger_sees_no_new_tournament_link(client):
    assert 'href="/tournaments/new/"' not in client.get("/tournaments/").content.decode()


def test_a_tournament_name_with_html_is_escaped_in_the_list_and_on_its_page(client):
    t = make_tournament(players=0, start=False, name="<script>alert(1)</script>")
    for html in (client.get("/tournaments/").content.decode(), _page(client, t)):
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- a new tournament ---------------------------------------------------------------------


def test_a_stranger_cannot_open_the_new_tournament_page(client):
    response = client.get("/tournaments/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_a_signed_in_player_gets_the_new_tournament_form(client):
    client.force_login(UserFactory())
    response = client.get("/tournaments/new/")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="tournament-form"' in html
    assert 'name="start_at"' in html and 'value="double_elimination"' in html


def test_the_new_tournament_form_creates_one_and_goes_to_its_page(client):
    organiser = UserFactory()
    client.force_login(organiser)
    response = client.post("/tournaments/new/", _form(name="Spring Swiss"))
    t = Tournament.objects.get(name="Spring Swiss")
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/"
    assert t.organiser == organiser and t.days_per_move == 3 and t.rated


def test_the_new_tournament_form_takes_late_entries_with_their_points(client):
    client.force_login(UserFactory())
    client.post(
        "/tournaments/new/",
        _form(name="Late Open", late_entries="on", late_entry_points="0.5"),
    )
    t = Tournament.objects.get(name="Late Open")
    assert t.late_entries and t.late_entry_points == 0.5


def test_the_new_tournament_form_creates_a_live_elimination(client):
    client.force_login(UserFactory())
    client.post(
        "/tournaments/new/",
        _form(
            name="Blitz Cup",
            format="double_elimination",
            time_control="live",
            initial_minutes="5",
            increment_seconds="3",
        ),
    )
    t = Tournament.objects.get(name="Blitz Cup")
    assert (t.format, t.time_control, t.initial_minutes, t.increment_seconds) == (
        "double_elimination",
        "live",
        5,
        3,
    )


def test_the_new_tournament_form_ignores_the_fields_of_another_format(client):
    """Fields the page hides for the format chosen (a Swiss's rounds and late entries, a round
    robin's cycles) keep whatever was typed before the format changed: they are not taken."""
    client.force_login(UserFactory())
    response = client.post(
        "/tournaments/new/",
        _form(
            name="Robin",
            format="round_robin",
            rounds="5",
            late_entries="on",
            late_entry_points="1",
            cycles="2",
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Robin")
    assert (t.cycles, t.late_entries, t.rounds) == (2, False, None)
    client.post("/tournaments/new/", _form(name="Swiss Two", cycles="2", rounds="4"))
    t = Tournament.objects.get(name="Swiss Two")
    assert (t.cycles, t.rounds) == (1, 4)


def test_a_start_in_the_past_is_refused_in_words_for_people_beside_its_field(client):
    client.force_login(UserFactory())
    past = (timezone.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post("/tournaments/new/", _form(start_at=past))
    assert response.status_code == 200
    html = response.content.decode()
    assert "The start must be in the future." in html and "start_at must" not in html
    assert not Tournament.objects.exists()


def test_tournament_times_are_shown_in_the_viewers_time_zone_which_is_named(client):
    t = make_tournament(players=0, start=False, name="Zoned Open")
    t.start_at = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
    t.save(update_fields=["start_at"])
    assert "starts 2031-01-10 12:00 UTC" in _page(client, t)
    client.force_login(UserFactory(time_zone="Asia/Tokyo"))
    assert "starts 2031-01-10 21:00 Asia/Tokyo" in _page(client, t)
    listing = client.get("/tournaments/").content.decode()
    assert "2031-01-10 21:00" in listing and "Times are in Asia/Tokyo" in listing


def test_the_new_tournament_form_reads_the_start_in_the_organisers_time_zone(client):
    organiser = UserFactory(time_zone="Asia/Tokyo")
    client.force_login(organiser)
    client.post("/tournaments/new/", _form(name="Tokyo", start_at="2099-01-02T09:00"))
    start = Tournament.objects.get(name="Tokyo").start_at
    assert (start.year, start.month, start.day, start.hour) == (2099, 1, 2, 0)


# --- a tournament's page ------------------------------------------------------------------


def test_an_unknown_tournament_is_a_404(client):
    assert client.get("/tournaments/999999/").status_code == 404


def test_a_tournament_page_shows_its_facts(client):
    t = make_tournament(players=0, start=False, name="Facts Open", format="swiss")
    html = _page(client, t)
    assert "Facts Open" in html and "Swiss" in html and "turn-based, 3 days per move" in html
    assert f'href="/players/{t.organiser.username}/"' in html


def test_a_signed_in_player_sees_a_join_button_that_posts_to_the_api(client):
    t = make_tournament(players=0, start=False)
    client.force_login(UserFactory())
    html = _page(client, t)
    assert f'data-api="tournaments/{t.pk}/join"' in html
    assert client.post(f"/api/tournaments/{t.pk}/join").status_code == 201


def test_a_registered_player_sees_a_withdraw_button_and_no_join_button(client):
    t = make_tournament(players=0, start=False)
    player = UserFactory()
    client.force_login(player)
    client.post(f"/api/tournaments/{t.pk}/join")
    html = _page(client, t)
    assert f'data-api="tournaments/{t.pk}/withdraw"' in html
    assert f'data-api="tournaments/{t.pk}/join"' not in html


def test_the_organiser_sees_a_start_button(client):
    t = make_tournament(players=2, start=False)
    client.force_login(t.organiser)
    assert f'data-api="tournaments/{t.pk}/start"' in _page(client, t)


def test_the_organiser_sees_a_cancel_button_that_asks_first_until_the_tournament_is_over(client):
    t = make_tournament(players=2)
    client.force_login(t.organiser)
    html = _page(client, t)
    button = re.search(rf'<button id="cancel"[^>]*data-api="tournaments/{t.pk}/cancel"[^>]*>', html)
    assert button and "data-confirm=" in button.group(0)
    services.tournament_cancel(tournament_id=t.pk, user=t.organiser)
    html = _page(client, t)
    assert "/cancel" not in html and 'data-status="cancelled"' in html


def test_a_swiss_entrant_sees_the_byes_of_rounds_to_come_and_may_ask_or_take_one_back(client):
    t = make_tournament(players=3, start=False, rounds=3)
    me = t.entries.first().user
    services.bye_request(tournament_id=t.pk, user=me, round_number=2)
    client.force_login(me)
    html = _page(client, t)
    assert re.search(r'id="byes-planned">round 2: ' + re.escape(me.username), html)
    asks = re.findall(r"data-api=\"tournaments/\d+/byes\" data-body='\{\"round\": (\d)\}'", html)
    assert asks == ["1", "3"]
    assert f'data-api="tournaments/{t.pk}/byes/2" data-method="DELETE"' in html


def test_a_stranger_sees_no_buttons(client):
    t = make_tournament(players=2, start=False)
    assert "data-api=" not in _page(client, t)


def test_a_running_tournament_offers_no_join_button(client):
    t = make_tournament(players=2)
    client.force_login(UserFactory())
    assert "/join" not in _page(client, t)


def test_a_swiss_page_shows_standings_and_rounds_with_links_to_games(client):
    t = make_tournament(players=4, rounds=2)
    html = _page(client, t)
    standings = html[
        html.index('id="standings"') : html.index("</table>", html.index('id="standings"'))
    ]
    assert standings.count("<tr") == 5  # the head and one line per player
    match = Match.objects.filter(tournament=t).first()
    game = match.match_sets.first().game_set.games.first()
    assert f'href="/games/{game.pk}/"' in html and "Round 1" in html
    assert 'id="bracket"' not in html


def test_a_round_says_a_match_nobody_came_to_in_words(client):
    t = make_tournament(players=4, rounds=2)
    match = Match.objects.filter(tournament=t).first()
    nobody_comes(match)
    services.sweep()
    assert "0–0 (neither came)" in _page(client, t)


def test_every_page_of_a_signed_in_player_has_the_place_of_tournament_game_banners(client):
    client.force_login(UserFactory())
    html = client.get("/leaderboards/").content.decode()
    assert 'id="tournament-games"' in html
    client.logout()
    assert 'id="tournament-games"' not in client.get("/leaderboards/").content.decode()


def test_standings_keep_each_name_whole_in_its_title_in_a_column_that_stays_in_view(client):
    """On a phone the standings scroll sideways inside their box; the name column is the
    sticky one (``.standings .who`` in site.css), cut with an ellipsis, whole in its title, and
    the played count, which W/D/L also says, is left out there (``wide``)."""
    t = make_tournament(players=4, rounds=2)
    standings = _standings(_page(client, t))
    names = re.findall(
        r'<td class="who"><a class="name" title="([^"]+)"[^>]*>([^<]+)</a>', standings
    )
    assert len(names) == 4 and all(title == text for title, text in names)
    assert '<th class="num wide">Played</th>' in standings
    assert standings.count('<td class="num wide">') == 4


def test_the_rounds_cut_long_names_and_keep_them_whole_in_their_titles(client):
    t = make_tournament(players=4, rounds=2)
    html = _page(client, t)
    rounds = html[
        html.index('id="rounds-table"') : html.index("</table>", html.index('id="rounds-table"'))
    ]
    names = re.findall(r'<a title="([^"]+)"[^>]* class="name[^"]*"[^>]*>([^<]+)</a>', rounds)
    assert len(names) == 4 and all(title == text for title, text in names)


def _rounds_shown(html: str) -> list[str]:
    return re.findall(r'<tbody class="round" data-bracket="" data-number="(\d+)"', html)


def test_a_swiss_page_shows_its_latest_round_and_links_to_the_others(client):
    t = make_tournament(players=4, rounds=3)
    assert 'id="round-links"' not in _page(client, t)  # one round: nothing to choose from
    for m in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(m, "player1")
    services.sweep()  # round 2 paired
    html = _page(client, t)
    assert _rounds_shown(html) == ["2"]
    assert '<a href="?round=1">Round 1</a>' in html and "<b>Round 2</b>" in html
    first = client.get(f"/tournaments/{t.pk}/?round=1").content.decode()
    assert _rounds_shown(first) == ["1"] and '<a href="?round=2">Round 2</a>' in first
    for nonsense in ("9", "0", "x"):  # a round not paired (or no round): the latest
        shown = client.get(f"/tournaments/{t.pk}/?round={nonsense}").content.decode()
        assert _rounds_shown(shown) == ["2"]


def test_a_large_tournament_page_lists_its_first_players_and_links_to_all(client, monkeypatch):
    from web.views import tournaments as pages

    monkeypatch.setattr(pages, "PAGE_PLAYERS", 3)
    t = make_tournament(players=5, rounds=2)

    def lines(html: str, table: str) -> int:
        start = html.index(f'id="{table}"')
        return html[start : html.index("</table>", start)].count("<tr") - 1  # the head

    html = _page(client, t)
    assert lines(html, "standings") == 3 and lines(html, "entries") == 3
    assert 'id="show-all-players" href="?players=all&amp;round=1"' in html
    everyone = client.get(f"/tournaments/{t.pk}/?players=all").content.decode()
    assert lines(everyone, "standings") == 5 and lines(everyone, "entries") == 5
    assert 'id="show-all-players"' not in everyone


def test_a_round_robin_page_shows_a_cross_table_of_results(client):
    t = make_tournament(players=3, format="round_robin")
    match = Match.objects.filter(tournament=t, player2__isnull=False).first()
    finish_match_games(match, "player1")
    services.sweep()
    html = _page(client, t)
    table = html[
        html.index('id="crosstable"') : html.index("</table>", html.index('id="crosstable"'))
    ]
    assert '<td class="num">1</td>' in table and '<td class="num">0</td>' in table


def test_an_elimination_tournament_page_draws_its_bracket(client):
    t = make_tournament(players=4, format="single_elimination")
    html = _page(client, t)
    svg = html[html.index('<svg id="bracket"') : html.index("</svg>", html.index('id="bracket"'))]
    for entry in t.entries.select_related("user"):
        assert f">{entry.user.username}</text>" in svg
    assert svg.count("<g data-key=") == 3  # two semi-finals and the final
    assert "<polyline" in svg  # the lines from the semi-finals to the final


def test_the_bracket_highlights_the_winner_of_a_played_match(client):
    t = make_tournament(players=4, format="single_elimination")
    match = Match.objects.filter(tournament=t, key="W1-1").get()
    finish_match_games(match, "player1")
    services.sweep()
    match.refresh_from_db()
    svg = _page(client, t).split('<svg id="bracket"', 1)[1]
    assert f'class="w">{match.player1.username}</text>' in svg


def test_a_double_elimination_page_draws_the_winners_and_losers_brackets(client):
    t = make_tournament(players=4, format="double_elimination")
    svg = _page(client, t).split('<svg id="bracket"', 1)[1].split("</svg>", 1)[0]
    assert "Winners&#x27; bracket" in svg or "Winners' bracket" in svg
    assert "Losers&#x27; bracket" in svg or "Losers' bracket" in svg
    assert "Grand final" in svg
    assert re.search(r'data-key="L1-1"', svg)


def test_a_bracket_name_is_escaped_in_the_picture(client):
    t = make_tournament(players=0, start=False, format="single_elimination")
    odd = UserFactory(username="<em>odd")
    client.force_login(odd)
    client.post(f"/api/tournaments/{t.pk}/join")
    client.force_login(UserFactory())
    client.post(f"/api/tournaments/{t.pk}/join")
    client.force_login(t.organiser)
    with jobs_run():
        assert client.post(f"/api/tournaments/{t.pk}/start").status_code == 202
    html = _page(client, t)
    assert "<em>odd" not in html and "&lt;em&gt;odd" in html


def test_an_imported_tournament_page_shows_the_reports_names_without_player_links(client):
    from tournaments import selectors
    from tournaments.trf_import import tournament_import_trf

    t = make_tournament(players=5, rounds=2)
    for m in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(m, "player1")
    services.sweep()
    text = selectors.trf_text(t, after_round=1).replace("player", "Smith ")  # same width
    imported = tournament_import_trf(organiser=UserFactory(), text=text)
    html = _page(client, imported)
    assert "Smith " in html and "trf-" not in html
    assert 'href="None"' not in html and 'href="/players/trf' not in html
    assert '<span class="muted">bye</span>' in html  # five players: the PAB of round 1


def _standings(html: str) -> str:
    start = html.index('id="standings"')
    return html[start : html.index("</table>", start)]


def test_a_swiss_page_shows_the_tie_breaks_that_rank_equal_points_in_their_order(client):
    t = make_tournament(players=4, rounds=2)
    for m in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(m, "player1")
    html = _page(client, t)
    assert re.findall(r"<abbr title=\"[^\"]+\">([^<]+)</abbr>", _standings(html)) == [
        "Bh-1",
        "Bh",
        "SB",
    ]
    assert "ranked by Bh-1, Bh, SB, then by wins" in html
    assert "higher seed" not in html


def _round_robin_played(outcome) -> Tournament:
    """A 3-player round robin played to its end, each match's result ``outcome(match)``."""
    t = make_tournament(players=3, format="round_robin")
    while t.status == "running":
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, outcome(m))
        services.sweep()
        t.refresh_from_db()
    return t


def test_a_round_robin_everyone_drew_says_the_winner_won_as_the_higher_seed(client):
    t = _round_robin_played(lambda match: "draw")
    html = _page(client, t)
    assert _standings(html).count('<td class="num">1</td>') >= 3  # three share first place
    assert "won as the higher seed" in html and "ranked by SB, H2H, then by wins" in html


def test_a_round_robin_with_a_clear_winner_does_not_mention_the_seeds(client):
    champion = None

    def champion_wins(match) -> str:  # the first player seen wins all, the others draw
        nonlocal champion
        champion = champion or match.player1_id
        if champion in (match.player1_id, match.player2_id):
            return "player1" if match.player1_id == champion else "player2"
        return "draw"

    t = _round_robin_played(champion_wins)
    html = _page(client, t)
    assert t.winner_id == champion and "higher seed" not in html
