"""The Learn section, the rule pages and the policies as the server renders them, and their
links from every page's header and footer, the new-game form and a game's page."""

from __future__ import annotations

import json
import re

import pytest

from games.engine import GAMES
from learn import services
from tests.factories import UserFactory, make_game
from web.rulebook import inline, to_html

pytestmark = pytest.mark.django_db


def embedded_lesson(response) -> dict:
    match = re.search(
        rb'<script id="lesson-data" type="application/json">(.*?)</script>', response.content, re.S
    )
    assert match, "the page embeds the lesson"
    return json.loads(match.group(1))


def test_the_learn_page_lists_every_lesson_with_the_accounts_progress(client):
    user = UserFactory()
    services.lesson_answer(user=user, lesson="gomoku", step=1, move="H10")
    client.force_login(user)
    page = client.get("/learn/").content.decode()
    assert page.count('class="panel lesson-row"') == 12
    row = page.split('data-lesson="gomoku"')[1].split("</li>")[0]
    assert "1 of 2 steps done" in row
    assert 'href="/rules/gomoku/"' in row
    assert 'id="learn-visitor"' not in page


def test_a_visitor_is_told_their_progress_stays_in_the_session(client):
    client.post("/api/learn/lessons/gomoku/steps/1/answer/", {"move": "H10"})
    page = client.get("/learn/").content.decode()
    assert 'id="learn-visitor"' in page
    assert "1 of 2 steps done" in page.split('data-lesson="gomoku"')[1]


def test_a_lesson_page_embeds_its_steps_and_boards(client):
    response = client.get("/learn/go-ko/")
    lesson = embedded_lesson(response)
    assert lesson["slug"] == "go-ko"
    assert [s["number"] for s in lesson["step_list"]] == [1, 2, 3]
    assert lesson["step_list"][0]["board"]["go"] is True
    assert b'src="/static/web/learn.js"' in response.content
    assert b'href="/learn/go-end/"' in response.content  # the next lesson


def test_an_unknown_lesson_page_is_404(client):
    assert client.get("/learn/chess/").status_code == 404


def test_every_page_links_learn_rules_and_the_policies(client):
    page = client.get("/").content.decode()
    for href in ("/learn/", "/rules/", "/policies/rated-games/", "/policies/privacy/"):
        assert f'href="{href}"' in page
    assert 'href="/policies/terms/"' in page


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_has_its_rules_page_from_the_rule_book(client, name):
    slug = GAMES[name].slug
    page = client.get(f"/rules/{slug}/").content.decode()
    assert f'<h3 id="{re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")}">' in page
    assert "Board and notation" in page
    assert "How a game ends" in page


def test_go_rules_have_ko_and_counting_and_pente_rules_have_captures(client):
    go = client.get("/rules/go-9/").content.decode()
    assert "Ko and positional superko" in go and "Passes, marking and counting" in go
    assert "The tournament rule" not in go
    pente = client.get("/rules/pente/").content.decode()
    assert "The tournament rule" in pente and "Captures" in pente
    assert "Ko and positional superko" not in pente
    swap2 = client.get("/rules/swap2-pente/").content.decode()
    assert "Opening protocols" in swap2 and "Five in a row" in swap2


def test_a_rules_page_links_only_sections_it_shows(client):
    page = client.get("/rules/keryo-pente/").content.decode()
    assert "their own section" in page
    assert 'href="#opening-protocols"' not in page  # not on this page: left as text
    go = client.get("/rules/go/").content.decode()
    assert 'href="#passes-marking-and-counting"' in go  # on the page: a link to it
    assert '<h3 id="passes-marking-and-counting">' in go


def test_a_rules_page_by_the_games_name_leads_to_its_slug(client):
    response = client.get("/rules/Go (13x13)/")
    assert response.status_code == 301
    assert response["Location"] == "/rules/go-13/"
    assert client.get("/rules/chess/").status_code == 404


def test_the_rule_books_markdown_is_escaped_and_links_lead_to_game_pages():
    assert inline("a <b> `x<y>` **bold**") == (
        "a &lt;b&gt; <code>x&lt;y&gt;</code> <strong>bold</strong>"
    )
    assert inline("[Poof-Pente](#poof-pente)") == '<a href="/rules/poof-pente/">Poof-Pente</a>'
    assert inline("[Timeouts](timeouts.md)") == "Timeouts"
    html = to_html("1. one\n   - nested\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    assert "<ol><li>one<ul><li>nested</li></ul></li><li>two</li></ol>" in html
    assert "<td>1</td><td>2</td>" in html


def test_the_new_game_form_links_each_games_rules(client):
    client.force_login(UserFactory())
    page = client.get("/play/").content.decode()
    for v in GAMES.values():
        assert f'data-when="variant:{v.slug}" class="rules-link" href="/rules/{v.slug}/"' in page


def test_the_game_page_links_its_games_rules(client):
    game = make_game(variant="Keryo-Pente")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert '<a id="rules-link" href="/rules/Keryo-Pente/">Rules</a>' in page
    assert client.get("/rules/Keryo-Pente/")["Location"] == "/rules/keryo-pente/"


def test_the_rated_games_policy_states_the_servers_numbers(client, settings):
    settings.ABORT_LIMIT = 4
    page = client.get("/policies/rated-games/").content.decode()
    assert "Games against the server's computers are unrated" in page
    assert "Everyone starts at 1600" in page
    assert "until it has 20 rated results" in page
    assert "4 or more games aborted" in page


def test_the_privacy_and_terms_pages_render(client):
    privacy = client.get("/policies/privacy/").content.decode()
    assert "Deleting your account" in privacy and "about 24 hours" in privacy
    assert "Play fair" in client.get("/policies/terms/").content.decode()
