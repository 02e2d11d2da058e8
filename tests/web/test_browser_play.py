"""Two people play in their browsers: sign up, challenge, accept, play a rated set of Pente to
a five by clicking the board, each seeing the other's stones arrive without reloading, while a
spectator watches; the games then show on both player pages and in the rankings. Screenshots
of the play page, the viewer, the player page and the rankings are kept as artifacts.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.web.conftest import (
    GAME_URL,
    accepted_from_home,
    challenge,
    signup,
    unique_name,
    watch_errors,
)
from tests.web.playing import (
    PASSWORD,
    against_the_computer,
    click,
    game_id,
    play_to_five,
    players_at_a_game,
    stone,
    white_and_black,
)

pytestmark = pytest.mark.usefixtures("browser")


def test_two_players_play_a_rated_set_by_clicking_while_a_spectator_watches(new_page, site, shot):
    ann, bob, carl = new_page(), new_page(), new_page()
    errors = [watch_errors(page) for page in (ann, bob, carl)]
    ann_name, bob_name = unique_name("ann"), unique_name("bob")
    signup(ann, site, ann_name, PASSWORD)
    signup(bob, site, bob_name, PASSWORD)

    # Ann challenges Bob to a rated game from the new-game page.
    ann.goto(f"{site}/play/")
    ann.select_option("select[name=opponent]", "player")
    ann.fill("input[name=invitee]", bob_name)
    ann.check("input[name=rated]")
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#outgoing li[data-challenge]")).to_have_count(1)

    # Bob accepts it on his home page; both are taken to the set's first game.
    accepted_from_home(site, ann, bob)
    first = min(game_id(ann), game_id(bob))
    for page in (ann, bob, carl):
        if page.url != f"{site}/games/{first}/":
            page.goto(f"{site}/games/{first}/")
    white, black = white_and_black(ann, bob)
    expect(carl.locator("#controls button")).to_have_count(0)  # a spectator has no buttons
    expect(black.locator("#actions")).to_be_visible()  # a player's: resign, undo, ...

    # Chat in the game reaches the other player and the spectator.
    black.fill("#chat-form input[name=text]", "good luck <b>")
    black.click("#chat-form button[type=submit]")
    for page in (white, black, carl):
        expect(page.locator("#chat li")).to_contain_text(["good luck <b>"])

    play_to_five(white, black, watchers=[carl])
    shot(black, "play")
    winner = white.locator("#me").inner_text()
    for page in (white, black, carl):
        expect(page.locator("#status")).to_have_text(f"{winner} won by five in a row")
    expect(carl.locator("#set-box")).to_contain_text("Game 2 of this set")

    # The viewer: step back with the keyboard to an earlier position, drawn on the same board
    # (its stones, not the server's picture), not played on.
    carl.keyboard.press("ArrowLeft")
    carl.keyboard.press("ArrowLeft")
    expect(carl.locator("#ply-label")).to_have_text("7 / 9")
    expect(carl.locator("#board svg")).to_have_attribute("aria-label", re.compile("after move 7"))
    expect(carl.locator("#board rect.pt")).to_have_count(0)
    expect(carl.locator("#board circle.stone")).to_have_count(7)
    expect(carl.locator("#board svg")).to_have_count(1)
    shot(carl, "viewer")
    carl.keyboard.press("End")
    expect(stone(carl, "K14")).to_have_count(1)
    # A click on a row of the move list, beside its words, shows that position too.
    row = carl.locator('#moves li[data-ply="3"]').bounding_box()
    carl.mouse.click(row["x"] + row["width"] - 4, row["y"] + row["height"] / 2)
    expect(carl.locator("#ply-label")).to_have_text("3 / 9")

    # The set's second game, colours swapped, reached from the first one's page.
    for page in (ann, bob):
        with page.expect_navigation():
            page.click("#set-other-link")
    second = game_id(ann)
    assert second != first and game_id(bob) == second
    white, black = white_and_black(ann, bob)
    assert white.locator("#me").inner_text() != winner
    play_to_five(white, black)

    # Both games on both player pages; both players in the rankings once the set is rated.
    for name in (ann_name, bob_name):
        ann.goto(f"{site}/players/{name}/")
        for game in (first, second):
            expect(ann.locator(f'#recent-games a[href="/games/{game}/"]')).to_have_count(1)
    shot(ann, "player")
    # An untimed set counts for the normal rating, as on Pente.org.
    board = f"{site}/leaderboards/?variant=Pente&category=normal&provisional=1"
    deadline = time.monotonic() + 20
    while True:
        ann.goto(board)
        names = ann.locator("#leaderboard").inner_text()
        if ann_name in names and bob_name in names:
            break
        assert time.monotonic() < deadline, f"the rated set is not in the rankings:\n{names}"
        time.sleep(0.5)
    shot(ann, "leaderboard")

    # The game database finds both games of the set by a player's name.
    ann.goto(f"{site}/database/?player={bob_name}")
    for game in (first, second):
        expect(ann.locator(f'#games a[href="/games/{game}/"]')).to_have_count(1)
    shot(ann, "database")
    assert errors == [[], [], []]


def test_playing_the_computer_starts_at_once_and_it_answers(new_page, site):
    page, errors = against_the_computer(new_page, site)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn|to move"))
    if "Your turn" not in page.locator("#status").inner_text():
        expect(page.locator("#status")).to_have_text("Your turn", timeout=30_000)
    before = page.locator("#board circle.stone").count()
    point = next(p for p in ("A1", "A19", "T1", "T19", "B2") if stone(page, p).count() == 0)
    click(page, point)
    expect(stone(page, point)).to_have_count(1)
    # The computer's reply arrives on the stream.
    expect(page.locator("#board circle.stone")).to_have_count(before + 2, timeout=30_000)
    expect(page.locator("#status")).to_have_text("Your turn")
    assert errors == []


def test_a_click_is_played_when_the_board_is_redrawn_between_press_and_release(new_page, site):
    # The page redraws its board whenever a state arrives (its stream catching up, a reload's
    # read): a press and release either side of a redraw is still the player's click.
    (ann, bob), errors = players_at_a_game(new_page, site)
    white, black = white_and_black(ann, bob)
    # Scrolled to and measured in one step in the page: the board may be redrawn at any moment
    # (the stream catching up), which detaches the element a locator is waiting on.
    x, y = black.evaluate(
        """() => {
            const point = document.querySelector('#board rect.pt[data-point="A1"]');
            point.scrollIntoView({block: "center", inline: "center"});
            const box = point.getBoundingClientRect();
            return [box.x + box.width / 2, box.y + box.height / 2];
        }"""
    )
    black.mouse.move(x, y)
    black.mouse.down()
    black.evaluate("document.querySelector('#board svg').dataset.pressed = 'yes'")
    # The page reads the game again, as when it comes back from the browser's memory, and
    # draws a new board under the pointer.
    black.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    expect(black.locator("#board svg:not([data-pressed])")).to_have_count(1)
    black.mouse.up()
    for page in (black, white):
        expect(stone(page, "A1")).to_have_count(1)
    assert errors == [[], []]


def at_the_form(new_page, site, names: tuple[str, ...]):
    """A new player on the play page: the page, its console errors, and the form's fields
    ``names`` by name."""
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("form"), PASSWORD)
    page.goto(f"{site}/play/")
    return page, errors, {name: page.locator(f"#challenge-form [name={name}]") for name in names}


def test_the_new_game_form_shows_only_the_fields_of_the_choices_made(new_page, site):
    names = ("level", "invitee", "rated", "initial_minutes", "days_per_move")
    page, errors, field = at_the_form(new_page, site, names)
    # The computer, untimed: its level, nothing about a player, a rating or a clock.
    for opponent, clock, shown in (
        ("computer", "none", {"level"}),
        ("player", "live", {"invitee", "rated", "initial_minutes"}),
        ("open", "turn", {"rated", "days_per_move"}),
    ):
        page.select_option("select[name=opponent]", opponent)
        page.select_option("select[name=time_control]", clock)
        for name, locator in field.items():
            expect(locator).to_be_visible() if name in shown else expect(locator).to_be_hidden()
    # The checkbox sits beside its words, not on a line of its own above them.
    box = field["rated"].bounding_box()
    label = page.locator("#challenge-form label:has([name=rated])").bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2)) < 6
    assert errors == []


def test_a_take_back_is_asked_by_the_player_who_just_moved_and_agreed_by_the_other(new_page, site):
    (ann, bob), errors = players_at_a_game(new_page, site)
    waiting, mover = white_and_black(ann, bob)
    expect(mover.locator("[data-action=undo-ask]")).to_have_count(0)  # nothing of theirs yet
    # The centre stone is the server's: player 1 cannot ask to take it back.
    expect(waiting.locator("[data-action=resign]")).to_have_count(1)
    expect(waiting.locator("[data-action=undo-ask]")).to_have_count(0)
    click(mover, "A1")
    for page in (ann, bob):
        expect(stone(page, "A1")).to_have_count(1)
    expect(waiting.locator("[data-action=undo-ask]")).to_have_count(0)  # not their move
    mover.click("[data-action=undo-ask]")
    # Said in words beside the board, not only by the buttons (below the board on a phone).
    expect(waiting.locator("#requests")).to_have_text(
        re.compile("asks to take back their last move")
    )
    waiting.click("[data-action=undo-agree]")
    for page in (ann, bob):
        expect(stone(page, "A1")).to_have_count(0)
    expect(mover.locator("#status")).to_have_text("Your turn")
    assert errors == [[], []]


def test_the_challenger_reaches_the_game_without_the_game_started_event(new_page, site):
    """The page never reloads itself after a challenge (that lost the "game started" event): it
    watches its challenge, and when the challenge leaves the list it asks the server for the
    game. Here the challenger's own stream is cut off, so only that check can take her there."""
    ann, bob = new_page(), new_page()
    errors = [watch_errors(page) for page in (ann, bob)]
    bob_name = unique_name("bob")
    signup(ann, site, unique_name("ann"), PASSWORD)
    signup(bob, site, bob_name, PASSWORD)
    ann.route("**/api/me/events*", lambda route: route.abort())
    posts = []
    ann.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    ann.goto(f"{site}/play/")
    # "A player I name" with no name: asked for, and nothing is sent (no open challenge).
    ann.select_option("select[name=opponent]", "player")
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#challenge-notice")).to_have_text(
        "Type the name of the player to challenge."
    )
    assert posts == []
    ann.fill("input[name=invitee]", bob_name)
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#outgoing li[data-challenge]")).to_have_count(1)
    accepted_from_home(site, ann, bob)
    assert game_id(ann) == game_id(bob)
    assert [e for e in errors[0] if "me/events" not in e] == [] and errors[1] == []


def test_a_game_against_the_computer_started_in_one_tab_leaves_the_others_where_they_are(
    new_page, site
):
    """The "game started" event reaches every tab of the player: only the tab that waited for
    that game goes to it; another tab lists it among the player's games and stays."""
    first = new_page()
    errors = watch_errors(first)
    signup(first, site, unique_name("tabs"), PASSWORD)
    other = first.context.new_page()
    other.goto(f"{site}/")
    expect(other.locator("#live")).to_contain_text("No game in progress.")
    challenge(first, site, variant="Gomoku")
    first.wait_for_url(GAME_URL)
    playing = game_id(first)
    expect(other.locator(f'#live a[href="/games/{playing}/"]').first).to_be_visible()
    assert other.url.rstrip("/") == site.rstrip("/")
    assert errors == []


def test_the_form_offers_the_games_options_where_they_apply_and_sends_them(new_page, site):
    names = ("seat_wanted", "tournament_rule", "adjacent_only", "restriction", "restriction_rating")
    page, errors, field = at_the_form(new_page, site, names)
    note = page.locator("#challenge-form p", has_text="played with the tournament rule")

    def shown(*visible: str) -> None:
        for name, locator in field.items():
            expect(locator).to_be_visible() if name in visible else expect(locator).to_be_hidden()

    # The computer, Pente: who moves first, the tournament rule, adjacent-only.
    shown("seat_wanted", "tournament_rule", "adjacent_only")
    # Go has neither option; Gomoku no tournament rule.
    page.select_option("select[name=variant]", "Go (9x9)")
    shown("seat_wanted")
    page.select_option("select[name=variant]", "Gomoku")
    shown("seat_wanted", "adjacent_only")
    # Anyone, Pente: who may take it up too, and a bound for a rating restriction.
    page.select_option("select[name=variant]", "Pente")
    page.select_option("select[name=opponent]", "open")
    shown("seat_wanted", "tournament_rule", "adjacent_only", "restriction")
    page.select_option("select[name=restriction]", "rating_above")
    shown("seat_wanted", "tournament_rule", "adjacent_only", "restriction", "restriction_rating")
    # Rated: always the tournament rule (said), never adjacent-only.
    page.check("input[name=rated]")
    shown("seat_wanted", "restriction", "restriction_rating")
    expect(note).to_be_visible()
    page.uncheck("input[name=rated]")
    expect(note).to_be_hidden()
    # Three players: no seat to choose, no tournament rule; partners may have the rule.
    page.select_option("select[name=seats]", "3")
    shown("adjacent_only", "restriction", "restriction_rating")
    page.select_option("select[name=seats]", "partners")
    shown("tournament_rule", "adjacent_only", "restriction", "restriction_rating")
    # Back to the computer: a table of its own (two seats), whatever the hidden list says.
    page.select_option("select[name=opponent]", "computer")
    shown("seat_wanted", "tournament_rule", "adjacent_only")

    # An open challenge with them: the API has each.
    page.select_option("select[name=opponent]", "open")
    page.select_option("select[name=seats]", "2")
    page.select_option("select[name=seat_wanted]", "2")
    page.check("input[name=tournament_rule]")
    page.select_option("select[name=restriction]", "rating_above")
    page.fill("input[name=restriction_rating]", "1700")
    page.click("#challenge-form button[type=submit]")
    expect(page.locator("#challenge-notice")).to_contain_text("Your challenge is posted")
    row = page.locator("#outgoing li[data-challenge]")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(
        "Pente · unrated · untimed · tournament rule · for players rated 1700 or more · by"
    )
    expect(row).to_contain_text("· whoever takes it moves first")
    made = page.evaluate(
        "async (id) => (await fetch(`/api/challenges/${id}/`)).json()",
        row.get_attribute("data-challenge"),
    )
    assert {k: made[k] for k in names} == {
        "seat_wanted": 2,
        "tournament_rule": True,
        "adjacent_only": False,
        "restriction": "rating_above",
        "restriction_rating": 1700,
    }
    assert errors == []
